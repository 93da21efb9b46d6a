/* SPDX-License-Identifier: GPL-2.0 */
/*
 * snapshot.h - one reading of the stopwatch debugfs files: the stats table,
 * each probe's histograms and, on request, the breakdown table.
 *
 * Columns are found by name.  Every column of "stats" but "probe" is an
 * unsigned 64-bit number, or a fixed-point decimal (cpi_* "1.250") kept
 * as an integer scaled by 10^places; columns this program does not know
 * are kept so that writers can pass them on.
 */
#ifndef _SW_UTIL_SNAPSHOT_H
#define _SW_UTIL_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "control/hist.h"
#include "base/table.h"

/**
 * struct sw_probe_stat - one row of "stats".
 * @name: probe (function) name
 * @val:  one value per column of the snapshot, in column order
 * @hist: the probe's histograms; NULL when not read or when the probe went
 *        away between reading "stats" and "hist/<probe>"
 * @lin:  the probe's log-linear wall-time histogram from the lhists file
 *        (stats_format 1.8), sw_lhist_nbuckets(@lin_bits) counts; NULL
 *        when not read (an older module, or the probe is new)
 * @lin_bits: its sub-bucket bits
 * @lin_has_total: the lhists title gave the calls' total time (1.9)
 * @lin_total: that total in ns, read in the same pass as @lin
 */
struct sw_probe_stat {
	const char *name;
	uint64_t *val;
	struct sw_hist_set *hist;
	uint64_t *lin;
	unsigned int lin_bits;
	bool lin_has_total;
	uint64_t lin_total;
};

/**
 * struct sw_bd_row - one row of "breakdown_stats".
 * @probe:   probe name
 * @key:     the key as the file shows it (comm escaped with \ooo)
 * @text:    the key unescaped (the real comm)
 * @num:     the key as a number, when @is_num
 * @is_num:  the key is a number (pid, tgid, cpu modes)
 * @other:   the "other" row that collects what did not fit the table
 * @val:     one value per breakdown column
 */
struct sw_bd_row {
	const char *probe;
	const char *key;
	char *text;
	uint64_t num;
	bool is_num;
	bool other;
	uint64_t *val;
};

/**
 * struct sw_breakdown - the "breakdown_stats" table.
 * @mode:  what the rows are keyed by: "none", "pid", "tgid", "comm", "cpu"
 * @ncols: number of numeric columns
 * @col:   their names
 * @places: decimal places of each column (0: integers)
 * @nrows: number of rows (of the selected probes)
 * @row:   the rows
 * @tab:   the header line, which @col points into
 * @arena: the rows' probes, keys and values
 */
struct sw_breakdown {
	char *mode;
	size_t ncols;
	const char **col;
	unsigned int *places;
	size_t nrows;
	struct sw_bd_row *row;
	struct sw_table *tab;
	struct sw_arena *arena;
};

/**
 * struct sw_snapshot - one reading of the stopwatch directory.
 * @dir:     the directory read
 * @time_ns: CLOCK_REALTIME just before reading, nanoseconds
 * @ncols:   number of numeric columns of "stats"
 * @col:     their names, in file order
 * @places:  decimal places of each column (0: integers; "1.250": 3)
 * @nprobes: number of (selected) probes
 * @probe:   the probes, in file order
 * @bd:      the breakdown, or NULL when not asked for
 * @keys:    the rows of probes with keys ("keys", key column "key"), or
 *           NULL when not asked for or when the module has no such file
 * @spans:   the spans ("span_stats" and "span_hist/<span>", rows named by
 *           the "span" column), or NULL when not asked for or when the
 *           module has no spans file
 * @sampler: the sampler's counters, or NULL when not asked for
 * @tab:     the parsed "stats" the strings point into
 */
struct sw_snapshot {
	char *dir;
	uint64_t time_ns;
	size_t ncols;
	const char **col;
	unsigned int *places;
	size_t nprobes;
	struct sw_probe_stat *probe;
	struct sw_breakdown *bd;
	struct sw_breakdown *keys;
	struct sw_snapshot *spans;
	struct sw_sampler_counts *sampler;
	struct sw_table *tab;
	size_t hist_next;	/* the reader's: where the next title's probe is looked for */
};

