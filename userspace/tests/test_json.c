// SPDX-License-Identifier: GPL-2.0
/*
 * test_json.c - JSON string escaping and UTF-8 validation.
 */
#include "helpers.h"
#include "base/json.h"
#include "base/utf8.h"

static void check_str(const char *in, const char *want)
{
	char *out = NULL;

	CAPTURE(out, sw_json_str(f, in));
	assert_string_equal(out, want);
	free(out);
}

static void test_plain(void **state)
{
	(void)state;
	check_str("", "\"\"");
	check_str("vfs_read", "\"vfs_read\"");
	check_str("kworker/0:1", "\"kworker/0:1\"");
}

static void test_escapes(void **state)
{
	(void)state;
	check_str("say\"hi\"", "\"say\\\"hi\\\"\"");
	check_str("back\\slash", "\"back\\\\slash\"");
	check_str("a\nb\tc\rd\be\ff", "\"a\\nb\\tc\\rd\\be\\ff\"");
	check_str("\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"");
	check_str("/", "\"/\"");
}

static void test_utf8(void **state)
{
	(void)state;
	check_str("na\xc3\xafve", "\"na\xc3\xafve\"");
	check_str("\xe2\x82\xac", "\"\xe2\x82\xac\"");
	check_str("\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"");
	/* Bytes outside valid UTF-8 become \u00XX. */
	check_str("bad\xffname", "\"bad\\u00ffname\"");
	check_str("\xc3", "\"\\u00c3\"");
	check_str("\xc3(", "\"\\u00c3(\"");
	check_str("\xc0\xaf", "\"\\u00c0\\u00af\"");		/* overlong */
	check_str("\xed\xa0\x80", "\"\\u00ed\\u00a0\\u0080\"");	/* surrogate */
	check_str("\xf4\x90\x80\x80", "\"\\u00f4\\u0090\\u0080\\u0080\"");
	check_str("\x80", "\"\\u0080\"");
}

static void test_utf8_seq(void **state)
{
	(void)state;
	assert_int_equal(sw_utf8_seq((const unsigned char *)"\xc3\xaf"), 2);
	assert_int_equal(sw_utf8_seq((const unsigned char *)"\xe2\x82\xac"), 3);
	assert_int_equal(sw_utf8_seq((const unsigned char *)"\xf0\x9f\x98\x80"), 4);
	assert_int_equal(sw_utf8_seq((const unsigned char *)"\xf4\x8f\xbf\xbf"), 4);
	assert_int_equal(sw_utf8_seq((const unsigned char *)"\xe0\x80\x80"), 0);
	assert_int_equal(sw_utf8_seq((const unsigned char *)"\xf0\x80\x80\x80"), 0);
	assert_int_equal(sw_utf8_seq((const unsigned char *)"\xc1\xbf"), 0);
	assert_int_equal(sw_utf8_seq((const unsigned char *)"\xe2\x82"), 0);
	assert_int_equal(sw_utf8_seq((const unsigned char *)"\xff"), 0);
}

static void test_key_u64(void **state)
{
	char *out = NULL;

	(void)state;
	CAPTURE(out, {
		sw_json_key(f, "calls");
		sw_json_u64(f, UINT64_MAX);
		fputc(',', f);
		sw_json_key(f, "a\"b");
		sw_json_u64(f, 0);
	});
	assert_string_equal(out, "\"calls\":18446744073709551615,\"a\\\"b\":0");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_utf8_seq),
		cmocka_unit_test(test_key_u64),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
