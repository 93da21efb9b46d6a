// SPDX-License-Identifier: GPL-2.0
/*
 * stacked.c - the measurement core for attach mechanisms that have no
 * per-call storage of their own (a uprobe has no kretprobe instance to
 * hang a struct sw_call on): the call's whole record lives in its entry on
 * the calling thread's pending stack (pending.c), tagged with the probe's
 * owner, and the exit half finds it there.
 *
 * The entry pushes whether or not events are counted; the exit folds the
 * topmost entry of its owner (entries above it are calls whose exit never
 * came: orphaned) exactly as the exit half folds a kept record.  Both
 * halves run with preemption disabled (the mechanism disables it: uprobe
 * handlers run in task context), no locks, no allocation, no printk.
 */
#include <linux/kprobes.h>

#include "core.h"

/**
 * sw_core_enter_stacked() - the entry half of a call kept on the pending
 * stack.
 * @owner: the mechanism's tag for the probe (its exit half passes the same)
 * @t:     the probe (a filtered-out call is counted in its aggregations)
 * @regs:  the registers at the function's entry
 *
 * Context: the mechanism's entry handler on the calling thread, with
 * preemption disabled (possibly interrupts off or NMI); no locks, no
 * allocation.
 * Return: the call's entry, or NULL when a filter left the call out
 * (counted in @a) or the thread's stack had no room (counted in the
 * pending file): the mechanism must not expect an entry at the exit
 * (sw_core_exit_stacked() would count it as unmatched).
 */
struct sw_pending *sw_core_enter_stacked(const void *owner,
					 const struct sw_target *t,
					 struct pt_regs *regs)
{
	const struct sw_spec *s = t->spec;
	struct sw_aggs *a = t->aggs;
	struct sw_evset *set;
	struct sw_pending *pd;
	u64 key[2] = {};

	if (s) {
		struct sw_call c;

		if (!sw_core_enter_spec(&c, a, s, regs))
			return NULL;
		key[0] = c.key[0];
		key[1] = c.key[1];
	}
	pd = sw_pending_push();
	if (!pd)
		return NULL;
	pd->owner = owner;
	pd->set_id = 0;
	pd->call.key[0] = key[0];
	pd->call.key[1] = key[1];
	pd->call.pend = pd;
	if (sw_paths_on())
		sw_paths_enter(pd, a);
	set = rcu_dereference_sched(sw_evset);
	pd->call.cpu = sw_cpu();
	pd->call.t0 = sw_clock_stamp();
	if (set)
		sw_pending_open(pd, set);
	return pd;
}
NOKPROBE_SYMBOL(sw_core_enter_stacked);

/**
 * sw_core_exit_stacked_on() - the exit half of a call kept on the pending
 * stack: fold the topmost entry of @owner on the current thread into @a
 * and pop it with every entry above it (counted as orphaned).
 * @th:    the current thread's slot, sw_pending_current() (NULL: none)
 * @owner: the tag given to sw_core_enter_stacked()
 * @t:     the probe
 * @regs:  the registers at the function's return
 *
 * sw_core_exit_stacked() finds @th itself.
 *
 * Context: the mechanism's return handler on the calling thread, with
 * preemption disabled; no locks, no allocation.
 * Return: false when the thread had no entry of @owner (counted as
 * unmatched in the pending file).
 */
bool sw_core_exit_stacked_on(struct sw_thread *th, const void *owner,
			     const struct sw_target *t, struct pt_regs *regs)
{
	struct sw_pending *pd = NULL;
	bool measured;
	u32 i;

	if (th) {
		for (i = min_t(u32, READ_ONCE(th->depth), SW_PENDING_DEPTH);
		     i-- > 0;) {
			if (th->calls[i].owner == owner) {
				pd = &th->calls[i];
				break;
			}
		}
	}
	if (!pd) {
		sw_pending_unmatched();
		return false;
	}
	/* First thing after the function: close the segment. */
	measured = pd->set_id && sw_core_exit_events(pd);
	sw_core_fold(t->aggs, t->spec, &pd->call, regs, (struct sw_ret){
		.ns = sw_clock_since(pd->call.t0), .pd = pd,
		.measured = measured, .acc = pd->ev.acc, .bad = pd->ev.bad,
		.set_id = pd->set_id });
	sw_pending_pop(pd);
	return true;
}
NOKPROBE_SYMBOL(sw_core_exit_stacked_on);

