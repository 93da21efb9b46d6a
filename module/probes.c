// SPDX-License-Identifier: GPL-2.0
/*
 * probes.c - the probe registry and the kretprobe handlers.
 *
 * Every probed function gets one kretprobe.  The entry handler stores the
 * entry time and CPU in the kretprobe instance, so a call that sleeps and
 * returns on another CPU is still measured from its own entry.  The return
 * handler folds the elapsed time into the current CPU's statistics.
 *
 * With events set (pmu/), the entry handler also opens the call's first
 * counting segment and the return handler closes the last one; the
 * sched_switch probe in pmu/virt.c closes and reopens segments in between,
 * so the counts cover only the calling thread.  Each probe keeps its event
 * statistics apart from its time statistics: they restart when the events
 * change.
 *
 * Adding and removing probes is all-or-nothing: every new probe is
 * registered disabled first, and only when all of them registered are they
 * enabled and the removals carried out.
 */
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "compat.h"
#include "stopwatch.h"
#include "../pmu/pmu.h"

/*
 * sw_entry() - kretprobe entry handler.
 * Context: kprobe pre-handler: preemption disabled, possibly interrupts off
 * or NMI.  Takes no locks, allocates nothing.
 */
static int sw_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct sw_call *c = (struct sw_call *)ri->data;
	struct sw_evset *set = rcu_dereference_sched(sw_evset);

	c->cpu = smp_processor_id();
	c->t0 = sw_clock_ns();
	c->set_id = 0;
	if (set) {
		struct sw_ctr_sample s[SW_MAX_EVENTS] __sw_noinit;

		/* Last thing before the function runs: counts exclude us. */
		sw_pmu_read(set, s);
		sw_evcall_init(&c->ev, set->n, s);
		c->set_id = set->id;
	}
	return 0;
}
NOKPROBE_SYMBOL(sw_entry);

/*
 * sw_return() - kretprobe return handler.
 * Context: kretprobe return handler: preemption disabled, possibly NMI.
 * kprobes runs no other handler on this CPU meanwhile (a nested hit counts
 * as missed), so this CPU's statistics have a single writer; the seqcount
 * only lets readers on other CPUs take a consistent copy.
 */
static int sw_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct sw_call *c = (struct sw_call *)ri->data;
	struct sw_evset *set = NULL;
	bool measured = false;
	struct sw_probe *p;
	struct sw_evgen *evs;
	struct sw_gen *g;
	struct sw_bdgen *bd;
	struct sw_pcpu *pc;
	u64 t1, ns;

	if (c->set_id) {
		set = rcu_dereference_sched(sw_evset);
		if (set && set->id == c->set_id) {
			struct sw_ctr_sample s[SW_MAX_EVENTS] __sw_noinit;

			/* First thing after the function: close the segment. */
			sw_pmu_read(set, s);
			sw_evcall_end(&c->ev, set->n, s);
			measured = true;
		}
	}
	t1 = sw_clock_ns();
	p = container_of(get_kretprobe(ri), struct sw_probe, krp);
	ns = t1 > c->t0 ? t1 - c->t0 : 0;
	g = rcu_dereference_sched(p->gen);
	bd = rcu_dereference_sched(p->bd);
	evs = rcu_dereference_sched(p->evs);
	pc = this_cpu_ptr(g->pcpu);

	raw_write_seqcount_begin(&pc->seq);
	sw_stats_add(&pc->st, ns);
	pc->hist[sw_hist_bucket(ns)]++;
	if (c->cpu != smp_processor_id())
		pc->migrated++;
	raw_write_seqcount_end(&pc->seq);

	if (bd)
		sw_bd_record(bd, ns, c->cpu);
	/* Calls entered under other events count as unmeasured. */
	if (evs)
		sw_evgen_record(evs, measured && evs->set_id == c->set_id ?
					     &c->ev : NULL);
	return 0;
}
NOKPROBE_SYMBOL(sw_return);

/*
 * sw_call_evcall() - a pending kretprobe instance's event counts, if it is
 * a stopwatch call entered with the event set @set_id.
 * Context: sched_switch tracepoint (interrupts off); see pmu/virt.c.
 */
struct sw_evcall *sw_call_evcall(struct kretprobe_instance *ri, u32 set_id)
{
	struct kretprobe *rp = sw_kri_kretprobe(ri);
	struct sw_call *c;

	if (!rp || READ_ONCE(rp->handler) != sw_return)
		return NULL;
	c = (struct sw_call *)ri->data;
	return c->set_id == set_id ? &c->ev : NULL;
}
NOKPROBE_SYMBOL(sw_call_evcall);

