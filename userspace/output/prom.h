/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prom.h - helpers for the Prometheus text exposition format (0.0.4).
 */
#ifndef _SW_UTIL_PROM_H
#define _SW_UTIL_PROM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/**
 * sw_prom_label_value() - write a label value, quotes included.
 * @f: output
 * @s: the value
 *
 * Escapes '\\', '"' and newline as the format requires.  The format wants
 * UTF-8: a byte that is not part of valid UTF-8 is written as the UTF-8
 * encoding of the code point of the same value.
 */
void sw_prom_label_value(FILE *f, const char *s);

/**
 * sw_prom_family() - write the "# HELP" and "# TYPE" lines of a family.
 * @f:    output
 * @name: metric name
 * @type: "counter", "gauge", "histogram", ...
 * @help: help text; '\\' and newline are escaped
 */
void sw_prom_family(FILE *f, const char *name, const char *type,
		    const char *help);

/**
 * sw_prom_name() - turn @s into a valid metric or label name part.
 * @out: output buffer
 * @len: its size
 * @pre: prefix written first (e.g. "stopwatch_"), may be ""
 * @s:   the name to clean up: characters outside [a-zA-Z0-9_:] become '_'
 *
 * Return: @out.
 */
/**
 * sw_prom_family_fmt() - sw_prom_family() in either format.
 * @openmetrics: OpenMetrics 1.0: a counter's family name is @name without
 *               its "_total" suffix (the samples keep it)
 */
void sw_prom_family_fmt(FILE *f, const char *name, const char *type,
			const char *help, bool openmetrics);

char *sw_prom_name(char *out, size_t len, const char *pre, const char *s);

#endif /* _SW_UTIL_PROM_H */
