// SPDX-License-Identifier: GPL-2.0
/*
 * test_sampopts.c - the sampler control line and settings
 * (lib/sampopts.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../../lib/sampopts.h"

static struct sw_samp_opts defs;
static char err[160];
static struct sw_parse_err perr;

/* Parse @line; on failure err says what the module's last_error would. */
static int parse(const char *line, struct sw_samp_opts *o)
{
	static char buf[512];
	int ret;

	snprintf(buf, sizeof(buf), "%s", line);
	err[0] = '\0';
	ret = sw_samp_parse_cmd(buf, &defs, o, &perr);
	if (ret < 0)
		sw_parse_err_str(&perr, err, sizeof(err));
	return ret;
}

static int setup(void **state)
{
	(void)state;
	sw_samp_opts_default(&defs);
	return 0;
}

static void test_bare_start(void **state)
{
	struct sw_samp_opts o;

	(void)state;
	assert_int_equal(parse("start\n", &o), SW_CMD_START);
	assert_false(o.ev_set);
	assert_int_equal(o.freq, 1000);
	assert_int_equal(o.period, 0);
	assert_int_equal(o.callchain, 0);
	assert_int_equal(o.pid, -1);
	assert_int_equal(o.tgid, -1);
	assert_int_equal(o.kstack, 64);
	assert_int_equal(o.ustack, 64);
	assert_int_equal(o.max_rate, 100000);
	assert_string_equal(o.cpus, "");
	assert_false(o.stack_drop);
}

static void test_full_start(void **state)
{
	struct sw_samp_opts o;

	(void)state;
	assert_int_equal(parse("  start event=cycles period=100000 callchain=kernel,user cpus=0-3,6 tgid=42 max_rate=0 kstack=10 ustack=127 stack_fail=drop\n",
			       &o), SW_CMD_START);
	assert_true(o.ev_set);
	assert_int_equal(o.ev.type, PERF_TYPE_HARDWARE);
	assert_int_equal(o.ev.config, PERF_COUNT_HW_CPU_CYCLES);
	assert_int_equal(o.period, 100000);
	assert_int_equal(o.freq, 0);
	assert_int_equal(o.callchain, SW_CC_KERNEL | SW_CC_USER);
	assert_string_equal(o.cpus, "0-3,6");
	assert_int_equal(o.tgid, 42);
	assert_int_equal(o.max_rate, 0);
	assert_int_equal(o.kstack, 10);
	assert_int_equal(o.ustack, 127);
	assert_true(o.stack_drop);
}

