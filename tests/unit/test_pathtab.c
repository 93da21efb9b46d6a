// SPDX-License-Identifier: GPL-2.0
/*
 * test_pathtab.c - the call-path node identities, from lib/pathtab.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <cmocka.h>

#include "pathtab.h"

static struct sw_pathtab *table(u32 max_nodes)
{
	struct sw_pathtab *t = calloc(1, sizeof(*t));

	t->bits = sw_pathtab_bits(max_nodes);
	t->keys = calloc(sw_pathtab_slots(t), sizeof(*t->keys));
	return t;
}

static void table_free(struct sw_pathtab *t)
{
	free(t->keys);
	free(t);
}

static void test_bits(void **state)
{
	(void)state;
	assert_int_equal(sw_pathtab_bits(1), 1);
	assert_int_equal(sw_pathtab_bits(2), 1);
	assert_int_equal(sw_pathtab_bits(3), 2);
	assert_int_equal(sw_pathtab_bits(4), 2);
	assert_int_equal(sw_pathtab_bits(1000), 10);
	assert_int_equal(sw_pathtab_bits(1024), 10);
	assert_int_equal(sw_pathtab_bits(1025), 11);
}

/* The same (parent, probe) is the same node; another is another. */
static void test_same_key_same_node(void **state)
{
	struct sw_pathtab *t = table(64);
	u32 a, b, c, a2;

	(void)state;
	a = sw_pathtab_node(t, 0, 1);
	b = sw_pathtab_node(t, a, 2);
	c = sw_pathtab_node(t, b, 2);
	assert_true(a && b && c);
	assert_int_not_equal(a, b);
	assert_int_not_equal(b, c);
	a2 = sw_pathtab_node(t, 0, 1);
	assert_int_equal(a, a2);
	assert_int_equal(sw_pathtab_node(t, a, 2), b);
	/* The same probe under another parent is another node. */
	assert_int_not_equal(sw_pathtab_node(t, 0, 2), b);
	table_free(t);
}

/* A chain reads back outermost first. */
static void test_chain(void **state)
{
	struct sw_pathtab *t = table(64);
	u32 probes[SW_PATH_MAX_DEPTH], node = 0, i;
	int n;

	(void)state;
	for (i = 1; i <= 10; i++)
		node = sw_pathtab_node(t, node, 100 + i);
	n = sw_pathtab_chain(t, node, probes, SW_PATH_MAX_DEPTH);
	assert_int_equal(n, 10);
	for (i = 0; i < 10; i++)
		assert_int_equal(probes[i], 101 + i);
	/* Too little room, a free slot, an id out of range: -EINVAL. */
	assert_int_equal(sw_pathtab_chain(t, node, probes, 9), -EINVAL);
	assert_int_equal(sw_pathtab_chain(t, sw_pathtab_slots(t) + 1, probes, 4),
			 -EINVAL);
	for (i = 0; i < sw_pathtab_slots(t); i++)
		if (!t->keys[i])
			break;
	assert_int_equal(sw_pathtab_chain(t, i + 1, probes, 4), -EINVAL);
	table_free(t);
}

/*
 * A small table fills up exactly: every slot used, then 0 for new keys,
 * and the keys in it are still found.
 */
static void test_full(void **state)
{
	struct sw_pathtab *t = table(8);
	u32 ids[8], i;

	(void)state;
	assert_int_equal(sw_pathtab_slots(t), 8);
	for (i = 0; i < 8; i++) {
		ids[i] = sw_pathtab_node(t, 0, i + 1);
		assert_in_range(ids[i], 1, 8);
	}
	assert_int_equal(sw_pathtab_node(t, 0, 9), 0);
	assert_int_equal(sw_pathtab_node(t, ids[3], 1), 0);
	for (i = 0; i < 8; i++)
		assert_int_equal(sw_pathtab_node(t, 0, i + 1), ids[i]);
	table_free(t);
}

/*
 * A large table: a window of SW_PATH_WINDOW slots per key, so it takes
 * most of the slots before the first drop, and ids stay distinct.
 */
static void test_large(void **state)
{
	struct sw_pathtab *t = table(4096);
	u32 i, made = 0;
	char *seen = calloc(4097, 1);

	(void)state;
	for (i = 1; i <= 4096; i++) {
		u32 id = sw_pathtab_node(t, i % 7, i);

		if (!id)
			break;
		assert_false(seen[id]);
		seen[id] = 1;
		made++;
	}
	assert_true(made > 4096 * 3 / 4);
	free(seen);
	table_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bits),
		cmocka_unit_test(test_same_key_same_node),
		cmocka_unit_test(test_chain),
		cmocka_unit_test(test_full),
		cmocka_unit_test(test_large),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
