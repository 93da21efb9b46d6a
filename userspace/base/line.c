// SPDX-License-Identifier: GPL-2.0
/*
 * line.c - a text line put together in a buffer (line.h).
 */
#include <string.h>

#include "json.h"
#include "line.h"

void sw_line_mem(struct sw_line *l, const char *s, size_t len)
{
	if (l->n + len > SW_LINE_BUF) {
		sw_line_flush(l);
		if (len > SW_LINE_BUF) {
			fwrite(s, 1, len, l->f);
			return;
		}
	}
	memcpy(l->b + l->n, s, len);
	l->n += len;
}

void sw_line_pad(struct sw_line *l, char c, size_t count)
{
	while (count) {
		size_t k;

		if (l->n == SW_LINE_BUF)
			sw_line_flush(l);
		k = SW_LINE_BUF - l->n;
		if (k > count)
			k = count;
		memset(l->b + l->n, c, k);
		l->n += k;
		count -= k;
	}
}

/* @s (@len bytes) in @width: padded with spaces on the side @flags say. */
static void sw_line_field(struct sw_line *l, const char *s, size_t len,
			  size_t width, unsigned int flags)
{
	size_t pad = width > len ? width - len : 0;

	if (!(flags & SW_LINE_LEFT))
		sw_line_pad(l, ' ', pad);
	sw_line_mem(l, s, len);
	if (flags & SW_LINE_LEFT)
		sw_line_pad(l, ' ', pad);
}

void sw_line_str(struct sw_line *l, const char *s, size_t width,
		 unsigned int flags)
{
	sw_line_field(l, s, strlen(s), width, flags);
}

/* @v's decimal digits at the end of @end's buffer; returns the first. */
static char *sw_line_digits(char *end, uint64_t v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

void sw_line_u64(struct sw_line *l, uint64_t v, size_t width,
		 unsigned int flags)
{
	char buf[24], *p = sw_line_digits(buf + sizeof(buf), v);
	size_t len = (size_t)(buf + sizeof(buf) - p);

	if ((flags & SW_LINE_ZERO) && !(flags & SW_LINE_LEFT) && width > len) {
		sw_line_pad(l, '0', width - len);
		width = len;
	}
	sw_line_field(l, p, len, width, flags);
}

void sw_line_i64(struct sw_line *l, int64_t v)
{
	char buf[24], *p;

	/* the magnitude as unsigned: -INT64_MIN does not fit in int64_t */
	p = sw_line_digits(buf + sizeof(buf),
			   v < 0 ? -(uint64_t)v : (uint64_t)v);
	if (v < 0)
		*--p = '-';
	sw_line_mem(l, p, (size_t)(buf + sizeof(buf) - p));
}

void sw_line_x64(struct sw_line *l, uint64_t v, size_t width)
{
	static const char hex[] = "0123456789abcdef";
	char buf[24], *p = buf + sizeof(buf);

	do {
		*--p = hex[v & 15];
		v >>= 4;
	} while (v);
	sw_line_field(l, p, (size_t)(buf + sizeof(buf) - p), width, 0);
}

void sw_line_fixed(struct sw_line *l, uint64_t v, unsigned int places,
		   size_t width)
{
	char buf[48], *end = buf + sizeof(buf), *p = end;
	unsigned int i;

	for (i = 0; i < places; i++) {
		*--p = (char)('0' + v % 10);
		v /= 10;
	}
	if (places)
		*--p = '.';
	p = sw_line_digits(p, v);
	sw_line_field(l, p, (size_t)(end - p), width, 0);
}

void sw_line_json_str(struct sw_line *l, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; *p; p++)
		if (*p < 0x20 || *p >= 0x7f || *p == '"' || *p == '\\')
			break;
	if (*p) {
		/* escapes or UTF-8 to check: the full writer */
		sw_line_flush(l);
		sw_json_str(l->f, s);
		return;
	}
	sw_line_putc(l, '"');
	sw_line_mem(l, s, (size_t)(p - (const unsigned char *)s));
	sw_line_putc(l, '"');
}
