/* SPDX-License-Identifier: GPL-2.0 */
/*
 * session.h - interfaces between the parts of the oprofile-style sampler,
 * a service that knows nothing of probes: sampler.c (control, perf
 * events, overflow handler), stream.c (each CPU's record stream into
 * relay), stack.c (call stacks), sideband.c (task, mmap, module and kernel
 * records).
 */
#ifndef _STOPWATCH_SAMPLER_H
#define _STOPWATCH_SAMPLER_H

#include <linux/cpumask.h>
#include <linux/irq_work.h>
#include <linux/perf_event.h>
#include <asm/local64.h>
#include <stopwatch/abi.h>

#include "lib/sampopts.h"
#include "stage.h"
#include "relay/relay.h"

/* Per-CPU counters; index into sw_samp_cpu.cnt[]. */
enum sw_samp_counter {
	SW_CNT_TAKEN,		/* handler calls that passed the filters */
	SW_CNT_WRITTEN,		/* samples written to relay */
	SW_CNT_LOST_FULL,	/* staging ring or relay buffer full */
	SW_CNT_LOST_NESTED,	/* the handler interrupted itself */
	SW_CNT_LOST_STACK,	/* user stack copy faulted (stack_fail=drop) */
	SW_CNT_LOST_THROTTLED,	/* over max_rate */
	SW_CNT_FILTERED,	/* other pid/tgid, or the mode the event leaves out */
	SW_CNT_SB_WRITTEN,	/* side-band records written */
	SW_CNT_SB_LOST,		/* side-band records lost */
	SW_CNT_USTACK_FAULT,	/* kept samples whose user stack faulted */
	SW_CNT_NMI,		/* samples taken in NMI context */
	SW_CNT_BYTES,		/* bytes of samples written */
	SW_CNT_SB_MMAP_POOL,	/* mmap records lost: no deferred slot free */
	SW_CNT_SB_MMAP_TASK,	/* mmap records lost: task exiting, kthread */
	SW_CNT_SB_MMAP_NOMEM,	/* mmap records lost: no memory to build */
	SW_CNT_CALL_TAKEN,	/* call records produced (trace.c) */
	SW_CNT_CALL_WRITTEN,	/* call records written to relay */
	SW_CNT_CALL_LOST_FULL,	/* call records lost: ring or relay full */
	SW_CNT_CALL_LOST_NESTED, /* call records lost: ring's writer busy */
	SW_CNT_USTACK_WALKS,	/* user stacks walked by unwind tables */
	SW_CNT_USTACK_READ,	/* bytes of user stack those walks read */
	SW_CNT_KTHROTTLED,	/* times perf core stopped the event till the tick */
	SW_CNT_NR,
};

/* The LOST causes reported in SW_REC_LOST, in its field order. */
#define SW_LOST_CAUSES 7

/**
 * struct sw_samp_cpu - one CPU's sampler state.
 * @stage:     staging ring the overflow handler writes
 * @work:      irq_work that drains @stage into relay at once (self-IPI)
 * @lazy:      irq_work that drains @stage at the next tick (no IPI)
 * @event:     this CPU's perf event, or NULL
 * @sess:      the session
 * @cnt:       counters (local64: updated by NMI, IRQ and process context on
 *             this CPU, read from anywhere)
 * @reported:  loss counts already reported in SW_REC_LOST records
 * @nest:      nesting depth of the overflow handler
 * @win_start: start of the current throttle window, stopwatch clock
 * @win_count: samples accepted in the current throttle window
 * @streamed:  SW_REC_STREAM written; the stream is open
 * @cpu:       this CPU's number
 * @error:     errno of a failed counter creation at CPU online, or 0
 */
struct sw_samp_cpu {
	struct sw_stage stage;
	struct irq_work work;
	struct irq_work lazy;
	struct perf_event *event;
	struct sw_session *sess;
	local64_t cnt[SW_CNT_NR];
	u64 reported[SW_LOST_CAUSES];
	local_t nest;
	u64 win_start;
	u32 win_count;
	bool streamed;
	int cpu;
	int error;
};

