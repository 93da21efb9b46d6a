// SPDX-License-Identifier: GPL-2.0
/*
 * test_spanspec.c - the span language, from the module's lib/spanspec.c:
 * points, keys, conditions, self-paired points, options and every error.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "spanspec.h"

static struct sw_span_cmd cmd;
static struct sw_parse_err err;
static char buf[1024];

static int parse(const char *line)
{
	snprintf(buf, sizeof(buf), "%s", line);
	return sw_span_parse(buf, &cmd, &err);
}

static void test_points(void **state)
{
	(void)state;
	assert_int_equal(parse("+q start=__queue_work:arg2 stop=process_one_work%return:arg1,tid"), 0);
	assert_int_equal(cmd.op, SW_SPAN_ADD);
	assert_string_equal(cmd.name, "q");
	assert_int_equal(cmd.npoints, 2);
	assert_string_equal(cmd.pt[0].target, "__queue_work");
	assert_int_equal(cmd.pt[0].kind, SW_PT_ENTRY);
	assert_int_equal(cmd.pt[0].role, SW_PT_START);
	assert_int_equal(cmd.pt[0].key.n, 1);
	assert_int_equal(cmd.pt[0].key.e[0].base, SW_SX_ARG0 + 2);
	assert_int_equal(cmd.pt[0].key.e[0].nderef, 0);
	assert_int_equal(cmd.pt[0].key.e[0].size, 8);
	assert_string_equal(cmd.pt[1].target, "process_one_work");
	assert_int_equal(cmd.pt[1].kind, SW_PT_RETURN);
	assert_int_equal(cmd.pt[1].role, SW_PT_STOP);
	assert_int_equal(cmd.pt[1].key.n, 2);
	assert_int_equal(cmd.pt[1].key.e[1].base, SW_SX_TID);
	assert_int_equal(cmd.slots, SW_SPAN_SLOTS_DEFAULT);
	assert_true(cmd.age_ns == SW_SPAN_AGE_MS_DEFAULT * 1000000ULL);
}

static void test_tracepoint_and_cond(void **state)
{
	(void)state;
	assert_int_equal(parse("+rq start=sched:sched_wakeup:arg0+1264/4 "
			       "start=sched:sched_switch:arg1+1264/4?arg3/4==0 "
			       "stop=sched:sched_switch:arg2+1264/4?arg2+1264/4!=0x0"), 0);
	assert_int_equal(cmd.npoints, 3);
	assert_int_equal(cmd.pt[0].kind, SW_PT_TP);
	assert_string_equal(cmd.pt[0].target, "sched:sched_wakeup");
	assert_int_equal(cmd.pt[0].key.e[0].nderef, 1);
	assert_int_equal(cmd.pt[0].key.e[0].off[0], 1264);
	assert_int_equal(cmd.pt[0].key.e[0].size, 4);
	assert_int_equal(cmd.pt[1].cond_op, SW_COND_EQ);
	assert_int_equal(cmd.pt[1].cond.base, SW_SX_ARG0 + 3);
	assert_int_equal(cmd.pt[1].cond.size, 4);
	assert_int_equal(cmd.pt[1].cond.nderef, 0);
	assert_int_equal(cmd.pt[2].cond_op, SW_COND_NE);
	assert_true(cmd.pt[2].cond_v == 0);
	/* The same tracepoint with another key is another point. */
	assert_int_equal(cmd.pt[1].role, SW_PT_START);
	assert_int_equal(cmd.pt[2].role, SW_PT_STOP);
}

