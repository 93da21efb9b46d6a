// SPDX-License-Identifier: GPL-2.0
/*
 * test_stats.c - statistics kept as exact integer sums (mean and variance
 * derived exactly, merge exact), 128-bit helpers and the @hist_log
 * printer, built from the same lib/stats.c as the module.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <cmocka.h>

#include "stats.h"

static u64 lcg_state = 12345;

static u64 lcg(void)
{
	lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return lcg_state >> 17;
}

/* Two-pass reference in long double: mean, then squared deviations. */
static long double ref_stddev(const u64 *v, size_t n)
{
	long double mean = 0, m2 = 0;
	size_t i;

	for (i = 0; i < n; i++)
		mean += v[i];
	mean /= n;
	for (i = 0; i < n; i++)
		m2 += (v[i] - mean) * (v[i] - mean);
	return sqrtl(m2 / (n - 1));
}

/*
 * Exact reference, computed another way than lib/stats.c: the variance is
 * sum((n x_i - S)^2) / (n^2 (n - 1)), all in 128-bit integers (the host
 * compiler divides them); floor of it, and floor of its square root.
 */
static sw_u128 ref_var128(const u64 *v, size_t n)
{
	sw_u128 s = 0, d2 = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += v[i];
	for (i = 0; i < n; i++) {
		sw_s128 d = (sw_s128)n * v[i] - (sw_s128)s;

		d2 += (sw_u128)(d * d);
	}
	return d2 / ((sw_u128)n * n * (n - 1));
}

/* What sw_stats_variance() says: saturated to U64_MAX. */
static u64 ref_var_exact(const u64 *v, size_t n)
{
	sw_u128 var = ref_var128(v, n);

	return var > U64_MAX ? U64_MAX : (u64)var;
}

static u64 ref_avg_exact(const u64 *v, size_t n)
{
	sw_u128 s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += v[i];
	/* Nearest, halves up. */
	return (u64)((2 * s + n) / (2 * (sw_u128)n));
}

static u64 isqrt_ref(sw_u128 x)
{
	sw_u128 r = (sw_u128)sqrtl((long double)x);

	while (r * r > x)
		r--;
	while ((r + 1) * (r + 1) <= x)
		r++;
	return (u64)r;
}

static void test_empty(void **state)
{
	struct sw_stats s;

	(void)state;
	sw_stats_init(&s);
	assert_int_equal(s.count, 0);
	assert_int_equal(sw_stats_avg(&s), 0);
	assert_int_equal(sw_stats_stddev(&s), 0);
	assert_true(s.min == U64_MAX);
}

/* The probe's in-window cost off a duration: never below 0, 0 is none. */
static void test_less_window(void **state)
{
	(void)state;
	assert_int_equal(sw_stats_less_window(1000, 812), 188);
	assert_int_equal(sw_stats_less_window(812, 812), 0);
	assert_int_equal(sw_stats_less_window(700, 812), 0);
	assert_int_equal(sw_stats_less_window(0, 812), 0);
	assert_int_equal(sw_stats_less_window(1000, 0), 1000);
	assert_true(sw_stats_less_window(U64_MAX, 1) == U64_MAX - 1);
}

static void test_known_values(void **state)
{
	static const u64 v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct sw_stats s;
	size_t i;

	(void)state;
	sw_stats_init(&s);
	for (i = 0; i < ARRAY_SIZE(v); i++)
		sw_stats_add(&s, v[i]);
	assert_int_equal(s.count, 8);
	assert_int_equal(s.sum, 40);
	assert_int_equal(s.min, 2);
	assert_int_equal(s.max, 9);
	assert_int_equal(sw_stats_avg(&s), 5);
	/* Sample variance 32 / 7 = 4.57 -> 4; stddev 2.138 -> 2. */
	assert_int_equal(sw_stats_variance(&s), 4);
	assert_int_equal(sw_stats_stddev(&s), 2);
}

static void test_arithmetic_sequence(void **state)
{
	struct sw_stats s;
	u64 i;

	(void)state;
	sw_stats_init(&s);
	for (i = 0; i < 1000; i++)
		sw_stats_add(&s, 1000000 + i);
	/* Sample variance of 0..999: 999 * 1001 / 12 = 83333.25 * 1000/999. */
	assert_int_equal(sw_stats_variance(&s), 83416);
	assert_int_equal(sw_stats_stddev(&s), 288);
	assert_int_equal(sw_stats_avg(&s), 1000500); /* 1000499.5 rounds up */
}

/*
 * Large offset, tiny spread: a floating-point sum of squares would cancel;
 * integer sums do not.
 */
static void test_large_offset(void **state)
{
	const u64 base = 1000000000000ULL; /* 1000 s in ns */
	struct sw_stats s;
	int i;

	(void)state;
	sw_stats_init(&s);
	for (i = 0; i < 100000; i++)
		sw_stats_add(&s, base + (i & 1 ? 10 : 0));
	/* Half 0, half 10: sample variance 25 n / (n - 1) = 25.00025. */
	assert_int_equal(sw_stats_variance(&s), 25);
	assert_int_equal(sw_stats_stddev(&s), 5);
	assert_int_equal(sw_stats_avg(&s), base + 5);
}

