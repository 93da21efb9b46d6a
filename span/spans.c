// SPDX-License-Identifier: GPL-2.0
/*
 * spans.c - the spans and their debugfs files:
 *
 *   spans            read: one line per span, as it was added (a traced
 *                    span's followed by " id=N", its records' id); write
 *                    one line: "+NAME start=... stop=... [options]",
 *                    "-NAME" or "reset" (lib/spanspec.h), all or nothing
 *   span_stats       one row per span: the stats file's time columns,
 *                    then what the span counted besides its intervals
 *   span_keys        the rows of spans with by=, in the keys file's layout
 *   span_hist/NAME   the span's log2 histogram, in hist/'s layout
 *   span_lhists      every span's log-linear histogram, in the lhists
 *                    file's layout (lib/stats.h: SW_LHIST_TITLE_FMT)
 *
 * Starts older than a span's age_ms are taken out of its table every
 * 100 ms by a work item and counted as abandoned.  Everything here runs in
 * process context, under sw_span_lock; the handlers never take it.
 *
 * A span's event statistics follow the event set as the probes' do:
 * sw_span_pmu_client, which module/main.c hands to the pmu with the
 * registry's, replaces them when the events change, holding sw_span_lock
 * from its prepare to its commit (so the set stays current while the lock
 * is held).  Lock order: sw_pmu_mutex > the registry's > sw_span_lock.
 */
#include <linux/debugfs.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include <stopwatch/files.h>

#include "control/control.h"
#include "pmu/pmu.h"
#include "wrapper/timekeeping.h"
#include "span.h"

#define SW_SPANS_MAX 16
#define SW_SPAN_SCAN_MS 100

static unsigned int max_span_slots = 1U << 20;
module_param(max_span_slots, uint, 0400);
MODULE_PARM_DESC(max_span_slots,
		 "In-flight slots of all spans together (each span's slots=, 48 bytes each): a span past it is refused, from 16 to 16777216 (default 1048576)");

static DEFINE_MUTEX(sw_span_lock);
static LIST_HEAD(sw_spans);
static unsigned int sw_nspans;
static struct sw_file *sw_span_files[4];
static struct sw_file *sw_span_hist_dir;
static struct delayed_work sw_span_scan;

/* What the counters read at the last reset (shown: now - base). */
struct sw_span_extra {
	unsigned long base[SW_SC_NR];
	unsigned long missed_base;
	atomic_long_t abandoned;
	char *line;
};

static struct sw_span_extra *sw_span_x(struct sw_span *sp)
{
	return (struct sw_span_extra *)&sp->pt[sp->npt];
}

static void sw_span_counts(struct sw_span *sp, unsigned long *n)
{
	int cpu, i;

	memset(n, 0, SW_SC_NR * sizeof(*n));
	for_each_possible_cpu(cpu) {
		struct sw_span_pcpu *pc = per_cpu_ptr(sp->pcpu, cpu);

		for (i = 0; i < SW_SC_NR; i++)
			n[i] += READ_ONCE(pc->n[i]);
	}
	n[SW_SC_ABANDONED] += atomic_long_read(&sw_span_x(sp)->abandoned);
}

static unsigned long sw_span_missed(struct sw_span *sp)
{
	unsigned long n = 0;
	u32 i;

	for (i = 0; i < sp->npt; i++)
		n += sw_span_pt_missed(&sp->pt[i]);
	return n;
}

/* Points detached because their tracepoint's module went (tpmod.c). */
static u32 sw_span_detached(struct sw_span *sp)
{
	u32 i, n = 0;

	for (i = 0; i < sp->npt; i++)
		n += READ_ONCE(sp->pt[i].gone);
	return n;
}

static struct sw_span *sw_span_find(const char *name)
{
	struct sw_span *sp;

	list_for_each_entry(sp, &sw_spans, list)
		if (!strcmp(sp->cmd.name, name))
			return sp;
	return NULL;
}

