/* SPDX-License-Identifier: GPL-2.0 */
/*
 * time-report.h - what "stopwatch time" prints: per-function statistics
 * and log2 histograms in a chosen unit, the keyed rows, per-interval
 * deltas; as text or JSON.  Reads the probes it added (by identity,
 * "vfs_read@t1234") from the stats, hist/<identity> and keys files.
 */
#ifndef _SW_UTIL_TIME_REPORT_H
#define _SW_UTIL_TIME_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "control/overhead.h"
#include "control/pattern.h"
#include "control/snapshot.h"
#include "base/table.h"

/**
 * struct sw_time_report - one run's report.
 * @ids:       the identities of the probes, e.g. "vfs_read@t1234"
 * @names:     their functions, shown in the output
 * @n:         how many
 * @exp:       the expansion (for the skipped functions in JSON)
 * @tag:       the tag, or NULL
 * @unit:      "ns", "us", "ms" or "s"; @div nanoseconds per unit
 * @json, @hist, @by: output choices; @filtered: show filtered counts
 * @all:       the table with every column it has, durations in @unit (-v,
 *             --raw); else the human default (units per cell unless
 *             @fixed_unit, counts with separators, zero columns left
 *             out, losses flagged, attach in words)
 * @fixed_unit: -u was given: the human table's durations in @unit
 * @events:    the -e list, or NULL: their columns are shown
 * @elapsed:   seconds measured
 * @snap:      the final reading; @prev the last interval's; @keys the keys
 *             file's rows
 * @interval:  intervals printed
 * @out:       where -i deltas go (stdout when NULL)
 * @correct:   --correct: the final report's min, avg and percentiles less
 *             each probe's in-window cost (output/correct.h)
 * @window:    with @correct, once the final report is corrected: per
 *             probe, the nanoseconds taken off (0: not calibrated, as
 *             measured); @marked: the names with their marks
 */
struct sw_time_report {
	char **ids;
	char **names;
	size_t n;
	const struct sw_expansion *exp;
	const char *tag;
	const char *unit;
	uint64_t div;
	bool json, hist, by, filtered;
	bool all, fixed_unit, pct;
	const char *events;
	double elapsed;
	struct sw_snapshot *snap, *prev;
	struct sw_table *keys;
	unsigned int interval;
	FILE *out;
	struct sw_overhead cost0, cost1;	/* the overhead file, before and after */
	bool final;	/* printing the final report: with the cost */
	bool correct;
	uint64_t *window;
	char **marked;
};

int sw_time_report_init(struct sw_time_report *r, const char *dir,
			const struct sw_expansion *e, char **ids,
			const char *tag, const char *unit);

/* Reads the final statistics (and the keys file with @by). */
int sw_time_report_load(struct sw_time_report *r, const char *dir);

/* Reads the statistics now and prints what the last interval added. */
int sw_time_report_interval(struct sw_time_report *r, const char *dir,
			    double at);

/* Prints the final report. Return: 0, -ENOMEM or -EIO. */
int sw_time_report_print(FILE *f, struct sw_time_report *r);

/* Prints the final report of snapshot @s (host tests, and _print()). */
int sw_time_report_fprint(FILE *f, const struct sw_time_report *r,
			  const struct sw_snapshot *s);

/* The per-interval delta of @s over @prev (NULL: over nothing). */
int sw_time_report_fprint_delta(FILE *f, const struct sw_time_report *r,
				const struct sw_snapshot *s,
				const struct sw_snapshot *prev, double at);

void sw_time_report_free(struct sw_time_report *r);

#endif /* _SW_UTIL_TIME_REPORT_H */
