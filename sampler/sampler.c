// SPDX-License-Identifier: GPL-2.0
/*
 * sampler.c - the oprofile-style sampler: a perf event per CPU whose
 * overflow handler records the interrupted context into per-CPU relay
 * files under /sys/kernel/debug/stopwatch/samples/.
 *
 *   sampler   read: state, settings and per-CPU counters;
 *             write: "start [event=.. period=..|freq=.. callchain=..
 *             cpus=.. pid=..|tgid=.. max_rate=.. kstack=.. ustack=..
 *             stack_fail=keep|drop]" or "stop"
 *
 * Data path (requirement: an overflow NMI may interrupt anything,
 * including another writer on its CPU):
 *
 *   overflow handler (NMI for x86 PMU events, hard IRQ for cpu-clock and
 *   for arm64 without pseudo-NMI)
 *     -> its CPU's staging ring (stage.c): lock-free, single producer,
 *        guarded against nesting; full => counted, never overwritten
 *     -> in NMI: irq_work on the same CPU, lazy (drained at the next tick,
 *        no interrupt of its own) unless the ring is half full
 *     -> not in NMI: the handler drains the ring itself, interrupts off,
 *        after leaving the nesting guard: no extra interrupt per sample
 *   irq_work (hard IRQ, interrupts off)
 *     -> drains the ring into the CPU's relay buffer (relay/relay.c);
 *        relay full => counted, never overwritten
 *   side-band writers (process context, sideband.c) disable interrupts,
 *   drain the ring first, then append their record: the relay buffer of a
 *   CPU is only ever written on that CPU with interrupts off, never from
 *   NMI, so relay writers never interleave.
 *
 * Accounting, per CPU: every handler call that passes the pid/tgid filter
 * is "taken" and ends as exactly one of written, lost_full, lost_nested,
 * lost_stack or lost_throttled; while sampling a few may still be queued
 * in the ring.  Once stopped, taken == written + lost exactly.
 * kthrottled counts the times perf core itself stopped the event for the
 * rest of a tick (kernel.perf_event_max_sample_rate, which the kernel
 * lowers when sample interrupts take long): samples never taken, so in
 * no other counter.
 *
 * Per-CPU counters are created and released from a dynamic CPU-hotplug
 * state, so CPUs going offline and online while sampling are handled; the
 * hotplug callbacks run on the CPU concerned, which is what lets them
 * drain its ring and close its stream.
 */
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/debugfs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "control/control.h"
#include "wrapper/kallsyms.h"
#include "wrapper/perf_event.h"
#include "wrapper/timekeeping.h"
#include "session.h"
#include "utables.h"

/* ---- module parameters ---------------------------------------------------- */

static char *sample = "";
module_param(sample, charp, 0400);
MODULE_PARM_DESC(sample,
		 "Start sampling this event at load: cycles, instructions, cpu-clock, rNNNN, TYPE:CONFIG, ... (default empty: no sampling until 'start' is written to the sampler file)");

static unsigned long sample_period;
module_param(sample_period, ulong, 0400);
MODULE_PARM_DESC(sample_period,
		 "With sample=: events between samples (default 0: use sample_freq)");

static unsigned int sample_freq;
module_param(sample_freq, uint, 0400);
MODULE_PARM_DESC(sample_freq,
		 "With sample=: samples per second per CPU (default 0: 1000 unless sample_period is set)");

static char *callchain = "none";
module_param(callchain, charp, 0400);
MODULE_PARM_DESC(callchain,
		 "With sample=: call stacks to record: none, kernel, user or kernel,user (default none)");

static char *sample_cpus = "";
module_param(sample_cpus, charp, 0400);
MODULE_PARM_DESC(sample_cpus,
		 "With sample=: CPU list to sample, e.g. 0-3,6 (default empty: all CPUs)");

static int sample_pid;
module_param(sample_pid, int, 0400);
MODULE_PARM_DESC(sample_pid,
		 "With sample=: only samples of this thread id (default 0: any)");

static int sample_tgid;
module_param(sample_tgid, int, 0400);
MODULE_PARM_DESC(sample_tgid,
		 "With sample=: only samples of this process id (default 0: any)");

static unsigned int max_sample_rate = 100000;
module_param(max_sample_rate, uint, 0400);
MODULE_PARM_DESC(max_sample_rate,
		 "Samples per second per CPU above which samples are dropped and counted as throttled, 0 = no limit (default 100000; 'start max_rate=N' overrides)");

static unsigned int subbuf_size = 256 * 1024;
module_param(subbuf_size, uint, 0400);
MODULE_PARM_DESC(subbuf_size,
		 "Bytes per relay sub-buffer, a multiple of 8 from 8192 to 67108864 (default 262144)");

