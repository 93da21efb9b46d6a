/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wrapper/perf_event.h - perf event facts that differ by architecture.
 *
 * perf_event_create_kernel_counter(), perf_event_release_kernel(),
 * perf_event_read_value() and pmu->read() are the same on 6.1 and 6.12.
 */
#ifndef _SW_WRAPPER_PERF_EVENT_H
#define _SW_WRAPPER_PERF_EVENT_H

#include <linux/perf_event.h>
#ifdef CONFIG_ARM64
#include <asm/cpufeature.h>
#endif

/* Whether a hardware PMU overflow arrives as an NMI on this machine. */
static inline bool sw_pmu_overflow_is_nmi(void)
{
#if defined(CONFIG_X86)
	return true;
#elif defined(CONFIG_ARM64)
	/* pseudo-NMI: neither Debian arm64 kernel enables it by default */
	return system_uses_irq_prio_masking();
#else
	return false;
#endif
}

#endif /* _SW_WRAPPER_PERF_EVENT_H */
