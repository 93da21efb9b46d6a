// SPDX-License-Identifier: GPL-2.0
/*
 * test_display.c - the table, JSON and Prometheus writers, against golden
 * files in tests/golden/ made from the fixtures.
 *
 * After an intended change of output, rewrite the golden files with
 *   SW_REGEN_GOLDEN=1 make -C userspace test
 * and review the diff.
 */
#include <errno.h>

#include "helpers.h"
#include "output/stat-display.h"

#define FIXED_TIME 1700000000123456789ULL

static struct sw_snapshot *load(const char *dir, bool hist, bool bd)
{
	struct sw_snapshot_opts o = { .hist = hist, .breakdown = bd };
	struct sw_snapshot *s = NULL;
	struct sw_err err = { "" };

	if (sw_snapshot_load(dir, &o, &s, &err))
		fail_msg("load %s: %s", dir, err.msg);
	s->time_ns = FIXED_TIME;
	return s;
}

enum fmt { TABLE, JSON, PROM };

static char *render(const struct sw_snapshot *s, enum fmt fmt, bool hist,
		    bool bd, bool human)
{
	struct sw_display_opts o = { .hist = hist, .breakdown = bd,
				     .human = human };
	char *out = NULL;

	CAPTURE(out, {
		int ret = fmt == TABLE ? sw_print_table(f, s, &o) :
			  fmt == JSON ? sw_print_json(f, s, &o) :
					sw_print_prom(f, s, &o);
		assert_int_equal(ret, 0);
	});
	return out;
}

static void golden(const char *name, const char *out)
{
	char path[128];
	char *want;

	snprintf(path, sizeof(path), "golden/%s", name);
	if (getenv("SW_REGEN_GOLDEN")) {
		FILE *f = fopen(path, "w");

		assert_non_null(f);
		fputs(out, f);
		assert_int_equal(fclose(f), 0);
		return;
	}
	want = read_text(path);
	assert_string_equal(out, want);
	free(want);
}

static void check_golden(const char *dir, const char *name, enum fmt fmt,
			 bool hist, bool bd, bool human)
{
	struct sw_snapshot *s = load(dir, hist, bd);
	char *out = render(s, fmt, hist, bd, human);

	golden(name, out);
	free(out);
	sw_snapshot_free(s);
}

static void test_golden(void **state)
{
	(void)state;
	check_golden("fixtures/basic", "basic.txt", TABLE, true, true, false);
	check_golden("fixtures/basic", "basic-nohist-human.txt", TABLE, false,
		     false, true);
	check_golden("fixtures/basic", "basic.json", JSON, true, true, false);
	check_golden("fixtures/basic", "basic.prom", PROM, true, true, false);
	check_golden("fixtures/basic", "basic-nohist.prom", PROM, false, false,
		     false);
	check_golden("fixtures/pmu", "pmu.txt", TABLE, true, true, false);
	check_golden("fixtures/pmu", "pmu.json", JSON, true, true, false);
	check_golden("fixtures/pmu", "pmu.prom", PROM, true, true, false);
}

static void test_table_exact(void **state)
{
	struct sw_snapshot *s = NULL;
	char *out;

	(void)state;
	assert_int_equal(sw_snapshot_parse_stats(
		"probe calls avg_ns\nf 5 1500\nlonger_name 12345 7\n",
		"stats", NULL, &s, NULL), 0);
	out = render(s, TABLE, false, false, false);
	assert_string_equal(out,
			    "probe        calls  avg_ns\n"
			    "f                5    1500\n"
			    "longer_name  12345       7\n");
	free(out);
	out = render(s, TABLE, false, false, true);
	assert_string_equal(out,
			    "probe        calls      avg\n"
			    "f                5  1.50 us\n"
			    "longer_name  12345     7 ns\n");
	free(out);
	sw_snapshot_free(s);
}

static void test_json_exact(void **state)
{
	struct sw_snapshot *s = NULL;
	char *out;

	(void)state;
	assert_int_equal(sw_snapshot_parse_stats(
		"probe calls cycles_min\nf 18446744073709551615 3\n",
		"stats", NULL, &s, NULL), 0);
	s->time_ns = 42;
	out = render(s, JSON, false, false, false);
	assert_string_equal(out,
			    "{\"time_ns\":42,\"probes\":[{\"probe\":\"f\","
			    "\"calls\":18446744073709551615,\"cycles_min\":3}]}\n");
	free(out);
	/* Histograms asked for but none read: an empty object. */
	out = render(s, JSON, true, false, false);
	assert_non_null(strstr(out, "\"cycles_min\":3,\"hist\":{}}"));
	free(out);
	sw_snapshot_free(s);
}

