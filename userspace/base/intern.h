/* SPDX-License-Identifier: GPL-2.0 */
/*
 * intern.h - hash tables for the report's hot path.
 *
 * struct sw_intern gives each distinct byte string (a name, a call stack as
 * an array of ids, a tuple of sort keys) a small dense id, 0, 1, 2, ...,
 * and keeps the bytes so that the id can be turned back into them.
 * struct sw_u64map maps 64-bit keys to 64-bit values.
 *
 * Both use open addressing with linear probing and grow at 1/2 load, so a
 * lookup is one hash and usually one or two cache lines.
 */
#ifndef _SW_UTIL_INTERN_H
#define _SW_UTIL_INTERN_H

#include <stddef.h>
#include <stdint.h>

/**
 * struct sw_intern - a set of byte strings with dense ids.
 * @n:      number of entries (ids are 0 .. @n - 1)
 * @off:    byte offset of each entry's key in @arena
 * @len:    key length of each entry
 * @hash:   hash of each entry's key
 * @arena:  the keys, each aligned to 8 bytes
 * @used:   bytes used in @arena
 * @cap:    bytes allocated for @arena
 * @slot:   @nslot buckets holding id + 1, 0 when empty
 * @nslot:  a power of two
 * @ncap:   entries allocated in @off/@len/@hash
 */
struct sw_intern {
	uint32_t n;
	uint64_t *off;
	uint32_t *len;
	uint64_t *hash;
	unsigned char *arena;
	size_t used;
	size_t cap;
	uint32_t *slot;
	uint32_t nslot;
	uint32_t ncap;
};

void sw_intern_init(struct sw_intern *t);
void sw_intern_free(struct sw_intern *t);

/**
 * sw_intern_add() - the id of @key, adding it when new.
 * @t:     the table
 * @key:   bytes
 * @len:   their number
 * @added: set to 1 when the key was new; may be NULL
 *
 * Return: the id, or -ENOMEM.
 */
int64_t sw_intern_add(struct sw_intern *t, const void *key, size_t len,
		      int *added);

/* The id of @key, or -1 if it is not in @t. */
int64_t sw_intern_find(const struct sw_intern *t, const void *key, size_t len);

static inline const void *sw_intern_key(const struct sw_intern *t,
					uint32_t id)
{
	return t->arena + t->off[id];
}

static inline size_t sw_intern_len(const struct sw_intern *t, uint32_t id)
{
	return t->len[id];
}

/* The id of NUL-terminated @s; its key includes the NUL. */
int64_t sw_intern_str(struct sw_intern *t, const char *s);

static inline const char *sw_intern_s(const struct sw_intern *t, uint32_t id)
{
	return (const char *)(t->arena + t->off[id]);
}

uint64_t sw_hash_bytes(const void *p, size_t len);

/**
 * struct sw_u64map - 64-bit keys to 64-bit values.
 * @n:     entries
 * @mask:  buckets - 1 (a power of two minus one), or 0 before the first add
 * @key:   keys
 * @val:   values
 * @full:  bucket-used flags
 */
struct sw_u64map {
	size_t n;
	size_t mask;
	uint64_t *key;
	uint64_t *val;
	unsigned char *full;
};

void sw_u64map_init(struct sw_u64map *m);
void sw_u64map_free(struct sw_u64map *m);

/* Sets @key to @val. Return: 0 or -ENOMEM. */
int sw_u64map_put(struct sw_u64map *m, uint64_t key, uint64_t val);

/* Stores the value of @key in @val. Return: 1 if found, else 0. */
int sw_u64map_get(const struct sw_u64map *m, uint64_t key, uint64_t *val);

/* Removes @key. Return: 1 if it was there, else 0. */
int sw_u64map_del(struct sw_u64map *m, uint64_t key);

#endif /* _SW_UTIL_INTERN_H */
