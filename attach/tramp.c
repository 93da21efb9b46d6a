// SPDX-License-Identifier: GPL-2.0
/*
 * tramp.c - attaching through a direct-call trampoline of the module's own.
 *
 * ftrace's direct-call API puts a call to one of the stubs at the
 * function's ftrace site.  The stubs are the companion module's,
 * stopwatch_tramp.ko (tramp/): their common body keeps the call's struct
 * sw_call in its stack frame, runs the entry half (sw_tramp_enter(),
 * tramp_run.c, through the ops this file attaches), calls the function's
 * body, runs the exit half (sw_tramp_exit()) and returns to the caller:
 * no kprobe, no instance pool, so no call is missed for want of
 * maxactive.
 *
 * What may use one: a function whose arguments are all in registers (six
 * at most on x86_64, eight on arm64; the trampoline's frame sits between
 * the caller's stack arguments and the body).  The count is the probe
 * option args=N (the stopwatch program writes it from BTF); without it
 * the module never uses a trampoline (the function might take stack
 * arguments).  The trampoline keeps those N registers across the entry
 * half and no others, so a count too small, or a variadic function, would
 * run the body with arguments the half overwrote.  Where the kernel's BTF
 * describes the function, registration checks args= against it
 * (tramp_btf.c): a variadic function, or another count, is refused with
 * -EINVAL, the reason in the probe's why.  Where BTF does not describe it
 * (a module built without BTF, a compiler's clone such as foo.isra.0, a
 * kernel without BTF), args= remains the user's word: a wrong count there
 * corrupts the function's arguments.  A function another direct caller
 * holds (a BPF fentry or fexit program) cannot have a second one:
 * registration says -EBUSY.
 *
 * Calls in flight: the body returns into the trampoline, and a thread may
 * sleep in a trampolined function for a long time, or for good (schedule()
 * of an idle kworker).  That is why the trampolines' text is another
 * module's, one that is never unloaded (tramp/abi.h): this module and its
 * probes can go at any time.  Each probe has a number (seq) that the
 * entry half leaves in the call's frame; the exit half folds the call
 * only if the stub still holds the probe of that number, and the
 * companion calls it only if the frame's generation is that of the ops
 * now attached.  So a call that returns after its probe was removed, or
 * after this module was unloaded (and maybe loaded again), goes straight
 * back to its caller; a call that was in flight with events counted left
 * its entry on the pending stack, counted there as orphaned or abandoned.
 * Removal uninstalls the direct calls, waits for an RCU-tasks grace
 * period (no task is still between an ftrace site and its stub, so a stub
 * taken again serves only its new function), empties the stubs, waits for
 * an RCU grace period (no half still uses the probe: the companion runs
 * them with preemption disabled) and calls the owner's release.  The
 * companion is found at the first trampoline (symbol_get(), loaded with
 * request_module() if need be) and let go at module exit, or when the
 * module's init fails after it was found.
 *
 * Modules: a trampoline on a module's function must not outlive its
 * text.  A module notifier, run after kprobes' own (whose kprobe on the
 * function is then marked gone), removes the direct calls into a module
 * that goes (into its init text when that is freed) while ftrace still
 * has the module's records, and marks the probes detached: they stay,
 * count nothing more, and say so (the stats column detached).  A
 * registration checks, under the same lock, that the kprobe which found
 * the function is not gone, so none lands on a module past its notifier.
 * When ftrace refuses to let a direct call go, the probe is never freed:
 * ftrace holds its ftrace_ops, and its stub stays reserved (logged).
 *
 * The companion's own text (its stubs above all) is never probed: its
 * sw_tramp_owns() says what is its, for every attach path
 * (sw_kprobe_result()).
 *
 * The default (the attach parameter) is auto: a trampoline for every
 * function given its argument count (the stopwatch program gives it from
 * BTF) that can have one, the kretprobe otherwise, said in stats.
 *
 * Reentry: the core keeps one writer per CPU's statistics.  A handler
 * half runs with preemption disabled and a per-CPU guard; a trampolined
 * call from an interrupt or NMI that arrives while a half runs on its CPU
 * passes straight through its function unmeasured, counted in the
 * probe's miss_reentry.
 */
