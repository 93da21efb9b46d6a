// SPDX-License-Identifier: GPL-2.0
/*
 * pathtab.c - the identities of call-path nodes (see pathtab.h).
 */
#include "pathtab.h"

#ifdef __KERNEL__
#include <linux/atomic.h>
#include <linux/hash.h>
#define sw_cmpxchg64(p, o, n) cmpxchg(p, o, n)
#define SW_READ_ONCE(x) READ_ONCE(x)
#else
#define sw_cmpxchg64(p, o, n) __sync_val_compare_and_swap(p, o, n)
#define SW_READ_ONCE(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
/* The kernel's hash_64(): the golden-ratio multiply, top bits. */
static inline u32 hash_64(u64 v, unsigned int bits)
{
	return (u32)((v * 0x61C8864680B583EBull) >> (64 - bits));
}
#endif

/**
 * sw_pathtab_bits() - log2 of the slots of a table for @max_nodes nodes.
 * @max_nodes: 1 or more
 *
 * Return: the bits: @max_nodes rounded up to a power of two (at least 2).
 */
u32 sw_pathtab_bits(u32 max_nodes)
{
	u32 bits = 1;

	while ((1U << bits) < max_nodes && bits < 31)
		bits++;
	return bits;
}

/**
 * sw_pathtab_node() - the node of the path (@parent, @probe), added if new.
 * @t:      the table
 * @parent: node id of the caller's path, 0 when the path starts here
 * @probe:  probe id, 1 or more
 *
 * Looks at the key's window of slots in order: the first one holding the
 * key is the node; the first free one is claimed with compare-and-exchange
 * (a racing writer of the same key makes it the node too).
 *
 * Context: any, NMI included; no locks, no allocation.
 * Return: the node id (slot + 1), or 0 when the window is full.
 */
u32 sw_pathtab_node(struct sw_pathtab *t, u32 parent, u32 probe)
{
	u64 key = sw_path_key(parent, probe), k;
	u32 mask = sw_pathtab_slots(t) - 1;
	u32 h = hash_64(key, t->bits);
	u32 i, n = min_t(u32, SW_PATH_WINDOW, mask + 1);

	for (i = 0; i < n; i++) {
		u32 slot = (h + i) & mask;

		k = SW_READ_ONCE(t->keys[slot]);
		if (k == key)
			return slot + 1;
		if (k)
			continue;
		k = sw_cmpxchg64(&t->keys[slot], 0, key);
		if (!k || k == key)
			return slot + 1;
	}
	return 0;
}
NOKPROBE_SYMBOL(sw_pathtab_node);

/**
 * sw_pathtab_chain() - the probes of a node's path, outermost first.
 * @t:      the table
 * @node:   a node id
 * @probes: output, @max entries
 * @max:    room in @probes
 *
 * Context: any; a reader racing with writers sees each key whole.
 * Return: the path's length, or -EINVAL for a node id out of range, a free
 * slot or a chain longer than @max.
 */
int sw_pathtab_chain(const struct sw_pathtab *t, u32 node, u32 *probes,
		     int max)
{
	int n = 0, i;

	while (node) {
		u64 key;

		if (node > sw_pathtab_slots(t) || n >= max)
			return -EINVAL;
		key = SW_READ_ONCE(t->keys[node - 1]);
		if (!key)
			return -EINVAL;
		probes[n++] = sw_path_key_probe(key);
		node = sw_path_key_parent(key);
	}
	/* Collected innermost first. */
	for (i = 0; i < n / 2; i++) {
		u32 tmp = probes[i];

		probes[i] = probes[n - 1 - i];
		probes[n - 1 - i] = tmp;
	}
	return n;
}
