// SPDX-License-Identifier: GPL-2.0
/*
 * stat-display.c - the output formats of "stopwatch stat".
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "stopwatch/files.h"
#include "base/json.h"
#include "lib/attachtab.h"
#include "output/correct.h"
#include "output/htable.h"
#include "output/prom.h"
#include "output/stat-display.h"
#include "base/units.h"

#define SW_NAME_LEN 256

static bool sw_ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && !strcmp(s + ls - lx, suffix);
}

static const char *sw_fmt_value(char *buf, const char *col, uint64_t v,
				unsigned int places, bool human)
{
	if (human && !places && sw_ends_with(col, "_ns"))
		return sw_fmt_human_ns(buf, v);
	return sw_fmt_fixed(buf, v, places);
}

/* A column's name over its values: "min_ns" over "1.50 us" is "min". */
static const char *sw_fmt_header(char *buf, const char *col,
				 unsigned int places, bool human)
{
	size_t l = strlen(col);

	if (!human || places || !sw_ends_with(col, "_ns") || l >= SW_UNITS_LEN)
		return col;
	snprintf(buf, SW_UNITS_LEN, "%.*s", (int)(l - 3), col);
	return buf;
}

static int sw_print_stats_grid(FILE *f, const struct sw_snapshot *s,
			       const struct sw_display_opts *o)
{
	struct sw_grid g = { 0 };
	char buf[SW_UNITS_LEN];
	size_t r, c;
	int ret;

	ret = sw_grid_init(&g, s->ncols + 1, s->nprobes + 1);
	if (ret)
		return ret;
	g.left[0] = true;
	ret = sw_grid_set(&g, 0, 0, "probe");
	for (c = 0; !ret && c < s->ncols; c++)
		ret = sw_grid_set(&g, 0, c + 1,
				  sw_fmt_header(buf, s->col[c], s->places[c],
						o->human));
	for (r = 0; !ret && r < s->nprobes; r++) {
		ret = sw_grid_set(&g, r + 1, 0, s->probe[r].name);
		for (c = 0; !ret && c < s->ncols; c++)
			ret = sw_grid_set(&g, r + 1, c + 1,
					  sw_fmt_value(buf, s->col[c],
						       s->probe[r].val[c],
						       s->places[c], o->human));
	}
	if (!ret)
		sw_grid_print(f, &g);
	sw_grid_free(&g);
	return ret;
}

static int sw_print_bd_grid(FILE *f, const struct sw_breakdown *bd,
			    const struct sw_display_opts *o)
{
	struct sw_grid g = { 0 };
	char buf[SW_UNITS_LEN];
	size_t r, c;
	int ret;

	ret = sw_grid_init(&g, bd->ncols + 2, bd->nrows + 1);
	if (ret)
		return ret;
	g.left[0] = true;
	g.left[1] = !strcmp(bd->mode, "comm");
	ret = sw_grid_set(&g, 0, 0, "probe");
	if (!ret)
		ret = sw_grid_set(&g, 0, 1, bd->mode);
	for (c = 0; !ret && c < bd->ncols; c++)
		ret = sw_grid_set(&g, 0, c + 2,
				  sw_fmt_header(buf, bd->col[c], bd->places[c],
						o->human));
	for (r = 0; !ret && r < bd->nrows; r++) {
		ret = sw_grid_set(&g, r + 1, 0, bd->row[r].probe);
		if (!ret)
			ret = sw_grid_set(&g, r + 1, 1, bd->row[r].key);
		for (c = 0; !ret && c < bd->ncols; c++)
			ret = sw_grid_set(&g, r + 1, c + 2,
					  sw_fmt_value(buf, bd->col[c],
						       bd->row[r].val[c],
						       bd->places[c], o->human));
	}
	if (!ret)
		sw_grid_print(f, &g);
	sw_grid_free(&g);
	return ret;
}

static int sw_print_human(FILE *f, const struct sw_snapshot *s,
			  const struct sw_display_opts *o);

/* The snapshot's probe names, in its order (NULL: out of memory). */
static char **sw_probe_names(const struct sw_snapshot *s)
{
	char **ids = calloc(s->nprobes ? s->nprobes : 1, sizeof(*ids));
	size_t i;

	for (i = 0; ids && i < s->nprobes; i++)
		ids[i] = (char *)s->probe[i].name;
	return ids;
}

/*
 * What follows the probes' table in both forms (@ret: the table's
 * result): the breakdown, printed with @bo, and the histograms.
 */
static int sw_print_after_table(FILE *f, const struct sw_snapshot *s,
				const struct sw_display_opts *o,
				const struct sw_display_opts *bo, int ret)
{
	size_t i, k;

	if (!ret && o->breakdown && s->bd) {
		fprintf(f, "\nbreakdown by %s:\n", s->bd->mode);
		ret = sw_print_bd_grid(f, s->bd, bo);
	}
	for (i = 0; !ret && o->hist && i < s->nprobes; i++) {
		const struct sw_hist_set *hs = s->probe[i].hist;

		for (k = 0; !ret && hs && k < hs->n; k++) {
			fputc('\n', f);
			ret = sw_hist_fprint(f, s->probe[i].name, &hs->hist[k]);
		}
	}
	if (!ret && ferror(f))
		ret = -EIO;
	return ret;
}

int sw_print_table(FILE *f, const struct sw_snapshot *s,
		   const struct sw_display_opts *o)
{
	char **ids;
	int ret;

	if (!o->all)
		return sw_print_human(f, s, o);
	ret = sw_print_stats_grid(f, s, o);
	if (!ret && o->window) {
		ids = sw_probe_names(s);
		if (!ids)
			return -ENOMEM;
		sw_correct_fprint(f, ids, o->window, s->nprobes);
		free(ids);
	}
	return sw_print_after_table(f, s, o, o, ret);
}

/* ---- the human default ---- */

bool sw_is_pct_col(const char *col)
{
	static const char *const pct[] = { SW_COLS_PCT };
	size_t i;

	for (i = 0; i < sizeof(pct) / sizeof(*pct); i++)
		if (!strcmp(col, pct[i]))
			return true;
	return false;
}

static bool sw_is_event_extra(const char *col)
{
	return sw_ends_with(col, "_min") || sw_ends_with(col, "_max");
}

/*
 * The attach column: a word per row, the reason a kernel function is on a
 * kretprobe instead of a trampoline in words.  One reason shared by every
 * such row is said once, under the table; several are said per row.
 */
