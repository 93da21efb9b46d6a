// SPDX-License-Identifier: GPL-2.0
/*
 * ctl.c - what a control file and a show file do, the same in both trees:
 * a read shows the current state through a seq_file, a write is one
 * command handed whole to the file's apply().  The debugfs side's file
 * operations are here; procfs.c wraps the same calls for /proc/stopwatch.
 *
 * All callbacks run in process context.
 */
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "control.h"
#include "files.h"

#define SW_CTL_MAX (64 * 1024)

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

/* seq_file show of a control file: m->private is its struct sw_ctl_file. */
int sw_ctl_show(struct seq_file *m, void *v)
{
	const struct sw_ctl_file *ctl = m->private;

	return ctl->show ? ctl->show(m) : 0;
}

/* A binary command: copied as it is (size-checked), then applied. */
static ssize_t sw_ctl_write_bin(const struct sw_ctl_file *ctl,
				const char __user *ubuf, size_t len)
{
	void *buf;
	int ret;

	sw_error_clear();
	if (!len || len > ctl->bin_max) {
		sw_error("control write of %zu bytes: not 1 to %zu bytes; nothing was changed",
			 len, ctl->bin_max);
		return -E2BIG;
	}
	buf = kvmalloc(len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	if (copy_from_user(buf, ubuf, len)) {
		kvfree(buf);
		return -EFAULT;
	}
	ret = ctl->apply_bin(buf, len);
	kvfree(buf);
	return ret ? ret : len;
}

/* One write is one command: last_error cleared, copied, then applied. */
ssize_t sw_ctl_write(struct file *file, const char __user *ubuf, size_t len,
		     loff_t *ppos)
{
	const struct sw_ctl_file *ctl =
		((struct seq_file *)file->private_data)->private;
	char *buf;
	int ret;

	if (ctl->apply_bin)
		return sw_ctl_write_bin(ctl, ubuf, len);
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

/* A show file's open: the seq_file's private is the owner's data. */
int sw_show_open(struct file *file, struct sw_file *f)
{
	return single_open(file, f->show, f->data);
}

static int sw_ctl_dbg_open(struct inode *inode, struct file *file)
{
	return single_open(file, sw_ctl_show, inode->i_private);
}

static int sw_show_dbg_open(struct inode *inode, struct file *file)
{
	return sw_show_open(file, inode->i_private);
}

/* debugfs: its proxy pins the module (owner) while a file is open. */
const struct file_operations sw_ctl_fops = {
	.owner = THIS_MODULE,
	.open = sw_ctl_dbg_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = sw_ctl_write,
};

const struct file_operations sw_show_fops = {
	.owner = THIS_MODULE,
	.open = sw_show_dbg_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};
