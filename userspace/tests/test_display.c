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
#include "base/units.h"
#include "lib/attachtab.h"
#include "output/correct.h"
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

/*
 * TABLE: every column (-v, --raw); HUMAN: the default table; HUMAN_PCT:
 * the default table with the percentiles (-P).
 */
enum fmt { TABLE, JSON, PROM, HUMAN, HUMAN_PCT };

static char *render(const struct sw_snapshot *s, enum fmt fmt, bool hist,
		    bool bd, bool human)
{
	struct sw_display_opts o = { .hist = hist, .breakdown = bd,
				     .human = human,
				     .all = fmt != HUMAN && fmt != HUMAN_PCT,
				     .percentiles = fmt == HUMAN_PCT };
	char *out = NULL;

	CAPTURE(out, {
		int ret = fmt == TABLE || fmt == HUMAN || fmt == HUMAN_PCT ?
				  sw_print_table(f, s, &o) :
			  fmt == JSON ? sw_print_json(f, s, &o) :
					sw_print_prom(f, s, &o);
		assert_int_equal(ret, 0);
	});
	return out;
}

static void check_golden(const char *dir, const char *name, enum fmt fmt,
			 bool hist, bool bd, bool human)
{
	struct sw_snapshot *s = load(dir, hist, bd);
	char *out = render(s, fmt, hist, bd, human);

	assert_golden(name, out);
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
	check_golden("fixtures/basic", "basic-default.txt", HUMAN, true, true,
		     false);
	check_golden("fixtures/pmu", "pmu-default.txt", HUMAN, false, false,
		     false);
	check_golden("fixtures/x86_64", "x86_64-default.txt", HUMAN, true,
		     false, false);
	check_golden("fixtures/arm64", "arm64-default.txt", HUMAN, false, false,
		     false);
	check_golden("fixtures/x86_64", "x86_64-percentiles.txt", HUMAN_PCT,
		     false, false, false);
	check_golden("fixtures/x86_64", "x86_64.prom", PROM, true, false,
		     false);
}

/*
 * stat --correct on the real x86_64 fixture (the module's one window_ns,
 * the same on every probe): min, avg and the percentiles less it, never
 * below 0, max as measured; the default table marks every row and says
 * what was taken off (golden), -v says it under the grid, JSON marks each
 * probe.
 */
