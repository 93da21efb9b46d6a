/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flamegraph.h - an interactive SVG flame graph of the call stacks: one
 * box per function per call path, as wide as its share of the samples;
 * tooltips, click to zoom, search (button or Ctrl-F) with the matched
 * share.  Opens in any browser; no external files.
 */
#ifndef _SW_UTIL_FLAMEGRAPH_H
#define _SW_UTIL_FLAMEGRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "record/aggr.h"

/**
 * struct sw_flame_opts - how the graph looks.
 * @title:    heading (XML-escaped by the writer)
 * @subtitle: second line, e.g. the event and the file, or NULL
 * @width:    image width in pixels
 * @period:   weigh by period instead of samples
 * @unit:     what a sample counts, for tooltips ("samples")
 */
struct sw_flame_opts {
	const char *title;
	const char *subtitle;
	unsigned int width;
	bool period;
	const char *unit;
};

/**
 * sw_write_flamegraph() - write the SVG.
 * @f:   output
 * @st:  the stacks (root frames are the thread names)
 * @sym: the symbolizer that resolved them
 * @o:   options
 *
 * Return: 0, -ENOMEM or -EIO.
 */
int sw_write_flamegraph(FILE *f, const struct sw_stacks *st,
			struct sw_symbolizer *sym,
			const struct sw_flame_opts *o);

/**
 * sw_write_flamegraph_folded() - write the SVG of stacks given as names.
 * @f:      output
 * @stacks: per stack, its frames outermost first, joined by ';'
 * @w:      per stack, its weight
 * @n:      stacks
 * @o:      options (period is not used)
 *
 * Return: 0, -ENOMEM or -EIO.
 */
int sw_write_flamegraph_folded(FILE *f, const char *const *stacks,
			       const uint64_t *w, size_t n,
			       const struct sw_flame_opts *o);

/* Writes @s with &, <, >, " and ' escaped and control bytes dropped. */
void sw_xml_escape(FILE *f, const char *s);

#endif /* _SW_UTIL_FLAMEGRAPH_H */
