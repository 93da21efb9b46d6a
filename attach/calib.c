// SPDX-License-Identifier: GPL-2.0
/*
 * calib.c - the kretprobe mechanism's fixed cost per call, measured at
 * load: what a call pays that no handler of stopwatch's can time itself
 * (the kprobe's breakpoint or ftrace call, kprobes' dispatch, the
 * kretprobe's instance and return trampoline, the calls into the
 * handlers).  A function of this module's own is timed in a loop without
 * a probe and with a kretprobe whose handlers do nothing; the difference
 * per call, the least of a few rounds, is the fixed cost core/cost.h adds
 * to each observed call.  Two functions: one ftrace can trace, where
 * kprobes may hit through ftrace's call, and one it cannot (notrace),
 * where they hit a breakpoint; each probe's cost takes the way its
 * kprobe hits (KPROBE_FLAG_FTRACE).  Trampolines and uprobes are not calibrated:
 * their fixed parts are left out of the estimates, and the overhead file
 * and the stats file say so (0).
 */
#include <linux/kprobes.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/preempt.h>

#include "core/cost.h"
#include "attach.h"

#define SW_CALIB_CALLS	500
#define SW_CALIB_ROUNDS	5

static bool calibrate = true;
module_param(calibrate, bool, 0400);
MODULE_PARM_DESC(calibrate,
		 "Measure the kretprobe mechanism's fixed cost per call at load, for the overhead and stats files' cost estimates (default on)");

static int sw_calib_sink;

/* The timed functions: a call and little else; probed by the calibration. */
static noinline int sw_cost_calib_traced(int x)
{
	asm volatile("" : "+r" (x));
	return x + 1;
}

static noinline notrace int sw_cost_calib_bp(int x)
{
	asm volatile("" : "+r" (x));
	return x + 2;
}

/*
 * The kretprobe's handlers: nothing.
 * Context: kprobe handlers (see kretprobe.c).
 */
static int sw_calib_handler(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	return 0;
}
NOKPROBE_SYMBOL(sw_calib_handler);

/* The least time of a round of SW_CALIB_CALLS calls of @fn, in ns. */
static u64 sw_calib_rounds(int (*fn)(int))
{
	u64 best = U64_MAX, t0, d;
	int r, i, sum = 0;

	for (r = 0; r < SW_CALIB_ROUNDS; r++) {
		preempt_disable();
		t0 = ktime_get_ns();
		for (i = 0; i < SW_CALIB_CALLS; i++)
			sum += fn(i);
		d = ktime_get_ns() - t0;
		preempt_enable();
		best = min(best, d);
		cond_resched();
	}
	WRITE_ONCE(sw_calib_sink, sum);
	return best;
}

/*
 * sw_calib_one() - @fn's calls, probed less bare, per call, as the fixed
 * cost of the way the probe hit (a breakpoint or ftrace); nothing when it
 * cannot be probed.
 */
static void sw_calib_one(const char *name, int (*fn)(int))
{
	struct kretprobe rp = {
		.kp.symbol_name = name,
		.entry_handler = sw_calib_handler,
		.handler = sw_calib_handler,
		.maxactive = 4,
	};
	u64 bare, probed;

	bare = sw_calib_rounds(fn);
	if (register_kretprobe(&rp))
		return;
	probed = sw_calib_rounds(fn);
	unregister_kretprobe(&rp);
	if (probed > bare)
		sw_cost_set_fixed(rp.kp.flags & KPROBE_FLAG_FTRACE ?
				  SW_COST_KRETPROBE_FTRACE : SW_COST_KRETPROBE,
				  div_u64(probed - bare, SW_CALIB_CALLS));
}

/**
 * sw_cost_calibrate() - measure the kretprobe mechanism's fixed cost per
 * call, both ways it can hit, and hand them to core/cost.h.
 *
 * Leaves them 0 (not measured) when the calibrate parameter is off or a
 * function cannot be probed; never fails the load.  Where kprobes never
 * hit through ftrace, both functions measure the breakpoint.
 *
 * Context: process context (module init); sleeps (kretprobe registration
 * and removal).
 */
void sw_cost_calibrate(void)
{
	if (!calibrate)
		return;
	sw_calib_one("sw_cost_calib_bp", sw_cost_calib_bp);
	sw_calib_one("sw_cost_calib_traced", sw_cost_calib_traced);
}
