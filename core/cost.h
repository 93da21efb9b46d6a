/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cost.h - stopwatch's own cost, observed: the attach mechanisms' handlers
 * time themselves on a sample of their runs.
 *
 * Each CPU counts handler runs down (sw_cost_due(), one decrement and one
 * branch per run); the run that reaches zero is timed whole by the clock
 * calls are timed by (less what an empty timed window reads, measured at
 * load), reloads the countdown with a pseudo-random gap (mean
 * SW_COST_PERIOD, so that no periodic pattern of entries and exits is
 * always or never sampled), and is folded into its probe's accumulators
 * (agg/cost.h, by half) and into its CPU's estimate of the time spent in
 * stopwatch: the run's nanoseconds plus half its mechanism's fixed cost
 * per call (the part no handler sees: the kprobe or ftrace machinery and
 * the trampolines around it; measured at load, sw_cost_set_fixed(), 0
 * where it is not), weighted by the gap that led to it.  The overhead file
 * (core/cost.c) shows the estimate.
 *
 * Handlers: sw_cost_due() first; when true, a timed variant of their work,
 * out of line, that brackets it with sw_cost_begin() and sw_cost_end().
 */
#ifndef _STOPWATCH_CORE_COST_H
#define _STOPWATCH_CORE_COST_H

#include <linux/compiler.h>
#include <linux/percpu.h>
#include <linux/types.h>

#include "agg/cost.h"

/* The mean number of handler runs per timed one; a power of two. */
#define SW_COST_PERIOD 64

/* The mechanisms, each with its own fixed cost per call. */
enum sw_cost_mech {
	SW_COST_KRETPROBE,	/* on a breakpoint */
	SW_COST_KRETPROBE_FTRACE,	/* on ftrace's call at the entry */
	SW_COST_TRAMP,
	SW_COST_UPROBE,
	SW_COST_SPAN,		/* a span's point, any kind: not measured */
	SW_COST_MECHS,
};

/**
 * struct sw_cost_cpu - one CPU's sampling and estimate.
 * @left:    handler runs until the next timed one
 * @gap:     the runs the next timed one stands for (its countdown's start)
 * @rnd:     xorshift state for the gaps
 * @est_ns:  estimated nanoseconds in stopwatch on this CPU: each timed
 *           run's, with its mechanism's fixed part, times its gap
 * @est_runs: estimated handler runs: the gaps' sum
 * @samples: timed runs
 *
 * Written by its CPU's handlers only; an NMI's run nested in a timed one
 * can lose an update (the figures are estimates).  Read racily by the
 * overhead file.
 */
struct sw_cost_cpu {
	u32 left;
	u32 gap;
	u32 rnd;
	u64 est_ns;
	u64 est_runs;
	u64 samples;
};

DECLARE_PER_CPU(struct sw_cost_cpu, sw_cost_cpu);

/**
 * sw_cost_due() - count this handler run; true when it is to be timed.
 * Context: a handler, preemption disabled.
 */
static __always_inline bool sw_cost_due(void)
{
	return unlikely(!__this_cpu_dec_return(sw_cost_cpu.left));
}

u64 sw_cost_begin(void);
void sw_cost_end(struct sw_cost_acc __percpu *acc, enum sw_cost_mech mech,
		 enum sw_cost_half half, u64 t0);
u64 sw_cost_fixed(enum sw_cost_mech mech);
void sw_cost_set_fixed(enum sw_cost_mech mech, u64 ns);
int sw_cost_init(void);
void sw_cost_exit(void);

#endif /* _STOPWATCH_CORE_COST_H */
