// SPDX-License-Identifier: GPL-2.0
/*
 * sideband.c - the records that let a reader turn a sample's pid/ip into
 * an image and an offset, even after the process is gone.
 *
 * The choice (see stopwatch/abi.h): rather than look up a vma per sample
 * (impossible in NMI without trylocks that fail exactly when a process is
 * busy mapping), stopwatch follows perf's COMM/MMAP2 model.  Changes to
 * the task and address-space state are recorded as they happen, in the
 * same per-CPU streams as the samples and stamped with the same clock:
 *
 *   fork, exit       tracepoints sched_process_fork / sched_process_exit
 *   comm, exec       tracepoint task_rename (an exec is a rename while the
 *                    task is in execve, before the new image is mapped)
 *   executable mmap  a kprobe on perf_event_mmap(), the hook the kernel
 *                    calls for every new or newly executable mapping
 *                    (mmap, mprotect(PROT_EXEC), exec, special mappings);
 *                    the handler copies what the record needs and takes a
 *                    reference on the file, and the record (path, build-id)
 *                    is made by a task_work of the mapping task, in process
 *                    context before it returns to user space, so before it
 *                    runs code from the mapping
 *   kernel modules   a module notifier (load/unload)
 *
 * and at start the current state is synthesized: the kernel's release and
 * KASLR reference, every loaded module, every thread's name and every
 * process's executable mappings.  Recording only executable mappings keeps
 * the volume small; the reader needs nothing else to map code addresses.
 *
 * All records go through sw_samp_emit(): interrupts off, this CPU's relay
 * buffer, after the samples already staged on this CPU.
 */
#include <linux/dcache.h>
#include <linux/elf.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/module.h>
#include <linux/pagemap.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/task_work.h>
#include <linux/tracepoint.h>
#include <linux/utsname.h>
#include <linux/wait_bit.h>

#include "control/control.h"
#include "wrapper/module.h"
#include "wrapper/timekeeping.h"
#include "wrapper/tracepoint.h"
#include "buildid.h"
#include "session.h"
#include "utables.h"

/* MMAP records waiting for their task to reach process context. */
#define SW_SB_DEFER_MAX 512

/**
 * struct sw_sb_map - what an MMAP record says of one mapping, copied from
 * its vma while the vma may be looked at.
 * @file:  the mapped file or NULL; a reference of its own when deferred
 * @start: first address
 * @len:   length in bytes
 * @pgoff: file offset in bytes
 * @prot:  PROT_* of the mapping
 * @pid:   process
 * @tid:   thread that mapped it (the process for synthesized records)
 * @name:  without a file: the special mapping's name ("[vdso]"), or empty
 * @task:  a thread of @pid that stays alive while the record is made
 *         (current in the task_work, referenced in the start-time walk)
 * @mm:    the address space mapped into (an identity for the unwind
 *         tables, never dereferenced)
 */
struct sw_sb_map {
	struct file *file;
	u64 start;
	u64 len;
	u64 pgoff;
	u32 prot;
	u32 pid;
	u32 tid;
	char name[32];
	struct task_struct *task;
	const struct mm_struct *mm;
};

/**
 * struct sw_sb_defer - one MMAP record to make in its task's task_work.
 * @cb: the task_work (first: the pool's slots are found from it)
 * @s:  the session; stop waits for every deferred record before it goes
 * @m:  the mapping, @m.file referenced
 */
struct sw_sb_defer {
	struct callback_head cb;
	struct sw_session *s;
	struct sw_sb_map m;
};

/**
 * struct sw_sb - side-band hooks of the running session.
 * @s:        the session, or NULL
 * @kp:       kprobe on perf_event_mmap
 * @kp_on:    @kp registered
 * @nb:       module notifier
 * @nb_on:    @nb registered
 * @defer:    SW_SB_DEFER_MAX deferred records
 * @used:     bit per slot of @defer: claimed
 * @inflight: task_works queued and not yet finished
 */
struct sw_sb {
	struct sw_session *s;
	struct kprobe kp;
	bool kp_on;
	struct notifier_block nb;
	bool nb_on;
	struct sw_sb_defer *defer;
	unsigned long used[BITS_TO_LONGS(SW_SB_DEFER_MAX)];
	atomic_t inflight;
};

