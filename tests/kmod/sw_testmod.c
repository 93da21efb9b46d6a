// SPDX-License-Identifier: GPL-2.0
/*
 * sw_testmod.c - kernel functions with exactly known instruction counts,
 * for stopwatch's PMU tests and benchmark.
 *
 * /sys/kernel/debug/sw_testmod/ctl takes one command per write:
 *
 *   loop N         sw_test_loop(N) with interrupts off: a loop of exactly
 *                  two instructions per iteration
 *   loopirq N      sw_test_loop(N) with interrupts on
 *   sleep N US     sw_test_sleep(N, US): loop N, sleep US microseconds,
 *                  loop N (the loops with interrupts off)
 *   recurse D N    sw_test_recurse(D, N): loop N, then recurse to depth D
 *                  (D + 1 calls; interrupts off)
 *   bench K        call sw_test_leaf() K times with interrupts off and
 *                  count the instructions retired by this thread meanwhile
 *                  (a per-thread perf counter); "result" shows them
 *   leaf K         call sw_test_leaf() K times with interrupts off, timed
 *                  whole by ktime_get_ns(): "result" shows the calls and
 *                  the nanoseconds (the bare cost of the calls, loop and
 *                  call included, for stopwatch time --correct's check)
 *   readcost K     the same as bench for K reads of that counter through
 *                  pmu->read(), the way stopwatch reads its counters
 *   kretprobe on|off   a bare kretprobe with empty handlers on
 *                  sw_test_leaf, the baseline of the benchmark
 *   callers A B    sw_test_target() called A times from sw_test_caller_a()
 *                  and B times from sw_test_caller_b()
 *   errors N M K   sw_test_fail() returning 0 N times, -ENOENT M times and
 *                  -EINVAL K times (an int function, as errors are)
 *   delay N US     sw_test_delay(US) N times: sleeps US microseconds, or
 *                  returns at once with interrupts off when US is 0
 *   chain K A B C  call paths: sw_test_f1(A, B, C) K times with interrupts
 *                  off; f1 loops A then calls f2, which loops B then calls
 *                  f3 (loop C) twice
 *   rec D N        sw_test_rec(D, N): loop N, then recurse to depth D
 *                  (D + 1 nested calls, kept so on every architecture;
 *                  interrupts off)
 *   wakeidle PID   wake kernel thread PID if it sleeps idle or
 *                  interruptibly (TASK_IDLE, e.g. a kworker waiting for
 *                  work, or TASK_INTERRUPTIBLE; its loop goes back to sleep
 *                  when there is nothing to do): the tramp suite wakes the
 *                  threads a removed trampoline on schedule() still holds
 *
 * Spans (block at the end of the file):
 *   spanq N A B    N items, one after the other, each added to queue 1
 *                  (sw_spanq_add), held A microseconds, removed
 *                  (sw_spanq_del), added to queue 2, held B microseconds,
 *                  removed; the holds spin on the clock with interrupts off
 *   spanptr V N    sw_spanptr_start(V), (V + 1), ... N calls
 *   spanptr2 V N   sw_spanptr_stop(V), (V + 1), ... N calls
 *   spanwork N US  N times: a work item, then sw_spanwork_item queued
 *                  behind it on an ordered workqueue; the first spins US
 *                  microseconds once the second is queued: each item
 *                  waits at least US
 *   spanref reset  zero the reference histograms below
 *
 * Trampolines (block at the very end of the file):
 *   args7 N        sw_test_args7(i, i + 1, ..., i + 6) for i = 0..N-1: a
 *                  function with seven arguments, the seventh on the
 *                  stack on x86_64; it returns their sum
 *   args9 N        sw_test_args9(i, i + 1, ..., i + 8) likewise: nine
 *                  arguments, the ninth on the stack on arm64 too
 *
 * /sys/kernel/debug/sw_testmod/spanref: the test's own measure of each
 * wait above, as a log2 histogram per kind (q1, q2, hop: from the add to
 * queue 1 to the add to queue 2, wq): "KIND LOW:COUNT ... straddle N".
 * A wait is bracketed by clock reads just inside and just outside the
 * calls a probe would time (same clock as stopwatch): when both fall in
 * one bucket, any probe's reading of it falls there too; when they do not
 * (a stall of the guest right at a call), it counts in straddle instead.
 *
 * /sys/kernel/debug/sw_testmod/result: "calls K instructions X ns T" of the
 * last bench command (X) and the last leaf command (T, with its own K).  A failed command returns its errno and logs why.
 *
 * Test code: root only, not for production kernels.
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>
#include <linux/timekeeping.h>

static DEFINE_MUTEX(sw_test_lock);
static struct dentry *sw_test_dir;
static u64 sw_bench_calls, sw_bench_instructions, sw_bench_sink;
static u64 sw_leaf_ns;
static bool sw_bare_registered;

/* The loop body is exactly two instructions; n == 0 runs none of it. */
static __always_inline u64 sw_test_spin(u64 n)
{
#if defined(CONFIG_ARM64)
	asm volatile("cbz %0, 2f\n"
		     "1: subs %0, %0, #1\n"
		     "b.ne 1b\n"
		     "2:\n"
		     : "+r"(n)
		     :
		     : "cc");
#elif defined(CONFIG_X86)
	asm volatile("test %0, %0\n"
		     "jz 2f\n"
		     "1: dec %0\n"
		     "jnz 1b\n"
		     "2:\n"
		     : "+r"(n)
		     :
		     : "cc");
#else
#error "sw_testmod: loop written for arm64 and x86 only"
#endif
	return n;
}

