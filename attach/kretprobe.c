// SPDX-License-Identifier: GPL-2.0
/*
 * kretprobe.c - attaching through a kretprobe.
 *
 * The entry handler runs the core's entry half into the instance's data
 * (struct sw_krp_data), so a call that sleeps and returns on another CPU
 * is still measured from its own entry; the return handler runs the exit
 * half.  A call that finds all maxactive instances in use, or hits while
 * another kprobe handler runs on its CPU, is not measured: kprobes counts
 * it (nmissed), and the stats file shows both causes.
 */
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#include "control/control.h"
#include "wrapper/kprobes.h"
#include "core/core.h"
#include "core/cost.h"
#include "attach.h"

/*
 * sw_krp_of() - the stopwatch kretprobe of a pending instance, or NULL.
 * Where kretprobes keep their own instance list (arm64, CONFIG_KRETPROBE_
 * ON_RETHOOK off), unregistration clears the instance's kretprobe while
 * its handlers may still run on another CPU: kprobes checks it before
 * calling a handler, and this read, later, can find NULL.  The kretprobe
 * itself stays valid until the handler ends (unregistration waits for
 * RCU), so only the NULL needs handling: the call is left unmeasured, as
 * any call in flight while its probe goes (core/pending.c counts its
 * pending entry, if any, as orphaned or abandoned).
 * Context: the kretprobe's handlers.
 */
static __always_inline struct sw_kretprobe *
sw_krp_of(struct kretprobe_instance *ri)
{
	struct kretprobe *rp = sw_kretprobe_of(ri);

	/* krp first: the same pointer, tested once. */
	BUILD_BUG_ON(offsetof(struct sw_kretprobe, krp));
	return likely(rp) ? container_of(rp, struct sw_kretprobe, krp) : NULL;
}

/**
 * struct sw_krp_data - a kretprobe instance's data: what the core keeps
 * of its call.
 * @call: the call's record
 * @vc:   a lean call's events
 */
struct sw_krp_data {
	struct sw_call call;
	struct sw_vcall vc;
};

/* The core's record of the call of instance @ri, and its probe. */
static __always_inline struct sw_krp_data *
sw_krp_rec(struct kretprobe_instance *ri)
{
	return (struct sw_krp_data *)ri->data;
}

static __always_inline bool sw_krp_probe(struct kretprobe_instance *ri,
					 const struct sw_target **t)
{
	struct sw_kretprobe *k = sw_krp_of(ri);

	if (unlikely(!k))
		return false;
	*t = &k->target;
	return true;
}

/*
 * The core's halves for kretprobe calls: sw_krp_enter(), sw_krp_exit(),
 * and for probes without a spec sw_krp_enter_nospec(), which finds the
 * probe only for the full half (call paths on), and sw_krp_exit_nospec().
 */
SW_CORE_HALVES(sw_krp, struct kretprobe_instance *, sw_krp_rec,
	       struct sw_krp_data *)
SW_CORE_HALVES_NOSPEC(sw_krp, struct kretprobe_instance *, sw_krp_rec,
		      struct sw_krp_data *, sw_krp_probe)

static unsigned int maxactive;
module_param(maxactive, uint, 0400);
MODULE_PARM_DESC(maxactive,
		 "Calls of one probed function that can be in flight at once; more are counted as missed (default 0 = max(128, 16 x possible CPUs))");

/**
 * sw_kretprobe_check_params() - refuse a bad maxactive parameter.
 *
 * Context: process context (module init).
 * Return: 0 or -EINVAL, said with sw_error().
 */
int sw_kretprobe_check_params(void)
{
	if (maxactive > 65536) {
		sw_error("maxactive=%u is larger than 65536", maxactive);
		return -EINVAL;
	}
	return 0;
}

/**
 * sw_maxactive() - kretprobe instances per probe.
 *
 * Context: any.
 * Return: the maxactive parameter, or by default max(128, 16 x CPUs).
 */
int sw_maxactive(void)
{
	if (maxactive)
		return maxactive;
	return max_t(int, 128, 16 * num_possible_cpus());
}

/*
 * What a timed run of a kretprobe handler is folded into (core/cost.h):
 * its probe's cost accumulators, or none when its kretprobe is gone, and
 * whether the probe hits through ftrace or a breakpoint; at entry also
 * the call to mark, when its return handler will run (@entered).
 */
