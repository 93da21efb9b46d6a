// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-record.c - "stopwatch record": run the sampler and save what it
 * produces, with the host facts needed to resolve it later.
 *
 *   stopwatch record [-e EV] [-c N | -F HZ] [-g] [-o FILE] -- CMD [ARGS]
 *   stopwatch record -a [--duration SEC]          every process, until ^C
 *   stopwatch record -p PID                       one running process
 *   stopwatch record --daemon -o DIR              rotated files, forever
 *
 * With a command, the sampler samples every CPU and the report keeps the
 * command's process tree (its FORK records are in the stream), so
 * children and short-lived processes are profiled too.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "control/debugfs.h"
#include "base/parse-options.h"
#include "control/pmu-events.h"
#include "record/recorder.h"
#include "record/session.h"
#include "record/unwload.h"
#include "base/sort.h"


struct sw_record_args {
	const char *event;
	char *event_buf;	/* -e resolved (PMU/TERMS/ to ALIAS=TYPE:CONFIG) */
	char *event_list;	/* the -e arguments, joined with commas */
	uint64_t period;
	uint64_t freq;
	const char *callchain;
	bool all_cpus;
	uint64_t pid;		/* 1 to INT32_MAX */
	const char *cpus;
	const char *output;
	const char *debugfs;
	double duration;
	bool daemon;
	uint64_t rotate_size;
	double rotate_interval;
	uint64_t max_files;
	uint64_t max_rate;
	bool quiet;
	char **cmd;
	int ncmd;
};

static const struct sw_cmd_doc sw_record_doc = {
	.name = "record",
	.usage = "stopwatch record [OPTIONS] [--] [COMMAND [ARGS]]",
	.about =
		"Sample where the CPUs spend their time with stopwatch.ko's sampler and save\n"
		"the samples, with what is needed to resolve them later, for 'stopwatch report'.\n",
	.examples =
		"  stopwatch record -e cycles -c 100000 -g -o prof.swd -- ./app args\n"
		"  stopwatch record -e instructions:u -c 100000 -- ./app  user mode only\n"
		"  stopwatch record -F 999 -g -- make -j8        a build and all its children\n"
		"  stopwatch record -a --duration 10             the whole machine for 10 s\n"
		"  stopwatch record -p 1234 -g                   a running process, until ^C\n"
		"  stopwatch record --daemon -g -o /var/lib/stopwatch/\n"
		"  stopwatch report -i prof.swd\n",
	/* The command's own options are its own. */
	.stop_at_command = true,
};

/*
 * Event names go into the control line: keep them to one token ("event=" +
 * the name up to the first blank; ALIAS=TYPE:CONFIG's '=' is fine there).
 */
static bool sw_token_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s <= ' ' || *s == ',' || (unsigned char)*s >= 0x7f)
			return false;
	return true;
}

/* -e through the sysfs resolver: "cpu/event=0x3c/" -> "cpu-event-0x3c=4:0x3c". */
static int sw_record_resolve_event(struct sw_record_args *a)
{
	struct sw_err err = { "" };
	int ret;

	ret = sw_pmu_events_resolve(sw_sysfs_root(NULL), a->event,
				    &a->event_buf, &err);
	if (ret) {
		fprintf(stderr, "stopwatch record: --event: %s\n", err.msg);
		return ret;
	}
	if (strchr(a->event_buf, ',')) {
		fprintf(stderr,
			"stopwatch record: --event '%s': the sampler samples one event at a time (several counted per call: stopwatch time -e LIST)\n",
			a->event);
		return -EINVAL;
	}
	if (!sw_token_ok(a->event_buf)) {
		fprintf(stderr,
			"stopwatch record: invalid --event '%s': expected one event name such as cycles, cpu-clock or cpu/event=0x3c/\n",
			a->event);
		return -EINVAL;
	}
	a->event = a->event_buf;
	return 0;
}

/* -e, repeatable, each a list; record takes one event in all. */
static int sw_record_event_cb(const struct sw_option *opt, const char *arg)
{
	struct sw_record_args *a = opt->value;
	int ret = sw_event_list_add(&a->event_list, arg);

	a->event = a->event_list;
	return ret;
}

/*
 * perf's --call-graph modes as the sampler's callchain=: fp walks user
 * stacks by frame pointers; dwarf by unwind tables built here from each
 * mapped file's call-frame information and unwound in the module (no user
 * stack is copied); -g is "auto": dwarf where the module has the table
 * unwinder, else fp.  It reads no last-branch records for lbr.
 */