static void test_json_hist_values(void **state)
{
	struct sw_snapshot *s = load("fixtures/basic", true, false);
	char *out = render(s, JSON, true, false, false);

	(void)state;
	assert_non_null(strstr(out,
			       "\"hist\":{\"ns\":[{\"low\":512,\"count\":1},"
			       "{\"low\":1024,\"count\":99},"
			       "{\"low\":2048,\"count\":20},"
			       "{\"low\":65536,\"count\":3}]}"));
	assert_non_null(strstr(out, "\"probe\":\"do_sys_openat2\",\"calls\":0,"));
	assert_non_null(strstr(out, "\"hist\":{\"ns\":[]}"));
	assert_null(strstr(out, "breakdown"));
	free(out);
	sw_snapshot_free(s);
}

static void test_prom_values(void **state)
{
	struct sw_snapshot *s = load("fixtures/basic", true, true);
	char *out = render(s, PROM, true, true, false);
	static const char *const lines[] = {
		"# TYPE stopwatch_calls_total counter\n",
		"\nstopwatch_calls_total{probe=\"vfs_read\"} 123\n",
		"\nstopwatch_missed_total{probe=\"vfs_write\",cause=\"maxactive\"} 12\n",
		"\nstopwatch_missed_total{probe=\"vfs_write\",cause=\"reentry\"} 0\n",
		"\nstopwatch_migrated_total{probe=\"vfs_write\"} 3\n",
		"\nstopwatch_duration_min_seconds{probe=\"vfs_read\"} 0.000000812\n",
		"\nstopwatch_duration_avg_seconds{probe=\"vfs_read\"} 0.000002301\n",
		"\nstopwatch_duration_max_seconds{probe=\"vfs_read\"} 0.000090211\n",
		"\nstopwatch_duration_stddev_seconds{probe=\"vfs_read\"} 0.00000441\n",
		"# TYPE stopwatch_duration_seconds histogram\n",
		/* buckets 0..9 empty, bucket 10 = [512, 1024) holds 1 */
		"\nstopwatch_duration_seconds_bucket{probe=\"vfs_read\",le=\"0.000000512\"} 0\n",
		"\nstopwatch_duration_seconds_bucket{probe=\"vfs_read\",le=\"0.000001024\"} 1\n",
		"\nstopwatch_duration_seconds_bucket{probe=\"vfs_read\",le=\"0.000002048\"} 100\n",
		"\nstopwatch_duration_seconds_bucket{probe=\"vfs_read\",le=\"0.000004096\"} 120\n",
		"\nstopwatch_duration_seconds_bucket{probe=\"vfs_read\",le=\"0.000131072\"} 123\n",
		"\nstopwatch_duration_seconds_bucket{probe=\"vfs_read\",le=\"1099.511627776\"} 123\n",
		"\nstopwatch_duration_seconds_bucket{probe=\"vfs_read\",le=\"+Inf\"} 123\n",
		"\nstopwatch_duration_seconds_sum{probe=\"vfs_read\"} 0.000283023\n",
		"\nstopwatch_duration_seconds_count{probe=\"vfs_read\"} 123\n",
		"\nstopwatch_duration_seconds_bucket{probe=\"do_sys_openat2\",le=\"+Inf\"} 0\n",
		"\nstopwatch_breakdown_calls_total{probe=\"vfs_read\",pid=\"1234\"} 100\n",
		"\nstopwatch_breakdown_calls_total{probe=\"vfs_read\",pid=\"other\"} 3\n",
		"\nstopwatch_breakdown_duration_seconds_total{probe=\"vfs_write\",pid=\"4242\"} 0.0068505\n",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(lines) / sizeof(*lines); i++)
		if (!strstr(out, lines[i]))
			fail_msg("missing line: %s", lines[i]);
	/* Past the fixed range only when some bucket needs it. */
	assert_null(strstr(out, "le=\"2199.023255552\""));
	/* "missed" is the sum of the causes: no family of its own. */
	assert_null(strstr(out, "stopwatch_missed{"));
	free(out);
	sw_snapshot_free(s);
}

static void test_prom_no_hist(void **state)
{
	struct sw_snapshot *s = load("fixtures/basic", false, false);
	char *out = render(s, PROM, false, false, false);

	(void)state;
	assert_non_null(strstr(out,
			       "stopwatch_duration_seconds_bucket{probe=\"vfs_write\",le=\"+Inf\"} 4567\n"
			       "stopwatch_duration_seconds_sum{probe=\"vfs_write\"} 0.0068505\n"
			       "stopwatch_duration_seconds_count{probe=\"vfs_write\"} 4567\n"));
	assert_null(strstr(out, "le=\"0.000000001\""));
	free(out);
	sw_snapshot_free(s);
}

