// SPDX-License-Identifier: GPL-2.0
/*
 * filter.c - the measurement core's per-probe predicates and keys: the
 * filters checked at entry before the clock or any counter is read, the
 * duration window checked at exit, and the key of the row a call is
 * folded into.  Only probes with a struct sw_spec, or with rows, get here;
 * the time-only path of a plain probe stays in core.h.
 *
 * Every function runs in the attach mechanism's handlers: preemption
 * disabled, possibly interrupts off or NMI; the same under PREEMPT_RT (the
 * kprobe handlers keep preemption off there, and rcu_read_lock() used for
 * the parent chain and the cgroup is preemptible RCU's, which neither
 * sleeps nor blocks).  No locks, no allocation, no printk.
 */
#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>

#include "wrapper/cgroup.h"
#include "wrapper/kprobes.h"
#include "core.h"

/* How far up the parent chain follow= looks. */
#define SW_FOLLOW_DEPTH 64

/**
 * sw_filter_follows() - is current in process @tgid or a descendant of it?
 * @tgid: the process (follow=)
 *
 * Looks SW_FOLLOW_DEPTH parents up at most.  Also used by attach/uprobe.c.
 *
 * Context: a probe handler, or process context; RCU inside.
 * Return: true when it is.
 */
bool sw_filter_follows(u32 tgid)
{
	struct task_struct *t = current, *parent;
	bool found = false;
	int depth;

	rcu_read_lock();
	for (depth = 0; depth < SW_FOLLOW_DEPTH; depth++) {
		if (t->tgid == tgid) {
			found = true;
			break;
		}
		parent = rcu_dereference(t->real_parent);
		if (!parent || parent == t)
			break;
		t = parent;
	}
	rcu_read_unlock();
	return found;
}
NOKPROBE_SYMBOL(sw_filter_follows);

/* Does current's comm equal @comm (NUL-padded)? Racy against renames. */
static bool sw_comm_is(const char *comm)
{
	int i;

	for (i = 0; i < SW_COMM_LEN; i++) {
		char ch = READ_ONCE(current->comm[i]);

		if (ch != comm[i])
			return false;
		if (!ch)
			return true;
	}
	return true;
}
NOKPROBE_SYMBOL(sw_comm_is);

/**
 * sw_filter_entry() - do the entry filters of @f let current's call in?
 * @f: the filters
 *
 * The cheap tests first; the parent walk last.  Also used by span/.
 *
 * Context: a probe handler, see the file comment.
 * Return: true when the call passes every filter.
 */
bool sw_filter_entry(const struct sw_filter *f)
{
	u32 fl = f->flags;

	if ((fl & SW_F_PID) && current->pid != f->pid)
		return false;
	if ((fl & SW_F_TGID) && current->tgid != f->tgid)
		return false;
	if (fl & SW_F_CPUS) {
		unsigned int cpu = sw_cpu();

		if (cpu >= SW_FILTER_CPUS ||
		    !(f->cpus[cpu / 64] & (1ULL << (cpu % 64))))
			return false;
	}
	if ((fl & SW_F_COMM) && !sw_comm_is(f->comm))
		return false;
	if ((fl & SW_F_CGROUP) && sw_current_cgroup_id() != f->cgroup)
		return false;
	if ((fl & SW_F_FOLLOW) && !sw_filter_follows(f->follow))
		return false;
	return true;
}
NOKPROBE_SYMBOL(sw_filter_entry);

/* A key part only the entry can see: an argument. */
static u64 sw_key_entry(u8 kind, struct pt_regs *regs)
{
	if (kind >= SW_KEY_ARG0 && kind <= SW_KEY_ARG5)
		return regs_get_kernel_argument(regs, kind - SW_KEY_ARG0);
	return 0;
}
NOKPROBE_SYMBOL(sw_key_entry);

/**
 * sw_core_enter_spec() - the entry half's part for a probe with a spec:
 * check the entry filters, capture the arguments its keys name.
 * @c:    the call's record
 * @a:    the probe's aggregations (a filtered-out call is counted there)
 * @s:    the probe's spec
 * @regs: the registers at the function's entry
 *
 * Context: the core's entry half.
 * Return: false when the call is filtered out.
 */
