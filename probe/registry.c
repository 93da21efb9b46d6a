// SPDX-License-Identifier: GPL-2.0
/*
 * registry.c - the probed functions.
 *
 * Every probed function gets its aggregations (agg/) and an attachment
 * (attach/); the registry keeps them in one list under one mutex, which
 * only control writes, the files' readers and the pmu's event changes
 * (through struct sw_pmu_client) take.  No handler ever does.
 *
 * Adding and removing probes is all-or-nothing: every new probe is
 * registered disabled first, and only when all of them registered are they
 * enabled and the removals carried out.  Reset and breakdown changes
 * allocate every new generation first and swap them in under RCU.
 */
#include <linux/ctype.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "control/control.h"
#include "stopwatch/abi.h"
#include "lib/parse.h"
#include "probe.h"

/* The kernel's own limit for a string module parameter (param_set_charp). */
#define SW_PARAM_STRING_MAX 1024

static char *probes;
static unsigned int max_probes = SW_MAX_PROBES_DEFAULT;
static char *breakdown = "none";

/*
 * A probes= longer than the kernel's string-parameter limit would fail
 * insmod with only "string parameter too long": say what to do instead.
 * Context: process context (module load).
 */
static int sw_param_set_probes(const char *val, const struct kernel_param *kp)
{
	size_t len = strlen(val);

	if (len > SW_PARAM_STRING_MAX) {
		pr_err(SW_NAME ": probes= is %zu characters, more than the kernel's %d-character limit for a module parameter; load without it and write the functions to /sys/kernel/debug/stopwatch/probes instead (any length up to 64 KiB per write)\n",
		       len, SW_PARAM_STRING_MAX);
		return -ENOSPC;
	}
	return param_set_charp(val, kp);
}

static const struct kernel_param_ops sw_probes_param_ops = {
	.set = sw_param_set_probes,
	.get = param_get_charp,
	.free = param_free_charp,
};
module_param_cb(probes, &sw_probes_param_ops, &probes, 0400);
MODULE_PARM_DESC(probes,
		 "Comma-separated kernel functions to time from load on, e.g. vfs_read,do_sys_openat2; at most 1024 characters (default: none; add more through debugfs)");
module_param(max_probes, uint, 0400);
MODULE_PARM_DESC(max_probes,
		 "Most functions probed at once, 1 to 65536 (default 4096); each costs memory only once probed");
module_param(breakdown, charp, 0400);
MODULE_PARM_DESC(breakdown,
		 "Break statistics down by none, pid, tgid, comm or cpu (default none); changeable in debugfs");

static DEFINE_MUTEX(sw_registry_lock);
static LIST_HEAD(sw_probes);
static unsigned int sw_nprobes;
static int sw_bd_mode = SW_BD_NONE;
static struct sw_file *sw_hist_dir;

/* Event statistics prepared for a new event set (sw_pmu_client). */
static struct sw_evgen **sw_evgen_next;
static int sw_evgen_n;
/* The call paths' generation an event change replaced, freed at done. */
static struct sw_paths_gen *sw_paths_old;

/* The current event set. Context: sw_registry_lock held. */
static const struct sw_evset *sw_set(void)
{
	lockdep_assert_held(&sw_registry_lock);
	return sw_pmu_set_locked();
}

/* What a probe's rows are keyed by: its own by=, or the global mode. */
static struct sw_by sw_probe_by(const struct sw_probe *p)
{
	struct sw_by by = { .k = { sw_bd_mode, SW_KEY_NONE } };

	lockdep_assert_held(&sw_registry_lock);
	return p->spec.by.own ? p->spec.by : by;
}

/* The spec handed to the attachment: NULL for a probe without any. */
static const struct sw_spec *sw_probe_spec(const struct sw_probe *p)
{
	return p->spec.f.flags || p->spec.by.own ? &p->spec : NULL;
}

static void sw_probe_free(struct sw_probe *p);

/*
 * A trampoline probe's release: no call is in flight in it any more.
 * Context: process context (removal, or the trampolines' drain worker).
 */
