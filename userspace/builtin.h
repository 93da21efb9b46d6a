/* SPDX-License-Identifier: GPL-2.0 */
/*
 * builtin.h - the stopwatch subcommands.
 *
 * Each cmd_<name>() gets the arguments from the subcommand's name on
 * (argv[0] is "<name>") and returns 0 on success or a negative errno after
 * printing what went wrong.  Add a command by writing builtin-<name>.c,
 * declaring it here and listing it in stopwatch.c's command table.
 */
#ifndef _SW_BUILTIN_H
#define _SW_BUILTIN_H

#include "base/version.h"

#define SW_RECORD_DEFAULT_OUTPUT "stopwatch.swd"

int cmd_stat(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_events(int argc, char **argv);
int cmd_time(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_span(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_script(int argc, char **argv);

#include <stdbool.h>
#include <stdint.h>

/**
 * struct sw_script_opts - how sw_script_print() prints a recording.
 * @json:       one JSON object per line
 * @calls_only: leave out process events
 * @quiet:      no loss summary on stderr
 * @all_pids:   every process, not only the recorded command's
 * @min_ns:     only calls lasting at least this
 * @graph:      calls only, each thread's inner calls under the calls that
 *              enclose them, in the order they began
 * @pid, @tid:  only this process's, this thread's records (0: any)
 * @comm:       only threads whose command is this, or NULL
 * @cpus:       only records of these CPUs (a call's begin or end), a CPU
 *              list, or NULL
 * @debuginfo_path: for symbols of samples, or NULL
 * @by:         sum the calls per probe or span and these keys ("key,tid",
 *              record/bykey.h) instead of printing them, or NULL
 * @rows:       with @by: rows per probe or span, the rest summed into an
 *              other row (0: all)
 */
struct sw_script_opts {
	bool json, calls_only, quiet, all_pids, graph;
	const char *by;
	uint64_t rows;
	uint64_t min_ns;
	uint64_t pid, tid;
	const char *comm, *cpus;
	const char *debuginfo_path;
};

/* builtin-script.c: print @input in time order; @cmd names the command. */
int sw_script_print(const char *input, const struct sw_script_opts *o,
		    const char *cmd);

#endif /* _SW_BUILTIN_H */
