/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bykey.h - the traced calls and span intervals of a recording summed per
 * (probe or span, key tuple): "stopwatch script --by KEY[,KEY]".  A row's
 * durations give count, total, min, max and, from a log-linear histogram
 * built when the rows are ranked, its percentiles (lib/stats.h); its
 * event deltas give their means.
 */
#ifndef _SW_RECORD_BYKEY_H
#define _SW_RECORD_BYKEY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "lib/stats.h"
#include "record/calls.h"

/**
 * enum sw_by_field - what a row is keyed by.
 * @SW_BY_KEY:  the span's pairing key, the probe's first key value
 * @SW_BY_KEY2: the probe's second key value
 * @SW_BY_TID:  the thread (a span's: the one that stopped it)
 * @SW_BY_PID:  the process
 * @SW_BY_COMM: the thread's command
 * @SW_BY_CPU:  the CPU the call ended on (a span's stop)
 */
enum sw_by_field {
	SW_BY_KEY,
	SW_BY_KEY2,
	SW_BY_TID,
	SW_BY_PID,
	SW_BY_COMM,
	SW_BY_CPU,
	SW_BY_NR,
};

#define SW_BY_MAX 2	/* fields in one --by */

/**
 * struct sw_by_spec - a parsed --by.
 * @n:     fields
 * @field: the fields, in the order given
 */
struct sw_by_spec {
	unsigned int n;
	enum sw_by_field field[SW_BY_MAX];
};

/* The field's name in --by ("key", "tid", ...). */
const char *sw_by_name(enum sw_by_field f);

/**
 * sw_by_parse() - parse "KEY[,KEY]".
 * @s:   the option's value
 * @sp:  output
 * @err: names the offending value
 *
 * Return: 0, or -EINVAL (unknown name, empty, repeated, more than
 * SW_BY_MAX).
 */
int sw_by_parse(const char *s, struct sw_by_spec *sp, struct sw_err *err);

/**
 * struct sw_by_row - the calls of one probe or span with one key tuple.
 * @id:    the probe's or span's id
 * @span:  @id is a span's
 * @v:     the key tuple's values (a comm as its string id)
 * @dur:   the durations
 * @ev:    per event: the deltas of the calls that measured it whole
 * @durs:  every duration, for the percentiles
 * @cap:   room at @durs
 * @nkeys: rows summed into this one (the other row); 1 otherwise
 * @other: this is a probe's other row
 */
struct sw_by_row {
	uint16_t id;
	bool span;
	uint64_t v[SW_BY_MAX];
	struct sw_stats dur;
	struct sw_stats ev[SW_CALL_NEV_MASK + 1];
	uint64_t *durs;
	size_t cap;
	uint64_t nkeys;
	bool other;
};

/**
 * struct sw_bykey - the rows being summed.
 * @spec:  the fields
 * @nev:   the most event deltas a call carried
 * @rows:  the rows, in no order until sw_bykey_rank()
 * @n:     how many
 * @slot:  open-addressing index into @rows (SIZE_MAX: free)
 * @nslot: its size, a power of two
 */
struct sw_bykey {
	struct sw_by_spec spec;
	unsigned int nev;
	struct sw_by_row *rows;
	size_t n, cap;
	size_t *slot;
	size_t nslot;
};

void sw_bykey_init(struct sw_bykey *b, const struct sw_by_spec *sp);
void sw_bykey_free(struct sw_bykey *b);

/**
 * sw_bykey_add() - count one call in its row.
 * @b:    the rows
 * @ci:   the call
 * @comm: the string id of its thread's command
 * @err:  when @ci lacks a key value the fields ask for: says which
 *
 * Return: 0, -ENOMEM, or -EINVAL (@ci carries fewer key values than a
 * key field needs).
 */
int sw_bykey_add(struct sw_bykey *b, const struct sw_call_info *ci,
		 uint32_t comm, struct sw_err *err);

/**
 * sw_bykey_rank() - order the rows for printing.
 * @b:    the rows
 * @keep: rows kept per probe or span; the rest of its rows are summed into
 *        one other row after them (0: keep all)
 *
 * Probes and spans by their total time, most first; each one's rows by
 * total time, most first (then by key, for a stable order).
 *
 * Return: 0 or -ENOMEM.
 */
int sw_bykey_rank(struct sw_bykey *b, size_t keep);

/**
 * sw_by_row_pcts() - a row's percentiles of its durations.
 * @r:   the row
 * @pct: output, SW_PCT_NR values in enum sw_pct's order (p50, p90, p99,
 *       p99.9), read from a log-linear histogram of SW_LHIST_BITS_DEFAULT
 *       sub-bucket bits, as the module reads its own (sw_lhist_quantile())
 *
 * Return: 0 or -ENOMEM.
 */
int sw_by_row_pcts(const struct sw_by_row *r, uint64_t *pct);

#endif
