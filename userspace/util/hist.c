// SPDX-License-Identifier: GPL-2.0
/*
 * hist.c - parse and print log2 histograms in @hist_log layout.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/hist.h"
#include "util/table.h"

void sw_hist_set_free(struct sw_hist_set *s)
{
	if (!s)
		return;
	free(s->hist);
	free(s);
}

const struct sw_hist *sw_hist_find(const struct sw_hist_set *s,
				   const char *unit)
{
	size_t i;

	for (i = 0; s && i < s->n; i++)
		if (!strcmp(s->hist[i].unit, unit))
			return &s->hist[i];
	return NULL;
}

int sw_hist_bucket_of(uint64_t low)
{
	if (!low)
		return 0;
	if (low & (low - 1))
		return -1;
	return __builtin_ctzll(low) + 1;
}

uint64_t sw_hist_total(const struct sw_hist *h)
{
	uint64_t sum = 0;
	int b;

	for (b = 0; b < SW_HIST_BUCKETS; b++)
		if (__builtin_add_overflow(sum, h->bucket[b], &sum))
			return UINT64_MAX;
	return sum;
}

int sw_hist_top(const struct sw_hist *h)
{
	int b;

	for (b = SW_HIST_BUCKETS - 1; b >= 0; b--)
		if (h->bucket[b])
			return b;
	return -1;
}

static char *sw_trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/*
 * Title line "<probe>: <unit>, <N> calls", parsed from the right since
 * only the probe name is free-form.
 */
static int sw_hist_title(char *line, const char **probe, struct sw_hist *h)
{
	char *s = sw_trim(line), *e, *num, *unit, *colon;
	size_t len = strlen(s);

	if (len < 6 || strcmp(s + len - 6, " calls"))
		return -EINVAL;
	e = s + len - 6;
	*e = '\0';
	num = strrchr(s, ' ');
	if (!num || num == s || num[-1] != ',')
		return -EINVAL;
	num[-1] = '\0';
	if (sw_parse_u64(num + 1, &h->calls))
		return -EINVAL;
	colon = strstr(s, ": ");
	if (!colon)
		return -EINVAL;
	while (strstr(colon + 2, ": "))
		colon = strstr(colon + 2, ": ");
	*colon = '\0';
	unit = colon + 2;
	if (!*s || !*unit || strlen(unit) >= sizeof(h->unit) ||
	    strpbrk(unit, " \t,:"))
		return -EINVAL;
	strcpy(h->unit, unit);
	*probe = s;
	return 0;
}

/* "value |-----...----- count" */
static int sw_hist_is_header(char *line)
{
	char *s = sw_trim(line);

	if (strncmp(s, "value", 5))
		return 0;
	s = sw_trim(s + 5);
	if (*s++ != '|')
		return 0;
	s += strspn(s, "-");
	return !strcmp(sw_trim(s), "count");
}

/* "<low> |<bar> <count>"; *@bucket set to the row's bucket. */
static int sw_hist_row(char *line, int *bucket, uint64_t *count,
		       const char **why)
{
	char *bar = strchr(line, '|'), *label, *num;
	uint64_t low;

	if (!bar) {
		*why = "expected '<value> |<bar> <count>'";
		return -EINVAL;
	}
	*bar++ = '\0';
	label = sw_trim(line);
	if (sw_parse_u64(label, &low)) {
		*why = "bucket value is not a number";
		return -EINVAL;
	}
	*bucket = sw_hist_bucket_of(low);
	if (*bucket < 0) {
		*why = "bucket value is not 0 or a power of two";
		return -EINVAL;
	}
	bar = sw_trim(bar);
	num = strrchr(bar, ' ');
	num = num ? num + 1 : bar;
	if (sw_parse_u64(num, count)) {
		*why = "count is not a number";
		return -EINVAL;
	}
	*num = '\0';
	if (bar[strspn(bar, "@ ")]) {
		*why = "bar holds characters other than '@'";
		return -EINVAL;
	}
	return 0;
}

