/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sampopts.h - the sampler's settings and the parser of its control line
 * ("start event=cpu-clock freq=1000 callchain=kernel,user" / "stop") and
 * of the equivalent module parameters.
 *
 * Pure logic: builds into stopwatch.ko, the program and the host tests.
 */
#ifndef _STOPWATCH_SAMPOPTS_H
#define _STOPWATCH_SAMPOPTS_H

#include "wrapper/types.h"
#include "events.h"
#include "parse.h"

#define SW_CPULIST_LEN 128
#define SW_STACK_MAX 127		/* most frames per call stack */
#define SW_FREQ_MAX 100000		/* Hz */
#define SW_RATE_MAX 10000000	/* max_rate=, samples per second */

/* struct sw_samp_opts.callchain bits */
#define SW_CC_KERNEL 0x1
#define SW_CC_USER 0x2

/**
 * struct sw_samp_opts - what one sampling session does.
 * @ev:         the event; @ev_set false means "cycles, else cpu-clock"
 * @ev_set:     an event was named
 * @no_event:   event=none: no sampling, the session carries only the
 *              records others write into it (traced calls, side band)
 * @stack_drop: drop samples whose user stack copy faulted (lost.stack)
 *              instead of keeping them flagged
 * @unwind_table: user stacks by the unwind tables (unwind=table), not
 *              by frame pointers (unwind=fp)
 * @callchain:  SW_CC_* bits
 * @period:     sample every @period events (0: use @freq)
 * @freq:       samples per second per CPU (0: use @period)
 * @pid:        only this thread id (-1: any)
 * @tgid:       only this process (-1: any)
 * @max_rate:   samples per second per CPU beyond which samples are
 *              dropped as throttled (0: no limit)
 * @kstack:     most kernel frames per sample
 * @ustack:     most user frames per sample
 * @cpus:       CPU list ("0-3,6"); empty for all CPUs
 */
struct sw_samp_opts {
	struct sw_event_spec ev;
	bool ev_set;
	bool no_event;
	bool stack_drop;
	bool unwind_table;
	u32 callchain;
	u64 period;
	u64 freq;
	s32 pid;
	s32 tgid;
	u32 max_rate;
	u16 kstack;
	u16 ustack;
	char cpus[SW_CPULIST_LEN];
};

/* Control commands. */
enum { SW_CMD_START = 1, SW_CMD_STOP = 2 };

void sw_samp_opts_default(struct sw_samp_opts *o);
int sw_samp_opt_set(struct sw_samp_opts *o, const char *key, const char *val,
		    struct sw_parse_err *err);
int sw_samp_opts_check(struct sw_samp_opts *o, struct sw_parse_err *err);
int sw_samp_parse_cmd(char *line, const struct sw_samp_opts *defs,
		      struct sw_samp_opts *o, struct sw_parse_err *err);
int sw_samp_callchain_str(u32 cc, char *buf, size_t len);

#endif /* _STOPWATCH_SAMPOPTS_H */
