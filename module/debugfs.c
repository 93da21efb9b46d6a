// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs.c - the /sys/kernel/debug/stopwatch/ interface.
 *
 *   stats            one row per probe, first line names the columns
 *   hist/<probe>     log2 histograms of the wall time and of each event
 *   events           read/write the events counted per call (all or nothing)
 *   counters         every CPU's perf counter: state, count, times
 *   probes           read: probed functions; write: "+f -g h" (all or nothing)
 *   reset            write 1: zero every statistic
 *   breakdown        read/write the breakdown mode (none pid tgid comm cpu)
 *   breakdown_stats  the statistics broken down by that key
 *   last_error       the message of the last failed control write
 *
 * Every file is root-only.  All callbacks run in process context.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "stopwatch.h"
#include "../pmu/pmu.h"

#define SW_CTL_MAX (64 * 1024)

static struct dentry *sw_dbg_root;
static struct dentry *sw_dbg_hist;

/**
 * sw_seq_emit() - sw_emit_fn that prints into a seq_file.
 * @ctx: the seq_file
 * @fmt: printf format
 *
 * Context: process context.
 */
void sw_seq_emit(void *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	seq_vprintf(ctx, fmt, ap);
	va_end(ap);
}

/* Copies a control write into a NUL-terminated kernel buffer. */
static char *sw_ctl_copy(const char __user *ubuf, size_t len)
{
	char *buf;

	if (len > SW_CTL_MAX) {
		sw_error("control write of %zu bytes is longer than %d", len,
			 SW_CTL_MAX);
		return ERR_PTR(-E2BIG);
	}
	buf = kvmalloc(len + 1, GFP_KERNEL);
	if (!buf)
		return ERR_PTR(-ENOMEM);
	if (copy_from_user(buf, ubuf, len)) {
		kvfree(buf);
		return ERR_PTR(-EFAULT);
	}
	buf[len] = '\0';
	return buf;
}

/* One column header "<event>_<what>", right-aligned like the values. */
static void sw_ev_col(struct seq_file *m, const char *ev, const char *what)
{
	char name[SW_EVENT_NAME_LEN + 16];

	snprintf(name, sizeof(name), "%s_%s", ev, what);
	seq_printf(m, " %14s", name);
}

/* CPI x SW_CPI_SCALE as a decimal with three places. */
static void sw_cpi_col(struct seq_file *m, u64 v)
{
	seq_printf(m, " %10llu.%03llu", v / SW_CPI_SCALE, v % SW_CPI_SCALE);
}

/*
 * The event columns, after the time columns: per event min, avg, max and
 * unmeasured calls; with cycles and instructions, per-call CPI min, avg,
 * max.  The header comes from the current event set; every probe's event
 * statistics belong to it (both change together under sw_lock).
 */
static void sw_stats_ev_header(struct seq_file *m)
{
	struct sw_evset *set = rcu_dereference_protected(sw_evset,
						lockdep_is_held(&sw_lock));
	u32 i;

	for (i = 0; set && i < set->n; i++) {
		sw_ev_col(m, set->spec[i].name, "min");
		sw_ev_col(m, set->spec[i].name, "avg");
		sw_ev_col(m, set->spec[i].name, "max");
		sw_ev_col(m, set->spec[i].name, "unmeasured");
	}
	if (set && set->cycles >= 0 && set->instructions >= 0)
		seq_printf(m, " %14s %14s %14s", "cpi_min", "cpi_avg",
			   "cpi_max");
}

static void sw_stats_ev_row(struct seq_file *m, struct sw_probe *p,
			    struct sw_evread *r)
{
	struct sw_evgen *g = rcu_dereference_protected(p->evs,
						lockdep_is_held(&sw_lock));
	u32 i;