static unsigned int n_subbufs = 8;
module_param(n_subbufs, uint, 0400);
MODULE_PARM_DESC(n_subbufs,
		 "Relay sub-buffers per CPU, 2 to 4096 (default 8)");

static unsigned int stage_size = 64 * 1024;
module_param(stage_size, uint, 0400);
MODULE_PARM_DESC(stage_size,
		 "Bytes of the per-CPU staging ring the overflow handler writes, a power of two from 4096 to 16777216 that holds two of the largest sample (start refuses a smaller one; 8192 for 127-frame kernel and user stacks) (default 65536)");

/* ---- state ------------------------------------------------------------------ */

static DEFINE_MUTEX(sw_samp_lock);	/* start, stop, read, unload */
static struct sw_session *sw_sess;	/* latest session, under sw_samp_lock */
static struct sw_session *sw_hp_sess;	/* the running session, for cpuhp */
static struct sw_relay sw_samples_relay;
static struct sw_file *sw_samp_file;
static u32 sw_sessions;


/*
 * Gets a freshly staged sample into relay.  In NMI relay is off limits:
 * an irq_work does it, lazily at the next tick while the ring has room.
 * Elsewhere (hard IRQ, or a software event in process context) no relay
 * writer can be interrupted here, as they all run with interrupts off, so
 * the ring is drained right away.
 *
 * Context: overflow handler, outside the nesting guard.
 */
static void sw_samp_kick(struct sw_session *s, struct sw_samp_cpu *c)
{
	unsigned long flags;

	if (in_nmi()) {
		if (sw_stage_used(&c->stage) > c->stage.size / 2)
			irq_work_queue(&c->work);
		else
			irq_work_queue(&c->lazy);
		return;
	}
	local_irq_save(flags);
	sw_samp_drain(s, c);
	local_irq_restore(flags);
}
NOKPROBE_SYMBOL(sw_samp_kick);

/* ---- the overflow handler (NMI or hard IRQ) --------------------------------- */

/*
 * Context: NMI (x86 hardware events) or hard IRQ (cpu-clock's hrtimer,
 * arm64 PMU without pseudo-NMI), on the CPU the event belongs to.  No
 * locks, no allocation, no printk; writes only this CPU's staging ring
 * and counters.  Under PREEMPT_RT the same: perf's hrtimer is a hard
 * timer (HRTIMER_MODE_*_HARD) and PMU interrupts are not threaded.
 */
static void sw_overflow(struct perf_event *event,
			struct perf_sample_data *data, struct pt_regs *regs)
{
	struct sw_session *s = event->overflow_handler_context;
	struct sw_samp_cpu *c = this_cpu_ptr(s->pcpu);
	struct task_struct *t = current;
	u32 pid = task_tgid_nr(t), tid = task_pid_nr(t), nk = 0, nu = 0;
	struct sw_rec_sample *rec;
	u16 flags = 0;
	u64 now;

