// SPDX-License-Identifier: GPL-2.0
/*
 * aggr.c - report rows by sort keys; distinct call stacks; folded stacks;
 * the call graph view.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "record/aggr.h"
#include "base/tree.h"
#include "base/sort.h"

static const char *const sw_sk_names[SW_SK_NR] = {
	[SW_SK_COMM] = "comm",
	[SW_SK_PID] = "pid",
	[SW_SK_TID] = "tid",
	[SW_SK_IMAGE] = "image",
	[SW_SK_SYMBOL] = "symbol",
	[SW_SK_SRCLINE] = "srcline",
	[SW_SK_CPU] = "cpu",
};

const char *sw_sort_name(enum sw_sort_key k)
{
	return k < SW_SK_NR ? sw_sk_names[k] : "?";
}

int sw_sort_parse(const char *spec, struct sw_aggr *a, struct sw_err *err)
{
	const char *p = spec;
	size_t i;

	a->nkey = 0;
	if (!*spec)
		return sw_err_set(err, -EINVAL,
				  "empty --sort: expected keys among comm, pid, tid, image, symbol, srcline, cpu");
	while (*p) {
		size_t n = strcspn(p, ",");
		int found = -1;

		for (i = 0; i < SW_SK_NR; i++)
			if (strlen(sw_sk_names[i]) == n &&
			    !strncmp(p, sw_sk_names[i], n))
				found = (int)i;
		/* perf's names for the same keys */
		if (found < 0 && n == 3 && !strncmp(p, "dso", 3))
			found = SW_SK_IMAGE;
		if (found < 0 && n == 3 && !strncmp(p, "sym", 3))
			found = SW_SK_SYMBOL;
		if (found < 0)
			return sw_err_set(err, -EINVAL,
					  "unknown sort key '%.*s': expected comm, pid, tid, image, symbol, srcline or cpu",
					  (int)n, p);
		for (i = 0; i < a->nkey; i++)
			if (a->key[i] == (enum sw_sort_key)found)
				return sw_err_set(err, -EINVAL,
						  "sort key '%s' given twice",
						  sw_sk_names[found]);
		a->key[a->nkey++] = (enum sw_sort_key)found;
		p += n;
		if (*p == ',' && !*++p)
			return sw_err_set(err, -EINVAL,
					  "--sort '%s' ends with a comma", spec);
	}
	return 0;
}

bool sw_aggr_wants_srcline(const struct sw_aggr *a)
{
	size_t i;

	for (i = 0; i < a->nkey; i++)
		if (a->key[i] == SW_SK_SRCLINE)
			return true;
	return false;
}

void sw_aggr_init(struct sw_aggr *a)
{
	enum sw_sort_key k[SW_SK_NR];
	size_t n = a->nkey;

	memcpy(k, a->key, sizeof(k));
	memset(a, 0, sizeof(*a));
	memcpy(a->key, k, sizeof(k));
	a->nkey = n;
	sw_intern_init(&a->rows);
}

void sw_aggr_free(struct sw_aggr *a)
{
	sw_intern_free(&a->rows);
	free(a->samples);
	free(a->period);
	a->samples = a->period = NULL;
	a->cap = 0;
}

/* Makes @arr hold index @n, zero-filling new entries. */
static int sw_grow_u64(uint64_t **arr, size_t *cap, size_t n)
{
	size_t c;
	uint64_t *na;

	if (n < *cap)
		return 0;
	c = *cap ? *cap * 2 : 1024;
	while (c <= n)
		c *= 2;
	na = realloc(*arr, c * sizeof(*na));
	if (!na)
		return -ENOMEM;
	memset(na + *cap, 0, (c - *cap) * sizeof(*na));
	*arr = na;
	*cap = c;
	return 0;
}

static int sw_counts_grow(uint64_t **s, uint64_t **p, size_t *cap, size_t n)
{
	size_t c;
	uint64_t *ns, *np;

	if (n < *cap)
		return 0;
	c = *cap ? *cap * 2 : 1024;
	ns = realloc(*s, c * sizeof(*ns));
	if (!ns)
		return -ENOMEM;
	*s = ns;
	np = realloc(*p, c * sizeof(*np));
	if (!np)
		return -ENOMEM;
	*p = np;
	memset(ns + *cap, 0, (c - *cap) * sizeof(*ns));
	memset(np + *cap, 0, (c - *cap) * sizeof(*np));
	*cap = c;
	return 0;
}

