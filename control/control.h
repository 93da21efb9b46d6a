/* SPDX-License-Identifier: GPL-2.0 */
/*
 * control.h - the control plane: /sys/kernel/debug/stopwatch/ and the
 * error reporting of control writes.  The lowest layer above lib/: every
 * other part registers its own files here and reports through sw_error().
 *
 *   debugfs.c  the directory, control files (write = one command, all or
 *              nothing), read-only files, version and last_error
 *   error.c    sw_error(): kernel log (rate-limited) and last_error
 *   clock.c    the clock calls are timed by (wrapper/timekeeping.h)
 */
#ifndef _STOPWATCH_CONTROL_H
#define _STOPWATCH_CONTROL_H

#include <linux/debugfs.h>
#include <linux/seq_file.h>

#define SW_NAME "stopwatch"
#define SW_VERSION "0.3"
#define SW_ERRMSG_LEN 256
#define SW_STATS_FORMAT_MAJOR 1
/*
 * 1.1: <event>_min/_avg/_max/_unmeasured and cpi_* columns appended
 * 1.2: filtered, filtered_short, filtered_long appended (last columns)
 * 1.3: attach, attach_err appended
 * 1.4: detached appended
 */
#define SW_STATS_FORMAT_MINOR 4

/**
 * struct sw_ctl_file - a debugfs file (sw_debugfs_add_ctl()).
 * @show:  prints the current state; NULL for a write-only file
 * @apply: carries out one write, a NUL-terminated copy it may modify;
 *         returns 0 or a negative errno after saying why with sw_error();
 *         NULL for a read-only file
 */
struct sw_ctl_file {
	int (*show)(struct seq_file *m);
	int (*apply)(char *buf);
};

/* control/error.c */
void sw_error(const char *fmt, ...) __printf(1, 2);
void sw_error_clear(void);
void sw_error_show(struct seq_file *m);

/* control/debugfs.c */
int sw_debugfs_init(void);
void sw_debugfs_exit(void);
struct dentry *sw_debugfs_root(void);
struct dentry *sw_debugfs_add_ctl(const char *name, umode_t mode,
				  struct dentry *parent,
				  const struct sw_ctl_file *ctl);
void sw_debugfs_remove(struct dentry **d);
void sw_seq_emit(void *ctx, const char *fmt, ...);

#endif /* _STOPWATCH_CONTROL_H */