	/*
	 * perf core marks an event it throttles (more interrupts in a tick
	 * than kernel.perf_event_max_sample_rate allows) with interrupts
	 * = ~0 before calling this handler, and stops it until the next
	 * tick: the samples of the rest of that tick are never taken.
	 */
	if (READ_ONCE(event->hw.interrupts) == ~0ULL)
		sw_cnt_inc(c, SW_CNT_KTHROTTLED);
	if ((s->o.pid >= 0 && tid != s->o.pid) ||
	    (s->o.tgid >= 0 && pid != s->o.tgid)) {
		sw_cnt_inc(c, SW_CNT_FILTERED);
		return;
	}
	/*
	 * An event of one mode (":u", ":k") whose interrupt arrived after
	 * the CPU changed mode: a user-mode count's sample is the user
	 * instruction the task entered the kernel from; a kernel-mode
	 * count's, whose kernel instruction is gone, is filtered out.
	 */
	if (s->attr.exclude_kernel && !user_mode(regs)) {
		if (!t->mm || (t->flags & PF_KTHREAD)) {
			sw_cnt_inc(c, SW_CNT_FILTERED);
			return;
		}
		regs = task_pt_regs(t);
	} else if (s->attr.exclude_user && user_mode(regs)) {
		sw_cnt_inc(c, SW_CNT_FILTERED);
		return;
	}
	sw_cnt_inc(c, SW_CNT_TAKEN);
	if (in_nmi())
		sw_cnt_inc(c, SW_CNT_NMI);
	if (local_inc_return(&c->nest) != 1) {
		sw_cnt_inc(c, SW_CNT_LOST_NESTED);
		goto out;
	}
	now = sw_clock_ns();
	if (s->win_limit) {
		if (now - c->win_start >= s->win_ns) {
			c->win_start = now;
			c->win_count = 0;
		}
		if (++c->win_count > s->win_limit) {
			sw_cnt_inc(c, SW_CNT_LOST_THROTTLED);
			goto out;
		}
	}
	rec = sw_stage_reserve(&c->stage, s->max_rec);
	if (!rec) {
		sw_cnt_inc(c, SW_CNT_LOST_FULL);
		goto out;
	}
	if (user_mode(regs))
		flags |= SW_SAMPLE_F_USER;
	if (is_idle_task(t))
		flags |= SW_SAMPLE_F_IDLE;
	if (t->flags & PF_KTHREAD)
		flags |= SW_SAMPLE_F_KTHREAD;
	if ((s->o.callchain & SW_CC_KERNEL) && !user_mode(regs) &&
	    !s->hide_kaddr)
		nk = sw_stack_kernel(regs, rec->frames, s->o.kstack, &flags);
	if ((s->o.callchain & SW_CC_USER) && t->mm &&
	    !(t->flags & PF_KTHREAD)) {
		struct pt_regs *uregs = user_mode(regs) ? regs :
					task_pt_regs(t);

		u32 read = 0;

		if (s->o.unwind_table) {
			nu = sw_stack_user_table(uregs, rec->frames + nk,
						 s->o.ustack, &flags, &read);
			sw_cnt_inc(c, SW_CNT_USTACK_WALKS);
			sw_cnt_add(c, SW_CNT_USTACK_READ, read);
		} else {
			nu = sw_stack_user(uregs, rec->frames + nk, s->o.ustack,
					   &flags);
		}
	}
	if (flags & SW_SAMPLE_F_USTACK_FAULT) {
		if (s->o.stack_drop) {
			sw_cnt_inc(c, SW_CNT_LOST_STACK);
			goto out;	/* reservation abandoned */
		}
		sw_cnt_inc(c, SW_CNT_USTACK_FAULT);
	}
	rec->h.type = SW_REC_SAMPLE;
	rec->h.flags = flags;
	rec->h.size = sizeof(*rec) + 8 * (nk + nu);
	rec->h.time = now;
	rec->pid = pid;
	rec->tid = tid;
	rec->ip = s->hide_kaddr && !user_mode(regs) ? 0 :
		  instruction_pointer(regs);
	rec->period = data->period;
	rec->cpu = smp_processor_id();
	rec->nr_kernel = nk;
	rec->nr_user = nu;
	sw_stage_commit(&c->stage, rec->h.size);
	local_dec(&c->nest);
	sw_samp_kick(s, c);
	return;
out:
	local_dec(&c->nest);
}
NOKPROBE_SYMBOL(sw_overflow);

/* ---- CPU hotplug ----------------------------------------------------------------- */

/*
 * Context: process context, on @cpu itself (the CPU's hotplug thread), for
 * every online CPU at start and for each CPU coming online later.
 */
static int sw_samp_cpu_online(unsigned int cpu)
{
	struct sw_session *s = READ_ONCE(sw_hp_sess);
	struct sw_samp_cpu *c = per_cpu_ptr(s->pcpu, cpu);
	struct perf_event *ev;

	local_irq_disable();
	sw_samp_stream_begin(s, c);
	local_irq_enable();
	if (!cpumask_test_cpu(cpu, s->cpus) || s->o.no_event)
		return 0;
	ev = perf_event_create_kernel_counter(&s->attr, cpu, NULL, sw_overflow,
					      s);
	if (IS_ERR(ev)) {
		/*
		 * At start this aborts the start; later it must not keep
		 * the CPU from coming up: shown in the sampler file.
		 */
		c->error = PTR_ERR(ev);
		return s->starting ? c->error : 0;
	}
	c->error = 0;
	c->event = ev;
	return 0;
}

/*
 * Context: process context, on @cpu itself, at stop, at unload and when
 * the CPU goes offline.  After the event is released no handler runs on
 * this CPU any more, so the ring can be drained to the end.
 */
static int sw_samp_cpu_offline(unsigned int cpu)
{
	struct sw_session *s = READ_ONCE(sw_hp_sess);
	struct sw_samp_cpu *c = per_cpu_ptr(s->pcpu, cpu);

	if (c->event) {
		perf_event_release_kernel(c->event);
		c->event = NULL;
	}
	irq_work_sync(&c->work);
	irq_work_sync(&c->lazy);
	local_irq_disable();
	sw_samp_drain(s, c);
	sw_samp_stream_end(s, c);
	local_irq_enable();
	return 0;
}

/* ---- start and stop ---------------------------------------------------------------- */

static void sw_session_free(struct sw_session *s)
{
	int cpu;

	if (!s)
		return;
	if (s->pcpu) {
		for_each_possible_cpu(cpu)
			kvfree(per_cpu_ptr(s->pcpu, cpu)->stage.data);
		free_percpu(s->pcpu);
	}
	free_cpumask_var(s->cpus);
	kfree(s);
}

