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

	if (pth)
		sw_virt_thread(pth, set, s, unread, true);
	if (nth)
		sw_virt_thread(nth, set, s, unread, false);
}
NOKPROBE_SYMBOL(sw_virt_switch);

/*
 * sw_sched_switch() - sched_switch tracepoint probe.
 * Context: __schedule() with the runqueue locked and interrupts off; prev
 * is current.  No locks, no allocation.  Under PREEMPT_RT the same: the
 * runqueue lock is a raw spinlock there too.  The counters are read only
 * when prev or next has a call in flight.
 */
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
	if ((pth && READ_ONCE(pth->depth)) || (nth && READ_ONCE(nth->depth)))
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