static void sw_probe_release(void *arg)
{
	sw_probe_free(arg);
}

static struct sw_probe *sw_probe_alloc(const struct sw_cmd *cmd)
{
	size_t len = strlen(cmd->name);
	size_t plen = cmd->upath ? strlen(cmd->upath) + 1 : 0;
	struct sw_probe *p;
	int id;

	/* The identity, the function's name after its NUL, the file's path. */
	p = kzalloc(struct_size(p, name, 2 * (len + 1) + plen), GFP_KERNEL);
	if (!p)
		return NULL;
	strcpy(p->name, cmd->name);
	p->func = p->name + len + 1;
	memcpy(p->func, cmd->name, cmd->func_len);
	if (cmd->upath) {
		p->upath = p->func + len + 1;
		memcpy(p->upath, cmd->upath, plen);
		p->uoffset = cmd->uoffset;
	}
	p->spec.f = cmd->filter;
	p->spec.by = cmd->by;
	id = sw_paths_probe_id(p->name);
	if (cmd->trace && id > SW_TRACE_ID_MAX) {
		/* no 16-bit record id left for it */
		sw_paths_probe_put(id);
		kfree(p);
		return NULL;
	}
	if (id < 0 || sw_aggs_alloc(&p->aggs, sw_probe_by(p), sw_set())) {
		sw_paths_probe_put(id);
		kfree(p);
		return NULL;
	}
	p->aggs.path_id = id;
	p->aggs.trace = cmd->trace;
	if (p->upath)
		sw_uprobe_init(&p->up, p->func, p->upath, p->uoffset, &p->aggs,
			       sw_probe_spec(p));
	else
		sw_kretprobe_init(&p->kp, p->func, &p->aggs, sw_probe_spec(p));
	p->attach = cmd->attach;
	p->nargs = cmd->has_args ? cmd->nargs : -1;
	return p;
}

/*
 * Attaches a kernel function.  The kretprobe is registered first in every
 * case: it checks the function (exists, may be probed, not stopwatch's
 * own) with the usual messages, and resolves the address a trampoline is
 * installed at (the same function the kretprobe would time, even where
 * several static functions share its name).  A trampoline then replaces
 * it when the probe's attach= (or else the module's) asks for one:
 * attach=trampoline makes a refusal an error, attach=auto a fallback to
 * the kretprobe, kept and said in the stats column attach_err, and in the
 * kernel log when the probe's own attach= asked (under the module's
 * default, auto, every probe written without args= would say it).  A
 * kretprobe replaced is left registered, disabled (@p->kp_left), for
 * sw_drop_kp_left() to unregister with the others of the line: one RCU
 * grace period for all of them instead of one each.
 */
static int sw_attach_kernel(struct sw_probe *p)
{
	int want = p->attach ? p->attach : sw_attach_param();
	struct sw_kretprobe *k = &p->kp;
	int ret;

	ret = sw_kretprobe_register(k);
	if (ret || want == SW_ATTACH_KRETPROBE)
		return ret;
	sw_tramp_init(&p->tp, p->func, &p->aggs, sw_probe_spec(p),
		      sw_probe_release, p);
	ret = sw_tramp_register(&p->tp, &k->krp.kp, p->nargs);
	if (!ret) {
		p->tramp = true;
		p->kp_left = true;
		return 0;
	}
	if (want == SW_ATTACH_TRAMPOLINE) {
		sw_error("probe '%s': no trampoline: %s (%d)", p->name,
			 sw_tramp_why(&p->tp, ret), ret);
		sw_kretprobe_unregister(&k, 1);
		return ret;
	}
	p->attach_err = -ret;
	if (p->attach)
		pr_info(SW_NAME ": probe '%s': kretprobe instead of a trampoline: %s (%d)\n",
			p->name, sw_tramp_why(&p->tp, ret), ret);
	return 0;
}

/*
 * Unregisters the kretprobes left behind by the trampolines of @ps (its
 * first @n), in one batch.
 */
