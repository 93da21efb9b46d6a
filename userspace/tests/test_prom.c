// SPDX-License-Identifier: GPL-2.0
/*
 * test_prom.c - Prometheus escaping and names, seconds and human units.
 */
#include "helpers.h"
#include "output/prom.h"
#include "base/units.h"

static void check_label(const char *in, const char *want)
{
	char *out = NULL;

	CAPTURE(out, sw_prom_label_value(f, in));
	assert_string_equal(out, want);
	free(out);
}

static void test_label_value(void **state)
{
	(void)state;
	check_label("vfs_read", "\"vfs_read\"");
	check_label("", "\"\"");
	check_label("a\"b\\c\nd", "\"a\\\"b\\\\c\\nd\"");
	check_label("tab\there", "\"tab\there\"");
	check_label("na\xc3\xafve", "\"na\xc3\xafve\"");
	/* An invalid byte becomes the UTF-8 of the same code point. */
	check_label("bad\xffname", "\"bad\xc3\xbfname\"");
	check_label("\x80", "\"\xc2\x80\"");
}

static void test_family(void **state)
{
	char *out = NULL;

	(void)state;
	CAPTURE(out, sw_prom_family(f, "stopwatch_x", "gauge",
				    "a\\b\nc \"q\""));
	assert_string_equal(out,
			    "# HELP stopwatch_x a\\\\b\\nc \"q\"\n"
			    "# TYPE stopwatch_x gauge\n");
	free(out);
}

static void test_name(void **state)
{
	char buf[32];

	(void)state;
	assert_string_equal(sw_prom_name(buf, sizeof(buf), "stopwatch_",
					 "cycles_min"),
			    "stopwatch_cycles_min");
	assert_string_equal(sw_prom_name(buf, sizeof(buf), "stopwatch_",
					 "cpi-min.x"),
			    "stopwatch_cpi_min_x");
	assert_string_equal(sw_prom_name(buf, sizeof(buf), "stopwatch_",
					 "2nd"),
			    "stopwatch_2nd");
	assert_string_equal(sw_prom_name(buf, sizeof(buf), "", "2nd"), "_nd");
	assert_string_equal(sw_prom_name(buf, 8, "stopwatch_", "x"),
			    "stopwat");
}

static void check_seconds(uint64_t ns, const char *want)
{
	char buf[SW_UNITS_LEN];

	assert_string_equal(sw_fmt_seconds(buf, ns), want);
}

static void test_seconds(void **state)
{
	(void)state;
	check_seconds(0, "0");
	check_seconds(1, "0.000000001");
	check_seconds(812, "0.000000812");
	check_seconds(1024, "0.000001024");
	check_seconds(283023, "0.000283023");
	check_seconds(1000000000, "1");
	check_seconds(1500000000, "1.5");
	check_seconds(1099511627776ULL, "1099.511627776");
	check_seconds(UINT64_MAX, "18446744073.709551615");
}

static void check_human(uint64_t ns, const char *want)
{
	char buf[SW_UNITS_LEN];

	assert_string_equal(sw_fmt_human_ns(buf, ns), want);
}

static void test_human(void **state)
{
	(void)state;
	check_human(0, "0 ns");
	check_human(812, "812 ns");
	check_human(999, "999 ns");
	check_human(1000, "1.00 us");
	check_human(2301, "2.30 us");
	check_human(9999, "10.0 us");
	check_human(90211, "90.2 us");
	check_human(283023, "283 us");
	check_human(999000, "999 us");
	check_human(999999, "1.00 ms");
	check_human(4500000, "4.50 ms");
	check_human(1500000000, "1.50 s");
	check_human(3600000000000ULL, "3600 s");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_label_value),
		cmocka_unit_test(test_family),
		cmocka_unit_test(test_name),
		cmocka_unit_test(test_seconds),
		cmocka_unit_test(test_human),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
