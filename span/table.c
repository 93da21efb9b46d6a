// SPDX-License-Identifier: GPL-2.0
/*
 * table.c - the in-flight table of a span: the starts waiting for their
 * stop, shared by every CPU (a start on one CPU is found by a stop on
 * another), preallocated when the span is made, bounded.
 *
 * Open addressing: a key hashes to a slot and an operation looks at the
 * window of min(32, slots) slots from there.  Each slot's state word is
 * the only synchronization: 0 free, 1 owned by one operation (being
 * written, or claimed by a stop, a restart or the age scan), 2 holding a
 * start.  An operation owns a slot only through a successful cmpxchg, so
 * no handler ever waits: a slot owned by someone else is skipped.  This
 * is safe in NMI and on every CPU at once.  Two starts of one key racing
 * on two CPUs may both be stored; the stop of that key takes one of them
 * and the other ages out (counted as abandoned).
 *
 * Context: the start, stop and restart operations run in the points'
 * handlers (preemption off, maybe IRQs off or NMI): no locks, no
 * allocation.  Alloc, free, expire and clear run in process context.
 */
#include <linux/atomic.h>
#include <linux/hash.h>
#include <linux/kprobes.h>
#include <linux/slab.h>

#include "span.h"

static __always_inline u32 sw_span_hash(const struct sw_span_table *t,
					const u64 k[2])
{
	return (u32)hash_64(k[0] ^ hash_64(k[1] + 0x9e3779b97f4a7c15ULL, 63),
			    32) & t->mask;
}

static __always_inline bool sw_span_slot_is(const struct sw_span_slot *s,
					    const u64 k[2])
{
	return READ_ONCE(s->k[0]) == k[0] && READ_ONCE(s->k[1]) == k[1];
}

/* Claim (state 2 -> 1) the slot holding a start of @k, or NULL. */
static struct sw_span_slot *sw_span_claim(struct sw_span_table *t,
					  const u64 k[2])
{
	u32 h = sw_span_hash(t, k), i;

	for (i = 0; i < t->window; i++) {
		struct sw_span_slot *s = &t->slots[(h + i) & t->mask];

		if (atomic_read_acquire(&s->state) != 2 ||
		    !sw_span_slot_is(s, k))
			continue;
		if (atomic_cmpxchg(&s->state, 2, 1) != 2)
			continue;
		/* Freed and reused between the test and the claim? */
		if (sw_span_slot_is(s, k))
			return s;
		atomic_set_release(&s->state, 2);
	}
	return NULL;
}
NOKPROBE_SYMBOL(sw_span_claim);

/* Store a new start of @k in a free slot; -ENOSPC when none is free. */
static int sw_span_insert(struct sw_span_table *t, const u64 k[2], u64 now,
			  u32 cpu)
{
	u32 h = sw_span_hash(t, k), i;

	for (i = 0; i < t->window; i++) {
		struct sw_span_slot *s = &t->slots[(h + i) & t->mask];

		if (atomic_read(&s->state) != 0 ||
		    atomic_cmpxchg(&s->state, 0, 1) != 0)
			continue;
		WRITE_ONCE(s->k[0], k[0]);
		WRITE_ONCE(s->k[1], k[1]);
		s->t0 = now;
		s->cpu = cpu;
		atomic_set_release(&s->state, 2);
		return 0;
	}
	return -ENOSPC;
}
NOKPROBE_SYMBOL(sw_span_insert);

/**
 * sw_span_table_start() - a start of key @k at @now on @cpu.
 * @t:         the table
 * @k:         the key
 * @now:       sw_clock_ns()
 * @cpu:       the CPU
 * @restarted: set when a start of @k was already in flight (replaced)
 *
 * Context: a point's handler; see the file comment.
 * Return: 0, or -ENOSPC when the window of @k's slots is full.
 */
int sw_span_table_start(struct sw_span_table *t, const u64 k[2], u64 now,
			u32 cpu, bool *restarted)
{
	struct sw_span_slot *s = sw_span_claim(t, k);

	*restarted = s;
	if (s) {
		s->t0 = now;
		s->cpu = cpu;
		atomic_set_release(&s->state, 2);
		return 0;
	}
	return sw_span_insert(t, k, now, cpu);
}
NOKPROBE_SYMBOL(sw_span_table_start);

