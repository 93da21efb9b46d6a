/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wrapper/module.h - the layout of a loaded module.
 *
 * 6.4 replaced core_layout/init_layout with mod->mem[MOD_TEXT...].
 */
#ifndef _SW_WRAPPER_MODULE_H
#define _SW_WRAPPER_MODULE_H

#include <linux/module.h>
#include <linux/uaccess.h>
#include <linux/version.h>

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
#define SW_MODULE_HAS_MEM 1
#endif

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
#ifdef SW_MODULE_HAS_MEM
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

#ifdef SW_MODULE_HAS_MEM
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

#endif /* _SW_WRAPPER_MODULE_H */
