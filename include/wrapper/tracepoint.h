/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wrapper/tracepoint.h - attaching to kernel tracepoints by name.
 *
 * The scheduler's tracepoints are not exported to modules as symbols; they
 * are found among the kernel's tracepoints (for_each_kernel_tracepoint(),
 * exported on 6.1 and 6.12) and attached with tracepoint_probe_register().
 */
#ifndef _SW_WRAPPER_TRACEPOINT_H
#define _SW_WRAPPER_TRACEPOINT_H

#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/version.h>

/*
 * The sched_switch tracepoint probe's parameters (the tracepoint gained
 * prev_state in 5.18).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 18, 0)
#define SW_SCHED_SWITCH_ARGS(prev, next)                                     \
	void *sw_tp_data, bool sw_preempt, struct task_struct *prev,         \
		struct task_struct *next, unsigned int sw_prev_state
#else
#define SW_SCHED_SWITCH_ARGS(prev, next)                                     \
	void *sw_tp_data, bool sw_preempt, struct task_struct *prev,         \
		struct task_struct *next
#endif

/* The sched_process_free tracepoint probe's parameters (same on both). */
#define SW_SCHED_PROCESS_FREE_ARGS(p) void *sw_tp_data, struct task_struct *p

struct sw_tp_lookup {
	const char *name;
	struct tracepoint *tp;
};

static inline void sw_tp_lookup_one(struct tracepoint *tp, void *priv)
{
	struct sw_tp_lookup *l = priv;

	if (!l->tp && !strcmp(tp->name, l->name))
		l->tp = tp;
}

/**
 * sw_tracepoint_find() - a built-in kernel tracepoint by name.
 * @name: e.g. "sched_switch"
 *
 * Context: process context.
 * Return: the tracepoint, or NULL if the kernel has none of that name.
 */
static inline struct tracepoint *sw_tracepoint_find(const char *name)
{
	struct sw_tp_lookup l = { .name = name };

	for_each_kernel_tracepoint(sw_tp_lookup_one, &l);
	return l.tp;
}

#endif /* _SW_WRAPPER_TRACEPOINT_H */