static int sw_human_attach(struct sw_htable *t, const struct sw_snapshot *s,
			   const struct sw_probe_stat *const *row)
{
	int ca = sw_snapshot_col(s, SW_COL_ATTACH);
	int ce = sw_snapshot_col(s, SW_COL_ATTACH_ERR);
	int cd = sw_snapshot_col(s, SW_COL_DETACHED);
	int errs[16];
	size_t nerr = 0, r, k;
	uint64_t ndet = 0;
	struct sw_hcol *col;
	char cell[128], note[SW_NOTE_LEN];
	int ret = 0;

	if (ca < 0)
		return 0;
	for (r = 0; ce >= 0 && r < t->nrows; r++) {
		int e = row[r] ? (int)row[r]->val[ce] : 0;

		for (k = 0; e && k < nerr && errs[k] != e; k++)
			;
		if (e && k == nerr && nerr < sizeof(errs) / sizeof(*errs))
			errs[nerr++] = e;
	}
	col = sw_htable_add(t, "attach", SW_HK_TEXT, NULL);
	if (!col)
		return -ENOMEM;
	for (r = 0; !ret && r < t->nrows; r++) {
		const struct sw_probe_stat *p = row[r];
		uint64_t a = p ? p->val[ca] : 0;
		const char *word = sw_attach_name(a > 100 ? -1 : (int)a);
		int e = p && ce >= 0 ? (int)p->val[ce] : 0;
		bool det = p && cd >= 0 && p->val[cd];
		size_t l;

		if (!p) {
			ret = sw_hcol_text(col, r, "-");
			continue;
		}
		if (word)
			l = (size_t)snprintf(cell, sizeof(cell), "%s", word);
		else
			l = (size_t)snprintf(cell, sizeof(cell), "attach %llu",
					     (unsigned long long)a);
		if (e && nerr > 1)
			l += (size_t)snprintf(cell + l, sizeof(cell) - l,
					      " (%s)", sw_attach_why(e)->brief);
		if (det) {
			snprintf(cell + l, sizeof(cell) - l, ", detached!");
			ndet++;
		}
		ret = sw_hcol_text(col, r, cell);
	}
	for (k = 0; !ret && k < nerr; k++)
		ret = sw_htable_note(t, "attach: kretprobe (%s): %s",
				     sw_attach_why(errs[k])->brief,
				     sw_attach_why(errs[k])->text);
	if (!ret && ndet)
		ret = sw_htable_note(t, "! detached: %s",
				     sw_fmt_counted(note, ndet,
						    sw_loss_note(SW_COL_DETACHED)));
	return ret;
}

/* The missed column's footnote: its causes, summed over the rows. */
static char *sw_missed_note(const struct sw_snapshot *s,
			    const struct sw_probe_stat *const *row, size_t n)
{
	int cmax = sw_snapshot_col(s, SW_COL_MISS_MAXACTIVE);
	int cre = sw_snapshot_col(s, SW_COL_MISS_REENTRY);
	uint64_t max = 0, re = 0;
	char *note;
	size_t r;
	int ret;

	if (cmax < 0 || cre < 0)
		return strdup(sw_loss_note(SW_COL_MISSED));
	for (r = 0; r < n; r++)
		if (row[r]) {
			max += row[r]->val[cmax];
			re += row[r]->val[cre];
		}
	if (!max || !re)
		ret = asprintf(&note, "calls not measured: %s",
			       max ? "no free kretprobe instance (raise maxactive)" :
			       re ? "hit while another probe handler ran on their CPU" :
				    "");
	else
		ret = asprintf(&note,
			       "calls not measured: %llu found no free kretprobe instance (raise maxactive), %llu hit while another probe handler ran on their CPU",
			       (unsigned long long)max, (unsigned long long)re);
	if (ret < 0)
		return NULL;
	return note;
}

int sw_human_build(struct sw_htable *t, const struct sw_snapshot *s,
		   const struct sw_human_rows *hr)
{
	const struct sw_probe_stat **row;
	size_t n = hr->ids ? hr->n : s->nprobes, r, c;
	int ccalls = sw_snapshot_col(s, SW_COL_CALLS);
	struct sw_hcol *col;
	char head[96];
	int ret;

	ret = sw_htable_init(t, n);
	if (ret)
		return ret;
	t->div = hr->div;
	t->unit = hr->unit;
	row = calloc(n ? n : 1, sizeof(*row));
	if (!row)
		return -ENOMEM;
	for (r = 0; r < n; r++) {
		row[r] = hr->ids ? sw_snapshot_probe(s, hr->ids[r]) :
				   &s->probe[r];
		t->empty[r] = !row[r] || ccalls < 0 || !row[r]->val[ccalls];
	}
	col = sw_htable_add(t, hr->head ? hr->head : "probe", SW_HK_TEXT, NULL);
	ret = col ? 0 : -ENOMEM;
	for (r = 0; !ret && r < n; r++)
		ret = sw_hcol_text(col, r, hr->names ? hr->names[r] :
					   hr->ids   ? hr->ids[r] :
						       row[r]->name);
	for (c = 0; !ret && c < s->ncols; c++) {
		const char *name = s->col[c];
		enum sw_hkind kind = SW_HK_COUNT;
		const char *note = sw_loss_note(name);
		char *own = NULL;

		if (!strcmp(name, SW_COL_MISS_MAXACTIVE) ||
		    !strcmp(name, SW_COL_MISS_REENTRY) || !strcmp(name, SW_COL_ATTACH) ||
		    !strcmp(name, SW_COL_ATTACH_ERR) || !strcmp(name, SW_COL_DETACHED) ||
		    !strcmp(name, SW_COL_COST_FIXED_NS) ||
		    !strcmp(name, SW_COL_COST_NS) ||
		    !strcmp(name, SW_COL_COST_TOTAL_NS) ||
		    !strcmp(name, SW_COL_WINDOW_NS))
			continue;
		if (hr->brief_events && !note && sw_is_event_extra(name) &&
		    !sw_ends_with(name, "_ns"))
			continue;
		if (!hr->percentiles && sw_is_pct_col(name))
			continue;
		snprintf(head, sizeof(head), "%s", name);
		if (!strcmp(name, SW_COL_MISSED)) {
			own = sw_missed_note(s, row, n);
			if (!own) {
				ret = -ENOMEM;
				break;
			}
			note = own;
		}
		if (note)
			kind = sw_loss_is_choice(name) ? SW_HK_LEFT :
							 SW_HK_LOSS;
		else if (s->places[c])
			kind = SW_HK_FIXED;
		else if (sw_ends_with(name, "_ns")) {
			kind = SW_HK_DUR;
			head[strlen(head) - 3] = '\0';
		}
		if (!strcmp(name, SW_COL_P999_NS))
			snprintf(head, sizeof(head), "p99.9");
		col = sw_htable_add(t, head, kind, note);
		free(own);
		if (!col) {
			ret = -ENOMEM;
			break;
		}
		col->keep = (int)c == ccalls;
		col->places = s->places[c];
		for (r = 0; r < n; r++)
			col->v[r] = row[r] ? row[r]->val[c] : 0;
	}
	if (!ret)
		ret = sw_human_attach(t, s, row);
	free(row);
	return ret;
}

