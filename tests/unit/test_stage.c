// SPDX-License-Identifier: GPL-2.0
/*
 * test_stage.c - the sampler's per-CPU staging ring (sampler/stage.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../sampler/stage.h"
#include "../../include/stopwatch/abi.h"

#define RING 4096

static uint8_t mem[RING];

/* Produces one record of @len bytes whose payload is @tag. */
static int produce(struct sw_stage *s, u32 len, u32 tag)
{
	struct sw_rec_header *h = sw_stage_reserve(s, len);

	if (!h)
		return 0;
	h->type = SW_REC_SAMPLE;
	h->flags = 0;
	h->size = len;
	h->time = tag;
	sw_stage_commit(s, len);
	return 1;
}

static u32 consume(struct sw_stage *s, u64 *tag)
{
	struct sw_rec_header *h;
	u32 len;

	h = sw_stage_peek(s, &len);
	if (!h)
		return 0;
	*tag = h->time;
	sw_stage_consume(s, len);
	return len;
}

static void test_empty(void **state)
{
	struct sw_stage s;
	u32 len;

	(void)state;
	sw_stage_init(&s, mem, RING);
	assert_null(sw_stage_peek(&s, &len));
	assert_int_equal(sw_stage_used(&s), 0);
}

static void test_fifo_order(void **state)
{
	struct sw_stage s;
	u64 tag;
	u32 i;

	(void)state;
	sw_stage_init(&s, mem, RING);
	for (i = 0; i < 10; i++)
		assert_true(produce(&s, 48 + 8 * i, i));
	for (i = 0; i < 10; i++) {
		assert_int_equal(consume(&s, &tag), 48 + 8 * i);
		assert_int_equal(tag, i);
	}
	assert_int_equal(consume(&s, &tag), 0);
	assert_int_equal(sw_stage_used(&s), 0);
}

static void test_full_refuses_never_overwrites(void **state)
{
	struct sw_stage s;
	u32 n = 0, i;
	u64 tag;

	(void)state;
	sw_stage_init(&s, mem, RING);
	while (produce(&s, 64, n))
		n++;
	assert_int_equal(n, RING / 64);
	/* the oldest record is intact */
	for (i = 0; i < n; i++) {
		assert_int_equal(consume(&s, &tag), 64);
		assert_int_equal(tag, i);
	}
}

static void test_wrap_marker(void **state)
{
	struct sw_stage s;
	u64 tag, expect = 0, made = 0;
	int round;

	(void)state;
	sw_stage_init(&s, mem, RING);
	/* sizes that do not divide the ring force wrap markers */
	for (round = 0; round < 2000; round++) {
		u32 len = 48 + 8 * (round % 37);

		while (!produce(&s, len, made)) {
			assert_true(consume(&s, &tag) > 0);
			assert_int_equal(tag, expect);
			expect++;
		}
		made++;
	}
	while (consume(&s, &tag)) {
		assert_int_equal(tag, expect);
		expect++;
	}
	assert_int_equal(expect, made);
}

static void test_shrink_and_abandon(void **state)
{
	struct sw_stage s;
	struct sw_rec_header *h;
	u64 tag;

	(void)state;
	sw_stage_init(&s, mem, RING);
	/* reserve the maximum, commit less */
	h = sw_stage_reserve(&s, 1024);
	assert_non_null(h);
	h->type = SW_REC_SAMPLE;
	h->size = 48;
	h->time = 7;
	sw_stage_commit(&s, 48);
	assert_int_equal(sw_stage_used(&s), 48);
	/* a reservation never committed leaves nothing behind */
	assert_non_null(sw_stage_reserve(&s, 512));
	assert_int_equal(consume(&s, &tag), 48);
	assert_int_equal(tag, 7);
	assert_int_equal(consume(&s, &tag), 0);
}

static void test_bad_lengths(void **state)
{
	struct sw_stage s;

	(void)state;
	sw_stage_init(&s, mem, RING);
	assert_null(sw_stage_reserve(&s, RING / 2 + 8));
	assert_null(sw_stage_reserve(&s, 44));
}

static void test_corruption_empties(void **state)
{
	struct sw_stage s;
	struct sw_rec_header *h;
	u32 len;

	(void)state;
	sw_stage_init(&s, mem, RING);
	assert_true(produce(&s, 64, 1));
	h = (struct sw_rec_header *)mem;
	h->size = 12;	/* not a multiple of 8 */
	assert_null(sw_stage_peek(&s, &len));
	assert_int_equal(sw_stage_used(&s), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_fifo_order),
		cmocka_unit_test(test_full_refuses_never_overwrites),
		cmocka_unit_test(test_wrap_marker),
		cmocka_unit_test(test_shrink_and_abandon),
		cmocka_unit_test(test_bad_lengths),
		cmocka_unit_test(test_corruption_empties),
	};

	return cmocka_run_group_tests_name("stage", tests, NULL, NULL);
}
