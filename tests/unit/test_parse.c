// SPDX-License-Identifier: GPL-2.0
/*
 * test_parse.c - control-line parsing, from the module's lib/parse.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "parse.h"

#define MAXN 127

static int parse(const char *line, struct sw_cmd *cmds, int max,
		 struct sw_parse_err *err, char *buf, size_t bufsz)
{
	snprintf(buf, bufsz, "%s", line);
	return sw_parse_cmds(buf, cmds, max, MAXN, err);
}

static void test_ops(void **state)
{
	struct sw_cmd c[8];
	struct sw_parse_err e;
	char buf[256];

	(void)state;
	assert_int_equal(parse("+vfs_read -ksys_write do_sys_openat2\n", c, 8,
			       &e, buf, sizeof(buf)),
			 3);
	assert_int_equal(c[0].op, SW_CMD_ADD);
	assert_string_equal(c[0].name, "vfs_read");
	assert_int_equal(c[1].op, SW_CMD_REMOVE);
	assert_string_equal(c[1].name, "ksys_write");
	assert_int_equal(c[2].op, SW_CMD_ADD);
	assert_string_equal(c[2].name, "do_sys_openat2");
	assert_null(e.token);
}

static void test_separators_and_empty(void **state)
{
	struct sw_cmd c[8];
	struct sw_parse_err e;
	char buf[256];

	(void)state;
	assert_int_equal(parse("a,b\t,c\r\n", c, 8, &e, buf, sizeof(buf)), 3);
	assert_string_equal(c[2].name, "c");
	assert_int_equal(parse("", c, 8, &e, buf, sizeof(buf)), 0);
	assert_int_equal(parse(" \n,, ", c, 8, &e, buf, sizeof(buf)), 0);
	assert_int_equal(parse("foo.isra.0 __x64_sys_getppid", c, 8, &e, buf,
			       sizeof(buf)),
			 2);
	assert_string_equal(c[0].name, "foo.isra.0");
}

static void test_errors(void **state)
{
	struct sw_cmd c[2];
	struct sw_parse_err e;
	char buf[512], longname[200];

	(void)state;
	assert_int_equal(parse("+", c, 2, &e, buf, sizeof(buf)), -EINVAL);
	assert_string_equal(e.token, "+");
	assert_int_equal(parse("ok +bad!name", c, 2, &e, buf, sizeof(buf)),
			 -EINVAL);
	assert_string_equal(e.token, "+bad!name");
	assert_non_null(strstr(e.why, "invalid character"));
	assert_int_equal(parse("9lives", c, 2, &e, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(parse("a -a", c, 2, &e, buf, sizeof(buf)), -EEXIST);
	assert_string_equal(e.token, "-a");
	assert_int_equal(parse("a b c", c, 2, &e, buf, sizeof(buf)), -E2BIG);
	assert_string_equal(e.token, "c");

	memset(longname, 'x', MAXN);
	longname[MAXN] = '\0';
	assert_int_equal(parse(longname, c, 2, &e, buf, sizeof(buf)), 1);
	memset(longname, 'x', MAXN + 1);
	longname[MAXN + 1] = '\0';
	assert_int_equal(parse(longname, c, 2, &e, buf, sizeof(buf)), -E2BIG);
	assert_non_null(strstr(e.why, "too long"));
}

static void test_breakdown(void **state)
{
	(void)state;
	assert_int_equal(sw_parse_breakdown("none"), SW_BD_NONE);
	assert_int_equal(sw_parse_breakdown("pid\n"), SW_BD_PID);
	assert_int_equal(sw_parse_breakdown("tgid"), SW_BD_TGID);
	assert_int_equal(sw_parse_breakdown("comm"), SW_BD_COMM);
	assert_int_equal(sw_parse_breakdown("cpu"), SW_BD_CPU);
	assert_int_equal(sw_parse_breakdown("pids"), -EINVAL);
	assert_int_equal(sw_parse_breakdown(""), -EINVAL);
	assert_string_equal(sw_breakdown_name(SW_BD_COMM), "comm");
	assert_string_equal(sw_breakdown_name(99), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ops),
		cmocka_unit_test(test_separators_and_empty),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_breakdown),
	};

	return cmocka_run_group_tests_name("parse", tests, NULL, NULL);
}
