// SPDX-License-Identifier: GPL-2.0
/*
 * counters.c - the event set: one perf kernel counter per CPU per event.
 *
 * Counters are CPU-wide and, by default, pinned: pinned counters are
 * scheduled before every flexible one (perf stat's, say) and are never
 * rotated out for multiplexing, so while stopwatch holds them they count
 * continuously; a set that does not fit is refused (EBUSY).  With pinned=0
 * they are flexible: perf multiplexes them when there are more events
 * than hardware counters, or other users.  Either way, a counter that is
 * not counting (error state, switched out) is seen by the reader
 * (sw_pmu_read: not active, or its enabled-but-not-running time grew) and
 * the calls it was meant to measure are counted as unmeasured instead of
 * being mixed in.  Per-thread counts come from the measurement core
 * (core/virt.c), which closes and opens each call's segments at context
 * switches.
 *
 * CPU hotplug.  perf detaches every counter of a CPU going offline, so a
 * CPU needs new counters each time it comes online.  They cannot be made
 * or freed in the hotplug callbacks themselves: software events take the
 * hotplug lock (static keys) when created and released, and the callbacks
 * run with it held for writing.  So the callbacks only keep track of which
 * CPUs are up (sw_cpu_up) and, going offline, unpublish the CPU's counters
 * onto a graveyard; a work item (sw_pmu_work) then makes the counters of
 * CPUs that came up and releases the buried ones.  sw_pmu_lock, a
 * spinlock, orders the two: a CPU's counters are published only while the
 * CPU is up, and the set is replaced under it too.
 *
 * Changing the events builds a complete new set first (counters on every
 * CPU that is up) and swaps it in only when all of them exist and count.
 *
 * Locks: sw_pmu_mutex > the client's lock (struct sw_pmu_client) > hotplug
 * lock (taken inside perf) > sw_pmu_lock.  All of them are taken in process
 * context only (hotplug callbacks included); none is ever taken by a
 * handler, so under PREEMPT_RT, where the spinlock sleeps, nothing changes.
 */
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include <linux/moduleparam.h>
#include <linux/mutex.h>

#include "control/control.h"
#include "pmu.h"

struct sw_evset __rcu *sw_evset;
static u32 sw_evset_last_id;
static int sw_cpuhp_state = -1;
static DEFINE_MUTEX(sw_pmu_mutex);
static const struct sw_pmu_client *sw_pmu_client;
static struct sw_file *sw_pmu_files[2];

static char *events;
module_param(events, charp, 0400);
MODULE_PARM_DESC(events,
		 "Comma-separated perf events counted per call, per thread, e.g. cycles,instructions or cpu-clock,r00c0,4:0x3c (default: none; changeable in debugfs)");

static DEFINE_SPINLOCK(sw_pmu_lock);
static struct cpumask sw_cpu_up;	/* CPUs online as far as we know */
static LIST_HEAD(sw_pmu_graveyard);	/* struct sw_evcpu to release */
static void sw_pmu_work_fn(struct work_struct *work);
static DECLARE_WORK(sw_pmu_work, sw_pmu_work_fn);

static bool sw_pmu_pinned = true;
module_param_named(pinned, sw_pmu_pinned, bool, 0400);
MODULE_PARM_DESC(pinned,
		 "Pin the event counters (default Y: perf schedules them first and never multiplexes them; events that do not fit are refused). N: flexible counters, multiplexed by perf when the PMU is short of counters; calls during which a counter was switched out are counted as unmeasured");

/*
 * Hardware counters are read directly where the architecture allows it
 * (arm64 PMUv3, x86 core PMU).  The test build (Kbuild's SW_DEBUG=1) can
 * read them through the PMU driver instead, so that a suite compares the
 * two reads' counts.
 */
