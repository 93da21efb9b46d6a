/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wrapper/kprobes.h - kprobes and kretprobes.
 *
 * register_kretprobe(), unregister_kretprobes(), enable_kretprobe(),
 * get_kretprobe() and the nmissed counters have the same shape on 6.1 and
 * 6.12.  Underneath, kretprobes sit on rethook where the architecture
 * selects CONFIG_KRETPROBE_ON_RETHOOK (x86 on 6.1 and 6.12) and on
 * kprobes' own instance list elsewhere (arm64: Debian's 6.1 and 6.12 run
 * kretprobe_brk_handler()); stopwatch keeps its own record of calls in
 * flight (core/pending.c) and never reads either.
 */
#ifndef _SW_WRAPPER_KPROBES_H
#define _SW_WRAPPER_KPROBES_H

#include <linux/kprobes.h>
#include <linux/llist.h>
#include <linux/sched.h>
#include <linux/version.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 11, 0)
#error "stopwatch needs Linux 5.11 or newer (get_kretprobe())"
#endif

/*
 * The kretprobe a pending instance belongs to, or NULL once its
 * unregistration has begun (kprobes' own instance list: a handler may
 * still run then).  Context: its handlers.
 */
static __always_inline struct kretprobe *
sw_kretprobe_of(struct kretprobe_instance *ri)
{
	return get_kretprobe(ri);
}

/*
 * The address a call returns to, read in its kretprobe return handler.
 * Not at entry: with two kretprobes on one function the second entry
 * handler finds the first one's trampoline there.  Both kretprobe
 * implementations (rethook, and kprobes' own on arm64) set the
 * instruction pointer to the real return address before they run the
 * return handlers, on 6.1 and 6.12 alike.
 */
static __always_inline unsigned long sw_exit_return_address(struct pt_regs *regs)
{
	return instruction_pointer(regs);
}

/* Most records of the current thread's kretprobes looked through. */
#define SW_KRETPROBE_WALK_MAX 16

/**
 * sw_kretprobe_real_return() - the return address a kretprobe replaced
 * with its trampoline, for a call of the current thread still in flight.
 * @sp: the stack pointer at the function's entry (rethook keys its
 *      record on it: x86)
 * @fp: the caller's frame pointer (kprobes' own instances key on it:
 *      arm64)
 *
 * The records of the current thread, newest first: those of the call are
 * on top once its body returned (several when several kretprobes share
 * the function, the oldest with the real address).  Not exported by the
 * kernel (rethook_find_ret_addr(), kretprobe_find_ret_addr()), so read
 * here: only the thread itself changes its list, an NMI as a whole.
 *
 * Context: the current thread, any context (NMI too); no locks.
 * Return: the address, or 0 when no kretprobe holds the call.
 */
static __always_inline unsigned long sw_kretprobe_real_return(unsigned long sp,
							      unsigned long fp)
{
	struct llist_node *node;
	unsigned long ret = 0;
	int n;

#ifdef CONFIG_KRETPROBE_ON_RETHOOK
	node = READ_ONCE(current->rethooks.first);
	for (n = 0; node && n < SW_KRETPROBE_WALK_MAX; n++) {
		struct rethook_node *rh =
			container_of(node, struct rethook_node, llist);

		if (rh->frame == sp)
			ret = rh->ret_addr;
		else if (ret)
			break;
		node = READ_ONCE(node->next);
	}
#else
	node = READ_ONCE(current->kretprobe_instances.first);
	for (n = 0; node && n < SW_KRETPROBE_WALK_MAX; n++) {
		struct kretprobe_instance *ri =
			container_of(node, struct kretprobe_instance, llist);

		if ((unsigned long)ri->fp == fp)
			ret = (unsigned long)ri->ret_addr;
		else if (ret)
			break;
		node = READ_ONCE(node->next);
	}
#endif
	return ret;
}

#endif /* _SW_WRAPPER_KPROBES_H */
