/* SPDX-License-Identifier: GPL-2.0 */
/*
 * agg.h - the aggregations: where the measurement core folds each call.
 *
 *   timing.c     wall-time statistics and log-linear histogram, per CPU
 *   breakdown.c  rows keyed by one value or a pair (pid, tgid, comm, cpu,
 *                caller, argN, retval): bounded, with an "other" row; the
 *                global breakdown mode and each probe's own by=
 *   evstats.c    statistics and histograms of the per-call event counts
 *
 * Each aggregation is a generation: allocated whole in process context,
 * published through an RCU pointer in struct sw_aggs and replaced whole
 * (reset, events changed), so the handlers never see a half-made table and
 * never take a lock.  Each CPU's part has a single writer (the handler
 * running on that CPU, which kprobes and the core never nest) and a
 * seqcount for readers on other CPUs (its writer's section:
 * wrapper/seqlock.h); the breakdown tables have one per row, and their
 * readers give up on a row after a bounded number of tries.
 */
#ifndef _STOPWATCH_AGG_H
#define _STOPWATCH_AGG_H

#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/seqlock.h>
#include <linux/seq_file.h>
#include <linux/smp.h>

#include "lib/stats.h"
#include "cost_acc.h"
#include "lib/bdtab.h"
#include "lib/evcall.h"
#include "lib/events.h"
#include "lib/parse.h"
#include "wrapper/arch.h"
#include "wrapper/seqlock.h"
#include "wrapper/smp.h"
#include "wrapper/timekeeping.h"

struct sw_evset;

/**
 * struct sw_pcpu - one CPU's wall-time statistics of one probe.
 * @seq:      odd while the owning CPU updates; readers retry
 * @st:       wall-time statistics, nanoseconds
 * @migrated: calls that returned on another CPU than they entered on
 * @filtered: calls left out by the probe's filters, by enum sw_filtered
 * @lin:      log-linear histogram of wall time, sw_lhist_nbuckets(bits)
 *            counts (lib/stats.h; the log2 view is derived when read)
 */
struct sw_pcpu {
	seqcount_t seq;
	struct sw_stats st;
	u64 migrated;
	u64 filtered[3];
	u64 lin[];
};

/* Why a call was left out (struct sw_pcpu.filtered). */
enum sw_filtered {
	SW_FILTERED_ENTRY,	/* an entry filter (pid=, comm=, ...) */
	SW_FILTERED_SHORT,	/* shorter than min_ns */
	SW_FILTERED_LONG,	/* longer than max_ns */
};

/**
 * struct sw_gen - one generation of a probe's wall-time statistics.
 * @pcpu: per-CPU statistics
 * @bits: sub-bucket bits of their histograms (sw_timing_bits)
 * @lz:   63 - @bits, and
 * @mask: 2^(@bits + 1) - 1: sw_lhist_bucket_pre()'s, derived once
 */
struct sw_gen {
	struct sw_pcpu __percpu *pcpu;
	u32 bits;
	u32 lz;
	u64 mask;
};

/**
 * struct sw_timing - a generation's wall-time statistics merged over all
 * CPUs (sw_gen_read()); made by sw_timing_alloc() for sw_timing_bits.
 * @st:       statistics
 * @migrated: calls that returned on another CPU than they entered on
 * @hist:     the log2 view of @lin
 * @pct:      percentiles, enum sw_pct (sw_lhist_quantile())
 * @bits:     sub-bucket bits of @lin
 * @snap:     scratch: one CPU's histogram
 * @lin:      log-linear histogram, sw_lhist_nbuckets(@bits) counts
 */
struct sw_timing {
	struct sw_stats st;
	u64 migrated;
	u64 hist[SW_HIST_BUCKETS];
	u64 pct[SW_PCT_NR];
	unsigned int bits;
	struct sw_pcpu *snap;
	u64 lin[];
};