static void test_prom_wide_bucket(void **state)
{
	struct sw_snapshot *s = load("fixtures/basic", true, false);
	struct sw_hist *h = &s->probe[0].hist->hist[0];
	char *out;

	(void)state;
	h->bucket[64] = 1;
	out = render(s, PROM, true, false, false);
	/* Every probe gets the same le set, up to the highest bucket. */
	assert_non_null(strstr(out,
			       "stopwatch_duration_seconds_bucket{probe=\"vfs_read\",le=\"18446744073.709551616\"} 124\n"
			       "stopwatch_duration_seconds_bucket{probe=\"vfs_read\",le=\"+Inf\"} 124\n"));
	assert_non_null(strstr(out,
			       "stopwatch_duration_seconds_bucket{probe=\"vfs_write\",le=\"18446744073.709551616\"} 4567\n"));
	free(out);
	sw_snapshot_free(s);
}

static void test_unknown_columns_prom(void **state)
{
	struct sw_snapshot *s = NULL;
	char *out;

	(void)state;
	assert_int_equal(sw_snapshot_parse_stats(
		"probe calls cycles_min cycles_total weird-col\nf 2 7 99 5\n",
		"stats", NULL, &s, NULL), 0);
	out = render(s, PROM, false, false, false);
	assert_string_equal(out,
		"# HELP stopwatch_calls_total Calls measured\n"
		"# TYPE stopwatch_calls_total counter\n"
		"stopwatch_calls_total{probe=\"f\"} 2\n"
		"# HELP stopwatch_duration_seconds Call duration, log2 buckets (le is the exclusive upper bound 2^b ns)\n"
		"# TYPE stopwatch_duration_seconds histogram\n"
		"stopwatch_duration_seconds_bucket{probe=\"f\",le=\"+Inf\"} 2\n"
		"stopwatch_duration_seconds_count{probe=\"f\"} 2\n"
		"# HELP stopwatch_cycles_min Column cycles_min of the stats file\n"
		"# TYPE stopwatch_cycles_min gauge\n"
		"stopwatch_cycles_min{probe=\"f\"} 7\n"
		"# HELP stopwatch_cycles_total Column cycles_total of the stats file\n"
		"# TYPE stopwatch_cycles_total gauge\n"
		"stopwatch_cycles_total{probe=\"f\"} 99\n"
		"# HELP stopwatch_weird_col Column weird-col of the stats file\n"
		"# TYPE stopwatch_weird_col gauge\n"
		"stopwatch_weird_col{probe=\"f\"} 5\n");
	free(out);
	sw_snapshot_free(s);
}

static void test_missed(void **state)
{
	struct sw_snapshot *s = load("fixtures/pmu", false, false);
	struct sw_snapshot *b = load("fixtures/basic", false, false);
	char *out = NULL;

	(void)state;
	CAPTURE(out, assert_int_equal(sw_print_missed(f, s, NULL), 1));
	assert_string_equal(out,
			    "stopwatch: tcp_sendmsg.isra.0: 5 calls missed (maxactive 2, reentry 3)\n");
	free(out);
	/* Unchanged since the previous snapshot: quiet. */
	CAPTURE(out, assert_int_equal(sw_print_missed(f, s, s), 0));
	assert_string_equal(out, "");
	free(out);
	/* The previous snapshot did not have the probe. */
	CAPTURE(out, assert_int_equal(sw_print_missed(f, s, b), 1));
	free(out);
	sw_snapshot_free(s);
	sw_snapshot_free(b);

	assert_int_equal(sw_snapshot_parse_stats("probe calls missed\nf 1 1\n",
						 "stats", NULL, &s, NULL), 0);
	CAPTURE(out, sw_print_missed(f, s, NULL));
	assert_string_equal(out, "stopwatch: f: 1 call missed\n");
	free(out);
	sw_snapshot_free(s);
}

static void test_write_error(void **state)
{
	struct sw_snapshot *s = load("fixtures/basic", true, true);
	struct sw_display_opts o = { .hist = true, .breakdown = true };
	FILE *f = fopen("/dev/full", "w");

	(void)state;
	if (!f)
		skip();
	setvbuf(f, NULL, _IONBF, 0);
	assert_int_equal(sw_print_table(f, s, &o), -EIO);
	clearerr(f);
	assert_int_equal(sw_print_json(f, s, &o), -EIO);
	clearerr(f);
	assert_int_equal(sw_print_prom(f, s, &o), -EIO);
	fclose(f);
	sw_snapshot_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden),
		cmocka_unit_test(test_table_exact),
		cmocka_unit_test(test_json_exact),
		cmocka_unit_test(test_json_hist_values),
		cmocka_unit_test(test_prom_values),
		cmocka_unit_test(test_prom_no_hist),
		cmocka_unit_test(test_prom_wide_bucket),
		cmocka_unit_test(test_unknown_columns_prom),
		cmocka_unit_test(test_missed),
		cmocka_unit_test(test_write_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
