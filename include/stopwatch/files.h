/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stopwatch/files.h - the text files stopwatch.ko shows under
 * /proc/stopwatch and /sys/kernel/debug/stopwatch: their names and the
 * version of the statistics layout.  The module and the program include
 * this one header, so a name, a column or a format number is written
 * once.
 *
 * The version file reads:
 *   stopwatch VERSION
 *   stats_format MAJOR.MINOR
 *   call_clock CLOCK
 * stats_format's minor grows when columns are appended (a reader that
 * finds columns by their header names reads a newer minor unchanged); its
 * major changes only when existing columns change meaning or order, and a
 * reader refuses a major it was not built for.
 */
#ifndef _STOPWATCH_FILES_H
#define _STOPWATCH_FILES_H

/*
 * 1.1: <event>_min/_avg/_max/_unmeasured and cpi_* columns appended
 * 1.2: filtered, filtered_short, filtered_long appended (last columns)
 * 1.3: attach, attach_err appended
 * 1.4: detached appended
 * 1.5: the hists file: every probe's hist/<probe> sections, each
 *      wall-time title going on with the row's timing columns read with
 *      its buckets (SW_HIST_TITLE_ROW_FMT, lib/stats.h)
 * 1.6: p50_ns, p90_ns, p99_ns, p999_ns appended (last columns of the
 *      stats file; in span_stats after detached, before the event
 *      columns), read from the log-linear histograms; the hists file's
 *      row titles go on with the same percentiles (a 1.5 reader of the
 *      hists file refuses them: its parser takes no more than stddev)
 * 1.7: cost_ns, cost_fixed_ns, cost_total_ns appended after the
 *      percentiles (what the probe's own handlers cost); the overhead file
 * 1.8: the lhists file: every probe's log-linear wall-time histogram,
 *      non-empty buckets with their bounds (SW_LHIST_TITLE_FMT,
 *      lib/stats.h); a file of its own, so the hists file is unchanged
 * 1.9: window_ns appended after cost_total_ns (last column of the stats
 *      file): the probe's own cost inside each measured window, calibrated
 *      at load, 0 when not calibrated (stopwatch time --correct); the
 *      lhists titles go on with "; total <ns>", the calls' total time
 *      read in the same pass as the buckets (a 1.8 reader refuses them)
 * 1.10: the span_lhists file: every span's log-linear histogram, in the
 *      lhists file's layout
 */
#define SW_STATS_FORMAT_MAJOR 1
#define SW_STATS_FORMAT_MINOR 10

/* The files of the top directory. */
#define SW_FILE_VERSION		"version"
#define SW_FILE_LAST_ERROR	"last_error"
#define SW_FILE_STATS		"stats"
#define SW_FILE_PROBES		"probes"
#define SW_FILE_RESET		"reset"
#define SW_FILE_BREAKDOWN	"breakdown"
#define SW_FILE_BREAKDOWN_STATS	"breakdown_stats"
#define SW_FILE_KEYS		"keys"
#define SW_FILE_HISTS		"hists"
#define SW_FILE_LHISTS		"lhists"
#define SW_DIR_HIST		"hist"
#define SW_FILE_OVERHEAD	"overhead"
#define SW_FILE_SPAN_STATS	"span_stats"
#define SW_FILE_SPAN_LHISTS	"span_lhists"

/* The version file's line that names the statistics layout. */
#define SW_VERSION_FORMAT_KEY	"stats_format"

/*
 * The columns of the tables, named on their first line (a reader finds a
 * column by its name).  The stats file: SW_COLS_STATS_HEAD, then four
 * columns per event of the set, the event's name followed by each of
 * SW_COLS_EVENT, then with cycles and instructions SW_COLS_CPI, then
 * SW_COLS_STATS_TAIL.  The keys file: SW_COLS_KEYS_HEAD, then one column
 * per event, its name followed by SW_COL_EV_AVG.  The breakdown_stats
 * file: SW_COL_PROBE, the breakdown mode's name, SW_COLS_TIMING.
 */
