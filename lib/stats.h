/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - running statistics (count, min, max, mean, variance) and log2
 * histograms: their text format, printed and parsed.  Pure logic: compiled
 * into stopwatch.ko, the stopwatch program and host tests.
 */
#ifndef _STOPWATCH_STATS_H
#define _STOPWATCH_STATS_H

#include "wrapper/types.h"

/* Bucket 0 holds 0; bucket b >= 1 holds [2^(b-1), 2^b). */
#define SW_HIST_BUCKETS 65

/**
 * struct sw_stats - running statistics of one stream of values, kept as
 * exact integer sums: the mean and the variance are derived from them
 * when read (sw_stats_avg(), sw_stats_variance()), so no rounding ever
 * accumulates and merging is exact.
 * @count: number of values
 * @sum:   sum of the values; U64_MAX once it would overflow (saturated)
 * @min:   smallest value (U64_MAX while @count is 0)
 * @max:   largest value
 * @sq:    sum of the squares of the values, 128-bit; SW_U128_MAX once it
 *         would overflow (saturated)
 */
struct sw_stats {
	u64 count;
	u64 sum;
	u64 min;
	u64 max;
	sw_u128 sq;
};

void sw_stats_init(struct sw_stats *s);
void sw_stats_merge(struct sw_stats *into, const struct sw_stats *from);
u64 sw_stats_avg(const struct sw_stats *s);
u64 sw_stats_stddev(const struct sw_stats *s);
u64 sw_stats_less_window(u64 ns, u64 window);
#ifdef SW_UNIT_TEST
u64 sw_stats_variance(const struct sw_stats *s);
#endif

static inline sw_u128 sw_u128_add_sat(sw_u128 a, sw_u128 b)
{
	sw_u128 r = a + b;

	return r < a ? SW_U128_MAX : r;
}

/**
 * sw_stats_add() - add one value.
 * @s:     statistics
 * @value: the value
 *
 * Three additions (the count, the value, its 128-bit square) and the
 * extremes: no division, no rounding.  Inline: it runs in every measured
 * call, once for its time and once per event.
 *
 * Context: any, including NMI; the caller serializes writers of @s.
 */
