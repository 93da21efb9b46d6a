// SPDX-License-Identifier: GPL-2.0
/*
 * hist.c - the sections of hist/<probe> files, read and printed with
 * lib/stats.c's parser and printer.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "control/hist.h"
#include "base/table.h"

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

/* Appends an empty section to @set; NULL when out of memory. */
static struct sw_hist *sw_hist_add(struct sw_hist_set *set, size_t *cap)
{
	struct sw_hist *nh;

	if (set->n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 2;

		nh = realloc(set->hist, ncap * sizeof(*nh));
		if (!nh)
			return NULL;
		set->hist = nh;
		*cap = ncap;
	}
	nh = &set->hist[set->n++];
	memset(nh, 0, sizeof(*nh));
	return nh;
}

/* A new section titled as @r says: checks what lib/stats.c cannot know. */
static int sw_hist_section(struct sw_hist_set *set,
			   const struct sw_hist_reader *r, const char *what,
			   size_t lineno, struct sw_err *err)
{
	struct sw_hist *h;

	if (sw_hist_find(set, r->unit))
		return sw_err_set(err, -EINVAL,
				  "%s: line %zu: second '%s' histogram", what,
				  lineno, r->unit);
	h = sw_hist_add(set, &set->cap);
	if (!h)
		return sw_err_set(err, -ENOMEM, "out of memory");
	strcpy(h->unit, r->unit);
	h->calls = r->calls;
	h->has_row = r->has_row;
	h->has_pct = r->has_pct;
	memcpy(h->row, r->row, sizeof(h->row));
	return 0;
}

int sw_hist_parse_each(const char *text, const char *what,
		       sw_hist_set_of_fn set_of, void *ctx, struct sw_err *err)
{
	struct sw_hist_reader r;
	struct sw_hist_set *set;
	const char *line, *nl;
	size_t lineno = 0, len;
	int ret = 0;

	sw_hist_reader_init(&r);
	for (line = text; *line; line = nl ? nl + 1 : line + len) {
		nl = strchr(line, '\n');
		len = nl ? (size_t)(nl - line) : strlen(line);
		lineno++;
		ret = sw_hist_read_line(&r, line, len);
		if (ret == -EINVAL) {
			while (len && isspace((unsigned char)line[len - 1]))
				len--;
			while (len && isspace((unsigned char)*line)) {
				line++;
				len--;
			}
			return sw_err_set(err, ret, "%s: line %zu: %s: '%.*s'",
					  what, lineno, r.why, (int)len, line);
		}
		if (ret != SW_HIST_TITLE)
			continue;
		r.buckets = NULL;
		ret = set_of(ctx, r.probe, r.probe_len, &set, what, lineno,
			     err);
		if (ret)
			return ret;
		if (!set)
			continue;
		ret = sw_hist_section(set, &r, what, lineno, err);
		if (ret)
			return ret;
		r.buckets = set->hist[set->n - 1].bucket;
	}
	ret = sw_hist_read_end(&r);
	if (ret == -ENODATA)
		return sw_err_set(err, ret, "%s: empty: no histogram", what);
	if (ret)
		return sw_err_set(err, ret, "%s: line %zu: %s", what, lineno,
				  r.why);
	return 0;
}

int sw_lhist_parse_each(const char *text, const char *what,
			sw_lhist_of_fn lin_of, void *ctx, struct sw_err *err)
{
	struct sw_lhist_reader r;
	const char *line, *nl;
	size_t lineno = 0, len;
	int ret;

	sw_lhist_reader_init(&r);
	for (line = text; *line; line = nl ? nl + 1 : line + len) {
		nl = strchr(line, '\n');
		len = nl ? (size_t)(nl - line) : strlen(line);
		lineno++;
		ret = sw_lhist_read_line(&r, line, len);
		if (ret == -EINVAL) {
			while (len && isspace((unsigned char)line[len - 1]))
				len--;
			return sw_err_set(err, ret, "%s: line %zu: %s: '%.*s'",
					  what, lineno, r.why, (int)len, line);
		}
		if (ret != SW_HIST_TITLE)
			continue;
		ret = lin_of(ctx, &r, &r.buckets, err);
		if (ret)
			return ret;
	}
	ret = sw_lhist_read_end(&r);
	if (ret == -ENODATA)
		return 0;
	if (ret)
		return sw_err_set(err, ret, "%s: line %zu: %s", what, lineno,
				  r.why);
	return 0;
}

/* sw_hist_parse(): every title names the one probe. */
struct sw_hist_one {
	const char *probe;
	struct sw_hist_set *set;
};

static int sw_hist_one_set(void *ctx, const char *probe, size_t len,
			   struct sw_hist_set **set, const char *what,
			   size_t lineno, struct sw_err *err)
{
	struct sw_hist_one *o = ctx;

	*set = o->set;
	if (!o->probe ||
	    (strlen(o->probe) == len && !memcmp(o->probe, probe, len)))
		return 0;
	return sw_err_set(err, -EINVAL,
			  "%s: line %zu: title names probe '%.*s', expected '%s'",
			  what, lineno, (int)len, probe, o->probe);
}

int sw_hist_parse(const char *text, const char *probe, const char *what,
		  struct sw_hist_set **out, struct sw_err *err)
{
	struct sw_hist_one o = { .probe = probe };
	int ret;

	*out = NULL;
	o.set = calloc(1, sizeof(*o.set));
	if (!o.set)
		return sw_err_set(err, -ENOMEM, "out of memory");
	ret = sw_hist_parse_each(text, what, sw_hist_one_set, &o, err);
	if (ret) {
		sw_hist_set_free(o.set);
		return ret;
	}
	*out = o.set;
	return 0;
}

/* lib/stats.c's output sink, writing to a FILE. */
static void sw_hist_emit(void *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void sw_hist_emit(void *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(ctx, fmt, ap);
	va_end(ap);
}

int sw_hist_fprint(FILE *f, const char *probe, const struct sw_hist *h)
{
	fprintf(f, SW_HIST_TITLE_FMT, probe, h->unit,
		(unsigned long long)h->calls);
	sw_hist_print(h->bucket, SW_HIST_BUCKETS, sw_hist_emit, f);
	return ferror(f) ? -EIO : 0;
}
