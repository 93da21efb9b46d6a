// SPDX-License-Identifier: GPL-2.0
/*
 * time-report.c - the output of "stopwatch time".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "stopwatch/files.h"
#include "control/debugfs.h"
#include "control/pmu-events.h"
#include "base/json.h"
#include "output/correct.h"
#include "output/cost.h"
#include "control/probe-spec.h"
#include "output/stat-display.h"
#include "output/time-report.h"

#define SW_BAR 40

int sw_time_report_init(struct sw_time_report *r, const char *dir,
			const struct sw_expansion *e, char **ids,
			const char *tag, const char *unit)
{
	(void)dir;
	r->ids = ids;
	r->names = e->name;
	r->n = e->n;
	r->exp = e;
	r->tag = tag;
	r->unit = unit;
	return sw_parse_unit(unit, &r->div);
}

void sw_time_report_free(struct sw_time_report *r)
{
	sw_snapshot_free(r->snap);
	sw_snapshot_free(r->prev);
	sw_table_free(r->keys);
	r->snap = r->prev = NULL;
	r->keys = NULL;
	free(r->window);
	r->window = NULL;
	sw_correct_names_free(r->marked, r->n);
	r->marked = NULL;
}

static int sw_load(const struct sw_time_report *r, const char *dir,
		   bool hist, struct sw_snapshot **s)
{
	struct sw_snapshot_opts so = { 0 };
	struct sw_err err = { "" };
	int ret;

	so.filter = (const char *const *)r->ids;
	so.nfilter = r->n;
	so.hist = hist;
	ret = sw_snapshot_load(dir, &so, s, &err);
	if (ret)
		fprintf(stderr, "stopwatch time: %s\n", err.msg);
	return ret;
}

int sw_time_report_load(struct sw_time_report *r, const char *dir)
{
	struct sw_err err = { "" };
	char *text = NULL;
	int ret;

	ret = sw_load(r, dir, r->hist, &r->snap);
	if (ret || !r->by)
		return ret;
	ret = sw_debugfs_read(dir, "keys", &text, NULL, &err);
	if (!ret)
		ret = sw_table_parse(text, "keys", &r->keys, &err);
	if (ret)
		fprintf(stderr,
			"stopwatch time: --by: cannot read the keyed rows: %s\n",
			err.msg);
	free(text);
	return ret;
}

/* @v nanoseconds in the report's unit. */
static void sw_put_dur(FILE *f, const struct sw_time_report *r, int width,
		       uint64_t v)
{
	if (r->div == 1)
		fprintf(f, "%*" PRIu64, width, v);
	else
		fprintf(f, "%*.*f", width, r->div >= 1000000000 ? 6 : 3,
			(double)v / (double)r->div);
}

static uint64_t sw_get(const struct sw_snapshot *s,
		       const struct sw_probe_stat *p, const char *col,
		       bool *have)
{
	int c = p ? sw_snapshot_col(s, col) : -1;

	if (have)
		*have = c >= 0;
	return c >= 0 ? p->val[c] : 0;
}

static const char *const sw_dur_cols[] = { SW_COL_MIN_NS, SW_COL_AVG_NS,
					   SW_COL_MAX_NS, SW_COL_STDDEV_NS,
					   SW_COL_TOTAL_NS };
static const char *const sw_dur_heads[] = { "MIN", "AVG", "MAX", "STDDEV",
					    "TOTAL" };
/* The percentiles: -P's columns, -v's and JSON's always when read. */
static const char *const sw_pct_cols[] = { SW_COLS_PCT };
static const char *const sw_pct_heads[] = { "P50", "P90", "P99", "P99.9" };
static const char *const sw_pct_keys[] = { "p50", "p90", "p99", "p99.9" };
static const char *const sw_filt_cols[] = { SW_COL_FILTERED,
					    SW_COL_FILTERED_SHORT,
					    SW_COL_FILTERED_LONG };
static const char *const sw_filt_heads[] = { "FILTERED", "SHORT", "LONG" };

/* The event columns shown: E_avg of each -e event the stats file has. */
static size_t sw_event_cols(const struct sw_time_report *r,
			    const struct sw_snapshot *s, int *cols,
			    size_t max)
{
	char *list, *tok, *save = NULL, name[96];
	size_t n = 0;
	int c;

	if (!r->events)
		return 0;
	/* ALIAS=TYPE:CONFIG shows as ALIAS, instructions:u as instructions_u */
	list = sw_event_list_names(r->events);
	if (!list)
		return 0;
	for (tok = strtok_r(list, ",", &save); tok && n < max;
	     tok = strtok_r(NULL, ",", &save)) {
		snprintf(name, sizeof(name), "%s" SW_COL_EV_AVG, tok);
		c = sw_snapshot_col(s, name);
		if (c >= 0)
			cols[n++] = c;
	}
	free(list);
	return n;
}