#define SW_COL_PROBE		"probe"
#define SW_COL_KEY		"key"
#define SW_COL_CALLS		"calls"
#define SW_COL_MIN_NS		"min_ns"
#define SW_COL_AVG_NS		"avg_ns"
#define SW_COL_MAX_NS		"max_ns"
#define SW_COL_STDDEV_NS	"stddev_ns"
#define SW_COL_TOTAL_NS		"total_ns"
#define SW_COL_MISSED		"missed"
#define SW_COL_MISS_MAXACTIVE	"miss_maxactive"
#define SW_COL_MISS_REENTRY	"miss_reentry"
#define SW_COL_MIGRATED		"migrated"
#define SW_COL_EV_MIN		"_min"
#define SW_COL_EV_AVG		"_avg"
#define SW_COL_EV_MAX		"_max"
#define SW_COL_EV_UNMEASURED	"_unmeasured"
#define SW_COL_CPI_MIN		"cpi_min"
#define SW_COL_CPI_AVG		"cpi_avg"
#define SW_COL_CPI_MAX		"cpi_max"
#define SW_COL_FILTERED		"filtered"
#define SW_COL_FILTERED_SHORT	"filtered_short"
#define SW_COL_FILTERED_LONG	"filtered_long"
#define SW_COL_ATTACH		"attach"
#define SW_COL_ATTACH_ERR	"attach_err"
#define SW_COL_DETACHED		"detached"
#define SW_COL_P50_NS		"p50_ns"
#define SW_COL_P90_NS		"p90_ns"
#define SW_COL_P99_NS		"p99_ns"
#define SW_COL_P999_NS		"p999_ns"
#define SW_COL_COST_NS		"cost_ns"
#define SW_COL_COST_FIXED_NS	"cost_fixed_ns"
#define SW_COL_COST_TOTAL_NS	"cost_total_ns"
#define SW_COL_WINDOW_NS	"window_ns"

/* Lists, in the files' order: initializers of arrays, or printf arguments. */
#define SW_COLS_TIMING SW_COL_CALLS, SW_COL_MIN_NS, SW_COL_AVG_NS, \
	SW_COL_MAX_NS, SW_COL_STDDEV_NS, SW_COL_TOTAL_NS
#define SW_COLS_STATS_HEAD SW_COL_PROBE, SW_COLS_TIMING, SW_COL_MISSED, \
	SW_COL_MISS_MAXACTIVE, SW_COL_MISS_REENTRY, SW_COL_MIGRATED
#define SW_COLS_EVENT SW_COL_EV_MIN, SW_COL_EV_AVG, SW_COL_EV_MAX, \
	SW_COL_EV_UNMEASURED
#define SW_COLS_CPI SW_COL_CPI_MIN, SW_COL_CPI_AVG, SW_COL_CPI_MAX
#define SW_COLS_STATS_TAIL SW_COL_FILTERED, SW_COL_FILTERED_SHORT, \
	SW_COL_FILTERED_LONG, SW_COL_ATTACH, SW_COL_ATTACH_ERR, SW_COL_DETACHED, \
	SW_COLS_PCT, SW_COL_COST_NS, SW_COL_COST_FIXED_NS, SW_COL_COST_TOTAL_NS, \
	SW_COL_WINDOW_NS
/* The percentiles, enum sw_pct's order (lib/stats.h). */
#define SW_COLS_PCT SW_COL_P50_NS, SW_COL_P90_NS, SW_COL_P99_NS, SW_COL_P999_NS
#define SW_COLS_KEYS_HEAD SW_COL_PROBE, SW_COL_KEY, SW_COLS_TIMING

/*
 * The overhead file: stopwatch's share of each CPU.  A line
 * "SW_OVERHEAD_INTERVAL NS" (the wall-clock interval since the previous
 * read of the file, or since load or the last reset), a line "SW_OVERHEAD_FIXED" followed by
 * pairs of a mechanism's name and its fixed nanoseconds per call included
 * in the estimates (0: not measured, not included), last the pair
 * SW_OVERHEAD_SELF and the nanoseconds an empty timed window reads, taken
 * off each timed run; then a table:
 * SW_COLS_OVERHEAD, one row per online CPU, last the row SW_OVERHEAD_ALL
 * (its share is of all the online CPUs together; its samples column "-").
 * share_pct, ns and runs are over the interval; total_ns and total_runs
 * since load or the last reset (SW_FILE_RESET); samples is the timed
 * handler runs since then.
 */
#define SW_OVERHEAD_INTERVAL	"interval_ns"
#define SW_OVERHEAD_FIXED	"fixed_ns"
#define SW_OVERHEAD_ALL		"all"
#define SW_OVERHEAD_SELF	"self"
#define SW_COLS_OVERHEAD "cpu", "share_pct", "ns", "runs", "total_ns", \
	"total_runs", "samples"

#endif
