// SPDX-License-Identifier: GPL-2.0
/*
 * json.c - JSON string escaping.
 */
#include "base/json.h"
#include "base/utf8.h"

void sw_json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	while (*p) {
		unsigned char c = *p;
		int n;

		switch (c) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\b':
			fputs("\\b", f);
			break;
		case '\f':
			fputs("\\f", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (c < 0x20 || c == 0x7f) {
				fprintf(f, "\\u%04x", c);
			} else if (c < 0x80) {
				fputc(c, f);
			} else if ((n = sw_utf8_seq(p))) {
				fwrite(p, 1, (size_t)n, f);
				p += n;
				continue;
			} else {
				fprintf(f, "\\u%04x", c);
			}
		}
		p++;
	}
	fputc('"', f);
}

void sw_json_key(FILE *f, const char *key)
{
	sw_json_str(f, key);
	fputc(':', f);
}

void sw_json_u64(FILE *f, uint64_t v)
{
	fprintf(f, "%llu", (unsigned long long)v);
}
