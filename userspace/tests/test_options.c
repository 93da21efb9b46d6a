// SPDX-License-Identifier: GPL-2.0
/*
 * test_options.c - util/parse-options: one table parses and documents.
 */
#include <errno.h>
#include <stdbool.h>

#include "helpers.h"
#include "base/parse-options.h"

struct args {
	bool flag;
	const char *name, *cg, *mode;
	uint64_t n;
	double sec;
	int calls;
};

static int count_cb(const struct sw_option *opt, const char *arg)
{
	struct args *a = opt->value;

	if (strcmp(arg, "ok"))
		return -EINVAL;
	a->calls++;
	return 0;
}

static const struct sw_cmd_doc doc = {
	.name = "test",
	.usage = "stopwatch test [OPTIONS] [ARGS]",
	.about = "What it does.\n",
	.examples = "  stopwatch test -f\n",
};

#define OPTS(a)								\
	const struct sw_option opts[] = {				\
		SW_OPT_BOOL('f', "flag", &(a).flag, "a flag"),		\
		SW_OPT_NAME('o', "output", &(a).name, "FILE",		\
			    "where\nto write", "a file name"),		\
		SW_OPT_U64('n', "count", &(a).n, "N", "how many", 1, 10,	\
			   "1 to 10"),					\
		SW_OPT_DOUBLE(0, "interval", &(a).sec, "SEC", "how often",	\
			      0.5, 60, "seconds, 0.5 to 60"),		\
		SW_OPT_SET('g', NULL, &(a).mode, "graph", "graph mode"),	\
		SW_OPT_CALLBACK(0, "cb", &(a), "X", "a callback", count_cb,	\
				"ok"),					\
		SW_OPT_STRING(0, "alias", &(a).cg, "X", NULL),		\
		SW_OPT_END(),						\
	}

static int parse(struct args *a, int argc, char **argv)
{
	OPTS(*a);

	return sw_parse_options(argc, argv, &doc, opts);
}

static void test_parse(void **state)
{
	char *argv[] = { "test", "-f", "--output", "x", "-n3", "--interval=1.5",
			 "-g", "--cb", "ok", "--alias", "y", "rest", NULL };
	struct args a = { 0 };

	(void)state;
	assert_int_equal(parse(&a, 12, argv), 11);
	assert_true(a.flag);
	assert_string_equal(a.name, "x");
	assert_true(a.n == 3);
	assert_true(a.sec == 1.5);
	assert_string_equal(a.mode, "graph");
	assert_int_equal(a.calls, 1);
	assert_string_equal(a.cg, "y");
}

static void expect_invalid(int argc, char **argv)
{
	struct args a = { 0 };

	assert_int_equal(parse(&a, argc, argv), -EINVAL);
}

static void test_invalid(void **state)
{
	char *zero[] = { "test", "-n", "0", NULL };
	char *big[] = { "test", "-n", "11", NULL };
	char *word[] = { "test", "--count", "x", NULL };
	char *small[] = { "test", "--interval", "0.1", NULL };
	char *nan[] = { "test", "--interval", "nan", NULL };
	char *empty[] = { "test", "-o", "", NULL };
	char *cb[] = { "test", "--cb", "bad", NULL };
	char *unknown[] = { "test", "--bogus", NULL };
	char *noval[] = { "test", "-n", NULL };

	(void)state;
	expect_invalid(3, zero);
	expect_invalid(3, big);
	expect_invalid(3, word);
	expect_invalid(3, small);
	expect_invalid(3, nan);
	expect_invalid(3, empty);
	expect_invalid(3, cb);
	expect_invalid(2, unknown);
	expect_invalid(2, noval);
}

static void test_help(void **state)
{
	char *argv[] = { "test", "-f", "--help", NULL };
	struct args a = { 0 };
	char *out = NULL;
	OPTS(a);

	(void)state;
	assert_int_equal(parse(&a, 3, argv), 0);
	CAPTURE(out, sw_usage_print(f, &doc, opts));
	assert_string_equal(out,
		"usage: stopwatch test [OPTIONS] [ARGS]\n"
		"\n"
		"What it does.\n"
		"\n"
		"Options:\n"
		"  -f, --flag                a flag\n"
		"  -o, --output FILE         where\n"
		"                            to write\n"
		"  -n, --count N             how many\n"
		"      --interval SEC        how often\n"
		"  -g                        graph mode\n"
		"      --cb X                a callback\n"
		"  -h, --help                this help\n"
		"\n"
		"Examples:\n"
		"  stopwatch test -f\n");
	free(out);
}

static void test_defaults(void **state)
{
	struct args a = { 0 };
	const struct sw_option opts[] = {
		SW_OPT_U64('n', "count", &a.n, "N", "how many", 1, 10,
			   "1 to 10", SW_DEFAULT("4")),
		SW_OPT_NAME('o', "output", &a.name, "FILE", "where\nto write",
			    "a file name", SW_DEFAULT("out.txt")),
		SW_OPT_END(),
	};
	const struct sw_option bad[] = {
		SW_OPT_U64('n', "count", &a.n, "N", "how many", 1, 10,
			   "1 to 10", SW_DEFAULT("11")),
		SW_OPT_END(),
	};
	char *none[] = { "test", NULL };
	char *given[] = { "test", "-n", "7", NULL };
	char *out = NULL;

	(void)state;
	assert_int_equal(sw_parse_options(1, none, &doc, opts), 1);
	assert_true(a.n == 4);
	assert_string_equal(a.name, "out.txt");
	assert_int_equal(sw_parse_options(3, given, &doc, opts), 3);
	assert_true(a.n == 7);
	/* --help says the default the parser stores. */
	CAPTURE(out, sw_usage_print(f, &doc, opts));
	assert_non_null(strstr(out,
		"  -n, --count N             how many (default 4)\n"
		"  -o, --output FILE         where\n"
		"                            to write (default out.txt)\n"));
	free(out);
	/* A default its own option refuses is an error, not a value. */
	assert_int_equal(sw_parse_options(1, none, &doc, bad), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_defaults),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
