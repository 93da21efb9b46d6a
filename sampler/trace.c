// SPDX-License-Identifier: GPL-2.0
/*
 * trace.c - records of traced calls into the running session's streams.
 *
 * A writer reserves room in its CPU's staging ring under the ring's
 * nesting guard (the overflow handler's own: the ring has one producer at
 * a time), fills the record and commits it; the ring is drained into
 * relay by the CPU's irq_work, as samples are.  Every record asked for is
 * counted as call_taken and ends as exactly one of call_written,
 * call_lost_full or call_lost_nested (stream.c counts the first two at the
 * drain).
 */
#include <linux/irq_work.h>
#include <linux/kprobes.h>
#include <linux/rcupdate.h>

#include "session.h"
#include "trace.h"

static struct sw_session __rcu *sw_trace_sess;

/**
 * sw_trace_session_set() - the session traced calls are written to.
 * @s: the session now running, or NULL when it stops
 *
 * Clearing waits until no writer can still hold a reservation in the
 * session's rings: the writers run with preemption disabled.
 *
 * Context: process context, the sampler's mutex held.
 */
void sw_trace_session_set(struct sw_session *s)
{
	rcu_assign_pointer(sw_trace_sess, s);
	if (!s)
		synchronize_rcu();
}

/**
 * sw_trace_reserve() - room for one call record in this CPU's ring.
 * @len: the record's size, a multiple of 8
 * @cp:  set to this CPU's state for sw_trace_commit()
 *
 * Context: a measurement handler (kprobe, trampoline, uprobe with
 * preemption disabled, tracepoint): preemption off, maybe IRQs off or
 * NMI.  No lock, no wait, no allocation.
 * Return: where to write, or NULL (no session, or lost and counted).
 */
void *sw_trace_reserve(u32 len, struct sw_samp_cpu **cp)
{
	struct sw_session *s = rcu_dereference_sched(sw_trace_sess);
	struct sw_samp_cpu *c;
	void *rec;

	if (unlikely(!s))
		return NULL;
	c = this_cpu_ptr(s->pcpu);
	sw_cnt_inc(c, SW_CNT_CALL_TAKEN);
	if (unlikely(local_inc_return(&c->nest) != 1)) {
		local_dec(&c->nest);
		sw_cnt_inc(c, SW_CNT_CALL_LOST_NESTED);
		return NULL;
	}
	rec = sw_stage_reserve(&c->stage, len);
	if (unlikely(!rec)) {
		local_dec(&c->nest);
		sw_cnt_inc(c, SW_CNT_CALL_LOST_FULL);
		return NULL;
	}
	*cp = c;
	return rec;
}
NOKPROBE_SYMBOL(sw_trace_reserve);

/**
 * sw_trace_commit() - publish the record reserved by sw_trace_reserve().
 * @c:   from sw_trace_reserve()
 * @len: its size
 *
 * The ring is drained by irq_work, never here (a handler may have
 * interrupted a relay writer): lazily, at the next tick, unless the ring
 * is half full.  The lazy work is queued when the ring was empty before
 * this record (its head, before the commit, was its tail): a drain
 * empties the ring, and a drain in progress goes on until it is empty.
 *
 * Context: as sw_trace_reserve().
 */
void sw_trace_commit(struct sw_samp_cpu *c, u32 len)
{
	bool first = c->stage.head == READ_ONCE(c->stage.tail);

	sw_stage_commit(&c->stage, len);
	local_dec(&c->nest);
	if (unlikely(first))
		irq_work_queue(&c->lazy);
	else if (unlikely(sw_stage_used(&c->stage) > c->stage.size / 2))
		irq_work_queue(&c->work);
}
NOKPROBE_SYMBOL(sw_trace_commit);
