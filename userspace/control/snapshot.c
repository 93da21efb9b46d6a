// SPDX-License-Identifier: GPL-2.0
/*
 * snapshot.c - read the stopwatch debugfs files into one struct.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "control/debugfs.h"
#include "control/snapshot.h"
#include "stopwatch/files.h"

static const char *const sw_bd_modes[] = { "pid", "tgid", "comm", "cpu",
					   "none" };

/*
 * Where a breakdown's keys and values live: blocks handed out in order
 * and freed together, instead of an allocation per row.
 */
struct sw_arena {
	struct sw_arena *next;
	size_t used, cap;
	uint64_t mem[];
};

#define SW_ARENA_BLOCK (64 * 1024 - sizeof(struct sw_arena))

/* @n bytes aligned for uint64_t, or NULL when out of memory. */
static void *sw_arena_alloc(struct sw_arena **a, size_t n)
{
	struct sw_arena *b = *a;
	void *p;

	n = (n + sizeof(uint64_t) - 1) & ~(sizeof(uint64_t) - 1);
	if (!b || b->cap - b->used < n) {
		size_t cap = n > SW_ARENA_BLOCK ? n : SW_ARENA_BLOCK;

		b = malloc(sizeof(*b) + cap);
		if (!b)
			return NULL;
		b->next = *a;
		b->used = 0;
		b->cap = cap;
		*a = b;
	}
	p = (char *)b->mem + b->used;
	b->used += n;
	return p;
}

static char *sw_arena_strdup(struct sw_arena **a, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = sw_arena_alloc(a, n);

	if (p)
		memcpy(p, s, n);
	return p;
}

static void sw_arena_free(struct sw_arena *a)
{
	struct sw_arena *next;

	for (; a; a = next) {
		next = a->next;
		free(a);
	}
}

void sw_breakdown_free(struct sw_breakdown *bd)
{
	if (!bd)
		return;
	sw_arena_free(bd->arena);
	free(bd->row);
	free(bd->col);
	free(bd->places);
	free(bd->mode);
	sw_table_free(bd->tab);
	free(bd);
}

void sw_snapshot_free(struct sw_snapshot *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nprobes; i++) {
		free(s->probe[i].val);
		sw_hist_set_free(s->probe[i].hist);
		free(s->probe[i].lin);
	}
	free(s->probe);
	free(s->col);
	free(s->places);
	free(s->dir);
	sw_breakdown_free(s->bd);
	sw_breakdown_free(s->keys);
	sw_snapshot_free(s->spans);
	sw_sampler_counts_free(s->sampler);
	sw_table_free(s->tab);
	free(s);
}

static int sw_find_name(const char **names, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return (int)i;
	return -1;
}

int sw_snapshot_col(const struct sw_snapshot *s, const char *name)
{
	return sw_find_name(s->col, s->ncols, name);
}

int sw_breakdown_col(const struct sw_breakdown *bd, const char *name)
{
	return sw_find_name(bd->col, bd->ncols, name);
}

const struct sw_probe_stat *sw_snapshot_probe(const struct sw_snapshot *s,
					      const char *name)
{
	size_t i;

	for (i = 0; i < s->nprobes; i++)
		if (!strcmp(s->probe[i].name, name))
			return &s->probe[i];
	return NULL;
}

static bool sw_snapshot_wants(const struct sw_snapshot_opts *o, const char *name)
{
	size_t i;

	if (!o || !o->nfilter)
		return true;
	for (i = 0; i < o->nfilter; i++)
		if (!strcmp(o->filter[i], name))
			return true;
	return false;
}

/*
 * Parses the numeric cells @cell of a row of table @t (source line
 * @line) into @val, all but the columns @skip1 and @skip2.  The first row
 * parsed (@first) sets each column's decimal places; every later row must
 * print the column alike.
 */
static int sw_cells_values(const struct sw_table *t, char *const *cell,
			   size_t line, int skip1, int skip2,
			   unsigned int *places, bool first, uint64_t *val,
			   const char *what, struct sw_err *err)
{
	size_t c, n = 0;
	unsigned int p;
	int ret;

	for (c = 0; c < t->ncols; c++) {
		if ((int)c == skip1 || (int)c == skip2)
			continue;
		ret = sw_parse_fixed(cell[c], &val[n], &p);
		if (!ret && !first && p != places[n])
			ret = -EDOM;
		if (ret)
			return sw_err_set(err, ret == -EDOM ? -EINVAL : ret,
					  "%s: line %zu: column '%s': '%s' is %s",
					  what, line, t->col[c], cell[c],
					  ret == -ERANGE ?
					  "too large for 64 bits" :
					  ret == -EDOM ?
					  "not printed with the decimal places of the rows above" :
					  "not an unsigned number");
		places[n++] = p;
	}
	return 0;
}

