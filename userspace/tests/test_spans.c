// SPDX-License-Identifier: GPL-2.0
/*
 * test_spans.c - the spans' files as the module wrote them (spans,
 * span_stats, span_keys, span_hist/<span>, span_lhists in fixtures/x86_64 and
 * fixtures/arm64: scripts/capture-fixtures.sh with the spans of
 * tests/vm/suites/fixtures.sh, each counting the workload's dd only),
 * read through the program's own readers: the spans file's lines with the
 * module's parser (lib/spanspec.c), span_stats and span_hist/ with the
 * snapshot loader, span_keys with the keys file's reader; then what the
 * writers make of them: the text table (stopwatch stat, stopwatch span),
 * the Prometheus families (stopwatch serve; golden/<arch>-spans.prom),
 * and the spans section of the guest's stat.txt.
 *
 * The workload's dd count comes from each directory's workload file; the
 * test splits every table itself too and holds the readers against that.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "base/units.h"
#include "control/config.h"
#include "control/snapshot.h"
#include "output/htable.h"
#include "output/stat-display.h"
#include "stopwatch/files.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_COLS 64
#define MAX_ROWS 32

static const char *const arches[] = { "x86_64", "arm64" };

/*
 * span_stats' columns before the event columns, in the module's order
 * (span/spans.c, sw_span_stats_show()).
 */
static const char *const span_cols[] = {
	"span", SW_COLS_TIMING, "migrated", "in_flight", "started",
	"restarted", "dropped_full", "unmatched", "abandoned", "unreadable",
	"skipped", "nested", "other_thread", "ev_no_slot", "ev_too_deep",
	"ev_lost", "missed", SW_COL_FILTERED, SW_COL_FILTERED_SHORT,
	SW_COL_FILTERED_LONG, SW_COL_DETACHED, SW_COLS_PCT,
};

/* A table split at white space by the test: header, rows of cells. */
struct split {
	char *text;
	size_t ncols;
	size_t nrows;
	char *hdr[MAX_COLS];
	char *cell[MAX_ROWS][MAX_COLS];
};

/* The words of @line (cut in place) into @w; their count. */
static size_t words(char *line, char **w, size_t max)
{
	char *save = NULL, *t;
	size_t n = 0;

	for (t = strtok_r(line, " \t\n", &save); t;
	     t = strtok_r(NULL, " \t\n", &save)) {
		assert_true(n < max);
		w[n++] = t;
	}
	return n;
}

/* @path split: every row has the header's number of cells. */
static void split_file(const char *path, struct split *t)
{
	char *line, *save = NULL;
	size_t n;

	memset(t, 0, sizeof(*t));
	t->text = read_text(path);
	for (line = strtok_r(t->text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!t->ncols) {
			t->ncols = words(line, t->hdr, MAX_COLS);
			continue;
		}
		assert_true(t->nrows < MAX_ROWS);
		n = words(line, t->cell[t->nrows], MAX_COLS);
		if (n != t->ncols)
			fail_msg("%s: a row of %zu cells under %zu columns",
				 path, n, t->ncols);
		t->nrows++;
	}
	assert_true(t->ncols > 0);
}

static int hcol(const struct split *t, const char *name)
{
	size_t c;

	for (c = 0; c < t->ncols; c++)
		if (!strcmp(t->hdr[c], name))
			return (int)c;
	fail_msg("no column %s", name);
	return -1;
}

static uint64_t num(const char *s)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || *s == '-')
		fail_msg("'%s' is not an unsigned number", s);
	return v;
}

/* A cell the module prints with decimals ("1.250"), scaled by them. */
static uint64_t fixed(const char *s, unsigned int *places)
{
	const char *dot = strchr(s, '.');
	char digits[64];
	size_t l = strlen(s);

	*places = dot ? (unsigned int)(s + l - dot - 1) : 0;
	assert_true(l < sizeof(digits));
	if (!dot)
		return num(s);
	memcpy(digits, s, (size_t)(dot - s));
	strcpy(digits + (dot - s), dot + 1);
	return num(digits);
}

static uint64_t cellv(const struct split *t, size_t r, const char *col)
{
	return num(t->cell[r][hcol(t, col)]);
}

static char *path_of(const char *arch, const char *file)
{
	char *p = NULL;

	assert_true(asprintf(&p, "fixtures/%s/%s", arch, file) > 0);
	return p;
}