static struct sw_sb sw_sb;

/* Whether side-band records about process @tgid are wanted. */
static bool sw_sb_wanted(struct sw_session *s, pid_t tgid)
{
	return s->filter_tgid < 0 || s->filter_tgid == tgid;
}

static void sw_sb_header(struct sw_rec_header *h, u16 type, u16 flags,
			 u32 size)
{
	h->type = type;
	h->flags = flags;
	h->size = size;
	h->time = sw_clock_ns();
}

/* Context: process context. */
static void sw_sb_comm(struct sw_session *s, struct task_struct *t,
		       const char *comm, u16 flags)
{
	struct sw_rec_comm r;

	memset(&r, 0, sizeof(r));
	sw_sb_header(&r.h, SW_REC_COMM, flags, sizeof(r));
	r.pid = task_tgid_nr(t);
	r.tid = task_pid_nr(t);
	strscpy_pad(r.comm, comm, sizeof(r.comm));
	sw_samp_emit(s, &r, sizeof(r));
}

static u32 sw_sb_prot(unsigned long vm_flags)
{
	return (vm_flags & VM_READ ? PROT_READ : 0) |
	       (vm_flags & VM_WRITE ? PROT_WRITE : 0) |
	       (vm_flags & VM_EXEC ? PROT_EXEC : 0);
}

/* Counts a side-band record lost for @cause (also in sb_lost). */
static void sw_sb_lost(struct sw_session *s, int cause)
{
	struct sw_samp_cpu *c = get_cpu_ptr(s->pcpu);

	sw_cnt_inc(c, cause);
	sw_cnt_inc(c, SW_CNT_SB_LOST);
	put_cpu_ptr(s->pcpu);
}

/*
 * What the MMAP record of @vma says, but its path and build-id.  Takes no
 * lock and no reference: @m->file is @vma's.
 *
 * Context: any in which @vma is stable (its mm's mmap_lock held).
 */
static void sw_sb_map_fill(struct sw_sb_map *m, struct vm_area_struct *vma)
{
	const char *name = NULL;

	m->file = vma->vm_file;
	m->start = vma->vm_start;
	m->len = vma->vm_end - vma->vm_start;
	m->pgoff = (u64)vma->vm_pgoff << PAGE_SHIFT;
	m->prot = sw_sb_prot(vma->vm_flags);
	m->name[0] = '\0';
	m->task = NULL;
	m->mm = vma->vm_mm;
	if (!m->file && vma->vm_ops && vma->vm_ops->name)
		name = vma->vm_ops->name(vma);
	if (name)
		strscpy(m->name, name, sizeof(m->name));
}

/*
 * Builds in @r (SW_REC_MAX_SIZE bytes) and emits the MMAP record of @m.
 *
 * Context: process context, may sleep (d_path() and the build-id's page
 * take sleeping locks under PREEMPT_RT); @m->file referenced.
 */
static void sw_sb_mmap(struct sw_session *s, struct sw_rec_mmap *r,
		       const struct sw_sb_map *m, u16 flags)
{
	char *area = (char *)(r + 1);
	size_t room = SW_REC_MAX_SIZE - sizeof(*r), plen, size;

	memset(r, 0, sizeof(*r));
	if (m->file) {
		struct inode *inode = file_inode(m->file);
		char *p = d_path(&m->file->f_path, area, room);

		if (IS_ERR(p))
			strscpy(area, "//unreachable", room);
		else
			memmove(area, p, strlen(p) + 1);
		r->pgoff = m->pgoff;
		r->ino = inode->i_ino;
		r->ino_generation = inode->i_generation;
		r->dev_major = MAJOR(inode->i_sb->s_dev);
		r->dev_minor = MINOR(inode->i_sb->s_dev);
		r->build_id_size = sw_file_build_id(m->file, r->build_id);
		if (r->build_id_size)
			flags |= SW_MMAP_F_BUILD_ID;
	} else if (m->name[0]) {
		strscpy(area, m->name, room);
	} else {
		strscpy(area, "//anon", room);
		flags |= SW_MMAP_F_ANON;
	}
	plen = strlen(area) + 1;
	size = sizeof(*r) + ALIGN(plen, SW_REC_ALIGN);
	memset(area + plen, 0, ALIGN(plen, SW_REC_ALIGN) - plen);
	sw_sb_header(&r->h, SW_REC_MMAP, flags, size);
	r->pid = m->pid;
	r->tid = m->tid;
	r->start = m->start;
	r->len = m->len;
	r->prot = m->prot;
	r->path_len = plen;
	if (s->o.unwind_table && m->task)
		sw_unw_sb_map(m->task, m->mm, r->start, r->len, r->pgoff,
			      (flags & SW_MMAP_F_BUILD_ID) ? r->build_id : NULL,
			      r->build_id_size);
	sw_samp_emit(s, r, size);
}