/* The current event set. Context: sw_lock held. */
static struct sw_evset *sw_evset_current(void)
{
	lockdep_assert_held(&sw_lock);
	return rcu_dereference_protected(sw_evset, lockdep_is_held(&sw_lock));
}

/* Event statistics for a new probe or generation; NULL without events. */
static int sw_evgen_new(struct sw_evgen **out)
{
	struct sw_evset *set = sw_evset_current();

	*out = NULL;
	if (!set)
		return 0;
	*out = sw_evgen_alloc(set);
	return *out ? 0 : -ENOMEM;
}

static struct sw_gen *sw_gen_alloc(void)
{
	struct sw_gen *g;
	int cpu;

	g = kzalloc(sizeof(*g), GFP_KERNEL);
	if (!g)
		return NULL;
	g->pcpu = alloc_percpu(struct sw_pcpu);
	if (!g->pcpu) {
		kfree(g);
		return NULL;
	}
	for_each_possible_cpu(cpu) {
		struct sw_pcpu *pc = per_cpu_ptr(g->pcpu, cpu);

		seqcount_init(&pc->seq);
		sw_stats_init(&pc->st);
	}
	return g;
}

static void sw_gen_free(struct sw_gen *g)
{
	if (!g)
		return;
	free_percpu(g->pcpu);
	kfree(g);
}



static struct sw_probe *sw_probe_alloc(const char *name)
{
	struct sw_probe *p;
	struct sw_gen *g;
	struct sw_bdgen *bd = NULL;
	struct sw_evgen *evs;

	p = kzalloc(struct_size(p, name, strlen(name) + 1), GFP_KERNEL);
	if (!p)
		return NULL;
	strcpy(p->name, name);
	g = sw_gen_alloc();
	if (!g)
		goto out_free_probe;
	if (sw_bd_mode != SW_BD_NONE) {
		bd = sw_bdgen_alloc(sw_bd_mode);
		if (!bd)
			goto out_free_gen;
	}
	if (sw_evgen_new(&evs))
		goto out_free_bd;
	RCU_INIT_POINTER(p->gen, g);
	RCU_INIT_POINTER(p->bd, bd);
	RCU_INIT_POINTER(p->evs, evs);
	p->krp.kp.symbol_name = p->name;
	p->krp.kp.flags = KPROBE_FLAG_DISABLED;
	p->krp.entry_handler = sw_entry;
	p->krp.handler = sw_return;
	p->krp.data_size = sizeof(struct sw_call);
	p->krp.maxactive = sw_maxactive();
	return p;

out_free_bd:
	sw_bdgen_free(bd);
out_free_gen:
	sw_gen_free(g);
out_free_probe:
	kfree(p);
	return NULL;
}

/* Frees a probe that is not registered (or no longer is). */
static void sw_probe_free(struct sw_probe *p)
{
	sw_gen_free(rcu_dereference_protected(p->gen, 1));
	sw_bdgen_free(rcu_dereference_protected(p->bd, 1));
	sw_evgen_free(rcu_dereference_protected(p->evs, 1));
	kfree(p);
}

static struct sw_probe *sw_probe_find(const char *name)
{
	struct sw_probe *p;

	lockdep_assert_held(&sw_lock);
	list_for_each_entry(p, &sw_probes, list)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}

/* Registers @p disabled; on failure says why, naming the function. */
static int sw_probe_register(struct sw_probe *p)
{
	int ret = register_kretprobe(&p->krp);

	if (ret == -ENOENT) {
		sw_error("probe '%s': no such kernel function", p->name);
		return ret;
	}
	if (ret == -EINVAL) {
		sw_error("probe '%s': cannot be probed (not function text, notrace, or on the kprobe blacklist)",
			 p->name);
		return ret;
	}
	if (ret) {
		sw_error("probe '%s': register_kretprobe failed (%d)", p->name,
			 ret);
		return ret;
	}
	sw_kretprobe_learn(&p->krp);
	if (within_module((unsigned long)p->krp.kp.addr, THIS_MODULE)) {
		unregister_kretprobe(&p->krp);
		sw_error("probe '%s': stopwatch does not probe its own functions",
			 p->name);
		return -EINVAL;
	}
	return 0;
}

/* Unregisters probes in one batch: one RCU grace period for all. */
static void sw_unregister_batch(struct sw_probe **ps, int n)
{
	struct kretprobe **krps;
	int i;

	if (!n)
		return;
	krps = kmalloc_array(n, sizeof(*krps), GFP_KERNEL);
	if (krps) {
		for (i = 0; i < n; i++)
			krps[i] = &ps[i]->krp;
		unregister_kretprobes(krps, n);
		kfree(krps);
		return;
	}
	for (i = 0; i < n; i++)
		unregister_kretprobe(&ps[i]->krp);
}