/* Detach, then free: no handler runs any more when the memory goes. */
static void sw_span_destroy(struct sw_span *sp)
{
	struct sw_span_pt *pts[SW_SPAN_POINTS];
	u32 i;

	for (i = 0; i < sp->npt; i++)
		pts[i] = &sp->pt[i];
	sw_span_pt_unregister(pts, sp->npt);
	sw_debugfs_remove(&sp->hist);
	sw_aggs_free(&sp->aggs);
	sw_span_table_free(&sp->tbl);
	free_percpu(sp->pcpu);
	kfree(sw_span_x(sp)->line);
	kfree(sp);
}

static int sw_span_hist_show(struct seq_file *m, void *v);

/* The smallest id no span holds: there are fewer spans than ids. */
static u32 sw_span_free_id(void)
{
	struct sw_span *sp;
	u32 id;

	for (id = 1; id <= SW_SPANS_MAX; id++) {
		list_for_each_entry(sp, &sw_spans, list)
			if (sp->id == id)
				break;
		if (list_entry_is_head(sp, &sw_spans, list))
			break;
	}
	return id;
}

static int sw_span_add(struct sw_span_cmd *cmd, const char *line)
{
	struct sw_span *sp;
	u64 used = 0;
	u32 i;
	int ret;

	if (sw_span_find(cmd->name)) {
		sw_error("spans: '%s' exists already", cmd->name);
		return -EEXIST;
	}
	if (sw_nspans >= SW_SPANS_MAX) {
		sw_error("spans: at most %d spans", SW_SPANS_MAX);
		return -E2BIG;
	}
	list_for_each_entry(sp, &sw_spans, list)
		used += sp->tbl.mask + 1;
	if (cmd->slots > max_span_slots - used) {
		sw_error("spans: '%s': slots=%u is more than the %llu left of max_span_slots=%u (%llu in use by other spans); the most is %llu",
			 cmd->name, cmd->slots, (u64)max_span_slots - used,
			 max_span_slots, used, (u64)max_span_slots - used);
		return -E2BIG;
	}
	sp = kzalloc(struct_size(sp, pt, cmd->npoints) +
			     sizeof(struct sw_span_extra),
		     GFP_KERNEL);
	if (!sp)
		goto nomem;
	sp->npt = cmd->npoints;
	sp->cmd = *cmd;
	sp->id = sw_span_free_id();
	sw_span_x(sp)->line = kstrdup(line, GFP_KERNEL);
	sp->pcpu = alloc_percpu(struct sw_span_pcpu);
	if (!sw_span_x(sp)->line || !sp->pcpu ||
	    sw_span_table_alloc(&sp->tbl, cmd->slots) ||
	    sw_aggs_alloc(&sp->aggs, cmd->by, sw_pmu_set_locked())) {
		sw_span_destroy(sp);
		goto nomem;
	}
	sp->aggs.trace = cmd->trace;
	for (i = 0; i < sp->npt; i++) {
		sp->pt[i].p = cmd->pt[i];
		sp->pt[i].span = sp;
		sw_span_pt_nargs(&sp->pt[i]);
	}
	for (i = 0; i < sp->npt; i++) {
		ret = sw_span_pt_register(&sp->pt[i]);
		if (ret) {
			sw_span_destroy(sp);
			return ret;
		}
	}
	sp->hist = sw_debugfs_add_show(sp->cmd.name, sw_span_hist_dir,
				       sw_span_hist_show, sp);
	list_add_tail(&sp->list, &sw_spans);
	sw_nspans++;
	return 0;
nomem:
	sw_error("spans: '%s': out of memory", cmd->name);
	return -ENOMEM;
}

