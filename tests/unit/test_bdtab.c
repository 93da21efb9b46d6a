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

/* Keys 1.. whose home slot is @home, @n of them, into @out. */
static void keys_homed(struct sw_bd_table *t, u32 home, struct sw_bd_key *out,
		       u32 n)
{
	u64 id;
	u32 got = 0;

	for (id = 1; got < n; id++) {
		struct sw_bd_key k = id_key(id);

		assert_true(id < 10000000);
		if (sw_bd_home(t, &k) == home)
			out[got++] = k;
	}
}

static void test_window_bounded(void **state)
{
	struct sw_bd_table *t = table(64);
	struct sw_bd_key k[SW_BD_WINDOW + 2], next;
	u32 i, home = 20;

	(void)state;
	/* One more key than the window holds, all homed at one slot. */
	keys_homed(t, home, k, SW_BD_WINDOW + 2);
	for (i = 0; i < SW_BD_WINDOW; i++)
		assert_ptr_equal(sw_bd_lookup(t, &k[i]),
				 &t->slots[home + i]);
	/* The window is full: other, though 56 slots are free. */
	assert_ptr_equal(sw_bd_find(t, &k[SW_BD_WINDOW]), &t->other);
	sw_stats_add(&sw_bd_lookup(t, &k[SW_BD_WINDOW])->st, 1);
	sw_stats_add(&sw_bd_lookup(t, &k[SW_BD_WINDOW + 1])->st, 1);
	assert_int_equal(t->used, SW_BD_WINDOW);
	assert_int_equal(t->other.st.count, 2);
	/* Found again at their rows: a full window still finds its keys. */
	for (i = 0; i < SW_BD_WINDOW; i++)
		assert_ptr_equal(sw_bd_find(t, &k[i]), &t->slots[home + i]);
	/* A key homed one further reaches the free slot after the window. */
	keys_homed(t, home + 1, &next, 1);
	assert_ptr_equal(sw_bd_lookup(t, &next),
			 &t->slots[home + SW_BD_WINDOW]);
	free(t);
}

static void test_window_wraps(void **state)
{
	struct sw_bd_table *t = table(16);
	struct sw_bd_key k[SW_BD_WINDOW + 1];
	u32 i;

	(void)state;
	/* Homed at the last slot: the window wraps to slots 0..6. */
	keys_homed(t, 15, k, SW_BD_WINDOW + 1);
	for (i = 0; i < SW_BD_WINDOW; i++)
		assert_ptr_equal(sw_bd_lookup(t, &k[i]),
				 &t->slots[(15 + i) % 16]);
	assert_ptr_equal(sw_bd_lookup(t, &k[SW_BD_WINDOW]), &t->other);
	assert_int_equal(t->slots[7].used, 0);
	free(t);
}

/*
 * Many more keys than slots: every call lands in a row or in other (the
 * totals add up), no key has two rows, and each key is where find says.
 */
static void test_overflow_adds_up(void **state)
{
	const u32 nslots = 1000, nkeys = 5000;
	struct sw_bd_table *t = table(nslots);
	u64 total = 0, calls = 0;
	u32 i, j, rows = 0;

	(void)state;
	for (i = 0; i < nkeys; i++) {
		struct sw_bd_key k = id_key(7 * i + 3);

		for (j = 0; j <= i % 3; j++, calls++)
			sw_bd_slot_add(sw_bd_lookup(t, &k), 10, 0, 0, NULL);
	}
	for (i = 0; i < nslots; i++) {
		total += t->slots[i].st.count;
		rows += t->slots[i].used;
		for (j = 0; t->slots[i].used && j < nslots; j++)
			assert_true(j == i || !t->slots[j].used ||
				    t->slots[j].key.id !=
					    t->slots[i].key.id);
	}
	assert_int_equal(rows, t->used);
	assert_true(t->used <= nslots);
	assert_true(t->other.st.count > 0);
	assert_int_equal(total + t->other.st.count, calls);
	for (i = 0; i < nkeys; i++) {
		struct sw_bd_key k = id_key(7 * i + 3);
		struct sw_bd_slot *s = sw_bd_find(t, &k);

		assert_true(s == &t->other || (s->used && s->key.id == k.id));
	}
	free(t);
}

/* Homes spread over the whole table, not a part of it. */
static void test_homes_spread(void **state)
{
	struct sw_bd_table *t = table(100);
	u32 hits[100] = { 0 }, i, empty = 0;

	(void)state;
	for (i = 0; i < 10000; i++) {
		struct sw_bd_key k = id_key(i);
		u32 h = sw_bd_home(t, &k);

		assert_true(h < 100);
		hits[h]++;
	}
	for (i = 0; i < 100; i++)
		empty += !hits[i];
	assert_int_equal(empty, 0);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_then_other),
		cmocka_unit_test(test_comm_keys),
		cmocka_unit_test(test_single_slot),
		cmocka_unit_test(test_pairs_and_events),
		cmocka_unit_test(test_window_bounded),
		cmocka_unit_test(test_window_wraps),
		cmocka_unit_test(test_overflow_adds_up),
		cmocka_unit_test(test_homes_spread),
	};

	return cmocka_run_group_tests_name("bdtab", tests, NULL, NULL);
}
