/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wrapper/stacktrace.h - what a frame-pointer stack walk needs from the
 * architecture: the frame pointer of a register set, return addresses
 * without pointer-authentication bits, and whether user registers are
 * those of a 32-bit task.
 */
#ifndef _SW_WRAPPER_STACKTRACE_H
#define _SW_WRAPPER_STACKTRACE_H

#include <linux/ptrace.h>
#include <asm/ptrace.h>
#ifdef CONFIG_ARM64
#include <asm/compiler.h>
#include <asm/pointer_auth.h>
#endif

/* The frame pointer register of a register set. */
static inline unsigned long sw_regs_fp(struct pt_regs *regs)
{
#ifdef CONFIG_X86
	return regs->bp;
#else
	return frame_pointer(regs);
#endif
}

/*
 * A code address with any pointer-authentication bits removed, from a
 * @user or a kernel stack.  Linux 6.5 split ptrauth_strip_insn_pac() into
 * ptrauth_strip_kernel_insn_pac() and ptrauth_strip_user_insn_pac()
 * (macros of asm/compiler.h), which this keys on.
 */
static inline unsigned long sw_strip_pac(unsigned long addr, bool user)
{
#if defined(CONFIG_ARM64) && defined(ptrauth_strip_user_insn_pac)
	return user ? ptrauth_strip_user_insn_pac(addr) :
		      ptrauth_strip_kernel_insn_pac(addr);
#elif defined(CONFIG_ARM64)
	return ptrauth_strip_insn_pac(addr);
#else
	return addr;
#endif
}

/* Whether user registers belong to a 32-bit (compat) task. */
static inline bool sw_user_regs_compat(struct pt_regs *regs)
{
#if defined(CONFIG_X86_64)
	return !user_64bit_mode(regs);
#elif defined(CONFIG_ARM64)
	return compat_user_mode(regs);
#else
	return false;
#endif
}

#endif /* _SW_WRAPPER_STACKTRACE_H */
