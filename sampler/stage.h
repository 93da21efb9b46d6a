/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stage.h - the per-CPU staging ring between the overflow handler and relay.
 *
 * One producer (the CPU's overflow handler, possibly in NMI) and one
 * consumer (the same CPU's irq_work, or any CPU once the producer is
 * stopped).  The producer takes no lock and never waits: an NMI may
 * interrupt the consumer at any instruction, so the two share only the
 * monotonic byte counters head and tail, published with release and read
 * with acquire ordering.
 *
 * Records are stopwatch ABI records (8-byte aligned, size in the header)
 * and never wrap: one that does not fit before the end of the ring is
 * placed at offset 0 after a wrap marker (header type 0).
 *
 * Pure logic: builds into stopwatch.ko and into the host unit tests.
 */
#ifndef _STOPWATCH_STAGE_H
#define _STOPWATCH_STAGE_H

#include "wrapper/types.h"

/*
 * Ordering: the producer fills a record, then publishes head (release);
 * the consumer reads head (acquire), then the record.  The consumer is
 * done with a record before it publishes tail (release); the producer
 * reads tail (acquire) before reusing that space.
 */
#ifdef __KERNEL__
#include <asm/barrier.h>
#include <linux/compiler.h>
#define sw_load_acquire(p) smp_load_acquire(p)	/* pairs with release */
#define sw_store_release(p, v) smp_store_release(p, v)	/* see above */
#else
#define sw_load_acquire(p) __atomic_load_n(p, __ATOMIC_ACQUIRE)
#define sw_store_release(p, v) __atomic_store_n(p, v, __ATOMIC_RELEASE)
#endif

/* Smallest and largest ring; sizes are powers of two. */
#define SW_STAGE_MIN 4096U
#define SW_STAGE_MAX (16U << 20)

/**
 * struct sw_stage - one CPU's staging ring.
 * @head: bytes ever produced; written by the producer only
 * @tail: bytes ever consumed; written by the consumer only
 * @skip: producer-private: bytes of wrap padding in the open reservation
 * @size: ring size in bytes, a power of two
 * @data: the ring
 */
struct sw_stage {
	u64 head;
	u64 tail;
	u32 skip;
	u32 size;
	u8 *data;
};

void sw_stage_init(struct sw_stage *s, void *data, u32 size);
void *sw_stage_reserve(struct sw_stage *s, u32 len);
void sw_stage_commit(struct sw_stage *s, u32 len);
void *sw_stage_peek(struct sw_stage *s, u32 *len);
void sw_stage_consume(struct sw_stage *s, u32 len);
u64 sw_stage_used(const struct sw_stage *s);

#endif /* _STOPWATCH_STAGE_H */
