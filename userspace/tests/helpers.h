/* SPDX-License-Identifier: GPL-2.0 */
/*
 * helpers.h - shared bits of the userspace unit tests.
 *
 * The tests run with tests/ as the working directory, so fixtures are
 * "fixtures/<name>".
 */
#ifndef _SW_TESTS_HELPERS_H
#define _SW_TESTS_HELPERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* Runs @stmt with "f" writing into a string, then stores it in @out. */
#define CAPTURE(out, stmt)                                              \
	do {                                                            \
		size_t _len;                                            \
		FILE *f = open_memstream(&(out), &_len);                \
		assert_non_null(f);                                     \
		stmt;                                                   \
		assert_int_equal(fclose(f), 0);                         \
	} while (0)

/* Reads a whole file, failing the test when it cannot. */
static inline char *read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;

	if (!f)
		fail_msg("cannot open %s", path);
	n = getdelim(&buf, &cap, '\0', f);
	fclose(f);
	if (n < 0) {
		free(buf);
		buf = strdup("");
	}
	return buf;
}

#endif /* _SW_TESTS_HELPERS_H */
