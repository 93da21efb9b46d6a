// SPDX-License-Identifier: GPL-2.0
/*
 * relay.c - the sampler's relay channel: one buffer and one file
 * (samples/cpuN, in both of control/'s trees) per CPU, of n_subbufs
 * sub-buffers of subbuf_size bytes.
 *
 * The channel never overwrites: when every sub-buffer is full and unread,
 * sw_relay_write() refuses the record and the caller counts it lost.
 *
 * Who writes: only the CPU that owns a buffer, with interrupts disabled
 * (the sampler's irq_work, or a side-band writer in process context that
 * disabled them), so writes to one buffer never interleave.  The overflow
 * handler (possibly an NMI) never calls in here: relay's sub-buffer switch
 * is not reentrant.
 *
 * The channel is opened at the first "start" and reset at later ones, so
 * a reader can drain a stopped session until the next start; it is closed
 * at module unload.
 */
#include <linux/cpumask.h>
#include <linux/relay.h>
#include <linux/slab.h>

#include "control/control.h"
#include "relay.h"

/*
 * relay_open(), and a CPU coming online later, call this once per CPU
 * buffer: samples/cpuN.  relay keeps the file's debugfs dentry and hands
 * it back to sw_relay_remove_file(); r->files maps it to the file.  relay
 * calls both under its channels mutex, which orders them.
 */
static struct dentry *sw_relay_create_file(const char *filename,
					   struct dentry *parent, umode_t mode,
					   struct rchan_buf *buf,
					   int *is_global)
{
	struct sw_relay *r = buf->chan->private_data;
	struct sw_file *f;
	unsigned int i;

	*is_global = 0;
	for (i = 0; i < nr_cpu_ids && r->files[i]; i++)
		;
	if (i == nr_cpu_ids)
		return NULL;
	f = sw_debugfs_add_relay(filename, r->dir, buf);
	/* relay takes NULL, not an ERR_PTR, for failure */
	if (IS_ERR(f)) {
		r->err = PTR_ERR(f);
		return NULL;
	}
	r->files[i] = f;
	return sw_debugfs_dentry(f);
}

/* relay_close() calls this once per buffer, with the dentry it was given. */
static int sw_relay_remove_file(struct dentry *dentry)
{
	/* the file's private data is its buffer (relay's open needs it) */
	struct rchan_buf *buf = d_inode(dentry)->i_private;
	struct sw_relay *r = buf->chan->private_data;
	unsigned int i;

	for (i = 0; i < nr_cpu_ids; i++) {
		if (r->files[i] && sw_debugfs_dentry(r->files[i]) == dentry) {
			sw_debugfs_remove(&r->files[i]);
			break;
		}
	}
	return 0;
}

/* No overwriting: a full buffer refuses new sub-buffers. */
static int sw_relay_subbuf_start(struct rchan_buf *buf, void *subbuf,
				 void *prev_subbuf, size_t prev_padding)
{
	return !relay_buf_full(buf);
}

static const struct rchan_callbacks sw_relay_cb = {
	.subbuf_start = sw_relay_subbuf_start,
	.create_buf_file = sw_relay_create_file,
	.remove_buf_file = sw_relay_remove_file,
};

/**
 * sw_relay_init() - create the samples/ directory; no buffers yet.
 * @r:           channel state
 * @parent:      the stopwatch directory
 * @subbuf_size: sub-buffer size in bytes (checked by the caller)
 * @n_subbufs:   sub-buffers per CPU (checked by the caller)
 *
 * Context: process context (module init).
 * Return: 0 or a negative errno.
 */
int sw_relay_init(struct sw_relay *r, struct sw_file *parent,
		  size_t subbuf_size, size_t n_subbufs)
{
	struct sw_file *d;

	r->files = kcalloc(nr_cpu_ids, sizeof(*r->files), GFP_KERNEL);
	if (!r->files)
		return -ENOMEM;
	d = sw_debugfs_add_dir("samples", parent);
	if (IS_ERR(d)) {
		kfree(r->files);
		r->files = NULL;
		return PTR_ERR(d);
	}
	r->dir = d;
	r->chan = NULL;
	r->subbuf_size = subbuf_size;
	r->n_subbufs = n_subbufs;
	return 0;
}

/**
 * sw_relay_exit() - close the channel and remove samples/.
 * @r: channel state
 *
 * Readers holding a debugfs cpuN file open keep its buffer until they
 * close it; reads then fail with EIO.  A /proc cpuN file open holds off
 * module unload (control/procfs.c), so none is open here.
 *
 * Context: process context; no writer may be running.
 */
void sw_relay_exit(struct sw_relay *r)
{
	if (r->chan)
		relay_close(r->chan);
	r->chan = NULL;
	sw_debugfs_remove(&r->dir);
	kfree(r->files);
	r->files = NULL;
}

/**
 * sw_relay_open() - allocate the per-CPU buffers and create samples/cpuN.
 * @r: channel state
 *
 * Does nothing if the channel is already open.
 *
 * Context: process context; no writer may be running.
 * Return: 0, -ENOMEM, or -ENODEV without debugfs (relay keeps a buffer's
 * file as a debugfs dentry).
 */
int sw_relay_open(struct sw_relay *r)
{
	if (r->chan)
		return 0;
	r->err = -ENOMEM;
	r->chan = relay_open("cpu", sw_debugfs_dentry(r->dir), r->subbuf_size,
			     r->n_subbufs, &sw_relay_cb, r);
	return r->chan ? 0 : r->err;
}

/**
 * sw_relay_reset() - empty every CPU's buffer (a new session begins).
 * @r: channel state
 *
 * Context: process context; no writer may be running.
 */
void sw_relay_reset(struct sw_relay *r)
{
	if (r->chan)
		relay_reset(r->chan);
}

/**
 * sw_relay_flush() - close every CPU's current sub-buffer, waking readers
 * that poll for a full one.
 * @r: channel state
 *
 * Context: process context; no writer may be running.
 */
void sw_relay_flush(struct sw_relay *r)
{
	if (r->chan)
		relay_flush(r->chan);
}

/**
 * sw_relay_write() - append one record to this CPU's buffer.
 * @r:   channel state (open)
 * @rec: the record
 * @len: its size; at most the sub-buffer size
 *
 * Like relay_write(), but reports a refused record instead of dropping it
 * silently, and publishes the new write offset only after the record's
 * bytes (a concurrent read(2) never sees a half-written record).
 *
 * Context: interrupts disabled, not NMI.
 * Return: true if written, false if the buffer was full.
 */
bool sw_relay_write(struct sw_relay *r, const void *rec, u32 len)
{
	struct rchan_buf *buf = *this_cpu_ptr(r->chan->buf);

	lockdep_assert_irqs_disabled();
	if (unlikely(!buf))
		return false;
	if (unlikely(buf->offset + len > r->chan->subbuf_size) &&
	    !relay_switch_subbuf(buf, len))
		return false;
	memcpy(buf->data + buf->offset, rec, len);
	/* the record's bytes before the offset that lets read(2) see them */
	smp_wmb();
	WRITE_ONCE(buf->offset, buf->offset + len);
	return true;
}
