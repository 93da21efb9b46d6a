// SPDX-License-Identifier: GPL-2.0
/*
 * htable.c - tables for people (htable.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "base/utf8.h"
#include "output/htable.h"

void sw_grid_free(struct sw_grid *g)
{
	size_t i;

	if (!g->cell)
		return;
	for (i = 0; i < g->ncols * g->nrows; i++)
		free(g->cell[i]);
	free(g->cell);
	free(g->left);
	g->cell = NULL;
	g->left = NULL;
}

int sw_grid_init(struct sw_grid *g, size_t ncols, size_t nrows)
{
	g->ncols = ncols;
	g->nrows = nrows;
	g->cell = calloc(ncols && nrows ? ncols * nrows : 1, sizeof(*g->cell));
	g->left = calloc(ncols ? ncols : 1, sizeof(*g->left));
	if (!g->cell || !g->left) {
		free(g->cell);
		free(g->left);
		g->cell = NULL;
		g->left = NULL;
		return -ENOMEM;
	}
	return 0;
}

/*
 * Stores a copy of @s that is safe on a terminal: control characters and
 * bytes that are not valid UTF-8 become \ooo, as the kernel escapes.
 */
int sw_grid_set(struct sw_grid *g, size_t r, size_t c, const char *s)
{
	char **cell = &g->cell[r * g->ncols + c];
	const unsigned char *p = (const unsigned char *)s;
	char *o = malloc(strlen(s) * 4 + 1);
	int n;

	free(*cell);
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

size_t sw_text_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

void sw_grid_print(FILE *f, const struct sw_grid *g)
{
	size_t *w = calloc(g->ncols ? g->ncols : 1, sizeof(*w)), r, c;

	if (!w)
		return;
	for (r = 0; r < g->nrows; r++)
		for (c = 0; c < g->ncols; c++) {
			size_t l = sw_text_width(g->cell[r * g->ncols + c]);

			if (l > w[c])
				w[c] = l;
		}
	for (r = 0; r < g->nrows; r++) {
		for (c = 0; c < g->ncols; c++) {
			const char *s = g->cell[r * g->ncols + c];
			size_t pad = w[c] - sw_text_width(s);

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

int sw_htable_init(struct sw_htable *t, size_t nrows)
{
	memset(t, 0, sizeof(*t));
	t->nrows = nrows;
	t->empty = calloc(nrows ? nrows : 1, sizeof(*t->empty));
	return t->empty ? 0 : -ENOMEM;
}

void sw_htable_free(struct sw_htable *t)
{
	size_t c, r;

	for (c = 0; c < t->ncols; c++) {
		struct sw_hcol *k = &t->col[c];

		for (r = 0; k->text && r < t->nrows; r++)
			free(k->text[r]);
		free(k->text);
		free(k->v);
		free(k->head);
		free(k->note);
	}
	for (r = 0; r < t->nnotes; r++)
		free(t->notes[r]);
	free(t->notes);
	free(t->col);
	free(t->empty);
	memset(t, 0, sizeof(*t));
}

struct sw_hcol *sw_htable_add(struct sw_htable *t, const char *head,
			      enum sw_hkind kind, const char *note)
{
	struct sw_hcol *col = realloc(t->col, (t->ncols + 1) * sizeof(*col)), *k;
	size_t n = t->nrows ? t->nrows : 1;

	if (!col)
		return NULL;
	t->col = col;
	k = &col[t->ncols];
	memset(k, 0, sizeof(*k));
	k->kind = kind;
	k->head = strdup(head);
	k->note = note ? strdup(note) : NULL;
	if (kind == SW_HK_TEXT)
		k->text = calloc(n, sizeof(*k->text));
	else
		k->v = calloc(n, sizeof(*k->v));
	t->ncols++;
	if (!k->head || (note && !k->note) || (!k->text && !k->v))
		return NULL;
	return k;
}

int sw_hcol_text(struct sw_hcol *c, size_t row, const char *s)
{
	free(c->text[row]);
	c->text[row] = strdup(s);
	return c->text[row] ? 0 : -ENOMEM;
}

int sw_htable_note(struct sw_htable *t, const char *fmt, ...)
{
	char **notes = realloc(t->notes, (t->nnotes + 1) * sizeof(*notes));
	va_list ap;
	int n;

	if (!notes)
		return -ENOMEM;
	t->notes = notes;
	va_start(ap, fmt);
	n = vasprintf(&notes[t->nnotes], fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	t->nnotes++;
	return 0;
}

bool sw_htable_shown(const struct sw_htable *t, size_t c)
{
	const struct sw_hcol *k = &t->col[c];
	size_t r;

	if (k->kind == SW_HK_TEXT || k->keep)
		return true;
	for (r = 0; r < t->nrows; r++)
		if (k->v[r] && !(k->kind == SW_HK_DUR && t->empty[r]))
			return true;
	return false;
}

/* The header of a shown column: durations in a fixed unit say which. */
static void sw_htable_head(const struct sw_htable *t, const struct sw_hcol *k,
			   char *buf, size_t len)
{
	if (k->kind == SW_HK_DUR && t->div)
		snprintf(buf, len, "%s_%s", k->head, t->unit);
	else
		snprintf(buf, len, "%s", k->head);
}

static const char *sw_htable_cell(const struct sw_htable *t,
				  const struct sw_hcol *k, size_t r, char *buf)
{
	uint64_t v;
	size_t l;

	if (k->kind == SW_HK_TEXT)	/* no values: its text */
		return k->text[r] ? k->text[r] : "";
	v = k->v[r];
	switch (k->kind) {
	case SW_HK_DUR:
		if (t->empty[r])
			return "-";
		if (t->div == 1)
			snprintf(buf, SW_UNITS_LEN, "%llu",
				 (unsigned long long)v);
		else if (t->div)
			snprintf(buf, SW_UNITS_LEN, "%.*f",
				 t->div >= 1000000000 ? 6 : t->div > 1 ? 3 : 0,
				 (double)v / (double)t->div);
		else
			sw_fmt_dur(buf, v);
		return buf;
	case SW_HK_FIXED:
		return sw_fmt_fixed(buf, v, k->places);
	case SW_HK_LOSS:
	case SW_HK_LEFT:
		/* The flag takes a column on every row: digits line up. */
		sw_fmt_count(buf, v);
		l = strlen(buf);
		buf[l] = !v ? ' ' : k->kind == SW_HK_LOSS ? '!' : '*';
		buf[l + 1] = '\0';
		return buf;
	default:
		return sw_fmt_count(buf, v);
	}
}

/**
 * sw_fmt_counted() - "3 calls not measured", "1 call not measured": a
 * count and a note whose first word is a plural noun, in the singular
 * when the count is 1.
 * @buf: SW_NOTE_LEN bytes
 * @n:   the count
 * @note: the note
 * Return: @buf.
 */
const char *sw_fmt_counted(char *buf, uint64_t n, const char *note)
{
	char num[SW_UNITS_LEN];
	size_t w = strcspn(note, " ");

	sw_fmt_count(num, n);
	if (n == 1 && w > 1 && note[w - 1] == 's')
		snprintf(buf, SW_NOTE_LEN, "%s %.*s%s", num, (int)(w - 1), note,
			 note + w);
	else
		snprintf(buf, SW_NOTE_LEN, "%s %s", num, note);
	return buf;
}

/* The footnotes of the shown loss columns, then the notes. */
static void sw_htable_footer(FILE *f, const struct sw_htable *t,
			     const size_t *shown, size_t n)
{
	char note[SW_NOTE_LEN];
	uint64_t sum;
	size_t i, r;

	for (i = 0; i < n; i++) {
		const struct sw_hcol *k = &t->col[shown[i]];

		if (k->kind != SW_HK_LOSS && k->kind != SW_HK_LEFT)
			continue;
		for (r = 0, sum = 0; r < t->nrows; r++)
			sum = sum + k->v[r] < sum ? UINT64_MAX : sum + k->v[r];
		if (sum)
			fprintf(f, "%c %s: %s\n",
				k->kind == SW_HK_LOSS ? '!' : '*', k->head,
				sw_fmt_counted(note, sum,
					       k->note ? k->note : "lost"));
	}
	for (i = 0; i < t->nnotes; i++)
		fprintf(f, "%s\n", t->notes[i]);
}

/* The columns worth showing from @first on, in order; NULL: no memory. */
static size_t *sw_htable_shown_cols(const struct sw_htable *t, size_t first,
				    size_t *n)
{
	size_t *shown = calloc(t->ncols ? t->ncols : 1, sizeof(*shown));
	size_t c;

	*n = 0;
	for (c = first; shown && c < t->ncols; c++)
		if (sw_htable_shown(t, c))
			shown[(*n)++] = c;
	return shown;
}

/* What both printers end with: the grid freed, the footnotes, errors. */
static int sw_htable_done(FILE *f, const struct sw_htable *t,
			  struct sw_grid *g, size_t *shown, size_t n, int ret)
{
	sw_grid_free(g);
	if (!ret)
		sw_htable_footer(f, t, shown, n);
	free(shown);
	if (!ret && ferror(f))
		ret = -EIO;
	return ret;
}

int sw_htable_print_vertical(FILE *f, const struct sw_htable *t)
{
	char buf[SW_UNITS_LEN], head[128];
	struct sw_grid g = { 0 };
	size_t *shown, n, i;
	int ret;

	/* The first column is the title line. */
	shown = sw_htable_shown_cols(t, 1, &n);
	if (!shown)
		return -ENOMEM;
	ret = sw_grid_init(&g, 2, n);
	if (!ret && t->ncols && t->nrows)
		fprintf(f, "%s\n", t->col[0].text[0] ? t->col[0].text[0] : "");
	g.left[0] = true;
	for (i = 0; !ret && i < n; i++) {
		const struct sw_hcol *k = &t->col[shown[i]];

		sw_htable_head(t, k, head, sizeof(head));
		ret = sw_grid_set(&g, i, 0, head);
		if (!ret)
			ret = sw_grid_set(&g, i, 1, sw_htable_cell(t, k, 0, buf));
	}
	if (!ret && t->nrows) {
		for (i = 0; i < n; i++) {
			/* Indented under the title. */
			char *old = g.cell[i * 2];

			if (asprintf(&g.cell[i * 2], "  %s", old) < 0) {
				g.cell[i * 2] = old;
				ret = -ENOMEM;
				break;
			}
			free(old);
		}
		if (!ret)
			sw_grid_print(f, &g);
	}
	return sw_htable_done(f, t, &g, shown, n, ret);
}

int sw_htable_print(FILE *f, const struct sw_htable *t)
{
	char buf[SW_UNITS_LEN], head[128];
	struct sw_grid g = { 0 };
	size_t *shown, n, r, i;
	int ret;

	shown = sw_htable_shown_cols(t, 0, &n);
	if (!shown)
		return -ENOMEM;
	ret = sw_grid_init(&g, n, t->nrows + 1);
	for (i = 0; !ret && i < n; i++) {
		const struct sw_hcol *k = &t->col[shown[i]];

		g.left[i] = k->kind == SW_HK_TEXT;
		sw_htable_head(t, k, head, sizeof(head));
		ret = sw_grid_set(&g, 0, i, head);
		for (r = 0; !ret && r < t->nrows; r++)
			ret = sw_grid_set(&g, r + 1, i,
					  sw_htable_cell(t, k, r, buf));
	}
	if (!ret)
		sw_grid_print(f, &g);
	return sw_htable_done(f, t, &g, shown, n, ret);
}

/* The losses of the stats and span_stats files, by column. */
static const struct {
	const char *col;
	const char *note;
} sw_loss_notes[] = {
	{ "missed", "calls not measured" },
	{ "filtered", "calls left out at entry by the probe's filters (pid, comm, cgroup, cpu)" },
	{ "filtered_short", "calls shorter than the probe's min_ns, left out" },
	{ "filtered_long", "calls longer than the probe's max_ns, left out" },
	{ "detached", "probes whose function (or tracepoint) went with its module: they count nothing more" },
	{ "dropped_full", "starts dropped: the table of starts in flight was full (raise --slots)" },
	{ "abandoned", "starts abandoned: no stop came within the age limit (--age)" },
	{ "unreadable", "hits whose key could not be read" },
	{ "ev_no_slot", "intervals without events: their start found no free events entry" },
	{ "ev_too_deep", "intervals without events: their start was nested too deep" },
	{ "ev_lost", "intervals whose events entry was lost" },
};

/* Whether @col counts calls the probe's own filters left out. */
bool sw_loss_is_choice(const char *col)
{
	return !strncmp(col, "filtered", 8);
}

const char *sw_loss_note(const char *col)
{
	size_t i, l = strlen(col);

	for (i = 0; i < sizeof(sw_loss_notes) / sizeof(*sw_loss_notes); i++)
		if (!strcmp(sw_loss_notes[i].col, col))
			return sw_loss_notes[i].note;
	if (l > 11 && !strcmp(col + l - 11, "_unmeasured"))
		return "calls whose event counts were not measured";
	return NULL;
}