static void test_events_and_chains(void **state)
{
	struct sw_samp_opts o;

	(void)state;
	assert_int_equal(parse("start event=cpu-clock freq=4000 callchain=user", &o),
			 SW_CMD_START);
	assert_int_equal(o.ev.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(o.freq, 4000);
	assert_int_equal(o.callchain, SW_CC_USER);
	assert_int_equal(parse("start event=r1c2 callchain=kernel pid=7", &o),
			 SW_CMD_START);
	assert_int_equal(o.ev.type, PERF_TYPE_RAW);
	assert_int_equal(o.callchain, SW_CC_KERNEL);
	assert_int_equal(o.pid, 7);
	assert_int_equal(parse("start callchain=none", &o), SW_CMD_START);
	assert_int_equal(o.callchain, 0);
}

static void test_stop(void **state)
{
	struct sw_samp_opts o;

	(void)state;
	assert_int_equal(parse("stop\n", &o), SW_CMD_STOP);
	assert_int_equal(parse("stop now", &o), -EINVAL);
	assert_non_null(strstr(err, "now"));
}

#define BAD(line, errno_, needle)                                   \
	do {                                                         \
		assert_int_equal(parse(line, &o), errno_);           \
		assert_non_null(strstr(err, needle));                \
	} while (0)

static void test_errors_name_the_value(void **state)
{
	struct sw_samp_opts o;

	(void)state;
	BAD("", -EINVAL, "not a command");
	BAD("begin", -ENOENT, "begin");
	BAD("start event=bogus-event", -EINVAL, "bogus-event");
	BAD("start freq=0", -EINVAL, "freq=0");
	BAD("start freq=100001", -EINVAL, "freq=100001");
	BAD("start freq=12x", -EINVAL, "freq=12x");
	BAD("start period=0", -EINVAL, "period=0");
	BAD("start period=1 freq=1", -EINVAL, "give one");
	BAD("start pid=1 tgid=1", -EINVAL, "give one");
	BAD("start callchain=kernel,", -EINVAL, "callchain=kernel,");
	BAD("start callchain=stack", -EINVAL, "callchain=stack");
	BAD("start cpus=0-", -EINVAL, "cpus=0-");
	BAD("start cpus=a", -EINVAL, "cpus=a");
	BAD("start pid=-3", -EINVAL, "pid=-3");
	BAD("start tgid=0", -EINVAL, "tgid=0");
	BAD("start kstack=128", -EINVAL, "kstack=128");
	BAD("start ustack=0", -EINVAL, "ustack=0");
	BAD("start stack_fail=maybe", -EINVAL, "stack_fail=maybe");
	BAD("start max_rate=-1", -EINVAL, "max_rate=-1");
	BAD("start colour=red", -ENOENT, "colour");
	BAD("start freq", -EINVAL, "key=value");
	BAD("start =3", -EINVAL, "key=value");
	BAD("start freq=10 freq=20", -EEXIST, "freq");
	BAD("start event=averyveryveryveryverylongeventname1234", -E2BIG,
	    "too long");
}

/* The error's token is the offending key=value, whole, and the message is
 * lib/parse.c's, as for a probes line. */
static void test_error_token(void **state)
{
	struct sw_samp_opts o;

	(void)state;
	assert_int_equal(parse("start freq=100 kstack=0x80 callchain=user", &o),
			 -EINVAL);
	assert_string_equal(perr.token, "kstack=0x80");
	assert_string_equal(err, "'kstack=0x80': not a depth in 1..127");
	assert_int_equal(parse("start max_rate=10000001", &o), -EINVAL);
	assert_string_equal(err,
			    "'max_rate=10000001': not a rate in 0..10000000 samples/s");
	assert_int_equal(parse("start pid=0x10 tgid=3", &o), -EINVAL);
	assert_null(perr.token);
	assert_string_equal(err, "pid= and tgid=: give one of them");
	assert_int_equal(parse("start averyveryverylongkeyname=1", &o),
			 -ENOENT);
	assert_string_equal(perr.token, "averyveryverylongkeyname=1");
}

static void test_defaults_are_copied(void **state)
{
	struct sw_samp_opts d, o;
	char line[] = "start";

	(void)state;
	sw_samp_opts_default(&d);
	d.max_rate = 55;
	assert_int_equal(sw_samp_parse_cmd(line, &d, &o, &perr), SW_CMD_START);
	assert_int_equal(o.max_rate, 55);
}

static void test_callchain_str(void **state)
{
	char b[16];

	(void)state;
	sw_samp_callchain_str(0, b, sizeof(b));
	assert_string_equal(b, "none");
	sw_samp_callchain_str(SW_CC_KERNEL | SW_CC_USER, b, sizeof(b));
	assert_string_equal(b, "kernel,user");
	sw_samp_callchain_str(SW_CC_USER, b, sizeof(b));
	assert_string_equal(b, "user");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_bare_start, setup),
		cmocka_unit_test_setup(test_full_start, setup),
		cmocka_unit_test_setup(test_events_and_chains, setup),
		cmocka_unit_test_setup(test_stop, setup),
		cmocka_unit_test_setup(test_errors_name_the_value, setup),
		cmocka_unit_test_setup(test_error_token, setup),
		cmocka_unit_test_setup(test_defaults_are_copied, setup),
		cmocka_unit_test_setup(test_callchain_str, setup),
	};

	return cmocka_run_group_tests_name("sampopts", tests, NULL, NULL);
}
