// SPDX-License-Identifier: GPL-2.0
/*
 * test_evcall.c - per-call segment accounting, from lib/evcall.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "evcall.h"

/* Fills @s with @n readings: count = base + i, gap = gap. */
static void samples(struct sw_ctr_sample *s, unsigned int n, u64 base, u64 gap)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		s[i].count = base + i;
		s[i].gap = gap;
	}
}

static void test_one_segment(void **state)
{
	struct sw_ctr_sample s[2];
	struct sw_evcall c;

	(void)state;
	samples(s, 2, 1000, 5);
	sw_evcall_init(&c, 2, s, 0);
	samples(s, 2, 1700, 5);
	sw_evcall_end(&c, 2, s, 0);
	assert_int_equal(c.bad, 0);
	assert_int_equal(c.acc[0], 700);
	assert_int_equal(c.acc[1], 700);
	assert_int_equal(c.open, 0);
}

/* Sleeping, other threads running, returning on another CPU's counters. */
static void test_segments_skip_other_threads(void **state)
{
	struct sw_ctr_sample s[1];
	struct sw_evcall c;

	(void)state;
	samples(s, 1, 100, 0);
	sw_evcall_init(&c, 1, s, 0);
	samples(s, 1, 150, 0);		/* switched out after 50 */
	sw_evcall_end(&c, 1, s, 0);
	/* other threads ran 1e9 events here: never seen */
	samples(s, 1, 7000000, 42);	/* switched in on another CPU */
	sw_evcall_begin(&c, 1, s, 0);
	samples(s, 1, 7000030, 42);	/* returns 30 later */
	sw_evcall_end(&c, 1, s, 0);
	assert_int_equal(c.bad, 0);
	assert_int_equal(c.acc[0], 80);
}

/* A counter that stopped counting in a segment: that event only is bad. */
static void test_gap_growth_marks_bad(void **state)
{
	struct sw_ctr_sample s[3];
	struct sw_evcall c;

	(void)state;
	samples(s, 3, 0, 10);
	sw_evcall_init(&c, 3, s, 0);
	samples(s, 3, 100, 10);
	s[1].gap = 11;			/* multiplexed out for 1 ns */
	sw_evcall_end(&c, 3, s, 0);
	assert_int_equal(c.bad, 1U << 1);
	assert_int_equal(c.acc[0], 100);
	assert_int_equal(c.acc[2], 100);
	/* Later good segments do not make it good again. */
	samples(s, 3, 200, 11);
	sw_evcall_begin(&c, 3, s, 0);
	samples(s, 3, 300, 11);
	sw_evcall_end(&c, 3, s, 0);
	assert_int_equal(c.bad, 1U << 1);
	assert_int_equal(c.acc[0], 200);
}

static void test_inactive_or_missing_counter(void **state)
{
	struct sw_ctr_sample s[2];
	struct sw_evcall c;

	(void)state;
	samples(s, 2, 0, 0);
	sw_evcall_init(&c, 2, s, 1U << 0);	/* no counter at entry */
	samples(s, 2, 10, 0);
	sw_evcall_end(&c, 2, s, 0);
	assert_int_equal(c.bad, 1U << 0);
	samples(s, 2, 20, 0);
	sw_evcall_begin(&c, 2, s, 0);
	samples(s, 2, 30, 0);
	sw_evcall_end(&c, 2, s, 1U << 1);	/* in error at return */
	assert_int_equal(c.bad, 3);
}

static void test_counter_going_backwards(void **state)
{
	struct sw_ctr_sample s[1];
	struct sw_evcall c;

	(void)state;
	samples(s, 1, 500, 0);
	sw_evcall_init(&c, 1, s, 0);
	samples(s, 1, 499, 0);
	sw_evcall_end(&c, 1, s, 0);
	assert_int_equal(c.bad, 1);
}

/* Missed switches: unbalanced begin/end poison every event. */
static void test_unbalanced(void **state)
{
	struct sw_ctr_sample s[2];
	struct sw_evcall c;

	(void)state;
	samples(s, 2, 0, 0);
	sw_evcall_init(&c, 2, s, 0);
	sw_evcall_begin(&c, 2, s, 0);
	assert_int_equal(c.bad, SW_EVCALL_ALL_BAD);

	sw_evcall_init(&c, 2, s, 0);
	assert_int_equal(c.bad, 0);
	sw_evcall_end(&c, 2, s, 0);
	sw_evcall_end(&c, 2, s, 0);
	assert_int_equal(c.bad, SW_EVCALL_ALL_BAD);
}

/* Full 64-bit counts: no truncation to a hardware width. */
static void test_wide_counts(void **state)
{
	struct sw_ctr_sample s[1];
	struct sw_evcall c;

	(void)state;
	samples(s, 1, 0xfffffff0ULL, 0);
	sw_evcall_init(&c, 1, s, 0);
	samples(s, 1, 0x100000010ULL, 0);
	sw_evcall_end(&c, 1, s, 0);
	assert_int_equal(c.acc[0], 0x20);
	samples(s, 1, (1ULL << 62), 0);
	sw_evcall_begin(&c, 1, s, 0);
	samples(s, 1, (1ULL << 62) + (1ULL << 40), 0);
	sw_evcall_end(&c, 1, s, 0);
	assert_true(c.acc[0] == (1ULL << 40) + 0x20);
}

static void test_all_events(void **state)
{
	struct sw_ctr_sample s[SW_MAX_EVENTS];
	struct sw_evcall c;
	int i;

	(void)state;
	samples(s, SW_MAX_EVENTS, 0, 0);
	sw_evcall_init(&c, SW_MAX_EVENTS, s, 0);
	samples(s, SW_MAX_EVENTS, 10, 0);
	sw_evcall_end(&c, SW_MAX_EVENTS, s, 1U << (SW_MAX_EVENTS - 1));
	assert_int_equal(c.bad, 1U << (SW_MAX_EVENTS - 1));
	for (i = 0; i < SW_MAX_EVENTS - 1; i++)
		assert_int_equal(c.acc[i], 10);
}

static void test_cpi(void **state)
{
	(void)state;
	assert_true(sw_cpi_milli(100, 0) == SW_CPI_NONE);
	assert_true(sw_cpi_milli(0, 0) == SW_CPI_NONE);
	assert_int_equal(sw_cpi_milli(0, 5), 0);
	assert_int_equal(sw_cpi_milli(100, 100), 1000);
	assert_int_equal(sw_cpi_milli(1, 3), 333);
	assert_int_equal(sw_cpi_milli(25, 10), 2500);
	/* Large counts: no overflow in cycles * 1000. */
	assert_int_equal(sw_cpi_milli(1ULL << 62, 1ULL << 61), 2000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_segment),
		cmocka_unit_test(test_segments_skip_other_threads),
		cmocka_unit_test(test_gap_growth_marks_bad),
		cmocka_unit_test(test_inactive_or_missing_counter),
		cmocka_unit_test(test_counter_going_backwards),
		cmocka_unit_test(test_unbalanced),
		cmocka_unit_test(test_wide_counts),
		cmocka_unit_test(test_all_events),
		cmocka_unit_test(test_cpi),
	};

	return cmocka_run_group_tests_name("evcall", tests, NULL, NULL);
}