static int sw_call_graph_cb(const struct sw_option *opt, const char *arg)
{
	static const struct {
		const char *mode, *callchain;
	} ok[] = {
		{ "fp", "kernel,user" }, { "kernel", "kernel" },
		{ "user", "user" }, { "kernel,user", "kernel,user" },
		{ "user,kernel", "kernel,user" }, { "none", "none" },
		{ "dwarf", "dwarf" },
	};
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(*ok); i++)
		if (!strcmp(arg, ok[i].mode)) {
			*(const char **)opt->value = ok[i].callchain;
			return 0;
		}
	if (!strncmp(arg, "dwarf,", 6)) {
		fprintf(stderr,
			"stopwatch record: --call-graph %s: stopwatch copies no user stack, so there is no size to give; use --call-graph dwarf\n",
			arg);
		return -EOPNOTSUPP;
	}
	if (!strncmp(arg, "lbr", 3)) {
		fprintf(stderr,
			"stopwatch record: --call-graph %s: stopwatch.ko's sampler reads no last-branch records; possible: fp, dwarf, kernel, user, none\n",
			arg);
		return -EOPNOTSUPP;
	}
	return -EINVAL;
}

static int sw_cpu_list_cb(const struct sw_option *opt, const char *arg)
{
	if (!*arg || strspn(arg, "0123456789,-") != strlen(arg))
		return -EINVAL;
	*(const char **)opt->value = arg;
	return 0;
}

/* What the option table cannot check one option at a time, and defaults. */
static int sw_record_check_args(struct sw_record_args *a,
				const struct sw_option *opts)
{
	const char *why = NULL;

	/* -e none: no sampling, only traced calls and the side band */
	if (a->event && strcmp(a->event, "none") &&
	    sw_record_resolve_event(a))
		return -EINVAL;
	if (a->period && a->freq)
		why = "-c (period) and -F (frequency) exclude each other";
	else if (a->pid && a->ncmd)
		why = "-p PID and a command exclude each other";
	else if (a->pid && a->all_cpus)
		why = "-p PID and -a exclude each other";
	else if (a->daemon && a->ncmd)
		why = "--daemon records the machine (or -p PID), not a command";
	if (why) {
		fprintf(stderr, "stopwatch record: %s\n", why);
		return -EINVAL;
	}
	if (!a->ncmd && !a->all_cpus && !a->pid && !a->daemon) {
		fprintf(stderr,
			"stopwatch record: nothing to record: give a command, -a (all processes) or -p PID\n\n");
		sw_usage_print(stderr, &sw_record_doc, opts);
		return -EINVAL;
	}
	if (a->daemon && !a->pid)
		a->all_cpus = true;
	if (!a->output)
		a->output = a->daemon ? "." : SW_RECORD_DEFAULT_OUTPUT;
	return 0;
}

/* Return: 0 to go on, 1 after --help, or a negative errno (reported). */
static int sw_record_parse_args(int argc, char **argv, struct sw_record_args *a)
{
	const struct sw_option opts[] = {
		SW_OPT_GROUP("What to sample:\n"
			     "  COMMAND                   run it and profile it and its children until it exits"),
		SW_OPT_BOOL('a', "all-cpus", &a->all_cpus,
			    "every process on every CPU, until ^C or --duration"),
		SW_OPT_U64('p', "pid", &a->pid, "PID",
			   "one running process, until it exits or ^C", 1,
			   INT32_MAX, "a process id"),
		SW_OPT_CALLBACK('C', "cpu", &a->cpus, "LIST",
				"only these CPUs (e.g. 0-3,6)", sw_cpu_list_cb,
				"a CPU list such as 0-3,6"),
		SW_OPT_GROUP("How:"),
		SW_OPT_CALLBACK('e', "event", a, "EV",
				"cycles, instructions, cpu-clock, rNNNN, PMU/TERMS/,\n"
				"L1-dcache-load-misses, PAPI_TOT_CYC, ..., with :u\n"
				"or :k for user or kernel mode only (one event;\n"
				"default: cycles, or cpu-clock without a hardware PMU;\n"
				"see 'stopwatch events list')", sw_record_event_cb,
				"an event name"),
		SW_OPT_U64('c', "count", &a->period, "N",
			   "one sample every N events", 1, UINT64_MAX,
			   "a number of events, at least 1"),
		SW_OPT_U64('F', "freq", &a->freq, "HZ",
			   "HZ samples per second per CPU (default 1000)", 1,
			   100000, "samples per second, 1 to 100000"),
		SW_OPT_SET('g', NULL, &a->callchain, "auto",
			   "record call stacks (kernel and user; user ones as\n"
			   "--call-graph dwarf where the module can, else fp)"),
		SW_OPT_CALLBACK(0, "call-graph", &a->callchain, "W",
				"fp (kernel and user stacks, user ones by frame\n"
				"pointers), dwarf (user ones by unwind tables built\n"
				"from each file's call-frame information), kernel,\n"
				"user or none; lbr is not possible", sw_call_graph_cb,
				"fp, dwarf, kernel, user, kernel,user or none"),
		SW_OPT_U64(0, "max-rate", &a->max_rate, "N",
			   "the sampler drops (and counts) samples beyond N/s/CPU",
			   0, 10000000,
			   "samples per second per CPU (0: no limit)"),
		SW_OPT_GROUP("Where:"),
		SW_OPT_NAME('o', "output", &a->output, "FILE",
			    "the recording (default " SW_RECORD_DEFAULT_OUTPUT "); with --daemon a\n"
			    "directory for rotated files", "a file name"),
		SW_OPT_DOUBLE(0, "duration", &a->duration, "SEC",
			      "stop after SEC seconds", 1e-9, 1e12,
			      "seconds, more than 0"),
		SW_OPT_BOOL(0, "daemon", &a->daemon,
			    "keep recording, rotating files (implies -a unless -p)"),
		SW_OPT_U64(0, "rotate-size", &a->rotate_size, "MB",
			   "start a new file after MB megabytes (default 64)",
			   1, 1 << 20, "megabytes, at least 1"),
		SW_OPT_DOUBLE(0, "rotate-interval", &a->rotate_interval, "SEC",
			      "start a new file after SEC seconds (default 3600)",
			      1, 1e12, "seconds, at least 1"),
		SW_OPT_U64(0, "max-files", &a->max_files, "N",
			   "keep the newest N files (default 24; 0 keeps all)",
			   0, UINT64_MAX, "a number of files (0: keep all)"),
		SW_OPT_DEBUGFS(&a->debugfs),
		SW_OPT_BOOL('q', "quiet", &a->quiet, "no summary"),
		SW_OPT_END(),
	};
	int n;

	a->rotate_size = 64;
	a->rotate_interval = 3600;
	a->max_files = 24;
	n = sw_parse_options(argc, argv, &sw_record_doc, opts);
	if (n <= 0)
		return n < 0 ? n : 1;
	a->cmd = argv + n;
	a->ncmd = argc - n;
	return sw_record_check_args(a, opts);
}