/* sw_cells_values() of row @r of @t into a new array. */
static int sw_row_values(const struct sw_table *t, size_t r, int skip1,
			 int skip2, unsigned int *places, bool first,
			 uint64_t **out, const char *what, struct sw_err *err)
{
	uint64_t *val = calloc(t->ncols ? t->ncols : 1, sizeof(*val));
	int ret;

	if (!val)
		return sw_err_set(err, -ENOMEM, "out of memory");
	ret = sw_cells_values(t, t->cell + r * t->ncols, t->line[r], skip1,
			      skip2, places, first, val, what, err);
	if (ret) {
		free(val);
		return ret;
	}
	*out = val;
	return 0;
}

/*
 * Names of the columns but @skip1 and @skip2, in order, and a zeroed
 * array for their decimal places.
 */
static const char **sw_value_cols(const struct sw_table *t, int skip1,
				  int skip2, size_t *n, unsigned int **places)
{
	const char **col = calloc(t->ncols ? t->ncols : 1, sizeof(*col));
	size_t c;

	*n = 0;
	*places = calloc(t->ncols ? t->ncols : 1, sizeof(**places));
	if (!col || !*places) {
		free(col);
		free(*places);
		*places = NULL;
		return NULL;
	}
	for (c = 0; c < t->ncols; c++)
		if ((int)c != skip1 && (int)c != skip2)
			col[(*n)++] = t->col[c];
	return col;
}

int sw_snapshot_parse_stats(const char *text, const char *what,
			    const struct sw_snapshot_opts *o,
			    struct sw_snapshot **out, struct sw_err *err)
{
	const char *kname = o && o->key_col ? o->key_col : "probe";
	struct sw_snapshot *s;
	size_t r, i;
	int pcol, ret;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return sw_err_set(err, -ENOMEM, "out of memory");
	ret = sw_table_parse(text, what, &s->tab, err);
	if (ret)
		goto cleanup;
	pcol = sw_table_col(s->tab, kname);
	if (pcol < 0) {
		ret = sw_err_set(err, -EINVAL,
				 "%s: no '%s' column in the header line, which starts with '%s': is the header missing?",
				 what, kname, s->tab->col[0]);
		goto cleanup;
	}
	s->col = sw_value_cols(s->tab, pcol, -1, &s->ncols, &s->places);
	s->probe = calloc(s->tab->nrows ? s->tab->nrows : 1,
			  sizeof(*s->probe));
	if (!s->col || !s->probe) {
		ret = sw_err_set(err, -ENOMEM, "out of memory");
		goto cleanup;
	}
	for (r = 0; r < s->tab->nrows; r++) {
		struct sw_probe_stat *p = &s->probe[s->nprobes];
		const char *name = sw_table_at(s->tab, r, (size_t)pcol);

		if (!sw_snapshot_wants(o, name))
			continue;
		if (sw_snapshot_probe(s, name)) {
			ret = sw_err_set(err, -EINVAL,
					 "%s: line %zu: %s '%s' appears twice",
					 what, s->tab->line[r], kname, name);
			goto cleanup;
		}
		ret = sw_row_values(s->tab, r, pcol, -1, s->places, !s->nprobes,
				    &p->val, what, err);
		if (ret)
			goto cleanup;
		p->name = name;
		s->nprobes++;
	}
	for (i = 0; o && i < o->nfilter; i++) {
		if (sw_snapshot_probe(s, o->filter[i]))
			continue;
		ret = sw_err_set(err, -ENOENT,
				 "probe '%s' is not being measured (%zu probe%s in %s)",
				 o->filter[i], s->tab->nrows,
				 s->tab->nrows == 1 ? "" : "s", what);
		goto cleanup;
	}
	*out = s;
	return 0;

cleanup:
	sw_snapshot_free(s);
	return ret;
}