/**
 * struct sw_bd_cpu - one CPU's breakdown table.
 * @tbl: the table (variable size); each row has its own sequence, odd
 *       while the owning CPU updates the row, so a reader copies and checks
 *       one row at a time and gives up on a row after a bounded number of
 *       tries (agg/breakdown.c)
 */
struct sw_bd_cpu {
	struct sw_bd_table tbl;
};

/**
 * struct sw_bdgen - one generation of a probe's breakdown tables.
 * @by:     what the tables are keyed by (by.own: the probe's by=; else the
 *          global breakdown mode, by.k[0] being its SW_BD_* value)
 * @nslots: slots per table
 * @set_id: id of the event set whose counts the rows sum (0: none); calls
 *          measured under another set add time only
 * @nev:    events in that set
 * @cpu:    one table per possible CPU, indexed by CPU number
 */
struct sw_bdgen {
	struct sw_by by;
	u32 nslots;
	u32 set_id;
	u32 nev;
	struct sw_bd_cpu *cpu[];
};

/**
 * struct sw_evstat - one event's statistics of one probe on one CPU.
 * @st:         per-call counts of the measured calls
 * @unmeasured: calls left out: the counter did not count for all of them
 * @hist:       log2 histogram of the per-call counts
 */
struct sw_evstat {
	struct sw_stats st;
	u64 unmeasured;
	u64 hist[SW_HIST_BUCKETS];
};

/**
 * struct sw_evpcpu - one probe's event statistics on one CPU.
 * @seq: odd while the owning CPU updates; readers retry
 * @cpi: per-call cycles per instruction x SW_CPI_SCALE
 * @ev:  one entry per event of the set
 */
struct sw_evpcpu {
	seqcount_t seq;
	struct sw_stats cpi;
	struct sw_evstat ev[];
};

/**
 * struct sw_evgen - one generation of a probe's event statistics, for one
 * event set.  Replaced (RCU) on reset and when the events change.
 * @set_id:       id of the event set the statistics belong to
 * @n:            number of events
 * @cycles:       index of cycles, or -1
 * @instructions: index of instructions, or -1
 * @cpi_mask:     bits of cycles and instructions when both are counted
 *                (a call gets a CPI when neither is bad), else 0
 * @names:        the events' names, for the column headers
 * @pcpu:         per-CPU statistics
 */
struct sw_evgen {
	u32 set_id;
	u32 n;
	int cycles;
	int instructions;
	u32 cpi_mask;
	char names[SW_MAX_EVENTS][SW_EVENT_NAME_LEN];
	struct sw_evpcpu __percpu *pcpu;
};

/**
 * struct sw_evread - a probe's event statistics merged over all CPUs.
 * @n, @cycles, @instructions, @names: as in struct sw_evgen
 * @cpi: merged CPI statistics (valid when both cycles and instructions)
 * @ev:  merged statistics per event
 */
struct sw_evread {
	u32 n;
	int cycles;
	int instructions;
	char names[SW_MAX_EVENTS][SW_EVENT_NAME_LEN];
	struct sw_stats cpi;
	struct sw_evstat ev[SW_MAX_EVENTS];
};

/**
 * struct sw_aggs - the aggregations one probe's calls are folded into.
 * @gen: wall-time statistics (always present)
 * @bd:  breakdown tables, NULL when off
 * @evs: event statistics, NULL without events
 * @cost: the handlers' sampled runs (agg/cost_acc.h)
 * @path_id: the probe's id in the call paths (core/paths.c), fixed for
 *       its life; 0 keeps its calls off the paths
 * @trace: SW_TRACE_* bits (lib/parse.h): each call is also written as a
 *       record (core/trace.c) with @path_id as its id; fixed for the
 *       probe's life
 *
 * Each pointer is replaced under the owner's lock and read under RCU-sched
 * (the handlers run with preemption disabled).
 */
struct sw_aggs {
	struct sw_gen __rcu *gen;
	struct sw_bdgen __rcu *bd;
	struct sw_evgen __rcu *evs;
	struct sw_cost_acc __percpu __rcu *cost;
	u32 path_id;
	u32 trace;
};

