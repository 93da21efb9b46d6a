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