	if (!g)
		return;
	sw_evgen_read(g, r);
	for (i = 0; i < r->n; i++) {
		struct sw_stats *st = &r->ev[i].st;

		seq_printf(m, " %14llu %14llu %14llu %14llu",
			   st->count ? st->min : 0, sw_stats_avg(st), st->max,
			   r->ev[i].unmeasured);
	}
	if (r->cycles >= 0 && r->instructions >= 0) {
		sw_cpi_col(m, r->cpi.count ? r->cpi.min : 0);
		sw_cpi_col(m, sw_stats_avg(&r->cpi));
		sw_cpi_col(m, r->cpi.max);
	}
}

static int sw_ctl_show(struct seq_file *m, void *v)
{
	const struct sw_ctl_file *ctl = m->private;

	return ctl->show ? ctl->show(m) : 0;
}

static int sw_ctl_open(struct inode *inode, struct file *file)
{
	return single_open(file, sw_ctl_show, inode->i_private);
}

/* One write is one command: copied, last_error cleared, then applied. */
static ssize_t sw_ctl_write(struct file *file, const char __user *ubuf,
			    size_t len, loff_t *ppos)
{
	const struct sw_ctl_file *ctl =
		((struct seq_file *)file->private_data)->private;
	char *buf = sw_ctl_copy(ubuf, len);
	int ret;

	if (IS_ERR(buf))
		return PTR_ERR(buf);
	sw_error_clear();
	ret = ctl->apply(buf);
	kvfree(buf);
	return ret ? ret : len;
}

static const struct file_operations sw_ctl_fops = {
	.owner = THIS_MODULE,
	.open = sw_ctl_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = sw_ctl_write,
};

/**
 * sw_debugfs_add_ctl() - create a control file.
 * @name:   file name
 * @mode:   permissions (root-only: 0600, or 0200 without @ctl->show)
 * @parent: directory
 * @ctl:    what reading shows and what a write does; must outlive the file
 *
 * Every write is copied (at most SW_CTL_MAX bytes), clears last_error and
 * is handed whole to @ctl->apply, whose negative errno the write returns.
 *
 * Context: process context.
 * Return: the dentry (debugfs reports its errors in it).
 */
struct dentry *sw_debugfs_add_ctl(const char *name, umode_t mode,
				  struct dentry *parent,
				  const struct sw_ctl_file *ctl)
{
	return debugfs_create_file(name, mode, parent, (void *)ctl,
				   &sw_ctl_fops);
}

static int sw_stats_show(struct seq_file *m, void *v)
{
	struct sw_stats st;
	struct sw_probe *p;
	struct sw_evread *evr;
	u64 *hist, migrated;
	unsigned long miss_max, miss_re;
	int ret = 0;

	hist = kmalloc_array(SW_HIST_BUCKETS, sizeof(*hist), GFP_KERNEL);
	evr = kmalloc(sizeof(*evr), GFP_KERNEL);
	if (!hist || !evr) {
		ret = -ENOMEM;
		goto out_free;
	}
	seq_printf(m, "%-24s %10s %12s %12s %12s %12s %14s %8s %14s %12s %8s",
		   "probe", "calls", "min_ns", "avg_ns", "max_ns", "stddev_ns",
		   "total_ns", "missed", "miss_maxactive", "miss_reentry",
		   "migrated");
	mutex_lock(&sw_lock);
	sw_stats_ev_header(m);
	seq_putc(m, '\n');
	list_for_each_entry(p, &sw_probes, list) {
		ret = sw_probe_read(p, &st, hist, &migrated);
		if (ret)
			break;
		sw_probe_missed(p, &miss_max, &miss_re);
		seq_printf(m, "%-24s %10llu %12llu %12llu %12llu %12llu %14llu %8lu %14lu %12lu %8llu",
			   p->name, st.count, st.count ? st.min : 0,
			   sw_stats_avg(&st), st.max, sw_stats_stddev(&st),
			   st.sum, miss_max + miss_re, miss_max, miss_re,
			   migrated);
		sw_stats_ev_row(m, p, evr);
		seq_putc(m, '\n');
	}
	mutex_unlock(&sw_lock);
out_free:
	kfree(evr);
	kfree(hist);
	return ret;
}
DEFINE_SHOW_ATTRIBUTE(sw_stats);

