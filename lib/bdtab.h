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
 * @key:    the key
 * @st:     wall-time statistics of the calls with that key
 * @ev_n:   per event, the calls measured for it
 * @ev_sum: per event, the sum of their counts
 */
struct sw_bd_slot {
	u32 used;
	u32 pad;
	struct sw_bd_key key;
	struct sw_stats st;
	u64 ev_n[SW_MAX_EVENTS];
	u64 ev_sum[SW_MAX_EVENTS];
};

/**
 * struct sw_bd_table - open-addressing table with an overflow row.
 * @nslots: number of slots (any positive number)
 * @used:   slots claimed
 * @other:  the row of calls whose key found no free slot (@other.used 0)
 * @slots:  the slots
 *
 * Writers are serialized by the caller (one CPU, kprobe handlers do not
 * nest); nothing is ever dropped: a full table counts into @other.
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
struct sw_bd_slot *sw_bd_lookup(struct sw_bd_table *t,
				const struct sw_bd_key *key);
void sw_bd_slot_add(struct sw_bd_slot *s, u64 ns, unsigned int nev,
		    u32 bad, const u64 *counts);
void sw_bd_slot_merge(struct sw_bd_slot *into, const struct sw_bd_slot *from);

#endif /* _STOPWATCH_BDTAB_H */