/*
 * The functions stopwatch probes: global (and declared, for
 * -Wmissing-prototypes), never inlined or cloned.
 */
u64 sw_test_loop(u64 n);
u64 sw_test_sleep(u64 n, unsigned long us);
u64 sw_test_recurse(unsigned int depth, u64 n);
u64 sw_test_leaf(u64 x);
u64 sw_test_target(u64 x);
u64 sw_test_caller_a(u64 n);
u64 sw_test_caller_b(u64 n);
int sw_test_fail(int err);
u64 sw_test_delay(u64 us);
u64 sw_test_f3(u64 c);
u64 sw_test_f2(u64 b, u64 c);
u64 sw_test_f1(u64 a, u64 b, u64 c);
u64 sw_test_rec(unsigned int depth, u64 n);
u64 sw_test_args7(u64 a, u64 b, u64 c, u64 d, u64 e, u64 f, u64 g);
u64 sw_test_args9(u64 a, u64 b, u64 c, u64 d, u64 e, u64 f, u64 g,
		  u64 h, u64 i);

noinline __noipa u64 sw_test_loop(u64 n)
{
	return sw_test_spin(n);
}

noinline __noipa u64 sw_test_sleep(u64 n, unsigned long us)
{
	unsigned long flags;
	u64 r;

	local_irq_save(flags);
	r = sw_test_spin(n);
	local_irq_restore(flags);
	usleep_range(us, us + us / 64);
	local_irq_save(flags);
	r += sw_test_spin(n);
	local_irq_restore(flags);
	return r;
}

noinline __noipa u64 sw_test_recurse(unsigned int depth, u64 n)
{
	u64 r = sw_test_spin(n);

	if (depth)
		r += sw_test_recurse(depth - 1, n);
	return r;
}

noinline __noipa u64 sw_test_leaf(u64 x)
{
	return x + 1;
}

noinline __noipa u64 sw_test_target(u64 x)
{
	return x + 1;
}

noinline __noipa u64 sw_test_caller_a(u64 n)
{
	u64 i, r = 0;

	for (i = 0; i < n; i++)
		r += sw_test_target(i);
	return r;
}

noinline __noipa u64 sw_test_caller_b(u64 n)
{
	u64 i, r = 0;

	for (i = 0; i < n; i++)
		r += sw_test_target(i);
	return r;
}

noinline __noipa int sw_test_fail(int err)
{
	return err;
}

noinline __noipa u64 sw_test_delay(u64 us)
{
	if (us)
		usleep_range(us, us + us / 64);
	return us;
}

static void sw_test_errors(u64 ok, u64 enoent, u64 einval)
{
	u64 i;

	for (i = 0; i < ok; i++)
		sw_test_fail(0);
	for (i = 0; i < enoent; i++)
		sw_test_fail(-ENOENT);
	for (i = 0; i < einval; i++)
		sw_test_fail(-EINVAL);
}

static void sw_test_delays(u64 n, u64 us)
{
	unsigned long flags;
	u64 i;

	for (i = 0; i < n; i++) {
		if (us) {
			sw_test_delay(us);
			continue;
		}
		local_irq_save(flags);
		sw_test_delay(0);
		local_irq_restore(flags);
	}
}