int sw_aggr_add(struct sw_aggr *a, struct sw_symbolizer *sym,
		const struct sw_sample_info *si)
{
	const struct sw_symres *r = sw_symres_get(sym, si->loc);
	uint64_t v[SW_SK_NR];
	int64_t id;
	size_t i;

	for (i = 0; i < a->nkey; i++) {
		switch (a->key[i]) {
		case SW_SK_COMM:
			v[i] = si->comm;
			break;
		case SW_SK_PID:
			v[i] = si->pid;
			break;
		case SW_SK_TID:
			v[i] = si->tid;
			break;
		case SW_SK_IMAGE:
			v[i] = r->image;
			break;
		case SW_SK_SYMBOL:
			v[i] = (uint64_t)r->image << 32 | r->sym;
			break;
		case SW_SK_SRCLINE:
			v[i] = r->srcline;
			break;
		case SW_SK_CPU:
		default:
			v[i] = si->cpu;
			break;
		}
	}
	id = sw_intern_add(&a->rows, v, a->nkey * sizeof(v[0]), NULL);
	if (id < 0 || sw_counts_grow(&a->samples, &a->period, &a->cap,
				     (size_t)id))
		return -ENOMEM;
	a->samples[id]++;
	a->period[id] += si->period;
	a->total_samples++;
	a->total_period += si->period;
	return 0;
}

const char *sw_aggr_cell(const struct sw_aggr *a, const struct sw_machine *m,
			 const struct sw_row *row, size_t k, char *buf)
{
	uint64_t v = row->val[k];

	switch (a->key[k]) {
	case SW_SK_COMM:
	case SW_SK_SRCLINE:
		return sw_str(m, (uint32_t)v);
	case SW_SK_IMAGE:
		return sw_str(m, m->image[v].name_id);
	case SW_SK_SYMBOL:
		return sw_str(m, (uint32_t)v);
	default:
		snprintf(buf, 24, "%" PRIu64, v);
		return buf;
	}
}

static const struct sw_aggr *sw_sort_a;
static const struct sw_machine *sw_sort_m;
static bool sw_sort_period;

static int sw_row_cmp(const void *x, const void *y)
{
	const struct sw_row *p = x, *q = y;
	uint64_t wp = sw_sort_period ? p->period : p->samples;
	uint64_t wq = sw_sort_period ? q->period : q->samples;
	uint64_t vp = sw_sort_period ? p->samples : p->period;
	uint64_t vq = sw_sort_period ? q->samples : q->period;
	char b1[24], b2[24];
	size_t k;

	if (wp != wq)
		return wp > wq ? -1 : 1;
	if (vp != vq)
		return vp > vq ? -1 : 1;
	for (k = 0; k < sw_sort_a->nkey; k++) {
		int c = strcmp(sw_aggr_cell(sw_sort_a, sw_sort_m, p, k, b1),
			       sw_aggr_cell(sw_sort_a, sw_sort_m, q, k, b2));

		if (c)
			return c;
	}
	return p->id < q->id ? -1 : p->id > q->id;
}

int64_t sw_aggr_sorted(const struct sw_aggr *a, const struct sw_machine *m,
		       bool by_period, struct sw_row **out)
{
	struct sw_row *r;
	uint32_t i;

	r = malloc((a->rows.n + 1) * sizeof(*r));
	if (!r)
		return -ENOMEM;
	for (i = 0; i < a->rows.n; i++) {
		r[i].id = i;
		r[i].samples = a->samples[i];
		r[i].period = a->period[i];
		r[i].val = sw_intern_key(&a->rows, i);
	}
	sw_sort_a = a;
	sw_sort_m = m;
	sw_sort_period = by_period;
	sw_qsort(r, a->rows.n, sizeof(*r), sw_row_cmp);
	*out = r;
	return a->rows.n;
}

/* ---- stacks ------------------------------------------------------------------ */

