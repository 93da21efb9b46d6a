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
 * handlers.  A mechanism with nowhere to keep it (a uprobe) calls
 * sw_core_enter_stacked() and sw_core_exit_stacked() (stacked.c): the
 * record then lives in the call's entry on its thread's pending stack.
 * The per-thread record of calls in flight is stopwatch's own
 * (pending.c), the same for every mechanism.
 */
#ifndef _STOPWATCH_CORE_H
#define _STOPWATCH_CORE_H

#include <linux/jump_label.h>
#include <linux/kprobes.h>
#include <linux/rcupdate.h>

#include "agg/agg.h"
#include "lib/parse.h"
#include "pmu/pmu.h"
#include "wrapper/timekeeping.h"

/* Calls in flight per thread whose events are virtualized. */
#define SW_PENDING_DEPTH 16

struct sw_pending;
struct sw_thread;

/**
 * struct sw_call - what the attach mechanism keeps for one call.
 * @t0:   entry stamp, sw_clock_stamp() (for sw_clock_since())
 * @cpu:  CPU the call entered on
 * @pend: the call's entry on its thread's pending stack, NULL when it has
 *        none (no events, or no room: counted in the pending file); for
 *        a lean call (struct sw_vcall), its thread's slot tagged with
 *        SW_PEND_LEAN (sw_pend_is_lean(), sw_pend_lean_thread())
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
 * struct sw_vcall - the events of a lean call in flight: a call of a probe
 * with no spec, entered while call paths are off, whose attach mechanism
 * keeps this beside its struct sw_call (sw_core_enter_lean()).  Its counts
 * are differences of its thread's virtual counts (virt.c): nothing goes
 * on the pending stack, only the thread's number of lean calls in flight
 * goes up and down.
 * @set_id: id of the event set counted since entry
 * @bad:    events not counted for all of the call (as struct sw_evcall);
 *          between entry and exit also SW_VCALL_MULTI for a set of more
 *          than one event, so that 0 alone says the exit's one event is
 *          good so far
 * @v:      per event, the thread's virtual count at entry; at exit, the
 *          call's count
 * @g:      per event, the thread's virtual gap at entry
 */
struct sw_vcall {
	u32 set_id;
	u32 bad;
	u64 v[SW_MAX_EVENTS];
	u64 g[SW_MAX_EVENTS];
};

/* struct sw_vcall.bad between entry and exit: the set has several events. */
#define SW_VCALL_MULTI (1U << 31)
static_assert(!(SW_EVCALL_ALL_BAD & SW_VCALL_MULTI));

/*
 * struct sw_call.pend of a lean call (its events in a struct sw_vcall): the
 * slot of its thread, which counts it in its lean calls, with bit 0 set
 * (slots are aligned): one word says both, and stored at once.
 */
#define SW_PEND_LEAN 1UL

struct sw_thread;

static __always_inline bool sw_pend_is_lean(const struct sw_pending *pend)
{
	return (unsigned long)pend & SW_PEND_LEAN;
}

static __always_inline struct sw_thread *
sw_pend_lean_thread(const struct sw_pending *pend)
{
	return (struct sw_thread *)((unsigned long)pend - SW_PEND_LEAN);
}

/**
 * struct sw_pending - one call in flight on a thread's pending stack.
 * @ev:     the call's virtualized event counts (virt.c updates them at
 *          context switches)
 * @set_id: id of the event set counted since entry, 0 when none (event
 *          sets are numbered from 1)
 * @idx:    its index on the thread's stack
 * @owner:  stacked calls (sw_core_enter_stacked()): the attach
 *          mechanism's tag for the probe, which its exit half looks for;
 *          NULL for a call whose record the mechanism keeps itself
 * @call:   stacked calls: the call's record
 * @pgen:   call paths (paths.c): id of the paths generation the call's
 *          node belongs to, 0 when the call is not on a path
 * @node:   its path node, 0 when its path was dropped (counted)
 * @child_bad: events whose count of a probed callee is unknown
 * @child_ns:  wall time of the probed callees returned so far
 * @child_ev:  their event counts, under @set_id
 */
