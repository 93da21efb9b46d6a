// SPDX-License-Identifier: GPL-2.0
/*
 * stubs.c - stopwatch_tramp.ko: the direct-call trampolines' text, which
 * outlives stopwatch.ko (abi.h says why).  The stubs and their common
 * body are in stubs_x86.S and stubs_arm64.S; the body calls swt_enter()
 * and swt_exit() below, which call stopwatch.ko's halves through the ops
 * it attached, if any.
 *
 * The module is never unloaded: it has an init function and no exit, so
 * the kernel refuses to remove it (rmmod: "Device or resource busy").  It
 * keeps nothing but the stubs, one pointer and a counter; a new
 * stopwatch.ko attaches to the one already loaded.
 */
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/static_call.h>

#include "abi.h"
#include "stubs.h"

#define SWT_NAME "stopwatch_tramp"

/*
 * The ops attached, and their halves as static calls: on x86_64 a direct
 * call patched in (a NOP while none is attached), elsewhere a call
 * through the key's pointer.  Written under swt_lock; the halves run
 * with preemption disabled, an RCU-sched read-side section that
 * sw_tramp_detach() waits for.
 */
static struct sw_tramp_ops *swt_ops;
static DEFINE_MUTEX(swt_lock);
/* The generation of the ops attached, 0 while none; never reused. */
static u32 swt_gen;
static u32 swt_gen_last;

typedef void (*swt_half_t)(void *frame);
DEFINE_STATIC_CALL_NULL(swt_enter_half, *(swt_half_t)0);
DEFINE_STATIC_CALL_NULL(swt_exit_half, *(swt_half_t)0);

#define SWT_SEQ(f) (*(u32 *)((char *)(f) + SW_TF_SEQ))
#define SWT_GEN(f) (*(u32 *)((char *)(f) + SW_TF_GEN))

/*
 * swt_enter() - the entry, called by the common body with its frame.
 * Context: the traced function's caller's: any (process, softirq, hard
 * interrupt, NMI).  Preemption off while stopwatch.ko's text runs, so
 * sw_tramp_detach() can wait for it.  The generation read here may be
 * older than the half called (an attach in between): the exit then
 * finds it stale and leaves the call alone.
 */
notrace void swt_enter(void *f)
{
	SWT_SEQ(f) = 0;
	preempt_disable_notrace();
	SWT_GEN(f) = READ_ONCE(swt_gen);
	static_call_cond(swt_enter_half)(f);
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(swt_enter);

/*
 * swt_exit() - the exit, called by the common body once the function's
 * body returned.  A call its entry left unmeasured, or that entered under
 * ops since detached (stopwatch.ko unloaded, maybe loaded again), goes
 * back to its caller untouched.
 * Context: as swt_enter(), on the calling thread (possibly another CPU).
 */
notrace void swt_exit(void *f)
{
	if (!SWT_SEQ(f))
		return;
	preempt_disable_notrace();
	if (likely(READ_ONCE(swt_gen) == SWT_GEN(f)))
		static_call_cond(swt_exit_half)(f);
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(swt_exit);

/**
 * sw_tramp_attach() - let @ops' halves run in the trampolines.
 * @ops: stopwatch.ko's ops; @ops->stubs is filled in
 *
 * Context: process context.
 * Return: 0, -EPROTO (@ops is of another SW_TRAMP_ABI) or -EBUSY (ops
 * are attached already).
 */
int sw_tramp_attach(struct sw_tramp_ops *ops)
{
	int ret = 0;

	if (ops->abi != SW_TRAMP_ABI) {
		pr_err(SWT_NAME ": stopwatch.ko speaks trampoline ABI %u, this module %u: reboot to load a matching pair\n",
		       ops->abi, SW_TRAMP_ABI);
		return -EPROTO;
	}
	mutex_lock(&swt_lock);
	if (swt_ops) {
		ret = -EBUSY;
	} else {
		if (!++swt_gen_last)
			++swt_gen_last;
		ops->stubs = (unsigned long)sw_tramp_stubs;
		swt_ops = ops;
		/* The generation first: a call may only see it older. */
		WRITE_ONCE(swt_gen, swt_gen_last);
		static_call_update(swt_enter_half, ops->enter);
		static_call_update(swt_exit_half, ops->exit);
	}
	mutex_unlock(&swt_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(sw_tramp_attach);

/**
 * sw_tramp_detach() - no half of @ops runs from now on: returns once no
 * CPU is inside one.  Calls in flight then return untouched.
 * @ops: what sw_tramp_attach() took
 *
 * Context: process context; sleeps for an RCU grace period.
 */
void sw_tramp_detach(struct sw_tramp_ops *ops)
{
	mutex_lock(&swt_lock);
	if (swt_ops == ops) {
		static_call_update(swt_enter_half, (swt_half_t)NULL);
		static_call_update(swt_exit_half, (swt_half_t)NULL);
		WRITE_ONCE(swt_gen, 0);
		swt_ops = NULL;
	}
	mutex_unlock(&swt_lock);
	/* No CPU is in a half any more: they run with preemption off. */
	synchronize_rcu();
}
EXPORT_SYMBOL_GPL(sw_tramp_detach);

/**
 * sw_tramp_owns() - whether @addr is this module's (its stubs, their
 * common body, the functions here): stopwatch.ko probes none of it.
 * @addr: an address
 *
 * Context: any.
 */
bool sw_tramp_owns(unsigned long addr)
{
	return within_module(addr, THIS_MODULE);
}
EXPORT_SYMBOL_GPL(sw_tramp_owns);

/* Never unloaded: an init function and no exit function. */
static int __init swt_init(void)
{
	return 0;
}
module_init(swt_init);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("stopwatch's direct-call trampolines: text that outlives stopwatch.ko (never unloaded)");
MODULE_AUTHOR("The stopwatch developers");
