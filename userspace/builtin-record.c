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
#include <getopt.h>
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
#include "util/debugfs.h"
#include "util/pmu-events.h"
#include "util/recorder.h"
#include "util/table.h"

#define SW_RECORD_DEFAULT_OUTPUT "stopwatch.swd"

struct sw_record_args {
	const char *event;
	char *event_buf;	/* -e resolved (PMU/TERMS/ to ALIAS=TYPE:CONFIG) */
	uint64_t period;
	uint64_t freq;
	const char *callchain;
	bool all_cpus;
	uint32_t pid;
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

enum {
	OPT_DURATION = 256,
	OPT_DAEMON,
	OPT_ROTATE_SIZE,
	OPT_ROTATE_INTERVAL,
	OPT_MAX_FILES,
	OPT_DEBUGFS,
	OPT_CALL_GRAPH,
	OPT_MAX_RATE,
};

static const struct option sw_record_options[] = {
	{ "event", required_argument, NULL, 'e' },
	{ "count", required_argument, NULL, 'c' },
	{ "freq", required_argument, NULL, 'F' },
	{ "call-graph", required_argument, NULL, OPT_CALL_GRAPH },
	{ "all-cpus", no_argument, NULL, 'a' },
	{ "pid", required_argument, NULL, 'p' },
	{ "cpu", required_argument, NULL, 'C' },
	{ "output", required_argument, NULL, 'o' },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "daemon", no_argument, NULL, OPT_DAEMON },
	{ "rotate-size", required_argument, NULL, OPT_ROTATE_SIZE },
	{ "rotate-interval", required_argument, NULL, OPT_ROTATE_INTERVAL },
	{ "max-files", required_argument, NULL, OPT_MAX_FILES },
	{ "max-rate", required_argument, NULL, OPT_MAX_RATE },
	{ "debugfs", required_argument, NULL, OPT_DEBUGFS },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void sw_record_usage(FILE *f)
{
	fprintf(f,
		"usage: stopwatch record [OPTIONS] [--] [COMMAND [ARGS]]\n"
		"\n"
		"Sample where the CPUs spend their time with stopwatch.ko's sampler and save\n"
		"the samples, with what is needed to resolve them later, for 'stopwatch report'.\n"
		"\n"
		"What to sample:\n"
		"  COMMAND             run it and profile it and its children until it exits\n"
		"  -a, --all-cpus      every process on every CPU, until ^C or --duration\n"
		"  -p, --pid PID       one running process, until it exits or ^C\n"
		"  -C, --cpu LIST      only these CPUs (e.g. 0-3,6)\n"
		"How:\n"
		"  -e, --event EV      cycles, instructions, cpu-clock, rNNNN, PMU/TERMS/, ...\n"
		"                      (default: cycles, or cpu-clock without a hardware PMU;\n"
		"                      see 'stopwatch events list')\n"
		"  -c, --count N       one sample every N events\n"
		"  -F, --freq HZ       HZ samples per second per CPU (default 1000)\n"
		"  -g                  record call stacks (kernel and user)\n"
		"      --call-graph W  kernel, user or kernel,user\n"
		"      --max-rate N    the sampler drops (and counts) samples beyond N/s/CPU\n"
		"Where:\n"
		"  -o, --output FILE   the recording (default %s); with --daemon a\n"
		"                      directory for rotated files\n"
		"      --duration SEC  stop after SEC seconds\n"
		"      --daemon        keep recording, rotating files (implies -a unless -p)\n"
		"      --rotate-size MB      start a new file after MB megabytes (default 64)\n"
		"      --rotate-interval SEC start a new file after SEC seconds (default 3600)\n"
		"      --max-files N   keep the newest N files (default 24; 0 keeps all)\n"
		"      --debugfs DIR   the stopwatch debugfs directory (default %s)\n"
		"  -q, --quiet         no summary\n"
		"  -h, --help          this help\n"
		"\n"
		"Examples:\n"
		"  stopwatch record -e cycles -c 100000 -g -o prof.swd -- ./app args\n"
		"  stopwatch record -F 999 -g -- make -j8        a build and all its children\n"
		"  stopwatch record -a --duration 10             the whole machine for 10 s\n"
		"  stopwatch record -p 1234 -g                   a running process, until ^C\n"
		"  stopwatch record --daemon -g -o /var/lib/stopwatch/\n"
		"  stopwatch report -i prof.swd\n",
		SW_RECORD_DEFAULT_OUTPUT, SW_DEBUGFS_DIR);
}

static int sw_bad(const char *opt, const char *v, const char *want)
{
	fprintf(stderr, "stopwatch record: invalid %s '%s': expected %s\n", opt,
		v, want);
	return -EINVAL;
}

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
	if (!sw_token_ok(a->event_buf))
		return sw_bad("--event", a->event,
			      "one event name such as cycles, cpu-clock or cpu/event=0x3c/");
	a->event = a->event_buf;
	return 0;
}

