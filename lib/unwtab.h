/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unwtab.h - unwind tables (stopwatch/unwind.h): validation when loaded
 * and the row lookup of the overflow handler.  Pure logic: compiled into
 * stopwatch.ko and into the program and its host tests.
 */
#ifndef _STOPWATCH_UNWTAB_H
#define _STOPWATCH_UNWTAB_H

#include "wrapper/types.h"
#include <stopwatch/unwind.h>

int sw_unw_rows_check(const struct sw_unw_row *r, u32 nr, u32 *bad,
		      const char **why);
int sw_unw_adj(const struct sw_unw_seg *seg, u32 nseg, u64 start, u64 pgoff,
	       u64 *adj);
const struct sw_unw_row *sw_unw_find(const struct sw_unw_row *r, u32 nr,
				     u64 pc);

#endif /* _STOPWATCH_UNWTAB_H */
