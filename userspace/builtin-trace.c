// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-trace.c - "stopwatch trace": a record of every call of the
 * functions matching the patterns, one line per call, in time order.
 *
 * The probes are added with trace=on (their calls written into the
 * sampler's streams, core/trace.c) and a recording is made with no
 * sampling ("stopwatch record -e none").  Its records are printed as they
 * are drained, by "stopwatch script"'s printer fed live: merged by time up
 * to a watermark (each CPU's stream read past a record's time, or the
 * record older than SW_TRACE_LATE_NS when the drain began), so a call's
 * line comes within a drain period and that bound of its return.  With
 * -o the recording is kept in a file instead.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "base/child.h"
#include "base/parse-options.h"
#include "control/debugfs.h"
#include "control/pattern.h"
#include "control/probe-ctl.h"
#include "control/probe-spec.h"
#include "control/span-btf.h"
#include "control/target.h"
#include "control/upoint.h"
#include "output/cost.h"
#include "record/recorder.h"

/*
 * How late after its time a record can still be read from its CPU's
 * relay file: the staging ring is drained into relay at the CPU's next
 * tick.  Records older than this when a drain begins are printed even if
 * an idle CPU's stream has not been read past them.
 */
#define SW_TRACE_LATE_NS (200 * 1000 * 1000ULL)

struct sw_trace_args {
	struct sw_target t;
	const char *output;
	const char *module;
	const char *debugfs;
	const char *attach;
	bool ret;
	bool json;
	bool graph;
	bool spans;
	char **pat;
	int npat;
	char **cmd;
};

static const struct sw_cmd_doc sw_trace_doc = {
	.name = "trace",
	.usage = "stopwatch trace [OPTIONS] PATTERN... [-- COMMAND [ARGS]]",
	.about =
		"Record every call of the functions matching the patterns and print one\n"
		"line per call as the calls return, in the order they returned (within\n"
		"about 300 ms; the rest at the end or ^C): the process and thread,\n"
		"the CPU it began and ended on, when it began, how long it took, the\n"
		"function, and with --ret its return value.  The CPUs' streams are merged\n"
		"by time; a thread's calls stay in their order across migrations.\n"
		"PATTERNs are those of 'stopwatch time' (kernel functions, globs,\n"
		"BINARY:SYMBOL user functions).  With a COMMAND, only it and its\n"
		"descendants are printed; without one, tracing runs until ^C.\n"
		"Records lost (buffer full, nested) are counted and said at the end.\n"
		"Spans added with 'stopwatch span --keep --trace' write each interval\n"
		"too: a line named as the span, with its key (--spans: with no PATTERN).\n"
		"With --graph, a thread's calls are printed in the order they began,\n"
		"those inside another call of the thread indented under it.\n",
	.examples =
		"  stopwatch trace getppid -- ./app               each getppid call of ./app\n"
		"  stopwatch trace --min 1ms 'vfs_*' -- make      only calls over 1 ms\n"
		"  stopwatch trace -p 1234 --ret ksys_read        one process, with return values\n"
		"  stopwatch trace --graph ksys_read vfs_read -- cat /etc/hostname\n"
		"  stopwatch trace --spans -- ./app               the traced spans' intervals\n"
		"  stopwatch trace -o calls.swd tcp_sendmsg -- ./client\n"
		"  stopwatch script -i calls.swd --json\n",
};

static int sw_trace_parse_args(int argc, char **argv, struct sw_trace_args *a)
{
	const struct sw_option opts[] = {
		SW_OPT_GROUP("Whose calls:"),
		SW_OPT_TARGET(&a->t, "calls"),
		SW_OPT_GROUP("How:"),
		SW_OPT_BOOL(0, "ret", &a->ret, "also record each call's return value"),
		SW_OPT_ATTACH(&a->attach),
		SW_OPT_BOOL(0, "json", &a->json, "one JSON object per call"),
		SW_OPT_BOOL(0, "graph", &a->graph,
			    "by start, each thread's inner calls indented under\n"
			    "the calls enclosing them"),
		SW_OPT_BOOL(0, "spans", &a->spans,
			    "the traced spans' intervals only, when no PATTERN\n"
			    "is given ('stopwatch span --keep --trace')"),
		SW_OPT_NAME('o', "output", &a->output, "FILE",
			    "save the recording to FILE instead of printing it\n"
			    "(print it later with 'stopwatch script -i FILE')",
			    "a file name"),
		SW_OPT_MODULE(&a->module),
		SW_OPT_DEBUGFS(&a->debugfs),
		SW_OPT_END(),
	};
	struct sw_err err = { "" };
	int n, end;

	end = sw_command_split(argc, argv, "trace", &a->cmd);
	if (end < 0)
		return end;
	n = sw_parse_options(end, argv, &sw_trace_doc, opts);
	if (n <= 0)
		return n < 0 ? n : 1;
	a->pat = argv + n;
	a->npat = end - n;
	if (!a->npat && !a->spans) {
		fprintf(stderr, "stopwatch trace: which functions? give at least one PATTERN (or --spans)\n\n");
		sw_usage_print(stderr, &sw_trace_doc, opts);
		return -EINVAL;
	}
	if (sw_target_check(&a->t, &err)) {
		fprintf(stderr, "stopwatch trace: %s\n", err.msg);
		return -EINVAL;
	}
	return 0;
}

/*
 * "stopwatch record -e none ..." for @a: into @file, or with no file, the
 * records handed to @live.
 */
static int sw_trace_record(struct sw_trace_args *a, const char *dir,
			   const char *file, const struct sw_record_live *live)
{
	char *argv[64], pid[24];
	int n = 0, i;

	argv[n++] = "record";
	argv[n++] = "-e";
	argv[n++] = "none";
	argv[n++] = "-q";
	if (file) {
		argv[n++] = "-o";
		argv[n++] = (char *)file;
	}
	argv[n++] = "--debugfs";
	argv[n++] = (char *)dir;
	if (a->cmd && *a->cmd) {
		argv[n++] = "--";
		for (i = 0; a->cmd[i] && n < 63; i++)
			argv[n++] = a->cmd[i];
	} else if (a->t.pid) {
		snprintf(pid, sizeof(pid), "%" PRIu64, a->t.pid);
		argv[n++] = "-p";
		argv[n++] = pid;
	} else {
		argv[n++] = "-a";
	}
	argv[n] = NULL;
	return live ? sw_record_live(n, argv, live) : cmd_record(n, argv);
}

/* The printer fed while recording. */
struct sw_trace_live {
	const struct sw_script_opts *so;
	struct sw_script_live *p;
};

static int sw_trace_live_start(void *arg, const char *meta, size_t len,
			       const struct sw_recorder *rec)
{
	struct sw_trace_live *t = arg;
	size_t i;
	int ret;

	ret = sw_script_live_open(t->so, "trace", meta, len, &t->p);
	for (i = 0; !ret && i < rec->ncpu; i++)
		ret = sw_script_live_cpu(t->p, rec->cpu[i].cpu);
	return ret;
}

static int sw_trace_live_rec(void *arg, const struct sw_rec_header *h,
			     uint32_t cpu)
{
	struct sw_trace_live *t = arg;

	return sw_script_live_add(t->p, h, cpu);
}

static int sw_trace_live_drained(void *arg, uint64_t before_ns)
{
	struct sw_trace_live *t = arg;

	return sw_script_live_flush(t->p, before_ns > SW_TRACE_LATE_NS ?
					  before_ns - SW_TRACE_LATE_NS : 0);
}

static int sw_trace_live_end(void *arg, const char *counters)
{
	struct sw_trace_live *t = arg;
	int ret = sw_script_live_end(t->p, counters);

	t->p = NULL;
	return ret;
}

/* --spans with no PATTERN: some span must be traced. */
static int sw_trace_spans_check(const char *dir)
{
	char *text = NULL;
	bool any;
	int ret;

	ret = sw_debugfs_read(dir, "spans", &text, NULL, NULL);
	if (ret) {
		fprintf(stderr, "stopwatch trace: cannot read the spans file: %s\n",
			strerror(-ret));
		return ret;
	}
	any = strstr(text, " trace=on") != NULL;
	free(text);
	if (any)
		return 0;
	fprintf(stderr, "stopwatch trace: --spans: no span is traced; add one with 'stopwatch span --keep --trace --name NAME --start ... --stop ...'\n");
	return -ENOENT;
}

int cmd_trace(int argc, char **argv)
{
	struct sw_overhead cost[2] = { 0 };
	struct sw_trace_args a = { 0 };
	struct sw_pattern_src src = { 0 };
	struct sw_expansion e = { 0 };
	struct sw_probe_opts po = { 0 };
	struct sw_script_opts so = { 0 };
	struct sw_err err = { "" };
	char *dir = NULL, *opts = NULL, *all = NULL, *line = NULL;
	struct sw_trace_live tl = { .so = &so };
	const struct sw_record_live live = {
		.start = sw_trace_live_start, .on_rec = sw_trace_live_rec,
		.drained = sw_trace_live_drained, .end = sw_trace_live_end,
		.arg = &tl,
	};
	char tag[32];
	bool loaded = false, added = false;
	int ret;

	ret = sw_trace_parse_args(argc, argv, &a);
	if (ret)
		return ret > 0 ? 0 : ret;
	if (!a.npat)
		goto find;
	ret = sw_points_expand(a.pat, (size_t)a.npat, (pid_t)a.t.pid, NULL,
			       &src, &e, &err);
	if (ret) {
		fprintf(stderr, "stopwatch trace: %s\n", err.msg);
		goto cleanup;
	}
	sw_pattern_skipped_print(stderr, "trace", &e);
	if (!a.debugfs) {
		ret = sw_module_ensure(a.module, e.n, &loaded, &err);
		if (ret) {
			fprintf(stderr, "stopwatch trace: %s\n", err.msg);
			goto cleanup;
		}
	}
find:
	ret = sw_debugfs_find(a.debugfs, &dir, &err);
	if (ret) {
		fprintf(stderr, "stopwatch trace: %s\n", err.msg);
		goto cleanup;
	}
	if (!a.npat) {
		ret = sw_trace_spans_check(dir);
		if (ret)
			goto cleanup;
		goto record;
	}
	ret = sw_target_apply(&a.t, &po, &err);
	if (ret) {
		fprintf(stderr, "stopwatch trace: %s\n", err.msg);
		goto cleanup;
	}
	opts = sw_probe_opts_format(&po);
	if (!opts || asprintf(&all, "%s%strace=%s", opts, *opts ? " " : "",
			      a.ret ? "ret" : "on") < 0) {
		all = NULL;
		ret = -ENOMEM;
		goto cleanup;
	}
	ret = sw_btf_attach_extra(&e, a.attach);
	if (ret)
		goto cleanup;
	snprintf(tag, sizeof(tag), "tr%d", (int)getpid());
	line = sw_ctl_build_ext('+', e.name, e.extra, e.n, tag, all);
	if (!line) {
		ret = -ENOMEM;
		goto cleanup;
	}
	ret = sw_ctl_write(dir, "probes", line, &err);
	if (ret) {
		fprintf(stderr, "stopwatch trace: %s\n", err.msg);
		goto cleanup;
	}
	added = true;

record:
	so.json = a.json;
	so.graph = a.graph;
	so.calls_only = true;
	so.min_ns = a.t.min_ns;
	/* again here: the spans' records pass no probe's filters */
	so.pid = a.t.pid;
	so.tid = a.t.tid;
	so.comm = a.t.comm;
	so.cpus = a.t.cpus;
	so.all_pids = !(a.cmd && *a.cmd);
	/* What stopwatch costs meanwhile: unknown (not said) without it. */
	if (sw_overhead_read(dir, &cost[0], NULL))
		cost[0].have = false;
	ret = sw_trace_record(&a, dir, a.output, a.output ? NULL : &live);
	sw_script_live_free(tl.p);
	if (!ret && !a.output && fflush(stdout))
		ret = -EIO;
	if (ret)
		goto cleanup;
	if (sw_overhead_read(dir, &cost[1], NULL))
		cost[1].have = false;
	/* The report's last line; beside a JSON or a file, on stderr. */
	if (!ret)
		sw_cost_fprint(a.output || a.json ? stderr : stdout, &cost[0],
			       &cost[1]);
cleanup:
	if (added) {
		free(line);
		line = sw_ctl_build('-', e.name, e.n, tag, NULL);
		if (!line || sw_ctl_write(dir, "probes", line, &err))
			fprintf(stderr, "stopwatch trace: could not remove the probes tagged %s: %s\n",
				tag, err.msg);
	}
	free(line);
	free(all);
	free(opts);
	free(dir);
	sw_expansion_free(&e);
	sw_pattern_src_free(&src);
	return ret;
}