#include <linux/kmod.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "control/control.h"
#include "lib/attachtab.h"
#include "lib/params.h"
#include "wrapper/ftrace.h"
#include "attach.h"
#include "tramp.h"
#include "tramp_btf.h"

static char *attach = SW_ATTACH_PARAM_DEFAULT;
module_param(attach, charp, 0400);
MODULE_PARM_DESC(attach,
		 "How kernel functions are attached unless a probe's attach= says: auto (a trampoline where the function allows, else kretprobe, said in stats), kretprobe, or trampoline (a trampoline or an error); default " SW_ATTACH_PARAM_DEFAULT);

static int sw_attach_mode = SW_ATTACH_AUTO;

/**
 * sw_attach_param() - the attach= parameter (SW_ATTACH_*).
 *
 * Context: any.
 */
int sw_attach_param(void)
{
	return sw_attach_mode;
}

/**
 * sw_tramp_check_params() - parse the attach parameter.
 *
 * Context: process context (module init).
 * Return: 0 or -EINVAL, said with sw_error().
 */
int sw_tramp_check_params(void)
{
	if (!attach || !strcmp(attach, "auto"))
		sw_attach_mode = SW_ATTACH_AUTO;
	else if (!strcmp(attach, "kretprobe"))
		sw_attach_mode = SW_ATTACH_KRETPROBE;
	else if (!strcmp(attach, "trampoline"))
		sw_attach_mode = SW_ATTACH_TRAMPOLINE;
	else {
		sw_error("attach=%s is not one of kretprobe auto trampoline",
			 attach);
		return -EINVAL;
	}
	return 0;
}

/**
 * sw_tramp_why() - what an error of sw_tramp_register() means.
 * @t:   the probe it refused
 * @err: a negative errno
 *
 * Context: any.
 */
const char *sw_tramp_why(const struct sw_tramp *t, int err)
{
	if (t->why[0])
		return t->why;
	return sw_attach_why(err)->text;
}

/**
 * sw_tramp_init() - fill in a trampoline probe, not registered yet.
 * @t:       the probe
 * @symbol:  kernel function; must outlive @t
 * @aggs:    where its calls are folded; must live until @release
 * @spec:    its filters and keys (NULL: none); likewise
 * @release: called once it is unregistered and no call is in flight
 * @arg:     for @release
 */
void sw_tramp_init(struct sw_tramp *t, const char *symbol,
		   struct sw_aggs *aggs, const struct sw_spec *spec,
		   void (*release)(void *arg), void *arg)
{
	memset(t, 0, sizeof(*t));
	t->target.aggs = aggs;
	t->target.spec = spec;
	t->name = symbol;
	t->release = release;
	t->arg = arg;
	t->idx = -1;
	t->caller = spec && (spec->by.k[0] == SW_KEY_CALLER ||
			     spec->by.k[1] == SW_KEY_CALLER);
}

/**
 * sw_tramp_detached() - whether @t's function went with its module.
 * @t: the probe
 *
 * Context: any (a racy read: the stats file).
 */
bool sw_tramp_detached(const struct sw_tramp *t)
{
	return READ_ONCE(t->detached);
}

/**
 * sw_tramp_companion_owns() - whether @addr is the companion's
 * (stopwatch_tramp.ko's text: its stubs and their common body), which no
 * attach path may probe: a kretprobe there would take over the address
 * the stubs return through.
 * @addr: a probed address
 *
 * Context: process context.
 * Return: true when the companion is loaded and @addr is in it.
 */
bool sw_tramp_companion_owns(unsigned long addr)
{
	bool (*owns)(unsigned long addr) = symbol_get(sw_tramp_owns);
	bool ret;

	if (!owns)
		return false;
	ret = owns(addr);
	symbol_put(sw_tramp_owns);
	return ret;
}

#ifdef SW_HAVE_TRAMP

/*
 * The slots, the companion's ops, the probes' numbers, their registered
 * and detached states.  Never held across request_module(): a module
 * that fails to load runs the module notifier, which takes it.
 */
static DEFINE_MUTEX(sw_tramp_lock);
static u32 sw_tramp_seq;
/* Direct calls removed because their module went; probes ftrace kept. */
static unsigned int sw_tramp_ndetached;
static unsigned int sw_tramp_nleaked;
static bool sw_tramp_nb_on;