static void test_random_vs_reference(void **state)
{
	enum { N = 20000 };
	static u64 v[N];
	struct sw_stats s;
	long double ref;
	int i;

	(void)state;
	sw_stats_init(&s);
	for (i = 0; i < N; i++) {
		/* Wide spread: 1 ns .. ~1 s, log-uniformish. */
		v[i] = (lcg() % 1000) << (lcg() % 20);
		sw_stats_add(&s, v[i]);
	}
	ref = ref_stddev(v, N);
	assert_true(fabsl((long double)sw_stats_stddev(&s) - ref) <= 1.0L);
	/* Exact: the integer reference, to the unit. */
	assert_true(sw_stats_variance(&s) == ref_var_exact(v, N));
	assert_true(sw_stats_stddev(&s) == isqrt_ref(ref_var128(v, N)));
	assert_true(sw_stats_avg(&s) == ref_avg_exact(v, N));
}

static void test_merge_matches_sequential(void **state)
{
	enum { N = 30000, PARTS = 7 };
	static u64 v[N];
	struct sw_stats all, part[PARTS], merged;
	int i;

	(void)state;
	sw_stats_init(&all);
	sw_stats_init(&merged);
	for (i = 0; i < PARTS; i++)
		sw_stats_init(&part[i]);
	for (i = 0; i < N; i++) {
		v[i] = 5000 + (lcg() % 100000) * (i % 3 + 1);
		sw_stats_add(&all, v[i]);
		/* Uneven parts, different distributions per part. */
		sw_stats_add(&part[(i * i) % PARTS], v[i]);
	}
	for (i = 0; i < PARTS; i++)
		sw_stats_merge(&merged, &part[i]);
	assert_int_equal(merged.count, all.count);
	assert_int_equal(merged.sum, all.sum);
	assert_int_equal(merged.min, all.min);
	assert_int_equal(merged.max, all.max);
	/* The merge adds sums: exactly the sequential statistics. */
	assert_true(merged.sq == all.sq);
	assert_int_equal(sw_stats_avg(&merged), sw_stats_avg(&all));
	assert_int_equal(sw_stats_variance(&merged), ref_var_exact(v, N));
	assert_int_equal(sw_stats_stddev(&merged), isqrt_ref(ref_var128(v, N)));
	assert_int_equal(sw_stats_avg(&merged), ref_avg_exact(v, N));
}

static void test_merge_empty_sides(void **state)
{
	struct sw_stats a, b;

	(void)state;
	sw_stats_init(&a);
	sw_stats_init(&b);
	sw_stats_add(&b, 7);
	sw_stats_add(&b, 9);
	sw_stats_merge(&a, &b); /* into empty */
	assert_int_equal(a.count, 2);
	assert_int_equal(a.min, 7);
	sw_stats_init(&b);
	sw_stats_merge(&a, &b); /* from empty */
	assert_int_equal(a.count, 2);
	assert_int_equal(sw_stats_avg(&a), 8);
	assert_int_equal(sw_stats_stddev(&a), 1); /* sqrt(2) */
}

/* Many small sets (every remainder of the mean's division): exact. */
static void test_small_sets_exact(void **state)
{
	u64 v[64];
	int t, i, n;

	(void)state;
	for (t = 0; t < 5000; t++) {
		struct sw_stats s;

		n = 2 + (int)(lcg() % 62);
		sw_stats_init(&s);
		for (i = 0; i < n; i++) {
			v[i] = lcg() >> (lcg() % 47); /* 0 .. 2^47 */
			sw_stats_add(&s, v[i]);
		}
		assert_true(sw_stats_variance(&s) == ref_var_exact(v, n));
		assert_true(sw_stats_stddev(&s) == isqrt_ref(ref_var128(v, n)));
		assert_true(sw_stats_avg(&s) == ref_avg_exact(v, n));
	}
}

/* Values near 2^64: kept whole; sums saturate, said by U64_MAX. */
static void test_extremes(void **state)
{
	const u64 h = 1ULL << 62;
	struct sw_stats s;

	(void)state;
	sw_stats_init(&s);
	sw_stats_add(&s, U64_MAX);
	assert_true(s.max == U64_MAX && s.min == U64_MAX);
	assert_int_equal(s.count, 1);
	assert_true(s.sq == (sw_u128)U64_MAX * U64_MAX);
	sw_stats_add(&s, 1);
	assert_true(s.sum == U64_MAX);	/* saturated */
	assert_true(sw_stats_variance(&s) == U64_MAX);
	assert_true(sw_stats_stddev(&s) == U64_MAX);

	/* 2^62 and 2^62 + 1: mean 2^62 + 1/2 rounds up; variance 1/2 -> 0. */
	sw_stats_init(&s);
	sw_stats_add(&s, h);
	sw_stats_add(&s, h + 1);
	assert_true(sw_stats_avg(&s) == h + 1);
	assert_int_equal(sw_stats_variance(&s), 0);
	/* 0 and 2^40: variance 2^79 does not fit u64; stddev 2^39.5. */
	sw_stats_init(&s);
	sw_stats_add(&s, 0);
	sw_stats_add(&s, 1ULL << 40);
	assert_true(sw_stats_variance(&s) == U64_MAX);
	assert_true(sw_stats_stddev(&s) == 777472127993ULL);
	/* Rounding of the mean: 1, 2 -> 1.5 -> 2; 1, 1, 2 -> 1.33 -> 1. */
	sw_stats_init(&s);
	sw_stats_add(&s, 1);
	sw_stats_add(&s, 2);
	assert_int_equal(sw_stats_avg(&s), 2);
	sw_stats_add(&s, 1);
	assert_int_equal(sw_stats_avg(&s), 1);
	/* Variance of 1, 1, 2: (2/3) / 2 = 1/3 -> 0. */
	assert_int_equal(sw_stats_variance(&s), 0);
}