#ifdef SW_DEBUG
static bool sw_pmu_direct = true;
module_param_named(direct_read, sw_pmu_direct, bool, 0400);
MODULE_PARM_DESC(direct_read,
		 "Read hardware counters directly where the architecture allows it (default Y: arm64 PMUv3, x86 core PMU). N: always through the PMU driver's read (test build only: the same counts, but for the driver's read's own instructions inside each call)");
#else
#define sw_pmu_direct true
#endif

/*
 * The current set, for its writers: callers hold sw_pmu_mutex or
 * sw_pmu_lock (it is replaced holding both).
 */
static struct sw_evset *sw_evset_locked(void)
{
	return rcu_dereference_protected(sw_evset, 1);
}

/**
 * sw_pmu_set_locked() - the current event set, for the client.
 *
 * The set is replaced only while the client's lock is held (between its
 * prepare and commit), so it stays current while the client holds it.
 *
 * Context: process context, the client's lock held.
 * Return: the set, or NULL without events.
 */
struct sw_evset *sw_pmu_set_locked(void)
{
	return sw_evset_locked();
}

/* A CPU's counters of @set; caller holds sw_pmu_lock, or sw_pmu_mutex. */
static struct sw_evcpu *sw_evcpu_get(struct sw_evset *set, int cpu)
{
	return rcu_dereference_protected(set->cpu[cpu], 1);
}

static struct perf_event *sw_counter_create(const struct sw_event_spec *spec,
					    int cpu, bool disabled)
{
	struct perf_event_attr attr = {
		.type = spec->type,
		.size = sizeof(attr),
		.config = spec->config,
		.pinned = sw_pmu_pinned,
		.disabled = disabled,
	};

	sw_event_attr_modes(&attr, spec);
	return perf_event_create_kernel_counter(&attr, cpu, NULL, NULL, NULL);
}

/* Whether perf has a PMU on @cpu that counts generic hardware cycles. */
static bool sw_pmu_hw_present(int cpu)
{
	struct sw_event_spec cycles = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_CPU_CYCLES,
	};
	struct perf_event *e = sw_counter_create(&cycles, cpu, true);

	if (IS_ERR(e))
		return false;
	perf_event_release_kernel(e);
	return true;
}

/* Says why a counter for @spec could not be created; returns the errno. */
static int sw_counter_error(const struct sw_event_spec *spec, int cpu,
			    int err)
{
	bool generic = spec->type == PERF_TYPE_HARDWARE ||
		       spec->type == PERF_TYPE_HW_CACHE ||
		       spec->type == PERF_TYPE_RAW;

	if (generic &&
	    (err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV) &&
	    !sw_pmu_hw_present(cpu)) {
		sw_error("event '%s': no hardware PMU present (virtual machine or container without PMU access?); software events such as cpu-clock, task-clock, page-faults and context-switches still work",
			 spec->name);
		return -ENODEV;
	}
	switch (err) {
	case -ENOENT:
		if (spec->type >= PERF_TYPE_MAX)
			sw_error("event '%s': no PMU has type %u (see /sys/bus/event_source/devices/*/type)",
				 spec->name, spec->type);
		else
			sw_error("event '%s' (type %u, config 0x%llx): not supported by the PMU of this machine",
				 spec->name, spec->type, spec->config);
		break;
	case -EOPNOTSUPP:
		sw_error("event '%s' (type %u, config 0x%llx): not supported by the PMU of cpu %d",
			 spec->name, spec->type, spec->config, cpu);
		break;
	case -EINVAL:
		sw_error("event '%s' (type %u, config 0x%llx): the PMU rejects it as invalid",
			 spec->name, spec->type, spec->config);
		break;
	case -EACCES:
	case -EPERM:
		sw_error("event '%s': not permitted (%d)", spec->name, err);
		break;
	default:
		sw_error("event '%s': cannot create a counter on cpu %d (error %d)",
			 spec->name, cpu, err);
	}
	return err;
}

