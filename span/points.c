// SPDX-License-Identifier: GPL-2.0
/*
 * points.c - where a span is hit.  An entry point is a kprobe, a return
 * point a kretprobe (its entry handler keeps the arguments, so keys of
 * arguments work at the return too), a tracepoint point a probe on the
 * tracepoint found by name.  Every handler reads the point's key, then
 * starts, stops or (self-paired) restarts in the span's in-flight table,
 * and folds a stopped interval into the span's statistics.
 *
 * Keys: arguments come from the registers (regs_get_kernel_argument()) or,
 * for a tracepoint, from the probe's own parameters: the tracepoint calls
 * sw_span_tp_probe() as it calls any probe, with its data pointer and its
 * prototype's arguments, which on x86_64 and arm64 travel in the first
 * six argument registers whatever their C types: the probe takes them as
 * six u64s (userspace checks through BTF that a key names only arguments
 * the prototype has).  Memory is read with copy_from_kernel_nofault(): a
 * bad pointer makes the hit count as unreadable, never an oops.
 */
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/uaccess.h>

#include <stopwatch/abi.h>

#include "control/control.h"
#include "wrapper/timekeeping.h"
#include "wrapper/tracepoint.h"
#include "core/core.h"
#include "core/cost.h"
#include "attach/attach.h"
#include "sampler/trace.h"
#include "span.h"

#define SW_SPAN_ARGS 6

/*
 * Evaluate @e; false when a memory read failed.  @user: the reads are of
 * user memory (a user point), with copy_from_user_nofault(), which never
 * faults a page in (a page not present counts as unreadable).
 */
static bool sw_span_eval(const struct sw_span_expr *e, const u64 *args,
			 u64 retval, bool user, u64 *out)
{
	u64 v;
	int i;

	if (e->base <= SW_SX_ARG5)
		v = args[e->base - SW_SX_ARG0];
	else if (e->base == SW_SX_RETVAL)
		v = retval;
	else if (e->base == SW_SX_TID)
		v = (u32)current->pid;
	else
		v = (u32)current->tgid;
	for (i = 0; i < e->nderef; i++) {
		unsigned long addr = (unsigned long)v + e->off[i];
		size_t size = i == e->nderef - 1 ? e->size : 8;

		v = 0;
		/* Little-endian (x86_64, arm64): a short read zero-extends. */
		if (user ? copy_from_user_nofault(&v, (void __user *)addr, size) :
			   copy_from_kernel_nofault(&v, (void *)addr, size))
			return false;
	}
	if (!e->nderef && e->size < 8)
		v &= (1ULL << (e->size * 8)) - 1;
	*out = v;
	return true;
}
NOKPROBE_SYMBOL(sw_span_eval);

static __always_inline void sw_span_count(struct sw_span *sp,
					  enum sw_span_count c)
{
	this_cpu_inc(sp->pcpu->n[c]);
}

/*
 * sw_span_trace() - write one folded interval as a record: struct
 * sw_rec_call with SW_CALL_F_SPAN, the span's id, the stop's thread, the
 * start's CPU, the key's values and, when measured (@pd), its events.
 * A lost record is counted by the sampler (call_lost_*).
 * Context: a point's handler, under the span's nesting guard
 * (sw_span_record()): preemption disabled, maybe IRQs off or NMI.
 */
