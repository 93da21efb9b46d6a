// SPDX-License-Identifier: GPL-2.0
/*
 * span-btf.c - resolve the names in a span point with the kernel's BTF.
 *
 * A point is POINT:KEY[?EXPR==N|EXPR!=N]; KEY is one expression or two
 * joined by ','.  An expression is either raw (argN, retval, tid, pid,
 * then +OFF reads and /SIZE: passed through unchanged, no BTF needed) or
 * NAME(->FIELD)*: NAME is a parameter of the function (of the tracepoint's
 * prototype, whose first parameter, the context, is not counted), each
 * ->FIELD a read through a pointer to a struct or union.  The result is
 * the raw form: argN, +OFF per read, /SIZE for the last one (or for an
 * argument narrower than 8 bytes).
 *
 * Types come from /sys/kernel/btf/vmlinux, or from a module's
 * /sys/kernel/btf/<module> (split BTF) when the function is not in
 * vmlinux; a tracepoint's arguments from the btf_trace_<event> typedef.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "base/sort.h"
#include "control/pattern.h"
#include "control/span-btf.h"

/* A FUNC of vmlinux by name: the index sw_vmlinux_func() searches. */
struct sw_btf_name {
	const char *name;
	__u32 id;
};

struct sw_span_btf {
	char *dir;		/* /sys/kernel/btf */
	struct btf *vmlinux;	/* loaded on first use */
	int vmlinux_err;
	struct sw_btf_name *funcs;	/* vmlinux's FUNCs by name, then id */
	size_t nfuncs;
	size_t nscans;		/* lookups by scan, before the index */
	bool funcs_tried;	/* the index was built, or could not be */
};

/* Lookups that scan every type before the FUNCs' index is built. */
#define SW_BTF_SCANS 16

/**
 * sw_span_btf_new() - a resolver over the BTF files in @dir.
 * @dir: NULL for /sys/kernel/btf
 *
 * Return: the resolver, or NULL when out of memory.
 */
struct sw_span_btf *sw_span_btf_new(const char *dir)
{
	struct sw_span_btf *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->dir = strdup(dir ? dir : "/sys/kernel/btf");
	if (!b->dir) {
		free(b);
		return NULL;
	}
	return b;
}

/**
 * sw_span_btf_free() - free a resolver; NULL is accepted.
 * @b: the resolver
 */
void sw_span_btf_free(struct sw_span_btf *b)
{
	if (!b)
		return;
	btf__free(b->vmlinux);
	free(b->funcs);
	free(b->dir);
	free(b);
}

static struct btf *sw_vmlinux(struct sw_span_btf *b, struct sw_err *err)
{
	char path[512];

	if (b->vmlinux)
		return b->vmlinux;
	snprintf(path, sizeof(path), "%s/vmlinux", b->dir);
	b->vmlinux = btf__parse(path, NULL);
	if (!b->vmlinux) {
		b->vmlinux_err = -errno;
		sw_err_set(err, b->vmlinux_err,
			   "cannot read the kernel's BTF %s (%s): names need CONFIG_DEBUG_INFO_BTF; raw argN+OFF keys work without it",
			   path, strerror(errno));
	}
	return b->vmlinux;
}

static int sw_name_cmp(const void *a, const void *b)
{
	const struct sw_btf_name *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->id > y->id) - (x->id < y->id);
}

/*
 * The id of FUNC @fn in vmlinux @v, as btf__find_by_name_kind() gives it
 * (the first of that name), or -ENOENT.  That call scans every type of
 * the kernel for each name, which a list of a hundred functions pays a
 * hundred times: a sorted index of the FUNCs is built once the lookups
 * are more than SW_BTF_SCANS, and searched by halves (sorting the index
 * costs about as much as that many scans).  Out of memory, the scan it is.
 */