static char *read_fixture(const char *arch, const char *file)
{
	char *p = path_of(arch, file), *text = read_text(p);

	free(p);
	return text;
}

/* count= of the workload's dd (the workload file's "workload dd" line). */
static uint64_t workload_dd(const char *arch)
{
	char *text = read_fixture(arch, "workload"), *l, *c;
	uint64_t n = 0;

	for (l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (strncmp(l, "workload dd ", 12))
			continue;
		c = strstr(l, " count=");
		assert_non_null(c);
		n = strtoull(c + 7, NULL, 10);
	}
	free(text);
	if (!n)
		fail_msg("fixtures/%s/workload: no 'workload dd ... count=N' line",
			 arch);
	return n;
}

/*
 * The spans file's lines, read as stopwatch serve reads a configuration's
 * "spans LINE" (control/config.c: the module's parser, lib/spanspec.c):
 * each one span's name; @by: the line's by= option, or "".
 */
struct spans {
	size_t n;
	char line[MAX_ROWS][512];
	char name[MAX_ROWS][64];
	char by[MAX_ROWS][16];
};

static void read_spans(const char *arch, struct spans *sp)
{
	char *text = read_fixture(arch, "spans"), *conf = NULL, *l, *b;
	char *save = NULL;
	struct sw_conf *c = NULL;
	struct sw_err err = { "" };
	size_t len = 0, i;
	FILE *f = open_memstream(&conf, &len);

	assert_non_null(f);
	memset(sp, 0, sizeof(*sp));
	for (l = strtok_r(text, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		assert_true(sp->n < MAX_ROWS && strlen(l) < sizeof(sp->line[0]));
		strcpy(sp->line[sp->n], l);
		b = strstr(l, " by=");
		if (b)
			snprintf(sp->by[sp->n], sizeof(sp->by[0]), "%.*s",
				 (int)strcspn(b + 4, " "), b + 4);
		fprintf(f, "spans %s\n", l);
		sp->n++;
	}
	assert_int_equal(fclose(f), 0);
	assert_true(sp->n > 0);
	if (sw_conf_parse(conf, "spans", &c, &err))
		fail_msg("fixtures/%s/spans: %s", arch, err.msg);
	assert_int_equal(c->n, sp->n);
	for (i = 0; i < c->n; i++) {
		assert_int_equal(c->line[i].kind, SW_CONF_SPANS);
		assert_string_equal(c->line[i].text, sp->line[i]);
		assert_int_equal(c->line[i].nnames, 1);
		assert_true(strlen(c->line[i].names[0]) < sizeof(sp->name[0]));
		strcpy(sp->name[i], c->line[i].names[0]);
	}
	sw_conf_free(c);
	free(conf);
	free(text);
}

static struct sw_snapshot *load_spans(const char *arch)
{
	const struct sw_snapshot_opts o = { .hist = true, .spans = true };
	struct sw_snapshot *s = NULL;
	struct sw_err err = { "" };
	char dir[64];

	snprintf(dir, sizeof(dir), "fixtures/%s", arch);
	if (sw_snapshot_load(dir, &o, &s, &err))
		fail_msg("load %s: %s", dir, err.msg);
	assert_non_null(s->spans);
	return s;
}

/*
 * The spans file: each line a span the module's parser takes, as the
 * workload file records them, in span_stats' order; at least one with
 * by= (the rows of span_keys).
 */
static void test_spans_file(void **state)
{
	size_t a, i;

	(void)state;
	for (a = 0; a < ARRAY_LEN(arches); a++) {
		char *wl = read_fixture(arches[a], "workload"), *l;
		struct spans *sp = calloc(1, sizeof(*sp));
		struct split st;
		char want[600];
		size_t by = 0;

		assert_non_null(sp);
		read_spans(arches[a], sp);
		l = wl;
		for (i = 0; i < sp->n; i++) {
			snprintf(want, sizeof(want), "\nspan %s\n", sp->line[i]);
			l = strstr(l, want);
			if (!l)
				fail_msg("fixtures/%s/workload: no line 'span %s' (in the spans file's order)",
					 arches[a], sp->line[i]);
			by += sp->by[i][0] != 0;
		}
		l = path_of(arches[a], "span_stats");
		split_file(l, &st);
		free(l);
		assert_int_equal(st.nrows, sp->n);
		for (i = 0; i < sp->n; i++)
			assert_string_equal(st.cell[i][0], sp->name[i]);
		assert_true(by > 0);
		free(st.text);
		free(sp);
		free(wl);
	}
}

/*
 * span_stats' header: the span columns, then the event file's events'
 * columns (cpi_* with cycles and instructions); the snapshot loader keeps
 * every one of them, each row's values as the file has them.
 */
static void test_span_stats_columns(void **state)
{
	static const char *const ev[] = { SW_COLS_EVENT };
	static const char *const cpi[] = { SW_COLS_CPI };
	size_t a, c, r, k;

	(void)state;
	for (a = 0; a < ARRAY_LEN(arches); a++) {
		char *evs = read_fixture(arches[a], "events"), *e[8], *p;
		struct sw_snapshot *s = load_spans(arches[a]);
		size_t nev = words(evs, e, ARRAY_LEN(e));
		bool cyc = false, ins = false;
		char name[96];
		struct split st;

		assert_true(nev > 0);	/* the fixtures are captured with events */
		for (k = 0; k < nev; k++) {
			cyc |= !strcmp(e[k], "cycles");
			ins |= !strcmp(e[k], "instructions");
		}
		p = path_of(arches[a], "span_stats");
		split_file(p, &st);
		free(p);
		assert_int_equal(st.ncols, ARRAY_LEN(span_cols) +
					   nev * ARRAY_LEN(ev) +
					   (cyc && ins ? ARRAY_LEN(cpi) : 0));
		for (c = 0; c < ARRAY_LEN(span_cols); c++)
			assert_string_equal(st.hdr[c], span_cols[c]);
		for (k = 0; k < nev; k++)
			for (r = 0; r < ARRAY_LEN(ev); r++, c++) {
				snprintf(name, sizeof(name), "%s%s", e[k], ev[r]);
				assert_string_equal(st.hdr[c], name);
			}
		for (k = 0; cyc && ins && k < ARRAY_LEN(cpi); k++, c++)
			assert_string_equal(st.hdr[c], cpi[k]);

		/* The loader: every column but "span", every row, every value. */
		assert_int_equal(s->spans->ncols, st.ncols - 1);
		assert_int_equal(s->spans->nprobes, st.nrows);
		for (c = 1; c < st.ncols; c++) {
			assert_string_equal(s->spans->col[c - 1], st.hdr[c]);
			assert_int_equal(sw_snapshot_col(s->spans, st.hdr[c]),
					 (int)c - 1);
		}
		for (r = 0; r < st.nrows; r++) {
			assert_string_equal(s->spans->probe[r].name, st.cell[r][0]);
			for (c = 1; c < st.ncols; c++) {
				unsigned int pl;
				uint64_t v = fixed(st.cell[r][c], &pl);

				assert_int_equal(s->spans->places[c - 1], pl);
				assert_int_equal(pl, strncmp(st.hdr[c], "cpi_", 4) ?
							     0 : 3);
				if (s->spans->probe[r].val[c - 1] != v)
					fail_msg("%s: span %s column %s: read %llu, the file has %s",
						 arches[a], st.cell[r][0],
						 st.hdr[c],
						 (unsigned long long)s->spans->probe[r].val[c - 1],
						 st.cell[r][c]);
			}
		}
		free(st.text);
		free(evs);
		sw_snapshot_free(s);
	}
}

/* A span's value in column @col (which the snapshot must have). */
static uint64_t span_val(const struct sw_snapshot *sp,
			 const struct sw_probe_stat *p, const char *col)
{
	int c = sw_snapshot_col(sp, col);

	if (c < 0)
		fail_msg("span_stats has no column %s", col);
	return p->val[c];
}

#define V(col) span_val(sp, p, col)

static uint64_t lin_sum(const struct sw_probe_stat *p)
{
	unsigned int b, n = sw_lhist_nbuckets(p->lin_bits);
	uint64_t v = 0;

	for (b = 0; b < n; b++)
		v += p->lin[b];
	return v;
}

/*
 * Each span counted at least the workload's dd count; its histograms
 * (span_hist/<span>, and its section of span_lhists) hold exactly its
 * calls, the fine one its total too; the timing columns are in order.
 */
static void test_span_counts(void **state)
{
	size_t a, r;

	(void)state;
	for (a = 0; a < ARRAY_LEN(arches); a++) {
		uint64_t dd = workload_dd(arches[a]);
		struct sw_snapshot *s = load_spans(arches[a]);
		const struct sw_snapshot *sp = s->spans;

		for (r = 0; r < sp->nprobes; r++) {
			const struct sw_probe_stat *p = &sp->probe[r];
			const struct sw_hist *h = sw_hist_find(p->hist, "ns");
			uint64_t calls = V(SW_COL_CALLS);

			if (calls < dd)
				fail_msg("%s: span %s: %llu calls, fewer than dd's %llu",
					 arches[a], p->name,
					 (unsigned long long)calls,
					 (unsigned long long)dd);
			assert_non_null(h);
			assert_int_equal(p->hist->n, 1);
			assert_true(h->calls == calls);
			assert_true(sw_hist_total(h) == calls);
			assert_true(V(SW_COL_MIN_NS) <= V(SW_COL_AVG_NS));
			assert_true(V(SW_COL_AVG_NS) <= V(SW_COL_MAX_NS));
			assert_true(V(SW_COL_MIN_NS) <= V(SW_COL_P50_NS));
			assert_true(V(SW_COL_P50_NS) <= V(SW_COL_P90_NS));
			assert_true(V(SW_COL_P90_NS) <= V(SW_COL_P99_NS));
			assert_true(V(SW_COL_P99_NS) <= V(SW_COL_P999_NS));
			assert_true(V(SW_COL_P999_NS) <= V(SW_COL_MAX_NS));
			assert_true(V(SW_COL_TOTAL_NS) >= calls * V(SW_COL_MIN_NS));
			assert_true(V(SW_COL_TOTAL_NS) <= calls * V(SW_COL_MAX_NS));
			/* span_lhists: the same calls and total, fine buckets */
			if (!p->lin)
				fail_msg("%s: span %s: no span_lhists section",
					 arches[a], p->name);
			assert_true(p->lin_has_total);
			assert_true(p->lin_total == V(SW_COL_TOTAL_NS));
			assert_true(lin_sum(p) == calls);
		}
		sw_snapshot_free(s);
	}
}

/*
 * span_keys, read as the keys file is (its layout): the header of the
 * keys file; the rows of a span with by= add up to its calls, within its
 * min and max, the others have none; the by=comm span has dd's row with
 * at least dd's count.
 */
static void test_span_keys(void **state)
{
	size_t a, i, r, c;

	(void)state;
	for (a = 0; a < ARRAY_LEN(arches); a++) {
		uint64_t dd = workload_dd(arches[a]);
		struct sw_snapshot *s = load_spans(arches[a]);
		struct spans *sp = calloc(1, sizeof(*sp));
		char *text = read_fixture(arches[a], "span_keys");
		char *kp = path_of(arches[a], SW_FILE_KEYS);
		struct sw_breakdown *bd = NULL, *all = NULL;
		struct sw_err err = { "" };
		struct split keys;
		bool dd_row = false;
		int cc, cmin, cmax;

		assert_non_null(sp);
		read_spans(arches[a], sp);
		if (sw_breakdown_parse(text, SW_COL_KEY, "span_keys", s->spans,
				       &bd, &err))
			fail_msg("%s: span_keys: %s", arches[a], err.msg);
		assert_int_equal(sw_breakdown_parse(text, SW_COL_KEY,
						    "span_keys", NULL, &all,
						    &err), 0);
		/* no row of a span span_stats does not list */
		assert_int_equal(all->nrows, bd->nrows);
		assert_string_equal(bd->mode, SW_COL_KEY);
		split_file(kp, &keys);
		assert_int_equal(bd->ncols + 2, keys.ncols);
		for (c = 0; c < bd->ncols; c++)
			assert_string_equal(bd->col[c], keys.hdr[c + 2]);
		cc = sw_breakdown_col(bd, SW_COL_CALLS);
		cmin = sw_breakdown_col(bd, SW_COL_MIN_NS);
		cmax = sw_breakdown_col(bd, SW_COL_MAX_NS);
		assert_true(cc >= 0 && cmin >= 0 && cmax >= 0);
		for (i = 0; i < sp->n; i++) {
			const char *name = sp->name[i];
			uint64_t sum = 0, calls;
			size_t n = 0;

			calls = span_val(s->spans, &s->spans->probe[i],
					 SW_COL_CALLS);
			assert_string_equal(s->spans->probe[i].name, name);
			for (r = 0; r < bd->nrows; r++) {
				if (strcmp(bd->row[r].probe, name))
					continue;
				sum += bd->row[r].val[cc];
				n++;
				/* a row's intervals are some of the span's */
				assert_true(bd->row[r].val[cmin] >=
					    span_val(s->spans, &s->spans->probe[i],
						     SW_COL_MIN_NS));
				assert_true(bd->row[r].val[cmax] <=
					    span_val(s->spans, &s->spans->probe[i],
						     SW_COL_MAX_NS));
				if (!strcmp(sp->by[i], "comm") &&
				    !strcmp(bd->row[r].text, "comm=dd")) {
					assert_true(bd->row[r].val[cc] >= dd);
					dd_row = true;
				}
			}
			if (!sp->by[i][0]) {
				assert_int_equal(n, 0);
				continue;
			}
			assert_true(n > 0);
			if (sum != calls)
				fail_msg("%s: span %s: its span_keys rows hold %llu calls, span_stats %llu",
					 arches[a], name,
					 (unsigned long long)sum,
					 (unsigned long long)calls);
		}
		assert_true(dd_row);
		free(keys.text);
		free(kp);
		free(text);
		free(sp);
		sw_breakdown_free(bd);
		sw_breakdown_free(all);
		sw_snapshot_free(s);
	}
}

/* The head the text table gives column @c of @st (stat-display.c). */
static void text_head(const struct split *st, size_t c, char *buf,
		      size_t len)
{
	const char *name = st->hdr[c];
	size_t l = strlen(name);
	unsigned int pl;

	fixed(st->cell[0][c], &pl);
	snprintf(buf, len, "%s", name);
	if (!sw_loss_note(name) && !pl && l > 3 &&
	    !strcmp(name + l - 3, "_ns"))
		buf[l - 3] = '\0';
}

/* Whether any row of @st (rows @r0..@r1-1) has column @c nonzero. */
static bool any_set(const struct split *st, size_t c, size_t r0, size_t r1)
{
	unsigned int pl;
	size_t r;

	for (r = r0; r < r1; r++)
		if (fixed(st->cell[r][c], &pl))
			return true;
	return false;
}

/*
 * The text table of span_stats: stopwatch stat's (every span a row,
 * every column with a value shown, calls always) and stopwatch span's
 * (one span, its columns as lines), from the real file and from a copy
 * of each row alone under the header.
 */
static void test_span_text(void **state)
{
	size_t a, c, r, n;

	(void)state;
	for (a = 0; a < ARRAY_LEN(arches); a++) {
		char *p = path_of(arches[a], "span_stats");
		char *text = read_text(p), *out = NULL, *l, *w[MAX_COLS];
		char head[96], buf[64];
		struct sw_table *tab = NULL;
		struct split st;

		split_file(p, &st);
		assert_int_equal(sw_table_parse(text, "span_stats", &tab, NULL), 0);
		CAPTURE(out, {
			assert_int_equal(sw_print_text_table(f, tab, "span",
							     false, 0, NULL), 0);
		});
		sw_table_free(tab);
		/* The header: every column that has a value, in order. */
		l = strtok(out, "\n");
		assert_non_null(l);
		n = words(l, w, MAX_COLS);
		assert_string_equal(w[0], "span");
		for (c = 1, r = 1; c < st.ncols; c++) {
			if (strcmp(st.hdr[c], SW_COL_CALLS) &&
			    !any_set(&st, c, 0, st.nrows))
				continue;
			text_head(&st, c, head, sizeof(head));
			assert_true(r < n);
			assert_string_equal(w[r], head);
			r++;
		}
		assert_int_equal(r, n);
		/* A row per span, its calls in the calls column. */
		for (r = 0; r < st.nrows; r++) {
			l = strtok(NULL, "\n");
			assert_non_null(l);
			assert_true(words(l, w, MAX_COLS) >= 2);
			assert_string_equal(w[0], st.cell[r][0]);
			assert_string_equal(w[1], sw_fmt_count(buf,
					cellv(&st, r, SW_COL_CALLS)));
		}
		free(out);

		/* One span at a time, as stopwatch span shows it. */
		for (r = 0; r < st.nrows; r++) {
			char *one = NULL, *h = read_text(p);
			int hlen = (int)strcspn(h, "\n") + 1;
			size_t k;

			/* the header line, then row r's line of the file */
			l = h + hlen;
			for (k = 0; k < r; k++)
				l += strcspn(l, "\n") + 1;
			assert_true(asprintf(&one, "%.*s%.*s\n", hlen, h,
					     (int)strcspn(l, "\n"), l) > 0);
			free(h);
			assert_int_equal(sw_table_parse(one, "span_stats", &tab,
							NULL), 0);
			CAPTURE(out, {
				assert_int_equal(sw_print_text_table(f, tab,
						"span", true, 0, NULL), 0);
			});
			sw_table_free(tab);
			free(one);
			l = strtok(out, "\n");
			assert_string_equal(l, st.cell[r][0]);
			for (c = 1; c < st.ncols; c++) {
				if (strcmp(st.hdr[c], SW_COL_CALLS) &&
				    !any_set(&st, c, r, r + 1))
					continue;
				text_head(&st, c, head, sizeof(head));
				l = strtok(NULL, "\n");
				assert_non_null(l);
				assert_true(words(l, w, MAX_COLS) >= 2);
				assert_string_equal(w[0], head);
				if (!strcmp(st.hdr[c], SW_COL_CALLS))
					assert_string_equal(w[1],
						sw_fmt_count(buf, cellv(&st, r,
							SW_COL_CALLS)));
			}
			/*
			 * then only footnotes of loss columns ('!') and of
			 * calls left out by choice ('*'): "! COLUMN: ..."
			 */
			while ((l = strtok(NULL, "\n"))) {
				char col[64];

				if ((l[0] != '!' && l[0] != '*') || l[1] != ' ' ||
				    sscanf(l + 2, "%63[^:]:", col) != 1 ||
				    !sw_loss_note(col))
					fail_msg("%s: span %s: '%s' after its columns",
						 arches[a], st.cell[r][0], l);
			}
			free(out);
		}
		free(st.text);
		free(text);
		free(p);
	}
}

/* A metric name part as the Prometheus text format allows it. */
static void prom_part(char *out, size_t len, const char *s)
{
	size_t n;

	for (n = 0; s[n] && n + 1 < len; n++) {
		char c = s[n];

		out[n] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
				 c == '_' || c == ':' ||
				 (n && c >= '0' && c <= '9') ?
			 c : '_';
	}
	out[n] = '\0';
}

/*
 * The Prometheus page with spans (stopwatch serve's): the probes' families
 * as without them, then the spans' (golden/<arch>-spans.prom), where every
 * column of span_stats is a sample of every span: the timing in seconds,
 * the percentiles as quantiles, the counts, the others by their name.
 */
static void test_span_prom(void **state)
{
	static const struct {
		const char *col;
		const char *metric;	/* after "stopwatch_span_" */
		const char *label;	/* after the span's */
		bool seconds;
	} known[] = {
		{ SW_COL_CALLS, "calls_total", "", false },
		{ SW_COL_MIN_NS, "duration_min_seconds", "", true },
		{ SW_COL_AVG_NS, "duration_avg_seconds", "", true },
		{ SW_COL_MAX_NS, "duration_max_seconds", "", true },
		{ SW_COL_STDDEV_NS, "duration_stddev_seconds", "", true },
		{ SW_COL_TOTAL_NS, "duration_seconds_sum", "", true },
		{ SW_COL_MISSED, "missed_total", "", false },
		{ SW_COL_MIGRATED, "migrated_total", "", false },
		{ SW_COL_P50_NS, "duration_quantile_seconds", ",quantile=\"0.5\"", true },
		{ SW_COL_P90_NS, "duration_quantile_seconds", ",quantile=\"0.9\"", true },
		{ SW_COL_P99_NS, "duration_quantile_seconds", ",quantile=\"0.99\"", true },
		{ SW_COL_P999_NS, "duration_quantile_seconds", ",quantile=\"0.999\"", true },
	};
	const struct sw_display_opts o = { .hist = true };
	size_t a, c, r, k;

	(void)state;
	for (a = 0; a < ARRAY_LEN(arches); a++) {
		struct sw_snapshot *s = load_spans(arches[a]), *spans;
		char *with = NULL, *without = NULL, *tail, *p;
		char line[256], part[96], val[64], name[64];
		const char *label;
		struct split st;

		CAPTURE(with, assert_int_equal(sw_print_prom(f, s, &o), 0));
		spans = s->spans;
		s->spans = NULL;
		CAPTURE(without, assert_int_equal(sw_print_prom(f, s, &o), 0));
		s->spans = spans;
		assert_int_equal(strncmp(with, without, strlen(without)), 0);
		tail = with + strlen(without);
		assert_true(*tail);

		p = path_of(arches[a], "span_stats");
		split_file(p, &st);
		free(p);
		for (r = 0; r < st.nrows; r++) {
			for (c = 1; c < st.ncols; c++) {
				unsigned int pl;
				uint64_t v = fixed(st.cell[r][c], &pl);

				for (k = 0; k < ARRAY_LEN(known); k++)
					if (!strcmp(known[k].col, st.hdr[c]))
						break;
				if (k < ARRAY_LEN(known)) {
					snprintf(part, sizeof(part), "%s",
						 known[k].metric);
					label = known[k].label;
					if (known[k].seconds)
						sw_fmt_seconds(val, v);
					else
						snprintf(val, sizeof(val), "%llu",
							 (unsigned long long)v);
				} else {
					/* by its name, as the file prints it */
					prom_part(part, sizeof(part), st.hdr[c]);
					label = "";
					snprintf(val, sizeof(val), "%s",
						 st.cell[r][c]);
				}
				snprintf(line, sizeof(line),
					 "\nstopwatch_span_%s{span=\"%s\"%s} %s\n",
					 part, st.cell[r][0], label, val);
				if (!strstr(tail - 1, line))
					fail_msg("%s: span_stats column %s of span %s: no '%.*s' in the spans' families",
						 arches[a], st.hdr[c],
						 st.cell[r][0],
						 (int)strlen(line) - 2,
						 line + 1);
			}
			/* the histogram holds the calls */
			snprintf(line, sizeof(line),
				 "\nstopwatch_span_duration_seconds_bucket{span=\"%s\",le=\"+Inf\"} %s\n",
				 st.cell[r][0], st.cell[r][hcol(&st, SW_COL_CALLS)]);
			assert_non_null(strstr(tail - 1, line));
		}
		snprintf(name, sizeof(name), "%s-spans.prom", arches[a]);
		assert_golden(name, tail);
		free(st.text);
		free(with);
		free(without);
		sw_snapshot_free(s);
	}
}

/*
 * stat.txt (stopwatch stat --raw in the guest, on the captured directory)
 * ends with the spans: "spans:", span_stats as the module wrote it, then
 * each span's histogram.
 */
static void test_stat_txt(void **state)
{
	size_t a, i, len = 0;

	(void)state;
	for (a = 0; a < ARRAY_LEN(arches); a++) {
		char *stat = read_fixture(arches[a], "stat.txt");
		char *stats = read_fixture(arches[a], "span_stats");
		struct spans *sp = calloc(1, sizeof(*sp));
		char *want = NULL;
		FILE *f = open_memstream(&want, &len);

		assert_non_null(sp);
		assert_non_null(f);
		read_spans(arches[a], sp);
		fprintf(f, "\nspans:\n%s", stats);
		for (i = 0; i < sp->n; i++) {
			char file[96], *h;

			snprintf(file, sizeof(file), "span_hist/%s",
				 sp->name[i]);
			h = read_fixture(arches[a], file);
			fprintf(f, "\n%s", h);
			free(h);
		}
		assert_int_equal(fclose(f), 0);
		assert_true(strlen(stat) > len);
		assert_string_equal(stat + strlen(stat) - len, want);
		free(want);
		free(sp);
		free(stats);
		free(stat);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spans_file),
		cmocka_unit_test(test_span_stats_columns),
		cmocka_unit_test(test_span_counts),
		cmocka_unit_test(test_span_keys),
		cmocka_unit_test(test_span_text),
		cmocka_unit_test(test_span_prom),
		cmocka_unit_test(test_stat_txt),
	};

	return cmocka_run_group_tests_name("spans", tests, NULL, NULL);
}
