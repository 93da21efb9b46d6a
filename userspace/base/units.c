// SPDX-License-Identifier: GPL-2.0
/*
 * units.c - formatting nanosecond counts and fixed-point values.
 */
#include <stdio.h>
#include <string.h>

#include "base/units.h"

#define SW_NS_PER_S 1000000000ULL

char *sw_fmt_seconds(char *buf, uint64_t ns)
{
	uint64_t s = ns / SW_NS_PER_S, frac = ns % SW_NS_PER_S;
	int len;

	if (!frac) {
		snprintf(buf, SW_UNITS_LEN, "%llu", (unsigned long long)s);
		return buf;
	}
	len = snprintf(buf, SW_UNITS_LEN, "%llu.%09llu", (unsigned long long)s,
		       (unsigned long long)frac);
	while (len > 0 && buf[len - 1] == '0')
		buf[--len] = '\0';
	return buf;
}

char *sw_fmt_fixed(char *buf, uint64_t v, unsigned int places)
{
	uint64_t div = 1;
	unsigned int i;

	for (i = 0; i < places; i++)
		div *= 10;
	if (!places)
		snprintf(buf, SW_UNITS_LEN, "%llu", (unsigned long long)v);
	else
		snprintf(buf, SW_UNITS_LEN, "%llu.%0*llu",
			 (unsigned long long)(v / div), (int)places,
			 (unsigned long long)(v % div));
	return buf;
}

/*
 * Three significant digits in the largest of @unit (ns, then thousands)
 * that keeps the value under 1000; beyond 999 s the seconds grow
 * ("1234 s").  "%.2f" of 9.996 is "10.00", hence the steps at x.995.
 */
static char *sw_fmt_scaled(char *buf, uint64_t ns,
			   const char *const unit[4])
{
	double v = (double)ns;
	unsigned int u = 0;

	if (ns < 1000) {
		snprintf(buf, SW_UNITS_LEN, "%llu ns", (unsigned long long)ns);
		return buf;
	}
	while (u < 3 && v >= 999.5) {
		v /= 1000;
		u++;
	}
	if (v < 9.995)
		snprintf(buf, SW_UNITS_LEN, "%.2f %s", v, unit[u]);
	else if (v < 99.95)
		snprintf(buf, SW_UNITS_LEN, "%.1f %s", v, unit[u]);
	else
		snprintf(buf, SW_UNITS_LEN, "%.0f %s", v, unit[u]);
	return buf;
}

char *sw_fmt_human_ns(char *buf, uint64_t ns)
{
	static const char *const unit[] = { "ns", "us", "ms", "s" };

	return sw_fmt_scaled(buf, ns, unit);
}

char *sw_fmt_count(char *buf, uint64_t v)
{
	char digits[24];
	int n = snprintf(digits, sizeof(digits), "%llu", (unsigned long long)v);
	int i, o = 0;

	for (i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}

char *sw_fmt_dur(char *buf, uint64_t ns)
{
	/* Aligned in tables: "s " is as wide as the others. */
	static const char *const unit[] = { "ns", "\xc2\xb5s", "ms", "s " };

	return sw_fmt_scaled(buf, ns, unit);
}