struct sw_pending {
	struct sw_evcall ev;
	u32 set_id;
	u32 idx;
	const void *owner;
	struct sw_call call;
	u32 pgen;
	u32 node;
	u32 child_bad;
	u32 pad;
	u64 child_ns;
	u64 child_ev[SW_MAX_EVENTS];
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
bool sw_filter_follows(u32 tgid);
bool sw_core_enter_spec(struct sw_call *c, struct sw_aggs *a,
			const struct sw_spec *s, struct pt_regs *regs);
bool sw_core_window(struct sw_aggs *a, const struct sw_filter *f, u64 ns);
/* Six arguments: a seventh, on the stack, realigns the callers' frames. */
void sw_core_key_record(struct sw_bdgen *bd, const struct sw_call *c,
			struct pt_regs *regs, u64 ns, const u64 *acc,
			u32 bad);
void sw_core_evs_unmeasured(struct sw_evgen *evs);

/* core/stacked.c: for mechanisms with no per-call storage of their own */
bool sw_core_enter_stacked(const void *owner, struct sw_aggs *a,
			   const struct sw_spec *s, struct pt_regs *regs);
bool sw_core_exit_stacked(const void *owner, struct sw_aggs *a,
			  const struct sw_spec *s, struct pt_regs *regs);

/*
 * core/stacked.c: entries owned by intervals that are not calls (a span
 * from its start to its stop on one thread): events counted for the
 * owner, virtualized per thread like a call's.  See stacked.c.
 */
enum sw_owned_open {
	SW_OWNED_OPEN,
	SW_OWNED_NO_EVENTS,
	SW_OWNED_NO_SLOT,
	SW_OWNED_TOO_DEEP,
};

int sw_core_open_owned(const void *owner, const u64 key[2], u64 t0);
struct sw_pending *sw_core_close_owned(const void *owner, const u64 key[2],
				       u64 t0, bool *measured);
void sw_core_drop_owned(struct sw_pending *pd);

/* core/paths.c: call paths */
DECLARE_STATIC_KEY_FALSE(sw_paths_key);
void sw_paths_enter(struct sw_pending *pd, const struct sw_aggs *a);
void sw_paths_exit(struct sw_pending *pd, u64 ns, bool measured);
void sw_paths_no_entry(void);
int sw_paths_probe_id(const char *name);
struct sw_paths_gen;
int sw_paths_prepare(const struct sw_evset *set);
struct sw_paths_gen *sw_paths_commit(void);
void sw_paths_abort(void);
void sw_paths_done(struct sw_paths_gen *old);
int sw_paths_init(void);
void sw_paths_exit_module(void);

/* Whether calls are put on their paths: a static branch, off by default. */
static __always_inline bool sw_paths_on(void)
{
	return static_branch_unlikely(&sw_paths_key);
}

/*
 * sw_core_enter_path() - push a call on its thread's pending stack with
 * its path node (paths on).  No room: the call is measured without a path
 * (counted twice: in the pending file by cause, in the paths file).
 * Context: as sw_core_enter().
 */
static __always_inline void sw_core_enter_path(struct sw_call *c,
					       const struct sw_aggs *a)
{
	struct sw_pending *pd = sw_pending_push();

	if (unlikely(!pd)) {
		sw_paths_no_entry();
		return;
	}
	pd->owner = NULL;
	pd->set_id = 0;
	c->pend = pd;
	sw_paths_enter(pd, a);
}

/* core/virt.c */
int sw_virt_init(void);
void sw_virt_exit(void);

/* core/init.c */
int sw_core_init(void);
void sw_core_cleanup(void);

/*
 * __sw_ev_halves - how a mechanism's lean halves take the core's event
 * halves (sw_core_enter_events(), sw_core_exit()) for a probe with no
 * spec: inline where that costs a time-only call little (arm64 6.12: the
 * first event 40 instructions fewer per call, a time-only call 4 more),
 * out of line where it does not (x86_64 6.12: inline, every time-only
 * call paid 20 more for a realigned frame and six saved registers).
 */
#ifdef CONFIG_ARM64
#define __sw_ev_halves __always_inline
#else
#define __sw_ev_halves noinline
#endif

/*
 * sw_core_enter_time() - the entry half of a time-only call: its CPU and
 * the clock, nothing on the pending stack.  For a probe with no spec
 * while call paths are off, this and then, when events are counted,
 * sw_core_enter_events() are sw_core_enter(): a mechanism can inline
 * them and keep the rest out of line, so that its registers and stack
 * are not set up in every call.
 * Context: as sw_core_enter().
 */
static __always_inline void sw_core_enter_time(struct sw_call *c)
{
	c->pend = NULL;
	c->cpu = sw_cpu();
	c->t0 = sw_clock_stamp();
}

/*
 * sw_core_enter() - the entry half of a measured call.
 * @c:    the call's record, kept by the attach mechanism until the exit
 * @a:    the probe's aggregations (a filtered-out call is counted there;
 *        its path_id names its path nodes); may be NULL for a probe with
 *        no spec while call paths are off
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
	c->pend = NULL;
	if (sw_paths_on()) {
		sw_core_enter_path(c, a);
		c->cpu = sw_cpu();
		c->t0 = sw_clock_stamp();
		if (unlikely(set) && c->pend)
			sw_pending_open(c->pend, set);
		return true;
	}
	sw_core_enter_time(c);
	if (unlikely(set))
		sw_core_enter_events(c, set);
	return true;
}

/*
 * __sw_core_fold() - fold a returned call into @a (sw_core_exit()'s body).
 * @pd:       the call's pending entry, NULL when it has none
 * @ev:       whether the call was entered with events (false for a
 *            time-only call: a constant in that copy, its event code
 *            compiles away)
 * @measured: whether its event counts (@acc) were counted with the
 *            current set (a constant in a lean call's copy: no test)
 * @acc:      its event counts when @measured
 * @bad:      events of @acc it was not counted for
 * @set_id:   the event set it was entered with
 * @ns:       its wall time, sw_clock_since() of its entry stamp
 *
 * A call outside the probe's duration window is counted apart
 * (filtered_short, filtered_long) and folded into nothing else.
 */
static __always_inline void __sw_core_fold(struct sw_aggs *a,
					   const struct sw_spec *s,
					   struct sw_call *c,
					   struct pt_regs *regs,
					   struct sw_pending *pd, bool ev,
					   bool measured, const u64 *acc,
					   u32 bad, u32 set_id, u64 ns)
{
	struct sw_evgen *evs;
	struct sw_bdgen *bd;

	/* Paths count every call the entry let in, whatever its duration. */
	if (pd && unlikely(pd->pgen))
		sw_paths_exit(pd, ns, measured);
	if (unlikely(s) && (s->f.flags & SW_F_WINDOW) &&
	    !sw_core_window(a, &s->f, ns))
		return;
	sw_timing_record(rcu_dereference_sched(a->gen), ns, c->cpu);
	bd = rcu_dereference_sched(a->bd);
	if (bd)
		sw_core_key_record(bd, c, regs, ns,
				   measured && bd->set_id == set_id ? acc : NULL,
				   bad);
	/* Calls entered under other events count as unmeasured. */
	evs = rcu_dereference_sched(a->evs);
	if (evs) {
		/* Read beside its set id: one pair load. */
		u32 n = evs->n;

		if (ev && measured && likely(evs->set_id == set_id))
			sw_evgen_record_n(evs, n, acc, bad);
		else
			sw_core_evs_unmeasured(evs);
	}
}

/* __sw_core_fold() from the clock, with @acc NULL when not measured. */
static __always_inline void sw_core_fold(struct sw_aggs *a,
					 const struct sw_spec *s,
					 struct sw_call *c, struct pt_regs *regs,
					 struct sw_pending *pd, bool ev,
					 const u64 *acc, u32 bad, u32 set_id)
{
	__sw_core_fold(a, s, c, regs, pd, ev, acc != NULL, acc, bad, set_id,
		       sw_clock_since(c->t0));
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

		sw_core_fold(a, s, c, regs, pd, true,
			     measured ? pd->ev.acc : NULL, pd->ev.bad,
			     pd->set_id);
		sw_pending_pop(pd);
		return;
	}
	sw_core_fold(a, s, c, regs, NULL, false, NULL, 0, 0);
}

