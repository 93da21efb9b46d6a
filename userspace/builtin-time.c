// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-time.c - "stopwatch time": time the kernel functions a pattern
 * names, for a while or while a command runs, then print their statistics
 * and histograms (bcc's funclatency, with stopwatch.ko underneath).
 *
 * It adds its probes with its own tag (t<pid>), so that they sit beside
 * anybody else's probes of the same functions, and removes exactly those
 * probes when it is done, interrupted (SIGINT, SIGTERM) or failing.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
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
#include "control/pattern.h"
#include "control/pmu-events.h"
#include "control/probe-ctl.h"
#include "control/probe-spec.h"
#include "control/span-btf.h"
#include "control/target.h"
#include "output/predict.h"
#include "stopwatch/files.h"
#include "output/time-report.h"
#include "control/upoint.h"

struct sw_time_args {
	double duration;
	double interval;
	struct sw_target t;
	const char *by, *events, *module, *debugfs;
	const char *tag, *unit, *output, *attach;
	char *event_list;	/* the -e arguments, joined with commas */
	bool json, no_hist, all, pct, predict, correct;
	char **pat;
	size_t npat;
	char **cmd;
};

static const struct sw_cmd_doc sw_time_doc = {
	.name = "time",
	.usage = "stopwatch time [OPTIONS] PATTERN... [-- COMMAND [ARGS]]",
	.about =
		"Time every call of the kernel functions the patterns name, while COMMAND\n"
		"runs, for -d seconds or until interrupted, then print per-function\n"
		"statistics and log2 histograms.  The table shows durations with units,\n"
		"counts with thousands separators, only the columns that are not zero on\n"
		"every row, any loss flagged with '!' (a filter's choice '*') and explained,\n"
		"and how each function is attached in words; -v (or --raw) prints the\n"
		"full table, in one unit.\n"
		"\n"
		"A PATTERN is a function name, a glob (vfs_*, *_read_iter, tcp_v[46]_*)\n"
		"or MODULE:GLOB (ext4:ext4_*), expanded against the functions the kernel\n"
		"can trace, minus the kprobe blacklist; matching functions that cannot be\n"
		"probed are named and skipped.  BINARY:SYMBOL, BINARY:GLOB and\n"
		"BINARY:0xOFFSET name user functions (uprobes): BINARY is a path, or a\n"
		"library or program name (with -p, the file that process maps).\n"
		"stopwatch.ko is loaded when it is not (modprobe, else --module, else\n"
		"the build next to this program).  The probes carry the tag t<pid>:\n"
		"they coexist with other users' probes of the same functions and are\n"
		"the only ones removed at the end.\n"
		"With a COMMAND, only it and its descendants are timed unless -p, -t,\n"
		"--comm or --cgroup say otherwise.\n",
	.examples =
		"  stopwatch time 'vfs_*' -d 10                  every vfs_ function, 10 s\n"
		"  stopwatch time -p 1234 --by caller ksys_read  one process, by caller\n"
		"  stopwatch time -e cycles,instructions --by comm do_sys_openat2 -- make -j2\n"
		"  stopwatch time --min 1ms -u us tcp_sendmsg    only calls over 1 ms, in us\n"
		"  stopwatch time 'ext4:ext4_*' -i 1             per-second deltas\n"
		"  stopwatch time vfs_read --json -- dd if=/dev/zero of=/dev/null count=1000\n"
		"  stopwatch time -p 1234 libc:malloc libc:free  a library, one process\n"
		"  stopwatch time ./app:parse_* vfs_read -- ./app in  user and kernel\n"
		"  stopwatch time --predict 'vfs_*'              what timing them would cost\n"
		"  stopwatch time --predict -d 5 --attach kretprobe 'tcp_*' -- ./bench\n",
};

static int sw_time_check(struct sw_time_args *a)
{
	struct sw_err err = { "" };
	int ret = 0;

	if (a->by)
		ret = sw_keys_check(a->by, &err);
	if (!ret)
		ret = sw_target_check(&a->t, &err);
	if (!ret && a->tag && !sw_tag_ok(a->tag))
		ret = sw_err_set(&err, -EINVAL,
				 "invalid tag '%s': expected 1 to %d of [A-Za-z0-9_]",
				 a->tag, SW_TAG_MAX);
	if (!ret && a->attach)
		ret = sw_attach_check(a->attach, &err);
	if (!ret && a->predict && (a->json || a->interval || a->correct))
		ret = sw_err_set(&err, -EINVAL,
				 "--predict prints a prediction only: not with %s",
				 a->json ? "--json" : a->correct ? "--correct" : "-i");
	if (!ret && !a->npat)
		ret = sw_err_set(&err, -EINVAL,
				 "no function pattern given (e.g. 'vfs_*'); see 'stopwatch time --help'");
	if (ret)
		fprintf(stderr, "stopwatch time: %s\n", err.msg);
	return ret;
}

/* -e, repeatable, each a list. */
static int sw_time_event_cb(const struct sw_option *opt, const char *arg)
{
	struct sw_time_args *a = opt->value;
	int ret = sw_event_list_add(&a->event_list, arg);

	a->events = a->event_list;
	return ret;
}

/* Return: 0 to go on, 1 after --help, or a negative errno (reported). */
static int sw_time_parse_args(int argc, char **argv, struct sw_time_args *a)
{
	const struct sw_option opts[] = {
		SW_OPT_GROUP("What and how long"),
		SW_OPT_DOUBLE('d', "duration", &a->duration, "SEC",
			      "stop after SEC seconds (with a COMMAND: end it)",
			      0.001, 86400.0 * 365,
			      "seconds, at least 0.001 (e.g. 10 or 0.5)"),
		SW_OPT_DOUBLE('i', "interval", &a->interval, "SEC",
			      "also print what each SEC seconds added (deltas)",
			      0.001, 86400.0 * 365,
			      "seconds, at least 0.001 (e.g. 1 or 0.5)"),
		SW_OPT_CALLBACK('I', "interval-print", &a->interval, "MSEC",
				"the same in milliseconds, as perf stat -I",
				sw_opt_msec_cb, "milliseconds, at least 1"),
		SW_OPT_BOOL(0, "predict", &a->predict,
			    "predict instead: count the calls for -d seconds\n"
			    "(default 1) or while COMMAND runs, with the probes\n"
			    "the run would add, remove them, and print each\n"
			    "function's calls/s, cost per call and overhead"),
		SW_OPT_GROUP("Whose calls (filters)"),
		SW_OPT_TARGET(&a->t, "calls"),
		SW_OPT_GROUP("What to show"),
		SW_OPT_CALLBACK('u', "unit", &a->unit, "UNIT",
				"durations in ns, us, ms or s (default: each\n"
				"scaled; ns with -v)",
				sw_opt_unit_cb, "ns, us, ms or s"),
		SW_OPT_NAME(0, "by", &a->by, "KEY[,KEY2]",
			    "also split by pid, tgid, comm, cpu, caller,\n"
			    "argN or retval (or a pair)", "keys"),
		SW_OPT_CALLBACK('e', "events", a, "EVENTS",
				"count these perf events per call (a comma list;\n"
				"-e again adds; :u or :k after one: user or kernel\n"
				"mode only; sets the module's events unless\n"
				"another user set others)", sw_time_event_cb,
				"an event list"),
		SW_OPT_BOOL(0, "no-hist", &a->no_hist, "no histograms"),
		SW_OPT_BOOL(0, "correct", &a->correct,
			    "min, avg and percentiles less the probe's in-window cost (calibrated at load)"),
		SW_OPT_BOOL('P', "percentiles", &a->pct,
			    "also the durations' p50, p90, p99, p99.9"),
		SW_OPT_BOOL('v', "all-columns", &a->all,
			    "the full table: every column in one unit (-u),\n"
			    "zeros included (what scripts parse; --raw too)"),
		SW_OPT_BOOL(0, "raw", &a->all,
			    "the same as --all-columns"),
		SW_OPT_BOOL('j', "json", &a->json, "one JSON document (a line per -i)"),
		SW_OPT_NAME('o', "output", &a->output, "FILE",
			    "write the report to FILE, not standard output\n"
			    "(which the COMMAND keeps)", "a file name"),
		SW_OPT_GROUP("Setup"),
		SW_OPT_MODULE(&a->module),
		SW_OPT_ATTACH(&a->attach),
		SW_OPT_NAME(0, "tag", &a->tag, "TAG",
			    "tag the probes TAG instead of t<pid>", "a tag"),
		SW_OPT_DEBUGFS(&a->debugfs),
		SW_OPT_END(),
	};
	int n, end;

	/* Options and patterns mix; the command starts after "--". */
	end = sw_command_split(argc, argv, "time", &a->cmd);
	if (end < 0)
		return end;
	n = sw_parse_options(end, argv, &sw_time_doc, opts);
	if (n <= 0)
		return n < 0 ? n : 1;
	a->pat = argv + n;
	a->npat = end - n;
	return sw_time_check(a);
}

static volatile sig_atomic_t sw_stop;

static void sw_on_signal(int sig)
{
	if (sig != SIGCHLD)
		sw_stop = 1;
}

/*
 * Sets the events (PMU-qualified names resolved through sysfs, as
 * "stopwatch events set" does) unless someone else set others.
 * *@set: we set them.  *@resolved: what was asked, resolved (for the report).
 */
static int sw_time_events(const char *dir, const char *events, bool *set,
			  char **resolved)
{
	struct sw_err err = { "" };
	char *cur = NULL, *line = NULL, *p, *want = NULL;
	int ret;

	*set = false;
	ret = sw_pmu_events_resolve(sw_sysfs_root(NULL), events, resolved,
				    &err);
	if (ret) {
		fprintf(stderr, "stopwatch time: -e: %s\n", err.msg);
		return ret;
	}
	events = *resolved;
	want = sw_event_list_names(events);
	if (!want)
		return -ENOMEM;
	ret = sw_debugfs_read(dir, "events", &cur, NULL, &err);
	if (ret) {
		fprintf(stderr, "stopwatch time: -e: %s\n", err.msg);
		return ret;
	}
	/* One name a line: compare as a comma-separated list. */
	for (p = cur; *p; p++)
		if (*p == '\n')
			*p = p[1] ? ',' : '\0';
	if (*cur) {
		if (strcmp(cur, want)) {
			fprintf(stderr,
				"stopwatch time: the module already counts the events %s, set by another user; not changing them to %s (see 'stopwatch events')\n",
				cur, want);
			ret = -EBUSY;
		}
		goto cleanup;
	}
	if (asprintf(&line, "%s\n", events) < 0) {
		line = NULL;
		ret = -ENOMEM;
		goto cleanup;
	}
	ret = sw_ctl_write(dir, "events", line, &err);
	if (ret)
		fprintf(stderr, "stopwatch time: -e %s: %s\n", events, err.msg);
	else
		*set = true;
cleanup:
	free(want);
	free(line);
	free(cur);
	return ret;
}

/*
 * Adds the probes in one write.  When the module takes no tags (older
 * than the tagged control syntax) and no option is needed, falls back to
 * plain names of functions nobody probes yet.
 */
static int sw_time_add(const char *dir, struct sw_expansion *e,
		       const char *tag, const char *opts, bool user_opts,
		       char ***ids, bool *tagged)
{
	struct sw_err err = { "" }, err2 = { "" };
	char *line, *probes = NULL, **have = NULL, **plain = NULL;
	size_t nhave = 0, nplain = 0, i, j, nskip = 0;
	int ret;

	*tagged = true;
	line = sw_ctl_build_ext('+', e->name, e->extra, e->n, tag, opts);
	if (!line)
		return -ENOMEM;
	ret = sw_ctl_write(dir, "probes", line, &err);
	free(line);
	if (!ret || ret != -EINVAL || user_opts || e->extra)
		goto done;
	/* Maybe the tags were refused: try plain names. */
	if (sw_debugfs_read(dir, "probes", &probes, NULL, NULL) ||
	    sw_probes_parse(probes, &have, &nhave))
		goto done;
	plain = calloc(e->n, sizeof(*plain));
	if (!plain)
		goto done;
	for (i = 0; i < e->n; i++) {
		for (j = 0; j < nhave && strcmp(have[j], e->name[i]); j++)
			;
		if (j < nhave)
			nskip++;
		else
			plain[nplain++] = e->name[i];
	}
	if (!nplain)
		goto done;
	line = sw_ctl_build('+', plain, nplain, NULL, NULL);
	if (!line)
		goto done;
	if (!sw_ctl_write(dir, "probes", line, &err2)) {
		fprintf(stderr,
			"stopwatch time: this stopwatch.ko takes no probe tags or filters: timing plain probes, every process's calls, %zu function%s another user probes skipped\n",
			nskip, nskip == 1 ? "" : "s");
		*tagged = false;
		ret = 0;
		/* Keep only what was added, in e's order. */
		for (i = 0; i < nplain; i++)
			plain[i] = strdup(plain[i]);
		for (i = 0; i < e->n; i++)
			free(e->name[i]);
		memcpy(e->name, plain, nplain * sizeof(*plain));
		e->n = nplain;
	}
	free(line);
done:
	free(plain);
	sw_names_free(have, nhave);
	free(probes);
	if (ret) {
		fprintf(stderr, "stopwatch time: %s\n", err.msg);
		return ret;
	}
	*ids = calloc(e->n, sizeof(**ids));
	if (!*ids)
		return -ENOMEM;
	for (i = 0; i < e->n; i++)
		if (*tagged ? asprintf(&(*ids)[i], "%s@%s", e->name[i], tag) < 0 :
			      !((*ids)[i] = strdup(e->name[i])))
			return -ENOMEM;
	return 0;
}

/* Removes what sw_time_add() added: in one write, else one by one. */
static int sw_time_remove(const char *dir, char **ids, size_t n)
{
	struct sw_err err = { "" };
	char *line;
	size_t i, left = 0;
	int ret;

	line = sw_ctl_build('-', ids, n, NULL, NULL);
	if (!line)
		return -ENOMEM;
	ret = sw_ctl_write(dir, "probes", line, &err);
	free(line);
	if (!ret)
		return 0;
	/* Someone removed some of ours: remove the others. */
	for (i = 0; i < n; i++) {
		line = sw_ctl_build('-', &ids[i], 1, NULL, NULL);
		if (!line)
			return -ENOMEM;
		ret = sw_ctl_write(dir, "probes", line, &err);
		free(line);
		if (ret && ret != -ENOENT) {
			fprintf(stderr, "stopwatch time: removing %s: %s\n",
				ids[i], err.msg);
			left++;
		}
	}
	return left ? -EIO : 0;
}

static double sw_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) +
	       (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

static void sw_ts_at(struct timespec *t, const struct timespec *t0,
		     double sec)
{
	long long ns = llround(sec * 1e9);

	t->tv_sec = t0->tv_sec + (time_t)(ns / 1000000000LL);
	t->tv_nsec = t0->tv_nsec + (long)(ns % 1000000000LL);
	if (t->tv_nsec >= 1000000000L) {
		t->tv_nsec -= 1000000000L;
		t->tv_sec++;
	}
}

/*
 * Waits for the command, -d or a signal, printing -i deltas on the way.
 * Return: 0, or a negative errno from reading or printing.
 */
static int sw_time_wait(const struct sw_time_args *a, const char *dir,
			struct sw_time_report *r, pid_t child, int *status)
{
	struct timespec t0, wake;
	double next = a->interval, end = a->duration, at;
	int ret = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		if (child > 0 && waitpid(child, status, WNOHANG) == child) {
			child = 0;
			break;
		}
		if (sw_stop)
			break;
		at = sw_since(&t0);
		/*
		 * An interval that fell due before the end is printed even
		 * when this wake-up came late (a loaded machine): -i 1 -d 3
		 * prints its intervals whatever the scheduler did.
		 */
		if (a->interval && at >= next && (!end || next < end)) {
			ret = sw_time_report_interval(r, dir, at);
			if (ret)
				break;
			next += a->interval;
			continue;
		}
		if (end && at >= end)
			break;
		wake.tv_sec = 0;
		at = a->interval ? next : end ? end : at + 3600;
		if (end && end < at)
			at = end;
		if (child > 0 && at > sw_since(&t0) + 0.1)
			at = sw_since(&t0) + 0.1;
		sw_ts_at(&wake, &t0, at);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &wake, NULL);
	}
	r->elapsed = sw_since(&t0);
	if (child > 0) {
		/* -d or a signal ended the run before the command. */
		kill(child, SIGTERM);
		while (waitpid(child, status, 0) < 0 && errno == EINTR)
			;
	}
	return ret;
}