/* Zero every span's statistics and counters; starts in flight stay. */
static int sw_span_reset(void)
{
	struct sw_aggs *fresh;
	struct sw_span *sp;
	int n = 0, i;

	fresh = kcalloc(SW_SPANS_MAX, sizeof(*fresh), GFP_KERNEL);
	if (!fresh)
		goto nomem;
	/* Allocate everything first: a failure changes nothing. */
	list_for_each_entry(sp, &sw_spans, list) {
		if (sw_aggs_alloc(&fresh[n], sp->cmd.by, sw_pmu_set_locked())) {
			for (i = 0; i < n; i++)
				sw_aggs_free(&fresh[i]);
			kfree(fresh);
			goto nomem;
		}
		n++;
	}
	n = 0;
	list_for_each_entry(sp, &sw_spans, list) {
		struct sw_aggs *f = &fresh[n++];

		f->gen = rcu_replace_pointer(sp->aggs.gen, f->gen, 1);
		f->bd = rcu_replace_pointer(sp->aggs.bd, f->bd, 1);
		f->evs = rcu_replace_pointer(sp->aggs.evs, f->evs, 1);
		sw_span_counts(sp, sw_span_x(sp)->base);
		sw_span_x(sp)->missed_base = sw_span_missed(sp);
	}
	synchronize_rcu();
	for (i = 0; i < n; i++)
		sw_aggs_free(&fresh[i]);
	kfree(fresh);
	return 0;
nomem:
	sw_error("spans: reset: out of memory, nothing was reset");
	return -ENOMEM;
}

/*
 * The offset of the first control character of @line (a tab excepted) or
 * -1: the spans file gives each span's line back as written, one per
 * line, so a line break (or another control character) inside would
 * break its format.
 */
static int sw_spans_ctrl_at(const char *line)
{
	const char *c;

	for (c = line; *c; c++)
		if ((*c != '\t' && (unsigned char)*c < 0x20) || *c == 0x7f)
			return c - line;
	return -1;
}

static int sw_spans_apply(char *buf)
{
	struct sw_parse_err err;
	struct sw_span_cmd *cmd;
	struct sw_span *sp;
	char *line;
	int ret, at;

	buf = strim(buf);
	at = sw_spans_ctrl_at(buf);
	if (at >= 0) {
		sw_error("spans: control character 0x%02x at offset %d of the line: write one span per line",
			 (unsigned char)buf[at], at);
		return -EINVAL;
	}
	line = kstrdup(buf, GFP_KERNEL);
	cmd = kmalloc(sizeof(*cmd), GFP_KERNEL);
	if (!line || !cmd) {
		ret = -ENOMEM;
		sw_error("spans: out of memory");
		goto out;
	}
	ret = sw_span_parse(buf, cmd, &err);
	if (ret) {
		if (err.token)
			sw_error("spans: '%s': %s", err.token, err.why);
		else
			sw_error("spans: %s", err.why);
		goto out;
	}
	mutex_lock(&sw_span_lock);
	switch (cmd->op) {
	case SW_SPAN_ADD:
		ret = sw_span_add(cmd, line);
		break;
	case SW_SPAN_REMOVE:
		sp = sw_span_find(cmd->name);
		if (!sp) {
			sw_error("spans: no span '%s'", cmd->name);
			ret = -ENOENT;
			break;
		}
		list_del(&sp->list);
		sw_nspans--;
		sw_span_destroy(sp);
		break;
	default:
		ret = sw_span_reset();
		break;
	}
	mutex_unlock(&sw_span_lock);
out:
	kfree(cmd);
	kfree(line);
	return ret;
}

static int sw_spans_show(struct seq_file *m)
{
	struct sw_span *sp;

	mutex_lock(&sw_span_lock);
	list_for_each_entry(sp, &sw_spans, list) {
		seq_puts(m, sw_span_x(sp)->line);
		if (sp->aggs.trace)
			seq_printf(m, " id=%u", sp->id);
		seq_putc(m, '\n');
	}
	mutex_unlock(&sw_span_lock);
	return 0;
}

static const struct sw_ctl_file sw_spans_file = {
	.show = sw_spans_show,
	.apply = sw_spans_apply,
};

static const char *const sw_sc_names[SW_SC_NR] = {
	[SW_SC_STARTED] = "started",
	[SW_SC_RESTARTED] = "restarted",
	[SW_SC_DROPPED_FULL] = "dropped_full",
	[SW_SC_UNMATCHED] = "unmatched",
	[SW_SC_ABANDONED] = "abandoned",
	[SW_SC_UNREADABLE] = "unreadable",
	[SW_SC_SKIPPED] = "skipped",
	[SW_SC_NESTED] = "nested",
	[SW_SC_OTHER_THREAD] = "other_thread",
	[SW_SC_EV_NO_SLOT] = "ev_no_slot",
	[SW_SC_EV_TOO_DEEP] = "ev_too_deep",
	[SW_SC_EV_LOST] = "ev_lost",
};

