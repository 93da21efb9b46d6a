/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wrapper/ftrace.h - ftrace direct calls (a trampoline of our own called
 * from a function's ftrace site).
 *
 * 6.1 has two forms: register_ftrace_direct(ip, addr) for one function and
 * register_ftrace_direct_multi(ops, addr) for an ftrace_ops filter; 6.12
 * keeps only the ops form, renamed register_ftrace_direct(ops, addr), with
 * unregister_ftrace_direct(ops, addr, free_filters).  Direct calls exist
 * where the architecture selects CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS:
 * x86_64 on 6.1 and 6.12, arm64 on 6.12 only.  register_fprobe() is
 * exported on 6.12 only.
 */
#ifndef _SW_WRAPPER_FTRACE_H
#define _SW_WRAPPER_FTRACE_H

#include <linux/ftrace.h>
#include <linux/version.h>

#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
#define SW_HAVE_FTRACE_DIRECT 1
#endif

#ifdef SW_HAVE_FTRACE_DIRECT
/**
 * sw_ftrace_direct_register() - call @addr from the ftrace site of every
 * function in @ops' filter.
 * @ops:  ftrace_ops whose filter (ftrace_set_filter_ip()) names the sites
 * @addr: the trampoline
 *
 * Context: process context.
 * Return: 0, -EBUSY (another direct caller owns a site) or another errno.
 */
static inline int sw_ftrace_direct_register(struct ftrace_ops *ops,
					    unsigned long addr)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	return register_ftrace_direct(ops, addr);
#else
	return register_ftrace_direct_multi(ops, addr);
#endif
}

/*
 * Undoes sw_ftrace_direct_register(), freeing @ops' filter.  On failure
 * ftrace may still hold @ops (its list, its filter): nothing is freed
 * then, and the caller must keep @ops for good.
 */
static inline int sw_ftrace_direct_unregister(struct ftrace_ops *ops,
					      unsigned long addr)
{
	int ret;

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	ret = unregister_ftrace_direct(ops, addr, false);
#else
	ret = unregister_ftrace_direct_multi(ops, addr);
#endif
	if (!ret)
		ftrace_free_filter(ops);
	return ret;
}
#endif /* SW_HAVE_FTRACE_DIRECT */

#endif /* _SW_WRAPPER_FTRACE_H */