static void sw_span_trace(struct sw_span *sp, const u64 k[2], u32 nkeys,
			  u64 now, u64 ns, u32 cpu0,
			  const struct sw_pending *pd)
{
	const struct sw_evset *set;
	struct sw_samp_cpu *cpu;
	u16 flags = SW_CALL_F_SPAN;
	u32 nev = 0, len, i;
	u64 *w;

	if (unlikely(ns > U32_MAX))
		flags |= SW_CALL_F_DUR64;
	if (pd) {
		set = rcu_dereference_sched(sw_evset);
		if (set && set->id == pd->set_id) {
			nev = set->n;
			if (pd->ev.bad)
				flags |= SW_CALL_F_EV_BAD;
		}
	}
	flags |= nkeys << SW_CALL_NKEYS_SHIFT | nev << SW_CALL_NEV_SHIFT;
	w = sw_call_rec_start(flags, now, ns, (u16)sp->id, (u16)cpu0, &cpu,
			      &len);
	if (!w)
		return;
	for (i = 0; i < nkeys; i++)
		*w++ = k[i];
	if (flags & SW_CALL_F_EV_BAD)
		*w++ = pd->ev.bad;
	for (i = 0; i < nev; i++)
		*w++ = pd->ev.acc[i];
	sw_trace_commit(cpu, len);
}
NOKPROBE_SYMBOL(sw_span_trace);

/*
 * Fold one interval of key @k (@nkeys values), stopped at @now after @ns,
 * into the span, with its events (@pd: its entry, its
 * counts under pd->set_id; NULL: time only, unmeasured, and @why, when
 * not SW_SC_NR, says why: other_thread or ev_lost, counted with the
 * intervals the filters let in); a traced span's interval is also written
 * as a record.  The per-CPU aggregations
 * have one writer per CPU: a handler of the span that interrupts another
 * on the same CPU (NMI) is counted as nested instead.
 */
static void sw_span_record(struct sw_span *sp, const u64 k[2], u32 nkeys,
			   u64 now, u64 ns, u32 cpu0,
			   const struct sw_pending *pd, int why)
{
	const struct sw_filter *f = &sp->cmd.filter;
	struct sw_evgen *evs;
	struct sw_gen *g;
	struct sw_bdgen *bd;

	if (this_cpu_inc_return(sp->pcpu->active) != 1) {
		sw_span_count(sp, SW_SC_NESTED);
		goto out;
	}
	g = rcu_dereference_sched(sp->aggs.gen);
	if ((f->flags & SW_F_ENTRY) && !sw_filter_entry(f)) {
		sw_timing_filtered(g, SW_FILTERED_ENTRY);
		goto out;
	}
	if ((f->flags & SW_F_WINDOW) && !sw_core_window(&sp->aggs, f, ns))
		goto out;
	sw_timing_record(g, ns, cpu0);
	if (why != SW_SC_NR)
		sw_span_count(sp, why);
	bd = rcu_dereference_sched(sp->aggs.bd);
	if (bd) {
		/*
		 * The stop thread's pid, tgid, comm or cpu: the core's keys;
		 * by=key: the interval's own key, as a captured argument
		 * (a pair key: by is key,key, its two values).
		 */
		struct sw_call c = {
			.cpu = sw_cpu(),
			.key = { k[0], nkeys > 1 ? k[1] : k[0] },
		};

		sw_core_key_record(bd, &c, NULL, ns,
				   pd && pd->set_id == bd->set_id ?
					   pd->ev.acc : NULL,
				   pd ? pd->ev.bad : 0);
	}
	evs = rcu_dereference_sched(sp->aggs.evs);
	if (evs && pd && evs->set_id == pd->set_id)
		sw_evgen_record(evs, pd->ev.acc, pd->ev.bad);
	else if (evs)
		sw_evgen_unmeasured(evs);
	if (unlikely(sp->aggs.trace))
		sw_span_trace(sp, k, nkeys, now, ns, cpu0, pd);
out:
	this_cpu_dec(sp->pcpu->active);
}
NOKPROBE_SYMBOL(sw_span_record);

/*
 * A start of @k: open its events entry on this thread (with an event set),
 * counting a failure by cause.
 */