static void sw_print_hist(FILE *f, const struct sw_time_report *r,
			  const char *name, const struct sw_hist *h)
{
	uint64_t max = 0, lo, hi;
	int b, first = -1, last = -1, i;

	for (b = 0; b < SW_HIST_BUCKETS; b++)
		if (h->bucket[b]) {
			if (first < 0)
				first = b;
			last = b;
			if (h->bucket[b] > max)
				max = h->bucket[b];
		}
	fprintf(f, "\n%s: %" PRIu64 " call%s, %s\n", name, h->calls,
		h->calls == 1 ? "" : "s", r->unit);
	if (first < 0)
		return;
	fprintf(f, "%25s : %-10s distribution\n", r->unit, "count");
	for (b = first; b <= last; b++) {
		int bar = (int)((h->bucket[b] * SW_BAR + max - 1) / max);

		lo = sw_hist_low(b);
		hi = b + 1 < SW_HIST_BUCKETS ? sw_hist_low(b + 1) : UINT64_MAX;
		sw_put_dur(f, r, 11, lo);
		fputs(" -> ", f);
		sw_put_dur(f, r, 10, hi);
		fprintf(f, " : %-10" PRIu64 " |", h->bucket[b]);
		for (i = 0; i < SW_BAR; i++)
			fputc(i < bar && h->bucket[b] ? '*' : ' ', f);
		fputs("|\n", f);
	}
}

static void sw_print_keys_text(FILE *f, const struct sw_time_report *r)
{
	const struct sw_table *t = r->keys;
	int cp = sw_table_col(t, SW_COL_PROBE), ck = sw_table_col(t, SW_COL_KEY);
	int cc = sw_table_col(t, SW_COL_CALLS), cd[5];
	size_t i, j, k;
	uint64_t v;

	if (cp < 0 || ck < 0 || cc < 0)
		return;
	for (k = 0; k < 5; k++)
		cd[k] = sw_table_col(t, sw_dur_cols[k]);
	fprintf(f, "\n%-28s %-20s %10s", "FUNCTION", "KEY", "CALLS");
	for (k = 0; k < 5; k++)
		if (cd[k] >= 0)
			fprintf(f, " %12s", sw_dur_heads[k]);
	fputc('\n', f);
	for (j = 0; j < r->n; j++)
		for (i = 0; i < t->nrows; i++) {
			if (strcmp(sw_table_at(t, i, cp), r->ids[j]))
				continue;
			fprintf(f, "%-28s %-20s %10s", r->names[j],
				sw_table_at(t, i, ck), sw_table_at(t, i, cc));
			for (k = 0; k < 5; k++) {
				if (cd[k] < 0)
					continue;
				fputc(' ', f);
				if (sw_parse_u64(sw_table_at(t, i, cd[k]), &v))
					fprintf(f, "%12s",
						sw_table_at(t, i, cd[k]));
				else
					sw_put_dur(f, r, 12, v);
			}
			fputc('\n', f);
		}
}

static void sw_json_dur(FILE *f, const struct sw_time_report *r, uint64_t v)
{
	if (r->div == 1)
		sw_json_u64(f, v);
	else
		fprintf(f, "%.*f", r->div >= 1000000000 ? 9 : 6,
			(double)v / (double)r->div);
}

static void sw_print_keys_json(FILE *f, const struct sw_time_report *r,
			       size_t j)
{
	const struct sw_table *t = r->keys;
	int cp = sw_table_col(t, SW_COL_PROBE), ck = sw_table_col(t, SW_COL_KEY);
	size_t i, c;
	bool first = true;
	char *key;
	uint64_t v;

	fputs(",\"keys\":[", f);
	for (i = 0; cp >= 0 && ck >= 0 && i < t->nrows; i++) {
		if (strcmp(sw_table_at(t, i, cp), r->ids[j]))
			continue;
		fputs(first ? "{" : ",{", f);
		first = false;
		/* The real comm: the file escapes blanks as \ooo. */
		key = sw_unescape_octal(sw_table_at(t, i, ck));
		sw_json_key(f, "key");
		sw_json_str(f, key ? key : sw_table_at(t, i, ck));
		free(key);
		for (c = 0; c < t->ncols; c++) {
			const char *col = t->col[c];
			size_t l = strlen(col);

			if ((int)c == cp || (int)c == ck)
				continue;
			fputc(',', f);
			if (l > 3 && !strcmp(col + l - 3, "_ns") &&
			    !sw_parse_u64(sw_table_at(t, i, c), &v)) {
				char name[64];

				snprintf(name, sizeof(name), "%.*s", (int)(l - 3),
					 col);
				sw_json_key(f, name);
				sw_json_dur(f, r, v);
			} else {
				sw_json_key(f, col);
				if (!sw_parse_u64(sw_table_at(t, i, c), &v))
					sw_json_u64(f, v);
				else
					sw_json_str(f, sw_table_at(t, i, c));
			}
		}
		fputc('}', f);
	}
	fputc(']', f);
}

