/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attach.h - the ways stopwatch attaches to a function.  Each mechanism
 * calls the measurement core (core/core.h) from its handlers and folds
 * into the aggregations it is given; it knows nothing of the registry.
 *
 *   kretprobe.c  kprobe at entry, return address hijacked for the exit
 *
 * A new mechanism (uprobe, tracepoint, trampoline) is one more file here
 * with the same shape: init (fill in, disabled), register (all checks,
 * messages naming the function), enable, unregister in batches, missed
 * counts by cause.
 */
#ifndef _STOPWATCH_ATTACH_H
#define _STOPWATCH_ATTACH_H

#include <linux/kprobes.h>

struct sw_aggs;
struct sw_spec;

/**
 * struct sw_kretprobe - a function timed through a kretprobe.
 * @krp:          the kretprobe; each instance's data is a struct sw_call
 * @aggs:         where its calls are folded
 * @spec:         its filters and keys, NULL when it has none
 * @missed_base:  kretprobe nmissed at the last reset
 * @reentry_base: kprobe nmissed at the last reset
 */
struct sw_kretprobe {
	struct kretprobe krp;
	struct sw_aggs *aggs;
	const struct sw_spec *spec;
	unsigned long missed_base;
	unsigned long reentry_base;
};

int sw_kretprobe_check_params(void);
int sw_maxactive(void);
void sw_kretprobe_init(struct sw_kretprobe *k, const char *symbol,
		       struct sw_aggs *aggs, const struct sw_spec *spec);
int sw_kretprobe_register(struct sw_kretprobe *k);
int sw_kretprobe_enable(struct sw_kretprobe *k);
void sw_kretprobe_unregister(struct sw_kretprobe **ks, int n);
void sw_kretprobe_missed(struct sw_kretprobe *k, unsigned long *maxactive,
			 unsigned long *reentry);
void sw_kretprobe_reset_missed(struct sw_kretprobe *k);

#endif /* _STOPWATCH_ATTACH_H */
