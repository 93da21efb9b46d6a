// SPDX-License-Identifier: GPL-2.0
/*
 * test_table.c - whitespace tables with a header line, strict u64 parsing,
 * octal unescaping.
 */
#include <errno.h>

#include "helpers.h"
#include "base/table.h"

static const char stats_text[] =
	"probe                         calls       min_ns   missed\n"
	"vfs_read                        123          812        0\n"
	"\n"
	"vfs_write                      4567          300       12\n";

static void test_parse_basic(void **state)
{
	struct sw_table *t = NULL;
	struct sw_err err = { "" };

	(void)state;
	assert_int_equal(sw_table_parse(stats_text, "stats", &t, &err), 0);
	assert_int_equal(t->ncols, 4);
	assert_int_equal(t->nrows, 2);
	assert_string_equal(t->col[0], "probe");
	assert_string_equal(t->col[3], "missed");
	assert_string_equal(sw_table_at(t, 0, 0), "vfs_read");
	assert_string_equal(sw_table_at(t, 0, 2), "812");
	assert_string_equal(sw_table_at(t, 1, 0), "vfs_write");
	assert_string_equal(sw_table_at(t, 1, 3), "12");
	/* The blank line is skipped but still counted. */
	assert_int_equal(t->line[0], 2);
	assert_int_equal(t->line[1], 4);
	assert_int_equal(sw_table_col(t, "min_ns"), 2);
	assert_int_equal(sw_table_col(t, "max_ns"), -1);
	sw_table_free(t);
}

static void test_header_only(void **state)
{
	struct sw_table *t = NULL;

	(void)state;
	assert_int_equal(sw_table_parse("probe calls\n", "s", &t, NULL), 0);
	assert_int_equal(t->ncols, 2);
	assert_int_equal(t->nrows, 0);
	sw_table_free(t);
}

static void test_no_trailing_newline_tabs(void **state)
{
	struct sw_table *t = NULL;

	(void)state;
	assert_int_equal(sw_table_parse("a\tb\r\n1\t2", "s", &t, NULL), 0);
	assert_int_equal(t->nrows, 1);
	assert_string_equal(sw_table_at(t, 0, 1), "2");
	sw_table_free(t);
}

static void test_missing_header(void **state)
{
	struct sw_table *t = (struct sw_table *)1;
	struct sw_err err = { "" };

	(void)state;
	assert_int_equal(sw_table_parse("", "stats", &t, &err), -ENODATA);
	assert_null(t);
	assert_string_equal(err.msg, "stats: empty: missing the header line");
	assert_int_equal(sw_table_parse(" \n\t\n", "stats", &t, &err),
			 -ENODATA);
}

static void test_short_row(void **state)
{
	struct sw_table *t = NULL;
	struct sw_err err = { "" };

	(void)state;
	assert_int_equal(sw_table_parse("a b c\n1 2 3\n  x 2\n", "stats", &t,
					&err), -EINVAL);
	assert_null(t);
	assert_string_equal(err.msg,
			    "stats: line 3: 2 fields where the header has 3: 'x 2'");
}

static void test_long_row(void **state)
{
	struct sw_table *t = NULL;
	struct sw_err err = { "" };

	(void)state;
	assert_int_equal(sw_table_parse("a b\n1 2 3\n", "f", &t, &err),
			 -EINVAL);
	assert_string_equal(err.msg,
			    "f: line 2: 3 fields where the header has 2: '1 2 3'");
}

static void test_duplicate_column(void **state)
{
	struct sw_table *t = NULL;
	struct sw_err err = { "" };

	(void)state;
	assert_int_equal(sw_table_parse("probe calls calls\n", "f", &t, &err),
			 -EINVAL);
	assert_string_equal(err.msg,
			    "f: line 1: column 'calls' appears twice in the header");
}

static void test_many_rows(void **state)
{
	struct sw_table *t = NULL;
	char *text = malloc(100 * 16 + 16), *p = text;
	int i;

	(void)state;
	p += sprintf(p, "probe calls\n");
	for (i = 0; i < 100; i++)
		p += sprintf(p, "f%d %d\n", i, i * 7);
	assert_int_equal(sw_table_parse(text, "f", &t, NULL), 0);
	assert_int_equal(t->nrows, 100);
	assert_string_equal(sw_table_at(t, 99, 0), "f99");
	assert_string_equal(sw_table_at(t, 99, 1), "693");
	sw_table_free(t);
	free(text);
}

static void test_parse_u64(void **state)
{
	uint64_t v = 7;

	(void)state;
	assert_int_equal(sw_parse_u64("0", &v), 0);
	assert_true(v == 0);
	assert_int_equal(sw_parse_u64("283023", &v), 0);
	assert_true(v == 283023);
	assert_int_equal(sw_parse_u64("18446744073709551615", &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(sw_parse_u64("18446744073709551616", &v), -ERANGE);
	assert_int_equal(sw_parse_u64("99999999999999999999", &v), -ERANGE);
	assert_int_equal(sw_parse_u64("", &v), -EINVAL);
	assert_int_equal(sw_parse_u64("-1", &v), -EINVAL);
	assert_int_equal(sw_parse_u64("+1", &v), -EINVAL);
	assert_int_equal(sw_parse_u64("12a", &v), -EINVAL);
	assert_int_equal(sw_parse_u64(" 1", &v), -EINVAL);
	assert_int_equal(sw_parse_u64("0x10", &v), -EINVAL);
	assert_int_equal(sw_parse_u64("1.5", &v), -EINVAL);
	assert_true(v == UINT64_MAX);	/* untouched by failures */
}

static void check_unescape(const char *in, const char *want)
{
	char *out = sw_unescape_octal(in);

	assert_non_null(out);
	assert_string_equal(out, want);
	free(out);
}

static void test_unescape(void **state)
{
	(void)state;
	check_unescape("my\\040task", "my task");
	check_unescape("back\\134slash", "back\\slash");
	check_unescape("tab\\011here\\012", "tab\there\n");
	check_unescape("plain", "plain");
	check_unescape("", "");
	check_unescape("\\04", "\\04");		/* too short */
	check_unescape("\\089", "\\089");	/* not octal */
	check_unescape("\\477", "\\477");	/* above \377 */
	check_unescape("end\\", "end\\");
	check_unescape("\\377", "\xff");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_basic),
		cmocka_unit_test(test_header_only),
		cmocka_unit_test(test_no_trailing_newline_tabs),
		cmocka_unit_test(test_missing_header),
		cmocka_unit_test(test_short_row),
		cmocka_unit_test(test_long_row),
		cmocka_unit_test(test_duplicate_column),
		cmocka_unit_test(test_many_rows),
		cmocka_unit_test(test_parse_u64),
		cmocka_unit_test(test_unescape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
