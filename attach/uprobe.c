// SPDX-License-Identifier: GPL-2.0
/*
 * uprobe.c - attaching to a user-space function through a uprobe at its
 * first instruction and a uretprobe at its return.
 *
 * The program (userspace) resolves BINARY:SYMBOL to a file and the file
 * offset of the function's first instruction; the module takes the inode
 * with kern_path() and keeps the path while the uprobe is registered, so a
 * binary replaced on disk (a new inode under the old name) keeps its old
 * processes probed and leaves the new file alone.
 *
 * A uprobe has no per-instance data like a kretprobe's: the call's record
 * lives on its thread's pending stack, tagged with the probe
 * (sw_core_enter_stacked()), and the return handler folds the topmost
 * entry of that probe (sw_core_exit_stacked()).  A call whose entry was
 * filtered out or found no room has no entry: its return finds none and
 * is not measured (counted at entry, and as unmatched at the return).
 *
 * Sites: every stopwatch probe of one (file, offset) shares one uprobe
 * consumer, a struct sw_usite with the probes in an RCU-replaced array.
 * The kernel runs the consumers' return handlers in the same order as
 * their entry handlers, which would not nest on the pending stack; one
 * consumer enters its probes in array order and exits them in reverse.
 * The kernel puts breakpoints into address spaces only when a consumer
 * registers (and at mmap), and offers modules no way to re-apply a
 * consumer's filter, so each probe also registers a consumer of its own
 * (its installer: its filter, a handler that only answers whether its
 * probe wants the process) that puts the breakpoint where it is wanted.
 *
 * Whose calls: a probe with pid= or tgid= lets the kernel filter by
 * address space, so only that process gets the breakpoint at registration,
 * mmap and exec (unless another probe of the site wants others too);
 * follow= is decided in the process itself (at exec, or its first hit); a
 * forked child inherits its parent's breakpoints (the kernel copies the
 * text page), and its first hit returns UPROBE_HANDLER_REMOVE when no
 * probe of the site wants it, so the breakpoint leaves its address space.
 * Other filters are checked by the core at every hit.
 *
 * A site also serves user points that are not probes (a span's start or
 * stop): such a struct sw_uprobe has on_entry/on_return callbacks, which
 * the site's handlers call (preemption disabled, armed only) instead of
 * the core's halves; it has no filters of its own (the span checks them).
 *
 * Handlers run in the probed task's context with preemption enabled
 * (6.1: under the uprobe's register_rwsem; 6.12: under tasks-trace RCU);
 * they disable preemption around the array and the core (an RCU-sched
 * read side), take no lock, allocate nothing, print nothing.  Removing a
 * probe from a site waits a grace period before the probe may be freed;
 * unregistering a site waits until no handler runs (6.1:
 * uprobe_unregister() takes the register_rwsem for writing; 6.12:
 * uprobe_unregister_sync()) before the site is freed.
 */
#include <linux/fs.h>
#include <linux/mutex.h>
#include <linux/namei.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "control/control.h"
#include "core/core.h"
#include "core/cost.h"
#include "attach.h"

/* Filters that hold for a whole process: decided per address space. */
#define SW_UP_MM_FILTERS (SW_F_PID | SW_F_TGID | SW_F_FOLLOW)

/**
 * struct sw_uset - the probes of a site, replaced whole (RCU).
 * @rcu:  frees it after a grace period
 * @n:    how many
 * @nown: how many of them are probes (the others: user points of spans,
 *        with on_entry or on_return callbacks)
 * @p:    the probes, in the order they were added
 */
struct sw_uset {
	struct rcu_head rcu;
	int n;
	int nown;
	struct sw_uprobe *p[];
};

/* Whether @u is a user point of a span, not a probe. */
static __always_inline bool sw_up_is_point(const struct sw_uprobe *u)
{
	return u->on_entry || u->on_return;
}

/**
 * struct sw_usite - one uprobe: a file, an offset, one consumer.
 * @list: entry in sw_usites, under sw_usites_lock
 * @reg:  the registration (inode, offset, consumer)
 * @path: the file, held while registered
 * @set:  the probes here
 */
struct sw_usite {
	struct list_head list;
	struct sw_uprobe_reg reg;
	struct path path;
	struct sw_uset __rcu *set;
};

static DEFINE_MUTEX(sw_usites_lock);
static LIST_HEAD(sw_usites);

