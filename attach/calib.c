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
 *
 * Also the cost that falls inside a measured call's window, between its
 * entry and exit clock reads (the rest of the entry handler, kprobes'
 * return to the function, the return trampoline, the exit handler up to
 * its clock read): the same two functions are timed by a stopwatch
 * kretprobe of their own, with the handlers and halves a probe without a
 * spec uses (time only unless events or call paths are on at load), and
 * the least mean window of a few rounds, less the bare time per call of
 * the function, is the probe's in-window cost (sw_cost_set_window(), the
 * stats file's window_ns; stopwatch time --correct subtracts it).
 * Trampolines and uprobes: not calibrated (0).
 *
 * Measuring registers and removes kretprobes (a breakpoint's text change,
 * ftrace's), which can take a large part of a second on a slow or
 * real-time machine: the calibration parameter reads the values after a
 * load and takes them back at the next, so that a boot measures once.
 */
#include <linux/bits.h>
#include <linux/kprobes.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "agg/agg.h"
#include "core/cost.h"
#include "attach.h"

#define SW_CALIB_CALLS	500
#define SW_CALIB_ROUNDS	5

static bool calibrate = true;
module_param(calibrate, bool, 0400);
MODULE_PARM_DESC(calibrate,
		 "Measure the kretprobe mechanism's fixed cost per call and its cost inside the measured window at load, for the overhead and stats files' cost estimates and stopwatch time --correct (default on)");

/*
 * The calibration parameter: the mechanisms the calibration measures, by
 * the overhead file's names, each with its fixed cost and in-window cost
 * in ns.  Given at load, these are used and nothing is measured (a
 * calibration from an earlier load of the same boot, handed back); read,
 * the values in use (0/0: not measured).
 */
static const enum sw_cost_mech sw_calib_mechs[] = {
	SW_COST_KRETPROBE,
	SW_COST_KRETPROBE_FTRACE,
};
#define SW_CALIB_MECHS	ARRAY_SIZE(sw_calib_mechs)
/* A value above this (ns) is no calibration of a call's cost. */
#define SW_CALIB_MAX_NS	10000000ULL

static u64 sw_calib_given[SW_CALIB_MECHS][2];
static bool sw_calib_have;

/* "NAME=FIXED/WINDOW" into sw_calib_given; which one it set in @seen. */
static int sw_calib_parse_one(char *item, unsigned int *seen)
{
	char *fixed, *win;
	u64 f, w;
	unsigned int i;

	fixed = strchr(item, '=');
	if (!fixed)
		return -EINVAL;
	*fixed++ = 0;
	win = strchr(fixed, '/');
	if (!win)
		return -EINVAL;
	*win++ = 0;
	for (i = 0; i < SW_CALIB_MECHS; i++)
		if (!strcmp(item, sw_cost_mech_name(sw_calib_mechs[i])))
			break;
	if (i == SW_CALIB_MECHS || (*seen & BIT(i)) ||
	    kstrtou64(fixed, 10, &f) || kstrtou64(win, 10, &w) ||
	    f > SW_CALIB_MAX_NS || w > SW_CALIB_MAX_NS)
		return -EINVAL;
	*seen |= BIT(i);
	sw_calib_given[i][0] = f;
	sw_calib_given[i][1] = w;
	return 0;
}

/*
 * Set: "NAME=FIXED/WINDOW[,NAME=FIXED/WINDOW]", each name at most once;
 * anything else fails the load with EINVAL, naming the value.  Empty:
 * none given.
 * Context: process context (module load, before init).
 */
static int sw_calib_param_set(const char *val, const struct kernel_param *kp)
{
	char buf[128], *p, *item;
	unsigned int seen = 0;
	int ret = 0;

	memset(sw_calib_given, 0, sizeof(sw_calib_given));
	sw_calib_have = false;
	if (strscpy(buf, val, sizeof(buf)) < 0) {
		pr_err("stopwatch: calibration: value too long (at most %zu characters)\n",
		       sizeof(buf) - 1);
		return -EINVAL;
	}
	p = strim(buf);
	if (!*p)
		return 0;
	while ((item = strsep(&p, ",")) && !ret)
		ret = sw_calib_parse_one(item, &seen);
	if (ret) {
		memset(sw_calib_given, 0, sizeof(sw_calib_given));
		pr_err("stopwatch: calibration: '%s' is not NAME=FIXED/WINDOW[,...] with NAME kretprobe or kretprobe_ftrace, each once, and ns values at most %llu\n",
		       val, SW_CALIB_MAX_NS);
		return ret;
	}
	sw_calib_have = true;
	return 0;
}

/* Get: the values in use.  Context: process context. */
static int sw_calib_param_get(char *buf, const struct kernel_param *kp)
{
	int n = 0;
	unsigned int i;

	for (i = 0; i < SW_CALIB_MECHS; i++)
		n += scnprintf(buf + n, PAGE_SIZE - n, "%s%s=%llu/%llu",
			       i ? "," : "", sw_cost_mech_name(sw_calib_mechs[i]),
			       sw_cost_fixed(sw_calib_mechs[i]),
			       sw_cost_window(sw_calib_mechs[i]));
	n += scnprintf(buf + n, PAGE_SIZE - n, "\n");
	return n;
}

static const struct kernel_param_ops sw_calib_param_ops = {
	.set = sw_calib_param_set,
	.get = sw_calib_param_get,
};
module_param_cb(calibration, &sw_calib_param_ops, NULL, 0400);
MODULE_PARM_DESC(calibration,
		 "The calibration to use instead of measuring one: kretprobe=FIXED/WINDOW,kretprobe_ftrace=FIXED/WINDOW in ns, as this parameter reads after a calibrated load (a boot's first calibration handed to its later loads)");

static u64 sw_calib_sink;

/* The in-window calibration's probe: a stopwatch kretprobe and its statistics. */
struct sw_calib_probe {
	struct sw_kretprobe krp;
	struct sw_aggs aggs;
};

/* The timed functions: a call and little else; probed by the calibration. */
static noinline u64 sw_cost_calib_traced(u64 x)
{
	asm volatile("" : "+r" (x));
	return x + 1;
}

static noinline notrace u64 sw_cost_calib_bp(u64 x)
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
static u64 sw_calib_rounds(u64 (*fn)(u64))
{
	u64 best = U64_MAX, t0, d, sum = 0;
	int r, i;

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
static void sw_calib_one(const char *name, u64 (*fn)(u64))
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

/* Calls per round of the in-window calibration; its means' fraction bits. */
#define SW_CALIB_WIN_CALLS	256
#define SW_CALIB_FRAC		10

/*
 * sw_calib_window_rounds() - the least mean window of a few rounds of
 * SW_CALIB_WIN_CALLS calls of @fn, timed by @c's registered, enabled
 * kretprobe and read from its statistics into @tm, less the least bare
 * time per call of the same loop (the probe then disabled).  In ns with
 * SW_CALIB_FRAC fraction bits; 0 when no round measured a call or the
 * window is not longer.  The rounds run with interrupts off, so that
 * none falls into a window.  Inline, so that @fn is called directly, as
 * a function in a loop is: the bare time per call is a loop's and a
 * direct call's.
 */
static __always_inline u64
sw_calib_window_rounds(u64 (*fn)(u64), struct sw_calib_probe *c,
		       struct sw_timing *tm)
{
	struct sw_gen *g = rcu_dereference_protected(c->aggs.gen, 1);
	u64 best = U64_MAX, bare = U64_MAX, count, sum, t0, s = 0, i;
	unsigned long flags;
	int r;

	sw_gen_read(g, tm);
	for (r = 0; r < SW_CALIB_ROUNDS; r++) {
		count = tm->st.count;
		sum = tm->st.sum;
		local_irq_save(flags);
		for (i = 0; i < SW_CALIB_WIN_CALLS; i++)
			s += fn(i);
		local_irq_restore(flags);
		sw_gen_read(g, tm);
		count = tm->st.count - count;
		if (count)
			best = min(best, div64_u64((tm->st.sum - sum) <<
						   SW_CALIB_FRAC, count));
		cond_resched();
	}
	/* The same loop without the probe (its calls, the loop's own). */
	disable_kretprobe(&c->krp.krp);
	for (r = 0; r < SW_CALIB_ROUNDS; r++) {
		local_irq_save(flags);
		t0 = ktime_get_ns();
		for (i = 0; i < SW_CALIB_WIN_CALLS; i++)
			s += fn(i);
		bare = min(bare, ktime_get_ns() - t0);
		local_irq_restore(flags);
		cond_resched();
	}
	WRITE_ONCE(sw_calib_sink, s);
	bare = (bare << SW_CALIB_FRAC) / SW_CALIB_WIN_CALLS;
	return best != U64_MAX && best > bare ? best - bare : 0;
}

/*
 * sw_calib_window() - @fn's calls timed by a stopwatch kretprobe: the
 * least mean window less the bare time per call, rounded to the ns, as
 * the in-window cost of the way the probe hit; nothing when it cannot be
 * probed or the memory is not there.
 */
static __always_inline void sw_calib_window(const char *name,
					    u64 (*fn)(u64))
{
	struct sw_by by = { .k = { SW_KEY_NONE, SW_KEY_NONE } };
	struct sw_calib_probe *c;
	struct sw_timing *tm;
	u64 win;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	tm = sw_timing_alloc();
	if (!c || !tm || sw_aggs_alloc(&c->aggs, by, NULL))
		goto out_free;
	sw_kretprobe_init(&c->krp, name, &c->aggs, NULL);
	c->krp.krp.maxactive = 4;
	if (register_kretprobe(&c->krp.krp))
		goto out_aggs;
	if (!enable_kretprobe(&c->krp.krp)) {
		win = sw_calib_window_rounds(fn, c, tm);
		win = (win + (1 << (SW_CALIB_FRAC - 1))) >> SW_CALIB_FRAC;
		if (win)
			sw_cost_set_window(c->krp.krp.kp.flags & KPROBE_FLAG_FTRACE ?
					   SW_COST_KRETPROBE_FTRACE :
					   SW_COST_KRETPROBE, win);
	}
	unregister_kretprobe(&c->krp.krp);
out_aggs:
	sw_aggs_free(&c->aggs);
out_free:
	sw_timing_free(tm);
	kfree(c);
}

/**
 * sw_cost_calibrate() - measure the kretprobe mechanism's fixed cost per
 * call and its in-window cost, both ways it can hit, and hand them to
 * core/cost.h.
 *
 * The calibration parameter's values instead, when it was given: nothing
 * measured.  Leaves them 0 (not measured) when the calibrate parameter is
 * off or a function cannot be probed; never fails the load.  Where kprobes never
 * hit through ftrace, both functions measure the breakpoint.
 *
 * Context: process context (module init); sleeps (kretprobe registration
 * and removal).
 */
void sw_cost_calibrate(void)
{
	unsigned int i;

	if (sw_calib_have) {
		for (i = 0; i < SW_CALIB_MECHS; i++) {
			sw_cost_set_fixed(sw_calib_mechs[i],
					  sw_calib_given[i][0]);
			sw_cost_set_window(sw_calib_mechs[i],
					   sw_calib_given[i][1]);
		}
		return;
	}
	if (!calibrate)
		return;
	sw_calib_one("sw_cost_calib_bp", sw_cost_calib_bp);
	sw_calib_one("sw_cost_calib_traced", sw_cost_calib_traced);
	sw_calib_window("sw_cost_calib_bp", sw_cost_calib_bp);
	sw_calib_window("sw_cost_calib_traced", sw_cost_calib_traced);
	/* The calibration's own handler runs are not stopwatch's cost. */
	sw_cost_reset();
}
