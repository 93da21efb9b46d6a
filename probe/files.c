// SPDX-License-Identifier: GPL-2.0
/*
 * files.c - the registry's debugfs files:
 *
 *   stats            one row per probe, first line names the columns
 *   probes           read: probed functions (a user point's with its
 *                    uprobe=PATH:0xOFFSET; a traced one's with trace=
 *                    and the id of its records); write: "+f -g h" (all
 *                    or nothing)
 *   reset            write 1: zero every statistic
 *   breakdown        read/write the breakdown mode (none pid tgid comm cpu)
 *   breakdown_stats  the statistics broken down by that key
 *   keys             every probe's rows: by its own by=, or by the
 *                    breakdown mode; with per-event averages
 *   hists            every probe's hist/<probe> sections, blank-line
 *                    separated, each wall-time title with the row's timing
 *                    columns read with its buckets (one snapshot per row)
 *   lhists           every probe's log-linear wall-time histogram: its
 *                    non-empty buckets with their bounds (SW_LHIST_*)
 *
 * (hist/<probe> files are made with each probe, see show.c.)  All
 * callbacks run in process context.
 */
#include <linux/slab.h>
#include <linux/string.h>

#include "control/control.h"
#include "lib/parse.h"
#include "probe.h"

static struct sw_file *sw_files[8];

/* stats: the header agrees with the rows (both under the registry lock). */
struct sw_stats_walk {
	struct seq_file *m;
	struct sw_show_buf *buf;
	unsigned int n;
};

static void sw_stats_first(void *arg)
{
	struct sw_stats_walk *w = arg;

	sw_stats_header(w->m, sw_pmu_set_locked());
}

static int sw_stats_one(struct sw_probe *p, void *arg)
{
	struct sw_stats_walk *w = arg;

	sw_stats_row(w->m, p, w->buf);
	return 0;
}

/* Every probe through @one, with a row buffer; @first before the first. */
static int sw_stats_walk_all(struct seq_file *m,
			     int (*one)(struct sw_probe *, void *),
			     void (*first)(void *))
{
	struct sw_stats_walk w = { .m = m };
	int ret;

	w.buf = sw_show_buf_alloc();
	if (!w.buf)
		return -ENOMEM;
	ret = sw_registry_for_each(one, &w, first);
	sw_show_buf_free(w.buf);
	return ret;
}

static int sw_stats_show(struct seq_file *m)
{
	return sw_stats_walk_all(m, sw_stats_one, sw_stats_first);
}

static const struct sw_ctl_file sw_stats_file = {
	.show = sw_stats_show,
};

/* hists: the probes in the stats file's order, under the registry lock. */
static int sw_hists_one(struct sw_probe *p, void *arg)
{
	struct sw_stats_walk *w = arg;

	if (w->n++)
		seq_putc(w->m, '\n');
	sw_hist_sections(w->m, p, w->buf, true);
	return 0;
}

static int sw_hists_show(struct seq_file *m)
{
	return sw_stats_walk_all(m, sw_hists_one, NULL);
}

static const struct sw_ctl_file sw_hists_file = {
	.show = sw_hists_show,
};

/* lhists: the probes in the stats file's order, under the registry lock. */
static int sw_lhists_one(struct sw_probe *p, void *arg)
{
	struct sw_stats_walk *w = arg;

	if (w->n++)
		seq_putc(w->m, '\n');
	sw_lhist_section(w->m, p, w->buf);
	return 0;
}

static int sw_lhists_show(struct seq_file *m)
{
	return sw_stats_walk_all(m, sw_lhists_one, NULL);
}

static const struct sw_ctl_file sw_lhists_file = {
	.show = sw_lhists_show,
};

/* A user point's line also says where it is, as uprobe= takes it. */
static int sw_probes_one(struct sw_probe *p, void *arg)
{
	struct seq_file *m = arg;

	seq_puts(m, p->name);
	if (p->upath) {
		seq_puts(m, " uprobe=");
		seq_escape(m, p->upath, " \t\n\\");
		seq_printf(m, ":0x%llx", p->uoffset);
	}
	/* the id its trace records carry (struct sw_rec_call.id) */
	if (p->aggs.trace)
		seq_printf(m, " trace=%s id=%u",
			   p->aggs.trace & SW_TRACE_RET ? "ret" : "on",
			   p->aggs.path_id);
	seq_putc(m, '\n');
	return 0;
}

static int sw_probes_list(struct seq_file *m)
{
	return sw_registry_for_each(sw_probes_one, m, NULL);
}

