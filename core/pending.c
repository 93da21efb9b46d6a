// SPDX-License-Identifier: GPL-2.0
/*
 * pending.c - stopwatch's own record of the calls in flight, per thread.
 *
 * A call whose events are counted has an entry on its thread's pending
 * stack from entry to exit: the sched_switch hook (virt.c) finds there
 * every open call of the threads it switches, whatever mechanism attached
 * to the function (kretprobe, uprobe, trampoline).
 *
 * The table: max_threads slots, preallocated at load, each a thread's
 * stack of SW_PENDING_DEPTH entries.  A thread's slot is found by hashing
 * its task pointer into a window of SW_WINDOW slots; a thread with no slot
 * claims a free one in its window with cmpxchg on its first call, and
 * gives it back when it is switched out with no call in flight (or freed).
 * While a thread runs, its CPU remembers its slot (sw_cur_thread, else
 * sw_no_thread), so entry and exit find it without a search.  Lock-free;
 * no allocation after load.
 *
 * Who writes a slot: only its own thread (entry and exit handlers run on
 * the calling thread, with preemption off), an NMI on that thread (which
 * pushes and pops before it ends: entries are reserved before they are
 * filled), the sched_switch hook while the thread is prev (current: it
 * gives the slot back there when no call is in flight), and the
 * sched_process_free hook once the thread is dead.  The hook reads the
 * slot of next too, which is not running anywhere.  The remembered slot is
 * only a hint: it is used only while its task is current.
 *
 * Nothing is lost silently: a call that finds no free slot in its window,
 * or a full stack, is measured for time only and counted (lost_no_slot,
 * lost_too_deep); entries whose exit never came (their probe was removed
 * while they were in flight) are counted when an outer call of the same
 * thread returns (orphaned) or when the thread is freed (abandoned).
 *
 * Stacked calls (sw_core_enter_stacked(), for mechanisms with no per-call
 * storage of their own, such as uprobes) keep their whole record in their
 * entry; their exit half looks for the topmost entry of its probe, and an
 * exit that finds none is counted (unmatched).  Such entries are pushed
 * whether or not events are counted, so the sched_switch hook gives idle
 * slots back at switch-out in either case.
 */
#include <linux/hash.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/vmalloc.h>

#include "control/control.h"
#include "wrapper/tracepoint.h"
#include "core.h"

#define SW_WINDOW 8
#define SW_MAX_THREADS_LIMIT (1U << 20)

/* Per-CPU loss counters of the pending table, by cause. */
struct sw_pending_cnt {
	u64 no_slot;
	u64 too_deep;
	u64 orphaned;
	u64 abandoned;
	u64 unmatched;
};

static unsigned int max_threads = 1024;
module_param(max_threads, uint, 0400);
MODULE_PARM_DESC(max_threads,
		 "Threads that can have calls in flight with events counted at once, rounded up to a power of two; calls of further threads count as unmeasured for their events (default 1024)");

static struct sw_thread *sw_threads;
static unsigned int sw_threads_bits;
/*
 * What a CPU remembers when it has no slot to remember: a slot after the
 * table's last, which no window reaches, so its task is always NULL (no
 * thread's).  Never NULL, the hint needs no test for NULL before its task
 * is compared.
 */
static struct sw_thread *sw_no_thread;
static DEFINE_PER_CPU(struct sw_pending_cnt, sw_pending_cnt);
DEFINE_PER_CPU(struct sw_thread *, sw_cur_thread);
/*
 * The task each CPU's sched_switch hook last saw leave.  From the hook to
 * switch_to() it is still current while the remembered slot is already
 * next's: a handler in that window (a span point on sched_switch after the
 * hook, a probe on a function the scheduler calls before switching) looks
 * its thread's slot up without remembering it, else the next switch-out
 * of next would find prev's slot remembered and miss next's calls.
 */
static DEFINE_PER_CPU(struct task_struct *, sw_leaving);

/**
 * sw_pending_leaving() - whether the current thread is being switched out
 * on this CPU: its sched_switch hook has run, switch_to() has not.
 *
 * Context: any handler (preemption disabled).
 */
