/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utables.h - the unwind tables of user stacks as the overflow handler
 * sees them (utables.c keeps them).
 */
#ifndef _STOPWATCH_SAMPLER_UTABLES_H
#define _STOPWATCH_SAMPLER_UTABLES_H

#include <linux/types.h>
#include <stopwatch/unwind.h>

/**
 * struct sw_unw_map - a range of a process unwound with a table.
 * @start: first address
 * @end:   first address after
 * @adj:   added to a pc gives the table address
 * @rows:  the table's rows
 * @nr:    their number
 */
struct sw_unw_map {
	u64 start;
	u64 end;
	u64 adj;
	const struct sw_unw_row *rows;
	u32 nr;
};

const struct sw_unw_map *sw_unw_proc_map(u32 pid, u64 pc);
bool sw_unw_any(void);
struct mm_struct;
struct task_struct;
void sw_unw_sb_map(struct task_struct *task, const struct mm_struct *mm,
		   u64 start, u64 len, u64 pgoff, const u8 *bid, u8 bid_len);
int sw_unwind_init(void);
void sw_unwind_exit(void);

#endif /* _STOPWATCH_SAMPLER_UTABLES_H */
