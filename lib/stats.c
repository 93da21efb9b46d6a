// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - Welford running statistics, their parallel merge, and the
 * SystemTap @hist_log style histogram printer.
 *
 * The hot path (sw_stats_add) is called from kretprobe handlers: it takes no
 * locks, allocates nothing and does one 64-bit division.  Everything that
 * needs 128-bit division (merge, variance) runs only when statistics are
 * read, in process context.
 */
#include "stats.h"

#define SW_FRAC_ONE (1ULL << SW_FRAC_SHIFT)

/**
 * sw_stats_init() - reset statistics to "no values".
 * @s: statistics
 *
 * Context: any.
 */
void sw_stats_init(struct sw_stats *s)
{
	memset(s, 0, sizeof(*s));
	s->min = U64_MAX;
}

static sw_u128 sw_u128_add_sat(sw_u128 a, sw_u128 b)
{
	sw_u128 r = a + b;

	return r < a ? SW_U128_MAX : r;
}

static sw_u128 sw_u128_mul_sat(sw_u128 a, u64 b)
{
	sw_u128 r;

	if (check_mul_overflow(a, (sw_u128)b, &r))
		return SW_U128_MAX;
	return r;
}

/* Mean in fixed point, derived from the exact sum: no accumulated rounding. */
static s64 sw_mean_fp(u64 sum, u64 count)
{
	return (s64)mul_u64_u64_div_u64(sum, SW_FRAC_ONE, count);
}
NOKPROBE_SYMBOL(sw_mean_fp);

/**
 * sw_stats_add() - add one value (Welford's update).
 * @s:     statistics
 * @value: the value; clamped to SW_VALUE_MAX
 *
 * M2 grows by (x - mean_old) * (x - mean_new).  Both means come from the
 * exact running sum, so their error is below one fixed-point unit and does
 * not accumulate across calls.
 *
 * Context: any, including NMI; the caller serializes writers of @s.
 */
void sw_stats_add(struct sw_stats *s, u64 value)
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
NOKPROBE_SYMBOL(sw_stats_add);

/**
 * sw_stats_merge() - fold one set of statistics into another.
 * @into: accumulated statistics, updated
 * @from: statistics to add
 *
 * Chan et al.'s parallel formula: M2 = M2a + M2b + delta^2 * na * nb / n.
 *
 * Context: process context (128-bit division); readers only.
 */
void sw_stats_merge(struct sw_stats *into, const struct sw_stats *from)
{
	u64 na = into->count, nb = from->count, n;
	s64 delta;
	sw_u128 sq, term, m2;

	if (!nb)
		return;
	if (!na) {
		*into = *from;
		return;
	}
	n = na + nb;
	delta = from->mean - into->mean;
	sq = (sw_u128)((sw_s128)delta * delta) >> SW_FRAC_SHIFT;
	if (!check_mul_overflow(sq, (sw_u128)na, &term) &&
	    !check_mul_overflow(term, (sw_u128)nb, &term))
		term = sw_u128_div_u64(term, n);
	else
		term = sw_u128_mul_sat(sw_u128_mul_sat(sw_u128_div_u64(sq, n),
						       na), nb);
	m2 = sw_u128_add_sat(into->m2, from->m2);
	into->m2 = sw_u128_add_sat(m2, term);

	if (check_add_overflow(into->sum, from->sum, &into->sum))
		into->sum = U64_MAX;
	into->count = n;
	into->mean = sw_mean_fp(into->sum, n);
	if (from->min < into->min)
		into->min = from->min;
	if (from->max > into->max)
		into->max = from->max;
}

/**
 * sw_stats_avg() - mean, rounded to the nearest integer.
 * @s: statistics
 *
 * Return: 0 when there are no values.
 */
u64 sw_stats_avg(const struct sw_stats *s)
{
	if (!s->count)
		return 0;
	return (u64)((s->mean + SW_FRAC_ONE / 2) >> SW_FRAC_SHIFT);
}

/**
 * sw_stats_variance() - sample variance (n - 1 denominator), saturating.
 * @s: statistics
 *
 * Context: process context.
 * Return: variance in squared units; 0 for fewer than two values.
 */
u64 sw_stats_variance(const struct sw_stats *s)
{
	sw_u128 v;

	if (s->count < 2)
		return 0;
	v = sw_u128_div_u64(s->m2, s->count - 1) >> SW_FRAC_SHIFT;
	return v > U64_MAX ? U64_MAX : (u64)v;
}