static const struct sw_ctl_file sw_probes_file = {
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

static const struct sw_ctl_file sw_reset_file = {
	.apply = sw_reset_apply,
};

static int sw_breakdown_show_mode(struct seq_file *m)
{
	seq_printf(m, "%s\n", sw_breakdown_name(sw_breakdown_mode()));
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

static const struct sw_ctl_file sw_breakdown_file = {
	.show = sw_breakdown_show_mode,
	.apply = sw_breakdown_apply,
};

/* breakdown_stats: scratch made for the first probe with tables. */
struct sw_bd_walk {
	struct seq_file *m;
	void *rows;
	void *snap;
};

static void sw_bd_first(void *arg)
{
	struct sw_bd_walk *w = arg;

	seq_printf(w->m, "%-24s %-16s %10s %12s %12s %12s %12s %14s\n",
		   SW_COL_PROBE, sw_breakdown_name(sw_breakdown_mode()),
		   SW_COLS_TIMING);
}

static int sw_bd_one(struct sw_probe *p, void *arg)
{
	struct sw_bdgen *bd = rcu_dereference_protected(p->aggs.bd, 1);
	struct sw_bd_walk *w = arg;

	if (!bd || bd->by.own)	/* own by=: in the keys file only */
		return 0;
	if (!w->rows) {
		w->rows = sw_bd_rows_alloc(bd->nslots, &w->snap);
		if (!w->rows)
			return -ENOMEM;
	}
	sw_bdgen_show(w->m, p->name, bd, w->rows, w->snap);
	return 0;
}

static int sw_bdstats_show(struct seq_file *m)
{
	struct sw_bd_walk w = { .m = m };
	int ret;

	ret = sw_registry_for_each(sw_bd_one, &w, sw_bd_first);
	sw_bd_rows_free(w.rows, w.snap);
	return ret;
}

static const struct sw_ctl_file sw_bdstats_file = {
	.show = sw_bdstats_show,
};

/* keys: every probe with rows; the event set agrees with the header. */
struct sw_keys_walk {
	struct sw_bd_walk bd;
	const struct sw_evset *set;
};

static void sw_keys_first(void *arg)
{
	struct sw_keys_walk *w = arg;

	w->set = sw_pmu_set_locked();
	sw_keys_header(w->bd.m, w->set);
}

static int sw_keys_one(struct sw_probe *p, void *arg)
{
	struct sw_bdgen *bd = rcu_dereference_protected(p->aggs.bd, 1);
	struct sw_keys_walk *w = arg;

	if (!bd)
		return 0;
	if (!w->bd.rows) {
		w->bd.rows = sw_bd_rows_alloc(bd->nslots, &w->bd.snap);
		if (!w->bd.rows)
			return -ENOMEM;
	}
	sw_keys_show(w->bd.m, p->name, bd, w->set, w->bd.rows, w->bd.snap);
	return 0;
}

static int sw_keys_file_show(struct seq_file *m)
{
	struct sw_keys_walk w = { .bd.m = m };
	int ret;

	ret = sw_registry_for_each(sw_keys_one, &w, sw_keys_first);
	sw_bd_rows_free(w.bd.rows, w.bd.snap);
	return ret;
}

static const struct sw_ctl_file sw_keys_file = {
	.show = sw_keys_file_show,
};

/**
 * sw_probe_files_init() - add the registry's files.
 *
 * Context: process context (module init), after sw_registry_init().
 * Return: 0.
 */
int sw_probe_files_init(void)
{
	sw_files[0] = sw_debugfs_add_ctl(SW_FILE_STATS, 0400, NULL, &sw_stats_file);
	sw_files[1] = sw_debugfs_add_ctl(SW_FILE_PROBES, 0600, NULL, &sw_probes_file);
	sw_files[2] = sw_debugfs_add_ctl(SW_FILE_RESET, 0200, NULL, &sw_reset_file);
	sw_files[3] = sw_debugfs_add_ctl(SW_FILE_BREAKDOWN, 0600, NULL,
					 &sw_breakdown_file);
	sw_files[4] = sw_debugfs_add_ctl(SW_FILE_BREAKDOWN_STATS, 0400, NULL,
					 &sw_bdstats_file);
	sw_files[5] = sw_debugfs_add_ctl(SW_FILE_KEYS, 0400, NULL, &sw_keys_file);
	sw_files[6] = sw_debugfs_add_ctl(SW_FILE_HISTS, 0400, NULL, &sw_hists_file);
	sw_files[7] = sw_debugfs_add_ctl(SW_FILE_LHISTS, 0400, NULL,
					 &sw_lhists_file);
	return 0;
}

/**
 * sw_probe_files_exit() - remove them, waiting for their readers and
 * writers, so no control write races with the registry going away.
 *
 * Context: process context (module exit or failed init).
 */
void sw_probe_files_exit(void)
{
	int i;

	for (i = ARRAY_SIZE(sw_files) - 1; i >= 0; i--)
		sw_debugfs_remove(&sw_files[i]);
}
