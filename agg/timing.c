// SPDX-License-Identifier: GPL-2.0
/*
 * timing.c - wall-time statistics and log2 histograms of one probe's
 * calls, one generation at a time (see agg.h).  The exit half of the
 * measurement core writes them with sw_timing_record() (agg.h, inline).
 */
#include <linux/slab.h>

#include "agg.h"

/**
 * sw_gen_alloc() - empty wall-time statistics for every CPU.
 *
 * Context: process context; may sleep.
 * Return: the generation, or NULL when out of memory.
 */
struct sw_gen *sw_gen_alloc(void)
{
	struct sw_gen *g;
	int cpu;

	g = kzalloc(sizeof(*g), GFP_KERNEL);
	if (!g)
		return NULL;
	g->pcpu = alloc_percpu(struct sw_pcpu);
	if (!g->pcpu) {
		kfree(g);
		return NULL;
	}
	for_each_possible_cpu(cpu) {
		struct sw_pcpu *pc = per_cpu_ptr(g->pcpu, cpu);

		seqcount_init(&pc->seq);
		sw_stats_init(&pc->st);
	}
	return g;
}

/**
 * sw_gen_free() - free a generation; NULL is accepted.
 * @g: statistics no handler can see any more (after an RCU grace period)
 *
 * Context: process context.
 */
void sw_gen_free(struct sw_gen *g)
{
	if (!g)
		return;
	free_percpu(g->pcpu);
	kfree(g);
}

/**
 * sw_gen_read() - merge a generation's per-CPU statistics.
 * @g:        the statistics (kept alive by the caller: RCU or the owner's
 *            lock)
 * @snap:     scratch for one CPU's copy
 * @st:       merged statistics, output
 * @hist:     merged histogram (SW_HIST_BUCKETS entries), output
 * @migrated: merged migration count, output
 *
 * Context: process context; does not sleep (may run under rcu_read_lock()).
 */
void sw_gen_read(struct sw_gen *g, struct sw_pcpu *snap, struct sw_stats *st,
		 u64 *hist, u64 *migrated)
{
	int cpu, b;

	sw_clock_check();
	sw_stats_init(st);
	memset(hist, 0, SW_HIST_BUCKETS * sizeof(*hist));
	*migrated = 0;
	for_each_possible_cpu(cpu) {
		struct sw_pcpu *pc = per_cpu_ptr(g->pcpu, cpu);
		unsigned int seq;

		do {
			seq = read_seqcount_begin(&pc->seq);
			snap->st = pc->st;
			snap->migrated = pc->migrated;
			memcpy(snap->hist, pc->hist, sizeof(snap->hist));
		} while (read_seqcount_retry(&pc->seq, seq));
		sw_stats_merge(st, &snap->st);
		*migrated += snap->migrated;
		for (b = 0; b < SW_HIST_BUCKETS; b++)
			hist[b] += snap->hist[b];
	}
}

/**
 * sw_gen_filtered() - a generation's calls left out by filters, summed
 * over all CPUs.
 * @g:        the statistics (kept alive by the caller)
 * @filtered: output, indexed by enum sw_filtered
 *
 * Context: process context; does not sleep.
 */
void sw_gen_filtered(struct sw_gen *g, u64 filtered[3])
{
	int cpu, i;

	filtered[0] = filtered[1] = filtered[2] = 0;
	for_each_possible_cpu(cpu) {
		struct sw_pcpu *pc = per_cpu_ptr(g->pcpu, cpu);

		for (i = 0; i < 3; i++)
			filtered[i] += READ_ONCE(pc->filtered[i]);
	}
}