static const char *sw_counter_state(struct perf_event *e)
{
	if (!e)
		return "none";
	switch (READ_ONCE(e->state)) {
	case PERF_EVENT_STATE_ACTIVE:
		return "active";
	case PERF_EVENT_STATE_INACTIVE:
		return "inactive";
	case PERF_EVENT_STATE_OFF:
		return "off";
	case PERF_EVENT_STATE_ERROR:
		return "error";
	default:
		return "dead";
	}
}

/* Releases a CPU's counters (NULL accepted); nobody may read them now. */
static void sw_evcpu_free(struct sw_evcpu *c)
{
	int i;

	if (!c)
		return;
	for (i = 0; i < SW_MAX_EVENTS; i++)
		if (c->ctr[i].e)
			perf_event_release_kernel(c->ctr[i].e);
	kfree(c);
}

/*
 * Makes @cpu's counters of @set.  @strict (a control write): the first
 * failure releases them all, says why (sw_error) and returns the errno in
 * *@err; a CPU that went offline meanwhile gives -ENODEV without a
 * message.  Not strict (a CPU coming online): a counter that cannot be
 * made, or does not count, is logged and its events' calls on this CPU
 * are unmeasured.
 * Context: process context, sw_pmu_mutex held, hotplug lock not held.
 */
static struct sw_evcpu *sw_evcpu_make(struct sw_evset *set, int cpu,
				      bool strict, int *err)
{
	struct sw_evcpu *c;
	u32 i;

	*err = 0;
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c) {
		*err = -ENOMEM;
		if (strict)
			sw_error("events: out of memory, events unchanged");
		return NULL;
	}
	INIT_LIST_HEAD(&c->grave);
	for (i = 0; i < set->n; i++) {
		struct perf_event *e;

		e = sw_counter_create(&set->spec[i], cpu, false);
		if (IS_ERR(e)) {
			if (!strict) {
				pr_warn(SW_NAME ": cpu %d online: no counter for event '%s' (error %ld): its calls on this CPU are unmeasured\n",
					cpu, set->spec[i].name, PTR_ERR(e));
				continue;
			}
			*err = PTR_ERR(e);
			if (*err != -ENODEV || cpu_online(cpu))
				*err = sw_counter_error(&set->spec[i], cpu,
							*err);
			goto out_free;
		}
		c->ctr[i].e = e;
#ifdef SW_PMU_DIRECT
		if (sw_pmu_direct)
			c->ctr[i].mask = sw_pmu_direct_mask(e);
#endif
		/*
		 * Installing a CPU counter is synchronous.  A flexible one
		 * may be waiting for its turn (multiplexed): that is fine.
		 */
		if (READ_ONCE(e->state) == PERF_EVENT_STATE_ACTIVE ||
		    (!sw_pmu_pinned &&
		     READ_ONCE(e->state) == PERF_EVENT_STATE_INACTIVE))
			continue;
		if (!strict) {
			pr_warn(SW_NAME ": cpu %d online: counter for event '%s' is %s: its calls on this CPU are unmeasured\n",
				cpu, set->spec[i].name, sw_counter_state(e));
			continue;
		}
		sw_error("event '%s': its counter on cpu %d is %s, not counting: the PMU has no free counter for it (taken by another pinned perf user, or more events than counters)",
			 set->spec[i].name, cpu, sw_counter_state(e));
		*err = -EBUSY;
		goto out_free;
	}
	return c;

out_free:
	sw_evcpu_free(c);
	return NULL;
}

