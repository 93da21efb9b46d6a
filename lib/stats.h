/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - running statistics (count, min, max, mean, variance) and log2
 * histograms: their text format, printed and parsed.  Pure logic: compiled
 * into stopwatch.ko, the stopwatch program and host tests.
 */
#ifndef _STOPWATCH_STATS_H
#define _STOPWATCH_STATS_H

#include "sw_types.h"

/*
 * Fractional bits kept for the running mean and for the sum of squared
 * deviations.  Values are clamped to SW_VALUE_MAX so that value << SHIFT
 * stays inside s64 (2^55 ns is more than a year).
 */
#define SW_FRAC_SHIFT 8
#define SW_VALUE_MAX ((1ULL << (63 - SW_FRAC_SHIFT)) - 1)

/* Bucket 0 holds 0; bucket b >= 1 holds [2^(b-1), 2^b). */
#define SW_HIST_BUCKETS 65

/**
 * struct sw_stats - Welford running statistics of one stream of values.
 * @count: number of values
 * @sum:   exact sum of values (saturating); the mean is derived from it so
 *         that rounding never accumulates
 * @min:   smallest value (U64_MAX while @count is 0)
 * @max:   largest value
 * @mean:  sum / count in fixed point (SW_FRAC_SHIFT fractional bits)
 * @m2:    sum of squared deviations from the mean, fixed point
 *         (SW_FRAC_SHIFT fractional bits), 128-bit
 */
struct sw_stats {
	u64 count;
	u64 sum;
	u64 min;
	u64 max;
	s64 mean;
	u64 pad;
	sw_u128 m2;
};

#define SW_FRAC_ONE (1ULL << SW_FRAC_SHIFT)

void sw_stats_init(struct sw_stats *s);
void sw_stats_merge(struct sw_stats *into, const struct sw_stats *from);
u64 sw_stats_avg(const struct sw_stats *s);
u64 sw_stats_stddev(const struct sw_stats *s);
u64 sw_stats_variance(const struct sw_stats *s);

static inline sw_u128 sw_u128_add_sat(sw_u128 a, sw_u128 b)
{
	sw_u128 r = a + b;

	return r < a ? SW_U128_MAX : r;
}

/*
 * Mean in fixed point, derived from the exact sum: no accumulated
 * rounding.  A sum below 2^56 (any sum of nanoseconds or event counts
 * short of years) shifts without overflow: one 64-bit division.
 */
static inline s64 sw_mean_fp(u64 sum, u64 count)
{
	if (likely(sum <= U64_MAX >> SW_FRAC_SHIFT))
		return (s64)div64_u64(sum << SW_FRAC_SHIFT, count);
	return (s64)mul_u64_u64_div_u64(sum, SW_FRAC_ONE, count);
}

/**
 * sw_stats_add() - add one value (Welford's update).
 * @s:     statistics
 * @value: the value; clamped to SW_VALUE_MAX
 *
 * M2 grows by (x - mean_old) * (x - mean_new).  Both means come from the
 * exact running sum, so their error is below one fixed-point unit and does
 * not accumulate across calls.  Inline: it runs in every measured call,
 * once for its time and once per event.
 *
 * Context: any, including NMI; the caller serializes writers of @s.
 */
static __always_inline void sw_stats_add(struct sw_stats *s, u64 value)
{
	u64 n = s->count + 1;
	s64 xf, d1, d2, mean;
	sw_s128 prod;

	if (unlikely(value > SW_VALUE_MAX))
		value = SW_VALUE_MAX;
	if (unlikely(check_add_overflow(s->sum, value, &s->sum)))
		s->sum = U64_MAX;

	xf = (s64)(value << SW_FRAC_SHIFT);
	d1 = xf - s->mean;
	mean = sw_mean_fp(s->sum, n);
	d2 = xf - mean;
	prod = (sw_s128)d1 * d2;
	/* Rounding can make a near-zero product negative: it is zero. */
	if (prod > 0)
		s->m2 = sw_u128_add_sat(s->m2, (sw_u128)prod >> SW_FRAC_SHIFT);

	s->mean = mean;
	s->count = n;
	if (value < s->min)
		s->min = value;
	if (value > s->max)
		s->max = value;
}

/**
 * sw_hist_bucket() - log2 histogram bucket of a value.
 * @value: the value
 *
 * Context: any, including NMI.
 * Return: 0 for 0, else fls64(@value), in [0, SW_HIST_BUCKETS).
 */
static inline unsigned int sw_hist_bucket(u64 value)
{
	return fls64(value);
}

/**
 * sw_hist_bucket_low() - smallest value that falls in a bucket.
 * @bucket: bucket index
 *
 * Return: 0 for bucket 0, else 2^(bucket-1).
 */
static inline u64 sw_hist_bucket_low(unsigned int bucket)
{
	return bucket ? 1ULL << (bucket - 1) : 0;
}

/* Output sink: printf-like, so the kernel can pass seq_file, tests a buffer. */
typedef void (*sw_emit_fn)(void *ctx, const char *fmt, ...) __printf(2, 3);

void sw_hist_print(const u64 *buckets, unsigned int nbuckets, sw_emit_fn emit,
		   void *ctx);

/*
 * The histogram text format: a hist/<probe> file is one or more sections
 * separated by blank lines, each a title (SW_HIST_TITLE_FMT: probe, unit,
 * call count) and what sw_hist_print() prints for it.  sw_hist_print()
 * writes it; the reader below is its one parser.
 */
#define SW_HIST_TITLE_FMT "%s: %s, %llu calls\n"

/* Longest unit ("ns", an event name) the reader takes, with the NUL. */
#define SW_HIST_UNIT_LEN 32

/* sw_hist_read_line() results. */
#define SW_HIST_LINE 0	/* a header, row, '~' or blank line */
#define SW_HIST_TITLE 1	/* a title: a new section starts */

/**
 * struct sw_hist_reader - state of reading histogram text line by line.
 * @buckets:   where the current section's rows go: the caller points it at
 *             zeroed counts after each SW_HIST_TITLE (NULL drops the rows)
 * @nbuckets:  number of counts at @buckets
 * @probe:     the probe named by the last title (points into that line)
 * @probe_len: its length
 * @unit:      the unit of the last title
 * @calls:     the call count of the last title
 * @why:       after -EINVAL, what is wrong with the line
 * @sections:  sections seen (private)
 * @header:    the current section's header was seen (private)
 * @last:      bucket of the current section's last row, -1 (private)
 */
struct sw_hist_reader {
	u64 *buckets;
	unsigned int nbuckets;
	const char *probe;
	size_t probe_len;
	char unit[SW_HIST_UNIT_LEN];
	u64 calls;
	const char *why;
	unsigned int sections;
	bool header;
	int last;
};

void sw_hist_reader_init(struct sw_hist_reader *r);
int sw_hist_read_line(struct sw_hist_reader *r, const char *line, size_t len);
int sw_hist_read_end(struct sw_hist_reader *r);

sw_u128 sw_u128_div_u64(sw_u128 n, u64 d);
u64 sw_u128_sqrt(sw_u128 x);

#endif /* _STOPWATCH_STATS_H */
