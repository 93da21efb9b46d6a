/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stat-display.h - the output formats of "stopwatch stat": an aligned
 * table with histograms, JSON, and Prometheus text exposition.
 */
#ifndef _SW_UTIL_STAT_DISPLAY_H
#define _SW_UTIL_STAT_DISPLAY_H

#include <stdbool.h>
#include <stdio.h>

#include "base/table.h"
#include "control/snapshot.h"
#include "output/htable.h"

/**
 * struct sw_display_opts - what to show.
 * @hist:      the histograms
 * @breakdown: the breakdown table (when the snapshot has one)
 * @openmetrics: Prometheus: OpenMetrics 1.0 instead of the text format 0.0.4
 * @max_series: Prometheus: keyed rows (breakdown, keys) written per family
 *             at most, those with the most calls; the rest summed in one
 *             "other" row per probe (0: no limit)
 * @human:     with @all, durations (columns ending in _ns) as "2.30 us"
 * @all:       the table: every column of the stats file, as it reads
 *             (-v, --raw); else the human default (sw_human_build())
 * @percentiles: the human default shows the percentile columns too
 */
struct sw_display_opts {
	bool hist;
	bool breakdown;
	bool human;
	bool openmetrics;
	size_t max_series;
	bool all;
	bool percentiles;
	bool log2_buckets;
	const uint64_t *window;	/* corrected (--correct): per probe of the
				 * snapshot, the ns taken off (0: not
				 * calibrated); NULL: as measured */
};

/**
 * struct sw_human_rows - which probes a human table shows, in which order.
 * @ids:   their names in the stats file; NULL: every probe of the snapshot
 * @names: what the first column says of each (NULL: @ids)
 * @n:     how many (with @ids)
 * @head:  the first column's header (NULL: "probe")
 * @div:   durations in a unit of @div ns called @unit; 0: each scaled
 * @unit:  that unit
 * @brief_events: of the event columns, only the averages (and losses)
 * @percentiles: the percentile columns (p50_ns ... p999_ns) too; they
 *          are left out otherwise
 */
struct sw_human_rows {
	const char *const *ids;
	const char *const *names;
	size_t n;
	const char *head;
	uint64_t div;
	const char *unit;
	bool brief_events;
	bool percentiles;
};

/* Whether @col is one of the percentile columns (SW_COLS_PCT). */
bool sw_is_pct_col(const char *col);

/**
 * sw_human_build() - the human table of a snapshot's probes: calls,
 * durations, event columns, losses (missed with its causes in the
 * footnote, filtered, unmeasured events), how each is attached in words.
 * @t:  the table (sw_htable_free() it, also on failure)
 * @s:  the snapshot
 * @hr: the rows
 *
 * Return: 0 or -ENOMEM.
 */
int sw_human_build(struct sw_htable *t, const struct sw_snapshot *s,
		   const struct sw_human_rows *hr);

/**
 * sw_print_text_table() - a table of the module (span_stats) for people:
 * its first column names the rows, the others are classified by name as
 * sw_human_build() does.
 * @f:        where
 * @tab:      the parsed file
 * @head:     the first column's header
 * @vertical: one "name value" line per shown column (a table of one row)
 * @div:      durations in a unit of @div ns called @unit; 0: each scaled
 * @unit:     that unit
 *
 * Return: 0, -ENOMEM or -EIO.
 */
int sw_print_text_table(FILE *f, const struct sw_table *tab, const char *head,
			bool vertical, uint64_t div, const char *unit);

/*
 * Each writer returns 0, -ENOMEM, or -EIO when @f reports a write error.
 */
int sw_print_table(FILE *f, const struct sw_snapshot *s,
		   const struct sw_display_opts *o);
int sw_print_json(FILE *f, const struct sw_snapshot *s,
		  const struct sw_display_opts *o);
int sw_print_prom(FILE *f, const struct sw_snapshot *s,
		  const struct sw_display_opts *o);

/**
 * sw_print_missed() - warn about probes that missed calls.
 * @f:    where to warn (stderr)
 * @s:    this snapshot
 * @prev: the previous snapshot, or NULL: a probe is reported only when its
 *        missed count differs from there
 *
 * Prints "stopwatch: <probe>: N calls missed (maxactive A, reentry R)".
 *
 * Return: the number of lines printed.
 */
int sw_print_missed(FILE *f, const struct sw_snapshot *s,
		    const struct sw_snapshot *prev);

/*
 * Prometheus histograms always carry buckets 0..SW_PROM_TOP_MIN (le up to
 * 2^40 ns, about 18 minutes) so that the series stay the same from scrape
 * to scrape; more only when some probe has a higher nonempty bucket.
 */
#define SW_PROM_TOP_MIN 40

#endif /* _SW_UTIL_STAT_DISPLAY_H */
