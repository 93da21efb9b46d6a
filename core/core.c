// SPDX-License-Identifier: GPL-2.0
/*
 * core.c - the parts of the measurement core's halves (core.h,
 * SW_CORE_HALVES()) that are out of line in one copy: the folds of calls
 * whose events count as unmeasured (rare).
 *
 * Every function runs in an attach mechanism's handler: preemption
 * disabled, possibly interrupts off or NMI; the same under PREEMPT_RT.  No
 * locks, no allocation, no printk.
 */
#include <linux/kprobes.h>

#include "core.h"

/**
 * sw_core_exit_lean_unmeasured() - the fold of a lean call entered under
 * another event set than the current one (or none now): its events count
 * as unmeasured.  Out of line: rare, and the inline fold then knows its
 * counts are there.
 * @a:      the probe's aggregations
 * @c:      the call's record
 * @regs:   the registers at the function's return
 * @set_id: the event set it was entered with
 *
 * Context: the core's exit half.
 */
void sw_core_exit_lean_unmeasured(struct sw_aggs *a, struct sw_call *c,
				  struct pt_regs *regs, u32 set_id)
{
	sw_core_fold(a, NULL, c, regs, (struct sw_ret){
		.ns = sw_clock_since(c->t0), .set_id = set_id });
}
NOKPROBE_SYMBOL(sw_core_exit_lean_unmeasured);

/**
 * sw_core_evs_unmeasured() - count a returning call entered without events
 * as unmeasured in the probe's event statistics: out of line, so that the
 * exit half of time-only calls sets up no registers for it.
 * @evs: the probe's event statistics
 *
 * Context: the core's exit half.
 */
void sw_core_evs_unmeasured(struct sw_evgen *evs)
{
	sw_evgen_unmeasured(evs);
}
NOKPROBE_SYMBOL(sw_core_evs_unmeasured);
