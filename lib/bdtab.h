/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bdtab.h - bounded per-CPU table of statistics keyed by one value or a
 * pair (pid, tgid, comm, cpu, caller, an argument, the return value).
 * Pure logic: compiled into stopwatch.ko and into host tests.
 */
#ifndef _STOPWATCH_BDTAB_H
#define _STOPWATCH_BDTAB_H

#include "stats.h"
#include "events.h"

#define SW_COMM_LEN 16

/**
 * struct sw_bd_key - a key: up to two numbers and a comm.
 * @id:   the first numeric part (pid, tgid, cpu, caller, argN, retval)
 * @id2:  the second numeric part of a pair of numbers
 * @comm: task command name, NUL-padded, when the key has a comm part
 *
 * Parts not in the key are zero.
 */
struct sw_bd_key {
	u64 id;
	u64 id2;
	char comm[SW_COMM_LEN];
};

/**
 * struct sw_bd_slot - one row of the table.
 * @used:   nonzero once claimed; slots are never released until reset
 * @seq:    the row's sequence, odd while its writer updates it (readers on
 *          other CPUs copy one row at a time and check it: agg/breakdown.c)
 * @key:    the key
 * @st:     wall-time statistics of the calls with that key
 * @ev_n:   per event, the calls measured for it
 * @ev_sum: per event, the sum of their counts
 */
struct sw_bd_slot {
	u32 used;
	u32 seq;
	struct sw_bd_key key;
	struct sw_stats st;
	u64 ev_n[SW_MAX_EVENTS];
	u64 ev_sum[SW_MAX_EVENTS];
};

/*
 * A key's row is looked for in SW_BD_WINDOW slots from its home slot (fewer
 * when the table is smaller), never further: a lookup costs at most that
 * many key compares, whatever the table's size.  A key that finds neither
 * its row nor a free slot there is counted in the "other" row.
 */
#define SW_BD_WINDOW 8

/**
 * struct sw_bd_table - open-addressing table with an overflow row.
 * @nslots: number of slots (any positive number)
 * @used:   slots claimed
 * @other:  the row of calls whose key found no free slot in its window
 *          (@other.used 0)
 * @slots:  the slots
 *
 * Writers are serialized by the caller (one CPU, kprobe handlers do not
 * nest); nothing is ever dropped: a key without room counts into @other.
 */
struct sw_bd_table {
	u32 nslots;
	u32 used;
	struct sw_bd_slot other;
	struct sw_bd_slot slots[];
};

static inline size_t sw_bd_table_size(u32 nslots)
{
	return sizeof(struct sw_bd_table) + nslots * sizeof(struct sw_bd_slot);
}

void sw_bd_table_init(struct sw_bd_table *t, u32 nslots);
u32 sw_bd_home(const struct sw_bd_table *t, const struct sw_bd_key *key);
struct sw_bd_slot *sw_bd_find(struct sw_bd_table *t,
			      const struct sw_bd_key *key);

/**
 * sw_bd_claim() - make a free slot found by sw_bd_find() the key's row.
 * @t:   table
 * @s:   what sw_bd_find() returned for @key
 * @key: key
 *
 * Nothing to do for a claimed row or the "other" row.
 *
 * Context: any, including NMI; the caller serializes writers of @t.
 */
static __always_inline void sw_bd_claim(struct sw_bd_table *t,
					struct sw_bd_slot *s,
					const struct sw_bd_key *key)
{
	if (s->used || s == &t->other)
		return;
	s->key = *key;
	s->used = 1;
	t->used++;
}

/**
 * sw_bd_lookup() - find or claim the row for a key.
 * @t:   table
 * @key: key
 *
 * sw_bd_find() and sw_bd_claim() at once, for a writer no reader checks.
 *
 * Context: any; the caller serializes writers of @t.
 * Return: the row, or the "other" row when the key found no room.
 */
static inline struct sw_bd_slot *sw_bd_lookup(struct sw_bd_table *t,
					      const struct sw_bd_key *key)
{
	struct sw_bd_slot *s = sw_bd_find(t, key);

	sw_bd_claim(t, s, key);
	return s;
}
void sw_bd_slot_add(struct sw_bd_slot *s, u64 ns, unsigned int nev,
		    u32 bad, const u64 *counts);
void sw_bd_slot_merge(struct sw_bd_slot *into, const struct sw_bd_slot *from);

#endif /* _STOPWATCH_BDTAB_H */