/*
 * A breakdown read a line at a time: the header line is kept as a table
 * of no rows for the column names; each row's probe, key and values go to
 * the breakdown's arena, so neither the file nor a split copy of it is
 * held.
 */
struct sw_bd_reader {
	struct sw_breakdown *bd;
	const struct sw_snapshot *s;
	const char *mode;
	const char *what;
	char **field;		/* one per column of the header */
	size_t lineno;
	size_t cap;		/* rows allocated */
	int pcol, kcol;
	const char *probe;	/* the last row's probe, in the arena */
	bool dropped;		/* ... which is not in @s */
};

/* The header line @line, line @r->lineno: the columns and the key. */
static int sw_bd_header(struct sw_bd_reader *r, const char *line,
			struct sw_err *err)
{
	struct sw_breakdown *bd = r->bd;
	char *text;
	size_t i;
	int ret;

	/* Blank lines before it: the table's messages count them. */
	text = malloc(r->lineno + strlen(line) + 1);
	if (!text)
		return sw_err_set(err, -ENOMEM, "out of memory");
	memset(text, '\n', r->lineno - 1);
	strcpy(text + r->lineno - 1, line);
	ret = sw_table_parse(text, r->what, &bd->tab, err);
	free(text);
	if (ret)
		return ret;
	r->pcol = sw_table_col(bd->tab, SW_COL_PROBE);
	if (r->pcol < 0)
		return sw_err_set(err, -EINVAL,
				  "%s: no 'probe' column in the header line, which starts with '%s': is the header missing?",
				  r->what, bd->tab->col[0]);
	r->kcol = -1;
	if (r->mode && *r->mode)
		r->kcol = sw_table_col(bd->tab, r->mode);
	for (i = 0;
	     r->kcol < 0 && i < sizeof(sw_bd_modes) / sizeof(*sw_bd_modes);
	     i++)
		r->kcol = sw_table_col(bd->tab, sw_bd_modes[i]);
	if (r->kcol < 0)
		return sw_err_set(err, -EINVAL,
				  "%s: the header has no key column named after the breakdown mode '%s'",
				  r->what, r->mode && *r->mode ? r->mode : "?");
	bd->mode = strdup(bd->tab->col[r->kcol]);
	bd->col = sw_value_cols(bd->tab, r->pcol, r->kcol, &bd->ncols,
				&bd->places);
	r->field = calloc(bd->tab->ncols, sizeof(*r->field));
	if (!bd->mode || !bd->col || !r->field)
		return sw_err_set(err, -ENOMEM, "out of memory");
	return 0;
}

/* The key of @row, @key in the file, unescaped and as a number. */
static int sw_bd_key(struct sw_breakdown *bd, struct sw_bd_row *row,
		     const char *key, const char *what, size_t line,
		     struct sw_err *err)
{
	const char *mode = bd->mode;
	bool numeric = !strcmp(mode, "pid") || !strcmp(mode, "tgid") ||
		       !strcmp(mode, "cpu");
	char *k = sw_arena_strdup(&bd->arena, key), *text = k;

	if (k && strchr(k, '\\')) {
		char *u = sw_unescape_octal(k);

		text = u ? sw_arena_strdup(&bd->arena, u) : NULL;
		free(u);
	}
	if (!k || !text)
		return sw_err_set(err, -ENOMEM, "out of memory");
	row->key = k;
	row->text = text;
	row->other = !strcmp(k, "other");
	/* "unread=N": rows the module could not copy whole, a text key. */
	if (row->other || !numeric || !strncmp(k, "unread=", 7))
		return 0;
	if (sw_parse_u64(k, &row->num))
		return sw_err_set(err, -EINVAL,
				  "%s: line %zu: %s '%s' is not a number",
				  what, line, mode, k);
	row->is_num = true;
	return 0;
}