static void test_correct_fixture(void **state)
{
	struct sw_snapshot *raw = load("fixtures/x86_64", false, false);
	struct sw_snapshot *s = load("fixtures/x86_64", false, false);
	struct sw_display_opts o = { .percentiles = true };
	int cmin = sw_snapshot_col(s, "min_ns"), cavg = sw_snapshot_col(s, "avg_ns");
	int cmax = sw_snapshot_col(s, "max_ns"), cp99 = sw_snapshot_col(s, "p99_ns");
	int cw = sw_snapshot_col(s, "window_ns");
	uint64_t *window, w, w0;
	char *out = NULL, want[128];
	size_t i;

	(void)state;
	assert_true(cmin >= 0 && cavg >= 0 && cmax >= 0 && cp99 >= 0 && cw >= 0);
	window = sw_correct_all(s);
	assert_non_null(window);
	assert_true(s->nprobes > 0);
	w0 = raw->probe[0].val[cw];
	assert_true(w0 > 0);
	for (i = 0; i < s->nprobes; i++) {
		const uint64_t *v = raw->probe[i].val;

		w = v[cw];
		assert_true(w == w0 && window[i] == w);
		assert_true(s->probe[i].val[cmin] == (v[cmin] > w ? v[cmin] - w : 0));
		assert_true(s->probe[i].val[cavg] == (v[cavg] > w ? v[cavg] - w : 0));
		assert_true(s->probe[i].val[cp99] == (v[cp99] > w ? v[cp99] - w : 0));
		assert_true(s->probe[i].val[cmax] == v[cmax]);
	}
	o.window = window;
	CAPTURE(out, assert_int_equal(sw_print_table(f, s, &o), 0));
	assert_golden("x86_64-correct.txt", out);
	free(out);
	o.all = true;
	CAPTURE(out, assert_int_equal(sw_print_table(f, s, &o), 0));
	snprintf(want, sizeof(want),
		 "\n# * corrected for the probe: %llu ns subtracted from min, avg and percentiles",
		 (unsigned long long)w0);
	assert_non_null(strstr(out, want));
	free(out);
	CAPTURE(out, assert_int_equal(sw_print_json(f, s, &o), 0));
	assert_non_null(strstr(out, "{\"probe\":\"vfs_read\",\"corrected\":true,"));
	free(out);
	o.window = NULL;
	CAPTURE(out, assert_int_equal(sw_print_json(f, s, &o), 0));
	assert_null(strstr(out, "corrected"));
	free(out);
	free(window);
	sw_snapshot_free(s);
	sw_snapshot_free(raw);
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

static void test_units(void **state)
{
	char buf[SW_UNITS_LEN];

	(void)state;
	assert_string_equal(sw_fmt_count(buf, 0), "0");
	assert_string_equal(sw_fmt_count(buf, 999), "999");
	assert_string_equal(sw_fmt_count(buf, 1000), "1,000");
	assert_string_equal(sw_fmt_count(buf, 20000), "20,000");
	assert_string_equal(sw_fmt_count(buf, 1234567), "1,234,567");
	assert_string_equal(sw_fmt_count(buf, UINT64_MAX),
			    "18,446,744,073,709,551,615");
	assert_string_equal(sw_fmt_dur(buf, 0), "0 ns");
	assert_string_equal(sw_fmt_dur(buf, 812), "812 ns");
	assert_string_equal(sw_fmt_dur(buf, 999), "999 ns");
	assert_string_equal(sw_fmt_dur(buf, 1000), "1.00 \xc2\xb5s");
	assert_string_equal(sw_fmt_dur(buf, 2301), "2.30 \xc2\xb5s");
	assert_string_equal(sw_fmt_dur(buf, 9996), "10.0 \xc2\xb5s");
	assert_string_equal(sw_fmt_dur(buf, 90211), "90.2 \xc2\xb5s");
	assert_string_equal(sw_fmt_dur(buf, 999499), "999 \xc2\xb5s");
	assert_string_equal(sw_fmt_dur(buf, 999500), "1.00 ms");
	assert_string_equal(sw_fmt_dur(buf, 298237630), "298 ms");
	/* Seconds keep the unit's two columns: units line up. */
	assert_string_equal(sw_fmt_dur(buf, 1500000000), "1.50 s ");
	assert_string_equal(sw_fmt_dur(buf, 4000000000000ULL), "4000 s ");
}

/* A column of zeros is left out, a loss is kept and flagged, calls stay. */
static void test_human_columns(void **state)
{
	struct sw_snapshot *s = NULL;
	char *out;

	(void)state;
	assert_int_equal(sw_snapshot_parse_stats(
		"probe calls min_ns avg_ns missed miss_maxactive miss_reentry migrated filtered\n"
		"f 5 1400 1500 0 0 0 0 0\n"
		"longer_name 1234567 7 7 3 0 3 0 0\n"
		"idle 0 0 0 0 0 0 0 0\n",
		"stats", NULL, &s, NULL), 0);
	out = render(s, HUMAN, false, false, false);
	assert_string_equal(out,
		"probe            calls      min      avg  missed\n"
		"f                    5  1.40 \xc2\xb5s  1.50 \xc2\xb5s      0 \n"
		"longer_name  1,234,567     7 ns     7 ns      3!\n"
		"idle                 0        -        -      0 \n"
		"! missed: 3 calls not measured: hit while another probe handler ran on their CPU\n");
	free(out);
	sw_snapshot_free(s);
	/* Nothing called: calls only. */
	assert_int_equal(sw_snapshot_parse_stats(
		"probe calls min_ns missed\nf 0 0 0\n", "stats", NULL, &s, NULL),
		0);
	out = render(s, HUMAN, false, false, false);
	assert_string_equal(out, "probe  calls\nf          0\n");
	free(out);
	sw_snapshot_free(s);
	/* A filter's choice is flagged '*', not '!'; one call is "call". */
	assert_int_equal(sw_snapshot_parse_stats(
		"probe calls min_ns missed filtered\nf 5 1000 1 7\n", "stats",
		NULL, &s, NULL), 0);
	out = render(s, HUMAN, false, false, false);
	assert_string_equal(out,
		"probe  calls      min  missed  filtered\n"
		"f          5  1.00 \xc2\xb5s      1!        7*\n"
		"! missed: 1 call not measured\n"
		"* filtered: 7 calls left out at entry by the probe's filters (pid, comm, cgroup, cpu)\n");
	free(out);
	sw_snapshot_free(s);
}

/* attach in words; one shared reason said once, several per row. */
static void test_human_attach(void **state)
{
	struct sw_snapshot *s = NULL;
	char *out;

	(void)state;
	assert_int_equal(sw_snapshot_parse_stats(
		"probe calls attach attach_err detached\n"
		"a 1 0 61 0\nb 2 0 95 0\nc 3 1 0 1\nd 4 2 0 0\n",
		"stats", NULL, &s, NULL), 0);
	out = render(s, HUMAN, false, false, false);
	assert_string_equal(out,
		"probe  calls  attach\n"
		"a          1  kretprobe (no argument count)\n"
		"b          2  kretprobe (no direct calls)\n"
		"c          3  trampoline, detached!\n"
		"d          4  uprobe\n"
		"attach: kretprobe (no argument count): its argument count is unknown (give args=N)\n"
		"attach: kretprobe (no direct calls): this kernel or architecture has no ftrace direct calls for stopwatch\n"
		"! detached: 1 probe whose function (or tracepoint) went with its module: they count nothing more\n");
	free(out);
	sw_snapshot_free(s);
	assert_int_equal(sw_snapshot_parse_stats(
		"probe calls attach attach_err\na 1 0 61\nb 2 0 61\nc 3 1 0\n",
		"stats", NULL, &s, NULL), 0);
	out = render(s, HUMAN, false, false, false);
	assert_string_equal(out,
		"probe  calls  attach\n"
		"a          1  kretprobe\n"
		"b          2  kretprobe\n"
		"c          3  trampoline\n"
		"attach: kretprobe (no argument count): its argument count is unknown (give args=N)\n");
	free(out);
	sw_snapshot_free(s);
	/* The module's table of reasons: every errno it returns has words. */
	assert_string_equal(sw_attach_why(EOPNOTSUPP)->brief, "no direct calls");
	assert_string_equal(sw_attach_why(-ENODATA)->brief, "no argument count");
	assert_string_equal(sw_attach_why(12345)->brief, "ftrace refused");
	assert_null(sw_attach_name(3));
}

/*
 * The real fixtures (captured from the module): the default table has no
 * column of zeros, its calls are the histograms' totals, attach in words.
 */
static void test_human_fixtures(void **state)
{
	static const char *const dirs[] = { "fixtures/x86_64", "fixtures/arm64",
					    "fixtures/basic" };
	size_t d, i, c;

	(void)state;
	for (d = 0; d < sizeof(dirs) / sizeof(*dirs); d++) {
		struct sw_snapshot *s = load(dirs[d], true, false);
		struct sw_human_rows hr = { 0 };
		struct sw_htable t;
		int cc = sw_snapshot_col(s, "calls");

		assert_int_equal(sw_human_build(&t, s, &hr), 0);
		for (c = 0; c < t.ncols; c++) {
			bool any = false;

			if (!sw_htable_shown(&t, c))
				continue;
			for (i = 0; t.col[c].v && i < t.nrows; i++)
				any |= t.col[c].v[i] != 0;
			if (t.col[c].v && !any && !t.col[c].keep)
				fail_msg("%s: column %s shown with zeros",
					 dirs[d], t.col[c].head);
		}
		for (i = 0; i < s->nprobes; i++) {
			const struct sw_hist *h =
				sw_hist_find(s->probe[i].hist, "ns");

			if (h)
				assert_int_equal(sw_hist_total(h),
						 s->probe[i].val[cc]);
		}
		sw_htable_free(&t);
		sw_snapshot_free(s);
	}
}

/* span_stats for people: one row as lines (span), rows as a table (stat). */
static void test_human_spans(void **state)
{
	static const char text[] =
		"span calls min_ns avg_ns max_ns stddev_ns total_ns migrated in_flight started unmatched dropped_full abandoned missed filtered detached\n"
		"q1 6 8800000 8810000 8900000 1000 52860000 0 0 6 0 2 0 0 0 0\n"
		"idle 0 0 0 0 0 0 0 0 0 3 0 0 0 0 0\n";
	struct sw_table *tab = NULL;
	char *out = NULL;

	(void)state;
	assert_int_equal(sw_table_parse(text, "span_stats", &tab, NULL), 0);
	CAPTURE(out, {
		assert_int_equal(sw_print_text_table(f, tab, "span", false, 0,
						     NULL), 0);
	});
	assert_string_equal(out,
		"span  calls      min      avg      max   stddev    total  started  unmatched  dropped_full\n"
		"q1        6  8.80 ms  8.81 ms  8.90 ms  1.00 \xc2\xb5s  52.9 ms        6          0            2!\n"
		"idle      0        -        -        -        -        -        0          3            0 \n"
		"! dropped_full: 2 starts dropped: the table of starts in flight was full (raise --slots)\n");
	free(out);
	sw_table_free(tab);
	assert_int_equal(sw_table_parse(
		"span calls min_ns avg_ns max_ns stddev_ns total_ns started unmatched abandoned\n"
		"wq 1234 10 20 30 5 24680 1300 0 66\n", "span_stats", &tab, NULL), 0);
	CAPTURE(out, {
		assert_int_equal(sw_print_text_table(f, tab, "span", true, 0,
						     NULL), 0);
	});
	assert_string_equal(out,
		"wq\n"
		"  calls        1,234\n"
		"  min          10 ns\n"
		"  avg          20 ns\n"
		"  max          30 ns\n"
		"  stddev        5 ns\n"
		"  total      24.7 \xc2\xb5s\n"
		"  started      1,300\n"
		"  abandoned      66!\n"
		"! abandoned: 66 starts abandoned: no stop came within the age limit (--age)\n");
	free(out);
	sw_table_free(tab);
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
		cmocka_unit_test(test_correct_fixture),
		cmocka_unit_test(test_table_exact),
		cmocka_unit_test(test_json_exact),
		cmocka_unit_test(test_json_hist_values),
		cmocka_unit_test(test_prom_values),
		cmocka_unit_test(test_prom_no_hist),
		cmocka_unit_test(test_prom_wide_bucket),
		cmocka_unit_test(test_unknown_columns_prom),
		cmocka_unit_test(test_missed),
		cmocka_unit_test(test_write_error),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_human_columns),
		cmocka_unit_test(test_human_attach),
		cmocka_unit_test(test_human_fixtures),
		cmocka_unit_test(test_human_spans),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
