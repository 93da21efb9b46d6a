// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs.c - the /sys/kernel/debug/stopwatch/ directory and its file
 * plumbing.  Each part of the module registers its own files with
 * sw_debugfs_add_ctl() in its init and removes them in its exit; this
 * file owns only the directory, version and last_error.
 *
 * Every file is root-only.  All callbacks run in process context.
 */
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "wrapper/timekeeping.h"
#include "control.h"

#define SW_CTL_MAX (64 * 1024)

static struct dentry *sw_dbg_root;

/**
 * sw_seq_emit() - sw_emit_fn that prints into a seq_file.
 * @ctx: the seq_file
 * @fmt: printf format
 *
 * Context: process context.
 */
void sw_seq_emit(void *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	seq_vprintf(ctx, fmt, ap);
	va_end(ap);
}

/*
 * Copies a control write into a NUL-terminated kernel buffer.  A NUL
 * inside the write is refused: what follows it would be silently ignored.
 */
static char *sw_ctl_copy(const char __user *ubuf, size_t len)
{
	char *buf, *nul;

	if (len > SW_CTL_MAX) {
		sw_error("control write of %zu bytes is longer than %d", len,
			 SW_CTL_MAX);
		return ERR_PTR(-E2BIG);
	}
	buf = kvmalloc(len + 1, GFP_KERNEL);
	if (!buf)
		return ERR_PTR(-ENOMEM);
	if (copy_from_user(buf, ubuf, len)) {
		kvfree(buf);
		return ERR_PTR(-EFAULT);
	}
	buf[len] = '\0';
	nul = memchr(buf, '\0', len);
	if (nul) {
		sw_error("control write of %zu bytes has a NUL byte at offset %td; nothing was changed",
			 len, nul - buf);
		kvfree(buf);
		return ERR_PTR(-EINVAL);
	}
	return buf;
}

static int sw_ctl_show(struct seq_file *m, void *v)
{
	const struct sw_ctl_file *ctl = m->private;

	return ctl->show ? ctl->show(m) : 0;
}

static int sw_ctl_open(struct inode *inode, struct file *file)
{
	return single_open(file, sw_ctl_show, inode->i_private);
}

/* One write is one command: last_error cleared, copied, then applied. */
static ssize_t sw_ctl_write(struct file *file, const char __user *ubuf,
			    size_t len, loff_t *ppos)
{
	const struct sw_ctl_file *ctl =
		((struct seq_file *)file->private_data)->private;
	char *buf;
	int ret;

	if (!ctl->apply)
		return -EINVAL;
	sw_error_clear();
	buf = sw_ctl_copy(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	ret = ctl->apply(buf);
	kvfree(buf);
	return ret ? ret : len;
}

static const struct file_operations sw_ctl_fops = {
	.owner = THIS_MODULE,
	.open = sw_ctl_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = sw_ctl_write,
};

/**
 * sw_debugfs_add_ctl() - create a file.
 * @name:   file name
 * @mode:   permissions (root-only: 0600, 0400 without @ctl->apply, or 0200
 *          without @ctl->show)
 * @parent: directory, NULL for the stopwatch directory
 * @ctl:    what reading shows and what a write does; must outlive the file
 *
 * Every write is copied (at most SW_CTL_MAX bytes, no NUL inside), clears
 * last_error and is handed whole to @ctl->apply, whose negative errno the
 * write returns.
 *
 * Context: process context.
 * Return: the dentry (debugfs reports its errors in it).
 */
struct dentry *sw_debugfs_add_ctl(const char *name, umode_t mode,
				  struct dentry *parent,
				  const struct sw_ctl_file *ctl)
{
	return debugfs_create_file(name, mode, parent ? parent : sw_dbg_root,
				   (void *)ctl, &sw_ctl_fops);
}

/**
 * sw_debugfs_remove() - remove a file or directory made here, waiting for
 * its open readers and writers; NULL and error pointers are accepted.
 * @d: the dentry, set to NULL
 *
 * Context: process context.
 */
void sw_debugfs_remove(struct dentry **d)
{
	if (!IS_ERR_OR_NULL(*d))
		debugfs_remove(*d);
	*d = NULL;
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
 * do not know.  stats_format grows (minor) when columns are appended and
 * changes major only if existing columns change meaning or order.
 */
static int sw_version_show(struct seq_file *m)
{
	seq_printf(m, "stopwatch %s\nstats_format %d.%d\ncall_clock %s\n",
		   SW_VERSION, SW_STATS_FORMAT_MAJOR, SW_STATS_FORMAT_MINOR,
		   sw_clock_name());
	return 0;
}

static const struct sw_ctl_file sw_version_file = {
	.show = sw_version_show,
};

/**
 * sw_debugfs_root() - the /sys/kernel/debug/stopwatch/ directory.
 *
 * Context: process context, between sw_debugfs_init() and sw_debugfs_exit().
 * Return: the directory dentry.
 */
struct dentry *sw_debugfs_root(void)
{
	return sw_dbg_root;
}

/**
 * sw_debugfs_init() - create /sys/kernel/debug/stopwatch/ with version and
 * last_error.
 *
 * Context: process context (module init).
 * Return: 0 or a negative errno; nothing is left behind on failure.
 */
int sw_debugfs_init(void)
{
	struct dentry *root;

	root = debugfs_create_dir(SW_NAME, NULL);
	if (IS_ERR(root)) {
		pr_err(SW_NAME ": cannot create debugfs directory (%ld); is debugfs enabled?\n",
		       PTR_ERR(root));
		return PTR_ERR(root);
	}
	sw_dbg_root = root;
	sw_debugfs_add_ctl("last_error", 0400, NULL, &sw_last_error_file);
	sw_debugfs_add_ctl("version", 0400, NULL, &sw_version_file);
	return 0;
}

/**
 * sw_debugfs_exit() - remove the directory and what is left in it.
 *
 * Called last: every other part has removed its own files by now.
 *
 * Context: process context (module exit or failed init).
 */
void sw_debugfs_exit(void)
{
	sw_debugfs_remove(&sw_dbg_root);
}