void sw_stacks_init(struct sw_stacks *st)
{
	memset(st, 0, sizeof(*st));
	sw_intern_init(&st->set);
}

void sw_stacks_free(struct sw_stacks *st)
{
	sw_intern_free(&st->set);
	free(st->samples);
	free(st->period);
	memset(st, 0, sizeof(*st));
}

int sw_stacks_add(struct sw_stacks *st, uint32_t comm, const uint32_t *locs,
		  size_t n, uint64_t period)
{
	uint32_t buf[256], *key = buf;
	int64_t id;

	if (n + 1 > sizeof(buf) / sizeof(buf[0])) {
		key = malloc((n + 1) * sizeof(*key));
		if (!key)
			return -ENOMEM;
	}
	key[0] = comm;
	memcpy(key + 1, locs, n * sizeof(*locs));
	id = sw_intern_add(&st->set, key, (n + 1) * sizeof(*key), NULL);
	if (key != buf)
		free(key);
	if (id < 0 || sw_counts_grow(&st->samples, &st->period, &st->cap,
				     (size_t)id))
		return -ENOMEM;
	st->samples[id]++;
	st->period[id] += period;
	st->total_samples++;
	st->total_period += period;
	return 0;
}

const char *sw_frame_label(struct sw_symbolizer *sym, uint32_t loc,
			   bool mark_kernel, char *buf, size_t len)
{
	const struct sw_symres *r = sw_symres_get(sym, loc);
	const struct sw_image *img = &sym->m->image[r->image];
	bool k = img->kind == SW_IMG_KERNEL || img->kind == SW_IMG_MODULE;

	if (r->flags & SW_SYMRES_KNOWN)
		snprintf(buf, len, "%s%s", sw_str(sym->m, r->sym),
			 k && mark_kernel ? "_[k]" : "");
	else
		snprintf(buf, len, "[unknown] (%s)%s",
			 sw_str(sym->m, img->name_id),
			 k && mark_kernel ? "_[k]" : "");
	return buf;
}

struct sw_line {
	const char *text;
	uint64_t count;
};

static int sw_line_cmp(const void *x, const void *y)
{
	return strcmp(((const struct sw_line *)x)->text,
		      ((const struct sw_line *)y)->text);
}

int sw_write_folded(FILE *f, const struct sw_stacks *st,
		    struct sw_symbolizer *sym, bool period)
{
	struct sw_intern lines;
	uint64_t *count = NULL;
	struct sw_line *out = NULL;
	size_t cap = 0, ln = 0;
	char *buf = NULL, frame[512];
	uint32_t i;
	int ret = 0;

	sw_intern_init(&lines);
	for (i = 0; i < st->set.n; i++) {
		const uint32_t *locs = sw_stacks_locs(st, i);
		size_t n = sw_stacks_depth(st, i), j, size = 0;
		FILE *m;
		int64_t id;

		m = open_memstream(&buf, &size);
		if (!m) {
			ret = -ENOMEM;
			goto out;
		}
		fputs(sw_str(sym->m, sw_stacks_comm(st, i)), m);
		for (j = n; j-- > 0;) {
			const char *l = sw_frame_label(sym, locs[j], true, frame,
						       sizeof(frame));

			fputc(';', m);
			/* ';' separates frames: keep it out of names. */
			for (; *l; l++)
				fputc(*l == ';' ? ':' : *l == '\n' ? ' ' : *l, m);
		}
		if (fclose(m)) {
			ret = -ENOMEM;
			goto out;
		}
		id = sw_intern_add(&lines, buf, size + 1, NULL);
		free(buf);
		buf = NULL;
		if (id < 0) {
			ret = -ENOMEM;
			goto out;
		}
		if ((size_t)id >= cap) {
			size_t c = cap ? cap * 2 : 256;
			uint64_t *nc = realloc(count, c * sizeof(*nc));

			if (!nc) {
				ret = -ENOMEM;
				goto out;
			}
			memset(nc + cap, 0, (c - cap) * sizeof(*nc));
			count = nc;
			cap = c;
		}
		count[id] += period ? st->period[i] : st->samples[i];
	}
	out = malloc((lines.n + 1) * sizeof(*out));
	if (!out) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < lines.n; i++) {
		out[ln].text = sw_intern_s(&lines, i);
		out[ln++].count = count[i];
	}
	sw_qsort(out, ln, sizeof(*out), sw_line_cmp);
	for (i = 0; i < ln; i++)
		fprintf(f, "%s %" PRIu64 "\n", out[i].text, out[i].count);
	if (ferror(f))
		ret = -EIO;
