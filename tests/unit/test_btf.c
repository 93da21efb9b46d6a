// SPDX-License-Identifier: GPL-2.0
/*
 * test_btf.c - lib/btf.c against real BTF: this host's kernel's
 * (/sys/kernel/btf/vmlinux, or SW_TEST_BTF=FILE), checked type by type
 * against libbpf's reading of the same blob and against the stopwatch
 * program's rule for args= (span-btf.c: sw_btf_arg_regs(), written here
 * again with libbpf); a module's split BTF made by libbpf on top of it;
 * and blobs made malformed from those (truncated, fields out of range,
 * loops, random bytes), which must be refused or read within bounds
 * (this test is built with AddressSanitizer).  Without a BTF blob every
 * test is skipped, saying so.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <search.h>
#include <cmocka.h>

#include <bpf/btf.h>

#include "btf.h"

struct blob {
	u8 *data;
	size_t len;
	char why[256];
};

static struct blob vmlinux;

/* The host's vmlinux BTF, once; why not in vmlinux.why. */
static int load_vmlinux(void)
{
	const char *path = getenv("SW_TEST_BTF");
	size_t cap = 1 << 20;
	FILE *f;

	if (vmlinux.data || vmlinux.why[0])
		return vmlinux.data ? 0 : -1;
	if (!path || !*path)
		path = "/sys/kernel/btf/vmlinux";
	f = fopen(path, "rb");
	if (!f) {
		snprintf(vmlinux.why, sizeof(vmlinux.why),
			 "no BTF to test with: %s: %s (set SW_TEST_BTF=FILE)",
			 path, strerror(errno));
		return -1;
	}
	vmlinux.data = malloc(cap);
	for (;;) {
		size_t n = fread(vmlinux.data + vmlinux.len, 1,
				 cap - vmlinux.len, f);

		vmlinux.len += n;
		if (n == 0)
			break;
		if (vmlinux.len == cap) {
			cap *= 2;
			vmlinux.data = realloc(vmlinux.data, cap);
		}
	}
	fclose(f);
	/* Exactly its size: a read past the end is caught. */
	vmlinux.data = realloc(vmlinux.data, vmlinux.len);
	return 0;
}

#define NEED_VMLINUX()                                                  \
	do {                                                            \
		if (load_vmlinux()) {                                   \
			print_message("skipped: %s\n", vmlinux.why);    \
			skip();                                         \
		}                                                       \
	} while (0)

/* A copy of @len bytes of @data in a buffer of exactly that size. */
static u8 *dup_exact(const void *data, size_t len)
{
	u8 *p = malloc(len ? len : 1);

	memcpy(p, data, len);
	return p;
}

/* Opens and indexes @data; the offsets are malloc'd into *@offs. */
static int open_indexed(struct sw_btf *b, const void *data, size_t len,
			const struct sw_btf *base, u32 **offs)
{
	int ret = sw_btf_open(b, data, len, base);

	*offs = NULL;
	if (ret)
		return ret;
	*offs = malloc((b->nr ? b->nr : 1) * sizeof(**offs));
	return sw_btf_index(b, *offs);
}

/* The program's rule (userspace/control/span-btf.c), with libbpf. */
static const struct btf_type *ref_skip(const struct btf *btf, __u32 *id)
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

static int ref_regs(const struct btf *btf, __u32 func_id)
{
	const struct btf_type *fp;
	const struct btf_param *par;
	int i, n = 0;

	fp = btf__type_by_id(btf, btf__type_by_id(btf, func_id)->type);
	par = btf_params(fp);
	for (i = 0; i < btf_vlen(fp); i++) {
		const struct btf_type *t;
		__u32 id = par[i].type;
		__s64 size;

		if (!id)
			return SW_BTF_VARIADIC;
		t = ref_skip(btf, &id);
		size = btf__resolve_size(btf, id);
		if (t && (btf_is_struct(t) || btf_is_union(t)) && size > 16)
			n += 9;
		else
			n += size > 8 ? 2 : 1;
	}
	if (fp->type) {
		const struct btf_type *t;
		__u32 id = fp->type;

		t = ref_skip(btf, &id);
		if (t && (btf_is_struct(t) || btf_is_union(t)) &&
		    btf__resolve_size(btf, id) > 16)
			n++;
	}
	return n > 127 ? 127 : n;
}