/*
 * The companion's exports, from symbol_get() (a reference on it, which it
 * never gives up anyway); NULL while not attached.
 */
static int (*sw_tramp_attach_fn)(struct sw_tramp_ops *ops);
static void (*sw_tramp_detach_fn)(struct sw_tramp_ops *ops);

static struct sw_tramp_ops sw_tramp_ops = {
	.abi = SW_TRAMP_ABI,
	.enter = sw_tramp_enter,
	.exit = sw_tramp_exit,
};

/*
 * Finds the companion and attaches our halves to its trampolines, once
 * (sw_tramp_register() has loaded it if it could).
 * Context: process context, under sw_tramp_lock.
 * Return: 0, -ENOPKG (not loaded and cannot be), -EPROTO (of another
 * version) or -EBUSY.
 */
static int sw_tramp_companion(void)
{
	int (*attach_fn)(struct sw_tramp_ops *ops);
	void (*detach_fn)(struct sw_tramp_ops *ops);
	int ret;

	lockdep_assert_held(&sw_tramp_lock);
	if (sw_tramp_attach_fn)
		return 0;
	attach_fn = symbol_get(sw_tramp_attach);
	if (!attach_fn)
		return -ENOPKG;
	detach_fn = symbol_get(sw_tramp_detach);
	if (!detach_fn) {
		symbol_put(sw_tramp_attach);
		return -ENOPKG;
	}
	ret = attach_fn(&sw_tramp_ops);
	if (ret) {
		symbol_put(sw_tramp_detach);
		symbol_put(sw_tramp_attach);
		return ret;
	}
	sw_tramp_attach_fn = attach_fn;
	sw_tramp_detach_fn = detach_fn;
	return 0;
}

/*
 * Loads the companion if it is not loaded (sw_tramp_companion() then
 * finds it).  Not under sw_tramp_lock: a module that fails to load runs
 * the module notifier, which takes it.
 * Context: process context; request_module() sleeps.
 */
static void sw_tramp_load_companion(void)
{
	if (READ_ONCE(sw_tramp_attach_fn))
		return;
	if (symbol_get(sw_tramp_attach)) {
		symbol_put(sw_tramp_attach);
		return;
	}
	request_module("stopwatch_tramp");
}

static unsigned long sw_tramp_addr(int idx)
{
	return sw_tramp_ops.stubs + idx * SW_TRAMP_STUB_SIZE;
}

/*
 * Removes @t's direct call.  When ftrace refuses, it still holds @t's
 * ftrace_ops (and its filter): @t is then never released and keeps its
 * stub, said in the log (rate-limited) with the count of such probes.
 * Context: process context, under sw_tramp_lock.
 * Return: true when the direct call is gone.
 */
static bool sw_tramp_direct_off(struct sw_tramp *t)
{
	int ret;

	lockdep_assert_held(&sw_tramp_lock);
	ret = sw_ftrace_direct_unregister(&t->ops, sw_tramp_addr(t->idx));
	if (!ret) {
		t->registered = false;
		return true;
	}
	sw_tramp_nleaked++;
	pr_warn_ratelimited(SW_NAME ": %s: ftrace did not give back its direct call (%d): the probe stays allocated and stub %d reserved (%u such probes)\n",
			    t->name, ret, t->idx, sw_tramp_nleaked);
	return false;
}

/*
 * A module goes (or its init text is freed, MODULE_STATE_LIVE): remove
 * the direct calls into it while ftrace still has its records, before
 * its text is freed.  Run after kprobes' notifier (a lower priority), so
 * that a registration after this one finds its kprobe gone.
 * Context: process context, the module notifier chain's (no module
 * lock held).
 */
