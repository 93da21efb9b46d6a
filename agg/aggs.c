// SPDX-License-Identifier: GPL-2.0
/*
 * aggs.c - a probe's set of aggregations (struct sw_aggs), made and freed
 * whole.
 */
#include "agg.h"

/**
 * sw_aggs_alloc() - fresh aggregations for one probe, all or nothing.
 * @a:       filled in (not yet visible to any handler)
 * @by:      what its rows are keyed by (by.k[0] SW_KEY_NONE: no rows)
 * @set:     event set the event statistics are for, NULL for none
 *
 * Context: process context; may sleep.
 * Return: 0 or -ENOMEM (nothing allocated).
 */
int sw_aggs_alloc(struct sw_aggs *a, struct sw_by by,
		  const struct sw_evset *set)
{
	struct sw_bdgen *bd = NULL;
	struct sw_evgen *evs = NULL;
	struct sw_cost_acc __percpu *cost;
	struct sw_gen *g;

	cost = alloc_percpu(struct sw_cost_acc);
	if (!cost)
		return -ENOMEM;
	g = sw_gen_alloc();
	if (!g)
		goto out_free_cost;
	if (by.k[0] != SW_KEY_NONE) {
		bd = sw_bdgen_alloc(by, set);
		if (!bd)
			goto out_free_gen;
	}
	if (set) {
		evs = sw_evgen_alloc(set);
		if (!evs)
			goto out_free_bd;
	}
	RCU_INIT_POINTER(a->gen, g);
	RCU_INIT_POINTER(a->bd, bd);
	RCU_INIT_POINTER(a->evs, evs);
	RCU_INIT_POINTER(a->cost, cost);
	return 0;

out_free_bd:
	sw_bdgen_free(bd);
out_free_gen:
	sw_gen_free(g);
out_free_cost:
	free_percpu(cost);
	return -ENOMEM;
}

/**
 * sw_aggs_free() - free a probe's aggregations.
 * @a: aggregations no handler can see any more
 *
 * Context: process context.
 */
void sw_aggs_free(struct sw_aggs *a)
{
	sw_gen_free(rcu_dereference_protected(a->gen, 1));
	sw_bdgen_free(rcu_dereference_protected(a->bd, 1));
	sw_evgen_free(rcu_dereference_protected(a->evs, 1));
	RCU_INIT_POINTER(a->gen, NULL);
	RCU_INIT_POINTER(a->bd, NULL);
	RCU_INIT_POINTER(a->evs, NULL);
	free_percpu(rcu_dereference_protected(a->cost, 1));
	RCU_INIT_POINTER(a->cost, NULL);
}
