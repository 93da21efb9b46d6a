/* SPDX-License-Identifier: GPL-2.0 */
/*
 * btf.h - a small reader of the kernel's BTF (the raw blob of
 * /sys/kernel/btf/vmlinux, or a module's split BTF on top of it): enough
 * to find a function by name and count the argument registers its
 * prototype takes, the way the stopwatch program counts them for args=.
 *
 * Every offset, length and type id read from the blob is checked against
 * the blob's own bounds before it is used: a truncated or corrupt blob is
 * refused (-EINVAL), never read past.
 *
 * Pure logic: compiled into stopwatch.ko and into host unit tests.
 */
#ifndef _STOPWATCH_BTF_H
#define _STOPWATCH_BTF_H

#include "wrapper/types.h"

/* What sw_btf_func_regs() says of a variadic function. */
#define SW_BTF_VARIADIC 255

/* Counts above this are given as this (the module's args= range). */
#define SW_BTF_MAX_REGS 127

/**
 * struct sw_btf - one parsed blob.
 * @types:     its type section
 * @strs:      its string section (NUL-terminated)
 * @types_len: bytes of @types
 * @strs_len:  bytes of @strs
 * @first_id:  the id of its first type: 1, or for split BTF the id after
 *             its base's last
 * @nr:        its types
 * @str_first: the string offset its @strs starts at: 0, or for split
 *             BTF its base's string length
 * @offs:      each type's offset in @types (sw_btf_index()), else NULL
 * @base:      the BTF it is split from, NULL for vmlinux's
 */
struct sw_btf {
	const u8 *types;
	const char *strs;
	u32 types_len;
	u32 strs_len;
	u32 first_id;
	u32 nr;
	u32 str_first;
	const u32 *offs;
	const struct sw_btf *base;
};

int sw_btf_open(struct sw_btf *b, const void *data, size_t len,
		const struct sw_btf *base);
int sw_btf_index(struct sw_btf *b, u32 *offs);
const char *sw_btf_name(const struct sw_btf *b, u32 off);
u32 sw_btf_find_func(const struct sw_btf *b, const char *name, u32 from);
int sw_btf_func_regs(const struct sw_btf *b, u32 id);
int sw_btf_regs_by_name(const struct sw_btf *b, const char *name, u8 *regs,
			int max);

/*
 * The function index: one u64 a function, its name's hash in the upper
 * 56 bits and its count (sw_btf_func_regs()) in the low 8, sorted.
 */
u64 sw_btf_hash(const char *name);
u32 sw_btf_count_funcs(const struct sw_btf *b);
u32 sw_btf_index_funcs(const struct sw_btf *b, u64 *idx, u32 cap);
int sw_btf_index_find(const u64 *idx, u32 n, const char *name, u8 *regs,
		      int max);

/* What BTF says of args=N (sw_btf_verdict()). */
enum sw_btf_verdict {
	SW_BTF_OK,		/* a function of that name takes N */
	SW_BTF_UNKNOWN,		/* BTF does not describe the name */
	SW_BTF_IS_VARIADIC,	/* every function of that name is variadic */
	SW_BTF_OTHER_COUNT,	/* none takes N: regs[] says what they take */
};

enum sw_btf_verdict sw_btf_verdict(const u8 *regs, int n, int nargs);

#endif /* _STOPWATCH_BTF_H */
