/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wrapper/timekeeping.h - the stopwatch clock.
 */
#ifndef _SW_WRAPPER_TIMEKEEPING_H
#define _SW_WRAPPER_TIMEKEEPING_H

#include <linux/timekeeping.h>

/*
 * The stopwatch clock: monotonic, consistent across CPUs, safe in NMI
 * (the same clock as bpf_ktime_get_ns()).  Same on 6.1 and 6.12.
 */
static __always_inline u64 sw_clock_ns(void)
{
	return ktime_get_mono_fast_ns();
}

#endif /* _SW_WRAPPER_TIMEKEEPING_H */