/* Tells why @err from creating @ev is not possible here, in sw_error(). */
static void sw_samp_event_error(struct sw_session *s, int cpu, int err)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.disabled = 1,
	};
	struct perf_event *ev;
	const char *name = s->o.ev.name;

	if ((err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV) &&
	    s->attr.type != PERF_TYPE_SOFTWARE) {
		ev = perf_event_create_kernel_counter(&a, cpu, NULL, NULL, NULL);
		if (IS_ERR(ev)) {
			sw_error("sampler: event=%s: this machine has no hardware PMU (no PMU counts cycles), so hardware events cannot be sampled; use event=cpu-clock",
				 name);
			return;
		}
		perf_event_release_kernel(ev);
		if (err == -EOPNOTSUPP)
			sw_error("sampler: event=%s cannot sample on this PMU (no overflow interrupt)",
				 name);
		else
			sw_error("sampler: event=%s is not supported by this machine's PMU",
				 name);
		return;
	}
	sw_error("sampler: event=%s cannot be opened on CPU %d: error %d", name,
		 cpu, err);
}

/* Creates and releases a disabled counter: does the event exist here? */
static int sw_samp_probe_event(struct perf_event_attr *attr, int cpu)
{
	struct perf_event_attr a = *attr;
	struct perf_event *ev;

	a.disabled = 1;
	ev = perf_event_create_kernel_counter(&a, cpu, NULL, sw_overflow, NULL);
	if (IS_ERR(ev))
		return PTR_ERR(ev);
	perf_event_release_kernel(ev);
	return 0;
}

static void sw_samp_fill_attr(struct sw_session *s)
{
	struct perf_event_attr *a = &s->attr;

	memset(a, 0, sizeof(*a));
	a->type = s->o.ev.type;
	a->config = s->o.ev.config;
	a->size = sizeof(*a);
	a->pinned = 1;
	sw_event_attr_modes(a, &s->o.ev);
	if (s->o.freq) {
		a->freq = 1;
		a->sample_freq = s->o.freq;
	} else {
		a->sample_period = s->o.period;
	}
}

/* Checks the CPU list and the pid/tgid filter; fills s->cpus. */
static int sw_samp_check_targets(struct sw_session *s)
{
	struct task_struct *t;
	struct pid *pid;

	if (s->o.cpus[0]) {
		if (cpulist_parse(s->o.cpus, s->cpus)) {
			sw_error("sampler: cpus=%s is not a CPU list", s->o.cpus);
			return -EINVAL;
		}
		if (!cpumask_subset(s->cpus, cpu_possible_mask)) {
			sw_error("sampler: cpus=%s names CPUs this machine does not have (it has %*pbl)",
				 s->o.cpus, cpumask_pr_args(cpu_possible_mask));
			return -EINVAL;
		}
	} else {
		cpumask_copy(s->cpus, cpu_possible_mask);
	}
	if (!cpumask_intersects(s->cpus, cpu_online_mask)) {
		sw_error("sampler: cpus=%s: none of them is online", s->o.cpus);
		return -EINVAL;
	}
	s->filter_tgid = -1;
	if (s->o.pid < 0 && s->o.tgid < 0)
		return 0;
	pid = find_get_pid(s->o.pid >= 0 ? s->o.pid : s->o.tgid);
	t = pid ? get_pid_task(pid, s->o.pid >= 0 ? PIDTYPE_PID : PIDTYPE_TGID) :
		  NULL;
	put_pid(pid);
	if (!t) {
		if (s->o.pid >= 0)
			sw_error("sampler: pid=%d: no such thread", s->o.pid);
		else
			sw_error("sampler: tgid=%d: no such process", s->o.tgid);
		return -ESRCH;
	}
	s->filter_tgid = task_tgid_nr(t);
	put_task_struct(t);
	return 0;
}

