// SPDX-License-Identifier: GPL-2.0
/*
 * virt.c - per-thread virtualization of the event counts.
 *
 * The counters are CPU-wide: they count whatever runs on the CPU.  A call's
 * count must cover only its own thread, across sleeps, preemption and
 * migration, so each call sums its thread's on-CPU segments (see
 * lib/evcall.h).  Segments are cut at the sched_switch tracepoint: the
 * counters of the CPU are read once, every open call of the thread being
 * switched out closes its segment at that value and every open call of the
 * thread being switched in opens one.  The scheduler's own instructions
 * before the tracepoint go to the thread leaving, those after it to the
 * thread arriving.
 *
 * The open calls of a thread are its entries on stopwatch's pending stack
 * (pending.c), whichever mechanism attached to the functions.  Without an
 * event set the hook returns after one load and one store.
 *
 * Lean calls (struct sw_vcall: a probe with no spec, call paths off) have
 * no entry: they read their thread's virtual count, its count over its
 * own time on CPUs, at entry and at exit.  On a CPU the virtual count is
 * the counter plus an offset (struct sw_evctr.voff): when a thread with
 * lean calls in flight is switched out, its virtual count is saved in its
 * slot (struct sw_thread.vc), and when it is switched in, the offset of
 * that CPU is set so that its virtual count goes on from there.  A thread
 * with none in flight needs no offset of its own: its calls only take
 * differences, and its next switch-out saves what they read.
 *
 * The gap (time the counter was enabled but not counting) is virtualized
 * the same way (vg, vgoff), and it never goes down: a lean call's event is
 * counted only if its thread's virtual gap is the same at exit as at
 * entry.  A switch at which the counter cannot be read adds 1 to the
 * thread's virtual gap on top of the counter's own, so that every lean
 * call in flight across it is bad for that event, as a segment's is.
 */
#include <linux/sched.h>

#include "control/control.h"
#include "wrapper/tracepoint.h"
#include "core.h"

static struct tracepoint *sw_tp_sched_switch;
static bool sw_tp_registered;

/*
 * Closes (@out) or opens the segments of the calls on @th that were
 * entered with @set.
 * Context: sched_switch tracepoint, interrupts off.
 */
static __always_inline void sw_virt_thread(struct sw_thread *th,
					   const struct sw_evset *set,
					   const struct sw_ctr_sample *s,
					   u32 unread, bool out)
{
	u32 i, depth = min_t(u32, READ_ONCE(th->depth), SW_PENDING_DEPTH);

	for (i = 0; i < depth; i++) {
		struct sw_pending *pd = &th->calls[i];

		if (pd->set_id != set->id)
			continue;
		if (out)
			sw_evcall_end(&pd->ev, set->n, s, unread);
		else
			sw_evcall_begin(&pd->ev, set->n, s, unread);
	}
}

/* The counter's gap as perf last updated it: it only grows. */
static u64 sw_virt_gap_now(const struct sw_evctr *ctr)
{
	struct perf_event *e = READ_ONCE(ctr->e);

	return e ? e->total_time_enabled - e->total_time_running : 0;
}

/*
 * Saves the virtual counts of @th, switched out with lean calls in flight:
 * the reading @s through this CPU's offsets (@ec, NULL when this CPU has
 * no counters of @set).  An event with no value moves the virtual gap past
 * every value a lean call of @th can have read for it.
 * Context: sched_switch tracepoint, interrupts off.
 */
static void sw_virt_save(struct sw_thread *th, const struct sw_evset *set,
			 const struct sw_evcpu *ec,
			 const struct sw_ctr_sample *s, u32 unread)
{
	u32 i;

	for (i = 0; i < set->n; i++) {
		const struct sw_evctr *ctr = ec ? &ec->ctr[i] : NULL;

		if (!ctr)
			th->vg[i] += 1;
		else if (!(unread & (1U << i))) {
			th->vc[i] = s[i].count + ctr->voff;
			th->vg[i] = s[i].gap + ctr->vgoff;
		} else {
			th->vg[i] = sw_virt_gap_now(ctr) + ctr->vgoff + 1;
		}
	}
	th->vset = set->id;
}

/*
 * Sets this CPU's offsets (@ec) so that the virtual counts of @th, switched
 * in with lean calls in flight, go on from those saved.  An event with no
 * value starts its virtual gap past the saved one.
 * Context: sched_switch tracepoint, interrupts off.
 */
