/* SPDX-License-Identifier: GPL-2.0 */
/*
 * control/target.h - whose calls a command measures: the filter options
 * that "stopwatch time", "probe add" and "span" share (-p, -t, -C, --comm,
 * --cgroup, --min, --max), declared once, checked once and turned into the
 * probe options the module's control grammar takes.
 */
#ifndef SW_CONTROL_TARGET_H
#define SW_CONTROL_TARGET_H

#include <stdint.h>

#include "lib/bounds.h"
#include "base/err.h"
#include "base/parse-options.h"
#include "control/probe-spec.h"

/**
 * struct sw_target - the filters a user gave.  Zero/NULL members are unset.
 * @pid:    -p, a process (all its threads): the module's tgid=
 * @tid:    -t, one thread: the module's pid=
 * @cpus:   -C, a CPU list
 * @comm:   --comm, a command name
 * @cgroup: --cgroup, a cgroup v2 path (turned into its id)
 * @min_ns: --min, in nanoseconds
 * @max_ns: --max, in nanoseconds
 */
struct sw_target {
	uint64_t pid, tid;
	const char *cpus, *comm, *cgroup;
	uint64_t min_ns, max_ns;
};

/*
 * SW_OPT_TARGET() - the option table entries of struct sw_target @t, for a
 * command that measures @what (a string literal: "calls", "intervals").
 */
#define SW_OPT_TARGET(t, what)						\
	SW_OPT_U64('p', "pid", &(t)->pid, "PID",			\
		   "only the process PID (all its threads)", 1,		\
		   SW_ID_MAX, "a process id"),				\
	SW_OPT_U64('t', "tid", &(t)->tid, "TID", "only the thread TID",	\
		   1, SW_ID_MAX, "a thread id"),			\
	SW_OPT_NAME('C', "cpu", &(t)->cpus, "CPUS",			\
		    "only " what " on these CPUs (0-3,6)", "a CPU list"),	\
	SW_OPT_NAME(0, "comm", &(t)->comm, "NAME",			\
		    "only threads whose command is NAME",		\
		    "a command name"),					\
	SW_OPT_NAME(0, "cgroup", &(t)->cgroup, "PATH",			\
		    "only tasks in this cgroup v2 (under /sys/fs/cgroup)", \
		    "a cgroup path"),					\
	SW_OPT_CALLBACK(0, "min", &(t)->min_ns, "DUR",			\
			"only " what " lasting at least DUR (1ms, 500us);\n" \
			"shorter ones are counted apart",		\
			sw_opt_duration_cb,				\
			"a duration with a unit: ns, us, ms or s (e.g. 1ms)"), \
	SW_OPT_CALLBACK(0, "max", &(t)->max_ns, "DUR",			\
			"only " what " lasting at most DUR;\n"		\
			"longer ones are counted apart",		\
			sw_opt_duration_cb,				\
			"a duration with a unit: ns, us, ms or s (e.g. 1ms)")

/**
 * sw_target_check() - the filters' own consistency: the CPU list and the
 * command name are well formed, -p and -t are not both given, --min is not
 * above --max.
 * Return: 0, or -EINVAL with the reason in @err.
 */
int sw_target_check(const struct sw_target *t, struct sw_err *err);

/**
 * sw_target_apply() - copy @t's filters into @po (the probe options of the
 * control line); a cgroup path becomes its id.
 * Return: 0, or a negative errno with the reason in @err.
 */
int sw_target_apply(const struct sw_target *t, struct sw_probe_opts *po,
		    struct sw_err *err);

#endif