bool sw_pending_leaving(void)
{
	return __this_cpu_read(sw_leaving) == current;
}
NOKPROBE_SYMBOL(sw_pending_leaving);
static struct sw_file *sw_pending_file;

/* The slot of @t, or NULL. Context: any (see the top for who may race). */
static __always_inline struct sw_thread *sw_thread_find(struct task_struct *t)
{
	u32 h = hash_ptr(t, sw_threads_bits), mask = (1U << sw_threads_bits) - 1;
	int i;

	for (i = 0; i < SW_WINDOW; i++) {
		struct sw_thread *th = &sw_threads[(h + i) & mask];

		if (READ_ONCE(th->task) == t)
			return th;
	}
	return NULL;
}

/* Claims a free slot in @t's window, or returns NULL. */
static struct sw_thread *sw_thread_claim(struct task_struct *t)
{
	u32 h = hash_ptr(t, sw_threads_bits), mask = (1U << sw_threads_bits) - 1;
	int i;

	for (i = 0; i < SW_WINDOW; i++) {
		struct sw_thread *th = &sw_threads[(h + i) & mask];

		if (!READ_ONCE(th->task) && !cmpxchg(&th->task, NULL, t))
			return th;
	}
	return NULL;
}

/**
 * sw_pending_slot() - find or claim the current thread's slot, and
 * remember it on this CPU: sw_pending_push()'s slow path.
 *
 * Context: the core's entry half (preemption disabled, possibly NMI).
 * Return: the slot, or NULL when its window is full (counted).
 */
struct sw_thread *sw_pending_slot(void)
{
	struct task_struct *t = current;
	struct sw_thread *th = sw_thread_find(t);

	if (!th)
		th = sw_thread_claim(t);
	if (unlikely(!th)) {
		this_cpu_inc(sw_pending_cnt.no_slot);
		return NULL;
	}
	if (!sw_pending_leaving())
		__this_cpu_write(sw_cur_thread, th);
	return th;
}
NOKPROBE_SYMBOL(sw_pending_slot);

/**
 * sw_pending_find_current() - the current thread's slot, looked up, and
 * remembered on this CPU: sw_pending_current()'s slow path.
 *
 * Context: the core's exit half (preemption disabled, possibly NMI).
 * Return: the slot, or NULL when the thread has none.
 */
struct sw_thread *sw_pending_find_current(void)
{
	struct sw_thread *th = sw_thread_find(current);

	if (th && !sw_pending_leaving())
		__this_cpu_write(sw_cur_thread, th);
	return th;
}
NOKPROBE_SYMBOL(sw_pending_find_current);

/**
 * sw_pending_unmatched() - count a stacked exit that found no entry of its
 * probe on its thread's stack (its entry had no room, or the probe came
 * while the call was in flight).
 *
 * Context: the core's exit half.
 */
void sw_pending_unmatched(void)
{
	this_cpu_inc(sw_pending_cnt.unmatched);
}
NOKPROBE_SYMBOL(sw_pending_unmatched);

/**
 * sw_pending_close_slow() - sw_pending_close()'s general way: a CPU
 * without counters of @set, or a segment not open.  Out of line: its
 * array of samples would otherwise give every exit half with events a
 * bigger frame and a stack canary.
 * @pd:  the returning call's entry
 * @set: the event set it was entered with
 *
 * Context: the core's exit half (preemption disabled, possibly NMI).
 */
void sw_pending_close_slow(struct sw_pending *pd, const struct sw_evset *set)
{
	struct sw_ctr_sample s[SW_MAX_EVENTS] __sw_noinit;
	u32 unread = sw_pmu_read(set, s);

	sw_evcall_end(&pd->ev, set->n, s, unread);
}
NOKPROBE_SYMBOL(sw_pending_close_slow);

/* A call found its thread's stack full. Context: the core's entry half. */
void sw_pending_too_deep(void)
{
	this_cpu_inc(sw_pending_cnt.too_deep);
}
NOKPROBE_SYMBOL(sw_pending_too_deep);