static void sw_print_json_report(FILE *f, const struct sw_time_report *r,
				 const struct sw_snapshot *s)
{
	const struct sw_probe_stat *p;
	const struct sw_hist *h;
	uint64_t v;
	size_t j, k;
	bool have;
	int b, ev[8];
	size_t nev = sw_event_cols(r, s, ev, 8);

	fputs("{\"unit\":", f);
	sw_json_str(f, r->unit);
	fputs(",\"tag\":", f);
	if (r->tag)
		sw_json_str(f, r->tag);
	else
		fputs("null", f);
	fprintf(f, ",\"elapsed_s\":%.3f", r->elapsed);
	if (r->final)
		sw_cost_json(f, &r->cost0, &r->cost1);
	fputs(",\"functions\":[", f);
	for (j = 0; j < r->n; j++) {
		p = sw_snapshot_probe(s, r->ids[j]);
		fputs(j ? ",{" : "{", f);
		sw_json_key(f, "function");
		sw_json_str(f, r->names[j]);
		fputc(',', f);
		sw_json_key(f, "probe");
		sw_json_str(f, r->ids[j]);
		fputc(',', f);
		sw_json_key(f, "calls");
		sw_json_u64(f, sw_get(s, p, SW_COL_CALLS, NULL));
		for (k = 0; k < 5; k++) {
			v = sw_get(s, p, sw_dur_cols[k], &have);
			if (!have)
				continue;
			fputc(',', f);
			fprintf(f, "\"%.*s\":", (int)strcspn(sw_dur_cols[k], "_"),
				sw_dur_cols[k]);
			sw_json_dur(f, r, v);
		}
		for (k = 0; k < 4; k++) {
			v = sw_get(s, p, sw_pct_cols[k], &have);
			if (!have)
				continue;
			fputc(',', f);
			sw_json_key(f, sw_pct_keys[k]);
			sw_json_dur(f, r, v);
		}
		for (k = 0; k < 3; k++) {
			v = sw_get(s, p, sw_filt_cols[k], &have);
			if (!have)
				continue;
			fputc(',', f);
			sw_json_key(f, sw_filt_cols[k]);
			sw_json_u64(f, v);
		}
		v = sw_get(s, p, SW_COL_MISSED, &have);
		if (have) {
			fputc(',', f);
			sw_json_key(f, "missed");
			sw_json_u64(f, v);
		}
		if (r->window) {
			/* min, avg and the percentiles above less window_ns */
			fputs(",\"corrected\":", f);
			fputs(r->window[j] ? "true" : "false", f);
			fputs(",\"window_ns\":", f);
			sw_json_u64(f, r->window[j]);
		}
		for (k = 0; p && k < nev; k++) {
			fputc(',', f);
			sw_json_key(f, s->col[ev[k]]);
			sw_json_u64(f, p->val[ev[k]]);
		}
		h = p && p->hist ? sw_hist_find(p->hist, "ns") : NULL;
		if (r->hist && h) {
			fputs(",\"hist\":[", f);
			for (b = 0, k = 0; b < SW_HIST_BUCKETS; b++) {
				if (!h->bucket[b])
					continue;
				fputs(k++ ? ",{\"low\":" : "{\"low\":", f);
				sw_json_dur(f, r, sw_hist_low(b));
				fputs(",\"count\":", f);
				sw_json_u64(f, h->bucket[b]);
				fputc('}', f);
			}
			fputc(']', f);
		}
		if (r->keys)
			sw_print_keys_json(f, r, j);
		fputc('}', f);
	}
	fputs("],\"skipped\":[", f);
	for (j = 0; r->exp && j < r->exp->nskipped; j++) {
		if (j)
			fputc(',', f);
		sw_json_str(f, r->exp->skipped[j]);
	}
	fputs("]}\n", f);
}

