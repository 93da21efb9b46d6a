// SPDX-License-Identifier: GPL-2.0
/*
 * test_hist.c - parsing and printing of @hist_log histograms.
 */
#include <errno.h>

#include "helpers.h"
#include "hist_samples.h"
#include "control/hist.h"

static struct sw_hist_set *parse_ok(const char *text, const char *probe)
{
	struct sw_hist_set *s = NULL;
	struct sw_err err = { "" };
	int ret = sw_hist_parse(text, probe, "hist", &s, &err);

	if (ret)
		fail_msg("parse failed (%d): %s", ret, err.msg);
	return s;
}

static void expect_error(const char *text, const char *probe, int want,
			 const char *msg)
{
	struct sw_hist_set *s = (struct sw_hist_set *)1;
	struct sw_err err = { "" };

	assert_int_equal(sw_hist_parse(text, probe, "hist/p", &s, &err), want);
	assert_null(s);
	assert_string_equal(err.msg, msg);
}

/* Only the listed buckets may be nonzero. */
static void expect_buckets(const struct sw_hist *h, const int *b,
			   const uint64_t *c, int n)
{
	int i, k;

	for (i = 0; i < SW_HIST_BUCKETS; i++) {
		uint64_t want = 0;

		for (k = 0; k < n; k++)
			if (b[k] == i)
				want = c[k];
		if (h->bucket[i] != want)
			fail_msg("bucket %d: %llu, want %llu", i,
				 (unsigned long long)h->bucket[i],
				 (unsigned long long)want);
	}
}

static void test_parse_kernel(void **state)
{
	static const int b[] = { 10, 11, 12, 17 };
	static const uint64_t c[] = { 1, 99, 20, 3 };
	struct sw_hist_set *s = parse_ok(kernel_vfs_read, "vfs_read");

	(void)state;
	assert_int_equal(s->n, 1);
	assert_string_equal(s->hist[0].unit, "ns");
	assert_true(s->hist[0].calls == 123);
	expect_buckets(&s->hist[0], b, c, 4);
	assert_true(sw_hist_total(&s->hist[0]) == 123);
	assert_int_equal(sw_hist_top(&s->hist[0]), 17);
	sw_hist_set_free(s);
}

static void test_parse_edges(void **state)
{
	static const int b[] = { 0, 1, 64 };
	static const uint64_t c[] = { 5, 3, 1 };
	struct sw_hist_set *s = parse_ok(kernel_edges, NULL);

	(void)state;
	expect_buckets(&s->hist[0], b, c, 3);
	assert_int_equal(sw_hist_top(&s->hist[0]), 64);
	sw_hist_set_free(s);
}

static void test_parse_empty(void **state)
{
	struct sw_hist_set *s = parse_ok(kernel_empty, "x");

	(void)state;
	assert_int_equal(s->n, 1);
	assert_true(s->hist[0].calls == 0);
	expect_buckets(&s->hist[0], NULL, NULL, 0);
	assert_int_equal(sw_hist_top(&s->hist[0]), -1);
	assert_true(sw_hist_total(&s->hist[0]) == 0);
	sw_hist_set_free(s);
}

/* The layout of the issue text: misaligned label, '~' under the bar. */
static void test_parse_loose_layout(void **state)
{
	static const int b[] = { 11, 12, 18 };
	static const uint64_t c[] = { 100, 20, 3 };
	static const char text[] =
		"vfs_read: ns, 123 calls\n"
		"value |-------------------------------------------------- count\n"
		"  256 |                                                    0\n"
		"  512 |                                                    0\n"
		" 1024 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 100\n"
		" 2048 |@@@@@@@@@                                           20\n"
		" 4096 |                                                    0\n"
		"      ~\n"
		"65536 |                                                    0\n"
		"131072 |@                                                  3\n";
	struct sw_hist_set *s = parse_ok(text, "vfs_read");

	(void)state;
	expect_buckets(&s->hist[0], b, c, 3);
	sw_hist_set_free(s);
}

static void test_parse_sections(void **state)
{
	static const int b[] = { 20, 21, 30 };
	static const uint64_t c[] = { 7, 1, 2 };
	char text[4096];
	struct sw_hist_set *s;

	(void)state;
	/* A blank line between sections is allowed. */
	snprintf(text, sizeof(text), "%s\n%s", kernel_empty, kernel_cycles);
	s = parse_ok(text, NULL);
	assert_int_equal(s->n, 2);
	assert_string_equal(s->hist[0].unit, "ns");
	expect_buckets(&s->hist[0], NULL, NULL, 0);
	assert_string_equal(s->hist[1].unit, "cycles");
	assert_true(s->hist[1].calls == 10);
	expect_buckets(&s->hist[1], b, c, 3);
	sw_hist_set_free(s);
	/* With a probe given, every title must name it. */
	expect_error(text, "x", -EINVAL,
		     "hist/p: line 4: title names probe 'h', expected 'x'");
}