static int regs_of(const struct sw_btf *b, const char *name)
{
	u8 regs[4];
	int n = sw_btf_regs_by_name(b, name, regs, 4);

	return n == 1 ? regs[0] : -100 - n;
}

/* Every type: the same count, kinds' lengths and names as libbpf's. */
static void test_vmlinux_like_libbpf(void **state)
{
	struct btf *ref;
	struct sw_btf b;
	u32 *offs, i, nfunc = 0, nvar = 0;

	(void)state;
	NEED_VMLINUX();
	assert_int_equal(open_indexed(&b, vmlinux.data, vmlinux.len, NULL,
				      &offs), 0);
	ref = btf__new(vmlinux.data, vmlinux.len);
	assert_non_null(ref);
	assert_int_equal(b.nr, btf__type_cnt(ref) - 1);
	assert_int_equal(b.first_id, 1);
	for (i = 1; i <= b.nr; i++) {
		const struct btf_type *t = btf__type_by_id(ref, i);
		const char *s = sw_btf_name(&b, t->name_off);
		int r;

		assert_non_null(s);
		assert_string_equal(s, btf__name_by_offset(ref, t->name_off));
		if (!btf_is_func(t)) {
			assert_int_equal(sw_btf_func_regs(&b, i), -EINVAL);
			continue;
		}
		r = sw_btf_func_regs(&b, i);
		if (r != ref_regs(ref, i))
			fail_msg("%s (id %u): %d registers, libbpf's reading %d",
				 s, i, r, ref_regs(ref, i));
		nfunc++;
		nvar += r == SW_BTF_VARIADIC;
	}
	assert_int_equal(nfunc, sw_btf_count_funcs(&b));
	assert_true(nfunc > 1000);
	assert_true(nvar > 0);
	print_message("vmlinux BTF: %u types, %u functions, %u variadic\n",
		      b.nr, nfunc, nvar);
	btf__free(ref);
	free(offs);
}

/* Functions whose prototypes every kernel of the matrix and later has. */
static void test_known_functions(void **state)
{
	struct sw_btf b;
	u32 *offs;

	(void)state;
	NEED_VMLINUX();
	assert_int_equal(open_indexed(&b, vmlinux.data, vmlinux.len, NULL,
				      &offs), 0);
	assert_int_equal(regs_of(&b, "seq_printf"), SW_BTF_VARIADIC);
	assert_int_equal(regs_of(&b, "ksys_read"), 3);
	assert_int_equal(regs_of(&b, "vfs_fsync_range"), 4);
	assert_int_equal(regs_of(&b, "hrtimer_nanosleep"), 3);
	assert_int_equal(regs_of(&b, "schedule"), 0);
	assert_int_equal(regs_of(&b, "no_such_function_here"), -100);
	assert_int_equal(sw_btf_find_func(&b, "", 1), 0);
	free(offs);
}

/*
 * The index gives, for every name, the count the stopwatch program would
 * write (the first function of that name, as libbpf finds it): the
 * module accepts every args= the program writes.
 */