/*
 * hist/<probe>: the debugfs proxy keeps the probe alive while this runs;
 * removal waits for it, so no sw_lock here (removal holds it).
 */
static int sw_hist_show(struct seq_file *m, void *v)
{
	struct sw_probe *p = m->private;
	struct sw_evread *evr = NULL;
	struct sw_evgen *g;
	struct sw_stats st;
	u64 *hist, migrated;
	u32 i;
	int ret;

	hist = kmalloc_array(SW_HIST_BUCKETS, sizeof(*hist), GFP_KERNEL);
	evr = kmalloc(sizeof(*evr), GFP_KERNEL);
	if (!hist || !evr) {
		ret = -ENOMEM;
		goto out_free;
	}
	ret = sw_probe_read(p, &st, hist, &migrated);
	if (ret)
		goto out_free;
	seq_printf(m, "%s: ns, %llu calls\n", p->name, st.count);
	sw_hist_print(hist, SW_HIST_BUCKETS, sw_seq_emit, m);

	/* One section per event; N is the calls measured for it. */
	evr->n = 0;
	rcu_read_lock();
	g = rcu_dereference(p->evs);
	if (g)
		sw_evgen_read(g, evr);
	rcu_read_unlock();
	for (i = 0; i < evr->n; i++) {
		seq_printf(m, "\n%s: %s, %llu calls\n", p->name, evr->names[i],
			   evr->ev[i].st.count);
		sw_hist_print(evr->ev[i].hist, SW_HIST_BUCKETS, sw_seq_emit, m);
	}
out_free:
	kfree(evr);
	kfree(hist);
	return ret;
}
DEFINE_SHOW_ATTRIBUTE(sw_hist);

static int sw_probes_list(struct seq_file *m)
{
	struct sw_probe *p;

	mutex_lock(&sw_lock);
	list_for_each_entry(p, &sw_probes, list)
		seq_printf(m, "%s\n", p->name);
	mutex_unlock(&sw_lock);
	return 0;
}

static const struct sw_ctl_file sw_probes_ctl = {
	.show = sw_probes_list,
	.apply = sw_probes_apply,
};

static int sw_reset_apply(char *buf)
{
	if (strcmp(strim(buf), "1")) {
		sw_error("reset: write 1 to reset, not '%.32s'", strim(buf));
		return -EINVAL;
	}
	return sw_reset_all();
}

static const struct sw_ctl_file sw_reset_ctl = {
	.apply = sw_reset_apply,
};

static int sw_breakdown_mode(struct seq_file *m)
{
	seq_printf(m, "%s\n", sw_breakdown_name(READ_ONCE(sw_bd_mode)));
	return 0;
}

static int sw_breakdown_apply(char *buf)
{
	int mode = sw_parse_breakdown(strim(buf));

	if (mode < 0) {
		sw_error("breakdown: '%.32s' is not one of none pid tgid comm cpu",
			 strim(buf));
		return mode;
	}
	return sw_breakdown_set(mode);
}

static const struct sw_ctl_file sw_breakdown_ctl = {
	.show = sw_breakdown_mode,
	.apply = sw_breakdown_apply,
};

static int sw_bdstats_show(struct seq_file *m, void *v)
{
	return sw_breakdown_show(m);
}
DEFINE_SHOW_ATTRIBUTE(sw_bdstats);

static int sw_events_list(struct seq_file *m)
{
	sw_pmu_events_show(m);
	return 0;
}

static const struct sw_ctl_file sw_events_ctl = {
	.show = sw_events_list,
	.apply = sw_pmu_events_apply,
};

static int sw_counters_show(struct seq_file *m, void *v)
{
	return sw_pmu_counters_show(m);
}
DEFINE_SHOW_ATTRIBUTE(sw_counters);

