// SPDX-License-Identifier: GPL-2.0
/*
 * timing.c - wall-time statistics and log-linear histograms (their log2
 * view and percentiles derived when read) of one probe's
 * calls, one generation at a time (see agg.h).  The exit half of the
 * measurement core writes them with sw_timing_record() (agg.h, inline).
 */
#include <linux/moduleparam.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "control/control.h"
#include "agg.h"

unsigned int sw_timing_bits = SW_LHIST_BITS_DEFAULT;

/*
 * hist_bits= is checked when given, so a bad value fails the load naming
 * it.  Context: process context (module load).
 */
static int sw_param_set_bits(const char *val, const struct kernel_param *kp)
{
	unsigned int v;

	if (kstrtouint(val, 0, &v) || v > SW_LHIST_BITS_MAX) {
		pr_err("stopwatch: hist_bits=%s is not a number from 0 to %d (sub-buckets per power of two: 2^hist_bits)\n",
		       val, SW_LHIST_BITS_MAX);
		return -EINVAL;
	}
	*(unsigned int *)kp->arg = v;
	return 0;
}

static const struct kernel_param_ops sw_bits_param_ops = {
	.set = sw_param_set_bits,
	.get = param_get_uint,
};
module_param_cb(hist_bits, &sw_bits_param_ops, &sw_timing_bits, 0400);
MODULE_PARM_DESC(hist_bits,
		 "Wall-time histograms split each power of two into 2^hist_bits buckets, 0 to 6 (default 4: percentiles within 6.25%); each costs (37 - hist_bits) * 2^hist_bits + 28 counts of 8 bytes per probe per CPU");

/* Bytes of one CPU's statistics with @bits sub-bucket bits. */
static size_t sw_pcpu_size(unsigned int bits)
{
	return sizeof(struct sw_pcpu) + sw_lhist_nbuckets(bits) * sizeof(u64);
}

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
	g->bits = sw_timing_bits;
	g->lz = 63 - g->bits;
	g->mask = (2ULL << g->bits) - 1;
	g->pcpu = __alloc_percpu(sw_pcpu_size(g->bits),
				 __alignof__(struct sw_pcpu));
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

/* Bytes of struct sw_timing's own part and its histogram. */
static size_t sw_timing_head(unsigned int bits)
{
	return ALIGN(sizeof(struct sw_timing) +
		     sw_lhist_nbuckets(bits) * sizeof(u64),
		     __alignof__(struct sw_pcpu));
}

/**
 * sw_timing_alloc() - room for reading any generation (sw_gen_read()).
 *
 * Context: process context; may sleep.
 * Return: the buffer, or NULL when out of memory.
 */
struct sw_timing *sw_timing_alloc(void)
{
	unsigned int bits = sw_timing_bits;
	struct sw_timing *t;

	t = kvmalloc(sw_timing_head(bits) + sw_pcpu_size(bits), GFP_KERNEL);
	if (!t)
		return NULL;
	t->bits = bits;
	t->snap = (void *)t + sw_timing_head(bits);
	return t;
}

/**
 * sw_timing_free() - free what sw_timing_alloc() made; NULL is accepted.
 * @t: the buffer
 */
void sw_timing_free(struct sw_timing *t)
{
	kvfree(t);
}

/**
 * sw_gen_read() - merge a generation's per-CPU statistics.
 * @g: the statistics (kept alive by the caller: RCU or the owner's lock)
 * @t: merged statistics, log-linear and log2 histograms, migration count
 *     and percentiles, output
 *
 * Context: process context; does not sleep (may run under rcu_read_lock()).
 */
void sw_gen_read(struct sw_gen *g, struct sw_timing *t)
{
	unsigned int nb = sw_lhist_nbuckets(g->bits), b, i;
	struct sw_pcpu *snap = t->snap;
	int cpu;

	sw_clock_check();
	/* Every generation is made with the one hist_bits of this load. */
	if (WARN_ON_ONCE(g->bits != t->bits))
		nb = 0;
	sw_stats_init(&t->st);
	memset(t->lin, 0, nb * sizeof(*t->lin));
	t->migrated = 0;
	for_each_possible_cpu(cpu) {
		struct sw_pcpu *pc = per_cpu_ptr(g->pcpu, cpu);
		unsigned int seq;

		if (!nb)
			break;
		do {
			seq = read_seqcount_begin(&pc->seq);
			snap->st = pc->st;
			snap->migrated = pc->migrated;
			memcpy(snap->lin, pc->lin, nb * sizeof(*snap->lin));
		} while (read_seqcount_retry(&pc->seq, seq));
		sw_stats_merge(&t->st, &snap->st);
		t->migrated += snap->migrated;
		for (b = 0; b < nb; b++)
			t->lin[b] += snap->lin[b];
	}
	if (nb)
		sw_lhist_to_log2(t->lin, t->bits, t->hist);
	else
		memset(t->hist, 0, sizeof(t->hist));
	for (i = 0; i < SW_PCT_NR; i++)
		t->pct[i] = nb ? sw_lhist_quantile(t->lin, t->bits,
						   sw_pct_parts[i],
						   t->st.min, t->st.max) : 0;
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

/**
 * sw_gen_lhist_show() - a fine wall-time histogram section: the title
 * (SW_LHIST_TITLE_FMT: @name, calls, sub-bucket bits, total) and a row per
 * non-empty bucket, all read in one pass over the CPUs (sw_gen_read()).
 * @m:    seq_file
 * @name: the probe's or span's name
 * @g:    its statistics (kept alive by the caller)
 * @tm:   scratch (sw_timing_alloc())
 *
 * Context: process context.
 */
void sw_gen_lhist_show(struct seq_file *m, const char *name, struct sw_gen *g,
		       struct sw_timing *tm)
{
	sw_gen_read(g, tm);
	seq_printf(m, SW_LHIST_TITLE_FMT, name, tm->st.count, tm->bits,
		   tm->st.sum);
	sw_lhist_print(tm->lin, tm->bits, sw_seq_emit, m);
}
