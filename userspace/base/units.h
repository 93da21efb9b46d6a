/* SPDX-License-Identifier: GPL-2.0 */
/*
 * units.h - formatting nanosecond counts and fixed-point values.
 */
#ifndef _SW_UTIL_UNITS_H
#define _SW_UTIL_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* Longest output of the formatters below, with the NUL. */
#define SW_UNITS_LEN 32

/**
 * sw_fmt_seconds() - @ns nanoseconds as an exact decimal number of seconds.
 * @buf: at least SW_UNITS_LEN bytes
 * @ns:  nanoseconds
 *
 * No rounding, no exponent, no trailing zeros: 1024 -> "0.000001024",
 * 1500000000 -> "1.5", 0 -> "0".
 *
 * Return: @buf.
 */
char *sw_fmt_seconds(char *buf, uint64_t ns);

/**
 * sw_fmt_fixed() - a fixed-point value as the module prints it.
 * @buf:    at least SW_UNITS_LEN bytes
 * @v:      the value times 10^@places
 * @places: decimal places, at most 9 (0 prints an integer)
 *
 * 1250, 3 -> "1.250"; 7, 3 -> "0.007"; 42, 0 -> "42".
 *
 * Return: @buf.
 */
char *sw_fmt_fixed(char *buf, uint64_t v, unsigned int places);

/**
 * sw_fmt_human_ns() - @ns with a unit and three significant digits.
 * @buf: at least SW_UNITS_LEN bytes
 * @ns:  nanoseconds
 *
 * 812 -> "812 ns", 2301 -> "2.30 us", 90211 -> "90.2 us",
 * 283023 -> "283 us", 1500000000 -> "1.50 s".
 *
 * Return: @buf.
 */
char *sw_fmt_human_ns(char *buf, uint64_t ns);

/**
 * sw_fmt_count() - @v with a comma between groups of three digits.
 * @buf: at least SW_UNITS_LEN bytes
 * @v:   the count
 *
 * 0 -> "0", 1234 -> "1,234", 20000000 -> "20,000,000".
 *
 * Return: @buf.
 */
char *sw_fmt_count(char *buf, uint64_t v);

/**
 * sw_fmt_dur() - @ns scaled to ns, µs, ms or s, three significant digits,
 * for columns: the unit takes two columns ("s" is followed by a blank),
 * so that right-aligned cells line their units up.
 * @buf: at least SW_UNITS_LEN bytes
 * @ns:  nanoseconds
 *
 * 812 -> "812 ns", 2301 -> "2.30 µs", 90211 -> "90.2 µs",
 * 1500000000 -> "1.50 s ", 0 -> "0 ns".
 *
 * Return: @buf.
 */
char *sw_fmt_dur(char *buf, uint64_t ns);

#endif /* _SW_UTIL_UNITS_H */
