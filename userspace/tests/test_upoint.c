// SPDX-License-Identifier: GPL-2.0
/*
 * test_upoint.c - user points resolved to files and file offsets, against
 * the symbin programs: nm's addresses (independent), PIE and non-PIE, a
 * shared library, stripped programs whose symbols come from debuginfo
 * found by debuglink and by build-id; bad input named.
 */
#include <errno.h>

#include "helpers.h"

#include "control/upoint.h"

/* Resolves "SYMBIN/@file:@what"; returns the error (0) and the points. */
static int resolve(const char *file, const char *what, const char *dbg,
		   struct sw_upoints *u, struct sw_err *err)
{
	char *pat = NULL;
	int ret;

	assert_true(asprintf(&pat, "%s/%s:%s", symbin(), file, what) > 0);
	ret = sw_upoint_expand(pat, 0, dbg, u, err);
	free(pat);
	return ret;
}

static uint64_t offset_of(const char *file, const char *sym, const char *dbg)
{
	struct sw_upoints u = { 0 };
	struct sw_err err = { "" };
	uint64_t off;

	assert_int_equal(resolve(file, sym, dbg, &u, &err), 0);
	assert_int_equal(u.n, 1);
	off = u.v[0].offset;
	sw_upoints_free(&u);
	return off;
}

static void test_offsets(void **state)
{
	const char *const syms[] = { "sym_hot", "sym_warm", "sym_mid", "main" };
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++) {
		/* PIE: text at offset == address; non-PIE: based at 0x400000. */
		assert_int_equal(offset_of("symprog-pie", syms[i], NULL),
				 nm_addr("symprog-pie", syms[i]));
		assert_int_equal(offset_of("symprog-nopie", syms[i], NULL),
				 nm_addr("symprog-nopie", syms[i]) - 0x400000);
	}
	assert_int_equal(offset_of("libsymlib.so", "lib_hot", NULL),
			 nm_addr("libsymlib.so", "lib_hot"));
}

static void test_debuginfo(void **state)
{
	char *root = NULL;

	(void)state;
	/* .gnu_debuglink to .debug/ next to it (elfutils' default path). */
	assert_int_equal(offset_of("symprog-stripped", "sym_warm", NULL),
			 nm_addr("symprog-pie", "sym_warm"));
	/* Only a build-id tree has it. */
	assert_true(asprintf(&root, "%s/buildid-root", symbin()) > 0);
	assert_int_equal(offset_of("symprog-bidonly", "sym_mid", root),
			 nm_addr("symprog-pie", "sym_mid"));
	free(root);
}

static void test_names_and_globs(void **state)
{
	struct sw_upoints u = { 0 };
	struct sw_err err = { "" };
	char *ctl;
	size_t i;

	(void)state;
	assert_int_equal(resolve("symprog-pie", "sym_*", NULL, &u, &err), 0);
	assert_int_equal(u.n, 3);
	for (i = 0; i < u.n; i++)
		assert_int_equal(strncmp(u.v[i].name, "symprog-pie:sym_", 16),
				 0);
	assert_non_null(strstr(u.v[0].path, "/symprog-pie"));
	assert_int_equal(u.v[0].path[0], '/');
	ctl = sw_upoint_ctl(&u.v[0]);
	assert_non_null(ctl);
	assert_int_equal(strncmp(ctl, "uprobe=/", 8), 0);
	assert_non_null(strstr(ctl, ":0x"));
	free(ctl);
	sw_upoints_free(&u);

	/* An offset: a function's start, named as given. */
	{
		char what[32];

		snprintf(what, sizeof(what), "0x%llx",
			 (unsigned long long)nm_addr("symprog-pie", "sym_hot"));
		assert_int_equal(resolve("symprog-pie", what, NULL, &u, &err),
				 0);
		assert_int_equal(u.n, 1);
		assert_int_equal(u.v[0].offset, nm_addr("symprog-pie", "sym_hot"));
		sw_upoints_free(&u);
		/* Inside a function: refused, naming it. */
		snprintf(what, sizeof(what), "0x%llx",
			 (unsigned long long)nm_addr("symprog-pie", "sym_hot") + 1);
		assert_int_equal(resolve("symprog-pie", what, NULL, &u, &err),
				 -EINVAL);
		assert_non_null(strstr(err.msg, "inside sym_hot+0x1"));
	}
}

static void test_errors(void **state)
{
	struct sw_upoints u = { 0 };
	struct sw_err err = { "" };

	(void)state;
	assert_int_equal(resolve("symprog-pie", "no_such_fn", NULL, &u, &err),
			 -ENOENT);
	assert_non_null(strstr(err.msg, "no function no_such_fn"));
	assert_int_equal(resolve("no-such-file", "main", NULL, &u, &err),
			 -ENOENT);
	assert_non_null(strstr(err.msg, "no-such-file"));
	assert_int_equal(resolve("symprog-pie.nm", "main", NULL, &u, &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "not an ELF file"));
	assert_int_equal(sw_upoint_expand("nosuchlibrary_xyz:f", 0, NULL, &u,
					  &err),
			 -ENOENT);
	assert_non_null(strstr(err.msg, "nosuchlibrary_xyz"));
	assert_int_equal(u.n, 0);
	/* Kernel patterns stay the kernel's. */
	assert_false(sw_upoint_is_user("vfs_read", NULL));
	assert_false(sw_upoint_is_user("ext4:ext4_*", "ext4_x [ext4]\n"));
	assert_true(sw_upoint_is_user("libc:malloc", "ext4_x [ext4]\n"));
	assert_true(sw_upoint_is_user("/bin/x:f", "x [bin]\n"));
	assert_true(sw_upoint_is_user("ext4:0x10", "ext4_x [ext4]\n"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_offsets),
		cmocka_unit_test(test_debuginfo),
		cmocka_unit_test(test_names_and_globs),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