/**
 * sw_span_table_stop() - take the start of key @k out of the table.
 * @t:   the table
 * @k:   the key
 * @t0:  its time, output
 * @cpu: its CPU, output
 *
 * Context: a point's handler; see the file comment.
 * Return: true when a start of @k was in flight.
 */
bool sw_span_table_stop(struct sw_span_table *t, const u64 k[2], u64 *t0,
			u32 *cpu)
{
	struct sw_span_slot *s = sw_span_claim(t, k);

	if (!s)
		return false;
	*t0 = s->t0;
	*cpu = s->cpu;
	atomic_set_release(&s->state, 0);
	return true;
}
NOKPROBE_SYMBOL(sw_span_table_stop);

/**
 * sw_span_table_restart() - a hit of a self-paired point: close the
 * interval @k's previous hit opened, open the next.
 * @t:    the table
 * @k:    the key
 * @now:  sw_clock_ns()
 * @cpu:  the CPU
 * @t0:   the previous hit's time, output when there was one
 * @cpu0: its CPU, likewise
 *
 * Context: a point's handler; see the file comment.
 * Return: 1 when a previous hit was found, 0 when this is the first one
 * (stored), -ENOSPC when it found no free slot.
 */
int sw_span_table_restart(struct sw_span_table *t, const u64 k[2], u64 now,
			  u32 cpu, u64 *t0, u32 *cpu0)
{
	struct sw_span_slot *s = sw_span_claim(t, k);

	if (!s)
		return sw_span_insert(t, k, now, cpu);
	*t0 = s->t0;
	*cpu0 = s->cpu;
	s->t0 = now;
	s->cpu = cpu;
	atomic_set_release(&s->state, 2);
	return 1;
}
NOKPROBE_SYMBOL(sw_span_table_restart);

/**
 * sw_span_table_expire() - free the starts older than @age_ns.
 * @t:      the table
 * @now:    sw_clock_ns()
 * @age_ns: the age limit
 *
 * Context: process context; runs while the handlers use the table.
 * Return: how many were freed.
 */
unsigned long sw_span_table_expire(struct sw_span_table *t, u64 now,
				   u64 age_ns)
{
	unsigned long n = 0;
	u32 i;

	for (i = 0; i <= t->mask; i++) {
		struct sw_span_slot *s = &t->slots[i];
		u64 t0;

		if (atomic_read_acquire(&s->state) != 2)
			continue;
		t0 = READ_ONCE(s->t0);
		if (now <= t0 || now - t0 <= age_ns)
			continue;
		if (atomic_cmpxchg(&s->state, 2, 1) != 2)
			continue;
		/* Restarted between the test and the claim? */
		t0 = s->t0;
		if (now <= t0 || now - t0 <= age_ns) {
			atomic_set_release(&s->state, 2);
			continue;
		}
		atomic_set_release(&s->state, 0);
		n++;
	}
	return n;
}

/**
 * sw_span_table_clear() - free every start in flight.
 * @t: the table
 *
 * Context: process context; runs while the handlers use the table.
 * Return: how many were freed.
 */
unsigned long sw_span_table_clear(struct sw_span_table *t)
{
	return sw_span_table_expire(t, U64_MAX, 0);
}

/**
 * sw_span_table_used() - starts in flight now.
 * @t: the table
 *
 * Context: any; a snapshot that may be stale as soon as it is taken.
 * Return: the number of slots holding a start.
 */
u32 sw_span_table_used(struct sw_span_table *t)
{
	u32 i, n = 0;

	for (i = 0; i <= t->mask; i++)
		n += atomic_read(&t->slots[i].state) == 2;
	return n;
}

/**
 * sw_span_table_alloc() - allocate an empty table.
 * @t:     the table
 * @slots: its size, a power of two of at least SW_SPAN_SLOTS_MIN
 *
 * Context: process context; may sleep.
 * Return: 0 or -ENOMEM.
 */
int sw_span_table_alloc(struct sw_span_table *t, u32 slots)
{
	t->slots = kvcalloc(slots, sizeof(*t->slots), GFP_KERNEL);
	if (!t->slots)
		return -ENOMEM;
	t->mask = slots - 1;
	t->window = min_t(u32, SW_SPAN_WINDOW, slots);
	return 0;
}

/**
 * sw_span_table_free() - free a table no handler can reach any more.
 * @t: the table
 *
 * Context: process context.
 */
void sw_span_table_free(struct sw_span_table *t)
{
	kvfree(t->slots);
	t->slots = NULL;
}