/*
 * sw_agg_stats_add(), sw_agg_hist_count() - the handlers' writers of
 * statistics and histograms: lib/stats.h's sw_stats_add() and
 * sw_hist_count(), or the architecture's own where it has one
 * (SW_ARCH_STATS, wrapper/arch.h).
 * Context: any, including NMI; the caller serializes writers.
 */
static __always_inline void sw_agg_stats_add(struct sw_stats *s, u64 value)
{
#ifdef SW_ARCH_STATS
	BUILD_BUG_ON(offsetof(struct sw_stats, sum) != 8 ||
		     offsetof(struct sw_stats, min) != 16 ||
		     offsetof(struct sw_stats, max) != 24 ||
		     offsetof(struct sw_stats, sq) != 32 ||
		     sizeof(*s) != 48);
	sw_arch_stats_add((u64 *)s, value);
#else
	sw_stats_add(s, value);
#endif
}

static __always_inline void sw_agg_hist_count(u64 *hist, u64 value)
{
#ifdef SW_ARCH_STATS
	sw_arch_hist_count(hist + SW_HIST_BUCKETS - 1, value);
#else
	sw_hist_count(hist, value);
#endif
}

/*
 * sw_timing_record() - fold one call's wall time into this CPU's
 * statistics.
 * Context: the measurement core's exit half: preemption disabled, possibly
 * NMI; the only writer of this CPU's entry.  No locks, no allocation.
 */
static __always_inline void sw_timing_record(struct sw_gen *g, u64 ns,
					     u32 entry_cpu)
{
	struct sw_pcpu *pc = this_cpu_ptr(g->pcpu);
	bool migrated = entry_cpu != sw_cpu();
	unsigned int seq = sw_write_seqcount_begin(&pc->seq);

	sw_agg_stats_add(&pc->st, ns);
	pc->lin[sw_lhist_bucket_pre(ns, g->bits, g->lz, g->mask)]++;
	if (migrated)
		pc->migrated++;
	sw_write_seqcount_end(&pc->seq, seq);
	/* Its stamps came from two CPUs' clocks: are they still in step? */
	if (unlikely(migrated))
		sw_clock_check();
}

/*
 * sw_timing_filtered() - count one call left out by a filter.
 * Context: the measurement core's entry or exit half: preemption disabled,
 * possibly NMI; the only writer of this CPU's entry.  One aligned word:
 * readers need no retry for it.
 */
static __always_inline void sw_timing_filtered(struct sw_gen *g,
					       enum sw_filtered why)
{
	struct sw_pcpu *pc = this_cpu_ptr(g->pcpu);

	WRITE_ONCE(pc->filtered[why], pc->filtered[why] + 1);
}

/*
 * sw_evstat_add() - sw_evgen_record()'s step for event @i, into its
 * statistics @es.  Apart, so that a set of one event takes it with @i
 * constant, out of any loop.
 * Context: as sw_evgen_record(), inside its write section.
 */
static __always_inline void sw_evstat_add(struct sw_evstat *es,
					  const u64 *acc, u32 bad, u32 i)
{
	u64 v;

	if (bad & (1U << i)) {
		es->unmeasured++;
		return;
	}
	v = acc[i];
	sw_agg_stats_add(&es->st, v);
	sw_agg_hist_count(es->hist, v);
}

/*
 * sw_evgen_record_n() - count one returned call in this CPU's statistics.
 * @g:   the probe's event statistics
 * @n:   @g->n
 * @acc: the call's counts (struct sw_evcall.acc, struct sw_vcall.v); NULL
 *       only with @bad SW_EVCALL_ALL_BAD, for a call not measured against
 *       the events of @g at all (entered before they were set:
 *       sw_evgen_unmeasured())
 * @bad: events of @acc the call was not counted for
 *
 * Inline: it runs in every measured call with events.
 *
 * Context: the measurement core's exit half: preemption disabled, possibly
 * NMI; the only writer of this CPU's entry.  No locks, no allocation.
 */