/* @n entries above a returning call never saw their exit. */
void sw_pending_orphaned(u32 n)
{
	this_cpu_add(sw_pending_cnt.orphaned, n);
}
NOKPROBE_SYMBOL(sw_pending_orphaned);

/**
 * sw_pending_switch_out() - the slot of the thread being switched out,
 * which this CPU remembers as leaving until the next switch.
 * @prev: current, leaving the CPU
 *
 * Context: sched_switch tracepoint, interrupts off.
 * Return: its slot (remembered since it was switched in or claimed it), or
 * NULL when it has none.
 */
struct sw_thread *sw_pending_switch_out(struct task_struct *prev)
{
	struct sw_thread *th = __this_cpu_read(sw_cur_thread);

	__this_cpu_write(sw_leaving, prev);

	return th && READ_ONCE(th->task) == prev ? th : NULL;
}
NOKPROBE_SYMBOL(sw_pending_switch_out);

/**
 * sw_pending_switch_in() - the slot of the thread being switched in, which
 * this CPU remembers from now on.
 * @next: the thread (not running anywhere)
 *
 * Context: sched_switch tracepoint, interrupts off.
 * Return: its slot, or NULL when it has none.
 */
struct sw_thread *sw_pending_switch_in(struct task_struct *next)
{
	struct sw_thread *th = sw_thread_find(next);
	struct sw_thread *hint = th ? th : sw_no_thread;

	__this_cpu_write(sw_cur_thread, hint);
	return th;
}
NOKPROBE_SYMBOL(sw_pending_switch_in);

/**
 * sw_pending_idle() - give a switched-out thread's slot back if it has no
 * call in flight.
 * @th: the slot of prev (current), from sw_pending_switch_out()
 *
 * Context: sched_switch tracepoint, interrupts off, in prev's context (an
 * NMI on prev pushes and pops whole before or after this).
 */
void sw_pending_idle(struct sw_thread *th)
{
	if (!READ_ONCE(th->depth) && !READ_ONCE(th->lean))
		smp_store_release(&th->task, NULL);
}
NOKPROBE_SYMBOL(sw_pending_idle);

/**
 * sw_pending_forget_cpu() - no slot remembered on this CPU (no events are
 * counted, so the hook does not follow the switches).
 *
 * Context: sched_switch tracepoint, interrupts off.
 */
void sw_pending_forget_cpu(void)
{
	__this_cpu_write(sw_cur_thread, sw_no_thread);
}
NOKPROBE_SYMBOL(sw_pending_forget_cpu);

/*
 * sw_pending_task_free() - a dead thread's slot is free again; calls it
 * left in flight are counted as abandoned.
 * Context: sched_process_free tracepoint (RCU callback: softirq, or the
 * rcuc thread under PREEMPT_RT); the thread never runs again.
 */
static void sw_pending_task_free(SW_SCHED_PROCESS_FREE_ARGS(p))
{
	struct sw_thread *th = sw_thread_find(p);

	if (!th)
		return;
	if (th->depth || th->lean)
		this_cpu_add(sw_pending_cnt.abandoned, th->depth + th->lean);
	WRITE_ONCE(th->depth, 0);
	WRITE_ONCE(th->lean, 0);
	smp_store_release(&th->task, NULL);
}
NOKPROBE_SYMBOL(sw_pending_task_free);

static struct tracepoint *sw_tp_process_free;

/* The pending file: size, use and losses of the table. */
static int sw_pending_show(struct seq_file *m)
{
	struct sw_pending_cnt sum = {};
	unsigned int i, used = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct sw_pending_cnt *c = per_cpu_ptr(&sw_pending_cnt, cpu);

		sum.no_slot += READ_ONCE(c->no_slot);
		sum.too_deep += READ_ONCE(c->too_deep);
		sum.orphaned += READ_ONCE(c->orphaned);
		sum.abandoned += READ_ONCE(c->abandoned);
		sum.unmatched += READ_ONCE(c->unmatched);
	}
	for (i = 0; i < (1U << sw_threads_bits); i++)
		used += !!READ_ONCE(sw_threads[i].task);
	seq_printf(m, "threads_max %u\nthreads_in_use %u\ndepth_max %u\n",
		   1U << sw_threads_bits, used, SW_PENDING_DEPTH);
	seq_printf(m, "lost_no_slot %llu\nlost_too_deep %llu\norphaned %llu\nabandoned %llu\nunmatched %llu\n",
		   sum.no_slot, sum.too_deep, sum.orphaned, sum.abandoned,
		   sum.unmatched);
	return 0;
}

