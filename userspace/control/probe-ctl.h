/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probe-ctl.h - talking to a live stopwatch.ko for "stopwatch time" and
 * "stopwatch probe": load it when it is not loaded, write the probes file
 * (one write, all or nothing, the refusal explained with last_error),
 * resolve a cgroup path to its id.
 */
#ifndef _SW_UTIL_PROBE_CTL_H
#define _SW_UTIL_PROBE_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

#define SW_MODULE_SYSFS "/sys/module/stopwatch"

/**
 * sw_module_ensure() - load stopwatch.ko unless it is loaded.
 * @path:       --module PATH, or NULL
 * @max_probes: the max_probes parameter to load it with (0: the default)
 * @loaded:     set when this call loaded it
 * @err:        why not
 *
 * Tries @path; else "modprobe stopwatch" (installed by make install or
 * DKMS); else build/module/<arch>-<release>/stopwatch.ko, then
 * build/module/<arch>/stopwatch.ko of the repository this program was
 * built in.
 *
 * Return: 0 or a negative errno.
 */
int sw_module_ensure(const char *path, unsigned int max_probes, bool *loaded,
		     struct sw_err *err);

/* The loaded module's max_probes parameter, or 0 when unknown. */
unsigned int sw_module_max_probes(void);

/* sw_ctl_write_ext() flags. */
#define SW_CTL_REPLACE	0x1	/* the file is one setting: truncate, not append */
#define SW_CTL_QUOTE	0x2	/* a refusal quotes the line's first line */

/**
 * sw_ctl_write_ext() - one write(2) of @line to @dir/@file.
 * @flags: SW_CTL_* (0: append, as to probes and spans; a refusal names the
 *         file)
 * Return: 0 or the negative errno of the open or the write, with @err
 * holding the errno's text and the module's last_error.
 */
int sw_ctl_write_ext(const char *dir, const char *file, const char *line,
		     unsigned int flags, struct sw_err *err);

/* sw_ctl_write() - sw_ctl_write_ext() with no flags. */
int sw_ctl_write(const char *dir, const char *file, const char *line,
		 struct sw_err *err);

/**
 * sw_cgroup_id() - the cgroup v2 id (the directory's inode) of @path: an
 * absolute directory, or a path relative to /sys/fs/cgroup.
 */
int sw_cgroup_id(const char *path, uint64_t *id, struct sw_err *err);

#endif /* _SW_UTIL_PROBE_CTL_H */
