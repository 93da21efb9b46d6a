// SPDX-License-Identifier: GPL-2.0
/*
 * bykey.c - traced calls and span intervals summed per (probe or span,
 * key tuple), ranked, the tail of each probe's rows summed into one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/sort.h"
#include "record/bykey.h"

static const char *const sw_by_names[SW_BY_NR] = {
	[SW_BY_KEY] = "key",   [SW_BY_KEY2] = "key2", [SW_BY_TID] = "tid",
	[SW_BY_PID] = "pid",   [SW_BY_COMM] = "comm", [SW_BY_CPU] = "cpu",
};

const char *sw_by_name(enum sw_by_field f)
{
	return f < SW_BY_NR ? sw_by_names[f] : "?";
}

int sw_by_parse(const char *s, struct sw_by_spec *sp, struct sw_err *err)
{
	const char *p = s, *e;
	unsigned int f, i;

	memset(sp, 0, sizeof(*sp));
	for (;;) {
		e = p + strcspn(p, ",");
		for (f = 0; f < SW_BY_NR; f++)
			if (strlen(sw_by_names[f]) == (size_t)(e - p) &&
			    !strncmp(p, sw_by_names[f], e - p))
				break;
		if (f == SW_BY_NR)
			return sw_err_set(err, -EINVAL,
					  "invalid --by '%s': unknown key '%.*s' (key, key2, tid, pid, comm, cpu)",
					  s, (int)(e - p), p);
		for (i = 0; i < sp->n; i++)
			if (sp->field[i] == f)
				return sw_err_set(err, -EINVAL,
						  "invalid --by '%s': '%s' twice",
						  s, sw_by_names[f]);
		if (sp->n == SW_BY_MAX)
			return sw_err_set(err, -EINVAL,
					  "invalid --by '%s': at most %d keys",
					  s, SW_BY_MAX);
		sp->field[sp->n++] = f;
		if (!*e)
			return 0;
		p = e + 1;
	}
}

void sw_bykey_init(struct sw_bykey *b, const struct sw_by_spec *sp)
{
	memset(b, 0, sizeof(*b));
	b->spec = *sp;
}

void sw_bykey_free(struct sw_bykey *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		free(b->rows[i].durs);
	free(b->rows);
	free(b->slot);
	memset(b, 0, sizeof(*b));
}

static size_t sw_bykey_hash(uint16_t id, bool span, const uint64_t *v)
{
	uint64_t h = ((uint64_t)id << 1 | span) * 0x9e3779b97f4a7c15ULL;
	unsigned int i;

	for (i = 0; i < SW_BY_MAX; i++)
		h = (h ^ v[i]) * 0x100000001b3ULL;
	return (size_t)(h ^ h >> 29);
}

static bool sw_bykey_same(const struct sw_by_row *r, uint16_t id, bool span,
			  const uint64_t *v)
{
	return r->id == id && r->span == span &&
	       !memcmp(r->v, v, sizeof(r->v));
}

/* Index of the row of (@id, @span, @v) in @b->slot: its slot or a free one. */
static size_t sw_bykey_find(const struct sw_bykey *b, uint16_t id, bool span,
			    const uint64_t *v)
{
	size_t m = b->nslot - 1, s = sw_bykey_hash(id, span, v) & m;

	while (b->slot[s] != SIZE_MAX &&
	       !sw_bykey_same(&b->rows[b->slot[s]], id, span, v))
		s = (s + 1) & m;
	return s;
}

/* Room for one more row: @rows and an index at most half full. */
static int sw_bykey_grow(struct sw_bykey *b)
{
	size_t i, n;

	if (b->n == b->cap) {
		struct sw_by_row *r;

		n = b->cap ? 2 * b->cap : 64;
		r = realloc(b->rows, n * sizeof(*r));
		if (!r)
			return -ENOMEM;
		b->rows = r;
		b->cap = n;
	}
	if (2 * (b->n + 1) <= b->nslot)
		return 0;
	n = b->nslot ? 2 * b->nslot : 256;
	free(b->slot);
	b->slot = malloc(n * sizeof(*b->slot));
	if (!b->slot)
		return -ENOMEM;
	b->nslot = n;
	for (i = 0; i < n; i++)
		b->slot[i] = SIZE_MAX;
	for (i = 0; i < b->n; i++)
		b->slot[sw_bykey_find(b, b->rows[i].id, b->rows[i].span,
				      b->rows[i].v)] = i;
	return 0;
}

