/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pending.h - the per-thread table of calls in flight (pending.c) and the
 * event halves of the measurement core, inline: they run in every
 * measured call with events counted.  Part of core.h, which includes it
 * after the structures it uses; include core.h, not this.
 */
#ifndef _STOPWATCH_PENDING_H
#define _STOPWATCH_PENDING_H

#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/sched.h>

/**
 * struct sw_thread - one thread's pending stack, and its virtual counts.
 * @task:  the owning thread, NULL when free (claimed with cmpxchg)
 * @depth: entries in use
 * @lean:  lean calls in flight (struct sw_vcall): the slot is kept, and
 *         the thread's virtual counts followed, while it is not 0
 * @vset:  the event set @vc and @vg were saved under, 0 for none
 * @pad:   nothing
 * @vc:    per event, the thread's virtual count when it was last
 *         switched out with lean calls in flight (virt.c)
 * @vg:    the same for its virtual gap
 * @calls: the entries, outermost first
 */
struct sw_thread {
	struct task_struct *task;
	u32 depth;
	u32 lean;
	u32 vset;
	u32 pad;
	u64 vc[SW_MAX_EVENTS];
	u64 vg[SW_MAX_EVENTS];
	struct sw_pending calls[SW_PENDING_DEPTH];
};

/*
 * A lean call's struct sw_call.pend is its slot tagged in bit 0; a timed
 * call's has bit 1 too (SW_PEND_COST), a pending entry's likewise.
 */
static_assert(__alignof__(struct sw_thread) > (SW_PEND_LEAN | SW_PEND_COST));
static_assert(__alignof__(struct sw_pending) > SW_PEND_COST);

/*
 * The slot of the task running on each CPU, if it has one (a hint), else
 * a slot no thread has: never NULL.
 */
DECLARE_PER_CPU(struct sw_thread *, sw_cur_thread);

/* core/pending.c */
int sw_pending_init(void);
void sw_pending_exit(void);
struct sw_thread *sw_pending_slot(void);
void sw_pending_too_deep(void);
void sw_pending_orphaned(u32 n);
struct sw_thread *sw_pending_switch_out(struct task_struct *prev);
struct sw_thread *sw_pending_switch_in(struct task_struct *next);
void sw_pending_idle(struct sw_thread *th);
void sw_pending_forget_cpu(void);
struct sw_thread *sw_pending_find_current(void);
bool sw_pending_leaving(void);
void sw_pending_unmatched(void);
void sw_pending_close_slow(struct sw_pending *pd, const struct sw_evset *set);

/*
 * sw_pending_push() - reserve the next entry of the current thread's
 * pending stack.
 * Context: the core's entry half (preemption disabled, possibly NMI).
 * Return: the entry, to be filled by the caller, or NULL (counted).
 */
static __always_inline struct sw_pending *sw_pending_push(void)
{
	struct sw_thread *th = __this_cpu_read(sw_cur_thread);
	u32 d;

	if (unlikely(READ_ONCE(th->task) != current)) {
		th = sw_pending_slot();
		if (unlikely(!th))
			return NULL;
	}
	d = th->depth;
	if (unlikely(d >= SW_PENDING_DEPTH)) {
		sw_pending_too_deep();
		return NULL;
	}
	/*
	 * Reserved before it is filled: an NMI pushing now takes the next,
	 * and finds this one on no path yet (call paths read the entry below).
	 */
	th->calls[d].pgen = 0;
	barrier();
	WRITE_ONCE(th->depth, d + 1);
	barrier();
	return &th->calls[d];
}

/*
 * sw_pending_pop() - forget a returning call's entry and any above it
 * (calls whose exit never came, counted as orphaned).  The slot stays the
 * thread's until it is switched out.
 * Context: the core's exit half, on the thread that pushed @pd.
 */
static __always_inline void sw_pending_pop(struct sw_pending *pd)
{
	u32 idx = pd->idx;
	struct sw_thread *th = container_of(pd - idx, struct sw_thread,
					    calls[0]);

	if (unlikely(th->depth > idx + 1))
		sw_pending_orphaned(th->depth - idx - 1);
	barrier();
	WRITE_ONCE(th->depth, idx);
}

