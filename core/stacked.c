// SPDX-License-Identifier: GPL-2.0
/*
 * stacked.c - the measurement core for attach mechanisms that have no
 * per-call storage of their own (a uprobe has no kretprobe instance to
 * hang a struct sw_call on): the call's whole record lives in its entry on
 * the calling thread's pending stack (pending.c), tagged with the probe's
 * owner, and the exit half finds it there.
 *
 * The entry pushes whether or not events are counted; the exit folds the
 * topmost entry of its owner (entries above it are calls whose exit never
 * came: orphaned) exactly as sw_core_exit() folds a kept record.  Both
 * halves run with preemption disabled (the mechanism disables it: uprobe
 * handlers run in task context), no locks, no allocation, no printk.
 */
#include <linux/kprobes.h>

#include "core.h"

/**
 * sw_core_enter_stacked() - the entry half of a call kept on the pending
 * stack.
 * @owner: the mechanism's tag for the probe (its exit half passes the same)
 * @a:     the probe's aggregations (a filtered-out call is counted there)
 * @s:     the probe's filters and keys, NULL when it has none
 * @regs:  the registers at the function's entry
 *
 * Context: the mechanism's entry handler on the calling thread, with
 * preemption disabled (possibly interrupts off or NMI); no locks, no
 * allocation.
 * Return: false when a filter left the call out (counted in @a) or the
 * thread's stack had no room (counted in the pending file): the mechanism
 * must not expect an entry at the exit (sw_core_exit_stacked() would count
 * it as unmatched).
 */
bool sw_core_enter_stacked(const void *owner, struct sw_aggs *a,
			   const struct sw_spec *s, struct pt_regs *regs)
{
	struct sw_evset *set;
	struct sw_pending *pd;
	u64 key[2] = {};

	if (s) {
		struct sw_call c;

		if (!sw_core_enter_spec(&c, a, s, regs))
			return false;
		key[0] = c.key[0];
		key[1] = c.key[1];
	}
	pd = sw_pending_push();
	if (!pd)
		return false;
	pd->owner = owner;
	pd->set_id = 0;
	pd->call.key[0] = key[0];
	pd->call.key[1] = key[1];
	pd->call.pend = pd;
	if (sw_paths_on())
		sw_paths_enter(pd, a);
	set = rcu_dereference_sched(sw_evset);
	pd->call.cpu = smp_processor_id();
	pd->call.t0 = sw_clock_ns();
	if (set)
		sw_pending_open(pd, set);
	return true;
}
NOKPROBE_SYMBOL(sw_core_enter_stacked);

/**
 * sw_core_exit_stacked() - the exit half of a call kept on the pending
 * stack: fold the topmost entry of @owner on the current thread into @a
 * and pop it with every entry above it (counted as orphaned).
 * @owner: the tag given to sw_core_enter_stacked()
 * @a:     the probe's aggregations
 * @s:     the probe's filters and keys, NULL when it has none
 * @regs:  the registers at the function's return
 *
 * Context: the mechanism's return handler on the calling thread, with
 * preemption disabled; no locks, no allocation.
 * Return: false when the thread had no entry of @owner (counted as
 * unmatched in the pending file).
 */
bool sw_core_exit_stacked(const void *owner, struct sw_aggs *a,
			  const struct sw_spec *s, struct pt_regs *regs)
{
	struct sw_thread *th = sw_pending_current();
	struct sw_pending *pd = NULL;
	bool measured;
	u32 i;

	if (th) {
		for (i = min_t(u32, READ_ONCE(th->depth), SW_PENDING_DEPTH);
		     i-- > 0;) {
			if (th->calls[i].owner == owner) {
				pd = &th->calls[i];
				break;
			}
		}
	}
	if (!pd) {
		sw_pending_unmatched();
		return false;
	}
	/* First thing after the function: close the segment. */
	measured = pd->set_id && sw_core_exit_events(pd);
	sw_core_fold(a, s, &pd->call, regs, pd, measured);
	sw_pending_pop(pd);
	return true;
}
NOKPROBE_SYMBOL(sw_core_exit_stacked);
