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

/**
 * sw_span_table_claim() - own (state 2 -> 1) the slot holding a start of
 * @k; the caller reads it, then gives it back with sw_span_table_put()
 * (holding a new start) or sw_span_table_free_slot().
 * @t: the table
 * @k: the key
 *
 * Context: a point's handler; see the file comment.
 * Return: the slot, or NULL when no start of @k is in flight.
 */
struct sw_span_slot *sw_span_table_claim(struct sw_span_table *t,
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
NOKPROBE_SYMBOL(sw_span_table_claim);

/**
 * sw_span_table_put() - a claimed slot holds the start @st (its key stays).
 * @s:  the slot, from sw_span_table_claim()
 * @st: the start: time, CPU, thread, whether it has an events entry
 *
 * Context: a point's handler; see the file comment.
 */
void sw_span_table_put(struct sw_span_slot *s, const struct sw_span_start *st)
{
	s->st = *st;
	atomic_set_release(&s->state, 2);
}
NOKPROBE_SYMBOL(sw_span_table_put);

/**
 * sw_span_table_free_slot() - a claimed slot is free again.
 * @s: the slot, from sw_span_table_claim()
 *
 * Context: a point's handler; see the file comment.
 */
void sw_span_table_free_slot(struct sw_span_slot *s)
{
	atomic_set_release(&s->state, 0);
}
NOKPROBE_SYMBOL(sw_span_table_free_slot);

/**
 * sw_span_table_reserve() - own a free slot for a new start of @k: its
 * key written, the caller fills the start in with sw_span_table_put().
 * @t: the table
 * @k: the key
 *
 * Context: a point's handler; see the file comment.
 * Return: the slot, or NULL when the window of @k's slots is full.
 */
struct sw_span_slot *sw_span_table_reserve(struct sw_span_table *t,
					   const u64 k[2])
{
	u32 h = sw_span_hash(t, k), i;

	for (i = 0; i < t->window; i++) {
		struct sw_span_slot *s = &t->slots[(h + i) & t->mask];

		if (atomic_read(&s->state) != 0 ||
		    atomic_cmpxchg(&s->state, 0, 1) != 0)
			continue;
		WRITE_ONCE(s->k[0], k[0]);
		WRITE_ONCE(s->k[1], k[1]);
		return s;
	}
	return NULL;
}
NOKPROBE_SYMBOL(sw_span_table_reserve);

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
		t0 = READ_ONCE(s->st.t0);
		if (now <= t0 || now - t0 <= age_ns)
			continue;
		if (atomic_cmpxchg(&s->state, 2, 1) != 2)
			continue;
		/* Restarted between the test and the claim? */
		t0 = s->st.t0;
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
