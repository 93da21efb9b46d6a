// SPDX-License-Identifier: GPL-2.0
/*
 * utf8.c - UTF-8 validation.
 */
#include "base/utf8.h"

static int sw_cont(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

int sw_utf8_seq(const unsigned char *s)
{
	unsigned char c = s[0];

	if (c >= 0xc2 && c <= 0xdf)
		return sw_cont(s[1]) ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		if (!sw_cont(s[1]) || !sw_cont(s[2]))
			return 0;
		if (c == 0xe0 && s[1] < 0xa0)
			return 0;	/* overlong */
		if (c == 0xed && s[1] > 0x9f)
			return 0;	/* surrogate */
		return 3;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		if (!sw_cont(s[1]) || !sw_cont(s[2]) || !sw_cont(s[3]))
			return 0;
		if (c == 0xf0 && s[1] < 0x90)
			return 0;	/* overlong */
		if (c == 0xf4 && s[1] > 0x8f)
			return 0;	/* above U+10FFFF */
		return 4;
	}
	return 0;
}

void sw_fput_escaped(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int n;

	while (*p) {
		if (*p == '\n' || *p == '\t' || (*p >= 0x20 && *p < 0x7f)) {
			fputc(*p++, f);
			continue;
		}
		n = *p >= 0x80 ? sw_utf8_seq(p) : 0;
		/* U+0080..U+009F are the C1 controls. */
		if (n && !(n == 2 && p[0] == 0xc2 && p[1] < 0xa0)) {
			fwrite(p, 1, (size_t)n, f);
			p += n;
			continue;
		}
		fprintf(f, "\\x%02x", *p++);
	}
}
