/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core.h - the measurement core: what happens at the entry and at the
 * exit of every measured call, whatever attached to it.
 *
 *   entry  CPU, clock; with events, the call is pushed on its thread's
 *          pending stack (pending.c) and its first counting segment opens
 *   exit   with events, the last segment closes; the clock; the call is
 *          folded into the probe's aggregations (agg/) and popped
 *   virt.c the sched_switch hook: closes the segments of every call in
 *          flight of the thread switched out and opens those of the thread
 *          switched in, so event counts cover the calling thread alone
 *
 * A probe with filters or keys of its own hands its struct sw_spec to
 * both halves: the entry half checks the filters before anything else
 * (a filtered-out call reads no clock and no counter, and the mechanism
 * runs no exit half for it) and captures the keys only the entry can see
 * (arguments); the exit half drops calls outside the duration
 * window (counted apart) and keys the call's row.  A probe without either
 * passes NULL: one predictable branch is all it costs.
 *
 * An attach mechanism (attach/) keeps one struct sw_call per call in
 * flight wherever it can (a kretprobe instance's data, a trampoline's
 * stack frame) and calls sw_core_enter() and sw_core_exit() from its
 * handlers.  The per-thread record of calls in flight is stopwatch's own
 * (pending.c), the same for every mechanism.
 */
#ifndef _STOPWATCH_CORE_H
#define _STOPWATCH_CORE_H

#include <linux/kprobes.h>
#include <linux/rcupdate.h>

#include "agg/agg.h"
#include "lib/parse.h"
#include "pmu/pmu.h"
#include "wrapper/timekeeping.h"

/* Calls in flight per thread whose events are virtualized. */
#define SW_PENDING_DEPTH 16

/**
 * struct sw_pending - one call in flight on a thread's pending stack.
 * @ev:     the call's virtualized event counts (virt.c updates them at
 *          context switches)
 * @set_id: id of the event set counted since entry
 * @idx:    its index on the thread's stack
 */
struct sw_pending {
	struct sw_evcall ev;
	u32 set_id;
	u32 idx;
};

/**
 * struct sw_call - what the attach mechanism keeps for one call.
 * @t0:   entry timestamp, sw_clock_ns()
 * @cpu:  CPU the call entered on
 * @pend: the call's entry on its thread's pending stack, NULL when it has
 *        none (no events, or no room: counted in the pending file)
 * @key:  the parts of the call's key captured at entry (argN), in
 *        the order of the probe's by=; set only for a probe with a spec
 */
struct sw_call {
	u64 t0;
	u32 cpu;
	u32 pad;
	struct sw_pending *pend;
	u64 key[2];
};

/**
 * struct sw_spec - a probe's own filters and keys, fixed for its life.
 * @f:  filters: those checked at entry (SW_F_ENTRY) and the duration
 *      window (SW_F_WINDOW)
 * @by: its own keys (by.own set), or none: then the global breakdown mode
 *      keys its rows
 */
struct sw_spec {
	struct sw_filter f;
	struct sw_by by;
};

/*
 * A local variable left out of -ftrivial-auto-var-init (CONFIG_INIT_STACK_
 * ALL_ZERO): zeroing a sample array costs instructions that depend on the
 * stack's alignment, which varies per system call (randomize_kstack_offset),
 * and would land inside the measured window of a call.
 */
#if __has_attribute(__uninitialized__)
#define __sw_noinit __attribute__((__uninitialized__))
#else
#define __sw_noinit
#endif

/* core/pending.c, and the event halves of the core, inline */
#include "pending.h"

/* core/filter.c */
bool sw_filter_entry(const struct sw_filter *f);
bool sw_core_enter_spec(struct sw_call *c, struct sw_aggs *a,
			const struct sw_spec *s, struct pt_regs *regs);
bool sw_core_window(struct sw_aggs *a, const struct sw_filter *f, u64 ns);
void sw_core_key_record(struct sw_bdgen *bd, const struct sw_call *c,
			struct pt_regs *regs, u64 ns,
			const struct sw_pending *pd);