static void test_user_points(void **state)
{
	(void)state;
	assert_int_equal(parse("+u start=/usr/bin/my\\040prog:0x1a2B:arg0+8/4 "
			       "stop=/usr/bin/my\\040prog:0x1a40%return:retval/4?tid!=0 "
			       "stop=/lib/x.so:0x10%return:tid"), 0);
	assert_int_equal(cmd.npoints, 3);
	assert_int_equal(cmd.pt[0].kind, SW_PT_UENTRY);
	assert_string_equal(cmd.pt[0].target, "/usr/bin/my prog");
	assert_true(cmd.pt[0].uoffset == 0x1a2b);
	assert_int_equal(cmd.pt[0].key.e[0].nderef, 1);
	assert_int_equal(cmd.pt[1].kind, SW_PT_URETURN);
	assert_true(cmd.pt[1].uoffset == 0x1a40);
	assert_int_equal(cmd.pt[1].key.e[0].base, SW_SX_RETVAL);
	assert_int_equal(cmd.pt[1].cond_op, SW_COND_NE);
	assert_string_equal(cmd.pt[2].target, "/lib/x.so");
	/* A tracepoint is never a user point: no leading '/'. */
	assert_int_equal(parse("+t start=sched:sched_wakeup:tid stop=/a:0x1:tid"), 0);
	assert_int_equal(cmd.pt[0].kind, SW_PT_TP);
	assert_int_equal(cmd.pt[1].kind, SW_PT_UENTRY);
	/* Self-paired user point. */
	assert_int_equal(parse("+s start=/a:0x10:arg0 stop=/a:0x10:arg0"), 0);
	assert_int_equal(cmd.npoints, 1);
	assert_int_equal(cmd.pt[0].role, SW_PT_START | SW_PT_STOP);
	assert_int_equal(parse("+s start=/a:0x10:arg0 stop=/a:0x20:arg0"), 0);
	assert_int_equal(cmd.npoints, 2);
	/* Errors. */
	assert_int_equal(parse("+e start=/a:0x10%return:arg0 stop=f:tid"), -EINVAL);
	assert_non_null(strstr(err.why, "argN at a user return point"));
	assert_int_equal(parse("+e start=/a:0x10%return:tid?arg1==2 stop=f:tid"), -EINVAL);
	assert_non_null(strstr(err.why, "argN at a user return point"));
	assert_int_equal(parse("+e start=/a:0x10:retval stop=f:tid"), -EINVAL);
	assert_non_null(strstr(err.why, "retval"));
	assert_int_equal(parse("+e start=/a:10:tid stop=f:tid"), -EINVAL);
	assert_non_null(strstr(err.why, "PATH:0xOFFSET"));
	assert_int_equal(parse("+e start=/a:0xzz:tid stop=f:tid"), -EINVAL);
	assert_non_null(strstr(err.why, "bad offset"));
	assert_int_equal(parse("+e start=/a\\999:0x1:tid stop=f:tid"), -EINVAL);
	assert_non_null(strstr(err.why, "bad escape"));
	assert_int_equal(parse("+e start=/a:0x1%returnx:tid stop=f:tid"), -EINVAL);
}

static void test_self_paired(void **state)
{
	(void)state;
	assert_int_equal(parse("+hop start=list_add:arg0,arg1 stop=list_add:arg0,arg1"), 0);
	assert_int_equal(cmd.npoints, 1);
	assert_int_equal(cmd.pt[0].role, SW_PT_START | SW_PT_STOP);
	assert_int_equal(parse("+hop start=list_add:arg0 stop=list_add:arg1"), 0);
	assert_int_equal(cmd.npoints, 2);
	assert_int_equal(parse("+hop start=f:arg0 start=f:arg0 stop=g:arg0"), -EINVAL);
	assert_string_equal(err.why, "point given twice");
}

static void test_expr(void **state)
{
	struct sw_span_expr e;
	char out[64];

	(void)state;
	assert_int_equal(sw_span_parse_expr("arg0+8+0x10+24/2", 16, &e), 0);
	assert_int_equal(e.nderef, 3);
	assert_int_equal(e.off[0], 8);
	assert_int_equal(e.off[1], 16);
	assert_int_equal(e.off[2], 24);
	assert_int_equal(e.size, 2);
	sw_span_expr_str(&e, out, sizeof(out));
	assert_string_equal(out, "arg0+8+16+24/2");
	assert_int_equal(sw_span_parse_expr("retval", 6, &e), 0);
	sw_span_expr_str(&e, out, sizeof(out));
	assert_string_equal(out, "retval");
	assert_int_equal(sw_span_parse_expr("pid/4", 5, &e), 0);
	assert_int_equal(e.base, SW_SX_PID);
	assert_int_equal(sw_span_parse_expr("arg0+1+2+3+4+5", 14, &e), -EINVAL);
	assert_int_equal(sw_span_parse_expr("arg6", 4, &e), -EINVAL);
	assert_int_equal(sw_span_parse_expr("arg0/3", 6, &e), -EINVAL);
	assert_int_equal(sw_span_parse_expr("arg0/16", 7, &e), -EINVAL);
	assert_int_equal(sw_span_parse_expr("arg0+", 5, &e), -EINVAL);
	assert_int_equal(sw_span_parse_expr("arg0+0x", 7, &e), -EINVAL);
	assert_int_equal(sw_span_parse_expr("arg0+4294967296", 15, &e), -EINVAL);
	assert_int_equal(sw_span_parse_expr("work", 4, &e), -EINVAL);
	assert_int_equal(sw_span_parse_expr("tidx", 4, &e), -EINVAL);
}

