/* SPDX-License-Identifier: GPL-2.0 */
/*
 * types.h - the few kernel types and helpers the pure-logic files use,
 * so that the same .c files build into stopwatch.ko and into host unit
 * tests.  In the kernel this is a thin include list; on the host it maps
 * the kernel names onto the C library.
 */
#ifndef _STOPWATCH_WRAPPER_TYPES_H
#define _STOPWATCH_WRAPPER_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/string.h>
#include <linux/overflow.h>
#include <linux/kprobes.h>

#ifndef CONFIG_ARCH_SUPPORTS_INT128
#error "stopwatch needs 128-bit integer arithmetic (64-bit architectures only)"
#endif
#else /* host */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;
typedef int32_t s32;

#define U64_MAX UINT64_MAX
#define U32_MAX UINT32_MAX
#define S64_MAX INT64_MAX

static inline int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

static inline u64 div64_u64(u64 a, u64 b)
{
	return a / b;
}

static inline u64 mul_u64_u64_div_u64(u64 a, u64 b, u64 c)
{
	return (u64)(((unsigned __int128)a * b) / c);
}

#define check_add_overflow(a, b, d) __builtin_add_overflow(a, b, d)
#define check_mul_overflow(a, b, d) __builtin_mul_overflow(a, b, d)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define min_t(t, a, b) ((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b) ((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define __printf(a, b) __attribute__((format(printf, a, b)))
#define NOKPROBE_SYMBOL(fn)
#define READ_ONCE(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif
#endif /* __KERNEL__ */

typedef unsigned __int128 sw_u128;
typedef __int128 sw_s128;

/*
 * SW_TESTED marks a helper of a file's own that the host unit tests call
 * directly: static in the module and the program, visible only in the
 * unit tests' build (tests/unit defines SW_UNIT_TEST).  Functions that
 * only those tests use sit under #ifdef SW_UNIT_TEST.
 */
#ifdef SW_UNIT_TEST
#define SW_TESTED
#else
#define SW_TESTED static
#endif

#define SW_U128_MAX (~(sw_u128)0)

#endif /* _STOPWATCH_WRAPPER_TYPES_H */
