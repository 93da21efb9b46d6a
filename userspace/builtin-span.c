// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-span.c - "stopwatch span": time what happens between a start
 * point and a stop point that see the same key (an item through a queue,
 * a work item from queueing to running, a task from wakeup to running),
 * for a while or while a command runs; or add and remove long-lived spans
 * in the module's spans file.
 *
 * The points' names (arguments, fields) are resolved here with the
 * kernel's BTF (util/span-btf.c); the module gets positions and offsets.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "base/child.h"
#include "control/debugfs.h"
#include "base/parse-options.h"
#include "control/probe-ctl.h"
#include "control/probe-spec.h"
#include "control/span-btf.h"
#include "control/target.h"
#include "control/upoint.h"
#include "output/cost.h"
#include "output/stat-display.h"

#define SW_SPAN_MAXPT 8

struct sw_span_args {
	const char *pt[2][SW_SPAN_MAXPT];	/* [0] starts, [1] stops */
	size_t npt[2];
	struct sw_target t;
	const char *name, *remove, *by, *module;
	const char *debugfs, *unit, *output, *btf;
	double duration;
	uint64_t slots, age_ms;
	bool keep, json, no_hist, all, trace;
	char **cmd;
};

static const struct sw_cmd_doc sw_span_doc = {
	.name = "span",
	.usage = "stopwatch span --start POINT:KEY --stop POINT:KEY [OPTIONS] [-- COMMAND [ARGS]]\n"
		 "       stopwatch span --keep --name NAME --start POINT:KEY --stop POINT:KEY [OPTIONS]\n"
		 "       stopwatch span --remove NAME",
	.about =
		"Time the intervals between a start point and a stop point that see the same\n"
		"key, while COMMAND runs, for -d seconds or until interrupted; then print the\n"
		"span's statistics, what it could not pair, and its log2 histogram: the\n"
		"counts that are not zero, durations with units, losses flagged with '!'\n"
		"(what a filter left out, '*') and explained (-v or --raw: every column,\n"
		"exact).\n"
		"\n"
		"A POINT is FUNC (the function's entry), FUNC%return (its return),\n"
		"SYSTEM:EVENT (a tracepoint: the kernel's, else a loaded module's), or a\n"
		"user function BINARY:FUNC (its entry) or BINARY:FUNC%return (its return),\n"
		"where BINARY has a '/' (./prog, /usr/bin/prog).  The KEY after the last ':'\n"
		"is an argument by name (work) or position (arg0..arg5), retval (at a\n"
		"return), tid or pid, a field through pointers (p->pid, rq->q->id), raw\n"
		"reads argN+OFF[+OFF]/SIZE, or two of them joined by ','.\n"
		"POINT:KEY?EXPR==N (or !=) counts only the hits where EXPR has that value.\n"
		"Names come from the kernel's BTF; user points take raw keys (argN at the\n"
		"entry, retval at the return, tid, pid; +OFF reads user memory).  --start and\n"
		"--stop repeat: several points may start or stop one span; the same\n"
		"POINT:KEY as start and stop times the intervals between successive hits of\n"
		"each key.  Filters (-p, -t, --comm, -C, --cgroup) apply at the stop point,\n"
		"--min/--max to the interval; a COMMAND only bounds the time measured.\n"
		"Starts wait in a bounded table: a start that finds it full is counted\n"
		"(dropped_full), one older than --age is abandoned, a stop without a start\n"
		"is unmatched, a key that cannot be read unreadable.\n"
		"\n"
		"With events counted ('stopwatch events set'), an interval whose start and\n"
		"stop run on one thread gets that thread's events between the two\n"
		"(<event>_min/_avg/_max columns); one stopped on another thread counts\n"
		"time only (other_thread); starts that got no pending entry count as\n"
		"ev_no_slot or ev_too_deep, a lost entry as ev_lost.\n",
	.examples =
		"  stopwatch span --start __queue_work:work --stop process_one_work:work -d 5\n"
		"  stopwatch span --start sched:sched_wakeup:p->pid --start sched:sched_wakeup_new:p->pid \\\n"
		"      --start 'sched:sched_switch:prev->pid?prev->__state==0' --stop 'sched:sched_switch:next->pid?next->pid!=0' -d 5\n"
		"  stopwatch span --start kernel_clone:tid --stop kernel_clone%return:tid --comm make -- make\n"
		"  stopwatch events set instructions; stopwatch span --start vfs_read:tid --stop vfs_read%return:tid -d 2\n"
		"  stopwatch span --start 'list_add:new,head' --stop 'list_add:new,head' -d 1\n"
		"  stopwatch span --start ./prog:handle:tid --stop ./prog:handle%return:tid -d 5\n"
		"  stopwatch span --start /usr/bin/prog:submit:tid --stop vfs_fsync%return:tid -d 5\n"
		"  stopwatch span --keep --name wq --start __queue_work:work --stop process_one_work:work\n"
		"  stopwatch span --keep --trace --name wq --start __queue_work:work --stop process_one_work:work\n"
		"      (then: stopwatch trace --spans -- COMMAND, each interval a line)\n"
		"  stopwatch span --remove wq\n",
};