/* Picks the event (cycles, else cpu-clock by default) and checks it. */
static int sw_samp_check_event(struct sw_session *s)
{
	int cpu = cpumask_first_and(s->cpus, cpu_online_mask);
	int ret;

	if (s->o.no_event) {
		strscpy(s->o.ev.name, "none", sizeof(s->o.ev.name));
		memset(&s->attr, 0, sizeof(s->attr));
		goto ok;
	}
	if (!s->o.ev_set) {
		sw_event_parse("cycles", &s->o.ev);
		sw_samp_fill_attr(s);
		if (!sw_samp_probe_event(&s->attr, cpu))
			goto ok;
		sw_event_parse("cpu-clock", &s->o.ev);
		s->fallback = true;
	}
	sw_samp_fill_attr(s);
	ret = sw_samp_probe_event(&s->attr, cpu);
	if (ret) {
		sw_samp_event_error(s, cpu, ret);
		return ret;
	}
ok:
	s->stream_flags = 0;
	if (s->o.freq)
		s->stream_flags |= SW_STREAM_F_FREQ;
	if (s->o.callchain & SW_CC_KERNEL)
		s->stream_flags |= SW_STREAM_F_KSTACK;
	if (s->o.callchain & SW_CC_USER)
		s->stream_flags |= SW_STREAM_F_USTACK;
	if (sw_event_is_hw(&s->o.ev)) {
		s->stream_flags |= SW_STREAM_F_HW;
		if (sw_pmu_overflow_is_nmi())
			s->stream_flags |= SW_STREAM_F_NMI;
	}
	if (s->o.pid >= 0)
		s->stream_flags |= SW_STREAM_F_PID;
	if (s->o.tgid >= 0)
		s->stream_flags |= SW_STREAM_F_TGID;
	if (s->o.stack_drop)
		s->stream_flags |= SW_STREAM_F_STACK_DROP;
	return 0;
}

static int sw_samp_alloc_cpus(struct sw_session *s)
{
	int cpu;

	s->pcpu = alloc_percpu(struct sw_samp_cpu);
	if (!s->pcpu)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct sw_samp_cpu *c = per_cpu_ptr(s->pcpu, cpu);
		void *data = NULL;
		int i;

		c->cpu = cpu;
		c->sess = s;
		c->work = IRQ_WORK_INIT_HARD(sw_samp_work);
		c->lazy = IRQ_WORK_INIT_LAZY(sw_samp_work_lazy);
		local_set(&c->nest, 0);
		for (i = 0; i < SW_CNT_NR; i++)
			local64_set(&c->cnt[i], 0);
		/* every CPU: traced calls are written where they return */
		data = kvmalloc_node(stage_size, GFP_KERNEL, cpu_to_node(cpu));
		if (!data)
			return -ENOMEM;
		sw_stage_init(&c->stage, data, stage_size);
	}
	return 0;
}

/*
 * Starts a session with settings @o.  Nothing is left half-done on
 * failure: the previous (stopped) session's counters stay readable.
 *
 * Context: process context, sw_samp_lock held.
 */
static int sw_samp_start(const struct sw_samp_opts *o)
{
	struct sw_session *s;
	u32 frames = 0;
	int ret;

	if (sw_sess && sw_sess->running) {
		sw_error("sampler: already running (session %u); write stop first",
			 sw_sess->number);
		return -EBUSY;
	}
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	if (!zalloc_cpumask_var(&s->cpus, GFP_KERNEL)) {
		kfree(s);
		return -ENOMEM;
	}
	s->o = *o;
	s->relay = &sw_samples_relay;
	/* as /proc/kallsyms would show them to the task that starts */
	s->hide_kaddr = !sw_kallsyms_show_value();
	ret = sw_samp_check_targets(s);
	if (!ret)
		ret = sw_samp_check_event(s);
	if (ret)
		goto out_free;
	if (s->o.callchain & SW_CC_KERNEL)
		frames += s->o.kstack;
	if (s->o.callchain & SW_CC_USER)
		frames += s->o.ustack;
	s->max_rec = sizeof(struct sw_rec_sample) + 8 * frames;
	if (s->max_rec > stage_size / 2) {
		/* sw_stage_reserve() refuses a record over half the ring */
		sw_error("sampler: stage_size=%u is too small for these stacks (callchain kstack=%u ustack=%u: a sample takes up to %u bytes, the ring must hold two): the least is %u; load with a larger stage_size or lower kstack/ustack",
			 stage_size, s->o.kstack, s->o.ustack, s->max_rec,
			 (u32)roundup_pow_of_two(2 * s->max_rec));
		ret = -EINVAL;
		goto out_free;
	}
	if (s->o.max_rate) {
		/* 10 ms windows, or one sample per 1/max_rate s if slower */
		s->win_ns = s->o.max_rate >= 100 ? 10 * NSEC_PER_MSEC :
			    NSEC_PER_SEC / s->o.max_rate;
		s->win_limit = s->o.max_rate >= 100 ? s->o.max_rate / 100 : 1;
	}
	ret = sw_samp_alloc_cpus(s);
	if (ret)
		goto out_free;
	ret = sw_relay_open(&sw_samples_relay);
	if (ret) {
		sw_error("sampler: cannot allocate relay buffers (%u x %u bytes per CPU)",
			 n_subbufs, subbuf_size);
		goto out_free;
	}
	sw_relay_reset(&sw_samples_relay);
	s->number = ++sw_sessions;
	s->t_start = sw_clock_ns();
	WRITE_ONCE(sw_hp_sess, s);
	ret = sw_sb_start(s);
	if (ret)
		goto out_clear;
	sw_sb_synthesize(s);
	s->starting = true;
	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "stopwatch/sampler:online",
				sw_samp_cpu_online, sw_samp_cpu_offline);
	s->starting = false;
	if (ret < 0) {
		int cpu, err = ret;

		for_each_possible_cpu(cpu)
			if (per_cpu_ptr(s->pcpu, cpu)->error)
				err = per_cpu_ptr(s->pcpu, cpu)->error;
		sw_samp_event_error(s, cpumask_first_and(s->cpus,
							 cpu_online_mask), err);
		goto out_sb_stop;
	}
	s->hp_state = ret;
	s->running = true;
	sw_trace_session_set(s);
	sw_session_free(sw_sess);
	sw_sess = s;
	return 0;

