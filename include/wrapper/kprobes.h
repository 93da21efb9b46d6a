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

#endif /* _SW_WRAPPER_KPROBES_H */
