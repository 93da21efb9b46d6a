/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pathtab.h - the identities of call-path nodes: a bounded, preallocated
 * open-addressing table of (parent node, probe) keys, filled lock-free.
 *
 * A node is a call path: the probe of its last call and the node of the
 * path to its caller (0: the path starts there).  Its id is its slot + 1,
 * fixed for the table's life, so per-CPU statistics can be arrays indexed
 * by it.  A key is written once, with compare-and-exchange, from any
 * context (NMI included); a path whose window of slots is full is dropped
 * (the caller counts it).  Nothing is ever removed: a reset replaces the
 * whole table.
 *
 * Pure logic: compiled into stopwatch.ko and into host unit tests.
 */
#ifndef _STOPWATCH_PATHTAB_H
#define _STOPWATCH_PATHTAB_H

#include "wrapper/types.h"

/* Slots looked at for one key, at most (fewer in a smaller table). */
#define SW_PATH_WINDOW 32

/*
 * Longest path the readers follow (paths are bounded by the pending
 * stack's depth; this only guards against a corrupt chain).
 */
#define SW_PATH_MAX_DEPTH 64

/**
 * struct sw_pathtab - the node identities.
 * @bits: log2 of the slot count
 * @keys: the slots: 0 free, else sw_path_key(parent, probe)
 */
struct sw_pathtab {
	u32 bits;
	u32 pad;
	u64 *keys;
};

/*
 * A node's key: its parent's node id and its probe id (probe ids are >= 1,
 * so a key is never 0).
 */
static inline u64 sw_path_key(u32 parent, u32 probe)
{
	return ((u64)parent << 32) | probe;
}

static inline u32 sw_path_key_parent(u64 key)
{
	return key >> 32;
}

static inline u32 sw_path_key_probe(u64 key)
{
	return (u32)key;
}

static inline u32 sw_pathtab_slots(const struct sw_pathtab *t)
{
	return 1U << t->bits;
}

u32 sw_pathtab_bits(u32 max_nodes);
u32 sw_pathtab_node(struct sw_pathtab *t, u32 parent, u32 probe);
int sw_pathtab_chain(const struct sw_pathtab *t, u32 node, u32 *probes,
		     int max);

#endif /* _STOPWATCH_PATHTAB_H */
