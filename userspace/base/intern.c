// SPDX-License-Identifier: GPL-2.0
/*
 * intern.c - dense-id byte-string sets and a 64-bit hash map.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/intern.h"

#define SW_MUL1 0x9e3779b97f4a7c15ULL
#define SW_MUL2 0xbf58476d1ce4e5b9ULL

static inline uint64_t sw_mix(uint64_t x)
{
	x ^= x >> 31;
	x *= SW_MUL2;
	x ^= x >> 29;
	return x;
}

uint64_t sw_hash_bytes(const void *p, size_t len)
{
	const unsigned char *b = p;
	uint64_t h = len * SW_MUL1, w;

	while (len >= 8) {
		memcpy(&w, b, 8);
		h = (h ^ sw_mix(w)) * SW_MUL1;
		b += 8;
		len -= 8;
	}
	if (len) {
		w = 0;
		memcpy(&w, b, len);
		h = (h ^ sw_mix(w)) * SW_MUL1;
	}
	return sw_mix(h ^ (h >> 32));
}

void sw_intern_init(struct sw_intern *t)
{
	memset(t, 0, sizeof(*t));
}

void sw_intern_free(struct sw_intern *t)
{
	free(t->off);
	free(t->len);
	free(t->hash);
	free(t->arena);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

static int sw_intern_rehash(struct sw_intern *t, uint32_t nslot)
{
	uint32_t *slot = calloc(nslot, sizeof(*slot)), i;

	if (!slot)
		return -ENOMEM;
	for (i = 0; i < t->n; i++) {
		uint32_t b = (uint32_t)t->hash[i] & (nslot - 1);

		while (slot[b])
			b = (b + 1) & (nslot - 1);
		slot[b] = i + 1;
	}
	free(t->slot);
	t->slot = slot;
	t->nslot = nslot;
	return 0;
}

static int64_t sw_intern_lookup(const struct sw_intern *t, const void *key,
				size_t len, uint64_t h, uint32_t *bucket)
{
	uint32_t b, id;

	if (!t->nslot) {
		*bucket = 0;
		return -1;
	}
	b = (uint32_t)h & (t->nslot - 1);
	while ((id = t->slot[b])) {
		id--;
		if (t->hash[id] == h && t->len[id] == len &&
		    !memcmp(t->arena + t->off[id], key, len))
			return id;
		b = (b + 1) & (t->nslot - 1);
	}
	*bucket = b;
	return -1;
}

int64_t sw_intern_find(const struct sw_intern *t, const void *key, size_t len)
{
	uint32_t b;

	return sw_intern_lookup(t, key, len, sw_hash_bytes(key, len), &b);
}

int64_t sw_intern_add(struct sw_intern *t, const void *key, size_t len,
		      int *added)
{
	uint64_t h = sw_hash_bytes(key, len);
	size_t need = (len + 7) & ~(size_t)7;
	uint32_t b;
	int64_t id;

	if (added)
		*added = 0;
	id = sw_intern_lookup(t, key, len, h, &b);
	if (id >= 0)
		return id;
	if (t->n == UINT32_MAX - 1 || len > UINT32_MAX)
		return -ENOMEM;
	if ((uint64_t)(t->n + 1) * 2 > t->nslot) {
		if (sw_intern_rehash(t, t->nslot ? t->nslot * 2 : 64))
			return -ENOMEM;
		sw_intern_lookup(t, key, len, h, &b);
	}
	if (t->n == t->ncap) {
		uint32_t ncap = t->ncap ? t->ncap * 2 : 64;
		uint64_t *off = realloc(t->off, ncap * sizeof(*off));
		uint32_t *l;
		uint64_t *hh;

		if (!off)
			return -ENOMEM;
		t->off = off;
		l = realloc(t->len, ncap * sizeof(*l));
		if (!l)
			return -ENOMEM;
		t->len = l;
		hh = realloc(t->hash, ncap * sizeof(*hh));
		if (!hh)
			return -ENOMEM;
		t->hash = hh;
		t->ncap = ncap;
	}
	if (t->used + need + 8 > t->cap) {
		size_t cap = t->cap ? t->cap : 4096;
		unsigned char *a;

		while (t->used + need + 8 > cap)
			cap *= 2;
		a = realloc(t->arena, cap);
		if (!a)
			return -ENOMEM;
		t->arena = a;
		t->cap = cap;
	}
	memcpy(t->arena + t->used, key, len);
	memset(t->arena + t->used + len, 0, need - len);
	id = t->n++;
	t->off[id] = t->used;
	t->len[id] = (uint32_t)len;
	t->hash[id] = h;
	t->used += need;
	t->slot[b] = (uint32_t)id + 1;
	if (added)
		*added = 1;
	return id;
}

int64_t sw_intern_str(struct sw_intern *t, const char *s)
{
	return sw_intern_add(t, s, strlen(s) + 1, NULL);
}

/* ---- sw_u64map ----------------------------------------------------------- */

