// SPDX-License-Identifier: GPL-2.0
/*
 * evcall.c - per-call segment accounting of virtualized event counts.
 *
 * Context: every function runs in kretprobe handlers (any context,
 * including NMI) and in the sched_switch tracepoint (interrupts off); the
 * caller owns the struct sw_evcall (it is only touched by the thread that
 * made the call, or by the scheduler switching that thread).
 */
#include "evcall.h"

/**
 * sw_evcall_init() - start a call: no counts yet, first segment open.
 * @c: the call
 * @n: number of events
 * @s: the counters at entry, @n samples
 */
void sw_evcall_init(struct sw_evcall *c, unsigned int n,
		    const struct sw_ctr_sample *s)
{
	unsigned int i;
	u32 bad = 0;

	/* sw_evcall_begin() on a fresh call, in one pass. */
	for (i = 0; i < n; i++) {
		if (!s[i].ok)
			bad |= 1U << i;
		c->acc[i] = 0;
		c->start[i] = s[i].count;
		c->gap[i] = s[i].gap;
	}
	c->bad = bad;
	c->open = 1;
}
NOKPROBE_SYMBOL(sw_evcall_init);

/**
 * sw_evcall_begin() - the calling thread starts running: open a segment.
 * @c: the call
 * @n: number of events
 * @s: this CPU's counters now, @n samples
 *
 * A segment already open means a switch-out was missed: nothing about the
 * call can be trusted, every event is marked bad.
 */
void sw_evcall_begin(struct sw_evcall *c, unsigned int n,
		     const struct sw_ctr_sample *s)
{
	unsigned int i;

	if (c->open)
		c->bad = SW_EVCALL_ALL_BAD;
	for (i = 0; i < n; i++) {
		if (!s[i].ok)
			c->bad |= 1U << i;
		c->start[i] = s[i].count;
		c->gap[i] = s[i].gap;
	}
	c->open = 1;
}
NOKPROBE_SYMBOL(sw_evcall_begin);

/**
 * sw_evcall_end() - the calling thread stops running or returns: close the
 * open segment and add its counts.
 * @c: the call
 * @n: number of events
 * @s: this CPU's counters now (the CPU the segment ran on), @n samples
 *
 * The segment counts for event i only if the counter was active at both
 * ends and its gap did not grow in between (it never stopped counting);
 * otherwise event i is bad for the call.  Closing a segment that is not
 * open marks every event bad.
 */
void sw_evcall_end(struct sw_evcall *c, unsigned int n,
		   const struct sw_ctr_sample *s)
{
	unsigned int i;

	if (!c->open) {
		c->bad = SW_EVCALL_ALL_BAD;
		return;
	}
	c->open = 0;
	for (i = 0; i < n; i++) {
		u32 bit = 1U << i;

		if (c->bad & bit)
			continue;
		if (!s[i].ok || s[i].gap != c->gap[i] ||
		    s[i].count < c->start[i]) {
			c->bad |= bit;
			continue;
		}
		c->acc[i] += s[i].count - c->start[i];
	}
}
NOKPROBE_SYMBOL(sw_evcall_end);

/**
 * sw_cpi_milli() - cycles per instruction of one call, fixed point.
 * @cycles:       cycles of the call
 * @instructions: instructions of the call
 * @cpi:          CPI x SW_CPI_SCALE, rounded down; output
 *
 * Return: false (and no @cpi) when the call retired no instruction.
 */
bool sw_cpi_milli(u64 cycles, u64 instructions, u64 *cpi)
{
	if (!instructions)
		return false;
	*cpi = mul_u64_u64_div_u64(cycles, SW_CPI_SCALE, instructions);
	return true;
}
NOKPROBE_SYMBOL(sw_cpi_milli);