/* One line of the file, without its newline. */
static int sw_bd_line(struct sw_bd_reader *r, char *line, struct sw_err *err)
{
	struct sw_breakdown *bd = r->bd;
	struct sw_bd_row *row;
	const char *probe;
	size_t n, ncols;
	int ret;

	r->lineno++;
	if (!bd->tab) {
		if (!line[strspn(line, " \t\r\v\f")])
			return 0;
		return sw_bd_header(r, line, err);
	}
	ncols = bd->tab->ncols;
	n = sw_table_split_row(line, r->field, ncols);
	if (!n)
		return 0;
	if (n != ncols)
		return sw_err_set(err, -EINVAL,
				  "%s: line %zu: %zu fields where the header has %zu: '%s'",
				  r->what, r->lineno, n, ncols,
				  line + strspn(line, " \t\r\v\f"));
	probe = r->field[r->pcol];
	/* A probe's rows come together: look each probe up once. */
	if (!r->probe || strcmp(r->probe, probe)) {
		r->dropped = r->s && !sw_snapshot_probe(r->s, probe);
		r->probe = sw_arena_strdup(&bd->arena, probe);
		if (!r->probe)
			return sw_err_set(err, -ENOMEM, "out of memory");
	}
	if (r->dropped)
		return 0;
	if (bd->nrows == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 64;
		struct sw_bd_row *rows = realloc(bd->row, cap * sizeof(*rows));

		if (!rows)
			return sw_err_set(err, -ENOMEM, "out of memory");
		bd->row = rows;
		r->cap = cap;
	}
	row = &bd->row[bd->nrows++];
	memset(row, 0, sizeof(*row));
	row->probe = r->probe;
	ret = sw_bd_key(bd, row, r->field[r->kcol], r->what, r->lineno, err);
	if (ret)
		return ret;
	row->val = sw_arena_alloc(&bd->arena,
				  (bd->ncols ? bd->ncols : 1) * sizeof(uint64_t));
	if (!row->val)
		return sw_err_set(err, -ENOMEM, "out of memory");
	return sw_cells_values(bd->tab, r->field, r->lineno, r->pcol, r->kcol,
			       bd->places, bd->nrows == 1, row->val, r->what,
			       err);
}

static int sw_bd_reader_start(struct sw_bd_reader *r, const char *mode,
			      const char *what, const struct sw_snapshot *s,
			      struct sw_err *err)
{
	memset(r, 0, sizeof(*r));
	r->bd = calloc(1, sizeof(*r->bd));
	if (!r->bd)
		return sw_err_set(err, -ENOMEM, "out of memory");
	r->mode = mode;
	r->what = what;
	r->s = s;
	return 0;
}

/* Ends the reading with @ret: on 0, the breakdown goes to @out. */
static int sw_bd_reader_end(struct sw_bd_reader *r, int ret,
			    struct sw_breakdown **out, struct sw_err *err)
{
	if (!ret && !r->bd->tab)
		ret = sw_err_set(err, -ENODATA,
				 "%s: empty: missing the header line", r->what);
	if (!ret && !r->bd->row) {
		r->bd->row = calloc(1, sizeof(*r->bd->row));
		if (!r->bd->row)
			ret = sw_err_set(err, -ENOMEM, "out of memory");
	}
	free(r->field);
	if (ret) {
		sw_breakdown_free(r->bd);
		return ret;
	}
	*out = r->bd;
	return 0;
}

int sw_breakdown_parse(const char *text, const char *mode, const char *what,
		       const struct sw_snapshot *s, struct sw_breakdown **out,
		       struct sw_err *err)
{
	struct sw_bd_reader r;
	char *line = NULL;
	size_t cap = 0, n;
	int ret;

	*out = NULL;
	ret = sw_bd_reader_start(&r, mode, what, s, err);
	if (ret)
		return ret;
	while (!ret && *text) {
		n = strcspn(text, "\n");
		if (n >= cap) {
			char *l = realloc(line, n + 1);

			if (!l) {
				ret = sw_err_set(err, -ENOMEM, "out of memory");
				break;
			}
			line = l;
			cap = n + 1;
		}
		memcpy(line, text, n);
		line[n] = '\0';
		text += n + (text[n] == '\n');
		ret = sw_bd_line(&r, line, err);
	}
	free(line);
	return sw_bd_reader_end(&r, ret, out, err);
}

/*
 * sw_breakdown_parse() of the file @what, read a line at a time.  @lines:
 * how many lines it had.
 */
static int sw_breakdown_read(const char *what, const char *mode,
			     const struct sw_snapshot *s,
			     struct sw_breakdown **out, size_t *lines,
			     struct sw_err *err)
{
	struct sw_bd_reader r;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f;
	int ret;

