// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-script.c - "stopwatch script": a recording as one stream in
 * time order: traced calls, samples with their stacks, process events.
 * "stopwatch trace" prints through here too (sw_script_print()).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "base/json.h"
#include "base/parse-options.h"
#include "output/timeline.h"
#include "record/calls.h"
#include "record/session.h"

struct sw_script_args {
	const char *input;
	const char *debuginfo_path;
	const char *perfetto, *chrome;
	bool json;
	bool all_pids;
};

/* The state of one printing. */
struct sw_script {
	const struct sw_script_opts *o;
	struct sw_session *s;
	struct sw_call_names names;
	FILE *out;
	uint64_t t0;
	uint64_t calls, printed;
};

static const struct sw_cmd_doc sw_script_doc = {
	.name = "script",
	.usage = "stopwatch script [-i FILE] [--json | --perfetto OUT | --chrome OUT]",
	.about =
		"Print a recording as one stream in time order: each traced call (its\n"
		"start, duration, thread, CPUs, return value and event counts), each\n"
		"sample with its call stack, and the process events (comm, fork, exit,\n"
		"mmap) in between.  The CPUs' streams are merged by time; a thread's\n"
		"records keep their order across migrations.\n",
	.examples =
		"  stopwatch trace -o calls.swd getppid -- ./app\n"
		"  stopwatch script -i calls.swd\n"
		"  stopwatch script -i prof.swd --json | jq 'select(.type==\"call\")'\n"
		"  stopwatch script -i calls.swd --perfetto calls.pftrace   (ui.perfetto.dev)\n"
		"  stopwatch script -i calls.swd --chrome calls.json        (speedscope, chrome://tracing)\n",
};

static const char *sw_script_comm(struct sw_script *sc, uint32_t pid,
				  uint32_t tid)
{
	return sw_str(&sc->s->m, sw_machine_comm(&sc->s->m, pid, tid));
}

static void sw_script_call(struct sw_script *sc, const struct sw_rec_header *h,
			   uint32_t cpu)
{
	struct sw_call_info ci;
	char tmp[16], func[256];
	const char *name;
	unsigned int i;
	FILE *f = sc->out;

	if (sw_call_decode(h, cpu, &ci))
		return;
	sc->calls++;
	if (ci.dur < sc->o->min_ns)
		return;
	sc->printed++;
	name = sw_call_name(&sc->names, ci.id, tmp);
	/* the function: the probe's identity without its @tag */
	snprintf(func, sizeof(func), "%.*s", (int)strcspn(name, "@"), name);
	if (sc->o->json) {
		fputs("{\"type\":\"call\",\"name\":", f);
		sw_json_str(f, func);
		fputs(",\"probe\":", f);
		sw_json_str(f, name);
		fprintf(f, ",\"id\":%u,\"span\":%s,\"start\":%" PRIu64
			",\"end\":%" PRIu64 ",\"dur\":%" PRIu64
			",\"pid\":%u,\"tid\":%u,\"cpu_start\":%u,\"cpu_end\":%u",
			ci.id, ci.span ? "true" : "false", ci.start, ci.end,
			ci.dur, ci.pid, ci.tid, ci.cpu_start, ci.cpu_end);
		fputs(",\"comm\":", f);
		sw_json_str(f, sw_script_comm(sc, ci.pid, ci.tid));
		if (ci.has_ret)
			fprintf(f, ",\"ret\":%" PRId64, (int64_t)ci.ret);
		if (ci.has_path)
			fprintf(f, ",\"path\":%" PRIu64, ci.path);
		for (i = 0; i < ci.nkeys; i++)
			fprintf(f, ",\"key%u\":%" PRIu64, i, ci.key[i]);
		if (ci.nev) {
			fputs(",\"ev\":[", f);
			for (i = 0; i < ci.nev; i++)
				fprintf(f, "%s%" PRIu64, i ? "," : "", ci.ev[i]);
			fprintf(f, "],\"ev_bad\":%" PRIu64, ci.ev_bad);
		}
		fputs("}\n", f);
		return;
	}
	fprintf(f, "%16s %7u/%-7u [%03u>%03u] %12.6f %12.3f us  %s()",
		sw_script_comm(sc, ci.pid, ci.tid), ci.pid, ci.tid,
		ci.cpu_start, ci.cpu_end,
		(double)(ci.start - sc->t0) / 1e9, (double)ci.dur / 1e3,
		func);
	if (ci.has_ret)
		fprintf(f, " = %" PRId64, (int64_t)ci.ret);
	for (i = 0; i < ci.nkeys; i++)
		fprintf(f, " key%u=%" PRIu64, i, ci.key[i]);
	for (i = 0; i < ci.nev; i++)
		fprintf(f, " ev%u=%" PRIu64 "%s", i, ci.ev[i],
			ci.ev_bad >> i & 1 ? "?" : "");
	fputc('\n', f);
}

