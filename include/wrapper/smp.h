/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wrapper/smp.h - this CPU's number, in the handlers.
 *
 * arm64 keeps a running thread's CPU in its thread_info, which the
 * scheduler sets before the thread runs there (and a running thread does
 * not change CPU).  6.12's smp_processor_id() reads it: current's
 * thread_info is two instructions away (sp_el0).  6.1's reads the per-CPU
 * variable cpu_number instead: its address, this CPU's offset and the load,
 * two instructions more, twice in every measured call.  sw_cpu() reads the
 * thread_info on both; elsewhere it is smp_processor_id() (x86_64: one
 * per-CPU load).
 */
#ifndef _SW_WRAPPER_SMP_H
#define _SW_WRAPPER_SMP_H

#include <linux/sched.h>
#include <linux/smp.h>

/*
 * sw_cpu() - this CPU.
 * Context: preemption disabled (the thread cannot change CPU meanwhile).
 */
static __always_inline unsigned int sw_cpu(void)
{
#if defined(CONFIG_ARM64) && defined(CONFIG_THREAD_INFO_IN_TASK)
	return current_thread_info()->cpu;
#else
	return smp_processor_id();
#endif
}

#endif /* _SW_WRAPPER_SMP_H */
