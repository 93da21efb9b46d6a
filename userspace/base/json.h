/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json.h - the little JSON writing stopwatch needs.
 */
#ifndef _SW_UTIL_JSON_H
#define _SW_UTIL_JSON_H

#include <stdint.h>
#include <stdio.h>

/**
 * sw_json_str() - write @s as a quoted JSON string.
 * @f: output
 * @s: NUL-terminated bytes
 *
 * Escapes '"', '\\' and control characters; valid UTF-8 passes through;
 * a byte that is not part of valid UTF-8 is written as the code point of
 * the same value (\u0080-\u00ff), so the output is always valid JSON.
 */
void sw_json_str(FILE *f, const char *s);

/* Writes "@key": with @key escaped. */
void sw_json_key(FILE *f, const char *key);

/* Writes an unsigned integer exactly. */
void sw_json_u64(FILE *f, uint64_t v);

#endif /* _SW_UTIL_JSON_H */
