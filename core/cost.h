/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cost.h - stopwatch's own cost, observed: the attach mechanisms' handlers
 * time themselves on a sample of the calls they see.
 *
 * Each CPU counts calls down at their entry handler (sw_cost_due(), one
 * decrement and one branch per call; a span point's hit counts as one
 * too); the entry that reaches zero is timed whole by the clock calls are
 * timed by (less what an empty timed window reads, measured at load),
 * reloads the countdown with a pseudo-random gap (mean SW_COST_PERIOD, so
 * that no periodic pattern of calls is always or never sampled) and marks
 * its call (SW_PEND_COST in the call's struct sw_call, with the gap), so
 * that the same call's exit handler is timed too: an exit handler only
 * tests its call's mark.  Each timed half is folded into its probe's
 * accumulators (agg/cost_acc.h, by half) and into its CPU's estimate of the
 * time spent in stopwatch (the exit's on the CPU it runs on): the half's
 * nanoseconds plus half its mechanism's fixed cost per call (the part no
 * handler sees: the kprobe or ftrace machinery and the trampolines
 * around it; measured at load, sw_cost_set_fixed(), 0 where it is not),
 * weighted by the call's gap, so that a timed call stands for the calls
 * of its gap; each half adds the gap to the estimated handler runs.  A
 * call whose exit never comes (its probe removed meanwhile, a uprobe call
 * with no pending entry to mark: filtered out, no room, a span's point)
 * leaves its exit half out of the estimate.  The overhead file
 * (core/cost.c) shows the estimate.
 *
 * Handlers: SW_COST_ENTRY() and SW_COST_EXIT() make them from their work.
 */
#ifndef _STOPWATCH_CORE_COST_H
#define _STOPWATCH_CORE_COST_H

#include <linux/compiler.h>
#include <linux/percpu.h>
#include <linux/types.h>

#include "agg/cost_acc.h"
#include "core.h"

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
 * @left:    calls (and span points' hits) until the next timed one
 * @gap:     the calls the next timed one stands for (its countdown's start)
 * @rnd:     xorshift state for the gaps
 * @est_ns:  estimated nanoseconds in stopwatch on this CPU: each timed
 *           handler run's, with half its mechanism's fixed part, times
 *           its call's gap
 * @est_runs: estimated handler runs: the gaps' sum, per timed run
 * @samples: timed handler runs
 *
 * Written by its CPU's handlers only; an NMI's run nested in a timed one
 * can lose an update (the figures are estimates).  Read racily by the
 * overhead file, which shows them less the bases a reset took
 * (sw_cost_reset()).
 */
struct sw_cost_cpu {
	u32 left;
	u32 gap;
	u32 rnd;
	u64 est_ns;
	u64 est_runs;
	u64 samples;
};

/**
 * struct sw_cost_run - a timed handler run, between sw_cost_begin() and
 * its end (SW_COST_ENTRY(), SW_COST_EXIT()).
 * @t0:   sw_cost_begin()'s stamp
 * @acc:  the probe's accumulators, NULL for its CPU's estimate only; set
 *        by the handler's work
 * @call: entry: the call to mark, NULL when no exit handler will run for
 *        it; set by the work
 * @gap:  exit: the calls its call stands for (its mark)
 * @mech: the mechanism; set by the work
 */
struct sw_cost_run {
	u64 t0;
	struct sw_cost_acc __percpu *acc;
	struct sw_call *call;
	u32 gap;
	enum sw_cost_mech mech;
};

DECLARE_PER_CPU(struct sw_cost_cpu, sw_cost_cpu);

/**
 * sw_cost_due() - count this call (at its entry handler) or span point's
 * hit; true when it is to be timed.
 * Context: a handler, preemption disabled.
 */
static __always_inline bool sw_cost_due(void)
{
	return unlikely(!__this_cpu_dec_return(sw_cost_cpu.left));
}

u64 sw_cost_begin(void);
u32 sw_cost_end(struct sw_cost_acc __percpu *acc, enum sw_cost_mech mech,
		enum sw_cost_half half, u64 t0);
void sw_cost_end_exit(const struct sw_cost_run *run);

/*
 * sw_cost_marked() - whether call @c's entry was timed, so that its exit
 * handler is to be timed too; sw_cost_unmark() takes the mark off before
 * the exit half reads the record, and returns the call's gap.
 * Context: the mechanism's exit handler (the entry's: sw_cost_mark()).
 */
static __always_inline bool sw_cost_marked(const struct sw_call *c)
{
	return (unsigned long)c->pend & SW_PEND_COST;
}

static __always_inline u32 sw_cost_unmark(struct sw_call *c)
{
	c->pend = (struct sw_pending *)((unsigned long)c->pend & ~SW_PEND_COST);
	return c->gap;
}

static __always_inline void sw_cost_mark(struct sw_call *c, u32 gap)
{
	c->gap = gap;
	c->pend = (struct sw_pending *)((unsigned long)c->pend | SW_PEND_COST);
}

/*
 * sw_cost_end_entry() - the end of a timed entry handler run: folded with
 * its CPU's gap, the countdown restarted, the call (if an exit will
 * come) marked with that gap.
 * Context: as sw_cost_end().
 */
static __always_inline void sw_cost_end_entry(const struct sw_cost_run *run)
{
	u32 gap = sw_cost_end(run->acc, run->mech, SW_COST_ENTRY, run->t0);

	if (run->call)
		sw_cost_mark(run->call, gap);
}

/* A list of parameters or arguments, without its parentheses. */
#define __SW_COST_ARGS(...) __VA_ARGS__

/**
 * SW_COST_ENTRY() - an attach mechanism's entry handler made from its
 * work: counted down, and timed on the calls sw_cost_due() picks.
 * @name:  prefix: defines name##_run(), the handler's body (inline), and
 *         name##_timed() (out of line, so that the calls not timed set up
 *         nothing for it)
 * @rtype: what the handler returns
 * @proto: its parameters, in parentheses: (struct sw_x *x, int y)
 * @args:  their names, in parentheses: (x, y)
 *
 * The mechanism defines before it, inline:
 *
 *   rtype name##_work(struct sw_cost_run *run, <proto>);
 *
 * its handler's work; @run is NULL on the calls not timed, so that what
 * it does for it compiles away there; on a timed one the work sets
 * run->acc, run->mech and run->call (the call's record when its exit
 * handler will run, which is then marked: SW_COST_EXIT() times it too).
 *
 * Context: the mechanism's entry handler, preemption disabled.
 */
#define SW_COST_ENTRY(name, rtype, proto, args)				\
static noinline notrace rtype name##_timed(__SW_COST_ARGS proto)	\
{									\
	struct sw_cost_run run = { .t0 = sw_cost_begin() };		\
	rtype r;							\
									\
	r = name##_work(&run, __SW_COST_ARGS args);			\
									\
	sw_cost_end_entry(&run);					\
	return r;							\
}									\
NOKPROBE_SYMBOL(name##_timed);						\
									\
static __always_inline rtype name##_run(__SW_COST_ARGS proto)	\
{									\
	if (sw_cost_due())						\
		return name##_timed(__SW_COST_ARGS args);		\
	return name##_work(NULL, __SW_COST_ARGS args);			\
}

/**
 * SW_COST_EXIT() - an attach mechanism's exit handler made from its work:
 * timed when its call is marked (SW_COST_ENTRY()), with no per-CPU work
 * for the cost sampler otherwise.
 * @name, @rtype, @proto, @args: as SW_COST_ENTRY()
 *
 * The mechanism defines before it, inline:
 *
 *   bool name##_marked(struct sw_call **c, <proto>);
 *   rtype name##_work(struct sw_cost_run *run, <proto>);
 *
 * whether the call is marked (sw_cost_marked()), its record then in @c;
 * and the handler's work, which on a timed run (@run not NULL) sets run->acc
 * and run->mech.
 *
 * Context: the mechanism's exit handler, preemption disabled.
 */
#define SW_COST_EXIT(name, rtype, proto, args)				\
static noinline notrace rtype name##_timed(struct sw_call *c,		\
					   __SW_COST_ARGS proto)	\
{									\
	struct sw_cost_run run = { .gap = sw_cost_unmark(c) };		\
	rtype r;							\
									\
	run.t0 = sw_cost_begin();					\
	r = name##_work(&run, __SW_COST_ARGS args);			\
	sw_cost_end_exit(&run);						\
	return r;							\
}									\
NOKPROBE_SYMBOL(name##_timed);						\
									\
static __always_inline rtype name##_run(__SW_COST_ARGS proto)	\
{									\
	struct sw_call *c;						\
									\
	if (unlikely(name##_marked(&c, __SW_COST_ARGS args)))		\
		return name##_timed(c, __SW_COST_ARGS args);		\
	return name##_work(NULL, __SW_COST_ARGS args);			\
}
const char *sw_cost_mech_name(enum sw_cost_mech mech);
u64 sw_cost_fixed(enum sw_cost_mech mech);
void sw_cost_set_fixed(enum sw_cost_mech mech, u64 ns);
u64 sw_cost_window(enum sw_cost_mech mech);
void sw_cost_set_window(enum sw_cost_mech mech, u64 ns);
void sw_cost_reset(void);
int sw_cost_init(void);
void sw_cost_exit(void);

#endif /* _STOPWATCH_CORE_COST_H */