/**
 * sw_probes_apply() - add and remove probes, all or nothing.
 * @line: control line ("+name -name name ..."); modified in place
 *
 * On any error nothing changes and sw_error() says what was wrong.
 *
 * Context: process context; takes sw_lock.
 * Return: 0, or -EINVAL (malformed or unprobeable name), -ENOENT (unknown
 * function, or removing one that is not probed), -EEXIST (already probed
 * or named twice), -E2BIG (name too long, too many probes), -ENOMEM.
 */
int sw_probes_apply(char *line)
{
	struct sw_probe **add = NULL, **del = NULL;
	int ncmd, nadd = 0, ndel = 0, nreg = 0, i, ret;
	int max_cmds = 2 * sw_max_probes;
	struct sw_parse_err perr;
	struct sw_cmd *cmds;

	cmds = kvcalloc(max_cmds, sizeof(*cmds), GFP_KERNEL);
	add = kvcalloc(max_cmds, sizeof(*add), GFP_KERNEL);
	del = kvcalloc(max_cmds, sizeof(*del), GFP_KERNEL);
	ret = -ENOMEM;
	if (!cmds || !add || !del)
		goto out_free;

	ncmd = sw_parse_cmds(line, cmds, max_cmds, KSYM_NAME_LEN - 1, &perr);
	if (ncmd < 0) {
		sw_error("'%.64s%s': %s", perr.token,
			 strlen(perr.token) > 64 ? "..." : "", perr.why);
		ret = ncmd;
		goto out_free;
	}

	mutex_lock(&sw_lock);
	for (i = 0; i < ncmd; i++) {
		struct sw_probe *p = sw_probe_find(cmds[i].name);

		if (cmds[i].op == SW_CMD_ADD && p) {
			sw_error("probe '%s': already probed", cmds[i].name);
			ret = -EEXIST;
			goto out_unlock;
		}
		if (cmds[i].op == SW_CMD_REMOVE && !p) {
			sw_error("probe '%s': not probed, nothing to remove",
				 cmds[i].name);
			ret = -ENOENT;
			goto out_unlock;
		}
		if (cmds[i].op == SW_CMD_REMOVE)
			del[ndel++] = p;
		else
			nadd++;
	}
	if (sw_nprobes + nadd - ndel > sw_max_probes) {
		sw_error("%u probes requested, the limit is %u (module parameter max_probes)",
			 sw_nprobes + nadd - ndel, sw_max_probes);
		ret = -E2BIG;
		goto out_unlock;
	}

	/* Register every addition disabled; any failure undoes them all. */
	nadd = 0;
	for (i = 0; i < ncmd; i++) {
		struct sw_probe *p;

		if (cmds[i].op != SW_CMD_ADD)
			continue;
		p = sw_probe_alloc(cmds[i].name);
		if (!p) {
			sw_error("probe '%s': out of memory", cmds[i].name);
			ret = -ENOMEM;
			goto out_undo;
		}
		add[nadd++] = p;
		ret = sw_probe_register(p);
		if (ret)
			goto out_undo;
		nreg++;
		ret = sw_debugfs_add_hist(p);
		if (ret) {
			sw_error("probe '%s': cannot create hist file (%d)",
				 p->name, ret);
			goto out_undo;
		}
	}
	for (i = 0; i < nadd; i++) {
		ret = enable_kretprobe(&add[i]->krp);
		if (ret) {
			sw_error("probe '%s': cannot arm the probe (%d)",
				 add[i]->name, ret);
			goto out_undo;
		}
	}

	/* From here on nothing can fail. */
	for (i = 0; i < nadd; i++) {
		list_add_tail(&add[i]->list, &sw_probes);
		sw_nprobes++;
	}
	for (i = 0; i < ndel; i++) {
		list_del(&del[i]->list);
		sw_nprobes--;
		sw_debugfs_remove_hist(del[i]);
	}
	sw_unregister_batch(del, ndel);
	mutex_unlock(&sw_lock);
	for (i = 0; i < ndel; i++)
		sw_probe_free(del[i]);
	ret = 0;
	goto out_free;

out_undo:
	sw_unregister_batch(add, nreg);
	for (i = 0; i < nadd; i++) {
		sw_debugfs_remove_hist(add[i]);
		sw_probe_free(add[i]);
	}
out_unlock:
	mutex_unlock(&sw_lock);
out_free:
	kvfree(del);
	kvfree(add);
	kvfree(cmds);
	return ret;
}

