// SPDX-License-Identifier: GPL-2.0
/*
 * cost.c - stopwatch's own cost, observed (cost.h): the timed handler
 * runs' bookkeeping, the mechanisms' fixed costs, and the overhead file.
 *
 * The overhead file shows, per online CPU and for all of them, the share
 * of the CPU that stopwatch's handlers took since the previous read of
 * the file (or since the module loaded): the estimate of cost.h over the
 * wall-clock interval between the two reads.  The totals since load or
 * the last reset are there too, so that a reader can take differences of
 * their own without disturbing another reader's intervals.
 */
#include <linux/cpumask.h>
#include <linux/kprobes.h>
#include <linux/math64.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "control/control.h"
#include "wrapper/timekeeping.h"
#include "cost.h"

DEFINE_PER_CPU(struct sw_cost_cpu, sw_cost_cpu);

/* Per mechanism, the fixed nanoseconds per call, written at load only. */
static u64 sw_cost_fixed_ns[SW_COST_MECHS];

/*
 * Per mechanism, the nanoseconds inside each measured window that are the
 * probe's (attach/calib.c), written at load only; 0: not measured.
 */
static u64 sw_cost_window_ns[SW_COST_MECHS];

/*
 * What timing itself adds to a timed run: the least time of an empty
 * window (a stamp, then the time since it), measured at load and taken
 * off every timed run.
 */
static u64 sw_cost_self_ns;

static const char *const sw_cost_mech_names[SW_COST_MECHS] = {
	[SW_COST_KRETPROBE] = "kretprobe",
	[SW_COST_KRETPROBE_FTRACE] = "kretprobe_ftrace",
	[SW_COST_TRAMP] = "trampoline",
	[SW_COST_UPROBE] = "uprobe",
	[SW_COST_SPAN] = "span_point",
};

/*
 * Per CPU, under sw_cost_lock: the estimate at the previous read of the
 * overhead file (@ns, @runs), and at the last reset (@base_*: the file
 * shows the totals since, sw_cost_reset()).
 */
struct sw_cost_prev {
	u64 ns;
	u64 runs;
	u64 base_ns;
	u64 base_runs;
	u64 base_samples;
};

static DEFINE_MUTEX(sw_cost_lock);
static struct sw_cost_prev __percpu *sw_cost_prev;
static u64 sw_cost_prev_at;
static struct sw_file *sw_cost_file;

/*
 * cost_sample=0 leaves every handler run untimed (one in 2^32 at most):
 * exact per-call instruction counts (QEMU -icount) then do not depend on
 * which runs were timed.
 */
static bool cost_sample = true;
module_param(cost_sample, bool, 0400);
MODULE_PARM_DESC(cost_sample,
		 "time a sample of the handlers' runs for the overhead file and cost_ns (default 1)");

/* The next gap: uniform in [PERIOD / 2, 3 * PERIOD / 2), mean PERIOD. */
static __always_inline u32 sw_cost_next_gap(struct sw_cost_cpu *c)
{
	u32 x = c->rnd;

	if (!cost_sample)
		return U32_MAX;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	c->rnd = x;
	return SW_COST_PERIOD / 2 + (x & (SW_COST_PERIOD - 1));
}

/**
 * sw_cost_begin() - the start of a timed handler run.
 *
 * Context: a handler that sw_cost_due() chose, preemption disabled.
 * Return: the stamp for sw_cost_end().
 */
notrace u64 sw_cost_begin(void)
{
	return sw_clock_stamp();
}
NOKPROBE_SYMBOL(sw_cost_begin);

/* Fold a timed handler run into @acc and @c's estimate, @gap calls' worth. */
static __always_inline void sw_cost_fold(struct sw_cost_cpu *c,
					 struct sw_cost_acc __percpu *acc,
					 enum sw_cost_mech mech,
					 enum sw_cost_half half, u64 t0,
					 u32 gap)
{
	u64 ns = sw_clock_since(t0), self = READ_ONCE(sw_cost_self_ns);

	ns = ns > self ? ns - self : 0;
	if (acc) {
		struct sw_cost_acc *a = this_cpu_ptr(acc);

		a->ns[half] += ns;
		a->n[half]++;
	}
	ns += READ_ONCE(sw_cost_fixed_ns[mech]) / 2;
	c->est_ns += ns * gap;
	c->est_runs += gap;
	c->samples++;
}

