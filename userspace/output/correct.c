// SPDX-License-Identifier: GPL-2.0
/*
 * correct.c - latencies corrected for the probe (see correct.h).
 *
 * A measured call's time includes what the probe does between its entry
 * and exit clock reads (the rest of the entry handler, the way back into
 * the function, the return trampoline, the exit handler up to its clock
 * read): stopwatch.ko measures that once, at load, per attach mechanism,
 * and shows it per probe (window_ns).  A constant, it comes off the mean,
 * the minimum and each percentile; the maximum, the spread and the
 * histograms are left as measured.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/stats.h"
#include "output/correct.h"
#include "stopwatch/files.h"

/*
 * @p (NULL: none) less its window_ns in min, avg and the percentiles.
 * Return: that window_ns (0: left as measured).
 */
static uint64_t sw_correct_probe(struct sw_snapshot *s,
				 const struct sw_probe_stat *p)
{
	static const char *const cols[] = { SW_COL_MIN_NS, SW_COL_AVG_NS,
					    SW_COLS_PCT };
	int cw = sw_snapshot_col(s, SW_COL_WINDOW_NS), c;
	uint64_t win = p && cw >= 0 ? p->val[cw] : 0;
	size_t k;

	for (k = 0; win && k < sizeof(cols) / sizeof(cols[0]); k++) {
		c = sw_snapshot_col(s, cols[k]);
		if (c >= 0)
			p->val[c] = sw_stats_less_window(p->val[c], win);
	}
	return win;
}

void sw_correct_snapshot(struct sw_snapshot *s, char *const *ids, size_t n,
			 uint64_t *window)
{
	size_t j;

	for (j = 0; j < n; j++)
		window[j] = sw_correct_probe(s, sw_snapshot_probe(s, ids[j]));
}

uint64_t *sw_correct_all(struct sw_snapshot *s)
{
	uint64_t *window = calloc(s->nprobes ? s->nprobes : 1, sizeof(*window));
	size_t i;

	for (i = 0; window && i < s->nprobes; i++)
		window[i] = sw_correct_probe(s, &s->probe[i]);
	return window;
}

char **sw_correct_names(char *const *names, const uint64_t *window, size_t n)
{
	char **out = calloc(n ? n : 1, sizeof(*out));
	size_t j;

	if (!out)
		return NULL;
	for (j = 0; j < n; j++) {
		const char *mark = window[j] ? SW_CORRECT_MARK : SW_UNCAL_MARK;
		size_t len = strlen(names[j]);

		out[j] = malloc(len + strlen(mark) + 1);
		if (!out[j]) {
			sw_correct_names_free(out, j);
			return NULL;
		}
		memcpy(out[j], names[j], len);
		strcpy(out[j] + len, mark);
	}
	return out;
}

void sw_correct_names_free(char **names, size_t n)
{
	size_t j;

	if (!names)
		return;
	for (j = 0; j < n; j++)
		free(names[j]);
	free(names);
}

void sw_correct_fprint(FILE *f, char *const *names, const uint64_t *window,
		       size_t n)
{
	size_t j, ncorr = 0, nuncal = 0;
	bool same = true;
	uint64_t first = 0;

	for (j = 0; j < n; j++) {
		if (!window[j]) {
			nuncal++;
			continue;
		}
		if (ncorr++ && window[j] != first)
			same = false;
		if (ncorr == 1)
			first = window[j];
	}
	if (ncorr) {
		fputs("# " SW_CORRECT_MARK " corrected for the probe: ", f);
		if (same) {
			fprintf(f, "%llu ns", (unsigned long long)first);
		} else {
			for (j = 0, ncorr = 0; j < n; j++)
				if (window[j])
					fprintf(f, "%s%llu ns (%s)",
						ncorr++ ? ", " : "",
						(unsigned long long)window[j],
						names[j]);
		}
		fputs(" subtracted from min, avg and percentiles (the probe's in-window cost, calibrated at load; never below 0; max and histograms as measured)\n",
		      f);
	}
	if (nuncal) {
		fputs("# " SW_UNCAL_MARK " not corrected: ", f);
		for (j = 0, nuncal = 0; j < n; j++)
			if (!window[j])
				fprintf(f, "%s%s", nuncal++ ? ", " : "",
					names[j]);
		fputs(" (the probe's in-window cost was not calibrated: a trampoline or uprobe, calibrate=0, or an older module)\n",
		      f);
	}
}
