// SPDX-License-Identifier: GPL-2.0
/*
 * stream.c - each CPU's stream of records: the staged samples drained into
 * relay after the stream header and any LOST record, side-band records
 * appended in order, and the END record that closes it.  Below sampler.c
 * (control, perf events, overflow handler) and sideband.c, which both
 * write through here.
 */
#include <linux/irq_work.h>
#include <linux/kprobes.h>
#include <linux/string.h>

#include "wrapper/timekeeping.h"
#include "session.h"

/* ---- draining into relay (interrupts off, on the ring's CPU) ------------- */

/**
 * sw_samp_stream_begin() - write the CPU's SW_REC_STREAM if not done yet.
 * @s: session
 * @c: this CPU's state
 *
 * Context: interrupts disabled, on @c's CPU.
 */
void sw_samp_stream_begin(struct sw_session *s, struct sw_samp_cpu *c)
{
	struct sw_rec_stream r;

	if (c->streamed)
		return;
	memset(&r, 0, sizeof(r));
	r.h.type = SW_REC_STREAM;
	r.h.size = sizeof(r);
	r.h.time = sw_clock_ns();
	r.realtime_ns = ktime_get_real_fast_ns();
	r.magic = SW_ABI_MAGIC;
	r.major = SW_ABI_MAJOR;
	r.minor = SW_ABI_MINOR;
	r.cpu = c->cpu;
	r.session = s->number;
	r.ev_type = s->attr.type;
	r.flags = s->stream_flags;
	r.ev_config = s->attr.config;
	r.period_or_freq = s->o.freq ? s->o.freq : s->o.period;
	r.filter_id = s->o.pid >= 0 ? s->o.pid : s->o.tgid >= 0 ? s->o.tgid : 0;
	r.max_kstack = s->o.kstack;
	r.max_ustack = s->o.ustack;
	strscpy(r.event, s->o.ev.name, sizeof(r.event));
	if (sw_relay_write(s->relay, &r, sizeof(r)))
		c->streamed = true;
}

/* Reports losses not yet reported, when the buffer has room for it. */
static void sw_samp_report_lost(struct sw_session *s, struct sw_samp_cpu *c)
{
	u64 now[SW_LOST_CAUSES], *f;
	struct sw_rec_lost r;
	bool any = false;
	int i;

	for (i = 0; i < SW_LOST_CAUSES; i++) {
		now[i] = sw_cnt(c, SW_LOST_FROM_CNT(i));
		any |= now[i] != c->reported[i];
	}
	if (!any)
		return;
	memset(&r, 0, sizeof(r));
	r.h.type = SW_REC_LOST;
	r.h.size = sizeof(r);
	r.h.time = sw_clock_ns();
	r.cpu = c->cpu;
	f = &r.full;
	for (i = 0; i < SW_LOST_CAUSES; i++)
		f[i] = now[i] - c->reported[i];
	if (sw_relay_write(s->relay, &r, sizeof(r)))
		memcpy(c->reported, now, sizeof(now));
}

/*
 * Moves every staged sample into relay, after the stream header and any
 * pending LOST record.
 *
 * Context: interrupts disabled, on @c's CPU.
 */
void sw_samp_drain(struct sw_session *s, struct sw_samp_cpu *c)
{
	void *rec;
	u32 len;

	if (unlikely(c->cpu != raw_smp_processor_id()))
		return;
	sw_samp_stream_begin(s, c);
	sw_samp_report_lost(s, c);
	while ((rec = sw_stage_peek(&c->stage, &len))) {
		bool call = ((struct sw_rec_header *)rec)->type == SW_REC_CALL;

		if (sw_relay_write(s->relay, rec, len)) {
			sw_cnt_inc(c, call ? SW_CNT_CALL_WRITTEN :
					     SW_CNT_WRITTEN);
			local64_add(len, &c->cnt[SW_CNT_BYTES]);
		} else {
			sw_cnt_inc(c, call ? SW_CNT_CALL_LOST_FULL :
					     SW_CNT_LOST_FULL);
		}
		sw_stage_consume(&c->stage, len);
	}
}