/* Whether process @pid has ended (a zombie has ended too). */
static bool sw_pid_gone(pid_t pid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	if (kill(pid, 0) && errno == ESRCH)
		return true;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	/* "pid (comm) S ...": the state follows the last ')'. */
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X');
}

static volatile sig_atomic_t sw_stop_sig;

static void sw_record_on_signal(int sig)
{
	sw_stop_sig = sig;
}

static uint64_t sw_now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The control line for "start". */
static char *sw_start_line(const struct sw_record_args *a)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	if (!f)
		return NULL;
	fputs("start", f);
	if (a->event)
		fprintf(f, " event=%s", a->event);
	if (a->period)
		fprintf(f, " period=%" PRIu64, a->period);
	else
		fprintf(f, " freq=%" PRIu64, a->freq ? a->freq : 1000);
	if (a->callchain && !strcmp(a->callchain, "dwarf"))
		fputs(" callchain=kernel,user unwind=table", f);
	else
		fprintf(f, " callchain=%s", a->callchain ? a->callchain : "none");
	if (a->cpus)
		fprintf(f, " cpus=%s", a->cpus);
	if (a->pid)
		fprintf(f, " tgid=%" PRIu64, a->pid);
	if (a->max_rate)
		fprintf(f, " max_rate=%" PRIu64, a->max_rate);
	fputc('\n', f);
	if (fclose(f)) {
		free(s);
		return NULL;
	}
	return s;
}

/* Shell-like quoting of argv for the META "command" line. */
static void sw_put_cmd(FILE *f, char **argv, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		const char *p = argv[i];
		bool q = !*p || strpbrk(p, " \t\n'\"\\$`") != NULL;

		if (i)
			fputc(' ', f);
		if (!q) {
			fputs(p, f);
			continue;
		}
		fputc('\'', f);
		for (; *p; p++) {
			if (*p == '\'')
				fputs("'\\''", f);
			else if (*p == '\n')
				fputc(' ', f);
			else
				fputc(*p, f);
		}
		fputc('\'', f);
	}
}

struct sw_record {
	struct sw_record_args *a;
	char *dir;
	struct sw_recorder rec;
	struct sw_unw_loader unw;
	struct swd_writer w;
	bool have_w;
	char *path;
	struct sw_facts facts;
	char *sampler_text;
	char *start_line;
	uint64_t start_ns;
	uint64_t file_start_mono;
	uint64_t file_start_real;
	uint32_t target;
	char **argv;
	int argc;
	unsigned int nfiles;
	/* The run: the sampler started, the workload, the deadline. */
	bool started;
	pid_t child;
	bool child_done;
	int status;
	int go_fd, err_fd;
	uint64_t deadline;
	char *state;
	char *counters;
	/* no file: the records handed to it (stopwatch trace) */
	const struct sw_record_live *live;
};

/*
 * "KEY=ID:NAME,..." of the lines of @file (probes or spans) that are
 * traced (trace= and id=): the probes' names as the probes file gives
 * them, the spans' without their '+'.
 */
