/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core.h - the measurement core: what happens at the entry and at the
 * exit of every measured call, whatever attached to it.
 *
 *   entry  CPU, clock; with events, the counters
 *   exit   with events, the counters again; the clock; the call is folded
 *          into the probe's aggregations (agg/)
 *   virt.c the sched_switch hook: follows every call in flight of the
 *          threads it switches, so event counts cover the calling thread
 *          alone
 *
 * An attach mechanism (attach/) keeps a record of each call in flight (a
 * struct sw_call and a struct sw_vcall beside it: a kretprobe instance's
 * data, a trampoline's stack frame), makes the core's two halves for it
 * with SW_CORE_HALVES(), and its handlers call them with the record and
 * the call's probe (struct sw_target): that is all of it.  The core
 * chooses how each call is measured:
 *
 *   time only  no spec, no events, no call paths: the CPU and a stamp
 *   lean       events, no spec, call paths off: the counts are differences
 *              of the thread's virtual counts, kept in the struct sw_vcall
 *              (pending.h); nothing goes on the pending stack
 *   full       a probe with filters or keys of its own (struct sw_spec), or
 *              call paths on: filters at entry, the duration window and the
 *              row's key at exit, the call on its thread's pending stack
 *              (pending.c) with its path node and its counting segments
 *   stacked    a mechanism with no per-call storage (a uprobe):
 *              sw_core_enter_stacked(), sw_core_exit_stacked() (stacked.c),
 *              the whole record in the call's pending entry
 *
 * The first two are inline in the mechanism's handlers; the full halves
 * are out of line, so that the time-only and lean calls set up no
 * registers or stack for them.  Where the lean halves go is the
 * architecture's choice (wrapper/arch.h, SW_ARCH_LEAN_INLINE).
 *
 * A filtered-out call reads no clock and no counter, and the mechanism
 * runs no exit half for it (the entry half returns false).  The
 * per-thread record of calls in flight is stopwatch's own (pending.c),
 * the same for every mechanism.
 */
#ifndef _STOPWATCH_CORE_H
#define _STOPWATCH_CORE_H

#include <linux/jump_label.h>
#include <linux/kprobes.h>
#include <linux/rcupdate.h>

#include "agg/agg.h"
#include "lib/parse.h"
#include "pmu/pmu.h"
#include "wrapper/arch.h"
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
 *        SW_PEND_LEAN (sw_pend_is_lean(), sw_pend_lean_thread()); with
 *        SW_PEND_COST too when the cost sampler timed its entry handler
 *        and its exit handler is to be timed (core/cost.h)
 * @gap:  with SW_PEND_COST: the calls the timed call stands for
 *        (core/cost.h); else nothing
 * @key:  the parts of the call's key captured at entry (argN), in
 *        the order of the probe's by=; set only for a probe with a spec
 */
struct sw_call {
	u64 t0;
	u32 cpu;
	u32 gap;
	struct sw_pending *pend;
	u64 key[2];
};

/**
 * struct sw_vcall - the events of a lean call in flight: a call of a probe
 * with no spec, entered while call paths are off, whose attach mechanism
 * keeps this beside its struct sw_call (__sw_core_enter_lean()).  Its counts
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

/*
 * struct sw_call.pend of a call whose entry handler the cost sampler
 * timed (core/cost.h): bit 1 set after the entry half, so that its exit
 * handler is timed too; cleared before the exit half reads @pend.  Every
 * entry half writes @pend, so a call not timed needs no store to clear it.
 */
#define SW_PEND_COST 2UL

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

/**
 * struct sw_target - a probe as the core sees it, embedded in each attach
 * mechanism's own (struct sw_kretprobe, struct sw_tramp, struct
 * sw_uprobe) and fixed for its life.
 * @aggs: where its calls are folded
 * @spec: its filters and keys, NULL when it has none
 */
struct sw_target {
	struct sw_aggs *aggs;
	const struct sw_spec *spec;
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

/* core/trace.c: a call's record into the sampler's streams */
struct sw_ret;
void sw_core_trace(const struct sw_aggs *a, const struct sw_spec *s,
		   const struct sw_call *c, struct pt_regs *regs,
		   const struct sw_ret *r);
u64 sw_core_key_value(u8 kind, const struct sw_call *c, u64 entry_value,
		      struct pt_regs *regs);

/* core/stacked.c: for mechanisms with no per-call storage of their own */
struct sw_pending *sw_core_enter_stacked(const void *owner,
					 const struct sw_target *t,
					 struct pt_regs *regs);
bool sw_core_exit_stacked(const void *owner, const struct sw_target *t,
			  struct pt_regs *regs);
bool sw_core_exit_stacked_on(struct sw_thread *th, const void *owner,
			     const struct sw_target *t, struct pt_regs *regs);
struct sw_pending *sw_core_stacked_top(struct sw_thread *th);

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
void sw_paths_probe_put(int id);
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

/* core/virt.c */
int sw_virt_init(void);
void sw_virt_exit(void);

/* core/init.c */
int sw_core_init(void);
void sw_core_cleanup(void);

/*
 * core/core.c: the folds of calls whose events count as unmeasured, out of
 * line (rare): a lean call entered under another event set than the
 * current one, and any call entered without events folded into event
 * statistics.
 */
void sw_core_exit_lean_unmeasured(struct sw_aggs *a, struct sw_call *c,
				  struct pt_regs *regs, u32 set_id);
void sw_core_evs_unmeasured(struct sw_evgen *evs);

/*
 * sw_core_enter_path() - push a call on its thread's pending stack with
 * its path node (paths on).  No room: the call is measured without a path
 * (counted twice: in the pending file by cause, in the paths file).
 * Context: the entry half (SW_CORE_HALVES()).
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

/*
 * sw_core_enter_time() - the entry half of a time-only call: its CPU and
 * the clock, nothing on the pending stack.
 * Context: the entry half (SW_CORE_HALVES()).
 */
static __always_inline void sw_core_enter_time(struct sw_call *c)
{
	c->pend = NULL;
	c->cpu = sw_cpu();
	c->t0 = sw_clock_stamp();
}

/*
 * __sw_core_enter_full() - the entry half of a call of a probe with a
 * spec, or while call paths are on (the full halves' body).
 * @c:    the call's record
 * @a:    the probe's aggregations (a filtered-out call is counted there;
 *        its path_id names its path nodes)
 * @s:    the probe's filters and keys, NULL when it has none
 * @regs: the registers at the function's entry
 * Context: the entry half (SW_CORE_HALVES()).
 * Return: false when a filter left the call out.
 */
static __always_inline bool __sw_core_enter_full(struct sw_call *c,
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

/**
 * struct sw_ret - a returned call as its fold takes it: by value, so that
 * what is a constant in one copy of the fold (a time-only call's, a lean
 * call's) compiles away there.
 * @ns:       its wall time, sw_clock_since() of its entry stamp
 * @pd:       its entry on the pending stack (call paths read it), or NULL
 * @measured: whether @acc holds its event counts under @set_id
 * @acc:      its event counts when @measured
 * @bad:      events of @acc it was not counted for
 * @set_id:   the event set it was entered with, 0 for none
 */
struct sw_ret {
	u64 ns;
	struct sw_pending *pd;
	bool measured;
	const u64 *acc;
	u32 bad;
	u32 set_id;
};

/*
 * sw_core_fold() - fold a returned call into @a.  A call outside the
 * probe's duration window is counted apart (filtered_short,
 * filtered_long) and folded into nothing else; calls entered under other
 * events count as unmeasured in the event statistics.
 * Context: the exit half (SW_CORE_HALVES()).
 */
static __always_inline void sw_core_fold(struct sw_aggs *a,
					 const struct sw_spec *s,
					 struct sw_call *c,
					 struct pt_regs *regs,
					 const struct sw_ret r)
{
	struct sw_evgen *evs;
	struct sw_bdgen *bd;

	/* Paths count every call the entry let in, whatever its duration. */
	if (r.pd && unlikely(r.pd->pgen))
		sw_paths_exit(r.pd, r.ns, r.measured);
	if (unlikely(s) && (s->f.flags & SW_F_WINDOW) &&
	    !sw_core_window(a, &s->f, r.ns))
		return;
	if (unlikely(a->trace))
		sw_core_trace(a, s, c, regs, &r);
	sw_timing_record(rcu_dereference_sched(a->gen), r.ns, c->cpu);
	bd = rcu_dereference_sched(a->bd);
	if (bd)
		sw_core_key_record(bd, c, regs, r.ns,
				   r.measured && bd->set_id == r.set_id ?
				   r.acc : NULL, r.bad);
	evs = rcu_dereference_sched(a->evs);
	if (evs) {
		/* Read beside its set id: one pair load. */
		u32 n = evs->n;

		if (r.measured && likely(evs->set_id == r.set_id))
			sw_evgen_record_n(evs, n, r.acc, r.bad);
		else
			sw_core_evs_unmeasured(evs);
	}
}

/*
 * __sw_core_exit_full() - the exit half of a call entered by
 * __sw_core_enter_full() (the full halves' body); a time-only call of any
 * probe too.
 * @a, @s: as __sw_core_enter_full()
 * @c:     the call's record
 * @regs:  the registers at the function's return
 * Context: the exit half (SW_CORE_HALVES()).
 */
static __always_inline void __sw_core_exit_full(struct sw_aggs *a,
						const struct sw_spec *s,
						struct sw_call *c,
						struct pt_regs *regs)
{
	struct sw_pending *pd = c->pend;

	if (unlikely(pd)) {
		/* First thing after the function: close the segment. */
		bool measured = sw_core_exit_events(pd);

		sw_core_fold(a, s, c, regs, (struct sw_ret){
			.ns = sw_clock_since(c->t0), .pd = pd,
			.measured = measured, .acc = pd->ev.acc,
			.bad = pd->ev.bad, .set_id = pd->set_id });
		sw_pending_pop(pd);
		return;
	}
	sw_core_fold(a, s, c, regs,
		     (struct sw_ret){ .ns = sw_clock_since(c->t0) });
}

/*
 * __sw_core_enter_lean() - the event half of a lean call's entry, after
 * sw_core_enter_time(): the call is counted in its thread's lean calls
 * (so that the sched_switch hook follows the thread's virtual counts,
 * virt.c) and the thread's virtual counts are read into @vc, the last
 * thing before the function runs.  Without a slot for the thread the call
 * is measured for time only (its events count as unmeasured; the pending
 * file says why).
 * @c:   the call's record, from sw_core_enter_time()
 * @vc:  its events' record, kept by the mechanism beside @c until the exit
 * @set: the event set counted now
 * Context: the entry half (SW_CORE_HALVES()).
 */
static __always_inline void __sw_core_enter_lean(struct sw_call *c,
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

/*
 * __sw_core_exit_lean() - the exit half of a lean call (sw_pend_is_lean()
 * of @c->pend): its counts, then it leaves its thread's lean calls and is
 * folded into @a.
 * @a:    the probe's aggregations
 * @c:    the call's record
 * @vc:   its events' record, from __sw_core_enter_lean()
 * @regs: the registers at the function's return
 * Context: the exit half (SW_CORE_HALVES()).
 */
static __always_inline void __sw_core_exit_lean(struct sw_aggs *a,
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
	sw_core_fold(a, NULL, c, regs, (struct sw_ret){
		.ns = ns, .measured = true, .acc = vc->v, .bad = vc->bad,
		.set_id = vc->set_id });
}

/*
 * __sw_core_exit_time() - the exit half of a call with no pending entry
 * (@c->pend NULL) of a probe with no spec: its whole exit half.
 * Context: the exit half (SW_CORE_HALVES()).
 */
static __always_inline void __sw_core_exit_time(struct sw_aggs *a,
						struct sw_call *c,
						struct pt_regs *regs)
{
	sw_core_fold(a, NULL, c, regs,
		     (struct sw_ret){ .ns = sw_clock_since(c->t0) });
}

/*
 * __sw_lean - how SW_CORE_HALVES() makes a mechanism's lean halves:
 * inlined into its handlers where the architecture wants them so
 * (SW_ARCH_LEAN_INLINE), else functions of its own.
 */
#ifdef SW_ARCH_LEAN_INLINE
#define __sw_lean __always_inline
#else
#define __sw_lean noinline
#endif

/**
 * SW_CORE_HALVES() - the measurement core's two halves, made for one
 * attach mechanism: all its handlers call.
 * @name: prefix of what it defines
 * @type: the mechanism's pointer to a call's storage at entry (a
 *        trampoline's frame, a kretprobe instance)
 * @rec:  its function (inline) from @type to the call's record, a pointer
 *        of type @rtype, kept by the mechanism until the exit
 * @rtype: the record: a struct with the call's struct sw_call as member
 *        call and a struct sw_vcall (a lean call's events) as member vc
 *
 * Defines, static in the mechanism's file:
 *
 *   bool name##_enter(const struct sw_target *t, type p,
 *		       struct pt_regs *regs);
 *   void name##_exit(const struct sw_target *t, rtype r,
 *		      struct pt_regs *regs);
 *
 * the entry half of a call of probe @t kept at @p (@regs: the registers at
 * the function's entry), false when a filter left it out (the mechanism
 * then runs no exit half for it); and its exit half (@r: the call's
 * record, @regs: the registers at the return), which folds it into the
 * probe's aggregations.  They choose the way of each call: time only (no
 * spec, no events, no call paths: its CPU and a stamp), lean (events, no
 * spec, call paths off: __sw_core_enter_lean()) or full (a spec, or call
 * paths on: __sw_core_enter_full()).  The first two are inline; the full
 * halves are functions of their own, so that time-only and lean calls set
 * up no registers or stack for them; the lean ones where the
 * architecture says (__sw_lean).  The functions the halves call are made
 * here, in the mechanism's file, and take the pointer its handler holds
 * (at entry @p, at exit @r): a pointer derived from it up front would be
 * kept in a register across the whole handler, time-only calls included.
 *
 * Context: the mechanism's entry handler, and its exit handler on the
 * calling thread: preemption disabled, possibly interrupts off or NMI
 * (the same under PREEMPT_RT: kprobe handlers run with preemption
 * disabled there too).  No locks, no allocation.  The mechanism runs no
 * other handler on this CPU meanwhile, so this CPU's statistics have a
 * single writer.
 */
#define SW_CORE_HALVES(name, type, rec, rtype)				\
static noinline bool name##_enter_full(const struct sw_target *t,	\
				       type p, struct pt_regs *regs)	\
{									\
	return __sw_core_enter_full(&rec(p)->call, t->aggs, t->spec,	\
				    regs);				\
}									\
NOKPROBE_SYMBOL(name##_enter_full);					\
									\
static noinline void name##_exit_full(const struct sw_target *t,	\
				      rtype r, struct pt_regs *regs)	\
{									\
	__sw_core_exit_full(t->aggs, t->spec, &r->call, regs);		\
}									\
NOKPROBE_SYMBOL(name##_exit_full);					\
									\
static __sw_lean void name##_enter_lean(type p,			\
					const struct sw_evset *set)	\
{									\
	__sw_core_enter_lean(&rec(p)->call, &rec(p)->vc, set);		\
}									\
NOKPROBE_SYMBOL(name##_enter_lean);					\
									\
static __sw_lean void name##_exit_lean(struct sw_aggs *a, rtype r,	\
				       struct pt_regs *regs)		\
{									\
	__sw_core_exit_lean(a, &r->call, &r->vc, regs);			\
}									\
NOKPROBE_SYMBOL(name##_exit_lean);					\
									\
/* Time only, and lean with events: the halves' inline ways. */	\
static __always_inline void name##_enter_fast(type p,			\
					      const struct sw_evset *set)\
{									\
	sw_core_enter_time(&rec(p)->call);				\
	if (unlikely(set))						\
		name##_enter_lean(p, set);				\
}									\
									\
static __always_inline bool name##_exit_fast(struct sw_aggs *a, rtype r,\
					     struct pt_regs *regs)	\
{									\
	struct sw_pending *pd = r->call.pend;				\
									\
	if (likely(!pd))						\
		__sw_core_exit_time(a, &r->call, regs);			\
	else if (likely(sw_pend_is_lean(pd)))				\
		name##_exit_lean(a, r, regs);				\
	else								\
		return false;						\
	return true;							\
}									\
									\
static __always_inline bool name##_enter(const struct sw_target *t,	\
					 type p, struct pt_regs *regs)	\
{									\
	struct sw_evset *set = rcu_dereference_sched(sw_evset);	\
									\
	if (likely(!t->spec) && likely(!sw_paths_on())) {		\
		name##_enter_fast(p, set);				\
		return true;						\
	}								\
	return name##_enter_full(t, p, regs);				\
}									\
									\
static __always_inline void name##_exit(const struct sw_target *t,	\
					rtype r, struct pt_regs *regs)	\
{									\
	if (likely(!t->spec) && likely(name##_exit_fast(t->aggs, r, regs)))\
		return;							\
	name##_exit_full(t, r, regs);					\
}

/**
 * SW_CORE_HALVES_NOSPEC() - SW_CORE_HALVES()'s halves for the handlers of
 * probes without a spec, for a mechanism that finds a call's probe only at
 * a cost (a kretprobe, from its instance): only the full entry half needs
 * it, and only while call paths are on.  Made after SW_CORE_HALVES(@name,
 * @type, @rec, @rtype).
 * @name, @type, @rec, @rtype: as SW_CORE_HALVES()
 * @probe_of: the mechanism's function (inline) from @type to the call's
 *        probe: bool probe_of(type p, const struct sw_target **t), false
 *        when it is gone (the call is then left out)
 *
 * Defines, static in the mechanism's file:
 *
 *   int name##_enter_nospec(type p, struct pt_regs *regs);
 *   void name##_exit_nospec(const struct sw_target *t, rtype r,
 *			     struct pt_regs *regs);
 *
 * name##_enter() and name##_exit() of a probe known to have no spec, the
 * entry half returning as a kprobe entry handler does: 0, or nonzero for a
 * call left out.
 *
 * Context: as SW_CORE_HALVES().
 */
#define SW_CORE_HALVES_NOSPEC(name, type, rec, rtype, probe_of)		\
static noinline int name##_enter_nospec_full(type p,			\
					     struct pt_regs *regs)	\
{									\
	const struct sw_target *t;					\
									\
	if (unlikely(!probe_of(p, &t)))					\
		return 1;						\
	__sw_core_enter_full(&rec(p)->call, t->aggs, NULL, regs);	\
	return 0;							\
}									\
NOKPROBE_SYMBOL(name##_enter_nospec_full);				\
									\
static noinline void name##_exit_nospec_full(struct sw_aggs *a,	\
					     rtype r,			\
					     struct pt_regs *regs)	\
{									\
	__sw_core_exit_full(a, NULL, &r->call, regs);			\
}									\
NOKPROBE_SYMBOL(name##_exit_nospec_full);				\
									\
static __always_inline int name##_enter_nospec(type p,			\
					       struct pt_regs *regs)	\
{									\
	struct sw_evset *set = rcu_dereference_sched(sw_evset);	\
									\
	if (likely(!sw_paths_on())) {					\
		name##_enter_fast(p, set);				\
		return 0;						\
	}								\
	return name##_enter_nospec_full(p, regs);			\
}									\
									\
static __always_inline void						\
name##_exit_nospec(const struct sw_target *t, rtype r,			\
		   struct pt_regs *regs)				\
{									\
	if (likely(name##_exit_fast(t->aggs, r, regs)))			\
		return;							\
	name##_exit_nospec_full(t->aggs, r, regs);			\
}

#endif /* _STOPWATCH_CORE_H */
