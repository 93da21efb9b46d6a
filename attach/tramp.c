// SPDX-License-Identifier: GPL-2.0
/*
 * tramp.c - attaching through a direct-call trampoline of the module's own.
 *
 * ftrace's direct-call API puts a call to one of the module's stubs
 * (tramp_x86.S, tramp_arm64.S) at the function's ftrace site.  The stub's
 * common body keeps the call's struct sw_call in its stack frame, runs the
 * entry half (sw_tramp_enter()), calls the function's body, runs the exit
 * half (sw_tramp_exit()) and returns to the caller: no kprobe, no instance
 * pool, so no call is missed for want of maxactive.
 *
 * What may use one: a function whose arguments are all in registers (six
 * at most on x86_64, eight on arm64; the trampoline's frame sits between
 * the caller's stack arguments and the body).  The module cannot read
 * BTF: the stopwatch program passes the count (probe option args=N);
 * without it the module never uses a trampoline (the function might take
 * stack arguments).  A function another direct caller holds (a BPF fentry
 * or fexit program) cannot have a second one: registration says -EBUSY.
 *
 * Calls in flight: the body returns into module text, so a stub and its
 * probe's aggregations must outlive every call that entered it.  Each
 * probe counts its calls in flight per CPU (no shared cache line written
 * by every call): +1 on the CPU a call enters on, -1 on the one it
 * returns on, so a CPU's count may be negative and only the sum means
 * anything.  Summed once no call can enter any more, it is exact: every
 * +1 came before the sum was taken, and a -1 that lands while it is
 * taken only makes it larger (a CPU read before that -1 still shows the
 * call), so a zero sum means no call is in flight.  Removal uninstalls the direct call
 * first (no new entries), waits for RCU and RCU-tasks grace periods (no
 * task is still between the ftrace site and the count), then frees the
 * stub and calls the owner's release only once the count is zero and
 * another pair of grace periods has passed (no task is still in the few
 * instructions after the count went down); until then a worker polls.
 * While a removed probe drains, the module holds a reference on itself,
 * so rmmod says the module is in use (and can be retried) instead of
 * waiting; /sys/module/stopwatch/refcnt shows it.  Probes still on at
 * rmmod are removed by module exit, which must wait for every stub to
 * drain, saying every few seconds which function holds how many calls.
 *
 * Threads that sleep in a trampolined function for a long time (the
 * kernel's livepatch sends them fake signals; a module cannot: the
 * helpers are not exported) hold their stub until they return, and rmmod
 * waits for them (or, once their probes are removed, refuses until they
 * have returned).  Only calls that entered while the direct call was on
 * count, but one thread that went to sleep for good meanwhile holds the
 * stub for good: with schedule() on a trampoline, an idle kworker the
 * workqueue did not need again held it for minutes on a test boot.  So:
 * use the trampoline on functions whose calls end (the default attach
 * stays kretprobe, which has no such wait), and never on one that does
 * not return (do_exit): use attach=kretprobe there.
 *
 * Reentry: the core keeps one writer per CPU's statistics.  A handler
 * half runs with preemption disabled and a per-CPU guard; a trampolined
 * call from an interrupt or NMI that arrives while a half runs on its CPU
 * passes straight through its function unmeasured, counted in the
 * probe's miss_reentry.
 */
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/stringify.h>
#include <linux/workqueue.h>

#include "control/control.h"
#include "wrapper/ftrace.h"
#include "attach.h"
#include "tramp.h"

/* Register arguments a trampolined function may take. */
#ifdef CONFIG_ARM64
#define SW_TRAMP_MAX_ARGS 8
#else
#define SW_TRAMP_MAX_ARGS 6
#endif

static char *attach = "kretprobe";
module_param(attach, charp, 0444);
MODULE_PARM_DESC(attach,
		 "How kernel functions are attached unless a probe's attach= says: kretprobe (default), auto (a trampoline where the function allows, else kretprobe, said in stats) or trampoline (a trampoline or an error)");

static int sw_attach_mode = SW_ATTACH_KRETPROBE;

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
	if (!attach || !strcmp(attach, "kretprobe"))
		sw_attach_mode = SW_ATTACH_KRETPROBE;
	else if (!strcmp(attach, "auto"))
		sw_attach_mode = SW_ATTACH_AUTO;
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
 * @err: a negative errno
 *
 * Context: any.
 */
