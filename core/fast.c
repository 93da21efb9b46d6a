// SPDX-License-Identifier: GPL-2.0
/*
 * fast.c - the parts of the measurement core's halves (core.h,
 * SW_CORE_HALVES()) that are out of line in one copy: the general ways of
 * the lean readings where the lean halves are inline (called in tail
 * position, pending.h), and the folds of calls whose events count as
 * unmeasured (rare).
 *
 * Every function runs in an attach mechanism's handler: preemption
 * disabled, possibly interrupts off or NMI; the same under PREEMPT_RT.  No
 * locks, no allocation, no printk.
 */
#include <linux/kprobes.h>

#include "core.h"

#ifdef SW_ARCH_LEAN_INLINE
/*
 * The general ways of the lean readings, out of line where the lean
 * halves are inline (pending.h): called in tail position.
 */
void sw_vcall_read_all(struct sw_vcall *vc, const struct sw_evcpu *ec,
		       u32 n, unsigned long flags)
{
	__sw_vcall_read_all(vc, ec, n, flags);
}
NOKPROBE_SYMBOL(sw_vcall_read_all);

void sw_vcall_close_all(struct sw_vcall *vc, const struct sw_evset *set,
			const struct sw_evcpu *ec, unsigned long flags)
{
	__sw_vcall_close_all(vc, set, ec, flags);
}
NOKPROBE_SYMBOL(sw_vcall_close_all);
#endif

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