	*out = NULL;
	*lines = 0;
	f = fopen(what, "re");
	if (!f)
		return sw_err_set(err, -errno, "%s: %s", what, strerror(errno));
	ret = sw_bd_reader_start(&r, mode, what, s, err);
	while (!ret && (n = getline(&line, &cap, f)) > 0) {
		if (line[n - 1] == '\n')
			line[n - 1] = '\0';
		(*lines)++;
		ret = sw_bd_line(&r, line, err);
	}
	if (!ret && ferror(f))
		ret = sw_err_set(err, -EIO, "%s: %s", what, strerror(EIO));
	free(line);
	fclose(f);
	if (!r.bd)
		return ret;
	return sw_bd_reader_end(&r, ret, out, err);
}

static bool sw_safe_name(const char *name)
{
	return *name && !strchr(name, '/') && strcmp(name, ".") &&
	       strcmp(name, "..");
}

static int sw_load_hist(const char *dir, const char *sub,
			struct sw_probe_stat *p, struct sw_err *err)
{
	char *text = NULL, *name = NULL, *what = NULL;
	size_t len = strlen(p->name) + strlen(sub) + 2;
	int ret;

	if (!sw_safe_name(p->name))
		return sw_err_set(err, -EINVAL,
				  "%s/stats: probe name '%s' cannot be a file name",
				  dir, p->name);
	name = malloc(len);
	what = malloc(strlen(dir) + len + 1);
	if (!name || !what) {
		ret = sw_err_set(err, -ENOMEM, "out of memory");
		goto cleanup;
	}
	snprintf(name, len, "%s/%s", sub, p->name);
	sprintf(what, "%s/%s", dir, name);
	ret = sw_debugfs_read(dir, name, &text, NULL, err);
	if (ret == -ENOENT) {
		/* Removed after "stats" was read: no histogram this time. */
		ret = 0;
		goto cleanup;
	}
	if (ret)
		goto cleanup;
	ret = sw_hist_parse(text, p->name, what, &p->hist, err);
cleanup:
	free(text);
	free(name);
	free(what);
	return ret;
}

/*
 * The selected probe a histogram title names (@len bytes at @probe), or
 * NULL.  The titles come in the stats file's order: the search starts
 * after the last one found.
 */
static struct sw_probe_stat *sw_title_probe(struct sw_snapshot *s,
					    const char *probe, size_t len)
{
	size_t i, k;

	for (k = 0; k < s->nprobes; k++) {
		struct sw_probe_stat *p;

		i = (s->hist_next + k) % s->nprobes;
		p = &s->probe[i];
		if (strlen(p->name) == len && !memcmp(p->name, probe, len)) {
			s->hist_next = i;
			return p;
		}
	}
	return NULL;
}

/* sw_load_hists(): a title's probe, if selected, gets its sections. */
static int sw_hists_set_of(void *ctx, const char *probe, size_t len,
			   struct sw_hist_set **set, const char *what,
			   size_t lineno, struct sw_err *err)
{
	struct sw_probe_stat *p = sw_title_probe(ctx, probe, len);

	(void)what;
	(void)lineno;
	*set = NULL;
	if (!p)
		return 0;
	if (!p->hist) {
		p->hist = calloc(1, sizeof(*p->hist));
		if (!p->hist)
			return sw_err_set(err, -ENOMEM, "out of memory");
	}
	*set = p->hist;
	return 0;
}

/*
 * The row's timing columns as read with its histogram: the calls, sums
 * and buckets shown for a probe are one snapshot (the stats file is read
 * apart from the histograms).
 */
static void sw_row_from_hist(struct sw_snapshot *s, struct sw_probe_stat *p)
{
	static const struct {
		const char *col;
		int field;	/* enum sw_hist_row_field; -1: the calls */
	} map[] = {
		{ SW_COL_CALLS, -1 },
		{ SW_COL_MIN_NS, SW_HIST_ROW_MIN },
		{ SW_COL_AVG_NS, SW_HIST_ROW_AVG },
		{ SW_COL_MAX_NS, SW_HIST_ROW_MAX },
		{ SW_COL_STDDEV_NS, SW_HIST_ROW_STDDEV },
		{ SW_COL_TOTAL_NS, SW_HIST_ROW_TOTAL },
		{ SW_COL_P50_NS, SW_HIST_ROW_P50 },
		{ SW_COL_P90_NS, SW_HIST_ROW_P90 },
		{ SW_COL_P99_NS, SW_HIST_ROW_P99 },
		{ SW_COL_P999_NS, SW_HIST_ROW_P999 },
	};
	const struct sw_hist *h = sw_hist_find(p->hist, "ns");
	size_t i;
	int c;

	if (!h || !h->has_row)
		return;
	for (i = 0; i < sizeof(map) / sizeof(*map); i++) {
		if (map[i].field >= SW_HIST_ROW_P50 && !h->has_pct)
			continue;
		c = sw_snapshot_col(s, map[i].col);
		if (c < 0 || s->places[c])
			continue;
		p->val[c] = map[i].field < 0 ? h->calls : h->row[map[i].field];
	}
}

