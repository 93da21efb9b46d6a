// SPDX-License-Identifier: GPL-2.0
/*
 * test_spanbtf.c - control/span-btf's lookup of kernel functions by name
 * (an index it builds over vmlinux's BTF) against libbpf's own lookup, on
 * a real BTF: this host's /sys/kernel/btf, or the directory SW_TEST_BTF_DIR
 * names (holding a file vmlinux).  Without one the tests are skipped,
 * saying so.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "helpers.h"
#include "control/span-btf.h"

struct fx {
	struct sw_span_btf *b;
	struct btf *v;
};

static int setup(void **state)
{
	const char *dir = getenv("SW_TEST_BTF_DIR");
	struct fx *fx = calloc(1, sizeof(*fx));
	char path[512];

	if (!dir)
		dir = "/sys/kernel/btf";
	snprintf(path, sizeof(path), "%s/vmlinux", dir);
	fx->v = btf__parse(path, NULL);
	if (fx->v)
		fx->b = sw_span_btf_new(dir);
	else
		fprintf(stderr, "# no BTF at %s: the tests are skipped\n", path);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fx *fx = *state;

	sw_span_btf_free(fx->b);
	btf__free(fx->v);
	free(fx);
	return 0;
}

/*
 * Every FUNC is found under its name, as the lowest id of that name; a
 * sample of them (and every name given twice) agrees with libbpf's scan
 * exactly.
 */
static void test_every_function(void **state)
{
	struct fx *fx = *state;
	__u32 i, n, nfunc = 0, ndup = 0, nscan = 0;

	if (!fx->v)
		skip();
	n = btf__type_cnt(fx->v);
	for (i = 1; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(fx->v, i);
		const char *name;
		int id;

		if (!btf_is_func(t))
			continue;
		nfunc++;
		name = btf__name_by_offset(fx->v, t->name_off);
		id = sw_span_btf_func(fx->b, name);
		assert_true(id > 0 && (__u32)id <= i);
		assert_true(btf_is_func(btf__type_by_id(fx->v, id)));
		assert_string_equal(btf__name_by_offset(fx->v,
			btf__type_by_id(fx->v, id)->name_off), name);
		if ((__u32)id < i)
			ndup++;
		if ((__u32)id < i || nfunc % 499 == 0) {
			assert_int_equal(id, btf__find_by_name_kind(fx->v, name,
							BTF_KIND_FUNC));
			nscan++;
		}
	}
	fprintf(stderr, "# %u functions, %u sharing a name, %u checked against libbpf's scan\n",
		nfunc, ndup, nscan);
	assert_true(nfunc > 1000);
}

static void test_absent(void **state)
{
	struct fx *fx = *state;

	if (!fx->v)
		skip();
	assert_int_equal(sw_span_btf_func(fx->b, "no_such_function_in_any_kernel"),
			 -ENOENT);
	assert_int_equal(sw_span_btf_func(fx->b, ""), -ENOENT);
	/* a type that is not a function */
	assert_int_equal(sw_span_btf_func(fx->b, "task_struct"), -ENOENT);
	/* before the first and after the last name of the index */
	assert_int_equal(sw_span_btf_func(fx->b, "\001"), -ENOENT);
	assert_int_equal(sw_span_btf_func(fx->b, "\177\177"), -ENOENT);
}

/*
 * A resolver's first lookups scan the types (no index yet), its later
 * ones search the index: both give the same ids, for the same names in
 * either order, absent ones included.
 */
static void test_scan_then_index(void **state)
{
	struct fx *fx = *state;
	const char *names[40];
	int ids[40];
	struct sw_span_btf *b;
	__u32 i, n;
	size_t k = 0;

	if (!fx->v)
		skip();
	names[k++] = "no_such_function_in_any_kernel";
	names[k++] = "task_struct";
	n = btf__type_cnt(fx->v);
	for (i = 1; i < n && k < 40; i += 97) {
		const struct btf_type *t = btf__type_by_id(fx->v, i);

		if (btf_is_func(t))
			names[k++] = btf__name_by_offset(fx->v, t->name_off);
	}
	assert_int_equal(k, 40);
	b = sw_span_btf_new(getenv("SW_TEST_BTF_DIR"));
	for (k = 0; k < 40; k++) {
		ids[k] = sw_span_btf_func(b, names[k]);
		assert_int_equal(ids[k], btf__find_by_name_kind(fx->v, names[k],
								BTF_KIND_FUNC));
	}
	sw_span_btf_free(b);
	b = sw_span_btf_new(getenv("SW_TEST_BTF_DIR"));
	for (k = 40; k-- > 0;)
		assert_int_equal(sw_span_btf_func(b, names[k]), ids[k]);
	sw_span_btf_free(b);
}

static void test_no_btf(void **state)
{
	struct sw_span_btf *b = sw_span_btf_new("/nonexistent-btf-dir");

	(void)state;
	assert_non_null(b);
	assert_int_equal(sw_span_btf_func(b, "fput"), -ENOENT);
	sw_span_btf_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_function),
		cmocka_unit_test(test_absent),
		cmocka_unit_test(test_scan_then_index),
		cmocka_unit_test(test_no_btf),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