static void test_u128_div(void **state)
{
	sw_u128 n = ((sw_u128)0x123456789abcdefULL << 64) | 0xfedcba9876543210ULL;
	u64 d[] = { 1, 3, 1000000007ULL, 0xffffffffffffffffULL, 1ULL << 40 };
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(d); i++)
		assert_true(sw_u128_div_u64(n, d[i]) == n / d[i]);
	assert_true(sw_u128_div_u64(100, 7) == 14);
}

static void test_u128_sqrt(void **state)
{
	sw_u128 big = (sw_u128)1 << 126;
	int i;

	(void)state;
	assert_int_equal(sw_u128_sqrt(0), 0);
	assert_int_equal(sw_u128_sqrt(1), 1);
	assert_int_equal(sw_u128_sqrt(15), 3);
	assert_int_equal(sw_u128_sqrt(16), 4);
	assert_true(sw_u128_sqrt(big) == 1ULL << 63);
	for (i = 0; i < 1000; i++) {
		sw_u128 x = ((sw_u128)lcg() << 40) ^ lcg();
		sw_u128 r = sw_u128_sqrt(x);

		assert_true(r * r <= x && (r + 1) * (r + 1) > x);
	}
}

static void test_hist_bucket(void **state)
{
	(void)state;
	assert_int_equal(sw_hist_bucket(0), 0);
	assert_int_equal(sw_hist_bucket(1), 1);
	assert_int_equal(sw_hist_bucket(2), 2);
	assert_int_equal(sw_hist_bucket(3), 2);
	assert_int_equal(sw_hist_bucket(4), 3);
	assert_int_equal(sw_hist_bucket(1023), 10);
	assert_int_equal(sw_hist_bucket(1024), 11);
	assert_int_equal(sw_hist_bucket(U64_MAX), 64);
	assert_true(sw_hist_bucket_low(11) == 1024);
	assert_true(sw_hist_bucket_low(0) == 0);
	assert_true(sw_hist_bucket_low(64) == 1ULL << 63);
}

/* Every bucket's bounds and their inverse, for every k. */
static void test_lhist_bounds(void **state)
{
	unsigned int k, b, n;

	(void)state;
	for (k = 0; k <= SW_LHIST_BITS_MAX; k++) {
		n = sw_lhist_nbuckets(k);
		assert_int_equal(n, sw_lhist_fine(k) + 64 - SW_LHIST_TOP);
		assert_true(sw_lhist_low(0, k) == 0);
		assert_true(sw_lhist_high(n - 1, k) == U64_MAX);
		assert_true(sw_lhist_low(n - 1, k) == 1ULL << 63);
		assert_true(sw_lhist_low(sw_lhist_fine(k), k) ==
			    1ULL << SW_LHIST_TOP);
		for (b = 0; b < n; b++) {
			u64 lo = sw_lhist_low(b, k), hi = sw_lhist_high(b, k);

			assert_true(lo <= hi);
			assert_int_equal(sw_lhist_bucket(lo, k), b);
			assert_int_equal(sw_lhist_bucket(hi, k), b);
			if (b) {
				assert_true(sw_lhist_high(b - 1, k) + 1 == lo);
				assert_int_equal(sw_lhist_bucket(lo - 1, k),
						 b - 1);
			}
			if (hi < U64_MAX)
				assert_int_equal(sw_lhist_bucket(hi + 1, k),
						 b + 1);
			/* Within one power of two: the log2 view is exact. */
			assert_int_equal(sw_hist_bucket(lo), sw_hist_bucket(hi));
			/* The width: 1 below 2^(k+1), at most 2^-k of lo
			 * below 2^SW_LHIST_TOP, one power of two above. */
			if (lo < 2ULL << k)
				assert_true(hi == lo);
			else if (lo < 1ULL << SW_LHIST_TOP)
				assert_true(hi - lo + 1 <= lo >> k);
			else
				assert_true(hi - lo == lo - 1);
		}
	}
}

