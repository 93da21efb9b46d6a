/* SPDX-License-Identifier: GPL-2.0 */
/*
 * files.h - inside control/: what a file of the two trees is, and the
 * file operations each tree gives it (ctl.c for debugfs, procfs.c for
 * /proc/stopwatch).  Nothing outside control/ includes this.
 */
#ifndef _STOPWATCH_CONTROL_FILES_H
#define _STOPWATCH_CONTROL_FILES_H

#include <linux/fs.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>

/**
 * struct sw_file - one file or directory, in both trees.
 * @dbg:  its debugfs dentry, NULL where debugfs has none (debugfs=off)
 * @proc: its /proc/stopwatch entry
 * @show: a show file's seq_file show (sw_debugfs_add_show()), else NULL
 * @data: what @show finds in the seq_file's private
 *
 * Both trees' open finds the struct sw_file of a show file in the inode's
 * private data; each tree's own removal waits for opens in progress and
 * refuses later ones, so the struct is freed after both removals.
 */
struct sw_file {
	struct dentry *dbg;
	struct proc_dir_entry *proc;
	int (*show)(struct seq_file *m, void *v);
	void *data;
};

/* control/ctl.c: what a control or show file does, in either tree */
int sw_ctl_show(struct seq_file *m, void *v);
ssize_t sw_ctl_write(struct file *file, const char __user *ubuf, size_t len,
		     loff_t *ppos);
int sw_show_open(struct file *file, struct sw_file *f);
extern const struct file_operations sw_ctl_fops;
extern const struct file_operations sw_show_fops;

/* control/procfs.c */
extern const struct proc_ops sw_ctl_proc_ops;
extern const struct proc_ops sw_show_proc_ops;
extern const struct proc_ops sw_relay_proc_ops;

#endif /* _STOPWATCH_CONTROL_FILES_H */