const char *sw_tramp_why(int err)
{
	switch (err) {
	case -EOPNOTSUPP:
		return "this kernel or architecture has no ftrace direct calls for stopwatch";
	case -ENODATA:
		return "its argument count is unknown (give args=N)";
	case -E2BIG:
		return "it takes arguments on the stack (more than "
		       __stringify(SW_TRAMP_MAX_ARGS) ")";
	case -ENOSPC:
		return "every trampoline stub is in use";
	case -EBUSY:
		return "another direct caller (e.g. a BPF fentry/fexit program) holds it";
	case -EINVAL:
	case -ENOENT:
		return "ftrace cannot trace it";
	default:
		return "ftrace refused the direct call";
	}
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
	INIT_LIST_HEAD(&t->drain);
	t->aggs = aggs;
	t->spec = spec;
	t->name = symbol;
	t->release = release;
	t->arg = arg;
	t->idx = -1;
}

#ifdef SW_HAVE_TRAMP

/* The slots and the draining list. */
static DEFINE_MUTEX(sw_tramp_lock);
static LIST_HEAD(sw_tramp_draining);
/* Whether the module holds a reference on itself for sw_tramp_draining. */
static bool sw_tramp_held;

static void sw_tramp_drain_fn(struct work_struct *w);
static DECLARE_DELAYED_WORK(sw_tramp_drain_work, sw_tramp_drain_fn);

static unsigned long sw_tramp_addr(int idx)
{
	return (unsigned long)sw_tramp_stubs + idx * SW_TRAMP_STUB_SIZE;
}

/**
 * sw_tramp_register() - install the direct call, disarmed.
 * @t:     from sw_tramp_init()
 * @nargs: the function's argument count, -1 when unknown
 *
 * Says nothing: the caller decides between an error and a fallback
 * (sw_tramp_why()).
 *
 * Context: process context.
 * Return: 0, -ENODATA (argument count unknown), -E2BIG (stack
 * arguments), -ENOSPC (no free stub), -EBUSY (another direct caller),
 * -EINVAL (ftrace cannot trace the function), -ENOMEM, or another errno
 * of ftrace.
 */
int sw_tramp_register(struct sw_tramp *t, int nargs)
{
	char *buf;
	int i, ret;

	if (nargs < 0)
		return -ENODATA;
	if (nargs > SW_TRAMP_MAX_ARGS)
		return -E2BIG;
	/* ftrace parses the filter in place. */
	buf = kstrdup(t->name, GFP_KERNEL);
	t->inflight = alloc_percpu(long);
	if (!buf || !t->inflight) {
		kfree(buf);
		free_percpu(t->inflight);
		t->inflight = NULL;
		return -ENOMEM;
	}
	mutex_lock(&sw_tramp_lock);
	for (i = 0; i < SW_TRAMP_SLOTS && sw_tramp_slot[i]; i++)
		;
	ret = -ENOSPC;
	if (i == SW_TRAMP_SLOTS)
		goto out_unlock;
	ret = ftrace_set_filter(&t->ops, buf, strlen(buf), 1);
	if (ret) {
		ftrace_free_filter(&t->ops);
		goto out_unlock;
	}
	t->idx = i;
	WRITE_ONCE(sw_tramp_slot[i], t);
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
	kfree(buf);
	if (ret) {
		free_percpu(t->inflight);
		t->inflight = NULL;
	}
	return ret;
}

/*
 * Calls of @t in flight: the sum of its per-CPU counts (see the top).
 * Context: process context, once no call can enter @t any more.
 */
static long sw_tramp_inflight(struct sw_tramp *t)
{
	long n = 0;
	int cpu;

	if (!t->inflight)
		return 0;
	for_each_possible_cpu(cpu)
		n += READ_ONCE(*per_cpu_ptr(t->inflight, cpu));
	return n;
}

/*
 * Drops the module's reference on itself once no probe drains.
 * Context: process context, not under sw_tramp_lock.
 */
static void sw_tramp_unhold(void)
{
	bool put = false;

	mutex_lock(&sw_tramp_lock);
	if (sw_tramp_held && list_empty(&sw_tramp_draining)) {
		sw_tramp_held = false;
		put = true;
	}
	mutex_unlock(&sw_tramp_lock);
	if (put)
		module_put(THIS_MODULE);
}

