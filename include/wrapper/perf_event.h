/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wrapper/perf_event.h - perf event facts that differ by architecture.
 *
 * perf_event_create_kernel_counter(), perf_event_release_kernel(),
 * perf_event_read_value() and pmu->read() are the same on 6.1 and 6.12.
 *
 * Direct counter reads (sw_pmu_direct_*): the value pmu->read() would
 * fold into the event's count, computed from the hardware counter itself
 * without writing the event: perf's count plus the counter's advance
 * since prev_count (the raw value perf last folded), taken modulo the
 * counter's width, the drivers' own update formula.  Supported:
 *   arm64  the PMUv3 driver (arch/arm64/kernel/perf_event.c on 6.1,
 *          drivers/perf/arm_pmuv3.c on 6.12): 32-bit events, on the cycle
 *          counter or an event counter; its index moved (6.1: cycles 0,
 *          event counter n at n + 1; 6.12: event counter n at n, cycles
 *          31, the instruction counter 32, which is read through perf).
 *          64-bit (attr.config1 "long", chained) events and other PMUs
 *          with other widths go through pmu->read().
 *   x86    the core PMU ("cpu", "cpu_core", "cpu_atom"): rdpmc on the
 *          event's rdpmc index, general and the first three fixed
 *          counters (not the topdown slots and metrics, which perf reads
 *          its own way); the width from the period perf gave the counting
 *          event (x86_pmu.max_period, 2^(width-1) - 1).  x86 TCG has no
 *          PMU: this path is compiled but runs only on real hardware.
 * Anything else: pmu->read().
 */
#ifndef _SW_WRAPPER_PERF_EVENT_H
#define _SW_WRAPPER_PERF_EVENT_H

#include <linux/perf_event.h>
#include <linux/string.h>
#ifdef CONFIG_ARM64
#include <asm/cpufeature.h>
#include <asm/sysreg.h>
#include <linux/perf/arm_pmu.h>
#if __has_include(<linux/perf/arm_pmuv3.h>)
#include <linux/perf/arm_pmuv3.h>
#endif
#endif
#ifdef CONFIG_X86
#include <asm/cpufeature.h>
#include <asm/msr.h>
#include <asm/perf_event.h>
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

#if defined(CONFIG_ARM64)

#define SW_PMU_DIRECT 1

/* ARMPMU_EVT_* flags of events whose counter is not 32 bits wide. */
#ifdef ARMPMU_EVT_63BIT
#define SW_ARMPMU_WIDE (ARMPMU_EVT_64BIT | ARMPMU_EVT_47BIT | ARMPMU_EVT_63BIT)
#else
#define SW_ARMPMU_WIDE (ARMPMU_EVT_64BIT | ARMPMU_EVT_47BIT)
#endif

/*
 * sw_pmu_direct_mask() - whether @e's counter can be read directly, and
 * how: the mask of the counter's width (2^width - 1), or 0 (read it
 * through pmu->read()).
 * Context: process context, the counter just made (not yet read by any
 * handler).
 */
static inline u64 sw_pmu_direct_mask(struct perf_event *e)
{
	const char *name = e->pmu->name;

	/* The PMUv3 driver names its PMUs armv8_<cpu> or armv9_<cpu>. */
	if (e->pmu->task_ctx_nr != perf_hw_context || !name ||
	    (strncmp(name, "armv8_", 6) && strncmp(name, "armv9_", 6)))
		return 0;
	/* Set by the driver's event_init, fixed for the event's life. */
	if (e->hw.flags & SW_ARMPMU_WIDE)
		return 0;
	return U32_MAX;
}

#ifndef CONFIG_ARM64_BTI_KERNEL
/*
 * The counter registers in perf's index order, one 8-byte entry each (the
 * read and a branch out): PMEVCNTR<n>_EL0 names its register in the
 * instruction, so a read by index is a branch into this table.  Reached by
 * a computed branch, which a kernel with BTI (guarded pages) would only
 * take onto a landing pad: there the switch below, GCC's own.
 */
#define SW_MRS_EV(n)	"mrs %0, pmevcntr" #n "_el0\n\tb 2f\n\t"
#define SW_MRS_CC	"mrs %0, pmccntr_el0\n\tb 2f\n\t"
#define SW_MRS_EV8(a, b, c, d, e, f, g, h)				\
	SW_MRS_EV(a) SW_MRS_EV(b) SW_MRS_EV(c) SW_MRS_EV(d)		\
	SW_MRS_EV(e) SW_MRS_EV(f) SW_MRS_EV(g) SW_MRS_EV(h)