/* ---- deferred MMAP records ----------------------------------------------------- */

/* Context: any, no lock: a slot is claimed with an atomic bit operation. */
static struct sw_sb_defer *sw_sb_defer_get(void)
{
	unsigned int i;

	for (i = find_first_zero_bit(sw_sb.used, SW_SB_DEFER_MAX);
	     i < SW_SB_DEFER_MAX;
	     i = find_next_zero_bit(sw_sb.used, SW_SB_DEFER_MAX, i + 1))
		if (!test_and_set_bit_lock(i, sw_sb.used))
			return &sw_sb.defer[i];
	return NULL;
}

/*
 * Drops the slot's file reference and frees the slot.  In the kprobe
 * handler the reference is never the file's last (the vma holds one), so
 * fput() only counts down there.
 */
static void sw_sb_defer_put(struct sw_sb_defer *d)
{
	if (d->m.file)
		fput(d->m.file);
	d->m.file = NULL;
	clear_bit_unlock(d - sw_sb.defer, sw_sb.used);
}

/*
 * One deferred task_work less; the last wakes sw_sb_stop().  Under RCU so
 * that stop's synchronize_rcu() also waits for the instructions after the
 * decrement.
 */
static void sw_sb_defer_done(void)
{
	rcu_read_lock();
	if (atomic_dec_and_test(&sw_sb.inflight))
		wake_up_var(&sw_sb.inflight);
	rcu_read_unlock();
}

/*
 * Context: task_work of the task that mapped: process context, before it
 * returns to user space (or in its exit), may sleep, no lock held.
 */
static void sw_sb_mmap_deferred(struct callback_head *cb)
{
	struct sw_sb_defer *d = container_of(cb, struct sw_sb_defer, cb);
	struct sw_rec_mmap *r = kmalloc(SW_REC_MAX_SIZE, GFP_KERNEL);

	if (r)
		sw_sb_mmap(d->s, r, &d->m, 0);
	else
		sw_sb_lost(d->s, SW_CNT_SB_MMAP_NOMEM);
	kfree(r);
	sw_sb_defer_put(d);
	sw_sb_defer_done();
}

/*
 * Context: process context (module notifier, or start with preemption
 * disabled for the module list walk).
 */
static void sw_sb_module(struct sw_session *s, const struct module *mod,
			 u16 flags)
{
	struct sw_rec_module r;
	unsigned long base;
	unsigned int size, text;

	memset(&r, 0, sizeof(r));
	sw_sb_header(&r.h, SW_REC_MODULE, flags, sizeof(r));
	sw_module_core(mod, &base, &size, &text);
	r.base = s->hide_kaddr ? 0 : base;
	r.size = size;
	r.text_size = text;
	strscpy_pad(r.name, mod->name, sizeof(r.name));
	sw_samp_emit(s, &r, sizeof(r));
}

/* ---- hooks ------------------------------------------------------------------- */

/* Context: tracepoint in kernel_clone(), process context, preemption off. */
static void sw_tp_fork(void *data, struct task_struct *parent,
		       struct task_struct *child)
{
	struct sw_session *s = data;
	struct sw_rec_fork r;

	if (!sw_sb_wanted(s, task_tgid_nr(child)))
		return;
	memset(&r, 0, sizeof(r));
	sw_sb_header(&r.h, SW_REC_FORK,
		     same_thread_group(parent, child) ? SW_FORK_F_THREAD : 0,
		     sizeof(r));
	r.pid = task_tgid_nr(child);
	r.tid = task_pid_nr(child);
	r.ppid = task_tgid_nr(parent);
	r.ptid = task_pid_nr(parent);
	strscpy_pad(r.comm, child->comm, sizeof(r.comm));
	sw_samp_emit(s, &r, sizeof(r));
}