/**
 * sw_cost_end() - the end of a handler run the countdown chose (a call's
 * entry, a span point's hit): fold it into its probe's accumulators and
 * its CPU's estimate, and start the next gap.
 * @acc:  the probe's accumulators (NULL: its CPU's estimate only)
 * @mech: the mechanism whose handler ran
 * @half: the call's half it ran for
 * @t0:   sw_cost_begin()'s stamp
 *
 * Context: as sw_cost_begin(), on the same CPU.
 * Return: the calls the run stands for, its gap: its call's exit handler
 * is weighted the same (sw_cost_mark()).
 */
notrace u32 sw_cost_end(struct sw_cost_acc __percpu *acc,
			enum sw_cost_mech mech, enum sw_cost_half half, u64 t0)
{
	struct sw_cost_cpu *c = this_cpu_ptr(&sw_cost_cpu);
	u32 gap = c->gap, next;

	sw_cost_fold(c, acc, mech, half, t0, gap);
	next = sw_cost_next_gap(c);
	c->gap = next;
	c->left = next;
	return gap;
}
NOKPROBE_SYMBOL(sw_cost_end);

/**
 * sw_cost_end_exit() - the end of a marked call's exit handler run: fold
 * it with its call's gap (the countdown is the entries').
 * @run: the run: its stamp, gap, accumulators and mechanism
 *
 * Context: as sw_cost_begin(), on the same CPU (maybe not the entry's).
 */
notrace void sw_cost_end_exit(const struct sw_cost_run *run)
{
	sw_cost_fold(this_cpu_ptr(&sw_cost_cpu), run->acc, run->mech,
		     SW_COST_EXIT, run->t0, run->gap);
}
NOKPROBE_SYMBOL(sw_cost_end_exit);

/**
 * sw_cost_mech_name() - a mechanism's name, as the overhead file shows it.
 * @mech: the mechanism
 *
 * Context: any.
 */
const char *sw_cost_mech_name(enum sw_cost_mech mech)
{
	return sw_cost_mech_names[mech];
}

/**
 * sw_cost_fixed() - a mechanism's fixed nanoseconds per call, 0 when not
 * measured.
 * @mech: the mechanism
 *
 * Context: any.
 */
u64 sw_cost_fixed(enum sw_cost_mech mech)
{
	return READ_ONCE(sw_cost_fixed_ns[mech]);
}

/**
 * sw_cost_set_fixed() - set a mechanism's fixed nanoseconds per call.
 * @mech: the mechanism
 * @ns:   measured at load
 *
 * Context: process context (module init).
 */
void sw_cost_set_fixed(enum sw_cost_mech mech, u64 ns)
{
	WRITE_ONCE(sw_cost_fixed_ns[mech], ns);
}

/**
 * sw_cost_window() - a mechanism's cost inside each measured window (between
 * the entry and exit clock reads), in ns, 0 when not measured.
 * @mech: the mechanism
 *
 * Context: any.
 */
u64 sw_cost_window(enum sw_cost_mech mech)
{
	return READ_ONCE(sw_cost_window_ns[mech]);
}

/**
 * sw_cost_set_window() - set a mechanism's in-window cost.
 * @mech: the mechanism
 * @ns:   measured at load
 *
 * Context: process context (module init).
 */
void sw_cost_set_window(enum sw_cost_mech mech, u64 ns)
{
	WRITE_ONCE(sw_cost_window_ns[mech], ns);
}

/* @part of @whole in percent with three decimals, as text. */
static void sw_cost_pct(struct seq_file *m, u64 part, u64 whole)
{
	u64 v = whole ? div64_u64(part * 100000, whole) : 0;

	seq_printf(m, " %6llu.%03llu", div_u64(v, 1000), v % 1000);
}

/*
 * The overhead file.  First line: the interval since the previous read,
 * in ns; second: the mechanisms' fixed costs per call included in the
 * estimates (0: not measured, not included) and what timing takes off
 * each timed run (self); then a header, a row per online CPU and the row
 * "all".
 * Context: process context; takes sw_cost_lock.
 */
