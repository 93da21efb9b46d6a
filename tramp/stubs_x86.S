/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stubs_x86.S - the direct-call trampolines of x86_64, in
 * stopwatch_tramp.ko (abi.h says why there; attach/tramp.c installs them).
 *
 * A module cannot allocate executable memory, so the trampolines are a
 * fixed pool in the companion module's text: SW_TRAMP_SLOTS stubs of 16 bytes, one
 * per probe, each loading its index into %r11 (free at a function's
 * first instruction: neither an argument nor callee-saved) and jumping to
 * the one common body.  ftrace calls a stub from the function's fentry
 * site, so on entry
 *
 *   [rsp]     the function's body (the instruction after the fentry call)
 *   [rsp + 8] the caller's return address
 *
 * The body builds a frame (abi.h: a pt_regs with the
 * argument registers, the call's struct sw_call), runs the entry
 * (swt_enter(), stubs.c: stopwatch.ko's entry half if it is loaded),
 * calls the function's body with the argument registers and %rax (the
 * vector count of a varargs call) as they came, runs the exit half with
 * the return value in the frame, and returns to the caller with %rax and
 * %rdx as the function left them.
 *
 * The function's body is not an ENDBR target (IBT) and an indirect call
 * would need a retpoline: sw_tramp_call_body reaches it by a return, the
 * way the kernel's own ftrace trampolines return into it.  Every return
 * goes through RET (the return thunk under RETHUNK).  objtool sees a
 * frame-pointer frame and the hints below, so the ORC unwinder walks from
 * the function's body through the trampoline to the caller.
 */
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <asm/unwind_hints.h>
#include <asm/ibt.h>

#include "abi.h"

	.text

/*
 * sw_tramp_call_body - called from sw_tramp_common with the body's
 * address in %r11: turns the call into a jump to the body, which then
 * returns to sw_tramp_common.  At the RET the stack is exactly a call of
 * the body from sw_tramp_common's frame with the body's address as the
 * innermost return address, which is what UNWIND_HINT_FUNC says.
 */
SYM_CODE_START_LOCAL(sw_tramp_call_body)
	UNWIND_HINT_FUNC
	pushq	%r11
	UNWIND_HINT_FUNC
	RET
SYM_CODE_END(sw_tramp_call_body)

/*
 * sw_tramp_common - the body shared by every stub; %r11 = stub index.
 * Context: any the function is called in (process, interrupt, NMI).
 */
SYM_CODE_START_LOCAL(sw_tramp_common)
	UNWIND_HINT_FUNC
	pushq	%rbp
	movq	%rsp, %rbp
	subq	$SW_TF_SIZE, %rsp
	movq	%rdi, SW_TF_DI(%rsp)
	movq	%rsi, SW_TF_SI(%rsp)
	movq	%rdx, SW_TF_DX(%rsp)
	movq	%rcx, SW_TF_CX(%rsp)
	movq	%r8, SW_TF_R8(%rsp)
	movq	%r9, SW_TF_R9(%rsp)
	movq	%rax, SW_TF_AX(%rsp)
	movq	%r11, SW_TF_IDX(%rsp)
	movq	%rsp, %rdi
	call	swt_enter
	movq	SW_TF_DI(%rsp), %rdi
	movq	SW_TF_SI(%rsp), %rsi
	movq	SW_TF_DX(%rsp), %rdx
	movq	SW_TF_CX(%rsp), %rcx
	movq	SW_TF_R8(%rsp), %r8
	movq	SW_TF_R9(%rsp), %r9
	movq	SW_TF_AX(%rsp), %rax
	movq	8(%rbp), %r11
	call	sw_tramp_call_body
	movq	%rax, SW_TF_AX(%rsp)
	movq	%rdx, SW_TF_DX(%rsp)
	movq	16(%rbp), %r11
	movq	%r11, SW_TF_IP(%rsp)
	movq	%rsp, %rdi
	call	swt_exit
	movq	SW_TF_AX(%rsp), %rax
	movq	SW_TF_DX(%rsp), %rdx
	leave
	/* Drop the body's address: return straight to the caller. */
	addq	$8, %rsp
	UNWIND_HINT_FUNC
	RET
SYM_CODE_END(sw_tramp_common)

/*
 * The stubs: ENDBR (ftrace's call of a direct trampoline is direct, but
 * the address is also reachable through ftrace_regs_caller's return when
 * another ftrace user shares the site), the index, the jump.
 */
	.balign	SW_TRAMP_STUB_SIZE
SYM_CODE_START(sw_tramp_stubs)
	.set	sw_stub_idx, 0
	.rept	SW_TRAMP_SLOTS
	UNWIND_HINT_FUNC
	ENDBR
	movl	$sw_stub_idx, %r11d
	jmp	sw_tramp_common
	.balign	SW_TRAMP_STUB_SIZE, 0xcc
	.set	sw_stub_idx, sw_stub_idx + 1
	.endr
SYM_CODE_END(sw_tramp_stubs)