/*
 * sw_pending_current() - the current thread's slot, without claiming one.
 * Context: the core's exit half (preemption disabled, possibly NMI).
 * Return: the slot, or NULL when the thread has none.
 */
static __always_inline struct sw_thread *sw_pending_current(void)
{
	struct sw_thread *th = __this_cpu_read(sw_cur_thread);

	if (likely(READ_ONCE(th->task) == current))
		return th;
	return sw_pending_find_current();
}

/*
 * sw_pending_open() - open the first counting segment of a pushed call:
 * the last thing before the function runs, so its counts exclude us.
 * @pd:  the call's entry, filled but for its events
 * @set: the event set counted now
 * Context: the core's entry half.
 */
static __always_inline void sw_pending_open(struct sw_pending *pd,
					    const struct sw_evset *set)
{
	pd->set_id = set->id;
	/* Read straight into the call's segment start: nothing to copy. */
	sw_evcall_opened(&pd->ev, sw_pmu_read(set, pd->ev.start));
}

/*
 * sw_core_enter_events() - push a call entering with events counted and
 * open its first counting segment.  Without room on the thread's pending
 * stack the call is measured for time only (its events count as
 * unmeasured; the pending file says why).
 * Context: the core's entry half.
 */
static __always_inline void sw_core_enter_events(struct sw_call *c,
						 const struct sw_evset *set)
{
	struct sw_pending *pd = sw_pending_push();

	if (!pd)
		return;
	pd->owner = NULL;
	c->pend = pd;
	sw_pending_open(pd, set);
}

/*
 * sw_pending_close() - close a returning call's last segment, reading
 * each counter and folding it into the call at once (no array of
 * samples in between).  A CPU without counters of @set, or a segment not
 * open, takes the general way, out of line (sw_pending_close_slow()).
 * Context: the core's exit half.
 */
static __always_inline void sw_pending_close(struct sw_pending *pd,
					     const struct sw_evset *set)
{
	struct sw_evcall *ev = &pd->ev;
	unsigned int cpu = sw_cpu();
	struct sw_evcpu *c = rcu_dereference_sched(set->cpu[cpu]);
	u32 i, n = set->n, bad = ev->bad;
	unsigned long flags;

	if (unlikely(!c || !ev->open)) {
		sw_pending_close_slow(pd, set);
		return;
	}
	flags = sw_irq_save();
	for (i = 0; i < n; i++) {
		struct sw_ctr_sample s __sw_noinit;

		if (sw_pmu_read_ctr(&c->ctr[i], cpu, &s))
			bad = sw_evcall_end_ev(ev, i, &s, bad);
		else
			bad |= 1U << i;
	}
	sw_irq_restore(flags);
	ev->open = 0;
	ev->bad = bad;
}

/*
 * sw_core_exit_events() - close a returning call's last segment.
 * Context: the core's exit half.
 * Return: whether the call was counted with the current event set.
 */
static __always_inline bool sw_core_exit_events(struct sw_pending *pd)
{
	struct sw_evset *set = rcu_dereference_sched(sw_evset);

	if (!set || set->id != pd->set_id)
		return false;
	/* First thing after the function: close the segment. */
	sw_pending_close(pd, set);
	return true;
}

/*
 * sw_pmu_read_virt() - read one counter of this CPU as the virtual count
 * and gap of the thread running here (struct sw_evctr.voff, .vgoff);
 * sw_pmu_read_virt_direct() by the direct read only
 * (sw_pmu_read_ctr_direct()).
 * @ctr: the counter, from this CPU's struct sw_evcpu
 * @cpu: this CPU
 * @v:   the virtual count, output; untouched when there is no value
 * @g:   the virtual gap, likewise
 * Context: as sw_pmu_read_ctr().
 * Return: false when the counter has no value (or, direct only, must be
 * read through perf).
 */
