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
#include "pmu/pmu.h"
#include "wrapper/timekeeping.h"

/* Calls in flight per thread whose events are virtualized. */
#define SW_PENDING_DEPTH 16

/**
 * struct sw_pending - one call in flight on a thread's pending stack.
 * @ev:     the call's virtualized event counts (virt.c updates them at
 *          context switches)
 * @set_id: id of the event set counted since entry
 */
struct sw_pending {
	struct sw_evcall ev;
	u32 set_id;
	u32 pad;
};

/**
 * struct sw_call - what the attach mechanism keeps for one call.
 * @t0:   entry timestamp, sw_clock_ns()
 * @cpu:  CPU the call entered on
 * @pend: the call's entry on its thread's pending stack, NULL when it has
 *        none (no events, or no room: counted in the pending file)
 */
struct sw_call {
	u64 t0;
	u32 cpu;
	u32 pad;
	struct sw_pending *pend;
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

/* core/pending.c */
int sw_pending_init(void);
void sw_pending_exit(void);
struct sw_pending *sw_pending_push(void);
void sw_pending_pop(struct sw_pending *pd);
struct sw_pending *sw_pending_of(struct task_struct *t, u32 *depth);

/* core/measure.c */
void sw_core_enter_events(struct sw_call *c, const struct sw_evset *set);
bool sw_core_exit_events(struct sw_pending *pd);

/* core/virt.c */
int sw_virt_init(void);
void sw_virt_exit(void);

/* core/init.c */
int sw_core_init(void);
void sw_core_cleanup(void);

/*
 * sw_core_enter() - the entry half of a measured call.
 * @c: the call's record, kept by the attach mechanism until the exit
 *
 * Context: the attach mechanism's entry handler: preemption disabled,
 * possibly interrupts off or NMI (under PREEMPT_RT too: kprobe handlers
 * run with preemption disabled there as well).  No locks, no allocation.
 */
static __always_inline void sw_core_enter(struct sw_call *c)
{
	struct sw_evset *set = rcu_dereference_sched(sw_evset);

	c->cpu = smp_processor_id();
	c->t0 = sw_clock_ns();
	c->pend = NULL;
	if (set)
		sw_core_enter_events(c, set);
}

/*
 * sw_core_exit() - the exit half: fold the call into @a and forget it.
 * @a: the probe's aggregations
 * @c: the call's record from sw_core_enter()
 *
 * Context: the attach mechanism's exit handler, on the calling thread:
 * preemption disabled, possibly NMI.  The mechanism runs no other handler
 * on this CPU meanwhile, so this CPU's statistics have a single writer.
 */
static __always_inline void sw_core_exit(struct sw_aggs *a, struct sw_call *c)
{
	struct sw_pending *pd = c->pend;
	bool measured = pd && sw_core_exit_events(pd);
	struct sw_evgen *evs;
	struct sw_bdgen *bd;
	u64 t1, ns;

	t1 = sw_clock_ns();
	ns = t1 > c->t0 ? t1 - c->t0 : 0;
	sw_timing_record(rcu_dereference_sched(a->gen), ns, c->cpu);
	bd = rcu_dereference_sched(a->bd);
	if (bd)
		sw_bd_record(bd, ns, c->cpu);
	/* Calls entered under other events count as unmeasured. */
	evs = rcu_dereference_sched(a->evs);
	if (evs)
		sw_evgen_record(evs, measured && evs->set_id == pd->set_id ?
					     &pd->ev : NULL);
	if (pd)
		sw_pending_pop(pd);
}

#endif /* _STOPWATCH_CORE_H */