/* The stat command's human default: the table, the breakdown, histograms. */
static int sw_print_human(FILE *f, const struct sw_snapshot *s,
			  const struct sw_display_opts *o)
{
	struct sw_human_rows hr = { .percentiles = o->percentiles };
	const struct sw_display_opts bo = { .human = true };
	char **ids = NULL, **marked = NULL;
	struct sw_htable t;
	int ret;

	/* Corrected: every row, its name marked (correct.h). */
	if (o->window) {
		ids = sw_probe_names(s);
		marked = ids ? sw_correct_names(ids, o->window, s->nprobes) : NULL;
		if (!marked) {
			free(ids);
			return -ENOMEM;
		}
		hr.ids = (const char *const *)ids;
		hr.names = (const char *const *)marked;
		hr.n = s->nprobes;
	}
	ret = sw_human_build(&t, s, &hr);
	if (!ret)
		ret = sw_htable_print(f, &t);
	sw_htable_free(&t);
	if (!ret && o->window)
		sw_correct_fprint(f, ids, o->window, s->nprobes);
	sw_correct_names_free(marked, s->nprobes);
	free(ids);
	return sw_print_after_table(f, s, o, &bo, ret);
}

int sw_print_text_table(FILE *f, const struct sw_table *tab, const char *head,
			bool vertical, uint64_t div, const char *unit)
{
	int ccalls = sw_table_col(tab, SW_COL_CALLS);
	struct sw_htable t;
	struct sw_hcol *col;
	unsigned int places;
	size_t r, c;
	uint64_t v;
	int ret;

	ret = sw_htable_init(&t, tab->nrows);
	if (ret)
		goto out;
	t.div = div;
	t.unit = unit;
	col = sw_htable_add(&t, head, SW_HK_TEXT, NULL);
	ret = col ? 0 : -ENOMEM;
	for (r = 0; !ret && r < tab->nrows; r++) {
		ret = sw_hcol_text(col, r, sw_table_at(tab, r, 0));
		t.empty[r] = ccalls >= 0 &&
			     (sw_parse_u64(sw_table_at(tab, r, ccalls), &v) || !v);
	}
	for (c = 1; !ret && c < tab->ncols; c++) {
		const char *name = tab->col[c];
		const char *note = sw_loss_note(name);
		char h[96];

		snprintf(h, sizeof(h), "%s", name);
		col = NULL;
		for (r = 0; r < tab->nrows; r++) {
			if (sw_parse_fixed(sw_table_at(tab, r, c), &v, &places))
				v = 0;
			if (!col) {
				enum sw_hkind kind =
					note ? (sw_loss_is_choice(name) ?
							SW_HK_LEFT : SW_HK_LOSS) :
					places ? SW_HK_FIXED :
					sw_ends_with(name, "_ns") ? SW_HK_DUR :
								    SW_HK_COUNT;

				if (kind == SW_HK_DUR)
					h[strlen(h) - 3] = '\0';
				col = sw_htable_add(&t, h, kind, note);
				if (!col) {
					ret = -ENOMEM;
					break;
				}
				col->keep = (int)c == ccalls;
				col->places = places;
			}
			col->v[r] = v;
		}
	}
	if (!ret)
		ret = vertical ? sw_htable_print_vertical(f, &t) :
				 sw_htable_print(f, &t);
out:
	sw_htable_free(&t);
	return ret;
}

static void sw_json_hist(FILE *f, const struct sw_hist_set *hs)
{
	size_t k;
	int b, first;

	fputs(",\"hist\":{", f);
	for (k = 0; hs && k < hs->n; k++) {
		const struct sw_hist *h = &hs->hist[k];

		if (k)
			fputc(',', f);
		sw_json_key(f, h->unit);
		fputc('[', f);
		for (b = 0, first = 1; b < SW_HIST_BUCKETS; b++) {
			if (!h->bucket[b])
				continue;
			fprintf(f, "%s{\"low\":%llu,\"count\":%llu}",
				first ? "" : ",",
				(unsigned long long)sw_hist_low((unsigned int)b),
				(unsigned long long)h->bucket[b]);
			first = 0;
		}
		fputc(']', f);
	}
	fputc('}', f);
}

static void sw_json_breakdown(FILE *f, const struct sw_breakdown *bd)
{
	char buf[SW_UNITS_LEN];
	size_t r, c;

	fputs(",\"breakdown\":{\"mode\":", f);
	sw_json_str(f, bd->mode);
	fputs(",\"rows\":[", f);
	for (r = 0; r < bd->nrows; r++) {
		const struct sw_bd_row *row = &bd->row[r];

		fputs(r ? ",{" : "{", f);
		sw_json_key(f, "probe");
		sw_json_str(f, row->probe);
		fputc(',', f);
		sw_json_key(f, bd->mode);
		if (row->other)
			fputs("null", f);
		else if (row->is_num)
			sw_json_u64(f, row->num);
		else
			sw_json_str(f, row->text);
		fprintf(f, ",\"other\":%s", row->other ? "true" : "false");
		for (c = 0; c < bd->ncols; c++) {
			fputc(',', f);
			sw_json_key(f, bd->col[c]);
			fputs(sw_fmt_fixed(buf, row->val[c], bd->places[c]), f);
		}
		fputc('}', f);
	}
	fputs("]}", f);
}

/*
 * The rows of one table as a JSON array of objects: the row's name under
 * @key ("probe" or "span"), "corrected" where @window says (probes), each
 * column, and with @hist the histograms.
 */
static void sw_json_rows(FILE *f, const struct sw_snapshot *s,
			 const char *key, const uint64_t *window, bool hist)
{
	char buf[SW_UNITS_LEN];
	size_t i, c;

	fputc('[', f);
	for (i = 0; i < s->nprobes; i++) {
		const struct sw_probe_stat *p = &s->probe[i];

		fputs(i ? ",{" : "{", f);
		sw_json_key(f, key);
		sw_json_str(f, p->name);
		if (window)
			fprintf(f, ",\"corrected\":%s",
				window[i] ? "true" : "false");
		for (c = 0; c < s->ncols; c++) {
			fputc(',', f);
			sw_json_key(f, s->col[c]);
			fputs(sw_fmt_fixed(buf, p->val[c], s->places[c]), f);
		}
		if (hist)
			sw_json_hist(f, p->hist);
		fputc('}', f);
	}
	fputc(']', f);
}

