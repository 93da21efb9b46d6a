// SPDX-License-Identifier: GPL-2.0
/*
 * tramp_run.c - the handler halves of the direct-call trampolines, called
 * by the companion module's common body (tramp/stubs.c, through the ops
 * tramp.c attached) with the trampoline's frame (see tramp.c for the
 * mechanism, its calls in flight and its reentry guard).
 */
#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/ptrace.h>

#include "core/core.h"
#include "core/cost.h"
#include "wrapper/kprobes.h"
#include "tramp.h"

#ifdef SW_HAVE_TRAMP

struct sw_tramp *sw_tramp_slot[SW_TRAMP_SLOTS];

/* A handler half runs on this CPU: the core's single writer per CPU. */
static DEFINE_PER_CPU(int, sw_tramp_busy);

/**
 * struct sw_tramp_frame - the trampoline's stack frame (tramp/abi.h).
 * @regs: argument registers at entry; ax, dx, ip at exit
 * @call: the call's record
 * @seq:  the probe's number (struct sw_tramp.seq) when the entry half
 *        measured the call, else 0
 * @gen:  the companion's number for the attach the call entered under
 * @idx:  the stub's index
 * @vc:   a lean call's events
 * @spare: nothing: the frame keeps the size the companion gives it
 */
struct sw_tramp_frame {
	struct pt_regs regs;
	struct sw_call call;
	u32 seq;
	u32 gen;
	unsigned long idx;
	struct sw_vcall vc;
	u64 spare;
};

/* The core's record of the call of frame @f: the frame itself. */
static __always_inline struct sw_tramp_frame *sw_tf_rec(struct sw_tramp_frame *f)
{
	return f;
}

SW_CORE_HALVES(sw_tf, struct sw_tramp_frame *, sw_tf_rec,
	       struct sw_tramp_frame *)

SW_TF_ASSERT_REGS(struct sw_tramp_frame);
static_assert(offsetof(struct sw_tramp_frame, call) == SW_TF_CALL);
static_assert(offsetof(struct sw_tramp_frame, seq) == SW_TF_SEQ);
static_assert(offsetof(struct sw_tramp_frame, gen) == SW_TF_GEN);
static_assert(offsetof(struct sw_tramp_frame, idx) == SW_TF_IDX);

/*
 * A call whose rows are keyed by its caller, when a kretprobe shares the
 * function: ftrace ran the kretprobe first, which put its own trampoline
 * in place of the return address the stub then saved; the kretprobe's
 * record of the call (found by the call's stack and frame pointers at
 * entry) has the real one.  Out of line: only probes keyed by the caller
 * walk the list, the exit half of every other call keeps no register or
 * stack for it.
 * Context: as sw_tramp_exit(); reads only the current thread's list.
 */
static noinline notrace void sw_tf_real_caller(struct sw_tramp_frame *f)
{
	unsigned long ret;

	ret = sw_kretprobe_real_return((unsigned long)f + SW_TF_ENTRY_SP,
			*(unsigned long *)((char *)f + SW_TF_CALLER_FP));
	if (ret)
		instruction_pointer_set(&f->regs, ret);
}
NOKPROBE_SYMBOL(sw_tf_real_caller);

/*
 * What a timed run of a trampoline half is folded into (core/cost.h): the
 * probe's cost accumulators, or none when its stub is empty.
 */
static __always_inline void sw_tf_cost_run(struct sw_cost_run *run,
					   struct sw_tramp *t)
{
	run->acc = t ? rcu_dereference_sched(t->target.aggs->cost) : NULL;
	run->mech = SW_COST_TRAMP;
}

/**
 * sw_tramp_enter() - the entry half, called by the companion's trampoline.
 * @frame: the trampoline's struct sw_tramp_frame
 *
 * A stub whose probe is gone (a task was between the ftrace site and the
 * stub while the probe was removed) leaves its call unmeasured.  On a
 * call the cost sampler picks, timed (core/cost.h), and the frame's call
 * marked so that its exit half is timed too.
 *
 * Context: the traced function's caller's: any (process, softirq, hard
 * interrupt, NMI), possibly interrupts off; preemption disabled by the
 * companion (an RCU-sched read-side section its detach waits for).  No
 * locks, no allocation.
 */
static __always_inline bool sw_tramp_enter_work(struct sw_cost_run *run,
						struct sw_tramp_frame *f)
{
	struct sw_tramp *t = READ_ONCE(sw_tramp_slot[f->idx]);
	bool entered = false;

	if (run)
		sw_tf_cost_run(run, t);
	if (unlikely(!t) || unlikely(!READ_ONCE(t->armed)))
		return false;
	if (likely(this_cpu_inc_return(sw_tramp_busy) == 1)) {
		if (sw_tf_enter(&t->target, f, &f->regs)) {
			f->seq = t->seq;
			entered = true;
		}
	} else {
		atomic_long_inc(&t->reentry);
	}
	this_cpu_dec(sw_tramp_busy);
	if (run && entered)
		run->call = &f->call;
	return entered;
}

SW_COST_ENTRY(sw_tramp_enter, bool, (struct sw_tramp_frame *f), (f))

notrace void sw_tramp_enter(void *frame)
{
	sw_tramp_enter_run(frame);
}
NOKPROBE_SYMBOL(sw_tramp_enter);

/**
 * sw_tramp_exit() - the exit half, called by the companion's trampoline
 * after the function's body returned, for a call this module's entry
 * half measured (@frame's seq not 0, its generation ours).
 * @frame: the trampoline's struct sw_tramp_frame
 *
 * A call whose probe was removed while it was in flight finds the stub
 * empty or another probe's (another seq) and is not folded anywhere: its
 * probe's statistics are gone with it (an entry it left on the pending
 * stack is counted as orphaned or abandoned there).  A call whose entry
 * was timed (its record marked) is timed here too (core/cost.h).
 *
 * Context: as sw_tramp_enter(), on the calling thread (possibly another
 * CPU).  A call measured at entry cannot find the guard taken here: a
 * half that holds it runs with preemption disabled, so only an interrupt
 * of it could, and a call inside that interrupt entered under the guard
 * (unmeasured).  The check stays as a defence: such a call would be
 * counted in miss_reentry, its pending entry (if any) recovered by the
 * pending stack as orphaned.
 */
static __always_inline bool sw_tramp_exit_work(struct sw_cost_run *run,
					       struct sw_tramp_frame *f)
{
	struct sw_tramp *t = READ_ONCE(sw_tramp_slot[f->idx]);

	if (run)
		sw_tf_cost_run(run, t);
	if (unlikely(!t) || unlikely(t->seq != f->seq))
		return false;
	if (likely(this_cpu_inc_return(sw_tramp_busy) == 1)) {
		if (unlikely(t->caller))
			sw_tf_real_caller(f);
		sw_tf_exit(&t->target, f, &f->regs);
	} else
		atomic_long_inc(&t->reentry);
	this_cpu_dec(sw_tramp_busy);
	return true;
}

/* Whether the frame's call had its entry timed; the call in @c. */
static __always_inline bool sw_tramp_exit_marked(struct sw_call **c,
						 struct sw_tramp_frame *f)
{
	*c = &f->call;
	return sw_cost_marked(*c);
}

SW_COST_EXIT(sw_tramp_exit, bool, (struct sw_tramp_frame *f), (f))

notrace void sw_tramp_exit(void *frame)
{
	sw_tramp_exit_run(frame);
}
NOKPROBE_SYMBOL(sw_tramp_exit);

#endif /* SW_HAVE_TRAMP */
