// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - running statistics as exact integer sums (their merge, and
 * the mean and variance derived from them), and the SystemTap @hist_log
 * style histogram printer and its parser.
 *
 * The hot path (sw_stats_add(), inline in stats.h) is called from the
 * attach mechanisms' handlers: additions only, no locks, no allocation,
 * no division.  Everything that divides (the mean, the variance) runs
 * only when statistics are read.
 */
#include "parse.h"
#include "stats.h"

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

/**
 * sw_stats_merge() - fold one set of statistics into another.
 * @into: accumulated statistics, updated
 * @from: statistics to add
 *
 * Sums add: the merge is exact (saturating like sw_stats_add()).
 *
 * Context: any.
 */
void sw_stats_merge(struct sw_stats *into, const struct sw_stats *from)
{
	into->count += from->count;
	if (check_add_overflow(into->sum, from->sum, &into->sum))
		into->sum = U64_MAX;
	into->sq = sw_u128_add_sat(into->sq, from->sq);
	if (from->min < into->min)
		into->min = from->min;
	if (from->max > into->max)
		into->max = from->max;
}

/**
 * sw_stats_less_window() - a call duration corrected for the probe: less
 * the probe's own cost inside the measured window (the stats file's
 * window_ns), never below 0.
 * @ns:     a duration as measured (a mean, a minimum, a percentile)
 * @window: the in-window cost; 0 (not calibrated) leaves @ns as is
 */
u64 sw_stats_less_window(u64 ns, u64 window)
{
	return ns > window ? ns - window : 0;
}

/**
 * sw_stats_avg() - mean, rounded to the nearest integer (halves up).
 * @s: statistics
 *
 * Return: 0 when there are no values.
 */
u64 sw_stats_avg(const struct sw_stats *s)
{
	u64 q, r;

	if (!s->count)
		return 0;
	q = s->sum / s->count;
	r = s->sum % s->count;
	return q + (r >= s->count - r);
}

/*
 * The sample variance's numerator M2 = sq - sum^2 / n (the sum of squared
 * deviations from the mean), rounded down to an integer B with
 * floor(M2 / (n - 1)) == floor(B / (n - 1)): with sum = q n + r (r < n),
 * M2 = (sq - q^2 n - 2 q r) - r^2 / n, and B = M2 - f with
 * f = ceil(r^2 / n) - r^2 / n in [0, 1), which moves no quotient by n - 1
 * across an integer.  Every term fits 128 bits: q n <= sum < 2^64,
 * q^2 n <= q sum < 2^128, q r < sum, r^2 < n^2.  False when a sum
 * saturated (the variance is then unknown, beyond any u64).
 */
static bool sw_stats_m2(const struct sw_stats *s, sw_u128 *b)
{
	u64 n = s->count, q, r;
	sw_u128 sub;

	if (s->sum == U64_MAX || s->sq == SW_U128_MAX)
		return false;
	q = s->sum / n;
	r = s->sum % n;
	sub = (sw_u128)(q * n) * q + 2 * (sw_u128)q * r +
	      sw_u128_div_u64((sw_u128)r * r + n - 1, n);
	/* sq >= sum^2 / n (Cauchy-Schwarz): never below, whatever n. */
	*b = s->sq > sub ? s->sq - sub : 0;
	return true;
}

#ifdef SW_UNIT_TEST
/**
 * sw_stats_variance() - sample variance (n - 1 denominator), rounded
 * down: exact, from the integer sums.
 * @s: statistics
 *
 * Context: any (128-bit long division: meant for readers).
 * Return: variance in squared units; 0 for fewer than two values;
 * U64_MAX when it does not fit or a sum saturated.
 */
u64 sw_stats_variance(const struct sw_stats *s)
{
	sw_u128 b, v;

	if (s->count < 2)
		return 0;
	if (!sw_stats_m2(s, &b))
		return U64_MAX;
	v = sw_u128_div_u64(b, s->count - 1);
	return v > U64_MAX ? U64_MAX : (u64)v;
}
#endif /* SW_UNIT_TEST */