static void sw_record_ids(struct sw_record *r, FILE *f, const char *file,
			  const char *key)
{
	char *text = NULL, *l, *nl, *end;
	bool any = false;

	if (sw_debugfs_read(r->dir, file, &text, NULL, NULL))
		return;
	end = text + strlen(text);
	for (l = text; l < end; l = nl + 1) {
		char *id;

		nl = strchrnul(l, '\n');
		*nl = '\0';
		if (*l == '+')
			l++;
		id = strstr(l, " trace=");
		if (id && (id = strstr(id, " id="))) {
			if (any)
				fputc(',', f);
			else
				fprintf(f, "%s=", key);
			fprintf(f, "%s:%.*s", id + 4, (int)strcspn(l, " \t"), l);
			any = true;
		}
	}
	if (any)
		fputc('\n', f);
	free(text);
}

/*
 * "trace_ids=ID:NAME,..." of the probes whose calls are traced (the
 * probes file's trace= and id=), "trace_span_ids=ID:NAME,..." of the
 * traced spans (the spans file's), so that the records' ids have names.
 */
static void sw_record_trace_ids(struct sw_record *r, FILE *f)
{
	sw_record_ids(r, f, "probes", "trace_ids");
	sw_record_ids(r, f, "spans", "trace_span_ids");
}

static int sw_record_meta(struct sw_record *r, FILE *f)
{
	struct utsname u;
	char host[256] = "?";
	char *ev = sw_sampler_field(r->sampler_text, "event");
	char *rate = sw_sampler_field(r->sampler_text, "rate");
	int i;

	uname(&u);
	gethostname(host, sizeof(host) - 1);
	fprintf(f, "stopwatch_version=%s\n", sw_version);
	fprintf(f, "hostname=%s\nrelease=%s\nmachine=%s\n", host, u.release,
		u.machine);
	fprintf(f, "nr_cpus=%ld\n", sysconf(_SC_NPROCESSORS_CONF));
	fprintf(f, "cmdline=");
	for (i = 0; i < r->argc; i++)
		fprintf(f, "%s%s", i ? " " : "", r->argv[i]);
	fputc('\n', f);
	if (r->a->ncmd) {
		fprintf(f, "command=");
		sw_put_cmd(f, r->a->cmd, r->a->ncmd);
		fputc('\n', f);
	}
	if (r->target)
		fprintf(f, "target_pid=%" PRIu32 "\n", r->target);
	fprintf(f, "mode=%s\n", r->a->ncmd ? "command" :
				r->a->pid ? "pid" : "all");
	fprintf(f, "start_realtime_ns=%" PRIu64 "\n", r->file_start_real);
	/* "cpu-clock type=1 config=0x0 ..." -> "cpu-clock" */
	if (ev) {
		ev[strcspn(ev, " ")] = '\0';
		fprintf(f, "event=%s\n", ev);
	} else if (r->a->event) {
		fprintf(f, "event=%s\n", r->a->event);
	}
	if (rate)
		fprintf(f, "rate=%s\n", rate);
	if (r->a->period)
		fprintf(f, "period=%" PRIu64 "\n", r->a->period);
	else if (ev && (!strcmp(ev, "cpu-clock") || !strcmp(ev, "task-clock")))
		fprintf(f, "period=%" PRIu64 "\n",
			(uint64_t)(1000000000ULL / (r->a->freq ? r->a->freq : 1000)));
	fprintf(f, "callchain=%s\n", r->a->callchain ? r->a->callchain : "none");
	sw_record_trace_ids(r, f);
	fprintf(f, "control=%s", r->start_line);
	free(ev);
	free(rate);
	return ferror(f) ? -EIO : 0;
}

/* The META section's text, malloc()ed into @meta (or NULL), @len bytes. */
static int sw_record_meta_text(struct sw_record *r, char **meta, size_t *len)
{
	FILE *f = open_memstream(meta, len);
	int ret;

	if (!f)
		return -ENOMEM;
	ret = sw_record_meta(r, f);
	if (fclose(f) && !ret)
		ret = -ENOMEM;
	return ret;
}

/* Name of the next rotated file in the --daemon directory. */
static char *sw_rotated_name(const char *dir, unsigned int seq)
{
	char stamp[32], *p = NULL;
	time_t t = time(NULL);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	if (asprintf(&p, "%s/stopwatch-%s-%04u.swd", dir, stamp, seq) < 0)
		return NULL;
	return p;
}