/**
 * sw_stats_stddev() - sample standard deviation, rounded down.
 * @s: statistics
 *
 * Context: process context.
 * Return: standard deviation in the values' unit; 0 for fewer than two.
 */
u64 sw_stats_stddev(const struct sw_stats *s)
{
	if (s->count < 2)
		return 0;
	return sw_u128_sqrt(sw_u128_div_u64(s->m2, s->count - 1) >>
			    SW_FRAC_SHIFT);
}

/**
 * sw_u128_div_u64() - 128-by-64-bit division without compiler runtime help.
 * @n: dividend
 * @d: divisor, nonzero
 *
 * The kernel has no __udivti3; this is plain long division, used only on
 * read paths.
 *
 * Return: n / d.
 */
sw_u128 sw_u128_div_u64(sw_u128 n, u64 d)
{
	sw_u128 q = 0, r = 0;
	int i;

	if (!(n >> 64))
		return (u64)n / d;
	for (i = 127; i >= 0; i--) {
		r = (r << 1) | ((n >> i) & 1);
		if (r >= d) {
			r -= d;
			q |= (sw_u128)1 << i;
		}
	}
	return q;
}

/**
 * sw_u128_sqrt() - integer square root, rounded down.
 * @x: radicand
 *
 * Return: floor(sqrt(x)).
 */
u64 sw_u128_sqrt(sw_u128 x)
{
	sw_u128 res = 0, bit = (sw_u128)1 << 126;

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= res + bit) {
			x -= res + bit;
			res = (res >> 1) + bit;
		} else {
			res >>= 1;
		}
		bit >>= 2;
	}
	return (u64)res;
}

#define SW_HIST_WIDTH 50
#define SW_HIST_ELISION 2

static int sw_digits(u64 v)
{
	int d = 1;

	while (v >= 10) {
		v /= 10;
		d++;
	}
	return d;
}

static bool sw_hist_elide(const u64 *b, int i, int lo, int hi)
{
	int k;

	if (b[i])
		return false;
	for (k = i - SW_HIST_ELISION; k <= i + SW_HIST_ELISION; k++)
		if (k >= lo && k <= hi && b[k])
			return false;
	return true;
}

/**
 * sw_hist_print() - print a log2 histogram in SystemTap's @hist_log layout.
 * @buckets:  bucket counts, bucket b holding [2^(b-1), 2^b) (0 holds 0)
 * @nbuckets: number of buckets
 * @emit:     printf-like sink
 * @ctx:      passed to @emit
 *
 * Prints a "value |---...--- count" header, then one row per bucket from
 * two below the lowest to two above the highest nonzero bucket; zero
 * buckets farther than two from any nonzero one collapse into one "~" row.
 * Nothing but the header is printed for an empty histogram.
 *
 * Context: process context.
 */
void sw_hist_print(const u64 *buckets, unsigned int nbuckets, sw_emit_fn emit,
		   void *ctx)
{
	char bar[SW_HIST_WIDTH + 1];
	int lo = -1, hi = -1, i, width;
	u64 maxc = 0;
	bool elided = false;

	for (i = 0; i < (int)nbuckets; i++) {
		if (!buckets[i])
			continue;
		if (lo < 0)
			lo = i;
		hi = i;
		if (buckets[i] > maxc)
			maxc = buckets[i];
	}
	memset(bar, '-', SW_HIST_WIDTH);
	bar[SW_HIST_WIDTH] = '\0';
	if (lo < 0) {
		emit(ctx, "%5s |%s count\n", "value", bar);
		return;
	}
	lo = lo >= SW_HIST_ELISION ? lo - SW_HIST_ELISION : 0;
	hi = min_t(int, hi + SW_HIST_ELISION, (int)nbuckets - 1);
	width = max_t(int, 5, sw_digits(sw_hist_bucket_low(hi)));
	emit(ctx, "%*s |%s count\n", width, "value", bar);

	for (i = lo; i <= hi; i++) {
		u64 n;

		if (sw_hist_elide(buckets, i, lo, hi)) {
			if (!elided)
				emit(ctx, "%*s~\n", width + 1, "");
			elided = true;
			continue;
		}
		elided = false;
		n = mul_u64_u64_div_u64(buckets[i], SW_HIST_WIDTH, maxc);
		if (buckets[i] && !n)
			n = 1;
		memset(bar, '@', n);
		memset(bar + n, ' ', SW_HIST_WIDTH - n);
		emit(ctx, "%*llu |%s %llu\n", width,
		     (unsigned long long)sw_hist_bucket_low(i), bar,
		     (unsigned long long)buckets[i]);
	}
}
