/* SPDX-License-Identifier: GPL-2.0 */
/*
 * evcall.h - the per-call bookkeeping of virtualized event counts.
 *
 * A probed call's count of event E is the sum, over the stretches of time
 * the calling thread ran on a CPU (segments), of that CPU's counter at the
 * end of the segment minus its value at the start.  Segments open at call
 * entry and whenever the thread is switched in, and close whenever it is
 * switched out and at return.  An event whose counter did not count for
 * the whole of every segment (missing, not active, multiplexed out, in
 * error) is marked bad for the call, which then is not measured for it.
 *
 * Pure logic: compiled into stopwatch.ko and into host unit tests.  Every
 * function here runs in the kretprobe and sched_switch handlers: no locks,
 * no allocation.
 */
#ifndef _STOPWATCH_EVCALL_H
#define _STOPWATCH_EVCALL_H

#include "wrapper/types.h"
#include "events.h"

/**
 * struct sw_ctr_sample - one reading of one counter on the local CPU.
 * @count: perf's 64-bit count
 * @gap:   time enabled minus time running, ns; grows only while the
 *         counter is enabled but not counting
 *
 * A reading of an event set is an array of these plus a mask of the
 * events that could not be read (no counter, not active on this CPU):
 * their samples hold nothing.
 */
struct sw_ctr_sample {
	u64 count;
	u64 gap;
};

/**
 * struct sw_evcall - virtualized counts of one call in flight.
 * @acc:   counts of the closed segments
 * @start: the counters when the open segment began
 * @bad:   bit i set: event i did not count for part of the call
 * @open:  1 while a segment is open (the thread is on a CPU)
 */
struct sw_evcall {
	u64 acc[SW_MAX_EVENTS];
	struct sw_ctr_sample start[SW_MAX_EVENTS];
	u32 bad;
	u32 open;
};

#define SW_EVCALL_ALL_BAD ((1U << SW_MAX_EVENTS) - 1)

/*
 * The segment operations, inline: they run at every measured call's entry
 * and exit and at context switches.  Each takes a reading of the counters
 * (@n samples) and @unread, the mask of the events the reading has no
 * value for.  Context: kretprobe handlers (any context, including NMI)
 * and the sched_switch tracepoint (interrupts off); the caller owns the
 * struct sw_evcall (it is only touched by the thread that made the call,
 * or by the scheduler switching that thread).
 */

/**
 * sw_evcall_opened() - start a call whose entry reading is already in
 * @c->start (read there directly: no copy): no counts yet, first segment
 * open.
 * @c:      the call
 * @unread: events the entry reading has no value for
 *
 * Every @acc is zeroed, used or not, by one store per count: four store
 * pairs on arm64.  A loop would become a call to memset (no inline
 * memset where the kernel may not use vector registers).
 */
static __always_inline void sw_evcall_opened(struct sw_evcall *c, u32 unread)
{
	_Static_assert(SW_MAX_EVENTS == 8, "one store per count below");
	c->acc[0] = 0;
	c->acc[1] = 0;
	c->acc[2] = 0;
	c->acc[3] = 0;
	c->acc[4] = 0;
	c->acc[5] = 0;
	c->acc[6] = 0;
	c->acc[7] = 0;
	c->bad = unread;
	c->open = 1;
}

/**
 * sw_evcall_init() - start a call: no counts yet, first segment open.
 * @c:      the call
 * @n:      number of events
 * @s:      the counters at entry, @n samples
 * @unread: events @s has no value for
 */
static __always_inline void sw_evcall_init(struct sw_evcall *c,
					   unsigned int n,
					   const struct sw_ctr_sample *s,
					   u32 unread)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		c->start[i] = s[i];
	sw_evcall_opened(c, unread);
}

/**
 * sw_evcall_begin() - the calling thread starts running: open a segment.
 * @c:      the call
 * @n:      number of events
 * @s:      this CPU's counters now, @n samples
 * @unread: events @s has no value for
 *
 * A segment already open means a switch-out was missed: nothing about the
 * call can be trusted, every event is marked bad.
 */
static __always_inline void sw_evcall_begin(struct sw_evcall *c,
					    unsigned int n,
					    const struct sw_ctr_sample *s,
					    u32 unread)
{
	unsigned int i;

	if (c->open)
		c->bad = SW_EVCALL_ALL_BAD;
	c->bad |= unread;
	for (i = 0; i < n; i++)
		c->start[i] = s[i];
	c->open = 1;
}

/**
 * sw_evcall_end_ev() - sw_evcall_end()'s step for event @i, for a caller
 * that closes the segment as it reads the counters: it clears @c->open
 * and stores the returned mask in @c->bad itself.
 * @c:   the call, its segment open
 * @i:   the event
 * @s:   this CPU's counter of event @i now
 * @bad: the call's bad events so far
 *
 * Return: @bad, with event @i added when this segment does not count.
 */
static __always_inline u32 sw_evcall_end_ev(struct sw_evcall *c,
					    unsigned int i,
					    const struct sw_ctr_sample *s,
					    u32 bad)
{
	const struct sw_ctr_sample *st = &c->start[i];

	if (bad & (1U << i))
		return bad;
	if (s->gap != st->gap || s->count < st->count)
		return bad | 1U << i;
	c->acc[i] += s->count - st->count;
	return bad;
}

/**
 * sw_evcall_end() - the calling thread stops running or returns: close the
 * open segment and add its counts.
 * @c:      the call
 * @n:      number of events
 * @s:      this CPU's counters now (the CPU the segment ran on), @n samples
 * @unread: events @s has no value for
 *
 * The segment counts for event i only if the counter was active at both
 * ends and its gap did not grow in between (it never stopped counting);
 * otherwise event i is bad for the call.  Closing a segment that is not
 * open marks every event bad.
 */
static __always_inline void sw_evcall_end(struct sw_evcall *c,
					  unsigned int n,
					  const struct sw_ctr_sample *s,
					  u32 unread)
{
	u32 bad = c->bad | unread;
	unsigned int i;

	if (!c->open) {
		c->bad = SW_EVCALL_ALL_BAD;
		return;
	}
	c->open = 0;
	for (i = 0; i < n; i++)
		bad = sw_evcall_end_ev(c, i, &s[i], bad);
	c->bad = bad;
}

/* Fixed-point scale of cycles-per-instruction values: 1000 = 1.000 CPI. */
#define SW_CPI_SCALE 1000

/* sw_cpi_milli()'s answer for a call that retired no instruction. */
#define SW_CPI_NONE (~0ULL)

u64 sw_cpi_milli(u64 cycles, u64 instructions);

#endif /* _STOPWATCH_EVCALL_H */