bool sw_core_exit_stacked(const void *owner, const struct sw_target *t,
			  struct pt_regs *regs)
{
	return sw_core_exit_stacked_on(sw_pending_current(), owner, t, regs);
}
NOKPROBE_SYMBOL(sw_core_exit_stacked);

/**
 * sw_core_stacked_top() - the topmost entry of a thread's pending stack.
 * @th: the current thread's slot, sw_pending_current() (NULL: none)
 *
 * Context: as sw_core_exit_stacked_on().
 * Return: the entry, or NULL when the thread has none.
 */
struct sw_pending *sw_core_stacked_top(struct sw_thread *th)
{
	u32 d;

	if (!th)
		return NULL;
	d = min_t(u32, READ_ONCE(th->depth), SW_PENDING_DEPTH);
	return d ? &th->calls[d - 1] : NULL;
}
NOKPROBE_SYMBOL(sw_core_stacked_top);

/*
 * ---- entries owned by an interval that is not a call (spans) ----------
 *
 * A span's start and stop are two different points, often on two threads,
 * so its entry does not nest like a call's: it may outlive the call that
 * started it (an outer measured call's return then orphans it), and a stop
 * on another thread never comes back for it.  It need not nest either: the
 * sched_switch hook updates every entry of the thread wherever it sits.
 * So: at most one entry per owner per thread (a new open reuses the
 * thread's older one in place: a live start whose entry was reused finds
 * none at its stop, and its owner counts that), and an entry that is
 * closed while calls sit above it is left as a tombstone (no events, no
 * owner) that the thread's next open reuses in place, or that is taken
 * off once it is on top.  Entries left by starts stopped on other
 * threads stay until the owner's next open on that thread, an outer call's
 * return, or the thread's end (counted in the pending file as orphaned or
 * abandoned).  Only the thread itself touches its stack, as for calls.
 */
static const char sw_owned_dead;

/* Take tombstones off the top of @th. Context: on @th's thread. */
static void sw_owned_trim(struct sw_thread *th)
{
	u32 d = min_t(u32, READ_ONCE(th->depth), SW_PENDING_DEPTH);

	while (d && th->calls[d - 1].owner == &sw_owned_dead)
		d--;
	barrier();
	WRITE_ONCE(th->depth, d);
}
NOKPROBE_SYMBOL(sw_owned_trim);

/* The topmost entry of @owner on @th, or NULL. */
static struct sw_pending *sw_owned_find(struct sw_thread *th,
					const void *owner)
{
	u32 i;

	for (i = min_t(u32, READ_ONCE(th->depth), SW_PENDING_DEPTH); i-- > 0;)
		if (th->calls[i].owner == owner)
			return &th->calls[i];
	return NULL;
}
NOKPROBE_SYMBOL(sw_owned_find);

/* Leave @pd as a tombstone: no events, found by nobody. */
static void sw_owned_bury(struct sw_pending *pd)
{
	WRITE_ONCE(pd->set_id, 0);
	barrier();
	WRITE_ONCE(pd->owner, &sw_owned_dead);
}
NOKPROBE_SYMBOL(sw_owned_bury);

/**
 * sw_core_open_owned() - open an owned entry on the current thread and
 * start counting the current event set's events for it.
 * @owner: the owner's tag (a span)
 * @key:   the interval's key, which sw_core_close_owned() must match
 * @t0:    the interval's start time, likewise
 *
 * Context: the owner's handler on the current thread, preemption disabled
 * (possibly IRQs off or NMI); no locks, no allocation.
 * Return: SW_OWNED_OPEN, SW_OWNED_NO_EVENTS (no event set: nothing to
 * do), SW_OWNED_NO_SLOT or SW_OWNED_TOO_DEEP (no entry: counted by the
 * caller, and in the pending file).
 */