/**
 * sw_probes_remove_all() - unregister and free every probe.
 *
 * Calls in flight are safe: unregister_kretprobes() waits an RCU grace
 * period after detaching the handlers, and returns of calls still in
 * flight find no handler.
 *
 * Context: process context; takes sw_lock.
 */
void sw_probes_remove_all(void)
{
	struct sw_probe **del, *p, *tmp;
	int n = 0;

	mutex_lock(&sw_lock);
	del = kvcalloc(max_t(unsigned int, sw_nprobes, 1), sizeof(*del),
		       GFP_KERNEL);
	list_for_each_entry_safe(p, tmp, &sw_probes, list) {
		list_del(&p->list);
		sw_debugfs_remove_hist(p);
		if (del) {
			del[n++] = p;
		} else {
			unregister_kretprobe(&p->krp);
			sw_probe_free(p);
		}
	}
	sw_unregister_batch(del, n);
	sw_nprobes = 0;
	mutex_unlock(&sw_lock);
	while (n--)
		sw_probe_free(del[n]);
	kvfree(del);
}

/**
 * sw_reset_all() - zero every probe's statistics, breakdown and missed
 * counts.
 *
 * New generations are allocated first; if any allocation fails nothing is
 * reset.
 *
 * Context: process context; takes sw_lock.
 * Return: 0 or -ENOMEM.
 */
int sw_reset_all(void)
{
	struct sw_gen **ng = NULL;
	struct sw_bdgen **nb = NULL;
	struct sw_evgen **ne = NULL;
	struct sw_probe *p;
	int i, n, ret = -ENOMEM;

	mutex_lock(&sw_lock);
	n = sw_nprobes;
	ng = kvcalloc(max(n, 1), sizeof(*ng), GFP_KERNEL);
	nb = kvcalloc(max(n, 1), sizeof(*nb), GFP_KERNEL);
	ne = kvcalloc(max(n, 1), sizeof(*ne), GFP_KERNEL);
	if (!ng || !nb || !ne)
		goto out;
	for (i = 0; i < n; i++) {
		ng[i] = sw_gen_alloc();
		if (!ng[i])
			goto out;
		if (sw_bd_mode != SW_BD_NONE) {
			nb[i] = sw_bdgen_alloc(sw_bd_mode);
			if (!nb[i])
				goto out;
		}
		if (sw_evgen_new(&ne[i]))
			goto out;
	}
	i = 0;
	list_for_each_entry(p, &sw_probes, list) {
		ng[i] = rcu_replace_pointer(p->gen, ng[i],
					    lockdep_is_held(&sw_lock));
		nb[i] = rcu_replace_pointer(p->bd, nb[i],
					    lockdep_is_held(&sw_lock));
		ne[i] = rcu_replace_pointer(p->evs, ne[i],
					    lockdep_is_held(&sw_lock));
		p->missed_base = p->krp.nmissed;
		p->reentry_base = p->krp.kp.nmissed;
		i++;
	}
	synchronize_rcu();
	ret = 0;
out:
	mutex_unlock(&sw_lock);
	for (i = 0; ng && nb && ne && i < n; i++) {
		sw_gen_free(ng[i]);
		sw_bdgen_free(nb[i]);
		sw_evgen_free(ne[i]);
	}
	kvfree(ne);
	kvfree(nb);
	kvfree(ng);
	if (ret)
		sw_error("reset: out of memory, nothing was reset");
	return ret;
}

/**
 * sw_breakdown_set() - change what statistics are broken down by.
 * @mode: SW_BD_*; SW_BD_NONE turns breakdown off
 *
 * Every probe gets fresh, empty tables keyed the new way (all allocated
 * before any is swapped in); the overall statistics are untouched.
 *
 * Context: process context; takes sw_lock.
 * Return: 0 or -ENOMEM.
 */
int sw_breakdown_set(int mode)
{
	struct sw_bdgen **nb;
	struct sw_probe *p;
	int i, n, ret = -ENOMEM;

	mutex_lock(&sw_lock);
	n = sw_nprobes;
	nb = kvcalloc(max(n, 1), sizeof(*nb), GFP_KERNEL);
	if (!nb)
		goto out;
	for (i = 0; mode != SW_BD_NONE && i < n; i++) {
		nb[i] = sw_bdgen_alloc(mode);
		if (!nb[i])
			goto out;
	}
	i = 0;
	list_for_each_entry(p, &sw_probes, list) {
		nb[i] = rcu_replace_pointer(p->bd, nb[i],
					    lockdep_is_held(&sw_lock));
		i++;
	}
	sw_bd_mode = mode;
	synchronize_rcu();
	ret = 0;
out:
	mutex_unlock(&sw_lock);
	for (i = 0; nb && i < n; i++)
		sw_bdgen_free(nb[i]);
	kvfree(nb);
	if (ret)
		sw_error("breakdown: out of memory, mode unchanged");
	return ret;
}

