// SPDX-License-Identifier: GPL-2.0
/*
 * bdtab.c - the breakdown table: statistics per pid, tgid, comm or cpu in a
 * fixed number of slots, with every call that does not fit counted in an
 * "other" row.
 */
#include "bdtab.h"

/**
 * sw_bd_table_init() - empty a table.
 * @t:      table with room for @nslots slots
 * @nslots: number of slots, at least 1
 *
 * Context: any.
 */
void sw_bd_table_init(struct sw_bd_table *t, u32 nslots)
{
	u32 i;

	memset(t, 0, sw_bd_table_size(nslots));
	t->nslots = nslots;
	sw_stats_init(&t->other);
	for (i = 0; i < nslots; i++)
		sw_stats_init(&t->slots[i].st);
}

static u32 sw_bd_hash(const struct sw_bd_key *k)
{
	u64 a, b, h;

	memcpy(&a, k->comm, sizeof(a));
	memcpy(&b, k->comm + sizeof(a), sizeof(b));
	h = (k->id ^ a) * 0x9e3779b97f4a7c15ULL;
	h ^= b * 0xc2b2ae3d27d4eb4fULL;
	return (u32)(h >> 32) ^ (u32)h;
}
NOKPROBE_SYMBOL(sw_bd_hash);

/**
 * sw_bd_lookup() - find or claim the row for a key.
 * @t:   table
 * @key: key
 *
 * Linear probing over all slots; no allocation.
 *
 * Context: any, including NMI; the caller serializes writers of @t.
 * Return: the row's statistics, or the "other" row when the table is full.
 */
struct sw_stats *sw_bd_lookup(struct sw_bd_table *t,
			      const struct sw_bd_key *key)
{
	u32 i, idx = sw_bd_hash(key) % t->nslots;

	for (i = 0; i < t->nslots; i++) {
		struct sw_bd_slot *s = &t->slots[idx];

		if (!s->used) {
			s->key = *key;
			s->used = 1;
			t->used++;
			return &s->st;
		}
		if (!memcmp(&s->key, key, sizeof(*key)))
			return &s->st;
		if (++idx == t->nslots)
			idx = 0;
	}
	return &t->other;
}
NOKPROBE_SYMBOL(sw_bd_lookup);
