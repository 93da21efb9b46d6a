/* SPDX-License-Identifier: GPL-2.0 */
/*
 * span.h - spans: the time between a start point and a stop point that
 * see the same key (an item through a queue, a task from wakeup to
 * running, a forked child until it first runs).
 *
 *   table.c   the in-flight table: starts waiting for their stop, shared
 *             by all CPUs, preallocated, lock-free (a cmpxchg per slot)
 *   points.c  where a span is hit: kprobe (entry), kretprobe (return),
 *             tracepoint, user function (attach/uprobe.c: entry, return);
 *             each reads its key and starts or stops
 *   tpmod.c   tracepoint points on a module's tracepoints: found in the
 *             loaded modules, detached when their module goes
 *   spans.c   the spans (add, remove, reset) and their files: spans,
 *             span_stats, span_keys, span_hist/<name>
 *
 * A span's statistics are agg/'s: a struct sw_gen (timing, histogram) and
 * optionally a breakdown generation keyed by the stop thread.  Its
 * filters are the probe language's, checked at the stop point with the
 * core's sw_filter_entry().
 */
#ifndef _STOPWATCH_SPAN_H
#define _STOPWATCH_SPAN_H

#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/percpu.h>
#include <linux/tracepoint.h>

#include "agg/agg.h"
#include "attach/attach.h"
#include "pmu/pmu.h"
#include "lib/spanspec.h"

/* Slots a start or a stop looks at, from its key's hash on. */
#define SW_SPAN_WINDOW 32

/*
 * What a span counted besides its intervals, per CPU:
 *   started       starts put in the table
 *   restarted     starts whose key was already in flight: the older start
 *                 is replaced
 *   dropped_full  starts that found no free slot
 *   unmatched     stops without a start of their key
 *   abandoned     starts older than age_ms, never stopped
 *   unreadable    hits whose key (or condition) could not be read
 *   skipped       hits whose condition was false
 *   nested        stops while another of the span's handlers ran on the
 *                 CPU (NMI)
 *   other_thread  intervals whose stop ran on another thread than their
 *                 start: time only (their events count as unmeasured)
 *   ev_no_slot    starts, with events counted, that got no pending entry:
 *                 their thread found no free slot (time only)
 *   ev_too_deep   the same, their thread's pending stack was full
 *   ev_lost       intervals stopped on their start's thread whose pending
 *                 entry was gone (popped by an outer measured call's
 *                 return, or replaced by a later start of the span on the
 *                 thread): time only
 */
enum sw_span_count {
	SW_SC_STARTED,
	SW_SC_RESTARTED,
	SW_SC_DROPPED_FULL,
	SW_SC_UNMATCHED,
	SW_SC_ABANDONED,
	SW_SC_UNREADABLE,
	SW_SC_SKIPPED,
	SW_SC_NESTED,
	SW_SC_OTHER_THREAD,
	SW_SC_EV_NO_SLOT,
	SW_SC_EV_TOO_DEEP,
	SW_SC_EV_LOST,
	SW_SC_NR,
};

/**
 * struct sw_span_start - what a start leaves for its stop.
 * @t0:  time of the start, sw_clock_ns()
 * @cpu: CPU of the start
 * @tid: thread of the start
 * @ev:  the start opened an events entry on its thread's pending stack
 *       (core: sw_core_open_owned())
 */
struct sw_span_start {
	u64 t0;
	u32 cpu;
	u32 tid;
	u32 ev;
};

/**
 * struct sw_span_slot - one start in flight.
 * @state: 0 free, 1 being written or claimed, 2 holding a start
 * @k:     the key
 * @st:    the start
 */
struct sw_span_slot {
	atomic_t state;
	u64 k[2];
	struct sw_span_start st;
};

/**
 * struct sw_span_table - the starts in flight of one span.
 * @mask:   slots - 1 (slots is a power of two)
 * @window: slots looked at per operation, min(SW_SPAN_WINDOW, slots)
 * @slots:  the slots
 */