static struct sw_evset *sw_evset_alloc(const struct sw_event_spec *specs,
				       int n)
{
	struct sw_evset *set;
	int i, j;

	set = kzalloc(sizeof(*set), GFP_KERNEL);
	if (!set)
		return NULL;
	set->cpu = kcalloc(nr_cpu_ids, sizeof(*set->cpu), GFP_KERNEL);
	if (!set->cpu) {
		kfree(set);
		return NULL;
	}
	set->n = n;
	set->cycles = -1;
	set->instructions = -1;
	for (i = 0; i < n; i++)
		set->spec[i] = specs[i];
	/* CPI: the first cycles and instructions counted in the same modes. */
	for (i = 0; i < n && set->cycles < 0; i++) {
		if (specs[i].type != PERF_TYPE_HARDWARE ||
		    specs[i].config != PERF_COUNT_HW_CPU_CYCLES)
			continue;
		for (j = 0; j < n; j++) {
			if (specs[j].type == PERF_TYPE_HARDWARE &&
			    specs[j].config == PERF_COUNT_HW_INSTRUCTIONS &&
			    specs[j].excl == specs[i].excl) {
				set->cycles = i;
				set->instructions = j;
				break;
			}
		}
	}
	return set;
}

/* Frees a set no handler can see any more, releasing its counters. */
static void sw_evset_free(struct sw_evset *set)
{
	int cpu;

	if (!set)
		return;
	for_each_possible_cpu(cpu)
		sw_evcpu_free(rcu_dereference_protected(set->cpu[cpu], 1));
	kfree(set->cpu);
	kfree(set);
}

/*
 * Makes the counters of @set on every CPU that is up, all or nothing;
 * @set is not published yet.  On failure every counter made is released
 * and sw_error() has said which event failed and why.
 * Context: process context, sw_pmu_mutex held.
 */
static int sw_evset_start(struct sw_evset *set)
{
	struct cpumask *up;
	int cpu, ret = 0;

	up = kmalloc(cpumask_size(), GFP_KERNEL);
	if (!up) {
		sw_error("events: out of memory, events unchanged");
		return -ENOMEM;
	}
	spin_lock(&sw_pmu_lock);
	cpumask_copy(up, &sw_cpu_up);
	spin_unlock(&sw_pmu_lock);
	for_each_cpu(cpu, up) {
		struct sw_evcpu *c = sw_evcpu_make(set, cpu, true, &ret);

		if (ret == -ENODEV && !cpu_online(cpu)) {
			ret = 0;	/* went offline meanwhile: no counters */
			continue;
		}
		if (ret)
			break;
		RCU_INIT_POINTER(set->cpu[cpu], c);
	}
	kfree(up);
	if (ret) {
		for_each_possible_cpu(cpu) {
			sw_evcpu_free(sw_evcpu_get(set, cpu));
			RCU_INIT_POINTER(set->cpu[cpu], NULL);
		}
	}
	return ret;
}

/*
 * Releases the counters of CPUs gone offline, after the handlers that may
 * still be reading them are done.
 * Context: process context, sw_pmu_mutex held.
 */
static void sw_pmu_bury(void)
{
	struct sw_evcpu *c, *tmp;
	LIST_HEAD(dead);

	spin_lock(&sw_pmu_lock);
	list_splice_init(&sw_pmu_graveyard, &dead);
	spin_unlock(&sw_pmu_lock);
	if (list_empty(&dead))
		return;
	synchronize_rcu();
	list_for_each_entry_safe(c, tmp, &dead, grave) {
		list_del(&c->grave);
		sw_evcpu_free(c);
	}
}

/*
 * Gives every CPU that is up and has no counters of the current set its
 * counters, then releases the buried ones.
 * Context: process context, sw_pmu_mutex held.
 */
static void sw_pmu_reconcile(void)
{
	struct sw_evset *set = sw_evset_locked();
	int cpu, err;

	for_each_possible_cpu(cpu) {
		struct sw_evcpu *c;
		bool need;

		if (!set)
			break;
		spin_lock(&sw_pmu_lock);
		need = cpumask_test_cpu(cpu, &sw_cpu_up) &&
		       !sw_evcpu_get(set, cpu);
		spin_unlock(&sw_pmu_lock);
		if (!need)
			continue;
		c = sw_evcpu_make(set, cpu, false, &err);
		spin_lock(&sw_pmu_lock);
		if (c && cpumask_test_cpu(cpu, &sw_cpu_up) &&
		    !sw_evcpu_get(set, cpu)) {
			rcu_assign_pointer(set->cpu[cpu], c);
			c = NULL;
		}
		spin_unlock(&sw_pmu_lock);
		sw_evcpu_free(c);	/* never published */
	}
	sw_pmu_bury();
}

