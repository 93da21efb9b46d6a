/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bdtab.h - bounded per-CPU table of statistics keyed by pid, tgid, comm or
 * cpu.  Pure logic: compiled into stopwatch.ko and into host tests.
 */
#ifndef _STOPWATCH_BDTAB_H
#define _STOPWATCH_BDTAB_H

#include "stats.h"

#define SW_COMM_LEN 16

/**
 * struct sw_bd_key - a breakdown key: a number (pid, tgid, cpu) or a comm.
 * @id:   number, for the numeric modes (comm bytes are zero)
 * @comm: task command name, NUL-padded, for comm mode (@id is zero)
 */
struct sw_bd_key {
	u64 id;
	char comm[SW_COMM_LEN];
};

/**
 * struct sw_bd_slot - one row of the table.
 * @used: nonzero once claimed; slots are never released until reset
 * @key:  the key
 * @st:   statistics of the calls with that key
 */
struct sw_bd_slot {
	u32 used;
	u32 pad;
	struct sw_bd_key key;
	struct sw_stats st;
};

/**
 * struct sw_bd_table - open-addressing table with an overflow row.
 * @nslots: number of slots (any positive number)
 * @used:   slots claimed
 * @other:  statistics of calls whose key found no free slot
 * @slots:  the slots
 *
 * Writers are serialized by the caller (one CPU, kprobe handlers do not
 * nest); nothing is ever dropped: a full table counts into @other.
 */
struct sw_bd_table {
	u32 nslots;
	u32 used;
	struct sw_stats other;
	struct sw_bd_slot slots[];
};

static inline size_t sw_bd_table_size(u32 nslots)
{
	return sizeof(struct sw_bd_table) + nslots * sizeof(struct sw_bd_slot);
}

void sw_bd_table_init(struct sw_bd_table *t, u32 nslots);
struct sw_stats *sw_bd_lookup(struct sw_bd_table *t,
			      const struct sw_bd_key *key);

#endif /* _STOPWATCH_BDTAB_H */
