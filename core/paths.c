// SPDX-License-Identifier: GPL-2.0
/*
 * paths.c - call paths: self and total time of every probed function per
 * path of probed functions pending on the same thread (a call-path trie,
 * as XRay's function call trie).
 *
 * With paths on, every probed call goes on its thread's pending stack
 * (pending.c) with its path node: the node of the entry below it (its
 * nearest probed caller still in flight on the thread) and its probe.  A
 * call with no probed caller in flight starts a path.  Recursion is a
 * deeper path.  At exit the call's total (wall) time is added to the entry
 * below (child_ns), so its own self time is its total minus its probed
 * callees' totals; the same for each event counted (self and total).
 *
 * Node identities are global: a preallocated, bounded table of (parent
 * node, probe) keys filled lock-free (lib/pathtab.c).  Statistics are per
 * CPU, arrays indexed by node id, merged on read.  A path the table has no
 * room for is dropped and counted (dropped_full; its callees' paths too);
 * the call is still measured in the flat statistics, and its total still
 * counts as callee time of its caller.  A probed call with no pending
 * entry (no slot, or deeper than the stack: see the pending file) is not
 * on any path (dropped_no_entry); its time then stays in its caller's
 * self time.
 *
 * A generation (table and statistics) is replaced whole by a reset and
 * when the event set changes; a call in flight across the change is left
 * out of the new one (dropped_stale).
 *
 * The paths file: read the trie (format below); write "on" or "off" (the
 * module parameter paths sets it at load), or "reset".
 *
 *   paths_format 1
 *   enabled 1
 *   nodes N
 *   max_nodes M
 *   dropped_full D1
 *   dropped_no_entry D2
 *   dropped_stale D3
 *   events instructions cycles        ("events -" without events)
 *   path calls total_ns self_ns [E_calls E_total E_self ...]
 *   a;b;c 10 123456 23456 [...]
 *
 * One row per node: the probes of its path outermost first, joined by
 * ';'.  For each event E of the set: the calls measured for it, with
 * their total and self counts.
 */
#include <linux/jump_label.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/seqlock.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "control/control.h"
#include "lib/pathtab.h"
#include "core.h"

#define SW_MAX_PATHS_LIMIT (1U << 20)

/* Why a call is on no path (struct sw_paths_cpu.dropped). */
enum sw_paths_drop {
	SW_PATHS_DROP_FULL,	/* no room in the node table for its path */
	SW_PATHS_DROP_NO_ENTRY,	/* no pending entry (see the pending file) */
	SW_PATHS_DROP_STALE,	/* in flight across a reset */
	SW_PATHS_DROP_N,
};

static const char *const sw_paths_drop_names[SW_PATHS_DROP_N] = {
	"dropped_full", "dropped_no_entry", "dropped_stale",
};

/**
 * struct sw_path_stat - one node's statistics on one CPU.
 * @seq:      odd while the CPU updates it; readers retry
 * @calls:    calls of the path
 * @total_ns: their wall time
 * @self_ns:  their wall time minus that of their probed callees
 * @ev:       per event i of the set: calls measured, total, self at
 *            ev[3 * i], ev[3 * i + 1], ev[3 * i + 2]
 */
struct sw_path_stat {
	seqcount_t seq;
	u32 pad;
	u64 calls;
	u64 total_ns;
	u64 self_ns;
	u64 ev[];
};

/**
 * struct sw_paths_cpu - one CPU's part of a generation.
 * @dropped: calls on no path, by enum sw_paths_drop
 * @stats:   one struct sw_path_stat per slot of the node table, of
 *           struct sw_paths_gen.stride bytes each
 */
struct sw_paths_cpu {
	u64 dropped[SW_PATHS_DROP_N];
	u8 stats[];
};