int sw_print_json(FILE *f, const struct sw_snapshot *s,
		  const struct sw_display_opts *o)
{
	fprintf(f, "{\"time_ns\":%llu,\"probes\":",
		(unsigned long long)s->time_ns);
	sw_json_rows(f, s, "probe", o->window, o->hist);
	if (o->breakdown && s->bd)
		sw_json_breakdown(f, s->bd);
	if (s->spans) {
		fputs(",\"spans\":", f);
		sw_json_rows(f, s->spans, "span", NULL, o->hist);
	}
	fputs("}\n", f);
	return ferror(f) ? -EIO : 0;
}

/* ---- Prometheus ---- */

/*
 * What one run of the Prometheus writer writes with: the output, the
 * format (OpenMetrics names a counter's family without "_total" and ends
 * with "# EOF"), and the prefix of the metric names and the label naming
 * each row ("stopwatch_"/"probe" for probes, "stopwatch_span_"/"span").
 */
struct sw_prom_ctx {
	FILE *f;
	bool om;
	const char *pre;
	const char *label;
	size_t max_series;
};

/* Columns the Prometheus writer maps onto named metrics. */
static const char *const sw_prom_known[] = {
	SW_COLS_TIMING, SW_COL_MISSED, SW_COL_MISS_MAXACTIVE,
	SW_COL_MISS_REENTRY, SW_COL_MIGRATED, SW_COLS_PCT, SW_COL_COST_NS,
	SW_COL_COST_FIXED_NS, SW_COL_COST_TOTAL_NS, SW_COL_WINDOW_NS,
};

static const struct {
	const char *col;
	const char *name;
	const char *help;
} sw_prom_gauges[] = {
	{ SW_COL_MIN_NS, "duration_min_seconds", "Shortest call" },
	{ SW_COL_AVG_NS, "duration_avg_seconds", "Mean call duration" },
	{ SW_COL_MAX_NS, "duration_max_seconds", "Longest call" },
	{ SW_COL_STDDEV_NS, "duration_stddev_seconds",
	  "Standard deviation of the call duration" },
	{ SW_COL_COST_NS, "cost_per_call_seconds",
	  "What one call costs in stopwatch's handlers, observed on sampled calls, with the mechanism's fixed part where measured" },
	{ SW_COL_COST_FIXED_NS, "cost_fixed_per_call_seconds",
	  "The mechanism's fixed part of the cost per call (0: not measured, not included)" },
	{ SW_COL_COST_TOTAL_NS, "cost_seconds",
	  "Estimated total cost of the probe's calls" },
	{ SW_COL_WINDOW_NS, "window_per_call_seconds",
	  "The probe's own time inside each measured call, calibrated at load (0: not calibrated)" },
};

static bool sw_prom_is_known(const char *col)
{
	size_t i;

	for (i = 0; i < sizeof(sw_prom_known) / sizeof(*sw_prom_known); i++)
		if (!strcmp(sw_prom_known[i], col))
			return true;
	return false;
}

static void sw_prom_fam(const struct sw_prom_ctx *x, const char *name,
			const char *type, const char *help)
{
	sw_prom_family_fmt(x->f, name, type, help, x->om);
}

/* name{LABEL="..."[,lname="lval"]} value */
static void sw_prom_sample(const struct sw_prom_ctx *x, const char *name,
			   const char *probe, const char *lname,
			   const char *lval, const char *value)
{
	fprintf(x->f, "%s{%s=", name, x->label);
	sw_prom_label_value(x->f, probe);
	if (lname) {
		fprintf(x->f, ",%s=", lname);
		sw_prom_label_value(x->f, lval);
	}
	fprintf(x->f, "} %s\n", value);
}

static const char *sw_u64_str(char *buf, uint64_t v)
{
	snprintf(buf, SW_UNITS_LEN, "%llu", (unsigned long long)v);
	return buf;
}

/* One family with one sample per row from column @c; @name after pre. */
static void sw_prom_column(const struct sw_prom_ctx *x,
			   const struct sw_snapshot *s, int c,
			   const char *name, const char *type,
			   const char *help, bool seconds)
{
	char buf[SW_UNITS_LEN], full[SW_NAME_LEN];
	size_t i;

	if (c < 0)
		return;
	snprintf(full, sizeof(full), "%s%s", x->pre, name);
	sw_prom_fam(x, full, type, help);
	for (i = 0; i < s->nprobes; i++) {
		uint64_t v = s->probe[i].val[c];

		sw_prom_sample(x, full, s->probe[i].name, NULL, NULL,
			       seconds ? sw_fmt_seconds(buf, v) :
					 sw_fmt_fixed(buf, v, s->places[c]));
	}
}

static void sw_prom_missed(const struct sw_prom_ctx *x,
			   const struct sw_snapshot *s)
{
	int cmax = sw_snapshot_col(s, SW_COL_MISS_MAXACTIVE);
	int cre = sw_snapshot_col(s, SW_COL_MISS_REENTRY);
	int call = sw_snapshot_col(s, SW_COL_MISSED);
	char buf[SW_UNITS_LEN], name[SW_NAME_LEN];
	size_t i;

	if (cmax < 0 && cre < 0) {
		sw_prom_column(x, s, call, "missed_total", "counter",
			       "Calls that were not measured", false);
		return;
	}
	snprintf(name, sizeof(name), "%smissed_total", x->pre);
	sw_prom_fam(x, name, "counter",
		    "Calls that were not measured, by cause: maxactive (no free kretprobe instance) or reentry (probe hit while a probe handler ran)");
	for (i = 0; i < s->nprobes; i++) {
		const struct sw_probe_stat *p = &s->probe[i];

		if (cmax >= 0)
			sw_prom_sample(x, name, p->name, "cause", "maxactive",
				       sw_u64_str(buf, p->val[cmax]));
		if (cre >= 0)
			sw_prom_sample(x, name, p->name, "cause", "reentry",
				       sw_u64_str(buf, p->val[cre]));
	}
}

/* Upper bound of bucket @b as an "le" label value. */
static const char *sw_prom_le(char *buf, unsigned int b, bool ns)
{
	if (b >= 64)
		return ns ? "18446744073.709551616" : "18446744073709551616";
	if (ns)
		return sw_fmt_seconds(buf, 1ULL << b);
	return sw_u64_str(buf, 1ULL << b);
}

static uint64_t sw_sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/* Whether the wall-time histogram goes out on the log-linear bounds. */
static bool sw_prom_fine_on(const struct sw_snapshot *s,
			    const struct sw_display_opts *o)
{
	size_t i;

	for (i = 0; o->hist && !o->log2_buckets && i < s->nprobes; i++)
		if (s->probe[i].lin)
			return true;
	return false;
}

/* The calls a probe's log-linear histogram holds. */
static uint64_t sw_prom_lin_calls(const struct sw_probe_stat *p)
{
	unsigned int b, n = sw_lhist_nbuckets(p->lin_bits);
	uint64_t v = 0;

	for (b = 0; b < n; b++)
		v = sw_sat_add(v, p->lin[b]);
	return v;
}