static void sw_drop_kp_left(struct sw_probe **ps, int n)
{
	struct sw_kretprobe **ks, *k;
	int i, nk = 0;

	ks = kmalloc_array(max(n, 1), sizeof(*ks), GFP_KERNEL);
	for (i = 0; i < n; i++) {
		if (!ps[i]->kp_left)
			continue;
		ps[i]->kp_left = false;
		k = &ps[i]->kp;
		if (ks)
			ks[nk++] = k;
		else
			sw_kretprobe_unregister(&k, 1);
	}
	if (ks)
		sw_kretprobe_unregister(ks, nk);
	kfree(ks);
}

/* Registers a probe's attachment disabled; says why not with sw_error(). */
static int sw_attach_register(struct sw_probe *p)
{
	if (p->upath)
		return sw_uprobe_register(&p->up);
	return sw_attach_kernel(p);
}

static int sw_attach_enable(struct sw_probe *p)
{
	if (p->tramp) {
		sw_tramp_enable(&p->tp);
		return 0;
	}
	if (!p->upath)
		return sw_kretprobe_enable(&p->kp);
	sw_uprobe_enable(&p->up);
	return 0;
}

/* Frees a probe that is not registered (or no longer is). */
static void sw_probe_free(struct sw_probe *p)
{
	sw_paths_probe_put(p->aggs.path_id);
	sw_aggs_free(&p->aggs);
	kfree(p);
}

/*
 * Frees a probe after sw_unregister_batch(), which set a trampoline
 * probe's slot to NULL: its release frees it once no call is in flight.
 */
static void sw_probe_put(struct sw_probe *p)
{
	if (p)
		sw_probe_free(p);
}

static struct sw_probe *sw_probe_find(const char *name)
{
	struct sw_probe *p;

	lockdep_assert_held(&sw_registry_lock);
	list_for_each_entry(p, &sw_probes, list)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}

static int sw_hist_add(struct sw_probe *p)
{
	struct sw_file *d;

	d = sw_debugfs_add_show(p->name, sw_hist_dir, sw_hist_show, p);
	if (IS_ERR(d)) {
		sw_error("probe '%s': cannot create hist file (%ld)", p->name,
			 PTR_ERR(d));
		return PTR_ERR(d);
	}
	p->hist = d;
	return 0;
}

/*
 * Unregisters probes in one batch: one RCU grace period for all kernel
 * functions, one wait for the handlers of all user functions.  A
 * trampoline probe passes to the trampolines (its release frees it, maybe
 * at once): its slot in @ps becomes NULL.  A kretprobe a trampoline left
 * (an addition undone) goes first.
 */
static void sw_unregister_batch(struct sw_probe **ps, int n)
{
	struct sw_kretprobe **ks;
	struct sw_uprobe **us;
	struct sw_tramp **ts;
	int i, nk = 0, nu = 0, nt = 0;

	if (!n)
		return;
	sw_drop_kp_left(ps, n);
	ks = kmalloc_array(n, sizeof(*ks), GFP_KERNEL);
	us = kmalloc_array(n, sizeof(*us), GFP_KERNEL);
	ts = kmalloc_array(n, sizeof(*ts), GFP_KERNEL);
	if (ks && us && ts) {
		for (i = 0; i < n; i++) {
			if (ps[i]->upath) {
				us[nu++] = &ps[i]->up;
			} else if (ps[i]->tramp) {
				ts[nt++] = &ps[i]->tp;
				ps[i] = NULL;
			} else {
				ks[nk++] = &ps[i]->kp;
			}
		}
		sw_kretprobe_unregister(ks, nk);
		if (nu)
			sw_uprobe_unregister(us, nu);
		if (nt)
			sw_tramp_unregister(ts, nt);
		goto out_free;
	}
	for (i = 0; i < n; i++) {
		struct sw_kretprobe *k = &ps[i]->kp;
		struct sw_uprobe *u = &ps[i]->up;
		struct sw_tramp *t = &ps[i]->tp;

		if (ps[i]->upath) {
			sw_uprobe_unregister(&u, 1);
		} else if (ps[i]->tramp) {
			ps[i] = NULL;
			sw_tramp_unregister(&t, 1);
		} else {
			sw_kretprobe_unregister(&k, 1);
		}
	}
out_free:
	kfree(ts);
	kfree(us);
	kfree(ks);
}