#ifdef ARMV8_PMU_CYCLE_IDX
/* 6.12: event counter n at index n, cycles at 31 (then instructions). */
#define SW_MRS_TABLE							\
	SW_MRS_EV8(0, 1, 2, 3, 4, 5, 6, 7)				\
	SW_MRS_EV8(8, 9, 10, 11, 12, 13, 14, 15)			\
	SW_MRS_EV8(16, 17, 18, 19, 20, 21, 22, 23)			\
	SW_MRS_EV(24) SW_MRS_EV(25) SW_MRS_EV(26) SW_MRS_EV(27)	\
	SW_MRS_EV(28) SW_MRS_EV(29) SW_MRS_EV(30) SW_MRS_CC
#else
/* 6.1: cycles at index 0, event counter n at n + 1. */
#define SW_MRS_TABLE							\
	SW_MRS_CC SW_MRS_EV(0) SW_MRS_EV(1) SW_MRS_EV(2)		\
	SW_MRS_EV(3) SW_MRS_EV(4) SW_MRS_EV(5) SW_MRS_EV(6)		\
	SW_MRS_EV8(7, 8, 9, 10, 11, 12, 13, 14)			\
	SW_MRS_EV8(15, 16, 17, 18, 19, 20, 21, 22)			\
	SW_MRS_EV8(23, 24, 25, 26, 27, 28, 29, 30)
#endif

/*
 * sw_pmu_hw_read() - the raw value of the counter at perf index @idx, or
 * false for an index read only through perf (6.12's instruction counter,
 * 32; -1, no counter).
 * Context: interrupts off, the event active on this CPU.
 */
