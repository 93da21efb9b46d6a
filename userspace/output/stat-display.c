// SPDX-License-Identifier: GPL-2.0
/*
 * stat-display.c - the output formats of "stopwatch stat".
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "stopwatch/files.h"
#include "base/json.h"
#include "output/prom.h"
#include "output/stat-display.h"
#include "base/units.h"
#include "base/utf8.h"

#define SW_NAME_LEN 256

static bool sw_ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && !strcmp(s + ls - lx, suffix);
}

/* An aligned text table: row 0 is the header. */
struct sw_grid {
	size_t ncols;
	size_t nrows;
	char **cell;
	bool *left;
};

static void sw_grid_free(struct sw_grid *g)
{
	size_t i;

	if (!g->cell)
		return;
	for (i = 0; i < g->ncols * g->nrows; i++)
		free(g->cell[i]);
	free(g->cell);
	free(g->left);
}

static int sw_grid_init(struct sw_grid *g, size_t ncols, size_t nrows)
{
	g->ncols = ncols;
	g->nrows = nrows;
	g->cell = calloc(ncols * nrows, sizeof(*g->cell));
	g->left = calloc(ncols, sizeof(*g->left));
	if (!g->cell || !g->left) {
		free(g->cell);
		free(g->left);
		g->cell = NULL;
		return -ENOMEM;
	}
	return 0;
}

/*
 * Stores a copy of @s that is safe on a terminal: control characters and
 * bytes that are not valid UTF-8 become \ooo, as the kernel escapes.
 */
static int sw_grid_set(struct sw_grid *g, size_t r, size_t c, const char *s)
{
	char **cell = &g->cell[r * g->ncols + c];
	const unsigned char *p = (const unsigned char *)s;
	char *o = malloc(strlen(s) * 4 + 1);
	int n;

	*cell = o;
	if (!o)
		return -ENOMEM;
	while (*p) {
		if (*p >= 0x80 && (n = sw_utf8_seq(p))) {
			memcpy(o, p, (size_t)n);
			o += n;
			p += n;
		} else if (*p < 0x20 || *p >= 0x7f) {
			o += sprintf(o, "\\%03o", *p++);
		} else {
			*o++ = (char)*p++;
		}
	}
	*o = '\0';
	return 0;
}

