// SPDX-License-Identifier: GPL-2.0
/*
 * show.c - how one probe reads in debugfs: its row of the stats file and
 * its hist/<probe> file.  All functions run in process context.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/slab.h>

#include "control/control.h"
#include "lib/attachtab.h"
#include "probe.h"

/**
 * sw_stats_header() - the stats file's first line.
 * @m:   seq_file
 * @set: the current event set (NULL: none); every probe's event statistics
 *       belong to it while the registry's lock is held
 *
 * The time columns, then per event min, avg, max and unmeasured calls;
 * with cycles and instructions, per-call CPI min, avg, max; last the calls
 * the probe's filters left out: at entry (filtered), shorter than min_ns
 * (filtered_short), longer than max_ns (filtered_long); then how the
 * probe is attached (attach: SW_STATS_ATTACH_*, lib/attachtab.h) and
 * why a kernel function with attach=auto is not on a trampoline
 * (attach_err: a positive errno, 0 when it is or was not asked to be);
 * whether its function went with its module (detached: 1, the
 * probe counts nothing more; 0 otherwise), the wall time's percentiles
 * (p50_ns, p90_ns, p99_ns, p999_ns: sw_lhist_quantile()), what
 * its calls cost the machine (sw_probe_cost()), and last what of each
 * measured window is the probe's own (window_ns: calibrated at load per
 * mechanism, attach/calib.c; 0 where not).
 */
void sw_stats_header(struct seq_file *m, const struct sw_evset *set)
{
	seq_printf(m, "%-24s %10s %12s %12s %12s %12s %14s %8s %14s %12s %8s",
		   SW_COLS_STATS_HEAD);
	sw_evgen_header(m, set);
	seq_printf(m, " %10s %14s %14s %6s %10s %8s %12s %12s %12s %12s %8s %13s %14s %9s\n",
		   SW_COLS_STATS_TAIL);
}

/*
 * sw_probe_missed() - a probe's calls not measured since the last reset,
 * by cause (a user probe has neither: the uprobe core hits every call, and
 * what the pending stack could not hold is counted in the pending file).
 * @p:         the probe
 * @maxactive: entries refused for want of a kretprobe instance
 * @reentry:   hits while another kprobe handler (a trampoline: another
 *             handler half) ran on the same CPU
 *
 * Context: any.
 */
static void sw_probe_missed(struct sw_probe *p, unsigned long *maxactive,
			    unsigned long *reentry)
{
	if (p->upath || p->tramp) {
		*maxactive = 0;
		*reentry = p->tramp ? sw_tramp_missed(&p->tp) : 0;
		return;
	}
	sw_kretprobe_missed(&p->kp, maxactive, reentry);
}

/*
 * Whether a kernel function's probe went with the function's module: its
 * trampoline was detached (attach/tramp.c), or kprobes marked its
 * kretprobe gone.
 */
static int sw_probe_detached(struct sw_probe *p)
{
	if (p->upath)
		return 0;
	return p->tramp ? sw_tramp_detached(&p->tp) : sw_kretprobe_gone(&p->kp);
}

/* How @p's calls are caught, as core/cost.h tells the mechanisms apart. */
static enum sw_cost_mech sw_probe_mech(struct sw_probe *p)
{
	return p->upath ? SW_COST_UPROBE :
	       p->tramp ? SW_COST_TRAMP :
	       p->kp.krp.kp.flags & KPROBE_FLAG_FTRACE ?
	       SW_COST_KRETPROBE_FTRACE : SW_COST_KRETPROBE;
}

/*
 * sw_probe_cost() - what one call of @p costs, in ns, observed: the mean
 * time of its entry handler plus that of its exit handler, over the runs
 * sampled since the probe was added or the statistics reset
 * (core/cost.h), plus its mechanism's fixed cost per call, the part around the
 * handlers (kprobe and kretprobe machinery), where it was measured at
 * load (@fixed: that part, 0 where not measured and not included: a
 * trampoline's stub and ftrace's call to it, a uprobe's breakpoint and
 * return trap).  0 and 0 until a run of the probe has been sampled.
 * Context: process context, the registry's lock held (reset replaces the
 * accumulators under it).
 */
static u64 sw_probe_cost(struct sw_probe *p, u64 *fixed)
{
	enum sw_cost_mech mech = sw_probe_mech(p);
	struct sw_cost_acc __percpu *acc =
		rcu_dereference_protected(p->aggs.cost, 1);
	u64 samples, ns = sw_cost_acc_mean(acc, &samples);

	*fixed = samples ? sw_cost_fixed(mech) : 0;
	return samples ? ns + *fixed : 0;
}

/**
 * sw_stats_row() - one probe's row of the stats file.
 * @m:   seq_file
 * @p:   the probe (the registry's lock held: its generations stay)
 * @buf: scratch
 */
void sw_stats_row(struct seq_file *m, struct sw_probe *p,
		  struct sw_show_buf *buf)
{
	struct sw_gen *g = rcu_dereference_protected(p->aggs.gen, 1);
	struct sw_timing *tm = buf->tm;
	const struct sw_stats *st = &tm->st;
	unsigned long miss_max, miss_re;
	u64 filtered[3], cost, fixed;
	struct sw_evgen *evs;

