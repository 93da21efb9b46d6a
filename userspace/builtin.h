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

#include <stddef.h>
#include <stdint.h>

#include "base/version.h"

#define SW_RECORD_DEFAULT_OUTPUT "stopwatch.swd"

int cmd_stat(int argc, char **argv);
int cmd_record(int argc, char **argv);

struct sw_rec_header;
struct sw_recorder;

/**
 * struct sw_record_live - what "stopwatch record" hands the records to
 * instead of writing a file (sw_record_live()).
 * @start:   the sampler runs, the relay files are open, the workload not
 *           yet released: the META text the file would begin with
 * @on_rec:  each whole record drained, with its CPU, in its stream's order
 * @drained: after each drain; @before_ns: CLOCK_MONOTONIC (the records'
 *           clock) when the drain began
 * @end:     the sampler stopped and its streams drained to their END
 *           records: the sampler file's final text (@counters, or NULL)
 * @arg:     passed to each
 *
 * A nonzero return ends the recording and is returned.
 */
struct sw_record_live {
	int (*start)(void *arg, const char *meta, size_t len,
		     const struct sw_recorder *rec);
	int (*on_rec)(void *arg, const struct sw_rec_header *h, uint32_t cpu);
	int (*drained)(void *arg, uint64_t before_ns);
	int (*end)(void *arg, const char *counters);
	void *arg;
};

/* builtin-record.c: "stopwatch record ARGS" with no file, handing over. */
int sw_record_live(int argc, char **argv, const struct sw_record_live *live);
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

/*
 * Printing while recording (record/session.h's live session): open with
 * the META text, make each CPU's stream known, add each record drained,
 * flush after each drain (records up to the watermark, @horizon the
 * bound on how late a record still arrives), end with the sampler's final
 * text: the rest printed in order and the losses said, as
 * sw_script_print() does.  _free() without printing anything more.
 */
struct sw_script_live;
int sw_script_live_open(const struct sw_script_opts *o, const char *cmd,
			const char *meta, size_t len,
			struct sw_script_live **out);
int sw_script_live_cpu(struct sw_script_live *l, uint32_t cpu);
int sw_script_live_add(struct sw_script_live *l,
		       const struct sw_rec_header *h, uint32_t cpu);
int sw_script_live_flush(struct sw_script_live *l, uint64_t horizon);
int sw_script_live_end(struct sw_script_live *l, const char *counters);
void sw_script_live_free(struct sw_script_live *l);

#endif /* _SW_BUILTIN_H */
