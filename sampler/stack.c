// SPDX-License-Identifier: GPL-2.0
/*
 * stack.c - call stacks for samples, taken in the overflow handler (NMI on
 * x86 hardware events, hard IRQ otherwise).  Everything here is NMI-safe:
 * no locks, no allocation, no page faults, bounded loops.
 *
 * Kernel stacks: on x86 the kernel's own unwinder (ORC in Debian kernels)
 * through its exported unwind_start()/unwind_next_frame() API, started
 * from the interrupted registers as perf does.  Elsewhere a portable
 * frame-record walk: every frame starts with {caller's frame pointer,
 * return address} (arm64's AAPCS64 frame records; x86 with frame pointers
 * lays frames out the same way), read with copy_from_kernel_nofault().
 *
 * User stacks: the same frame-record walk over the user stack, read with
 * copy_from_user_nmi(); it needs programs built with frame pointers and
 * stops quietly where they are missing.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/uaccess.h>

#include "wrapper/stacktrace.h"
#include "wrapper/uaccess.h"
#include "lib/unwtab.h"
#include "session.h"
#include "utables.h"

/*
 * sw_fp_walk() - follow frame records {next fp, return address} from @fp,
 * appending the return addresses to @out after its first @n entries.
 * Kernel records are read with copy_from_kernel_nofault(), user ones with
 * copy_from_user_nmi(); an unreadable record sets @fault, a full @out sets
 * @trunc.  A zero, misaligned or non-increasing frame pointer, or a zero
 * return address, ends the walk normally.
 * Context: overflow handler (NMI or hard IRQ); never faults, never sleeps.
 */
static __always_inline u32 sw_fp_walk(unsigned long fp, bool user, u64 *out,
				      u32 n, u32 max, u16 *flags, u16 fault,
				      u16 trunc)
{
	unsigned long rec[2];

	while (fp && !(fp & (sizeof(long) - 1))) {
		if (user ? sw_copy_from_user_nmi(rec, (const void __user *)fp,
						 sizeof(rec)) :
			   copy_from_kernel_nofault(rec, (void *)fp, sizeof(rec))) {
			*flags |= fault;
			break;
		}
		if (!rec[1])
			break;
		if (n == max) {
			*flags |= trunc;
			break;
		}
		out[n++] = sw_strip_pac(rec[1], user);
		if (rec[0] <= fp)
			break;
		fp = rec[0];
	}
	return n;
}


/**
 * sw_stack_kernel() - the kernel call stack of an interrupted kernel context.
 * @regs:  interrupted registers (kernel mode)
 * @out:   room for @max entries
 * @max:   most entries, at least 1
 * @flags: SW_SAMPLE_F_KSTACK_* bits are or-ed in
 *
 * Context: overflow handler (NMI or hard IRQ), on the interrupted CPU.
 * Return: entries stored: the interrupted pc, then return addresses.
 */
u32 sw_stack_kernel(struct pt_regs *regs, u64 *out, u32 max, u16 *flags)
{
	if (SW_KERNEL_UNWINDER)
		return sw_unwind_kernel(regs, out, max, flags,
					SW_SAMPLE_F_KSTACK_ERR,
					SW_SAMPLE_F_KSTACK_TRUNC);
	/* No unwinder of the kernel's: its frame records. */
	out[0] = instruction_pointer(regs);
	return sw_fp_walk(sw_regs_fp(regs), false, out, 1, max, flags,
			  SW_SAMPLE_F_KSTACK_ERR, SW_SAMPLE_F_KSTACK_TRUNC);
}
NOKPROBE_SYMBOL(sw_stack_kernel);

/**
 * sw_stack_user() - the user call stack of the current task.
 * @regs:  its user-mode registers (the interrupted ones for a user-mode
 *         sample, else those saved at kernel entry)
 * @out:   room for @max entries
 * @max:   most entries, at least 1
 * @flags: SW_SAMPLE_F_USTACK_* bits are or-ed in
 *
 * Walks frame records from the frame-pointer register.  A frame pointer of
 * zero, a misaligned one or one that does not move up the stack ends the
 * walk normally; one that cannot be read sets SW_SAMPLE_F_USTACK_FAULT.
 * 32-bit tasks get only their pc.
 *
 * Context: overflow handler (NMI or hard IRQ); current has a user mm.
 * Return: entries stored: the user pc, then return addresses.
 */
u32 sw_stack_user(struct pt_regs *regs, u64 *out, u32 max, u16 *flags)
{
	out[0] = instruction_pointer(regs);
	if (sw_user_regs_compat(regs))
		return 1;
	return sw_fp_walk(sw_regs_fp(regs), true, out, 1, max, flags,
			  SW_SAMPLE_F_USTACK_FAULT, SW_SAMPLE_F_USTACK_TRUNC);
}
NOKPROBE_SYMBOL(sw_stack_user);

/*
 * Reads one user word, counted against the bytes *@left a walk may still
 * read; false when it cannot be read, with *@end set to what ends the walk
 * (SW_SAMPLE_F_USTACK_TRUNC: the budget is spent, else a fault).
 */
static __always_inline bool sw_uword(unsigned long addr, unsigned long *v,
				     u32 *left, u16 *end)
{
	if (*left < sizeof(*v)) {
		*end = SW_SAMPLE_F_USTACK_TRUNC;
		return false;
	}
	*left -= sizeof(*v);
	if (sw_copy_from_user_nmi(v, (const void __user *)addr, sizeof(*v))) {
		*end = SW_SAMPLE_F_USTACK_FAULT;
		return false;
	}
	return true;
}