static int sw_record_parse_args(int argc, char **argv, struct sw_record_args *a)
{
	uint64_t v;
	char *end;
	int c;

	a->output = NULL;
	a->rotate_size = 64;
	a->rotate_interval = 3600;
	a->max_files = 24;
	optind = 1;
	opterr = 0;
	/* "+": stop at the first non-option, the command. */
	while ((c = getopt_long(argc, argv, "+:e:c:F:gap:C:o:qh",
				sw_record_options, NULL)) != -1) {
		switch (c) {
		case 'e':
			a->event = optarg;
			break;
		case 'c':
			if (sw_parse_u64(optarg, &a->period) || !a->period)
				return sw_bad("--count", optarg,
					      "a number of events, at least 1");
			break;
		case 'F':
			if (sw_parse_u64(optarg, &a->freq) || !a->freq ||
			    a->freq > 100000)
				return sw_bad("--freq", optarg,
					      "samples per second, 1 to 100000");
			break;
		case 'g':
			a->callchain = "kernel,user";
			break;
		case OPT_CALL_GRAPH:
			if (strcmp(optarg, "kernel") && strcmp(optarg, "user") &&
			    strcmp(optarg, "kernel,user") &&
			    strcmp(optarg, "user,kernel") && strcmp(optarg, "none"))
				return sw_bad("--call-graph", optarg,
					      "kernel, user, kernel,user or none");
			a->callchain = optarg;
			break;
		case 'a':
			a->all_cpus = true;
			break;
		case 'p':
			if (sw_parse_u64(optarg, &v) || !v || v > INT32_MAX)
				return sw_bad("--pid", optarg, "a process id");
			a->pid = (uint32_t)v;
			break;
		case 'C':
			if (!*optarg || strspn(optarg, "0123456789,-") !=
						strlen(optarg))
				return sw_bad("--cpu", optarg,
					      "a CPU list such as 0-3,6");
			a->cpus = optarg;
			break;
		case 'o':
			if (!*optarg)
				return sw_bad("--output", optarg, "a file name");
			a->output = optarg;
			break;
		case OPT_DURATION:
			a->duration = strtod(optarg, &end);
			if (end == optarg || *end || !isfinite(a->duration) ||
			    a->duration <= 0)
				return sw_bad("--duration", optarg,
					      "seconds, more than 0");
			break;
		case OPT_DAEMON:
			a->daemon = true;
			break;
		case OPT_ROTATE_SIZE:
			if (sw_parse_u64(optarg, &a->rotate_size) ||
			    !a->rotate_size || a->rotate_size > 1 << 20)
				return sw_bad("--rotate-size", optarg,
					      "megabytes, at least 1");
			break;
		case OPT_ROTATE_INTERVAL:
			a->rotate_interval = strtod(optarg, &end);
			if (end == optarg || *end ||
			    !isfinite(a->rotate_interval) ||
			    a->rotate_interval < 1)
				return sw_bad("--rotate-interval", optarg,
					      "seconds, at least 1");
			break;
		case OPT_MAX_FILES:
			if (sw_parse_u64(optarg, &a->max_files))
				return sw_bad("--max-files", optarg,
					      "a number of files (0: keep all)");
			break;
		case OPT_MAX_RATE:
			if (sw_parse_u64(optarg, &a->max_rate) ||
			    a->max_rate > 10000000)
				return sw_bad("--max-rate", optarg,
					      "samples per second per CPU (0: no limit)");
			break;
		case OPT_DEBUGFS:
			a->debugfs = optarg;
			break;
		case 'q':
			a->quiet = true;
			break;
		case 'h':
			sw_record_usage(stdout);
			return 1;
		case ':':
			fprintf(stderr,
				"stopwatch record: option '%s' needs a value\n\n",
				argv[optind - 1]);
			sw_record_usage(stderr);
			return -EINVAL;
		default:
			fprintf(stderr,
				"stopwatch record: unknown option '%s'\n\n",
				argv[optind - 1]);
			sw_record_usage(stderr);
			return -EINVAL;
		}
	}
	a->cmd = argv + optind;
	a->ncmd = argc - optind;
	if (a->event && sw_record_resolve_event(a))
		return -EINVAL;
	if (a->period && a->freq) {
		fprintf(stderr,
			"stopwatch record: -c (period) and -F (frequency) exclude each other\n");
		return -EINVAL;
	}
	if (a->pid && a->ncmd) {
		fprintf(stderr,
			"stopwatch record: -p PID and a command exclude each other\n");
		return -EINVAL;
	}
	if (a->pid && a->all_cpus) {
		fprintf(stderr,
			"stopwatch record: -p PID and -a exclude each other\n");
		return -EINVAL;
	}
	if (a->daemon && a->ncmd) {
		fprintf(stderr,
			"stopwatch record: --daemon records the machine (or -p PID), not a command\n");
		return -EINVAL;
	}
	if (!a->ncmd && !a->all_cpus && !a->pid && !a->daemon) {
		fprintf(stderr,
			"stopwatch record: nothing to record: give a command, -a (all processes) or -p PID\n\n");
		sw_record_usage(stderr);
		return -EINVAL;
	}
	if (a->daemon && !a->pid)
		a->all_cpus = true;
	if (!a->output)
		a->output = a->daemon ? "." : SW_RECORD_DEFAULT_OUTPUT;
	return 0;
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
	fprintf(f, " callchain=%s", a->callchain ? a->callchain : "none");
	if (a->cpus)
		fprintf(f, " cpus=%s", a->cpus);
	if (a->pid)
		fprintf(f, " tgid=%" PRIu32, a->pid);
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
};

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
	fprintf(f, "control=%s", r->start_line);
	free(ev);
	free(rate);
	return ferror(f) ? -EIO : 0;
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
	qsort(names, n, sizeof(*names), sw_name_cmp);
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
	FILE *f;
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
	f = open_memstream(&meta, &mlen);
	if (!f)
		return -ENOMEM;
	ret = sw_record_meta(r, f);
	if (fclose(f) && !ret)
		ret = -ENOMEM;
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

