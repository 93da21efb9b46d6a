/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attach.h - the ways stopwatch attaches to a function.  Each mechanism
 * makes the measurement core's halves for its calls (SW_CORE_HALVES(),
 * core/core.h) and calls them from its handlers with the probe's struct
 * sw_target; it knows nothing of the registry.
 *
 *   kretprobe.c  kprobe at entry, return address hijacked for the exit
 *   uprobe.c     a user function: uprobe at entry, uretprobe at return
 *                (no per-call storage: the core's stacked halves)
 *   tramp.c      ftrace direct call into one of the companion module's
 *                trampolines (tramp/): entry, the function's body, exit,
 *                all in one stack frame; no instances to run out of
 *                (tramp_run.c: the halves)
 *
 * A new mechanism is one more file here with the same shape: init (fill
 * in, disabled), register (all checks, messages naming the function),
 * enable, unregister in batches, missed counts by cause.
 */
#ifndef _STOPWATCH_ATTACH_H
#define _STOPWATCH_ATTACH_H

#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/list.h>

#include "core/core.h"
#include "lib/parse.h"
#include "wrapper/uprobes.h"

/**
 * struct sw_kretprobe - a function timed through a kretprobe.
 * @krp:          the kretprobe; each instance's data is the core's record
 *                of its call (kretprobe.c)
 * @target:       the probe as the core sees it: its aggregations and spec
 * @missed_base:  kretprobe nmissed at the last reset
 * @reentry_base: kprobe nmissed at the last reset
 */
struct sw_kretprobe {
	struct kretprobe krp;
	struct sw_target target;
	unsigned long missed_base;
	unsigned long reentry_base;
};

int sw_kretprobe_check_params(void);
void sw_cost_calibrate(void);
int sw_maxactive(void);
void sw_kretprobe_init(struct sw_kretprobe *k, const char *symbol,
		       struct sw_aggs *aggs, const struct sw_spec *spec);
int sw_kprobe_result(const char *what, const char *name, int ret,
		     const void *addr);
int sw_kretprobe_register(struct sw_kretprobe *k);
int sw_kretprobe_enable(struct sw_kretprobe *k);
void sw_kretprobe_unregister(struct sw_kretprobe **ks, int n);
void sw_kretprobe_missed(struct sw_kretprobe *k, unsigned long *maxactive,
			 unsigned long *reentry);
void sw_kretprobe_reset_missed(struct sw_kretprobe *k);
bool sw_kretprobe_gone(struct sw_kretprobe *k);

struct sw_usite;

/**
 * struct sw_uprobe - a user function timed through a uprobe and uretprobe
 * (shared with the other probes of its file and offset: a site).
 * @site:   its site while registered
 * @inst:   its installer: a consumer of its own whose filter puts the
 *          breakpoint into the address spaces it wants
 * @target: the probe as the core sees it: where its calls are folded, its
 *          filters and keys
 * @name:   BINARY:NAME, for messages
 * @file:   the file's path as given
 * @offset: the file offset of the function's first instruction
 * @armed:  its handlers count calls (set once all of a write registered)
 * @installed: @inst is registered
 * @on_entry:  set for a user point that is not a probe (a span's): called
 *             at the function's entry instead of the core's halves, with
 *             preemption disabled; NULL for a probe
 * @on_return: likewise at the function's return
 */
struct sw_uprobe {
	struct sw_usite *site;
	struct sw_uprobe_reg inst;
	struct sw_target target;
	const char *name;
	const char *file;
	u64 offset;
	bool armed;
	bool installed;
	void (*on_entry)(struct sw_uprobe *u, struct pt_regs *regs);
	void (*on_return)(struct sw_uprobe *u, struct pt_regs *regs);
};

void sw_uprobe_init(struct sw_uprobe *u, const char *name, const char *file,
		    u64 offset, struct sw_aggs *aggs, const struct sw_spec *spec);
int sw_uprobe_register(struct sw_uprobe *u);
void sw_uprobe_enable(struct sw_uprobe *u);
void sw_uprobe_unregister(struct sw_uprobe **us, int n);

/**
 * struct sw_tramp - a kernel function timed through a direct-call
 * trampoline (tramp.c).
 * @target:   the probe as the core sees it: its aggregations and spec
 *            (first: the handlers pass it with no arithmetic)
 * @ops:      the ftrace_ops whose filter names the function
 * @name:     the function
 * @release:  called with @arg by sw_tramp_unregister() once no half can
 *            use the probe any more (the owner frees @aggs there)
 * @arg:      for @release
 * @reentry:  calls not measured because a handler half ran on their CPU
 * @reentry_base: @reentry at the last reset
 * @addr:     the function's address (as its kprobe resolved it)
 * @seq:      its number, never 0 and never reused while the module is
 *            loaded: a call in flight knows its probe by it
 * @idx:      its stub, -1 when none
 * @armed:    its handlers measure calls
 * @registered: the direct call is installed (ftrace holds @ops)
 * @detached: the function's module went: its direct call was removed
 *            before the module's text, the probe stays (no calls)
 * @caller:   its rows are keyed by the caller: the exit half looks
 *            behind a kretprobe sharing the function for the real one
 * @why:      why registration refused args= (BTF says otherwise), for
 *            sw_tramp_why(); empty otherwise
 */
struct sw_tramp {
	struct sw_target target;
	struct ftrace_ops ops;
	const char *name;
	void (*release)(void *arg);
	void *arg;
	atomic_long_t reentry;
	unsigned long reentry_base;
	unsigned long addr;
	u32 seq;
	int idx;
	bool armed;
	bool registered;
	bool detached;
	bool caller;
	char why[160];
};

int sw_attach_param(void);
int sw_tramp_check_params(void);
const char *sw_tramp_why(const struct sw_tramp *t, int err);
void sw_tramp_init(struct sw_tramp *t, const char *symbol,
		   struct sw_aggs *aggs, const struct sw_spec *spec,
		   void (*release)(void *arg), void *arg);
int sw_tramp_register(struct sw_tramp *t, struct kprobe *kp, int nargs);
void sw_tramp_enable(struct sw_tramp *t);
void sw_tramp_unregister(struct sw_tramp **ts, int n);
int sw_tramp_init_module(void);
void sw_tramp_exit_module(void);
bool sw_tramp_detached(const struct sw_tramp *t);
bool sw_tramp_companion_owns(unsigned long addr);
unsigned long sw_tramp_missed(struct sw_tramp *t);
void sw_tramp_reset_missed(struct sw_tramp *t);

#endif /* _STOPWATCH_ATTACH_H */
