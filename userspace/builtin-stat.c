// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-stat.c - "stopwatch stat": print what stopwatch.ko measured.
 *
 * Reads <debugfs>/stopwatch/{stats,hist/<probe>,breakdown,breakdown_stats}
 * and prints them as a table with histograms, as JSON or in the Prometheus
 * text format, once or every --watch seconds; or, every --interval seconds,
 * what each interval added (the meaning -i has in every command, as perf
 * stat -I).
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "control/debugfs.h"
#include "base/parse-options.h"
#include "control/probe-spec.h"
#include "output/correct.h"
#include "output/paths.h"
#include "output/pprof.h"
#include "control/snapshot.h"
#include "output/stat-display.h"
#include "output/time-report.h"
#include "base/table.h"

enum sw_format {
	SW_FMT_TABLE,
	SW_FMT_JSON,
	SW_FMT_PROM,
};

struct sw_stat_args {
	const char *debugfs;
	const char *output;
	const char *svg;
	const char *pprof;
	bool tree;
	bool folded;
	char **probes;
	size_t nprobes;
	bool no_hist;
	bool breakdown;
	bool human;
	bool all;		/* -v: every column, as the module prints it */
	bool pct;		/* -P: the percentile columns in the table */
	bool raw;		/* --raw: the same, exact values */
	bool correct;		/* --correct: less each probe's window_ns */
	enum sw_format format;
	double interval;	/* -i/-I: deltas */
	double watch;		/* -w: the whole report again */
	uint64_t count;
};

static const struct sw_cmd_doc sw_stat_doc = {
	.name = "stat",
	.usage = "stopwatch stat [OPTIONS]",
	.about =
		"Print the call statistics and log2 duration histograms that stopwatch.ko\n"
		"collected for the probed kernel functions.\n"
		"\n"
		"The table shows durations with units (ns, \xc2\xb5s, ms, s), counts with\n"
		"thousands separators, and only the columns that are not zero on every\n"
		"row; a loss (missed, unmeasured events, detached) that is not zero\n"
		"is always shown, flagged with '!' and explained under the table, and\n"
		"what a probe's own filters left out (filtered...) likewise, flagged\n"
		"'*'; how each probe is attached is said in words.  -P adds the\n"
		"percentiles p50, p90, p99, p99.9 of the durations (read from the\n"
		"module's log-linear histograms: off by less than one bucket, 6.25% at\n"
		"its default hist_bits=4).  -v (or --raw) prints every column of the\n"
		"module's stats file instead, exact; JSON and Prometheus always carry\n"
		"every column.  --correct takes each probe's in-window cost (window_ns,\n"
		"calibrated at load) off min, avg and the percentiles, as\n"
		"'stopwatch time --correct' does.\n",
	.examples =
		"  stopwatch stat                           all probes: table, histograms\n"
		"  stopwatch stat --probe vfs_read,vfs_write  two probes\n"
		"  stopwatch stat --no-hist                 the table only\n"
		"  stopwatch stat -P                        with p50, p90, p99, p99.9\n"
		"  stopwatch stat -v -H                     every column, readable durations\n"
		"  stopwatch stat -P --correct              latencies less the probe's own cost\n"
		"  stopwatch stat --raw --no-hist           the module's table, exact (scripts)\n"
		"  stopwatch stat -i 1 --interval-count 10 what each second added, ten times\n"
		"  stopwatch stat -I 500                    the same every 500 ms (perf stat -I)\n"
		"  stopwatch stat -w 1                      the whole report every second\n"
		"  stopwatch stat -b                        with the breakdown table\n"
		"  stopwatch stat --json | python3 -m json.tool\n"
		"  stopwatch stat --prometheus -w 15 \\\n"
		"      -o /var/lib/prometheus/node-exporter/stopwatch.prom\n"
		"  echo on > /sys/kernel/debug/stopwatch/paths   # call paths on\n"
		"  stopwatch stat --tree -H                 self and total time per call path\n"
		"  stopwatch stat --folded > paths.folded   self time, flamegraph.pl input\n"
		"  stopwatch stat --svg paths.svg           flame graph of self time\n"
		"  stopwatch stat --pprof paths.pb.gz       go tool pprof -sample_index=total\n",
	.no_args = "probes go with --probe NAME",
};