static void test_parse_sections_same_probe(void **state)
{
	static const char text[] =
		"h: ns, 1 calls\n"
		"value |-------------------------------------------------- count\n"
		"    0 |                                                   0\n"
		"    1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 1\n"
		"h: cycles, 1 calls\n"
		"value |-------------------------------------------------- count\n"
		" 1024 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 1\n";
	struct sw_hist_set *s = parse_ok(text, "h");

	(void)state;
	assert_int_equal(s->n, 2);
	assert_string_equal(s->hist[0].unit, "ns");
	assert_string_equal(s->hist[1].unit, "cycles");
	assert_true(s->hist[1].bucket[11] == 1);
	assert_true(s->hist[0].bucket[1] == 1);
	assert_ptr_equal(sw_hist_find(s, "cycles"), &s->hist[1]);
	assert_null(sw_hist_find(s, "instructions"));
	assert_null(sw_hist_find(NULL, "ns"));
	sw_hist_set_free(s);
}

static void check_roundtrip(const char *text, const char *probe)
{
	struct sw_hist_set *s = parse_ok(text, probe);
	char *out = NULL;

	CAPTURE(out, assert_int_equal(sw_hist_fprint(f, probe, &s->hist[0]), 0));
	assert_string_equal(out, text);
	free(out);
	sw_hist_set_free(s);
}

static void test_roundtrip(void **state)
{
	(void)state;
	check_roundtrip(kernel_vfs_read, "vfs_read");
	check_roundtrip(kernel_edges, "f");
	check_roundtrip(kernel_huge, "g");
	check_roundtrip(kernel_cycles, "h");
	check_roundtrip(kernel_empty, "x");
	check_roundtrip(kernel_single, "one");
}

static void test_print_fixed(void **state)
{
	struct sw_hist h = { .unit = "ns", .calls = 4 };
	char *out = NULL;

	(void)state;
	h.bucket[3] = 2;
	h.bucket[9] = 2;
	CAPTURE(out, sw_hist_fprint(f, "p", &h));
	assert_string_equal(out,
		"p: ns, 4 calls\n"
		"value |-------------------------------------------------- count\n"
		"    1 |                                                   0\n"
		"    2 |                                                   0\n"
		"    4 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 2\n"
		"    8 |                                                   0\n"
		"   16 |                                                   0\n"
		"      ~\n"
		"   64 |                                                   0\n"
		"  128 |                                                   0\n"
		"  256 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 2\n"
		"  512 |                                                   0\n"
		" 1024 |                                                   0\n");
	free(out);
}

static void test_bucket_of(void **state)
{
	(void)state;
	assert_int_equal(sw_hist_bucket_of(0), 0);
	assert_int_equal(sw_hist_bucket_of(1), 1);
	assert_int_equal(sw_hist_bucket_of(2), 2);
	assert_int_equal(sw_hist_bucket_of(1024), 11);
	assert_int_equal(sw_hist_bucket_of(1ULL << 63), 64);
	assert_int_equal(sw_hist_bucket_of(3), -1);
	assert_int_equal(sw_hist_bucket_of(1000), -1);
	assert_true(sw_hist_low(0) == 0);
	assert_true(sw_hist_low(11) == 1024);
	assert_true(sw_hist_low(64) == 1ULL << 63);
}

static void test_total_saturates(void **state)
{
	struct sw_hist h = { .unit = "ns" };

	(void)state;
	h.bucket[1] = UINT64_MAX - 1;
	h.bucket[2] = 5;
	assert_true(sw_hist_total(&h) == UINT64_MAX);
}

#define TITLE "p: ns, 1 calls\n"
#define HEADER "value |-------------------------------------------------- count\n"