static void sw_pmu_work_fn(struct work_struct *work)
{
	mutex_lock(&sw_pmu_mutex);
	sw_pmu_reconcile();
	mutex_unlock(&sw_pmu_mutex);
}

static void sw_events_parse_error(int err, const char *bad)
{
	size_t len;
	u32 excl;

	switch (err) {
	case -E2BIG:
		if (bad && strlen(bad) >= SW_EVENT_NAME_LEN)
			sw_error("events: '%.40s...' is longer than %d characters",
				 bad, SW_EVENT_NAME_LEN - 1);
		else
			sw_error("events: more than %d events at once ('%.40s' is one too many)",
				 SW_MAX_EVENTS, bad ? bad : "");
		break;
	case -EEXIST:
		sw_error("events: '%.40s' is named twice", bad ? bad : "");
		break;
	default:
		if (bad && sw_event_modifier(bad, &len, &excl))
			sw_error("events: '%.40s': '%s' is not a modifier (u: user mode only, k: kernel mode only, uk: both)",
				 bad, strrchr(bad, ':') + 1);
		else
			sw_error("events: '%.40s' is not an event (perf names such as cycles, instructions, cache-misses, cpu-clock, page-faults; rNNNN; TYPE:CONFIG; ALIAS=TYPE:CONFIG; each with :u or :k for user or kernel mode only)",
				 bad ? bad : "");
	}
}

/*
 * sw_pmu_events_apply() - count a new list of events, all or nothing.
 * @list: comma- or space-separated event names; empty for none; modified
 *
 * Every probe's event statistics start afresh with the new events (the
 * time statistics are kept).  Calls in flight across the change count as
 * unmeasured for the new events.  On any error nothing changes and
 * sw_error() names the event and the reason.
 *
 * Context: process context; takes sw_pmu_mutex, then the client's lock.
 * Return: 0; -EINVAL, -E2BIG, -EEXIST (bad list); -ENODEV (hardware event
 * without a hardware PMU); -ENOENT, -EOPNOTSUPP, -EINVAL (event the PMU
 * does not know); -EBUSY (no free hardware counter); -ENOMEM.
 */
static int sw_pmu_events_apply(char *list)
{
	struct sw_event_spec *specs;
	struct sw_evset *set = NULL, *old = NULL;
	const char *bad;
	int n, cpu, ret;

	specs = kcalloc(SW_MAX_EVENTS, sizeof(*specs), GFP_KERNEL);
	if (!specs)
		return -ENOMEM;
	n = sw_events_parse(list, specs, SW_MAX_EVENTS, &bad);
	if (n < 0) {
		sw_events_parse_error(n, bad);
		ret = n;
		goto out_free_specs;
	}
	ret = -ENOMEM;
	if (n > 0) {
		set = sw_evset_alloc(specs, n);
		if (!set) {
			sw_error("events: out of memory, events unchanged");
			goto out_free_specs;
		}
	}

	mutex_lock(&sw_pmu_mutex);
	if (set)
		set->id = ++sw_evset_last_id;
	ret = sw_pmu_client->prepare(set);
	if (ret) {
		sw_error("events: out of memory, events unchanged");
		goto out_unlock;
	}
	ret = set ? sw_evset_start(set) : 0;
	if (ret) {
		sw_pmu_client->abort();
		goto out_unlock;
	}
	spin_lock(&sw_pmu_lock);
	/* CPUs that went offline while their counters were made: bury. */
	for_each_possible_cpu(cpu) {
		struct sw_evcpu *c = set ? sw_evcpu_get(set, cpu) : NULL;

		if (c && !cpumask_test_cpu(cpu, &sw_cpu_up)) {
			RCU_INIT_POINTER(set->cpu[cpu], NULL);
			list_add_tail(&c->grave, &sw_pmu_graveyard);
		}
	}
	old = rcu_replace_pointer(sw_evset, set, 1);
	spin_unlock(&sw_pmu_lock);
	/* The client's state for the new set goes live after the set. */
	sw_pmu_client->commit();
	set = NULL;
	/* CPUs that came up meanwhile get their counters now. */
	sw_pmu_reconcile();
out_unlock:
	mutex_unlock(&sw_pmu_mutex);
	/* Handlers still using the old set or statistics are done after this. */
	if (!ret) {
		synchronize_rcu();
		sw_pmu_client->done();
	}
	sw_evset_free(old);
	sw_evset_free(set);
out_free_specs:
	kfree(specs);
	return ret;
}