/**
 * struct sw_sampler_counts - the sampler file's "all" row.
 * @running: the state line says "running"
 * @n:       number of counters (0 when no session was ever started)
 * @name:    their names, as the header spells them ("taken", "lost_full")
 * @val:     their sums over the CPUs
 * @tab:     the parsed counter table the names point into
 */
struct sw_sampler_counts {
	bool running;
	size_t n;
	const char **name;
	uint64_t *val;
	struct sw_table *tab;
};

/**
 * struct sw_snapshot_opts - what to read.
 * @filter:    probe names to keep; all probes when @nfilter is 0
 * @nfilter:   number of names in @filter
 * @hist:      read hist/<probe> of every kept probe
 * @breakdown: read breakdown and breakdown_stats
 * @keys:      read keys (rows of probes with by=); none when it is missing
 * @spans:     read span_stats and span_hist/ (with @hist); none when missing
 * @sampler:   read the sampler file's counters; none when it is missing
 * @key_col:   the column naming each row; NULL: "probe"
 */
struct sw_snapshot_opts {
	const char *const *filter;
	size_t nfilter;
	bool hist;
	bool breakdown;
	bool keys;
	bool spans;
	bool sampler;
	const char *key_col;
};

/**
 * sw_snapshot_load() - read the stopwatch directory.
 * @dir: the directory, from sw_debugfs_find()
 * @o:   what to read
 * @out: on success the snapshot, freed with sw_snapshot_free()
 * @err: message on failure; may be NULL
 *
 * A probe named in @o->filter that is not in "stats" is an error.
 *
 * Return: 0 or a negative errno.
 */
int sw_snapshot_load(const char *dir, const struct sw_snapshot_opts *o,
		     struct sw_snapshot **out, struct sw_err *err);

/**
 * sw_snapshot_parse_stats() - build a snapshot from the text of "stats".
 * @text: the file contents
 * @what: name for messages
 * @o:    only @filter and @nfilter are used
 * @out:  on success the snapshot (no histograms, no breakdown)
 * @err:  message on failure; may be NULL
 *
 * Return: 0 or a negative errno.
 */
int sw_snapshot_parse_stats(const char *text, const char *what,
			    const struct sw_snapshot_opts *o,
			    struct sw_snapshot **out, struct sw_err *err);

/**
 * sw_breakdown_parse() - parse the text of "breakdown_stats".
 * @text:  the file contents
 * @mode:  contents of the "breakdown" file (trimmed), or NULL
 * @what:  name for messages
 * @s:     rows of probes not in @s are dropped; may be NULL to keep all
 * @out:   on success the breakdown, freed with sw_breakdown_free()
 * @err:   message on failure; may be NULL
 *
 * The key column is the one named @mode, or else one named after a known
 * mode.
 *
 * Return: 0 or a negative errno.
 */
int sw_breakdown_parse(const char *text, const char *mode, const char *what,
		       const struct sw_snapshot *s, struct sw_breakdown **out,
		       struct sw_err *err);

/**
 * sw_sampler_parse() - the counters of the sampler file's text.
 * @text: the file contents
 * @what: name for messages
 * @out:  on success the counters, freed with sw_sampler_counts_free()
 * @err:  message on failure; may be NULL
 *
 * Return: 0 or a negative errno.
 */
int sw_sampler_parse(const char *text, const char *what,
		     struct sw_sampler_counts **out, struct sw_err *err);
void sw_sampler_counts_free(struct sw_sampler_counts *c);

/*
 * The "all" row's counter @name into *@v: 0, or -ENOENT when the table has
 * no such column (or no table: no session yet).
 */
int sw_sampler_count(const struct sw_sampler_counts *c, const char *name,
		     uint64_t *v);

void sw_breakdown_free(struct sw_breakdown *bd);
void sw_snapshot_free(struct sw_snapshot *s);

/* Index of numeric column @name of the snapshot, or -1. */
int sw_snapshot_col(const struct sw_snapshot *s, const char *name);

/* Index of numeric column @name of the breakdown, or -1. */
int sw_breakdown_col(const struct sw_breakdown *bd, const char *name);

/* The probe called @name, or NULL. */
const struct sw_probe_stat *sw_snapshot_probe(const struct sw_snapshot *s,
					      const char *name);

#endif /* _SW_UTIL_SNAPSHOT_H */