out:
	free(buf);
	free(out);
	free(count);
	sw_intern_free(&lines);
	return ret;
}

/* ---- call graph ------------------------------------------------------------- */

/* A function: its image and symbol. */
static inline uint64_t sw_fkey(struct sw_symbolizer *sym, uint32_t loc)
{
	const struct sw_symres *r = sw_symres_get(sym, loc);

	return (uint64_t)r->image << 32 | r->sym;
}

static void sw_fk_print(FILE *f, struct sw_symbolizer *sym, uint64_t fk)
{
	const struct sw_machine *m = sym->m;
	uint32_t image = (uint32_t)(fk >> 32), s = (uint32_t)fk;

	const char *img = sw_str(m, m->image[image].name_id);

	fprintf(f, img[0] == '[' ? "%s  %s" : "%s  [%s]", sw_str(m, s), img);
}

static int sw_w_cmp(const void *x, const void *y)
{
	const struct sw_tree_node *const *a = x, *const *b = y;

	if ((*a)->w != (*b)->w)
		return (*a)->w > (*b)->w ? -1 : 1;
	return (*a)->key < (*b)->key ? -1 : (*a)->key > (*b)->key;
}

static int sw_cg_print(FILE *f, struct sw_tree *g, uint32_t node, size_t level,
		       uint64_t total, struct sw_symbolizer *sym,
		       const struct sw_cg_opts *o)
{
	struct sw_tree_node **kids;
	size_t nk = 0, i;
	uint32_t c;
	int ret = 0;

	if (level > o->depth)
		return 0;
	for (c = g->node[node].child; c; c = g->node[c - 1].next)
		nk++;
	if (!nk)
		return 0;
	kids = malloc(nk * sizeof(*kids));
	if (!kids)
		return -ENOMEM;
	nk = 0;
	for (c = g->node[node].child; c; c = g->node[c - 1].next)
		kids[nk++] = &g->node[c - 1];
	sw_qsort(kids, nk, sizeof(*kids), sw_w_cmp);
	for (i = 0; i < nk && !ret; i++) {
		double pct = total ? 100.0 * (double)kids[i]->w / (double)total : 0;

		if (pct < o->min_pct)
			break;
		fprintf(f, "%*s%6.2f%%  ", (int)(4 + 4 * level), "", pct);
		sw_fk_print(f, sym, kids[i]->key);
		fputc('\n', f);
		ret = sw_cg_print(f, g, (uint32_t)(kids[i] - g->node), level + 1,
				  total, sym, o);
	}
	free(kids);
	return ret;
}

struct sw_fw {
	uint64_t fk;
	uint64_t w;
};

static int sw_fw_cmp(const void *x, const void *y)
{
	const struct sw_fw *a = x, *b = y;

	if (a->w != b->w)
		return a->w > b->w ? -1 : 1;
	return a->fk < b->fk ? -1 : a->fk > b->fk;
}

int sw_print_callgraph(FILE *f, const struct sw_stacks *st,
		       struct sw_symbolizer *sym, const struct sw_cg_opts *o)
{
	uint64_t total = o->period ? st->total_period : st->total_samples;
	struct sw_u64map self;
	struct sw_fw *fw = NULL;
	struct sw_intern paths;
	uint64_t *pw = NULL;
	size_t nfw = 0, e, pcap = 0;
	struct sw_tree g = { 0 };
	uint64_t *seq = NULL;
	size_t seqcap = 0;
	uint32_t i;
	int ret = 0;