/*
 * calls_total.  On the log-linear bounds it is the calls the lhists file
 * held when read, as the histogram's _count and +Inf bucket are (and,
 * from stats_format 1.9, its _sum): the row's calls come from another
 * pass over the CPUs, and on one page a counter and its histogram must
 * agree.
 */
static void sw_prom_calls(const struct sw_prom_ctx *x,
			  const struct sw_snapshot *s,
			  const struct sw_display_opts *o)
{
	int c = sw_snapshot_col(s, SW_COL_CALLS);
	bool fine = sw_prom_fine_on(s, o);
	char buf[SW_UNITS_LEN], full[SW_NAME_LEN];
	size_t i;

	if (c < 0)
		return;
	snprintf(full, sizeof(full), "%scalls_total", x->pre);
	sw_prom_fam(x, full, "counter", "Calls measured");
	for (i = 0; i < s->nprobes; i++) {
		const struct sw_probe_stat *p = &s->probe[i];
		uint64_t v = fine && p->lin ? sw_prom_lin_calls(p) : p->val[c];

		sw_prom_sample(x, full, p->name, NULL, NULL,
			       sw_fmt_fixed(buf, v, s->places[c]));
	}
}

/*
 * The first and last log-linear bucket a probe's fine "le" set spans:
 * every bucket of each power of two from the one holding its lowest
 * non-empty bucket to the one holding its highest.  The module's counts
 * only grow until a reset, so the set only grows while stopwatch serve
 * runs (rate() sees no "le" go away).  False for an empty histogram.
 */
static bool sw_prom_fine_span(const struct sw_probe_stat *p, unsigned int *lo,
			      unsigned int *hi)
{
	unsigned int n = sw_lhist_nbuckets(p->lin_bits), b, k = p->lin_bits;
	uint64_t v;
	int first = -1, last = -1;

	for (b = 0; b < n; b++)
		if (p->lin[b]) {
			if (first < 0)
				first = (int)b;
			last = (int)b;
		}
	if (first < 0)
		return false;
	v = sw_lhist_low((unsigned int)first, k);
	*lo = v ? sw_lhist_bucket(1ULL << (63 - __builtin_clzll(v)), k) : 0;
	v = sw_lhist_high((unsigned int)last, k);
	*hi = v >> 63 ? n - 1 :
	      sw_lhist_bucket((2ULL << (63 - __builtin_clzll(v | 1))) - 1, k);
	return true;
}

/*
 * A probe's wall-time buckets on the log-linear bounds: "le" is each
 * bucket's exclusive upper bound, over sw_prom_fine_span().  Return: the
 * calls the buckets hold.
 */
static uint64_t sw_prom_fine(const struct sw_prom_ctx *x, const char *sample,
			     const struct sw_probe_stat *p)
{
	char buf[SW_UNITS_LEN], le[SW_UNITS_LEN];
	unsigned int lo, hi, b, n = sw_lhist_nbuckets(p->lin_bits);
	uint64_t cum = 0;

	if (!sw_prom_fine_span(p, &lo, &hi))
		return 0;
	for (b = 0; b < lo; b++)
		cum = sw_sat_add(cum, p->lin[b]);
	for (b = lo; b <= hi && b + 1 < n; b++) {
		cum = sw_sat_add(cum, p->lin[b]);
		sw_prom_sample(x, sample, p->name, "le",
			       sw_fmt_seconds(le, sw_lhist_low(b + 1,
							       p->lin_bits)),
			       sw_u64_str(buf, cum));
	}
	for (; b < n; b++)
		cum = sw_sat_add(cum, p->lin[b]);
	return cum;
}

/*
 * Histogram family of @unit.  A row without that histogram (or when
 * histograms were not read) gets only the +Inf bucket, from its calls.
 */
static void sw_prom_hist(const struct sw_prom_ctx *x,
			 const struct sw_snapshot *s, const char *unit,
			 const struct sw_display_opts *o)
{
	bool ns = !strcmp(unit, "ns");
	char name[SW_NAME_LEN], sample[SW_NAME_LEN + 16], help[SW_NAME_LEN];
	char buf[SW_UNITS_LEN], le[SW_UNITS_LEN];
	int top = SW_PROM_TOP_MIN, b;
	int ccalls = sw_snapshot_col(s, SW_COL_CALLS);
	int csum;
	bool fine = ns && sw_prom_fine_on(s, o);
	size_t i;

	snprintf(name, sizeof(name), "%s_total", unit);
	csum = sw_snapshot_col(s, ns ? "total_ns" : name);
	if (fine) {
		snprintf(name, sizeof(name), "%sduration_seconds", x->pre);
		snprintf(help, sizeof(help),
			 "Call duration, log-linear buckets (2^hist_bits per power of two over the powers of two the probe's calls span; le is the exclusive upper bound)");
	} else if (ns) {
		snprintf(name, sizeof(name), "%sduration_seconds", x->pre);
		snprintf(help, sizeof(help),
			 "Call duration, log2 buckets (le is the exclusive upper bound 2^b ns)");
	} else {
		sw_prom_name(name, sizeof(name), x->pre, unit);
		snprintf(help, sizeof(help),
			 "Per-call %s, log2 buckets (le is the exclusive upper bound 2^b)",
			 unit);
	}
	for (i = 0; o->hist && i < s->nprobes; i++) {
		const struct sw_hist *h = sw_hist_find(s->probe[i].hist, unit);

		if (h && sw_hist_top(h) > top)
			top = sw_hist_top(h);
	}

	sw_prom_fam(x, name, "histogram", help);
	for (i = 0; i < s->nprobes; i++) {
		const struct sw_probe_stat *p = &s->probe[i];
		const struct sw_hist *h = o->hist ? sw_hist_find(p->hist, unit)
						  : NULL;
		/* the fine buckets' own pass gives the _sum too (1.9) */
		bool lsum = ns && fine && p->lin && p->lin_has_total;
		uint64_t cum = 0;

		if (!h && (!ns || ccalls < 0))
			continue;
		snprintf(sample, sizeof(sample), "%s_bucket", name);
		if (ns && fine && p->lin) {
			cum = sw_prom_fine(x, sample, p);
			h = NULL;
			goto inf;
		}
		for (b = 0; h && b <= top; b++) {
			cum = sw_sat_add(cum, h->bucket[b]);
			sw_prom_sample(x, sample, p->name, "le",
				       sw_prom_le(le, (unsigned int)b, ns),
				       sw_u64_str(buf, cum));
		}
		if (h)
			cum = sw_hist_total(h);
		else
			cum = p->val[ccalls];
inf:
		sw_prom_sample(x, sample, p->name, "le", "+Inf",
			       sw_u64_str(buf, cum));
		if (lsum || csum >= 0) {
			uint64_t sum = lsum ? p->lin_total : p->val[csum];

			snprintf(sample, sizeof(sample), "%s_sum", name);
			sw_prom_sample(x, sample, p->name, NULL, NULL,
				       ns ? sw_fmt_seconds(buf, sum) :
					    sw_u64_str(buf, sum));
		}
		/* OpenMetrics: _count and _sum both or neither. */
		if (!lsum && csum < 0 && x->om)
			continue;
		snprintf(sample, sizeof(sample), "%s_count", name);
		sw_prom_sample(x, sample, p->name, NULL, NULL,
			       sw_u64_str(buf, cum));
	}
}