int sw_hist_parse(const char *text, const char *probe, const char *what,
		  struct sw_hist_set **out, struct sw_err *err)
{
	struct sw_hist_set *set = NULL;
	struct sw_hist *cur = NULL;
	char *copy = NULL, *pos, *line, *nl;
	size_t lineno = 0, cap = 0;
	int ret = 0, have_header = 0, last = -1;

	*out = NULL;
	copy = strdup(text);
	set = calloc(1, sizeof(*set));
	if (!copy || !set) {
		ret = sw_err_set(err, -ENOMEM, "out of memory");
		goto cleanup;
	}

	for (pos = copy; *pos; ) {
		char raw[160];
		const char *why = NULL, *name;
		uint64_t count;
		int b;

		line = pos;
		nl = strchr(pos, '\n');
		if (nl) {
			*nl = '\0';
			pos = nl + 1;
		} else {
			pos += strlen(pos);
		}
		lineno++;
		snprintf(raw, sizeof(raw), "%s", sw_trim(line));
		line = sw_trim(line);
		if (!*line)
			continue;

		if (!strchr(line, '|') && strcmp(line, "~")) {
			struct sw_hist h = { 0 };
			size_t i;

			if (cur && !have_header) {
				ret = sw_err_set(err, -EINVAL,
						 "%s: line %zu: expected the 'value |---...--- count' header, got '%s'",
						 what, lineno, raw);
				goto cleanup;
			}
			if (sw_hist_title(line, &name, &h)) {
				ret = sw_err_set(err, -EINVAL,
						 cur ? "%s: line %zu: expected a row '<value> |<bar> <count>' or a title '<probe>: <unit>, <calls> calls', got '%s'" :
						       "%s: line %zu: expected a title '<probe>: <unit>, <calls> calls', got '%s'",
						 what, lineno, raw);
				goto cleanup;
			}
			if (probe && strcmp(name, probe)) {
				ret = sw_err_set(err, -EINVAL,
						 "%s: line %zu: title names probe '%s', expected '%s'",
						 what, lineno, name, probe);
				goto cleanup;
			}
			for (i = 0; i < set->n; i++)
				if (!strcmp(set->hist[i].unit, h.unit)) {
					ret = sw_err_set(err, -EINVAL,
							 "%s: line %zu: second '%s' histogram",
							 what, lineno, h.unit);
					goto cleanup;
				}
			if (set->n == cap) {
				size_t ncap = cap ? cap * 2 : 2;
				struct sw_hist *nh = realloc(set->hist,
							     ncap * sizeof(*nh));

				if (!nh) {
					ret = sw_err_set(err, -ENOMEM,
							 "out of memory");
					goto cleanup;
				}
				set->hist = nh;
				cap = ncap;
			}
			cur = &set->hist[set->n++];
			*cur = h;
			have_header = 0;
			last = -1;
			continue;
		}

		if (!cur) {
			ret = sw_err_set(err, -EINVAL,
					 "%s: line %zu: expected a title '<probe>: <unit>, <calls> calls' first, got '%s'",
					 what, lineno, raw);
			goto cleanup;
		}
		if (!have_header) {
			if (!sw_hist_is_header(line)) {
				ret = sw_err_set(err, -EINVAL,
						 "%s: line %zu: expected the 'value |---...--- count' header, got '%s'",
						 what, lineno, raw);
				goto cleanup;
			}
			have_header = 1;
			continue;
		}
		if (!strcmp(line, "~")) {
			if (last < 0) {
				ret = sw_err_set(err, -EINVAL,
						 "%s: line %zu: '~' before the first bucket",
						 what, lineno);
				goto cleanup;
			}
			continue;
		}
		if (sw_hist_row(line, &b, &count, &why)) {
			ret = sw_err_set(err, -EINVAL, "%s: line %zu: %s: '%s'",
					 what, lineno, why, raw);
			goto cleanup;
		}
		if (b <= last) {
			ret = sw_err_set(err, -EINVAL,
					 "%s: line %zu: bucket %llu out of order: '%s'",
					 what, lineno,
					 (unsigned long long)sw_hist_low((unsigned int)b),
					 raw);
			goto cleanup;
		}
		cur->bucket[b] = count;
		last = b;
	}