/* sw_load_lhists(): a title's probe, if selected, gets its buckets. */
static int sw_lhists_of(void *ctx, const struct sw_lhist_reader *r,
			uint64_t **buckets, struct sw_err *err)
{
	struct sw_probe_stat *p = sw_title_probe(ctx, r->probe, r->probe_len);

	*buckets = NULL;
	if (!p)
		return 0;
	free(p->lin);
	p->lin = calloc(sw_lhist_nbuckets(r->bits), sizeof(*p->lin));
	if (!p->lin)
		return sw_err_set(err, -ENOMEM, "out of memory");
	p->lin_bits = r->bits;
	p->lin_has_total = r->has_total;
	p->lin_total = r->total;
	*buckets = p->lin;
	return 0;
}

/*
 * Every selected row's log-linear wall-time histogram from @file in @dir:
 * the probes' from the lhists file (stats_format 1.8), the spans' from
 * span_lhists (1.10); an older module without it leaves them NULL.
 */
static int sw_load_lhists(struct sw_snapshot *s, const char *dir,
			  const char *file, struct sw_err *err)
{
	char *text = NULL, *what = NULL;
	int ret;

	ret = sw_debugfs_read(dir, file, &text, NULL, NULL);
	if (ret == -ENOENT)
		return 0;
	if (ret)
		return sw_err_set(err, ret, "%s/%s: %s", dir, file,
				  strerror(-ret));
	if (asprintf(&what, "%s/%s", dir, file) < 0) {
		what = NULL;
		ret = sw_err_set(err, -ENOMEM, "out of memory");
		goto cleanup;
	}
	s->hist_next = 0;
	ret = sw_lhist_parse_each(text, what, sw_lhists_of, s, err);
cleanup:
	free(text);
	free(what);
	return ret;
}

/*
 * Every selected probe's histograms from the one hists file (stats_format
 * 1.5), each row's timing columns replaced by those read with its
 * buckets.  -ENOENT: an older module, without the file.
 */
static int sw_load_hists(struct sw_snapshot *s, struct sw_err *err)
{
	char *text = NULL, *what = NULL;
	size_t i;
	int ret;

	ret = sw_debugfs_read(s->dir, SW_FILE_HISTS, &text, NULL, NULL);
	if (ret == -ENOENT)
		return ret;
	if (ret)
		return sw_err_set(err, ret, "%s/hists: %s", s->dir,
				  strerror(-ret));
	what = malloc(strlen(s->dir) + sizeof("/hists"));
	if (!what) {
		ret = sw_err_set(err, -ENOMEM, "out of memory");
		goto cleanup;
	}
	sprintf(what, "%s/hists", s->dir);
	ret = sw_hist_parse_each(text, what, sw_hists_set_of, s, err);
	if (ret == -ENODATA && !text[strspn(text, " \t\r\n")])
		ret = 0;	/* no probe left */
	if (ret)
		goto cleanup;
	for (i = 0; i < s->nprobes; i++)
		sw_row_from_hist(s, &s->probe[i]);
cleanup:
	free(text);
	free(what);
	return ret;
}

static char *sw_trim_dup(const char *s)
{
	size_t n;

	s += strspn(s, " \t\r\n");
	n = strlen(s);
	while (n && strchr(" \t\r\n", s[n - 1]))
		n--;
	return strndup(s, n);
}

static int sw_load_breakdown(struct sw_snapshot *s, struct sw_err *err)
{
	char *text = NULL, *mode = NULL, *what = NULL;
	size_t lines;
	int ret;

	ret = sw_debugfs_read(s->dir, "breakdown", &text, NULL, err);
	if (ret)
		goto cleanup;
	mode = sw_trim_dup(text);
	free(text);
	text = NULL;
	what = malloc(strlen(s->dir) + sizeof("/breakdown_stats"));
	if (!mode || !what) {
		ret = sw_err_set(err, -ENOMEM, "out of memory");
		goto cleanup;
	}
	sprintf(what, "%s/breakdown_stats", s->dir);
	ret = sw_breakdown_read(what, mode, s, &s->bd, &lines, err);
cleanup:
	free(text);
	free(mode);
	free(what);
	return ret;
}