static int sw_pt_cb(const struct sw_option *opt, const char *arg)
{
	struct sw_span_args *a = opt->value;
	int i = opt->long_name[2] == 'o';	/* "stop" */

	if (a->npt[0] + a->npt[1] >= SW_SPAN_MAXPT) {
		fprintf(stderr, "stopwatch span: at most %d points\n",
			SW_SPAN_MAXPT);
		return -E2BIG;
	}
	a->pt[i][a->npt[i]++] = arg;
	return 0;
}

/* Return: 0 to go on, 1 after --help, or a negative errno (reported). */
static int sw_span_parse_args(int argc, char **argv, struct sw_span_args *a)
{
	const struct sw_option opts[] = {
		SW_OPT_GROUP("The span"),
		SW_OPT_CALLBACK(0, "start", a, "POINT:KEY",
				"a start point and its key (repeatable)",
				sw_pt_cb, NULL),
		SW_OPT_CALLBACK(0, "stop", a, "POINT:KEY",
				"a stop point and its key (repeatable)",
				sw_pt_cb, NULL),
		SW_OPT_NAME(0, "name", &a->name, "NAME",
			    "the span's name (default START->STOP)",
			    "1 to 63 of A-Z a-z 0-9 _ . - >"),
		SW_OPT_U64(0, "slots", &a->slots, "N",
			   "starts in flight at once (a power of two, default 4096)",
			   16, 1048576, "a power of two from 16 to 1048576"),
		SW_OPT_U64(0, "age", &a->age_ms, "MSEC",
			   "starts older than this are abandoned (default 10000)",
			   1, 86400000, "1 to 86400000"),
		SW_OPT_GROUP("How long"),
		SW_OPT_DOUBLE('d', "duration", &a->duration, "SEC",
			      "stop after SEC seconds", 0.001, 1e9,
			      "a number of seconds"),
		SW_OPT_GROUP("Which intervals (at the stop point)"),
		SW_OPT_TARGET(&a->t, "intervals"),
		SW_OPT_GROUP("What to show"),
		SW_OPT_NAME(0, "by", &a->by, "KEY[,KEY2]",
			    "rows by the interval's key (key), or the stop\n"
			    "thread's pid, tgid, comm or cpu",
			    "pid tgid comm cpu"),
		SW_OPT_CALLBACK('u', "unit", &a->unit, "UNIT",
				"ns (default), us, ms or s", sw_opt_unit_cb,
				"ns, us, ms or s"),
		SW_OPT_BOOL(0, "no-hist", &a->no_hist, "no histogram"),
		SW_OPT_BOOL('v', "all-columns", &a->all,
			    "every column of span_stats, one a line, exact\n"
			    "(what scripts parse; --raw too)"),
		SW_OPT_BOOL(0, "raw", &a->all, "the same as --all-columns"),
		SW_OPT_BOOL('j', "json", &a->json, "one JSON object"),
		SW_OPT_NAME('o', "output", &a->output, "FILE",
			    "write the report to FILE", "a file name"),
		SW_OPT_GROUP("Long-lived spans"),
		SW_OPT_BOOL(0, "keep", &a->keep,
			    "add the span and leave it (stopwatch stat shows it)"),
		SW_OPT_BOOL(0, "trace", &a->trace,
			    "with --keep: write each interval as a record into\n"
			    "recordings ('stopwatch trace --spans', 'stopwatch\n"
			    "record'), named as the span, with its key"),
		SW_OPT_NAME(0, "remove", &a->remove, "NAME",
			    "remove the span NAME", "a span name"),
		SW_OPT_GROUP("Setup"),
		SW_OPT_MODULE(&a->module),
		SW_OPT_DEBUGFS(&a->debugfs),
		SW_OPT_NAME(0, "btf", &a->btf, "DIR",
			    "BTF files (default /sys/kernel/btf)",
			    "a directory"),
		SW_OPT_END(),
	};
	struct sw_err err = { "" };
	int n, end;

	end = sw_command_split(argc, argv, "span", &a->cmd);
	if (end < 0)
		return end;
	n = sw_parse_options(end, argv, &sw_span_doc, opts);
	if (n <= 0)
		return n < 0 ? n : 1;
	if (n != end) {
		fprintf(stderr,
			"stopwatch span: unexpected argument '%s' (points go with --start and --stop)\n",
			argv[n]);
		return -EINVAL;
	}
	if (a->remove)
		return 0;
	if (!a->npt[0] || !a->npt[1]) {
		fprintf(stderr,
			"stopwatch span: a span needs --start and --stop; see 'stopwatch span --help'\n");
		return -EINVAL;
	}
	if (a->slots & (a->slots - 1)) {
		fprintf(stderr,
			"stopwatch span: --slots %llu is not a power of two\n",
			(unsigned long long)a->slots);
		return -EINVAL;
	}
	if (a->keep && (a->cmd || a->duration)) {
		fprintf(stderr,
			"stopwatch span: --keep adds the span and returns: no COMMAND or -d\n");
		return -EINVAL;
	}
	if (a->trace && !a->keep) {
		fprintf(stderr,
			"stopwatch span: --trace goes with --keep: the intervals go into a recording ('stopwatch trace --spans -- COMMAND')\n");
		return -EINVAL;
	}
	if (sw_target_check(&a->t, &err)) {
		fprintf(stderr, "stopwatch span: %s\n", err.msg);
		return -EINVAL;
	}
	return 0;
}

