/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wrapper/ftrace_direct.h - what a direct-call trampoline's frame is made
 * of on each architecture that has one (the layout: tramp/abi.h), for the
 * stubs' assembly (tramp/stubs_*.S) and the C halves (attach/).
 *
 * SW_TRAMP_ARCH: the architecture has stubs (x86_64, arm64).
 * SW_TRAMP_MAX_ARGS: the argument registers a trampolined function may
 * take (x86_64: rdi, rsi, rdx, rcx, r8, r9; arm64: x0-x7).
 * SW_TF_*: byte offsets in the frame; SW_TF_ASSERT_REGS(type) checks the
 * registers' and the size's against the C layout @type when compiling.
 * Safe to include from assembly.
 */
#ifndef _SW_WRAPPER_FTRACE_DIRECT_H
#define _SW_WRAPPER_FTRACE_DIRECT_H

#if defined(CONFIG_ARM64)
#define SW_TRAMP_ARCH		1
#define SW_TRAMP_MAX_ARGS	8

#define SW_TF_X0	0
#define SW_TF_X2	16
#define SW_TF_X4	32
#define SW_TF_X6	48
#define SW_TF_X8	64
#define SW_TF_PC	256
#define SW_TF_CALL	336
#define SW_TF_SEQ	376
#define SW_TF_GEN	380
#define SW_TF_IDX	384
#define SW_TF_SIZE	544
#define SW_TF_CALLER_FP	560
#define SW_TF_ENTRY_SP	576

#ifndef __ASSEMBLY__
#define SW_TF_ASSERT_REGS(type)						\
	static_assert(offsetof(type, regs.regs[0]) == SW_TF_X0);	\
	static_assert(offsetof(type, regs.regs[2]) == SW_TF_X2);	\
	static_assert(offsetof(type, regs.regs[4]) == SW_TF_X4);	\
	static_assert(offsetof(type, regs.regs[6]) == SW_TF_X6);	\
	static_assert(offsetof(type, regs.regs[8]) == SW_TF_X8);	\
	static_assert(offsetof(type, regs.pc) == SW_TF_PC);		\
	static_assert(sizeof(type) <= SW_TF_SIZE);			\
	static_assert(!(SW_TF_SIZE % 16))
#endif

#elif defined(CONFIG_X86_64)
#define SW_TRAMP_ARCH		1
#define SW_TRAMP_MAX_ARGS	6

#define SW_TF_R9	64
#define SW_TF_R8	72
#define SW_TF_AX	80
#define SW_TF_CX	88
#define SW_TF_DX	96
#define SW_TF_SI	104
#define SW_TF_DI	112
#define SW_TF_IP	128
#define SW_TF_CALL	168
#define SW_TF_SEQ	208
#define SW_TF_GEN	212
#define SW_TF_IDX	216
#define SW_TF_SIZE	368
/* The saved %rbp (the caller's), and where the caller's return address is. */
#define SW_TF_CALLER_FP	(SW_TF_SIZE)
#define SW_TF_ENTRY_SP	(SW_TF_SIZE + 16)

#ifndef __ASSEMBLY__
#define SW_TF_ASSERT_REGS(type)						\
	static_assert(offsetof(type, regs.r9) == SW_TF_R9);		\
	static_assert(offsetof(type, regs.r8) == SW_TF_R8);		\
	static_assert(offsetof(type, regs.ax) == SW_TF_AX);		\
	static_assert(offsetof(type, regs.cx) == SW_TF_CX);		\
	static_assert(offsetof(type, regs.dx) == SW_TF_DX);		\
	static_assert(offsetof(type, regs.si) == SW_TF_SI);		\
	static_assert(offsetof(type, regs.di) == SW_TF_DI);		\
	static_assert(offsetof(type, regs.ip) == SW_TF_IP);		\
	static_assert(sizeof(type) == SW_TF_SIZE)
#endif
#endif

#endif /* _SW_WRAPPER_FTRACE_DIRECT_H */