static void sw_script_sample(struct sw_script *sc,
			     const struct sw_rec_sample *smp)
{
	const __u64 *fr = sw_sample_frames(smp);
	uint32_t i, n = smp->nr_kernel + smp->nr_user;
	FILE *f = sc->out;

	if (sc->o->json) {
		fprintf(f, "{\"type\":\"sample\",\"time\":%" PRIu64
			",\"pid\":%u,\"tid\":%u,\"cpu\":%u,\"period\":%" PRIu64
			",\"ip\":%" PRIu64 ",\"comm\":",
			(uint64_t)smp->h.time, smp->pid, smp->tid, smp->cpu,
			(uint64_t)smp->period, (uint64_t)smp->ip);
		sw_json_str(f, sw_script_comm(sc, smp->pid, smp->tid));
		fputs(",\"stack\":[", f);
	} else {
		fprintf(f, "%16s %7u/%-7u [%03u]     %12.6f sample period=%" PRIu64 "\n",
			sw_script_comm(sc, smp->pid, smp->tid), smp->pid,
			smp->tid, smp->cpu,
			(double)(smp->h.time - sc->t0) / 1e9,
			(uint64_t)smp->period);
	}
	for (i = 0; fr && i < n; i++) {
		bool kernel = i < smp->nr_kernel;
		int64_t id = sw_session_locate(sc->s, smp->pid, fr[i], kernel,
					       i != 0 && i != smp->nr_kernel,
					       false);
		const char *sym = id < 0 ? "[unknown]" :
			sw_str(&sc->s->m,
			       sw_symres_get(&sc->s->sym, (uint32_t)id)->sym);

		if (sc->o->json) {
			fprintf(f, "%s{\"ip\":%" PRIu64 ",\"sym\":", i ? "," : "",
				(uint64_t)fr[i]);
			sw_json_str(f, sym);
			fputc('}', f);
		} else {
			fprintf(f, "\t%16" PRIx64 " %s\n", (uint64_t)fr[i], sym);
		}
	}
	if (sc->o->json)
		fputs("]}\n", f);
}

static void sw_script_event(struct sw_script *sc, const struct sw_rec_header *h)
{
	const char *type = NULL;
	uint32_t pid = 0, tid = 0;
	char what[300] = "";
	FILE *f = sc->out;

	switch (h->type) {
	case SW_REC_COMM: {
		const struct sw_rec_comm *c = (const void *)h;

		type = "comm";
		pid = c->pid;
		tid = c->tid;
		snprintf(what, sizeof(what), "%.*s", SW_COMM_LEN, c->comm);
		break;
	}
	case SW_REC_FORK: {
		const struct sw_rec_fork *c = (const void *)h;

		type = "fork";
		pid = c->pid;
		tid = c->tid;
		snprintf(what, sizeof(what), "%u/%u", c->ppid, c->ptid);
		break;
	}
	case SW_REC_EXIT: {
		const struct sw_rec_exit *c = (const void *)h;

		type = "exit";
		pid = c->pid;
		tid = c->tid;
		break;
	}
	case SW_REC_MMAP: {
		const struct sw_rec_mmap *c = (const void *)h;
		const char *p = sw_mmap_path(c);

		type = "mmap";
		pid = c->pid;
		tid = c->tid;
		snprintf(what, sizeof(what), "%.256s", p ? p : "?");
		break;
	}
	default:
		return;
	}
	if (sc->o->json) {
		fprintf(f, "{\"type\":\"%s\",\"time\":%" PRIu64
			",\"pid\":%u,\"tid\":%u,\"what\":", type, (uint64_t)h->time, pid,
			tid);
		sw_json_str(f, what);
		fputs("}\n", f);
		return;
	}
	fprintf(f, "%16s %7u/%-7u           %12.6f %s %s\n",
		sw_script_comm(sc, pid, tid), pid, tid,
		(double)(h->time - sc->t0) / 1e9, type, what);
}

static int sw_script_rec(void *arg, const struct sw_rec_header *h,
			 uint32_t cpu)
{
	struct sw_script *sc = arg;

	if (!sc->t0)
		sc->t0 = h->type == SW_REC_CALL ?
			h->time - ((const struct sw_rec_call *)h)->dur :
			h->time;
	if (h->type == SW_REC_CALL)
		sw_script_call(sc, h, cpu);
	else if (h->type == SW_REC_SAMPLE)
		sw_script_sample(sc, (const void *)h);
	else if (!sc->o->calls_only)
		sw_script_event(sc, h);
	return ferror(sc->out) ? -EIO : 0;
}

static void sw_script_warn(void *arg, const char *msg)
{
	(void)arg;
	fprintf(stderr, "stopwatch script: warning: %s\n", msg);
}