/* Context: tracepoint in do_exit(), process context, preemption off. */
static void sw_tp_exit(void *data, struct task_struct *p)
{
	struct sw_session *s = data;
	struct sw_rec_exit r;

	if (!sw_sb_wanted(s, task_tgid_nr(p)))
		return;
	memset(&r, 0, sizeof(r));
	sw_sb_header(&r.h, SW_REC_EXIT, 0, sizeof(r));
	r.pid = task_tgid_nr(p);
	r.tid = task_pid_nr(p);
	sw_samp_emit(s, &r, sizeof(r));
}

/*
 * Context: tracepoint in __set_task_comm() (task_lock held, preemption
 * off; under PREEMPT_RT task_lock is a sleeping lock, but tracepoint probes
 * still run with preemption disabled).  During execve it runs after the old image is dropped and before
 * the new one is mapped, which is exactly where the reader must forget the
 * old mappings.
 */
static void sw_tp_rename(void *data, struct task_struct *task,
			 const char *comm)
{
	struct sw_session *s = data;
	bool exec = task == current && current->in_execve;

	if (!sw_sb_wanted(s, task_tgid_nr(task)))
		return;
	sw_sb_comm(s, task, comm, exec ? SW_COMM_F_EXEC : 0);
}

/*
 * Context: kprobe on perf_event_mmap(vma): process context of the task
 * whose address space changes, its mmap_lock held, preemption off (the
 * handler may run as a debug exception); the same under PREEMPT_RT, where
 * d_path() and a page's last put could sleep: both wait for the task_work.
 * No lock, no allocation: a slot of the preallocated pool, a file
 * reference (an atomic increment) and task_work_add() (a cmpxchg).
 */
static int sw_kp_mmap(struct kprobe *kp, struct pt_regs *regs)
{
	struct vm_area_struct *vma =
		(struct vm_area_struct *)regs_get_kernel_argument(regs, 0);
	struct sw_session *s = READ_ONCE(sw_sb.s);
	struct task_struct *t = current;
	struct sw_sb_defer *d;

	if (!s || !vma || !(vma->vm_flags & VM_EXEC) ||
	    !sw_sb_wanted(s, task_tgid_nr(t)))
		return 0;
	if (t->flags & PF_KTHREAD) {
		sw_sb_lost(s, SW_CNT_SB_MMAP_TASK);
		return 0;
	}
	d = sw_sb_defer_get();
	if (!d) {
		sw_sb_lost(s, SW_CNT_SB_MMAP_POOL);
		return 0;
	}
	d->s = s;
	sw_sb_map_fill(&d->m, vma);
	d->m.pid = task_tgid_nr(t);
	d->m.tid = task_pid_nr(t);
	d->m.task = t;
	if (d->m.file)
		get_file(d->m.file);
	atomic_inc(&sw_sb.inflight);
	init_task_work(&d->cb, sw_sb_mmap_deferred);
	if (task_work_add(t, &d->cb, TWA_RESUME)) {
		/* the task is past running its task_works: exiting */
		sw_sb_defer_put(d);
		atomic_dec(&sw_sb.inflight);
		sw_sb_lost(s, SW_CNT_SB_MMAP_TASK);
	}
	return 0;
}

/* Context: process context (module loader), may sleep. */
static int sw_sb_module_notify(struct notifier_block *nb, unsigned long action,
			       void *data)
{
	struct sw_session *s = READ_ONCE(sw_sb.s);

	if (!s)
		return NOTIFY_DONE;
	if (action == MODULE_STATE_COMING)
		sw_sb_module(s, data, SW_MODULE_F_LOAD);
	else if (action == MODULE_STATE_GOING)
		sw_sb_module(s, data, SW_MODULE_F_UNLOAD);
	return NOTIFY_DONE;
}

static struct {
	const char *name;
	void *probe;
	struct tracepoint *tp;
	bool on;
} sw_tps[] = {
	{ "sched_process_fork", sw_tp_fork },
	{ "sched_process_exit", sw_tp_exit },
	{ "task_rename", sw_tp_rename },
};

/**
 * sw_sb_stop() - remove the side-band hooks and wait for running ones.
 * @s: session
 *
 * Context: process context; also undoes a partial sw_sb_start().
 */
