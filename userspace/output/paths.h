/* SPDX-License-Identifier: GPL-2.0 */
/*
 * util/paths.h - the call paths stopwatch.ko keeps (its debugfs paths
 * file): parsed, and written as an indented tree, folded stacks of self
 * time, a flame graph of self time and a pprof profile.
 */
#ifndef _SW_UTIL_PATHS_H
#define _SW_UTIL_PATHS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/events.h"
#include "base/err.h"

/**
 * struct sw_path - one node of the trie: a path of probed functions.
 * @path:     the probes, outermost first, joined by ';'
 * @depth:    how many
 * @calls:    calls of the path
 * @total_ns: their wall time
 * @self_ns:  minus that of their probed callees
 * @ev:       per event i: calls measured, total, self at 3i, 3i+1, 3i+2
 */
struct sw_path {
	char *path;
	uint32_t depth;
	uint64_t calls;
	uint64_t total_ns;
	uint64_t self_ns;
	uint64_t ev[3 * SW_MAX_EVENTS];
};

/**
 * struct sw_paths - the paths file.
 * @enabled:    whether calls are being put on paths
 * @nodes:      nodes in use
 * @max_nodes:  the table's size
 * @dropped_full, @dropped_no_entry, @dropped_stale: calls on no path
 * @nev:        events counted
 * @ev_names:   their names
 * @path:       the nodes, sorted by path
 * @n:          how many
 */
struct sw_paths {
	bool enabled;
	uint64_t nodes;
	uint64_t max_nodes;
	uint64_t dropped_full;
	uint64_t dropped_no_entry;
	uint64_t dropped_stale;
	uint32_t nev;
	char ev_names[SW_MAX_EVENTS][SW_EVENT_NAME_LEN];
	struct sw_path *path;
	size_t n;
};

int sw_paths_parse(const char *text, struct sw_paths *p, struct sw_err *err);
int sw_paths_load(const char *dir, struct sw_paths *p, struct sw_err *err);
void sw_paths_free(struct sw_paths *p);
uint64_t sw_paths_dropped(const struct sw_paths *p);

/**
 * struct sw_paths_opts - how the tree is printed.
 * @human: durations as 2.30 us, 1.05 ms
 */
struct sw_paths_opts {
	bool human;
};

int sw_paths_print_tree(FILE *f, const struct sw_paths *p,
			const struct sw_paths_opts *o);
int sw_paths_print_folded(FILE *f, const struct sw_paths *p);
int sw_paths_write_svg(FILE *f, const struct sw_paths *p, const char *title);
int sw_paths_pprof(const struct sw_paths *p, uint8_t **out, size_t *len);

#endif