/*
 * sw_pmu_events_show() - the events file: the events counted, one name
 * per line.
 * Context: process context; takes sw_pmu_mutex.
 */
static int sw_pmu_events_show(struct seq_file *m)
{
	struct sw_evset *set;
	u32 i;

	mutex_lock(&sw_pmu_mutex);
	set = sw_evset_locked();
	for (i = 0; set && i < set->n; i++)
		seq_printf(m, "%s\n", set->spec[i].name);
	mutex_unlock(&sw_pmu_mutex);
	return 0;
}

static const struct sw_ctl_file sw_events_file = {
	.show = sw_pmu_events_show,
	.apply = sw_pmu_events_apply,
};

/*
 * sw_pmu_counters_show() - the counters file: every online CPU's counters,
 * state and totals, and how the hot path reads each (direct: from the
 * hardware counter whenever it is live on a counter the architecture lets
 * us read; perf: through the driver's pmu->read()).
 * Context: process context; takes sw_pmu_mutex, under which no counter is
 * released (the graveyard is emptied under it).
 */
static int sw_pmu_counters_show(struct seq_file *m)
{
	struct sw_evset *set;
	int cpu;
	u32 i;

	seq_printf(m, "%-4s %-24s %-20s %-8s %20s %16s %16s %s\n", "cpu",
		   "event", "type:config", "state", "count", "enabled_ns",
		   "running_ns", "read");
	mutex_lock(&sw_pmu_mutex);
	set = sw_evset_locked();
	for_each_possible_cpu(cpu) {
		struct sw_evcpu *c;

		if (!set)
			break;
		spin_lock(&sw_pmu_lock);
		c = cpumask_test_cpu(cpu, &sw_cpu_up) ? sw_evcpu_get(set, cpu) :
							NULL;
		spin_unlock(&sw_pmu_lock);
		if (!c)
			continue;
		for (i = 0; i < set->n; i++) {
			struct perf_event *e = c->ctr[i].e;
			u64 count = 0, enabled = 0, running = 0;
			char tc[48];

			if (e)
				count = perf_event_read_value(e, &enabled,
							      &running);
			snprintf(tc, sizeof(tc), "%u:0x%llx%s%s",
				 set->spec[i].type, set->spec[i].config,
				 set->spec[i].excl ? ":" : "",
				 sw_event_modifier_str(set->spec[i].excl));
			seq_printf(m, "%-4d %-24s %-20s %-8s %20llu %16llu %16llu %s\n",
				   cpu, set->spec[i].name, tc,
				   sw_counter_state(e), count, enabled,
				   running, c->ctr[i].mask ? "direct" : "perf");
		}
	}
	mutex_unlock(&sw_pmu_mutex);
	return 0;
}

static const struct sw_ctl_file sw_counters_file = {
	.show = sw_pmu_counters_show,
};

