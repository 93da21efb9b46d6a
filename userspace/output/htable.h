/* SPDX-License-Identifier: GPL-2.0 */
/*
 * htable.h - tables for people: aligned text grids, and the human default
 * of stat, time and span built on them: durations scaled with units,
 * counts with thousands separators, a column of zeros left out, a loss
 * always shown when it is not zero, flagged with '!' and explained in a
 * footnote.
 */
#ifndef _SW_OUTPUT_HTABLE_H
#define _SW_OUTPUT_HTABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* An aligned text grid: row 0 is the header. */
struct sw_grid {
	size_t ncols;
	size_t nrows;
	char **cell;
	bool *left;
};

int sw_grid_init(struct sw_grid *g, size_t ncols, size_t nrows);
/* Stores a copy of @s safe on a terminal (control bytes as \ooo). */
int sw_grid_set(struct sw_grid *g, size_t r, size_t c, const char *s);
/* Columns two blanks apart; the last column is not padded. */
void sw_grid_print(FILE *f, const struct sw_grid *g);
void sw_grid_free(struct sw_grid *g);
/* Terminal columns of a sanitized string: UTF-8 continuation bytes take none. */
size_t sw_text_width(const char *s);

/**
 * enum sw_hkind - what a column of a human table holds.
 * @SW_HK_TEXT:  words, left-aligned (names, how a probe is attached)
 * @SW_HK_COUNT: a count, with thousands separators
 * @SW_HK_DUR:   nanoseconds, scaled to ns, µs, ms or s
 * @SW_HK_FIXED: a fixed-point value with @places decimals (cpi_*)
 * @SW_HK_LOSS:  a count of what was lost: shown whenever it is not zero
 *               on some row, each such cell flagged with '!', the column
 *               explained by a footnote
 * @SW_HK_LEFT:  a count of what the probe's own filters left out (not a
 *               loss): shown the same way, flagged with '*'
 */
enum sw_hkind {
	SW_HK_TEXT,
	SW_HK_COUNT,
	SW_HK_DUR,
	SW_HK_FIXED,
	SW_HK_LOSS,
	SW_HK_LEFT,
};

/**
 * struct sw_hcol - one column of a human table.
 * @head:   its header
 * @kind:   what it holds
 * @places: decimals of SW_HK_FIXED
 * @keep:   shown even when zero on every row (calls)
 * @note:   SW_HK_LOSS, SW_HK_LEFT: what the count is, for its footnote
 * @text:   SW_HK_TEXT cells (owned)
 * @v:      the other kinds' cells
 */
struct sw_hcol {
	char *head;
	enum sw_hkind kind;
	unsigned int places;
	bool keep;
	char *note;
	char **text;
	uint64_t *v;
};

/**
 * struct sw_htable - a human table, built column by column.
 * @nrows: its rows
 * @ncols: its columns so far
 * @col:   the columns
 * @empty: per row: no calls, so its durations print as "-"
 * @div:   durations in one fixed unit of @div ns (@unit), 0: each scaled
 * @unit:  that unit's name
 * @notes: lines printed under the footnotes of the losses (owned)
 * @nnotes: how many
 */
struct sw_htable {
	size_t nrows;
	size_t ncols;
	struct sw_hcol *col;
	bool *empty;
	uint64_t div;
	const char *unit;
	char **notes;
	size_t nnotes;
};

int sw_htable_init(struct sw_htable *t, size_t nrows);
void sw_htable_free(struct sw_htable *t);

/**
 * sw_htable_add() - append a column.
 * @t:    the table
 * @head: its header
 * @kind: SW_HK_*
 * @note: a loss's explanation (SW_HK_LOSS), else NULL
 *
 * Return: the column (its cells zero or NULL), or NULL when out of memory.
 */
struct sw_hcol *sw_htable_add(struct sw_htable *t, const char *head,
			      enum sw_hkind kind, const char *note);

/* Sets a text cell (a copy). Return: 0 or -ENOMEM. */
int sw_hcol_text(struct sw_hcol *c, size_t row, const char *s);

/* Adds a line under the table, "printf" style. Return: 0 or -ENOMEM. */
int sw_htable_note(struct sw_htable *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Whether column @c is shown: text, kept, or not zero on some row. */
bool sw_htable_shown(const struct sw_htable *t, size_t c);

/**
 * sw_htable_print() - the shown columns as an aligned grid, then one
 * footnote per loss column that is not zero ("! HEAD: N NOTE"), then
 * the notes.
 *
 * Return: 0, -ENOMEM or -EIO.
 */
int sw_htable_print(FILE *f, const struct sw_htable *t);

/*
 * sw_htable_print_vertical() - a table of one row as "name  value" lines
 * (the first column's cell as a title line), then the footnotes.
 */
int sw_htable_print_vertical(FILE *f, const struct sw_htable *t);

/**
 * sw_loss_note() - what a loss column of the module's stats or span_stats
 * files counts.
 * @col: the column's name
 *
 * Return: the explanation, or NULL when @col is not a loss.  "<event>_
 * unmeasured" columns are losses too: the caller says which event.
 */
const char *sw_loss_note(const char *col);

#define SW_NOTE_LEN 512
const char *sw_fmt_counted(char *buf, uint64_t n, const char *note);
/* Whether loss column @col counts what the probe's own filters left out. */
bool sw_loss_is_choice(const char *col);

#endif /* _SW_OUTPUT_HTABLE_H */