static void test_index_accepts_the_programs_count(void **state)
{
	struct btf *ref;
	struct sw_btf b;
	u32 *offs, i, n, nf;
	u64 *idx;
	u8 regs[8];

	(void)state;
	NEED_VMLINUX();
	assert_int_equal(open_indexed(&b, vmlinux.data, vmlinux.len, NULL,
				      &offs), 0);
	nf = sw_btf_count_funcs(&b);
	idx = malloc(nf * sizeof(*idx));
	n = sw_btf_index_funcs(&b, idx, nf);
	assert_int_equal(n, nf);
	for (i = 1; i < n; i++)
		assert_true(idx[i - 1] <= idx[i]);
	ref = btf__new(vmlinux.data, vmlinux.len);
	assert_non_null(ref);
	/* The first function of each name (libbpf's find is a linear scan). */
	assert_true(hcreate(2 * (size_t)nf) != 0);
	for (i = 1; i <= b.nr; i++) {
		const struct btf_type *t = btf__type_by_id(ref, i);
		ENTRY e, *found;
		int k, prog;

		if (!btf_is_func(t))
			continue;
		e.key = (char *)btf__name_by_offset(ref, t->name_off);
		e.data = (void *)(uintptr_t)i;
		found = hsearch(e, ENTER);
		assert_non_null(found);
		prog = ref_regs(ref, (u32)(uintptr_t)found->data);
		k = sw_btf_index_find(idx, n, e.key, regs, 8);
		assert_true(k >= 1);
		if (prog == SW_BTF_VARIADIC)
			assert_int_not_equal(sw_btf_verdict(regs, k, 3),
					     SW_BTF_OK);
		else if (sw_btf_verdict(regs, k, prog) != SW_BTF_OK)
			fail_msg("%s: the program's args=%d refused", e.key,
				 prog);
		/* The direct lookup agrees with the index (a sample). */
		if (i % 512 == 0)
			assert_int_equal(sw_btf_regs_by_name(&b, e.key, regs,
							     8), k);
	}
	hdestroy();
	assert_int_equal(sw_btf_index_find(idx, n, "no_such_function_here",
					   regs, 8), 0);
	assert_int_equal(sw_btf_index_find(idx, 0, "seq_printf", regs, 8), 0);
	btf__free(ref);
	free(idx);
	free(offs);
}

static void test_verdict(void **state)
{
	const u8 one[] = { 3 }, var[] = { SW_BTF_VARIADIC },
		 two[] = { 2, SW_BTF_VARIADIC };

	(void)state;
	assert_int_equal(sw_btf_verdict(one, 0, 3), SW_BTF_UNKNOWN);
	assert_int_equal(sw_btf_verdict(one, 1, 3), SW_BTF_OK);
	assert_int_equal(sw_btf_verdict(one, 1, 2), SW_BTF_OTHER_COUNT);
	assert_int_equal(sw_btf_verdict(one, 1, 4), SW_BTF_OTHER_COUNT);
	assert_int_equal(sw_btf_verdict(var, 1, 3), SW_BTF_IS_VARIADIC);
	assert_int_equal(sw_btf_verdict(two, 2, 2), SW_BTF_OK);
	assert_int_equal(sw_btf_verdict(two, 2, 3), SW_BTF_OTHER_COUNT);
}

/*
 * A module's split BTF, made by libbpf on top of the real vmlinux's:
 * functions whose names and parameter types are vmlinux's (the module's
 * names found in the base's strings), a struct of its own, a variadic
 * function and one taking a large struct by value.
 */
struct split {
	struct btf *base, *mod;
	const void *raw;
	u32 len;
};

static int make_split(struct split *s)
{
	int l, p, big, st, fp;

	s->base = btf__new(vmlinux.data, vmlinux.len);
	if (!s->base)
		return -1;
	s->mod = btf__new_empty_split(s->base);
	l = btf__find_by_name_kind(s->base, "long int", BTF_KIND_INT);
	big = btf__find_by_name_kind(s->base, "file", BTF_KIND_STRUCT);
	if (l <= 0 || big <= 0)
		return -1;
	/* ksys_read(long, struct file *): a base name, two registers. */
	p = btf__add_ptr(s->mod, big);
	fp = btf__add_func_proto(s->mod, l);
	btf__add_func_param(s->mod, "a", l);
	btf__add_func_param(s->mod, "f", p);
	btf__add_func(s->mod, "ksys_read", BTF_FUNC_GLOBAL, fp);
	/* sw_split_printf(long, ...): variadic. */
	fp = btf__add_func_proto(s->mod, l);
	btf__add_func_param(s->mod, "a", l);
	btf__add_func_param(s->mod, NULL, 0);
	btf__add_func(s->mod, "sw_split_printf", BTF_FUNC_GLOBAL, fp);
	/* sw_split_big(struct file): on the stack. */
	fp = btf__add_func_proto(s->mod, 0);
	btf__add_func_param(s->mod, "f", big);
	btf__add_func(s->mod, "sw_split_big", BTF_FUNC_GLOBAL, fp);
	/* sw_split_pair(struct { long a, b; }, long): 2 + 1. */
	st = btf__add_struct(s->mod, "sw_pair", 16);
	btf__add_field(s->mod, "a", l, 0, 0);
	btf__add_field(s->mod, "b", l, 64, 0);
	fp = btf__add_func_proto(s->mod, st);
	btf__add_func_param(s->mod, "p", st);
	btf__add_func_param(s->mod, "x", l);
	if (btf__add_func(s->mod, "sw_split_pair", BTF_FUNC_STATIC, fp) < 0)
		return -1;
	s->raw = btf__raw_data(s->mod, &s->len);
	return s->raw ? 0 : -1;
}