/**
 * struct sw_paths_gen - one generation of the trie.
 * @id:     its number, from 1 (pending entries name it)
 * @set_id: the event set whose counts it sums (0: none)
 * @nev:    events in that set
 * @stride: bytes of one struct sw_path_stat
 * @names:  the events' names
 * @tab:    the node identities
 * @cpu:    per possible CPU, indexed by CPU number
 */
struct sw_paths_gen {
	u32 id;
	u32 set_id;
	u32 nev;
	u32 stride;
	char names[SW_MAX_EVENTS][SW_EVENT_NAME_LEN];
	struct sw_pathtab tab;
	struct sw_paths_cpu *cpu[];
};

static bool paths;
module_param(paths, bool, 0400);
MODULE_PARM_DESC(paths,
		 "Keep call paths from load on (default off; the debugfs paths file turns them on and off)");

static unsigned int max_paths = 1024;
module_param(max_paths, uint, 0400);
MODULE_PARM_DESC(max_paths,
		 "Call-path nodes kept, rounded up to a power of two; calls on further paths are dropped from the paths and counted (default 1024)");

DEFINE_STATIC_KEY_FALSE(sw_paths_key);

/*
 * sw_paths_lock: the generation's writers, the probe names, the switch.
 * Held from sw_paths_prepare() to commit or abort, inside the registry's
 * lock (the pmu's client): the event set changes only while it is held.
 */
static DEFINE_MUTEX(sw_paths_lock);
static struct sw_paths_gen __rcu *sw_paths_gen;
static struct sw_paths_gen *sw_paths_next;
static u32 sw_paths_last_id;
/*
 * The probes' names in the paths: probe id i is sw_path_names[i - 1].  A
 * name is held by the probes of that name (refs); one no probe holds is
 * retired: kept while nodes of the current generation may name it, freed
 * by a sweep (sw_paths_sweep_locked()), its id then free for another name.
 */
struct sw_path_name {
	char *name;	/* NULL: a free id */
	u32 refs;
	bool used;	/* a sweep's mark: a node names it */
};
static struct sw_path_name *sw_path_names;
static u32 sw_path_nnames, sw_path_names_cap;
static u32 sw_path_nlive;	/* names not NULL */
static u32 sw_path_retired, sw_path_sweep_at = 16;

static void sw_paths_sweep_locked(void);
static struct sw_file *sw_paths_file;

static __always_inline struct sw_path_stat *
sw_path_stat_of(const struct sw_paths_gen *g, struct sw_paths_cpu *pc,
		u32 node)
{
	return (struct sw_path_stat *)(pc->stats +
				       (size_t)(node - 1) * g->stride);
}

static __always_inline void sw_paths_drop(struct sw_paths_gen *g,
					  enum sw_paths_drop why)
{
	struct sw_paths_cpu *pc = g->cpu[sw_cpu()];

	WRITE_ONCE(pc->dropped[why], pc->dropped[why] + 1);
}

/**
 * sw_paths_no_entry() - a call with paths on found no room on its
 * thread's pending stack: it is on no path.
 *
 * Context: the core's entry half (preemption disabled, possibly NMI).
 */
void sw_paths_no_entry(void)
{
	struct sw_paths_gen *g = rcu_dereference_sched(sw_paths_gen);

	if (g)
		sw_paths_drop(g, SW_PATHS_DROP_NO_ENTRY);
}
NOKPROBE_SYMBOL(sw_paths_no_entry);

/**
 * sw_paths_enter() - put a pushed call on its path.
 * @pd: its pending entry, just reserved (the entry below it, if any, is
 *      its nearest probed caller still in flight)
 * @a:  its probe's aggregations (path_id: its probe in the paths), or
 *      NULL (paths turned on while it entered: on no path)
 *
 * Context: the core's entry half, before the clock is read: preemption
 * disabled, possibly interrupts off or NMI.  No locks, no allocation.
 */