void sw_sampler_counts_free(struct sw_sampler_counts *c)
{
	if (!c)
		return;
	free(c->name);
	free(c->val);
	sw_table_free(c->tab);
	free(c);
}

int sw_sampler_parse(const char *text, const char *what,
		     struct sw_sampler_counts **out, struct sw_err *err)
{
	struct sw_sampler_counts *c = calloc(1, sizeof(*c));
	const char *line = text, *next, *table = NULL;
	char *tabtext;
	size_t r, k;
	int ret = 0, all = -1;

	*out = NULL;
	if (!c)
		return sw_err_set(err, -ENOMEM, "out of memory");
	/* "state running|stopped", settings, then the table from "cpu". */
	for (; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			next++;
		if (!strncmp(line, "state ", 6))
			c->running = !strncmp(line + 5 + strspn(line + 5, " "),
					      "running", 7);
		if (!strncmp(line, "cpu ", 4)) {
			table = line;
			break;
		}
	}
	if (!table)
		goto done;	/* no session yet: no counters */
	/* The table ends with its "all" row: what may follow is not its. */
	next = strstr(table, "\nall ");
	if (next)
		next = strchr(next + 1, '\n');
	tabtext = next ? strndup(table, (size_t)(next + 1 - table)) :
			 strdup(table);
	if (!tabtext) {
		ret = sw_err_set(err, -ENOMEM, "out of memory");
		goto cleanup;
	}
	ret = sw_table_parse(tabtext, what, &c->tab, err);
	free(tabtext);
	if (ret)
		goto cleanup;
	for (r = 0; r < c->tab->nrows; r++)
		if (!strcmp(sw_table_at(c->tab, r, 0), "all"))
			all = (int)r;
	if (all < 0) {
		ret = sw_err_set(err, -EINVAL, "%s: no 'all' row under the counters' header",
				 what);
		goto cleanup;
	}
	c->name = calloc(c->tab->ncols, sizeof(*c->name));
	c->val = calloc(c->tab->ncols, sizeof(*c->val));
	if (!c->name || !c->val) {
		ret = sw_err_set(err, -ENOMEM, "out of memory");
		goto cleanup;
	}
	for (k = 1; k < c->tab->ncols; k++) {
		const char *cell = sw_table_at(c->tab, (size_t)all, k);

		/* "queued" may be negative for a moment; "error" is an errno. */
		if (!strcmp(c->tab->col[k], "queued") ||
		    !strcmp(c->tab->col[k], "error"))
			continue;
		if (sw_parse_u64(cell, &c->val[c->n])) {
			ret = sw_err_set(err, -EINVAL,
					 "%s: line %zu: column '%s': '%s' is not an unsigned number",
					 what, c->tab->line[all], c->tab->col[k], cell);
			goto cleanup;
		}
		c->name[c->n++] = c->tab->col[k];
	}
done:
	*out = c;
	return 0;
cleanup:
	sw_sampler_counts_free(c);
	return ret;
}

int sw_sampler_count(const struct sw_sampler_counts *c, const char *name,
		     uint64_t *v)
{
	size_t k;

	for (k = 0; k < c->n; k++)
		if (!strcmp(c->name[k], name)) {
			*v = c->val[k];
			return 0;
		}
	return -ENOENT;
}

/* The sampler file; none when the module has none. */
static int sw_load_sampler(struct sw_snapshot *s, struct sw_err *err)
{
	char *text = NULL, *what = NULL;
	int ret;

	ret = sw_debugfs_read(s->dir, "sampler", &text, NULL, NULL);
	if (ret == -ENOENT)
		return 0;
	if (ret)
		return sw_err_set(err, ret, "%s/sampler: %s", s->dir,
				  strerror(-ret));
	if (asprintf(&what, "%s/sampler", s->dir) < 0) {
		what = NULL;
		ret = sw_err_set(err, -ENOMEM, "out of memory");
	} else {
		ret = sw_sampler_parse(text, what, &s->sampler, err);
	}
	free(text);
	free(what);
	return ret;
}

