// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs.c - the stopwatch directory, in two trees: /proc/stopwatch/,
 * which kernel lockdown allows, and /sys/kernel/debug/stopwatch/ where
 * debugfs is there (under lockdown it opens only files that
 * cannot be written or mapped).  Every file of the module is made here,
 * in both at once: each part registers its own with sw_debugfs_add_ctl()
 * and friends in its init and removes them in its exit; this file owns
 * only the directory, version and last_error.
 *
 * Every file is root-only.  All callbacks run in process context.
 */
#include <linux/debugfs.h>
#include <linux/relay.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "wrapper/timekeeping.h"
#include "control.h"
#include "files.h"

static struct sw_file *sw_root;
static struct sw_file *sw_own[2];	/* last_error, version */

/*
 * A name both trees take: procfs warns about "", ".", "..", a '/' and a
 * name of 256 bytes or more (debugfs refuses them); names are unique in
 * their directory by their owners' rules.
 */
static bool sw_name_ok(const char *name)
{
	size_t len = strnlen(name, NAME_MAX + 1);

	return len && len <= NAME_MAX && !strchr(name, '/') &&
	       strcmp(name, ".") && strcmp(name, "..");
}

/* The parent's debugfs dentry; NULL when it has none (no file made). */
static struct dentry *sw_dbg_parent(struct sw_file *parent)
{
	return parent->dbg;
}

/*
 * Makes @f's debugfs file (tolerating its absence) and its /proc entry
 * (required).  @f is freed on failure.
 */
static struct sw_file *sw_file_make(struct sw_file *f, const char *name,
				    umode_t mode, struct sw_file *parent,
				    void *data, const struct file_operations *fops,
				    const struct proc_ops *pops)
{
	struct dentry *d;

	if (!parent)
		parent = sw_root;
	if (!sw_name_ok(name)) {
		kfree(f);
		return ERR_PTR(-EINVAL);
	}
	if (sw_dbg_parent(parent)) {
		d = debugfs_create_file(name, mode, parent->dbg, data, fops);
		f->dbg = IS_ERR(d) ? NULL : d;
	}
	f->proc = proc_create_data(name, mode, parent->proc, pops, data);
	if (!f->proc) {
		debugfs_remove(f->dbg);
		kfree(f);
		return ERR_PTR(-ENOMEM);
	}
	return f;
}

/**
 * sw_debugfs_add_ctl() - create a control file.
 * @name:   file name, unique in @parent
 * @mode:   permissions (root-only: 0600, 0400 without @ctl->apply, or 0200
 *          without @ctl->show)
 * @parent: directory, NULL for the stopwatch directory
 * @ctl:    what reading shows and what a write does; must outlive the file
 *
 * Every write is copied (at most 64 KiB, no NUL inside), clears
 * last_error and is handed whole to @ctl->apply, whose negative errno the
 * write returns.
 *
 * Context: process context.
 * Return: the file, or an ERR_PTR (-EINVAL for a name a tree refuses).
 */
struct sw_file *sw_debugfs_add_ctl(const char *name, umode_t mode,
				   struct sw_file *parent,
				   const struct sw_ctl_file *ctl)
{
	struct sw_file *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return ERR_PTR(-ENOMEM);
	return sw_file_make(f, name, mode, parent, (void *)ctl, &sw_ctl_fops,
			    &sw_ctl_proc_ops);
}

/**
 * sw_debugfs_add_show() - create a read-only file (0400) shown by a
 * seq_file show function.
 * @name:   file name, unique in @parent
 * @parent: directory, NULL for the stopwatch directory
 * @show:   prints the file; finds @data in the seq_file's private
 * @data:   must stay valid until the file is removed
 *
 * Context: process context.
 * Return: the file, or an ERR_PTR (-EINVAL for a name a tree refuses).
 */
struct sw_file *sw_debugfs_add_show(const char *name, struct sw_file *parent,
				    int (*show)(struct seq_file *m, void *v),
				    void *data)
{
	struct sw_file *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return ERR_PTR(-ENOMEM);
	f->show = show;
	f->data = data;
	return sw_file_make(f, name, 0400, parent, f, &sw_show_fops,
			    &sw_show_proc_ops);
}

/**
 * sw_debugfs_add_relay() - create a relay channel buffer's file (0400):
 * for a channel's create_buf_file callback.
 * @name:   file name relay chose (cpuN)
 * @parent: directory
 * @buf:    the buffer
 *
 * In /proc/stopwatch the file reads, polls and maps as relay's own file
 * does in debugfs.  relay keeps the debugfs file's dentry
 * (sw_debugfs_dentry()): without debugfs there is none, and this fails.
 *
 * Context: process context (relay_open(), or a CPU coming online).
 * Return: the file, or an ERR_PTR (-ENODEV without a debugfs file).
 */
