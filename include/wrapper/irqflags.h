/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wrapper/irqflags.h - interrupts off around a reading of the counters,
 * in the handlers.
 *
 * The handlers mostly run with interrupts off already (a kprobe's
 * breakpoint, the scheduler), and then nothing is written.  Raw: no
 * irq-flag tracing in a probe handler.  arm64 without pseudo-NMI (Debian's
 * kernels) masks with DAIF alone: the I bit is tested where DAIF is read,
 * no mask is kept apart.  Elsewhere (x86, arm64 with pseudo-NMI, whose
 * flags are the GIC's priority mask) the kernel's arch_local_*().
 */
#ifndef _SW_WRAPPER_IRQFLAGS_H
#define _SW_WRAPPER_IRQFLAGS_H

#include <linux/irqflags.h>

#if defined(CONFIG_ARM64) && !defined(CONFIG_ARM64_PSEUDO_NMI)
#include <asm/ptrace.h>

/*
 * sw_irq_save() - interrupts off unless they are already; the flags to
 * give sw_irq_restore().
 * Context: any, preemption disabled.
 */
static __always_inline unsigned long sw_irq_save(void)
{
	unsigned long flags;

	BUILD_BUG_ON(PSR_I_BIT != 1 << 7);
	asm volatile("mrs	%0, daif\n\t"
		     "tbnz	%0, #7, 1f\n\t"
		     "msr	daifset, #3\n"
		     "1:"
		     : "=r" (flags) : : "memory");
	return flags;
}

/* sw_irq_restore() - undo sw_irq_save(). Context: as sw_irq_save(). */
static __always_inline void sw_irq_restore(unsigned long flags)
{
	asm volatile("tbnz	%0, #7, 1f\n\t"
		     "msr	daif, %0\n"
		     "1:"
		     : : "r" (flags) : "memory");
}
#else
static __always_inline unsigned long sw_irq_save(void)
{
	unsigned long flags = arch_local_save_flags();

	if (!arch_irqs_disabled_flags(flags))
		arch_local_irq_disable();
	return flags;
}

static __always_inline void sw_irq_restore(unsigned long flags)
{
	if (!arch_irqs_disabled_flags(flags))
		arch_local_irq_restore(flags);
}
#endif

#endif /* _SW_WRAPPER_IRQFLAGS_H */