	sw_gen_read(g, tm);
	sw_gen_filtered(g, filtered);
	sw_probe_missed(p, &miss_max, &miss_re);
	seq_printf(m, "%-24s %10llu %12llu %12llu %12llu %12llu %14llu %8lu %14lu %12lu %8llu",
		   p->name, st->count, st->count ? st->min : 0,
		   sw_stats_avg(st), st->max, sw_stats_stddev(st), st->sum,
		   miss_max + miss_re, miss_max, miss_re, tm->migrated);
	evs = rcu_dereference_protected(p->aggs.evs, 1);
	if (evs)
		sw_evgen_cols(m, evs, &buf->evr);
	cost = sw_probe_cost(p, &fixed);
	/*
	 * The estimated total: every call the probe saw, measured or
	 * filtered (one filtered at entry ran only the entry half: counted
	 * whole, an upper estimate).
	 */
	seq_printf(m, " %10llu %14llu %14llu %6d %10d %8d %12llu %12llu %12llu %12llu %8llu %13llu %14llu %9llu\n",
		   filtered[SW_FILTERED_ENTRY], filtered[SW_FILTERED_SHORT],
		   filtered[SW_FILTERED_LONG],
		   p->upath ? SW_STATS_ATTACH_UPROBE :
		   p->tramp ? SW_STATS_ATTACH_TRAMPOLINE :
			      SW_STATS_ATTACH_KRETPROBE,
		   p->attach_err, sw_probe_detached(p), tm->pct[SW_PCT_50],
		   tm->pct[SW_PCT_90], tm->pct[SW_PCT_99], tm->pct[SW_PCT_999],
		   cost, fixed,
		   cost * (st->count + filtered[SW_FILTERED_ENTRY] +
			   filtered[SW_FILTERED_SHORT] +
			   filtered[SW_FILTERED_LONG]),
		   sw_cost_window(sw_probe_mech(p)));
}

/**
 * sw_hist_sections() - one probe's histogram sections: wall time, then
 * one per event.
 * @m:   seq_file
 * @p:   the probe, kept alive by the caller (the debugfs proxy or the
 *       registry's lock)
 * @buf: scratch
 * @row: the wall-time title goes on with the row's timing columns, read
 *       with the buckets (SW_HIST_TITLE_ROW_FMT)
 *
 * The generations are read under RCU (reset replaces them).
 */
void sw_hist_sections(struct seq_file *m, struct sw_probe *p,
		      struct sw_show_buf *buf, bool row)
{
	struct sw_timing *tm = buf->tm;
	const struct sw_stats *st = &tm->st;
	struct sw_evgen *g;
	u32 i;

	rcu_read_lock();
	sw_gen_read(rcu_dereference(p->aggs.gen), tm);
	rcu_read_unlock();
	if (row)
		seq_printf(m, SW_HIST_TITLE_ROW_FMT, p->name, "ns", st->count,
			   st->sum, st->count ? st->min : 0, sw_stats_avg(st),
			   st->max, sw_stats_stddev(st), tm->pct[SW_PCT_50],
			   tm->pct[SW_PCT_90], tm->pct[SW_PCT_99],
			   tm->pct[SW_PCT_999]);
	else
		seq_printf(m, SW_HIST_TITLE_FMT, p->name, "ns", st->count);
	sw_hist_print(tm->hist, SW_HIST_BUCKETS, sw_seq_emit, m);

	/* One section per event; N is the calls measured for it. */
	buf->evr.n = 0;
	rcu_read_lock();
	g = rcu_dereference(p->aggs.evs);
	if (g)
		sw_evgen_read(g, &buf->evr);
	rcu_read_unlock();
	for (i = 0; i < buf->evr.n; i++) {
		seq_putc(m, '\n');
		seq_printf(m, SW_HIST_TITLE_FMT, p->name, buf->evr.names[i],
			   buf->evr.ev[i].st.count);
		sw_hist_print(buf->evr.ev[i].hist, SW_HIST_BUCKETS, sw_seq_emit,
			      m);
	}
}

/**
 * sw_lhist_section() - one probe's fine wall-time histogram section
 * (SW_LHIST_TITLE_FMT, then sw_lhist_print()'s rows), its calls, total
 * and buckets read in one pass over the CPUs.
 * @m:   seq_file
 * @p:   the probe, kept alive by the caller (the registry's lock)
 * @buf: scratch
 */
void sw_lhist_section(struct seq_file *m, struct sw_probe *p,
		      struct sw_show_buf *buf)
{
	rcu_read_lock();
	sw_gen_lhist_show(m, p->name, rcu_dereference(p->aggs.gen), buf->tm);
	rcu_read_unlock();
}

/*
 * hist/<probe>: the debugfs proxy keeps the probe alive while this runs;
 * removal waits for it, so the registry's lock is not needed (removal
 * holds it).
 */
int sw_hist_show(struct seq_file *m, void *v)
{
	struct sw_show_buf *buf;

	buf = sw_show_buf_alloc();
	if (!buf)
		return -ENOMEM;
	sw_hist_sections(m, m->private, buf, false);
	sw_show_buf_free(buf);
	return 0;
}

/**
 * sw_show_buf_alloc() - scratch for sw_stats_row() and sw_hist_sections().
 *
 * Context: process context; may sleep.
 * Return: the scratch, or NULL when out of memory.
 */
struct sw_show_buf *sw_show_buf_alloc(void)
{
	struct sw_show_buf *buf;

	buf = kmalloc(sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return NULL;
	buf->tm = sw_timing_alloc();
	if (!buf->tm) {
		kfree(buf);
		return NULL;
	}
	return buf;
}

/**
 * sw_show_buf_free() - free sw_show_buf_alloc()'s scratch; NULL is accepted.
 * @buf: the scratch
 */
void sw_show_buf_free(struct sw_show_buf *buf)
{
	if (!buf)
		return;
	sw_timing_free(buf->tm);
	kfree(buf);
}
