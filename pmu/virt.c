// SPDX-License-Identifier: GPL-2.0
/*
 * virt.c - per-thread virtualization of the event counts.
 *
 * The counters are CPU-wide: they count whatever runs on the CPU.  A call's
 * count must cover only its own thread, across sleeps, preemption and
 * migration, so each call sums its thread's on-CPU segments (see
 * lib/evcall.h).  Segments are cut at the sched_switch tracepoint: the
 * counters of the CPU are read once, every open call of the thread being
 * switched out closes its segment at that value and every open call of the
 * thread being switched in opens one.  The scheduler's own instructions
 * before the tracepoint go to the thread leaving, those after it to the
 * thread arriving.
 *
 * Which calls are open?  Design: no table and no allocation.  kprobes
 * already keeps, per task, the list of its pending kretprobe instances
 * (task->rethooks or task->kretprobe_instances, see compat.h); stopwatch's
 * per-call data lives in those instances.  The tracepoint walks the lists
 * of prev and next and updates the instances that belong to stopwatch.
 * The cost is paid only by threads with stopwatch calls in flight; a
 * thread without any pending kretprobe costs two loads.
 *
 * Why walking the lists is safe here (interrupts off, preemption off):
 *  - next is not running anywhere (it is being switched in on this CPU),
 *    so its list cannot change; only a task itself pushes and pops its
 *    list (kretprobe entry and return), or frees it after death.
 *  - prev is current.  Only an NMI can run meanwhile; an NMI that enters
 *    a probed function pushes an instance at the head and pops it before
 *    the NMI ends, so from here the list is seen before or after, whole.
 *    Popping writes only the popped node's next pointer.
 *  - An instance stays in the list, its memory valid, until its return
 *    handler has run (with preemption off, so never across a switch).
 *  - Whether an instance is stopwatch's is decided by compat.h's
 *    sw_kri_kretprobe() (NULL once the kretprobe is unregistered) and
 *    sw_call_evcall(); a live kretprobe cannot be freed before this RCU
 *    (preemption-disabled) section ends.
 */
#include <linux/sched.h>
#include <linux/tracepoint.h>

#include "compat.h"
#include "stopwatch.h"
#include "pmu.h"

#ifdef CONFIG_KRETPROBE_ON_RETHOOK
void *sw_krp_rethook_handler;
#endif

static struct tracepoint *sw_tp_sched_switch;
static bool sw_tp_registered;

/*
 * Closes (@out) or opens the segments of @t's stopwatch calls in flight
 * that were entered with @set.
 * Context: sched_switch tracepoint, interrupts off.
 */
static void sw_virt_task(struct task_struct *t, const struct sw_evset *set,
			 const struct sw_ctr_sample *s, bool out)
{
	struct llist_node *node;

	for (node = sw_task_kri_first(t); node; node = READ_ONCE(node->next)) {
		struct sw_evcall *ev = sw_call_evcall(sw_kri_entry(node),
						      set->id);

		if (!ev)
			continue;
		if (out)
			sw_evcall_end(ev, set->n, s);
		else
			sw_evcall_begin(ev, set->n, s);
	}
}
NOKPROBE_SYMBOL(sw_virt_task);

/*
 * sw_sched_switch() - sched_switch tracepoint probe.
 * Context: __schedule() with the runqueue locked and interrupts off; prev
 * is current.  No locks, no allocation.
 */
static void notrace sw_sched_switch(SW_SCHED_SWITCH_ARGS(prev, next))
{
	struct sw_ctr_sample s[SW_MAX_EVENTS] __sw_noinit;
	struct sw_evset *set;

	if (!sw_task_kri_first(prev) && !sw_task_kri_first(next))
		return;
	set = rcu_dereference_sched(sw_evset);
	if (!set)
		return;
	sw_pmu_read(set, s);
	sw_virt_task(prev, set, s, true);
	sw_virt_task(next, set, s, false);
}
NOKPROBE_SYMBOL(sw_sched_switch);

static void sw_tp_find(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_switch"))
		*(struct tracepoint **)priv = tp;
}

/**
 * sw_virt_init() - attach to the sched_switch tracepoint.
 *
 * The tracepoint is not exported to modules by name; it is looked up
 * among the kernel's tracepoints.
 *
 * Context: process context (module init).
 * Return: 0 or a negative errno.
 */
int sw_virt_init(void)
{
	int ret;

	for_each_kernel_tracepoint(sw_tp_find, &sw_tp_sched_switch);
	if (!sw_tp_sched_switch) {
		pr_err(SW_NAME ": no sched_switch tracepoint in this kernel\n");
		return -ENOENT;
	}
	ret = tracepoint_probe_register(sw_tp_sched_switch,
					(void *)sw_sched_switch, NULL);
	if (ret) {
		pr_err(SW_NAME ": cannot attach to sched_switch (%d)\n", ret);
		return ret;
	}
	sw_tp_registered = true;
	return 0;
}

/**
 * sw_virt_exit() - detach from sched_switch and wait until no CPU runs
 * the probe any more.
 *
 * Context: process context (module exit or failed init).
 */
void sw_virt_exit(void)
{
	if (!sw_tp_registered)
		return;
	tracepoint_probe_unregister(sw_tp_sched_switch,
				    (void *)sw_sched_switch, NULL);
	tracepoint_synchronize_unregister();
	sw_tp_registered = false;
}