static __always_inline bool __sw_pmu_read_virt(const struct sw_evctr *ctr,
					       int cpu, u64 *v, u64 *g,
					       bool direct_only)
{
	const struct sw_evctr *src = ctr;
	struct sw_ctr_sample s __sw_noinit;
	struct sw_evctr c __sw_noinit;

	/*
	 * The counter's four fields at once, two pair loads: where no call
	 * follows (direct only), or where the architecture keeps them in
	 * registers across perf's read (SW_ARCH_CTR_PAIRS).
	 */
	if (direct_only || SW_ARCH_CTR_PAIRS) {
		c = *ctr;
		src = &c;
	}
	if (direct_only ? !sw_pmu_read_ctr_direct(src, cpu, &s) :
			  !sw_pmu_read_ctr(src, cpu, &s))
		return false;
	*v = s.count + src->voff;
	*g = s.gap + src->vgoff;
	return true;
}

static __always_inline bool sw_pmu_read_virt(const struct sw_evctr *ctr,
					     int cpu, u64 *v, u64 *g)
{
	return __sw_pmu_read_virt(ctr, cpu, v, g, false);
}

static __always_inline bool sw_pmu_read_virt_direct(const struct sw_evctr *ctr,
						    int cpu, u64 *v, u64 *g)
{
	return __sw_pmu_read_virt(ctr, cpu, v, g, true);
}

/*
 * sw_vcall_read_ev(), sw_vcall_close_ev() - sw_vcall_read() and
 * sw_vcall_close() for event @i: @bad with @i's bit set when it has no
 * value for the call.  Apart, so that a set of one event takes them with
 * @i constant, out of any loop.
 * Context: as their callers, interrupts off.
 */
static __always_inline u32 sw_vcall_read_ev(struct sw_vcall *vc,
					    const struct sw_evcpu *ec,
					    int cpu, u32 i, u32 bad)
{
	if (!sw_pmu_read_virt(&ec->ctr[i], cpu, &vc->v[i], &vc->g[i]))
		bad |= 1U << i;
	return bad;
}

static __always_inline u32 sw_vcall_close_ev(struct sw_vcall *vc,
					     const struct sw_evcpu *ec,
					     int cpu, u32 i, u32 bad)
{
	u64 v, g;

	if (bad & (1U << i))
		return bad;
	/* Differences modulo 2^64: virtual counts may wrap. */
	if (likely(sw_pmu_read_virt(&ec->ctr[i], cpu, &v, &g) &&
		   g == vc->g[i] && (s64)(v - vc->v[i]) >= 0))
		vc->v[i] = v - vc->v[i];
	else
		bad |= 1U << i;
	return bad;
}

/*
 * __sw_vcall_read_all() - sw_vcall_read()'s general way: every event of
 * the set, each read directly or through perf, the first out of the loop.
 * @vc:    the call's events
 * @ec:    this CPU's counters of the set
 * @n:     the set's events
 * @flags: from sw_irq_save(), restored here
 * Context: the core's entry half, interrupts off (sw_irq_save()).
 */
static __always_inline void __sw_vcall_read_all(struct sw_vcall *vc,
						const struct sw_evcpu *ec,
						u32 n, unsigned long flags)
{
	/* Read again, not passed: one argument fewer to set up at the call. */
	int cpu = sw_cpu();
	u32 i, bad;

	bad = sw_vcall_read_ev(vc, ec, cpu, 0, 0);
	for (i = 1; unlikely(i < n); i++)
		bad = sw_vcall_read_ev(vc, ec, cpu, i, bad);
	sw_irq_restore(flags);
	vc->bad = n > 1 ? bad | SW_VCALL_MULTI : bad;
}

/*
 * __sw_vcall_close_all() - sw_vcall_close()'s general way, likewise.
 * @vc:    the call's events
 * @set:   the event set it was entered with
 * @ec:    this CPU's counters of @set
 * @flags: from sw_irq_save(), restored here
 * Context: the core's exit half, interrupts off (sw_irq_save()).
 */
