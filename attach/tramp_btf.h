/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tramp_btf.h - a trampoline's args=N checked against the kernel's BTF
 * (tramp_btf.c), for tramp.c.
 */
#ifndef _STOPWATCH_TRAMP_BTF_H
#define _STOPWATCH_TRAMP_BTF_H

#include <linux/types.h>

int sw_tramp_btf_check(const char *name, unsigned long addr, int nargs,
		       char *why, size_t len);
void sw_tramp_btf_exit(void);

#endif /* _STOPWATCH_TRAMP_BTF_H */