static void sw_record_summary(struct sw_record *r, const char *counters)
{
	uint64_t taken = 0, written = 0, lost = 0, lf = 0, ln = 0, ls = 0,
		 lt = 0, sbl = 0;
	char *t = NULL;
	bool ok = false;

	/* The "all" row of the sampler's counter table. */
	if (counters) {
		const char *hdr = strstr(counters, "\ncpu ");
		const char *all = hdr ? strstr(hdr, "\nall ") : NULL;

		if (hdr && all) {
			struct sw_table *tab = NULL;
			const char *e = strchr(all + 1, '\n');

			t = strndup(hdr + 1, e ? (size_t)(e - hdr) : strlen(hdr + 1));
			if (t && !sw_table_parse(t, "sampler", &tab, NULL)) {
				size_t row = tab->nrows - 1;
				const char *names[] = { "taken", "written",
							"lost_full", "lost_nested",
							"lost_stack",
							"lost_throttled",
							"sb_lost" };
				uint64_t *dst[] = { &taken, &written, &lf, &ln,
						    &ls, &lt, &sbl };
				size_t k;

				ok = true;
				for (k = 0; k < 7; k++) {
					int col = sw_table_col(tab, names[k]);

					if (col < 0 ||
					    sw_parse_u64(sw_table_at(tab, row, (size_t)col),
							 dst[k]))
						ok = false;
				}
				sw_table_free(tab);
			}
		}
	}
	if (!ok) {
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
	if (sbl)
		fprintf(stderr,
			"stopwatch record: lost %" PRIu64 " task/mapping records: some samples will show as [unknown]\n",
			sbl);
	if (r->rec.dropped)
		fprintf(stderr,
			"stopwatch record: %" PRIu64 " bytes of the relay files did not parse as records and were dropped\n",
			r->rec.dropped);
	free(t);
}

int cmd_record(int argc, char **argv)
{
	struct sw_record_args a = { 0 };
	struct sw_record r = { 0 };
	struct sw_err err = { "" };
	struct sigaction sa = { 0 };
	int go_fd = -1, err_fd = -1, status = 0;
	pid_t child = 0;
	bool started = false, child_done = false;
	char *state = NULL, *counters = NULL;
	uint64_t deadline = 0;
	int64_t n;
	int ret, quiet_rounds;

	ret = sw_record_parse_args(argc, argv, &a);
	if (ret) {
		ret = ret > 0 ? 0 : ret;
		goto cleanup;
	}
	r.a = &a;
	r.argc = argc;
	r.argv = argv;
	ret = sw_debugfs_find(a.debugfs, &r.dir, &err);
	if (ret) {
		fprintf(stderr, "stopwatch record: %s\n", err.msg);
		goto cleanup;
	}
	ret = sw_sampler_state(r.dir, &state);
	if (ret) {
		fprintf(stderr,
			"stopwatch record: %s/sampler: %s\n", r.dir,
			ret == -ENOENT ?
			"not found: this stopwatch.ko has no sampler (rebuild and reload it)" :
			strerror(-ret));
		goto cleanup;
	}
	{
		char *st = sw_sampler_field(state, "state");

		if (st && !strcmp(st, "running")) {
			fprintf(stderr,
				"stopwatch record: the sampler is already running (another 'stopwatch record'?); stop it with 'echo stop > %s/sampler'\n",
				r.dir);
			free(st);
			ret = -EBUSY;
			goto cleanup;
		}
		free(st);
	}
	if (a.daemon && mkdir(a.output, 0755) && errno != EEXIST) {
		ret = -errno;
		fprintf(stderr, "stopwatch record: cannot create %s: %s\n",
			a.output, strerror(errno));
		goto cleanup;
	}
	/* Before the start: a slow read of kallsyms must not delay draining. */
	sw_facts_capture(&r.facts);
	if (!r.facts.kallsyms && !a.quiet)
		fprintf(stderr,
			"stopwatch record: warning: cannot read /proc/kallsyms: kernel symbols will be unknown\n");

	sa.sa_handler = sw_record_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	if (a.ncmd) {
		child = sw_fork_workload(a.cmd, &go_fd, &err_fd);
		if (child < 0) {
			ret = -errno;
			fprintf(stderr, "stopwatch record: cannot fork: %s\n",
				strerror(errno));
			goto cleanup;
		}
		r.target = (uint32_t)child;
	} else if (a.pid) {
		r.target = a.pid;
	}
	r.start_line = sw_start_line(&a);
	if (!r.start_line) {
		ret = -ENOMEM;
		goto cleanup;
	}
	ret = sw_sampler_ctl(r.dir, r.start_line, &err);
	if (ret) {
		fprintf(stderr, "stopwatch record: %s\n", err.msg);
		goto cleanup;
	}
	started = true;
	/* The relay files exist from the first start on, and each start
	 * empties them: open them now. */
	ret = sw_recorder_open(&r.rec, r.dir, &err);
	if (ret) {
		fprintf(stderr, "stopwatch record: %s\n", err.msg);
		goto cleanup;
	}
	free(state);
	state = NULL;
	if (sw_sampler_state(r.dir, &state))
		state = strdup("");
	r.sampler_text = state;
	r.start_ns = sw_now_ns(CLOCK_MONOTONIC);
	ret = sw_record_open_file(&r, NULL, 0);
	if (ret)
		goto cleanup;
	if (a.duration)
		deadline = r.start_ns + (uint64_t)(a.duration * 1e9);
	if (child > 0) {
		ret = sw_go(go_fd, err_fd);
		go_fd = err_fd = -1;
		if (ret) {
			fprintf(stderr, "stopwatch record: cannot run '%s': %s\n",
				a.cmd[0], strerror(-ret));
			waitpid(child, NULL, 0);
			child = 0;
			goto cleanup;
		}
	}

	while (!sw_stop_sig) {
		n = sw_recorder_drain(&r.rec, 100);
		if (n < 0) {
			ret = (int)n;
			fprintf(stderr, "stopwatch record: write error on %s: %s\n",
				r.path, strerror(-ret));
			goto cleanup;
		}
		if (child > 0 && waitpid(child, &status, WNOHANG) == child) {
			child_done = true;
			break;
		}
		if (a.pid && sw_pid_gone((pid_t)a.pid))
			break;
		if (deadline && sw_now_ns(CLOCK_MONOTONIC) >= deadline)
			break;
		if (a.daemon &&
		    (r.w.bytes >= a.rotate_size << 20 ||
		     sw_now_ns(CLOCK_MONOTONIC) - r.file_start_mono >=
			     (uint64_t)(a.rotate_interval * 1e9))) {
			ret = sw_record_rotate(&r);
			if (ret)
				goto cleanup;
		}
	}
	ret = sw_sampler_ctl(r.dir, "stop\n", &err);
	if (ret)
		fprintf(stderr, "stopwatch record: %s\n", err.msg);
	started = false;
	/* Drain what the stop flushed: until every CPU has ended its stream
	 * or nothing came for a while. */
	for (quiet_rounds = 0; quiet_rounds < 5;) {
		size_t i;
		bool all_ended = true;

		n = sw_recorder_drain(&r.rec, 20);
		if (n < 0) {
			ret = (int)n;
			break;
		}
		for (i = 0; i < r.rec.ncpu; i++)
			if (!r.rec.cpu[i].ended)
				all_ended = false;
		if (all_ended && !n)
			break;
		quiet_rounds = n ? 0 : quiet_rounds + 1;
	}
	if (!sw_sampler_state(r.dir, &counters) && counters && !*counters) {
		free(counters);
		counters = NULL;
	}
	ret = sw_record_close_file(&r, counters, false) ?: ret;
	if (!a.quiet)
		sw_record_summary(&r, counters);
	if (child > 0 && !child_done) {
		kill(child, SIGTERM);
		waitpid(child, &status, 0);
		child_done = true;
	}
	if (child_done && !a.quiet) {
		if (WIFEXITED(status) && WEXITSTATUS(status))
			fprintf(stderr, "stopwatch record: %s exited with status %d\n",
				a.cmd[0], WEXITSTATUS(status));
		else if (WIFSIGNALED(status))
			fprintf(stderr, "stopwatch record: %s was killed by signal %d\n",
				a.cmd[0], WTERMSIG(status));
	}
	if (a.daemon)
		sw_prune_files(a.output, a.max_files);
cleanup:
	if (started && sw_sampler_ctl(r.dir, "stop\n", &err))
		fprintf(stderr, "stopwatch record: %s\n", err.msg);
	if (r.have_w) {
		/* An error path: close what we have; it stays marked partial
		 * (no END section). */
		swd_writer_close(&r.w, NULL);
	}
	if (go_fd >= 0)
		close(go_fd);
	if (err_fd >= 0)
		close(err_fd);
	if (child > 0 && !child_done) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	sw_recorder_close(&r.rec);
	sw_facts_free(&r.facts);
	free(r.start_line);
	free(r.path);
	free(r.dir);
	free(state);
	free(counters);
	free(a.event_buf);
	return ret;
}
