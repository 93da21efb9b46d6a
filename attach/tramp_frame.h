/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tramp_frame.h - the x86_64 trampoline's stack frame, shared by
 * tramp_x86.S and tramp_run.c (which checks every offset against the C
 * layout when compiling); arm64's is in tramp_frame_arm64.h.
 *
 *   0    struct pt_regs (168 bytes): the argument registers at entry;
 *        ax, dx and ip (the caller's return address) at exit
 *   168  struct sw_call (40 bytes)
 *   208  the probe (struct sw_tramp *), set by the entry half
 *   216  the stub's index, set by the stub
 *   224  end; a multiple of 16 with the saved %rbp above it, so the
 *        calls out of the trampoline keep the stack 16-byte aligned
 */
#ifndef _STOPWATCH_TRAMP_FRAME_H
#define _STOPWATCH_TRAMP_FRAME_H

/* Stubs in the pool, and each one's size in bytes. */
#define SW_TRAMP_SLOTS		1024
#define SW_TRAMP_STUB_SIZE	16

#ifdef CONFIG_ARM64
#include "tramp_frame_arm64.h"
#else
#define SW_TF_R9	64
#define SW_TF_R8	72
#define SW_TF_AX	80
#define SW_TF_CX	88
#define SW_TF_DX	96
#define SW_TF_SI	104
#define SW_TF_DI	112
#define SW_TF_IP	128
#define SW_TF_CALL	168
#define SW_TF_TRAMP	208
#define SW_TF_IDX	216
#define SW_TF_SIZE	224
#endif

#endif /* _STOPWATCH_TRAMP_FRAME_H */