static int sw_tramp_module_cb(struct notifier_block *nb, unsigned long val,
			      void *data)
{
	struct module *mod = data;
	int i, n = 0;

	if (val != MODULE_STATE_GOING && val != MODULE_STATE_LIVE)
		return NOTIFY_DONE;
	mutex_lock(&sw_tramp_lock);
	for (i = 0; i < SW_TRAMP_SLOTS; i++) {
		struct sw_tramp *t = sw_tramp_slot[i];

		if (!t || !t->registered)
			continue;
		if (val == MODULE_STATE_GOING ? !within_module(t->addr, mod) :
		    !within_module_init(t->addr, mod))
			continue;
		WRITE_ONCE(t->armed, false);
		WRITE_ONCE(t->detached, true);
		if (sw_tramp_direct_off(t))
			n++;
	}
	sw_tramp_ndetached += n;
	mutex_unlock(&sw_tramp_lock);
	if (n)
		pr_info(SW_NAME ": module %s %s: %d trampoline%s detached (%u in all)\n",
			mod->name, val == MODULE_STATE_GOING ? "going" : "init freed",
			n, n == 1 ? "" : "s", sw_tramp_ndetached);
	return NOTIFY_DONE;
}

static struct notifier_block sw_tramp_module_nb = {
	.notifier_call = sw_tramp_module_cb,
	/* After kprobes_module_callback() (priority 0). */
	.priority = -1,
};

/**
 * sw_tramp_init_module() - watch modules go, for the trampolines on their
 * functions.
 *
 * Context: process context (module init), before any trampoline.
 * Return: 0 or a negative errno.
 */
int sw_tramp_init_module(void)
{
	int ret = register_module_notifier(&sw_tramp_module_nb);

	sw_tramp_nb_on = !ret;
	return ret;
}

/**
 * sw_tramp_register() - install the direct call, disarmed.
 * @t:     from sw_tramp_init()
 * @kp:    the registered kprobe that found the function: its address
 *         (its start, or on x86_64 its ftrace site just past an ENDBR:
 *         ftrace maps either to the site, by a binary search; selecting
 *         by name instead would look up the name of every traceable
 *         function, tens of thousands, and would take every static
 *         function of that name, where the kprobe took one), and whether
 *         the function's module went meanwhile (gone: -ENOENT)
 * @nargs: the function's argument count, -1 when unknown
 *
 * Says nothing: the caller decides between an error and a fallback
 * (sw_tramp_why()).
 *
 * Context: process context.
 * Return: 0, -ENODATA (argument count unknown), -E2BIG (stack
 * arguments), -EINVAL (BTF says the function is variadic or takes
 * another count: @t->why says which), -ENOPKG or -EPROTO (no companion module of our version),
 * -ENOSPC (no free stub), -EBUSY (another direct caller), -EINVAL
 * (ftrace cannot trace the function), -ENOENT (its module went), -ENOMEM,
 * or another errno of ftrace.
 */
int sw_tramp_register(struct sw_tramp *t, struct kprobe *kp, int nargs)
{
	unsigned long addr = (unsigned long)kp->addr;
	int i, ret;

	if (nargs < 0)
		return -ENODATA;
	if (nargs > SW_TRAMP_MAX_ARGS)
		return -E2BIG;
	/* Where BTF describes the function, args= must be what it says. */
	ret = sw_tramp_btf_check(t->name, addr, nargs, t->why, sizeof(t->why));
	if (ret)
		return ret;
	sw_tramp_load_companion();
	mutex_lock(&sw_tramp_lock);
	ret = -ENOENT;
	if (kprobe_gone(kp))
		goto out_unlock;
	ret = sw_tramp_companion();
	if (ret)
		goto out_unlock;
	for (i = 0; i < SW_TRAMP_SLOTS && sw_tramp_slot[i]; i++)
		;
	ret = -ENOSPC;
	if (i == SW_TRAMP_SLOTS)
		goto out_unlock;
	ret = ftrace_set_filter_ip(&t->ops, addr, 0, 1);
	if (ret) {
		ftrace_free_filter(&t->ops);
		goto out_unlock;
	}
	if (!++sw_tramp_seq)
		++sw_tramp_seq;
	t->seq = sw_tramp_seq;
	t->idx = i;
	t->addr = addr;
	/* The halves read the probe's number through the slot. */
	smp_store_release(&sw_tramp_slot[i], t);
	ret = sw_ftrace_direct_register(&t->ops, sw_tramp_addr(i));
	if (ret) {
		/* No call ever reached the stub. */
		ftrace_free_filter(&t->ops);
		WRITE_ONCE(sw_tramp_slot[i], NULL);
		t->idx = -1;
		goto out_unlock;
	}
	t->registered = true;
out_unlock:
	mutex_unlock(&sw_tramp_lock);
	return ret;
}