/* The thread group of thread @pid (init namespace), or 0 when gone. */
static pid_t sw_up_tgid_of(u32 pid)
{
	struct task_struct *t;
	pid_t tgid = 0;

	rcu_read_lock();
	t = pid_task(find_pid_ns(pid, &init_pid_ns), PIDTYPE_PID);
	if (t)
		tgid = t->tgid;
	rcu_read_unlock();
	return tgid;
}

/*
 * Does probe @u want the calls of current's process at all?  Its pid=,
 * tgid= and follow= hold for every thread of a process (pid=: the
 * thread's process; the core checks the thread), and a process never
 * becomes a descendant later.
 */
static bool sw_up_wants_current(const struct sw_uprobe *u)
{
	const struct sw_filter *f;

	if (!u->target.spec || !(u->target.spec->f.flags & SW_UP_MM_FILTERS))
		return true;
	f = &u->target.spec->f;
	if ((f->flags & SW_F_TGID) && current->tgid != (pid_t)f->tgid)
		return false;
	if ((f->flags & SW_F_PID) && current->tgid != sw_up_tgid_of(f->pid))
		return false;
	return !(f->flags & SW_F_FOLLOW) || sw_filter_follows(f->follow);
}

/* Does probe @u want address space @mm (current may run elsewhere)? */
static bool sw_up_wants_mm(const struct sw_uprobe *u, struct mm_struct *mm)
{
	const struct sw_filter *f;
	struct task_struct *t;
	bool ret;

	if (!u->target.spec || !(u->target.spec->f.flags & SW_UP_MM_FILTERS))
		return true;
	if (current->mm == mm)
		return sw_up_wants_current(u);
	f = &u->target.spec->f;
	/* follow= alone: decided at the first hit, in the process itself. */
	if (!(f->flags & (SW_F_PID | SW_F_TGID)))
		return true;
	rcu_read_lock();
	t = pid_task(find_pid_ns(f->flags & SW_F_TGID ? f->tgid : f->pid,
				 &init_pid_ns), PIDTYPE_PID);
	/* A leader gone before its threads has no mm: decide at the hit. */
	ret = !t || !READ_ONCE(t->mm) || READ_ONCE(t->mm) == mm;
	rcu_read_unlock();
	return ret;
}

/*
 * sw_up_filter() - may @mm get the site's breakpoint?  When a probe of
 * the site wants it.
 * Context: the uprobe core, process context: at registration (current is
 * the control writer), at mmap and exec (current maps into @mm), after a
 * handler asked for removal (6.12; current runs in @mm).  RCU only.
 */
static bool sw_up_filter(SW_UPROBE_FILTER_ARGS(uc, mm))
{
	struct sw_usite *site = container_of(uc, struct sw_usite, reg.uc);
	struct sw_uset *set;
	bool ret = false;
	int i;

	rcu_read_lock();
	set = rcu_dereference(site->set);
	for (i = 0; !ret && i < set->n; i++)
		ret = sw_up_wants_mm(set->p[i], mm);
	rcu_read_unlock();
	return ret;
}
NOKPROBE_SYMBOL(sw_up_filter);

/*
 * sw_up_cost_run() - what a timed run of a site's handler is folded into
 * (core/cost.h): its one probe's cost accumulators, or none when the site
 * has several probes or a span's point (the run then counts in its CPU's
 * estimate only).
 * Context: as sw_up_entry().
 */
static __always_inline void sw_up_cost_run(struct sw_cost_run *run,
					   const struct sw_uset *set)
{
	const struct sw_uprobe *u = set->n == 1 ? set->p[0] : NULL;

	run->mech = SW_COST_UPROBE;
	run->acc = u && !sw_up_is_point(u) && u->target.aggs ?
		   rcu_dereference_sched(u->target.aggs->cost) : NULL;
}

/*
 * sw_up_entry() - uprobe handler, at the function's first instruction:
 * the entry half of each armed probe of the site, in order.  On a call
 * the cost sampler picks, timed (core/cost.h), and the last entry it
 * pushed on the thread's pending stack marked, so that the return times
 * its handler too (a call with no entry there is timed at entry only).
 * Context: the probed task, process context, preemption enabled (see the
 * top); disabled here around the array and the core.  When no probe of
 * the site wants this process, asks the kernel to take the breakpoint out
 * of its address space (a forked child's inherited one).
 */
static __always_inline int sw_up_entry_work(struct sw_cost_run *run,
					    const struct sw_uset *set,
					    struct pt_regs *regs)
{
	struct sw_pending *pd, *last = NULL;
	bool wanted = !set->n;	/* a site on its way out: leave it be */
	int i;

