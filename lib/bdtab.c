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

static __always_inline u32 sw_bd_hash(const struct sw_bd_key *k)
{
	u64 a, b, h;

	memcpy(&a, k->comm, sizeof(a));
	memcpy(&b, k->comm + sizeof(a), sizeof(b));
	h = (k->id ^ a) * 0x9e3779b97f4a7c15ULL;
	h ^= (b ^ k->id2) * 0xc2b2ae3d27d4eb4fULL;
	return (u32)(h >> 32) ^ (u32)h;
}

/* The hash scaled to 0..nslots-1 by a multiply, not a division. */
static __always_inline u32 sw_bd_home_of(const struct sw_bd_table *t,
					 const struct sw_bd_key *key)
{
	return (u32)(((u64)sw_bd_hash(key) * t->nslots) >> 32);
}

/* Equal keys: four words compared, no call. */
static __always_inline bool sw_bd_key_eq(const struct sw_bd_key *x,
					 const struct sw_bd_key *y)
{
	u64 xa, xb, ya, yb;

	memcpy(&xa, x->comm, sizeof(xa));
	memcpy(&xb, x->comm + sizeof(xa), sizeof(xb));
	memcpy(&ya, y->comm, sizeof(ya));
	memcpy(&yb, y->comm + sizeof(ya), sizeof(yb));
	return !((x->id ^ y->id) | (x->id2 ^ y->id2) | (xa ^ ya) | (xb ^ yb));
}

/**
 * sw_bd_home() - the first slot a key's row is looked for in.
 * @t:   table
 * @key: key
 *
 * Context: any (tests and readers; sw_bd_find() computes it inline).
 * Return: the slot's index, 0..nslots-1.
 */
u32 sw_bd_home(const struct sw_bd_table *t, const struct sw_bd_key *key)
{
	return sw_bd_home_of(t, key);
}

/**
 * sw_bd_find() - find a key's row, or a free slot for it.
 * @t:   table
 * @key: key
 *
 * Linear probing over at most SW_BD_WINDOW slots from the key's home slot
 * (wrapping at the end), so the work is bounded whatever the table's size;
 * no allocation.  A free slot is returned unclaimed: the caller claims it
 * with sw_bd_claim() inside its writer's section.
 *
 * Context: any, including NMI; the caller serializes writers of @t.
 * Return: the key's row, a free slot, or the "other" row when the window
 * holds neither.
 */
struct sw_bd_slot *sw_bd_find(struct sw_bd_table *t,
			      const struct sw_bd_key *key)
{
	u32 n = t->nslots < SW_BD_WINDOW ? t->nslots : SW_BD_WINDOW;
	u32 i, idx = sw_bd_home_of(t, key);

	for (i = 0; i < n; i++) {
		struct sw_bd_slot *s = &t->slots[idx];

		if (!s->used || sw_bd_key_eq(&s->key, key))
			return s;
		if (++idx == t->nslots)
			idx = 0;
	}
	return &t->other;
}
NOKPROBE_SYMBOL(sw_bd_find);

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
