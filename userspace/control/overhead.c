// SPDX-License-Identifier: GPL-2.0
/*
 * overhead.c - read the module's overhead file.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/table.h"
#include "control/debugfs.h"
#include "control/overhead.h"
#include "stopwatch/files.h"

/* The fixed cost of mechanism @name on the fixed_ns line @line, or 0. */
static uint64_t sw_overhead_fixed(const char *line, const char *name)
{
	size_t n = strlen(name);
	const char *p = line;

	while ((p = strstr(p, name))) {
		if (p[-1] == ' ' && p[n] == ' ')
			return strtoull(p + n + 1, NULL, 10);
		p += n;
	}
	return 0;
}

int sw_overhead_parse(const char *text, const char *what,
		      struct sw_overhead *o, struct sw_err *err)
{
	const char *head = text, *fixed;
	struct sw_table *t = NULL;
	int cpu, ns, runs, ret;
	size_t r;

	memset(o, 0, sizeof(*o));
	/* The table starts at the line that begins with its first column. */
	while (head && strncmp(head, "cpu ", 4))
		head = (head = strchr(head, '\n')) ? head + 1 : NULL;
	if (!head)
		return sw_err_set(err, -EINVAL, "%s: no table header ('cpu ...')",
				  what);
	fixed = strstr(text, SW_OVERHEAD_FIXED " ");
	if (fixed && fixed < head)
		o->fixed_kretprobe = sw_overhead_fixed(fixed, "kretprobe");
	ret = sw_table_parse(head, what, &t, err);
	if (ret)
		return ret;
	cpu = sw_table_col(t, "cpu");
	ns = sw_table_col(t, "total_ns");
	runs = sw_table_col(t, "total_runs");
	if (cpu < 0 || ns < 0 || runs < 0) {
		ret = sw_err_set(err, -EINVAL,
				 "%s: no cpu, total_ns or total_runs column", what);
		goto out;
	}
	for (r = 0; r < t->nrows; r++) {
		if (strcmp(sw_table_at(t, r, cpu), SW_OVERHEAD_ALL)) {
			o->ncpus++;
			continue;
		}
		if (sw_parse_u64(sw_table_at(t, r, ns), &o->total_ns) ||
		    sw_parse_u64(sw_table_at(t, r, runs), &o->total_runs)) {
			ret = sw_err_set(err, -EINVAL,
					 "%s: line %zu: not a number", what,
					 t->line[r]);
			goto out;
		}
		o->have = true;
	}
	if (!o->have)
		ret = sw_err_set(err, -EINVAL, "%s: no '%s' row", what,
				 SW_OVERHEAD_ALL);
out:
	sw_table_free(t);
	return ret;
}

int sw_overhead_read(const char *dir, struct sw_overhead *o,
		     struct sw_err *err)
{
	struct timespec ts;
	char *text = NULL;
	int ret;

	memset(o, 0, sizeof(*o));
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ret = sw_debugfs_read(dir, SW_FILE_OVERHEAD, &text, NULL, err);
	if (ret == -ENOENT)
		return 0;
	if (!ret)
		ret = sw_overhead_parse(text, SW_FILE_OVERHEAD, o, err);
	free(text);
	o->at = ts.tv_sec + ts.tv_nsec / 1e9;
	return ret;
}