/*
 * sw_core_exit_time() - sw_core_exit() of a call with no pending entry
 * (@c->pend NULL) of a probe with no spec: its whole exit half.
 * Context: as sw_core_exit().
 */
static __always_inline void sw_core_exit_time(struct sw_aggs *a,
					      struct sw_call *c,
					      struct pt_regs *regs)
{
	sw_core_fold(a, NULL, c, regs, NULL, false, NULL, 0, 0);
}

/*
 * sw_core_enter_lean() - the event half of a lean call's entry, after
 * sw_core_enter_time(), for a probe with no spec while call paths are
 * off: the call is counted in its thread's lean calls (so that the
 * sched_switch hook follows the thread's virtual counts, virt.c) and the
 * thread's virtual counts are read into @vc, the last thing before the
 * function runs.  Without a slot for the thread the call is measured for
 * time only (its events count as unmeasured; the pending file says why).
 * @c:   the call's record, from sw_core_enter_time()
 * @vc:  its events' record, kept by the mechanism beside @c until the exit
 * @set: the event set counted now
 * Context: as sw_core_enter().
 */
static __always_inline void sw_core_enter_lean(struct sw_call *c,
					       struct sw_vcall *vc,
					       const struct sw_evset *set)
{
	struct sw_thread *th = __this_cpu_read(sw_cur_thread);

	if (unlikely(READ_ONCE(th->task) != current)) {
		th = sw_pending_slot();
		if (unlikely(!th))
			return;
	}
	/* Counted before the reading: a switch from here on follows us. */
	WRITE_ONCE(th->lean, th->lean + 1);
	barrier();
	c->pend = (struct sw_pending *)((unsigned long)th | SW_PEND_LEAN);
	sw_vcall_read(vc, set, c->cpu);
}

