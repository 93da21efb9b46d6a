/* SPDX-License-Identifier: GPL-2.0 */
/*
 * line.h - a text line put together in a buffer and written with one
 * fwrite(): strings and numbers with the widths and alignments printf's
 * %16s, %-7u, %03u, %12.6f and %x give, without printf's format parsing
 * or floating point.  For the writers that print a line per record
 * (stopwatch script, stopwatch trace), where printf was most of the time.
 *
 * A line longer than the buffer is written in pieces as it grows, so no
 * part of it is ever cut.  Numbers are unsigned 64-bit values (a fixed
 * one: the value in units of 10^-places, e.g. nanoseconds as 9 places of
 * seconds).
 */
#ifndef _STOPWATCH_BASE_LINE_H
#define _STOPWATCH_BASE_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SW_LINE_BUF 512

/* Alignment of a number or string in its width (right by default). */
#define SW_LINE_LEFT 1u		/* as printf's '-' flag */
#define SW_LINE_ZERO 2u		/* leading zeros, as printf's '0' flag */

/**
 * struct sw_line - a line being put together.
 * @f: where it goes
 * @n: bytes in @b
 * @b: the line so far (or its part not yet written)
 */
struct sw_line {
	FILE *f;
	size_t n;
	char b[SW_LINE_BUF];
};

static inline void sw_line_init(struct sw_line *l, FILE *f)
{
	l->f = f;
	l->n = 0;
}

/* Write what the buffer holds. */
static inline void sw_line_flush(struct sw_line *l)
{
	if (l->n)
		fwrite(l->b, 1, l->n, l->f);
	l->n = 0;
}

void sw_line_mem(struct sw_line *l, const char *s, size_t len);
void sw_line_pad(struct sw_line *l, char c, size_t count);
void sw_line_str(struct sw_line *l, const char *s, size_t width,
		 unsigned int flags);
void sw_line_u64(struct sw_line *l, uint64_t v, size_t width,
		 unsigned int flags);
void sw_line_i64(struct sw_line *l, int64_t v);
void sw_line_x64(struct sw_line *l, uint64_t v, size_t width);
void sw_line_fixed(struct sw_line *l, uint64_t v, unsigned int places,
		   size_t width);
/* @s as a quoted JSON string, as sw_json_str() writes it (base/json.h). */
void sw_line_json_str(struct sw_line *l, const char *s);

static inline void sw_line_puts(struct sw_line *l, const char *s)
{
	sw_line_str(l, s, 0, 0);
}

static inline void sw_line_putc(struct sw_line *l, char c)
{
	if (l->n == SW_LINE_BUF)
		sw_line_flush(l);
	l->b[l->n++] = c;
}

/* The line's end: a newline, and the whole written. */
static inline void sw_line_end(struct sw_line *l)
{
	sw_line_putc(l, '\n');
	sw_line_flush(l);
}

#endif /* _STOPWATCH_BASE_LINE_H */