/* START->STOP from the first points' names, in the name's characters. */
static void sw_span_default_name(const struct sw_span_args *a, char *buf,
				 size_t len)
{
	char *p;

	snprintf(buf, len, "%.*s->%.*s",
		 (int)strcspn(a->pt[0][0], ":?"), a->pt[0][0],
		 (int)strcspn(a->pt[1][0], ":?"), a->pt[1][0]);
	for (p = buf; *p; p++)
		if (*p == '%')
			*p = '.';
}

/* A user point: a '/' in the part before the first ':' (BINARY). */
static bool sw_span_is_user(const char *pt)
{
	const char *c = strchr(pt, ':'), *sl = strchr(pt, '/');

	return sl && c && sl < c;
}

/* Is every ','-joined part of [s, s + len) a raw expression? */
static bool sw_span_raw_key(const char *s, size_t len)
{
	const char *e = s, *comma;
	size_t el;

	while (e < s + len) {
		comma = memchr(e, ',', s + len - e);
		el = comma ? (size_t)(comma - e) : (size_t)(s + len - e);
		if (!sw_span_raw_expr(e, el))
			return false;
		e += el + (comma ? 1 : 0);
	}
	return len > 0;
}

/*
 * A user point, BINARY:FUNC[%return]:KEY[?COND]: FUNC resolved to its
 * file and offset (util/upoint.c) and written as the module takes it,
 * PATH:0xOFFSET[%return]:KEY[?COND].  User functions have no BTF here:
 * keys and conditions are raw (argN retval tid pid, +OFF reads, /SIZE).
 */
