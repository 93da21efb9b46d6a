// SPDX-License-Identifier: GPL-2.0
/*
 * measure.c - the event halves of the measurement core (core.h has the
 * rest inline, in each attach mechanism's handlers).
 */
#include <linux/kprobes.h>

#include "core.h"

/**
 * sw_core_enter_events() - push a call entering with events counted and
 * open its first counting segment.
 * @c:   the call (cpu and t0 set)
 * @set: the current event set
 *
 * Without room on the thread's pending stack the call is measured for time
 * only (its events count as unmeasured; the pending file says why).
 *
 * Context: as sw_core_enter().
 */
void sw_core_enter_events(struct sw_call *c, const struct sw_evset *set)
{
	struct sw_ctr_sample s[SW_MAX_EVENTS] __sw_noinit;
	struct sw_pending *pd = sw_pending_push();

	if (!pd)
		return;
	pd->set_id = set->id;
	/* Last thing before the function runs: counts exclude us. */
	sw_pmu_read(set, s);
	sw_evcall_init(&pd->ev, set->n, s);
	c->pend = pd;
}
NOKPROBE_SYMBOL(sw_core_enter_events);

/**
 * sw_core_exit_events() - close a returning call's last segment.
 * @pd: the call's pending entry
 *
 * Context: as sw_core_exit().
 * Return: whether the call was counted with the current event set.
 */
bool sw_core_exit_events(struct sw_pending *pd)
{
	struct sw_ctr_sample s[SW_MAX_EVENTS] __sw_noinit;
	struct sw_evset *set = rcu_dereference_sched(sw_evset);

	if (!set || set->id != pd->set_id)
		return false;
	/* First thing after the function: close the segment. */
	sw_pmu_read(set, s);
	sw_evcall_end(&pd->ev, set->n, s);
	return true;
}
NOKPROBE_SYMBOL(sw_core_exit_events);
