// SPDX-License-Identifier: GPL-2.0
/*
 * test_columns.c - the tables' columns as include/stopwatch/files.h
 * declares them, held against the first lines of the files captured from
 * the module (fixtures/x86_64, fixtures/arm64: scripts/capture-fixtures.sh).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "stopwatch/files.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_COLS 128

static const char *const arches[] = { "fixtures/x86_64", "fixtures/arm64" };

/* The first line of DIR/FILE split at white space into @col; the count. */
static size_t header(const char *dir, const char *file, char *line,
		     size_t len, char **col)
{
	char path[256];
	size_t n = 0;
	char *save = NULL, *t;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, (int)len, f));
	fclose(f);
	for (t = strtok_r(line, " \t\n", &save); t && n < MAX_COLS;
	     t = strtok_r(NULL, " \t\n", &save))
		col[n++] = t;
	return n;
}

static int ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);

	return a > b && !strcmp(s + a - b, tail);
}

/*
 * stats: the head, four columns an event (each of SW_COLS_EVENT after the
 * event's name), cpi_* when it has them, the tail; and the events named
 * are the keys file's, one <event>_avg each after its head.
 */
static void test_stats_and_keys(void **state)
{
	static const char *const head[] = { SW_COLS_STATS_HEAD };
	static const char *const ev[] = { SW_COLS_EVENT };
	static const char *const cpi[] = { SW_COLS_CPI };
	static const char *const tail[] = { SW_COLS_STATS_TAIL };
	static const char *const khead[] = { SW_COLS_KEYS_HEAD };
	char line[4096], kline[4096], *col[MAX_COLS], *kcol[MAX_COLS];
	size_t a, n, kn, i, k, at, nev;

	(void)state;
	for (a = 0; a < ARRAY_LEN(arches); a++) {
		n = header(arches[a], SW_FILE_STATS, line, sizeof(line), col);
		assert_true(n >= ARRAY_LEN(head) + ARRAY_LEN(tail));
		for (i = 0; i < ARRAY_LEN(head); i++)
			assert_string_equal(col[i], head[i]);
		for (i = 0; i < ARRAY_LEN(tail); i++)
			assert_string_equal(col[n - ARRAY_LEN(tail) + i], tail[i]);
		at = ARRAY_LEN(head);
		nev = 0;
		while (at + ARRAY_LEN(ev) <= n - ARRAY_LEN(tail) &&
		       ends_with(col[at], ev[0])) {
			size_t l = strlen(col[at]) - strlen(ev[0]);

			for (k = 0; k < ARRAY_LEN(ev); k++) {
				assert_int_equal(strncmp(col[at + k], col[at], l), 0);
				assert_string_equal(col[at + k] + l, ev[k]);
			}
			at += ARRAY_LEN(ev);
			nev++;
		}
		assert_true(nev > 0);	/* the fixtures are captured with events */
		if (at < n - ARRAY_LEN(tail)) {
			for (k = 0; k < ARRAY_LEN(cpi); k++)
				assert_string_equal(col[at + k], cpi[k]);
			at += ARRAY_LEN(cpi);
		}
		assert_int_equal(at, n - ARRAY_LEN(tail));

		kn = header(arches[a], SW_FILE_KEYS, kline, sizeof(kline), kcol);
		assert_int_equal(kn, ARRAY_LEN(khead) + nev);
		for (i = 0; i < ARRAY_LEN(khead); i++)
			assert_string_equal(kcol[i], khead[i]);
		for (i = 0; i < nev; i++) {
			const char *s = col[ARRAY_LEN(head) + i * ARRAY_LEN(ev)];
			size_t l = strlen(s) - strlen(ev[0]);

			assert_int_equal(strncmp(kcol[ARRAY_LEN(khead) + i], s, l), 0);
			assert_string_equal(kcol[ARRAY_LEN(khead) + i] + l,
					    SW_COL_EV_AVG);
		}
	}
}

/* breakdown_stats: the probe, the breakdown mode's name, the timing. */
static void test_breakdown_stats(void **state)
{
	static const char *const timing[] = { SW_COLS_TIMING };
	char line[4096], mode[64], *col[MAX_COLS];
	size_t a, n, i;

	(void)state;
	for (a = 0; a < ARRAY_LEN(arches); a++) {
		char *m[MAX_COLS];

		assert_int_equal(header(arches[a], SW_FILE_BREAKDOWN, mode,
					sizeof(mode), m), 1);
		n = header(arches[a], SW_FILE_BREAKDOWN_STATS, line,
			   sizeof(line), col);
		assert_int_equal(n, 2 + ARRAY_LEN(timing));
		assert_string_equal(col[0], SW_COL_PROBE);
		assert_string_equal(col[1], m[0]);
		for (i = 0; i < ARRAY_LEN(timing); i++)
			assert_string_equal(col[2 + i], timing[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats_and_keys),
		cmocka_unit_test(test_breakdown_stats),
	};

	return cmocka_run_group_tests_name("columns", tests, NULL, NULL);
}