static void sw_span_ev_open(struct sw_span *sp, const u64 k[2],
			    struct sw_span_start *st)
{
	switch (sw_core_open_owned(sp, k, st->t0)) {
	case SW_OWNED_OPEN:
		st->ev = 1;
		break;
	case SW_OWNED_NO_SLOT:
		sw_span_count(sp, SW_SC_EV_NO_SLOT);
		break;
	case SW_OWNED_TOO_DEEP:
		sw_span_count(sp, SW_SC_EV_TOO_DEEP);
		break;
	default:
		break;
	}
}
NOKPROBE_SYMBOL(sw_span_ev_open);

/*
 * The interval of @k (@nkeys values) started at @st ends now: fold it,
 * with its events.
 */
static void sw_span_close(struct sw_span *sp, const u64 k[2], u32 nkeys,
			  const struct sw_span_start *st, u64 now)
{
	struct sw_pending *pd = NULL;
	bool measured = false;
	int why = SW_SC_NR;

	if (st->tid != (u32)current->pid) {
		why = SW_SC_OTHER_THREAD;
	} else if (st->ev) {
		pd = sw_core_close_owned(sp, k, st->t0, &measured);
		if (!pd)
			why = SW_SC_EV_LOST;
	}
	sw_span_record(sp, k, nkeys, now, now > st->t0 ? now - st->t0 : 0,
		       st->cpu, measured ? pd : NULL, why);
	if (pd)
		sw_core_drop_owned(pd);
}
NOKPROBE_SYMBOL(sw_span_close);

/*
 * sw_span_hit_work() - a point was hit.
 * Context: the point's handler: preemption disabled, maybe IRQs off or
 * NMI; the same under PREEMPT_RT.  No locks, no allocation.
 */
static void sw_span_hit_work(struct sw_span_pt *pt, const u64 *args,
			     u64 retval)
{
	const struct sw_span_point *p = &pt->p;
	struct sw_span *sp = pt->span;
	struct sw_span_start st = {}, old;
	struct sw_span_slot *s;
	u64 k[2] = { 0, 0 }, c;
	bool user = p->kind >= SW_PT_UENTRY;
	u32 i;

	if (p->cond_op) {
		if (!sw_span_eval(&p->cond, args, retval, user, &c)) {
			sw_span_count(sp, SW_SC_UNREADABLE);
			return;
		}
		if ((c == p->cond_v) != (p->cond_op == SW_COND_EQ)) {
			sw_span_count(sp, SW_SC_SKIPPED);
			return;
		}
	}
	for (i = 0; i < p->key.n; i++) {
		if (!sw_span_eval(&p->key.e[i], args, retval, user, &k[i])) {
			sw_span_count(sp, SW_SC_UNREADABLE);
			return;
		}
	}
	st.t0 = sw_clock_ns();
	st.cpu = sw_cpu();
	st.tid = (u32)current->pid;
	s = sw_span_table_claim(&sp->tbl, k);
	if (p->role == SW_PT_STOP) {
		if (!s) {
			sw_span_count(sp, SW_SC_UNMATCHED);
			return;
		}
		old = s->st;
		sw_span_table_free_slot(s);
		sw_span_close(sp, k, p->key.n, &old, st.t0);
		return;
	}
	/* A start; self-paired: first close the interval @s opened. */
	if (s && p->role != SW_PT_START) {
		old = s->st;
		sw_span_close(sp, k, p->key.n, &old, st.t0);
	} else if (s) {
		sw_span_count(sp, SW_SC_RESTARTED);
	} else {
		s = sw_span_table_reserve(&sp->tbl, k);
		if (!s) {
			sw_span_count(sp, SW_SC_DROPPED_FULL);
			return;
		}
	}
	sw_span_count(sp, SW_SC_STARTED);
	/*
	 * The events entry last, then the slot: the same instructions follow
	 * the opening whichever way the slot was found, so that the counts
	 * of the intervals compare exactly.
	 */
	sw_span_ev_open(sp, k, &st);
	sw_span_table_put(s, &st);
}
NOKPROBE_SYMBOL(sw_span_hit_work);