void sw_sb_stop(struct sw_session *s)
{
	bool tp = false;
	size_t i;

	if (sw_sb.nb_on)
		unregister_module_notifier(&sw_sb.nb);
	sw_sb.nb_on = false;
	if (sw_sb.kp_on)
		unregister_kprobe(&sw_sb.kp);	/* waits for handlers */
	sw_sb.kp_on = false;
	/*
	 * Every queued task_work runs before its task returns to user space
	 * or in its exit: the records of mappings made until now are made.
	 */
	wait_var_event(&sw_sb.inflight, !atomic_read(&sw_sb.inflight));
	synchronize_rcu();
	for (i = 0; i < ARRAY_SIZE(sw_tps); i++) {
		if (sw_tps[i].on) {
			tracepoint_probe_unregister(sw_tps[i].tp,
						    sw_tps[i].probe, s);
			tp = true;
		}
		sw_tps[i].on = false;
	}
	if (tp)
		tracepoint_synchronize_unregister();
	WRITE_ONCE(sw_sb.s, NULL);
	kfree(sw_sb.defer);
	sw_sb.defer = NULL;
}

/**
 * sw_sb_start() - install the side-band hooks for session @s.
 * @s: session; its per-CPU state and the relay channel are ready
 *
 * Context: process context.
 * Return: 0 or a negative errno (reported with sw_error); nothing stays
 * installed on failure.
 */
int sw_sb_start(struct sw_session *s)
{
	size_t i;
	int ret;

	sw_sb.defer = kcalloc(SW_SB_DEFER_MAX, sizeof(*sw_sb.defer),
			      GFP_KERNEL);
	if (!sw_sb.defer)
		return -ENOMEM;
	bitmap_zero(sw_sb.used, SW_SB_DEFER_MAX);
	atomic_set(&sw_sb.inflight, 0);
	WRITE_ONCE(sw_sb.s, s);
	for (i = 0; i < ARRAY_SIZE(sw_tps); i++) {
		sw_tps[i].tp = sw_tracepoint_find(sw_tps[i].name);
		if (!sw_tps[i].tp) {
			sw_error("sampler: kernel has no %s tracepoint (needed for task records)",
				 sw_tps[i].name);
			ret = -ENOENT;
			goto out_stop;
		}
		ret = tracepoint_probe_register(sw_tps[i].tp, sw_tps[i].probe, s);
		if (ret) {
			sw_error("sampler: cannot attach to tracepoint %s: error %d",
				 sw_tps[i].name, ret);
			goto out_stop;
		}
		sw_tps[i].on = true;
	}
	memset(&sw_sb.kp, 0, sizeof(sw_sb.kp));
	sw_sb.kp.symbol_name = "perf_event_mmap";
	sw_sb.kp.pre_handler = sw_kp_mmap;
	ret = register_kprobe(&sw_sb.kp);
	if (ret) {
		sw_error("sampler: cannot probe perf_event_mmap (needed for mmap records): error %d",
			 ret);
		goto out_stop;
	}
	sw_sb.kp_on = true;
	memset(&sw_sb.nb, 0, sizeof(sw_sb.nb));
	sw_sb.nb.notifier_call = sw_sb_module_notify;
	ret = register_module_notifier(&sw_sb.nb);
	if (ret) {
		sw_error("sampler: cannot register a module notifier: error %d",
			 ret);
		goto out_stop;
	}
	sw_sb.nb_on = true;
	return 0;

out_stop:
	sw_sb_stop(s);
	return ret;
}

/* ---- synthesis at start --------------------------------------------------------- */

static void sw_sb_kernel(struct sw_session *s)
{
	struct sw_rec_kernel r;

	memset(&r, 0, sizeof(r));
	sw_sb_header(&r.h, SW_REC_KERNEL, SW_REC_F_SYNTH, sizeof(r));
	r.ref_addr = s->hide_kaddr ? 0 : (unsigned long)schedule;
	strscpy_pad(r.ref_name, "schedule", sizeof(r.ref_name));
	strscpy_pad(r.release, init_utsname()->release, sizeof(r.release));
	strscpy_pad(r.machine, init_utsname()->machine, sizeof(r.machine));
	sw_samp_emit(s, &r, sizeof(r));
}

