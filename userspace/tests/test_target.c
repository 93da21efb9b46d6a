// SPDX-License-Identifier: GPL-2.0
/*
 * test_target.c - the filter options shared by time, probe and span
 * (control/target.c), and the checks that reuse the module's own control
 * grammar (lib/parse.c) before anything is written.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "helpers.h"
#include "control/probe-spec.h"
#include "control/target.h"

static void test_check(void **state)
{
	struct sw_target t = { 0 };
	struct sw_err err = { "" };

	(void)state;
	assert_int_equal(sw_target_check(&t, &err), 0);
	t.pid = 7;
	t.tid = 8;
	assert_int_equal(sw_target_check(&t, &err), -EINVAL);
	assert_string_equal(err.msg,
			    "-p (a process) and -t (a thread) exclude each other");
	t.tid = 0;
	t.min_ns = 2000;
	t.max_ns = 1000;
	assert_int_equal(sw_target_check(&t, &err), -EINVAL);
	assert_string_equal(err.msg, "--min is above --max");
	t.max_ns = 0;
	t.cpus = "0-1,300";
	assert_int_equal(sw_target_check(&t, &err), -EINVAL);
	assert_string_equal(err.msg,
			    "invalid CPU list '0-1,300': expected e.g. 0-3,6, CPUs below 256");
	t.cpus = "3-1";
	assert_int_equal(sw_target_check(&t, &err), -EINVAL);
	t.cpus = "0-1,3";
	assert_int_equal(sw_target_check(&t, &err), 0);
}

static void test_apply(void **state)
{
	struct sw_target t = { .pid = 7, .cpus = "1", .comm = "dd",
			       .min_ns = 5, .max_ns = 9 };
	struct sw_probe_opts po = { 0 };
	struct sw_err err = { "" };
	char *s;

	(void)state;
	assert_int_equal(sw_target_apply(&t, &po, &err), 0);
	s = sw_probe_opts_format(&po);
	assert_non_null(s);
	/* The process is the module's tgid=, not its pid= (a thread). */
	assert_non_null(strstr(s, "tgid=7"));
	assert_null(strstr(s, " pid=7"));
	assert_non_null(strstr(s, "cpus=1"));
	assert_non_null(strstr(s, "comm=dd"));
	assert_non_null(strstr(s, "min_ns=5"));
	assert_non_null(strstr(s, "max_ns=9"));
	free(s);
}

static void test_keys(void **state)
{
	struct sw_err err = { "" };

	(void)state;
	assert_int_equal(sw_keys_check("pid,arg5", &err), 0);
	assert_int_equal(sw_keys_check("arg6", &err), -EINVAL);
	assert_string_equal(err.msg,
			    "invalid keys 'arg6': unknown key (pid tgid comm cpu caller arg0..arg5 retval)");
	assert_int_equal(sw_keys_check("cpu,cpu", &err), -EINVAL);
	assert_string_equal(err.msg, "invalid keys 'cpu,cpu': key named twice");
	assert_int_equal(sw_keys_check("pid,tgid,cpu", &err), -EINVAL);
}

/* The module's parser, run by the program: its message, nothing written. */
static void test_probes_line(void **state)
{
	struct sw_err err = { "" };

	(void)state;
	assert_int_equal(sw_probes_line_check("+vfs_read@t1 tgid=7 by=comm\n",
					      &err), 0);
	assert_int_equal(sw_probes_line_check("+vfs_read pid=abc\n", &err),
			 -EINVAL);
	assert_string_equal(err.msg, "'pid=abc': bad number");
	assert_int_equal(sw_probes_line_check("+vfs_read +vfs_read\n", &err),
			 -EEXIST);
	assert_int_equal(sw_probes_line_check("+vfs_read cpus=0-999\n", &err),
			 -EINVAL);
	assert_string_equal(err.msg,
			    "'cpus=0-999': bad CPU list (e.g. 0-1,3; CPUs below 256)");
}

/* The sampler's lines likewise: lib/sampopts.c, with the module's message. */
static void test_sampler_line(void **state)
{
	struct sw_err err = { "" };

	(void)state;
	assert_int_equal(sw_sampler_line_check("start event=cpu-clock freq=99 callchain=kernel,user\n",
					       &err), 0);
	assert_int_equal(sw_sampler_line_check("stop\n", &err), 0);
	assert_int_equal(sw_sampler_line_check("start freq=0\n", &err),
			 -EINVAL);
	assert_string_equal(err.msg, "'freq=0': not a frequency in 1..100000 Hz");
	assert_int_equal(sw_sampler_line_check("start cpus=1 cpus=2\n", &err),
			 -EEXIST);
	assert_string_equal(err.msg, "'cpus=2': given twice");
	assert_int_equal(sw_sampler_line_check("start colour=red\n", &err),
			 -ENOENT);
	assert_int_equal(sw_sampler_line_check("begin\n", &err), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_apply),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_probes_line),
		cmocka_unit_test(test_sampler_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