static void sw_virt_restore(const struct sw_thread *th,
			    const struct sw_evset *set, struct sw_evcpu *ec,
			    const struct sw_ctr_sample *s, u32 unread)
{
	u32 i;

	for (i = 0; i < set->n; i++) {
		struct sw_evctr *ctr = &ec->ctr[i];

		if (!(unread & (1U << i))) {
			ctr->voff = th->vc[i] - s[i].count;
			ctr->vgoff = th->vg[i] - s[i].gap;
		} else {
			ctr->voff = th->vc[i];
			ctr->vgoff = th->vg[i] + 1 - sw_virt_gap_now(ctr);
		}
	}
}

/*
 * Reads the counters once and closes @pth's segments and opens @nth's.
 * Out of line: its array of samples would otherwise give the hook a stack
 * canary in every context switch, calls in flight or not.
 * Context: sched_switch tracepoint, interrupts off.
 */
static noinline void sw_virt_switch(const struct sw_evset *set,
				    struct sw_thread *pth,
				    struct sw_thread *nth)
{
	struct sw_ctr_sample s[SW_MAX_EVENTS] __sw_noinit;
	u32 unread = sw_pmu_read(set, s);
	struct sw_evcpu *ec = rcu_dereference_sched(set->cpu[sw_cpu()]);

	if (pth) {
		sw_virt_thread(pth, set, s, unread, true);
		if (READ_ONCE(pth->lean))
			sw_virt_save(pth, set, ec, s, unread);
	}
	if (nth) {
		sw_virt_thread(nth, set, s, unread, false);
		if (READ_ONCE(nth->lean) && ec && nth->vset == set->id)
			sw_virt_restore(nth, set, ec, s, unread);
	}
}
NOKPROBE_SYMBOL(sw_virt_switch);

/*
 * sw_sched_switch() - sched_switch tracepoint probe.
 * Context: __schedule() with the runqueue locked and interrupts off; prev
 * is current.  No locks, no allocation.  Under PREEMPT_RT the same: the
 * runqueue lock is a raw spinlock there too.  The counters are read only
 * when prev or next has a call in flight.
 */
static __always_inline bool sw_virt_busy(const struct sw_thread *th)
{
	return th && (READ_ONCE(th->depth) || READ_ONCE(th->lean));
}

static void notrace sw_sched_switch(SW_SCHED_SWITCH_ARGS(prev, next))
{
	struct sw_evset *set = rcu_dereference_sched(sw_evset);
	struct sw_thread *pth, *nth;

	if (!set) {
		/* Stacked calls use slots without events: give prev's back. */
		pth = sw_pending_switch_out(prev);
		if (pth)
			sw_pending_idle(pth);
		sw_pending_forget_cpu();
		return;
	}
	pth = sw_pending_switch_out(prev);
	nth = sw_pending_switch_in(next);
	if (sw_virt_busy(pth) || sw_virt_busy(nth))
		sw_virt_switch(set, pth, nth);
	if (pth)
		sw_pending_idle(pth);
}
NOKPROBE_SYMBOL(sw_sched_switch);

/**
 * sw_virt_init() - attach to the sched_switch tracepoint.
 *
 * Context: process context (module init).
 * Return: 0 or a negative errno.
 */
int sw_virt_init(void)
{
	int ret;

	sw_tp_sched_switch = sw_tracepoint_find("sched_switch");
	if (!sw_tp_sched_switch) {
		pr_err(SW_NAME ": no sched_switch tracepoint in this kernel\n");
		return -ENOENT;
	}
	ret = tracepoint_probe_register(sw_tp_sched_switch,
					(void *)sw_sched_switch, NULL);
	if (ret) {
		pr_err(SW_NAME ": cannot attach to sched_switch (%d)\n", ret);
		return ret;
	}
	sw_tp_registered = true;
	return 0;
}

/**
 * sw_virt_exit() - detach from sched_switch and wait until no CPU runs
 * the probe any more.
 *
 * Context: process context (module exit or failed init).
 */
void sw_virt_exit(void)
{
	if (!sw_tp_registered)
		return;
	tracepoint_probe_unregister(sw_tp_sched_switch,
				    (void *)sw_sched_switch, NULL);
	tracepoint_synchronize_unregister();
	sw_tp_registered = false;
}
