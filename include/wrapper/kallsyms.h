/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wrapper/kallsyms.h - whether the current task may see kernel addresses.
 *
 * The kernel's rule is kallsyms_show_value() (what /proc/kallsyms and
 * /proc/modules follow), which is not exported on 6.1 or 6.12, and
 * kptr_restrict itself is not exported either.  The rule is read through
 * %pK, which printk applies with kptr_restrict's value: 2 prints zeros;
 * 1 prints the address only to a task with CAP_SYSLOG and its real ids
 * equal to its effective ids; 0 hashes it (prints it with
 * no_hash_pointers), where kallsyms_show_value() asks for CAP_SYSLOG.
 */
#ifndef _SW_WRAPPER_KALLSYMS_H
#define _SW_WRAPPER_KALLSYMS_H

#include <linux/capability.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/user_namespace.h>

/*
 * True when current may see kernel addresses (kallsyms_show_value()'s
 * answer for it).  Context: process context (%pK refuses in interrupts).
 */
static inline bool sw_kallsyms_show_value(void)
{
	const void *p = current;
	char k[24], x[24];

	snprintf(k, sizeof(k), "%pK", p);
	/* what %pK prints when it shows the address; compared, never shown */
	snprintf(x, sizeof(x), "%0*lx", (int)(2 * sizeof(p)), (unsigned long)p);
	if (!strcmp(k, x))
		return true;
	if (strspn(k, "0") == strlen(k) || !strcmp(k, "pK-error"))
		return false;
	/* hashed: kptr_restrict is 0 */
	return ns_capable_noaudit(&init_user_ns, CAP_SYSLOG);
}

#endif /* _SW_WRAPPER_KALLSYMS_H */