/*
 * sw_pmu_cpu_online() - @cpu is up: have its counters made.
 * Context: CPU hotplug callback on @cpu (process context, hotplug lock
 * write-held: must not make perf counters here, see the top).
 */
static int sw_pmu_cpu_online(unsigned int cpu)
{
	spin_lock(&sw_pmu_lock);
	cpumask_set_cpu(cpu, &sw_cpu_up);
	spin_unlock(&sw_pmu_lock);
	schedule_work(&sw_pmu_work);
	return 0;
}

/*
 * sw_pmu_cpu_offline() - @cpu goes down: unpublish its counters (handlers
 * on @cpu see none from now on) and have them released.
 * Context: CPU hotplug callback on @cpu (process context, hotplug lock
 * write-held).
 */
static int sw_pmu_cpu_offline(unsigned int cpu)
{
	struct sw_evset *set;
	struct sw_evcpu *c = NULL;

	spin_lock(&sw_pmu_lock);
	cpumask_clear_cpu(cpu, &sw_cpu_up);
	set = sw_evset_locked();
	if (set)
		c = sw_evcpu_get(set, cpu);
	if (c) {
		RCU_INIT_POINTER(set->cpu[cpu], NULL);
		list_add_tail(&c->grave, &sw_pmu_graveyard);
	}
	spin_unlock(&sw_pmu_lock);
	if (c)
		schedule_work(&sw_pmu_work);
	return 0;
}

/**
 * sw_pmu_init() - start the CPU hotplug state, the events and counters
 * files, then count the events of the module parameter.
 * @client: told of every change of the event set (see struct
 *          sw_pmu_client); must outlive sw_pmu_exit()
 *
 * Context: process context (module init).
 * Return: 0 or a negative errno; nothing is left behind on failure.
 */
int sw_pmu_init(const struct sw_pmu_client *client)
{
	char *buf;
	int ret;

	sw_pmu_client = client;
	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "stopwatch/pmu:online",
				sw_pmu_cpu_online, sw_pmu_cpu_offline);
	if (ret < 0) {
		pr_err(SW_NAME ": cannot register the CPU hotplug state (%d)\n",
		       ret);
		return ret;
	}
	sw_cpuhp_state = ret;
	if (events && *events) {
		buf = kstrdup(events, GFP_KERNEL);
		ret = -ENOMEM;
		if (!buf)
			goto out_remove_cpuhp;
		ret = sw_pmu_events_apply(buf);
		kfree(buf);
		if (ret)
			goto out_remove_cpuhp;
	}
	sw_pmu_files[0] = sw_debugfs_add_ctl("events", 0600, NULL,
					     &sw_events_file);
	sw_pmu_files[1] = sw_debugfs_add_ctl("counters", 0400, NULL,
					     &sw_counters_file);
	return 0;

out_remove_cpuhp:
	sw_pmu_exit();
	return ret;
}

/**
 * sw_pmu_exit() - remove the files, release every counter.
 *
 * Called after the measurement core stopped reading the counters.
 *
 * Context: process context (module exit or failed init).
 */
void sw_pmu_exit(void)
{
	struct sw_evset *set;

	sw_debugfs_remove(&sw_pmu_files[1]);
	sw_debugfs_remove(&sw_pmu_files[0]);
	/* Every online CPU's counters go to the graveyard. */
	if (sw_cpuhp_state >= 0)
		cpuhp_remove_state(sw_cpuhp_state);
	sw_cpuhp_state = -1;
	cancel_work_sync(&sw_pmu_work);
	mutex_lock(&sw_pmu_mutex);
	spin_lock(&sw_pmu_lock);
	set = rcu_replace_pointer(sw_evset, NULL, 1);
	spin_unlock(&sw_pmu_lock);
	sw_pmu_bury();
	mutex_unlock(&sw_pmu_mutex);
	synchronize_rcu();
	sw_evset_free(set);
}