static __always_inline void __sw_vcall_close_all(struct sw_vcall *vc,
						 const struct sw_evset *set,
						 const struct sw_evcpu *ec,
						 unsigned long flags)
{
	int cpu = sw_cpu();	/* read again, as in __sw_vcall_read_all() */
	u32 i, n = set->n, bad = vc->bad & ~SW_VCALL_MULTI;

	bad = sw_vcall_close_ev(vc, ec, cpu, 0, bad);
	for (i = 1; unlikely(i < n); i++)
		bad = sw_vcall_close_ev(vc, ec, cpu, i, bad);
	sw_irq_restore(flags);
	vc->bad = bad;
}

/*
 * Where the general ways go: out of line (pending.c) where the core's lean
 * halves are inlined into the mechanisms' handlers (SW_ARCH_LEAN_INLINE):
 * called in tail position, they make the handler save no registers.
 * Inline where the lean halves are functions of their own already: there
 * a call would only cost more.
 */
#ifdef SW_ARCH_LEAN_INLINE
void sw_vcall_read_all(struct sw_vcall *vc, const struct sw_evcpu *ec,
		       u32 n, unsigned long flags);
void sw_vcall_close_all(struct sw_vcall *vc, const struct sw_evset *set,
			const struct sw_evcpu *ec, unsigned long flags);
#else
#define sw_vcall_read_all __sw_vcall_read_all
#define sw_vcall_close_all __sw_vcall_close_all
#endif

/*
 * sw_vcall_read() - a lean call's entry reading: the set's id, and its
 * thread's virtual counts and gaps, into @vc (set_id, v, g, bad).  One
 * event read directly is the whole of it here; any other case takes the
 * general way (sw_vcall_read_all(), out of line where the lean halves are
 * inline, in tail position: no value of this one is live across the call,
 * so the handler saves no registers for it).
 * Context: the core's entry half.
 */
static __always_inline void sw_vcall_read(struct sw_vcall *vc,
					  const struct sw_evset *set,
					  unsigned int cpu)
{
	/* Unsigned: the index needs no sign extension. */
	struct sw_evcpu *ec = rcu_dereference_sched(set->cpu[cpu]);
	u32 n = set->n;
	unsigned long flags;

	/* Beside n: one pair load. */
	vc->set_id = set->id;
	if (unlikely(!ec)) {
		vc->bad = SW_EVCALL_ALL_BAD;
		return;
	}
	flags = sw_irq_save();
	if (likely(n == 1) &&
	    likely(sw_pmu_read_virt_direct(&ec->ctr[0], cpu, &vc->v[0],
					   &vc->g[0]))) {
		sw_irq_restore(flags);
		vc->bad = 0;
		return;
	}
	sw_vcall_read_all(vc, ec, n, flags);
}

/*
 * sw_vcall_close() - a lean call's counts: its thread's virtual counts
 * now minus at entry, into @vc->v.  An event whose virtual gap moved (its
 * counter did not count for part of the call, on whichever CPU: virt.c)
 * or that cannot be read now is bad for the call.  One event read
 * directly, and good, is the whole of it here; any other case takes the
 * general way (sw_vcall_close_all(), likewise).
 * Context: the core's exit half.
 */
static __always_inline void sw_vcall_close(struct sw_vcall *vc,
					   const struct sw_evset *set)
{
	unsigned int cpu = sw_cpu();
	struct sw_evcpu *ec = rcu_dereference_sched(set->cpu[cpu]);
	unsigned long flags;
	u64 v, g, v0;

	if (unlikely(!ec)) {
		vc->bad = SW_EVCALL_ALL_BAD;
		return;
	}
	flags = sw_irq_save();
	/*
	 * bad 0: one event, good at entry (SW_VCALL_MULTI).  Differences
	 * modulo 2^64: virtual counts may wrap.
	 */
	v0 = vc->v[0];
	if (likely(!vc->bad) &&
	    likely(sw_pmu_read_virt_direct(&ec->ctr[0], cpu, &v, &g)) &&
	    likely(g == vc->g[0] && (s64)(v - v0) >= 0)) {
		v -= v0;
		sw_irq_restore(flags);
		vc->v[0] = v;
		return;
	}
	sw_vcall_close_all(vc, set, ec, flags);
}

#endif /* _STOPWATCH_PENDING_H */
