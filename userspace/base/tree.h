/* SPDX-License-Identifier: GPL-2.0 */
/*
 * util/tree.h - a tree of weighted nodes kept in one growing array, each
 * node's children found by key: the call-graph and flame-graph builders.
 */
#ifndef _SW_UTIL_TREE_H
#define _SW_UTIL_TREE_H

#include <stddef.h>
#include <stdint.h>

/**
 * struct sw_tree_node - one node.
 * @key:   what the node stands for (a frame key, a label id), unique
 *         among its siblings
 * @w:     weight (samples or period) accumulated by the caller
 * @child: index + 1 of the first child, 0 if none
 * @next:  index + 1 of the next sibling, 0 if none
 */
struct sw_tree_node {
	uint64_t key;
	uint64_t w;
	uint32_t child;
	uint32_t next;
};

/**
 * struct sw_tree - the nodes; node 0 is the root.
 * @node: the array
 * @n:    nodes in use
 * @cap:  nodes allocated
 */
struct sw_tree {
	struct sw_tree_node *node;
	size_t n;
	size_t cap;
};

int sw_tree_reset(struct sw_tree *t, uint64_t root_key);
int64_t sw_tree_child(struct sw_tree *t, uint32_t parent, uint64_t key);
void sw_tree_free(struct sw_tree *t);

#endif