out_sb_stop:
	sw_sb_stop(s);
out_clear:
	WRITE_ONCE(sw_hp_sess, NULL);
out_free:
	sw_session_free(s);
	return ret;
}

/*
 * Stops the running session: side-band hooks first, then every CPU's
 * counter (each CPU drains its ring and writes its END record).
 *
 * Context: process context, sw_samp_lock held.
 */
static void sw_samp_stop(struct sw_session *s)
{
	int cpu;

	/* no traced call writes into the rings after this */
	sw_trace_session_set(NULL);
	sw_sb_stop(s);
	cpuhp_remove_state(s->hp_state);
	s->hp_state = 0;
	s->running = false;
	s->t_stop = sw_clock_ns();
	WRITE_ONCE(sw_hp_sess, NULL);
	/* wake readers polling for the last, partial sub-buffers */
	sw_relay_flush(&sw_samples_relay);
	for_each_possible_cpu(cpu) {
		struct sw_samp_cpu *c = per_cpu_ptr(s->pcpu, cpu);

		kvfree(c->stage.data);
		sw_stage_init(&c->stage, NULL, 0);
	}
}

/* ---- the sampler control file ------------------------------------------------------- */

static void sw_samp_show_settings(struct seq_file *m, struct sw_session *s)
{
	char cc[16];

	sw_samp_callchain_str(s->o.callchain, cc, sizeof(cc));
	seq_printf(m, "session    %u\n", s->number);
	seq_printf(m, "event      %s type=%u config=0x%llx%s%s%s\n",
		   s->o.ev.name, s->attr.type,
		   (unsigned long long)s->attr.config,
		   s->attr.exclude_kernel ? " user mode only" : "",
		   s->attr.exclude_user ? " kernel mode only" : "",
		   s->fallback ? " (default cycles unavailable: no hardware PMU)" :
		   "");
	if (s->o.freq)
		seq_printf(m, "rate       freq=%llu Hz\n",
			   (unsigned long long)s->o.freq);
	else
		seq_printf(m, "rate       period=%llu\n",
			   (unsigned long long)s->o.period);
	seq_printf(m, "delivery   %s\n",
		   s->stream_flags & SW_STREAM_F_NMI ? "nmi" :
		   s->stream_flags & SW_STREAM_F_HW ? "irq" : "hrtimer irq");
	seq_printf(m, "callchain  %s kstack=%u ustack=%u stack_fail=%s unwind=%s\n",
		   cc, s->o.kstack, s->o.ustack,
		   s->o.stack_drop ? "drop" : "keep",
		   s->o.unwind_table ? "table" : "fp");
	seq_printf(m, "cpus       %*pbl\n", cpumask_pr_args(s->cpus));
	if (s->o.pid >= 0)
		seq_printf(m, "filter     pid=%d\n", s->o.pid);
	else if (s->o.tgid >= 0)
		seq_printf(m, "filter     tgid=%d\n", s->o.tgid);
	else
		seq_puts(m, "filter     none\n");
	seq_printf(m, "max_rate   %u\n", s->o.max_rate);
	seq_printf(m, "kaddr      %s\n", s->hide_kaddr ?
		   "hidden (kptr_restrict: kernel addresses are 0)" : "shown");
	seq_printf(m, "duration_ns %llu\n",
		   (s->running ? sw_clock_ns() : s->t_stop) - s->t_start);
}