static void test_errors(void **state)
{
	(void)state;
	expect_error("", NULL, -ENODATA, "hist/p: empty: no histogram");
	expect_error("\n\n", NULL, -ENODATA, "hist/p: empty: no histogram");
	expect_error(TITLE, NULL, -EINVAL,
		     "hist/p: line 1: missing the 'value |---...--- count' header");
	expect_error(TITLE "    1 |@ 1\n", NULL, -EINVAL,
		     "hist/p: line 2: expected the 'value |---...--- count' header: '1 |@ 1'");
	expect_error(HEADER "    1 |@ 1\n", NULL, -EINVAL,
		     "hist/p: line 1: expected a title '<probe>: <unit>, <calls> calls' first: 'value |-------------------------------------------------- count'");
	expect_error("garbage\n", NULL, -EINVAL,
		     "hist/p: line 1: expected a title '<probe>: <unit>, <calls> calls': 'garbage'");
	expect_error("p: ns, x calls\n" HEADER, NULL, -EINVAL,
		     "hist/p: line 1: expected a title '<probe>: <unit>, <calls> calls': 'p: ns, x calls'");
	expect_error("p: ns 1 calls\n" HEADER, NULL, -EINVAL,
		     "hist/p: line 1: expected a title '<probe>: <unit>, <calls> calls': 'p: ns 1 calls'");
	expect_error(TITLE HEADER, "q", -EINVAL,
		     "hist/p: line 1: title names probe 'p', expected 'q'");
	expect_error(TITLE HEADER "    1 |@ x\n", NULL, -EINVAL,
		     "hist/p: line 3: count is not a number: '1 |@ x'");
	expect_error(TITLE HEADER "    1 |@\n", NULL, -EINVAL,
		     "hist/p: line 3: count is not a number: '1 |@'");
	expect_error(TITLE HEADER "    3 |@ 1\n", NULL, -EINVAL,
		     "hist/p: line 3: bucket value is not 0 or a power of two: '3 |@ 1'");
	expect_error(TITLE HEADER "  abc |@ 1\n", NULL, -EINVAL,
		     "hist/p: line 3: bucket value is not a number: 'abc |@ 1'");
	expect_error(TITLE HEADER "    1 |@#@ 1\n", NULL, -EINVAL,
		     "hist/p: line 3: bar holds characters other than '@': '1 |@#@ 1'");
	expect_error(TITLE HEADER "    4 |@ 1\n    2 |@ 1\n", NULL, -EINVAL,
		     "hist/p: line 4: bucket out of order: '2 |@ 1'");
	expect_error(TITLE HEADER "    4 |@ 1\n    4 |@ 1\n", NULL, -EINVAL,
		     "hist/p: line 4: bucket out of order: '4 |@ 1'");
	expect_error(TITLE HEADER "    ~\n", NULL, -EINVAL,
		     "hist/p: line 3: '~' before the first bucket: '~'");
	expect_error(TITLE HEADER "    1 |@ 1\n  1 2 3\n", NULL, -EINVAL,
		     "hist/p: line 4: expected a row '<value> |<bar> <count>' or a title '<probe>: <unit>, <calls> calls': '1 2 3'");
	expect_error(TITLE HEADER TITLE HEADER, NULL, -EINVAL,
		     "hist/p: line 3: second 'ns' histogram");
	expect_error(TITLE "p: cycles, 1 calls\n" HEADER, NULL, -EINVAL,
		     "hist/p: line 2: expected the 'value |---...--- count' header: 'p: cycles, 1 calls'");
	expect_error("p: ns, 99999999999999999999 calls\n" HEADER, NULL,
		     -EINVAL,
		     "hist/p: line 1: expected a title '<probe>: <unit>, <calls> calls': 'p: ns, 99999999999999999999 calls'");
}

/*
 * The module's real output (fixtures/<arch>/hist/, captured in the VM by
 * scripts/capture-fixtures.sh): every section parses, its title's call
 * count is the sum of its buckets, and printing what was parsed gives the
 * file back byte for byte (sections separated by a blank line, as the
 * module writes them).
 */
static void check_captured(const char *arch, const char *probe,
			   const char *const *units, size_t nunits)
{
	char path[256], *text, *out = NULL;
	struct sw_hist_set *s;
	size_t i;

	snprintf(path, sizeof(path), "fixtures/%s/hist/%s", arch, probe);
	text = read_text(path);
	s = parse_ok(text, probe);
	assert_int_equal(s->n, nunits);
	for (i = 0; i < nunits; i++) {
		assert_string_equal(s->hist[i].unit, units[i]);
		assert_true(s->hist[i].calls >= 3000);
		assert_true(sw_hist_total(&s->hist[i]) == s->hist[i].calls);
	}
	CAPTURE(out, for (i = 0; i < s->n; i++) {
		if (i)
			fputc('\n', f);
		assert_int_equal(sw_hist_fprint(f, probe, &s->hist[i]), 0);
	});
	assert_string_equal(out, text);
	free(out);
	free(text);
	sw_hist_set_free(s);
}

static void test_captured(void **state)
{
	static const char *const arm64[] = { "ns", "cycles", "instructions" };
	static const char *const x86[] = { "ns", "cpu-clock",
					   "context-switches" };

	(void)state;
	check_captured("arm64", "vfs_read", arm64, 3);
	check_captured("arm64", "vfs_write", arm64, 3);
	check_captured("x86_64", "vfs_read", x86, 3);
	check_captured("x86_64", "vfs_write", x86, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_kernel),
		cmocka_unit_test(test_parse_edges),
		cmocka_unit_test(test_parse_empty),
		cmocka_unit_test(test_parse_loose_layout),
		cmocka_unit_test(test_parse_sections),
		cmocka_unit_test(test_parse_sections_same_probe),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_captured),
		cmocka_unit_test(test_print_fixed),
		cmocka_unit_test(test_bucket_of),
		cmocka_unit_test(test_total_saturates),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
