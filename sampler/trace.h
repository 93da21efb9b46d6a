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

#include <linux/sched.h>
#include <linux/types.h>

#include <stopwatch/abi.h>

struct sw_samp_cpu;

void *sw_trace_reserve(u32 len, struct sw_samp_cpu **cp);
void sw_trace_commit(struct sw_samp_cpu *c, u32 len);

/**
 * sw_call_rec_start() - reserve a call record (struct sw_rec_call) on this
 * CPU's stream and write the head that a traced call and a traced span's
 * interval share.
 * @flags: SW_CALL_F_* with the counts of keys, events and arguments (they
 *         size the record)
 * @now:   the record's time: the end of the call or interval
 * @ns:    its duration
 * @id:    the probe's or the span's id
 * @cpu0:  the CPU it began on
 * @cp:    where the stream goes, for sw_trace_commit()
 * @len:   where the record's length goes, for sw_trace_commit()
 *
 * The caller writes the optional words the flags announce, in the ABI's
 * order after the 64-bit duration (written here with SW_CALL_F_DUR64),
 * then commits.
 *
 * Context: a handler, preemption disabled, maybe IRQs off or NMI.
 * Return: where the optional words go on, or NULL when the record is lost
 * (counted by the sampler).
 */
static __always_inline u64 *sw_call_rec_start(u16 flags, u64 now, u64 ns,
					      u16 id, u16 cpu0,
					      struct sw_samp_cpu **cp,
					      u32 *len)
{
	struct task_struct *t = current;
	struct sw_rec_call *rec;
	u64 *w;

	*len = sizeof(*rec) + 8 * sw_call_nwords(flags);
	rec = sw_trace_reserve(*len, cp);
	if (!rec)
		return NULL;
	rec->h.type = SW_REC_CALL;
	rec->h.flags = flags;
	rec->h.size = *len;
	rec->h.time = now;
	rec->tid = t->pid;
	rec->pid = t->tgid;
	rec->dur = flags & SW_CALL_F_DUR64 ? U32_MAX : (u32)ns;
	rec->id = id;
	rec->cpu = cpu0;
	w = rec->words;
	if (flags & SW_CALL_F_DUR64)
		*w++ = ns;
	return w;
}

#endif /* _STOPWATCH_SAMPLER_TRACE_H */