void sw_paths_enter(struct sw_pending *pd, const struct sw_aggs *a)
{
	struct sw_paths_gen *g = rcu_dereference_sched(sw_paths_gen);
	struct sw_pending *up = pd->idx ? pd - 1 : NULL;
	u32 parent = 0, node = 0, i;

	/* pgen is 0 since the push: on no path unless set below. */
	pd->node = 0;
	if (unlikely(!g || !a || !a->path_id))
		return;
	/* Read at the exit only for a call on this generation's paths. */
	pd->child_ns = 0;
	pd->child_bad = 0;
	for (i = 0; i < g->nev; i++)
		pd->child_ev[i] = 0;
	if (up && up->pgen == g->id) {
		parent = up->node;
		/* Under a dropped path: dropped too. */
		if (unlikely(!parent))
			goto drop;
	}
	node = sw_pathtab_node(&g->tab, parent, a->path_id);
	if (unlikely(!node))
		goto drop;
	pd->node = node;
	pd->pgen = g->id;
	return;
drop:
	sw_paths_drop(g, SW_PATHS_DROP_FULL);
	/* Still on the stack as a callee of @up, with no node of its own. */
	pd->pgen = g->id;
}
NOKPROBE_SYMBOL(sw_paths_enter);

/**
 * sw_paths_exit() - fold a returning call into its path node, and its
 * times into its caller's callee times.
 * @pd:       its pending entry (popped after this)
 * @ns:       its wall time
 * @measured: whether its events were counted with the set of @pd
 *
 * Context: the core's exit half: preemption disabled, possibly NMI.
 * The only writer of this CPU's statistics; no locks, no allocation.
 */
void sw_paths_exit(struct sw_pending *pd, u64 ns, bool measured)
{
	struct sw_paths_gen *g = rcu_dereference_sched(sw_paths_gen);
	struct sw_pending *up = pd->idx ? pd - 1 : NULL;
	struct sw_path_stat *st;
	u32 i, bad;
	u64 self;

	if (unlikely(!g))
		return;
	if (unlikely(pd->pgen != g->id)) {
		sw_paths_drop(g, SW_PATHS_DROP_STALE);
		return;
	}
	measured = measured && pd->set_id == g->set_id;
	if (up && up->pgen == pd->pgen) {
		up->child_ns += ns;
		if (measured && up->set_id == pd->set_id) {
			for (i = 0; i < g->nev; i++)
				up->child_ev[i] += pd->ev.acc[i];
			up->child_bad |= pd->ev.bad;
		} else {
			up->child_bad = SW_EVCALL_ALL_BAD;
		}
	}
	if (!pd->node)
		return;
	st = sw_path_stat_of(g, g->cpu[sw_cpu()], pd->node);
	self = ns > pd->child_ns ? ns - pd->child_ns : 0;
	raw_write_seqcount_begin(&st->seq);
	st->calls++;
	st->total_ns += ns;
	st->self_ns += self;
	if (measured) {
		bad = pd->ev.bad | pd->child_bad;
		for (i = 0; i < g->nev; i++) {
			u64 tot = pd->ev.acc[i], ch = pd->child_ev[i];

			if (bad & (1U << i))
				continue;
			st->ev[3 * i]++;
			st->ev[3 * i + 1] += tot;
			st->ev[3 * i + 2] += tot > ch ? tot - ch : 0;
		}
	}
	raw_write_seqcount_end(&st->seq);
}
NOKPROBE_SYMBOL(sw_paths_exit);

/* ---- generations --------------------------------------------------- */

static void sw_paths_gen_free(struct sw_paths_gen *g)
{
	int cpu;

	if (!g)
		return;
	for_each_possible_cpu(cpu)
		kvfree(g->cpu[cpu]);
	kvfree(g->tab.keys);
	kfree(g);
}

/* A new, empty generation for @set. Context: process, sw_paths_lock. */
static struct sw_paths_gen *sw_paths_gen_alloc(const struct sw_evset *set)
{
	struct sw_paths_gen *g;
	u32 slots, i;
	int cpu;