/**
 * struct sw_session - one start..stop of the sampler.
 * @o:          the settings
 * @attr:       the perf event attributes
 * @cpus:       CPUs sampled
 * @pcpu:       per-CPU state
 * @relay:      the relay channel
 * @number:     session number since load
 * @hp_state:   dynamic CPU-hotplug state, or 0
 * @stream_flags: SW_STREAM_F_* for the STREAM records
 * @max_rec:    largest sample record, bytes
 * @win_ns:     throttle window length
 * @win_limit:  samples allowed per window (0: no limit)
 * @filter_tgid: process whose side-band records are kept (-1: all)
 * @fallback:   the default event fell back to cpu-clock (no PMU)
 * @hide_kaddr: the task that started the session may not see kernel
 *              addresses (kptr_restrict): kernel ips, kernel frames and
 *              the KERNEL and MODULE records' addresses are 0
 * @running:    sampling
 * @starting:   cpuhp callbacks run from start: failures abort the start
 * @t_start:    stopwatch clock at start
 * @t_stop:     stopwatch clock at stop
 */
struct sw_session {
	struct sw_samp_opts o;
	struct perf_event_attr attr;
	cpumask_var_t cpus;
	struct sw_samp_cpu __percpu *pcpu;
	struct sw_relay *relay;
	u32 number;
	int hp_state;
	u32 stream_flags;
	u32 max_rec;
	u64 win_ns;
	u32 win_limit;
	s32 filter_tgid;
	bool fallback;
	bool hide_kaddr;
	bool running;
	bool starting;
	u64 t_start;
	u64 t_stop;
};

#define SW_LOST_FROM_CNT(i) \
	((i) == 0 ? SW_CNT_LOST_FULL : (i) == 1 ? SW_CNT_LOST_NESTED : \
	 (i) == 2 ? SW_CNT_LOST_STACK : (i) == 3 ? SW_CNT_LOST_THROTTLED : \
	 (i) == 4 ? SW_CNT_SB_LOST : (i) == 5 ? SW_CNT_CALL_LOST_FULL : \
	 SW_CNT_CALL_LOST_NESTED)

static inline void sw_cnt_inc(struct sw_samp_cpu *c, int i)
{
	local64_inc(&c->cnt[i]);
}

static inline void sw_cnt_add(struct sw_samp_cpu *c, int i, u64 v)
{
	local64_add(v, &c->cnt[i]);
}

static inline u64 sw_cnt(struct sw_samp_cpu *c, int i)
{
	return local64_read(&c->cnt[i]);
}

/* sampler/sampler.c */
int sw_sampler_init(void);
void sw_sampler_exit(void);

/* sampler/stream.c */
void sw_samp_emit(struct sw_session *s, const void *rec, u32 len);
void sw_samp_stream_begin(struct sw_session *s, struct sw_samp_cpu *c);
void sw_samp_drain(struct sw_session *s, struct sw_samp_cpu *c);
void sw_samp_stream_end(struct sw_session *s, struct sw_samp_cpu *c);
void sw_samp_work(struct irq_work *work);
void sw_samp_work_lazy(struct irq_work *work);

/* sampler/trace.c */
void sw_trace_session_set(struct sw_session *s);

/* sampler/stack.c */
u32 sw_stack_kernel(struct pt_regs *regs, u64 *out, u32 max, u16 *flags);
u32 sw_stack_user(struct pt_regs *regs, u64 *out, u32 max, u16 *flags);
u32 sw_stack_user_table(struct pt_regs *regs, u64 *out, u32 max, u16 *flags,
			u32 *read);

/* sampler/sideband.c */
int sw_sb_start(struct sw_session *s);
void sw_sb_stop(struct sw_session *s);
void sw_sb_synthesize(struct sw_session *s);

#endif /* _STOPWATCH_SAMPLER_H */