/* Checks a parsed control line against the registry; fills @del. */
static int sw_probes_check(struct sw_cmd *cmds, int ncmd,
			   struct sw_probe **del, int *ndel, int *nadd)
{
	int i;

	*ndel = 0;
	*nadd = 0;
	for (i = 0; i < ncmd; i++) {
		struct sw_probe *p = sw_probe_find(cmds[i].name);

		if (cmds[i].op == SW_CMD_ADD && p) {
			sw_error("probe '%s': already probed", cmds[i].name);
			return -EEXIST;
		}
		if (cmds[i].op == SW_CMD_REMOVE && !p) {
			sw_error("probe '%s': not probed, nothing to remove",
				 cmds[i].name);
			return -ENOENT;
		}
		if (cmds[i].op == SW_CMD_REMOVE)
			del[(*ndel)++] = p;
		else
			(*nadd)++;
	}
	if (sw_nprobes + *nadd - *ndel > max_probes) {
		sw_error("%u probes requested: needs max_probes=%u; this load has %u",
			 sw_nprobes + *nadd - *ndel,
			 sw_nprobes + *nadd - *ndel, max_probes);
		return -E2BIG;
	}
	return 0;
}

/*
 * Room for every command @line can hold, at most @most: one more than its
 * separators (white space, commas), without sizing each write by
 * max_probes.  Context: process context.
 */
static int sw_cmds_room(const char *line, int most)
{
	int n = 1;

	for (; *line && n < most; line++)
		if (isspace(*line) || *line == ',')
			n++;
	return n;
}

/**
 * sw_probes_apply() - add and remove probes, all or nothing.
 * @line: control line ("+name -name name ..."); modified in place
 *
 * On any error nothing changes and sw_error() says what was wrong.
 *
 * Context: process context; takes the registry's lock.
 * Return: 0, or -EINVAL (malformed or unprobeable name), -ENOENT (unknown
 * function, or removing one that is not probed), -EEXIST (already probed
 * or named twice), -E2BIG (name too long, too many probes), -ENOMEM.
 */
int sw_probes_apply(char *line)
{
	struct sw_probe **add = NULL, **del = NULL;
	int ncmd, nadd = 0, ndel = 0, nreg = 0, i, ret;
	int max_cmds = sw_cmds_room(line, 2 * max_probes);
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
		char msg[160];

		sw_parse_err_str(&perr, msg, sizeof(msg));
		sw_error("%s", msg);
		ret = ncmd;
		goto out_free;
	}
	for (i = 0; i < ncmd; i++) {
		if (cmds[i].by.k[0] != SW_KEY_SPAN &&
		    cmds[i].by.k[1] != SW_KEY_SPAN)
			continue;
		sw_error("probe '%s': by=key is a span's pairing key; a probe's by= takes pid tgid comm cpu caller arg0..arg5 retval",
			 cmds[i].name);
		ret = -EINVAL;
		goto out_free;
	}

	mutex_lock(&sw_registry_lock);
	ret = sw_probes_check(cmds, ncmd, del, &ndel, &nadd);
	if (ret)
		goto out_unlock;

	/* Register every addition disabled; any failure undoes them all. */
	nadd = 0;
	for (i = 0; i < ncmd; i++) {
		struct sw_probe *p;

		if (cmds[i].op != SW_CMD_ADD)
			continue;
		p = sw_probe_alloc(&cmds[i]);
		if (!p) {
			sw_error("probe '%s': out of memory", cmds[i].name);
			ret = -ENOMEM;
			goto out_undo;
		}
		add[nadd++] = p;
		ret = sw_attach_register(p);
		if (ret)
			goto out_undo;
		nreg++;
		ret = sw_hist_add(p);
		if (ret)
			goto out_undo;
	}
	sw_drop_kp_left(add, nreg);
	for (i = 0; i < nadd; i++) {
		ret = sw_attach_enable(add[i]);
		if (ret)
			goto out_undo;
	}

	/* From here on nothing can fail. */
	for (i = 0; i < nadd; i++) {
		list_add_tail(&add[i]->list, &sw_probes);
		sw_nprobes++;
	}
	for (i = 0; i < ndel; i++) {
		list_del(&del[i]->list);
		sw_nprobes--;
		sw_debugfs_remove(&del[i]->hist);
	}
	sw_unregister_batch(del, ndel);
	mutex_unlock(&sw_registry_lock);
	for (i = 0; i < ndel; i++)
		sw_probe_put(del[i]);
	ret = 0;
	goto out_free;