static int sw_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Deletes the oldest rotated files beyond --max-files. */
static void sw_prune_files(const char *dir, uint64_t keep)
{
	char **names = NULL, path[4096];
	size_t n = 0, i;
	struct dirent *de;
	DIR *d;

	if (!keep || !(d = opendir(dir)))
		return;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		char **nn;

		if (strncmp(de->d_name, "stopwatch-", 10) || l < 5 ||
		    strcmp(de->d_name + l - 4, ".swd"))
			continue;
		nn = realloc(names, (n + 1) * sizeof(*nn));
		if (!nn)
			break;
		names = nn;
		names[n] = strdup(de->d_name);
		if (!names[n])
			break;
		n++;
	}
	closedir(d);
	sw_qsort(names, n, sizeof(*names), sw_name_cmp);
	for (i = 0; i + keep < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* Opens a new output file and writes its leading sections. */
static int sw_record_open_file(struct sw_record *r, const void *state,
			       size_t state_len)
{
	struct sw_err err = { "" };
	char *meta = NULL;
	size_t mlen = 0;
	int ret;

	free(r->path);
	r->path = r->a->daemon ? sw_rotated_name(r->a->output, r->nfiles) :
				 strdup(r->a->output);
	if (!r->path)
		return -ENOMEM;
	ret = swd_writer_open(&r->w, r->path, &err);
	if (ret) {
		fprintf(stderr, "stopwatch record: %s\n", err.msg);
		return ret;
	}
	r->have_w = true;
	r->rec.w = &r->w;
	r->rec.file_samples = 0;
	r->file_start_mono = sw_now_ns(CLOCK_MONOTONIC);
	r->file_start_real = sw_now_ns(CLOCK_REALTIME);
	ret = sw_record_meta_text(r, &meta, &mlen);
	if (!ret)
		ret = swd_write_section(&r->w, SWD_SEC_META, 0, meta, mlen,
					false);
	free(meta);
	if (!ret)
		ret = sw_facts_write(&r->w, &r->facts, r->nfiles > 0);
	if (!ret && state_len)
		ret = swd_write_section(&r->w, SWD_SEC_STATE, 0, state,
					state_len, false);
	r->nfiles++;
	return ret;
}

/* END key=values of the current file. */
static char *sw_end_kv(struct sw_record *r, bool rotated)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	if (!f)
		return NULL;
	fprintf(f, "duration_ns=%" PRIu64 "\n",
		sw_now_ns(CLOCK_MONOTONIC) - r->file_start_mono);
	fprintf(f, "samples=%" PRIu64 "\n", r->rec.file_samples);
	fprintf(f, "reader_dropped_bytes=%" PRIu64 "\n", r->rec.dropped);
	fprintf(f, "rotated=%d\n", rotated);
	fclose(f);
	return s;
}

static int sw_record_close_file(struct sw_record *r, const char *counters,
				bool rotated)
{
	struct sw_err err = { "" };
	char *kv = sw_end_kv(r, rotated);
	int ret;

	if (!kv)
		return -ENOMEM;
	ret = sw_recorder_finish_file(&r->rec, counters, kv);
	free(kv);
	r->rec.w = NULL;
	r->have_w = false;
	if (swd_writer_close(&r->w, &err) && !ret) {
		fprintf(stderr, "stopwatch record: %s\n", err.msg);
		ret = -EIO;
	} else if (ret) {
		fprintf(stderr, "stopwatch record: write error on %s: %s\n",
			r->path, strerror(-ret));
	}
	return ret;
}

static int sw_record_rotate(struct sw_record *r)
{
	void *state = NULL;
	size_t len = 0;
	int ret;

	ret = sw_record_close_file(r, NULL, true);
	if (ret)
		return ret;
	if (!r->a->quiet)
		fprintf(stderr, "stopwatch record: %s done\n", r->path);
	sw_prune_files(r->a->output, r->a->max_files ? r->a->max_files - 1 : 0);
	ret = sw_recorder_state(&r->rec, &state, &len);
	if (!ret)
		ret = sw_record_open_file(r, state, len);
	free(state);
	return ret;
}

