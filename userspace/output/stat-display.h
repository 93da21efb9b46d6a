/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stat-display.h - the output formats of "stopwatch stat": an aligned
 * table with histograms, JSON, and Prometheus text exposition.
 */
#ifndef _SW_UTIL_STAT_DISPLAY_H
#define _SW_UTIL_STAT_DISPLAY_H

#include <stdbool.h>
#include <stdio.h>

#include "control/snapshot.h"

/**
 * struct sw_display_opts - what to show.
 * @hist:      the histograms
 * @breakdown: the breakdown table (when the snapshot has one)
 * @human:     durations (columns ending in _ns) as "2.30 us" in tables
 * @openmetrics: Prometheus: OpenMetrics 1.0 instead of the text format 0.0.4
 * @max_series: Prometheus: keyed rows (breakdown, keys) written per family
 *             at most, those with the most calls; the rest summed in one
 *             "other" row per probe (0: no limit)
 */
struct sw_display_opts {
	bool hist;
	bool breakdown;
	bool human;
	bool openmetrics;
	size_t max_series;
};

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