/* Edge values: powers of two and their neighbours, k = 0 is log2. */
static void test_lhist_bucket_edges(void **state)
{
	unsigned int k, e;
	u64 v, d;

	(void)state;
	for (k = 0; k <= SW_LHIST_BITS_MAX; k++) {
		for (v = 0; v < 2ULL << k; v++)
			assert_int_equal(sw_lhist_bucket(v, k), v);
		for (e = 0; e < 64; e++)
			for (d = 0; d < 3; d++) {
				u64 x = (1ULL << e) - 1 + d;
				unsigned int b = sw_lhist_bucket(x, k);

				assert_true(b < sw_lhist_nbuckets(k));
				assert_true(sw_lhist_low(b, k) <= x &&
					    x <= sw_lhist_high(b, k));
			}
		assert_int_equal(sw_lhist_bucket(U64_MAX, k),
				 sw_lhist_nbuckets(k) - 1);
	}
	for (e = 0; e < 64; e++)
		for (d = 0; d < 3; d++) {
			v = (1ULL << e) - 1 + d;
			assert_int_equal(sw_lhist_bucket(v, 0),
					 sw_hist_bucket(v));
		}
	assert_int_equal(sw_lhist_bucket(U64_MAX, 0), 64);
	/* k = 4: 16 buckets per power of two, 1 wide at 32..63. */
	assert_int_equal(sw_lhist_bucket(31, 4), 31);
	assert_int_equal(sw_lhist_bucket(32, 4), 32);
	assert_int_equal(sw_lhist_bucket(33, 4), 32);
	assert_int_equal(sw_lhist_bucket(34, 4), 33);
	assert_int_equal(sw_lhist_bucket(1000, 4), 5 * 16 + (1000 >> 5));
	assert_int_equal(sw_lhist_nbuckets(4), 556);
}