static const char *const sw_cnt_names[SW_CNT_NR] = {
	[SW_CNT_TAKEN] = "taken",
	[SW_CNT_WRITTEN] = "written",
	[SW_CNT_LOST_FULL] = "lost_full",
	[SW_CNT_LOST_NESTED] = "lost_nested",
	[SW_CNT_LOST_STACK] = "lost_stack",
	[SW_CNT_LOST_THROTTLED] = "lost_throttled",
	[SW_CNT_FILTERED] = "filtered",
	[SW_CNT_SB_WRITTEN] = "sb_written",
	[SW_CNT_SB_LOST] = "sb_lost",
	[SW_CNT_USTACK_FAULT] = "ustack_fault",
	[SW_CNT_NMI] = "nmi",
	[SW_CNT_BYTES] = "bytes",
	[SW_CNT_SB_MMAP_POOL] = "sb_mmap_pool",
	[SW_CNT_SB_MMAP_TASK] = "sb_mmap_task",
	[SW_CNT_SB_MMAP_NOMEM] = "sb_mmap_nomem",
	[SW_CNT_CALL_TAKEN] = "call_taken",
	[SW_CNT_CALL_WRITTEN] = "call_written",
	[SW_CNT_CALL_LOST_FULL] = "call_lost_full",
	[SW_CNT_CALL_LOST_NESTED] = "call_lost_nested",
	[SW_CNT_USTACK_WALKS] = "ustack_walks",
	[SW_CNT_USTACK_READ] = "ustack_read",
	[SW_CNT_KTHROTTLED] = "kthrottled",
};

/* One row: cpu, the counters, queued (taken - written - lost), error. */
static void sw_samp_show_row(struct seq_file *m, const char *label,
			     const u64 *v, int err)
{
	u64 done = v[SW_CNT_WRITTEN] + v[SW_CNT_LOST_FULL] +
		   v[SW_CNT_LOST_NESTED] + v[SW_CNT_LOST_STACK] +
		   v[SW_CNT_LOST_THROTTLED];
	int i;

	seq_printf(m, "%-5s", label);
	for (i = 0; i < SW_CNT_NR; i++)
		seq_printf(m, " %12llu", (unsigned long long)v[i]);
	seq_printf(m, " %12lld %6d\n", (long long)(v[SW_CNT_TAKEN] - done),
		   err);
}

static int sw_samp_show(struct seq_file *m)
{
	struct sw_session *s;
	u64 v[SW_CNT_NR], sum[SW_CNT_NR] = {};
	int cpu, i;

	mutex_lock(&sw_samp_lock);
	s = sw_sess;
	seq_printf(m, "state      %s\n",
		   s && s->running ? "running" : "stopped");
	seq_printf(m, "buffers    subbuf_size=%u n_subbufs=%u stage_size=%u\n",
		   subbuf_size, n_subbufs, stage_size);
	if (!s) {
		mutex_unlock(&sw_samp_lock);
		return 0;
	}
	sw_samp_show_settings(m, s);
	seq_printf(m, "%-5s", "cpu");
	for (i = 0; i < SW_CNT_NR; i++)
		seq_printf(m, " %12s", sw_cnt_names[i]);
	seq_printf(m, " %12s %6s\n", "queued", "error");
	for_each_possible_cpu(cpu) {
		struct sw_samp_cpu *c = per_cpu_ptr(s->pcpu, cpu);
		char label[12];

		for (i = 0; i < SW_CNT_NR; i++) {
			v[i] = sw_cnt(c, i);
			sum[i] += v[i];
		}
		snprintf(label, sizeof(label), "%d", cpu);
		sw_samp_show_row(m, label, v, c->error);
	}
	sw_samp_show_row(m, "all", sum, 0);
	mutex_unlock(&sw_samp_lock);
	return 0;
}

/* Settings of a bare "start": the module parameters that apply to all. */
static void sw_samp_defaults(struct sw_samp_opts *o)
{
	sw_samp_opts_default(o);
	o->max_rate = max_sample_rate;
}

/* "start [key=value ...]" or "stop"; the whole write, NUL-terminated. */
static int sw_samp_apply(char *buf)
{
	struct sw_samp_opts defs, o;
	struct sw_parse_err perr;
	char msg[160];
	int cmd, ret = 0;

	sw_samp_defaults(&defs);
	cmd = sw_samp_parse_cmd(buf, &defs, &o, &perr);
	if (cmd < 0) {
		sw_parse_err_str(&perr, msg, sizeof(msg));
		sw_error("sampler: %s", msg);
		return cmd;
	}
	mutex_lock(&sw_samp_lock);
	if (cmd == SW_CMD_START) {
		ret = sw_samp_start(&o);
	} else if (sw_sess && sw_sess->running) {
		sw_samp_stop(sw_sess);
	} else {
		sw_error("sampler: not running");
		ret = -EINVAL;
	}
	mutex_unlock(&sw_samp_lock);
	return ret;
}

static const struct sw_ctl_file sw_samp_ctl = {
	.show = sw_samp_show,
	.apply = sw_samp_apply,
};

/* ---- load and unload ------------------------------------------------------------------ */

