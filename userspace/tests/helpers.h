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

/*
 * Compares @out with golden/@name, failing the test when they differ;
 * with SW_REGEN_GOLDEN set, writes @out there instead.
 */
static inline void assert_golden(const char *name, const char *out)
{
	char path[128];
	char *want;

	snprintf(path, sizeof(path), "golden/%s", name);
	if (getenv("SW_REGEN_GOLDEN")) {
		FILE *f = fopen(path, "w");

		assert_non_null(f);
		fputs(out, f);
		assert_int_equal(fclose(f), 0);
		return;
	}
	want = read_text(path);
	assert_string_equal(out, want);
	free(want);
}

/* The symbin programs' directory (make test sets SW_SYMBIN). */
static inline const char *symbin(void)
{
	const char *d = getenv("SW_SYMBIN");

	if (!d)
		fail_msg("SW_SYMBIN is not set (make test sets it)");
	return d;
}

/* Address of @sym in an nm listing of @file. */
static inline uint64_t nm_addr(const char *file, const char *sym)
{
	char *path = NULL, line[512], name[256], type;
	unsigned long long a;
	uint64_t found = 0;
	FILE *f;

	assert_true(asprintf(&path, "%s/%s.nm", symbin(), file) > 0);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &a, &type, name) == 3 &&
		    !strcmp(name, sym))
			found = a;
	fclose(f);
	free(path);
	assert_true(found != 0);
	return found;
}

/* The file offset of virtual address @vaddr of @path (program headers). */
#endif /* _SW_TESTS_HELPERS_H */
