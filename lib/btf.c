// SPDX-License-Identifier: GPL-2.0
/*
 * btf.c - a small BTF reader: header and sections checked, the type
 * section walked once (each record's length from its kind), functions
 * found by name, and their prototypes' argument registers counted.
 *
 * The layout read here is the kernel's BTF format (Documentation/bpf/
 * btf.rst): a header, then a type section of variable-length records
 * (struct btf_type, 12 bytes, and data whose size its kind and vlen give),
 * then a string section.  The blob is in the byte order of the kernel
 * that made it, which is this machine's: another magic is refused.
 */
#include "btf.h"

#define SW_BTF_MAGIC 0xeB9F
#define SW_BTF_HDR_MIN 24	/* magic .. str_len */
#define SW_BTF_TYPE_SIZE 12	/* name_off, info, size or type */
#define SW_BTF_RESOLVE_DEPTH 32	/* typedef and qualifier chains */

enum {
	SW_KIND_INT = 1,
	SW_KIND_PTR = 2,
	SW_KIND_ARRAY = 3,
	SW_KIND_STRUCT = 4,
	SW_KIND_UNION = 5,
	SW_KIND_ENUM = 6,
	SW_KIND_FWD = 7,
	SW_KIND_TYPEDEF = 8,
	SW_KIND_VOLATILE = 9,
	SW_KIND_CONST = 10,
	SW_KIND_RESTRICT = 11,
	SW_KIND_FUNC = 12,
	SW_KIND_FUNC_PROTO = 13,
	SW_KIND_VAR = 14,
	SW_KIND_DATASEC = 15,
	SW_KIND_FLOAT = 16,
	SW_KIND_DECL_TAG = 17,
	SW_KIND_TYPE_TAG = 18,
	SW_KIND_ENUM64 = 19,
};

