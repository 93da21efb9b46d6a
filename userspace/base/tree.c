// SPDX-License-Identifier: GPL-2.0
/*
 * util/tree.c - the weighted tree of util/tree.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/tree.h"

static int sw_tree_grow(struct sw_tree *t)
{
	size_t cap = t->cap ? t->cap * 2 : 256;
	struct sw_tree_node *n;

	if (cap > UINT32_MAX)
		return -E2BIG;
	n = realloc(t->node, cap * sizeof(*n));
	if (!n)
		return -ENOMEM;
	t->node = n;
	t->cap = cap;
	return 0;
}

/**
 * sw_tree_reset() - empty the tree down to a root, keeping its memory.
 * @t:        tree, zero-initialized before first use
 * @root_key: the root's key
 *
 * Return: 0 or -ENOMEM.
 */
int sw_tree_reset(struct sw_tree *t, uint64_t root_key)
{
	int ret;

	if (!t->cap && (ret = sw_tree_grow(t)))
		return ret;
	memset(&t->node[0], 0, sizeof(t->node[0]));
	t->node[0].key = root_key;
	t->n = 1;
	return 0;
}

/**
 * sw_tree_child() - find or add the child of a node with a given key.
 * @t:      tree
 * @parent: index of the parent
 * @key:    the child's key
 *
 * A new child starts with weight 0 and comes first among its siblings.
 *
 * Return: the child's index, or -ENOMEM / -E2BIG.
 */
int64_t sw_tree_child(struct sw_tree *t, uint32_t parent, uint64_t key)
{
	uint32_t c = t->node[parent].child;
	int ret;

	while (c) {
		if (t->node[c - 1].key == key)
			return c - 1;
		c = t->node[c - 1].next;
	}
	if (t->n == t->cap && (ret = sw_tree_grow(t)))
		return ret;
	t->node[t->n].key = key;
	t->node[t->n].w = 0;
	t->node[t->n].child = 0;
	t->node[t->n].next = t->node[parent].child;
	t->node[parent].child = (uint32_t)t->n + 1;
	return (int64_t)t->n++;
}

/**
 * sw_tree_free() - free the nodes; the tree may be reset again after.
 * @t: tree
 */
void sw_tree_free(struct sw_tree *t)
{
	free(t->node);
	memset(t, 0, sizeof(*t));
}
