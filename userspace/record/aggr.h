/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aggr.h - aggregation of resolved samples: the report table by sort keys,
 * and the table of distinct call stacks that the call graph, folded
 * stacks, flame graph and pprof writers read.
 */
#ifndef _SW_UTIL_AGGR_H
#define _SW_UTIL_AGGR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/err.h"
#include "base/intern.h"
#include "record/machine.h"
#include "record/symbol.h"

/**
 * enum sw_sort_key - what rows of the report are grouped by.
 */
enum sw_sort_key {
	SW_SK_COMM,
	SW_SK_PID,
	SW_SK_TID,
	SW_SK_IMAGE,
	SW_SK_SYMBOL,
	SW_SK_SRCLINE,
	SW_SK_CPU,
	SW_SK_NR,
};

#define SW_SORT_DEFAULT "comm,image,symbol"

/**
 * struct sw_sample_info - one sample, resolved.
 * @comm:   string id of the thread's name
 * @pid:    process id
 * @tid:    thread id
 * @cpu:    CPU
 * @loc:    symbolizer id of the sampled address
 * @period: events (or nanoseconds) the sample stands for
 */
struct sw_sample_info {
	uint32_t comm;
	uint32_t pid;
	uint32_t tid;
	uint32_t cpu;
	uint32_t loc;
	uint64_t period;
};

/**
 * struct sw_aggr - rows of the report.
 * @key:           the sort keys in order
 * @nkey:          their number
 * @rows:          key tuple -> row id
 * @samples:       samples per row
 * @period:        period per row
 * @cap:           allocated rows
 * @total_samples: all samples added
 * @total_period:  their period
 */
struct sw_aggr {
	enum sw_sort_key key[SW_SK_NR];
	size_t nkey;
	struct sw_intern rows;
	uint64_t *samples;
	uint64_t *period;
	size_t cap;
	uint64_t total_samples;
	uint64_t total_period;
};

/**
 * sw_sort_parse() - parse "comm,image,symbol".
 * @spec: comma-separated key names
 * @a:    its key[] and nkey are set
 * @err:  message naming the bad key
 *
 * Return: 0 or -EINVAL.
 */
int sw_sort_parse(const char *spec, struct sw_aggr *a, struct sw_err *err);

const char *sw_sort_name(enum sw_sort_key k);

/* Whether any key needs source lines. */
bool sw_aggr_wants_srcline(const struct sw_aggr *a);

void sw_aggr_init(struct sw_aggr *a);
void sw_aggr_free(struct sw_aggr *a);

/**
 * sw_aggr_add() - count one sample.
 * @a:   the aggregation
 * @sym: the symbolizer that resolved @si->loc
 * @si:  the sample
 *
 * Return: 0 or -ENOMEM.
 */
int sw_aggr_add(struct sw_aggr *a, struct sw_symbolizer *sym,
		const struct sw_sample_info *si);

/**
 * struct sw_row - a row of the sorted report.
 * @id:      row id
 * @samples: its samples
 * @period:  its period
 * @val:     its key tuple (one value per key)
 */
struct sw_row {
	uint32_t id;
	uint64_t samples;
	uint64_t period;
	const uint64_t *val;
};

/**
 * sw_aggr_sorted() - the rows, heaviest first.
 * @a:         the aggregation
 * @m:         the machine, to break ties by name
 * @by_period: weigh by period, then samples; else by samples, then period
 *             (the weight the report prints and cuts by)
 * @out:       malloc()ed array of a->rows.n rows
 *
 * Return: the number of rows, or -ENOMEM.
 */
int64_t sw_aggr_sorted(const struct sw_aggr *a, const struct sw_machine *m,
		       bool by_period, struct sw_row **out);

/**
 * sw_aggr_cell() - the text of one key of a row.
 * @a:   the aggregation
 * @m:   the machine
 * @row: the row
 * @k:   index into a->key
 * @buf: room for numbers (at least 24 bytes)
 *
 * Return: the text (a string of @m or @buf).
 */
const char *sw_aggr_cell(const struct sw_aggr *a, const struct sw_machine *m,
			 const struct sw_row *row, size_t k, char *buf);

/* ---- call stacks ------------------------------------------------------------ */

/**
 * struct sw_stacks - distinct (comm, call stack) pairs.
 * @set:     keys: u32 comm, then symbolizer ids innermost first
 * @samples: samples per stack
 * @period:  period per stack
 * @cap:     allocated
 * @total_samples, @total_period: sums
 */
struct sw_stacks {
	struct sw_intern set;
	uint64_t *samples;
	uint64_t *period;
	size_t cap;
	uint64_t total_samples;
	uint64_t total_period;
};

void sw_stacks_init(struct sw_stacks *st);
void sw_stacks_free(struct sw_stacks *st);

/**
 * sw_stacks_add() - count one stack.
 * @st:     the table
 * @comm:   string id of the thread name
 * @locs:   symbolizer ids, innermost first
 * @n:      their number (at least 1)
 * @period: the sample's period
 *
 * Return: 0 or -ENOMEM.
 */
int sw_stacks_add(struct sw_stacks *st, uint32_t comm, const uint32_t *locs,
		  size_t n, uint64_t period);

static inline size_t sw_stacks_depth(const struct sw_stacks *st, uint32_t id)
{
	return sw_intern_len(&st->set, id) / sizeof(uint32_t) - 1;
}

static inline const uint32_t *sw_stacks_locs(const struct sw_stacks *st,
					     uint32_t id)
{
	return (const uint32_t *)sw_intern_key(&st->set, id) + 1;
}

static inline uint32_t sw_stacks_comm(const struct sw_stacks *st, uint32_t id)
{
	return *(const uint32_t *)sw_intern_key(&st->set, id);
}

/**
 * sw_frame_label() - how a frame is named in stacks: the symbol, or
 * "[unknown] (image)"; kernel frames get a "_[k]" suffix when @mark_kernel.
 */
const char *sw_frame_label(struct sw_symbolizer *sym, uint32_t loc,
			   bool mark_kernel, char *buf, size_t len);

/**
 * sw_write_folded() - "comm;outermost;...;innermost count" lines, sorted.
 * @f:      output
 * @st:     the stacks
 * @sym:    the symbolizer
 * @period: count periods instead of samples
 *
 * Return: 0, -ENOMEM or -EIO.
 */
int sw_write_folded(FILE *f, const struct sw_stacks *st,
		    struct sw_symbolizer *sym, bool period);

/**
 * struct sw_cg_opts - call graph view.
 * @entries:  hottest functions shown (by self samples)
 * @min_pct:  caller branches below this percentage of all samples are cut
 * @depth:    deepest caller level shown
 * @paths:    most common full call paths listed
 * @period:   weigh by period instead of samples
 */
struct sw_cg_opts {
	size_t entries;
	double min_pct;
	size_t depth;
	size_t paths;
	bool period;
};

/**
 * sw_print_callgraph() - for the hottest functions, their callers as a
 * tree (hottest branch first), then the most common full call paths.
 *
 * Return: 0, -ENOMEM or -EIO.
 */
int sw_print_callgraph(FILE *f, const struct sw_stacks *st,
		       struct sw_symbolizer *sym, const struct sw_cg_opts *o);

#endif /* _SW_UTIL_AGGR_H */