/**
 * sw_stack_user_table() - the user call stack of the current task, by the
 * unwind tables the program loaded (unwind.c).
 * @regs:  its user-mode registers
 * @out:   room for @max entries
 * @max:   most entries, at least 1
 * @flags: SW_SAMPLE_F_USTACK_TABLE and how the walk ended are or-ed in
 * @read:  set to the bytes of user memory the walk read
 *
 * Each step finds the row of the pc (for return addresses, of the call
 * before it), computes the CFA from the stack or frame pointer, reads the
 * return address and the saved frame pointer where the row says, and
 * moves up.  Where no table covers a pc it takes one frame-record step
 * from the frame pointer.  At a signal trampoline (SW_UNW_CFA_SIGNAL) it
 * reads the interrupted pc, stack and frame pointer (arm64: and link
 * register) from the signal frame and goes on from there, the interrupted
 * pc taken as exact (not a return address).  The walk ends complete at a
 * row that marks the outermost frame or at a zero return address; with
 * SW_SAMPLE_F_USTACK_NOTAB where neither tables nor frame records lead
 * on, SW_SAMPLE_F_USTACK_FAULT where a read failed or the stack did not
 * move up, SW_SAMPLE_F_USTACK_TRUNC at @max entries or when the walk has
 * read 16 bytes per entry of @max (two words a frame; a signal frame
 * takes three words, four on arm64).
 *
 * Context: overflow handler (NMI or hard IRQ); current has a user mm.
 * Return: entries stored: the user pc, then return addresses.
 */
u32 sw_stack_user_table(struct pt_regs *regs, u64 *out, u32 max, u16 *flags,
			u32 *read)
{
	u32 pid = task_tgid_nr(current), n = 0;
	u32 budget = max * 2 * sizeof(long), left = budget;
	unsigned long pc = instruction_pointer(regs);
	unsigned long sp = user_stack_pointer(regs);
	unsigned long fp = sw_regs_fp(regs);
	unsigned long lr = sw_regs_lr(regs);
	unsigned long cfa, ra, nfp, rec[2];
	const struct sw_unw_map *m;
	const struct sw_unw_row *r;
	bool exact = true;	/* pc is where the code was, not a return */
	bool sig;
	u16 end = 0;

	*flags |= SW_SAMPLE_F_USTACK_TABLE;
	*read = 0;
	out[n++] = pc;
	if (sw_user_regs_compat(regs))
		return n;
	rcu_read_lock();
	for (;;) {
		m = sw_unw_proc_map(pid, pc);
		r = m ? sw_unw_find(m->rows, m->nr,
				    pc + m->adj - (exact ? 0 : 1)) : NULL;
		nfp = fp;
		if (r && r->cfa == SW_UNW_CFA_END)
			break;
		sig = r && r->cfa == SW_UNW_CFA_SIGNAL;
		if (sig) {
			/* The interrupted context, anywhere on the stack. */
			if (!sw_uword(sp + r->ra_off, &ra, &left, &end) ||
			    !sw_uword(sp + r->cfa_off, &cfa, &left, &end) ||
			    !sw_uword(sp + r->fp_off, &nfp, &left, &end) ||
			    (SW_USER_HAS_LR &&
			     !sw_uword(sp + r->fp_off + sizeof(long), &lr,
				       &left, &end)))
				break;
			if (!ra || !cfa) {
				end = SW_SAMPLE_F_USTACK_FAULT;
				break;
			}
		} else if (!r || r->cfa == SW_UNW_CFA_NONE) {
			if (!fp || (fp & (sizeof(long) - 1)) || fp < sp) {
				end = SW_SAMPLE_F_USTACK_NOTAB;
				break;
			}
			if (left < sizeof(rec)) {
				end = SW_SAMPLE_F_USTACK_TRUNC;
				break;
			}
			left -= sizeof(rec);
			if (sw_copy_from_user_nmi(rec, (const void __user *)fp,
						  sizeof(rec))) {
				end = SW_SAMPLE_F_USTACK_FAULT;
				break;
			}
			cfa = fp + sizeof(rec);
			nfp = rec[0];
			ra = rec[1];
		} else {
			cfa = (r->cfa == SW_UNW_CFA_FP ? fp : sp) + r->cfa_off;
			if (r->cfa == SW_UNW_CFA_PLT && (pc & 15) >= r->fp_off)
				cfa += sizeof(long);
			if (r->ra == SW_UNW_RA_LR) {
				/* Only where the link register is current. */
				ra = exact ? lr : 0;
				if (!ra) {
					end = SW_SAMPLE_F_USTACK_FAULT;
					break;
				}
			} else if (!sw_uword(cfa + r->ra_off, &ra, &left, &end)) {
				break;
			}
			if (r->fp == SW_UNW_FP_AT &&
			    !sw_uword(cfa + r->fp_off, &nfp, &left, &end))
				break;
		}
		if (!ra)
			break;
		/* A signal frame's saved stack may be anywhere. */
		if (!sig && (cfa < sp || (cfa == sp && !exact))) {
			end = SW_SAMPLE_F_USTACK_FAULT;
			break;
		}
		if (n == max) {
			end = SW_SAMPLE_F_USTACK_TRUNC;
			break;
		}
		ra = sw_strip_pac(ra, true);
		out[n++] = ra;
		pc = ra;
		sp = cfa;
		fp = nfp;
		/* an interrupted pc is where the code was, not a return */
		exact = sig;
	}
	rcu_read_unlock();
	*flags |= end;
	*read = budget - left;
	return n;
}
NOKPROBE_SYMBOL(sw_stack_user_table);