/*
 * span_stats: "span calls min_ns avg_ns max_ns stddev_ns total_ns
 * migrated in_flight started restarted dropped_full unmatched abandoned
 * unreadable skipped nested other_thread ev_no_slot ev_too_deep ev_lost
 * missed filtered filtered_short filtered_long detached p50_ns p90_ns
 * p99_ns p999_ns" (detached: points whose tracepoint's module went; the
 * percentiles: sw_lhist_quantile()), then with events the
 * stats file's event columns (<event>_min _avg _max _unmeasured, cpi_*):
 * intervals stopped on another thread than their start, or whose start
 * had no events entry, count as unmeasured there.
 */
static int sw_span_stats_show(struct seq_file *m)
{
	unsigned long n[SW_SC_NR];
	struct sw_evread *evr;
	struct sw_timing *tm;
	struct sw_evgen *evs;
	struct sw_span *sp;
	const struct sw_stats *st;
	u64 filtered[3];
	int i;

	evr = kmalloc(sizeof(*evr), GFP_KERNEL);
	tm = sw_timing_alloc();
	if (!evr || !tm) {
		kfree(evr);
		sw_timing_free(tm);
		return -ENOMEM;
	}
	st = &tm->st;
	seq_printf(m, "%-24s %10s %12s %12s %12s %12s %14s %8s %9s", "span",
		   "calls", "min_ns", "avg_ns", "max_ns", "stddev_ns",
		   "total_ns", "migrated", "in_flight");
	for (i = 0; i < SW_SC_NR; i++)
		seq_printf(m, " %12s", sw_sc_names[i]);
	seq_printf(m, " %8s %10s %14s %14s %8s %12s %12s %12s %12s", "missed",
		   "filtered", "filtered_short", "filtered_long", "detached",
		   SW_COLS_PCT);
	mutex_lock(&sw_span_lock);
	sw_evgen_header(m, sw_pmu_set_locked());
	seq_putc(m, '\n');
	list_for_each_entry(sp, &sw_spans, list) {
		struct sw_gen *g = rcu_dereference_protected(sp->aggs.gen, 1);

		sw_gen_read(g, tm);
		sw_gen_filtered(g, filtered);
		sw_span_counts(sp, n);
		seq_printf(m, "%-24s %10llu %12llu %12llu %12llu %12llu %14llu %8llu %9u",
			   sp->cmd.name, st->count, st->count ? st->min : 0,
			   sw_stats_avg(st), st->max, sw_stats_stddev(st),
			   st->sum, tm->migrated, sw_span_table_used(&sp->tbl));
		for (i = 0; i < SW_SC_NR; i++)
			seq_printf(m, " %12lu", n[i] - sw_span_x(sp)->base[i]);
		seq_printf(m, " %8lu %10llu %14llu %14llu %8u %12llu %12llu %12llu %12llu",
			   sw_span_missed(sp) - sw_span_x(sp)->missed_base,
			   filtered[SW_FILTERED_ENTRY],
			   filtered[SW_FILTERED_SHORT],
			   filtered[SW_FILTERED_LONG], sw_span_detached(sp),
			   tm->pct[SW_PCT_50], tm->pct[SW_PCT_90],
			   tm->pct[SW_PCT_99], tm->pct[SW_PCT_999]);
		evs = rcu_dereference_protected(sp->aggs.evs, 1);
		if (evs)
			sw_evgen_cols(m, evs, evr);
		seq_putc(m, '\n');
	}
	mutex_unlock(&sw_span_lock);
	kfree(evr);
	sw_timing_free(tm);
	return 0;
}

static const struct sw_ctl_file sw_span_stats_file = {
	.show = sw_span_stats_show,
};