static __always_inline void sw_krp_cost_run(struct sw_cost_run *run,
					    struct kretprobe_instance *ri,
					    bool entered)
{
	struct sw_kretprobe *k = sw_krp_of(ri);

	run->acc = likely(k) ? rcu_dereference_sched(k->target.aggs->cost) :
			       NULL;
	run->mech = likely(k) && (k->krp.kp.flags & KPROBE_FLAG_FTRACE) ?
		    SW_COST_KRETPROBE_FTRACE : SW_COST_KRETPROBE;
	run->call = entered ? &sw_krp_rec(ri)->call : NULL;
}

/*
 * sw_krp_entry(), sw_krp_return() - the kretprobe's handlers: the core's
 * entry half, and its exit half; on a call the cost sampler picks, timed
 * (core/cost.h: SW_COST_ENTRY(), SW_COST_EXIT()).
 * Context: sw_krp_entry() is the kprobe pre-handler: preemption disabled,
 * possibly interrupts off or NMI; the same under PREEMPT_RT.
 * sw_krp_return() is the kretprobe return handler on the calling thread:
 * likewise, and kprobes runs no other handler on this CPU meanwhile (a
 * nested hit counts as missed).  Neither takes a lock or allocates.  The
 * entry handler returns nonzero for a call the probe's filters leave
 * out: kretprobes then gives the instance back and runs no return handler
 * for it.
 */
static __always_inline int sw_krp_entry_work(struct sw_cost_run *run,
					     struct kretprobe_instance *ri,
					     struct pt_regs *regs)
{
	struct sw_kretprobe *k = sw_krp_of(ri);
	int r = !k || !sw_krp_enter(&k->target, ri, regs);

	if (run)
		sw_krp_cost_run(run, ri, !r);
	return r;
}

static __always_inline int sw_krp_return_work(struct sw_cost_run *run,
					      struct kretprobe_instance *ri,
					      struct pt_regs *regs)
{
	struct sw_kretprobe *k = sw_krp_of(ri);

	if (likely(k))
		sw_krp_exit(&k->target, sw_krp_rec(ri), regs);
	if (run)
		sw_krp_cost_run(run, ri, false);
	return 0;
}

/*
 * sw_krp_entry_nospec(), sw_krp_return_nospec() - the same for a probe
 * with no filters or keys of its own (most of them).
 * Context: as sw_krp_entry() and sw_krp_return().
 */
static __always_inline int
sw_krp_entry_nospec_work(struct sw_cost_run *run,
			 struct kretprobe_instance *ri, struct pt_regs *regs)
{
	int r = sw_krp_enter_nospec(ri, regs);

	if (run)
		sw_krp_cost_run(run, ri, !r);
	return r;
}

static __always_inline int
sw_krp_return_nospec_work(struct sw_cost_run *run,
			  struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct sw_kretprobe *k = sw_krp_of(ri);

	if (likely(k))
		sw_krp_exit_nospec(&k->target, sw_krp_rec(ri), regs);
	if (run)
		sw_krp_cost_run(run, ri, false);
	return 0;
}

/* Whether the entry of instance @ri's call was timed; the call in @c. */
static __always_inline bool sw_krp_marked(struct sw_call **c,
					  struct kretprobe_instance *ri)
{
	*c = &sw_krp_rec(ri)->call;
	return sw_cost_marked(*c);
}

/*
 * SW_KRP_HANDLERS() - a pair of handlers, @entry and @ret, running
 * @entry##_work and @ret##_work, timed as core/cost.h says.
 */
#define SW_KRP_HANDLERS(entry, ret)					\
SW_COST_ENTRY(entry, int,						\
	      (struct kretprobe_instance *ri, struct pt_regs *regs),	\
	      (ri, regs))						\
static int entry(struct kretprobe_instance *ri, struct pt_regs *regs)	\
{									\
	return entry##_run(ri, regs);					\
}									\
NOKPROBE_SYMBOL(entry);							\
static __always_inline bool ret##_marked(struct sw_call **c,		\
					 struct kretprobe_instance *ri,	\
					 struct pt_regs *regs)		\
{									\
	return sw_krp_marked(c, ri);					\
}									\
SW_COST_EXIT(ret, int,							\
	     (struct kretprobe_instance *ri, struct pt_regs *regs),	\
	     (ri, regs))						\