	lockdep_assert_held(&sw_paths_lock);
	g = kzalloc(struct_size(g, cpu, nr_cpu_ids), GFP_KERNEL);
	if (!g)
		return NULL;
	g->tab.bits = sw_pathtab_bits(max_paths);
	slots = sw_pathtab_slots(&g->tab);
	g->tab.keys = kvcalloc(slots, sizeof(*g->tab.keys), GFP_KERNEL);
	if (!g->tab.keys)
		goto fail;
	if (set) {
		g->set_id = set->id;
		g->nev = set->n;
		for (i = 0; i < set->n; i++)
			strscpy(g->names[i], set->spec[i].name,
				SW_EVENT_NAME_LEN);
	}
	g->stride = ALIGN(struct_size_t(struct sw_path_stat, ev, 3 * g->nev),
			  sizeof(u64));
	for_each_possible_cpu(cpu) {
		struct sw_paths_cpu *pc;

		pc = kvzalloc(struct_size(pc, stats, (size_t)slots * g->stride),
			      GFP_KERNEL);
		if (!pc)
			goto fail;
		for (i = 1; i <= slots; i++)
			seqcount_init(&sw_path_stat_of(g, pc, i)->seq);
		g->cpu[cpu] = pc;
	}
	g->id = ++sw_paths_last_id;
	return g;
fail:
	sw_paths_gen_free(g);
	return NULL;
}

/**
 * sw_paths_prepare() - an empty generation for the event set about to be
 * counted (the pmu's client: the registry calls this from its prepare).
 * @set: the new set, or NULL for none
 *
 * Returns holding sw_paths_lock, released by sw_paths_commit() or
 * sw_paths_abort().  Nothing to prepare while no generation exists (paths
 * never turned on).
 *
 * Context: process context, the registry's lock held.
 * Return: 0, or -ENOMEM (the lock is not held then).
 */
int sw_paths_prepare(const struct sw_evset *set)
{
	mutex_lock(&sw_paths_lock);
	sw_paths_next = NULL;
	if (!rcu_access_pointer(sw_paths_gen))
		return 0;
	sw_paths_next = sw_paths_gen_alloc(set);
	if (sw_paths_next)
		return 0;
	mutex_unlock(&sw_paths_lock);
	return -ENOMEM;
}

/**
 * sw_paths_commit() - publish the prepared generation.
 *
 * Context: process context, after sw_paths_prepare() succeeded.
 * Return: the replaced generation (or NULL), for sw_paths_done() after the
 * caller's grace period.
 */
struct sw_paths_gen *sw_paths_commit(void)
{
	struct sw_paths_gen *old = NULL;

	lockdep_assert_held(&sw_paths_lock);
	if (sw_paths_next) {
		old = rcu_replace_pointer(sw_paths_gen, sw_paths_next, 1);
		sw_paths_sweep_locked();
	}
	sw_paths_next = NULL;
	mutex_unlock(&sw_paths_lock);
	return old;
}

/**
 * sw_paths_abort() - drop the prepared generation.
 *
 * Context: process context, after sw_paths_prepare() succeeded.
 */
void sw_paths_abort(void)
{
	lockdep_assert_held(&sw_paths_lock);
	sw_paths_gen_free(sw_paths_next);
	sw_paths_next = NULL;
	mutex_unlock(&sw_paths_lock);
}

/**
 * sw_paths_done() - free a generation sw_paths_commit() replaced.
 * @old: its return value (NULL is accepted)
 *
 * Context: process context, after an RCU grace period following the
 * commit.
 */
void sw_paths_done(struct sw_paths_gen *old)
{
	sw_paths_gen_free(old);
}

/* ---- probe names ---------------------------------------------------- */

/*
 * Frees the retired names that no node of the current generation names
 * (all of them when there is none), and sets when the next sweep comes:
 * once the retired names have doubled, so that a sweep (one pass over the
 * table) is paid for by as many removals.
 * Context: process context, sw_paths_lock held.
 */