static void split_free(struct split *s)
{
	btf__free(s->mod);
	btf__free(s->base);
}

static void test_split(void **state)
{
	struct sw_btf v, m;
	struct split s;
	u32 *voffs, *moffs, i;
	u8 *raw;

	(void)state;
	NEED_VMLINUX();
	assert_int_equal(make_split(&s), 0);
	assert_int_equal(open_indexed(&v, vmlinux.data, vmlinux.len, NULL,
				      &voffs), 0);
	raw = dup_exact(s.raw, s.len);
	/* Split BTF needs its base. */
	assert_int_equal(open_indexed(&m, raw, s.len, &v, &moffs), 0);
	assert_int_equal(m.first_id, v.nr + 1);
	assert_int_equal(m.nr, btf__type_cnt(s.mod) - btf__type_cnt(s.base));
	assert_true(sw_btf_find_func(&m, "ksys_read", 0) > v.nr);
	assert_int_equal(regs_of(&m, "ksys_read"), 2);
	assert_int_equal(regs_of(&m, "sw_split_printf"), SW_BTF_VARIADIC);
	assert_int_equal(regs_of(&m, "sw_split_big"), 9);
	assert_int_equal(regs_of(&m, "sw_split_pair"), 3);
	assert_int_equal(regs_of(&m, "seq_printf"), -100);
	for (i = m.first_id; i < m.first_id + m.nr; i++) {
		const struct btf_type *t = btf__type_by_id(s.mod, i);

		assert_string_equal(sw_btf_name(&m, t->name_off),
				    btf__name_by_offset(s.mod, t->name_off));
		if (btf_is_func(t))
			assert_int_equal(sw_btf_func_regs(&m, i),
					 ref_regs(s.mod, i));
	}
	free(moffs);
	free(raw);
	free(voffs);
	split_free(&s);
}

/* Header offsets (struct btf_header). */
enum { H_MAGIC = 0, H_VERSION = 2, H_HDR_LEN = 4, H_TYPE_OFF = 8,
       H_TYPE_LEN = 12, H_STR_OFF = 16, H_STR_LEN = 20 };

static u32 get32(const u8 *p, size_t off)
{
	u32 v;

	memcpy(&v, p + off, 4);
	return v;
}

static void put32(u8 *p, size_t off, u32 v)
{
	memcpy(p + off, &v, 4);
}

/* Opens a copy of @data with @set applied at @off; returns sw_btf_open's. */
static int open_mutated(const u8 *data, size_t len, size_t off, u32 v,
			const struct sw_btf *base)
{
	struct sw_btf b;
	u8 *p = dup_exact(data, len);
	int ret;

	put32(p, off, v);
	ret = sw_btf_open(&b, p, len, base);
	free(p);
	return ret;
}