static bool sw_probe_name_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '.' ||
		      *s == '@'))
			return false;
	return true;
}

/* Adds the comma-separated names of @arg to @a->probes. */
static int sw_add_probes(struct sw_stat_args *a, const char *arg)
{
	char *copy = strdup(arg), *save = NULL, *tok, **np;
	const char *p;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (p = arg; ; p++) {
		/* strtok_r would hide empty names: look for them first. */
		if ((p == arg || p[-1] == ',') && (*p == ',' || !*p)) {
			fprintf(stderr,
				"stopwatch stat: empty probe name in '--probe %s'\n",
				arg);
			ret = -EINVAL;
			goto cleanup;
		}
		if (!*p)
			break;
	}
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!sw_probe_name_ok(tok)) {
			fprintf(stderr,
				"stopwatch stat: invalid probe name '%s': expected a probe identity, FUNCTION or FUNCTION@TAG ([A-Za-z0-9_.@])\n",
				tok);
			ret = -EINVAL;
			goto cleanup;
		}
		np = realloc(a->probes, (a->nprobes + 1) * sizeof(*np));
		if (!np) {
			ret = -ENOMEM;
			goto cleanup;
		}
		a->probes = np;
		a->probes[a->nprobes] = strdup(tok);
		if (!a->probes[a->nprobes]) {
			ret = -ENOMEM;
			goto cleanup;
		}
		a->nprobes++;
	}
cleanup:
	free(copy);
	return ret;
}

static int sw_probe_cb(const struct sw_option *opt, const char *arg)
{
	return sw_add_probes(opt->value, arg);
}

/*
 * -p was the probe before option letters followed perf, where -p is a
 * process: say where both went instead of guessing.
 */
static int sw_stat_pid_cb(const struct sw_option *opt, const char *arg)
{
	(void)opt;
	fprintf(stderr,
		"stopwatch stat: -p %s: stat shows what the probes measured and takes no process; probes are chosen with --probe NAME; time one process's calls with 'stopwatch time -p PID PATTERN' or 'stopwatch probe add -p PID PATTERN'\n",
		arg);
	return -EINVAL;
}

static void sw_stat_args_free(struct sw_stat_args *a)
{
	size_t i;

	for (i = 0; i < a->nprobes; i++)
		free(a->probes[i]);
	free(a->probes);
}