/**
 * sw_tramp_unregister() - uninstall direct calls in one batch and release
 * the probes: calls still in flight in them return to their callers
 * unmeasured (see the top).
 * @ts: the probes (registered or not: an unregistered one is released)
 * @n:  how many
 *
 * Context: process context; sleeps for grace periods.
 */
void sw_tramp_unregister(struct sw_tramp **ts, int n)
{
	bool stubs = false;
	int i;

	mutex_lock(&sw_tramp_lock);
	for (i = 0; i < n; i++) {
		struct sw_tramp *t = ts[i];

		WRITE_ONCE(t->armed, false);
		if (t->registered && !sw_tramp_direct_off(t))
			continue;	/* ftrace holds it: kept, its stub too */
		stubs |= t->idx >= 0;
	}
	mutex_unlock(&sw_tramp_lock);
	if (stubs) {
		/* No task is between an ftrace site and its stub any more. */
		synchronize_rcu_tasks();
		mutex_lock(&sw_tramp_lock);
		for (i = 0; i < n; i++) {
			if (ts[i]->registered)
				continue;
			if (ts[i]->idx >= 0)
				WRITE_ONCE(sw_tramp_slot[ts[i]->idx], NULL);
			ts[i]->idx = -1;
		}
		mutex_unlock(&sw_tramp_lock);
		/* No half uses them any more (the companion's RCU-sched). */
		synchronize_rcu();
	}
	/* Under no lock: the owner's release may free @ts[i]. */
	for (i = 0; i < n; i++)
		if (!ts[i]->registered)
			ts[i]->release(ts[i]->arg);
}

/**
 * sw_tramp_exit_module() - stop watching modules and let the companion
 * go: no half of ours runs from now on, and calls still in flight in its
 * trampolines return to their callers untouched.
 *
 * Context: process context (module exit, or a failed init), after every
 * probe is unregistered.
 */
void sw_tramp_exit_module(void)
{
	if (sw_tramp_nb_on)
		unregister_module_notifier(&sw_tramp_module_nb);
	sw_tramp_nb_on = false;
	if (sw_tramp_nleaked)
		pr_warn(SW_NAME ": %u trampoline probe%s left to ftrace, which kept %s direct call%s (their stubs pass calls through untouched)\n",
			sw_tramp_nleaked, sw_tramp_nleaked == 1 ? "" : "s",
			sw_tramp_nleaked == 1 ? "its" : "their",
			sw_tramp_nleaked == 1 ? "" : "s");
	sw_tramp_btf_exit();
	if (!sw_tramp_attach_fn)
		return;
	sw_tramp_detach_fn(&sw_tramp_ops);
	symbol_put(sw_tramp_detach);
	symbol_put(sw_tramp_attach);
	sw_tramp_attach_fn = NULL;
	sw_tramp_detach_fn = NULL;
}

/**
 * sw_tramp_enable() - arm a registered probe.
 * @t: the probe
 *
 * Context: process context.
 */
void sw_tramp_enable(struct sw_tramp *t)
{
	WRITE_ONCE(t->armed, true);
}

#else /* !SW_HAVE_TRAMP */

int sw_tramp_register(struct sw_tramp *t, struct kprobe *kp, int nargs)
{
	return -EOPNOTSUPP;
}

int sw_tramp_init_module(void)
{
	return 0;
}

void sw_tramp_unregister(struct sw_tramp **ts, int n)
{
	int i;

	for (i = 0; i < n; i++)
		ts[i]->release(ts[i]->arg);
}

void sw_tramp_exit_module(void)
{
}

void sw_tramp_enable(struct sw_tramp *t)
{
}

#endif /* SW_HAVE_TRAMP */

/**
 * sw_tramp_missed() - calls not measured since the last reset because a
 * handler half ran on their CPU.
 * @t: the probe
 *
 * Context: any.
 */
unsigned long sw_tramp_missed(struct sw_tramp *t)
{
	return atomic_long_read(&t->reentry) - t->reentry_base;
}

/**
 * sw_tramp_reset_missed() - start the missed count from zero.
 * @t: the probe
 *
 * Context: process context, under the owner's lock.
 */
void sw_tramp_reset_missed(struct sw_tramp *t)
{
	t->reentry_base = atomic_long_read(&t->reentry);
}
