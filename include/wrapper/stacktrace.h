/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wrapper/stacktrace.h - what a frame-pointer stack walk needs from the
 * architecture: the frame pointer of a register set, return addresses
 * without pointer-authentication bits, whether user registers are those
 * of a 32-bit task, and the kernel's own unwinder where it exports one.
 */
#ifndef _SW_WRAPPER_STACKTRACE_H
#define _SW_WRAPPER_STACKTRACE_H

#include <linux/ptrace.h>
#include <linux/sched.h>
#include <asm/ptrace.h>
#ifdef CONFIG_ARM64
#include <asm/compiler.h>
#include <asm/pointer_auth.h>
#endif
#ifdef CONFIG_X86
#include <asm/unwind.h>
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

/* The link register of user registers (arm64's x30); 0 where none. */
static inline unsigned long sw_regs_lr(struct pt_regs *regs)
{
#ifdef CONFIG_ARM64
	return regs->regs[30];
#else
	return 0;
#endif
}

/* Whether user code keeps return addresses in a link register (arm64). */
#ifdef CONFIG_ARM64
#define SW_USER_HAS_LR 1
#else
#define SW_USER_HAS_LR 0
#endif

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

/* Whether sw_unwind_kernel() has the kernel's unwinder (1), or none (0). */
#ifdef CONFIG_X86
#define SW_KERNEL_UNWINDER 1
#else
#define SW_KERNEL_UNWINDER 0
#endif

/*
 * sw_unwind_kernel() - the kernel call stack of an interrupted kernel
 * context, by the kernel's own unwinder (x86: ORC in Debian's kernels,
 * through its exported unwind_start()/unwind_next_frame(), started from
 * the interrupted registers as perf does).
 * @regs:  interrupted registers (kernel mode)
 * @out:   room for @max entries, @max at least 1
 * @flags: @err is or-ed in when the unwinder fails, @trunc when @out is full
 *
 * Registers saved by the CPU on an interrupt have the always-one EFLAGS
 * bit set; registers made up by perf_fetch_caller_regs() (software events
 * fired from kernel code) do not, and are unwound from their stack pointer.
 *
 * Context: overflow handler (NMI or hard IRQ), on the interrupted CPU.
 * Return: entries stored (the interrupted pc, then return addresses); 0
 * where the architecture has no such unwinder (SW_KERNEL_UNWINDER 0:
 * arm64), and the caller walks the frame records itself.
 */
static __always_inline u32 sw_unwind_kernel(struct pt_regs *regs, u64 *out,
					    u32 max, u16 *flags, u16 err,
					    u16 trunc)
{
#ifdef CONFIG_X86
	struct unwind_state state;
	unsigned long addr;
	u32 n = 0;

	out[n++] = instruction_pointer(regs);
	if (regs->flags & X86_EFLAGS_FIXED)
		unwind_start(&state, current, regs, NULL);
	else
		unwind_start(&state, current, NULL, (unsigned long *)regs->sp);
	for (; !unwind_done(&state); unwind_next_frame(&state)) {
		addr = unwind_get_return_address(&state);
		if (!addr)
			break;
		if (n == max) {
			*flags |= trunc;
			break;
		}
		out[n++] = addr;
	}
	if (unwind_error(&state))
		*flags |= err;
	return n;
#else
	return 0;
#endif
}

#endif /* _SW_WRAPPER_STACKTRACE_H */
