// SPDX-License-Identifier: GPL-2.0
/*
 * procfs.c - the file operations of /proc/stopwatch/, the tree that
 * kernel lockdown leaves alone (debugfs under lockdown refuses to open a
 * file that can be written or mapped).
 *
 * Each open passes a gate, then does what the debugfs file does:
 *  - CAP_SYS_ADMIN in the initial user namespace: /proc is mounted in
 *    every container, debugfs mounts need that capability, so a
 *    container's root reaches no more than before.  The modes (0600,
 *    0400, 0200, root's) are checked by the VFS before this.
 *  - the module fully loaded (a failed init removes files nobody has
 *    open), and a reference on it until the file is released: as
 *    debugfs' owner does, an open file holds off rmmod.  procfs itself
 *    does not: its removal closes files that are still open (it calls
 *    their release), which a relay buffer must not see while a reader
 *    polls it.  With the reference, a relay buffer's file (removed only
 *    at module exit) is never open when it goes; a hist/<probe> file
 *    may be, and is then released by procfs, after which its reads fail.
 *    The release that drops the reference returns into procfs, which
 *    completes the file's removal only after that: module exit, which
 *    removes every file, cannot finish before.
 *
 * Why procfs: its create and remove functions are exported on every
 * kernel and architecture stopwatch supports (tracefs_create_file() is
 * not, on 6.1 nor 6.12); it needs no mount, where a filesystem of our own
 * would pin the module while mounted (a superblock holds its type's
 * owner); and its removal waits for reads and writes in progress and
 * fails later ones, as debugfs' proxy does.  relay keeps a buffer's file
 * as a debugfs dentry, so the sampler still needs debugfs (not its
 * mount): with debugfs=off, starting the sampler fails.
 *
 * All callbacks run in process context.
 */
#include <linux/capability.h>
#include <linux/module.h>
#include <linux/relay.h>

#include "files.h"

static int sw_proc_enter(void)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (READ_ONCE(THIS_MODULE->state) != MODULE_STATE_LIVE ||
	    !try_module_get(THIS_MODULE))
		return -ENODEV;
	return 0;
}

static int sw_proc_leave(int ret)
{
	module_put(THIS_MODULE);
	return ret;
}

static int sw_ctl_proc_open(struct inode *inode, struct file *file)
{
	int ret = sw_proc_enter();

	if (ret)
		return ret;
	ret = single_open(file, sw_ctl_show, pde_data(inode));
	return ret ? sw_proc_leave(ret) : 0;
}

static int sw_show_proc_open(struct inode *inode, struct file *file)
{
	int ret = sw_proc_enter();

	if (ret)
		return ret;
	ret = sw_show_open(file, pde_data(inode));
	return ret ? sw_proc_leave(ret) : 0;
}

static int sw_seq_proc_release(struct inode *inode, struct file *file)
{
	return sw_proc_leave(single_release(inode, file));
}

const struct proc_ops sw_ctl_proc_ops = {
	.proc_open = sw_ctl_proc_open,
	.proc_read = seq_read,
	.proc_write = sw_ctl_write,
	.proc_lseek = seq_lseek,
	.proc_release = sw_seq_proc_release,
};

const struct proc_ops sw_show_proc_ops = {
	.proc_open = sw_show_proc_open,
	.proc_read = seq_read,
	.proc_lseek = seq_lseek,
	.proc_release = sw_seq_proc_release,
};

/*
 * samples/cpuN: relay's own file operations, which find the buffer in the
 * inode's private data, where procfs keeps the entry's data (pde_data()).
 * relay's open makes the file non-seekable; procfs leaves lseek out of a
 * file without proc_lseek.
 */
static int sw_relay_proc_open(struct inode *inode, struct file *file)
{
	int ret = sw_proc_enter();

	if (ret)
		return ret;
	ret = relay_file_operations.open(inode, file);
	return ret ? sw_proc_leave(ret) : 0;
}

static ssize_t sw_relay_proc_read(struct file *file, char __user *ubuf,
				  size_t len, loff_t *ppos)
{
	return relay_file_operations.read(file, ubuf, len, ppos);
}

static __poll_t sw_relay_proc_poll(struct file *file,
				   struct poll_table_struct *wait)
{
	return relay_file_operations.poll(file, wait);
}

static int sw_relay_proc_mmap(struct file *file, struct vm_area_struct *vma)
{
	return relay_file_operations.mmap(file, vma);
}

static int sw_relay_proc_release(struct inode *inode, struct file *file)
{
	return sw_proc_leave(relay_file_operations.release(inode, file));
}

const struct proc_ops sw_relay_proc_ops = {
	.proc_open = sw_relay_proc_open,
	.proc_read = sw_relay_proc_read,
	.proc_poll = sw_relay_proc_poll,
	.proc_mmap = sw_relay_proc_mmap,
	.proc_release = sw_relay_proc_release,
};