/*
 * Releases the draining probes with no call in flight; returns how many
 * are left.  Says which function holds how many calls every @every
 * jiffies (0: never).  Context: process context; may sleep (grace periods).
 */
static int sw_tramp_drain_scan(unsigned long every)
{
	struct sw_tramp *t, *tmp;
	LIST_HEAD(done);
	int left = 0;

	mutex_lock(&sw_tramp_lock);
	list_for_each_entry_safe(t, tmp, &sw_tramp_draining, drain) {
		long n = sw_tramp_inflight(t);

		if (!n) {
			list_move(&t->drain, &done);
			continue;
		}
		left++;
		if (every && time_after(jiffies, t->waited + every)) {
			t->waited = jiffies;
			pr_info(SW_NAME ": waiting for %ld call%s in flight in %s to return (trampoline)\n",
				n, n == 1 ? "" : "s", t->name);
		}
	}
	mutex_unlock(&sw_tramp_lock);
	if (list_empty(&done))
		goto out;
	/* No task is left in the instructions after the count went down. */
	synchronize_rcu();
	synchronize_rcu_tasks();
	list_for_each_entry_safe(t, tmp, &done, drain) {
		list_del_init(&t->drain);
		if (t->idx >= 0) {
			mutex_lock(&sw_tramp_lock);
			WRITE_ONCE(sw_tramp_slot[t->idx], NULL);
			mutex_unlock(&sw_tramp_lock);
		}
		t->idx = -1;
		free_percpu(t->inflight);
		t->inflight = NULL;
		t->release(t->arg);
	}
out:
	sw_tramp_unhold();
	return left;
}

/* Context: process context (a worker). */
static void sw_tramp_drain_fn(struct work_struct *w)
{
	if (sw_tramp_drain_scan(60 * HZ))
		schedule_delayed_work(&sw_tramp_drain_work, HZ / 10);
}

/**
 * sw_tramp_unregister() - uninstall direct calls in one batch; each
 * probe's release runs once its calls in flight have returned (at once
 * when none is, else from a worker).
 * @ts: the probes (registered or not: an unregistered one is released)
 * @n:  how many
 *
 * Context: process context; sleeps for grace periods.
 */
void sw_tramp_unregister(struct sw_tramp **ts, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		struct sw_tramp *t = ts[i];

		WRITE_ONCE(t->armed, false);
		if (t->registered) {
			int ret = sw_ftrace_direct_unregister(&t->ops,
						sw_tramp_addr(t->idx));

			if (ret)
				pr_warn(SW_NAME ": %s: removing the direct call failed (%d)\n",
					t->name, ret);
			t->registered = false;
		}
	}
	/* No task is between an ftrace site and a stub's count any more. */
	synchronize_rcu();
	synchronize_rcu_tasks();
	mutex_lock(&sw_tramp_lock);
	for (i = 0; i < n; i++) {
		ts[i]->waited = jiffies;
		list_add_tail(&ts[i]->drain, &sw_tramp_draining);
	}
	/* Dropped by the scan that empties the list (rmmod: in use till then). */
	if (!sw_tramp_held) {
		__module_get(THIS_MODULE);
		sw_tramp_held = true;
	}
	mutex_unlock(&sw_tramp_lock);
	if (sw_tramp_drain_scan(0))
		schedule_delayed_work(&sw_tramp_drain_work, HZ / 10);
}

/**
 * sw_tramp_wait_all() - wait until every removed probe is released.
 *
 * Says every 5 s which function holds how many calls.  Calls that never
 * return (a thread asleep in the function for good) make this wait for
 * good: see the comment at the top.
 *
 * Context: process context (module exit), after every probe is
 * unregistered.
 */
void sw_tramp_wait_all(void)
{
	cancel_delayed_work_sync(&sw_tramp_drain_work);
	while (sw_tramp_drain_scan(5 * HZ))
		msleep(100);
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

int sw_tramp_register(struct sw_tramp *t, int nargs)
{
	return -EOPNOTSUPP;
}

void sw_tramp_unregister(struct sw_tramp **ts, int n)
{
	int i;

	for (i = 0; i < n; i++)
		ts[i]->release(ts[i]->arg);
}

void sw_tramp_wait_all(void)
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