/* The keys file (rows of probes with by=); none when the module has none. */
static int sw_load_keys(struct sw_snapshot *s, struct sw_err *err)
{
	struct sw_err kerr = { "" };
	char *what = NULL;
	size_t lines;
	int ret;

	if (asprintf(&what, "%s/%s", s->dir, SW_FILE_KEYS) < 0)
		return sw_err_set(err, -ENOMEM, "out of memory");
	ret = sw_breakdown_read(what, "key", s, &s->keys, &lines, &kerr);
	if (lines < 2) {
		/* No file, or the header only: no keyed rows. */
		sw_breakdown_free(s->keys);
		s->keys = NULL;
		if (ret == -ENOENT || !ret || lines)
			ret = 0;
	}
	if (ret && err)
		*err = kerr;
	free(what);
	return ret;
}

/*
 * span_stats, each span's span_hist/<span> and the spans' span_lhists;
 * none without the span_stats file.
 */
static int sw_load_spans(struct sw_snapshot *s, bool hist, struct sw_err *err)
{
	const struct sw_snapshot_opts so = { .key_col = "span" };
	char *text = NULL, *what = NULL;
	size_t i;
	int ret;

	ret = sw_debugfs_read(s->dir, SW_FILE_SPAN_STATS, &text, NULL, NULL);
	if (ret == -ENOENT)
		return 0;
	if (ret)
		return sw_err_set(err, ret, "%s/%s: %s", s->dir,
				  SW_FILE_SPAN_STATS, strerror(-ret));
	if (asprintf(&what, "%s/%s", s->dir, SW_FILE_SPAN_STATS) < 0) {
		what = NULL;
		ret = sw_err_set(err, -ENOMEM, "out of memory");
		goto cleanup;
	}
	ret = sw_snapshot_parse_stats(text, what, &so, &s->spans, err);
	if (ret)
		goto cleanup;
	s->spans->time_ns = s->time_ns;
	for (i = 0; hist && !ret && i < s->spans->nprobes; i++)
		ret = sw_load_hist(s->dir, "span_hist", &s->spans->probe[i],
				   err);
	if (!ret && hist)
		ret = sw_load_lhists(s->spans, s->dir, SW_FILE_SPAN_LHISTS, err);
cleanup:
	free(text);
	free(what);
	return ret;
}

int sw_snapshot_load(const char *dir, const struct sw_snapshot_opts *o,
		     struct sw_snapshot **out, struct sw_err *err)
{
	struct sw_snapshot *s = NULL;
	struct timespec ts;
	char *text = NULL, *what = NULL;
	uint64_t now;
	size_t i;
	int ret;

	*out = NULL;
	clock_gettime(CLOCK_REALTIME, &ts);
	now = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;

	what = malloc(strlen(dir) + sizeof("/stats"));
	if (!what)
		return sw_err_set(err, -ENOMEM, "out of memory");
	sprintf(what, "%s/stats", dir);
	ret = sw_debugfs_read(dir, "stats", &text, NULL, err);
	if (ret)
		goto cleanup;
	ret = sw_snapshot_parse_stats(text, what, o, &s, err);
	if (ret)
		goto cleanup;
	s->time_ns = now;
	s->dir = strdup(dir);
	if (!s->dir) {
		ret = sw_err_set(err, -ENOMEM, "out of memory");
		goto cleanup;
	}
	ret = o->hist ? sw_load_hists(s, err) : 0;
	if (ret == -ENOENT)
		for (ret = 0, i = 0; !ret && i < s->nprobes; i++)
			ret = sw_load_hist(dir, SW_DIR_HIST, &s->probe[i], err);
	if (!ret && o->hist)
		ret = sw_load_lhists(s, dir, SW_FILE_LHISTS, err);
	if (ret)
		goto cleanup;
	if (o->breakdown) {
		ret = sw_load_breakdown(s, err);
		if (ret)
			goto cleanup;
	}
	ret = o->keys ? sw_load_keys(s, err) : 0;
	if (!ret && o->spans)
		ret = sw_load_spans(s, o->hist, err);
	if (!ret && o->sampler)
		ret = sw_load_sampler(s, err);
	if (ret)
		goto cleanup;
	*out = s;
	s = NULL;
cleanup:
	sw_snapshot_free(s);
	free(text);
	free(what);
	return ret;
}