static __always_inline void sw_evgen_record_n(struct sw_evgen *g, u32 n,
					      const u64 *acc, u32 bad)
{
	struct sw_evpcpu *pc = this_cpu_ptr(g->pcpu);
	u32 i;
	struct sw_evstat *es = pc->ev;
	unsigned int seq = sw_write_seqcount_begin(&pc->seq);

	/*
	 * The first event out of the loop (a set has one at least): one
	 * event, the common case, sets up no loop at all.
	 */
	sw_evstat_add(es, acc, bad, 0);
	/* One event has no cycles per instruction (that takes two). */
	if (unlikely(n > 1)) {
		u32 cpi_mask = g->cpi_mask;

		for (i = 1, es++; i < n; i++, es++)
			sw_evstat_add(es, acc, bad, i);
		if (unlikely(cpi_mask) && !(bad & cpi_mask)) {
			/* Returned, not through a pointer: no stack canary. */
			u64 cpi = sw_cpi_milli(acc[g->cycles],
					       acc[g->instructions]);

			if (cpi != SW_CPI_NONE)
				sw_agg_stats_add(&pc->cpi, cpi);
		}
	}
	sw_write_seqcount_end(&pc->seq, seq);
}

/*
 * sw_evgen_record_n() is sw_evgen_record() with @g's number of events
 * read by the caller (beside its set id: one pair load).
 */
static __always_inline void sw_evgen_record(struct sw_evgen *g,
					    const u64 *acc, u32 bad)
{
	sw_evgen_record_n(g, g->n, acc, bad);
}

/* sw_evgen_record() of a call with no counts for @g's events. */
static __always_inline void sw_evgen_unmeasured(struct sw_evgen *g)
{
	sw_evgen_record(g, NULL, SW_EVCALL_ALL_BAD);
}

/* agg/timing.c */
extern unsigned int sw_timing_bits;
struct sw_gen *sw_gen_alloc(void);
void sw_gen_free(struct sw_gen *g);
struct sw_timing *sw_timing_alloc(void);
void sw_timing_free(struct sw_timing *t);
void sw_gen_read(struct sw_gen *g, struct sw_timing *t);
void sw_gen_filtered(struct sw_gen *g, u64 filtered[3]);
void sw_gen_lhist_show(struct seq_file *m, const char *name, struct sw_gen *g,
		       struct sw_timing *tm);

/* agg/breakdown.c */
extern unsigned int sw_bd_slots;
int sw_bd_check_params(void);
struct sw_bdgen *sw_bdgen_alloc(struct sw_by by, const struct sw_evset *set);
void sw_bdgen_free(struct sw_bdgen *bd);
void sw_bd_add(struct sw_bdgen *bd, const struct sw_bd_key *key, u64 ns,
	       const u64 *acc, u32 bad);
void *sw_bd_rows_alloc(u32 nslots, void **snap);
void sw_bd_rows_free(void *rows, void *snap);
void sw_bdgen_show(struct seq_file *m, const char *probe,
		   struct sw_bdgen *bd, void *rows, void *snap);
void sw_keys_header(struct seq_file *m, const struct sw_evset *set);
void sw_keys_show(struct seq_file *m, const char *probe, struct sw_bdgen *bd,
		  const struct sw_evset *set, void *rows, void *snap);

/* agg/evstats.c */
struct sw_evgen *sw_evgen_alloc(const struct sw_evset *set);
void sw_evgen_free(struct sw_evgen *g);
int sw_evgen_read(struct sw_evgen *g, struct sw_evread *r);
void sw_evgen_header(struct seq_file *m, const struct sw_evset *set);
void sw_evgen_cols(struct seq_file *m, struct sw_evgen *g, struct sw_evread *r);

/* all of them */
int sw_aggs_alloc(struct sw_aggs *a, struct sw_by by,
		  const struct sw_evset *set);
void sw_aggs_free(struct sw_aggs *a);

#endif /* _STOPWATCH_AGG_H */