void sw_u64map_init(struct sw_u64map *m)
{
	memset(m, 0, sizeof(*m));
}

void sw_u64map_free(struct sw_u64map *m)
{
	free(m->key);
	free(m->val);
	free(m->full);
	memset(m, 0, sizeof(*m));
}

static int sw_u64map_grow(struct sw_u64map *m)
{
	size_t nb = m->mask ? (m->mask + 1) * 2 : 64, i;
	struct sw_u64map n = { 0 };

	n.mask = nb - 1;
	n.key = malloc(nb * sizeof(*n.key));
	n.val = malloc(nb * sizeof(*n.val));
	n.full = calloc(nb, 1);
	if (!n.key || !n.val || !n.full) {
		sw_u64map_free(&n);
		return -ENOMEM;
	}
	if (m->mask)
		for (i = 0; i <= m->mask; i++)
			if (m->full[i]) {
				size_t b = sw_mix(m->key[i] * SW_MUL1) & n.mask;

				while (n.full[b])
					b = (b + 1) & n.mask;
				n.full[b] = 1;
				n.key[b] = m->key[i];
				n.val[b] = m->val[i];
			}
	n.n = m->n;
	sw_u64map_free(m);
	*m = n;
	return 0;
}

int sw_u64map_put(struct sw_u64map *m, uint64_t key, uint64_t val)
{
	size_t b;

	if (!m->mask || (m->n + 1) * 2 > m->mask + 1)
		if (sw_u64map_grow(m))
			return -ENOMEM;
	b = sw_mix(key * SW_MUL1) & m->mask;
	while (m->full[b]) {
		if (m->key[b] == key) {
			m->val[b] = val;
			return 0;
		}
		b = (b + 1) & m->mask;
	}
	m->full[b] = 1;
	m->key[b] = key;
	m->val[b] = val;
	m->n++;
	return 0;
}

int sw_u64map_get(const struct sw_u64map *m, uint64_t key, uint64_t *val)
{
	size_t b;

	if (!m->mask)
		return 0;
	b = sw_mix(key * SW_MUL1) & m->mask;
	while (m->full[b]) {
		if (m->key[b] == key) {
			*val = m->val[b];
			return 1;
		}
		b = (b + 1) & m->mask;
	}
	return 0;
}

int sw_u64map_del(struct sw_u64map *m, uint64_t key)
{
	size_t b, j, k;

	if (!m->mask)
		return 0;
	b = sw_mix(key * SW_MUL1) & m->mask;
	while (m->full[b] && m->key[b] != key)
		b = (b + 1) & m->mask;
	if (!m->full[b])
		return 0;
	/* Backward-shift deletion keeps probe chains intact. */
	m->full[b] = 0;
	m->n--;
	j = b;
	for (;;) {
		j = (j + 1) & m->mask;
		if (!m->full[j])
			break;
		k = sw_mix(m->key[j] * SW_MUL1) & m->mask;
		if ((j > b && (k <= b || k > j)) || (j < b && (k <= b && k > j))) {
			m->full[b] = 1;
			m->key[b] = m->key[j];
			m->val[b] = m->val[j];
			m->full[j] = 0;
			b = j;
		}
	}
	return 1;
}
