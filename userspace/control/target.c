// SPDX-License-Identifier: GPL-2.0
/*
 * control/target.c - the shared filter options of the commands that add
 * probes or spans (see target.h).
 */
#include <errno.h>

#include "control/probe-ctl.h"
#include "control/target.h"

int sw_target_check(const struct sw_target *t, struct sw_err *err)
{
	int ret = 0;

	if (t->cpus)
		ret = sw_cpus_check(t->cpus, err);
	if (!ret && t->comm)
		ret = sw_comm_check(t->comm, err);
	if (!ret && t->pid && t->tid)
		ret = sw_err_set(err, -EINVAL,
				 "-p (a process) and -t (a thread) exclude each other");
	if (!ret && t->min_ns && t->max_ns && t->min_ns > t->max_ns)
		ret = sw_err_set(err, -EINVAL, "--min is above --max");
	return ret;
}

int sw_target_apply(const struct sw_target *t, struct sw_probe_opts *po,
		    struct sw_err *err)
{
	po->pid = t->tid;
	po->tgid = t->pid;
	po->comm = t->comm;
	po->cpus = t->cpus;
	po->min_ns = t->min_ns;
	po->max_ns = t->max_ns;
	if (t->cgroup)
		return sw_cgroup_id(t->cgroup, &po->cgroup, err);
	return 0;
}