/*
 * sw_span_hit_timed() - the same, timed (core/cost.h): counted in its
 * CPU's estimate of stopwatch's time, without the mechanism's fixed part
 * (not measured for span points).
 * Context: as sw_span_hit_work().
 */
static noinline void sw_span_hit_timed(struct sw_span_pt *pt,
				       const u64 *args, u64 retval)
{
	u64 t0 = sw_cost_begin();

	sw_span_hit_work(pt, args, retval);
	sw_cost_end(NULL, SW_COST_SPAN,
		    pt->p.role == SW_PT_STOP ? SW_COST_EXIT : SW_COST_ENTRY, t0);
}
NOKPROBE_SYMBOL(sw_span_hit_timed);

/*
 * sw_span_hit() - a point was hit: sw_span_hit_work(), timed on the runs
 * sw_cost_due() chooses.
 * Context: as sw_span_hit_work().
 */
static void sw_span_hit(struct sw_span_pt *pt, const u64 *args, u64 retval)
{
	if (sw_cost_due())
		sw_span_hit_timed(pt, args, retval);
	else
		sw_span_hit_work(pt, args, retval);
}
NOKPROBE_SYMBOL(sw_span_hit);

/* The first six argument registers of @regs (kernel's or user's). */
/*
 * The arguments a point's key and condition read: only the first
 * pt->nargs (sw_span_pt_nargs()); no expression reads the others.
 */
static __always_inline void sw_span_args(const struct sw_span_pt *pt,
					 struct pt_regs *regs, u64 *args)
{
	int i;

	for (i = 0; i < pt->nargs; i++)
		args[i] = regs_get_kernel_argument(regs, i);
}

static unsigned int sw_span_expr_nargs(const struct sw_span_expr *e)
{
	return e->base <= SW_SX_ARG5 ? e->base - SW_SX_ARG0 + 1 : 0;
}

/**
 * sw_span_pt_nargs() - how many leading arguments @pt's expressions read.
 * @pt: the point, its p filled in
 *
 * Context: process context, before the point is registered.
 */
void sw_span_pt_nargs(struct sw_span_pt *pt)
{
	unsigned int n = 0;
	u32 i;

	for (i = 0; i < pt->p.key.n && i < ARRAY_SIZE(pt->p.key.e); i++)
		n = max(n, sw_span_expr_nargs(&pt->p.key.e[i]));
	if (pt->p.cond_op != SW_COND_NONE)
		n = max(n, sw_span_expr_nargs(&pt->p.cond));
	pt->nargs = min_t(unsigned int, n, SW_SPAN_ARGS);
}

/* An entry point was hit: its arguments from @regs. Context: its handler. */
static void sw_span_hit_entry(struct sw_span_pt *pt, struct pt_regs *regs)
{
	u64 args[SW_SPAN_ARGS];

	sw_span_args(pt, regs, args);
	sw_span_hit(pt, args, 0);
}
NOKPROBE_SYMBOL(sw_span_hit_entry);

/*
 * sw_span_kp_pre() - an entry point's kprobe handler.
 * Context: kprobe pre-handler: preemption disabled, maybe IRQs off or NMI.
 */
static int sw_span_kp_pre(struct kprobe *kp, struct pt_regs *regs)
{
	sw_span_hit_entry(container_of(kp, struct sw_span_pt, kp), regs);
	return 0;
}
NOKPROBE_SYMBOL(sw_span_kp_pre);

/*
 * sw_span_krp_entry() - a return point's entry handler: keeps the
 * arguments in the instance.
 * Context: kprobe pre-handler: preemption disabled, maybe IRQs off or NMI.
 */
static int sw_span_krp_entry(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	struct kretprobe *krp = get_kretprobe(ri);

	/* Gone: the return handler will not use the instance either. */
	if (likely(krp))
		sw_span_args(container_of(krp, struct sw_span_pt, krp), regs,
			     (u64 *)ri->data);
	return 0;
}
NOKPROBE_SYMBOL(sw_span_krp_entry);