/* ---- call paths: a chain f1 -> f2 -> f3 (f2 calls f3 twice) ---------- */

noinline __noipa u64 sw_test_f3(u64 c)
{
	return sw_test_spin(c);
}

noinline __noipa u64 sw_test_f2(u64 b, u64 c)
{
	u64 r = sw_test_spin(b);

	r += sw_test_f3(c);
	r += sw_test_f3(c);
	return r;
}

noinline __noipa u64 sw_test_f1(u64 a, u64 b, u64 c)
{
	u64 r = sw_test_spin(a);

	return r + sw_test_f2(b, c);
}

/*
 * Recursion to @depth: depth + 1 nested calls, each looping @n.  The
 * result goes through an empty asm so the compiler cannot turn the
 * recursion into a loop (it does with sw_test_recurse() on x86).
 */
noinline __noipa u64 sw_test_rec(unsigned int depth, u64 n)
{
	u64 r = sw_test_spin(n), s;

	if (!depth)
		return r;
	s = sw_test_rec(depth - 1, n);
	asm volatile("" : "+r"(s));
	return r + s;
}

static void sw_test_chain(u64 k, u64 a, u64 b, u64 c)
{
	unsigned long flags;
	u64 i;

	for (i = 0; i < k; i++) {
		local_irq_save(flags);
		sw_test_f1(a, b, c);
		local_irq_restore(flags);
	}
}

/* ---- end of call paths ------------------------------------------------ */

static int sw_bare_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return 0;
}
NOKPROBE_SYMBOL(sw_bare_entry);

static int sw_bare_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return 0;
}
NOKPROBE_SYMBOL(sw_bare_return);

static struct kretprobe sw_bare = {
	.kp.symbol_name = "sw_test_leaf",
	.entry_handler = sw_bare_entry,
	.handler = sw_bare_return,
	.maxactive = 16,
};

/* This thread's instruction count; interrupts off, counter active here. */
static u64 sw_read_local(struct perf_event *e)
{
	if (READ_ONCE(e->state) != PERF_EVENT_STATE_ACTIVE ||
	    READ_ONCE(e->oncpu) != smp_processor_id())
		return U64_MAX;
	e->pmu->read(e);
	return local64_read(&e->count);
}

/*
 * "leaf N": N calls of sw_test_leaf() with interrupts off, timed whole.
 * The count is a parameter (a register), not sscanf()'s variable on the
 * stack: the loop is the call and three instructions, as a loop of calls
 * compiles when nothing else is in it.
 */
static noinline void sw_leaf_time(u64 n)
{
	unsigned long flags;
	u64 i, t0, sink = 0;

	local_irq_save(flags);
	t0 = ktime_get_ns();
	for (i = 0; i < n; i++)
		sink += sw_test_leaf(i);
	sw_leaf_ns = ktime_get_ns() - t0;
	local_irq_restore(flags);
	sw_bench_calls = n;
	WRITE_ONCE(sw_bench_sink, sink);
}

static int sw_bench(u64 calls, bool reads)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_INSTRUCTIONS,
		.size = sizeof(attr),
		.pinned = 1,
	};
	struct perf_event *e;
	unsigned long flags;
	u64 i, c0, c1, sink = 0;

	e = perf_event_create_kernel_counter(&attr, -1, current, NULL, NULL);
	if (IS_ERR(e)) {
		pr_err("sw_testmod: bench: no instructions counter (%ld)\n",
		       PTR_ERR(e));
		return PTR_ERR(e);
	}
	sw_test_leaf(0);	/* first hit outside the measurement */
	local_irq_save(flags);
	c0 = sw_read_local(e);
	for (i = 0; i < calls; i++) {
		if (reads)
			sink += sw_read_local(e);
		else
			sink += sw_test_leaf(i);
	}
	c1 = sw_read_local(e);
	local_irq_restore(flags);
	perf_event_release_kernel(e);
	if (c0 == U64_MAX || c1 == U64_MAX) {
		pr_err("sw_testmod: bench: the counter was not counting\n");
		return -EBUSY;
	}
	sw_bench_calls = calls;
	sw_bench_instructions = c1 - c0;
	WRITE_ONCE(sw_bench_sink, sink);	/* the calls have an effect */
	return 0;
}

