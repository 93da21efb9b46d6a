/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wrapper/uprobes.h - user-space probes.
 *
 * 6.12 changed the API: uprobe_register() takes a reference-counter offset
 * and returns the struct uprobe (or an ERR_PTR), and unregistering is split
 * into uprobe_unregister_nosync() per consumer and one
 * uprobe_unregister_sync() for a batch.  6.1 returns an int and
 * uprobe_unregister() waits by itself.  The consumer's handler and
 * ret_handler have the same signatures on both; its filter has lost
 * the enum uprobe_filter_ctx argument by 6.12 (SW_UPROBE_FILTER_ARGS).
 */
#ifndef _SW_WRAPPER_UPROBES_H
#define _SW_WRAPPER_UPROBES_H

#include <linux/err.h>
#include <linux/uprobes.h>
#include <linux/version.h>

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#define SW_UPROBE_HANDLE 1
#endif

/*
 * The parameters of a uprobe_consumer filter: (self, mm) on 6.12,
 * (self, ctx, mm) on 6.1; the context is not needed to decide.
 */
#ifdef SW_UPROBE_HANDLE
#define SW_UPROBE_FILTER_ARGS(self, mm)                                      \
	struct uprobe_consumer *self, struct mm_struct *mm
#else
#define SW_UPROBE_FILTER_ARGS(self, mm)                                      \
	struct uprobe_consumer *self, enum uprobe_filter_ctx sw_ctx,          \
		struct mm_struct *mm
#endif

/**
 * struct sw_uprobe_reg - one registered user-space probe point.
 * @inode:  the file's inode (a reference is held by the caller)
 * @offset: file offset of the probed instruction
 * @uc:     the consumer (handlers)
 * @up:     6.12: the uprobe returned by registration
 */
struct sw_uprobe_reg {
	struct inode *inode;
	loff_t offset;
	struct uprobe_consumer uc;
#ifdef SW_UPROBE_HANDLE
	struct uprobe *up;
#endif
};

/* Registers @u. Context: process context. Return: 0 or a negative errno. */
static inline int sw_uprobe_reg_register(struct sw_uprobe_reg *u)
{
#ifdef SW_UPROBE_HANDLE
	struct uprobe *up = uprobe_register(u->inode, u->offset, 0, &u->uc);

	if (IS_ERR(up))
		return PTR_ERR(up);
	u->up = up;
	return 0;
#else
	return uprobe_register(u->inode, u->offset, &u->uc);
#endif
}

/*
 * Detaches @u; its handlers may still be running until
 * sw_uprobe_reg_sync().  Context: process context.
 */
static inline void sw_uprobe_reg_unregister_nosync(struct sw_uprobe_reg *u)
{
#ifdef SW_UPROBE_HANDLE
	uprobe_unregister_nosync(u->up, &u->uc);
#else
	uprobe_unregister(u->inode, u->offset, &u->uc);
#endif
}

/*
 * Waits until no handler of a detached uprobe runs (6.1: each
 * uprobe_unregister() already waited for its handlers, which hold the
 * uprobe's register_rwsem).  Context: process context.
 */
static inline void sw_uprobe_reg_sync(void)
{
#ifdef SW_UPROBE_HANDLE
	uprobe_unregister_sync();
#endif
}

#endif /* _SW_WRAPPER_UPROBES_H */