static void sw_paths_sweep_locked(void)
{
	struct sw_paths_gen *g = rcu_dereference_protected(sw_paths_gen, 1);
	u32 i, slot, id;

	lockdep_assert_held(&sw_paths_lock);
	for (i = 0; i < sw_path_nnames; i++)
		sw_path_names[i].used = false;
	for (slot = 0; g && slot < sw_pathtab_slots(&g->tab); slot++) {
		id = sw_path_key_probe(READ_ONCE(g->tab.keys[slot]));
		if (id >= 1 && id <= sw_path_nnames)
			sw_path_names[id - 1].used = true;
	}
	sw_path_retired = 0;
	for (i = 0; i < sw_path_nnames; i++) {
		struct sw_path_name *pn = &sw_path_names[i];

		if (!pn->name || pn->refs)
			continue;
		if (pn->used) {
			sw_path_retired++;
			continue;
		}
		kfree(pn->name);
		pn->name = NULL;
		sw_path_nlive--;
	}
	sw_path_sweep_at = max(2 * sw_path_retired, 16U);
}

/**
 * sw_paths_probe_id() - the id naming a probe in the paths, held until
 * sw_paths_probe_put(): the same for the same name while that name is in
 * use, or named by the current paths (a probe removed and added again
 * continues its paths).
 * @name: the probe's identity (FUNC or FUNC@TAG)
 *
 * Context: process context; may sleep.
 * Return: the id (1 or more), or -ENOMEM.
 */
int sw_paths_probe_id(const char *name)
{
	struct sw_path_name *pn = NULL;
	int ret = -ENOMEM;
	char *copy;
	u32 i;

	mutex_lock(&sw_paths_lock);
	for (i = 0; i < sw_path_nnames; i++) {
		if (!sw_path_names[i].name) {
			if (!pn)
				pn = &sw_path_names[i];
			continue;
		}
		if (!strcmp(sw_path_names[i].name, name)) {
			if (!sw_path_names[i].refs++)
				sw_path_retired--;
			ret = i + 1;
			goto out;
		}
	}
	if (!pn && sw_path_nnames == sw_path_names_cap) {
		u32 cap = max(2 * sw_path_names_cap, 64U);
		struct sw_path_name *n = krealloc_array(sw_path_names, cap,
							sizeof(*n), GFP_KERNEL);

		if (!n)
			goto out;
		sw_path_names = n;
		sw_path_names_cap = cap;
	}
	copy = kstrdup(name, GFP_KERNEL);
	if (!copy)
		goto out;
	if (!pn)
		pn = &sw_path_names[sw_path_nnames++];
	pn->name = copy;
	pn->refs = 1;
	sw_path_nlive++;
	ret = pn - sw_path_names + 1;
out:
	mutex_unlock(&sw_paths_lock);
	return ret;
}

/**
 * sw_paths_probe_put() - a probe no longer holds its name's id: the name
 * is retired when no probe holds it, and freed by a later sweep once no
 * path names it.
 * @id: from sw_paths_probe_id() (0 or less: nothing)
 *
 * Context: process context, no handler of the probe running any more (it
 * adds no node with @id from now on); may sleep.
 */
void sw_paths_probe_put(int id)
{
	struct sw_path_name *pn;

	if (id <= 0)
		return;
	mutex_lock(&sw_paths_lock);
	pn = &sw_path_names[id - 1];
	if (!WARN_ON_ONCE(!pn->name || !pn->refs) && !--pn->refs &&
	    ++sw_path_retired >= sw_path_sweep_at)
		sw_paths_sweep_locked();
	mutex_unlock(&sw_paths_lock);
}

/* ---- the switch and the file ---------------------------------------- */