out_undo:
	for (i = 0; i < nadd; i++)
		sw_debugfs_remove(&add[i]->hist);
	sw_unregister_batch(add, nreg);
	for (i = 0; i < nadd; i++)
		sw_probe_put(add[i]);
out_unlock:
	mutex_unlock(&sw_registry_lock);
out_free:
	kvfree(del);
	kvfree(add);
	kvfree(cmds);
	return ret;
}

/*
 * Unregisters and frees every probe.  Calls in flight are safe (see
 * sw_kretprobe_unregister()).
 * Context: process context (module exit).
 */
static void sw_probes_remove_all(void)
{
	struct sw_probe **del, *p, *tmp;
	int n = 0;

	mutex_lock(&sw_registry_lock);
	del = kvcalloc(max_t(unsigned int, sw_nprobes, 1), sizeof(*del),
		       GFP_KERNEL);
	list_for_each_entry_safe(p, tmp, &sw_probes, list) {
		list_del(&p->list);
		sw_debugfs_remove(&p->hist);
		if (del) {
			del[n++] = p;
		} else {
			sw_unregister_batch(&p, 1);
			sw_probe_put(p);
		}
	}
	sw_unregister_batch(del, n);
	sw_nprobes = 0;
	mutex_unlock(&sw_registry_lock);
	while (n--)
		sw_probe_put(del[n]);
	kvfree(del);
	/* The trampolines' companion module: no half of ours runs any more. */
	sw_tramp_exit_module();
}

/**
 * sw_reset_all() - zero every probe's statistics, breakdown, cost
 * accumulators and missed counts, and the overhead file's figures.
 *
 * New generations are allocated first; if any allocation fails nothing is
 * reset.
 *
 * Context: process context; takes the registry's lock.
 * Return: 0 or -ENOMEM.
 */
int sw_reset_all(void)
{
	struct sw_paths_gen *old_paths;
	struct sw_aggs *na;
	struct sw_probe *p;
	int i, n, ret = -ENOMEM;

	mutex_lock(&sw_registry_lock);
	n = sw_nprobes;
	na = kvcalloc(max(n, 1), sizeof(*na), GFP_KERNEL);
	if (!na)
		goto out;
	i = 0;
	list_for_each_entry(p, &sw_probes, list) {
		if (sw_aggs_alloc(&na[i], sw_probe_by(p), sw_set()))
			goto out;
		i++;
	}
	/* The call paths too: from here on nothing can fail. */
	if (sw_paths_prepare(sw_set()))
		goto out;
	old_paths = sw_paths_commit();
	i = 0;
	list_for_each_entry(p, &sw_probes, list) {
		na[i].gen = rcu_replace_pointer(p->aggs.gen, na[i].gen, 1);
		na[i].bd = rcu_replace_pointer(p->aggs.bd, na[i].bd, 1);
		na[i].evs = rcu_replace_pointer(p->aggs.evs, na[i].evs, 1);
		na[i].cost = rcu_replace_pointer(p->aggs.cost, na[i].cost, 1);
		if (p->tramp)
			sw_tramp_reset_missed(&p->tp);
		else if (!p->upath)
			sw_kretprobe_reset_missed(&p->kp);
		i++;
	}
	sw_cost_reset();
	synchronize_rcu();
	sw_paths_done(old_paths);
	ret = 0;
out:
	mutex_unlock(&sw_registry_lock);
	for (i = 0; na && i < n; i++)
		sw_aggs_free(&na[i]);
	kvfree(na);
	if (ret)
		sw_error("reset: out of memory, nothing was reset");
	return ret;
}