/* The combinations the option table cannot check one option at a time. */
static int sw_stat_check_args(struct sw_stat_args *a, bool json, bool prom)
{
	if (json && prom) {
		fprintf(stderr,
			"stopwatch stat: --json and --prometheus exclude each other\n");
		return -EINVAL;
	}
	a->format = json ? SW_FMT_JSON : prom ? SW_FMT_PROM : SW_FMT_TABLE;
	if (a->raw && a->human) {
		fprintf(stderr,
			"stopwatch stat: --raw prints exact values; -H scales durations: use -v -H for every column with readable durations\n");
		return -EINVAL;
	}
	if ((a->all || a->raw) && a->format != SW_FMT_TABLE) {
		fprintf(stderr,
			"stopwatch stat: %s chooses between tables; JSON and Prometheus always carry every column\n",
			a->raw ? "--raw" : "--all-columns");
		return -EINVAL;
	}
	if (a->human && a->format != SW_FMT_TABLE) {
		fprintf(stderr,
			"stopwatch stat: --human applies to the table output only; JSON and Prometheus keep exact values\n");
		return -EINVAL;
	}
	if (a->tree + a->folded + !!a->svg + !!a->pprof > 1) {
		fprintf(stderr,
			"stopwatch stat: --tree, --folded, --svg and --pprof exclude each other\n");
		return -EINVAL;
	}
	if ((a->tree || a->folded || a->svg || a->pprof) &&
	    (json || prom || a->interval || a->watch || a->breakdown ||
	     a->nprobes)) {
		fprintf(stderr,
			"stopwatch stat: the call paths (--tree, --folded, --svg, --pprof) are printed once, whole: not with --json, --prometheus, --interval, --watch, --breakdown or --probe\n");
		return -EINVAL;
	}
	if (a->human && (a->folded || a->svg || a->pprof)) {
		fprintf(stderr,
			"stopwatch stat: --human applies to tables only; --folded, --svg and --pprof keep exact nanoseconds\n");
		return -EINVAL;
	}
	if (a->interval && a->watch) {
		fprintf(stderr,
			"stopwatch stat: --interval (what each interval added) and --watch (the whole report again) exclude each other\n");
		return -EINVAL;
	}
	if (a->interval && (prom || a->breakdown)) {
		fprintf(stderr,
			"stopwatch stat: --interval prints what each interval added to the calls and times of each probe, not %s: use --watch SEC for the whole report again\n",
			prom ? "Prometheus counters (totals by design)" :
			       "the breakdown");
		return -EINVAL;
	}
	if (a->correct && (prom || a->interval || a->tree || a->folded ||
			   a->svg || a->pprof)) {
		fprintf(stderr,
			"stopwatch stat: --correct corrects the table and JSON of the totals; %s\n",
			prom ? "Prometheus metrics stay as measured (window_ns is there: subtract it in a query)" :
			a->interval ? "--interval's deltas are not corrected" :
				      "call paths are not corrected");
		return -EINVAL;
	}
	if (a->count && !a->interval && !a->watch) {
		fprintf(stderr,
			"stopwatch stat: --interval-count %llu needs --interval or --watch\n",
			(unsigned long long)a->count);
		return -EINVAL;
	}
	if (!a->interval && !a->watch)
		a->count = 1;
	return 0;
}

/* Return: 0 to go on, 1 after --help, or a negative errno (reported). */
static int sw_stat_parse_args(int argc, char **argv, struct sw_stat_args *a)
{
	bool json = false, prom = false;
	const struct sw_option opts[] = {
		SW_OPT_CALLBACK(0, "probe", a, "NAME[,NAME..]",
				"only these probes, FUNCTION or FUNCTION@TAG\n"
				"(repeatable)", sw_probe_cb, NULL),
		SW_OPT_CALLBACK('p', "pid", NULL, "PID", NULL, sw_stat_pid_cb,
				NULL),
		SW_OPT_BOOL(0, "no-hist", &a->no_hist, "no histograms"),
		SW_OPT_BOOL('b', "breakdown", &a->breakdown,
			    "also the breakdown by pid, tgid, comm or cpu"),
		SW_OPT_BOOL('P', "percentiles", &a->pct,
			    "also the durations' p50, p90, p99, p99.9"),
		SW_OPT_BOOL(0, "correct", &a->correct,
			    "min, avg and percentiles less the probe's\n"
			    "in-window cost (window_ns, calibrated at load);\n"
			    "rows marked * (corrected) or ! (not calibrated)"),
		SW_OPT_BOOL('v', "all-columns", &a->all,
			    "every column of the stats file, as the module\n"
			    "prints it (with -H: durations as 2.30 us)"),
		SW_OPT_BOOL(0, "raw", &a->raw,
			    "every column, exact: the module's table (what\n"
			    "scripts parse)"),
		SW_OPT_BOOL('H', "human", &a->human,
			    "durations as 2.30 us, 1.05 ms in -v tables and\n"
			    "--tree (the default table always scales them)"),
		SW_OPT_BOOL('j', "json", &json,
			    "one JSON document (one per line with -i)"),
		SW_OPT_BOOL(0, "prometheus", &prom,
			    "Prometheus text format, e.g. for node_exporter's\n"
			    "textfile collector"),
		SW_OPT_DOUBLE('i', "interval", &a->interval, "SEC",
			      "every SEC seconds, what the interval added:\n"
			      "calls, average and total per probe (deltas, as\n"
			      "time -i); table or JSON",
			      0.001, 86400.0 * 365,
			      "seconds, at least 0.001 (e.g. 1 or 0.5)"),
		SW_OPT_CALLBACK('I', "interval-print", &a->interval, "MSEC",
				"the same in milliseconds, as perf stat -I",
				sw_opt_msec_cb, "milliseconds, at least 1"),
		SW_OPT_DOUBLE('w', "watch", &a->watch, "SEC",
			      "print the whole report again every SEC seconds,\n"
			      "totals each time, until interrupted",
			      0.001, 86400.0 * 365,
			      "seconds, at least 0.001 (e.g. 1 or 0.5)"),
		SW_OPT_U64(0, "interval-count", &a->count, "N",
			   "stop after N prints (with --interval or --watch;\n"
			   "perf stat's name)", 1,
			   UINT64_MAX, "a whole number of prints, at least 1"),
		SW_OPT_BOOL(0, "tree", &a->tree,
			    "the call paths as an indented tree: calls, total\n"
			    "and self time, average, share of the root"),
		SW_OPT_BOOL(0, "folded", &a->folded,
			    "self time per call path, one 'a;b;c NS' line each\n"
			    "(flamegraph.pl, speedscope)"),
		SW_OPT_NAME(0, "svg", &a->svg, "FILE",
			    "flame graph of self time per call path", "a file name"),
		SW_OPT_NAME(0, "pprof", &a->pprof, "FILE",
			    "the call paths as a gzip'd pprof profile: calls,\n"
			    "total and self (the default) per path", "a file name"),
		SW_OPT_NAME('o', "output", &a->output, "FILE",
			    "write to FILE (atomically replaced) instead of\n"
			    "standard output", "a file name"),
		SW_OPT_DEBUGFS(&a->debugfs),
		SW_OPT_END(),
	};
	int n = sw_parse_options(argc, argv, &sw_stat_doc, opts);

	if (n <= 0)
		return n < 0 ? n : 1;
	return sw_stat_check_args(a, json, prom);
}