/* core/filter.c: a lean call entered under another event set. */
void sw_core_exit_lean_unmeasured(struct sw_aggs *a, struct sw_call *c,
				  struct pt_regs *regs, u32 set_id);

/*
 * sw_core_exit_lean() - the exit half of a lean call (sw_pend_is_lean()
 * of @c->pend): its counts, then it leaves its thread's lean calls and
 * is folded into @a.
 * @a:    the probe's aggregations
 * @c:    the call's record
 * @vc:   its events' record, from sw_core_enter_lean()
 * @regs: the registers at the function's return
 * Context: as sw_core_exit().
 */
static __always_inline void sw_core_exit_lean(struct sw_aggs *a,
					      struct sw_call *c,
					      struct sw_vcall *vc,
					      struct pt_regs *regs)
{
	struct sw_evset *set = rcu_dereference_sched(sw_evset);
	struct sw_thread *th = sw_pend_lean_thread(c->pend);
	u64 ns;

	if (unlikely(!set || set->id != vc->set_id)) {
		/* Entered under other events (or none now): out of line. */
		WRITE_ONCE(th->lean, th->lean - 1);
		sw_core_exit_lean_unmeasured(a, c, regs, vc->set_id);
		return;
	}
	/* First thing after the function: read the counters. */
	sw_vcall_close(vc, set);
	barrier();
	WRITE_ONCE(th->lean, th->lean - 1);
	/*
	 * The clock first, then the record's fields: read after its call,
	 * nothing of them is kept in registers across it.
	 */
	ns = sw_clock_since(c->t0);
	__sw_core_fold(a, NULL, c, regs, NULL, true, true, vc->v, vc->bad,
		       vc->set_id, ns);
}

#endif /* _STOPWATCH_CORE_H */