static const struct sw_ctl_file sw_pending_ctl = {
	.show = sw_pending_show,
};

/**
 * sw_pending_init() - allocate the table, watch threads being freed and
 * add the pending file.
 *
 * Context: process context (module init).
 * Return: 0 or a negative errno; nothing is left behind on failure.
 */
int sw_pending_init(void)
{
	unsigned int i, d;
	int ret, cpu;

	if (max_threads < 1 || max_threads > SW_MAX_THREADS_LIMIT) {
		sw_error("max_threads=%u is outside 1..%u", max_threads,
			 SW_MAX_THREADS_LIMIT);
		return -EINVAL;
	}
	sw_threads_bits = max(order_base_2(max_threads), 3);
	/* One more: sw_no_thread. */
	sw_threads = vzalloc(array_size((1U << sw_threads_bits) + 1,
					sizeof(*sw_threads)));
	if (!sw_threads)
		return -ENOMEM;
	sw_no_thread = &sw_threads[1U << sw_threads_bits];
	for_each_possible_cpu(cpu)
		per_cpu(sw_cur_thread, cpu) = sw_no_thread;
	/* Each entry knows its place: sw_pending_pop() finds the slot by it. */
	for (i = 0; i < (1U << sw_threads_bits); i++)
		for (d = 0; d < SW_PENDING_DEPTH; d++)
			sw_threads[i].calls[d].idx = d;
	sw_tp_process_free = sw_tracepoint_find("sched_process_free");
	if (!sw_tp_process_free) {
		pr_err(SW_NAME ": no sched_process_free tracepoint in this kernel\n");
		ret = -ENOENT;
		goto out_free;
	}
	ret = tracepoint_probe_register(sw_tp_process_free,
					(void *)sw_pending_task_free, NULL);
	if (ret) {
		pr_err(SW_NAME ": cannot attach to sched_process_free (%d)\n",
		       ret);
		goto out_free;
	}
	sw_pending_file = sw_debugfs_add_ctl("pending", 0400, NULL,
					     &sw_pending_ctl);
	return 0;

out_free:
	vfree(sw_threads);
	sw_threads = NULL;
	return ret;
}

/**
 * sw_pending_exit() - stop watching threads and free the table.
 *
 * Called once no handler can run any more (every probe is gone and the
 * sched_switch hook detached).
 *
 * Context: process context (module exit or failed init).
 */
void sw_pending_exit(void)
{
	sw_debugfs_remove(&sw_pending_file);
	tracepoint_probe_unregister(sw_tp_process_free,
				    (void *)sw_pending_task_free, NULL);
	tracepoint_synchronize_unregister();
	vfree(sw_threads);
	sw_threads = NULL;
}

#ifdef SW_ARCH_LEAN_INLINE
/*
 * The general ways of the lean readings (pending.h), out of line where the
 * core's lean halves are inline in the mechanisms' handlers: called in tail
 * position.  Context: the core's entry and exit halves.
 */
void sw_vcall_read_all(struct sw_vcall *vc, const struct sw_evcpu *ec,
		       u32 n, unsigned long flags)
{
	__sw_vcall_read_all(vc, ec, n, flags);
}
NOKPROBE_SYMBOL(sw_vcall_read_all);

void sw_vcall_close_all(struct sw_vcall *vc, const struct sw_evset *set,
			const struct sw_evcpu *ec, unsigned long flags)
{
	__sw_vcall_close_all(vc, set, ec, flags);
}
NOKPROBE_SYMBOL(sw_vcall_close_all);
#endif