static volatile sig_atomic_t sw_stop;

static void sw_on_signal(int sig)
{
	(void)sig;
	sw_stop = 1;
}

static void sw_print_time_header(FILE *f, uint64_t time_ns)
{
	time_t t = (time_t)(time_ns / 1000000000ULL);
	char buf[64];
	struct tm tm;

	if (!localtime_r(&t, &tm) ||
	    !strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(buf, sizeof(buf), "%lld", (long long)t);
	fprintf(f, "# %s.%03llu\n", buf,
		(unsigned long long)(time_ns % 1000000000ULL / 1000000ULL));
}

/* Opens where one snapshot goes: stdout, or a temporary file beside -o. */
static FILE *sw_out_open(const struct sw_stat_args *a, char **tmp)
{
	FILE *f;

	*tmp = NULL;
	if (!a->output || !strcmp(a->output, "-"))
		return stdout;
	if (asprintf(tmp, "%s.tmp", a->output) < 0) {
		*tmp = NULL;
		fprintf(stderr, "stopwatch stat: out of memory\n");
		return NULL;
	}
	f = fopen(*tmp, "w");
	if (!f) {
		fprintf(stderr, "stopwatch stat: cannot create %s: %s\n", *tmp,
			strerror(errno));
		free(*tmp);
		*tmp = NULL;
	}
	return f;
}

/* Finishes one snapshot: flushes stdout, or closes and renames the file. */
static int sw_out_close(const struct sw_stat_args *a, FILE *f, char *tmp,
			int ret)
{
	int bad;

	if (f == stdout) {
		if (fflush(stdout) || ferror(stdout)) {
			fprintf(stderr,
				"stopwatch stat: write error on standard output: %s\n",
				strerror(errno ? errno : EIO));
			return ret ? ret : -EIO;
		}
		return ret;
	}
	bad = ferror(f);
	if (fclose(f) || bad) {
		fprintf(stderr, "stopwatch stat: write error on %s: %s\n", tmp,
			strerror(errno ? errno : EIO));
		if (!ret)
			ret = -EIO;
	}
	if (!ret && rename(tmp, a->output)) {
		ret = -errno;
		fprintf(stderr, "stopwatch stat: cannot rename %s to %s: %s\n",
			tmp, a->output, strerror(errno));
	}
	if (ret)
		unlink(tmp);
	free(tmp);
	return ret;
}

/*
 * The spans (span_stats, span_hist/NAME) after the probes' table, in the
 * module's own layout; nothing when there are none (or the module has no
 * spans file).
 */
static int sw_print_spans(FILE *f, const char *dir, bool hist, bool all)
{
	char *stats = NULL, *h = NULL, *line, *save, path[160];
	struct sw_table *tab = NULL;
	int ret = 0;

	if (sw_debugfs_read(dir, "span_stats", &stats, NULL, NULL))
		return 0;
	line = strchr(stats, '\n');
	if (!line || !line[1])
		goto cleanup;
	if (all) {
		fprintf(f, "\nspans:\n%s", stats);
	} else if (!sw_table_parse(stats, "span_stats", &tab, NULL)) {
		fputs("\nspans:\n", f);
		ret = sw_print_text_table(f, tab, "span", false, 0, NULL);
		sw_table_free(tab);
		if (ret)
			goto cleanup;
	} else {
		fprintf(f, "\nspans:\n%s", stats);
	}
	for (line = strtok_r(line + 1, "\n", &save); hist && line;
	     line = strtok_r(NULL, "\n", &save)) {
		line[strcspn(line, " ")] = '\0';
		snprintf(path, sizeof(path), "span_hist/%s", line);
		if (sw_debugfs_read(dir, path, &h, NULL, NULL))
			continue;
		fprintf(f, "\n%s", h);
		free(h);
		h = NULL;
	}
cleanup:
	free(stats);
	return ret;
}

static int sw_stat_once(const struct sw_stat_args *a, const char *dir,
			const struct sw_snapshot_opts *so,
			const struct sw_display_opts *dop, uint64_t round,
			struct sw_snapshot **prev)
{
	static bool warned_bd, warned_empty;
	struct sw_snapshot *s = NULL;
	struct sw_display_opts cdop;
	struct sw_err err = { "" };
	uint64_t *window = NULL;
	char *tmp = NULL;
	FILE *f = NULL;
	int ret;

	ret = sw_snapshot_load(dir, so, &s, &err);
	if (ret) {
		fprintf(stderr, "stopwatch: %s\n", err.msg);
		goto cleanup;
	}
	if (a->correct) {
		window = sw_correct_all(s);
		if (!window) {
			ret = -ENOMEM;
			fprintf(stderr, "stopwatch stat: out of memory\n");
			goto cleanup;
		}
		cdop = *dop;
		cdop.window = window;
		dop = &cdop;
	}
	/* The default table flags them; elsewhere they are said here. */
	if (dop->all || a->format != SW_FMT_TABLE || (a->output && strcmp(a->output, "-")))
		sw_print_missed(stderr, s, *prev);
	if (!s->nprobes && !a->nprobes && !warned_empty) {
		fprintf(stderr,
			"stopwatch: no function is being measured: add one with 'echo vfs_read > %s/probes'\n",
			dir);
		warned_empty = true;
	}
	if (a->breakdown && s->bd && !strcmp(s->bd->mode, "none") &&
	    !warned_bd) {
		fprintf(stderr,
			"stopwatch: the breakdown is off: turn it on with 'echo pid > %s/breakdown' (or tgid, comm, cpu)\n",
			dir);
		warned_bd = true;
	}

	f = sw_out_open(a, &tmp);
	if (!f) {
		ret = -EIO;
		goto cleanup;
	}
	switch (a->format) {
	case SW_FMT_TABLE:
		if (a->watch) {
			if (round && f == stdout)
				fputc('\n', f);
			sw_print_time_header(f, s->time_ns);
		}
		ret = sw_print_table(f, s, dop);
		if (!ret && !a->nprobes)
			ret = sw_print_spans(f, dir, dop->hist, dop->all);
		break;
	case SW_FMT_JSON:
		ret = sw_print_json(f, s, dop);
		break;
	case SW_FMT_PROM:
		ret = sw_print_prom(f, s, dop);
		break;
	}
	if (ret == -ENOMEM)
		fprintf(stderr, "stopwatch stat: out of memory\n");
	ret = sw_out_close(a, f, tmp, ret);
cleanup:
	free(window);
	sw_snapshot_free(*prev);
	*prev = s;
	return ret;
}

/*
 * -i: what the interval added, printed as "stopwatch time -i" prints it.
 * Round 0 only reads the baseline.
 */
static int sw_stat_delta(const struct sw_stat_args *a, const char *dir,
			 const struct sw_snapshot_opts *so, uint64_t round,
			 double at, struct sw_snapshot **prev)
{
	struct sw_snapshot_opts dso = *so;
	struct sw_time_report r = { 0 };
	struct sw_snapshot *s = NULL;
	struct sw_err err = { "" };
	char *tmp = NULL;
	FILE *f;
	size_t i;
	int ret;

	dso.hist = false;
	ret = sw_snapshot_load(dir, &dso, &s, &err);
	if (ret) {
		fprintf(stderr, "stopwatch: %s\n", err.msg);
		goto cleanup;
	}
	if (!round)
		goto cleanup;
	r.names = calloc(s->nprobes + 1, sizeof(*r.names));
	if (!r.names) {
		ret = -ENOMEM;
		fprintf(stderr, "stopwatch stat: out of memory\n");
		goto cleanup;
	}
	for (i = 0; i < s->nprobes; i++)
		r.names[i] = (char *)s->probe[i].name;
	r.ids = r.names;
	r.n = s->nprobes;
	r.unit = "ns";
	r.div = 1;
	r.json = a->format == SW_FMT_JSON;
	r.interval = (unsigned int)round;
	f = sw_out_open(a, &tmp);
	if (!f) {
		ret = -EIO;
		goto cleanup;
	}
	ret = sw_time_report_fprint_delta(f, &r, s, *prev, at);
	ret = sw_out_close(a, f, tmp, ret);
cleanup:
	free(r.names);
	sw_snapshot_free(*prev);
	*prev = s;
	return ret;
}

static void sw_timespec_add(struct timespec *t, double sec)
{
	long long ns = llround(sec * 1e9);

	t->tv_sec += (time_t)(ns / 1000000000LL);
	t->tv_nsec += (long)(ns % 1000000000LL);
	if (t->tv_nsec >= 1000000000L) {
		t->tv_nsec -= 1000000000L;
		t->tv_sec++;
	}
}

/*
 * Sleeps until @interval seconds after *@next (or not at all when that has
 * passed: no burst after falling behind).  Return: false when interrupted.
 */
static bool sw_stat_wait(struct timespec *next, double interval)
{
	struct timespec now;

	sw_timespec_add(next, interval);
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec > next->tv_sec ||
	    (now.tv_sec == next->tv_sec && now.tv_nsec > next->tv_nsec))
		*next = now;
	while (!sw_stop &&
	       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, next, NULL) ==
		       EINTR)
		;
	return !sw_stop;
}

