// SPDX-License-Identifier: GPL-2.0
/*
 * test_sampler.c - sw_sampler_counters(), the reader of the sampler
 * file's per-CPU counter table, on the files captured from the module
 * after a session of its sampler (fixtures/x86_64, fixtures/arm64:
 * scripts/capture-fixtures.sh).  The test reads each table itself too,
 * sums its per-CPU rows and holds the reader's "all" row against both;
 * copies of the real text without the kthrottled column (an older
 * module) and without the table (no session yet) are derived here.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "record/session.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_COLS 64

static const char *const arches[] = { "fixtures/x86_64", "fixtures/arm64" };

/* The counters sw_sampler_counters() returns, by column name. */
static const char *const names[] = {
	"taken", "written", "lost_full", "lost_nested", "lost_stack",
	"lost_throttled", "sb_lost", "kthrottled",
};

/*
 * The test's own reading of the table: the header's column names, the
 * per-CPU rows summed, the "all" row.  Every column but the first is a
 * decimal number; "queued" may be negative.
 */
struct table {
	size_t ncols;
	char col[MAX_COLS][32];
	long long sum[MAX_COLS];
	long long all[MAX_COLS];
	size_t ncpus;
	bool have_all;
};

/* The fields of @line (up to its newline) into @f; their count. */
static size_t fields(const char *line, char f[][32], size_t max)
{
	size_t n = 0, l;

	for (;;) {
		line += strspn(line, " \t");
		if (!*line || *line == '\n')
			return n;
		l = strcspn(line, " \t\n");
		assert_true(n < max && l < sizeof(f[0]));
		memcpy(f[n], line, l);
		f[n][l] = '\0';
		n++;
		line += l;
	}
}

static long long cell(const char *s)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || end == s || *end)
		fail_msg("'%s' is not a number", s);
	return v;
}

/* The start of the table's header line in @text, or NULL. */
static const char *header_line(const char *text)
{
	const char *l;

	for (l = text; l; l = strchr(l, '\n')) {
		if (*l == '\n')
			l++;
		if (!strncmp(l, "cpu ", 4))
			return l;
	}
	return NULL;
}

static void read_table(const char *text, struct table *t)
{
	const char *l = header_line(text);
	char f[MAX_COLS][32];
	long long prev = -1;
	size_t i, n;

	memset(t, 0, sizeof(*t));
	assert_non_null(l);
	t->ncols = fields(l, t->col, MAX_COLS);
	assert_true(t->ncols > 2);
	for (l = strchr(l, '\n'); l && l[1]; l = strchr(l, '\n')) {
		l++;
		n = fields(l, f, MAX_COLS);
		if (!n)
			continue;
		assert_int_equal(n, t->ncols);
		assert_false(t->have_all);	/* "all" is the last row */
		if (!strcmp(f[0], "all")) {
			for (i = 1; i < n; i++)
				t->all[i] = cell(f[i]);
			t->have_all = true;
			continue;
		}
		/* a CPU's row, in increasing order of CPU */
		assert_true(cell(f[0]) > prev);
		prev = cell(f[0]);
		for (i = 1; i < n; i++)
			t->sum[i] += cell(f[i]);
		t->ncpus++;
	}
	assert_true(t->have_all);
	assert_true(t->ncpus >= 1);
}

static int col_of(const struct table *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->ncols; i++)
		if (!strcmp(t->col[i], name))
			return (int)i;
	fail_msg("no column '%s' in the table", name);
	return -1;
}

/* What sw_sampler_counters() returned, in the order of names[]. */
static void returned(const struct sw_losses *c, uint64_t kthr, uint64_t *v)
{
	v[0] = c->taken;
	v[1] = c->written;
	v[2] = c->full;
	v[3] = c->nested;
	v[4] = c->stack;
	v[5] = c->throttled;
	v[6] = c->sideband;
	v[7] = kthr;
}

/*
 * The real files: the reader's values are the "all" row, which is the
 * sum of the CPUs' rows; samples were taken, and every one is written,
 * lost for a cause or still queued.
 */
static void test_real_files(void **state)
{
	uint64_t v[ARRAY_LEN(names)];
	size_t a, i;

	(void)state;
	for (a = 0; a < ARRAY_LEN(arches); a++) {
		char path[256], *text;
		struct sw_losses c;
		struct table t;
		uint64_t kthr = 12345;
		long long done;
		int k;

		snprintf(path, sizeof(path), "%s/sampler", arches[a]);
		text = read_text(path);
		read_table(text, &t);
		memset(&c, 0xa5, sizeof(c));
		assert_int_equal(sw_sampler_counters(text, strlen(text), &c,
						     &kthr), 0);
		returned(&c, kthr, v);
		for (i = 0; i < ARRAY_LEN(names); i++) {
			k = col_of(&t, names[i]);
			if ((long long)v[i] != t.all[k] ||
			    t.all[k] != t.sum[k])
				fail_msg("%s: %s: returned %llu, all row %lld, CPUs' sum %lld",
					 path, names[i],
					 (unsigned long long)v[i], t.all[k],
					 t.sum[k]);
		}
		/* every other counter and queued: the all row is the sum */
		for (i = 1; i < t.ncols; i++)
			if (strcmp(t.col[i], "error"))
				assert_true(t.all[i] == t.sum[i]);
		assert_true(c.taken > 0);
		done = t.all[col_of(&t, "written")] +
		       t.all[col_of(&t, "lost_full")] +
		       t.all[col_of(&t, "lost_nested")] +
		       t.all[col_of(&t, "lost_stack")] +
		       t.all[col_of(&t, "lost_throttled")] +
		       t.all[col_of(&t, "queued")];
		assert_true((long long)c.taken == done);
		free(text);
	}
}