static int sw_vmlinux_func(struct sw_span_btf *b, struct btf *v,
			   const char *fn)
{
	struct sw_btf_name key = { fn, 0 };
	size_t lo;

	if (!b->funcs_tried && ++b->nscans <= SW_BTF_SCANS)
		return btf__find_by_name_kind(v, fn, BTF_KIND_FUNC);
	if (!b->funcs_tried) {
		__u32 i, n = btf__type_cnt(v);

		b->funcs_tried = true;
		b->funcs = malloc(n * sizeof(*b->funcs));
		for (i = 1; b->funcs && i < n; i++) {
			const struct btf_type *t = btf__type_by_id(v, i);

			const char *name;

			if (!btf_is_func(t))
				continue;
			name = btf__name_by_offset(v, t->name_off);
			if (!name)
				continue;
			b->funcs[b->nfuncs].name = name;
			b->funcs[b->nfuncs++].id = i;
		}
		if (b->funcs)
			sw_qsort(b->funcs, b->nfuncs, sizeof(*b->funcs),
				 sw_name_cmp);
	}
	if (!b->funcs)
		return btf__find_by_name_kind(v, fn, BTF_KIND_FUNC);
	/* The first entry not below (fn, 0): the name's lowest id. */
	lo = sw_lower_bound(b->funcs, b->nfuncs, sizeof(*b->funcs), &key,
			    sw_name_cmp);
	return lo < b->nfuncs && !strcmp(b->funcs[lo].name, fn) ?
	       (int)b->funcs[lo].id : -ENOENT;
}

/**
 * sw_span_btf_func() - the BTF id of kernel function @fn in vmlinux.
 * @b:  the resolver
 * @fn: the function's name
 *
 * Return: the id (the lowest, when several FUNCs share the name), -ENOENT
 * when vmlinux has no FUNC of that name, or the negative errno of reading
 * vmlinux's BTF.
 */
int sw_span_btf_func(struct sw_span_btf *b, const char *fn)
{
	struct sw_err err = { "" };
	struct btf *v = sw_vmlinux(b, &err);

	return v ? sw_vmlinux_func(b, v, fn) : b->vmlinux_err;
}

/**
 * sw_span_raw_expr() - is [s, s + len) a raw expression?
 * @s:   the text
 * @len: its length
 *
 * Return: 1 when it starts with argN, retval, tid or pid followed by the
 * end, '+' or '/', else 0.
 */
int sw_span_raw_expr(const char *s, size_t len)
{
	size_t n;

	if (len >= 4 && !strncmp(s, "arg", 3) && s[3] >= '0' && s[3] <= '9')
		n = 4;
	else if (len >= 6 && !strncmp(s, "retval", 6))
		n = 6;
	else if (len >= 3 && (!strncmp(s, "tid", 3) || !strncmp(s, "pid", 3)))
		n = 3;
	else
		return 0;
	return n == len || s[n] == '+' || s[n] == '/';
}

/* Skip typedefs and qualifiers. */
static const struct btf_type *sw_skip(const struct btf *btf, __u32 *id)
{
	const struct btf_type *t = btf__type_by_id(btf, *id);

	while (t && (btf_is_typedef(t) || btf_is_const(t) ||
		     btf_is_volatile(t) || btf_is_restrict(t) ||
		     btf_is_type_tag(t))) {
		*id = t->type;
		t = btf__type_by_id(btf, *id);
	}
	return t;
}

/* Member @name of struct/union @id, looked for in anonymous members too. */
static int sw_member(const struct btf *btf, __u32 id, const char *name,
		     __u32 *off, __u32 *mtype)
{
	const struct btf_type *t = sw_skip(btf, &id);
	const struct btf_member *m;
	int i, vlen;

	if (!t || !(btf_is_struct(t) || btf_is_union(t)))
		return -EINVAL;
	m = btf_members(t);
	vlen = btf_vlen(t);
	for (i = 0; i < vlen; i++, m++) {
		const char *mn = btf__name_by_offset(btf, m->name_off);
		__u32 bit = btf_member_bit_offset(t, i), sub, subt;

		if (mn && *mn && !strcmp(mn, name)) {
			if (btf_member_bitfield_size(t, i) || bit % 8)
				return -ENOTSUP;
			*off = bit / 8;
			*mtype = m->type;
			return 0;
		}
		if ((!mn || !*mn) &&
		    !sw_member(btf, m->type, name, &sub, &subt)) {
			*off = bit / 8 + sub;
			*mtype = subt;
			return 0;
		}
	}
	return -ENOENT;
}

/* A scalar's size (integer, enum, pointer), or 0. */
static int sw_scalar_size(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = sw_skip(btf, &id);

	if (!t)
		return 0;
	if (btf_is_ptr(t))
		return 8;
	if (btf_is_int(t) || btf_is_enum(t) || btf_is_enum64(t))
		return (int)t->size;
	return 0;
}