	sw_u64map_init(&self);
	sw_intern_init(&paths);
	/* Self weight per function, and the function-level full paths. */
	for (i = 0; i < st->set.n; i++) {
		const uint32_t *locs = sw_stacks_locs(st, i);
		size_t n = sw_stacks_depth(st, i), j;
		uint64_t w = o->period ? st->period[i] : st->samples[i], idx;
		uint64_t fk = sw_fkey(sym, locs[0]);
		int64_t pid;

		if (sw_u64map_get(&self, fk, &idx)) {
			fw[idx].w += w;
		} else {
			struct sw_fw *nf = realloc(fw, (nfw + 1) * sizeof(*nf));

			if (!nf || sw_u64map_put(&self, fk, nfw)) {
				free(nf ? nf : fw);
				fw = NULL;
				ret = -ENOMEM;
				goto out;
			}
			fw = nf;
			fw[nfw].fk = fk;
			fw[nfw++].w = w;
		}
		if (n > seqcap) {
			uint64_t *ns = realloc(seq, n * sizeof(*ns));

			if (!ns) {
				ret = -ENOMEM;
				goto out;
			}
			seq = ns;
			seqcap = n;
		}
		for (j = 0; j < n; j++)
			seq[j] = sw_fkey(sym, locs[n - 1 - j]);
		pid = sw_intern_add(&paths, seq, n * sizeof(*seq), NULL);
		if (pid < 0 || sw_grow_u64(&pw, &pcap, (size_t)pid)) {
			ret = -ENOMEM;
			goto out;
		}
		pw[pid] += w;
	}
	sw_qsort(fw, nfw, sizeof(*fw), sw_fw_cmp);

	fprintf(f, "\n# Call graph: the hottest functions (self %s) and their callers,\n"
		   "# hottest caller first; percentages of all %s.\n#\n",
		o->period ? "period" : "samples",
		o->period ? "period" : "samples");
	for (e = 0; e < nfw && e < o->entries && !ret; e++) {
		double pct = total ? 100.0 * (double)fw[e].w / (double)total : 0;

		if (pct < o->min_pct)
			break;
		ret = sw_tree_reset(&g, 0);
		if (ret)
			goto out;
		for (i = 0; i < st->set.n; i++) {
			const uint32_t *locs = sw_stacks_locs(st, i);
			size_t n = sw_stacks_depth(st, i), j;
			uint64_t w = o->period ? st->period[i] : st->samples[i];
			uint32_t cur = 0;

			if (sw_fkey(sym, locs[0]) != fw[e].fk)
				continue;
			for (j = 1; j < n && j <= o->depth; j++) {
				int64_t c = sw_tree_child(&g, cur,
							sw_fkey(sym, locs[j]));

				if (c < 0) {
					ret = (int)c;
					goto out;
				}
				cur = (uint32_t)c;
				g.node[cur].w += w;
			}
		}
		fprintf(f, "%6.2f%%  ", pct);
		sw_fk_print(f, sym, fw[e].fk);
		fputc('\n', f);
		ret = sw_cg_print(f, &g, 0, 0, total, sym, o);
		fputc('\n', f);
	}

	if (o->paths && paths.n) {
		struct sw_fw *pp = malloc(paths.n * sizeof(*pp));

		if (!pp) {
			ret = -ENOMEM;
			goto out;
		}
		for (i = 0; i < paths.n; i++) {
			pp[i].fk = i;
			pp[i].w = pw[i];
		}
		sw_qsort(pp, paths.n, sizeof(*pp), sw_fw_cmp);
		fprintf(f, "# The most common call paths, outermost caller first\n#\n");
		for (i = 0; i < paths.n && i < o->paths; i++) {
			const uint64_t *p = sw_intern_key(&paths, (uint32_t)pp[i].fk);
			size_t n = sw_intern_len(&paths, (uint32_t)pp[i].fk) /
				   sizeof(*p), j;

			fprintf(f, "%6.2f%%  ",
				total ? 100.0 * (double)pp[i].w / (double)total : 0);
			for (j = 0; j < n; j++) {
				uint32_t s = (uint32_t)p[j];

				fprintf(f, "%s%s", j ? " -> " : "",
					sw_str(sym->m, s));
			}
			fputc('\n', f);
		}
		free(pp);
	}
	if (ferror(f))
		ret = -EIO;
out:
	free(seq);
	free(fw);
	free(pw);
	sw_tree_free(&g);
	sw_intern_free(&paths);
	sw_u64map_free(&self);
	return ret;
}