/* --tree, --folded, --svg, --pprof: the paths file, once. */
static int sw_stat_paths(const struct sw_stat_args *a, const char *dir)
{
	const struct sw_paths_opts po = { .human = a->human };
	struct sw_err err = { "" };
	struct sw_paths p;
	uint8_t *pb = NULL;
	char *tmp = NULL;
	FILE *f = NULL;
	size_t len;
	int ret;

	ret = sw_paths_load(dir, &p, &err);
	if (ret) {
		fprintf(stderr, "stopwatch: %s\n", err.msg);
		goto cleanup;
	}
	if (!p.enabled && !p.n)
		fprintf(stderr,
			"stopwatch: call paths are off: turn them on with 'echo on > %s/paths' (or load with paths=1)\n",
			dir);
	if (sw_paths_dropped(&p))
		fprintf(stderr,
			"stopwatch: %llu calls are on no path: %llu found the table of %llu nodes full (max_paths=), %llu had no pending entry (see %s/pending), %llu were in flight across a reset\n",
			(unsigned long long)sw_paths_dropped(&p),
			(unsigned long long)p.dropped_full,
			(unsigned long long)p.max_nodes,
			(unsigned long long)p.dropped_no_entry, dir,
			(unsigned long long)p.dropped_stale);
	if (a->pprof) {
		ret = sw_paths_pprof(&p, &pb, &len);
		if (!ret)
			ret = sw_pprof_write(a->pprof, pb, len, &err);
		if (ret && ret != -ENOMEM)
			fprintf(stderr, "stopwatch stat: %s\n", err.msg);
		goto cleanup;
	}
	if (a->svg) {
		f = fopen(a->svg, "w");
		if (!f) {
			ret = -errno;
			fprintf(stderr, "stopwatch stat: cannot create %s: %s\n",
				a->svg, strerror(errno));
			goto cleanup;
		}
		ret = sw_paths_write_svg(f, &p, "Call paths: self time");
		if (fclose(f) && !ret)
			ret = -EIO;
		f = NULL;
		if (ret == -EIO)
			fprintf(stderr, "stopwatch stat: write error on %s\n",
				a->svg);
		goto cleanup;
	}
	f = sw_out_open(a, &tmp);
	if (!f) {
		ret = -EIO;
		goto cleanup;
	}
	ret = a->tree ? sw_paths_print_tree(f, &p, &po) :
			sw_paths_print_folded(f, &p);
	ret = sw_out_close(a, f, tmp, ret);
cleanup:
	if (ret == -ENOMEM)
		fprintf(stderr, "stopwatch stat: out of memory\n");
	free(pb);
	sw_paths_free(&p);
	return ret;
}