struct sw_file *sw_debugfs_add_relay(const char *name, struct sw_file *parent,
				     struct rchan_buf *buf)
{
	struct sw_file *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return ERR_PTR(-ENOMEM);
	f = sw_file_make(f, name, 0400, parent, buf, &relay_file_operations,
			 &sw_relay_proc_ops);
	if (!IS_ERR(f) && !f->dbg) {
		sw_debugfs_remove(&f);
		return ERR_PTR(-ENODEV);
	}
	return f;
}

/**
 * sw_debugfs_dentry() - a file's debugfs dentry.
 * @f: the file
 *
 * Return: the dentry, NULL where debugfs has none.
 */
struct dentry *sw_debugfs_dentry(const struct sw_file *f)
{
	return f->dbg;
}

/**
 * sw_debugfs_add_dir() - create a directory (root's: 0500 in /proc).
 * @name:   directory name, unique in @parent
 * @parent: directory, NULL for the stopwatch directory
 *
 * Context: process context.
 * Return: the directory, or an ERR_PTR.
 */
struct sw_file *sw_debugfs_add_dir(const char *name, struct sw_file *parent)
{
	struct sw_file *f;
	struct dentry *d;

	if (!parent)
		parent = sw_root;
	if (!sw_name_ok(name))
		return ERR_PTR(-EINVAL);
	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return ERR_PTR(-ENOMEM);
	if (sw_dbg_parent(parent)) {
		d = debugfs_create_dir(name, parent->dbg);
		f->dbg = IS_ERR(d) ? NULL : d;
	}
	f->proc = proc_mkdir_mode(name, 0500, parent->proc);
	if (!f->proc) {
		debugfs_remove(f->dbg);
		kfree(f);
		return ERR_PTR(-ENOMEM);
	}
	return f;
}

/**
 * sw_debugfs_remove() - remove a file or directory made here, in both
 * trees, waiting for the reads and writes in progress; later ones fail.
 * NULL and error pointers are accepted.
 * @f: the file, set to NULL
 *
 * A directory's files are removed by their owners first.
 *
 * Context: process context.
 */
void sw_debugfs_remove(struct sw_file **f)
{
	if (!IS_ERR_OR_NULL(*f)) {
		proc_remove((*f)->proc);
		debugfs_remove((*f)->dbg);
		kfree(*f);
	}
	*f = NULL;
}

static int sw_last_error_show(struct seq_file *m)
{
	sw_error_show(m);
	return 0;
}

static const struct sw_ctl_file sw_last_error_file = {
	.show = sw_last_error_show,
};

/*
 * version: what the files' formats are, so readers can refuse layouts they
 * do not know (stopwatch/files.h).
 */
static int sw_version_show(struct seq_file *m)
{
	seq_printf(m, "stopwatch %s\n" SW_VERSION_FORMAT_KEY " %d.%d\ncall_clock %s\n",
		   SW_VERSION, SW_STATS_FORMAT_MAJOR, SW_STATS_FORMAT_MINOR,
		   sw_clock_name());
	return 0;
}

static const struct sw_ctl_file sw_version_file = {
	.show = sw_version_show,
};

/**
 * sw_debugfs_root() - the stopwatch directory.
 *
 * Context: process context, between sw_debugfs_init() and sw_debugfs_exit().
 * Return: the directory.
 */
struct sw_file *sw_debugfs_root(void)
{
	return sw_root;
}

/**
 * sw_debugfs_init() - create /proc/stopwatch/ and, where debugfs is there,
 * /sys/kernel/debug/stopwatch/, with version and last_error.
 *
 * Context: process context (module init).
 * Return: 0 or a negative errno; nothing is left behind on failure.
 */
int sw_debugfs_init(void)
{
	struct sw_file *root;
	struct dentry *d;

	root = kzalloc(sizeof(*root), GFP_KERNEL);
	if (!root)
		return -ENOMEM;
	root->proc = proc_mkdir_mode(SW_NAME, 0500, NULL);
	if (!root->proc) {
		pr_err(SW_NAME ": cannot create /proc/" SW_NAME "\n");
		kfree(root);
		return -ENOMEM;
	}
	d = debugfs_create_dir(SW_NAME, NULL);
	if (IS_ERR(d))
		pr_info(SW_NAME ": no debugfs directory (%ld): /proc/" SW_NAME " only\n",
			PTR_ERR(d));
	else
		root->dbg = d;
	sw_root = root;
	sw_own[0] = sw_debugfs_add_ctl(SW_FILE_LAST_ERROR, 0400, NULL,
				       &sw_last_error_file);
	sw_own[1] = sw_debugfs_add_ctl(SW_FILE_VERSION, 0400, NULL, &sw_version_file);
	return 0;
}

/**
 * sw_debugfs_exit() - remove the directory in both trees.
 *
 * Called last: every other part has removed its own files by now.
 *
 * Context: process context (module exit or failed init).
 */
void sw_debugfs_exit(void)
{
	sw_debugfs_remove(&sw_own[1]);
	sw_debugfs_remove(&sw_own[0]);
	sw_debugfs_remove(&sw_root);
}