static void test_malformed_header(void **state)
{
	const u8 *d;
	struct sw_btf b;
	size_t len, cut;
	u32 hdr, toff, tlen, soff, slen;
	u8 *p;

	(void)state;
	NEED_VMLINUX();
	d = vmlinux.data;
	len = vmlinux.len;
	hdr = get32(d, H_HDR_LEN);
	toff = get32(d, H_TYPE_OFF);
	tlen = get32(d, H_TYPE_LEN);
	soff = get32(d, H_STR_OFF);
	slen = get32(d, H_STR_LEN);
	assert_int_equal(sw_btf_open(&b, NULL, 0, NULL), -EINVAL);
	/* Every cut through the header, and many through the sections. */
	for (cut = 0; cut < hdr + 64; cut++) {
		p = dup_exact(d, cut);
		assert_int_equal(sw_btf_open(&b, p, cut, NULL), -EINVAL);
		free(p);
	}
	for (cut = hdr + 64; cut < len; cut += len / 97 + 1) {
		p = dup_exact(d, cut);
		assert_int_equal(sw_btf_open(&b, p, cut, NULL), -EINVAL);
		free(p);
	}
	p = dup_exact(d, len);
	p[H_MAGIC] ^= 0xff;
	assert_int_equal(sw_btf_open(&b, p, len, NULL), -EINVAL);
	memcpy(p, d, len);
	p[H_MAGIC] = d[H_MAGIC + 1];	/* the other byte order */
	p[H_MAGIC + 1] = d[H_MAGIC];
	assert_int_equal(sw_btf_open(&b, p, len, NULL), -EINVAL);
	memcpy(p, d, len);
	p[H_VERSION] = 2;
	assert_int_equal(sw_btf_open(&b, p, len, NULL), -EINVAL);
	free(p);
	assert_int_equal(open_mutated(d, len, H_HDR_LEN, 8, NULL), -EINVAL);
	assert_int_equal(open_mutated(d, len, H_HDR_LEN, (u32)len + 1, NULL),
			 -EINVAL);
	assert_int_equal(open_mutated(d, len, H_TYPE_OFF, 0xfffffff0, NULL),
			 -EINVAL);
	assert_int_equal(open_mutated(d, len, H_TYPE_LEN, tlen + 4 +
				      (u32)len, NULL), -EINVAL);
	assert_int_equal(open_mutated(d, len, H_TYPE_LEN, 0xffffffff, NULL),
			 -EINVAL);
	assert_int_equal(open_mutated(d, len, H_STR_OFF, soff + slen, NULL),
			 -EINVAL);
	assert_int_equal(open_mutated(d, len, H_STR_LEN, slen + 1, NULL),
			 -EINVAL);
	assert_int_equal(open_mutated(d, len, H_STR_LEN, 0, NULL), -EINVAL);
	/* A type section that ends inside a record. */
	assert_int_equal(open_mutated(d, len, H_TYPE_LEN, tlen - 4, NULL),
			 -EINVAL);
	/* The strings' last NUL, and vmlinux's leading "". */
	p = dup_exact(d, len);
	p[hdr + soff + slen - 1] = 'x';
	assert_int_equal(sw_btf_open(&b, p, len, NULL), -EINVAL);
	memcpy(p, d, len);
	p[hdr + soff] = 'x';
	assert_int_equal(sw_btf_open(&b, p, len, NULL), -EINVAL);
	free(p);
	(void)toff;
}

