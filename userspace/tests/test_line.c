// SPDX-License-Identifier: GPL-2.0
/*
 * test_line.c - the line writer (base/line.h) against printf: the same
 * characters for the same values, widths and flags, and lines longer
 * than its buffer written whole.
 */
#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include "helpers.h"
#include "base/line.h"

#undef ARRAY_LEN
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static const uint64_t vals[] = {
	0, 1, 7, 9, 10, 99, 100, 999, 1000, 4001, 65535, 1000000,
	4294967295ULL, 4294967296ULL, 1000000000123ULL, 18446744073709551615ULL,
};
static const size_t widths[] = { 0, 1, 3, 7, 12, 16, 25 };

/* The line's text for one call of @stmt on line @l. */
#define LINE(out, stmt)							\
	CAPTURE(out, {							\
		struct sw_line l;					\
									\
		sw_line_init(&l, f);					\
		stmt;							\
		sw_line_flush(&l);					\
	})

static void test_u64(void **state)
{
	char want[64], *got = NULL;
	size_t i, w;

	(void)state;
	for (i = 0; i < ARRAY_LEN(vals); i++)
		for (w = 0; w < ARRAY_LEN(widths); w++) {
			int wd = (int)widths[w];

			snprintf(want, sizeof(want), "%*" PRIu64, wd, vals[i]);
			LINE(got, sw_line_u64(&l, vals[i], widths[w], 0));
			assert_string_equal(got, want);
			free(got);
			snprintf(want, sizeof(want), "%-*" PRIu64, wd, vals[i]);
			LINE(got, sw_line_u64(&l, vals[i], widths[w],
					      SW_LINE_LEFT));
			assert_string_equal(got, want);
			free(got);
			snprintf(want, sizeof(want), "%0*" PRIu64, wd, vals[i]);
			LINE(got, sw_line_u64(&l, vals[i], widths[w],
					      SW_LINE_ZERO));
			assert_string_equal(got, want);
			free(got);
			snprintf(want, sizeof(want), "%*" PRIx64, wd, vals[i]);
			LINE(got, sw_line_x64(&l, vals[i], widths[w]));
			assert_string_equal(got, want);
			free(got);
		}
}

static void test_i64(void **state)
{
	static const int64_t iv[] = { 0, 1, -1, 42, -42, INT64_MAX, INT64_MIN };
	char want[32], *got = NULL;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_LEN(iv); i++) {
		snprintf(want, sizeof(want), "%" PRId64, iv[i]);
		LINE(got, sw_line_i64(&l, iv[i]));
		assert_string_equal(got, want);
		free(got);
	}
}

/*
 * A fixed value: the integer part, a point and @places digits, in the
 * width, as "%*.*f" prints the same value (here built without floating
 * point, so that 64-bit values are exact).
 */
static void test_fixed(void **state)
{
	static const unsigned int places[] = { 0, 3, 6, 9 };
	char want[64], num[48], *got = NULL;
	size_t i, p, w;

	(void)state;
	for (i = 0; i < ARRAY_LEN(vals); i++)
		for (p = 0; p < ARRAY_LEN(places); p++)
			for (w = 0; w < ARRAY_LEN(widths); w++) {
				uint64_t d = 1;
				unsigned int k;

				for (k = 0; k < places[p]; k++)
					d *= 10;
				if (places[p])
					snprintf(num, sizeof(num),
						 "%" PRIu64 ".%0*" PRIu64,
						 vals[i] / d, (int)places[p],
						 vals[i] % d);
				else
					snprintf(num, sizeof(num), "%" PRIu64,
						 vals[i]);
				snprintf(want, sizeof(want), "%*s",
					 (int)widths[w], num);
				LINE(got, sw_line_fixed(&l, vals[i], places[p],
							widths[w]));
				assert_string_equal(got, want);
				free(got);
			}
	/* what script's "%12.6f" of microseconds and "%12.3f" gave */
	for (i = 0; i < 100000; i++) {
		uint64_t ns = i * 7919 + (i % 1000) * 1000003ULL;

		if (ns % 1000 == 500)
			continue;	/* a tie: printf rounds the double */
		snprintf(want, sizeof(want), "%12.6f %12.3f",
			 (double)ns / 1e9, (double)ns / 1e3);
		LINE(got, {
			sw_line_fixed(&l, ns / 1000 + (ns % 1000 >= 500), 6, 12);
			sw_line_putc(&l, ' ');
			sw_line_fixed(&l, ns, 3, 12);
		});
		assert_string_equal(got, want);
		free(got);
	}
}

/* Strings in widths, left and right; a line longer than the buffer. */
static void test_long(void **state)
{
	char big[3 * SW_LINE_BUF + 17], want[5 * SW_LINE_BUF], *got = NULL;

	(void)state;
	LINE(got, sw_line_str(&l, "symprog", 16, 0));
	assert_string_equal(got, "         symprog");
	free(got);
	LINE(got, sw_line_str(&l, "a-comm-longer-than-16", 16, SW_LINE_LEFT));
	assert_string_equal(got, "a-comm-longer-than-16");
	free(got);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	snprintf(want, sizeof(want), "%s%*s|%s", "head", 700, "", big);
	LINE(got, {
		sw_line_puts(&l, "head");
		sw_line_pad(&l, ' ', 700);
		sw_line_putc(&l, '|');
		sw_line_puts(&l, big);
	});
	assert_string_equal(got, want);
	free(got);
}

/* JSON strings: plain ones directly, the rest as sw_json_str() writes. */
static void test_json(void **state)
{
	static const char *const in[] = { "vfs_read", "", "say\"hi\"",
					  "a\tb", "na\xc3\xafve", "\x7f" };
	static const char *const want[] = { "\"vfs_read\"", "\"\"",
					    "\"say\\\"hi\\\"\"", "\"a\\tb\"",
					    "\"na\xc3\xafve\"", "\"\\u007f\"" };
	char *got = NULL;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_LEN(in); i++) {
		LINE(got, {
			sw_line_putc(&l, '[');
			sw_line_json_str(&l, in[i]);
			sw_line_putc(&l, ']');
		});
		assert_int_equal(got[0], '[');
		assert_int_equal(got[strlen(got) - 1], ']');
		got[strlen(got) - 1] = 0;
		assert_string_equal(got + 1, want[i]);
		free(got);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_u64),
		cmocka_unit_test(test_i64),
		cmocka_unit_test(test_fixed),
		cmocka_unit_test(test_long),
		cmocka_unit_test(test_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
