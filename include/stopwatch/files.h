/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stopwatch/files.h - the text files stopwatch.ko shows under
 * /proc/stopwatch and /sys/kernel/debug/stopwatch: their names and the
 * version of the statistics layout.  The module and the program include
 * this one header, so a name or a format number is written once.
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
 */
#define SW_STATS_FORMAT_MAJOR 1
#define SW_STATS_FORMAT_MINOR 5

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
#define SW_DIR_HIST		"hist"

/* The version file's line that names the statistics layout. */
#define SW_VERSION_FORMAT_KEY	"stats_format"

#endif