static void test_options(void **state)
{
	(void)state;
	assert_int_equal(parse("+s start=f:arg0 stop=g:arg0 slots=16 age_ms=250 "
			       "pid=12 comm=abc cpus=0-1 min_ns=5 by=comm,cpu"), 0);
	assert_int_equal(cmd.slots, 16);
	assert_true(cmd.age_ns == 250000000ULL);
	assert_int_equal(cmd.filter.flags, SW_F_PID | SW_F_COMM | SW_F_CPUS | SW_F_MIN);
	assert_int_equal(cmd.filter.pid, 12);
	assert_string_equal(cmd.filter.comm, "abc");
	assert_true(cmd.filter.min_ns == 5);
	assert_int_equal(cmd.by.k[0], SW_KEY_COMM);
	assert_int_equal(cmd.by.k[1], SW_KEY_CPU);
	/* by=key: the interval's own key, alone or with the stop thread's */
	assert_int_equal(parse("+s start=f:arg0 stop=g:arg0 by=key,tgid"), 0);
	assert_int_equal(cmd.by.k[0], SW_KEY_SPAN);
	assert_int_equal(cmd.by.k[1], SW_KEY_TGID);
	/* by=key of a pair key: rows by both values; nothing else with it */
	assert_int_equal(parse("+s start=f:arg0,arg1 stop=g:arg0,arg1 by=key"), 0);
	assert_int_equal(cmd.by.k[0], SW_KEY_SPAN);
	assert_int_equal(cmd.by.k[1], SW_KEY_SPAN);
	assert_int_equal(parse("+s start=f:arg0,arg1 stop=g:arg0,arg1 by=key,pid"), -EINVAL);
	assert_non_null(strstr(err.why, "by=key of a span whose key is a pair"));
	assert_string_equal(err.token, "by=key,pid");
	assert_int_equal(parse("+s start=f:arg0,arg1 stop=g:arg0,arg1 by=pid,key"), -EINVAL);
	assert_int_equal(parse("+s start=f:arg0,arg1 stop=g:arg0,arg1 by=pid"), 0);
	assert_int_equal(cmd.by.k[0], SW_KEY_PID);
	assert_int_equal(cmd.by.k[1], SW_KEY_NONE);
	assert_int_equal(parse("-s"), 0);
	assert_int_equal(cmd.op, SW_SPAN_REMOVE);
	assert_string_equal(cmd.name, "s");
	assert_int_equal(parse("reset"), 0);
	assert_int_equal(cmd.op, SW_SPAN_RESET);
	assert_int_equal(parse("+a->b.c start=f:arg0 stop=g:arg0"), 0);
	assert_string_equal(cmd.name, "a->b.c");
	assert_int_equal(cmd.trace, 0);
	assert_int_equal(parse("+t start=f:arg0 stop=g:arg0 trace=on min_ns=3"), 0);
	assert_int_equal(cmd.trace, SW_TRACE_ON);
	assert_int_equal(cmd.filter.flags, SW_F_MIN);
}

#define BAD(line_, ret_, tok_, why_)                               \
	do {                                                       \
		const char *t_ = (tok_);                           \
		assert_int_equal(parse(line_), ret_);              \
		if (t_)                                            \
			assert_string_equal(err.token, t_);        \
		else                                               \
			assert_null(err.token);                    \
		assert_non_null(strstr(err.why, why_));            \
	} while (0)

