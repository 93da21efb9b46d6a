// SPDX-License-Identifier: GPL-2.0
/*
 * kallsyms.c - address-sorted symbol tables from kallsyms and perf maps.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/parse.h"
#include "base/sort.h"
#include "control/kallsyms.h"
#include "lib/events.h"

struct sw_symtab_builder {
	struct sw_symtab t;
	size_t cap;
	size_t nlen;
	size_t ncap;
};

static int64_t sw_stb_name(struct sw_symtab_builder *b, const char *s,
			   size_t len)
{
	size_t off = b->nlen;

	if (b->nlen + len + 1 > b->ncap) {
		size_t ncap = b->ncap ? b->ncap * 2 : 65536;
		char *n;

		while (b->nlen + len + 1 > ncap)
			ncap *= 2;
		n = realloc(b->t.names, ncap);
		if (!n)
			return -ENOMEM;
		b->t.names = n;
		b->ncap = ncap;
	}
	memcpy(b->t.names + off, s, len);
	b->t.names[off + len] = '\0';
	b->nlen += len + 1;
	return (int64_t)off;
}

static int sw_stb_add(struct sw_symtab_builder *b, uint64_t start,
		      uint64_t end, const char *name, size_t nlen,
		      const char *mod, size_t mlen)
{
	int64_t n, mo;

	if (b->t.n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 1024;
		struct sw_ksym *s = realloc(b->t.sym, cap * sizeof(*s));

		if (!s)
			return -ENOMEM;
		b->t.sym = s;
		b->cap = cap;
	}
	n = sw_stb_name(b, name, nlen);
	if (n < 0)
		return (int)n;
	mo = mlen ? sw_stb_name(b, mod, mlen) : 0;
	if (mo < 0)
		return (int)mo;
	b->t.sym[b->t.n].start = start;
	b->t.sym[b->t.n].end = end;
	b->t.sym[b->t.n].name = (uint32_t)n;
	b->t.sym[b->t.n].module = (uint32_t)mo;
	b->t.n++;
	return 0;
}

static int sw_ksym_cmp(const void *a, const void *b)
{
	const struct sw_ksym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return 0;
}

/* Parses hex digits at *@p (after an optional 0x); 0 on success. */
static int sw_hex(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;
	size_t n = 0;

	if (end - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	while (s + n < end && n < 16 && isxdigit((unsigned char)s[n]))
		n++;
	if (!n || sw_parse_number(s, n, 16, v))
		return -1;
	*p = s + n;
	return 0;
}

int sw_kallsyms_parse(const char *text, size_t len, struct sw_symtab *out)
{
	struct sw_symtab_builder b = { 0 };
	const char *p = text, *end = text + len;
	uint64_t etext = 0, nonzero = 0;
	size_t i;
	int ret = 0;

	b.t.hidden = 0;
	/* Offset 0 of the name arena is the empty module name. */
	if (sw_stb_name(&b, "", 0) < 0)
		return -ENOMEM;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *q, *name,
			   *mod = NULL;
		size_t nlen, mlen = 0;
		uint64_t addr;
		char type;

		if (!nl)
			nl = end;
		q = p;
		if (sw_hex(&q, nl, &addr) || nl - q < 4 || q[0] != ' ' ||
		    q[2] != ' ')
			goto next;
		type = q[1];
		name = q + 3;
		nlen = strcspn(name, "\t \n");
		if (name + nlen > nl)
			nlen = (size_t)(nl - name);
		q = name + nlen;
		while (q < nl && (*q == '\t' || *q == ' '))
			q++;
		if (q < nl && *q == '[') {
			mod = q + 1;
			mlen = strcspn(mod, "]\n");
			if (mod + mlen > nl)
				mlen = 0;
		}
		if (addr)
			nonzero++;
		if (nlen == 6 && !memcmp(name, "_etext", 6) && !mlen)
			etext = addr;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			goto next;
		/* Skip section-boundary markers that would hide real names. */
		if (nlen > 9 && !memcmp(name, "__pfx_", 6))
			goto next;
		ret = sw_stb_add(&b, addr, 0, name, nlen, mod, mlen);
		if (ret)
			goto fail;
next:
		p = nl + 1;
	}
	if (!nonzero && b.t.n)
		b.t.hidden = 1;
	sw_qsort(b.t.sym, b.t.n, sizeof(*b.t.sym), sw_ksym_cmp);
	for (i = 0; i < b.t.n; i++) {
		struct sw_ksym *s = &b.t.sym[i];
		const char *m = b.t.names + s->module;

		if (i + 1 < b.t.n &&
		    !strcmp(m, b.t.names + b.t.sym[i + 1].module))
			s->end = b.t.sym[i + 1].start;
		else if (!*m && etext > s->start)
			s->end = etext;
		else
			s->end = s->start + 4096;
		if (s->end < s->start)
			s->end = s->start + 1;
	}
	*out = b.t;
	return 0;
fail:
	sw_symtab_free(&b.t);
	return ret;
}

int sw_perfmap_parse(const char *text, size_t len, struct sw_symtab *out)
{
	struct sw_symtab_builder b = { 0 };
	const char *p = text, *end = text + len;
	int ret;

	if (sw_stb_name(&b, "", 0) < 0)
		return -ENOMEM;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *q = p;
		uint64_t start, size;
		size_t nlen;

		if (!nl)
			nl = end;
		if (sw_hex(&q, nl, &start) || q >= nl || *q != ' ')
			goto next;
		q++;
		if (sw_hex(&q, nl, &size) || q >= nl || *q != ' ' || !size)
			goto next;
		q++;
		nlen = (size_t)(nl - q);
		while (nlen && (q[nlen - 1] == '\r' || q[nlen - 1] == ' '))
			nlen--;
		if (!nlen)
			goto next;
		ret = sw_stb_add(&b, start, start + size, q, nlen, NULL, 0);
		if (ret) {
			sw_symtab_free(&b.t);
			return ret;
		}
next:
		p = nl + 1;
	}
	sw_qsort(b.t.sym, b.t.n, sizeof(*b.t.sym), sw_ksym_cmp);
	*out = b.t;
	return 0;
}

const struct sw_ksym *sw_symtab_find(const struct sw_symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->n;

	/* Last symbol starting at or before @addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->sym[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	if (addr >= t->sym[lo - 1].end)
		return NULL;
	return &t->sym[lo - 1];
}

const struct sw_ksym *sw_symtab_byname(const struct sw_symtab *t,
				       const char *name)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->names + t->sym[i].name, name))
			return &t->sym[i];
	return NULL;
}

void sw_symtab_free(struct sw_symtab *t)
{
	free(t->sym);
	free(t->names);
	memset(t, 0, sizeof(*t));
}