bool sw_core_enter_spec(struct sw_call *c, struct sw_aggs *a,
			const struct sw_spec *s, struct pt_regs *regs)
{
	if ((s->f.flags & SW_F_ENTRY) && !sw_filter_entry(&s->f)) {
		sw_timing_filtered(rcu_dereference_sched(a->gen),
				   SW_FILTERED_ENTRY);
		return false;
	}
	c->key[0] = sw_key_entry(s->by.k[0], regs);
	c->key[1] = sw_key_entry(s->by.k[1], regs);
	return true;
}
NOKPROBE_SYMBOL(sw_core_enter_spec);

/**
 * sw_core_window() - is a call's duration inside the probe's window?
 * @a:  the probe's aggregations (a call outside is counted there)
 * @f:  the probe's filters (min_ns, max_ns)
 * @ns: the call's wall time
 *
 * Context: the core's exit half.
 * Return: true when the call is to be folded in.
 */
bool sw_core_window(struct sw_aggs *a, const struct sw_filter *f, u64 ns)
{
	if ((f->flags & SW_F_MIN) && ns < f->min_ns) {
		sw_timing_filtered(rcu_dereference_sched(a->gen),
				   SW_FILTERED_SHORT);
		return false;
	}
	if ((f->flags & SW_F_MAX) && ns > f->max_ns) {
		sw_timing_filtered(rcu_dereference_sched(a->gen),
				   SW_FILTERED_LONG);
		return false;
	}
	return true;
}
NOKPROBE_SYMBOL(sw_core_window);

/**
 * sw_core_key_value() - one numeric key part at exit.
 * @kind:        SW_KEY_* (not comm)
 * @c:           the call's record
 * @entry_value: the part captured at entry (argN)
 * @regs:        the registers at the function's return
 *
 * Context: the core's exit half.
 * Return: the value.
 */
u64 sw_core_key_value(u8 kind, const struct sw_call *c, u64 entry_value,
		      struct pt_regs *regs)
{
	switch (kind) {
	case SW_KEY_PID:
		return current->pid;
	case SW_KEY_TGID:
		return current->tgid;
	case SW_KEY_CPU:
		return c->cpu;
	case SW_KEY_RETVAL:
		return regs_return_value(regs);
	case SW_KEY_CALLER:
		return sw_exit_return_address(regs);
	default: /* argN: captured at entry */
		return entry_value;
	}
}
NOKPROBE_SYMBOL(sw_core_key_value);

/**
 * sw_core_key_record() - fold a returning call into its row.
 * @bd:   the probe's rows; their key (bd->by) says what to read
 * @c:    the call's record (entry CPU, arguments captured at entry)
 * @regs: the registers at the function's return
 * @ns:   the call's wall time
 * @acc:  the call's event counts when they were measured with bd's event
 *        set (bd->set_id), else NULL
 * @bad:  events of @acc the call was not counted for
 *
 * Numeric parts go to key.id then key.id2 in the order of by=; a comm part
 * to key.comm.
 *
 * Context: the core's exit half.
 */
void sw_core_key_record(struct sw_bdgen *bd, const struct sw_call *c,
			struct pt_regs *regs, u64 ns, const u64 *acc,
			u32 bad)
{
	struct sw_bd_key key = {};
	bool second = false;
	int i, j;

	for (i = 0; i < 2; i++) {
		u8 kind = bd->by.k[i];
		u64 v;

		if (kind == SW_KEY_NONE)
			continue;
		if (kind == SW_KEY_COMM) {
			/* Racy against set_task_comm(); stop at a NUL. */
			for (j = 0; j < SW_COMM_LEN - 1; j++) {
				key.comm[j] = READ_ONCE(current->comm[j]);
				if (!key.comm[j])
					break;
			}
			continue;
		}
		v = sw_core_key_value(kind, c, c->key[i], regs);
		if (second)
			key.id2 = v;
		else
			key.id = v;
		second = true;
	}
	sw_bd_add(bd, &key, ns, acc, bad);
}
NOKPROBE_SYMBOL(sw_core_key_record);