/*
 * Every loaded module.  The module list head is not exported; its members
 * link into a ring through this module, so the ring is walked from here
 * and the one node that is not a module (the list head, which lives in
 * kernel data) is recognised by not lying inside its own core region,
 * where every struct module lives.
 */
static void sw_sb_modules(struct sw_session *s)
{
	struct list_head *pos;

	sw_sb_module(s, THIS_MODULE, SW_REC_F_SYNTH);
	/*
	 * A module is freed after a grace period that waits for RCU readers
	 * (synchronize_rcu() in its unload).  rcu_read_lock(), not
	 * preempt_disable(): list_for_each_rcu()'s rcu_dereference() checks
	 * for an RCU reader, and on PREEMPT_RT the section stays preemptible.
	 */
	rcu_read_lock();
	list_for_each_rcu(pos, &THIS_MODULE->list) {
		struct module *mod = container_of(pos, struct module, list);

		if (sw_module_is_formed(mod))
			sw_sb_module(s, mod, SW_REC_F_SYNTH);
	}
	rcu_read_unlock();
}

/*
 * Executable mappings of every process (that the filter keeps), each read
 * under its mm's mmap_lock (read), preemptible: d_path() and the build-id
 * may sleep.
 */
static void sw_sb_mappings(struct sw_session *s)
{
	struct task_struct **tasks, *p;
	size_t n = 0, cap = 0, i;
	struct sw_rec_mmap *r;

	r = kmalloc(SW_REC_MAX_SIZE, GFP_KERNEL);
	if (!r) {
		sw_error("sampler: no memory to build mmap records; the mappings of running processes are not recorded");
		return;
	}
	rcu_read_lock();
	for_each_process(p)
		cap++;
	rcu_read_unlock();
	cap += 64;
	tasks = kvmalloc_array(cap, sizeof(*tasks), GFP_KERNEL);
	if (!tasks) {
		sw_error("sampler: no memory to list %zu processes; their mappings are not recorded",
			 cap);
		kfree(r);
		return;
	}
	rcu_read_lock();
	for_each_process(p) {
		if (n == cap)
			break;
		if ((p->flags & PF_KTHREAD) ||
		    !sw_sb_wanted(s, task_tgid_nr(p)))
			continue;
		get_task_struct(p);
		tasks[n++] = p;
	}
	rcu_read_unlock();
	for (i = 0; i < n; i++) {
		struct mm_struct *mm = get_task_mm(tasks[i]);
		struct vm_area_struct *vma;

		if (mm && !mmap_read_lock_killable(mm)) {
			for (vma = find_vma(mm, 0); vma;
			     vma = find_vma(mm, vma->vm_end)) {
				struct sw_sb_map m;

				if (!(vma->vm_flags & VM_EXEC))
					continue;
				sw_sb_map_fill(&m, vma);
				m.pid = task_tgid_nr(tasks[i]);
				m.tid = m.pid;
				m.task = tasks[i];
				sw_sb_mmap(s, r, &m, SW_REC_F_SYNTH);
			}
			mmap_read_unlock(mm);
		}
		if (mm)
			mmput(mm);
		put_task_struct(tasks[i]);
		cond_resched();
	}
	kvfree(tasks);
	kfree(r);
}

/**
 * sw_sb_synthesize() - record the state that exists at start.
 * @s: session, hooks installed (so nothing that changes from now on is
 *     missed; a change seen twice is harmless)
 *
 * KERNEL, MODULE for every module, COMM for every thread, MMAP for every
 * executable mapping, all flagged SW_REC_F_SYNTH.
 *
 * Context: process context, may sleep.
 */
void sw_sb_synthesize(struct sw_session *s)
{
	struct task_struct *p, *t;

	sw_sb_kernel(s);
	sw_sb_modules(s);
	rcu_read_lock();
	for_each_process_thread(p, t) {
		char comm[TASK_COMM_LEN];

		if (!sw_sb_wanted(s, task_tgid_nr(t)))
			continue;
		memcpy(comm, t->comm, sizeof(comm));
		comm[sizeof(comm) - 1] = '\0';
		sw_sb_comm(s, t, comm, SW_REC_F_SYNTH);
	}
	rcu_read_unlock();
	sw_sb_mappings(s);
}