static int __init sw_samp_check_params(void)
{
	if (subbuf_size < SW_REC_MAX_SIZE || subbuf_size > (64U << 20) ||
	    subbuf_size % 8) {
		sw_error("subbuf_size=%u is not a multiple of 8 from %d to %u",
			 subbuf_size, SW_REC_MAX_SIZE, 64U << 20);
		return -EINVAL;
	}
	if (n_subbufs < 2 || n_subbufs > 4096) {
		sw_error("n_subbufs=%u is outside 2..4096", n_subbufs);
		return -EINVAL;
	}
	if (stage_size < SW_STAGE_MIN || stage_size > SW_STAGE_MAX ||
	    !is_power_of_2(stage_size)) {
		sw_error("stage_size=%u is not a power of two from %u to %u",
			 stage_size, SW_STAGE_MIN, SW_STAGE_MAX);
		return -EINVAL;
	}
	if (max_sample_rate > SW_RATE_MAX) {
		sw_error("max_sample_rate=%u is larger than %u",
			 max_sample_rate, SW_RATE_MAX);
		return -EINVAL;
	}
	return 0;
}

/* One setting from a module parameter; the error names it. */
static int __init sw_samp_param_set(struct sw_samp_opts *o, const char *key,
				    const char *val)
{
	struct sw_parse_err perr;
	int ret = sw_samp_opt_set(o, key, val, &perr);

	if (ret)
		sw_error("sample parameters: %s=%.64s: %s", key, val, perr.why);
	return ret;
}

/* Settings from sample= and its companions; errors name the parameter. */
static int __init sw_samp_param_opts(struct sw_samp_opts *o)
{
	struct sw_parse_err perr;
	char num[24];
	int ret;

	sw_samp_defaults(o);
	ret = sw_samp_param_set(o, "event", sample);
	if (!ret && callchain && *callchain)
		ret = sw_samp_param_set(o, "callchain", callchain);
	if (!ret && sample_cpus && *sample_cpus)
		ret = sw_samp_param_set(o, "cpus", sample_cpus);
	if (!ret && sample_period) {
		snprintf(num, sizeof(num), "%lu", sample_period);
		ret = sw_samp_param_set(o, "period", num);
	}
	if (!ret && sample_freq) {
		snprintf(num, sizeof(num), "%u", sample_freq);
		ret = sw_samp_param_set(o, "freq", num);
	}
	if (!ret && sample_pid) {
		snprintf(num, sizeof(num), "%d", sample_pid);
		ret = sw_samp_param_set(o, "pid", num);
	}
	if (!ret && sample_tgid) {
		snprintf(num, sizeof(num), "%d", sample_tgid);
		ret = sw_samp_param_set(o, "tgid", num);
	}
	if (ret)
		return ret;
	ret = sw_samp_opts_check(o, &perr);
	if (ret)
		sw_error("sample parameters: %s", perr.why);
	return ret;
}

/**
 * sw_sampler_init() - create sampler and samples/; start if sample= is set.
 *
 * Context: process context (module init), after sw_debugfs_init().
 * Return: 0 or a negative errno; nothing is left behind on failure.
 */
int __init sw_sampler_init(void)
{
	struct sw_samp_opts o;
	struct sw_file *d;
	int ret;

	ret = sw_samp_check_params();
	if (ret)
		return ret;
	ret = sw_relay_init(&sw_samples_relay, sw_debugfs_root(), subbuf_size,
			    n_subbufs);
	if (ret)
		return ret;
	ret = sw_unwind_init();
	if (ret)
		goto out_relay_exit;
	d = sw_debugfs_add_ctl("sampler", 0600, sw_debugfs_root(), &sw_samp_ctl);
	if (IS_ERR(d)) {
		ret = PTR_ERR(d);
		goto out_unwind_exit;
	}
	sw_samp_file = d;
	if (!sample || !*sample)
		return 0;
	ret = sw_samp_param_opts(&o);
	if (ret)
		goto out_remove_file;
	mutex_lock(&sw_samp_lock);
	ret = sw_samp_start(&o);
	mutex_unlock(&sw_samp_lock);
	if (ret)
		goto out_remove_file;
	return 0;

out_remove_file:
	sw_debugfs_remove(&sw_samp_file);
	sw_samp_file = NULL;
out_unwind_exit:
	sw_unwind_exit();
out_relay_exit:
	sw_relay_exit(&sw_samples_relay);
	return ret;
}

/**
 * sw_sampler_exit() - stop sampling, close the relay channel, remove files.
 *
 * The control file goes first (waiting for writers in progress), so no
 * start can race with unload.
 *
 * Context: process context (module exit or failed init), before
 * sw_debugfs_exit().
 */
void sw_sampler_exit(void)
{
	sw_debugfs_remove(&sw_samp_file);
	sw_samp_file = NULL;
	mutex_lock(&sw_samp_lock);
	if (sw_sess && sw_sess->running)
		sw_samp_stop(sw_sess);
	sw_session_free(sw_sess);
	sw_sess = NULL;
	mutex_unlock(&sw_samp_lock);
	sw_unwind_exit();
	sw_relay_exit(&sw_samples_relay);
}
