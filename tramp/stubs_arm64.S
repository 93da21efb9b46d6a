/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stubs_arm64.S - the direct-call trampolines of arm64, in
 * stopwatch_tramp.ko (abi.h says why there; attach/tramp.c installs them).
 *
 * A module cannot allocate executable memory, so the trampolines are a
 * fixed pool in the companion module's text: SW_TRAMP_SLOTS stubs of 16 bytes, one
 * per probe, each putting its index in x10 and branching to the one
 * common body.  A function's ftrace call site is "mov x9, x30; bl ..."
 * and reaches a stub either by that BL (the stub within its range) or
 * through ftrace_caller, which branches with "br x17" to the ops'
 * direct_call.  Either way, on entry
 *
 *   x0-x8  the function's arguments (x8: where a large result goes)
 *   x9     the caller's return address (the function's original LR)
 *   x30    the function's body (the instruction after the call site)
 *   x10-x17 free (AAPCS64 scratch, and ftrace_caller's own)
 *   sp     the function's stack pointer, stack arguments above it
 *
 * The common body pushes two frame records, as if the caller had called
 * the function and the function this code (the caller's fp and return
 * address, then the body's address), so unwinding by frame records goes
 * from the body through the trampoline and the function to the caller.
 * Below them it builds the frame of abi.h:
 * a pt_regs with x0-x8, the call's struct sw_call.  It runs the entry
 * half, calls the body with x0-x8 as they came, runs the exit half with
 * x0/x1 (the return value) and the caller's return address in the frame,
 * and returns to the caller with x0/x1 as the body left them.
 *
 * The stack pointer the body sees is below the caller's stack
 * arguments: only functions whose arguments are all in x0-x7 may use a
 * trampoline (tramp.c).  The body is reached by a RET to its address
 * with x30 pointing back here, as the kernel's BPF trampoline does: RET
 * is no BTI-checked branch, and the body's own pointer authentication
 * signs and checks that x30 against the stack pointer it is given.
 * The stubs begin with BTI C: "br x17" and BL may land there.
 */
#include <linux/linkage.h>

#include "abi.h"

	.text

/*
 * sw_tramp_common - the body shared by every stub; x10 = stub index.
 * Context: any the function is called in (process, interrupt, NMI).
 */
SYM_CODE_START_LOCAL(sw_tramp_common)
	/* The caller's frame record, then the function's. */
	stp	x29, x9, [sp, #-16]!
	mov	x29, sp
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	sub	sp, sp, #SW_TF_SIZE
	stp	x0, x1, [sp, #SW_TF_X0]
	stp	x2, x3, [sp, #SW_TF_X2]
	stp	x4, x5, [sp, #SW_TF_X4]
	stp	x6, x7, [sp, #SW_TF_X6]
	str	x8, [sp, #SW_TF_X8]
	str	x10, [sp, #SW_TF_IDX]
	mov	x0, sp
	bl	swt_enter
	ldp	x0, x1, [sp, #SW_TF_X0]
	ldp	x2, x3, [sp, #SW_TF_X2]
	ldp	x4, x5, [sp, #SW_TF_X4]
	ldp	x6, x7, [sp, #SW_TF_X6]
	ldr	x8, [sp, #SW_TF_X8]
	/* Call the body: its address is the function's record's LR. */
	ldr	x10, [x29, #8]
	adr	x30, .Lsw_tramp_back
	ret	x10
.Lsw_tramp_back:
	stp	x0, x1, [sp, #SW_TF_X0]
	ldr	x10, [x29, #24]
	str	x10, [sp, #SW_TF_PC]
	mov	x0, sp
	bl	swt_exit
	ldp	x0, x1, [sp, #SW_TF_X0]
	/* Drop the frame and the function's record; back to the caller. */
	add	sp, sp, #(SW_TF_SIZE + 16)
	ldp	x29, x30, [sp], #16
	ret
SYM_CODE_END(sw_tramp_common)

/* The stubs: BTI C (hint 34, a NOP without BTI), the index, the branch. */
	.balign	SW_TRAMP_STUB_SIZE
SYM_CODE_START(sw_tramp_stubs)
	.set	sw_stub_idx, 0
	.rept	SW_TRAMP_SLOTS
	hint	34
	movz	x10, #sw_stub_idx
	b	sw_tramp_common
	brk	#0x5357
	.set	sw_stub_idx, sw_stub_idx + 1
	.endr
SYM_CODE_END(sw_tramp_stubs)
