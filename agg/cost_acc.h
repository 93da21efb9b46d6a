/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cost_acc.h - what a probe's own handlers cost: per CPU, the nanoseconds of
 * its sampled handler runs and how many were sampled, entry and exit
 * apart (core/cost.h samples them; probe/show.c reads them).  Made with
 * the probe's aggregations and replaced with its other statistics by a
 * reset (struct sw_aggs: read under RCU-sched).
 */
#ifndef _STOPWATCH_AGG_COST_ACC_H
#define _STOPWATCH_AGG_COST_ACC_H

#include <linux/percpu.h>
#include <linux/types.h>

/* Which half of a call a handler run was. */
enum sw_cost_half {
	SW_COST_ENTRY,
	SW_COST_EXIT,
	SW_COST_HALVES,
};

/**
 * struct sw_cost_acc - one CPU's sampled handler runs of one probe.
 * @ns: their nanoseconds, by half
 * @n:  how many, by half
 *
 * Written by the handlers of its CPU only (an NMI's handler run nested in
 * a sampled one on the same CPU can lose an update: the sample is an
 * estimate), read racily by the stats file.
 */
struct sw_cost_acc {
	u64 ns[SW_COST_HALVES];
	u64 n[SW_COST_HALVES];
};

/**
 * sw_cost_acc_mean() - a probe's mean handler nanoseconds per call: the
 * entry half's mean plus the exit half's, over all CPUs.
 * @acc: the probe's accumulators (NULL: none, 0)
 * @samples: set to the sampled runs of both halves
 *
 * A half with no sampled run adds nothing.
 * Context: any (racy reads of other CPUs' sums).
 */
static inline u64 sw_cost_acc_mean(struct sw_cost_acc __percpu *acc,
				   u64 *samples)
{
	u64 ns[SW_COST_HALVES] = { 0 }, n[SW_COST_HALVES] = { 0 }, mean = 0;
	int cpu, h;

	*samples = 0;
	if (!acc)
		return 0;
	for_each_possible_cpu(cpu) {
		struct sw_cost_acc *a = per_cpu_ptr(acc, cpu);

		for (h = 0; h < SW_COST_HALVES; h++) {
			ns[h] += READ_ONCE(a->ns[h]);
			n[h] += READ_ONCE(a->n[h]);
		}
	}
	for (h = 0; h < SW_COST_HALVES; h++) {
		if (n[h])
			mean += div64_u64(ns[h], n[h]);
		*samples += n[h];
	}
	return mean;
}

#endif /* _STOPWATCH_AGG_COST_ACC_H */