/* The human default: the table of stat's default, histograms, keyed rows. */
/* What follows the table in both forms: the histograms, the keyed rows. */
static int sw_print_hists_keys(FILE *f, const struct sw_time_report *r,
			       const struct sw_snapshot *s)
{
	const struct sw_probe_stat *p;
	const struct sw_hist *h;
	size_t j;

	for (j = 0; r->hist && j < r->n; j++) {
		p = sw_snapshot_probe(s, r->ids[j]);
		h = p && p->hist ? sw_hist_find(p->hist, "ns") : NULL;
		if (h && h->calls)
			sw_print_hist(f, r, r->names[j], h);
	}
	if (r->keys)
		sw_print_keys_text(f, r);
	return ferror(f) ? -EIO : 0;
}

static int sw_time_report_human(FILE *f, const struct sw_time_report *r,
				const struct sw_snapshot *s)
{
	struct sw_human_rows hr = {
		.ids = (const char *const *)r->ids,
		.names = (const char *const *)(r->marked ? r->marked : r->names),
		.n = r->n,
		.head = "function",
		.div = r->fixed_unit ? r->div : 0,
		.unit = r->unit,
		.brief_events = true,
		.percentiles = r->pct,
	};
	const struct sw_probe_stat *p;
	struct sw_htable t;
	size_t j;
	int ret;

	fprintf(f, "# %zu function%s, %.3f s%s%s\n", r->n, r->n == 1 ? "" : "s",
		r->elapsed, r->tag ? ", probes tagged " : "",
		r->tag ? r->tag : "");
	ret = sw_human_build(&t, s, &hr);
	if (!ret)
		ret = sw_htable_print(f, &t);
	sw_htable_free(&t);
	if (ret)
		return ret;
	if (r->window)
		sw_correct_fprint(f, r->names, r->window, r->n);
	/* The table flags what was missed; a report in a file is not seen. */
	for (j = 0; f != stdout && j < r->n; j++) {
		int c = sw_snapshot_col(s, SW_COL_MISSED);

		p = sw_snapshot_probe(s, r->ids[j]);
		if (p && c >= 0 && p->val[c])
			fprintf(stderr,
				"stopwatch time: %s: %llu call%s missed (not measured)\n",
				r->names[j], (unsigned long long)p->val[c],
				p->val[c] == 1 ? "" : "s");
	}
	return sw_print_hists_keys(f, r, s);
}

int sw_time_report_fprint(FILE *f, const struct sw_time_report *r,
			  const struct sw_snapshot *s)
{
	const struct sw_probe_stat *p;
	size_t j, k, nev;
	bool have_f[3], have_p, have;
	int ev[8];
	uint64_t v;

	if (r->json) {
		sw_print_json_report(f, r, s);
		return ferror(f) ? -EIO : 0;
	}
	if (!r->all)
		return sw_time_report_human(f, r, s);
	nev = sw_event_cols(r, s, ev, 8);
	for (k = 0; k < 3; k++)
		have_f[k] = r->filtered && sw_snapshot_col(s, sw_filt_cols[k]) >= 0;
	have_p = sw_snapshot_col(s, sw_pct_cols[0]) >= 0;
	fprintf(f, "# %zu function%s, %.3f s, durations in %s%s%s\n", r->n,
		r->n == 1 ? "" : "s", r->elapsed, r->unit,
		r->tag ? ", probes tagged " : "", r->tag ? r->tag : "");
	fprintf(f, "%-28s %10s", "FUNCTION", "CALLS");
	for (k = 0; k < 5; k++)
		fprintf(f, " %12s", sw_dur_heads[k]);
	for (k = 0; k < 3; k++)
		if (have_f[k])
			fprintf(f, " %10s", sw_filt_heads[k]);
	for (k = 0; k < nev; k++)
		fprintf(f, " %14s", s->col[ev[k]]);
	for (k = 0; have_p && k < 4; k++)
		fprintf(f, " %12s", sw_pct_heads[k]);
	fputc('\n', f);
	for (j = 0; j < r->n; j++) {
		p = sw_snapshot_probe(s, r->ids[j]);
		fprintf(f, "%-28s %10" PRIu64,
			r->marked ? r->marked[j] : r->names[j],
			sw_get(s, p, SW_COL_CALLS, NULL));
		for (k = 0; k < 5; k++) {
			v = sw_get(s, p, sw_dur_cols[k], &have);
			fputc(' ', f);
			if (have)
				sw_put_dur(f, r, 12, v);
			else
				fprintf(f, "%12s", "-");
		}
		for (k = 0; k < 3; k++)
			if (have_f[k])
				fprintf(f, " %10" PRIu64,
					sw_get(s, p, sw_filt_cols[k], NULL));
		for (k = 0; p && k < nev; k++)
			fprintf(f, " %14" PRIu64, p->val[ev[k]]);
		for (k = 0; have_p && k < 4; k++) {
			v = sw_get(s, p, sw_pct_cols[k], &have);
			fputc(' ', f);
			if (have)
				sw_put_dur(f, r, 12, v);
			else
				fprintf(f, "%12s", "-");
		}
		fputc('\n', f);
	}
	if (r->window)
		sw_correct_fprint(f, r->names, r->window, r->n);
	for (j = 0; j < r->n; j++) {
		p = sw_snapshot_probe(s, r->ids[j]);
		v = sw_get(s, p, SW_COL_MISSED, &have);
		if (have && v)
			fprintf(stderr,
				"stopwatch time: %s: %" PRIu64 " call%s missed (not measured)\n",
				r->names[j], v, v == 1 ? "" : "s");
	}
	return sw_print_hists_keys(f, r, s);
}