	if (!set->n) {
		ret = sw_err_set(err, -ENODATA, "%s: empty: no histogram",
				 what);
		goto cleanup;
	}
	if (!have_header) {
		ret = sw_err_set(err, -EINVAL,
				 "%s: line %zu: missing the 'value |---...--- count' header",
				 what, lineno);
		goto cleanup;
	}
	*out = set;
	set = NULL;
cleanup:
	sw_hist_set_free(set);
	free(copy);
	return ret;
}

static int sw_digits(uint64_t v)
{
	int d = 1;

	while (v >= 10) {
		v /= 10;
		d++;
	}
	return d;
}

static int sw_hist_elide(const uint64_t *b, int i, int lo, int hi)
{
	int k;

	if (b[i])
		return 0;
	for (k = i - SW_HIST_ELISION; k <= i + SW_HIST_ELISION; k++)
		if (k >= lo && k <= hi && b[k])
			return 0;
	return 1;
}

/* floor(n * SW_HIST_BAR / max) for n <= max, without overflow. */
static unsigned int sw_bar_len(uint64_t n, uint64_t max)
{
#ifdef __SIZEOF_INT128__
	return (unsigned int)(((unsigned __int128)n * SW_HIST_BAR) / max);
#else
	long double r = (long double)n * SW_HIST_BAR / (long double)max;

	return (unsigned int)r;
#endif
}

int sw_hist_print(FILE *f, const char *probe, const struct sw_hist *h)
{
	char bar[SW_HIST_BAR + 1];
	int lo = -1, hi = -1, i, width;
	uint64_t maxc = 0;
	int elided = 0;

	fprintf(f, "%s: %s, %llu calls\n", probe, h->unit,
		(unsigned long long)h->calls);
	for (i = 0; i < SW_HIST_BUCKETS; i++) {
		if (!h->bucket[i])
			continue;
		if (lo < 0)
			lo = i;
		hi = i;
		if (h->bucket[i] > maxc)
			maxc = h->bucket[i];
	}
	memset(bar, '-', SW_HIST_BAR);
	bar[SW_HIST_BAR] = '\0';
	if (lo < 0) {
		fprintf(f, "%5s |%s count\n", "value", bar);
		return ferror(f) ? -EIO : 0;
	}
	lo = lo >= SW_HIST_ELISION ? lo - SW_HIST_ELISION : 0;
	hi = hi + SW_HIST_ELISION < SW_HIST_BUCKETS ? hi + SW_HIST_ELISION :
						      SW_HIST_BUCKETS - 1;
	width = sw_digits(sw_hist_low((unsigned int)hi));
	if (width < 5)
		width = 5;
	fprintf(f, "%*s |%s count\n", width, "value", bar);

	for (i = lo; i <= hi; i++) {
		unsigned int n;

		if (sw_hist_elide(h->bucket, i, lo, hi)) {
			if (!elided)
				fprintf(f, "%*s~\n", width + 1, "");
			elided = 1;
			continue;
		}
		elided = 0;
		n = sw_bar_len(h->bucket[i], maxc);
		if (h->bucket[i] && !n)
			n = 1;
		memset(bar, '@', n);
		memset(bar + n, ' ', SW_HIST_BAR - n);
		fprintf(f, "%*llu |%s %llu\n", width,
			(unsigned long long)sw_hist_low((unsigned int)i), bar,
			(unsigned long long)h->bucket[i]);
	}
	return ferror(f) ? -EIO : 0;
}
