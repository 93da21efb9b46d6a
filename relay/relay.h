/* SPDX-License-Identifier: GPL-2.0 */
/*
 * relay.h - the sampler's per-CPU relay channel: samples/cpuN in the
 * stopwatch directory (/proc/stopwatch and debugfs).
 */
#ifndef _STOPWATCH_RELAY_H
#define _STOPWATCH_RELAY_H

#include <linux/types.h>

struct rchan;
struct sw_file;

/**
 * struct sw_relay - the channel and where its files live.
 * @chan:        relay channel, NULL until the first start
 * @dir:         the samples/ directory
 * @files:       the buffers' files, nr_cpu_ids slots, in creation order
 *               (relay's create and remove callbacks, under its mutex)
 * @err:         why the last sw_relay_open() failed to make a file
 * @subbuf_size: bytes per sub-buffer
 * @n_subbufs:   sub-buffers per CPU
 */
struct sw_relay {
	struct rchan *chan;
	struct sw_file *dir;
	struct sw_file **files;
	int err;
	size_t subbuf_size;
	size_t n_subbufs;
};

int sw_relay_init(struct sw_relay *r, struct sw_file *parent,
		  size_t subbuf_size, size_t n_subbufs);
void sw_relay_exit(struct sw_relay *r);
int sw_relay_open(struct sw_relay *r);
void sw_relay_reset(struct sw_relay *r);
void sw_relay_flush(struct sw_relay *r);
bool sw_relay_write(struct sw_relay *r, const void *rec, u32 len);

#endif /* _STOPWATCH_RELAY_H */
