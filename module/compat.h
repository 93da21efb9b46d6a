/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - every kernel-version difference stopwatch cares about, in one
 * place.  Logic elsewhere calls the sw_* names below and never tests
 * LINUX_VERSION_CODE itself.
 */
#ifndef _STOPWATCH_COMPAT_H
#define _STOPWATCH_COMPAT_H

#include <linux/version.h>
#include <linux/kprobes.h>
#include <linux/timekeeping.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 10, 0)
#error "stopwatch needs Linux 5.10 or newer"
#endif

/*
 * The stopwatch clock: monotonic, consistent across CPUs, safe in NMI
 * (the same clock as bpf_ktime_get_ns()).
 */
static inline u64 sw_clock_ns(void)
{
	return ktime_get_mono_fast_ns();
}


/* ---- sampler ------------------------------------------------------------ */
#include <linux/module.h>
#include <linux/uaccess.h>
#include <linux/ptrace.h>
#include <asm/ptrace.h>
#ifdef CONFIG_ARM64
#include <asm/cpufeature.h>
#include <asm/pointer_auth.h>
#endif

/**
 * sw_copy_from_user_nmi() - read user memory from NMI or hard-IRQ context.
 * @to:   kernel buffer
 * @from: user address
 * @n:    bytes
 *
 * Never faults pages in, never sleeps.  x86 has copy_from_user_nmi(),
 * which also refuses while the CPU is switching address spaces; elsewhere
 * the atomic copy with page faults disabled is what perf uses.
 *
 * Return: bytes NOT copied (0 on success).
 */
static inline unsigned long sw_copy_from_user_nmi(void *to,
						  const void __user *from,
						  unsigned long n)
{
#ifdef CONFIG_X86
	return copy_from_user_nmi(to, from, n);
#else
	unsigned long left;

	if (!access_ok(from, n))
		return n;
	pagefault_disable();
	left = __copy_from_user_inatomic(to, from, n);
	pagefault_enable();
	return left;
#endif
}

/* The frame pointer register of a register set. */
static inline unsigned long sw_regs_fp(struct pt_regs *regs)
{
#ifdef CONFIG_X86
	return regs->bp;
#else
	return frame_pointer(regs);
#endif
}

/* A code address with any pointer-authentication bits removed. */
static inline unsigned long sw_strip_pac(unsigned long addr)
{
#ifdef CONFIG_ARM64
	return ptrauth_strip_insn_pac(addr);
#else
	return addr;
#endif
}

/* Whether user registers belong to a 32-bit (compat) task. */
static inline bool sw_user_regs_compat(struct pt_regs *regs)
{
#if defined(CONFIG_X86_64)
	return !user_64bit_mode(regs);
#elif defined(CONFIG_ARM64)
	return compat_user_mode(regs);
#else
	return false;
#endif
}

/* Whether a hardware PMU overflow arrives as an NMI on this machine. */
static inline bool sw_pmu_overflow_is_nmi(void)
{
#if defined(CONFIG_X86)
	return true;
#elif defined(CONFIG_ARM64)
	return system_uses_irq_prio_masking();
#else
	return false;
#endif
}

/**
 * sw_module_core() - a module's core region (text first, then data).
 * @mod:       module
 * @base:      start of the region
 * @size:      bytes in the region
 * @text_size: bytes of text at @base
 */
static inline void sw_module_core(const struct module *mod, unsigned long *base,
				  unsigned int *size, unsigned int *text_size)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
	*base = (unsigned long)mod->mem[MOD_TEXT].base;
	*size = mod->mem[MOD_TEXT].size;
	*text_size = mod->mem[MOD_TEXT].size;
#else
	*base = (unsigned long)mod->core_layout.base;
	*size = mod->core_layout.size;
	*text_size = mod->core_layout.text_size;
#endif
}

/**
 * sw_module_is_formed() - whether a node of the module list is a module
 * that finished loading.
 * @mod: container_of() of a module list node, which may be the list head
 *
 * Every struct module lives inside its own core region; the list head
 * (kernel data, not exported) does not, which tells them apart.  Fields
 * are read without faulting, as the head's "module" is not one.
 *
 * Context: preemption disabled (module list RCU-sched read side).
 */
