/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wrapper/uaccess.h - user memory copies from atomic context.
 */
#ifndef _SW_WRAPPER_UACCESS_H
#define _SW_WRAPPER_UACCESS_H

#include <linux/uaccess.h>

/**
 * sw_copy_from_user_nmi() - read user memory from NMI or hard-IRQ context.
 * @to:   kernel buffer
 * @from: user address
 * @n:    bytes
 *
 * Never faults pages in, never sleeps.  x86 has copy_from_user_nmi(),
 * which also refuses while the CPU is switching address spaces; elsewhere
 * the atomic copy with page faults disabled is what perf uses.
 *
 * Return: bytes NOT copied (0 on success).
 */
static inline unsigned long sw_copy_from_user_nmi(void *to,
						  const void __user *from,
						  unsigned long n)
{
#ifdef CONFIG_X86
	return copy_from_user_nmi(to, from, n);
#else
	unsigned long left;

	if (!access_ok(from, n))
		return n;
	pagefault_disable();
	left = __copy_from_user_inatomic(to, from, n);
	pagefault_enable();
	return left;
#endif
}

#endif /* _SW_WRAPPER_UACCESS_H */