static __always_inline bool sw_pmu_hw_read(int idx, u64 *raw)
{
	u64 v, at;

	if (unlikely((unsigned int)idx > 31))
		return false;
	asm volatile("adr	%1, 1f\n\t"
		     "add	%1, %1, %w2, uxtw #3\n\t"
		     "br	%1\n"
		     "1:\n\t"
		     SW_MRS_TABLE
		     "2:"
		     : "=r" (v), "=&r" (at) : "r" (idx));
	*raw = v;
	return true;
}
#else
/* PMEVCNTR<n>_EL0 by number: the register name is part of the instruction. */
#define SW_PMEVCNTR(n)						\
	case n:							\
		*raw = read_sysreg(pmevcntr##n##_el0);		\
		return true

static __always_inline bool sw_pmu_hw_read(int idx, u64 *raw)
{
#ifdef ARMV8_PMU_CYCLE_IDX
	if (idx == ARMV8_PMU_CYCLE_IDX) {
		*raw = read_sysreg(pmccntr_el0);
		return true;
	}
#else
	if (idx == 0) {
		*raw = read_sysreg(pmccntr_el0);
		return true;
	}
	idx--;
#endif
	switch (idx) {
	SW_PMEVCNTR(0); SW_PMEVCNTR(1); SW_PMEVCNTR(2); SW_PMEVCNTR(3);
	SW_PMEVCNTR(4); SW_PMEVCNTR(5); SW_PMEVCNTR(6); SW_PMEVCNTR(7);
	SW_PMEVCNTR(8); SW_PMEVCNTR(9); SW_PMEVCNTR(10); SW_PMEVCNTR(11);
	SW_PMEVCNTR(12); SW_PMEVCNTR(13); SW_PMEVCNTR(14); SW_PMEVCNTR(15);
	SW_PMEVCNTR(16); SW_PMEVCNTR(17); SW_PMEVCNTR(18); SW_PMEVCNTR(19);
	SW_PMEVCNTR(20); SW_PMEVCNTR(21); SW_PMEVCNTR(22); SW_PMEVCNTR(23);
	SW_PMEVCNTR(24); SW_PMEVCNTR(25); SW_PMEVCNTR(26); SW_PMEVCNTR(27);
	SW_PMEVCNTR(28); SW_PMEVCNTR(29); SW_PMEVCNTR(30);
	}
	return false;
}
#endif /* CONFIG_ARM64_BTI_KERNEL */

/*
 * Whether @e's counter is, right now, one we may read: its index says.
 * The driver gives a counting event its index when perf schedules it in
 * on this CPU (armpmu_add()) and takes it back (-1, which
 * sw_pmu_hw_read() refuses) when it schedules it out (armpmu_del()), both
 * with interrupts off on this CPU, and our counters are bound to their
 * CPU: with interrupts off here, an index is an event active on this CPU,
 * so its state and oncpu need no reading.
 */
static __always_inline bool sw_pmu_direct_now(struct perf_event *e, int cpu)
{
	return true;
}

#elif defined(CONFIG_X86)

#define SW_PMU_DIRECT 1

static inline u64 sw_pmu_direct_mask(struct perf_event *e)
{
	const char *name = e->pmu->name;
	int width;

	if (e->pmu->task_ctx_nr != perf_hw_context || !name ||
	    (strcmp(name, "cpu") && strcmp(name, "cpu_core") &&
	     strcmp(name, "cpu_atom")))
		return 0;
	/*
	 * A counting event's period is x86_pmu.max_period (x86_setup_perfctr()):
	 * 2^(w-1) - 1 with w the counter's width (cntval_bits), or 2^31 - 1
	 * on Intel counters without full-width writes.  The counter never
	 * runs more than that period past prev_count before its overflow NMI
	 * folds it, so its advance modulo 2^w, w taken from the period, is
	 * the driver's advance modulo 2^cntval_bits.  Other periods: not ours.
	 */
	if (is_sampling_event(e))
		return 0;
	width = fls64(e->hw.sample_period) + 1;
	if (width < 32 || width > 64 ||
	    e->hw.sample_period != (1ULL << (width - 1)) - 1)
		return 0;
	return width == 64 ? U64_MAX : (1ULL << width) - 1;
}

/*
 * General counters and fixed counters 0-2 (not slots, not metrics), and
 * only while the event runs on its counter: a stopped event (PERF_HES_
 * STOPPED) may have been given a counter it is not programmed on.
 */
static __always_inline bool sw_pmu_direct_now(struct perf_event *e, int cpu)
{
	return READ_ONCE(e->state) == PERF_EVENT_STATE_ACTIVE &&
	       READ_ONCE(e->oncpu) == cpu &&
	       (unsigned int)READ_ONCE(e->hw.idx) < INTEL_PMC_IDX_FIXED + 3 &&
	       !(READ_ONCE(e->hw.state) & PERF_HES_STOPPED);
}

/*
 * sw_pmu_rdpmc() - the counter's raw value: the rdpmc instruction, inline.
 * rdpmcl() is no use here: with CONFIG_PARAVIRT_XXL (Debian's kernels) it
 * is paravirt_read_pmc(), plain inline, which GCC makes an out-of-line
 * function in a file that reads counters in more than a few places (a
 * call and a return more, to reach a call of native_read_pmc()); and
 * native_read_pmc() would fire the msr tracepoints from a probe handler.
 * A Xen PV guest, whose rdpmc the hypervisor must see, keeps rdpmcl().
 */
static __always_inline u64 sw_pmu_rdpmc(int counter)
{
	u32 lo, hi;

	if (cpu_feature_enabled(X86_FEATURE_XENPV)) {
		u64 v;

		rdpmcl(counter, v);
		return v;
	}
	asm volatile("rdpmc" : "=a" (lo), "=d" (hi) : "c" (counter));
	return lo | (u64)hi << 32;
}

#endif

#ifdef SW_PMU_DIRECT
/*
 * sw_pmu_direct_read() - what pmu->read() would make @e's count, without
 * writing anything: count + ((raw - prev_count) mod 2^width).
 * @e:     the event, active on this CPU (its state and oncpu checked)
 * @mask:  2^width - 1 of the counter, from sw_pmu_direct_mask()
 * @val:   the count, output
 *
 * Safe against the PMU's overflow interrupt on this CPU.  As an ordinary
 * IRQ (arm64 without pseudo-NMI, Debian's default) it stays masked by the
 * caller: nothing can change the event meanwhile.  As an NMI (x86; arm64
 * pseudo-NMI: sw_pmu_overflow_is_nmi()) the handler runs to completion
 * between two of our instructions: it folds the counter into count and
 * prev_count (armpmu_event_update(), x86_perf_event_update()), then
 * reprograms the counter and prev_count (set_period).  count only grows
 * there, by the counter's advance, so when count and prev_count are the
 * same after the counter is read as before, no handler ran in between and
 * the three values belong together; otherwise read again.  A counter that
 * wrapped since prev_count without its interrupt having run yet is taken
 * modulo its width exactly as the driver does (perf keeps its period at
 * most half the width: one wrap at most).  Nothing is written: the
 * driver's next update folds from the same prev_count, so perf's own
 * count and every later reading stay as they would have been.
 *
 * Context: interrupts off (no counter scheduling, rotation or IPI can
 * move the event meanwhile); the event's state and oncpu checked under it.
 * Return: false when the counter must be read through pmu->read().
 */
static __always_inline bool sw_pmu_direct_read(struct perf_event *e,
					       u64 mask, int cpu, u64 *val)
{
	u64 prev, count, raw;

	if (!sw_pmu_direct_now(e, cpu))
		return false;
	do {
		prev = local64_read(&e->hw.prev_count);
		count = local64_read(&e->count);
		barrier();
#ifdef CONFIG_X86
		raw = sw_pmu_rdpmc(READ_ONCE(e->hw.event_base_rdpmc));
#else
		if (!sw_pmu_hw_read(READ_ONCE(e->hw.idx), &raw))
			return false;
#endif
		barrier();
	} while (sw_pmu_overflow_is_nmi() &&
		 unlikely(local64_read(&e->hw.prev_count) != prev ||
			  local64_read(&e->count) != count));
	*val = count + ((raw - prev) & mask);
	return true;
}
#endif /* SW_PMU_DIRECT */

#endif /* _SW_WRAPPER_PERF_EVENT_H */