/* Random values: in their bucket's bounds; the log2 view is exact. */
static void test_lhist_random_and_log2(void **state)
{
	static u64 lin[2100], want[SW_HIST_BUCKETS], got[SW_HIST_BUCKETS];
	unsigned int k, i, b;

	(void)state;
	for (k = 0; k <= SW_LHIST_BITS_MAX; k++) {
		assert_true(sw_lhist_nbuckets(k) <= 2100);
		memset(lin, 0, sizeof(lin));
		memset(want, 0, sizeof(want));
		for (i = 0; i < 200000; i++) {
			u64 v = (lcg() << 17 ^ lcg()) >> (lcg() % 64);

			b = sw_lhist_bucket(v, k);
			assert_true(sw_lhist_low(b, k) <= v &&
				    v <= sw_lhist_high(b, k));
			lin[b]++;
			want[sw_hist_bucket(v)]++;
		}
		sw_lhist_to_log2(lin, k, got);
		assert_memory_equal(got, want, sizeof(want));
	}
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * Percentiles of @n values against the exact nearest-rank ones of the
 * sorted values: in the exact value's bucket, so off by less than its
 * width; with k = 4 that is under 6.25% of the value.
 */
static void check_quantiles(u64 *v, size_t n, unsigned int k)
{
	static u64 lin[2100];
	u64 min = U64_MAX, max = 0;
	size_t i;
	int q;

	memset(lin, 0, sizeof(lin));
	for (i = 0; i < n; i++) {
		lin[sw_lhist_bucket(v[i], k)]++;
		min = v[i] < min ? v[i] : min;
		max = v[i] > max ? v[i] : max;
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	for (q = 0; q < SW_PCT_NR; q++) {
		u64 rank = (n * (u64)sw_pct_parts[q] + SW_PCT_SCALE - 1) /
			   SW_PCT_SCALE;
		u64 exact = v[(rank ? rank : 1) - 1];
		u64 got = sw_lhist_quantile(lin, k, sw_pct_parts[q], min, max);
		unsigned int b = sw_lhist_bucket(exact, k);

		assert_true(got >= sw_lhist_low(b, k) &&
			    got <= sw_lhist_high(b, k));
		if (exact < 1ULL << SW_LHIST_TOP)
			assert_true((got > exact ? got - exact : exact - got) <=
				    exact >> k);
	}
}

static void test_lhist_quantiles(void **state)
{
	static u64 v[100000];
	static u64 lin[2100];
	unsigned int k;
	size_t i;

	(void)state;
	/* 1..10000 once each: p50 5000, p90 9000, p99 9900, p99.9 9990. */
	for (i = 0; i < 10000; i++)
		v[i] = i + 1;
	check_quantiles(v, 10000, 4);
	/* Exact below 2^(k+1): 0..31 each once, k = 4. */
	memset(lin, 0, sizeof(lin));
	for (i = 0; i < 32; i++)
		lin[sw_lhist_bucket(i, 4)]++;
	assert_true(sw_lhist_quantile(lin, 4, 5000, 0, 31) == 15);
	assert_true(sw_lhist_quantile(lin, 4, 9000, 0, 31) == 28);
	assert_true(sw_lhist_quantile(lin, 4, 9990, 0, 31) == 31);
	/* Empty: 0.  One value: itself (clamped to min and max). */
	memset(lin, 0, sizeof(lin));
	assert_true(sw_lhist_quantile(lin, 4, 5000, U64_MAX, 0) == 0);
	lin[sw_lhist_bucket(123456789, 4)] = 1;
	assert_true(sw_lhist_quantile(lin, 4, 9990, 123456789, 123456789) ==
		    123456789);
	/* Wide spreads, every k; values beyond 2^SW_LHIST_TOP too. */
	for (k = 0; k <= SW_LHIST_BITS_MAX; k++) {
		for (i = 0; i < 100000; i++)
			v[i] = 100 + (lcg() % 1000) * (lcg() % 1000);
		check_quantiles(v, 100000, k);
		for (i = 0; i < 1000; i++)
			v[i] = lcg() << (lcg() % 24);
		check_quantiles(v, 1000, k);
		v[0] = U64_MAX;
		check_quantiles(v, 1, k);
	}
}

struct buf {
	char text[8192];
	size_t len;
};

static void buf_emit(void *ctx, const char *fmt, ...)
{
	struct buf *b = ctx;
	va_list ap;

	va_start(ap, fmt);
	b->len += vsnprintf(b->text + b->len, sizeof(b->text) - b->len, fmt, ap);
	va_end(ap);
}

static void test_hist_print_layout(void **state)
{
	u64 h[SW_HIST_BUCKETS] = { 0 };
	struct buf b = { .len = 0 };
	const char *want =
		"value |-------------------------------------------------- count\n"
		"    1 |                                                   0\n"
		"    2 |                                                   0\n"
		"    4 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 100\n"
		"    8 |@@@@@@@@@@@@@@@@@@@@@@@@@                          50\n"
		"   16 |                                                   0\n"
		"   32 |                                                   0\n"
		"      ~\n"
		" 1024 |                                                   0\n"
		" 2048 |                                                   0\n"
		" 4096 |@                                                  1\n"
		" 8192 |                                                   0\n"
		"16384 |                                                   0\n";

	(void)state;
	h[3] = 100; /* [4, 8) */
	h[4] = 50;  /* [8, 16) */
	h[13] = 1;  /* [4096, 8192): tiny count still gets one @ */
	sw_hist_print(h, SW_HIST_BUCKETS, buf_emit, &b);
	assert_string_equal(b.text, want);
}

static void test_hist_print_empty_and_zero(void **state)
{
	u64 h[SW_HIST_BUCKETS] = { 0 };
	struct buf b = { .len = 0 };

	(void)state;
	sw_hist_print(h, SW_HIST_BUCKETS, buf_emit, &b);
	assert_string_equal(
		b.text,
		"value |-------------------------------------------------- count\n");
	b.len = 0;
	h[0] = 3; /* zero-length values */
	sw_hist_print(h, SW_HIST_BUCKETS, buf_emit, &b);
	assert_string_equal(
		b.text,
		"value |-------------------------------------------------- count\n"
		"    0 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 3\n"
		"    1 |                                                   0\n"
		"    2 |                                                   0\n");
}

static void test_hist_print_wide_labels(void **state)
{
	u64 h[SW_HIST_BUCKETS] = { 0 };
	struct buf b = { .len = 0 };

	(void)state;
	h[64] = 2; /* [2^63, 2^64) */
	sw_hist_print(h, SW_HIST_BUCKETS, buf_emit, &b);
	/* 2^63 = 9223372036854775808 has 19 digits: the column widens. */
	assert_non_null(strstr(b.text, "9223372036854775808 |@@@@"));
	assert_non_null(strstr(b.text, "              value |---"));
}

/* Reads @text line by line into one section per title; returns the result. */
static int read_text(const char *text, u64 (*sec)[SW_HIST_BUCKETS],
		     unsigned int nsec, struct sw_hist_reader *r)
{
	unsigned int n = 0;
	const char *nl;
	int ret;

	sw_hist_reader_init(r);
	for (; *text; text = nl + 1) {
		nl = strchr(text, '\n');
		assert_non_null(nl);
		ret = sw_hist_read_line(r, text, (size_t)(nl - text));
		if (ret < 0)
			return ret;
		if (ret == SW_HIST_TITLE) {
			assert_true(n < nsec);
			memset(sec[n], 0, sizeof(sec[n]));
			r->buckets = sec[n++];
		}
	}
	return sw_hist_read_end(r);
}

/* Prints @h with a title, reads it back, and compares every bucket. */
static void round_trip(const u64 *h, u64 calls)
{
	static u64 back[1][SW_HIST_BUCKETS];
	struct sw_hist_reader r;
	struct buf b = { .len = 0 };
	unsigned int i;

	buf_emit(&b, SW_HIST_TITLE_FMT, "do_sys_openat2", "cycles",
		 (unsigned long long)calls);
	sw_hist_print(h, SW_HIST_BUCKETS, buf_emit, &b);
	assert_true(b.len < sizeof(b.text));
	assert_int_equal(read_text(b.text, back, 1, &r), 0);
	assert_int_equal(r.sections, 1);
	assert_int_equal(r.probe_len, strlen("do_sys_openat2"));
	assert_memory_equal(r.probe, "do_sys_openat2", r.probe_len);
	assert_string_equal(r.unit, "cycles");
	assert_true(r.calls == calls);
	for (i = 0; i < SW_HIST_BUCKETS; i++)
		if (back[0][i] != h[i])
			fail_msg("bucket %u: printed %llu, read %llu", i,
				 (unsigned long long)h[i],
				 (unsigned long long)back[0][i]);
}

static void test_hist_round_trip(void **state)
{
	u64 h[SW_HIST_BUCKETS] = { 0 };
	int i, k;

	(void)state;
	round_trip(h, 0);		/* header only */
	h[0] = 3;
	round_trip(h, 3);		/* the zero bucket */
	h[3] = 100;
	h[4] = 50;
	h[13] = 1;			/* elided runs between */
	round_trip(h, 154);
	h[64] = U64_MAX;		/* widest label, largest count */
	round_trip(h, U64_MAX);
	for (k = 0; k < 200; k++) {	/* random sparse histograms */
		memset(h, 0, sizeof(h));
		for (i = 0; i < 6; i++)
			h[lcg() % SW_HIST_BUCKETS] = lcg() >> (lcg() % 64);
		round_trip(h, lcg());
	}
}

static void test_hist_reader_sections(void **state)
{
	static u64 sec[3][SW_HIST_BUCKETS];
	struct sw_hist_reader r;
	const char *text =
		"vfs_read: ns, 5 calls\n"
		"value |-------------------------------------------------- count\n"
		"  256 |                                                   0\n"
		"  512 |                                                   0\n"
		" 1024 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 5\n"
		" 2048 |                                                   0\n"
		" 4096 |                                                   0\n"
		"\n"
		"vfs_read: instructions, 4 calls\n"
		"value |-------------------------------------------------- count\n"
		"\n"
		"a: b: ns, 1 calls\n"
		"value |-------------------------------------------------- count\n"
		"    0 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 1\n"
		"    1 |                                                   0\n"
		"      ~\n"
		"    8 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 1\n";

	(void)state;
	assert_int_equal(read_text(text, sec, 3, &r), 0);
	assert_int_equal(r.sections, 3);
	assert_true(sec[0][11] == 5);
	assert_true(sec[2][0] == 1 && sec[2][4] == 1);
	/* The last ": " separates probe and unit. */
	assert_int_equal(r.probe_len, 4);
	assert_string_equal(r.unit, "ns");
}

/* A title with the row's timing columns; a bad tail is not a title. */
static void test_hist_reader_row_title(void **state)
{
	static u64 sec[1][SW_HIST_BUCKETS];
	struct sw_hist_reader r;
	struct buf b = { .len = 0 };

	(void)state;
	buf_emit(&b, SW_HIST_TITLE_ROW_FMT, "a;b", "ns", 3ULL, 30ULL, 5ULL,
		 10ULL, 15ULL, 4ULL, 9ULL, 14ULL, 15ULL, 15ULL);
	buf_emit(&b, "value |-------------------------------------------------- count\n");
	assert_int_equal(read_text(b.text, sec, 1, &r), 0);
	assert_int_equal(r.probe_len, 3);
	assert_memory_equal(r.probe, "a;b", 3);
	assert_true(r.calls == 3 && r.has_row && r.has_pct);
	assert_true(r.row[SW_HIST_ROW_TOTAL] == 30 &&
		    r.row[SW_HIST_ROW_MIN] == 5 &&
		    r.row[SW_HIST_ROW_AVG] == 10 &&
		    r.row[SW_HIST_ROW_MAX] == 15 &&
		    r.row[SW_HIST_ROW_STDDEV] == 4 &&
		    r.row[SW_HIST_ROW_P50] == 9 &&
		    r.row[SW_HIST_ROW_P90] == 14 &&
		    r.row[SW_HIST_ROW_P99] == 15 &&
		    r.row[SW_HIST_ROW_P999] == 15);
	/* stats_format 1.5's title: the row without the percentiles. */
	assert_int_equal(read_text("p: ns, 3 calls; total 30, min 5, avg 10, max 15, stddev 4\n"
				   "value |-------------------------------------------------- count\n",
				   sec, 1, &r), 0);
	assert_true(r.has_row && !r.has_pct);
	assert_true(r.row[SW_HIST_ROW_STDDEV] == 4);
	assert_int_equal(read_text("p: ns, 1 calls\n"
				   "value |-------------------------------------------------- count\n",
				   sec, 1, &r), 0);
	assert_false(r.has_row);
	assert_false(r.has_pct);
	/* The percentiles come all four or not at all. */
	assert_int_equal(read_text("p: ns, 1 calls; total 1, min 1, avg 1, max 1, stddev 0, p50 1\n",
				   sec, 1, &r), -EINVAL);
	assert_int_equal(read_text("p: ns, 1 calls; total 1, min 1, avg 1, max 1, stddev 0, p50 1, p90 1, p99 1, p99.9 1, p100 1\n",
				   sec, 1, &r), -EINVAL);
	assert_int_equal(read_text("p: ns, 1 calls; total 1, min 1, avg 1, max 1, stddev 0, p50 1, p90 1, p99 1, p99.9 x\n",
				   sec, 1, &r), -EINVAL);
	assert_int_equal(read_text("p: ns, 1 calls; total 1, min 1\n", sec, 1,
				   &r), -EINVAL);
	assert_int_equal(read_text("p: ns, 1 calls; total 1, min 1, avg 1, max 1, stddev x\n",
				   sec, 1, &r), -EINVAL);
}

static void expect_bad(const char *text, int err, const char *why)
{
	static u64 sec[4][SW_HIST_BUCKETS];
	struct sw_hist_reader r;

	assert_int_equal(read_text(text, sec, 4, &r), err);
	if (why)
		assert_string_equal(r.why, why);
}

#define T "p: ns, 1 calls\n"
#define H "value |-------------------------------------------------- count\n"

static void test_hist_reader_errors(void **state)
{
	(void)state;
	expect_bad("", -ENODATA, NULL);
	expect_bad(T, -EINVAL, "missing the 'value |---...--- count' header");
	expect_bad(T "  1 |@ 1\n", -EINVAL,
		   "expected the 'value |---...--- count' header");
	expect_bad(H, -EINVAL,
		   "expected a title '<probe>: <unit>, <calls> calls' first");
	expect_bad("p: ns, 1 call\n", -EINVAL,
		   "expected a title '<probe>: <unit>, <calls> calls'");
	expect_bad(": ns, 1 calls\n", -EINVAL,
		   "expected a title '<probe>: <unit>, <calls> calls'");
	expect_bad("p: a unit, 1 calls\n", -EINVAL,
		   "expected a title '<probe>: <unit>, <calls> calls'");
	expect_bad("p: ns, 18446744073709551616 calls\n", -EINVAL,
		   "expected a title '<probe>: <unit>, <calls> calls'");
	expect_bad(T H "  3 |@ 1\n", -EINVAL,
		   "bucket value is not 0 or a power of two");
	expect_bad(T H "  2 |@ 1\n  1 |@ 1\n", -EINVAL, "bucket out of order");
	expect_bad(T H "  ~\n", -EINVAL, "'~' before the first bucket");
	expect_bad(T H "  1 |@x 1\n", -EINVAL,
		   "bar holds characters other than '@'");
	expect_bad(T H "  1 |@ 1x\n", -EINVAL, "count is not a number");
	expect_bad(T H "  1 |@ 1\nnot a row\n", -EINVAL,
		   "expected a row '<value> |<bar> <count>' or a title '<probe>: <unit>, <calls> calls'");
}

/* Reads fine histogram text; each section's buckets into lin[section]. */
static int lhist_read(const char *text, u64 (*lin)[2048], unsigned int max,
		      struct sw_lhist_reader *r)
{
	const char *line = text, *nl;
	unsigned int n = 0;
	int ret;

	sw_lhist_reader_init(r);
	for (; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		assert_non_null(nl);
		ret = sw_lhist_read_line(r, line, (size_t)(nl - line));
		if (ret < 0)
			return ret;
		if (ret == SW_HIST_TITLE) {
			assert_true(n < max);
			memset(lin[n], 0, sizeof(lin[n]));
			r->buckets = lin[n++];
		}
	}
	return sw_lhist_read_end(r);
}

static void test_lhist_round_trip(void **state)
{
	static u64 lin[2][2048], back[2][2048];
	struct sw_lhist_reader r;
	struct buf b = { .len = 0 };
	unsigned int k, i, nb;
	u64 calls[2];

	(void)state;
	srand(7);
	for (k = 0; k <= SW_LHIST_BITS_MAX; k++) {
		nb = sw_lhist_nbuckets(k);
		assert_true(nb <= 2048);
		b.len = 0;
		for (i = 0; i < 2; i++) {
			unsigned int j;

			memset(lin[i], 0, sizeof(lin[i]));
			calls[i] = 0;
			for (j = 0; j < 200 * i; j++) {
				u64 v = (u64)rand() >> (rand() % 31);

				lin[i][sw_lhist_bucket(v, k)]++;
				calls[i]++;
			}
			if (i)
				buf_emit(&b, "\n");
			/* A probe name may hold ": " and ", " itself. */
			buf_emit(&b, SW_LHIST_TITLE_FMT, i ? "m:f, x" : "p",
				 (unsigned long long)calls[i], k,
				 (unsigned long long)(1000 * i + 7));
			sw_lhist_print(lin[i], k, buf_emit, &b);
		}
		assert_int_equal(lhist_read(b.text, back, 2, &r), 0);
		assert_int_equal(r.bits, k);
		assert_int_equal(r.probe_len, 6);
		assert_memory_equal(r.probe, "m:f, x", 6);
		assert_true(r.calls == 200);
		assert_true(r.has_total);
		assert_true(r.total == 1007);
		for (i = 0; i < 2; i++)
			assert_memory_equal(back[i], lin[i], nb * sizeof(u64));
	}
}

static void expect_lbad(const char *text, int err, const char *why)
{
	static u64 lin[4][2048];
	struct sw_lhist_reader r;

	assert_int_equal(lhist_read(text, lin, 4, &r), err);
	if (why)
		assert_string_equal(r.why, why);
}

static void test_lhist_reader_errors(void **state)
{
	static const char *const title =
		"expected a title '<probe>: ns, <calls> calls, hist_bits <k>[; total <ns>]'";

	(void)state;
	expect_lbad("", -ENODATA, NULL);
	expect_lbad("1024 1087 1\n", -EINVAL,
		    "expected a title '<probe>: ns, <calls> calls, hist_bits <k>[; total <ns>]' first");
	expect_lbad("p: ns, 1 calls\n", -EINVAL, title);
	expect_lbad("p: ns, 1 calls, hist_bits 7\n", -EINVAL, title);
	expect_lbad("p: cycles, 1 calls, hist_bits 4\n", -EINVAL, title);
	expect_lbad(": ns, 1 calls, hist_bits 4\n", -EINVAL, title);
	expect_lbad("p: ns, 1 calls, hist_bits 4\n1024 1088 1\n", -EINVAL,
		    "row bounds are not a bucket's");
	expect_lbad("p: ns, 1 calls, hist_bits 4\n1000 1087 1\n", -EINVAL,
		    "row bounds are not a bucket's");
	expect_lbad("p: ns, 1 calls, hist_bits 4\n1024 1087\n", -EINVAL,
		    "expected a row '<low> <high> <count>'");
	expect_lbad("p: ns, 1 calls, hist_bits 4\n1024 1087 1 2\n", -EINVAL,
		    "expected a row '<low> <high> <count>'");
	expect_lbad("p: ns, 0 calls, hist_bits 4\n1024 1087 0\n", -EINVAL,
		    "row of an empty bucket");
	expect_lbad("p: ns, 2 calls, hist_bits 4\n1088 1151 1\n1024 1087 1\n",
		    -EINVAL, "bucket out of order");
	expect_lbad("p: ns, 2 calls, hist_bits 4\n1024 1087 1\n", -EINVAL,
		    "the bucket counts do not add up to the title's calls");
	expect_lbad("p: ns, 2 calls, hist_bits 4\n1024 1087 1\n\nq: ns, 0 calls, hist_bits 4\n",
		    -EINVAL,
		    "the bucket counts do not add up to the title's calls");
	/* A probe without calls: a title alone. */
	expect_lbad("p: ns, 0 calls, hist_bits 4\n", 0, NULL);
	/* 1.9's total: a number, after the bits. */
	expect_lbad("p: ns, 0 calls, hist_bits 4; total 0\n", 0, NULL);
	expect_lbad("p: ns, 1 calls, hist_bits 4; total\n1024 1087 1\n",
		    -EINVAL, title);
	expect_lbad("p: ns, 1 calls, hist_bits 4; total 1x\n1024 1087 1\n",
		    -EINVAL, title);
	expect_lbad("p: ns, 1 calls; total 5, hist_bits 4\n1024 1087 1\n",
		    -EINVAL, title);
}

/* A 1.8 title reads without a total; a ';' in a probe name is no total. */
static void test_lhist_title_total(void **state)
{
	static u64 lin[2][2048];
	struct sw_lhist_reader r;

	(void)state;
	assert_int_equal(lhist_read("a;b: ns, 1 calls, hist_bits 4\n1024 1087 1\n",
				    lin, 2, &r), 0);
	assert_false(r.has_total);
	assert_int_equal(r.probe_len, 3);
	assert_int_equal(lhist_read("a;b: ns, 1 calls, hist_bits 4; total 1050\n1024 1087 1\n",
				    lin, 2, &r), 0);
	assert_true(r.has_total);
	assert_true(r.total == 1050);
	assert_int_equal(r.probe_len, 3);
	assert_memory_equal(r.probe, "a;b", 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_less_window),
		cmocka_unit_test(test_known_values),
		cmocka_unit_test(test_arithmetic_sequence),
		cmocka_unit_test(test_large_offset),
		cmocka_unit_test(test_random_vs_reference),
		cmocka_unit_test(test_merge_matches_sequential),
		cmocka_unit_test(test_merge_empty_sides),
		cmocka_unit_test(test_small_sets_exact),
		cmocka_unit_test(test_extremes),
		cmocka_unit_test(test_u128_div),
		cmocka_unit_test(test_u128_sqrt),
		cmocka_unit_test(test_hist_bucket),
		cmocka_unit_test(test_lhist_bounds),
		cmocka_unit_test(test_lhist_bucket_edges),
		cmocka_unit_test(test_lhist_random_and_log2),
		cmocka_unit_test(test_lhist_quantiles),
		cmocka_unit_test(test_hist_print_layout),
		cmocka_unit_test(test_hist_print_empty_and_zero),
		cmocka_unit_test(test_hist_print_wide_labels),
		cmocka_unit_test(test_hist_round_trip),
		cmocka_unit_test(test_hist_reader_sections),
		cmocka_unit_test(test_hist_reader_row_title),
		cmocka_unit_test(test_hist_reader_errors),
		cmocka_unit_test(test_lhist_round_trip),
		cmocka_unit_test(test_lhist_reader_errors),
		cmocka_unit_test(test_lhist_title_total),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
