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

void sw_call_names_parse(struct sw_call_names *n, const char *ids)
{
	char *p, *tok, *save = NULL;

	memset(n, 0, sizeof(*n));
	if (!ids)
		return;
	n->buf = strdup(ids);
	if (!n->buf)
		return;
	for (p = n->buf; (tok = strtok_r(p, ",", &save)); p = NULL) {
		char *colon = strchr(tok, ':'), *e;
		unsigned long id;

		if (!colon)
			continue;
		*colon = '\0';
		id = strtoul(tok, &e, 10);
		if (*e || id >= SW_TRACE_NAMES)
			continue;
		n->name[id] = colon + 1;
	}
}

void sw_call_names_free(struct sw_call_names *n)
{
	free(n->buf);
	n->buf = NULL;
}

const char *sw_call_name(const struct sw_call_names *n, uint16_t id,
			 char *tmp)
{
	if (n->name[id])
		return n->name[id];
	snprintf(tmp, 16, "probe#%u", id);
	return tmp;
}