static int ret(struct kretprobe_instance *ri, struct pt_regs *regs)	\
{									\
	return ret##_run(ri, regs);					\
}									\
NOKPROBE_SYMBOL(ret)

SW_KRP_HANDLERS(sw_krp_entry, sw_krp_return);
SW_KRP_HANDLERS(sw_krp_entry_nospec, sw_krp_return_nospec);

#ifdef SW_DEBUG
/*
 * The test build (Kbuild's SW_DEBUG=1) only: the VM suites drive the
 * core's stacked mode, which uprobes use, through kretprobes, whose
 * functions the test module calls at will.
 */
static bool stacked;
module_param(stacked, bool, 0400);
MODULE_PARM_DESC(stacked,
		 "Kretprobes keep their calls on the pending stack, as a mechanism without instance data must (test build only; default off)");

/*
 * sw_krp_entry_stacked(), sw_krp_return_stacked() - the handlers with the
 * stacked parameter: the call's record on the pending stack, tagged with
 * the kretprobe, as for a mechanism without per-call storage.
 * Context: as sw_krp_entry() and sw_krp_return().
 */
static int sw_krp_entry_stacked(struct kretprobe_instance *ri,
				struct pt_regs *regs)
{
	struct sw_kretprobe *k = sw_krp_of(ri);

	return !k || !sw_core_enter_stacked(k, &k->target, regs);
}
NOKPROBE_SYMBOL(sw_krp_entry_stacked);

static int sw_krp_return_stacked(struct kretprobe_instance *ri,
				 struct pt_regs *regs)
{
	struct sw_kretprobe *k = sw_krp_of(ri);

	if (likely(k))
		sw_core_exit_stacked(k, &k->target, regs);
	return 0;
}
NOKPROBE_SYMBOL(sw_krp_return_stacked);

/* Give @k the stacked handlers when the stacked parameter is set. */
static void sw_krp_debug_handlers(struct sw_kretprobe *k)
{
	if (stacked) {
		k->krp.entry_handler = sw_krp_entry_stacked;
		k->krp.handler = sw_krp_return_stacked;
	}
}
#else
static void sw_krp_debug_handlers(struct sw_kretprobe *k)
{
}
#endif /* SW_DEBUG */

/**
 * sw_kretprobe_init() - fill in a kretprobe, not registered yet.
 * @k:      the probe
 * @symbol: kernel function; must outlive @k
 * @aggs:   where its calls are folded; must outlive @k's registration
 * @spec:   its filters and keys (NULL: none); likewise
 */
void sw_kretprobe_init(struct sw_kretprobe *k, const char *symbol,
		       struct sw_aggs *aggs, const struct sw_spec *spec)
{
	memset(k, 0, sizeof(*k));
	k->target.aggs = aggs;
	k->target.spec = spec;
	k->krp.kp.symbol_name = symbol;
	k->krp.kp.flags = KPROBE_FLAG_DISABLED;
	k->krp.entry_handler = spec ? sw_krp_entry : sw_krp_entry_nospec;
	k->krp.handler = spec ? sw_krp_return : sw_krp_return_nospec;
	sw_krp_debug_handlers(k);
	k->krp.data_size = sizeof(struct sw_krp_data);
	k->krp.maxactive = sw_maxactive();
}

/**
 * sw_kprobe_result() - what registering a kprobe or kretprobe on a kernel
 * function came to, said with sw_error() when it failed.
 * @what: how the message names the probe ("probe", "span point")
 * @name: the function
 * @ret:  what register_kprobe() or register_kretprobe() returned
 * @addr: the probed address, when @ret is 0
 *
 * A registered probe on one of stopwatch's own functions (this module's,
 * or the trampolines' companion's: sw_tramp_companion_owns()) is refused:
 * the caller then unregisters it.
 *
 * Context: process context.
 * Return: 0, -ENOENT (no such function), -EINVAL (cannot be probed, or one
 * of stopwatch's own functions) or @ret.
 */