/**
 * sw_breakdown_set() - change what statistics are broken down by.
 * @mode: SW_BD_*; SW_BD_NONE turns breakdown off
 *
 * Every probe without a by= of its own gets fresh, empty tables keyed the
 * new way (all allocated before any is swapped in); the overall statistics
 * and the rows of probes with their own by= are untouched.
 *
 * Context: process context; takes the registry's lock.
 * Return: 0 or -ENOMEM.
 */
int sw_breakdown_set(int mode)
{
	struct sw_bdgen **nb;
	struct sw_probe *p;
	int i, n, ret = -ENOMEM;

	mutex_lock(&sw_registry_lock);
	n = sw_nprobes;
	nb = kvcalloc(max(n, 1), sizeof(*nb), GFP_KERNEL);
	if (!nb)
		goto out;
	i = 0;
	list_for_each_entry(p, &sw_probes, list) {
		struct sw_by by = { .k = { mode, SW_KEY_NONE } };

		if (mode != SW_BD_NONE && !p->spec.by.own) {
			nb[i] = sw_bdgen_alloc(by, sw_set());
			if (!nb[i])
				goto out;
		}
		i++;
	}
	i = 0;
	list_for_each_entry(p, &sw_probes, list) {
		if (!p->spec.by.own)
			nb[i] = rcu_replace_pointer(p->aggs.bd, nb[i],
					lockdep_is_held(&sw_registry_lock));
		i++;
	}
	WRITE_ONCE(sw_bd_mode, mode);
	synchronize_rcu();
	ret = 0;
out:
	mutex_unlock(&sw_registry_lock);
	for (i = 0; nb && i < n; i++)
		sw_bdgen_free(nb[i]);
	kvfree(nb);
	if (ret)
		sw_error("breakdown: out of memory, mode unchanged");
	return ret;
}

/**
 * sw_breakdown_mode() - the current breakdown mode (SW_BD_*).
 *
 * Context: any.
 */
int sw_breakdown_mode(void)
{
	return READ_ONCE(sw_bd_mode);
}

/**
 * sw_registry_for_each() - visit every probe under the registry's lock.
 * @fn:    called per probe in the order they were added; a nonzero return
 *         stops the walk and is returned
 * @arg:   passed to @fn and @first
 * @first: called once before the probes, under the lock (may be NULL):
 *         for what must agree with them, such as the current event set
 *
 * Context: process context; takes the registry's lock.
 * Return: 0 or what @fn returned.
 */
int sw_registry_for_each(int (*fn)(struct sw_probe *p, void *arg),
			 void *arg, void (*first)(void *arg))
{
	struct sw_probe *p;
	int ret = 0;

	mutex_lock(&sw_registry_lock);
	if (first)
		first(arg);
	list_for_each_entry(p, &sw_probes, list) {
		ret = fn(p, arg);
		if (ret)
			break;
	}
	mutex_unlock(&sw_registry_lock);
	return ret;
}

/* ---- the pmu's client: event statistics follow the event set -------- */

static void sw_evgen_array_free(struct sw_evgen **gens, int n)
{
	int i;

	for (i = 0; gens && i < n; i++)
		sw_evgen_free(gens[i]);
	kvfree(gens);
}

/* Fresh event statistics for every probe; returns holding the lock. */
static int sw_client_prepare(const struct sw_evset *set)
	__acquires(&sw_registry_lock)
{
	int i, n;

	mutex_lock(&sw_registry_lock);
	n = sw_nprobes;
	sw_evgen_next = kvcalloc(max(n, 1), sizeof(*sw_evgen_next), GFP_KERNEL);
	if (!sw_evgen_next)
		goto out_nomem;
	for (i = 0; set && i < n; i++) {
		sw_evgen_next[i] = sw_evgen_alloc(set);
		if (!sw_evgen_next[i]) {
			sw_evgen_array_free(sw_evgen_next, i);
			goto out_nomem;
		}
	}
	sw_evgen_n = n;
	/* The call paths' event columns follow the set as well. */
	if (sw_paths_prepare(set)) {
		sw_evgen_array_free(sw_evgen_next, n);
		goto out_nomem;
	}
	return 0;

out_nomem:
	sw_evgen_next = NULL;
	mutex_unlock(&sw_registry_lock);
	return -ENOMEM;
}