static __always_inline void sw_stats_add(struct sw_stats *s, u64 value)
{
	s->count++;
	if (unlikely(check_add_overflow(s->sum, value, &s->sum)))
		s->sum = U64_MAX;
	s->sq = sw_u128_add_sat(s->sq, (sw_u128)value * value);
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
 * sw_hist_count() - count one value in a log2 histogram.
 * @hist:  SW_HIST_BUCKETS counts
 * @value: the value
 *
 * Context: any, including NMI; the caller serializes writers of @hist.
 */
static __always_inline void sw_hist_count(u64 *hist, u64 value)
{
	hist[sw_hist_bucket(value)]++;
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

/*
 * Log-linear histograms (HdrHistogram's layout): with k sub-bucket bits,
 * every value below 2^(k+1) has a bucket of its own, and each power of
 * two [2^e, 2^(e+1)) above is split into 2^k buckets of width 2^(e-k), up
 * to 2^SW_LHIST_TOP; above that each power of two is one bucket, so no
 * value is lost and the log2 view (sw_lhist_to_log2()) stays exact.  A
 * bucket's width is at most 2^-k of its lowest value: a value read back
 * from its bucket is off by less than that fraction (6.25% at k = 4).
 * With k = 0 the buckets are the log2 histogram's.  SW_LHIST_TOP bounds
 * the memory: (SW_LHIST_TOP - k + 1) * 2^k + 64 - SW_LHIST_TOP buckets
 * (sw_lhist_nbuckets()), 556 at k = 4.
 */
#define SW_LHIST_TOP 36		/* 2^36 ns is 68.7 s */
#define SW_LHIST_BITS_MAX 6
#define SW_LHIST_BITS_DEFAULT 4

/* Buckets below 2^SW_LHIST_TOP: the fine part. */
static inline unsigned int sw_lhist_fine(unsigned int k)
{
	return (SW_LHIST_TOP - k + 1) << k;
}

/* All buckets, the power-of-two ones above SW_LHIST_TOP included. */
static inline unsigned int sw_lhist_nbuckets(unsigned int k)
{
	return sw_lhist_fine(k) + 64 - SW_LHIST_TOP;
}

/**
 * sw_lhist_bucket_pre() - sw_lhist_bucket() with what it derives from @k
 * given: for a handler that keeps them with its histogram, so that a call
 * spends no instruction on them.
 * @value: the value
 * @k:     sub-bucket bits, at most SW_LHIST_BITS_MAX
 * @lz:    63 - @k
 * @mask:  2^(@k + 1) - 1
 *
 * Below 2^SW_LHIST_TOP: with s = max(0, fls64(@value) - k - 1), the
 * bucket is s * 2^k + (@value >> s); the OR with @mask makes s 0 for small
 * values without a branch and the count of leading zeros well defined.
 *
 * Context: any, including NMI.
 * Return: the bucket, in [0, sw_lhist_nbuckets(@k)).
 */
static __always_inline unsigned int sw_lhist_bucket_pre(u64 value,
							unsigned int k,
							unsigned int lz,
							u64 mask)
{
	unsigned int s;

	if (unlikely(value >> SW_LHIST_TOP))
		return sw_lhist_fine(k) + fls64(value) - SW_LHIST_TOP - 1;
	s = lz - (unsigned int)__builtin_clzll(value | mask);
	return (s << k) + (unsigned int)(value >> s);
}

/**
 * sw_lhist_bucket() - log-linear histogram bucket of a value.
 * @value: the value
 * @k:     sub-bucket bits, at most SW_LHIST_BITS_MAX
 *
 * Context: any, including NMI.
 * Return: the bucket, in [0, sw_lhist_nbuckets(@k)).
 */
static __always_inline unsigned int sw_lhist_bucket(u64 value, unsigned int k)
{
	return sw_lhist_bucket_pre(value, k, 63 - k, (2ULL << k) - 1);
}

u64 sw_lhist_low(unsigned int bucket, unsigned int k);
u64 sw_lhist_high(unsigned int bucket, unsigned int k);
void sw_lhist_to_log2(const u64 *lin, unsigned int k, u64 *hist);

/*
 * The percentiles read from the log-linear histogram, in parts per
 * SW_PCT_SCALE: p50, p90, p99, p99.9.
 */
#define SW_PCT_SCALE 10000
enum sw_pct {
	SW_PCT_50,
	SW_PCT_90,
	SW_PCT_99,
	SW_PCT_999,
	SW_PCT_NR
};
extern const u32 sw_pct_parts[SW_PCT_NR];

u64 sw_lhist_quantile(const u64 *lin, unsigned int k, u32 parts, u64 min,
		      u64 max);

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

/*
 * A wall-time section's title may go on with its probe's other timing
 * columns of the stats file, read in the same pass over the CPUs as the
 * buckets and the call count (stats_format 1.5), so that a reader can
 * show a row and its histogram as one snapshot:
 * "<probe>: ns, <calls> calls; total <ns>, min <ns>, avg <ns>, max <ns>,
 * stddev <ns>", and since stats_format 1.6 its percentiles after them
 * (sw_lhist_quantile()): ", p50 <ns>, p90 <ns>, p99 <ns>, p99.9 <ns>".
 * The reader takes a title with or without the percentiles (then
 * has_pct is false); a 1.5 reader takes only a title without them.  The
 * rows stay the log2 view whatever the module's sub-bucket bits.
 */
#define SW_HIST_TITLE_ROW_FMT \
	"%s: %s, %llu calls; total %llu, min %llu, avg %llu, max %llu, stddev %llu, p50 %llu, p90 %llu, p99 %llu, p99.9 %llu\n"

/* The values after the ';', in the order SW_HIST_TITLE_ROW_FMT prints them. */
enum sw_hist_row_field {
	SW_HIST_ROW_TOTAL,
	SW_HIST_ROW_MIN,
	SW_HIST_ROW_AVG,
	SW_HIST_ROW_MAX,
	SW_HIST_ROW_STDDEV,
	SW_HIST_ROW_P50,	/* the percentiles, enum sw_pct's order */
	SW_HIST_ROW_P90,
	SW_HIST_ROW_P99,
	SW_HIST_ROW_P999,
	SW_HIST_ROW_FIELDS
};

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
 * @has_row:   the last title carried the row's timing columns
 * @has_pct:   ... and the percentiles among them (SW_HIST_ROW_P50 on)
 * @row:       those columns (enum sw_hist_row_field), when @has_row
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
	bool has_row;
	bool has_pct;
	u64 row[SW_HIST_ROW_FIELDS];
	const char *why;
	unsigned int sections;
	bool header;
	int last;
};

void sw_hist_reader_init(struct sw_hist_reader *r);
int sw_hist_read_line(struct sw_hist_reader *r, const char *line, size_t len);
int sw_hist_read_end(struct sw_hist_reader *r);

/*
 * The fine histogram text format (stats_format 1.8): the lhists file holds
 * every probe's log-linear wall-time histogram, blank-line separated; a
 * section is a title (SW_LHIST_TITLE_FMT: probe, call count, the module's
 * sub-bucket bits, and since stats_format 1.9 the calls' total time) and
 * then one row per non-empty bucket in rising order, SW_LHIST_ROW_FMT: the
 * bucket's lowest and highest value (both included,
 * sw_lhist_low()/sw_lhist_high()) and its count.  A section without rows
 * is a probe without calls.  The rows' sum is the title's calls, and the
 * total is of the same calls: all are read in one pass over the CPUs.
 * sw_lhist_print() writes a section's rows; the reader below is the
 * format's one parser and takes a title with or without the total (then
 * has_total is false).  It is a file of its own so that a reader of the
 * hists file of an older minor never meets it.
 */
#define SW_LHIST_TITLE_FMT "%s: ns, %llu calls, hist_bits %u; total %llu\n"
#define SW_LHIST_ROW_FMT "%llu %llu %llu\n"

void sw_lhist_print(const u64 *lin, unsigned int k, sw_emit_fn emit,
		    void *ctx);

/**
 * struct sw_lhist_reader - state of reading fine histogram text line by
 * line.
 * @buckets:   where the current section's counts go, sw_lhist_nbuckets(
 *             @bits) of them: the caller points it at zeroed counts after
 *             each SW_HIST_TITLE (NULL drops the rows)
 * @probe:     the probe named by the last title (points into that line)
 * @probe_len: its length
 * @calls:     the call count of the last title
 * @bits:      the sub-bucket bits of the last title
 * @has_total: the last title carried the calls' total time (1.9)
 * @total:     that total, in ns, when @has_total
 * @sum:       the current section's row counts added up (saturating)
 * @why:       after -EINVAL, what is wrong with the line
 * @sections:  sections seen (private)
 * @last:      bucket of the current section's last row, -1 (private)
 */
struct sw_lhist_reader {
	u64 *buckets;
	const char *probe;
	size_t probe_len;
	u64 calls;
	unsigned int bits;
	bool has_total;
	u64 total;
	u64 sum;
	const char *why;
	unsigned int sections;
	int last;
};

void sw_lhist_reader_init(struct sw_lhist_reader *r);
int sw_lhist_read_line(struct sw_lhist_reader *r, const char *line,
		       size_t len);
int sw_lhist_read_end(struct sw_lhist_reader *r);

sw_u128 sw_u128_div_u64(sw_u128 n, u64 d);
u64 sw_u128_sqrt(sw_u128 x);

#endif /* _STOPWATCH_STATS_H */