static int sw_last_error_show(struct seq_file *m, void *v)
{
	sw_error_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sw_last_error);

/*
 * version: what the files' formats are, so readers can refuse layouts they
 * do not know.  stats_format grows (minor) when columns are appended and
 * changes major only if existing columns change meaning or order.
 */
static int sw_version_show(struct seq_file *m, void *v)
{
	seq_printf(m, "stopwatch %s\nstats_format %d.%d\n", SW_VERSION,
		   SW_STATS_FORMAT_MAJOR, SW_STATS_FORMAT_MINOR);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sw_version);

/**
 * sw_debugfs_root() - the /sys/kernel/debug/stopwatch/ directory.
 *
 * For the other parts of the module (sampler, counters) to add files.
 *
 * Context: process context, between sw_debugfs_init() and sw_debugfs_exit().
 * Return: the directory dentry.
 */
struct dentry *sw_debugfs_root(void)
{
	return sw_dbg_root;
}

/**
 * sw_debugfs_add_hist() - create hist/<probe>.
 * @p: probe, not yet visible to the handlers
 *
 * Context: process context, sw_lock held.
 * Return: 0 or a negative errno.
 */
int sw_debugfs_add_hist(struct sw_probe *p)
{
	struct dentry *d;

	d = debugfs_create_file(p->name, 0400, sw_dbg_hist, p, &sw_hist_fops);
	if (IS_ERR(d))
		return PTR_ERR(d);
	p->hist = d;
	return 0;
}

/**
 * sw_debugfs_remove_hist() - remove hist/<probe>, waiting for its readers.
 * @p: probe; a probe without a hist file is accepted
 *
 * Does nothing once sw_debugfs_exit() has removed the whole tree.
 *
 * Context: process context.
 */
void sw_debugfs_remove_hist(struct sw_probe *p)
{
	if (sw_dbg_root && p->hist)
		debugfs_remove(p->hist);
	p->hist = NULL;
}

/**
 * sw_debugfs_init() - create /sys/kernel/debug/stopwatch/.
 *
 * Context: process context (module init).
 * Return: 0 or a negative errno; nothing is left behind on failure.
 */
int sw_debugfs_init(void)
{
	struct dentry *root;

	root = debugfs_create_dir(SW_NAME, NULL);
	if (IS_ERR(root)) {
		pr_err(SW_NAME ": cannot create debugfs directory (%ld); is debugfs enabled?\n",
		       PTR_ERR(root));
		return PTR_ERR(root);
	}
	sw_dbg_hist = debugfs_create_dir("hist", root);
	debugfs_create_file("stats", 0400, root, NULL, &sw_stats_fops);
	sw_debugfs_add_ctl("probes", 0600, root, &sw_probes_ctl);
	sw_debugfs_add_ctl("reset", 0200, root, &sw_reset_ctl);
	sw_debugfs_add_ctl("breakdown", 0600, root, &sw_breakdown_ctl);
	debugfs_create_file("breakdown_stats", 0400, root, NULL,
			    &sw_bdstats_fops);
	debugfs_create_file("last_error", 0400, root, NULL,
			    &sw_last_error_fops);
	debugfs_create_file("version", 0400, root, NULL, &sw_version_fops);
	sw_debugfs_add_ctl("events", 0600, root, &sw_events_ctl);
	debugfs_create_file("counters", 0400, root, NULL, &sw_counters_fops);
	if (IS_ERR(sw_dbg_hist)) {
		debugfs_remove(root);
		return PTR_ERR(sw_dbg_hist);
	}
	sw_dbg_root = root;
	return 0;
}

/**
 * sw_debugfs_exit() - remove the whole tree, waiting for open readers.
 *
 * Called before the probes are removed, so no control write can race with
 * unload.
 *
 * Context: process context (module exit or failed init).
 */
void sw_debugfs_exit(void)
{
	debugfs_remove(sw_dbg_root);
	sw_dbg_root = NULL;
	sw_dbg_hist = NULL;
}
