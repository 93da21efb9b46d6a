// SPDX-License-Identifier: GPL-2.0
/*
 * test_bdtab.c - the bounded breakdown table, from lib/bdtab.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <cmocka.h>

#include "bdtab.h"

static struct sw_bd_table *table(u32 nslots)
{
	struct sw_bd_table *t = malloc(sw_bd_table_size(nslots));

	sw_bd_table_init(t, nslots);
	return t;
}

static struct sw_bd_key id_key(u64 id)
{
	struct sw_bd_key k = { .id = id };

	return k;
}

static void test_rows_then_other(void **state)
{
	struct sw_bd_table *t = table(4);
	struct sw_bd_key k;
	u64 total = 0;
	u32 i;

	(void)state;
	for (i = 0; i < 6; i++) {
		int calls = i + 1, j;

		k = id_key(1000 + i);
		for (j = 0; j < calls; j++)
			sw_stats_add(&sw_bd_lookup(t, &k)->st, 10 * (i + 1));
	}
	assert_int_equal(t->used, 4);
	/* Keys 1000..1003 got rows; 1004 (5 calls) and 1005 (6) are other. */
	assert_int_equal(t->other.st.count, 11);
	for (i = 0; i < 4; i++) {
		k = id_key(1000 + i);
		assert_int_equal(sw_bd_lookup(t, &k)->st.count, i + 1);
	}
	for (i = 0; i < t->nslots; i++)
		total += t->slots[i].st.count;
	assert_int_equal(total + t->other.st.count, 21);
	free(t);
}

static void test_comm_keys(void **state)
{
	struct sw_bd_table *t = table(8);
	struct sw_bd_key a = { .id = 0 }, b = { .id = 0 }, n = id_key(0);

	(void)state;
	memcpy(a.comm, "worker_a", 9);
	memcpy(b.comm, "worker_b", 9);
	sw_stats_add(&sw_bd_lookup(t, &a)->st, 1);
	sw_stats_add(&sw_bd_lookup(t, &b)->st, 2);
	sw_stats_add(&sw_bd_lookup(t, &b)->st, 2);
	assert_int_equal(sw_bd_lookup(t, &a)->st.count, 1);
	assert_int_equal(sw_bd_lookup(t, &b)->st.count, 2);
	/* Key 0 with an empty comm is a key of its own, not a free slot. */
	assert_int_equal(sw_bd_lookup(t, &n)->st.count, 0);
	assert_int_equal(t->used, 3);
	free(t);
}

static void test_single_slot(void **state)
{
	struct sw_bd_table *t = table(1);
	struct sw_bd_key a = id_key(7), b = id_key(8);

	(void)state;
	sw_stats_add(&sw_bd_lookup(t, &a)->st, 5);
	sw_stats_add(&sw_bd_lookup(t, &b)->st, 5);
	sw_stats_add(&sw_bd_lookup(t, &a)->st, 5);
	assert_int_equal(t->slots[0].st.count, 2);
	assert_int_equal(t->other.st.count, 1);
	free(t);
}

static void test_pairs_and_events(void **state)
{
	struct sw_bd_table *t = table(8);
	struct sw_bd_key a = { .id = 1, .id2 = 2 }, b = { .id = 1, .id2 = 3 };
	u64 c1[2] = { 100, 7 }, c2[2] = { 300, 9 };
	struct sw_bd_slot m;

	(void)state;
	/* Keys differing in the second part only are two rows. */
	sw_bd_slot_add(sw_bd_lookup(t, &a), 10, 2, 0, c1);
	sw_bd_slot_add(sw_bd_lookup(t, &a), 30, 2, 2, c2); /* event 1 bad */
	sw_bd_slot_add(sw_bd_lookup(t, &b), 20, 0, 0, NULL);
	assert_int_equal(t->used, 2);
	assert_int_equal(sw_bd_lookup(t, &a)->st.count, 2);
	assert_int_equal(sw_bd_lookup(t, &a)->ev_n[0], 2);
	assert_int_equal(sw_bd_lookup(t, &a)->ev_sum[0], 400);
	assert_int_equal(sw_bd_lookup(t, &a)->ev_n[1], 1);
	assert_int_equal(sw_bd_lookup(t, &a)->ev_sum[1], 7);
	assert_int_equal(sw_bd_lookup(t, &b)->st.count, 1);
	assert_int_equal(sw_bd_lookup(t, &b)->ev_n[0], 0);

	memset(&m, 0, sizeof(m));
	sw_stats_init(&m.st);
	sw_bd_slot_merge(&m, sw_bd_lookup(t, &a));
	sw_bd_slot_merge(&m, sw_bd_lookup(t, &a));
	assert_int_equal(m.st.count, 4);
	assert_int_equal(m.st.sum, 80);
	assert_int_equal(m.ev_sum[0], 800);
	assert_int_equal(m.ev_n[1], 2);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_then_other),
		cmocka_unit_test(test_comm_keys),
		cmocka_unit_test(test_single_slot),
		cmocka_unit_test(test_pairs_and_events),
	};

	return cmocka_run_group_tests_name("bdtab", tests, NULL, NULL);
}
