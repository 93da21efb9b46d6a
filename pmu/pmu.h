/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmu.h - virtualized per-thread event counts for stopwatch calls.
 *
 *   counters.c  the event set: one perf kernel counter per CPU per event,
 *               created and released by CPU hotplug callbacks, read from
 *               probe context; the "events" control (all or nothing)
 *   virt.c      the sched_switch tracepoint that closes and opens the
 *               segments of every call in flight of the threads switched
 *   evstats.c   per-probe, per-CPU statistics and histograms per event
 */
#ifndef _STOPWATCH_PMU_H
#define _STOPWATCH_PMU_H

#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/seqlock.h>
#include <linux/seq_file.h>

#include "lib/events.h"
#include "lib/evcall.h"
#include "lib/stats.h"

/**
 * struct sw_evcpu - one CPU's counters of an event set.
 * @grave: entry in the list of counters to release (CPU gone offline)
 * @ev:    counter per event; NULL when creating it failed (calls on this
 *         CPU are then unmeasured for that event)
 */
struct sw_evcpu {
	struct list_head grave;
	struct perf_event *ev[SW_MAX_EVENTS];
};

/**
 * struct sw_evset - the events counted for every probe.
 * @id:           never reused; a call records the id it was entered with
 * @n:            number of events, 1..SW_MAX_EVENTS
 * @cycles:       index of the cycles event, or -1
 * @instructions: index of the instructions event, or -1
 * @spec:         the events
 * @cpu:          per CPU (nr_cpu_ids entries), that CPU's counters while it
 *                is online (RCU; NULL while offline or not yet made)
 *
 * Published through the RCU pointer sw_evset, replaced under sw_lock.
 */
struct sw_evset {
	u32 id;
	u32 n;
	int cycles;
	int instructions;
	struct sw_event_spec spec[SW_MAX_EVENTS];
	struct sw_evcpu __rcu **cpu;
};

extern struct sw_evset __rcu *sw_evset;

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
 * @names:        the events' names, for the column headers
 * @pcpu:         per-CPU statistics
 */
struct sw_evgen {
	u32 set_id;
	u32 n;
	int cycles;
	int instructions;
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

/* pmu/counters.c */
int sw_pmu_init(const char *events);
void sw_pmu_exit(void);
int sw_pmu_events_apply(char *list);
void sw_pmu_events_show(struct seq_file *m);
int sw_pmu_counters_show(struct seq_file *m);
void sw_pmu_read(const struct sw_evset *set, struct sw_ctr_sample *s);

/* pmu/virt.c */
int sw_virt_init(void);
void sw_virt_exit(void);

/* pmu/evstats.c */
struct sw_evgen *sw_evgen_alloc(const struct sw_evset *set);
void sw_evgen_free(struct sw_evgen *g);
void sw_evgen_record(struct sw_evgen *g, const struct sw_evcall *ev);
int sw_evgen_read(struct sw_evgen *g, struct sw_evread *r);

#endif /* _STOPWATCH_PMU_H */