static void test_malformed_types(void **state)
{
	const u8 *d;
	struct btf *ref;
	struct sw_btf b;
	size_t len, pos;
	u32 *offs, id, hdr, toff, func = 0, tdef = 0, proto, i, nr;
	u8 *p;
	int ret;

	(void)state;
	NEED_VMLINUX();
	d = vmlinux.data;
	len = vmlinux.len;
	hdr = get32(d, H_HDR_LEN);
	toff = get32(d, H_TYPE_OFF);
	ref = btf__new(d, len);
	assert_non_null(ref);
	/* ksys_read, and a typedef among its parameters' types (size_t). */
	func = btf__find_by_name_kind(ref, "ksys_read", BTF_KIND_FUNC);
	assert_true(func > 0);
	proto = btf__type_by_id(ref, func)->type;
	for (i = 0; i < btf_vlen(btf__type_by_id(ref, proto)); i++) {
		id = btf_params(btf__type_by_id(ref, proto))[i].type;
		if (btf_is_typedef(btf__type_by_id(ref, id)))
			tdef = id;
	}
	assert_true(tdef > 0);

	p = dup_exact(d, len);
	/* Each record's offset in the copy, from our own walk. */
	assert_int_equal(open_indexed(&b, p, len, NULL, &offs), 0);
	nr = b.nr;
#define REC(id) (hdr + toff + offs[(id) - 1])
	/* An unknown kind: nothing after it can be read. */
	pos = REC(1);
	put32(p, pos + 4, (get32(d, pos + 4) & ~(0x1fU << 24)) | (31U << 24));
	assert_int_equal(sw_btf_open(&b, p, len, NULL), -EINVAL);
	memcpy(p, d, len);
	/* The last record's vlen reaching past the section. */
	pos = REC(nr);
	put32(p, pos + 4, (get32(d, pos + 4) & ~0xffffU) | 0xffff);
	ret = sw_btf_open(&b, p, len, NULL);
	assert_true(ret == -EINVAL || b.nr > 0);
	memcpy(p, d, len);
	assert_int_equal(sw_btf_open(&b, p, len, NULL), 0);
	assert_int_equal(sw_btf_index(&b, offs), 0);
	/* A function whose prototype is no type, void, or itself. */
	pos = REC(func);
	put32(p, pos + 8, b.nr + 100);
	assert_int_equal(sw_btf_func_regs(&b, func), -EINVAL);
	put32(p, pos + 8, 0);
	assert_int_equal(sw_btf_func_regs(&b, func), -EINVAL);
	put32(p, pos + 8, func);
	assert_int_equal(sw_btf_func_regs(&b, func), -EINVAL);
	put32(p, pos + 8, get32(d, pos + 8));
	assert_int_equal(regs_of(&b, "ksys_read"), 3);
	/* A typedef loop among its parameters: bounded, counted as one. */
	put32(p, REC(tdef) + 8, tdef);
	assert_int_equal(regs_of(&b, "ksys_read"), 3);
	/* A parameter of a type id past the end: one register. */
	put32(p, REC(proto) + 12 + 4, b.nr + 7);
	assert_int_equal(regs_of(&b, "ksys_read"), 3);
	/* Its name out of range: not found, not read. */
	put32(p, REC(func), 0xfffffff0);
	assert_int_equal(sw_btf_find_func(&b, "ksys_read", 1), 0);
	assert_null(sw_btf_name(&b, 0xfffffff0));
	assert_null(sw_btf_name(&b, get32(d, H_STR_LEN)));
	assert_non_null(sw_btf_name(&b, get32(d, H_STR_LEN) - 1));
	/* Ids out of range. */
	assert_int_equal(sw_btf_func_regs(&b, 0), -EINVAL);
	assert_int_equal(sw_btf_func_regs(&b, b.nr + 1), -EINVAL);
	assert_int_equal(sw_btf_func_regs(&b, 0xffffffff), -EINVAL);
#undef REC
	free(offs);
	free(p);
	btf__free(ref);
}

/* A split blob whose base is not indexed, or is missing. */
static void test_malformed_split(void **state)
{
	struct sw_btf v, m;
	struct split s;
	u32 *voffs, *moffs;
	u8 *raw;
	u32 n, round;

	(void)state;
	NEED_VMLINUX();
	assert_int_equal(make_split(&s), 0);
	raw = dup_exact(s.raw, s.len);
	assert_int_equal(sw_btf_open(&v, vmlinux.data, vmlinux.len, NULL), 0);
	/* Not indexed yet: refused. */
	assert_int_equal(sw_btf_open(&m, raw, s.len, &v), -EINVAL);
	assert_int_equal(open_indexed(&v, vmlinux.data, vmlinux.len, NULL,
				      &voffs), 0);
	/*
	 * Random bytes anywhere in the module's blob, many times: refused,
	 * or read within bounds (AddressSanitizer).
	 */
	srand(27);
	for (round = 0; round < 20000; round++) {
		u8 *p = dup_exact(s.raw, s.len);
		int k;

		for (k = 0; k < 1 + rand() % 4; k++)
			p[rand() % s.len] = (u8)rand();
		if (!open_indexed(&m, p, s.len, &v, &moffs)) {
			u32 id;
			u8 regs[4];

			for (id = m.first_id; id < m.first_id + m.nr; id++)
				(void)sw_btf_func_regs(&m, id);
			(void)sw_btf_regs_by_name(&m, "ksys_read", regs, 4);
			n = sw_btf_count_funcs(&m);
			(void)n;
		}
		free(moffs);
		free(p);
	}
	free(voffs);
	free(raw);
	split_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdict),
		cmocka_unit_test(test_vmlinux_like_libbpf),
		cmocka_unit_test(test_known_functions),
		cmocka_unit_test(test_index_accepts_the_programs_count),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_malformed_header),
		cmocka_unit_test(test_malformed_types),
		cmocka_unit_test(test_malformed_split),
	};
	int ret = cmocka_run_group_tests(tests, NULL, NULL);

	free(vmlinux.data);
	return ret;
}