/* The parameters of the prototype @proto; @skip of them hidden. */
struct sw_proto {
	const struct btf *btf;
	const struct btf_type *fp;
	int skip;
	const char *what;
};

static int sw_expr_resolve(const struct sw_proto *p, const char *s,
			   size_t len, char *out, size_t outlen,
			   struct sw_err *err)
{
	const struct btf_param *par = btf_params(p->fp);
	int n = btf_vlen(p->fp), i, size, w;
	char name[128];
	const char *arrow;
	size_t nl;
	__u32 type;

	arrow = strstr(s, "->");
	nl = arrow && arrow < s + len ? (size_t)(arrow - s) : len;
	if (!nl || nl >= sizeof(name))
		return sw_err_set(err, -EINVAL, "bad key '%.*s'", (int)len, s);
	memcpy(name, s, nl);
	name[nl] = '\0';
	for (i = p->skip; i < n; i++) {
		const char *pn = btf__name_by_offset(p->btf, par[i].name_off);

		if (pn && !strcmp(pn, name))
			break;
	}
	if (i == n) {
		char list[256] = "";
		size_t o = 0;
		int j;

		for (j = p->skip; j < n && o < sizeof(list) - 1; j++)
			o += snprintf(list + o, sizeof(list) - o, "%s%s",
				      j > p->skip ? " " : "",
				      btf__name_by_offset(p->btf,
							  par[j].name_off));
		return sw_err_set(err, -ENOENT,
				  "%s has no argument '%s' (its arguments: %s)",
				  p->what, name, list);
	}
	if (i - p->skip > 5)
		return sw_err_set(err, -EINVAL,
				  "argument '%s' of %s is the %dth: only the first six can be keys",
				  name, p->what, i - p->skip + 1);
	w = snprintf(out, outlen, "arg%d", i - p->skip);
	type = par[i].type;
	s += nl;
	len -= nl;
	while (len) {
		const struct btf_type *t;
		__u32 off, mt, pointee;
		char field[128];
		size_t fl;

		if (len < 3 || strncmp(s, "->", 2))
			return sw_err_set(err, -EINVAL,
					  "bad key part '%.*s' (NAME->FIELD)",
					  (int)len, s);
		s += 2;
		len -= 2;
		arrow = strstr(s, "->");
		fl = arrow && arrow < s + len ? (size_t)(arrow - s) : len;
		if (!fl || fl >= sizeof(field))
			return sw_err_set(err, -EINVAL, "bad field name");
		memcpy(field, s, fl);
		field[fl] = '\0';
		t = sw_skip(p->btf, &type);
		if (!t || !btf_is_ptr(t))
			return sw_err_set(err, -EINVAL,
					  "'%s' of %s: '->%s' needs a pointer to a struct",
					  name, p->what, field);
		pointee = t->type;
		if (sw_member(p->btf, pointee, field, &off, &mt))
			return sw_err_set(err, -ENOENT,
					  "'%s' of %s: no field '%s' (or a bit field) in the struct it points to",
					  name, p->what, field);
		w += snprintf(out + w, outlen - w, "+%u", off);
		type = mt;
		s += fl;
		len -= fl;
	}
	size = sw_scalar_size(p->btf, type);
	if (!size || size > 8)
		return sw_err_set(err, -EINVAL,
				  "key '%s...' of %s is not an integer or a pointer",
				  name, p->what);
	if (size != 8)
		w += snprintf(out + w, outlen - w, "/%d", size);
	return w < (int)outlen ? 0 : sw_err_set(err, -E2BIG, "key too long");
}

/* The prototype of function @fn: vmlinux first, then each module. */
static int sw_func_proto(struct sw_span_btf *b, const char *fn,
			 struct btf **own, struct sw_proto *p,
			 struct sw_err *err)
{
	struct btf *v = sw_vmlinux(b, err), *m;
	struct dirent *de;
	DIR *d;
	int id;