static inline bool sw_module_is_formed(struct module *mod)
{
	enum module_state state;
	unsigned int size;
	void *base;

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
	if (copy_from_kernel_nofault(&base, &mod->mem[MOD_DATA].base,
				     sizeof(base)) ||
	    copy_from_kernel_nofault(&size, &mod->mem[MOD_DATA].size,
				     sizeof(size)))
		return false;
#else
	if (copy_from_kernel_nofault(&base, &mod->core_layout.base,
				     sizeof(base)) ||
	    copy_from_kernel_nofault(&size, &mod->core_layout.size,
				     sizeof(size)))
		return false;
#endif
	if ((void *)mod < base || (void *)mod >= base + size)
		return false;
	if (copy_from_kernel_nofault(&state, &mod->state, sizeof(state)))
		return false;
	return state != MODULE_STATE_UNFORMED;
}

/* ---- pmu: per-thread virtualization ------------------------------------- */
#include <linux/llist.h>
#include <linux/sched.h>
#ifdef CONFIG_KRETPROBE_ON_RETHOOK
#include <linux/rethook.h>
#endif

/*
 * A local variable left out of -ftrivial-auto-var-init (CONFIG_INIT_STACK_
 * ALL_ZERO): zeroing a sample array costs instructions that depend on the
 * stack's alignment, which varies per system call (randomize_kstack_offset),
 * and would land inside the measured window of a call.
 */
#if __has_attribute(__uninitialized__)
#define __sw_noinit __attribute__((__uninitialized__))
#else
#define __sw_noinit
#endif

/*
 * The sched_switch tracepoint probe's parameters (the tracepoint gained
 * prev_state in 5.18).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 18, 0)
#define SW_SCHED_SWITCH_ARGS(prev, next)                                     \
	void *sw_tp_data, bool sw_preempt, struct task_struct *prev,         \
		struct task_struct *next, unsigned int sw_prev_state
#else
#define SW_SCHED_SWITCH_ARGS(prev, next)                                     \
	void *sw_tp_data, bool sw_preempt, struct task_struct *prev,         \
		struct task_struct *next
#endif

/*
 * A task's pending kretprobe instances: a list with the newest call first,
 * task->rethooks when kretprobes sit on rethook (CONFIG_KRETPROBE_ON_RETHOOK:
 * x86 6.1), task->kretprobe_instances otherwise (arm64 6.1).  Only the task
 * itself pushes and pops it; see pmu/virt.c for why walking it is safe from
 * the sched_switch tracepoint.
 */
#ifdef CONFIG_KRETPROBE_ON_RETHOOK
/* kretprobe's rethook handler, learnt from the first kretprobe registered. */
extern void *sw_krp_rethook_handler;

static __always_inline struct llist_node *
sw_task_kri_first(struct task_struct *t)
{
	return READ_ONCE(t->rethooks.first);
}

static __always_inline struct kretprobe_instance *
sw_kri_entry(struct llist_node *node)
{
	return container_of(node, struct kretprobe_instance, node.llist);
}

/*
 * The kretprobe an instance belongs to, NULL if it is not a kretprobe's
 * (fprobe also uses rethook) or the kretprobe is being unregistered
 * (unregistration clears the handler, then waits a grace period).
 * Context: preemption disabled.
 */
static __always_inline struct kretprobe *
sw_kri_kretprobe(struct kretprobe_instance *ri)
{
	struct rethook *rh = READ_ONCE(ri->node.rethook);
	void *handler = (void *)rcu_dereference_sched(rh->handler);

	if (!handler || handler != READ_ONCE(sw_krp_rethook_handler))
		return NULL;
	return (struct kretprobe *)READ_ONCE(rh->data);
}

/* Called once a kretprobe is registered. Context: process context. */
static inline void sw_kretprobe_learn(struct kretprobe *rp)
{
	if (!READ_ONCE(sw_krp_rethook_handler))
		WRITE_ONCE(sw_krp_rethook_handler,
			   (void *)rcu_access_pointer(rp->rh->handler));
}
#else /* !CONFIG_KRETPROBE_ON_RETHOOK */
static __always_inline struct llist_node *
sw_task_kri_first(struct task_struct *t)
{
	return READ_ONCE(t->kretprobe_instances.first);
}

static __always_inline struct kretprobe_instance *
sw_kri_entry(struct llist_node *node)
{
	return container_of(node, struct kretprobe_instance, llist);
}

/* NULL once the kretprobe is unregistered. Context: preemption disabled. */
static __always_inline struct kretprobe *
sw_kri_kretprobe(struct kretprobe_instance *ri)
{
	return rcu_dereference_sched(ri->rph->rp);
}

static inline void sw_kretprobe_learn(struct kretprobe *rp)
{
}
#endif /* CONFIG_KRETPROBE_ON_RETHOOK */

#endif /* _STOPWATCH_COMPAT_H */