/*
 * wakeidle PID: a spurious wakeup of a sleeping kernel thread, which its
 * loop tolerates (it rechecks for work), as livepatch wakes its stragglers.
 * Only a kernel thread, only when it sleeps in TASK_IDLE or
 * TASK_INTERRUPTIBLE; the state may change before the wakeup, as for any
 * spurious wakeup.  Context: process context.
 */
static int sw_wake_idle(unsigned long long nr)
{
	struct task_struct *p;
	int ret = -ESRCH;

	if (nr > INT_MAX)
		return -EINVAL;
	rcu_read_lock();
	p = pid_task(find_vpid((int)nr), PIDTYPE_PID);
	if (p) {
		unsigned int state = READ_ONCE(p->__state);

		if (!(p->flags & PF_KTHREAD) ||
		    (state != TASK_IDLE && state != TASK_INTERRUPTIBLE))
			ret = -EPERM;
		else
			ret = wake_up_process(p) ? 0 : -EAGAIN;
	}
	rcu_read_unlock();
	return ret;
}

static int sw_spantest_cmd(const char *cmd);
static void sw_spantest_init(struct dentry *dir);
static void sw_spantest_exit(void);
static int sw_argstest_cmd(const char *cmd);

static int sw_test_cmd(char *cmd)
{
	unsigned long long n, m, k, c;
	unsigned long flags;
	char onoff[8];
	int ret = 0;

	if (sscanf(cmd, "loop %llu", &n) == 1) {
		local_irq_save(flags);
		sw_test_loop(n);
		local_irq_restore(flags);
	} else if (sscanf(cmd, "loopirq %llu", &n) == 1) {
		sw_test_loop(n);
	} else if (sscanf(cmd, "sleep %llu %llu", &n, &m) == 2) {
		if (m > 10000000)
			return -EINVAL;
		sw_test_sleep(n, m);
	} else if (sscanf(cmd, "recurse %llu %llu", &n, &m) == 2) {
		if (n > 64)
			return -EINVAL;
		local_irq_save(flags);
		sw_test_recurse(n, m);
		local_irq_restore(flags);
	} else if (sscanf(cmd, "callers %llu %llu", &n, &m) == 2) {
		sw_test_caller_a(n);
		sw_test_caller_b(m);
	} else if (sscanf(cmd, "errors %llu %llu %llu", &n, &m, &k) == 3) {
		sw_test_errors(n, m, k);
	} else if (sscanf(cmd, "delay %llu %llu", &n, &m) == 2) {
		if (m > 1000000)
			return -EINVAL;
		sw_test_delays(n, m);
	} else if (sscanf(cmd, "chain %llu %llu %llu %llu", &k, &n, &m,
			  &c) == 4) {
		sw_test_chain(k, n, m, c);
	} else if (sscanf(cmd, "rec %llu %llu", &n, &m) == 2) {
		if (n > 64)
			return -EINVAL;
		local_irq_save(flags);
		sw_test_rec(n, m);
		local_irq_restore(flags);
	} else if (sscanf(cmd, "bench %llu", &n) == 1) {
		ret = sw_bench(n, false);
	} else if (sscanf(cmd, "leaf %llu", &n) == 1) {
		if (!n || n > 100000000)
			return -EINVAL;
		sw_leaf_time(n);
	} else if (sscanf(cmd, "readcost %llu", &n) == 1) {
		ret = sw_bench(n, true);
	} else if (sscanf(cmd, "kretprobe %7s", onoff) == 1 &&
		   !strcmp(onoff, "on")) {
		if (sw_bare_registered)
			return -EEXIST;
		ret = register_kretprobe(&sw_bare);
		sw_bare_registered = !ret;
	} else if (sscanf(cmd, "kretprobe %7s", onoff) == 1 &&
		   !strcmp(onoff, "off")) {
		if (!sw_bare_registered)
			return -ENOENT;
		unregister_kretprobe(&sw_bare);
		sw_bare_registered = false;
		/* A kretprobe struct cannot be registered twice as is. */
		memset(&sw_bare, 0, sizeof(sw_bare));
		sw_bare.kp.symbol_name = "sw_test_leaf";
		sw_bare.entry_handler = sw_bare_entry;
		sw_bare.handler = sw_bare_return;
		sw_bare.maxactive = 16;
	} else if (sscanf(cmd, "wakeidle %llu", &n) == 1) {
		ret = sw_wake_idle(n);
	} else if (!strncmp(cmd, "span", 4)) {
		ret = sw_spantest_cmd(cmd);
	} else if (!strncmp(cmd, "args", 4)) {
		ret = sw_argstest_cmd(cmd);
	} else {
		pr_err("sw_testmod: unknown command '%.40s'\n", cmd);
		ret = -EINVAL;
	}
	return ret;
}

