/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wrapper/cgroup.h - the current task's cgroup v2 id.
 *
 * task_dfl_cgroup() and cgroup_id() are static inlines in <linux/cgroup.h>
 * on 6.1 and 6.12 alike (the id is the kernfs node id, which is the inode
 * number of the cgroup's directory in cgroup2fs); nothing needs exporting.
 * Without CONFIG_CGROUPS every task is in the root cgroup, id 1.
 */
#ifndef _SW_WRAPPER_CGROUP_H
#define _SW_WRAPPER_CGROUP_H

#include <linux/cgroup.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>

/*
 * The default-hierarchy cgroup id of current.  Context: any, including a
 * kprobe handler or NMI (an RCU read-side section; under PREEMPT_RT too,
 * where rcu_read_lock() does not sleep either).
 */
static __always_inline u64 sw_current_cgroup_id(void)
{
#ifdef CONFIG_CGROUPS
	u64 id;

	rcu_read_lock();
	id = cgroup_id(task_dfl_cgroup(current));
	rcu_read_unlock();
	return id;
#else
	return 1;
#endif
}

#endif /* _SW_WRAPPER_CGROUP_H */
