// SPDX-License-Identifier: GPL-2.0
/*
 * tramp_run.c - the handler halves of the direct-call trampolines, called
 * from tramp_x86.S's common body with the trampoline's frame (see tramp.c
 * for the mechanism, its calls in flight and its reentry guard).
 */
#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/ptrace.h>

#include "core/core.h"
#include "tramp.h"

#ifdef SW_HAVE_TRAMP

struct sw_tramp *sw_tramp_slot[SW_TRAMP_SLOTS];

/* A handler half runs on this CPU: the core's single writer per CPU. */
static DEFINE_PER_CPU(int, sw_tramp_busy);

/**
 * struct sw_tramp_frame - the trampoline's stack frame (tramp_frame.h).
 * @regs: argument registers at entry; ax, dx, ip at exit
 * @call: the call's record
 * @t:    the probe when the entry half measured the call, else NULL
 * @idx:  the stub's index
 */
struct sw_tramp_frame {
	struct pt_regs regs;
	struct sw_call call;
	struct sw_tramp *t;
	unsigned long idx;
};

#ifdef CONFIG_ARM64
static_assert(offsetof(struct sw_tramp_frame, regs.regs[0]) == SW_TF_X0);
static_assert(offsetof(struct sw_tramp_frame, regs.regs[2]) == SW_TF_X2);
static_assert(offsetof(struct sw_tramp_frame, regs.regs[4]) == SW_TF_X4);
static_assert(offsetof(struct sw_tramp_frame, regs.regs[6]) == SW_TF_X6);
static_assert(offsetof(struct sw_tramp_frame, regs.regs[8]) == SW_TF_X8);
static_assert(offsetof(struct sw_tramp_frame, regs.pc) == SW_TF_PC);
static_assert(offsetof(struct sw_tramp_frame, call) == SW_TF_CALL);
static_assert(offsetof(struct sw_tramp_frame, t) == SW_TF_TRAMP);
static_assert(offsetof(struct sw_tramp_frame, idx) == SW_TF_IDX);
static_assert(sizeof(struct sw_tramp_frame) <= SW_TF_SIZE);
static_assert(!(SW_TF_SIZE % 16));
#else
static_assert(offsetof(struct sw_tramp_frame, regs.r9) == SW_TF_R9);
static_assert(offsetof(struct sw_tramp_frame, regs.r8) == SW_TF_R8);
static_assert(offsetof(struct sw_tramp_frame, regs.ax) == SW_TF_AX);
static_assert(offsetof(struct sw_tramp_frame, regs.cx) == SW_TF_CX);
static_assert(offsetof(struct sw_tramp_frame, regs.dx) == SW_TF_DX);
static_assert(offsetof(struct sw_tramp_frame, regs.si) == SW_TF_SI);
static_assert(offsetof(struct sw_tramp_frame, regs.di) == SW_TF_DI);
static_assert(offsetof(struct sw_tramp_frame, regs.ip) == SW_TF_IP);
static_assert(offsetof(struct sw_tramp_frame, call) == SW_TF_CALL);
static_assert(offsetof(struct sw_tramp_frame, t) == SW_TF_TRAMP);
static_assert(offsetof(struct sw_tramp_frame, idx) == SW_TF_IDX);
static_assert(sizeof(struct sw_tramp_frame) == SW_TF_SIZE);
#endif

/*
 * The core's full halves (a probe with a spec, events or call paths), out
 * of line: inlined, their registers and stack would be saved and set up
 * in every call, time-only ones too.
 * Context: as the halves below, preemption disabled, the guard held.
 */
static noinline bool sw_tramp_enter_full(struct sw_tramp_frame *f,
					 struct sw_tramp *t)
{
	return sw_core_enter(&f->call, t->aggs, t->spec, &f->regs);
}
NOKPROBE_SYMBOL(sw_tramp_enter_full);

static noinline void sw_tramp_exit_full(struct sw_tramp_frame *f,
					struct sw_tramp *t)
{
	sw_core_exit(t->aggs, t->spec, &f->call, &f->regs);
}
NOKPROBE_SYMBOL(sw_tramp_exit_full);

/*
 * sw_tramp_enter() - the entry half, called by the trampoline.
 * Context: the traced function's caller's: any (process, softirq, hard
 * interrupt, NMI), possibly interrupts off.  Runs its core half with
 * preemption disabled; no locks, no allocation.
 */
void sw_tramp_enter(struct sw_tramp_frame *f);
void sw_tramp_exit(struct sw_tramp_frame *f);

notrace void sw_tramp_enter(struct sw_tramp_frame *f)
{
	struct sw_tramp *t = READ_ONCE(sw_tramp_slot[f->idx]);

	/* One instruction on x86, safe against preemption and interrupts. */
	this_cpu_inc(*t->inflight);
	f->t = NULL;
	preempt_disable_notrace();
	if (likely(READ_ONCE(t->armed))) {
		if (likely(this_cpu_inc_return(sw_tramp_busy) == 1)) {
			if (likely(sw_core_time_only(t->spec))) {
				sw_core_enter_time(&f->call);
				f->t = t;
			} else if (sw_tramp_enter_full(f, t)) {
				f->t = t;
			}
		} else {
			atomic_long_inc(&t->reentry);
		}
		this_cpu_dec(sw_tramp_busy);
	}
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(sw_tramp_enter);

/*
 * sw_tramp_exit() - the exit half, called by the trampoline after the
 * function's body returned.
 * Context: as sw_tramp_enter(), on the calling thread (possibly another
 * CPU).  A call measured at entry cannot find the guard taken here: a
 * half that holds it runs with preemption disabled, so only an interrupt
 * of it could, and a call inside that interrupt entered under the guard
 * (unmeasured).  The check stays as a defence: such a call would be
 * counted in miss_reentry, its pending entry (if any) recovered by the
 * pending stack as orphaned.
 */
notrace void sw_tramp_exit(struct sw_tramp_frame *f)
{
	struct sw_tramp *t = f->t;

	preempt_disable_notrace();
	if (t) {
		if (likely(this_cpu_inc_return(sw_tramp_busy) == 1)) {
			if (likely(!f->call.pend && !t->spec))
				sw_core_exit_time(t->aggs, &f->call,
						  &f->regs);
			else
				sw_tramp_exit_full(f, t);
		} else {
			atomic_long_inc(&t->reentry);
		}
		this_cpu_dec(sw_tramp_busy);
	} else {
		t = READ_ONCE(sw_tramp_slot[f->idx]);
	}
	/* Last: the probe may be released once the sum is zero. */
	this_cpu_dec(*t->inflight);
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(sw_tramp_exit);

#endif /* SW_HAVE_TRAMP */