/* Losses, said on stderr after the stream. */
static void sw_script_losses(struct sw_script *sc, const char *cmd)
{
	const struct sw_losses *l = &sc->s->lost;

	if (l->counted)
		fprintf(stderr,
			"stopwatch %s: %" PRIu64 " calls traced, %" PRIu64
			" written, lost: %" PRIu64 " buffer full, %" PRIu64
			" nested, %" PRIu64 " missing from the file; %" PRIu64
			" calls read, %" PRIu64 " printed\n",
			cmd, l->call_taken, l->call_written, l->call_full,
			l->call_nested, l->calls_missing, sc->calls,
			sc->printed);
	else
		fprintf(stderr,
			"stopwatch %s: the final counters are missing (recording cut short): lost at least %" PRIu64
			" buffer full, %" PRIu64 " nested; %" PRIu64
			" calls read\n",
			cmd, l->call_full, l->call_nested, sc->calls);
}

int sw_script_print(const char *input, const struct sw_script_opts *o,
		    const char *cmd)
{
	struct sw_session_opts so = { 0 };
	struct sw_script sc = { .o = o, .out = stdout };
	struct sw_err err = { "" };
	char *ids;
	int ret;

	so.debuginfo_path = o->debuginfo_path;
	so.all_pids = o->all_pids;
	so.no_src = true;
	so.warn = sw_script_warn;
	ret = sw_session_open(input, &so, &sc.s, &err);
	if (ret) {
		fprintf(stderr, "stopwatch %s: %s\n", cmd, err.msg);
		return ret;
	}
	ids = sw_session_meta(sc.s, "trace_ids");
	sw_call_names_parse(&sc.names, ids);
	free(ids);
	ret = sw_session_replay(sc.s, sw_script_rec, &sc);
	if (ret)
		fprintf(stderr, "stopwatch %s: %s\n", cmd, strerror(-ret));
	if (!o->quiet)
		sw_script_losses(&sc, cmd);
	sw_call_names_free(&sc.names);
	sw_session_close(sc.s);
	return ret;
}

/* --perfetto and --chrome: the timelines, output/timeline.c. */
static int sw_script_timelines(const struct sw_script_args *a)
{
	struct sw_timeline_opts t = {
		.input = a->input, .debuginfo_path = a->debuginfo_path,
		.all_pids = a->all_pids, .cmd = "script",
	};

	if (a->json) {
		fprintf(stderr, "stopwatch script: --json goes with neither --perfetto nor --chrome\n");
		return -EINVAL;
	}
	if (a->perfetto)
		t.outs[t.nouts++] = (struct sw_timeline_out){ &sw_perfetto_ops, a->perfetto };
	if (a->chrome)
		t.outs[t.nouts++] = (struct sw_timeline_out){ &sw_chrome_ops, a->chrome };
	return sw_timeline_export(&t);
}

int cmd_script(int argc, char **argv)
{
	struct sw_script_args a = { .input = SW_RECORD_DEFAULT_OUTPUT };
	const struct sw_option opts[] = {
		SW_OPT_NAME('i', "input", &a.input, "FILE",
			    "the recording (default " SW_RECORD_DEFAULT_OUTPUT ")",
			    "a file name"),
		SW_OPT_BOOL(0, "json", &a.json,
			    "one JSON object per line (type: call, sample, comm,\n"
			    "fork, exit, mmap)"),
		SW_OPT_STRING(0, "perfetto", &a.perfetto, "OUT",
			      "write a Perfetto trace to OUT instead: a track per\n"
			      "thread, a slice per call, counters of its events,\n"
			      "samples with their stacks"),
		SW_OPT_STRING(0, "chrome", &a.chrome, "OUT",
			      "write Chrome's JSON trace events to OUT instead"),
		SW_OPT_BOOL(0, "all-pids", &a.all_pids,
			    "every process, not only the recorded command's"),
		SW_OPT_STRING(0, "debuginfo-path", &a.debuginfo_path, "PATH",
			      "where to look for debug information"),
		SW_OPT_END(),
	};
	struct sw_script_opts o = { 0 };
	int n;

	n = sw_parse_options(argc, argv, &sw_script_doc, opts);
	if (n <= 0)
		return n;
	if (n != argc) {
		fprintf(stderr, "stopwatch script: unexpected argument '%s'\n",
			argv[n]);
		return -EINVAL;
	}
	if (a.perfetto || a.chrome)
		return sw_script_timelines(&a);
	o.json = a.json;
	o.all_pids = a.all_pids;
	o.debuginfo_path = a.debuginfo_path;
	n = sw_script_print(a.input, &o, "script");
	if (fflush(stdout) && !n)
		n = -EIO;
	return n;
}
