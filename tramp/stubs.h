/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stubs.h - inside stopwatch_tramp.ko: what the assembly (stubs_x86.S,
 * stubs_arm64.S) and stubs.c share.
 */
#ifndef _STOPWATCH_TRAMP_STUBS_H
#define _STOPWATCH_TRAMP_STUBS_H

#include <linux/types.h>

/* The stubs, SW_TRAMP_STUB_SIZE bytes apart. */
extern const u8 sw_tramp_stubs[];

/* Called by the common body with the trampoline's frame (stubs.c). */
void swt_enter(void *f);
void swt_exit(void *f);

#endif /* _STOPWATCH_TRAMP_STUBS_H */