int sw_time_report_print(FILE *f, struct sw_time_report *r)
{
	int ret;

	if (!r->snap)
		return 0;
	r->final = true;
	if (r->correct && !r->window) {
		r->window = calloc(r->n ? r->n : 1, sizeof(*r->window));
		if (!r->window)
			return -ENOMEM;
		sw_correct_snapshot(r->snap, r->ids, r->n, r->window);
		r->marked = sw_correct_names(r->names, r->window, r->n);
		if (!r->marked)
			return -ENOMEM;
	}
	ret = sw_time_report_fprint(f, r, r->snap);
	if (!ret && !r->json) {
		sw_cost_fprint(f, &r->cost0, &r->cost1);
		ret = ferror(f) ? -EIO : 0;
	}
	return ret;
}

int sw_time_report_fprint_delta(FILE *f, const struct sw_time_report *r,
				const struct sw_snapshot *s,
				const struct sw_snapshot *prev, double at)
{
	const struct sw_probe_stat *p, *q;
	uint64_t calls, total;
	size_t j;

	if (r->json) {
		fprintf(f, "{\"interval\":%u,\"time_s\":%.3f,\"unit\":",
			r->interval, at);
		sw_json_str(f, r->unit);
		fputs(",\"functions\":[", f);
	} else {
		fprintf(f, "%s# %.3f s\n%-28s %10s %12s %12s\n",
			r->interval > 1 ? "\n" : "", at, "FUNCTION", "CALLS",
			"AVG", "TOTAL");
	}
	for (j = 0; j < r->n; j++) {
		p = sw_snapshot_probe(s, r->ids[j]);
		q = prev ? sw_snapshot_probe(prev, r->ids[j]) : NULL;
		calls = sw_get(s, p, SW_COL_CALLS, NULL) -
			sw_get(prev, q, "calls", NULL);
		total = sw_get(s, p, SW_COL_TOTAL_NS, NULL) -
			sw_get(prev, q, SW_COL_TOTAL_NS, NULL);
		if (r->json) {
			fputs(j ? ",{" : "{", f);
			sw_json_key(f, "function");
			sw_json_str(f, r->names[j]);
			fputs(",\"calls\":", f);
			sw_json_u64(f, calls);
			fputs(",\"avg\":", f);
			sw_json_dur(f, r, calls ? total / calls : 0);
			fputs(",\"total\":", f);
			sw_json_dur(f, r, total);
			fputc('}', f);
			continue;
		}
		fprintf(f, "%-28s %10" PRIu64 " ", r->names[j], calls);
		sw_put_dur(f, r, 12, calls ? total / calls : 0);
		fputc(' ', f);
		sw_put_dur(f, r, 12, total);
		fputc('\n', f);
	}
	if (r->json)
		fputs("]}\n", f);
	fflush(f);
	return ferror(f) ? -EIO : 0;
}

int sw_time_report_interval(struct sw_time_report *r, const char *dir,
			    double at)
{
	struct sw_snapshot *s = NULL;
	int ret;

	ret = sw_load(r, dir, false, &s);
	if (ret)
		return ret;
	r->interval++;
	ret = sw_time_report_fprint_delta(r->out ? r->out : stdout, r, s,
					  r->prev, at);
	sw_snapshot_free(r->prev);
	r->prev = s;
	return ret;
}
