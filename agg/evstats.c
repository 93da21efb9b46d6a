// SPDX-License-Identifier: GPL-2.0
/*
 * evstats.c - per-probe statistics of the virtualized event counts.
 *
 * Each probe has one generation of event statistics for the current event
 * set: per CPU, per event, the running statistics and log2 histogram of
 * the per-call counts and the number of calls left unmeasured; plus the
 * per-call cycles-per-instruction statistics when both cycles and
 * instructions are counted.  The return handler is the only writer of its
 * CPU's entry; readers merge the CPUs under each CPU's seqcount.
 */
#include <linux/seq_file.h>
#include <linux/slab.h>

#include <stopwatch/files.h>

#include "pmu/pmu.h"
#include "agg.h"

/**
 * sw_evgen_alloc() - empty event statistics for the events of @set.
 * @set: event set (not NULL)
 *
 * Context: process context; may sleep.
 * Return: the statistics, or NULL when out of memory.
 */
struct sw_evgen *sw_evgen_alloc(const struct sw_evset *set)
{
	struct sw_evgen *g;
	size_t size;
	u32 i;
	int cpu;

	g = kzalloc(sizeof(*g), GFP_KERNEL);
	if (!g)
		return NULL;
	g->set_id = set->id;
	g->n = set->n;
	g->cycles = set->cycles;
	g->instructions = set->instructions;
	if (set->cycles >= 0 && set->instructions >= 0)
		g->cpi_mask = 1U << set->cycles | 1U << set->instructions;
	for (i = 0; i < set->n; i++)
		strscpy(g->names[i], set->spec[i].name, SW_EVENT_NAME_LEN);
	size = struct_size((struct sw_evpcpu *)NULL, ev, set->n);
	g->pcpu = __alloc_percpu(size, __alignof__(struct sw_evpcpu));
	if (!g->pcpu) {
		kfree(g);
		return NULL;
	}
	for_each_possible_cpu(cpu) {
		struct sw_evpcpu *pc = per_cpu_ptr(g->pcpu, cpu);

		seqcount_init(&pc->seq);
		sw_stats_init(&pc->cpi);
		for (i = 0; i < set->n; i++)
			sw_stats_init(&pc->ev[i].st);
	}
	return g;
}

/**
 * sw_evgen_free() - free event statistics; NULL is accepted.
 * @g: statistics no handler can see any more (after an RCU grace period)
 *
 * Context: process context.
 */
void sw_evgen_free(struct sw_evgen *g)
{
	if (!g)
		return;
	free_percpu(g->pcpu);
	kfree(g);
}

/**
 * sw_evgen_read() - merge a probe's event statistics over all CPUs.
 * @g: the statistics (kept alive by the caller: RCU or the owner's lock)
 * @r: merged result
 *
 * Context: process context, inside rcu_read_lock() when @g is only kept
 * alive by RCU: does not sleep.
 * Return: 0.
 */
int sw_evgen_read(struct sw_evgen *g, struct sw_evread *r)
{
	u32 i, b;
	int cpu;

	memset(r, 0, sizeof(*r));
	r->n = g->n;
	r->cycles = g->cycles;
	r->instructions = g->instructions;
	memcpy(r->names, g->names, sizeof(r->names));
	sw_stats_init(&r->cpi);
	for (i = 0; i < g->n; i++)
		sw_stats_init(&r->ev[i].st);

	for_each_possible_cpu(cpu) {
		struct sw_evpcpu *pc = per_cpu_ptr(g->pcpu, cpu);
		struct sw_stats cpi, st;
		u64 unmeasured;
		unsigned int seq;

		do {
			seq = read_seqcount_begin(&pc->seq);
			cpi = pc->cpi;
		} while (read_seqcount_retry(&pc->seq, seq));
		sw_stats_merge(&r->cpi, &cpi);

		for (i = 0; i < g->n; i++) {
			struct sw_evstat *es = &pc->ev[i];
			u64 hist[SW_HIST_BUCKETS];

			do {
				seq = read_seqcount_begin(&pc->seq);
				st = es->st;
				unmeasured = es->unmeasured;
				memcpy(hist, es->hist, sizeof(hist));
			} while (read_seqcount_retry(&pc->seq, seq));
			sw_stats_merge(&r->ev[i].st, &st);
			r->ev[i].unmeasured += unmeasured;
			for (b = 0; b < SW_HIST_BUCKETS; b++)
				r->ev[i].hist[b] += hist[b];
		}
	}
	return 0;
}

/* One column header "<event>_<what>", right-aligned like the values. */
static void sw_ev_col(struct seq_file *m, const char *ev, const char *what)
{
	char name[SW_EVENT_NAME_LEN + 16];

	snprintf(name, sizeof(name), "%s%s", ev, what);
	seq_printf(m, " %14s", name);
}

/* CPI x SW_CPI_SCALE as a decimal with three places. */
static void sw_cpi_col(struct seq_file *m, u64 v)
{
	seq_printf(m, " %10llu.%03llu", v / SW_CPI_SCALE, v % SW_CPI_SCALE);
}

/**
 * sw_evgen_header() - the event columns' headers: per event of @set min,
 * avg, max and unmeasured calls; with cycles and instructions, per-call
 * CPI min, avg, max.  Nothing when @set is NULL.
 * @m:   seq_file
 * @set: the current event set, or NULL
 *
 * Context: process context (a stats file's show; probes' and spans').
 */
void sw_evgen_header(struct seq_file *m, const struct sw_evset *set)
{
	u32 i;

	for (i = 0; set && i < set->n; i++) {
		static const char *const what[] = { SW_COLS_EVENT };
		u32 k;

		for (k = 0; k < ARRAY_SIZE(what); k++)
			sw_ev_col(m, set->spec[i].name, what[k]);
	}
	if (set && set->cycles >= 0 && set->instructions >= 0)
		seq_printf(m, " %14s %14s %14s", SW_COLS_CPI);
}

/**
 * sw_evgen_cols() - one row's event columns, under sw_evgen_header()'s.
 * @m: seq_file
 * @g: the row's event statistics, of the set given to the header
 * @r: scratch
 *
 * Context: process context.
 */
void sw_evgen_cols(struct seq_file *m, struct sw_evgen *g, struct sw_evread *r)
{
	u32 i;

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