static u32 sw_get32(const u8 *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static u16 sw_get16(const u8 *p)
{
	u16 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* A type record's fields (@t: its first byte). */
static u32 sw_t_name(const u8 *t)
{
	return sw_get32(t);
}

static u32 sw_t_kind(const u8 *t)
{
	return (sw_get32(t + 4) >> 24) & 0x1f;
}

static u32 sw_t_vlen(const u8 *t)
{
	return sw_get32(t + 4) & 0xffff;
}

/* The size, or the type referred to (by kind). */
static u32 sw_t_sizetype(const u8 *t)
{
	return sw_get32(t + 8);
}

/*
 * The bytes of kind-specific data after a record's 12, or -1 for a kind
 * this reader does not know (its length is unknown: nothing after it can
 * be read).
 */
static s64 sw_t_extra(u32 kind, u32 vlen)
{
	switch (kind) {
	case SW_KIND_INT:
	case SW_KIND_VAR:
	case SW_KIND_DECL_TAG:
		return 4;
	case SW_KIND_ARRAY:
		return 12;		/* type, index_type, nelems */
	case SW_KIND_STRUCT:
	case SW_KIND_UNION:
	case SW_KIND_DATASEC:
	case SW_KIND_ENUM64:
		return (s64)vlen * 12;	/* three u32 each */
	case SW_KIND_ENUM:
	case SW_KIND_FUNC_PROTO:
		return (s64)vlen * 8;	/* two u32 each */
	case SW_KIND_PTR:
	case SW_KIND_FWD:
	case SW_KIND_TYPEDEF:
	case SW_KIND_VOLATILE:
	case SW_KIND_CONST:
	case SW_KIND_RESTRICT:
	case SW_KIND_FUNC:
	case SW_KIND_FLOAT:
	case SW_KIND_TYPE_TAG:
		return 0;
	default:
		return -1;
	}
}

/*
 * Walks the type section: each record whole within it.  Fills @offs
 * (room for @cap) when given.  Return: the number of types, or -EINVAL.
 */
static s64 sw_btf_walk(const u8 *types, u32 len, u32 *offs, u32 cap)
{
	u32 pos = 0, n = 0;

	while (pos < len) {
		s64 extra;

		if (len - pos < SW_BTF_TYPE_SIZE)
			return -EINVAL;
		extra = sw_t_extra(sw_t_kind(types + pos),
				   sw_t_vlen(types + pos));
		if (extra < 0 || extra > len - pos - SW_BTF_TYPE_SIZE)
			return -EINVAL;
		if (offs) {
			if (n >= cap)
				return -EINVAL;
			offs[n] = pos;
		}
		pos += SW_BTF_TYPE_SIZE + (u32)extra;
		n++;
	}
	return n;
}

/**
 * sw_btf_open() - check a blob and count its types.
 * @b:    filled in; @b->offs is NULL until sw_btf_index()
 * @data: the blob; must outlive @b
 * @len:  its bytes
 * @base: for a module's split BTF, vmlinux's (opened and indexed); NULL
 *        for vmlinux's own
 *
 * Checks the magic (this machine's byte order), version, header length,
 * that both sections lie within @len, that the string section is
 * NUL-terminated (and starts with the empty string, vmlinux's), and that
 * the type section is a whole number of records of kinds known here.
 *
 * Context: any.
 * Return: 0, or -EINVAL (not BTF, or malformed).
 */
int sw_btf_open(struct sw_btf *b, const void *data, size_t len,
		const struct sw_btf *base)
{
	const u8 *d = data;
	u32 hdr_len, type_off, type_len, str_off, str_len;
	s64 n;

	memset(b, 0, sizeof(*b));
	if (!d || len < SW_BTF_HDR_MIN || len > U32_MAX)
		return -EINVAL;
	if (sw_get16(d) != SW_BTF_MAGIC || d[2] != 1)
		return -EINVAL;
	hdr_len = sw_get32(d + 4);
	type_off = sw_get32(d + 8);
	type_len = sw_get32(d + 12);
	str_off = sw_get32(d + 16);
	str_len = sw_get32(d + 20);
	if (hdr_len < SW_BTF_HDR_MIN || hdr_len > len)
		return -EINVAL;
	len -= hdr_len;
	d += hdr_len;
	if (type_off > len || type_len > len - type_off ||
	    str_off > len || str_len > len - str_off)
		return -EINVAL;
	/* A string section ends with a NUL; vmlinux's starts with "". */
	if (!str_len || d[str_off + str_len - 1] != '\0' ||
	    (!base && d[str_off] != '\0'))
		return -EINVAL;
	if (base && (!base->offs ||
		     base->str_first > U32_MAX - base->strs_len ||
		     base->first_id > U32_MAX - base->nr))
		return -EINVAL;
	n = sw_btf_walk(d + type_off, type_len, NULL, 0);
	if (n < 0)
		return -EINVAL;
	b->types = d + type_off;
	b->types_len = type_len;
	b->strs = (const char *)d + str_off;
	b->strs_len = str_len;
	b->nr = (u32)n;
	b->base = base;
	b->first_id = base ? base->first_id + base->nr : 1;
	b->str_first = base ? base->str_first + base->strs_len : 0;
	if (b->first_id > U32_MAX - b->nr)
		return -EINVAL;
	return 0;
}

/**
 * sw_btf_index() - note where each type starts, for lookups by id.
 * @b:    from sw_btf_open()
 * @offs: room for @b->nr offsets; must outlive @b
 *
 * Context: any.
 * Return: 0 or -EINVAL.
 */
int sw_btf_index(struct sw_btf *b, u32 *offs)
{
	if (sw_btf_walk(b->types, b->types_len, offs, b->nr) != b->nr)
		return -EINVAL;
	b->offs = offs;
	return 0;
}

/**
 * sw_btf_name() - the string at offset @off of @b's strings (its base's
 * below @b->str_first).
 * @b:   an opened blob
 * @off: a name offset from a type record
 *
 * Context: any.
 * Return: the string, or NULL when @off is out of range.
 */
const char *sw_btf_name(const struct sw_btf *b, u32 off)
{
	while (b && off < b->str_first)
		b = b->base;
	if (!b || off - b->str_first >= b->strs_len)
		return NULL;
	return b->strs + (off - b->str_first);
}

/* The record of type @id (@b's or its base's), NULL for void or none. */
static const u8 *sw_btf_type(const struct sw_btf *b, u32 id)
{
	while (b && id < b->first_id)
		b = b->base;
	if (!b || !b->offs || id - b->first_id >= b->nr)
		return NULL;
	return b->types + b->offs[id - b->first_id];
}

/* Skips typedefs and qualifiers from @id; NULL for void or a bad id. */
static const u8 *sw_btf_skip(const struct sw_btf *b, u32 *id)
{
	const u8 *t = sw_btf_type(b, *id);
	int i;

	for (i = 0; t && i < SW_BTF_RESOLVE_DEPTH; i++) {
		switch (sw_t_kind(t)) {
		case SW_KIND_TYPEDEF:
		case SW_KIND_VOLATILE:
		case SW_KIND_CONST:
		case SW_KIND_RESTRICT:
		case SW_KIND_TYPE_TAG:
			*id = sw_t_sizetype(t);
			t = sw_btf_type(b, *id);
			break;
		default:
			return t;
		}
	}
	return NULL;
}

/*
 * The size of type @id in bytes, or -EINVAL (void, a forward declaration,
 * a function, a chain too long) or -E2BIG.
 */
static s64 sw_btf_size(const struct sw_btf *b, u32 id)
{
	const u8 *t = sw_btf_type(b, id);
	u64 nelems = 1;
	s64 size = -1;
	int i;

	for (i = 0; t && i < SW_BTF_RESOLVE_DEPTH; i++) {
		u32 kind = sw_t_kind(t);

		if (kind == SW_KIND_INT || kind == SW_KIND_STRUCT ||
		    kind == SW_KIND_UNION || kind == SW_KIND_ENUM ||
		    kind == SW_KIND_ENUM64 || kind == SW_KIND_DATASEC ||
		    kind == SW_KIND_FLOAT) {
			size = sw_t_sizetype(t);
			break;
		}
		if (kind == SW_KIND_PTR) {
			size = sizeof(void *);
			break;
		}
		if (kind == SW_KIND_ARRAY) {
			/* struct btf_array: type, index_type, nelems */
			u32 ne = sw_get32(t + SW_BTF_TYPE_SIZE + 8);

			if (ne && nelems > U32_MAX / ne)
				return -E2BIG;
			nelems *= ne;
			id = sw_get32(t + SW_BTF_TYPE_SIZE);
		} else if (kind == SW_KIND_TYPEDEF ||
			   kind == SW_KIND_VOLATILE ||
			   kind == SW_KIND_CONST || kind == SW_KIND_RESTRICT ||
			   kind == SW_KIND_VAR || kind == SW_KIND_DECL_TAG ||
			   kind == SW_KIND_TYPE_TAG) {
			id = sw_t_sizetype(t);
		} else {
			return -EINVAL;
		}
		t = sw_btf_type(b, id);
	}
	if (size < 0)
		return -EINVAL;
	if (nelems && (u64)size > U32_MAX / nelems)
		return -E2BIG;
	return (s64)(nelems * (u64)size);
}

static bool sw_btf_is_aggregate(const u8 *t)
{
	return t && (sw_t_kind(t) == SW_KIND_STRUCT ||
		     sw_t_kind(t) == SW_KIND_UNION);
}

/**
 * sw_btf_find_func() - the next function (BTF_KIND_FUNC) named @name.
 * @b:    an indexed blob (only its own types are searched, not its base's)
 * @name: the function's name
 * @from: the first id to look at (@b->first_id for the first)
 *
 * Context: any.
 * Return: its id, or 0 when there is none from @from on.
 */
u32 sw_btf_find_func(const struct sw_btf *b, const char *name, u32 from)
{
	u32 id = from < b->first_id ? b->first_id : from;

	if (!b->offs)
		return 0;
	for (; id - b->first_id < b->nr; id++) {
		const u8 *t = b->types + b->offs[id - b->first_id];
		const char *s;

		if (sw_t_kind(t) != SW_KIND_FUNC)
			continue;
		s = sw_btf_name(b, sw_t_name(t));
		if (s && !strcmp(s, name))
			return id;
	}
	return 0;
}

/**
 * sw_btf_func_regs() - the argument registers function @id takes: one for
 * each integer, pointer or aggregate of up to 8 bytes, two for one of 9
 * to 16 bytes, nine (more than any architecture's argument registers) for
 * a larger aggregate, which goes on the stack on x86_64; one more for a
 * returned aggregate larger than 16 bytes (where to put it, a hidden
 * argument).  The stopwatch program counts the same (its args=).
 * @b:  an indexed blob
 * @id: a BTF_KIND_FUNC of @b or of its base
 *
 * Context: any.
 * Return: the count (at most SW_BTF_MAX_REGS), SW_BTF_VARIADIC, or
 * -EINVAL (@id is not a function with a prototype).
 */
int sw_btf_func_regs(const struct sw_btf *b, u32 id)
{
	const u8 *f = sw_btf_type(b, id), *p, *t;
	u32 i, vlen, tid;
	int n = 0;

	if (!f || sw_t_kind(f) != SW_KIND_FUNC)
		return -EINVAL;
	p = sw_btf_type(b, sw_t_sizetype(f));
	if (!p || sw_t_kind(p) != SW_KIND_FUNC_PROTO)
		return -EINVAL;
	vlen = sw_t_vlen(p);
	for (i = 0; i < vlen; i++) {
		/* struct btf_param: name_off, type */
		s64 size;

		tid = sw_get32(p + SW_BTF_TYPE_SIZE + 8 * i + 4);
		if (!tid)
			return SW_BTF_VARIADIC;
		t = sw_btf_skip(b, &tid);
		size = sw_btf_size(b, tid);
		if (sw_btf_is_aggregate(t) && size > 16)
			n += 9;
		else
			n += size > 8 ? 2 : 1;
		if (n > SW_BTF_MAX_REGS)
			n = SW_BTF_MAX_REGS;
	}
	tid = sw_t_sizetype(p);
	if (tid) {
		t = sw_btf_skip(b, &tid);
		if (sw_btf_is_aggregate(t) && sw_btf_size(b, tid) > 16)
			n++;
	}
	return n > SW_BTF_MAX_REGS ? SW_BTF_MAX_REGS : n;
}

/* Adds @r to the distinct values of @regs (@n of them, room for @max). */
static int sw_btf_add_regs(u8 *regs, int n, int max, int r)
{
	int i;

	for (i = 0; i < n; i++)
		if (regs[i] == r)
			return n;
	if (n < max)
		regs[n++] = (u8)r;
	return n;
}

/**
 * sw_btf_regs_by_name() - what every function named @name in @b (not its
 * base) takes: several static functions may share a name.
 * @b:    an indexed blob
 * @name: the name
 * @regs: the distinct counts (sw_btf_func_regs()) found
 * @max:  room in @regs
 *
 * Context: any.
 * Return: how many distinct counts were put in @regs (0: none).
 */
int sw_btf_regs_by_name(const struct sw_btf *b, const char *name, u8 *regs,
			int max)
{
	u32 id = b->first_id;
	int n = 0, r;

	while ((id = sw_btf_find_func(b, name, id))) {
		r = sw_btf_func_regs(b, id);
		if (r >= 0)
			n = sw_btf_add_regs(regs, n, max, r);
		id++;
	}
	return n;
}

/**
 * sw_btf_hash() - a 64-bit hash of a function's name (FNV-1a).
 * @name: the name
 *
 * Context: any.
 */
u64 sw_btf_hash(const char *name)
{
	u64 h = 0xcbf29ce484222325ULL;

	while (*name) {
		h ^= (u8)*name++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/**
 * sw_btf_count_funcs() - the functions of @b (not of its base).
 * @b: an indexed blob
 *
 * Context: any.
 */
u32 sw_btf_count_funcs(const struct sw_btf *b)
{
	u32 i, n = 0;

	for (i = 0; b->offs && i < b->nr; i++)
		n += sw_t_kind(b->types + b->offs[i]) == SW_KIND_FUNC;
	return n;
}

/* Sifts @idx[@i] down a max-heap of @n. */
static void sw_btf_sift(u64 *idx, u32 i, u32 n)
{
	for (;;) {
		u32 c = 2 * i + 1;
		u64 v;

		if (c >= n)
			return;
		if (c + 1 < n && idx[c + 1] > idx[c])
			c++;
		if (idx[i] >= idx[c])
			return;
		v = idx[i];
		idx[i] = idx[c];
		idx[c] = v;
		i = c;
	}
}

/**
 * sw_btf_index_funcs() - the function index of @b: one entry a function
 * with a prototype (its name's hash, its count), sorted (heap sort: no
 * recursion, no allocation).
 * @b:   an indexed blob
 * @idx: room for @cap entries (sw_btf_count_funcs())
 * @cap: its room
 *
 * Context: any.
 * Return: the entries written.
 */
u32 sw_btf_index_funcs(const struct sw_btf *b, u64 *idx, u32 cap)
{
	u32 i, n = 0;
	u64 v;

	for (i = 0; b->offs && i < b->nr && n < cap; i++) {
		const u8 *t = b->types + b->offs[i];
		const char *s;
		int r;

		if (sw_t_kind(t) != SW_KIND_FUNC)
			continue;
		s = sw_btf_name(b, sw_t_name(t));
		r = sw_btf_func_regs(b, b->first_id + i);
		if (!s || r < 0)
			continue;
		idx[n++] = (sw_btf_hash(s) & ~0xffULL) | (u8)r;
	}
	for (i = n / 2; i-- > 0;)
		sw_btf_sift(idx, i, n);
	for (i = n; i > 1; i--) {
		v = idx[0];
		idx[0] = idx[i - 1];
		idx[i - 1] = v;
		sw_btf_sift(idx, 0, i - 1);
	}
	return n;
}

/**
 * sw_btf_index_find() - what the functions named @name take, from the
 * index.
 * @idx:  from sw_btf_index_funcs()
 * @n:    its entries
 * @name: the name
 * @regs: the distinct counts found
 * @max:  room in @regs
 *
 * Context: any.
 * Return: how many distinct counts were put in @regs (0: none).
 */
int sw_btf_index_find(const u64 *idx, u32 n, const char *name, u8 *regs,
		      int max)
{
	u64 key = sw_btf_hash(name) & ~0xffULL;
	u32 lo = 0, hi = n;
	int got = 0;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (idx[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && (idx[lo] & ~0xffULL) == key; lo++)
		got = sw_btf_add_regs(regs, got, max, (u8)idx[lo]);
	return got;
}

/**
 * sw_btf_verdict() - whether args=@nargs agrees with BTF.
 * @regs:  the distinct counts of the functions of that name
 * @n:     how many (0: BTF does not describe it)
 * @nargs: the count given
 *
 * Several functions may share a name (static ones); which of them a probe
 * took is not known here, so a count any of them takes is accepted.
 *
 * Context: any.
 */
enum sw_btf_verdict sw_btf_verdict(const u8 *regs, int n, int nargs)
{
	bool variadic = true;
	int i;

	if (n <= 0)
		return SW_BTF_UNKNOWN;
	for (i = 0; i < n; i++) {
		if (regs[i] == nargs)
			return SW_BTF_OK;
		if (regs[i] != SW_BTF_VARIADIC)
			variadic = false;
	}
	return variadic ? SW_BTF_IS_VARIADIC : SW_BTF_OTHER_COUNT;
}
