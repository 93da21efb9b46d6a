/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wrapper/arch.h - the measurement's hot path, tuned per architecture.
 *
 * Not a difference of the kernel's API: what the compiler makes of the
 * same C differs by architecture, and each choice below is the one that
 * runs fewer instructions per call on that architecture (BENCHMARKS.md
 * has the counts).  Everything that depends on it tests the SW_ARCH_*
 * names defined here, never an architecture.
 *
 * SW_ARCH_LEAN_INLINE: the core's lean event halves (core/pending.h) are
 * inlined into the attach mechanisms' handlers, and their general ways
 * (several events, a counter read through perf) are out of line and
 * called in tail position, so the handlers keep no value across a call
 * and save no registers for it (arm64).  Without it the lean halves are
 * functions of their own and their general ways are inline: inlined on
 * x86_64, they would make every time-only call realign its frame and save
 * six registers.
 *
 * SW_ARCH_CTR_PAIRS (1, else 0): a counter's four fields are copied to
 * the stack before it is read even where perf's read may follow: two pair
 * loads, kept in registers across that call (arm64 has enough of them;
 * x86_64 would spill them around it).
 *
 * sw_arch_stats_add(), sw_arch_hist_count() (SW_ARCH_STATS): lib/stats.h's
 * sw_stats_add() and sw_hist_count() in fewest instructions (arm64), for
 * the handlers' writers (agg/agg.h); lib/ itself stays portable C.
 */
#ifndef _SW_WRAPPER_ARCH_H
#define _SW_WRAPPER_ARCH_H

#include <linux/types.h>

#ifdef CONFIG_ARM64
#define SW_ARCH_LEAN_INLINE 1
#define SW_ARCH_CTR_PAIRS 1
#define SW_ARCH_STATS 1

/*
 * sw_arch_stats_add() - sw_stats_add() of @value into the statistics
 * whose six words are @w: count, sum, min, max, and the 128-bit sum of
 * squares (low, high).  The six in three loads, the count and the sum
 * stored together and so are the two halves of the squares' sum, the
 * saturations taken on the carry (CSINV of the zero register is all
 * ones); the extremes are stored only when they move.  GCC loads and
 * stores them one by one, materializes U64_MAX, and tests the carry of the
 * 128-bit sum apart.
 * Context: any, including NMI; the caller serializes writers of @w.
 */
static __always_inline void sw_arch_stats_add(u64 *w, u64 value)
{
	u64 count, sum, min, max, lo, hi, qlo, qhi;

	asm("ldp	%[count], %[sum], [%[s]]\n\t"
	    "ldp	%[lo], %[hi], [%[s], #32]\n\t"
	    "mul	%[qlo], %[v], %[v]\n\t"
	    "umulh	%[qhi], %[v], %[v]\n\t"
	    "add	%[count], %[count], #1\n\t"
	    "adds	%[sum], %[sum], %[v]\n\t"
	    "csinv	%[sum], %[sum], xzr, cc\n\t"
	    "adds	%[lo], %[lo], %[qlo]\n\t"
	    "adcs	%[hi], %[hi], %[qhi]\n\t"
	    "csinv	%[lo], %[lo], xzr, cc\n\t"
	    "csinv	%[hi], %[hi], xzr, cc\n\t"
	    "ldp	%[min], %[max], [%[s], #16]\n\t"
	    "stp	%[count], %[sum], [%[s]]\n\t"
	    "stp	%[lo], %[hi], [%[s], #32]\n\t"
	    "cmp	%[v], %[min]\n\t"
	    "b.hs	1f\n\t"
	    "str	%[v], [%[s], #16]\n"
	    "1:\n\t"
	    "cmp	%[v], %[max]\n\t"
	    "b.ls	2f\n\t"
	    "str	%[v], [%[s], #24]\n"
	    "2:"
	    : [count] "=&r" (count), [sum] "=&r" (sum), [min] "=&r" (min),
	      [max] "=&r" (max), [lo] "=&r" (lo), [hi] "=&r" (hi),
	      [qlo] "=&r" (qlo), [qhi] "=&r" (qhi),
	      "+m" (*(u64 (*)[6])w)
	    : [s] "r" (w), [v] "r" (value)
	    : "cc");
}

/*
 * sw_arch_hist_count() - count @value in the log2 histogram whose last
 * bucket is @last (bucket 64 - CLZ): arm64's CLZ of 0 is 64, so there is
 * no branch for 0 (where fls64() has one), and the count's address is
 * @last less 8 * CLZ, one instruction.
 * Context: any, including NMI; the caller serializes writers.
 */
static __always_inline void sw_arch_hist_count(u64 *last, u64 value)
{
	u64 *at, lz;

	asm("clz	%[lz], %[v]\n\t"
	    "sub	%[at], %[end], %[lz], lsl #3"
	    : [at] "=r" (at), [lz] "=&r" (lz)
	    : [end] "r" (last), [v] "r" (value));
	(*at)++;
}
#else
#define SW_ARCH_CTR_PAIRS 0
#endif /* CONFIG_ARM64 */

#endif /* _SW_WRAPPER_ARCH_H */