/*
 * The percentile columns as one summary family: quantile 0.5, 0.9, 0.99,
 * 0.999 (from the module's log-linear histograms), with the calls and
 * their total as _count and _sum.  Nothing without those columns.
 */
static void sw_prom_quantiles(const struct sw_prom_ctx *x,
			      const struct sw_snapshot *s)
{
	static const char *const cols[] = { SW_COLS_PCT };
	static const char *const q[] = { "0.5", "0.9", "0.99", "0.999" };
	int c[4], ccalls = sw_snapshot_col(s, SW_COL_CALLS);
	int csum = sw_snapshot_col(s, SW_COL_TOTAL_NS);
	char name[SW_NAME_LEN], sample[SW_NAME_LEN + 16], buf[SW_UNITS_LEN];
	size_t i, k;

	for (k = 0; k < 4; k++) {
		c[k] = sw_snapshot_col(s, cols[k]);
		if (c[k] < 0)
			return;
	}
	if (ccalls < 0 || csum < 0)
		return;
	snprintf(name, sizeof(name), "%sduration_quantile_seconds", x->pre);
	sw_prom_fam(x, name, "summary",
		    "Call duration percentiles, each off by less than its log-linear bucket (2^-hist_bits of the value)");
	for (i = 0; i < s->nprobes; i++) {
		const struct sw_probe_stat *p = &s->probe[i];

		for (k = 0; k < 4; k++)
			sw_prom_sample(x, name, p->name, "quantile", q[k],
				       sw_fmt_seconds(buf, p->val[c[k]]));
		snprintf(sample, sizeof(sample), "%s_sum", name);
		sw_prom_sample(x, sample, p->name, NULL, NULL,
			       sw_fmt_seconds(buf, p->val[csum]));
		snprintf(sample, sizeof(sample), "%s_count", name);
		sw_prom_sample(x, sample, p->name, NULL, NULL,
			       sw_u64_str(buf, p->val[ccalls]));
	}
}

/* Units of all histograms read, "ns" first, each once. */
static size_t sw_hist_units(const struct sw_snapshot *s, const char **unit,
			    size_t max)
{
	size_t n = 0, i, k, j;

	unit[n++] = "ns";
	for (i = 0; i < s->nprobes; i++) {
		const struct sw_hist_set *hs = s->probe[i].hist;

		for (k = 0; hs && k < hs->n; k++) {
			for (j = 0; j < n; j++)
				if (!strcmp(unit[j], hs->hist[k].unit))
					break;
			if (j == n && n < max)
				unit[n++] = hs->hist[k].unit;
		}
	}
	return n;
}

static void sw_prom_bd_sample(const struct sw_prom_ctx *x, const char *name,
			      const struct sw_bd_row *row, const char *lname,
			      const char *value)
{
	fprintf(x->f, "%s{probe=", name);
	sw_prom_label_value(x->f, row->probe);
	fprintf(x->f, ",%s=", lname);
	sw_prom_label_value(x->f, row->other ? "other" : row->text);
	fprintf(x->f, "} %s\n", value);
}

static void sw_prom_bd_column(const struct sw_prom_ctx *x,
			      const struct sw_breakdown *bd,
			      const struct sw_bd_row *rows, size_t nrows,
			      const char *lname, int c, const char *name,
			      const char *type, const char *help, bool seconds)
{
	char buf[SW_UNITS_LEN];
	size_t r;

	if (c < 0)
		return;
	sw_prom_fam(x, name, type, help);
	for (r = 0; r < nrows; r++) {
		uint64_t v = rows[r].val[c];

		sw_prom_bd_sample(x, name, &rows[r], lname,
				  seconds ? sw_fmt_seconds(buf, v) :
					    sw_fmt_fixed(buf, v, bd->places[c]));
	}
}

/* How a column of keyed rows folds into an "other" row. */
enum sw_fold {
	SW_FOLD_SUM,
	SW_FOLD_MIN,
	SW_FOLD_MAX,
	SW_FOLD_AVG,
	SW_FOLD_STDDEV,
	SW_FOLD_CALLS,
};

static enum sw_fold sw_fold_of(const char *col)
{
	if (!strcmp(col, SW_COL_CALLS))
		return SW_FOLD_CALLS;
	if (sw_ends_with(col, "_min") || !strcmp(col, "min_ns"))
		return SW_FOLD_MIN;
	if (sw_ends_with(col, "_max") || !strcmp(col, "max_ns"))
		return SW_FOLD_MAX;
	if (sw_ends_with(col, "_avg") || !strcmp(col, "avg_ns"))
		return SW_FOLD_AVG;
	if (!strcmp(col, "stddev_ns"))
		return SW_FOLD_STDDEV;
	return SW_FOLD_SUM;
}

/*
 * Folds row @from into the "other" row @into, column by column (@how):
 * counts and totals add, minimum and maximum keep the extreme, averages
 * are weighted by the calls; @sq gathers what the pooled standard
 * deviation is computed from.
 */
static void sw_bd_fold(const struct sw_breakdown *bd, const enum sw_fold *how,
		       int ccalls, int cavg, uint64_t *into, double *sq,
		       const uint64_t *from)
{
	uint64_t n0 = ccalls >= 0 ? into[ccalls] : 0;
	uint64_t n1 = ccalls >= 0 ? from[ccalls] : 0;
	double m, sd;
	size_t c;

	for (c = 0; c < bd->ncols; c++) {
		switch (how[c]) {
		case SW_FOLD_CALLS:
			break;
		case SW_FOLD_MIN:
			if (n1 && (!n0 || from[c] < into[c]))
				into[c] = from[c];
			break;
		case SW_FOLD_MAX:
			if (from[c] > into[c])
				into[c] = from[c];
			break;
		case SW_FOLD_AVG:
			if (n0 + n1)
				into[c] = (uint64_t)(((double)into[c] * (double)n0 +
						     (double)from[c] * (double)n1) /
						    (double)(n0 + n1) + 0.5);
			break;
		case SW_FOLD_STDDEV:
			m = cavg >= 0 ? (double)from[cavg] : 0;
			sd = (double)from[c];
			*sq += (double)n1 * (sd * sd + m * m);
			break;
		case SW_FOLD_SUM:
			into[c] = sw_sat_add(into[c], from[c]);
			break;
		}
	}
	if (ccalls >= 0)
		into[ccalls] = sw_sat_add(n0, n1);
}