/**
 * sw_probe_read() - merge a probe's per-CPU statistics.
 * @p:        probe (kept alive by the caller: sw_lock or the debugfs file)
 * @st:       merged statistics, output
 * @hist:     merged histogram (SW_HIST_BUCKETS entries), output
 * @migrated: merged migration count, output
 *
 * Context: process context; may sleep.
 * Return: 0 or -ENOMEM.
 */
int sw_probe_read(struct sw_probe *p, struct sw_stats *st, u64 *hist,
		  u64 *migrated)
{
	struct sw_pcpu *snap;
	struct sw_gen *g;
	int cpu, b;

	snap = kmalloc(sizeof(*snap), GFP_KERNEL);
	if (!snap)
		return -ENOMEM;
	sw_stats_init(st);
	memset(hist, 0, SW_HIST_BUCKETS * sizeof(*hist));
	*migrated = 0;

	rcu_read_lock();
	g = rcu_dereference(p->gen);
	for_each_possible_cpu(cpu) {
		struct sw_pcpu *pc = per_cpu_ptr(g->pcpu, cpu);
		unsigned int seq;

		do {
			seq = read_seqcount_begin(&pc->seq);
			snap->st = pc->st;
			snap->migrated = pc->migrated;
			memcpy(snap->hist, pc->hist, sizeof(snap->hist));
		} while (read_seqcount_retry(&pc->seq, seq));
		sw_stats_merge(st, &snap->st);
		*migrated += snap->migrated;
		for (b = 0; b < SW_HIST_BUCKETS; b++)
			hist[b] += snap->hist[b];
	}
	rcu_read_unlock();
	kfree(snap);
	return 0;
}

/**
 * sw_probe_missed() - calls a probe missed since the last reset, by cause.
 * @p:         probe
 * @maxactive: entries refused because all kretprobe instances were in use
 * @reentry:   hits while another kprobe handler ran on the same CPU
 *
 * Context: any.
 */
void sw_probe_missed(struct sw_probe *p, unsigned long *maxactive,
		     unsigned long *reentry)
{
	*maxactive = READ_ONCE(p->krp.nmissed) - p->missed_base;
	*reentry = READ_ONCE(p->krp.kp.nmissed) - p->reentry_base;
}

/**
 * sw_probes_evgen_prepare() - fresh event statistics for every probe.
 * @set:  the event set they are for, NULL for none
 * @gens: array of one per probe, in sw_probes order (NULL entries without
 *        @set); output, for sw_probes_evgen_swap() and _free()
 *
 * Context: process context, sw_lock held (until the swap).
 * Return: the number of probes, or -ENOMEM (nothing allocated).
 */
int sw_probes_evgen_prepare(const struct sw_evset *set,
			    struct sw_evgen ***gens)
{
	int i, n = sw_nprobes;

	lockdep_assert_held(&sw_lock);
	*gens = kvcalloc(max(n, 1), sizeof(**gens), GFP_KERNEL);
	if (!*gens)
		return -ENOMEM;
	for (i = 0; set && i < n; i++) {
		(*gens)[i] = sw_evgen_alloc(set);
		if (!(*gens)[i]) {
			sw_probes_evgen_free(*gens, i);
			*gens = NULL;
			return -ENOMEM;
		}
	}
	return n;
}

/**
 * sw_probes_evgen_swap() - give every probe the prepared event statistics.
 * @gens: from sw_probes_evgen_prepare(); gets the replaced ones back, to
 *        be freed after an RCU grace period
 *
 * Context: process context, sw_lock held since the prepare.
 */
void sw_probes_evgen_swap(struct sw_evgen **gens)
{
	struct sw_probe *p;
	int i = 0;

	lockdep_assert_held(&sw_lock);
	list_for_each_entry(p, &sw_probes, list) {
		gens[i] = rcu_replace_pointer(p->evs, gens[i],
					      lockdep_is_held(&sw_lock));
		i++;
	}
}

/**
 * sw_probes_evgen_free() - free an array of event statistics.
 * @gens: the array (NULL accepted); no handler may still see its entries
 * @n:    entries
 *
 * Context: process context.
 */
void sw_probes_evgen_free(struct sw_evgen **gens, int n)
{
	int i;

	for (i = 0; gens && i < n; i++)
		sw_evgen_free(gens[i]);
	kvfree(gens);
}
