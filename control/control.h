/* SPDX-License-Identifier: GPL-2.0 */
/*
 * control.h - the control plane: the stopwatch directory, in
 * /proc/stopwatch/ (allowed under kernel lockdown) and in
 * /sys/kernel/debug/stopwatch/, and the error reporting of control writes.
 * The lowest layer above lib/: every other part makes its files here, in
 * both trees at once, and reports through sw_error().  The sw_debugfs_*()
 * functions make and remove files in both trees.
 *
 *   debugfs.c  the directory in both trees; files and directories made
 *              and removed in both; version and last_error
 *   ctl.c      control files (write = one command, all or nothing) and
 *              show files; the debugfs side's file operations
 *   procfs.c   the /proc side's: root-only, CAP_SYS_ADMIN, module pinned
 *              while open; relay buffers' files
 *   error.c    sw_error(): kernel log (rate-limited) and last_error
 *   clock.c    the clock calls are timed by (wrapper/timekeeping.h)
 */
#ifndef _STOPWATCH_CONTROL_H
#define _STOPWATCH_CONTROL_H

#include <linux/seq_file.h>
#include <linux/types.h>

#include <stopwatch/files.h>

#define SW_NAME "stopwatch"
#define SW_ERRMSG_LEN 256

/**
 * struct sw_ctl_file - a control file (sw_debugfs_add_ctl()).
 * @show:  prints the current state; NULL for a write-only file
 * @apply: carries out one write, a NUL-terminated copy it may modify;
 *         returns 0 or a negative errno after saying why with sw_error();
 *         NULL for a read-only file
 * @apply_bin: instead of @apply, for a file of binary commands: carries out
 *         one write of at most @bin_max bytes, copied as it is
 * @bin_max: the largest write @apply_bin takes
 */
struct sw_ctl_file {
	int (*show)(struct seq_file *m);
	int (*apply)(char *buf);
	int (*apply_bin)(const void *buf, size_t len);
	size_t bin_max;
};

/* control/error.c */
void sw_error(const char *fmt, ...) __printf(1, 2);
void sw_error_clear(void);
void sw_error_show(struct seq_file *m);

struct sw_file;		/* a file or directory of both trees */
struct rchan_buf;
struct dentry;

/* control/debugfs.c */
int sw_debugfs_init(void);
void sw_debugfs_exit(void);
struct sw_file *sw_debugfs_root(void);
struct sw_file *sw_debugfs_add_ctl(const char *name, umode_t mode,
				   struct sw_file *parent,
				   const struct sw_ctl_file *ctl);
struct sw_file *sw_debugfs_add_show(const char *name, struct sw_file *parent,
				    int (*show)(struct seq_file *m, void *v),
				    void *data);
struct sw_file *sw_debugfs_add_dir(const char *name, struct sw_file *parent);
struct sw_file *sw_debugfs_add_relay(const char *name, struct sw_file *parent,
				     struct rchan_buf *buf);
struct dentry *sw_debugfs_dentry(const struct sw_file *f);
void sw_debugfs_remove(struct sw_file **f);

/* control/ctl.c */
void sw_seq_emit(void *ctx, const char *fmt, ...);

#endif /* _STOPWATCH_CONTROL_H */