static int sw_bd_calls_cmp(const void *a, const void *b, void *arg)
{
	const struct sw_bd_row *x = *(const struct sw_bd_row *const *)a;
	const struct sw_bd_row *y = *(const struct sw_bd_row *const *)b;
	int c = *(int *)arg;
	uint64_t vx = c >= 0 ? x->val[c] : 0, vy = c >= 0 ? y->val[c] : 0;

	if (vx != vy)
		return vx < vy ? 1 : -1;
	return x < y ? -1 : x > y;
}

/*
 * The rows to write: at most @max keyed rows, those with the most calls,
 * in file order, then one "other" row per probe summing the rest (and the
 * module's own "other" rows).  The first @nkept rows are the breakdown's
 * own and share its values; the values of the rest are fresh.
 */
static struct sw_bd_row *sw_bd_capped(const struct sw_breakdown *bd,
				      size_t max, size_t *n, size_t *nkept)
{
	const struct sw_bd_row **ord = NULL;
	enum sw_fold *how = NULL;
	struct sw_bd_row *out = NULL;
	double *sq = NULL;
	bool *keep = NULL;
	size_t i, j, k, nkeyed = 0, nout = 0, cap = bd->nrows;
	int ccalls = sw_breakdown_col(bd, SW_COL_CALLS);
	int cstd = sw_breakdown_col(bd, "stddev_ns");
	int cavg = sw_breakdown_col(bd, "avg_ns");

	*nkept = 0;
	how = calloc(bd->ncols + 1, sizeof(*how));
	ord = calloc(bd->nrows + 1, sizeof(*ord));
	keep = calloc(bd->nrows + 1, sizeof(*keep));
	if (!how || !ord || !keep)
		goto fail;
	for (i = 0; i < bd->ncols; i++)
		how[i] = sw_fold_of(bd->col[i]);
	for (i = 0; i < bd->nrows; i++)
		if (!bd->row[i].other)
			ord[nkeyed++] = &bd->row[i];
	if (max && nkeyed > max) {
		/* @max rows kept, then at most one "other" row per probe. */
		for (cap = max, i = 0; i < bd->nrows; i++)
			if (!i || strcmp(bd->row[i].probe, bd->row[i - 1].probe))
				cap++;
		qsort_r(ord, nkeyed, sizeof(*ord), sw_bd_calls_cmp, &ccalls);
	}
	out = calloc(cap + 1, sizeof(*out));
	sq = calloc(cap + 1, sizeof(*sq));
	if (!out || !sq)
		goto fail;
	for (i = 0; i < nkeyed && (!max || i < max); i++)
		keep[ord[i] - bd->row] = true;
	/* Under the cap the module's own "other" rows stay where they are. */
	for (i = 0; (!max || nkeyed <= max) && i < bd->nrows; i++)
		keep[i] = true;
	for (i = 0; i < bd->nrows; i++)
		if (keep[i])
			out[nout++] = bd->row[i];
	*nkept = nout;
	for (i = 0; i < bd->nrows; i++) {
		const struct sw_bd_row *r = &bd->row[i];

		if (keep[i])
			continue;
		/* A probe's rows come together: its other row is the last. */
		j = nout;
		if (nout && out[nout - 1].other &&
		    !strcmp(out[nout - 1].probe, r->probe))
			j = nout - 1;
		for (k = 0; j == nout && k < nout; k++)
			if (out[k].other && !strcmp(out[k].probe, r->probe))
				j = k;
		if (j == nout) {
			out[nout].probe = r->probe;
			out[nout].other = true;
			out[nout].val = calloc(bd->ncols + 1, sizeof(uint64_t));
			if (!out[nout].val)
				goto fail;
			nout++;
		}
		sw_bd_fold(bd, how, ccalls, cavg, out[j].val, &sq[j], r->val);
	}
	for (j = 0; cstd >= 0 && j < nout; j++) {
		uint64_t calls = ccalls >= 0 ? out[j].val[ccalls] : 0;
		double m = cavg >= 0 ? (double)out[j].val[cavg] : 0, v;

		if (!out[j].other || !calls || sq[j] == 0)
			continue;
		v = sq[j] / (double)calls - m * m;
		out[j].val[cstd] = v > 0 ? (uint64_t)(sqrt(v) + 0.5) : 0;
	}
	free(how);
	free(ord);
	free(keep);
	free(sq);
	*n = nout;
	return out;
fail:
	free(how);
	for (j = *nkept; out && j < nout; j++)
		free(out[j].val);
	free(out);
	free(ord);
	free(keep);
	free(sq);
	*n = 0;
	return NULL;
}

static int sw_prom_breakdown(const struct sw_prom_ctx *x,
			     const struct sw_breakdown *bd, const char *pre,
			     const char *lname_fixed, const char *what)
{
	char lname[SW_NAME_LEN], name[SW_NAME_LEN], help[SW_NAME_LEN];
	struct sw_bd_row *rows;
	size_t i, c, nrows, nkept = 0;

	if (!bd->nrows)
		return 0;
	if (lname_fixed) {
		snprintf(lname, sizeof(lname), "%s", lname_fixed);
	} else {
		sw_prom_name(lname, sizeof(lname), "", bd->mode);
		if (lname[0] >= '0' && lname[0] <= '9')
			lname[0] = '_';
		for (c = 0; lname[c]; c++)
			if (lname[c] == ':')
				lname[c] = '_';
	}
	rows = sw_bd_capped(bd, x->max_series, &nrows, &nkept);
	if (!rows)
		return -ENOMEM;

	snprintf(name, sizeof(name), "%scalls_total", pre);
	snprintf(help, sizeof(help), "Calls, by %s", what);
	sw_prom_bd_column(x, bd, rows, nrows, lname,
			  sw_breakdown_col(bd, SW_COL_CALLS), name, "counter", help,
			  false);
	snprintf(name, sizeof(name), "%sduration_seconds_total", pre);
	snprintf(help, sizeof(help), "Time spent in calls, by %s", what);
	sw_prom_bd_column(x, bd, rows, nrows, lname,
			  sw_breakdown_col(bd, SW_COL_TOTAL_NS), name, "counter",
			  help, true);
	for (i = 0; i < sizeof(sw_prom_gauges) / sizeof(*sw_prom_gauges); i++) {
		snprintf(name, sizeof(name), "%s%s", pre,
			 sw_prom_gauges[i].name);
		snprintf(help, sizeof(help), "%s, by %s",
			 sw_prom_gauges[i].help, what);
		sw_prom_bd_column(x, bd, rows, nrows, lname,
				  sw_breakdown_col(bd, sw_prom_gauges[i].col),
				  name, "gauge", help, true);
	}
	for (c = 0; c < bd->ncols; c++) {
		if (sw_prom_is_known(bd->col[c]))
			continue;
		sw_prom_name(name, sizeof(name), pre, bd->col[c]);
		snprintf(help, sizeof(help), "Column %s, by %s", bd->col[c],
			 what);
		sw_prom_bd_column(x, bd, rows, nrows, lname, (int)c, name,
				  "gauge", help, false);
	}
	for (i = nkept; i < nrows; i++)
		free(rows[i].val);
	free(rows);
	return 0;
}