static int sw_span_user_resolve(const char *pt, char **out,
				struct sw_err *err)
{
	const char *q = strchr(pt, '?'), *end = q ? q : pt + strlen(pt);
	const char *kc = end, *op = NULL;
	struct sw_upoints ups = { 0 };
	char *fn = NULL, *ctl = NULL, *r;
	bool isret = false;
	int ret;

	*out = NULL;
	while (kc > pt && kc[-1] != ':')
		kc--;
	if (q) {
		op = strstr(q, "==");
		if (!op)
			op = strstr(q, "!=");
	}
	if (kc - 1 <= pt || !sw_span_raw_key(kc, end - kc) ||
	    (q && (!op || !sw_span_raw_key(q + 1, op - q - 1))))
		return sw_err_set(err, -EINVAL,
				  "user point '%s': expected BINARY:FUNC[%%return]:KEY[?EXPR==N] with raw keys (argN retval tid pid, +OFF reads, /SIZE): user functions have no BTF here",
				  pt);
	fn = strndup(pt, kc - 1 - pt);
	if (!fn)
		return -ENOMEM;
	r = strstr(fn, "%return");
	if (r && !r[7]) {
		*r = '\0';
		isret = true;
	}
	ret = sw_upoint_expand(fn, 0, NULL, &ups, err);
	if (!ret && ups.n != 1)
		ret = sw_err_set(err, -EINVAL,
				 "user point '%s' names %zu functions; a span point is one",
				 fn, ups.n);
	if (!ret) {
		ctl = sw_upoint_ctl(&ups.v[0]);
		/* "uprobe=PATH:0xOFFSET": the module's PATH:0xOFFSET. */
		if (!ctl || asprintf(out, "%s%s:%s", ctl + strlen("uprobe="),
				     isret ? "%return" : "", kc) < 0) {
			*out = NULL;
			ret = -ENOMEM;
		}
	}
	free(ctl);
	free(fn);
	sw_upoints_free(&ups);
	return ret;
}

/* The span's line for the spans file. */
static int sw_span_line(const struct sw_span_args *a, const char *name,
			char **line)
{
	struct sw_span_btf *b = sw_span_btf_new(a->btf);
	struct sw_probe_opts po = { 0 };
	struct sw_err err = { "" };
	char *out = NULL, *opts = NULL, *l = NULL, *r;
	size_t len = 0, i, j;
	FILE *f;
	int ret = 0;

	*line = NULL;
	f = open_memstream(&l, &len);
	if (!b || !f) {
		ret = -ENOMEM;
		goto cleanup;
	}
	fprintf(f, "+%s", name);
	for (i = 0; i < 2; i++)
		for (j = 0; j < a->npt[i]; j++) {
			if (sw_span_is_user(a->pt[i][j]))
				ret = sw_span_user_resolve(a->pt[i][j], &r,
							   &err);
			else
				ret = sw_span_point_resolve(b, a->pt[i][j], &r,
							    &err);
			if (ret) {
				fprintf(stderr, "stopwatch span: %s\n",
					err.msg);
				goto cleanup;
			}
			fprintf(f, " %s=%s", i ? "stop" : "start", r);
			free(r);
		}
	if (a->slots)
		fprintf(f, " slots=%llu", (unsigned long long)a->slots);
	if (a->age_ms)
		fprintf(f, " age_ms=%llu", (unsigned long long)a->age_ms);
	po.by = a->by;
	ret = sw_target_apply(&a->t, &po, &err);
	if (ret) {
		fprintf(stderr, "stopwatch span: --cgroup: %s\n", err.msg);
		goto cleanup;
	}
	opts = sw_probe_opts_format(&po);
	if (!opts) {
		ret = -ENOMEM;
		goto cleanup;
	}
	fprintf(f, "%s%s%s\n", *opts ? " " : "", opts,
		a->trace ? " trace=on" : "");
cleanup:
	if (f && fclose(f) && !ret)
		ret = -ENOMEM;
	if (!ret)
		*line = l;
	else
		free(l);
	free(out);
	free(opts);
	sw_span_btf_free(b);
	return ret;
}