/* Drains @c's ring with interrupts off, whatever context calls it. */
static void sw_samp_drain_irqsave(struct sw_samp_cpu *c)
{
	unsigned long flags;

	local_irq_save(flags);
	sw_samp_drain(c->sess, c);
	local_irq_restore(flags);
}

/*
 * sw_samp_work() - drain at once.
 * Context: hard IRQ (IRQ_WORK_INIT_HARD, also under PREEMPT_RT) on the CPU
 * that queued it.
 */
void sw_samp_work(struct irq_work *work)
{
	sw_samp_drain_irqsave(container_of(work, struct sw_samp_cpu, work));
}

/*
 * sw_samp_work_lazy() - drain at the next tick.
 * Context: hard IRQ (lazy irq_work, from the tick) on the queuing CPU;
 * under PREEMPT_RT the per-CPU irq_work thread instead, with interrupts
 * on: they are turned off for the drain, as sw_samp_drain() needs, so the
 * overflow handler cannot interleave its relay writes with ours.
 */
void sw_samp_work_lazy(struct irq_work *work)
{
	sw_samp_drain_irqsave(container_of(work, struct sw_samp_cpu, lazy));
}

/**
 * sw_samp_emit() - append a side-band record to this CPU's stream.
 * @s:   running session
 * @rec: the record (header filled in)
 * @len: its size
 *
 * Samples already staged on this CPU go first, so the stream stays in
 * time order on this CPU.
 *
 * Context: process context (any preemption state); not NMI.
 */
void sw_samp_emit(struct sw_session *s, const void *rec, u32 len)
{
	struct sw_samp_cpu *c;
	unsigned long flags;

	local_irq_save(flags);
	c = this_cpu_ptr(s->pcpu);
	sw_samp_drain(s, c);
	if (c->streamed && sw_relay_write(s->relay, rec, len))
		sw_cnt_inc(c, SW_CNT_SB_WRITTEN);
	else
		sw_cnt_inc(c, SW_CNT_SB_LOST);
	local_irq_restore(flags);
}

/* Final counters of this CPU's stream; the stream is closed after it. */
void sw_samp_stream_end(struct sw_session *s, struct sw_samp_cpu *c)
{
	struct sw_rec_end r;

	if (!c->streamed)
		return;
	memset(&r, 0, sizeof(r));
	r.h.type = SW_REC_END;
	r.h.size = sizeof(r);
	r.h.time = sw_clock_ns();
	r.cpu = c->cpu;
	r.taken = sw_cnt(c, SW_CNT_TAKEN);
	r.written = sw_cnt(c, SW_CNT_WRITTEN);
	r.lost_full = sw_cnt(c, SW_CNT_LOST_FULL);
	r.lost_nested = sw_cnt(c, SW_CNT_LOST_NESTED);
	r.lost_stack = sw_cnt(c, SW_CNT_LOST_STACK);
	r.lost_throttled = sw_cnt(c, SW_CNT_LOST_THROTTLED);
	r.filtered = sw_cnt(c, SW_CNT_FILTERED);
	r.sideband_written = sw_cnt(c, SW_CNT_SB_WRITTEN);
	r.sideband_lost = sw_cnt(c, SW_CNT_SB_LOST);
	r.call_taken = sw_cnt(c, SW_CNT_CALL_TAKEN);
	r.call_written = sw_cnt(c, SW_CNT_CALL_WRITTEN);
	r.call_lost_full = sw_cnt(c, SW_CNT_CALL_LOST_FULL);
	r.call_lost_nested = sw_cnt(c, SW_CNT_CALL_LOST_NESTED);
	sw_relay_write(s->relay, &r, sizeof(r));
	c->streamed = false;
}