/* core/virt.c */
int sw_virt_init(void);
void sw_virt_exit(void);

/* core/init.c */
int sw_core_init(void);
void sw_core_cleanup(void);

/*
 * sw_core_enter() - the entry half of a measured call.
 * @c:    the call's record, kept by the attach mechanism until the exit
 * @a:    the probe's aggregations (a filtered-out call is counted there)
 * @s:    the probe's filters and keys, NULL when it has none
 * @regs: the registers at the function's entry
 *
 * Context: the attach mechanism's entry handler: preemption disabled,
 * possibly interrupts off or NMI (under PREEMPT_RT too: kprobe handlers
 * run with preemption disabled there as well).  No locks, no allocation.
 * Return: false when a filter left the call out: the mechanism must not
 * run the exit half for it.
 */
static __always_inline bool sw_core_enter(struct sw_call *c,
					  struct sw_aggs *a,
					  const struct sw_spec *s,
					  struct pt_regs *regs)
{
	struct sw_evset *set;

	if (unlikely(s) && !sw_core_enter_spec(c, a, s, regs))
		return false;
	set = rcu_dereference_sched(sw_evset);
	c->cpu = smp_processor_id();
	c->t0 = sw_clock_ns();
	c->pend = NULL;
	if (unlikely(set))
		sw_core_enter_events(c, set);
	return true;
}

/*
 * sw_core_fold() - fold a returned call into @a (sw_core_exit()'s body).
 * @pd:       the call's pending entry, NULL for a time-only call (a
 *            constant in that copy: its event code compiles away)
 * @measured: whether its events were counted with the current set
 *
 * A call outside the probe's duration window is counted apart
 * (filtered_short, filtered_long) and folded into nothing else.
 */
static __always_inline void sw_core_fold(struct sw_aggs *a,
					 const struct sw_spec *s,
					 struct sw_call *c, struct pt_regs *regs,
					 struct sw_pending *pd, bool measured)
{
	struct sw_evgen *evs;
	struct sw_bdgen *bd;
	u64 t1, ns;

	t1 = sw_clock_ns();
	ns = t1 > c->t0 ? t1 - c->t0 : 0;
	if (unlikely(s) && (s->f.flags & SW_F_WINDOW) &&
	    !sw_core_window(a, &s->f, ns))
		return;
	sw_timing_record(rcu_dereference_sched(a->gen), ns, c->cpu);
	bd = rcu_dereference_sched(a->bd);
	if (bd)
		sw_core_key_record(bd, c, regs, ns, measured ? pd : NULL);
	/* Calls entered under other events count as unmeasured. */
	evs = rcu_dereference_sched(a->evs);
	if (evs)
		sw_evgen_record(evs, measured && evs->set_id == pd->set_id ?
					     &pd->ev : NULL);
}

/*
 * sw_core_exit() - the exit half: fold the call into @a and forget it.
 * @a:    the probe's aggregations
 * @s:    the probe's filters and keys, NULL when it has none
 * @c:    the call's record from sw_core_enter()
 * @regs: the registers at the function's return
 *
 * Context: the attach mechanism's exit handler, on the calling thread:
 * preemption disabled, possibly NMI.  The mechanism runs no other handler
 * on this CPU meanwhile, so this CPU's statistics have a single writer.
 */
static __always_inline void sw_core_exit(struct sw_aggs *a,
					 const struct sw_spec *s,
					 struct sw_call *c, struct pt_regs *regs)
{
	struct sw_pending *pd = c->pend;

	if (unlikely(pd)) {
		/* First thing after the function: close the segment. */
		bool measured = sw_core_exit_events(pd);

		sw_core_fold(a, s, c, regs, pd, measured);
		sw_pending_pop(pd);
		return;
	}
	sw_core_fold(a, s, c, regs, NULL, false);
}

#endif /* _STOPWATCH_CORE_H */