/*
 * @text with column @name cut out of every line of the table: the field
 * and the blanks before it, the rest of each line as it was.
 */
static char *cut_column(const char *text, const char *name)
{
	const char *hdr = header_line(text), *l, *s, *e;
	char f[MAX_COLS][32];
	size_t n, k, i, len = strlen(text);
	char *out = malloc(len + 1), *o = out;

	assert_non_null(out);
	assert_non_null(hdr);
	n = fields(hdr, f, MAX_COLS);
	for (k = 0; k < n && strcmp(f[k], name); k++)
		;
	assert_true(k > 0 && k < n);
	memcpy(o, text, (size_t)(hdr - text));
	o += hdr - text;
	for (l = hdr; *l; l = e) {
		e = strchr(l, '\n');
		e = e ? e + 1 : l + strlen(l);
		if (fields(l, f, MAX_COLS) != n) {
			memcpy(o, l, (size_t)(e - l));
			o += e - l;
			continue;
		}
		/* s: the blanks before field k; after them, the field */
		for (s = l, i = 0; i <= k; i++) {
			const char *b = s;

			s += strspn(s, " \t");
			if (i == k) {
				s = b;
				break;
			}
			s += strcspn(s, " \t\n");
		}
		memcpy(o, l, (size_t)(s - l));
		o += s - l;
		s += strspn(s, " \t");
		s += strcspn(s, " \t\n");
		memcpy(o, s, (size_t)(e - s));
		o += e - s;
	}
	*o = '\0';
	return out;
}

/*
 * A module without the kthrottled column: the same files with it cut out
 * read as before, kthrottled 0.
 */
static void test_without_kthrottled(void **state)
{
	size_t a;

	(void)state;
	for (a = 0; a < ARRAY_LEN(arches); a++) {
		char path[256], *text, *cut;
		struct sw_losses c, c0;
		struct table t, t0;
		uint64_t kthr = 12345, kthr0;
		size_t i;

		snprintf(path, sizeof(path), "%s/sampler", arches[a]);
		text = read_text(path);
		cut = cut_column(text, "kthrottled");
		assert_non_null(strstr(text, " kthrottled "));
		assert_null(strstr(cut, "kthrottled"));
		/* only the column went: the table reads, one column fewer */
		read_table(text, &t0);
		read_table(cut, &t);
		assert_int_equal(t.ncols, t0.ncols - 1);
		assert_int_equal(t.ncpus, t0.ncpus);
		memset(&c0, 0, sizeof(c0));
		assert_int_equal(sw_sampler_counters(text, strlen(text), &c0,
						     &kthr0), 0);
		memset(&c, 0, sizeof(c));
		assert_int_equal(sw_sampler_counters(cut, strlen(cut), &c,
						     &kthr), 0);
		assert_true(kthr == 0);
		assert_true(c.taken == c0.taken && c.written == c0.written &&
			    c.full == c0.full && c.nested == c0.nested &&
			    c.stack == c0.stack &&
			    c.throttled == c0.throttled &&
			    c.sideband == c0.sideband);
		for (i = 1; i < t.ncols; i++)
			assert_true(t.all[i] == t0.all[col_of(&t0, t.col[i])]);
		/* kthrottled not wanted (NULL): the same */
		memset(&c, 0, sizeof(c));
		assert_int_equal(sw_sampler_counters(cut, strlen(cut), &c,
						     NULL), 0);
		assert_true(c.taken == c0.taken);
		free(cut);
		free(text);
	}
}

/*
 * No session yet: the file's first two lines, without the table, are
 * refused, as a copy and as the real text cut short by the length.
 */
static void test_no_table(void **state)
{
	size_t a;

	(void)state;
	for (a = 0; a < ARRAY_LEN(arches); a++) {
		char path[256], *text, *two;
		struct sw_losses c;
		uint64_t kthr;
		size_t len;

		snprintf(path, sizeof(path), "%s/sampler", arches[a]);
		text = read_text(path);
		/* the length of the first two lines, newlines included */
		len = strcspn(text, "\n");
		assert_true(text[len] == '\n');
		len += 1 + strcspn(text + len + 1, "\n");
		assert_true(text[len] == '\n');
		len++;
		two = strndup(text, len);
		assert_non_null(two);
		assert_int_equal(strncmp(two, "state ", 6), 0);
		assert_non_null(strstr(two, "\nbuffers "));
		assert_int_equal(sw_sampler_counters(two, strlen(two), &c,
						     &kthr), -EINVAL);
		assert_int_equal(sw_sampler_counters(text, len, &c, &kthr),
				 -EINVAL);
		free(two);
		free(text);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_files),
		cmocka_unit_test(test_without_kthrottled),
		cmocka_unit_test(test_no_table),
	};

	return cmocka_run_group_tests_name("sampler", tests, NULL, NULL);
}
