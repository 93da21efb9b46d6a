/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist.h - log2 histograms in SystemTap's @hist_log layout, as printed by
 * the stopwatch hist/<probe> files:
 *
 *   vfs_read: ns, 123 calls
 *   value |-------------------------------------------------- count
 *     256 |                                                    0
 *    1024 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 100
 *         ~
 *   65536 |                                                    0
 *
 * Bucket 0 holds the value 0; bucket b >= 1 holds [2^(b-1), 2^b).  A row's
 * label is its bucket's lower bound; "~" stands for all-zero buckets left
 * out.  A file holds one such section per unit (ns, cycles, ...).
 *
 * The format has one owner, lib/stats.c (built into stopwatch.ko too):
 * its sw_hist_print() prints it and its sw_hist_reader parses it; this
 * file collects the sections and prints them with those.
 */
#ifndef _SW_UTIL_HIST_H
#define _SW_UTIL_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/stats.h"
#include "base/err.h"

/**
 * struct sw_hist - one histogram section.
 * @unit:   what was measured: "ns", "cycles", ...
 * @calls:  the call count of the title line
 * @has_row: the title went on with the row's timing columns (the hists
 *          file's wall-time sections, SW_HIST_TITLE_ROW_FMT)
 * @has_pct: ... and the percentiles among them (stats_format 1.6)
 * @row:    those columns, read with @calls and @bucket (enum
 *          sw_hist_row_field)
 * @bucket: counts; buckets the input left out or elided are 0
 */
struct sw_hist {
	char unit[SW_HIST_UNIT_LEN];
	uint64_t calls;
	bool has_row;
	bool has_pct;
	uint64_t row[SW_HIST_ROW_FIELDS];
	uint64_t bucket[SW_HIST_BUCKETS];
};

/**
 * struct sw_hist_set - all sections of one hist/<probe> file.
 * @n:    number of sections
 * @hist: the sections, in file order
 * @cap:  sections allocated at @hist (parser's)
 */
struct sw_hist_set {
	size_t n;
	struct sw_hist *hist;
	size_t cap;
};

/**
 * sw_hist_parse() - parse the sections of a hist/<probe> file.
 * @text:  NUL-terminated file contents
 * @probe: the probe the title lines must name, or NULL to accept any
 * @what:  name of the input for messages (usually its path)
 * @out:   on success the sections, freed with sw_hist_set_free()
 * @err:   message on failure; may be NULL
 *
 * Return: 0, -ENODATA (no section at all), -EINVAL (malformed), -ENOMEM.
 */
int sw_hist_parse(const char *text, const char *probe, const char *what,
		  struct sw_hist_set **out, struct sw_err *err);

/*
 * Where the sections of the title naming probe @probe (@len bytes, not
 * NUL-terminated) go: *@set, or NULL to skip them.  Returns 0 or a
 * negative errno after saying why in @err (@what, @lineno: the title's).
 */
typedef int (*sw_hist_set_of_fn)(void *ctx, const char *probe, size_t len,
				 struct sw_hist_set **set, const char *what,
				 size_t lineno, struct sw_err *err);

/**
 * sw_hist_parse_each() - parse histogram text naming several probes (the
 * hists file), each section going where @set_of says.
 * @text:   NUL-terminated file contents
 * @what:   name of the input for messages
 * @set_of: where each title's sections go
 * @ctx:    passed to @set_of
 * @err:    message on failure; may be NULL
 *
 * Return: 0, -ENODATA (no section at all), -EINVAL (malformed), -ENOMEM,
 * or @set_of's error.
 */
int sw_hist_parse_each(const char *text, const char *what,
		       sw_hist_set_of_fn set_of, void *ctx, struct sw_err *err);

/*
 * Where the fine buckets of the lhists title just read by @r (its probe,
 * sub-bucket bits, calls and, from stats_format 1.9, total) go: *@buckets
 * (sw_lhist_nbuckets(@r->bits) zeroed counts), or NULL to skip them.
 * Returns 0 or a negative errno after saying why in @err.
 */
typedef int (*sw_lhist_of_fn)(void *ctx, const struct sw_lhist_reader *r,
			      uint64_t **buckets, struct sw_err *err);

/**
 * sw_lhist_parse_each() - parse the lhists file (stats_format 1.8): every
 * probe's log-linear wall-time histogram, with lib/stats.c's reader.
 * @text:  NUL-terminated file contents
 * @what:  name of the input for messages
 * @lin_of: where each title's buckets go
 * @ctx:   passed to @lin_of
 * @err:   message on failure; may be NULL
 *
 * Return: 0 (also for a file without sections: no probe), -EINVAL
 * (malformed), or @lin_of's error.
 */
int sw_lhist_parse_each(const char *text, const char *what,
			sw_lhist_of_fn lin_of, void *ctx, struct sw_err *err);

void sw_hist_set_free(struct sw_hist_set *s);

/* The section measuring @unit, or NULL. */
const struct sw_hist *sw_hist_find(const struct sw_hist_set *s,
				   const char *unit);

/* Lower bound of bucket @b: 0 for bucket 0, else 2^(b-1). */
static inline uint64_t sw_hist_low(unsigned int b)
{
	return sw_hist_bucket_low(b);
}

/* Bucket whose lower bound is @low, or -1 when @low is no bucket's bound. */
int sw_hist_bucket_of(uint64_t low);

/* Sum of the bucket counts, saturating at UINT64_MAX. */
uint64_t sw_hist_total(const struct sw_hist *h);

/* Index of the highest nonzero bucket, or -1 for an empty histogram. */
int sw_hist_top(const struct sw_hist *h);

/**
 * sw_hist_fprint() - print a section the way the kernel does.
 * @f:     output
 * @probe: probe name for the title line
 * @h:     the histogram
 *
 * Return: 0, or -EIO when writing failed.
 */
int sw_hist_fprint(FILE *f, const char *probe, const struct sw_hist *h);

#endif /* _SW_UTIL_HIST_H */
