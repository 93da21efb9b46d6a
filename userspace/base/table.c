// SPDX-License-Identifier: GPL-2.0
/*
 * table.c - whitespace-separated tables with a header line.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/parse.h"
#include "base/table.h"
#include "lib/events.h"

#define SW_WS " \t\r\v\f"

void sw_table_free(struct sw_table *t)
{
	if (!t)
		return;
	free(t->col);
	free(t->cell);
	free(t->line);
	free(t->text);
	free(t);
}

/* Splits @line in place; returns the number of fields, storing at most @max. */
static size_t sw_split(char *line, char **field, size_t max)
{
	size_t n = 0;
	char *save = NULL, *tok;

	for (tok = strtok_r(line, SW_WS, &save); tok;
	     tok = strtok_r(NULL, SW_WS, &save)) {
		if (n < max)
			field[n] = tok;
		n++;
	}
	return n;
}

static size_t sw_count_fields(const char *line)
{
	size_t n = 0;
	int in = 0;

	for (; *line; line++) {
		int ws = strchr(SW_WS, *line) != NULL;

		if (!ws && !in)
			n++;
		in = !ws;
	}
	return n;
}

size_t sw_table_split_row(char *line, char **field, size_t n)
{
	size_t got = sw_count_fields(line);

	if (got == n)
		sw_split(line, field, n);
	return got;
}

/* Next line of *@pos, NUL-terminated in place, or NULL at the end. */
static char *sw_next_line(char **pos)
{
	char *s = *pos, *nl;

	if (!s || !*s)
		return NULL;
	nl = strchr(s, '\n');
	if (nl) {
		*nl = '\0';
		*pos = nl + 1;
	} else {
		*pos = s + strlen(s);
	}
	return s;
}

static int sw_blank(const char *s)
{
	return s[strspn(s, SW_WS)] == '\0';
}

int sw_table_parse(const char *text, const char *what, struct sw_table **out,
		   struct sw_err *err)
{
	struct sw_table *t;
	size_t lineno = 0, cap = 0, i, j, n;
	char *pos, *line;
	int ret;

	*out = NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return sw_err_set(err, -ENOMEM, "out of memory");
	t->text = strdup(text);
	if (!t->text) {
		ret = sw_err_set(err, -ENOMEM, "out of memory");
		goto cleanup;
	}
	pos = t->text;

	/* Header: the first non-blank line. */
	do {
		line = sw_next_line(&pos);
		lineno++;
	} while (line && sw_blank(line));
	if (!line) {
		ret = sw_err_set(err, -ENODATA,
				 "%s: empty: missing the header line", what);
		goto cleanup;
	}
	t->ncols = sw_count_fields(line);
	t->col = calloc(t->ncols, sizeof(*t->col));
	if (!t->col) {
		ret = sw_err_set(err, -ENOMEM, "out of memory");
		goto cleanup;
	}
	sw_split(line, t->col, t->ncols);
	for (i = 0; i < t->ncols; i++)
		for (j = 0; j < i; j++)
			if (!strcmp(t->col[i], t->col[j])) {
				ret = sw_err_set(err, -EINVAL,
						 "%s: line %zu: column '%s' appears twice in the header",
						 what, lineno, t->col[i]);
				goto cleanup;
			}

	while ((line = sw_next_line(&pos))) {
		lineno++;
		if (sw_blank(line))
			continue;
		n = sw_count_fields(line);
		if (n != t->ncols) {
			ret = sw_err_set(err, -EINVAL,
					 "%s: line %zu: %zu fields where the header has %zu: '%s'",
					 what, lineno, n, t->ncols,
					 line + strspn(line, SW_WS));
			goto cleanup;
		}
		if (t->nrows == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			char **cell = realloc(t->cell, ncap * t->ncols *
						       sizeof(*cell));
			size_t *lines;

			if (!cell) {
				ret = sw_err_set(err, -ENOMEM, "out of memory");
				goto cleanup;
			}
			t->cell = cell;
			lines = realloc(t->line, ncap * sizeof(*lines));
			if (!lines) {
				ret = sw_err_set(err, -ENOMEM, "out of memory");
				goto cleanup;
			}
			t->line = lines;
			cap = ncap;
		}
		sw_split(line, t->cell + t->nrows * t->ncols, t->ncols);
		t->line[t->nrows++] = lineno;
	}
	*out = t;
	return 0;

cleanup:
	sw_table_free(t);
	return ret;
}

int sw_table_col(const struct sw_table *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->ncols; i++)
		if (!strcmp(t->col[i], name))
			return (int)i;
	return -1;
}

int sw_parse_u64(const char *s, uint64_t *v)
{
	size_t n = strlen(s);

	/* The module's number parser; a bad digit is EINVAL, more than
	 * 64 bits ERANGE.
	 */
	if (!n || strspn(s, "0123456789") != n)
		return -EINVAL;
	return sw_parse_number(s, n, 10, v) ? -ERANGE : 0;
}

int sw_parse_fixed(const char *s, uint64_t *v, unsigned int *places)
{
	const char *dot = strchr(s, '.');
	uint64_t ip, fp = 0;
	char whole[24];
	unsigned int n = 0;
	size_t len;
	int ret;

	if (!dot) {
		*places = 0;
		return sw_parse_u64(s, v);
	}
	len = (size_t)(dot - s);
	if (!len || len >= sizeof(whole) || !dot[1] ||
	    strlen(dot + 1) > SW_FIXED_MAX_PLACES)
		return -EINVAL;
	memcpy(whole, s, len);
	whole[len] = '\0';
	ret = sw_parse_u64(whole, &ip);
	if (!ret)
		ret = sw_parse_u64(dot + 1, &fp);
	if (ret)
		return ret;
	for (n = 0; dot[1 + n]; n++)
		if (__builtin_mul_overflow(ip, 10, &ip))
			return -ERANGE;
	if (__builtin_add_overflow(ip, fp, v))
		return -ERANGE;
	*places = n;
	return 0;
}

static int sw_isodigit(char c)
{
	return c >= '0' && c <= '7';
}

char *sw_unescape_octal(const char *s)
{
	char *out = malloc(strlen(s) + 1), *o = out;

	if (!out)
		return NULL;
	while (*s) {
		if (s[0] == '\\' && sw_isodigit(s[1]) && sw_isodigit(s[2]) &&
		    sw_isodigit(s[3]) && s[1] <= '3') {
			*o++ = (char)(((s[1] - '0') << 6) | ((s[2] - '0') << 3) |
				      (s[3] - '0'));
			s += 4;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
	return out;
}
