// SPDX-License-Identifier: GPL-2.0
/*
 * prom.c - helpers for the Prometheus text exposition format.
 */
#include <stdio.h>
#include <string.h>

#include "output/prom.h"
#include "base/utf8.h"

void sw_prom_label_value(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	while (*p) {
		size_t run = 0;
		int n;

		/* Plain ASCII goes out in runs. */
		while (p[run] >= 0x20 && p[run] < 0x80 && p[run] != '\\' &&
		       p[run] != '"')
			run++;
		if (run) {
			fwrite(p, 1, run, f);
			p += run;
			continue;
		}
		if (*p == '\\') {
			fputs("\\\\", f);
		} else if (*p == '"') {
			fputs("\\\"", f);
		} else if (*p == '\n') {
			fputs("\\n", f);
		} else if (*p < 0x80) {
			fputc(*p, f);
		} else if ((n = sw_utf8_seq(p))) {
			fwrite(p, 1, (size_t)n, f);
			p += n;
			continue;
		} else {
			fputc(0xc0 | (*p >> 6), f);
			fputc(0x80 | (*p & 0x3f), f);
		}
		p++;
	}
	fputc('"', f);
}

void sw_prom_family(FILE *f, const char *name, const char *type,
		    const char *help)
{
	sw_prom_family_fmt(f, name, type, help, false);
}

void sw_prom_family_fmt(FILE *f, const char *name, const char *type,
			const char *help, bool openmetrics)
{
	size_t len = strlen(name);

	/* OpenMetrics: a counter's family is named without "_total". */
	if (openmetrics && !strcmp(type, "counter") && len > 6 &&
	    !strcmp(name + len - 6, "_total"))
		len -= 6;
	fprintf(f, "# HELP %.*s ", (int)len, name);
	for (; *help; help++) {
		if (*help == '\\')
			fputs("\\\\", f);
		else if (*help == '\n')
			fputs("\\n", f);
		else
			fputc(*help, f);
	}
	fprintf(f, "\n# TYPE %.*s %s\n", (int)len, name, type);
}

char *sw_prom_name(char *out, size_t len, const char *pre, const char *s)
{
	size_t n = 0;
	const char *p;

	if (!len)
		return out;
	for (p = pre; *p && n + 1 < len; p++)
		out[n++] = *p;
	for (p = s; *p && n + 1 < len; p++) {
		char c = *p;
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 c == '_' || c == ':' || (n && c >= '0' && c <= '9');

		out[n++] = ok ? c : '_';
	}
	out[n] = '\0';
	return out;
}