static void test_errors(void **state)
{
	(void)state;
	BAD("", -EINVAL, NULL, "empty");
	BAD("s start=f:arg0 stop=g:arg0", -EINVAL, "s", "+NAME");
	BAD("+ start=f:arg0", -EINVAL, "+", "missing span name");
	BAD("+s start=f:arg0", -EINVAL, NULL, "a start= and a stop=");
	BAD("+s stop=f:arg0", -EINVAL, NULL, "a start= and a stop=");
	BAD("+s start=f stop=g:arg0", -EINVAL, "start=f", "POINT:KEY");
	BAD("+s start=f: stop=g:arg0", -EINVAL, "start=f:", "POINT:KEY");
	BAD("+s start=f:arg7 stop=g:arg0", -EINVAL, "start=f:arg7", "bad key");
	BAD("+s start=f:retval stop=g:arg0", -EINVAL, "start=f:retval", "retval only");
	BAD("+s start=f%ret:arg0 stop=g:arg0", -EINVAL, "start=f%ret:arg0", "%return");
	BAD("+s start=a:b:c:arg0 stop=g:arg0", -EINVAL, "start=a:b:c:arg0", "SYSTEM:EVENT");
	BAD("+s start=f$:arg0 stop=g:arg0", -EINVAL, "start=f$:arg0", "invalid character");
	BAD("+s start=f:arg0?arg0 stop=g:arg0", -EINVAL, "start=f:arg0?arg0", "condition");
	BAD("+s start=f:arg0?arg0==x stop=g:arg0", -EINVAL, "start=f:arg0?arg0==x", "condition");
	BAD("+s start=f:arg0 stop=g:arg0 slots=100", -EINVAL, "slots=100", "power of two");
	BAD("+s start=f:arg0 stop=g:arg0 slots=8", -EINVAL, "slots=8", "power of two");
	BAD("+s start=f:arg0 stop=g:arg0 age_ms=0", -EINVAL, "age_ms=0", "age_ms");
	BAD("+s start=f:arg0 stop=g:arg0 pid=x", -EINVAL, "pid=x", "bad number");
	BAD("+s start=f:arg0 stop=g:arg0 nope=1", -EINVAL, "nope=1", "unknown option");
	BAD("+s start=f:arg0 stop=g:arg0 by=retval", -EINVAL, "by=retval", "key, pid, tgid, comm or cpu");
	BAD("+s start=f:arg0 stop=g:arg0 junk", -EINVAL, "junk", "unknown token");
	BAD("+s start=f:arg0 stop=g:arg0 attach=trampoline", -EINVAL,
	    "attach=trampoline", "attach= and args= are a probe's options");
	BAD("+s start=f:arg0 stop=g:arg0 pid=1 args=3", -EINVAL, "args=3",
	    "attach= and args= are a probe's options");
	BAD("+s start=f:arg0 stop=g:arg0 pid=1 trace=ret", -EINVAL, "trace=ret",
	    "a span's trace= takes on");
	BAD("+s start=f:arg0 stop=g:arg0 trace=yes", -EINVAL, "trace=yes",
	    "trace= takes on or ret");
	BAD("+s start=f:arg0 stop=g:arg0 trace=on trace=on", -EINVAL,
	    "trace=on", "given twice");
	BAD("-s start=f:arg0", -EINVAL, "start=f:arg0", "only +NAME");
	BAD("+s$ start=f:arg0 stop=g:arg0", -EINVAL, "+s$", "invalid character");
	BAD("+s start=a:arg0 start=b:arg0 start=c:arg0 start=d:arg0 start=e:arg0 "
	    "start=f:arg0 start=g:arg0 start=h:arg0 stop=i:arg0", -E2BIG,
	    "stop=i:arg0", "more than 8");
	BAD("+0123456789012345678901234567890123456789012345678901234567890123 "
	    "start=f:arg0 stop=g:arg0", -E2BIG,
	    "+0123456789012345678901234567890123456789012345678901234567890123",
	    "longer than 63");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_points),
		cmocka_unit_test(test_tracepoint_and_cond),
		cmocka_unit_test(test_self_paired),
		cmocka_unit_test(test_user_points),
		cmocka_unit_test(test_expr),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests_name("spanspec", tests, NULL, NULL);
}