static ssize_t sw_ctl_write(struct file *file, const char __user *ubuf,
			    size_t len, loff_t *ppos)
{
	char buf[64];
	int ret;

	if (len >= sizeof(buf))
		return -E2BIG;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	mutex_lock(&sw_test_lock);
	ret = sw_test_cmd(strim(buf));
	mutex_unlock(&sw_test_lock);
	return ret ? ret : len;
}

static const struct file_operations sw_ctl_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = sw_ctl_write,
	.llseek = noop_llseek,
};

static int sw_result_show(struct seq_file *m, void *v)
{
	mutex_lock(&sw_test_lock);
	seq_printf(m, "calls %llu instructions %llu ns %llu\n", sw_bench_calls,
		   sw_bench_instructions, sw_leaf_ns);
	mutex_unlock(&sw_test_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sw_result);

static int __init sw_testmod_init(void)
{
	sw_test_dir = debugfs_create_dir("sw_testmod", NULL);
	if (IS_ERR(sw_test_dir))
		return PTR_ERR(sw_test_dir);
	debugfs_create_file("ctl", 0200, sw_test_dir, NULL, &sw_ctl_fops);
	debugfs_create_file("result", 0400, sw_test_dir, NULL,
			    &sw_result_fops);
	sw_spantest_init(sw_test_dir);
	return 0;
}

static void __exit sw_testmod_exit(void)
{
	debugfs_remove(sw_test_dir);
	if (sw_bare_registered)
		unregister_kretprobe(&sw_bare);
	sw_spantest_exit();
}

/* ---- Spans: queues, items moving between them, a workqueue ---------- */

/**
 * struct sw_spanq - a queue of the span tests.
 * @id:   1 or 2
 * @n:    items in it
 * @head: the items
 */
struct sw_spanq {
	u32 id;
	u32 n;
	struct list_head head;
};

/**
 * struct sw_spanq_item - an item passing through the queues.
 * @id:   its number
 * @node: in a queue
 */
struct sw_spanq_item {
	u32 id;
	struct list_head node;
};

#define SW_SPANQ_ITEMS 64

static struct sw_spanq sw_spanq1 = {
	.id = 1, .head = LIST_HEAD_INIT(sw_spanq1.head) };
static struct sw_spanq sw_spanq2 = {
	.id = 2, .head = LIST_HEAD_INIT(sw_spanq2.head) };
static struct sw_spanq_item sw_spanq_items[SW_SPANQ_ITEMS];
static struct workqueue_struct *sw_spanwq;
static u64 sw_spanwork_us;
static int sw_spanwork_go;
static u64 sw_spanwork_blk_end, sw_spanwork_run;

enum { SW_REF_Q1, SW_REF_Q2, SW_REF_HOP, SW_REF_WQ, SW_REF_NR };
static const char *const sw_ref_names[SW_REF_NR] = { "q1", "q2", "hop", "wq" };
static u64 sw_spanref[SW_REF_NR][64], sw_spanref_straddle[SW_REF_NR];

/* A wait known to lie in [inner, outer]: its bucket, or a straddle. */
static void sw_spanref_add(int kind, u64 inner, u64 outer)
{
	unsigned int a = inner ? ilog2(inner) + 1 : 0;
	unsigned int b = outer ? ilog2(outer) + 1 : 0;

	if (a == b && a < 64)
		sw_spanref[kind][a]++;
	else
		sw_spanref_straddle[kind]++;
}

/* Global (and declared) so that no call of them is specialized by GCC. */
void sw_spanq_add(struct sw_spanq *q, struct sw_spanq_item *it);
void sw_spanq_del(struct sw_spanq *q, struct sw_spanq_item *it);
void sw_spanptr_start(void *p);
void sw_spanptr_stop(void *p);
void sw_spanwork_item(struct work_struct *w);

noinline void sw_spanq_add(struct sw_spanq *q, struct sw_spanq_item *it)
{
	list_add_tail(&it->node, &q->head);
	q->n++;
}

noinline void sw_spanq_del(struct sw_spanq *q, struct sw_spanq_item *it)
{
	list_del(&it->node);
	q->n--;
}

noinline void sw_spanptr_start(void *p)
{
	barrier_data(p);
}

noinline void sw_spanptr_stop(void *p)
{
	barrier_data(p);
}

/* Spin @us microseconds on stopwatch's clock. */
static void sw_span_spin(u64 us)
{
	u64 end = ktime_get_mono_fast_ns() + us * 1000;

	while (ktime_get_mono_fast_ns() < end)
		cpu_relax();
}

static void sw_spanq_run(u64 n, u64 a, u64 b)
{
	u64 t[12];
	unsigned long flags;
	u64 i;

	for (i = 0; i < n; i++) {
		struct sw_spanq_item *it = &sw_spanq_items[i];

		it->id = i + 1;
		local_irq_save(flags);
		t[0] = ktime_get_mono_fast_ns();
		sw_spanq_add(&sw_spanq1, it);
		t[1] = ktime_get_mono_fast_ns();
		sw_span_spin(a);
		t[2] = ktime_get_mono_fast_ns();
		sw_spanq_del(&sw_spanq1, it);
		t[3] = ktime_get_mono_fast_ns();
		sw_spanq_add(&sw_spanq2, it);
		t[4] = ktime_get_mono_fast_ns();
		sw_span_spin(b);
		t[5] = ktime_get_mono_fast_ns();
		sw_spanq_del(&sw_spanq2, it);
		t[6] = ktime_get_mono_fast_ns();
		local_irq_restore(flags);
		/* Probes at the entries: inside [after, before], outside. */
		sw_spanref_add(SW_REF_Q1, t[2] - t[1], t[3] - t[0]);
		sw_spanref_add(SW_REF_Q2, t[5] - t[4], t[6] - t[3]);
		sw_spanref_add(SW_REF_HOP, t[3] - t[1], t[4] - t[0]);
	}
}

static void sw_spanwork_block_fn(struct work_struct *w)
{
	while (!smp_load_acquire(&sw_spanwork_go))
		cond_resched();
	sw_span_spin(READ_ONCE(sw_spanwork_us));
	WRITE_ONCE(sw_spanwork_blk_end, ktime_get_mono_fast_ns());
}

noinline void sw_spanwork_item(struct work_struct *w)
{
	WRITE_ONCE(sw_spanwork_run, ktime_get_mono_fast_ns());
}

static DECLARE_WORK(sw_spanwork_block, sw_spanwork_block_fn);
static DECLARE_WORK(sw_spanwork_it, sw_spanwork_item);

static void sw_spantp_fire(u64 n);

static int sw_spantest_cmd(const char *cmd)
{
	unsigned long long n, v, i;

	if (sscanf(cmd, "spantp %llu", &n) == 1) {
		sw_spantp_fire(n);
	} else if (sscanf(cmd, "spanq %llu %llu %llu", &n, &v, &i) == 3) {
		if (n > SW_SPANQ_ITEMS || v > 50000 || i > 50000)
			return -EINVAL;
		sw_spanq_run(n, v, i);
	} else if (sscanf(cmd, "spanptr2 %llu %llu", &v, &n) == 2) {
		for (i = 0; i < n; i++)
			sw_spanptr_stop((void *)(unsigned long)(v + i));
	} else if (sscanf(cmd, "spanptr %llu %llu", &v, &n) == 2) {
		for (i = 0; i < n; i++)
			sw_spanptr_start((void *)(unsigned long)(v + i));
	} else if (sscanf(cmd, "spanwork %llu %llu", &n, &v) == 2) {
		if (v > 100000)
			return -EINVAL;
		if (!sw_spanwq)
			sw_spanwq = alloc_ordered_workqueue("sw_spanwq", 0);
		if (!sw_spanwq)
			return -ENOMEM;
		WRITE_ONCE(sw_spanwork_us, v);
		for (i = 0; i < n; i++) {
			u64 t0, t1;

			WRITE_ONCE(sw_spanwork_go, 0);
			queue_work(sw_spanwq, &sw_spanwork_block);
			t0 = ktime_get_mono_fast_ns();
			queue_work(sw_spanwq, &sw_spanwork_it);
			t1 = ktime_get_mono_fast_ns();
			smp_store_release(&sw_spanwork_go, 1);
			flush_workqueue(sw_spanwq);
			/*
			 * __queue_work in [t0, t1]; process_one_work after the
			 * blocker's end, before the item's function.
			 */
			sw_spanref_add(SW_REF_WQ,
				       READ_ONCE(sw_spanwork_blk_end) - t1,
				       READ_ONCE(sw_spanwork_run) - t0);
		}
	} else if (!strcmp(cmd, "spanref reset")) {
		memset(sw_spanref, 0, sizeof(sw_spanref));
		memset(sw_spanref_straddle, 0, sizeof(sw_spanref_straddle));
	} else {
		pr_err("sw_testmod: unknown command '%.40s'\n", cmd);
		return -EINVAL;
	}
	return 0;
}

static int sw_spanref_show(struct seq_file *m, void *v)
{
	int k, b;

	mutex_lock(&sw_test_lock);
	for (k = 0; k < SW_REF_NR; k++) {
		seq_puts(m, sw_ref_names[k]);
		for (b = 0; b < 64; b++)
			if (sw_spanref[k][b])
				seq_printf(m, " %llu:%llu",
					   b ? 1ULL << (b - 1) : 0,
					   sw_spanref[k][b]);
		seq_printf(m, " straddle %llu\n", sw_spanref_straddle[k]);
	}
	mutex_unlock(&sw_test_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sw_spanref);

static void sw_spantest_init(struct dentry *dir)
{
	debugfs_create_file("spanref", 0400, dir, NULL, &sw_spanref_fops);
}

static void sw_spantest_exit(void)
{
	if (sw_spanwq)
		destroy_workqueue(sw_spanwq);
}

module_init(sw_testmod_init);
module_exit(sw_testmod_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("stopwatch test workloads with known instruction counts");

/* ---- trampolines: a function with arguments on the stack ------------- */

/* Seven arguments: on x86_64 the seventh is passed on the stack. */
noinline __noipa u64 sw_test_args7(u64 a, u64 b, u64 c, u64 d, u64 e, u64 f,
				   u64 g)
{
	return a + b + c + d + e + f + g;
}

/* Nine arguments: on arm64 the ninth is passed on the stack. */
noinline __noipa u64 sw_test_args9(u64 a, u64 b, u64 c, u64 d, u64 e, u64 f,
				   u64 g, u64 h, u64 i)
{
	return a + b + c + d + e + f + g + h + i;
}

/*
 * args7 N, args9 N: N calls; a wrong sum (an argument not seen) fails the
 * command.
 */
static int sw_argstest_cmd(const char *cmd)
{
	unsigned long long n, i;
	bool nine;

	if (sscanf(cmd, "args7 %llu", &n) == 1)
		nine = false;
	else if (sscanf(cmd, "args9 %llu", &n) == 1)
		nine = true;
	else
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (nine ? sw_test_args9(i, i + 1, i + 2, i + 3, i + 4, i + 5,
					 i + 6, i + 7, i + 8) != 9 * i + 36 :
			   sw_test_args7(i, i + 1, i + 2, i + 3, i + 4, i + 5,
					 i + 6) != 7 * i + 21) {
			pr_err("sw_testmod: sw_test_args%d returned a wrong sum\n",
			       nine ? 9 : 7);
			return -EIO;
		}
		cond_resched();
	}
	return 0;
}

/*
 * ---- a tracepoint of this module (spans on module tracepoints) ---------
 *
 *   spantp N   fires the tracepoint sw_spantp(id, phase) twice per id, id
 *              1..N: phase 0, then phase 1
 *
 * A bare tracepoint (no trace event): the spans find it among this
 * module's tracepoints by its name, sw_spantp.
 */
#include <linux/tracepoint.h>

DECLARE_TRACE(sw_spantp, TP_PROTO(u64 id, u64 phase), TP_ARGS(id, phase));
DEFINE_TRACE(sw_spantp, TP_PROTO(u64 id, u64 phase), TP_ARGS(id, phase));

static void sw_spantp_fire(u64 n)
{
	u64 i;

	for (i = 1; i <= n; i++) {
		trace_sw_spantp(i, 0);
		trace_sw_spantp(i, 1);
	}
}