	for (i = 0; i < set->n; i++) {
		struct sw_uprobe *u = set->p[i];

		if (sw_up_is_point(u)) {
			/*
			 * A span's point: wants every process.  The acquire
			 * pairs with sw_uprobe_enable(), as below.
			 */
			wanted = true;
			if (u->on_entry && smp_load_acquire(&u->armed))
				u->on_entry(u, regs);
			continue;
		}
		/* Pairs with sw_uprobe_enable(): armed after registration. */
		pd = smp_load_acquire(&u->armed) ?
		     sw_core_enter_stacked(u, &u->target, regs) : NULL;
		if (pd) {
			wanted = true;
			last = pd;
		} else if (!wanted && sw_up_wants_current(u)) {
			wanted = true;
		}
	}
	if (run) {
		sw_up_cost_run(run, set);
		run->call = last ? &last->call : NULL;
	}
	return wanted ? 0 : UPROBE_HANDLER_REMOVE;
}

SW_COST_ENTRY(sw_up_entry, int,
	      (const struct sw_uset *set, struct pt_regs *regs), (set, regs))

static int sw_up_entry(struct uprobe_consumer *uc, struct pt_regs *regs)
{
	struct sw_usite *site = container_of(uc, struct sw_usite, reg.uc);
	int r;

	preempt_disable();
	r = sw_up_entry_run(rcu_dereference_sched(site->set), regs);
	preempt_enable();
	return r;
}
NOKPROBE_SYMBOL(sw_up_entry);

/*
 * sw_up_return() - uretprobe handler, when the function returns (the
 * instruction pointer is already the real return address): the exit half
 * of each probe of the site, in reverse order, so the calls nest on the
 * pending stack.  Timed when the thread's topmost pending entry is one of
 * the site's probes' and marked (its entry was timed, core/cost.h).
 * Context: as sw_up_entry().  A probe without an entry on this thread's
 * stack (filtered out, no room, not yet armed at entry) finds none
 * (counted as unmatched); one whose pid=, tgid= or follow= leave this
 * process out is not asked.
 */
static __always_inline int sw_up_return_work(struct sw_cost_run *run,
					     const struct sw_uset *set,
					     struct sw_thread *th,
					     struct pt_regs *regs)
{
	int i;

	for (i = set->n - 1; i >= 0; i--) {
		struct sw_uprobe *u = set->p[i];

		if (sw_up_is_point(u)) {
			/* Pairs with sw_uprobe_enable(). */
			if (u->on_return && smp_load_acquire(&u->armed))
				u->on_return(u, regs);
			continue;
		}
		/* A process it does not want never entered it. */
		if (sw_up_wants_current(u))
			sw_core_exit_stacked_on(th, u, &u->target, regs);
	}
	if (run)
		sw_up_cost_run(run, set);
	return 0;
}

/*
 * Whether the call whose return this is had its entry timed: the
 * thread's topmost pending entry is marked and one of the site's probes
 * owns it (its call then in @c).
 */
static __always_inline bool sw_up_return_marked(struct sw_call **c,
						const struct sw_uset *set,
						struct sw_thread *th,
						struct pt_regs *regs)
{
	struct sw_pending *pd = sw_core_stacked_top(th);
	int i;

	if (!pd || !sw_cost_marked(&pd->call))
		return false;
	*c = &pd->call;
	for (i = 0; i < set->n; i++)
		if (pd->owner == set->p[i])
			return true;
	return false;
}

SW_COST_EXIT(sw_up_return, int,
	     (const struct sw_uset *set, struct sw_thread *th,
	      struct pt_regs *regs), (set, th, regs))

static int sw_up_return(struct uprobe_consumer *uc, unsigned long func,
			struct pt_regs *regs)
{
	struct sw_usite *site = container_of(uc, struct sw_usite, reg.uc);
	struct sw_uset *set;

	preempt_disable();
	set = rcu_dereference_sched(site->set);
	/* The thread's stack, which the probes' exit halves search. */
	sw_up_return_run(set, set->nown ? sw_pending_current() : NULL, regs);
	preempt_enable();
	return 0;
}
NOKPROBE_SYMBOL(sw_up_return);

/*
 * sw_up_inst_entry() - an installer's handler: keep the breakpoint in
 * this address space only if its probe wants the process (the kernel
 * removes it when every consumer says so).
 * Context: as sw_up_entry(); RCU only.
 */
static int sw_up_inst_entry(struct uprobe_consumer *uc, struct pt_regs *regs)
{
	struct sw_uprobe *u = container_of(uc, struct sw_uprobe, inst.uc);

	return sw_up_wants_current(u) ? 0 : UPROBE_HANDLER_REMOVE;
}
NOKPROBE_SYMBOL(sw_up_inst_entry);

