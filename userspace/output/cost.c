// SPDX-License-Identifier: GPL-2.0
/*
 * cost.c - what stopwatch cost the machine while a command ran.
 *
 * The overhead file's totals are estimates from sampled handler runs
 * (two runs per measured call: entry and exit), with the kretprobe's
 * fixed cost per call where it was measured at load; the share is of the
 * online CPUs over the wall-clock time between the two reads.
 */
#include "output/cost.h"

struct sw_cost_fig {
	double seconds, share, calls, per_call;
	unsigned long long ns;
};

static bool sw_cost_figures(const struct sw_overhead *a,
			    const struct sw_overhead *b, struct sw_cost_fig *c)
{
	unsigned long long runs;

	if (!a->have || !b->have || b->total_ns < a->total_ns ||
	    b->total_runs < a->total_runs || !b->ncpus)
		return false;
	c->ns = b->total_ns - a->total_ns;
	runs = b->total_runs - a->total_runs;
	c->seconds = b->at - a->at;
	c->share = c->seconds > 0 ?
		100.0 * c->ns / (c->seconds * 1e9 * b->ncpus) : 0;
	c->calls = runs / 2.0;
	c->per_call = c->calls > 0 ? c->ns / c->calls : 0;
	return true;
}

void sw_cost_fprint(FILE *f, const struct sw_overhead *a,
		    const struct sw_overhead *b)
{
	static const char *const si[] = { "", " k", " M", " G", " T" };
	struct sw_cost_fig c;
	double calls;
	int k = 0;

	if (!sw_cost_figures(a, b, &c))
		return;
	for (calls = c.calls; calls >= 1000 && k < 4; k++)
		calls /= 1000;
	fprintf(f,
		"stopwatch cost %.3f%% of %u CPU%s over %.1f s: %.*f%s calls x %.0f ns\n",
		c.share, b->ncpus, b->ncpus == 1 ? "" : "s", c.seconds,
		k ? 1 : 0, calls, si[k], c.per_call);
}

void sw_cost_json(FILE *f, const struct sw_overhead *a,
		  const struct sw_overhead *b)
{
	struct sw_cost_fig c;

	if (!sw_cost_figures(a, b, &c))
		return;
	fprintf(f,
		",\"stopwatch_cost\":{\"share_pct\":%.4f,\"cpus\":%u,\"seconds\":%.3f,\"calls\":%.0f,\"ns_per_call\":%.1f,\"ns\":%llu}",
		c.share, b->ncpus, c.seconds, c.calls, c.per_call, c.ns);
}