/*
 * sw_span_krp_ret() - a return point's handler.
 * Context: kretprobe return handler on the calling thread: preemption
 * disabled, maybe NMI.
 */
static int sw_span_krp_ret(struct kretprobe_instance *ri,
			   struct pt_regs *regs)
{
	struct kretprobe *krp = get_kretprobe(ri);
	struct sw_span_pt *pt;

	if (unlikely(!krp))
		return 0;
	pt = container_of(krp, struct sw_span_pt, krp);
	sw_span_hit(pt, (u64 *)ri->data, regs_return_value(regs));
	return 0;
}
NOKPROBE_SYMBOL(sw_span_krp_ret);

/*
 * sw_span_tp_probe() - a tracepoint point's probe, registered for every
 * tracepoint prototype: see the file comment.
 * Context: the tracepoint's caller with preemption disabled (IRQs off for
 * the scheduler's); the same under PREEMPT_RT.
 */
static void sw_span_tp_probe(void *data, u64 a0, u64 a1, u64 a2, u64 a3,
			     u64 a4, u64 a5)
{
	u64 args[SW_SPAN_ARGS] = { a0, a1, a2, a3, a4, a5 };

	sw_span_hit(data, args, 0);
}
NOKPROBE_SYMBOL(sw_span_tp_probe);

/*
 * sw_span_up_entry() - a user entry point's handler; arguments from the
 * user registers.
 * Context: the uprobe's handler in the probed task (attach/uprobe.c),
 * preemption disabled there; user memory reads never fault.
 */
static void sw_span_up_entry(struct sw_uprobe *u, struct pt_regs *regs)
{
	sw_span_hit_entry(container_of(u, struct sw_span_pt, up), regs);
}
NOKPROBE_SYMBOL(sw_span_up_entry);

/*
 * sw_span_up_return() - a user return point's handler (the arguments
 * are gone: the parser lets no key read them).
 * Context: as sw_span_up_entry(), at the function's return.
 */
static void sw_span_up_return(struct sw_uprobe *u, struct pt_regs *regs)
{
	struct sw_span_pt *pt = container_of(u, struct sw_span_pt, up);
	u64 args[SW_SPAN_ARGS] = {};

	sw_span_hit(pt, args, regs_return_value(regs));
}
NOKPROBE_SYMBOL(sw_span_up_return);

/**
 * sw_span_pt_register() - attach a point, armed.
 * @pt: the point (pt->span set)
 *
 * Says why it failed with sw_error(), naming the point.
 *
 * Context: process context, under the spans' lock.
 * Return: 0, -ENOENT (no such function or tracepoint), -EINVAL (cannot be
 * probed, or one of stopwatch's own functions) or another errno.
 */
