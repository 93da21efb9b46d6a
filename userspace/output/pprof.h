/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pprof.h - the call stacks as a pprof profile (profile.proto, gzip'd), for
 * "go tool pprof", Pyroscope and Parca.
 */
#ifndef _SW_UTIL_PPROF_H
#define _SW_UTIL_PPROF_H

#include <stddef.h>
#include <stdint.h>

#include "record/aggr.h"
#include "base/err.h"

/**
 * struct sw_pprof_info - what the profile says about the recording.
 * @event:       the sampled event ("cpu-clock", "cycles", ...)
 * @time_ns:     wall-clock start of the recording (0: unknown)
 * @duration_ns: its length (0: unknown)
 * @period:      the sampling period in the event's unit (0: unknown)
 * @comment:     a comment line, or NULL
 */
struct sw_pprof_info {
	const char *event;
	uint64_t time_ns;
	uint64_t duration_ns;
	uint64_t period;
	const char *comment;
};

/**
 * sw_pprof_encode() - build and serialize the profile.
 * @st:   the stacks
 * @sym:  the symbolizer that resolved them
 * @info: recording facts
 * @out:  malloc()ed serialized Profile message (not compressed)
 * @len:  its length
 *
 * Values per sample: samples (count), then the period: for the clock
 * events "cpu" in nanoseconds, else the event's name in "count".  Each
 * sample has a "comm" label.
 *
 * Return: 0 or -ENOMEM.
 */
int sw_pprof_encode(const struct sw_stacks *st, struct sw_symbolizer *sym,
		    const struct sw_pprof_info *info, uint8_t **out,
		    size_t *len);

/**
 * struct sw_pprof_folded - what a profile of named stacks says about them.
 * @types:   the value types, e.g. "calls", "total", "self"
 * @units:   their units, e.g. "count", "nanoseconds"
 * @ntypes:  how many (at most 8)
 * @deftype: index of the type pprof shows by default
 * @comment: a comment line, or NULL
 */
struct sw_pprof_folded {
	const char *const *types;
	const char *const *units;
	size_t ntypes;
	size_t deftype;
	const char *comment;
};

/**
 * sw_pprof_encode_folded() - a profile of stacks given as frame names.
 * @stacks: per sample, its frames outermost first, joined by ';'
 * @values: per sample, @info->ntypes values (row-major)
 * @n:      samples
 * @info:   the value types
 * @out:    malloc()ed serialized Profile message (not compressed)
 * @len:    its length
 *
 * One function and one location per distinct frame name.
 *
 * Return: 0, -EINVAL (more than 8 types) or -ENOMEM.
 */
int sw_pprof_encode_folded(const char *const *stacks, const int64_t *values,
			   size_t n, const struct sw_pprof_folded *info,
			   uint8_t **out, size_t *len);

/**
 * sw_pprof_gzip() - @len bytes gzip-compressed into a new buffer, as
 * sw_pprof_write() writes them to a file (what HTTP clients are sent).
 * Return: 0 or -ENOMEM.
 */
int sw_pprof_gzip(const uint8_t *buf, size_t len, uint8_t **out,
		  size_t *outlen);

/**
 * sw_pprof_write() - write @len bytes gzip-compressed to @path.
 * Return: 0 or a negative errno, with a message in @err.
 */
int sw_pprof_write(const char *path, const uint8_t *buf, size_t len,
		   struct sw_err *err);

#endif /* _SW_UTIL_PPROF_H */
