/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - every kernel-version difference stopwatch cares about, in one
 * place.  Logic elsewhere calls the sw_* names below and never tests
 * LINUX_VERSION_CODE itself.
 */
#ifndef _STOPWATCH_COMPAT_H
#define _STOPWATCH_COMPAT_H

#include <linux/version.h>
#include <linux/kprobes.h>
#include <linux/timekeeping.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 10, 0)
#error "stopwatch needs Linux 5.10 or newer"
#endif

/*
 * The stopwatch clock: monotonic, consistent across CPUs, safe in NMI
 * (the same clock as bpf_ktime_get_ns()).
 */
static inline u64 sw_clock_ns(void)
{
	return ktime_get_mono_fast_ns();
}

#endif /* _STOPWATCH_COMPAT_H */
