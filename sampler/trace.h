/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace.h - the sampler's transport for records written by others: the
 * measurement core's traced calls.  They go into the running session's
 * per-CPU staging ring as samples do (same ring, same nesting guard, same
 * drain into relay), and are counted by cause in the same counters and
 * LOST/END records (call_taken, call_written, call_lost_full,
 * call_lost_nested).  Without a running session nothing is written.
 */
#ifndef _STOPWATCH_SAMPLER_TRACE_H
#define _STOPWATCH_SAMPLER_TRACE_H

#include <linux/types.h>

struct sw_samp_cpu;

void *sw_trace_reserve(u32 len, struct sw_samp_cpu **cp);
void sw_trace_commit(struct sw_samp_cpu *c, u32 len);

#endif /* _STOPWATCH_SAMPLER_TRACE_H */
