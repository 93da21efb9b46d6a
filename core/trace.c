// SPDX-License-Identifier: GPL-2.0
/*
 * trace.c - the record of one traced call (struct sw_rec_call), written
 * into the sampler's stream of the CPU it returns on (sampler/trace.c),
 * after the call is folded into its probe's aggregations.
 */
#include <linux/kprobes.h>
#include <linux/sched.h>

#include <stopwatch/abi.h>

#include "sampler/trace.h"
#include "core.h"

/**
 * sw_core_trace() - write a returned call's record.
 * @a:    its probe's aggregations (@a->path_id is the record's id)
 * @s:    its probe's spec (keys), or NULL
 * @c:    the call's record (entry CPU, key parts captured at entry)
 * @regs: the registers at the function's return
 * @r:    the call as its fold takes it: wall time, events, path entry
 *
 * The record's time is the return's, on the stopwatch clock (the entry
 * stamp plus the duration where the stamp is on that clock), so that the
 * records of one CPU are in time order; the call began @r->ns before.  A lost
 * record is counted by the sampler (call_lost_*).
 *
 * Context: the core's exit half (SW_CORE_HALVES(), sw_core_exit_stacked()):
 * preemption disabled, possibly IRQs off or NMI.  No locks, no allocation.
 */
void sw_core_trace(const struct sw_aggs *a, const struct sw_spec *s,
		   const struct sw_call *c, struct pt_regs *regs,
		   const struct sw_ret *r)
{
	const struct sw_evset *set = NULL;
	struct sw_samp_cpu *cpu;
	u32 nkeys = 0, nev = 0, len, i;
	u16 flags = a->trace & SW_TRACE_RET ? SW_CALL_F_RET : 0;
	bool path = r->pd && r->pd->pgen;
	u64 now = sw_clock_end_ns(c->t0, r->ns), *w;

	if (unlikely(r->ns > U32_MAX))
		flags |= SW_CALL_F_DUR64;
	if (path)
		flags |= SW_CALL_F_PATH;
	if (unlikely(s) && s->by.own)
		for (i = 0; i < 2; i++)
			nkeys += s->by.k[i] != SW_KEY_NONE &&
				 s->by.k[i] != SW_KEY_COMM;
	if (r->measured) {
		set = rcu_dereference_sched(sw_evset);
		if (set && set->id == r->set_id) {
			nev = set->n;
			if (r->bad)
				flags |= SW_CALL_F_EV_BAD;
		}
	}
	flags |= nkeys << SW_CALL_NKEYS_SHIFT | nev << SW_CALL_NEV_SHIFT;
	w = sw_call_rec_start(flags, now, r->ns, (u16)a->path_id, (u16)c->cpu,
			      &cpu, &len);
	if (!w)
		return;
	if (flags & SW_CALL_F_RET)
		*w++ = regs_return_value(regs);
	if (path)
		*w++ = r->pd->node;
	for (i = 0; nkeys && i < 2; i++)
		if (s->by.k[i] != SW_KEY_NONE && s->by.k[i] != SW_KEY_COMM)
			*w++ = sw_core_key_value(s->by.k[i], c, c->key[i],
						 regs);
	if (flags & SW_CALL_F_EV_BAD)
		*w++ = r->bad;
	for (i = 0; i < nev; i++)
		*w++ = r->acc[i];
	sw_trace_commit(cpu, len);
}
NOKPROBE_SYMBOL(sw_core_trace);