static volatile sig_atomic_t sw_stop;

static void sw_on_signal(int sig)
{
	if (sig != SIGCHLD)
		sw_stop = 1;
}

/* Waits for the command, -d or a signal. */
static void sw_span_wait(const struct sw_span_args *a, pid_t child,
			 int *status)
{
	struct timespec t0, now, nap = { 0, 50 * 1000 * 1000 };

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!sw_stop) {
		if (child > 0 && waitpid(child, status, WNOHANG) == child)
			return;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (a->duration &&
		    (double)(now.tv_sec - t0.tv_sec) +
				    (double)(now.tv_nsec - t0.tv_nsec) / 1e9 >=
			    a->duration)
			break;
		nanosleep(&nap, NULL);
	}
	if (child > 0) {
		kill(child, SIGTERM);
		while (waitpid(child, status, 0) < 0 && errno == EINTR)
			;
	}
}

/* The header and our row of span_stats, as two arrays of words. */
static int sw_span_row(const char *text, const char *name, char ***hdr,
		       char ***val, size_t *n)
{
	const char *nl = strchr(text, '\n'), *p;
	size_t cap = 128;
	char *h, *v = NULL, *save, *w;

	*n = 0;
	*hdr = calloc(cap, sizeof(char *));
	*val = calloc(cap, sizeof(char *));
	if (!nl || !*hdr || !*val)
		return -ENOMEM;
	h = strndup(text, nl - text);
	for (p = nl + 1; *p; p = strchr(p, '\n') + 1) {
		size_t l = strcspn(p, " ");

		if (l == strlen(name) && !strncmp(p, name, l)) {
			v = strndup(p, strcspn(p, "\n"));
			break;
		}
		if (!strchr(p, '\n'))
			break;
	}
	if (!h || !v) {
		free(h);
		free(v);
		return -ENOENT;
	}
	for (w = strtok_r(h, " ", &save); w && *n < cap;
	     w = strtok_r(NULL, " ", &save))
		(*hdr)[(*n)++] = strdup(w);
	*n = 0;
	for (w = strtok_r(v, " ", &save); w && *n < cap;
	     w = strtok_r(NULL, " ", &save))
		(*val)[(*n)++] = strdup(w);
	free(h);
	free(v);
	return 0;
}

/* The human default: the span's row, one line per column that says something. */
static int sw_span_human(FILE *out, const struct sw_span_args *a, char **hdr,
			 char **val, size_t n, const char *name, uint64_t div)
{
	struct sw_table *tab = NULL;
	char *text = NULL;
	size_t len = 0, i;
	FILE *m = open_memstream(&text, &len);
	int ret;

	if (!m)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		fprintf(m, "%s%s", i ? " " : "", hdr[i]);
	fprintf(m, "\n%s", name);
	for (i = 1; i < n; i++)
		fprintf(m, " %s", val[i]);
	fputc('\n', m);
	if (fclose(m))
		ret = -ENOMEM;
	else
		ret = sw_table_parse(text, "span_stats", &tab, NULL);
	if (!ret)
		ret = sw_print_text_table(out, tab, "span", true,
					  a->unit ? div : 0, a->unit);
	sw_table_free(tab);
	free(text);
	return ret;
}