static int sw_by_row_push(struct sw_by_row *r, uint64_t dur)
{
	if (r->dur.count == r->cap) {
		size_t n = r->cap ? 2 * r->cap : 16;
		uint64_t *d = realloc(r->durs, n * sizeof(*d));

		if (!d)
			return -ENOMEM;
		r->durs = d;
		r->cap = n;
	}
	r->durs[r->dur.count] = dur;
	sw_stats_add(&r->dur, dur);
	return 0;
}

static void sw_by_row_init(struct sw_by_row *r, uint16_t id, bool span,
			   const uint64_t *v)
{
	unsigned int i;

	memset(r, 0, sizeof(*r));
	r->id = id;
	r->span = span;
	memcpy(r->v, v, sizeof(r->v));
	r->nkeys = 1;
	sw_stats_init(&r->dur);
	for (i = 0; i <= SW_CALL_NEV_MASK; i++)
		sw_stats_init(&r->ev[i]);
}

int sw_bykey_add(struct sw_bykey *b, const struct sw_call_info *ci,
		 uint32_t comm, struct sw_err *err)
{
	uint64_t v[SW_BY_MAX] = { 0 };
	struct sw_by_row *r;
	unsigned int i, k;
	size_t s;
	int ret;

	for (i = 0; i < b->spec.n; i++) {
		switch (b->spec.field[i]) {
		case SW_BY_KEY:
		case SW_BY_KEY2:
			k = b->spec.field[i] == SW_BY_KEY2;
			if (ci->nkeys <= k)
				return sw_err_set(err, -EINVAL,
						  "--by %s: its records carry %u key value%s",
						  sw_by_names[b->spec.field[i]],
						  ci->nkeys,
						  ci->nkeys == 1 ? "" : "s");
			v[i] = ci->key[k];
			break;
		case SW_BY_TID:
			v[i] = ci->tid;
			break;
		case SW_BY_PID:
			v[i] = ci->pid;
			break;
		case SW_BY_COMM:
			v[i] = comm;
			break;
		default:
			v[i] = ci->cpu_end;
			break;
		}
	}
	ret = sw_bykey_grow(b);
	if (ret)
		return ret;
	s = sw_bykey_find(b, ci->id, ci->span, v);
	if (b->slot[s] == SIZE_MAX) {
		b->slot[s] = b->n;
		sw_by_row_init(&b->rows[b->n++], ci->id, ci->span, v);
	}
	r = &b->rows[b->slot[s]];
	ret = sw_by_row_push(r, ci->dur);
	if (ret)
		return ret;
	for (i = 0; i < ci->nev; i++)
		if (!(ci->ev_bad >> i & 1))
			sw_stats_add(&r->ev[i], ci->ev[i]);
	if (ci->nev > b->nev)
		b->nev = ci->nev;
	return 0;
}

/* Total time of each probe's or span's rows, for the order of probes. */
struct sw_by_group {
	uint16_t id;
	bool span;
	uint64_t total;
};

static int sw_by_cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/* By probe (the group's rank), then total time, most first, then key. */
static int sw_by_row_cmp(const void *pa, const void *pb, void *arg)
{
	const struct sw_by_row *a = pa, *b = pb;
	const size_t *rank = arg;
	int c;

	c = sw_by_cmp_u64(rank[a->id << 1 | a->span],
			  rank[b->id << 1 | b->span]);
	if (!c)
		c = sw_by_cmp_u64(b->dur.sum, a->dur.sum);
	if (!c)
		c = sw_by_cmp_u64(a->v[0], b->v[0]);
	if (!c)
		c = sw_by_cmp_u64(a->v[1], b->v[1]);
	return c;
}