int cmd_stat(int argc, char **argv)
{
	struct sw_stat_args a = { 0 };
	struct sw_snapshot_opts so = { 0 };
	struct sw_display_opts dop = { 0 };
	struct sw_snapshot *prev = NULL;
	struct sw_err err = { "" };
	struct sigaction sa = { 0 };
	struct timespec next, start;
	char *dir = NULL;
	double period;
	uint64_t round;
	int ret;

	ret = sw_stat_parse_args(argc, argv, &a);
	if (ret) {
		ret = ret > 0 ? 0 : ret;
		goto cleanup;
	}
	ret = sw_debugfs_find(a.debugfs, &dir, &err);
	if (ret) {
		fprintf(stderr, "stopwatch: %s\n", err.msg);
		goto cleanup;
	}

	if (a.tree || a.folded || a.svg || a.pprof) {
		ret = sw_stat_paths(&a, dir);
		goto cleanup;
	}
	so.filter = (const char *const *)a.probes;
	so.nfilter = a.nprobes;
	so.hist = !a.no_hist;
	so.breakdown = a.breakdown;
	/* the table prints the spans its own way (sw_print_spans()) */
	so.spans = a.format != SW_FMT_TABLE && !a.nprobes;
	dop.hist = !a.no_hist;
	dop.breakdown = a.breakdown;
	dop.human = a.human;
	dop.all = a.all || a.raw;
	dop.percentiles = a.pct;

	period = a.interval ? a.interval : a.watch;
	if (period) {
		sa.sa_handler = sw_on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
	}
	clock_gettime(CLOCK_MONOTONIC, &next);
	start = next;
	/* -i reads a baseline first: N prints take N + 1 rounds. */
	for (round = 0; !sw_stop &&
	     (!a.count || round < a.count + (a.interval ? 1 : 0)); round++) {
		if (round && !sw_stat_wait(&next, period))
			break;
		if (a.interval)
			ret = sw_stat_delta(&a, dir, &so, round,
					    (double)(next.tv_sec - start.tv_sec) +
					    (next.tv_nsec - start.tv_nsec) / 1e9,
					    &prev);
		else
			ret = sw_stat_once(&a, dir, &so, &dop, round, &prev);
		if (ret)
			break;
	}
cleanup:
	sw_snapshot_free(prev);
	sw_stat_args_free(&a);
	free(dir);
	return ret;
}