/* An installer's filter: its probe's.  Context: as sw_up_filter(). */
static bool sw_up_inst_filter(SW_UPROBE_FILTER_ARGS(uc, mm))
{
	return sw_up_wants_mm(container_of(uc, struct sw_uprobe, inst.uc), mm);
}
NOKPROBE_SYMBOL(sw_up_inst_filter);

/* A copy of @old with @add appended or @del left out. */
static struct sw_uset *sw_uset_edit(struct sw_uset *old, struct sw_uprobe *add,
				    struct sw_uprobe *del, gfp_t gfp)
{
	struct sw_uset *set;
	int i, n = old ? old->n : 0;

	set = kzalloc(struct_size(set, p, n + 1), gfp);
	if (!set)
		return NULL;
	for (i = 0; i < n; i++)
		if (old->p[i] != del)
			set->p[set->n++] = old->p[i];
	if (add)
		set->p[set->n++] = add;
	for (i = 0; i < set->n; i++)
		set->nown += !sw_up_is_point(set->p[i]);
	return set;
}

/**
 * sw_uprobe_init() - fill in a user probe, not registered yet.
 * @u:      the probe
 * @name:   its name for messages (BINARY:NAME); must outlive @u
 * @file:   absolute path of the executable or library; must outlive @u
 * @offset: file offset of the function's first instruction
 * @aggs:   where its calls are folded; must outlive @u's registration
 * @spec:   its filters and keys (NULL: none); likewise
 */
void sw_uprobe_init(struct sw_uprobe *u, const char *name, const char *file,
		    u64 offset, struct sw_aggs *aggs, const struct sw_spec *spec)
{
	memset(u, 0, sizeof(*u));
	u->name = name;
	u->file = file;
	u->offset = offset;
	u->target.aggs = aggs;
	u->target.spec = spec;
}

/* The site of @path's inode at @offset, or NULL. Context: sites lock. */
static struct sw_usite *sw_usite_find(struct inode *inode, loff_t offset)
{
	struct sw_usite *site;

	list_for_each_entry(site, &sw_usites, list)
		if (site->reg.inode == inode && site->reg.offset == offset)
			return site;
	return NULL;
}

/* A new site for @path at @u's offset, registered with @u. */
static int sw_usite_new(struct sw_uprobe *u, struct path *path,
			struct inode *inode)
{
	struct sw_usite *site;
	struct sw_uset *set;
	int ret = -ENOMEM;

	site = kzalloc(sizeof(*site), GFP_KERNEL);
	set = sw_uset_edit(NULL, u, NULL, GFP_KERNEL);
	if (!site || !set)
		goto out_free;
	site->path = *path;
	site->reg.inode = inode;
	site->reg.offset = u->offset;
	site->reg.uc.handler = sw_up_entry;
	site->reg.uc.ret_handler = sw_up_return;
	site->reg.uc.filter = sw_up_filter;
	RCU_INIT_POINTER(site->set, set);
	ret = sw_uprobe_reg_register(&site->reg);
	if (ret) {
		sw_error("probe '%s': cannot place a uprobe at %s:0x%llx (%d%s)",
			 u->name, u->file, u->offset, ret,
			 ret == -EINVAL ? ": misaligned, or an instruction that cannot be probed" :
			 ret == -ENOTSUPP || ret == -EOPNOTSUPP ? ": an instruction that cannot be probed" : "");
		goto out_free;
	}
	list_add(&site->list, &sw_usites);
	u->site = site;
	return 0;

out_free:
	kfree(set);
	kfree(site);
	return ret;
}

/*
 * Registers @u's installer (in its site); on failure takes @u out of the
 * site again.  Context: process context, the sites lock not held.
 */
static int sw_up_install(struct sw_uprobe *u)
{
	int ret;

	u->inst.inode = u->site->reg.inode;
	u->inst.offset = u->site->reg.offset;
	u->inst.uc.handler = sw_up_inst_entry;
	u->inst.uc.filter = sw_up_inst_filter;
	ret = sw_uprobe_reg_register(&u->inst);
	if (!ret) {
		u->installed = true;
		return 0;
	}
	sw_error("probe '%s': cannot place a uprobe at %s:0x%llx (%d)",
		 u->name, u->file, u->offset, ret);
	sw_uprobe_unregister(&u, 1);
	return ret;
}