/*
 * The prediction from a counting pass: the probes' calls and cost per
 * call over the pass's length, on the CPUs the overhead file counts (the
 * online ones without it).
 */
static int sw_time_count(const char *dir, const struct sw_expansion *e,
			 char **ids, const struct sw_time_report *r,
			 struct sw_predict *p)
{
	struct sw_err err = { "" };
	unsigned int ncpus = r->cost1.have ? r->cost1.ncpus : 0;
	char *stats = NULL;
	long n;
	int ret;

	if (!ncpus) {
		n = sysconf(_SC_NPROCESSORS_ONLN);
		ncpus = n > 0 ? (unsigned int)n : 1;
	}
	ret = sw_debugfs_read(dir, SW_FILE_STATS, &stats, NULL, &err);
	if (!ret)
		ret = sw_predict_compute(stats, ids, e->name, e->n, r->elapsed,
					 ncpus, p, &err);
	if (ret)
		fprintf(stderr, "stopwatch time --predict: %s\n", err.msg);
	free(stats);
	return ret;
}

int cmd_time(int argc, char **argv)
{
	struct sw_time_args a = { 0 };
	struct sw_pattern_src src = { 0 };
	struct sw_expansion e = { 0 };
	struct sw_probe_opts po = { 0 };
	struct sw_time_report r = { 0 };
	struct sw_predict pred = { 0 };
	struct sw_err err = { "" };
	char *dir = NULL, *opts = NULL, **ids = NULL, tagbuf[32];
	char *events = NULL;
	bool loaded = false, ev_set = false, tagged = true;
	unsigned int maxp;
	int ret, go = -1, status = 0, rm;
	pid_t child = 0;
	FILE *out = stdout;
	size_t i;

	ret = sw_time_parse_args(argc, argv, &a);
	if (ret) {
		ret = ret > 0 ? 0 : ret;
		goto cleanup;
	}
	/* A wrong event name is said before anything is probed or loaded. */
	if (a.events) {
		ret = sw_pmu_events_resolve(sw_sysfs_root(NULL), a.events,
					    &events, &err);
		free(events);
		events = NULL;
		if (ret) {
			fprintf(stderr, "stopwatch time: -e: %s\n", err.msg);
			goto cleanup;
		}
	}

	if (a.predict && !a.duration && !a.cmd)
		a.duration = 1;
	if (a.output) {
		out = fopen(a.output, "w");
		if (!out) {
			ret = -errno;
			fprintf(stderr, "stopwatch time: cannot create %s: %s\n",
				a.output, strerror(errno));
			goto cleanup;
		}
	}

	/* What to probe. */
	ret = sw_points_expand(a.pat, a.npat, (pid_t)a.t.pid, NULL, &src, &e,
			       &err);
	if (ret) {
		fprintf(stderr, "stopwatch time: %s\n", err.msg);
		goto cleanup;
	}
	sw_pattern_skipped_print(stderr, "time", &e);

	/* The module, its limit, its events. */
	if (!a.debugfs) {
		ret = sw_module_ensure(a.module, e.n, &loaded, &err);
		if (ret) {
			fprintf(stderr, "stopwatch time: %s\n", err.msg);
			goto cleanup;
		}
		maxp = sw_module_max_probes();
		if (maxp && e.n > maxp) {
			fprintf(stderr,
				"stopwatch time: the patterns match %zu probeable functions: needs max_probes=%zu; this load has %u (reload stopwatch.ko with max_probes=%zu, or narrow the patterns)\n",
				e.n, e.n, maxp, e.n);
			ret = -E2BIG;
			goto cleanup;
		}
	}
	ret = sw_debugfs_find(a.debugfs, &dir, &err);
	if (ret) {
		fprintf(stderr, "stopwatch time: %s\n", err.msg);
		goto cleanup;
	}
	if (a.events) {
		ret = sw_time_events(dir, a.events, &ev_set, &events);
		if (ret)
			goto cleanup;
	}

	/* Whose calls. */
	po.by = a.by;
	ret = sw_target_apply(&a.t, &po, &err);
	if (ret) {
		fprintf(stderr, "stopwatch time: --cgroup: %s\n", err.msg);
		goto cleanup;
	}

	sw_signals_catch(sw_on_signal);

	if (a.cmd) {
		child = sw_child_start(a.cmd, &go, "time");
		if (child < 0) {
			ret = child;
			child = 0;
			goto cleanup;
		}
		if (!a.t.pid && !a.t.tid && !a.t.comm && !a.t.cgroup)
			po.follow = (uint64_t)child;
	}
	opts = sw_probe_opts_format(&po);
	if (!opts) {
		ret = -ENOMEM;
		goto cleanup;
	}
	if (!a.tag) {
		snprintf(tagbuf, sizeof(tagbuf), "t%d", (int)getpid());
		a.tag = tagbuf;
	}
	ret = sw_btf_attach_extra(&e, a.attach);
	if (ret)
		goto cleanup;
	ret = sw_time_add(dir, &e, a.tag, opts,
			  a.t.pid || a.t.tid || a.t.comm || a.t.cgroup ||
				  a.t.cpus || a.t.min_ns || a.t.max_ns || a.by,
			  &ids, &tagged);
	if (ret)
		goto cleanup;

	/* Measure. */
	ret = sw_time_report_init(&r, dir, &e, ids, tagged ? a.tag : NULL,
				  a.unit ? a.unit : "ns");
	if (ret)
		goto remove;
	r.json = a.json;
	r.all = a.all;
	r.pct = a.pct;
	r.correct = a.correct;
	r.fixed_unit = a.unit != NULL;
	r.out = out;
	r.hist = !a.no_hist;
	r.by = a.by != NULL;
	r.events = events;
	r.filtered = po.min_ns || po.max_ns || po.pid || po.tgid || po.follow ||
		     po.comm || po.cgroup || po.cpus;
	/* What stopwatch costs meanwhile: unknown (not said) without it. */
	if (sw_overhead_read(dir, &r.cost0, NULL))
		r.cost0.have = false;
	if (go >= 0) {
		if (write(go, "g", 1) != 1) {
			ret = -errno;
			goto remove;
		}
		close(go);
		go = -1;
	}
	ret = sw_time_wait(&a, dir, &r, child, &status);
	child = 0;
	if (sw_overhead_read(dir, &r.cost1, NULL))
		r.cost1.have = false;
	if (!ret && a.predict)
		ret = sw_time_count(dir, &e, ids, &r, &pred);
	else if (!ret)
		ret = sw_time_report_load(&r, dir);
remove:
	rm = sw_time_remove(dir, ids, e.n);
	if (!ret)
		ret = rm;
	if (!ret && a.predict)
		sw_predict_fprint(out, &pred);
	else if (!ret)
		ret = sw_time_report_print(out, &r);
	if (!ret && a.cmd && WIFEXITED(status) && WEXITSTATUS(status))
		fprintf(stderr, "stopwatch time: %s exited with status %d\n",
			a.cmd[0], WEXITSTATUS(status));
	else if (!ret && a.cmd && WIFSIGNALED(status) &&
		 WTERMSIG(status) != SIGTERM && WTERMSIG(status) != SIGINT)
		fprintf(stderr, "stopwatch time: %s was killed by signal %d\n",
			a.cmd[0], WTERMSIG(status));
cleanup:
	if (go >= 0)
		close(go);
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	if (ev_set && dir)
		sw_ctl_write(dir, "events", "\n", NULL);
	sw_time_report_free(&r);
	sw_predict_free(&pred);
	if (out && out != stdout && fclose(out) && !ret) {
		fprintf(stderr, "stopwatch time: write error on %s\n",
			a.output);
		ret = -EIO;
	}
	if (ids)
		for (i = 0; i < e.n; i++)
			free(ids[i]);
	free(ids);
	free(opts);
	free(events);
	free(a.event_list);
	free(dir);
	sw_expansion_free(&e);
	sw_pattern_src_free(&src);
	(void)loaded;
	return ret;
}
