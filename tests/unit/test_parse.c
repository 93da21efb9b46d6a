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

/* One reader for the filter's cpus= and the sampler's cpus=. */
static void test_cpulists(void **state)
{
	static const char *const bad[] = { "", "3-1", "1-2-3", "1,", ",1",
					   "-1", "1--2", "a", "0-" };
	u64 map[SW_FILTER_CPUS / 64];
	size_t i;

	(void)state;
	assert_true(sw_cpulist_ok("0-3,6"));
	assert_true(sw_cpulist_ok("4095"));	/* which exist: the kernel's */
	assert_true(sw_parse_cpus("0-1,3", map));
	assert_int_equal(map[0], 0xb);
	assert_false(sw_parse_cpus("256", map));
	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		assert_false(sw_cpulist_ok(bad[i]));
		assert_false(sw_parse_cpus(bad[i], map));
	}
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

static void test_tags(void **state)
{
	struct sw_cmd c[8];
	struct sw_parse_err e;
	char buf[256];

	(void)state;
	assert_int_equal(parse("+vfs_read@t1234 vfs_read -vfs_read@a_B9", c, 8,
			       &e, buf, sizeof(buf)),
			 3);
	assert_string_equal(c[0].name, "vfs_read@t1234");
	assert_int_equal(c[0].func_len, 8);
	assert_int_equal(c[1].func_len, 8);
	assert_int_equal(c[2].op, SW_CMD_REMOVE);
	assert_string_equal(c[2].name, "vfs_read@a_B9");
	assert_int_equal(parse("f@", c, 8, &e, buf, sizeof(buf)), -EINVAL);
	assert_non_null(strstr(e.why, "tag"));
	assert_int_equal(parse("f@a.b", c, 8, &e, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(parse("f@aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", c, 8, &e,
			       buf, sizeof(buf)),
			 1);
	assert_int_equal(parse("f@aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", c, 8, &e,
			       buf, sizeof(buf)),
			 -EINVAL);
	assert_int_equal(parse("@t", c, 8, &e, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(parse("f@t f@t", c, 8, &e, buf, sizeof(buf)), -EEXIST);
	assert_int_equal(parse("f@t f@u f", c, 8, &e, buf, sizeof(buf)), 3);
}

static void test_options(void **state)
{
	struct sw_cmd c[8];
	struct sw_parse_err e;
	char buf[256];

	(void)state;
	assert_int_equal(parse("+f@a pid=12 tgid=7 comm=bash cgroup=4242 cpus=0-1,3,200 follow=1 min_ns=10 max_ns=99 by=comm,retval g",
			       c, 8, &e, buf, sizeof(buf)),
			 2);
	assert_int_equal(c[0].filter.flags,
			 SW_F_PID | SW_F_TGID | SW_F_COMM | SW_F_CGROUP |
				 SW_F_CPUS | SW_F_FOLLOW | SW_F_MIN | SW_F_MAX);
	assert_int_equal(c[0].filter.pid, 12);
	assert_int_equal(c[0].filter.tgid, 7);
	assert_string_equal(c[0].filter.comm, "bash");
	assert_int_equal(c[0].filter.cgroup, 4242);
	assert_int_equal(c[0].filter.cpus[0], 0xb);
	assert_int_equal(c[0].filter.cpus[3], 1ULL << (200 - 192));
	assert_int_equal(c[0].filter.follow, 1);
	assert_int_equal(c[0].filter.min_ns, 10);
	assert_int_equal(c[0].filter.max_ns, 99);
	assert_int_equal(c[0].by.k[0], SW_KEY_COMM);
	assert_int_equal(c[0].by.k[1], SW_KEY_RETVAL);
	assert_int_equal(c[0].by.own, 1);
	/* Nor is "max_ns=99,g" two tokens: a value runs to white space. */
	assert_string_equal(c[1].name, "g");
	assert_int_equal(parse("+f max_ns=99,g", c, 8, &e, buf, sizeof(buf)),
			 -EINVAL);
	assert_string_equal(e.token, "max_ns=99,g");

	assert_int_equal(parse("f by=caller g,by=arg5", c, 8, &e, buf,
			       sizeof(buf)),
			 2);
	assert_int_equal(c[0].by.k[0], SW_KEY_CALLER);
	assert_int_equal(c[0].by.k[1], SW_KEY_NONE);
	assert_int_equal(c[1].name[0], 'g');
	assert_int_equal(c[0].filter.flags, 0);
	assert_int_equal(parse("g by=arg5", c, 8, &e, buf, sizeof(buf)), 1);
	assert_int_equal(c[0].by.k[0], SW_KEY_ARG5);
	assert_string_equal(sw_key_name(SW_KEY_ARG0 + 2), "arg2");
	assert_string_equal(sw_key_name(SW_KEY_RETVAL), "retval");
}

static void test_option_errors(void **state)
{
	static const char *const bad[] = {
		"f foo=1",	  "f pid=x",	   "f pid=",
		"f pid=-1",	  "f pid=1 pid=2", "f comm=0123456789abcdef",
		"f comm=",	  "f by=arg6",	   "f by=pid,pid",
		"f by=a,b,c",	  "f by=wat",	   "f cpus=256",
		"f cpus=3-1",	  "f cpus=1,",	   "f min_ns=9 max_ns=8",
		"pid=1",	  "-f pid=1",	   "f cgroup=99999999999999999999",
		"f by=pid by=tgid",
	};
	struct sw_cmd c[8];
	struct sw_parse_err e;
	char buf[256];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		assert_int_equal(parse(bad[i], c, 8, &e, buf, sizeof(buf)),
				 -EINVAL);
		assert_non_null(e.token);
		assert_non_null(strchr(e.token, '='));
	}
	assert_int_equal(parse("f comm=0123456789abcde", c, 8, &e, buf,
			       sizeof(buf)),
			 1);
	assert_string_equal(c[0].filter.comm, "0123456789abcde");
}

/* User points: BINARY:NAME with uprobe=PATH:0xOFFSET. */
static void test_user_points(void **state)
{
	static const char *const bad[] = {
		"u:f",				/* no uprobe= */
		"u:f uprobe=/x:0x",		"u:f uprobe=/x:12",
		"u:f uprobe=x:0x10",		"u:f uprobe=/x:0xzz",
		"u:f uprobe=/x",		"u:f uprobe=/a:0x1 uprobe=/a:0x1",
		"f uprobe=/x:0x10",		"u:f uprobe=/a\\08:0x1",
		":f uprobe=/x:0x1",		"u: uprobe=/x:0x1",
		"u/v:f uprobe=/x:0x1",		"u:f uprobe=/x:0x12345678901234567",
	};
	struct sw_cmd c[8];
	struct sw_parse_err e;
	char buf[256];
	size_t i;

	(void)state;
	assert_int_equal(parse("+libc.so.6:malloc@t1 tgid=7 uprobe=/usr/lib/libc.so.6:0x98930 -x:y@z",
			       c, 8, &e, buf, sizeof(buf)),
			 2);
	assert_string_equal(c[0].name, "libc.so.6:malloc@t1");
	assert_int_equal(c[0].func_len, strlen("libc.so.6:malloc"));
	assert_string_equal(c[0].upath, "/usr/lib/libc.so.6");
	assert_int_equal(c[0].uoffset, 0x98930);
	assert_int_equal(c[0].filter.tgid, 7);
	assert_int_equal(c[1].op, SW_CMD_REMOVE);
	assert_null(c[1].upath);
	/* Escapes: a space and a backslash; ':' in the path, split at the last. */
	assert_int_equal(parse("a:b uprobe=/my\\040dir/a\\134b:c:0xA0", c, 8, &e,
			       buf, sizeof(buf)),
			 1);
	assert_string_equal(c[0].upath, "/my dir/a\\b:c");
	assert_int_equal(c[0].uoffset, 0xa0);
	assert_true(sw_name_is_user("a:b@t"));
	assert_false(sw_name_is_user("vfs_read@t"));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		int r = parse(bad[i], c, 8, &e, buf, sizeof(buf));

		assert_int_equal(r, -EINVAL);
		assert_non_null(e.token);
	}
}

/* attach= and args= of kernel functions. */
static void test_attach(void **state)
{
	static const char *const bad[] = {
		"f attach=jump",	"f attach=",	"f attach=auto attach=auto",
		"f args=x",		"f args=128",	"f args=1 args=1",
		"f args=-1",		"u:f uprobe=/x:0x1 attach=auto",
		"u:f uprobe=/x:0x1 args=2",
	};
	struct sw_cmd c[8];
	struct sw_parse_err e;
	char buf[256];
	size_t i;

	(void)state;
	assert_int_equal(parse("+f attach=trampoline args=3 g attach=kretprobe h attach=auto args=0 k",
			       c, 8, &e, buf, sizeof(buf)),
			 4);
	assert_int_equal(c[0].attach, SW_ATTACH_TRAMPOLINE);
	assert_int_equal(c[0].has_args, 1);
	assert_int_equal(c[0].nargs, 3);
	assert_int_equal(c[1].attach, SW_ATTACH_KRETPROBE);
	assert_int_equal(c[1].has_args, 0);
	assert_int_equal(c[2].attach, SW_ATTACH_AUTO);
	assert_int_equal(c[2].has_args, 1);
	assert_int_equal(c[2].nargs, 0);
	assert_int_equal(c[3].attach, SW_ATTACH_DEFAULT);
	assert_int_equal(parse("f args=127", c, 8, &e, buf, sizeof(buf)), 1);
	assert_int_equal(c[0].nargs, 127);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		int r = parse(bad[i], c, 8, &e, buf, sizeof(buf));

		assert_int_equal(r, -EINVAL);
		assert_non_null(e.token);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpulists),
		cmocka_unit_test(test_ops),
		cmocka_unit_test(test_separators_and_empty),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_breakdown),
		cmocka_unit_test(test_tags),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_option_errors),
		cmocka_unit_test(test_user_points),
		cmocka_unit_test(test_attach),
	};

	return cmocka_run_group_tests_name("parse", tests, NULL, NULL);
}