/* Whether @col is "<unit>_total" of a histogram unit: that is its _sum. */
static bool sw_is_unit_total(const char *col, const char *const *unit,
			     size_t nunits)
{
	size_t i, l;

	for (i = 0; i < nunits; i++) {
		l = strlen(unit[i]);
		if (!strncmp(col, unit[i], l) && !strcmp(col + l, "_total"))
			return true;
	}
	return false;
}

/* The families of one table of rows: the probes', or the spans'. */
static void sw_prom_rows(const struct sw_prom_ctx *x,
			 const struct sw_snapshot *s,
			 const struct sw_display_opts *o)
{
	char name[SW_NAME_LEN], help[SW_NAME_LEN];
	const char *unit[16];
	size_t i, c, nunits;

	sw_prom_calls(x, s, o);
	sw_prom_missed(x, s);
	sw_prom_column(x, s, sw_snapshot_col(s, SW_COL_MIGRATED), "migrated_total",
		       "counter",
		       "Calls that returned on another CPU than they entered on",
		       false);
	for (i = 0; i < sizeof(sw_prom_gauges) / sizeof(*sw_prom_gauges); i++)
		sw_prom_column(x, s, sw_snapshot_col(s, sw_prom_gauges[i].col),
			       sw_prom_gauges[i].name, "gauge",
			       sw_prom_gauges[i].help, true);
	nunits = sw_hist_units(s, unit, sizeof(unit) / sizeof(*unit));
	for (i = 0; i < nunits; i++)
		sw_prom_hist(x, s, unit[i], o);
	sw_prom_quantiles(x, s);
	for (c = 0; c < s->ncols; c++) {
		if (sw_prom_is_known(s->col[c]) ||
		    sw_is_unit_total(s->col[c], unit, nunits))
			continue;
		sw_prom_name(name, sizeof(name), "", s->col[c]);
		snprintf(help, sizeof(help), "Column %s of the %s file",
			 s->col[c], strcmp(x->label, "span") ? "stats" :
							       "span_stats");
		sw_prom_column(x, s, (int)c, name, "gauge", help, false);
	}
}

/* The sampler's counters: samples by fate, losses by cause. */
static void sw_prom_sampler(const struct sw_prom_ctx *x,
			    const struct sw_sampler_counts *c)
{
	static const char lost[] = "stopwatch_sampler_lost_total";
	char name[SW_NAME_LEN], help[SW_NAME_LEN], buf[SW_UNITS_LEN];
	bool any_lost = false;
	size_t i;

	sw_prom_fam(x, "stopwatch_sampler_running", "gauge",
		    "1 while the sampler samples");
	fprintf(x->f, "stopwatch_sampler_running %d\n", c->running);
	for (i = 0; i < c->n; i++) {
		if (!strncmp(c->name[i], "lost_", 5)) {
			if (!any_lost)
				sw_prom_fam(x, lost, "counter",
					    "Samples lost, by cause (full: buffer full, nested, stack: unreadable stack, throttled)");
			any_lost = true;
			fprintf(x->f, "%s{cause=", lost);
			sw_prom_label_value(x->f, c->name[i] + 5);
			fprintf(x->f, "} %s\n", sw_u64_str(buf, c->val[i]));
		}
	}
	for (i = 0; i < c->n; i++) {
		if (!strncmp(c->name[i], "lost_", 5))
			continue;
		sw_prom_name(name, sizeof(name), "stopwatch_sampler_",
			     c->name[i]);
		strncat(name, "_total", sizeof(name) - strlen(name) - 1);
		snprintf(help, sizeof(help),
			 "Sampler counter %s, all CPUs, this session", c->name[i]);
		sw_prom_fam(x, name, "counter", help);
		fprintf(x->f, "%s %s\n", name, sw_u64_str(buf, c->val[i]));
	}
}

int sw_print_prom(FILE *f, const struct sw_snapshot *s,
		  const struct sw_display_opts *o)
{
	struct sw_prom_ctx x = { f, o->openmetrics, "stopwatch_", "probe",
				 o->max_series };
	int ret = 0;

	sw_prom_rows(&x, s, o);
	if (o->breakdown && s->bd)
		ret = sw_prom_breakdown(&x, s->bd, "stopwatch_breakdown_",
					NULL, s->bd->mode);
	if (!ret && s->keys)
		ret = sw_prom_breakdown(&x, s->keys, "stopwatch_keyed_", "key",
					"key");
	if (!ret && s->spans) {
		x.pre = "stopwatch_span_";
		x.label = "span";
		sw_prom_rows(&x, s->spans, o);
	}
	if (!ret && s->sampler)
		sw_prom_sampler(&x, s->sampler);
	if (o->openmetrics)
		fputs("# EOF\n", f);
	if (ret)
		return ret;
	return ferror(f) ? -EIO : 0;
}

int sw_print_missed(FILE *f, const struct sw_snapshot *s,
		    const struct sw_snapshot *prev)
{
	int cmiss = sw_snapshot_col(s, SW_COL_MISSED);
	int cmax = sw_snapshot_col(s, SW_COL_MISS_MAXACTIVE);
	int cre = sw_snapshot_col(s, SW_COL_MISS_REENTRY);
	int pmiss = prev ? sw_snapshot_col(prev, SW_COL_MISSED) : -1;
	size_t i;
	int n = 0;

	if (cmiss < 0)
		return 0;
	for (i = 0; i < s->nprobes; i++) {
		const struct sw_probe_stat *p = &s->probe[i];
		const struct sw_probe_stat *q;
		uint64_t missed = p->val[cmiss];

		if (!missed)
			continue;
		q = pmiss >= 0 ? sw_snapshot_probe(prev, p->name) : NULL;
		if (q && q->val[pmiss] == missed)
			continue;
		fprintf(f, "stopwatch: %s: %llu call%s missed", p->name,
			(unsigned long long)missed, missed == 1 ? "" : "s");
		if (cmax >= 0 && cre >= 0)
			fprintf(f, " (maxactive %llu, reentry %llu)",
				(unsigned long long)p->val[cmax],
				(unsigned long long)p->val[cre]);
		fputc('\n', f);
		n++;
	}
	return n;
}
