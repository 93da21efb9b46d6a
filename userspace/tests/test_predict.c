// SPDX-License-Identifier: GPL-2.0
/*
 * test_predict.c - the predicted cost from a counting pass's stats:
 * rates, shares, the marks for uncalibrated and untimed functions, and
 * the stats that cannot be predicted from.
 */
#include <errno.h>

#include "helpers.h"
#include "output/predict.h"

static char *ids[] = { "f@t1", "g@t1", "h@t1" };
static char *names[] = { "f", "g", "h" };

/*
 * f: 20000 calls (5000 of them filtered out) at 1000 ns; g: 5000 at 400 ns;
 * h: never called.
 */
static const char stats[] =
	"probe calls filtered cost_ns cost_fixed_ns cost_total_ns\n"
	"other 99 0 7 3 693\n"
	"f@t1 15000 5000 1000 300 20000000\n"
	"g@t1 5000 0 400 300 2000000\n"
	"h@t1 0 0 0 300 0\n";

static void test_rates_and_shares(void **state)
{
	struct sw_predict p;
	struct sw_err err = { "" };

	(void)state;
	assert_int_equal(sw_predict_compute(stats, ids, names, 3, 2.0, 4, &p,
					    &err), 0);
	assert_int_equal(p.n, 3);
	assert_float_equal(p.row[0].rate, 10000, 1e-9);
	/* 10000 calls/s x 1000 ns = 10 ms/s of 4 CPUs: 0.25%. */
	assert_float_equal(p.row[0].share, 0.25, 1e-9);
	assert_float_equal(p.row[1].rate, 2500, 1e-9);
	assert_float_equal(p.row[1].share, 0.025, 1e-9);
	assert_float_equal(p.row[2].share, 0, 1e-12);
	assert_float_equal(p.rate, 12500, 1e-9);
	assert_float_equal(p.share, 0.275, 1e-9);
	/* (10000 x 1000 + 2500 x 400) / 12500 */
	assert_float_equal(p.ns, 880, 1e-9);
	assert_int_equal(p.uncal, 0);
	assert_int_equal(p.unknown, 0);
	assert_false(p.row[2].borrowed);
	sw_predict_free(&p);
}

/* A function called but never timed takes the others' mean, marked. */
static void test_borrowed(void **state)
{
	static const char s[] =
		"probe calls cost_ns cost_fixed_ns\n"
		"f@t1 3000 1000 300\n"
		"g@t1 1000 2000 300\n"
		"h@t1 10 0 300\n";
	struct sw_predict p;
	char *out = NULL;

	(void)state;
	assert_int_equal(sw_predict_compute(s, ids, names, 3, 1.0, 1, &p,
					    NULL), 0);
	assert_true(p.row[2].borrowed);
	assert_float_equal(p.row[2].ns, 1250, 1e-9);
	CAPTURE(out, sw_predict_fprint(f, &p));
	assert_non_null(strstr(out, "~: none of its handler runs"));
	assert_non_null(strstr(out, "stopwatch predict "));
	free(out);
	sw_predict_free(&p);
}

/* cost_fixed_ns 0: a lower bound, said in the row and the last line. */
static void test_uncalibrated(void **state)
{
	static const char s[] =
		"probe calls cost_ns cost_fixed_ns\n"
		"f@t1 1000 500 0\n";
	struct sw_predict p;
	char *out = NULL;

	(void)state;
	assert_int_equal(sw_predict_compute(s, ids, names, 1, 1.0, 2, &p,
					    NULL), 0);
	assert_int_equal(p.uncal, 1);
	assert_true(p.row[0].uncal);
	CAPTURE(out, sw_predict_fprint(f, &p));
	assert_non_null(strstr(out, "% >=\n"));
	assert_non_null(strstr(out, "not calibrated at load"));
	assert_non_null(strstr(out,
		"stopwatch predict 0.025% of 2 CPUs: 1000 calls/s x 500 ns over a 1.00 s count (lower bound: not calibrated)\n"));
	free(out);
	sw_predict_free(&p);
}

/* Nothing timed at all: unknown, not in the total, said. */
static void test_unknown(void **state)
{
	static const char s[] =
		"probe calls cost_ns cost_fixed_ns\n"
		"f@t1 1000 0 300\n";
	struct sw_predict p;
	char *out = NULL;

	(void)state;
	assert_int_equal(sw_predict_compute(s, ids, names, 1, 1.0, 1, &p,
					    NULL), 0);
	assert_int_equal(p.unknown, 1);
	assert_float_equal(p.share, 0, 1e-12);
	CAPTURE(out, sw_predict_fprint(f, &p));
	assert_non_null(strstr(out, "(unknown: no handler run timed)"));
	free(out);
	sw_predict_free(&p);
}

static void test_bad_input(void **state)
{
	struct sw_predict p;
	struct sw_err err = { "" };

	(void)state;
	/* A probe without its row names it. */
	assert_int_equal(sw_predict_compute("probe calls cost_ns cost_fixed_ns\n",
					    ids, names, 1, 1.0, 1, &p, &err),
			 -ENOENT);
	assert_non_null(strstr(err.msg, "f@t1"));
	/* A module without the cost columns. */
	assert_int_equal(sw_predict_compute("probe calls\nf@t1 3\n", ids,
					    names, 1, 1.0, 1, &p, &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "cost_ns"));
	/* A bad number names its line and column. */
	assert_int_equal(sw_predict_compute("probe calls cost_ns cost_fixed_ns\nf@t1 x 1 1\n",
					    ids, names, 1, 1.0, 1, &p, &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "line 2: calls"));
	/* No counting pass. */
	assert_int_equal(sw_predict_compute(stats, ids, names, 1, 0, 1, &p,
					    &err), -EINVAL);
	assert_int_equal(sw_predict_compute(stats, ids, names, 1, 1, 0, &p,
					    &err), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rates_and_shares),
		cmocka_unit_test(test_borrowed),
		cmocka_unit_test(test_uncalibrated),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_bad_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