/* Paths on: the first time, the first generation. Context: sw_paths_lock. */
static int sw_paths_enable(void)
{
	lockdep_assert_held(&sw_paths_lock);
	if (!rcu_access_pointer(sw_paths_gen)) {
		struct sw_paths_gen *g = sw_paths_gen_alloc(sw_pmu_set_locked());

		if (!g) {
			sw_error("paths: out of memory for %u nodes",
				 1U << sw_pathtab_bits(max_paths));
			return -ENOMEM;
		}
		rcu_assign_pointer(sw_paths_gen, g);
	}
	static_branch_enable(&sw_paths_key);
	return 0;
}

/* A fresh generation now. Context: sw_paths_lock held; drops it. */
static int sw_paths_reset_locked(void)
{
	struct sw_paths_gen *g, *old;

	lockdep_assert_held(&sw_paths_lock);
	if (!rcu_access_pointer(sw_paths_gen)) {
		mutex_unlock(&sw_paths_lock);
		return 0;
	}
	g = sw_paths_gen_alloc(sw_pmu_set_locked());
	if (!g) {
		mutex_unlock(&sw_paths_lock);
		sw_error("paths: reset: out of memory, nothing was reset");
		return -ENOMEM;
	}
	old = rcu_replace_pointer(sw_paths_gen, g, 1);
	/* The retired names' nodes went with the old generation. */
	sw_paths_sweep_locked();
	mutex_unlock(&sw_paths_lock);
	synchronize_rcu();
	sw_paths_gen_free(old);
	return 0;
}

static int sw_paths_apply(char *buf)
{
	char *cmd = strim(buf);
	int ret = 0;

	mutex_lock(&sw_paths_lock);
	if (!strcmp(cmd, "reset"))
		return sw_paths_reset_locked();
	if (!strcmp(cmd, "on") || !strcmp(cmd, "1")) {
		ret = sw_paths_enable();
	} else if (!strcmp(cmd, "off") || !strcmp(cmd, "0")) {
		static_branch_disable(&sw_paths_key);
	} else {
		sw_error("paths: write on, off or reset, not '%.32s'", cmd);
		ret = -EINVAL;
	}
	mutex_unlock(&sw_paths_lock);
	return ret;
}

/* One node's statistics, merged over the CPUs, into @sum. */
static void sw_paths_node_read(const struct sw_paths_gen *g, u32 node,
			       struct sw_path_stat *sum, struct sw_path_stat *snap)
{
	u32 i, nv = 3 * g->nev;
	int cpu;

	memset(sum, 0, g->stride);
	for_each_possible_cpu(cpu) {
		struct sw_path_stat *st = sw_path_stat_of(g, g->cpu[cpu], node);
		unsigned int seq;

		do {
			seq = read_seqcount_begin(&st->seq);
			memcpy(snap, st, g->stride);
		} while (read_seqcount_retry(&st->seq, seq));
		sum->calls += snap->calls;
		sum->total_ns += snap->total_ns;
		sum->self_ns += snap->self_ns;
		for (i = 0; i < nv; i++)
			sum->ev[i] += snap->ev[i];
	}
}

