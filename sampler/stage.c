// SPDX-License-Identifier: GPL-2.0
/*
 * stage.c - the per-CPU staging ring (see stage.h for the protocol).
 *
 * Producer: sw_stage_reserve() then sw_stage_commit(), in the overflow
 * handler (NMI or hard IRQ).  The producer is never re-entered on one ring:
 * the handler's nesting guard drops a nested sample before it gets here.
 * Consumer: sw_stage_peek() then sw_stage_consume(), with interrupts off on
 * the ring's CPU or with the producer stopped.
 */
#include "stage.h"

/* The header fields the ring looks at; the full layout is stopwatch/abi.h. */
struct sw_stage_hdr {
	u16 type;	/* 0: wrap marker, the rest of the ring is skipped */
	u16 flags;
	u32 size;	/* record size in bytes, multiple of 8 */
};

/**
 * sw_stage_init() - set up an empty ring.
 * @s:    ring
 * @data: @size bytes of memory
 * @size: a power of two, SW_STAGE_MIN to SW_STAGE_MAX
 *
 * Context: any; no producer or consumer may be running.
 */
void sw_stage_init(struct sw_stage *s, void *data, u32 size)
{
	s->head = 0;
	s->tail = 0;
	s->skip = 0;
	s->size = size;
	s->data = data;
}
NOKPROBE_SYMBOL(sw_stage_init);

/**
 * sw_stage_reserve() - reserve contiguous space for one record.
 * @s:   ring
 * @len: bytes wanted, a multiple of 8, at most @s->size / 2
 *
 * The space becomes visible to the consumer only at sw_stage_commit().
 *
 * Context: producer (overflow handler, NMI-safe: no lock, no wait).
 * Return: where to write the record, or NULL if the ring is full.
 */
void *sw_stage_reserve(struct sw_stage *s, u32 len)
{
	u64 head = s->head;
	u64 tail = sw_load_acquire(&s->tail);
	u32 off = (u32)head & (s->size - 1);
	u32 room = s->size - off;
	u32 skip = 0;

	if (len > s->size / 2 || (len & 7))
		return NULL;
	if (len > room)
		skip = room;
	if (head - tail + skip + len > s->size)
		return NULL;
	if (skip) {
		struct sw_stage_hdr *w = (struct sw_stage_hdr *)(s->data + off);

		w->type = 0;
		w->flags = 0;
		w->size = skip;
		off = 0;
	}
	s->skip = skip;
	return s->data + off;
}
NOKPROBE_SYMBOL(sw_stage_reserve);

/**
 * sw_stage_commit() - publish the reserved record.
 * @s:   ring
 * @len: the record's final size: a multiple of 8, at most the reserved
 *       length (a record may shrink, never grow)
 *
 * Context: producer, after a successful sw_stage_reserve().
 */
void sw_stage_commit(struct sw_stage *s, u32 len)
{
	sw_store_release(&s->head, s->head + s->skip + len);
	s->skip = 0;
}
NOKPROBE_SYMBOL(sw_stage_commit);

/**
 * sw_stage_peek() - the oldest unconsumed record.
 * @s:   ring
 * @len: its size in bytes
 *
 * Skips wrap markers.  A record whose size is not a multiple of 8, smaller
 * than a header or larger than what was produced means memory corruption;
 * the ring is then emptied and NULL returned.
 *
 * Context: consumer.
 * Return: the record (valid until sw_stage_consume()), or NULL if empty.
 */
void *sw_stage_peek(struct sw_stage *s, u32 *len)
{
	for (;;) {
		u64 tail = s->tail;
		u64 head = sw_load_acquire(&s->head);
		u32 off = (u32)tail & (s->size - 1);
		struct sw_stage_hdr *h;

		if (tail == head)
			return NULL;
		h = (struct sw_stage_hdr *)(s->data + off);
		if (h->size < sizeof(*h) || (h->size & 7) ||
		    h->size > head - tail || h->size > s->size - off) {
			sw_store_release(&s->tail, head);
			return NULL;
		}
		if (h->type == 0) {
			sw_store_release(&s->tail, tail + h->size);
			continue;
		}
		*len = h->size;
		return h;
	}
}
NOKPROBE_SYMBOL(sw_stage_peek);

/**
 * sw_stage_consume() - release the record returned by sw_stage_peek().
 * @s:   ring
 * @len: its size
 *
 * Context: consumer.
 */
void sw_stage_consume(struct sw_stage *s, u32 len)
{
	sw_store_release(&s->tail, s->tail + len);
}
NOKPROBE_SYMBOL(sw_stage_consume);

/**
 * sw_stage_used() - bytes produced and not yet consumed.
 * @s: ring
 *
 * Context: any (a snapshot).
 * Return: bytes in use, including wrap padding.
 */
u64 sw_stage_used(const struct sw_stage *s)
{
	return READ_ONCE(s->head) - READ_ONCE(s->tail);
}