/*
 * With --by: the span's rows of span_keys (its name column left out), as
 * a table under the histogram; nothing when it has none.
 */
static int sw_span_keys(FILE *out, const struct sw_span_args *a,
			const char *dir, const char *id, uint64_t div)
{
	char *keys = NULL, *text = NULL, *line, *save = NULL;
	struct sw_table *tab = NULL;
	size_t len = 0, idl = strlen(id), rows = 0;
	FILE *m;
	int ret;

	ret = sw_debugfs_read(dir, "span_keys", &keys, NULL, NULL);
	if (ret)
		return ret;
	m = open_memstream(&text, &len);
	if (!m) {
		free(keys);
		return -ENOMEM;
	}
	for (line = strtok_r(keys, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		bool head = line == keys;

		if (!head && (strncmp(line, id, idl) || line[idl] != ' '))
			continue;
		/* the first word (the span's name, or the header's) left out */
		line += strcspn(line, " ");
		line += strspn(line, " ");
		fprintf(m, "%s\n", line);
		rows += !head;
	}
	ret = fclose(m) ? -ENOMEM : 0;
	if (!ret && rows)
		ret = sw_table_parse(text, "span_keys", &tab, NULL);
	if (!ret && rows) {
		fputc('\n', out);
		ret = sw_print_text_table(out, tab, "key", false,
					  a->unit ? div : 0, a->unit);
	}
	sw_table_free(tab);
	free(text);
	free(keys);
	return ret;
}

static int sw_span_report(FILE *out, const struct sw_span_args *a,
			  const char *dir, const char *id, const char *name,
			  const struct sw_overhead *cost)
{
	char *stats = NULL, *hist = NULL, **hdr = NULL, **val = NULL, path[160];
	uint64_t div = 1;
	size_t n = 0, i;
	int ret;

	if (a->unit)
		sw_parse_unit(a->unit, &div);
	ret = sw_debugfs_read(dir, "span_stats", &stats, NULL, NULL);
	if (!ret)
		ret = sw_span_row(stats, id, &hdr, &val, &n);
	snprintf(path, sizeof(path), "span_hist/%s", id);
	if (!ret && !a->no_hist)
		ret = sw_debugfs_read(dir, path, &hist, NULL, NULL);
	if (ret) {
		fprintf(stderr, "stopwatch span: cannot read the span's statistics (%s)\n",
			strerror(-ret));
		goto cleanup;
	}
	if (a->json) {
		fprintf(out, "{\"span\":\"%s\"", name);
		for (i = 1; i < n; i++)
			fprintf(out, ",\"%s\":%s", hdr[i], val[i]);
		sw_cost_json(out, &cost[0], &cost[1]);
		fprintf(out, "}\n");
		goto cleanup;
	}
	if (!a->all) {
		ret = sw_span_human(out, a, hdr, val, n, name, div);
		if (!ret && hist)
			fprintf(out, "\n%s", hist);
		if (!ret && a->by)
			ret = sw_span_keys(out, a, dir, id, div);
		sw_cost_fprint(out, &cost[0], &cost[1]);
		goto cleanup;
	}
	fprintf(out, "%s\n", name);
	for (i = 1; i < n; i++) {
		size_t l = strlen(hdr[i]);

		if (div > 1 && l > 3 && !strcmp(hdr[i] + l - 3, "_ns"))
			fprintf(out, "  %-16.*s_%s %.3f\n", (int)(l - 3), hdr[i],
				a->unit,
				strtod(val[i], NULL) / (double)div);
		else
			fprintf(out, "  %-18s %s\n", hdr[i], val[i]);
	}
	if (hist)
		fprintf(out, "\n%s", hist);
	if (a->by)
		ret = sw_span_keys(out, a, dir, id, div);
	sw_cost_fprint(out, &cost[0], &cost[1]);
cleanup:
	for (i = 0; hdr && i < 128; i++) {
		free(hdr[i]);
		free(val[i]);
	}
	free(hdr);
	free(val);
	free(stats);
	free(hist);
	return ret;
}

int cmd_span(int argc, char **argv)
{
	struct sw_overhead cost[2] = { 0 };
	struct sw_span_args a = { 0 };
	struct sw_err err = { "" };
	char *dir = NULL, *line = NULL, name[80], id[80], rm[96];
	bool loaded = false, added = false;
	FILE *out = stdout;
	int ret, status = 0, go = -1;
	pid_t child = 0;

	ret = sw_span_parse_args(argc, argv, &a);
	if (ret)
		return ret > 0 ? 0 : ret;
	if (!a.debugfs) {
		ret = sw_module_ensure(a.module, 0, &loaded, &err);
		if (ret) {
			fprintf(stderr, "stopwatch span: %s\n", err.msg);
			return ret;
		}
	}
	ret = sw_debugfs_find(a.debugfs, &dir, &err);
	if (ret) {
		fprintf(stderr, "stopwatch span: %s\n", err.msg);
		return ret;
	}
	if (a.remove) {
		snprintf(rm, sizeof(rm), "-%s\n", a.remove);
		ret = sw_ctl_write(dir, "spans", rm, &err);
		if (ret)
			fprintf(stderr, "stopwatch span: --remove %s: %s\n",
				a.remove, err.msg);
		goto cleanup;
	}
	if (a.name)
		snprintf(name, sizeof(name), "%s", a.name);
	else
		sw_span_default_name(&a, name, sizeof(name));
	/* A one-shot span carries our pid: two runs at once do not clash. */
	if (a.keep)
		snprintf(id, sizeof(id), "%s", name);
	else
		snprintf(id, sizeof(id), "%.50s.t%d", name, (int)getpid());
	ret = sw_span_line(&a, id, &line);
	if (ret)
		goto cleanup;
	if (a.output && !a.keep) {
		out = fopen(a.output, "w");
		if (!out) {
			ret = -errno;
			out = stdout;
			fprintf(stderr, "stopwatch span: cannot create %s: %s\n",
				a.output, strerror(-ret));
			goto cleanup;
		}
	}
	sw_signals_catch(sw_on_signal);
	if (a.cmd) {
		/* Held before exec until the span is in place. */
		child = sw_child_start(a.cmd, &go, "span");
		if (child < 0) {
			ret = child;
			child = 0;
			goto cleanup;
		}
	}
	ret = sw_ctl_write(dir, "spans", line, &err);
	if (ret) {
		fprintf(stderr, "stopwatch span: %s", line);
		fprintf(stderr, "stopwatch span: %s\n", err.msg);
		goto cleanup;
	}
	if (a.keep)
		goto cleanup;
	added = true;
	/* What stopwatch costs meanwhile: unknown (not said) without it. */
	if (sw_overhead_read(dir, &cost[0], NULL))
		cost[0].have = false;
	if (go >= 0) {
		if (write(go, "g", 1) != 1)
			ret = -errno;
		close(go);
		go = -1;
	}
	if (!ret)
		sw_span_wait(&a, child, &status);
	child = 0;
	if (sw_overhead_read(dir, &cost[1], NULL))
		cost[1].have = false;
	if (!ret)
		ret = sw_span_report(out, &a, dir, id, name, cost);
cleanup:
	if (added) {
		snprintf(rm, sizeof(rm), "-%s\n", id);
		if (sw_ctl_write(dir, "spans", rm, &err)) {
			fprintf(stderr, "stopwatch span: removing %s: %s\n", id,
				err.msg);
			if (!ret)
				ret = -EIO;
		}
	}
	if (go >= 0)
		close(go);
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	if (out != stdout && fclose(out) && !ret)
		ret = -EIO;
	free(line);
	free(dir);
	(void)loaded;
	return ret;
}