struct sw_span_table {
	u32 mask;
	u32 window;
	struct sw_span_slot *slots;
};

/**
 * struct sw_span_pcpu - one CPU's counters of one span.
 * @n:      by enum sw_span_count
 * @active: the span's stop handlers running on this CPU (nesting guard)
 */
struct sw_span_pcpu {
	unsigned long n[SW_SC_NR];
	unsigned long active;
};

struct sw_span;

/**
 * struct sw_span_pt - one point, attached.
 * @p:     the point as parsed
 * @span:  its span
 * @kp:    the kprobe of an entry point
 * @krp:   the kretprobe of a return point (instance data: the arguments)
 * @tp:    the tracepoint of a tracepoint point
 * @up:    the user point of a user entry or return point (attach/uprobe.c)
 * @uname: its name in messages, PATH:0xOFFSET[%return]
 * @tpmod: a module's tracepoint (tpmod.c): the module while attached
 * @tpfunc: its probe
 * @tpmod_link: in tpmod.c's list while attached
 * @modtp: the tracepoint is a module's
 * @gone:  its module went: detached
 * @reg:   registered
 * @nargs: leading arguments its key and condition read (sw_span_pt_nargs())
 */
struct sw_span_pt {
	struct sw_span_point p;
	struct sw_span *span;
	struct kprobe kp;
	struct kretprobe krp;
	struct tracepoint *tp;
	struct sw_uprobe up;
	char uname[SW_SPAN_TARGET_MAX + 32];
	struct module *tpmod;
	void *tpfunc;
	struct list_head tpmod_link;
	bool modtp;
	bool gone;
	bool reg;
	u8 nargs;
};

/**
 * struct sw_span - one span.
 * @list:   in the list of spans, under sw_span_lock
 * @cmd:    what it was made from (its line)
 * @aggs:   timing statistics, histogram, rows
 * @tbl:    the starts in flight
 * @pcpu:   counters
 * @hist:   span_hist/<name>
 * @id:     its trace records' id (struct sw_rec_call.id, SW_CALL_F_SPAN),
 *          1 to SW_SPANS_MAX, fixed for its life
 * @npt:    points
 * @pt:     the points
 */
struct sw_span {
	struct list_head list;
	struct sw_span_cmd cmd;
	struct sw_aggs aggs;
	struct sw_span_table tbl;
	struct sw_span_pcpu __percpu *pcpu;
	struct sw_file *hist;
	u32 id;
	u32 npt;
	struct sw_span_pt pt[];
};

/* table.c */
int sw_span_table_alloc(struct sw_span_table *t, u32 slots);
void sw_span_table_free(struct sw_span_table *t);
struct sw_span_slot *sw_span_table_claim(struct sw_span_table *t,
					 const u64 k[2]);
void sw_span_table_put(struct sw_span_slot *s, const struct sw_span_start *st);
void sw_span_table_free_slot(struct sw_span_slot *s);
struct sw_span_slot *sw_span_table_reserve(struct sw_span_table *t,
					   const u64 k[2]);
unsigned long sw_span_table_expire(struct sw_span_table *t, u64 now,
				   u64 age_ns);
u32 sw_span_table_used(struct sw_span_table *t);

/* points.c */
int sw_span_pt_register(struct sw_span_pt *pt);
void sw_span_pt_nargs(struct sw_span_pt *pt);
void sw_span_pt_unregister(struct sw_span_pt **pts, int n);
unsigned long sw_span_pt_missed(struct sw_span_pt *pt);

/* tpmod.c */
int sw_span_tpmod_attach(struct sw_span_pt *pt, const char *event,
			 void *func);
bool sw_span_tpmod_detach(struct sw_span_pt *pt);
int sw_span_tpmod_init(void);
void sw_span_tpmod_exit(void);

/* spans.c */
extern const struct sw_pmu_client sw_span_pmu_client;
int sw_span_init(void);
void sw_span_exit(void);

#endif /* _STOPWATCH_SPAN_H */