static int sw_span_keys_show(struct seq_file *m)
{
	struct sw_span *sp;
	void *rows, *snap;

	rows = sw_bd_rows_alloc(sw_bd_slots, &snap);
	if (!rows)
		return -ENOMEM;
	mutex_lock(&sw_span_lock);
	sw_keys_header(m, sw_pmu_set_locked());
	list_for_each_entry(sp, &sw_spans, list) {
		struct sw_bdgen *bd = rcu_dereference_protected(sp->aggs.bd, 1);

		if (bd)
			sw_keys_show(m, sp->cmd.name, bd, sw_pmu_set_locked(),
				     rows, snap);
	}
	mutex_unlock(&sw_span_lock);
	sw_bd_rows_free(rows, snap);
	return 0;
}

static const struct sw_ctl_file sw_span_keys_file = {
	.show = sw_span_keys_show,
};

/*
 * span_hist/NAME: the debugfs proxy keeps the span alive while this runs
 * (removal waits for it); the generation is read under RCU.
 */
static int sw_span_hist_show(struct seq_file *m, void *v)
{
	struct sw_span *sp = m->private;
	struct sw_timing *tm;

	tm = sw_timing_alloc();
	if (!tm)
		return -ENOMEM;
	rcu_read_lock();
	sw_gen_read(rcu_dereference(sp->aggs.gen), tm);
	rcu_read_unlock();
	seq_printf(m, SW_HIST_TITLE_FMT, sp->cmd.name, "ns", tm->st.count);
	sw_hist_print(tm->hist, SW_HIST_BUCKETS, sw_seq_emit, m);
	sw_timing_free(tm);
	return 0;
}

/*
 * span_lhists: each span's log-linear histogram, its intervals, total
 * and buckets read in one pass over the CPUs, in the spans file's order,
 * blank-line separated.
 */
static int sw_span_lhists_show(struct seq_file *m)
{
	struct sw_timing *tm;
	struct sw_span *sp;
	bool first = true;

	tm = sw_timing_alloc();
	if (!tm)
		return -ENOMEM;
	mutex_lock(&sw_span_lock);
	list_for_each_entry(sp, &sw_spans, list) {
		if (!first)
			seq_putc(m, '\n');
		first = false;
		sw_gen_lhist_show(m, sp->cmd.name,
				  rcu_dereference_protected(sp->aggs.gen, 1), tm);
	}
	mutex_unlock(&sw_span_lock);
	sw_timing_free(tm);
	return 0;
}

static const struct sw_ctl_file sw_span_lhists_file = {
	.show = sw_span_lhists_show,
};

/* Every 100 ms: starts older than their span's age_ms are abandoned. */
static void sw_span_scan_fn(struct work_struct *w)
{
	struct sw_span *sp;
	u64 now = sw_clock_ns();

	mutex_lock(&sw_span_lock);
	list_for_each_entry(sp, &sw_spans, list)
		atomic_long_add(sw_span_table_expire(&sp->tbl, now,
						     sp->cmd.age_ns),
				&sw_span_x(sp)->abandoned);
	mutex_unlock(&sw_span_lock);
	schedule_delayed_work(&sw_span_scan,
			      msecs_to_jiffies(SW_SPAN_SCAN_MS));
}

/* ---- the pmu's client: event statistics follow the event set -------- */

static struct sw_evgen *sw_span_evs_next[SW_SPANS_MAX];
static int sw_span_evs_n;

/* Fresh event statistics for every span; returns holding the lock. */
static int sw_span_client_prepare(const struct sw_evset *set)
	__acquires(&sw_span_lock)
{
	struct sw_span *sp;
	int n = 0, i;

	mutex_lock(&sw_span_lock);
	list_for_each_entry(sp, &sw_spans, list) {
		sw_span_evs_next[n] = set ? sw_evgen_alloc(set) : NULL;
		if (set && !sw_span_evs_next[n]) {
			for (i = 0; i < n; i++)
				sw_evgen_free(sw_span_evs_next[i]);
			mutex_unlock(&sw_span_lock);
			return -ENOMEM;
		}
		n++;
	}
	sw_span_evs_n = n;
	return 0;
}