/* Forks the workload, stopped before exec until sw_go() releases it. */
static pid_t sw_fork_workload(char **cmd, int *go_fd, int *err_fd)
{
	int go[2], ep[2];
	pid_t pid;

	if (pipe2(go, O_CLOEXEC) || pipe2(ep, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		char c;
		int e;

		close(go[1]);
		close(ep[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(cmd[0], cmd);
		e = errno;
		if (write(ep[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(ep[1]);
	*go_fd = go[1];
	*err_fd = ep[0];
	return pid;
}

/* Lets the workload exec; returns 0 or the exec's negative errno. */
static int sw_go(int go_fd, int err_fd)
{
	int e = 0;
	ssize_t n;

	n = write(go_fd, "g", 1);
	close(go_fd);
	if (n != 1)
		return -EPIPE;
	n = read(err_fd, &e, sizeof(e));
	close(err_fd);
	return n == sizeof(e) ? -e : 0;
}

/*
 * The kernel stopped the event for the rest of a tick @n times: its limit,
 * kernel.perf_event_max_sample_rate, was reached.  Those samples were never
 * taken, so they are in no lost count.
 */
static void sw_record_kthrottled(uint64_t n)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "r");
	long rate = -1;

	if (f) {
		if (fscanf(f, "%ld", &rate) != 1)
			rate = -1;
		fclose(f);
	}
	fprintf(stderr,
		"stopwatch record: the kernel throttled the event %" PRIu64
		" times: fewer samples than asked for were taken\n", n);
	if (rate >= 0)
		fprintf(stderr,
			"stopwatch record: kernel.perf_event_max_sample_rate is %ld/s (lowered by the kernel when sample interrupts take long; see kernel.perf_cpu_time_max_percent)\n",
			rate);
}

static void sw_record_summary(struct sw_record *r, const char *counters)
{
	uint64_t taken = 0, written = 0, lost = 0, lf = 0, ln = 0, ls = 0,
		 lt = 0, sbl = 0, kthr = 0;
	struct sw_losses c;

	/* The "all" row of the sampler's counter table, else the records'. */
	if (counters && !sw_sampler_counters(counters, strlen(counters), &c,
					     &kthr)) {
		taken = c.taken;
		written = c.written;
		lf = c.full;
		ln = c.nested;
		ls = c.stack;
		lt = c.throttled;
		sbl = c.sideband;
	} else {
		lf = r->rec.lost[0];
		ln = r->rec.lost[1];
		ls = r->rec.lost[2];
		lt = r->rec.lost[3];
		sbl = r->rec.lost[4];
		written = r->rec.samples;
		taken = written + lf + ln + ls + lt;
	}
	lost = lf + ln + ls + lt;
	if (written > r->rec.samples)
		lost += written - r->rec.samples;
	fprintf(stderr,
		"[ stopwatch record: wrote %" PRIu64 " samples (%.2f MB of records) to %s ]\n",
		r->rec.samples, (double)r->rec.bytes / 1e6, r->path);
	if (lost)
		fprintf(stderr,
			"stopwatch record: lost %" PRIu64 " samples (%.2f%%): buffer full %" PRIu64
			", throttled %" PRIu64 ", nested %" PRIu64
			", stack %" PRIu64 ", written but not read %" PRIu64 "\n",
			lost, taken ? 100.0 * (double)lost / (double)taken : 0.0,
			lf, lt, ln, ls,
			written > r->rec.samples ? written - r->rec.samples : 0);
	if (kthr)
		sw_record_kthrottled(kthr);
	if (sbl)
		fprintf(stderr,
			"stopwatch record: lost %" PRIu64 " task/mapping records: some samples will show as [unknown]\n",
			sbl);
	if (r->rec.dropped)
		fprintf(stderr,
			"stopwatch record: %" PRIu64 " bytes of the relay files did not parse as records and were dropped\n",
			r->rec.dropped);
}

/* Refuses to start while another recording holds the sampler. */
static int sw_record_check_sampler(struct sw_record *r)
{
	char *st;
	int ret;

	ret = sw_sampler_state(r->dir, &r->state);
	if (ret) {
		fprintf(stderr, "stopwatch record: %s/sampler: %s\n", r->dir,
			ret == -ENOENT ?
			"not found: this stopwatch.ko has no sampler (rebuild and reload it)" :
			strerror(-ret));
		return ret;
	}
	st = sw_sampler_field(r->state, "state");
	ret = st && !strcmp(st, "running") ? -EBUSY : 0;
	if (ret)
		fprintf(stderr,
			"stopwatch record: the sampler is already running (another 'stopwatch record'?); stop it with 'echo stop > %s/sampler'\n",
			r->dir);
	free(st);
	return ret;
}

/* Everything before the start: the directory, the output, host facts. */
static int sw_record_prepare(struct sw_record *r)
{
	struct sw_record_args *a = r->a;
	struct sigaction sa = { 0 };
	struct sw_err err = { "" };
	int ret;

	ret = sw_debugfs_find(a->debugfs, &r->dir, &err);
	if (ret) {
		fprintf(stderr, "stopwatch record: %s\n", err.msg);
		return ret;
	}
	ret = sw_record_check_sampler(r);
	if (ret)
		return ret;
	if (a->daemon && mkdir(a->output, 0755) && errno != EEXIST) {
		ret = -errno;
		fprintf(stderr, "stopwatch record: cannot create %s: %s\n",
			a->output, strerror(errno));
		return ret;
	}
	/* Before the start: a slow read of kallsyms must not delay draining. */
	sw_facts_capture(&r->facts);
	if (!r->facts.kallsyms && !a->quiet)
		fprintf(stderr,
			"stopwatch record: warning: cannot read /proc/kallsyms: kernel symbols will be unknown\n");
	sa.sa_handler = sw_record_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	return 0;
}

/*
 * -g: dwarf where the module has the table unwinder, else fp.  dwarf:
 * opens the module's unwind file (clearing what an earlier recording
 * left) so the recorder loads tables as mappings appear.
 */
static int sw_record_unwind_open(struct sw_record *r)
{
	struct sw_record_args *a = r->a;
	struct sw_err err = { "" };
	int ret;

	r->unw.fd = -1;
	if (!a->callchain || (strcmp(a->callchain, "auto") &&
			      strcmp(a->callchain, "dwarf")))
		return 0;
	ret = sw_unw_loader_open(&r->unw, r->dir, &err);
	if (ret && !strcmp(a->callchain, "auto")) {
		a->callchain = "kernel,user";
		r->unw.fd = -1;
		return 0;
	}
	a->callchain = "dwarf";
	if (ret) {
		fprintf(stderr,
			"stopwatch record: --call-graph dwarf: %s%s\n", err.msg,
			ret == -ENOENT ? " (this stopwatch.ko has no table unwinder; --call-graph fp walks frame pointers)" : "");
		return ret;
	}
	if (a->ncmd) {
		r->unw.workload = (uint32_t)r->child;
		sw_unw_loader_preload(&r->unw, a->cmd[0]);
	}
	return 0;
}

/* Live: the records go to r->live, the file's META to its start(). */
static int sw_record_live_start(struct sw_record *r)
{
	char *meta = NULL;
	size_t mlen = 0;
	int ret;

	r->rec.on_rec = r->live->on_rec;
	r->rec.on_rec_arg = r->live->arg;
	r->file_start_real = sw_now_ns(CLOCK_REALTIME);
	ret = sw_record_meta_text(r, &meta, &mlen);
	if (!ret)
		ret = r->live->start(r->live->arg, meta, mlen, &r->rec);
	free(meta);
	return ret;
}

/*
 * Forks the workload (held back until the sampler runs), starts the
 * sampler, opens its relay files and the output, then lets the workload go.
 */
static int sw_record_start(struct sw_record *r)
{
	struct sw_record_args *a = r->a;
	struct sw_err err = { "" };
	int ret;

	if (a->ncmd) {
		r->child = sw_fork_workload(a->cmd, &r->go_fd, &r->err_fd);
		if (r->child < 0) {
			ret = -errno;
			r->child = 0;
			fprintf(stderr, "stopwatch record: cannot fork: %s\n",
				strerror(errno));
			return ret;
		}
		r->target = (uint32_t)r->child;
	} else if (a->pid) {
		r->target = (uint32_t)a->pid;
	}
	ret = sw_record_unwind_open(r);
	if (ret)
		return ret;
	r->start_line = sw_start_line(a);
	if (!r->start_line)
		return -ENOMEM;
	ret = sw_sampler_ctl(r->dir, r->start_line, &err);
	if (ret) {
		fprintf(stderr, "stopwatch record: %s\n", err.msg);
		return ret;
	}
	r->started = true;
	/* The relay files exist from the first start on, and each start
	 * empties them: open them now. */
	ret = sw_recorder_open(&r->rec, r->dir, &err);
	if (ret) {
		fprintf(stderr, "stopwatch record: %s\n", err.msg);
		return ret;
	}
	if (r->unw.fd >= 0)
		r->rec.unw = &r->unw;
	free(r->state);
	r->state = NULL;
	if (sw_sampler_state(r->dir, &r->state))
		r->state = strdup("");
	r->sampler_text = r->state;
	r->start_ns = sw_now_ns(CLOCK_MONOTONIC);
	ret = r->live ? sw_record_live_start(r) : sw_record_open_file(r, NULL, 0);
	if (ret)
		return ret;
	if (a->duration)
		r->deadline = r->start_ns + (uint64_t)(a->duration * 1e9);
	if (r->child <= 0)
		return 0;
	ret = sw_go(r->go_fd, r->err_fd);
	r->go_fd = r->err_fd = -1;
	if (ret) {
		fprintf(stderr, "stopwatch record: cannot run '%s': %s\n",
			a->cmd[0], strerror(-ret));
		waitpid(r->child, NULL, 0);
		r->child = 0;
	}
	return ret;
}

/* Whether the recording is over: workload or process gone, time is up. */
static bool sw_record_done(struct sw_record *r)
{
	struct sw_record_args *a = r->a;

	if (r->child > 0 && waitpid(r->child, &r->status, WNOHANG) == r->child) {
		r->child_done = true;
		return true;
	}
	if (a->pid && sw_pid_gone((pid_t)a->pid))
		return true;
	return r->deadline && sw_now_ns(CLOCK_MONOTONIC) >= r->deadline;
}

/* Drains the relay files into the output until done or interrupted. */
static int sw_record_loop(struct sw_record *r)
{
	struct sw_record_args *a = r->a;
	int64_t n;
	int ret;

	while (!sw_stop_sig) {
		uint64_t before = sw_now_ns(CLOCK_MONOTONIC);

		n = sw_recorder_drain(&r->rec, 100);
		if (n < 0 && r->live)
			return (int)n;
		if (n < 0) {
			fprintf(stderr, "stopwatch record: write error on %s: %s\n",
				r->path, strerror((int)-n));
			return (int)n;
		}
		if (r->live) {
			ret = r->live->drained(r->live->arg, before);
			if (ret)
				return ret;
		}
		if (sw_record_done(r))
			break;
		if (a->daemon &&
		    (r->w.bytes >= a->rotate_size << 20 ||
		     sw_now_ns(CLOCK_MONOTONIC) - r->file_start_mono >=
			     (uint64_t)(a->rotate_interval * 1e9))) {
			ret = sw_record_rotate(r);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/*
 * Stops the sampler and drains what the stop flushed: until every CPU has
 * ended its stream or nothing came for a while.
 */
static int sw_record_stop(struct sw_record *r)
{
	struct sw_err err = { "" };
	int quiet_rounds, ret;
	int64_t n;

	ret = sw_sampler_ctl(r->dir, "stop\n", &err);
	if (ret)
		fprintf(stderr, "stopwatch record: %s\n", err.msg);
	r->started = false;
	for (quiet_rounds = 0; quiet_rounds < 5;) {
		size_t i;
		bool all_ended = true;

		n = sw_recorder_drain(&r->rec, 20);
		if (n < 0)
			return (int)n;
		for (i = 0; i < r->rec.ncpu; i++)
			if (!r->rec.cpu[i].ended)
				all_ended = false;
		if (all_ended && !n)
			break;
		quiet_rounds = n ? 0 : quiet_rounds + 1;
	}
	return ret;
}

/* Ends the workload if still running and says how it ended. */
static void sw_record_reap(struct sw_record *r)
{
	const char *cmd = r->a->ncmd ? r->a->cmd[0] : "";

	if (r->child > 0 && !r->child_done) {
		kill(r->child, SIGTERM);
		waitpid(r->child, &r->status, 0);
		r->child_done = true;
	}
	if (!r->child_done || r->a->quiet)
		return;
	if (WIFEXITED(r->status) && WEXITSTATUS(r->status))
		fprintf(stderr, "stopwatch record: %s exited with status %d\n",
			cmd, WEXITSTATUS(r->status));
	else if (WIFSIGNALED(r->status))
		fprintf(stderr, "stopwatch record: %s was killed by signal %d\n",
			cmd, WTERMSIG(r->status));
}

/* What --call-graph dwarf loaded into the module. */
static void sw_record_unwind_summary(const struct sw_unw_loader *l)
{
	fprintf(stderr,
		"stopwatch record: unwind tables: %" PRIu64 " loaded (%" PRIu64
		" rows, built in %.1f ms), %" PRIu64 " maps (%" PRIu64
		" no longer mapped; %" PRIu64
		" of other processes not loaded); %" PRIu64
		" files without call-frame information, %" PRIu64
		" refused for room (unwind_kb), %" PRIu64 " failed%s%s\n",
		l->tables, l->rows, (double)l->build_ns / 1e6, l->maps,
		l->stale, l->others, l->no_cfi, l->no_room, l->failed,
		l->first_err.msg[0] ? ": " : "", l->first_err.msg);
}

/* Stops, finishes the file with the sampler's final counters, reports. */
static int sw_record_finish(struct sw_record *r)
{
	int ret = sw_record_stop(r);

	if (!sw_sampler_state(r->dir, &r->counters) && r->counters &&
	    !*r->counters) {
		free(r->counters);
		r->counters = NULL;
	}
	if (r->live)
		ret = r->live->end(r->live->arg, r->counters) ?: ret;
	else
		ret = sw_record_close_file(r, r->counters, false) ?: ret;
	if (!r->a->quiet && !r->live)
		sw_record_summary(r, r->counters);
	if (!r->a->quiet && r->unw.fd >= 0)
		sw_record_unwind_summary(&r->unw);
	sw_record_reap(r);
	if (r->a->daemon)
		sw_prune_files(r->a->output, r->a->max_files);
	return ret;
}

/* Undoes what is left after an error, and frees everything. */
static void sw_record_cleanup(struct sw_record *r)
{
	struct sw_err err = { "" };

	if (r->started && sw_sampler_ctl(r->dir, "stop\n", &err))
		fprintf(stderr, "stopwatch record: %s\n", err.msg);
	/* An error path: close what we have; it stays marked partial (no
	 * END section). */
	if (r->have_w)
		swd_writer_close(&r->w, NULL);
	if (r->go_fd >= 0)
		close(r->go_fd);
	if (r->err_fd >= 0)
		close(r->err_fd);
	if (r->child > 0 && !r->child_done) {
		kill(r->child, SIGKILL);
		waitpid(r->child, NULL, 0);
	}
	sw_recorder_close(&r->rec);
	sw_unw_loader_close(&r->unw);
	sw_facts_free(&r->facts);
	free(r->start_line);
	free(r->path);
	free(r->dir);
	free(r->state);
	free(r->counters);
}

int cmd_record(int argc, char **argv)
{
	return sw_record_live(argc, argv, NULL);
}

int sw_record_live(int argc, char **argv, const struct sw_record_live *live)
{
	struct sw_record_args a = { 0 };
	struct sw_record r = { .a = &a, .unw = { .fd = -1 }, .argc = argc,
			       .argv = argv, .go_fd = -1, .err_fd = -1,
			       .live = live };
	int ret;

	ret = sw_record_parse_args(argc, argv, &a);
	if (ret) {
		ret = ret > 0 ? 0 : ret;
		goto cleanup;
	}
	ret = sw_record_prepare(&r);
	if (!ret)
		ret = sw_record_start(&r);
	if (!ret)
		ret = sw_record_loop(&r);
	if (!ret)
		ret = sw_record_finish(&r);
cleanup:
	sw_record_cleanup(&r);
	free(a.event_buf);
	free(a.event_list);
	return ret;
}