static int sw_by_group_cmp(const void *pa, const void *pb)
{
	const struct sw_by_group *a = pa, *b = pb;
	int c = sw_by_cmp_u64(b->total, a->total);

	if (!c)
		c = sw_by_cmp_u64((uint64_t)a->id << 1 | a->span,
				  (uint64_t)b->id << 1 | b->span);
	return c;
}

/* Sum @from into @into (an other row). */
static int sw_by_row_merge(struct sw_by_row *into, const struct sw_by_row *from)
{
	uint64_t i;
	int ret;

	for (i = 0; i < from->dur.count; i++) {
		ret = sw_by_row_push(into, from->durs[i]);
		if (ret)
			return ret;
	}
	for (i = 0; i <= SW_CALL_NEV_MASK; i++)
		sw_stats_merge(&into->ev[i], &from->ev[i]);
	into->nkeys += from->nkeys;
	return 0;
}

int sw_bykey_rank(struct sw_bykey *b, size_t keep)
{
	const size_t nid = 2 * ((size_t)UINT16_MAX + 1);
	struct sw_by_group *g = NULL;
	size_t *rank, i, j, ng = 0, out, in_group;
	int ret = -ENOMEM;

	rank = calloc(nid, sizeof(*rank));
	if (!rank)
		return -ENOMEM;
	/* rank[] first holds 1 + the group's index in g[] */
	g = calloc(b->n + 1, sizeof(*g));
	if (!g)
		goto cleanup;
	for (i = 0; i < b->n; i++) {
		size_t x = (size_t)b->rows[i].id << 1 | b->rows[i].span;

		if (!rank[x]) {
			g[ng] = (struct sw_by_group){ b->rows[i].id,
						      b->rows[i].span, 0 };
			rank[x] = ++ng;
		}
		g[rank[x] - 1].total += b->rows[i].dur.sum;
	}
	sw_qsort(g, ng, sizeof(*g), sw_by_group_cmp);
	for (i = 0; i < ng; i++)
		rank[(size_t)g[i].id << 1 | g[i].span] = i;
	sw_qsort_r(b->rows, b->n, sizeof(*b->rows), sw_by_row_cmp, rank);
	/* each group's rows past @keep summed into its first one past it */
	out = 0;
	for (i = 0; i < b->n; i = j) {
		for (j = i; j < b->n && b->rows[j].id == b->rows[i].id &&
			    b->rows[j].span == b->rows[i].span; j++) {
			in_group = j - i;
			if (!keep || in_group <= keep) {
				if (out != j)
					b->rows[out] = b->rows[j];
				if (keep && in_group == keep) {
					b->rows[out].other = true;
					memset(b->rows[out].v, 0,
					       sizeof(b->rows[out].v));
				}
				out++;
				continue;
			}
			ret = sw_by_row_merge(&b->rows[out - 1], &b->rows[j]);
			free(b->rows[j].durs);
			if (ret) {
				/* the rows not yet moved are dropped */
				for (j++; j < b->n; j++)
					free(b->rows[j].durs);
				b->n = out;
				goto cleanup;
			}
		}
	}
	b->n = out;
	ret = 0;
cleanup:
	/* the index no longer matches the rows */
	free(b->slot);
	b->slot = NULL;
	b->nslot = 0;
	free(rank);
	free(g);
	return ret;
}

int sw_by_row_pcts(const struct sw_by_row *r, uint64_t *pct)
{
	const unsigned int k = SW_LHIST_BITS_DEFAULT;
	uint64_t *lin, i;

	lin = calloc(sw_lhist_nbuckets(k), sizeof(*lin));
	if (!lin)
		return -ENOMEM;
	for (i = 0; i < r->dur.count; i++)
		lin[sw_lhist_bucket(r->durs[i], k)]++;
	for (i = 0; i < SW_PCT_NR; i++)
		pct[i] = sw_lhist_quantile(lin, k, sw_pct_parts[i], r->dur.min,
					   r->dur.max);
	free(lin);
	return 0;
}