	if (!v)
		return b->vmlinux_err;
	id = sw_vmlinux_func(b, v, fn);
	if (id > 0) {
		p->btf = v;
		goto found;
	}
	d = opendir(b->dir);
	while (d && (de = readdir(d))) {
		char path[512];

		if (de->d_name[0] == '.' || !strcmp(de->d_name, "vmlinux"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", b->dir, de->d_name);
		m = btf__parse_split(path, v);
		if (!m)
			continue;
		id = btf__find_by_name_kind(m, fn, BTF_KIND_FUNC);
		if (id > 0) {
			*own = m;
			p->btf = m;
			closedir(d);
			goto found;
		}
		btf__free(m);
	}
	if (d)
		closedir(d);
	return sw_err_set(err, -ENOENT,
			  "no function '%s' in the kernel's BTF (nor its modules'); use argN keys",
			  fn);
found:
	p->fp = btf__type_by_id(p->btf, btf__type_by_id(p->btf, id)->type);
	p->skip = 0;
	return 0;
}

/**
 * sw_btf_arg_regs() - how many argument registers kernel function @fn
 * takes, for the module's args= (a trampoline needs them all in
 * registers).  An integer or pointer takes one, an aggregate of 9 to 16
 * bytes two, a larger aggregate goes on the stack on x86_64 (arm64 passes
 * a pointer to a copy): counted as 9, more than any architecture's
 * argument registers, so the module never puts a trampoline on it.  A
 * function returning an aggregate of more than 16 bytes takes where to
 * put it as a hidden first argument on x86_64 (%rdi: one more register);
 * arm64 passes it in x8, which the trampoline keeps too, so it is
 * counted there as well (at worst a trampoline fewer).
 *
 * Return: the count (0 to 127), or a negative errno: -ENOENT (no BTF
 * for @fn), -EINVAL (variadic: the count depends on the call).
 */
int sw_btf_arg_regs(struct sw_span_btf *b, const char *fn, struct sw_err *err)
{
	struct btf *own = NULL;
	const struct btf_param *par;
	struct sw_proto p;
	int i, n = 0, ret;

	ret = sw_func_proto(b, fn, &own, &p, err);
	if (ret)
		return ret;
	par = btf_params(p.fp);
	for (i = 0; i < btf_vlen(p.fp); i++) {
		const struct btf_type *t;
		__u32 id = par[i].type;
		__s64 size;

		if (!id) {
			ret = sw_err_set(err, -EINVAL, "'%s' is variadic", fn);
			goto out;
		}
		t = sw_skip(p.btf, &id);
		size = btf__resolve_size(p.btf, id);
		if (t && (btf_is_struct(t) || btf_is_union(t)) && size > 16)
			n += 9;
		else
			n += size > 8 ? 2 : 1;
	}
	if (p.fp->type) {
		const struct btf_type *t;
		__u32 id = p.fp->type;

		t = sw_skip(p.btf, &id);
		if (t && (btf_is_struct(t) || btf_is_union(t)) &&
		    btf__resolve_size(p.btf, id) > 16)
			n++;
	}
	ret = n > 127 ? 127 : n;
out:
	btf__free(own);
	return ret;
}

/* Same parameter types? */
static bool sw_proto_same(const struct btf_type *a, const struct btf_type *b)
{
	const struct btf_param *pa = btf_params(a), *pb = btf_params(b);
	int i;

	if (btf_vlen(a) != btf_vlen(b))
		return false;
	for (i = 0; i < btf_vlen(a); i++)
		if (pa[i].type != pb[i].type)
			return false;
	return true;
}

/* Do two prototypes name their parameters alike? */
static bool sw_names_same(const struct btf *v, const struct btf_type *a,
			  const struct btf_type *b)
{
	int j;

	for (j = 1; j < btf_vlen(a); j++)
		if (strcmp(btf__name_by_offset(v, btf_params(a)[j].name_off),
			   btf__name_by_offset(v, btf_params(b)[j].name_off)))
			return false;
	return true;
}

/*
 * An event of a template (DEFINE_EVENT) has no __bpf_trace_<event>: its
 * names are those of the __bpf_trace_<template> with the same prototype
 * whose name shares the longest prefix with the event's (sched_wakeup_new:
 * sched_wakeup_template); a tie between templates that name the
 * parameters differently is refused.
 */
static int sw_tp_named(const struct btf *v, struct sw_proto *p,
		       const char *ev, struct sw_err *err)
{
	const struct btf_type *best = NULL;
	__u32 n = btf__type_cnt(v), i, id;
	size_t best_len = 0, l;
	bool tie = false;

	for (i = 1; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(v, i), *fp;
		const char *fn;

		if (!btf_is_func(t))
			continue;
		fn = btf__name_by_offset(v, t->name_off);
		if (!fn || strncmp(fn, "__bpf_trace_", 12))
			continue;
		id = t->type;
		fp = sw_skip(v, &id);
		if (!fp || !btf_is_func_proto(fp) || !sw_proto_same(fp, p->fp))
			continue;
		for (l = 0; fn[12 + l] && fn[12 + l] == ev[l]; l++)
			;
		if (!best || l > best_len) {
			best = fp;
			best_len = l;
			tie = false;
		} else if (l == best_len && !sw_names_same(v, fp, best)) {
			tie = true;
		}
	}
	if (tie)
		return sw_err_set(err, -ENOENT,
				  "the BTF names no arguments of tracepoint %s unambiguously: use arg0..arg%d",
				  ev, btf_vlen(p->fp) - 2);
	if (best)
		p->fp = best;
	return 0;
}

/*
 * The prototype of tracepoint @ev.  The btf_trace_<ev> typedef's prototype
 * has the types but no names; the kernel's __bpf_trace_<ev> function (BPF
 * tracing built in) has the same parameters with their names.  Both start
 * with the context pointer.
 */
static int sw_tp_proto(struct sw_span_btf *b, const char *ev,
		       struct sw_proto *p, struct sw_err *err)
{
	struct btf *v = sw_vmlinux(b, err);
	const struct btf_type *t;
	char name[160];
	__u32 id;
	int r;

	if (!v)
		return b->vmlinux_err;
	snprintf(name, sizeof(name), "__bpf_trace_%s", ev);
	r = sw_vmlinux_func(b, v, name);
	if (r > 0) {
		id = btf__type_by_id(v, r)->type;
	} else {
		snprintf(name, sizeof(name), "btf_trace_%s", ev);
		r = btf__find_by_name_kind(v, name, BTF_KIND_TYPEDEF);
		if (r <= 0)
			return sw_err_set(err, -ENOENT,
					  "no tracepoint '%s' in the kernel's BTF (no %s)",
					  ev, name);
		id = btf__type_by_id(v, r)->type;
	}
	t = sw_skip(v, &id);
	if (t && btf_is_ptr(t)) {
		id = t->type;
		t = sw_skip(v, &id);
	}
	if (!t || !btf_is_func_proto(t) || btf_vlen(t) < 1)
		return sw_err_set(err, -EINVAL, "%s is not a probe prototype",
				  name);
	p->btf = v;
	p->fp = t;
	p->skip = 1;	/* the context pointer */
	if (r > 0 && !strncmp(name, "btf_trace_", 10))
		return sw_tp_named(v, p, ev, err);
	return 0;
}

/*
 * Resolve the expressions of @key (one, or two joined by ',') into @out;
 * @p is loaded on the first named one.
 */
static int sw_key_resolve(struct sw_span_btf *b, const char *target,
			  const char *key, size_t klen, struct sw_proto *p,
			  struct btf **own, char *out, size_t outlen,
			  struct sw_err *err)
{
	const char *e = key, *comma;
	size_t o = 0, el;
	int ret;

	while (e < key + klen) {
		comma = memchr(e, ',', key + klen - e);
		el = comma ? (size_t)(comma - e) : (size_t)(key + klen - e);
		if (o)
			out[o++] = ',';
		if (sw_span_raw_expr(e, el)) {
			if (o + el >= outlen)
				return sw_err_set(err, -E2BIG, "key too long");
			memcpy(out + o, e, el);
			o += el;
		} else {
			if (!p->fp) {
				const char *colon = strchr(target, ':');
				char fn[128];

				snprintf(fn, sizeof(fn), "%s", target);
				if (strchr(fn, '%'))
					*strchr(fn, '%') = '\0';
				p->what = target;
				ret = colon ? sw_tp_proto(b, colon + 1, p, err) :
					      sw_func_proto(b, fn, own, p, err);
				if (ret)
					return ret;
			}
			ret = sw_expr_resolve(p, e, el, out + o, outlen - o,
					      err);
			if (ret)
				return ret;
			o += strlen(out + o);
		}
		e += el + (comma ? 1 : 0);
	}
	out[o] = '\0';
	return 0;
}

/**
 * sw_span_point_resolve() - a point as the module takes it.
 * @b:     the resolver
 * @point: POINT:KEY[?COND], see the file comment
 * @out:   the resolved point, allocated
 * @err:   why not
 *
 * Return: 0, or a negative errno with @err set (unknown function, argument
 * or field; a key that is not an integer or pointer; no BTF).
 */
int sw_span_point_resolve(struct sw_span_btf *b, const char *point,
			  char **out, struct sw_err *err)
{
	struct sw_proto p = { 0 };
	struct btf *own = NULL;
	const char *q, *colon, *op;
	char target[128], key[256], cond[256] = "";
	int ret;

	*out = NULL;
	q = strchr(point, '?');
	colon = point + strlen(point);
	while (colon > point && (colon[-1] != ':' || (q && colon - 1 > q)))
		colon--;
	if (q && colon > q)
		colon = NULL;
	if (!colon || colon == point || !colon[0] || colon[0] == '?' ||
	    (size_t)(colon - 1 - point) >= sizeof(target))
		return sw_err_set(err, -EINVAL,
				  "bad point '%s': expected FUNC:KEY, FUNC%%return:KEY or SYSTEM:EVENT:KEY",
				  point);
	memcpy(target, point, colon - 1 - point);
	target[colon - 1 - point] = '\0';
	ret = sw_key_resolve(b, target, colon, q ? (size_t)(q - colon) :
				  strlen(colon), &p, &own, key, sizeof(key),
			     err);
	if (!ret && q) {
		op = strstr(q, "==");
		if (!op)
			op = strstr(q, "!=");
		if (!op) {
			ret = sw_err_set(err, -EINVAL,
					 "bad condition '%s': expected EXPR==N or EXPR!=N",
					 q + 1);
		} else {
			ret = sw_key_resolve(b, target, q + 1, op - q - 1, &p,
					     &own, cond + 1, sizeof(cond) - 1,
					     err);
			cond[0] = '?';
			if (!ret)
				snprintf(cond + strlen(cond),
					 sizeof(cond) - strlen(cond), "%s", op);
		}
	}
	btf__free(own);
	if (ret) {
		sw_err_prefix(err, "%s", point);
		return ret;
	}
	if (asprintf(out, "%s:%s%s", target, key, cond) < 0) {
		*out = NULL;
		return -ENOMEM;
	}
	return 0;
}

/**
 * sw_btf_attach_extra() - the attach tokens of each kernel function of @e:
 * "args=N", N its argument registers from the kernel's BTF, preceded by
 * "attach=MODE" when @mode is given (else the module's attach parameter
 * decides).  Left out when BTF does not say: the module then keeps the
 * function on its kretprobe, said in its stats.  A user point, a module
 * function given as MOD:FUNC and a name that already has tokens keep
 * theirs.
 * @e:    the expanded names; e->extra is allocated when NULL
 * @mode: kretprobe, trampoline, auto, or NULL
 *
 * Return: 0 or -ENOMEM.
 */
int sw_btf_attach_extra(struct sw_expansion *e, const char *mode)
{
	struct sw_span_btf *b = sw_span_btf_new(NULL);
	size_t i;
	int ret = 0;

	if (!e->extra) {
		e->extra = calloc(e->n ? e->n : 1, sizeof(*e->extra));
		if (!e->extra) {
			ret = -ENOMEM;
			goto out;
		}
	}
	for (i = 0; i < e->n; i++) {
		struct sw_err err = { "" };
		int n, r;

		if (e->extra[i] || strchr(e->name[i], ':'))
			continue;
		n = b ? sw_btf_arg_regs(b, e->name[i], &err) : -ENOENT;
		if (n >= 0 && mode)
			r = asprintf(&e->extra[i], "attach=%s args=%d", mode, n);
		else if (n >= 0)
			r = asprintf(&e->extra[i], "args=%d", n);
		else if (mode)
			r = asprintf(&e->extra[i], "attach=%s", mode);
		else
			continue;
		if (r < 0) {
			e->extra[i] = NULL;
			ret = -ENOMEM;
			goto out;
		}
	}
out:
	sw_span_btf_free(b);
	return ret;
}
