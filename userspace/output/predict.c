// SPDX-License-Identifier: GPL-2.0
/*
 * predict.c - the predicted cost of timing a set of functions, from a
 * counting pass's stats (predict.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/table.h"
#include "output/predict.h"
#include "stopwatch/files.h"

/* The u64 at @row's column @col of @t, into @v. */
static int sw_predict_u64(const struct sw_table *t, size_t row, int col,
			  uint64_t *v, struct sw_err *err)
{
	if (sw_parse_u64(sw_table_at(t, row, col), v))
		return sw_err_set(err, -EINVAL, "stats: line %zu: %s: not a number: '%s'",
				  t->line[row], t->col[col],
				  sw_table_at(t, row, col));
	return 0;
}

/* Fills @p's rows from @t: calls, cost_ns, whether calibrated. */
static int sw_predict_rows(const struct sw_table *t, char *const *ids,
			   char *const *names, struct sw_predict *p,
			   struct sw_err *err)
{
	int cp = sw_table_col(t, SW_COL_PROBE), cc = sw_table_col(t, SW_COL_CALLS);
	int cn = sw_table_col(t, SW_COL_COST_NS);
	int cf = sw_table_col(t, SW_COL_COST_FIXED_NS);
	static const char *const filt[] = { SW_COL_FILTERED,
					    SW_COL_FILTERED_SHORT,
					    SW_COL_FILTERED_LONG };
	uint64_t ns, fixed, v;
	size_t i, r, k;
	int ret, cx;

	if (cp < 0 || cc < 0 || cn < 0 || cf < 0)
		return sw_err_set(err, -EINVAL,
				  "stats: no %s, %s, %s or %s column (a stopwatch.ko older than 1.7 reports no cost)",
				  SW_COL_PROBE, SW_COL_CALLS, SW_COL_COST_NS,
				  SW_COL_COST_FIXED_NS);
	for (i = 0; i < p->n; i++) {
		for (r = 0; r < t->nrows &&
			    strcmp(sw_table_at(t, r, cp), ids[i]); r++)
			;
		if (r == t->nrows)
			return sw_err_set(err, -ENOENT,
					  "stats: no row for %s (removed by another user?)",
					  ids[i]);
		p->row[i].name = names[i];
		ret = sw_predict_u64(t, r, cc, &p->row[i].calls, err);
		if (!ret)
			ret = sw_predict_u64(t, r, cn, &ns, err);
		if (!ret)
			ret = sw_predict_u64(t, r, cf, &fixed, err);
		if (ret)
			return ret;
		/* A call a filter left out ran the handlers too. */
		for (k = 0; k < sizeof(filt) / sizeof(filt[0]); k++) {
			cx = sw_table_col(t, filt[k]);
			if (cx < 0)
				continue;
			ret = sw_predict_u64(t, r, cx, &v, err);
			if (ret)
				return ret;
			p->row[i].calls += v;
		}
		p->row[i].ns = (double)ns;
		p->row[i].uncal = !fixed;
	}
	return 0;
}

int sw_predict_compute(const char *stats, char *const *ids,
		       char *const *names, size_t n, double seconds,
		       unsigned int ncpus, struct sw_predict *p,
		       struct sw_err *err)
{
	struct sw_table *t = NULL;
	double mean_ns = 0, cost = 0;
	uint64_t mean_calls = 0;
	size_t i;
	int ret;