/**
 * sw_stats_stddev() - sample standard deviation, rounded down: exact,
 * the integer square root of the exact variance.
 * @s: statistics
 *
 * Context: any (meant for readers).
 * Return: standard deviation in the values' unit; 0 for fewer than two;
 * U64_MAX when a sum saturated.
 */
u64 sw_stats_stddev(const struct sw_stats *s)
{
	sw_u128 b;

	if (s->count < 2)
		return 0;
	if (!sw_stats_m2(s, &b))
		return U64_MAX;
	/* floor(sqrt(floor(x))) == floor(sqrt(x)) for x >= 0. */
	return sw_u128_sqrt(sw_u128_div_u64(b, s->count - 1));
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

/**
 * sw_lhist_low() - smallest value that falls in a log-linear bucket.
 * @bucket: bucket index, below sw_lhist_nbuckets(@k)
 * @k:      sub-bucket bits
 *
 * The inverse of sw_lhist_bucket(): sw_lhist_bucket(sw_lhist_low(b, k), k)
 * is b.
 *
 * Return: the bucket's lowest value.
 */
u64 sw_lhist_low(unsigned int bucket, unsigned int k)
{
	unsigned int fine = sw_lhist_fine(k), s;

	if (bucket >= fine)
		return 1ULL << (SW_LHIST_TOP + bucket - fine);
	if (bucket >> k <= 1)
		return bucket;
	s = (bucket >> k) - 1;
	return (u64)(bucket - (s << k)) << s;
}

/**
 * sw_lhist_high() - largest value that falls in a log-linear bucket.
 * @bucket: bucket index, below sw_lhist_nbuckets(@k)
 * @k:      sub-bucket bits
 *
 * Return: the bucket's highest value (U64_MAX for the last bucket).
 */
u64 sw_lhist_high(unsigned int bucket, unsigned int k)
{
	if (bucket + 1 >= sw_lhist_nbuckets(k))
		return U64_MAX;
	return sw_lhist_low(bucket + 1, k) - 1;
}

/**
 * sw_lhist_to_log2() - the log2 view of a log-linear histogram.
 * @lin:  sw_lhist_nbuckets(@k) counts
 * @k:    sub-bucket bits
 * @hist: SW_HIST_BUCKETS counts, output
 *
 * Each log-linear bucket lies within one power of two, so the view is
 * exact: what counting the same values with sw_hist_count() gives.
 *
 * Context: any.
 */
void sw_lhist_to_log2(const u64 *lin, unsigned int k, u64 *hist)
{
	unsigned int b, n = sw_lhist_nbuckets(k);

	memset(hist, 0, SW_HIST_BUCKETS * sizeof(*hist));
	for (b = 0; b < n; b++)
		hist[sw_hist_bucket(sw_lhist_low(b, k))] += lin[b];
}

const u32 sw_pct_parts[SW_PCT_NR] = { 5000, 9000, 9900, 9990 };

/**
 * sw_lhist_quantile() - a quantile of the values of a log-linear histogram.
 * @lin:   sw_lhist_nbuckets(@k) counts
 * @k:     sub-bucket bits
 * @parts: the quantile, in parts per SW_PCT_SCALE (9900: p99)
 * @min:   the smallest value counted (exact, from struct sw_stats)
 * @max:   the largest value counted
 *
 * The quantile is the value of rank r = ceil(n * @parts / SW_PCT_SCALE)
 * (at least 1) among the n values, the nearest-rank definition.  Its
 * bucket is found exactly; within the bucket, of width w = high - low, the
 * j-th of its c values is taken at the middle of the j-th of c equal
 * slices: low + w * (2j - 1) / (2c) (linear interpolation; one value
 * alone is the bucket's midpoint), then clamped to [@min, @max].  The
 * exact value lies in the same bucket, so the error is below the
 * bucket's width: none below 2^(k+1), less than 2^-k of the value below
 * 2^SW_LHIST_TOP, less than the value itself above.
 *
 * Context: any (128-bit long division: meant for readers).
 * Return: the value, 0 when the histogram is empty.
 */
u64 sw_lhist_quantile(const u64 *lin, unsigned int k, u32 parts, u64 min,
		      u64 max)
{
	unsigned int b, n = sw_lhist_nbuckets(k);
	u64 total = 0, rank, cum = 0, c = 0, low, v;

	for (b = 0; b < n; b++)
		total += lin[b];
	if (!total)
		return 0;
	rank = (u64)sw_u128_div_u64((sw_u128)total * parts + SW_PCT_SCALE - 1,
				    SW_PCT_SCALE);
	if (!rank)
		rank = 1;
	for (b = 0; b < n; b++) {
		c = lin[b];
		if (c && rank - cum <= c)
			break;
		cum += c;
	}
	if (b == n)
		return max;
	low = sw_lhist_low(b, k);
	v = low + (u64)sw_u128_div_u64((sw_u128)(sw_lhist_high(b, k) - low) *
				       (2 * (rank - cum) - 1), 2 * c);
	if (v < min)
		v = min;
	if (v > max)
		v = max;
	return v;
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

static bool sw_hist_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Narrows [*s, *s + *len) to its text without surrounding white space. */
static void sw_hist_trim(const char **s, size_t *len)
{
	while (*len && sw_hist_space(**s)) {
		(*s)++;
		(*len)--;
	}
	while (*len && sw_hist_space((*s)[*len - 1]))
		(*len)--;
}

/* Strict decimal u64 of exactly @len digits. */
static int sw_hist_u64(const char *s, size_t len, u64 *v)
{
	return sw_parse_number(s, len, 10, v);
}

/* Offset of the last @c in @s[0, len), or -1. */
static long sw_hist_rfind(const char *s, size_t len, char c)
{
	while (len--)
		if (s[len] == c)
			return (long)len;
	return -1;
}

/*
 * The tail "; total T, min A, avg B, max C, stddev D" of a title
 * (SW_HIST_TITLE_ROW_FMT) at @s[0, len), into @row, maybe going on with
 * ", p50 P, p90 Q, p99 R, p99.9 S" (*@pct set).
 */
static int sw_hist_row_tail(const char *s, size_t len, u64 *row, bool *pct)
{
	static const char *const key[SW_HIST_ROW_FIELDS] = {
		"; total ", ", min ", ", avg ", ", max ", ", stddev ",
		", p50 ", ", p90 ", ", p99 ", ", p99.9 "
	};
	size_t i, kl, n;

	*pct = false;
	for (i = 0; i < SW_HIST_ROW_FIELDS; i++) {
		if (i == SW_HIST_ROW_P50 && !len)
			return 0;
		kl = strlen(key[i]);
		if (len < kl || memcmp(s, key[i], kl))
			return -EINVAL;
		s += kl;
		len -= kl;
		for (n = 0; n < len && s[n] >= '0' && s[n] <= '9'; n++)
			;
		if (sw_hist_u64(s, n, &row[i]))
			return -EINVAL;
		s += n;
		len -= n;
	}
	if (len)
		return -EINVAL;
	*pct = true;
	return 0;
}

/*
 * Title "<probe>: <unit>, <N> calls", maybe followed by the row's timing
 * columns (SW_HIST_TITLE_ROW_FMT), taken apart from the right since only
 * the probe name is free-form.
 */
static int sw_hist_title(struct sw_hist_reader *r, const char *s, size_t len)
{
	static const char tail[] = " calls";
	size_t tl = sizeof(tail) - 1, ul;
	long sp, c;
	u64 calls;

	r->has_row = false;
	r->has_pct = false;
	sp = sw_hist_rfind(s, len, ';');
	if (sp > 0 && !sw_hist_row_tail(s + sp, len - (size_t)sp, r->row,
					&r->has_pct)) {
		r->has_row = true;
		len = (size_t)sp;
	}
	if (len <= tl || memcmp(s + len - tl, tail, tl))
		return -EINVAL;
	len -= tl;
	sp = sw_hist_rfind(s, len, ' ');
	if (sp < 1 || s[sp - 1] != ',' ||
	    sw_hist_u64(s + sp + 1, len - (size_t)sp - 1, &calls))
		return -EINVAL;
	len = (size_t)sp - 1;
	/* The last ": " separates probe and unit. */
	for (c = (long)len - 2; c >= 0; c--)
		if (s[c] == ':' && s[c + 1] == ' ')
			break;
	if (c < 1)
		return -EINVAL;
	ul = len - (size_t)c - 2;
	if (!ul || ul >= SW_HIST_UNIT_LEN)
		return -EINVAL;
	for (sp = c + 2; sp < (long)len; sp++)
		if (sw_hist_space(s[sp]) || s[sp] == ',' || s[sp] == ':')
			return -EINVAL;
	memcpy(r->unit, s + c + 2, ul);
	r->unit[ul] = '\0';
	r->probe = s;
	r->probe_len = (size_t)c;
	r->calls = calls;
	return 0;
}

/* "value |-----...----- count" */
static bool sw_hist_header(const char *s, size_t len)
{
	size_t i = 5;

	if (len < 5 || memcmp(s, "value", 5))
		return false;
	while (i < len && sw_hist_space(s[i]))
		i++;
	if (i == len || s[i++] != '|')
		return false;
	while (i < len && s[i] == '-')
		i++;
	while (i < len && sw_hist_space(s[i]))
		i++;
	return len - i == 5 && !memcmp(s + i, "count", 5);
}

/* "<low> |<bar> <count>": the row's bucket and count. */
static int sw_hist_row(struct sw_hist_reader *r, const char *s, size_t len,
		       unsigned int *bucket, u64 *count)
{
	const char *pipe = memchr(s, '|', len), *lab = s, *rest;
	long bar = pipe ? pipe - s : -1, sp;
	size_t ll = bar < 0 ? 0 : (size_t)bar, rl, i;
	u64 low;

	if (bar < 0) {
		r->why = "expected '<value> |<bar> <count>'";
		return -EINVAL;
	}
	sw_hist_trim(&lab, &ll);
	if (sw_hist_u64(lab, ll, &low)) {
		r->why = "bucket value is not a number";
		return -EINVAL;
	}
	*bucket = sw_hist_bucket(low);
	if (low & (low - 1) || *bucket >= r->nbuckets) {
		r->why = "bucket value is not 0 or a power of two";
		return -EINVAL;
	}
	rest = s + bar + 1;
	rl = len - (size_t)bar - 1;
	sw_hist_trim(&rest, &rl);
	sp = sw_hist_rfind(rest, rl, ' ');
	if (sw_hist_u64(rest + sp + 1, rl - (size_t)(sp + 1), count)) {
		r->why = "count is not a number";
		return -EINVAL;
	}
	for (i = 0; sp > 0 && i < (size_t)sp; i++)
		if (rest[i] != '@' && rest[i] != ' ') {
			r->why = "bar holds characters other than '@'";
			return -EINVAL;
		}
	return 0;
}

/**
 * sw_hist_reader_init() - start reading histogram text.
 * @r: reader; the caller sets @r->nbuckets (and @r->buckets after each
 *     title) itself
 */
void sw_hist_reader_init(struct sw_hist_reader *r)
{
	memset(r, 0, sizeof(*r));
	r->nbuckets = SW_HIST_BUCKETS;
	r->last = -1;
}

static int sw_hist_fail(struct sw_hist_reader *r, const char *why)
{
	r->why = why;
	return -EINVAL;
}

/**
 * sw_hist_read_line() - take one line of histogram text.
 * @r:    reader
 * @line: the line, without or with its newline
 * @len:  its length
 *
 * Checks the order (title, header, rows in rising bucket order, '~' only
 * between rows) and the syntax of each line, and adds each row's count to
 * @r->buckets.  The caller checks what only it knows: the probe name and
 * that units do not repeat.
 *
 * Context: any; no allocation.
 * Return: SW_HIST_TITLE (@r->probe, @r->unit, @r->calls set), SW_HIST_LINE,
 * or -EINVAL with @r->why set.
 */
int sw_hist_read_line(struct sw_hist_reader *r, const char *line, size_t len)
{
	unsigned int b;
	u64 count;
	bool tilde;

	sw_hist_trim(&line, &len);
	if (!len)
		return SW_HIST_LINE;
	tilde = len == 1 && line[0] == '~';
	if (!tilde && !memchr(line, '|', len)) {
		if (r->sections && !r->header)
			return sw_hist_fail(r, "expected the 'value |---...--- count' header");
		if (sw_hist_title(r, line, len))
			return sw_hist_fail(r, r->sections ?
				"expected a row '<value> |<bar> <count>' or a title '<probe>: <unit>, <calls> calls'" :
				"expected a title '<probe>: <unit>, <calls> calls'");
		r->sections++;
		r->header = false;
		r->last = -1;
		r->buckets = NULL;
		return SW_HIST_TITLE;
	}
	if (!r->sections)
		return sw_hist_fail(r, "expected a title '<probe>: <unit>, <calls> calls' first");
	if (!r->header) {
		if (!sw_hist_header(line, len))
			return sw_hist_fail(r, "expected the 'value |---...--- count' header");
		r->header = true;
		return SW_HIST_LINE;
	}
	if (tilde)
		return r->last < 0 ?
			sw_hist_fail(r, "'~' before the first bucket") :
			SW_HIST_LINE;
	if (sw_hist_row(r, line, len, &b, &count))
		return -EINVAL;
	if ((int)b <= r->last)
		return sw_hist_fail(r, "bucket out of order");
	r->last = (int)b;
	if (r->buckets)
		r->buckets[b] = count;
	return SW_HIST_LINE;
}

/**
 * sw_hist_read_end() - finish reading histogram text.
 * @r: reader
 *
 * Return: 0, -ENODATA (no section at all) or -EINVAL (the last section
 * has no header; @r->why set).
 */
int sw_hist_read_end(struct sw_hist_reader *r)
{
	if (!r->sections)
		return -ENODATA;
	if (!r->header)
		return sw_hist_fail(r, "missing the 'value |---...--- count' header");
	return 0;
}

/**
 * sw_lhist_print() - a fine histogram section's rows (SW_LHIST_ROW_FMT):
 * one per non-empty bucket, in rising order.
 * @lin:  sw_lhist_nbuckets(@k) counts
 * @k:    sub-bucket bits
 * @emit: printf-like sink
 * @ctx:  passed to @emit
 *
 * Context: process context.
 */
void sw_lhist_print(const u64 *lin, unsigned int k, sw_emit_fn emit,
		    void *ctx)
{
	unsigned int b, n = sw_lhist_nbuckets(k);

	for (b = 0; b < n; b++)
		if (lin[b])
			emit(ctx, SW_LHIST_ROW_FMT,
			     (unsigned long long)sw_lhist_low(b, k),
			     (unsigned long long)sw_lhist_high(b, k),
			     (unsigned long long)lin[b]);
}

/**
 * sw_lhist_reader_init() - start reading fine histogram text.
 * @r: reader; the caller sets @r->buckets after each title itself
 */
void sw_lhist_reader_init(struct sw_lhist_reader *r)
{
	memset(r, 0, sizeof(*r));
	r->last = -1;
}

/* The next space-separated decimal of @s[*pos, len), into @v. */
static int sw_lhist_field(const char *s, size_t len, size_t *pos, u64 *v)
{
	size_t n = *pos;

	while (n < len && s[n] >= '0' && s[n] <= '9')
		n++;
	if (sw_hist_u64(s + *pos, n - *pos, v))
		return -EINVAL;
	if (n < len && s[n] == ' ')
		n++;
	*pos = n;
	return 0;
}

/* Title "<probe>: ns, <N> calls, hist_bits <k>", taken apart from the right. */
static int sw_lhist_title(struct sw_lhist_reader *r, const char *s,
			  size_t len)
{
	static const char bits[] = ", hist_bits ", calls[] = " calls",
			  unit[] = ": ns, ", total[] = "; total ";
	size_t bl = sizeof(bits) - 1, cl = sizeof(calls) - 1;
	size_t ul = sizeof(unit) - 1, tl = sizeof(total) - 1;
	long sp;
	u64 k, n, t = 0;

	/* stats_format 1.9: "; total <ns>" last */
	sp = sw_hist_rfind(s, len, ';');
	r->has_total = sp >= 0 && len - (size_t)sp >= tl &&
		       !memcmp(s + sp, total, tl);
	if (r->has_total) {
		if (sw_hist_u64(s + sp + tl, len - (size_t)sp - tl, &t))
			return -EINVAL;
		len = (size_t)sp;
	}
	sp = sw_hist_rfind(s, len, ',');
	if (sp < 0 || len - (size_t)sp < bl || memcmp(s + sp, bits, bl) ||
	    sw_hist_u64(s + sp + bl, len - (size_t)sp - bl, &k) ||
	    k > SW_LHIST_BITS_MAX)
		return -EINVAL;
	len = (size_t)sp;
	if (len < cl || memcmp(s + len - cl, calls, cl))
		return -EINVAL;
	len -= cl;
	sp = sw_hist_rfind(s, len, ' ');
	if (sp < (long)ul || memcmp(s + sp + 1 - ul, unit, ul) ||
	    sw_hist_u64(s + sp + 1, len - (size_t)sp - 1, &n))
		return -EINVAL;
	r->probe = s;
	r->probe_len = (size_t)sp + 1 - ul;
	if (!r->probe_len)
		return -EINVAL;
	r->calls = n;
	r->bits = (unsigned int)k;
	r->total = t;
	return 0;
}

static int sw_lhist_fail(struct sw_lhist_reader *r, const char *why)
{
	r->why = why;
	return -EINVAL;
}

/* The current section's rows add up to its title's calls. */
static int sw_lhist_section_end(struct sw_lhist_reader *r)
{
	if (r->sections && r->sum != r->calls)
		return sw_lhist_fail(r, "the bucket counts do not add up to the title's calls");
	return 0;
}

/**
 * sw_lhist_read_line() - take one line of fine histogram text.
 * @r:    reader
 * @line: the line, without or with its newline
 * @len:  its length
 *
 * Checks the order (title, then rows in rising bucket order), that each
 * row's bounds are a bucket's of the title's sub-bucket bits, and that a
 * section's counts add up to its calls; sets @r->buckets' counts.
 *
 * Context: any; no allocation.
 * Return: SW_HIST_TITLE (@r->probe, @r->calls, @r->bits set),
 * SW_HIST_LINE, or -EINVAL with @r->why set.
 */
int sw_lhist_read_line(struct sw_lhist_reader *r, const char *line,
		       size_t len)
{
	u64 low, high, count;
	size_t pos = 0;
	unsigned int b;

	sw_hist_trim(&line, &len);
	if (!len)
		return SW_HIST_LINE;
	if (line[0] < '0' || line[0] > '9') {
		if (sw_lhist_section_end(r))
			return -EINVAL;
		if (sw_lhist_title(r, line, len))
			return sw_lhist_fail(r, "expected a title '<probe>: ns, <calls> calls, hist_bits <k>[; total <ns>]'");
		r->sections++;
		r->sum = 0;
		r->last = -1;
		r->buckets = NULL;
		return SW_HIST_TITLE;
	}
	if (!r->sections)
		return sw_lhist_fail(r, "expected a title '<probe>: ns, <calls> calls, hist_bits <k>[; total <ns>]' first");
	if (sw_lhist_field(line, len, &pos, &low) ||
	    sw_lhist_field(line, len, &pos, &high) ||
	    sw_lhist_field(line, len, &pos, &count) || pos != len)
		return sw_lhist_fail(r, "expected a row '<low> <high> <count>'");
	b = sw_lhist_bucket(low, r->bits);
	if (sw_lhist_low(b, r->bits) != low || sw_lhist_high(b, r->bits) != high)
		return sw_lhist_fail(r, "row bounds are not a bucket's");
	if (!count)
		return sw_lhist_fail(r, "row of an empty bucket");
	if ((int)b <= r->last)
		return sw_lhist_fail(r, "bucket out of order");
	r->last = (int)b;
	if (check_add_overflow(r->sum, count, &r->sum))
		r->sum = U64_MAX;
	if (r->buckets)
		r->buckets[b] = count;
	return SW_HIST_LINE;
}

/**
 * sw_lhist_read_end() - finish reading fine histogram text.
 * @r: reader
 *
 * Return: 0, -ENODATA (no section at all) or -EINVAL (the last section's
 * counts do not add up; @r->why set).
 */
int sw_lhist_read_end(struct sw_lhist_reader *r)
{
	if (!r->sections)
		return -ENODATA;
	return sw_lhist_section_end(r);
}