/* Swaps them in; keeps the replaced ones for sw_client_done(). */
static void sw_client_commit(void) __releases(&sw_registry_lock)
{
	struct sw_probe *p;
	int i = 0;

	list_for_each_entry(p, &sw_probes, list) {
		sw_evgen_next[i] = rcu_replace_pointer(p->aggs.evs,
						       sw_evgen_next[i], 1);
		i++;
	}
	sw_paths_old = sw_paths_commit();
	mutex_unlock(&sw_registry_lock);
}

static void sw_client_abort(void) __releases(&sw_registry_lock)
{
	sw_paths_abort();
	sw_evgen_array_free(sw_evgen_next, sw_evgen_n);
	sw_evgen_next = NULL;
	mutex_unlock(&sw_registry_lock);
}

/*
 * After commit and a grace period.  Calls under sw_pmu_mutex serialize
 * prepare..done, so sw_evgen_next is not reused before this.
 */
static void sw_client_done(void)
{
	sw_paths_done(sw_paths_old);
	sw_paths_old = NULL;
	sw_evgen_array_free(sw_evgen_next, sw_evgen_n);
	sw_evgen_next = NULL;
}

const struct sw_pmu_client sw_registry_pmu_client = {
	.prepare = sw_client_prepare,
	.commit = sw_client_commit,
	.abort = sw_client_abort,
	.done = sw_client_done,
};

/**
 * sw_registry_init() - check the parameters, make the hist directory and
 * add the probes of the probes parameter.
 *
 * Context: process context (module init), after the pmu and the core.
 * Return: 0 or a negative errno; nothing is left behind on failure.
 */
int sw_registry_init(void)
{
	char *buf;
	int mode, ret;

	if (max_probes < 1 || max_probes > SW_MAX_PROBES_LIMIT) {
		sw_error("max_probes=%u is outside 1..%d", max_probes,
			 SW_MAX_PROBES_LIMIT);
		return -EINVAL;
	}
	mode = sw_parse_breakdown(breakdown ? breakdown : "none");
	if (mode < 0) {
		sw_error("breakdown=%s is not one of none pid tgid comm cpu",
			 breakdown);
		return -EINVAL;
	}
	sw_bd_mode = mode;
	ret = sw_bd_check_params();
	if (!ret)
		ret = sw_kretprobe_check_params();
	if (!ret)
		ret = sw_tramp_check_params();
	if (ret)
		return ret;
	ret = sw_tramp_init_module();
	if (ret)
		return ret;
	sw_hist_dir = sw_debugfs_add_dir(SW_DIR_HIST, NULL);
	if (IS_ERR(sw_hist_dir)) {
		ret = PTR_ERR(sw_hist_dir);
		sw_hist_dir = NULL;
		goto out_tramp_exit;
	}
	if (probes && *probes) {
		buf = kstrdup(probes, GFP_KERNEL);
		ret = buf ? sw_probes_apply(buf) : -ENOMEM;
		kfree(buf);
		if (ret)
			goto out_remove_hist;
	}
	pr_info(SW_NAME ": loaded, %u probes, maxactive %d\n", sw_nprobes,
		sw_maxactive());
	return 0;

out_remove_hist:
	sw_debugfs_remove(&sw_hist_dir);
out_tramp_exit:
	/* The companion too, if an addition undone above had found it. */
	sw_tramp_exit_module();
	return ret;
}

/**
 * sw_registry_exit() - remove every probe and the hist directory.
 *
 * Context: process context (module exit or failed init), after the files
 * that write to the registry are gone.
 */
void sw_registry_exit(void)
{
	sw_probes_remove_all();
	sw_debugfs_remove(&sw_hist_dir);
}