	memset(p, 0, sizeof(*p));
	if (!(seconds > 0) || !ncpus)
		return sw_err_set(err, -EINVAL,
				  "no counting pass to predict from (%.3f s on %u CPUs)",
				  seconds, ncpus);
	p->row = calloc(n ? n : 1, sizeof(*p->row));
	if (!p->row)
		return -ENOMEM;
	p->n = n;
	p->seconds = seconds;
	p->ncpus = ncpus;
	ret = sw_table_parse(stats, SW_FILE_STATS, &t, err);
	if (!ret)
		ret = sw_predict_rows(t, ids, names, p, err);
	sw_table_free(t);
	if (ret) {
		sw_predict_free(p);
		return ret;
	}
	/* The functions whose handlers were timed: their mean, by calls. */
	for (i = 0; i < n; i++)
		if (p->row[i].ns > 0) {
			mean_ns += p->row[i].ns * p->row[i].calls;
			mean_calls += p->row[i].calls;
		}
	mean_ns = mean_calls ? mean_ns / mean_calls : 0;
	for (i = 0; i < n; i++) {
		struct sw_predict_row *w = &p->row[i];

		w->rate = w->calls / seconds;
		if (!(w->ns > 0) && w->calls) {
			w->ns = mean_ns;
			w->borrowed = true;
			if (!(mean_ns > 0))
				p->unknown++;
		}
		w->share = 100.0 * w->rate * w->ns / (1e9 * ncpus);
		p->rate += w->rate;
		cost += w->rate * w->ns;
		p->share += w->share;
		if (w->uncal && w->calls)
			p->uncal++;
	}
	p->ns = p->rate > 0 ? cost / p->rate : mean_ns;
	return 0;
}

void sw_predict_free(struct sw_predict *p)
{
	free(p->row);
	p->row = NULL;
	p->n = 0;
}

/* @v with a k/M/G suffix, in a field of @w. */
static void sw_predict_si(FILE *f, int w, double v)
{
	static const char *const si[] = { "", "k", "M", "G", "T" };
	int k = 0;

	while (v >= 1000 && k < 4) {
		v /= 1000;
		k++;
	}
	fprintf(f, "%*.*f%s%s", w - (k ? 2 : 0), k ? 1 : 0, v, k ? " " : "",
		si[k]);
}

static const char *sw_predict_mark(const struct sw_predict_row *w)
{
	if (w->borrowed && !(w->ns > 0))
		return " ?";
	if (w->uncal && w->calls)
		return " >=";
	if (w->borrowed)
		return " ~";
	return "";
}

void sw_predict_fprint(FILE *f, const struct sw_predict *p)
{
	size_t i, borrowed = 0;

	fprintf(f, "%-32s %12s %10s %10s\n", "FUNCTION", "CALLS/S", "NS/CALL",
		"OVERHEAD");
	for (i = 0; i < p->n; i++) {
		const struct sw_predict_row *w = &p->row[i];

		fprintf(f, "%-32s ", w->name);
		sw_predict_si(f, 12, w->rate);
		fprintf(f, " %10.0f %9.3f%%%s\n", w->ns, w->share,
			sw_predict_mark(w));
		borrowed += w->borrowed && w->ns > 0;
	}
	fprintf(f, "%-32s ", "total");
	sw_predict_si(f, 12, p->rate);
	fprintf(f, " %10.0f %9.3f%% of %u CPU%s\n", p->ns, p->share, p->ncpus,
		p->ncpus == 1 ? "" : "s");
	if (borrowed)
		fprintf(f,
			"~: none of its handler runs was timed in the counting pass (one in 64 is): the others' mean cost per call\n");
	if (p->unknown)
		fprintf(f,
			"?: %zu function%s called, but no handler run of any function was timed (cost_sample=0, or too few calls): not in the total\n",
			p->unknown, p->unknown == 1 ? "" : "s");
	if (p->uncal)
		fprintf(f,
			">=: the mechanism's fixed cost per call was not calibrated at load (calibrate=0, or a trampoline or uprobe): a lower bound\n");
	fprintf(f, "stopwatch predict %.3f%% of %u CPU%s: %.0f calls/s x %.0f ns over a %.2f s count%s\n",
		p->share, p->ncpus, p->ncpus == 1 ? "" : "s", p->rate, p->ns,
		p->seconds,
		p->unknown ? " (unknown: no handler run timed)" :
		p->uncal ? " (lower bound: not calibrated)" : "");
}
