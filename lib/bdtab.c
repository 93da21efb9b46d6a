// SPDX-License-Identifier: GPL-2.0
/*
 * bdtab.c - the breakdown table: statistics per key (struct sw_bd_key) in a
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
	sw_stats_init(&t->other.st);
	for (i = 0; i < nslots; i++)
		sw_stats_init(&t->slots[i].st);
}

static u32 sw_bd_hash(const struct sw_bd_key *k)
{
	u64 a, b, h;

	memcpy(&a, k->comm, sizeof(a));
	memcpy(&b, k->comm + sizeof(a), sizeof(b));
	h = (k->id ^ a) * 0x9e3779b97f4a7c15ULL;
	h ^= (b ^ k->id2) * 0xc2b2ae3d27d4eb4fULL;
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
 * Return: the row, or the "other" row when the table is full.
 */
struct sw_bd_slot *sw_bd_lookup(struct sw_bd_table *t,
				const struct sw_bd_key *key)
{
	u32 i, idx = sw_bd_hash(key) % t->nslots;

	for (i = 0; i < t->nslots; i++) {
		struct sw_bd_slot *s = &t->slots[idx];

		if (!s->used) {
			s->key = *key;
			s->used = 1;
			t->used++;
			return s;
		}
		if (!memcmp(&s->key, key, sizeof(*key)))
			return s;
		if (++idx == t->nslots)
			idx = 0;
	}
	return &t->other;
}
NOKPROBE_SYMBOL(sw_bd_lookup);

/**
 * sw_bd_slot_add() - count one call in a row.
 * @s:      the row
 * @ns:     the call's wall time
 * @nev:    events counted (0: none)
 * @bad:    bit i set: event i was not measured for this call
 * @counts: the call's count of each event (read only for good ones)
 *
 * Context: any, including NMI; the caller serializes writers of @s.
 */
void sw_bd_slot_add(struct sw_bd_slot *s, u64 ns, unsigned int nev,
		    u32 bad, const u64 *counts)
{
	unsigned int i;

	sw_stats_add(&s->st, ns);
	for (i = 0; i < nev && i < SW_MAX_EVENTS; i++) {
		if (bad & (1U << i))
			continue;
		s->ev_n[i]++;
		s->ev_sum[i] += counts[i];
	}
}
NOKPROBE_SYMBOL(sw_bd_slot_add);

/**
 * sw_bd_slot_merge() - add one row's counts into another's (same key).
 * @into: the row added to
 * @from: the row added
 *
 * Context: any (readers merge snapshots).
 */
void sw_bd_slot_merge(struct sw_bd_slot *into, const struct sw_bd_slot *from)
{
	unsigned int i;

	sw_stats_merge(&into->st, &from->st);
	for (i = 0; i < SW_MAX_EVENTS; i++) {
		into->ev_n[i] += from->ev_n[i];
		into->ev_sum[i] += from->ev_sum[i];
	}
}
