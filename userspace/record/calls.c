// SPDX-License-Identifier: GPL-2.0
/*
 * calls.c - decode the records of traced calls; name their ids.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/calls.h"

int sw_call_decode(const struct sw_rec_header *h, uint32_t cpu,
		   struct sw_call_info *ci)
{
	const struct sw_rec_call *c = (const void *)h;
	uint16_t f = h->flags;
	const uint64_t *w = (const uint64_t *)c->words;

	if (h->type != SW_REC_CALL || h->size < sizeof(*c) ||
	    h->size < sizeof(*c) + 8 * sw_call_nwords(f))
		return -EINVAL;
	memset(ci, 0, sizeof(*ci));
	ci->end = h->time;
	ci->tid = c->tid;
	ci->pid = c->pid;
	ci->id = c->id;
	ci->span = f & SW_CALL_F_SPAN;
	ci->cpu_start = c->cpu;
	ci->cpu_end = cpu;
	ci->dur = c->dur;
	if (f & SW_CALL_F_DUR64)
		ci->dur = *w++;
	ci->start = ci->end >= ci->dur ? ci->end - ci->dur : 0;
	if (f & SW_CALL_F_RET) {
		ci->has_ret = true;
		ci->ret = *w++;
	}
	if (f & SW_CALL_F_PATH) {
		ci->has_path = true;
		ci->path = *w++;
	}
	ci->nkeys = (f >> SW_CALL_NKEYS_SHIFT) & SW_CALL_NKEYS_MASK;
	if (ci->nkeys > 2)
		return -EINVAL;
	memcpy(ci->key, w, 8 * ci->nkeys);
	w += ci->nkeys;
	if (f & SW_CALL_F_EV_BAD)
		ci->ev_bad = *w++;
	ci->nev = (f >> SW_CALL_NEV_SHIFT) & SW_CALL_NEV_MASK;
	ci->ev = w;
	w += ci->nev;
	ci->nargs = (f >> SW_CALL_NARGS_SHIFT) & SW_CALL_NARGS_MASK;
	ci->args = w;
	return 0;
}

/* "ID:NAME,..." into @buf (a copy, kept) and @name (@max entries). */
static void sw_call_ids_parse(const char *ids, char **buf, const char **name,
			      unsigned long max)
{
	char *p, *tok, *save = NULL;

	if (!ids)
		return;
	*buf = strdup(ids);
	if (!*buf)
		return;
	for (p = *buf; (tok = strtok_r(p, ",", &save)); p = NULL) {
		char *colon = strchr(tok, ':'), *e;
		unsigned long id;

		if (!colon)
			continue;
		*colon = '\0';
		id = strtoul(tok, &e, 10);
		if (*e || id >= max)
			continue;
		name[id] = colon + 1;
	}
}

void sw_call_names_parse(struct sw_call_names *n, const char *ids)
{
	memset(n, 0, sizeof(*n));
	sw_call_ids_parse(ids, &n->buf, n->name, SW_TRACE_NAMES);
}

void sw_call_names_parse_spans(struct sw_call_names *n, const char *ids)
{
	free(n->span_buf);
	n->span_buf = NULL;
	memset(n->span, 0, sizeof(n->span));
	sw_call_ids_parse(ids, &n->span_buf, n->span, SW_TRACE_SPAN_NAMES);
}

void sw_call_names_free(struct sw_call_names *n)
{
	free(n->buf);
	free(n->span_buf);
	n->buf = NULL;
	n->span_buf = NULL;
}

const char *sw_call_name(const struct sw_call_names *n, uint16_t id,
			 char *tmp)
{
	if (n->name[id])
		return n->name[id];
	snprintf(tmp, 16, "probe#%u", id);
	return tmp;
}

const char *sw_call_info_name(const struct sw_call_names *n,
			      const struct sw_call_info *ci, char *tmp)
{
	if (!ci->span)
		return sw_call_name(n, ci->id, tmp);
	if (ci->id < SW_TRACE_SPAN_NAMES && n->span[ci->id])
		return n->span[ci->id];
	snprintf(tmp, 16, "span#%u", ci->id);
	return tmp;
}

/* qsort_r()'s comparisons over indices into the calls. */
static int sw_nest_by_thread(const void *a, const void *b, void *arg)
{
	const struct sw_call_info *v = arg, *x = &v[*(const size_t *)a],
				  *y = &v[*(const size_t *)b];

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	/* the longer first: it encloses the other */
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static int sw_nest_by_start(const void *a, const void *b, void *arg)
{
	const struct sw_call_info *v = arg, *x = &v[*(const size_t *)a],
				  *y = &v[*(const size_t *)b];

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

int sw_calls_nest(const struct sw_call_info *v, size_t n, size_t *order,
		  unsigned int *depth)
{
	size_t *stack, i, top = 0;

	stack = malloc((n ? n : 1) * sizeof(*stack));
	if (!stack)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(*order), sw_nest_by_thread, (void *)v);
	/*
	 * A thread's calls by start: the stack holds the calls that enclose
	 * the current one; a call that ends before it does encloses none of
	 * the calls after it either (they start no earlier).
	 */
	for (i = 0; i < n; i++) {
		const struct sw_call_info *c = &v[order[i]];

		if (i && v[order[i - 1]].tid != c->tid)
			top = 0;
		while (top && v[stack[top - 1]].end < c->end)
			top--;
		depth[order[i]] = (unsigned int)top;
		stack[top++] = order[i];
	}
	free(stack);
	qsort_r(order, n, sizeof(*order), sw_nest_by_start, (void *)v);
	return 0;
}
