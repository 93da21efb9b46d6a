/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utf8.h - UTF-8 validation for writers whose output must be valid UTF-8
 * (JSON, Prometheus) while their input (task names) may hold any bytes.
 */
#ifndef _SW_UTIL_UTF8_H
#define _SW_UTIL_UTF8_H

#include <stdio.h>

/**
 * sw_utf8_seq() - length of the valid UTF-8 sequence at @s.
 * @s: NUL-terminated bytes, *@s >= 0x80
 *
 * Refuses overlong forms, surrogates and code points above U+10FFFF.
 *
 * Return: 2, 3 or 4, or 0 when @s does not start a valid sequence.
 */
int sw_utf8_seq(const unsigned char *s);

/**
 * sw_fput_escaped() - write bytes for a terminal, as text.
 * @f: the stream
 * @s: NUL-terminated bytes (file content, arguments, ...)
 *
 * Newline, tab and valid UTF-8 characters go as they are; any other
 * control byte (ESC, CR, C1 controls), DEL and bytes that are not UTF-8
 * go as \xNN, so that a damaged file echoed in a message cannot drive
 * the terminal.
 */
void sw_fput_escaped(FILE *f, const char *s);

#endif /* _SW_UTIL_UTF8_H */