/**
 * sw_uprobe_register() - look the file up and register @u, not yet
 * counting: with the uprobe of its file and offset when another probe has
 * one, else with a new one (breakpoints then go into every address space
 * mapping the file that the filter lets in).
 * @u: from sw_uprobe_init()
 *
 * On failure says why with sw_error(), naming the probe and the file.
 *
 * Context: process context.
 * Return: 0, -ENOENT (no such file), -EINVAL (not a regular file, offset
 * beyond its end, an instruction that cannot be probed), -ENOMEM or
 * another errno of the path lookup or of uprobes.
 */
int sw_uprobe_register(struct sw_uprobe *u)
{
	struct sw_usite *site;
	struct sw_uset *set;
	struct inode *inode;
	struct path path;
	int ret;

	ret = kern_path(u->file, LOOKUP_FOLLOW, &path);
	if (ret) {
		sw_error("probe '%s': %s: %s (%d)", u->name, u->file,
			 ret == -ENOENT ? "no such file" : "cannot look it up",
			 ret);
		return ret;
	}
	inode = d_real_inode(path.dentry);
	ret = -EINVAL;
	if (!S_ISREG(inode->i_mode)) {
		sw_error("probe '%s': %s is not a regular file", u->name,
			 u->file);
		goto out_put;
	}
	if (u->offset >= (u64)i_size_read(inode)) {
		sw_error("probe '%s': offset 0x%llx is beyond the end of %s (%lld bytes)",
			 u->name, u->offset, u->file, i_size_read(inode));
		goto out_put;
	}
	mutex_lock(&sw_usites_lock);
	site = sw_usite_find(inode, u->offset);
	if (!site) {
		ret = sw_usite_new(u, &path, inode);
		mutex_unlock(&sw_usites_lock);
		if (ret)
			goto out_put;
		return sw_up_install(u);	/* the site keeps the path */
	}
	set = sw_uset_edit(rcu_dereference_protected(site->set, 1), u, NULL,
			   GFP_KERNEL);
	if (!set) {
		mutex_unlock(&sw_usites_lock);
		sw_error("probe '%s': out of memory", u->name);
		ret = -ENOMEM;
		goto out_put;
	}
	set = rcu_replace_pointer(site->set, set, 1);
	kfree_rcu(set, rcu);
	u->site = site;
	mutex_unlock(&sw_usites_lock);
	ret = sw_up_install(u);
out_put:
	path_put(&path);
	return ret;
}

/**
 * sw_uprobe_enable() - start counting the calls of a registered probe.
 * @u: the probe
 *
 * Context: process context.
 */
void sw_uprobe_enable(struct sw_uprobe *u)
{
	/* Pairs with the handlers' acquire: all set up before this. */
	smp_store_release(&u->armed, true);
}

/**
 * sw_uprobe_unregister() - unregister probes in one batch.
 * @us: the registered probes
 * @n:  how many
 *
 * Each leaves its site, its installer unregistered; one grace period
 * then lets no site handler use them; the sites left empty are
 * unregistered too, with one wait for all their handlers on 6.12.  When this returns the probes may be freed.  Calls
 * still in flight return without reaching them; their pending entries
 * are counted as orphaned or abandoned (core/pending.c).
 *
 * Context: process context.
 */
void sw_uprobe_unregister(struct sw_uprobe **us, int n)
{
	struct sw_usite *site, *tmp;
	struct sw_uset *set;
	LIST_HEAD(dead);
	int i;

	if (!n)
		return;
	mutex_lock(&sw_usites_lock);
	for (i = 0; i < n; i++) {
		if (us[i]->installed)
			sw_uprobe_reg_unregister_nosync(&us[i]->inst);
		us[i]->installed = false;
		site = us[i]->site;
		/* Small; a removal cannot be refused. */
		set = sw_uset_edit(rcu_dereference_protected(site->set, 1),
				   NULL, us[i], GFP_KERNEL | __GFP_NOFAIL);
		set = rcu_replace_pointer(site->set, set, 1);
		kfree_rcu(set, rcu);
		us[i]->site = NULL;
		if (!rcu_access_pointer(site->set)->n)
			list_move(&site->list, &dead);
	}
	list_for_each_entry(site, &dead, list)
		sw_uprobe_reg_unregister_nosync(&site->reg);
	mutex_unlock(&sw_usites_lock);
	/*
	 * No handler iterates an array holding the removed probes any more,
	 * and neither their installers' nor the dead sites' handlers run.
	 */
	synchronize_rcu();
	sw_uprobe_reg_sync();
	list_for_each_entry_safe(site, tmp, &dead, list) {
		path_put(&site->path);
		kfree(rcu_access_pointer(site->set));
		kfree(site);
	}
}