int sw_core_open_owned(const void *owner, const u64 key[2], u64 t0)
{
	struct sw_evset *set = rcu_dereference_sched(sw_evset);
	struct sw_thread *th;
	struct sw_pending *pd = NULL;

	if (!set)
		return SW_OWNED_NO_EVENTS;
	th = sw_pending_current();
	if (th) {
		sw_owned_trim(th);
		/* The owner's older entry, else a tombstone: reused in place. */
		pd = sw_owned_find(th, owner);
		if (!pd)
			pd = sw_owned_find(th, &sw_owned_dead);
		if (pd)
			WRITE_ONCE(pd->set_id, 0);
	}
	if (!pd) {
		pd = sw_pending_push();
		if (!pd)
			return sw_pending_current() ? SW_OWNED_TOO_DEEP :
						      SW_OWNED_NO_SLOT;
	}
	pd->node = 0;
	pd->call.key[0] = key[0];
	pd->call.key[1] = key[1];
	pd->call.t0 = t0;
	pd->call.cpu = sw_cpu();
	pd->call.pend = pd;
	barrier();
	WRITE_ONCE(pd->owner, owner);
	if (unlikely(sw_pending_leaving())) {
		/*
		 * The thread is being switched out and the hook has closed
		 * its segments: its counting starts when it is switched in.
		 */
		pd->set_id = set->id;
		sw_evcall_opened(&pd->ev, 0);
		pd->ev.open = 0;
		return SW_OWNED_OPEN;
	}
	sw_pending_open(pd, set);
	return SW_OWNED_OPEN;
}
NOKPROBE_SYMBOL(sw_core_open_owned);

/**
 * sw_core_close_owned() - close the current thread's entry of @owner for
 * the interval (@key, @t0), if it has one.
 * @owner:    the tag given to sw_core_open_owned()
 * @key:      the interval's key
 * @t0:       its start time
 * @measured: set when the entry counted the current event set since the
 *            open (its counts are then in the entry's ev until
 *            sw_core_drop_owned())
 *
 * Context: as sw_core_open_owned().
 * Return: the entry (to be dropped with sw_core_drop_owned() once its
 * counts are folded), or NULL when the thread has none for this interval.
 */
struct sw_pending *sw_core_close_owned(const void *owner, const u64 key[2],
				       u64 t0, bool *measured)
{
	struct sw_thread *th = sw_pending_current();
	struct sw_pending *pd;

	*measured = false;
	if (!th)
		return NULL;
	pd = sw_owned_find(th, owner);
	if (!pd || pd->call.key[0] != key[0] || pd->call.key[1] != key[1] ||
	    pd->call.t0 != t0)
		return NULL;
	/*
	 * First thing after the interval: close the segment.  While the
	 * thread is being switched out the hook has closed it already: its
	 * counts are whole.
	 */
	if (unlikely(sw_pending_leaving() && !pd->ev.open)) {
		struct sw_evset *set = rcu_dereference_sched(sw_evset);

		*measured = pd->set_id && set && set->id == pd->set_id;
		return pd;
	}
	*measured = pd->set_id && sw_core_exit_events(pd);
	return pd;
}
NOKPROBE_SYMBOL(sw_core_close_owned);

/**
 * sw_core_drop_owned() - forget an owned entry: popped when it is on top
 * (with the tombstones under it), else left as a tombstone under the
 * calls above it.
 * @pd: the entry, from sw_core_close_owned()
 *
 * Context: as sw_core_open_owned(), on the thread that opened @pd.
 */
void sw_core_drop_owned(struct sw_pending *pd)
{
	struct sw_thread *th = container_of(pd - pd->idx, struct sw_thread,
					    calls[0]);

	sw_owned_bury(pd);
	sw_owned_trim(th);
}
NOKPROBE_SYMBOL(sw_core_drop_owned);
