/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmu.h - the event set, a service: one perf kernel counter per CPU per
 * event, created and released by CPU hotplug callbacks, read from any
 * context (sw_pmu_read()); the "events" and "counters" files.  It knows
 * nothing of probes or calls: the measurement core (core/) reads the
 * counters at entry, exit and context switches, and the one client that
 * keeps per-set state is told of changes through struct sw_pmu_client.
 */
#ifndef _STOPWATCH_PMU_H
#define _STOPWATCH_PMU_H

#include <linux/irqflags.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/seqlock.h>
#include <linux/seq_file.h>

#include "wrapper/irqflags.h"
#include "wrapper/perf_event.h"
#include "wrapper/smp.h"
#include "lib/events.h"
#include "lib/evcall.h"
#include "lib/stats.h"

/**
 * struct sw_evctr - one counter of a CPU, as the handlers read it.
 * @e:     the perf counter; NULL when creating it failed (calls on this
 *         CPU are then unmeasured for that event)
 * @mask:  when sw_pmu_read() reads the hardware counter directly, the mask
 *         of its width (2^width - 1), else 0 (read through pmu->read())
 * @voff:  what turns the counter into the virtual count of the thread
 *         running on this CPU (its count over its own time on CPUs):
 *         written by the sched_switch hook, core/virt.c says how
 * @vgoff: the same for the counter's gap (time enabled but not counting)
 */
struct sw_evctr {
	struct perf_event *e;
	u64 mask;
	u64 voff;
	u64 vgoff;
};

/**
 * struct sw_evcpu - one CPU's counters of an event set.
 * @grave: entry in the list of counters to release (CPU gone offline)
 * @ctr:   per event, its counter: pointer and mask side by side, walked
 *         in one pass by the handlers
 */
struct sw_evcpu {
	struct list_head grave;
	struct sw_evctr ctr[SW_MAX_EVENTS];
};

/**
 * struct sw_evset - the events counted for every probe.
 * @id:           never reused; a call records the id it was entered with
 * @n:            number of events, 1..SW_MAX_EVENTS
 * @cycles:       index of the cycles event paired with @instructions
 *                (counted in the same modes) for CPI, or -1
 * @instructions: index of the instructions event, or -1
 * @spec:         the events
 * @cpu:          per CPU (nr_cpu_ids entries), that CPU's counters while it
 *                is online (RCU; NULL while offline or not yet made)
 *
 * Published through the RCU pointer sw_evset, replaced holding the pmu's
 * mutex and the client's lock (struct sw_pmu_client).
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
 * struct sw_pmu_client - who keeps per-event-set state and must follow a
 * change of the event set (the probe registry: every probe's event
 * statistics belong to one set).  Handed to sw_pmu_init(); the pmu never
 * calls anything above it except through these.
 * @prepare: allocate the state for @set (NULL: no events) and lock it
 *           against other changes; returns 0 holding the client's lock, or
 *           a negative errno (nothing held, nothing allocated)
 * @commit:  publish what @prepare made (cannot fail) and drop the lock;
 *           called after the new set is published
 * @abort:   drop the lock and free what @prepare made
 * @done:    free what @commit replaced; no handler can see it any more
 */
struct sw_pmu_client {
	int (*prepare)(const struct sw_evset *set);
	void (*commit)(void);
	void (*abort)(void);
	void (*done)(void);
};

/* pmu/counters.c */
int sw_pmu_init(const struct sw_pmu_client *client);
void sw_pmu_exit(void);
struct sw_evset *sw_pmu_set_locked(void);

/*
 * sw_pmu_read_ctr() - read one counter of this CPU (sw_pmu_read()'s step,
 * for callers that fold each value as it comes); sw_pmu_read_ctr_direct()
 * by the direct read only (false when it must go through perf, and always
 * where the architecture has no direct read).
 * @ctr: the counter, from this CPU's struct sw_evcpu
 * @cpu: this CPU
 * @s:   the sample, output; untouched when there is no value
 *
 * Context: interrupts off (sw_irq_save()), preemption off.
 * Return: false when the counter has no value (none on this CPU, not
 * active on it).
 */
static __always_inline bool sw_pmu_read_ctr_direct(const struct sw_evctr *ctr,
						   int cpu,
						   struct sw_ctr_sample *s)
{
#ifdef SW_PMU_DIRECT
	/*
	 * A published set's counters do not change: plain loads, which the
	 * compiler may pair.  A mask is set only beside a counter.
	 */
	struct perf_event *e = ctr->e;
	u64 mask = ctr->mask;

	/* Checks for itself that the counter runs here (its index says). */
	if (likely(mask) && likely(sw_pmu_direct_read(e, mask, cpu, &s->count))) {
		s->gap = e->total_time_enabled - e->total_time_running;
		return true;
	}
#endif
	return false;
}

static __always_inline bool sw_pmu_read_ctr(const struct sw_evctr *ctr,
					    int cpu, struct sw_ctr_sample *s)
{
	struct perf_event *e = ctr->e;

	if (likely(sw_pmu_read_ctr_direct(ctr, cpu, s)))
		return true;
	if (unlikely(!e) || READ_ONCE(e->state) != PERF_EVENT_STATE_ACTIVE ||
	    READ_ONCE(e->oncpu) != cpu)
		return false;
	e->pmu->read(e);
	s->count = local64_read(&e->count);
	s->gap = e->total_time_enabled - e->total_time_running;
	return true;
}

/*
 * sw_pmu_read() - read this CPU's counters of @set.
 * @set: the event set
 * @s:   one sample per event, output (set->n entries); an event the
 *       reading has no value for leaves its sample untouched
 *
 * perf_event_read_local() is not exported and perf_event_read_value()
 * sleeps, so this reads the way the former does: with interrupts off
 * (no counter scheduling, rotation or IPI can intervene), only a counter
 * that is active on this very CPU.  Interrupts go off once for the whole
 * set, and only if they are not off already.  A hardware counter the
 * architecture lets us read (sw_evctr.mask) is read directly: the count
 * pmu->read() would fold, without its indirect call and without writing
 * the event (wrapper/perf_event.h, sw_pmu_direct_read(), says why that
 * is exact and safe against the overflow interrupt).  Any other counter,
 * or one whose hardware counter cannot be read directly right now, goes
 * through pmu->read(), which folds the hardware counter into perf's
 * 64-bit count (never the raw hardware width) and is safe against the
 * PMU's own overflow interrupt, NMI included.  Each event is checked
 * active and on this CPU before it is read: perf schedules and
 * multiplexes counters one by one.
 *
 * Inline: it runs twice in every measured call with events.
 *
 * Context: the measurement core's handlers (preemption off, any context
 * including NMI) and the sched_switch tracepoint (interrupts off).  Under
 * PREEMPT_RT the same: the raw irq flags are the hardware's there too.
 * Return: the mask of the events with no value (no counter on this CPU,
 * not active on it): bit i for event i.
 */
static __always_inline u32 sw_pmu_read(const struct sw_evset *set,
				       struct sw_ctr_sample *s)
{
	unsigned int cpu = sw_cpu();
	struct sw_evcpu *c = rcu_dereference_sched(set->cpu[cpu]);
	unsigned long flags;
	u32 i, n = set->n, unread = 0;

	if (unlikely(!c))
		return SW_EVCALL_ALL_BAD;
	flags = sw_irq_save();
	for (i = 0; i < n; i++)
		if (!sw_pmu_read_ctr(&c->ctr[i], cpu, &s[i]))
			unread |= 1U << i;
	sw_irq_restore(flags);
	return unread;
}

#endif /* _STOPWATCH_PMU_H */