static int sw_cost_show(struct seq_file *m)
{
	u64 now, interval, all_ns = 0, all_runs = 0, tot_ns = 0, tot_runs = 0;
	unsigned int ncpus = 0;
	int cpu, i;

	mutex_lock(&sw_cost_lock);
	now = ktime_get_ns();
	interval = now - sw_cost_prev_at;
	sw_cost_prev_at = now;
	seq_printf(m, "%s %llu\n", SW_OVERHEAD_INTERVAL, interval);
	seq_puts(m, SW_OVERHEAD_FIXED);
	for (i = 0; i < SW_COST_MECHS; i++)
		seq_printf(m, " %s %llu", sw_cost_mech_names[i],
			   sw_cost_fixed(i));
	seq_printf(m, " %s %llu", SW_OVERHEAD_SELF, sw_cost_self_ns);
	seq_printf(m, "\n%-6s %10s %14s %12s %16s %14s %10s\n",
		   SW_COLS_OVERHEAD);
	for_each_online_cpu(cpu) {
		struct sw_cost_cpu *c = per_cpu_ptr(&sw_cost_cpu, cpu);
		struct sw_cost_prev *p = per_cpu_ptr(sw_cost_prev, cpu);
		u64 ns = READ_ONCE(c->est_ns), runs = READ_ONCE(c->est_runs);
		u64 dns = ns - p->ns, druns = runs - p->runs;

		p->ns = ns;
		p->runs = runs;
		ns -= p->base_ns;
		runs -= p->base_runs;
		seq_printf(m, "%-6d", cpu);
		sw_cost_pct(m, dns, interval);
		seq_printf(m, " %14llu %12llu %16llu %14llu %10llu\n", dns,
			   druns, ns, runs,
			   READ_ONCE(c->samples) - p->base_samples);
		all_ns += dns;
		all_runs += druns;
		tot_ns += ns;
		tot_runs += runs;
		ncpus++;
	}
	seq_printf(m, "%-6s", SW_OVERHEAD_ALL);
	sw_cost_pct(m, all_ns, interval * ncpus);
	seq_printf(m, " %14llu %12llu %16llu %14llu %10s\n", all_ns, all_runs,
		   tot_ns, tot_runs, "-");
	mutex_unlock(&sw_cost_lock);
	return 0;
}

/* A write: the file only reads. */
static int sw_cost_apply(char *buf)
{
	sw_error("overhead: read-only; its interval restarts at each read (write nothing to it)");
	return -EPERM;
}

static const struct sw_ctl_file sw_cost_ctl = {
	.show = sw_cost_show,
	.apply = sw_cost_apply,
};

/**
 * sw_cost_reset() - start the overhead file's figures from zero: its
 * totals and its interval (the probes' own accumulators are replaced with
 * their other statistics, probe/registry.c).
 *
 * The handlers keep adding to their CPU's estimate (they take no lock):
 * the file shows it less what it was here.
 *
 * Context: process context, under the registry's lock (sw_reset_all());
 * takes sw_cost_lock.
 */
void sw_cost_reset(void)
{
	int cpu;

	mutex_lock(&sw_cost_lock);
	for_each_possible_cpu(cpu) {
		struct sw_cost_cpu *c = per_cpu_ptr(&sw_cost_cpu, cpu);
		struct sw_cost_prev *p = per_cpu_ptr(sw_cost_prev, cpu);

		p->ns = READ_ONCE(c->est_ns);
		p->runs = READ_ONCE(c->est_runs);
		p->base_ns = p->ns;
		p->base_runs = p->runs;
		p->base_samples = READ_ONCE(c->samples);
	}
	sw_cost_prev_at = ktime_get_ns();
	mutex_unlock(&sw_cost_lock);
}

/* The least time of an empty timed window, in the clock's ns. */
static u64 sw_cost_measure_self(void)
{
	u64 best = U64_MAX, t0, d;
	int i;

	for (i = 0; i < 64; i++) {
		preempt_disable();
		t0 = sw_cost_begin();
		d = sw_clock_since(t0);
		preempt_enable();
		best = min(best, d);
	}
	return best;
}

/**
 * sw_cost_init() - start every CPU's countdown and add the overhead file.
 *
 * Context: process context (module init).
 * Return: 0 or -ENOMEM.
 */
int sw_cost_init(void)
{
	int cpu;

	sw_cost_prev = alloc_percpu(struct sw_cost_prev);
	if (!sw_cost_prev)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct sw_cost_cpu *c = per_cpu_ptr(&sw_cost_cpu, cpu);

		c->rnd = 2463534242u + cpu;
		c->gap = sw_cost_next_gap(c);
		c->left = c->gap;
	}
	sw_cost_self_ns = sw_cost_measure_self();
	sw_cost_prev_at = ktime_get_ns();
	sw_cost_file = sw_debugfs_add_ctl(SW_FILE_OVERHEAD, 0400, NULL,
					  &sw_cost_ctl);
	return 0;
}

/**
 * sw_cost_exit() - remove the overhead file.
 *
 * Context: process context (module exit or failed init).
 */
void sw_cost_exit(void)
{
	sw_debugfs_remove(&sw_cost_file);
	free_percpu(sw_cost_prev);
	sw_cost_prev = NULL;
}
