/* SPDX-License-Identifier: GPL-2.0 */
/*
 * table.h - whitespace-separated tables whose first line names the columns,
 * as in the stopwatch "stats" and "breakdown_stats" files.
 */
#ifndef _SW_UTIL_TABLE_H
#define _SW_UTIL_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

/**
 * struct sw_table - a parsed table.
 * @ncols: number of columns
 * @nrows: number of data rows (blank lines are skipped)
 * @col:   the @ncols column names from the header line
 * @cell:  @nrows x @ncols fields, row-major
 * @line:  the 1-based source line of each row, for messages
 * @text:  private copy of the input that the strings point into
 */
struct sw_table {
	size_t ncols;
	size_t nrows;
	char **col;
	char **cell;
	size_t *line;
	char *text;
};

/**
 * sw_table_parse() - split a header line and rows into fields.
 * @text: NUL-terminated input
 * @what: name of the input for messages (usually its path)
 * @out:  on success the table, freed with sw_table_free()
 * @err:  message on failure; may be NULL
 *
 * Every row must have as many fields as the header.  Duplicate column
 * names are refused.
 *
 * Return: 0, -ENODATA (no header line), -EINVAL (malformed), -ENOMEM.
 */
int sw_table_parse(const char *text, const char *what, struct sw_table **out,
		   struct sw_err *err);

void sw_table_free(struct sw_table *t);

/**
 * sw_table_split_row() - the fields of one row, split in place.
 * @line:  one line of a table, without its newline
 * @field: room for @n fields
 * @n:     the number of fields the header has
 *
 * For a reader that takes a table a line at a time: the line is cut into
 * @field only when it has exactly @n fields, and is left whole otherwise,
 * to be quoted in a message.  A blank line has none.
 *
 * Return: the number of fields of @line.
 */
size_t sw_table_split_row(char *line, char **field, size_t n);

/* Index of the column called @name, or -1. */
int sw_table_col(const struct sw_table *t, const char *name);

static inline const char *sw_table_at(const struct sw_table *t, size_t row,
				      size_t col)
{
	return t->cell[row * t->ncols + col];
}

/**
 * sw_parse_u64() - strict decimal unsigned 64-bit integer.
 * @s: the string: one or more digits, nothing else
 * @v: the value
 *
 * Return: 0, -EINVAL (not a number), -ERANGE (too large).
 */
int sw_parse_u64(const char *s, uint64_t *v);

/* Most decimal places sw_parse_fixed() takes. */
#define SW_FIXED_MAX_PLACES 9

/**
 * sw_parse_fixed() - unsigned decimal with an optional fraction, scaled.
 * @s:      "1250" or "1.250": digits, optionally '.' and 1 to
 *          SW_FIXED_MAX_PLACES digits, nothing else
 * @v:      the value times 10^@places ("1.250" -> 1250)
 * @places: the number of digits after the point (0 without one)
 *
 * stopwatch.ko prints fixed-point columns (cpi_*) with three places.
 *
 * Return: 0, -EINVAL (not a number), -ERANGE (too large).
 */
int sw_parse_fixed(const char *s, uint64_t *v, unsigned int *places);

/**
 * sw_unescape_octal() - undo the kernel's seq_escape() "\ooo" escapes.
 * @s: escaped string, e.g. "my\040task"
 *
 * A backslash not followed by three octal digits is kept as it is.
 *
 * Return: a malloc()ed string, or NULL when out of memory.
 */
char *sw_unescape_octal(const char *s);

#endif /* _SW_UTIL_TABLE_H */
