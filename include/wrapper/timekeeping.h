/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wrapper/timekeeping.h - the stopwatch clocks.
 *
 * sw_clock_ns(): nanoseconds, for timestamps others read (samples, spans).
 *
 * sw_clock_stamp() and sw_clock_since(): a call's wall time, read at its
 * entry and at its exit.  On x86_64 the stamp is the TSC itself while the
 * kernel keeps the TSC synchronized across CPUs, converted to nanoseconds
 * once, at the exit: a few instructions instead of the timekeeper's
 * seqcount, its clocksource's indirect call and its conversion, twice per
 * call.  Why it is right across CPUs: the kernel checks the TSCs of every
 * CPU against each other when it brings the CPU up, and its clocksource
 * watchdog compares the TSC with another clock; whenever either finds them
 * apart it marks the TSC unstable (check_tsc_unstable()), and until then
 * its own clock (ktime_get_mono_fast_ns() over the tsc clocksource) reads
 * the very same counter on whatever CPU it runs.  Stopwatch uses the TSC
 * only when it is not marked unstable at load and it checks again at every
 * exit of a call that changed CPU (and whenever statistics are read): once
 * the kernel marks it unstable, new calls are stamped with
 * ktime_get_mono_fast_ns().  Each stamp says which clock it came from (bit
 * 63, which neither a TSC nor a monotonic nanosecond count reaches in
 * decades), and the exit reads the same clock as the entry, so a call in
 * flight when the clock changes is still timed by one clock.
 */
#ifndef _SW_WRAPPER_TIMEKEEPING_H
#define _SW_WRAPPER_TIMEKEEPING_H

#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/overflow.h>
#include <linux/timekeeping.h>
#ifdef CONFIG_X86_64
#include <asm/msr.h>
#include <asm/tsc.h>
#endif

/*
 * The stopwatch clock: monotonic, consistent across CPUs, safe in NMI
 * (the same clock as bpf_ktime_get_ns()).  Same on 6.1 and 6.12.
 */
static __always_inline u64 sw_clock_ns(void)
{
	return ktime_get_mono_fast_ns();
}

#ifdef CONFIG_X86_64
/* A stamp read from the TSC (else: ktime_get_mono_fast_ns()). */
#define SW_STAMP_TSC (1ULL << 63)

/*
 * Whether new calls are stamped from the TSC; nanoseconds per cycle << 32.
 * SW_CLOCK_DEFINE_STATE defines them, once (control/clock.c).
 */
extern bool sw_clock_tsc;
extern u64 sw_clock_tsc_mult;
#define SW_CLOCK_DEFINE_STATE	\
	bool sw_clock_tsc;	\
	u64 sw_clock_tsc_mult

/*
 * sw_clock_stamp() - a call's entry stamp for sw_clock_since().
 * Context: any, including NMI.
 */
static __always_inline u64 sw_clock_stamp(void)
{
	if (likely(READ_ONCE(sw_clock_tsc)))
		return rdtsc_ordered() | SW_STAMP_TSC;
	return ktime_get_mono_fast_ns();
}

/*
 * sw_clock_since() - nanoseconds since @t0 (0 if the clock reads earlier),
 * by the clock @t0 was read from.
 * Context: any, including NMI.
 */
static __always_inline u64 sw_clock_since(u64 t0)
{
	u64 t1;

	if (likely(t0 & SW_STAMP_TSC)) {
		t1 = rdtsc_ordered() | SW_STAMP_TSC;
		return t1 > t0 ? mul_u64_u64_shr(t1 - t0, sw_clock_tsc_mult,
						 32) : 0;
	}
	t1 = ktime_get_mono_fast_ns();
	return t1 > t0 ? t1 - t0 : 0;
}

/*
 * sw_clock_end_ns() - when, by sw_clock_ns(), a call stamped @t0 that
 * lasted @ns (sw_clock_since(@t0), just read) returned: a TSC stamp is not
 * on that clock, so the clock is read; a nanosecond stamp is.
 * Context: any, including NMI.
 */
static __always_inline u64 sw_clock_end_ns(u64 t0, u64 ns)
{
	if (t0 & SW_STAMP_TSC)
		return sw_clock_ns();
	return t0 + ns;
}

/*
 * sw_clock_check() - stop stamping from the TSC once the kernel says the
 * TSCs of its CPUs are apart (see the top).
 * Context: any, including NMI.
 */
static inline void sw_clock_check(void)
{
	if (READ_ONCE(sw_clock_tsc) && check_tsc_unstable())
		WRITE_ONCE(sw_clock_tsc, false);
}

/*
 * sw_clock_init() - choose the clock of the calls' stamps, at load.
 * Context: process context (module init), before any probe.
 */
static inline void sw_clock_init(void)
{
	u32 khz = READ_ONCE(tsc_khz);

	if (!boot_cpu_has(X86_FEATURE_TSC) || !khz || check_tsc_unstable())
		return;
	sw_clock_tsc_mult = div_u64((u64)NSEC_PER_MSEC << 32, khz);
	WRITE_ONCE(sw_clock_tsc, true);
}

/* What new calls are stamped with, for the version file. Context: any. */
static inline const char *sw_clock_name(void)
{
	return READ_ONCE(sw_clock_tsc) ? "tsc" : "mono_fast";
}
#else
/* No state: the one clock. */
#define SW_CLOCK_DEFINE_STATE	struct sw_clock_no_state

static __always_inline u64 sw_clock_stamp(void)
{
	return ktime_get_mono_fast_ns();
}

static __always_inline u64 sw_clock_since(u64 t0)
{
	u64 ns;

	/* Borrow, not compare: one subtraction whose flags choose (arm64). */
	if (unlikely(check_sub_overflow(ktime_get_mono_fast_ns(), t0, &ns)))
		return 0;
	return ns;
}

/* See the x86_64 one: the stamp is on sw_clock_ns()'s clock. */
static __always_inline u64 sw_clock_end_ns(u64 t0, u64 ns)
{
	return t0 + ns;
}

static inline void sw_clock_check(void)
{
}

static inline void sw_clock_init(void)
{
}

static inline const char *sw_clock_name(void)
{
	return "mono_fast";
}
#endif

#endif /* _SW_WRAPPER_TIMEKEEPING_H */
