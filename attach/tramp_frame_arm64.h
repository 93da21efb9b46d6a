/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tramp_frame_arm64.h - the arm64 trampoline's stack frame, shared by
 * tramp_arm64.S and tramp_run.c (which checks every offset against the C
 * layout when compiling).  From the stack pointer up:
 *
 *   0    struct pt_regs (336 bytes): x0-x8 at entry; x0, x1 and pc (the
 *        caller's return address) at exit
 *   336  struct sw_call (40 bytes)
 *   376  the probe (struct sw_tramp *), set by the entry half
 *   384  the stub's index, set by the common body
 *   392  padding to a multiple of 16
 *   400  the traced function's frame record: the body's frame pointer
 *        above it and the body's address (the instruction after the
 *        ftrace call site) as its return address
 *   416  the caller's frame record: the caller's fp and return address
 *   432  the stack pointer at the ftrace call site
 */
#ifndef _STOPWATCH_TRAMP_FRAME_ARM64_H
#define _STOPWATCH_TRAMP_FRAME_ARM64_H

#define SW_TF_X0	0
#define SW_TF_X2	16
#define SW_TF_X4	32
#define SW_TF_X6	48
#define SW_TF_X8	64
#define SW_TF_PC	256
#define SW_TF_CALL	336
#define SW_TF_TRAMP	376
#define SW_TF_IDX	384
#define SW_TF_SIZE	400

#endif /* _STOPWATCH_TRAMP_FRAME_ARM64_H */