static int sw_paths_show(struct seq_file *m)
{
	u32 probes[SW_PATH_MAX_DEPTH];
	struct sw_path_stat *sum, *snap;
	u64 dropped[SW_PATHS_DROP_N] = {};
	struct sw_paths_gen *g;
	u32 slot, nodes = 0, i;
	int cpu, n, j, ret = 0;

	mutex_lock(&sw_paths_lock);
	g = rcu_dereference_protected(sw_paths_gen, 1);
	if (g) {
		for_each_possible_cpu(cpu)
			for (i = 0; i < SW_PATHS_DROP_N; i++)
				dropped[i] += READ_ONCE(g->cpu[cpu]->dropped[i]);
		for (slot = 0; slot < sw_pathtab_slots(&g->tab); slot++)
			nodes += !!READ_ONCE(g->tab.keys[slot]);
	}
	seq_printf(m, "paths_format 1\nenabled %d\nnodes %u\nmax_nodes %u\nprobe_names %u\n",
		   static_key_enabled(&sw_paths_key), nodes,
		   1U << sw_pathtab_bits(max_paths), sw_path_nlive);
	for (i = 0; i < SW_PATHS_DROP_N; i++)
		seq_printf(m, "%s %llu\n", sw_paths_drop_names[i], dropped[i]);
	seq_puts(m, "events");
	for (i = 0; g && i < g->nev; i++)
		seq_printf(m, " %s", g->names[i]);
	seq_puts(m, g && g->nev ? "\n" : " -\n");
	seq_puts(m, "path calls total_ns self_ns");
	for (i = 0; g && i < g->nev; i++)
		seq_printf(m, " %s_calls %s_total %s_self", g->names[i],
			   g->names[i], g->names[i]);
	seq_putc(m, '\n');
	if (!g)
		goto out;
	sum = kmalloc(g->stride, GFP_KERNEL);
	snap = kmalloc(g->stride, GFP_KERNEL);
	if (!sum || !snap) {
		ret = -ENOMEM;
		goto out_free;
	}
	for (slot = 0; slot < sw_pathtab_slots(&g->tab); slot++) {
		if (!READ_ONCE(g->tab.keys[slot]))
			continue;
		n = sw_pathtab_chain(&g->tab, slot + 1, probes,
				     ARRAY_SIZE(probes));
		if (n <= 0)
			continue;
		for (j = 0; j < n; j++) {
			u32 id = probes[j];

			if (j)
				seq_putc(m, ';');
			if (id >= 1 && id <= sw_path_nnames &&
			    sw_path_names[id - 1].name)
				seq_puts(m, sw_path_names[id - 1].name);
			else
				seq_printf(m, "probe#%u", id);
		}
		sw_paths_node_read(g, slot + 1, sum, snap);
		seq_printf(m, " %llu %llu %llu", sum->calls, sum->total_ns,
			   sum->self_ns);
		for (i = 0; i < 3 * g->nev; i++)
			seq_printf(m, " %llu", sum->ev[i]);
		seq_putc(m, '\n');
	}
out_free:
	kfree(sum);
	kfree(snap);
out:
	mutex_unlock(&sw_paths_lock);
	return ret;
}

static const struct sw_ctl_file sw_paths_ctl = {
	.show = sw_paths_show,
	.apply = sw_paths_apply,
};

/**
 * sw_paths_init() - check the parameters, add the paths file, and turn
 * paths on if the paths parameter says so.
 *
 * Context: process context (module init), after the pmu.
 * Return: 0 or a negative errno; nothing is left behind on failure.
 */
int sw_paths_init(void)
{
	int ret = 0;

	if (max_paths < 2 || max_paths > SW_MAX_PATHS_LIMIT) {
		sw_error("max_paths=%u is outside 2..%u", max_paths,
			 SW_MAX_PATHS_LIMIT);
		return -EINVAL;
	}
	if (paths) {
		mutex_lock(&sw_paths_lock);
		ret = sw_paths_enable();
		mutex_unlock(&sw_paths_lock);
		if (ret)
			return ret;
	}
	sw_paths_file = sw_debugfs_add_ctl("paths", 0600, NULL, &sw_paths_ctl);
	return 0;
}

/**
 * sw_paths_exit_module() - remove the paths file and free everything.
 *
 * Called once no handler can run any more (every probe is gone).
 *
 * Context: process context (module exit or failed init).
 */
void sw_paths_exit_module(void)
{
	u32 i;

	sw_debugfs_remove(&sw_paths_file);
	static_branch_disable(&sw_paths_key);
	sw_paths_gen_free(rcu_dereference_protected(sw_paths_gen, 1));
	RCU_INIT_POINTER(sw_paths_gen, NULL);
	for (i = 0; i < sw_path_nnames; i++)
		kfree(sw_path_names[i].name);
	kfree(sw_path_names);
	sw_path_names = NULL;
	sw_path_nnames = sw_path_names_cap = sw_path_nlive = 0;
	sw_path_retired = 0;
	sw_path_sweep_at = 16;
}