/* Terminal columns of a sanitized cell: UTF-8 continuation bytes take none. */
static size_t sw_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void sw_grid_print(FILE *f, const struct sw_grid *g)
{
	size_t *w = calloc(g->ncols, sizeof(*w)), r, c;

	if (!w)
		return;
	for (r = 0; r < g->nrows; r++)
		for (c = 0; c < g->ncols; c++) {
			size_t l = sw_width(g->cell[r * g->ncols + c]);

			if (l > w[c])
				w[c] = l;
		}
	for (r = 0; r < g->nrows; r++) {
		for (c = 0; c < g->ncols; c++) {
			const char *s = g->cell[r * g->ncols + c];
			size_t pad = w[c] - sw_width(s);

			if (c)
				fputs("  ", f);
			if (!g->left[c])
				fprintf(f, "%*s", (int)pad, "");
			fputs(s, f);
			if (g->left[c] && c + 1 < g->ncols)
				fprintf(f, "%*s", (int)pad, "");
		}
		fputc('\n', f);
	}
	free(w);
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

int sw_print_table(FILE *f, const struct sw_snapshot *s,
		   const struct sw_display_opts *o)
{
	size_t i, k;
	int ret;

	ret = sw_print_stats_grid(f, s, o);
	if (!ret && o->breakdown && s->bd) {
		fprintf(f, "\nbreakdown by %s:\n", s->bd->mode);
		ret = sw_print_bd_grid(f, s->bd, o);
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

int sw_print_json(FILE *f, const struct sw_snapshot *s,
		  const struct sw_display_opts *o)
{
	char buf[SW_UNITS_LEN];
	size_t i, c;

	fprintf(f, "{\"time_ns\":%llu,\"probes\":[",
		(unsigned long long)s->time_ns);
	for (i = 0; i < s->nprobes; i++) {
		const struct sw_probe_stat *p = &s->probe[i];

		fputs(i ? ",{" : "{", f);
		sw_json_key(f, "probe");
		sw_json_str(f, p->name);
		for (c = 0; c < s->ncols; c++) {
			fputc(',', f);
			sw_json_key(f, s->col[c]);
			fputs(sw_fmt_fixed(buf, p->val[c], s->places[c]), f);
		}
		if (o->hist)
			sw_json_hist(f, p->hist);
		fputc('}', f);
	}
	fputc(']', f);
	if (o->breakdown && s->bd)
		sw_json_breakdown(f, s->bd);
	fputs("}\n", f);
	return ferror(f) ? -EIO : 0;
}

/* ---- Prometheus ---- */

/* Columns the Prometheus writer maps onto named metrics. */
static const char *const sw_prom_known[] = {
	SW_COLS_TIMING, SW_COL_MISSED, SW_COL_MISS_MAXACTIVE,
	SW_COL_MISS_REENTRY, SW_COL_MIGRATED,
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
};

static bool sw_prom_is_known(const char *col)
{
	size_t i;

	for (i = 0; i < sizeof(sw_prom_known) / sizeof(*sw_prom_known); i++)
		if (!strcmp(sw_prom_known[i], col))
			return true;
	return false;
}

/* name{probe="..."[,lname="lval"]} value */
static void sw_prom_sample(FILE *f, const char *name, const char *probe,
			   const char *lname, const char *lval,
			   const char *value)
{
	fprintf(f, "%s{probe=", name);
	sw_prom_label_value(f, probe);
	if (lname) {
		fprintf(f, ",%s=", lname);
		sw_prom_label_value(f, lval);
	}
	fprintf(f, "} %s\n", value);
}

static const char *sw_u64_str(char *buf, uint64_t v)
{
	snprintf(buf, SW_UNITS_LEN, "%llu", (unsigned long long)v);
	return buf;
}

/* One family with one sample per probe from column @c. */
static void sw_prom_column(FILE *f, const struct sw_snapshot *s, int c,
			   const char *name, const char *type,
			   const char *help, bool seconds)
{
	char buf[SW_UNITS_LEN];
	size_t i;

	if (c < 0)
		return;
	sw_prom_family(f, name, type, help);
	for (i = 0; i < s->nprobes; i++) {
		uint64_t v = s->probe[i].val[c];

		sw_prom_sample(f, name, s->probe[i].name, NULL, NULL,
			       seconds ? sw_fmt_seconds(buf, v) :
					 sw_fmt_fixed(buf, v, s->places[c]));
	}
}

static void sw_prom_missed(FILE *f, const struct sw_snapshot *s)
{
	static const char name[] = "stopwatch_missed_total";
	int cmax = sw_snapshot_col(s, SW_COL_MISS_MAXACTIVE);
	int cre = sw_snapshot_col(s, SW_COL_MISS_REENTRY);
	int call = sw_snapshot_col(s, SW_COL_MISSED);
	char buf[SW_UNITS_LEN];
	size_t i;

	if (cmax < 0 && cre < 0) {
		sw_prom_column(f, s, call, name, "counter",
			       "Calls that were not measured", false);
		return;
	}
	sw_prom_family(f, name, "counter",
		       "Calls that were not measured, by cause: maxactive (no free kretprobe instance) or reentry (probe hit while a probe handler ran)");
	for (i = 0; i < s->nprobes; i++) {
		const struct sw_probe_stat *p = &s->probe[i];

		if (cmax >= 0)
			sw_prom_sample(f, name, p->name, "cause", "maxactive",
				       sw_u64_str(buf, p->val[cmax]));
		if (cre >= 0)
			sw_prom_sample(f, name, p->name, "cause", "reentry",
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

/*
 * Histogram family of @unit.  A probe without that histogram (or when
 * histograms were not read) gets only the +Inf bucket, from its calls.
 */
static void sw_prom_hist(FILE *f, const struct sw_snapshot *s,
			 const char *unit, const struct sw_display_opts *o)
{
	bool ns = !strcmp(unit, "ns");
	char name[SW_NAME_LEN], sample[SW_NAME_LEN + 16], help[SW_NAME_LEN];
	char buf[SW_UNITS_LEN], le[SW_UNITS_LEN];
	int top = SW_PROM_TOP_MIN, b;
	int ccalls = sw_snapshot_col(s, SW_COL_CALLS);
	int csum;
	size_t i;

	snprintf(name, sizeof(name), "%s_total", unit);
	csum = sw_snapshot_col(s, ns ? "total_ns" : name);
	if (ns) {
		snprintf(name, sizeof(name), "stopwatch_duration_seconds");
		snprintf(help, sizeof(help),
			 "Call duration, log2 buckets (le is the exclusive upper bound 2^b ns)");
	} else {
		sw_prom_name(name, sizeof(name), "stopwatch_", unit);
		snprintf(help, sizeof(help),
			 "Per-call %s, log2 buckets (le is the exclusive upper bound 2^b)",
			 unit);
	}
	for (i = 0; o->hist && i < s->nprobes; i++) {
		const struct sw_hist *h = sw_hist_find(s->probe[i].hist, unit);

		if (h && sw_hist_top(h) > top)
			top = sw_hist_top(h);
	}

	sw_prom_family(f, name, "histogram", help);
	for (i = 0; i < s->nprobes; i++) {
		const struct sw_probe_stat *p = &s->probe[i];
		const struct sw_hist *h = o->hist ? sw_hist_find(p->hist, unit)
						  : NULL;
		uint64_t cum = 0;

		if (!h && (!ns || ccalls < 0))
			continue;
		snprintf(sample, sizeof(sample), "%s_bucket", name);
		for (b = 0; h && b <= top; b++) {
			cum = sw_sat_add(cum, h->bucket[b]);
			sw_prom_sample(f, sample, p->name, "le",
				       sw_prom_le(le, (unsigned int)b, ns),
				       sw_u64_str(buf, cum));
		}
		if (h)
			cum = sw_hist_total(h);
		else
			cum = p->val[ccalls];
		sw_prom_sample(f, sample, p->name, "le", "+Inf",
			       sw_u64_str(buf, cum));
		if (csum >= 0) {
			snprintf(sample, sizeof(sample), "%s_sum", name);
			sw_prom_sample(f, sample, p->name, NULL, NULL,
				       ns ? sw_fmt_seconds(buf, p->val[csum]) :
					    sw_u64_str(buf, p->val[csum]));
		}
		snprintf(sample, sizeof(sample), "%s_count", name);
		sw_prom_sample(f, sample, p->name, NULL, NULL,
			       sw_u64_str(buf, cum));
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

static void sw_prom_bd_sample(FILE *f, const char *name,
			      const struct sw_bd_row *row, const char *lname,
			      const char *value)
{
	fprintf(f, "%s{probe=", name);
	sw_prom_label_value(f, row->probe);
	fprintf(f, ",%s=", lname);
	sw_prom_label_value(f, row->other ? "other" : row->text);
	fprintf(f, "} %s\n", value);
}

static void sw_prom_bd_column(FILE *f, const struct sw_breakdown *bd,
			      const char *lname, int c, const char *name,
			      const char *type, const char *help, bool seconds)
{
	char buf[SW_UNITS_LEN];
	size_t r;

	if (c < 0)
		return;
	sw_prom_family(f, name, type, help);
	for (r = 0; r < bd->nrows; r++) {
		uint64_t v = bd->row[r].val[c];

		sw_prom_bd_sample(f, name, &bd->row[r], lname,
				  seconds ? sw_fmt_seconds(buf, v) :
					    sw_fmt_fixed(buf, v, bd->places[c]));
	}
}

static void sw_prom_breakdown(FILE *f, const struct sw_breakdown *bd)
{
	char lname[SW_NAME_LEN], name[SW_NAME_LEN], help[SW_NAME_LEN];
	size_t i, c;

	if (!bd->nrows)
		return;
	sw_prom_name(lname, sizeof(lname), "", bd->mode);
	if (lname[0] >= '0' && lname[0] <= '9')
		lname[0] = '_';
	for (c = 0; lname[c]; c++)
		if (lname[c] == ':')
			lname[c] = '_';

	snprintf(help, sizeof(help), "Calls, by %s", bd->mode);
	sw_prom_bd_column(f, bd, lname, sw_breakdown_col(bd, "calls"),
			  "stopwatch_breakdown_calls_total", "counter", help,
			  false);
	snprintf(help, sizeof(help), "Time spent in calls, by %s", bd->mode);
	sw_prom_bd_column(f, bd, lname, sw_breakdown_col(bd, "total_ns"),
			  "stopwatch_breakdown_duration_seconds_total",
			  "counter", help, true);
	for (i = 0; i < sizeof(sw_prom_gauges) / sizeof(*sw_prom_gauges); i++) {
		snprintf(name, sizeof(name), "stopwatch_breakdown_%s",
			 sw_prom_gauges[i].name);
		snprintf(help, sizeof(help), "%s, by %s",
			 sw_prom_gauges[i].help, bd->mode);
		sw_prom_bd_column(f, bd, lname,
				  sw_breakdown_col(bd, sw_prom_gauges[i].col),
				  name, "gauge", help, true);
	}
	for (c = 0; c < bd->ncols; c++) {
		if (sw_prom_is_known(bd->col[c]))
			continue;
		sw_prom_name(name, sizeof(name), "stopwatch_breakdown_",
			     bd->col[c]);
		snprintf(help, sizeof(help),
			 "Column %s of breakdown_stats, by %s", bd->col[c],
			 bd->mode);
		sw_prom_bd_column(f, bd, lname, (int)c, name, "gauge", help,
				  false);
	}
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

int sw_print_prom(FILE *f, const struct sw_snapshot *s,
		  const struct sw_display_opts *o)
{
	char name[SW_NAME_LEN], help[SW_NAME_LEN];
	const char *unit[16];
	size_t i, c, nunits;

	sw_prom_column(f, s, sw_snapshot_col(s, SW_COL_CALLS),
		       "stopwatch_calls_total", "counter",
		       "Calls measured", false);
	sw_prom_missed(f, s);
	sw_prom_column(f, s, sw_snapshot_col(s, SW_COL_MIGRATED),
		       "stopwatch_migrated_total", "counter",
		       "Calls that returned on another CPU than they entered on",
		       false);
	for (i = 0; i < sizeof(sw_prom_gauges) / sizeof(*sw_prom_gauges); i++) {
		snprintf(name, sizeof(name), "stopwatch_%s",
			 sw_prom_gauges[i].name);
		sw_prom_column(f, s, sw_snapshot_col(s, sw_prom_gauges[i].col),
			       name, "gauge", sw_prom_gauges[i].help, true);
	}
	nunits = sw_hist_units(s, unit, sizeof(unit) / sizeof(*unit));
	for (i = 0; i < nunits; i++)
		sw_prom_hist(f, s, unit[i], o);
	for (c = 0; c < s->ncols; c++) {
		if (sw_prom_is_known(s->col[c]) ||
		    sw_is_unit_total(s->col[c], unit, nunits))
			continue;
		sw_prom_name(name, sizeof(name), "stopwatch_", s->col[c]);
		snprintf(help, sizeof(help), "Column %s of the stats file",
			 s->col[c]);
		sw_prom_column(f, s, (int)c, name, "gauge", help, false);
	}
	if (o->breakdown && s->bd)
		sw_prom_breakdown(f, s->bd);
	return ferror(f) ? -EIO : 0;
}

int sw_print_missed(FILE *f, const struct sw_snapshot *s,
		    const struct sw_snapshot *prev)
{
	int cmiss = sw_snapshot_col(s, SW_COL_MISSED);
	int cmax = sw_snapshot_col(s, SW_COL_MISS_MAXACTIVE);
	int cre = sw_snapshot_col(s, SW_COL_MISS_REENTRY);
	int pmiss = prev ? sw_snapshot_col(prev, "missed") : -1;
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