/* Swaps them in; keeps the replaced ones for the done. */
static void sw_span_client_commit(void) __releases(&sw_span_lock)
{
	struct sw_span *sp;
	int n = 0;

	list_for_each_entry(sp, &sw_spans, list) {
		sw_span_evs_next[n] = rcu_replace_pointer(sp->aggs.evs,
							  sw_span_evs_next[n],
							  1);
		n++;
	}
	mutex_unlock(&sw_span_lock);
}

static void sw_span_client_free(void)
{
	int i;

	for (i = 0; i < sw_span_evs_n; i++) {
		sw_evgen_free(sw_span_evs_next[i]);
		sw_span_evs_next[i] = NULL;
	}
	sw_span_evs_n = 0;
}

static void sw_span_client_abort(void) __releases(&sw_span_lock)
{
	sw_span_client_free();
	mutex_unlock(&sw_span_lock);
}

/* After commit and a grace period (sw_pmu_mutex serializes the calls). */
static void sw_span_client_done(void)
{
	sw_span_client_free();
}

const struct sw_pmu_client sw_span_pmu_client = {
	.prepare = sw_span_client_prepare,
	.commit = sw_span_client_commit,
	.abort = sw_span_client_abort,
	.done = sw_span_client_done,
};

/**
 * sw_span_init() - the spans' files and age scan.
 *
 * Context: process context (module init).
 * Return: 0 or a negative errno; nothing is left behind on failure.
 */
int sw_span_init(void)
{
	int i;

	if (max_span_slots < SW_SPAN_SLOTS_MIN ||
	    max_span_slots > SW_SPANS_MAX * SW_SPAN_SLOTS_MAX) {
		sw_error("max_span_slots=%u is outside %u..%u", max_span_slots,
			 SW_SPAN_SLOTS_MIN, SW_SPANS_MAX * SW_SPAN_SLOTS_MAX);
		return -EINVAL;
	}
	sw_span_hist_dir = sw_debugfs_add_dir("span_hist", NULL);
	if (IS_ERR(sw_span_hist_dir)) {
		i = PTR_ERR(sw_span_hist_dir);
		sw_span_hist_dir = NULL;
		return i;
	}
	sw_span_files[0] = sw_debugfs_add_ctl("spans", 0600, NULL,
					      &sw_spans_file);
	sw_span_files[1] = sw_debugfs_add_ctl(SW_FILE_SPAN_STATS, 0400, NULL,
					      &sw_span_stats_file);
	sw_span_files[2] = sw_debugfs_add_ctl("span_keys", 0400, NULL,
					      &sw_span_keys_file);
	sw_span_files[3] = sw_debugfs_add_ctl(SW_FILE_SPAN_LHISTS, 0400, NULL,
					      &sw_span_lhists_file);
	for (i = 0; i < ARRAY_SIZE(sw_span_files); i++) {
		if (IS_ERR(sw_span_files[i])) {
			int ret = PTR_ERR(sw_span_files[i]);

			sw_span_exit();
			return ret;
		}
	}
	i = sw_span_tpmod_init();
	if (i) {
		sw_span_exit();
		return i;
	}
	INIT_DELAYED_WORK(&sw_span_scan, sw_span_scan_fn);
	schedule_delayed_work(&sw_span_scan,
			      msecs_to_jiffies(SW_SPAN_SCAN_MS));
	return 0;
}

/**
 * sw_span_exit() - remove the files first (no control write can race),
 * stop the scan, then every span.
 *
 * Context: process context (module exit, or a failed init).
 */
void sw_span_exit(void)
{
	struct sw_span *sp, *tmp;
	int i;

	for (i = 0; i < ARRAY_SIZE(sw_span_files); i++)
		sw_debugfs_remove(&sw_span_files[i]);
	if (sw_span_scan.work.func)
		cancel_delayed_work_sync(&sw_span_scan);
	list_for_each_entry_safe(sp, tmp, &sw_spans, list) {
		list_del(&sp->list);
		sw_span_destroy(sp);
	}
	sw_nspans = 0;
	sw_span_tpmod_exit();
	sw_debugfs_remove(&sw_span_hist_dir);
}