int sw_span_pt_register(struct sw_span_pt *pt)
{
	const char *t = pt->p.target;
	void *addr;
	int ret;

	switch (pt->p.kind) {
	case SW_PT_UENTRY:
	case SW_PT_URETURN:
		snprintf(pt->uname, sizeof(pt->uname), "%s:0x%llx%s", t,
			 pt->p.uoffset,
			 pt->p.kind == SW_PT_URETURN ? "%return" : "");
		sw_uprobe_init(&pt->up, pt->uname, t, pt->p.uoffset, NULL,
			       NULL);
		if (pt->p.kind == SW_PT_UENTRY)
			pt->up.on_entry = sw_span_up_entry;
		else
			pt->up.on_return = sw_span_up_return;
		ret = sw_uprobe_register(&pt->up);
		if (ret)
			return ret;
		sw_uprobe_enable(&pt->up);
		pt->reg = true;
		return 0;
	case SW_PT_TP:
		pt->tp = sw_tracepoint_find(strchr(t, ':') + 1);
		if (!pt->tp) {
			/* A module's (tpmod.c), registered there. */
			pt->modtp = true;
			ret = sw_span_tpmod_attach(pt, strchr(t, ':') + 1,
						   (void *)sw_span_tp_probe);
			if (ret == -ENOENT)
				sw_error("span point '%s': no such tracepoint in the kernel or a loaded module",
					 t);
			else if (ret)
				sw_error("span point '%s': tracepoint_probe_register failed (%d)",
					 t, ret);
			if (ret)
				return ret;
			pt->reg = true;
			return 0;
		}
		ret = tracepoint_probe_register(pt->tp,
						(void *)sw_span_tp_probe, pt);
		if (ret) {
			sw_error("span point '%s': tracepoint_probe_register failed (%d)",
				 t, ret);
			return ret;
		}
		pt->reg = true;
		return 0;
	case SW_PT_RETURN:
		pt->krp.kp.symbol_name = t;
		pt->krp.entry_handler = sw_span_krp_entry;
		pt->krp.handler = sw_span_krp_ret;
		pt->krp.data_size = SW_SPAN_ARGS * sizeof(u64);
		pt->krp.maxactive = sw_maxactive();
		ret = register_kretprobe(&pt->krp);
		addr = pt->krp.kp.addr;
		break;
	default:
		pt->kp.symbol_name = t;
		pt->kp.pre_handler = sw_span_kp_pre;
		ret = register_kprobe(&pt->kp);
		addr = pt->kp.addr;
		break;
	}
	if (ret)
		return sw_kprobe_result("span point", t, ret, NULL);
	pt->reg = true;
	ret = sw_kprobe_result("span point", t, 0, addr);
	if (ret)
		sw_span_pt_unregister(&pt, 1);
	return ret;
}

/**
 * sw_span_pt_unregister() - detach points; when it returns no handler of
 * theirs runs any more.
 * @pts: the points (those not registered are skipped)
 * @n:   how many
 *
 * Context: process context.
 */
void sw_span_pt_unregister(struct sw_span_pt **pts, int n)
{
	struct sw_uprobe *ups[SW_SPAN_POINTS];
	int i, nup = 0;
	bool tp = false;

	for (i = 0; i < n; i++) {
		struct sw_span_pt *pt = pts[i];

		if (!pt->reg)
			continue;
		if (pt->p.kind >= SW_PT_UENTRY) {
			/* In one batch below: one wait for them all. */
			if (nup < SW_SPAN_POINTS)
				ups[nup++] = &pt->up;
		} else if (pt->p.kind == SW_PT_TP && pt->modtp) {
			/* Unless its module went (detached then). */
			if (sw_span_tpmod_detach(pt))
				tp = true;
		} else if (pt->p.kind == SW_PT_TP) {
			tracepoint_probe_unregister(pt->tp,
						    (void *)sw_span_tp_probe,
						    pt);
			tp = true;
		} else if (pt->p.kind == SW_PT_RETURN) {
			unregister_kretprobe(&pt->krp);
		} else {
			unregister_kprobe(&pt->kp);
		}
		pt->reg = false;
	}
	sw_uprobe_unregister(ups, nup);
	if (tp)
		tracepoint_synchronize_unregister();
}

/**
 * sw_span_pt_missed() - hits of a point kprobes did not hand to it.
 * @pt: the point
 *
 * Context: any.
 * Return: kprobe nmissed (another kprobe handler running on the CPU) plus,
 * for a return point, kretprobe nmissed (all instances in use).
 */
unsigned long sw_span_pt_missed(struct sw_span_pt *pt)
{
	/* The tracepoint and uprobe cores hand every hit over. */
	if (pt->p.kind == SW_PT_TP || pt->p.kind >= SW_PT_UENTRY)
		return 0;
	if (pt->p.kind == SW_PT_RETURN)
		return READ_ONCE(pt->krp.nmissed) +
		       READ_ONCE(pt->krp.kp.nmissed);
	return READ_ONCE(pt->kp.nmissed);
}