int sw_kprobe_result(const char *what, const char *name, int ret,
		     const void *addr)
{
	if (ret == -ENOENT) {
		sw_error("%s '%s': no such kernel function", what, name);
		return ret;
	}
	if (ret == -EINVAL) {
		sw_error("%s '%s': cannot be probed (not function text, notrace, or on the kprobe blacklist)",
			 what, name);
		return ret;
	}
	if (ret) {
		sw_error("%s '%s': cannot be probed (%d)", what, name, ret);
		return ret;
	}
	if (within_module((unsigned long)addr, THIS_MODULE) ||
	    sw_tramp_companion_owns((unsigned long)addr)) {
		sw_error("%s '%s': stopwatch does not probe its own functions (stopwatch.ko's and stopwatch_tramp.ko's)",
			 what, name);
		return -EINVAL;
	}
	return 0;
}

/**
 * sw_kretprobe_register() - register @k disabled.
 * @k: from sw_kretprobe_init()
 *
 * On failure says why with sw_error(), naming the function.
 *
 * Context: process context.
 * Return: 0, -ENOENT (no such function), -EINVAL (cannot be probed, or one
 * of stopwatch's own functions) or another errno from kprobes.
 */
int sw_kretprobe_register(struct sw_kretprobe *k)
{
	const char *name = k->krp.kp.symbol_name;
	int ret = register_kretprobe(&k->krp);

	if (ret)
		return sw_kprobe_result("probe", name, ret, NULL);
	ret = sw_kprobe_result("probe", name, 0, k->krp.kp.addr);
	if (ret)
		unregister_kretprobe(&k->krp);
	return ret;
}

/**
 * sw_kretprobe_enable() - arm a registered probe.
 * @k: the probe
 *
 * Context: process context.
 * Return: 0 or a negative errno, said with sw_error().
 */
int sw_kretprobe_enable(struct sw_kretprobe *k)
{
	int ret = enable_kretprobe(&k->krp);

	if (ret)
		sw_error("probe '%s': cannot arm the probe (%d)",
			 k->krp.kp.symbol_name, ret);
	return ret;
}

/**
 * sw_kretprobe_unregister() - unregister probes in one batch: one RCU grace
 * period for all.
 * @ks: the probes
 * @n:  how many
 *
 * Calls in flight are safe: kprobes waits a grace period after detaching
 * the handlers, and returns of calls still in flight find no handler
 * (their pending entries are counted as orphaned or abandoned, see
 * core/pending.c).
 *
 * Context: process context.
 */
void sw_kretprobe_unregister(struct sw_kretprobe **ks, int n)
{
	struct kretprobe **krps;
	int i;

	if (!n)
		return;
	krps = kmalloc_array(n, sizeof(*krps), GFP_KERNEL);
	if (krps) {
		for (i = 0; i < n; i++)
			krps[i] = &ks[i]->krp;
		unregister_kretprobes(krps, n);
		kfree(krps);
		return;
	}
	for (i = 0; i < n; i++)
		unregister_kretprobe(&ks[i]->krp);
}

/**
 * sw_kretprobe_missed() - calls missed since the last reset, by cause.
 * @k:         the probe
 * @maxactive: entries refused because all kretprobe instances were in use
 * @reentry:   hits while another kprobe handler ran on the same CPU
 *
 * Context: any.
 */
void sw_kretprobe_missed(struct sw_kretprobe *k, unsigned long *maxactive,
			 unsigned long *reentry)
{
	*maxactive = READ_ONCE(k->krp.nmissed) - k->missed_base;
	*reentry = READ_ONCE(k->krp.kp.nmissed) - k->reentry_base;
}

/**
 * sw_kretprobe_reset_missed() - start the missed counts from zero.
 * @k: the probe
 *
 * Context: process context, under the owner's lock.
 */
void sw_kretprobe_reset_missed(struct sw_kretprobe *k)
{
	k->missed_base = READ_ONCE(k->krp.nmissed);
	k->reentry_base = READ_ONCE(k->krp.kp.nmissed);
}

/**
 * sw_kretprobe_gone() - whether @k's function went with its module
 * (kprobes marked the kprobe gone: it hits no more).
 * @k: the probe
 *
 * Context: any (a racy read: the stats file).
 */
bool sw_kretprobe_gone(struct sw_kretprobe *k)
{
	return kprobe_gone(&k->krp.kp);
}
