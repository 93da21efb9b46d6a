/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wrapper/seqlock.h - a seqcount writer's section, in the handlers.
 *
 * The statistics each CPU keeps have a single writer (the handler on that
 * CPU) and readers on other CPUs (read_seqcount_begin(),
 * read_seqcount_retry(), the same everywhere).  The writer's section is
 * raw_write_seqcount_begin() and raw_write_seqcount_end() but on arm64,
 * whose end is smp_wmb() and a second increment (a barrier, a load, an
 * add, a store): there the sequence is loaded once, at the begin, and the
 * end is a release store of the even value (STLR: the section's stores
 * are seen before it, as smp_wmb() would order them), one barrier and one
 * load fewer in every section.  x86_64's increment is one instruction and
 * its barriers are the compiler's: the kernel's own is the cheapest.
 */
#ifndef _SW_WRAPPER_SEQLOCK_H
#define _SW_WRAPPER_SEQLOCK_H

#include <linux/seqlock.h>

/*
 * sw_write_seqcount_begin(), sw_write_seqcount_end() - a single writer's
 * section: the sequence odd inside; pass the begin's value to the end.
 * Context: the only writer of @s (here: its CPU's handler, preemption
 * disabled).
 */
#ifdef CONFIG_ARM64
static __always_inline unsigned int sw_write_seqcount_begin(seqcount_t *s)
{
	unsigned int seq = READ_ONCE(s->sequence) + 1;

	WRITE_ONCE(s->sequence, seq);
	smp_wmb(); /* the odd sequence before the section's stores */
	return seq;
}

static __always_inline void sw_write_seqcount_end(seqcount_t *s,
						  unsigned int seq)
{
	/* the section's stores before the even sequence */
	smp_store_release(&s->sequence, seq + 1);
}
#else
static __always_inline unsigned int sw_write_seqcount_begin(seqcount_t *s)
{
	raw_write_seqcount_begin(s);
	return 0;
}

static __always_inline void sw_write_seqcount_end(seqcount_t *s,
						  unsigned int seq)
{
	raw_write_seqcount_end(s);
}
#endif

#endif /* _SW_WRAPPER_SEQLOCK_H */
