// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-serve.c - "stopwatch serve": what stopwatch.ko measures, over
 * HTTP, for Prometheus and pprof clients.
 *
 *   /metrics               the probes, spans, keyed rows and the sampler's
 *                          counters (the Prometheus writer of "stat"), in
 *                          the text format 0.0.4, or OpenMetrics 1.0 when
 *                          the Accept header asks for it
 *   /debug/pprof/profile   a CPU profile from the sampler for ?seconds=N
 *                          ("record -a -g" then "report --pprof"), as Go's
 *                          net/http/pprof serves one; one at a time
 *   /debug/pprof/paths     the call-path trie as a pprof profile
 *
 * Read only: what to keep probed comes from --config, read at start and
 * on SIGHUP.  libmicrohttpd does the HTTP, one thread per connection.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "base/dlib.h"
#include "base/parse-options.h"
#include "control/config.h"
#include "control/debugfs.h"
#include "control/snapshot.h"
#include "output/paths.h"
#include "output/pprof.h"
#include "output/stat-display.h"

#define SW_SERVE_LISTEN "127.0.0.1:9464"
#define SW_SERVE_MAX_CONN 1024
#define SW_PROM_CTYPE "text/plain; version=0.0.4; charset=utf-8"
#define SW_BODY_BLOCK (64 * 1024)	/* bytes a response reads at a time */
#define SW_OM_CTYPE "application/openmetrics-text; version=1.0.0; charset=utf-8"

extern char **environ;

#if SW_DLOPEN
/*
 * libmicrohttpd is loaded by "serve" only (dlib.h): with GnuTLS and what
 * that needs, it is nine libraries no other command uses.
 */
static struct {
	__typeof__(MHD_start_daemon) *start_daemon;
	__typeof__(MHD_stop_daemon) *stop_daemon;
	__typeof__(MHD_get_daemon_info) *get_daemon_info;
	__typeof__(MHD_lookup_connection_value) *lookup_connection_value;
	__typeof__(MHD_create_response_from_buffer) *create_response_from_buffer;
	__typeof__(MHD_create_response_from_callback) *create_response_from_callback;
	__typeof__(MHD_add_response_header) *add_response_header;
	__typeof__(MHD_queue_response) *queue_response;
	__typeof__(MHD_destroy_response) *destroy_response;
} sw_mhd;

static const struct sw_dlsym sw_mhd_syms[] = {
	{ "MHD_start_daemon", &sw_mhd.start_daemon },
	{ "MHD_stop_daemon", &sw_mhd.stop_daemon },
	{ "MHD_get_daemon_info", &sw_mhd.get_daemon_info },
	{ "MHD_lookup_connection_value", &sw_mhd.lookup_connection_value },
	{ "MHD_create_response_from_buffer", &sw_mhd.create_response_from_buffer },
	{ "MHD_create_response_from_callback", &sw_mhd.create_response_from_callback },
	{ "MHD_add_response_header", &sw_mhd.add_response_header },
	{ "MHD_queue_response", &sw_mhd.queue_response },
	{ "MHD_destroy_response", &sw_mhd.destroy_response },
	{ NULL, NULL }
};

static struct sw_dlib sw_mhd_lib = {
	.soname = "libmicrohttpd.so.12",
	.package = "libmicrohttpd12",
	.syms = sw_mhd_syms,
};

#define MHD_start_daemon (*sw_mhd.start_daemon)
#define MHD_stop_daemon (*sw_mhd.stop_daemon)
#define MHD_get_daemon_info (*sw_mhd.get_daemon_info)
#define MHD_lookup_connection_value (*sw_mhd.lookup_connection_value)
#define MHD_create_response_from_buffer (*sw_mhd.create_response_from_buffer)
#define MHD_create_response_from_callback (*sw_mhd.create_response_from_callback)
#define MHD_add_response_header (*sw_mhd.add_response_header)
#define MHD_queue_response (*sw_mhd.queue_response)
#define MHD_destroy_response (*sw_mhd.destroy_response)

static int sw_mhd_load(struct sw_err *err)
{
	return sw_dlib_load(&sw_mhd_lib, err);
}
#else
static int sw_mhd_load(struct sw_err *err)
{
	(void)err;
	return 0;
}
#endif

struct sw_serve_args {
	const char *listen;
	const char *config;
	const char *debugfs;
	const char *state_dir;
	uint64_t max_series;
	uint64_t max_seconds;
	bool log2_buckets;
};

/*
 * One rendering of /metrics, shared by the responses that send it.  The
 * page is written to an anonymous file (memfd), not to the heap: a heap
 * buffer grown while writing holds up to twice the page, and its pages
 * stay in the process after it is freed.  Each response reads the file at
 * its own offset.  The server's cache points at it without holding it:
 * the last response sent closes it and clears the cache, so a big page is
 * not kept between scrapes.
 */
struct sw_body {
	int fd;
	uint64_t len;
	uint64_t started;	/* CLOCK_MONOTONIC ns when its reading began */
	int refs;		/* under the server's lock */
	bool om;
	struct sw_server *srv;
};

struct sw_server {
	struct sw_serve_args a;
	char *dir;		/* the stopwatch directory */
	char self[PATH_MAX];	/* this program, for the profile's children */
	pthread_mutex_t lock;	/* one reading at a time */
	pthread_mutex_t cache_lock;	/* the cache and the bodies' refs */
	struct sw_body *cache[2];	/* text 0.0.4, OpenMetrics; not held */
	atomic_bool profiling;
	atomic_ulong scrapes, errors;
};

static const struct sw_cmd_doc sw_serve_doc = {
	.name = "serve",
	.usage = "stopwatch serve [OPTIONS]",
	.about =
		"Serve what stopwatch.ko measures over HTTP, read only:\n"
		"  /metrics              Prometheus text format 0.0.4, or OpenMetrics 1.0\n"
		"                        when the Accept header asks for it\n"
		"  /debug/pprof/profile  ?seconds=N: a CPU profile from the sampler, as Go's\n"
		"                        net/http/pprof serves it (one at a time)\n"
		"  /debug/pprof/paths    the call paths (paths file) as a pprof profile\n"
		"What to probe comes from --config FILE, read at start and again on\n"
		"SIGHUP; a file with any bad line is refused whole (and on SIGHUP the\n"
		"configuration in force stays). Its lines are the module's own:\n"
		"  events LIST   keys MODE   probes LINE   spans LINE\n"
		"On exit the configuration's probes and spans are removed.\n",
	.examples =
		"  stopwatch serve                                  127.0.0.1:9464\n"
		"  stopwatch serve --listen 0.0.0.0:9464 --config /etc/stopwatch/serve.conf\n"
		"  curl -s localhost:9464/metrics | promtool check metrics\n"
		"  go tool pprof -top http://localhost:9464/debug/pprof/profile?seconds=10\n"
		"  go tool pprof -sample_index=total http://localhost:9464/debug/pprof/paths\n"
		"  kill -HUP $(pidof stopwatch)                     read --config again\n",
	.no_args = "the address goes with --listen ADDR:PORT",
};

static uint64_t sw_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Return: 0 to go on, 1 after --help, or a negative errno (reported). */
static int sw_serve_parse_args(int argc, char **argv, struct sw_serve_args *a)
{
	const struct sw_option opts[] = {
		SW_OPT_STRING('l', "listen", &a->listen, "ADDR:PORT",
			      "where to listen (default " SW_SERVE_LISTEN "); an\n"
			      "IPv6 address in brackets; port 0: any free port"),
		SW_OPT_STRING('c', "config", &a->config, "FILE",
			      "what to probe: events, keys, probes and spans\n"
			      "lines; read again on SIGHUP"),
		SW_OPT_U64(0, "max-series", &a->max_series, "N",
			   "keyed rows per metric at most (those with the most\n"
			   "calls), the rest summed in key=\"other\" (default\n"
			   "1000; 0: no limit)",
			   0, 100000000, "a whole number of series"),
		SW_OPT_BOOL(0, "log2-buckets", &a->log2_buckets,
			    "call durations in log2 buckets (one per power of\n"
			    "two) instead of the module's log-linear ones (2^k\n"
			    "per power of two from the lowest to the highest a\n"
			    "probe's calls reach)"),
		SW_OPT_U64(0, "max-seconds", &a->max_seconds, "N",
			   "longest CPU profile taken (default 60)", 1, 3600,
			   "seconds, 1 to 3600"),
		SW_OPT_STRING(0, "state-dir", &a->state_dir, "DIR",
			      "where profiles are recorded before they are sent\n"
			      "(default $STATE_DIRECTORY, else /tmp)"),
		SW_OPT_DEBUGFS(&a->debugfs),
		SW_OPT_END(),
	};
	int n = sw_parse_options(argc, argv, &sw_serve_doc, opts);

	if (n <= 0)
		return n < 0 ? n : 1;
	return 0;
}

/*
 * The listening socket for ADDR:PORT, or -1 after saying why: the address
 * is checked and bound here, so that a bad one or a port in use is a
 * clear error before anything else starts.
 */
static int sw_listen(const char *spec)
{
	struct sockaddr_storage ss = { 0 };
	char host[INET6_ADDRSTRLEN + 2];
	const char *colon = strrchr(spec, ':'), *h = spec;
	unsigned long port;
	socklen_t sl;
	size_t hl;
	char *end;
	int fd, one = 1;

	if (!colon || colon == spec || !colon[1])
		goto bad;
	errno = 0;
	port = strtoul(colon + 1, &end, 10);
	if (errno || *end || port > 65535 || colon[1] == '-' || colon[1] == '+')
		goto bad;
	hl = (size_t)(colon - spec);
	if (*h == '[') {
		if (hl < 3 || spec[hl - 1] != ']')
			goto bad;
		h++;
		hl -= 2;
	}
	if (hl >= sizeof(host))
		goto bad;
	memcpy(host, h, hl);
	host[hl] = '\0';
	if (inet_pton(AF_INET, host, &((struct sockaddr_in *)&ss)->sin_addr) == 1 &&
	    *spec != '[') {
		ss.ss_family = AF_INET;
		((struct sockaddr_in *)&ss)->sin_port = htons((uint16_t)port);
		sl = sizeof(struct sockaddr_in);
	} else if (inet_pton(AF_INET6, host,
			     &((struct sockaddr_in6 *)&ss)->sin6_addr) == 1 &&
		   *spec == '[') {
		ss.ss_family = AF_INET6;
		((struct sockaddr_in6 *)&ss)->sin6_port = htons((uint16_t)port);
		sl = sizeof(struct sockaddr_in6);
	} else {
		goto bad;
	}
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, (struct sockaddr *)&ss, sl) || listen(fd, 128)) {
		fprintf(stderr, "stopwatch serve: cannot listen on %s: %s%s\n",
			spec, strerror(errno),
			errno == EADDRINUSE ?
			" (another server has the port: pick another with --listen)" :
			errno == EADDRNOTAVAIL ? " (no interface has that address)" :
			"");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
bad:
	fprintf(stderr,
		"stopwatch serve: --listen '%s': expected ADDR:PORT, e.g. 127.0.0.1:9464 or [::1]:9464, port 0 to 65535\n",
		spec);
	return -1;
}

/* ---- responses ---- */

static enum MHD_Result sw_reply(struct MHD_Connection *c, unsigned int code,
				const char *ctype, void *buf, size_t len,
				enum MHD_ResponseMemoryMode mode)
{
	struct MHD_Response *r =
		MHD_create_response_from_buffer(len, buf, mode);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, ctype);
	ret = MHD_queue_response(c, code, r);
	MHD_destroy_response(r);
	return ret;
}

/* A text answer: an error with its reason, or an index. */
static enum MHD_Result sw_reply_text(struct sw_server *s,
				     struct MHD_Connection *c,
				     unsigned int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static enum MHD_Result sw_reply_text(struct sw_server *s,
				     struct MHD_Connection *c,
				     unsigned int code, const char *fmt, ...)
{
	char *msg = NULL;
	va_list ap;
	int n;

	if (code >= 400)
		atomic_fetch_add(&s->errors, 1);
	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		return MHD_NO;
	return sw_reply(c, code, "text/plain; charset=utf-8", msg, (size_t)n,
			MHD_RESPMEM_MUST_FREE);
}

static void sw_body_put(void *cls)
{
	struct sw_body *b = cls;
	struct sw_server *s = b->srv;
	bool last;

	pthread_mutex_lock(&s->cache_lock);
	last = !--b->refs;
	if (last && s->cache[b->om] == b)
		s->cache[b->om] = NULL;
	pthread_mutex_unlock(&s->cache_lock);
	if (last) {
		close(b->fd);
		free(b);
	}
}

/* MHD's reader of a body: the bytes at @pos, at most @max. */
static ssize_t sw_body_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct sw_body *b = cls;
	ssize_t n;

	if (pos >= b->len)
		return MHD_CONTENT_READER_END_OF_STREAM;
	do
		n = pread(b->fd, buf, max, (off_t)pos);
	while (n < 0 && errno == EINTR);
	return n > 0 ? n : MHD_CONTENT_READER_END_WITH_ERROR;
}

/* Reads the directory and writes /metrics in format @om into a new body. */
static struct sw_body *sw_metrics_render(struct sw_server *s, bool om,
					 struct sw_err *err)
{
	char path[PATH_MAX];
	struct sw_snapshot_opts so = {
		.hist = true, .keys = true, .spans = true, .sampler = true,
	};
	struct sw_display_opts dop = {
		.hist = true, .breakdown = true, .openmetrics = om,
		.max_series = (size_t)s->a.max_series,
		.log2_buckets = s->a.log2_buckets,
	};
	struct sw_snapshot *snap = NULL;
	struct sw_body *b = calloc(1, sizeof(*b));
	FILE *f = NULL;
	off_t end;
	int wfd, ret;

	if (!b) {
		sw_err_set(err, -ENOMEM, "out of memory");
		return NULL;
	}
	b->fd = -1;
	b->started = sw_mono_ns();
	b->om = om;
	b->srv = s;
	snprintf(path, sizeof(path), "%s/breakdown_stats", s->dir);
	so.breakdown = !access(path, F_OK);
	ret = sw_snapshot_load(s->dir, &so, &snap, err);
	if (ret)
		goto fail;
	b->fd = memfd_create("stopwatch-metrics", MFD_CLOEXEC);
	if (b->fd < 0) {
		sw_err_set(err, -errno, "a file for the page: %s",
			   strerror(errno));
		goto fail;
	}
	/* The stream has a descriptor of its own: b->fd outlives it. */
	wfd = dup(b->fd);
	f = wfd < 0 ? NULL : fdopen(wfd, "w");
	if (!f) {
		sw_err_set(err, -errno, "a file for the page: %s",
			   strerror(errno));
		if (wfd >= 0)
			close(wfd);
		goto fail;
	}
	ret = sw_print_prom(f, snap, &dop);
	if (fclose(f) || ret) {
		sw_err_set(err, ret ? ret : -errno, "writing the metrics: %s",
			   strerror(ret ? -ret : errno));
		goto fail;
	}
	end = lseek(b->fd, 0, SEEK_END);
	if (end < 0) {
		sw_err_set(err, -errno, "writing the metrics: %s",
			   strerror(errno));
		goto fail;
	}
	b->len = (uint64_t)end;
	sw_snapshot_free(snap);
	/*
	 * The reading's blocks are free now but the heap keeps their pages:
	 * give them back, so that what stays resident between scrapes is the
	 * server's own.
	 */
	malloc_trim(0);
	return b;
fail:
	sw_snapshot_free(snap);
	if (b->fd >= 0)
		close(b->fd);
	free(b);
	return NULL;
}

/*
 * /metrics.  Scrapes that arrive while one reads the directory share the
 * next reading, never one that began before they arrived.
 */
static enum MHD_Result sw_metrics(struct sw_server *s,
				  struct MHD_Connection *c, uint64_t arrived)
{
	const char *acc = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
						      MHD_HTTP_HEADER_ACCEPT);
	bool om = acc && strstr(acc, "application/openmetrics-text");
	struct sw_err err = { "" };
	struct MHD_Response *r;
	struct sw_body *b;
	enum MHD_Result ret;

	pthread_mutex_lock(&s->lock);
	pthread_mutex_lock(&s->cache_lock);
	b = s->cache[om];
	if (b && b->started >= arrived)
		b->refs++;
	else
		b = NULL;
	pthread_mutex_unlock(&s->cache_lock);
	if (!b) {
		b = sw_metrics_render(s, om, &err);
		if (b) {
			pthread_mutex_lock(&s->cache_lock);
			b->refs = 1;
			s->cache[om] = b;
			pthread_mutex_unlock(&s->cache_lock);
		}
	}
	pthread_mutex_unlock(&s->lock);
	if (!b)
		return sw_reply_text(s, c, MHD_HTTP_SERVICE_UNAVAILABLE,
				     "cannot read %s: %s\n", s->dir, err.msg);
	atomic_fetch_add(&s->scrapes, 1);
	r = MHD_create_response_from_callback(b->len, SW_BODY_BLOCK,
					      sw_body_read, b, sw_body_put);
	if (!r) {
		sw_body_put(b);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				om ? SW_OM_CTYPE : SW_PROM_CTYPE);
	ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result sw_reply_pprof(struct sw_server *s,
				      struct MHD_Connection *c, uint8_t *buf,
				      size_t len, const char *name)
{
	struct MHD_Response *r =
		MHD_create_response_from_buffer(len, buf, MHD_RESPMEM_MUST_FREE);
	char disp[64];
	enum MHD_Result ret;

	(void)s;
	if (!r) {
		free(buf);
		return MHD_NO;
	}
	snprintf(disp, sizeof(disp), "attachment; filename=\"%s\"", name);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				"application/octet-stream");
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_DISPOSITION, disp);
	ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

/* /debug/pprof/paths: the paths file as a pprof profile. */
static enum MHD_Result sw_paths(struct sw_server *s, struct MHD_Connection *c)
{
	struct sw_err err = { "" };
	struct sw_paths p;
	uint8_t *pb = NULL, *raw = NULL;
	size_t len = 0, rawlen = 0;
	int ret;

	ret = sw_paths_load(s->dir, &p, &err);
	if (ret)
		return sw_reply_text(s, c, ret == -ENOENT ? MHD_HTTP_NOT_FOUND :
					   MHD_HTTP_SERVICE_UNAVAILABLE,
				     "%s\n", err.msg);
	ret = sw_paths_pprof(&p, &raw, &rawlen);
	sw_paths_free(&p);
	if (!ret)
		ret = sw_pprof_gzip(raw, rawlen, &pb, &len);
	free(raw);
	if (ret)
		return sw_reply_text(s, c, MHD_HTTP_INTERNAL_SERVER_ERROR,
				     "encoding the call paths: %s\n",
				     strerror(-ret));
	return sw_reply_pprof(s, c, pb, len, "paths");
}

/*
 * Runs this program with @argv, its standard error kept in @msg (the
 * first 1 KiB).  Return: its exit status, or -1.
 */
static int sw_run_self(struct sw_server *s, char *const *argv, char *msg,
		       size_t msglen)
{
	posix_spawn_file_actions_t fa;
	int pfd[2], status = -1;
	size_t n = 0;
	ssize_t r;
	pid_t pid;

	msg[0] = '\0';
	if (pipe2(pfd, O_CLOEXEC))
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], 2);
	if (posix_spawn(&pid, s->self, &fa, NULL, argv, environ))
		pid = -1;
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	/* The first msglen - 1 bytes are kept; the rest is read and dropped. */
	for (;;) {
		char drop[256];
		bool full = n >= msglen - 1;

		r = read(pfd[0], full ? drop : msg + n,
			 full ? sizeof(drop) : msglen - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (!full)
			n += (size_t)r;
	}
	msg[n] = '\0';
	close(pfd[0]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	if (n && msg[n - 1] == '\n')
		msg[n - 1] = '\0';
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int sw_read_file(const char *path, uint8_t **buf, size_t *len)
{
	char *text = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	ret = sw_read_fd(fd, &text, len);
	close(fd);
	*buf = (uint8_t *)text;
	return ret;
}

/* /debug/pprof/profile?seconds=N: record, then report --pprof. */
static enum MHD_Result sw_profile(struct sw_server *s, struct MHD_Connection *c)
{
	const char *sec = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND,
						      "seconds");
	const char *base = s->a.state_dir ? s->a.state_dir :
			   getenv("STATE_DIRECTORY") ? getenv("STATE_DIRECTORY") :
			   "/tmp";
	char tmp[PATH_MAX], swd[PATH_MAX + 16], pb[PATH_MAX + 16];
	char dur[32], msg[1024];
	uint8_t *buf = NULL;
	unsigned long n = 30;
	enum MHD_Result ret;
	size_t len = 0;
	bool expect = false;
	char *end;
	int st;

	if (sec) {
		errno = 0;
		n = strtoul(sec, &end, 10);
		if (errno || *end || !*sec || *sec == '-' || *sec == '+')
			n = 0;
	}
	if (!n || n > s->a.max_seconds)
		return sw_reply_text(s, c, MHD_HTTP_BAD_REQUEST,
				     "seconds=%s: expected a whole number of seconds from 1 to %llu (--max-seconds)\n",
				     sec ? sec : "",
				     (unsigned long long)s->a.max_seconds);
	if (!atomic_compare_exchange_strong(&s->profiling, &expect, true))
		return sw_reply_text(s, c, MHD_HTTP_CONFLICT,
				     "a CPU profile is being taken: one at a time; try again when it is done\n");
	snprintf(tmp, sizeof(tmp), "%s/stopwatch-profile.XXXXXX", base);
	if (!mkdtemp(tmp)) {
		ret = sw_reply_text(s, c, MHD_HTTP_SERVICE_UNAVAILABLE,
				    "cannot make a directory in %s for the recording: %s\n",
				    base, strerror(errno));
		goto out;
	}
	snprintf(swd, sizeof(swd), "%s/cpu.swd", tmp);
	snprintf(pb, sizeof(pb), "%s/cpu.pb.gz", tmp);
	snprintf(dur, sizeof(dur), "%lu", n);
	{
		char *rec[] = { "stopwatch", "record", "-a", "-g", "-q",
				"--duration", dur, "-o", swd, "--debugfs",
				s->dir, NULL };
		char *rep[] = { "stopwatch", "report", "-q", "-i", swd,
				"--pprof", pb, NULL };

		st = sw_run_self(s, rec, msg, sizeof(msg));
		if (!st)
			st = sw_run_self(s, rep, msg, sizeof(msg));
	}
	if (st || sw_read_file(pb, &buf, &len)) {
		free(buf);
		ret = sw_reply_text(s, c, MHD_HTTP_SERVICE_UNAVAILABLE,
				    "the CPU profile could not be taken: %s\n",
				    *msg ? msg : "the recorder failed");
	} else {
		ret = sw_reply_pprof(s, c, buf, len, "profile");
	}
	unlink(swd);
	unlink(pb);
	rmdir(tmp);
out:
	atomic_store(&s->profiling, false);
	return ret;
}

static const char sw_index[] =
	"stopwatch serve\n"
	"  /metrics              Prometheus (text 0.0.4, or OpenMetrics 1.0 by Accept)\n"
	"  /debug/pprof/profile  ?seconds=N: CPU profile from the sampler (pprof)\n"
	"  /debug/pprof/paths    the call paths (pprof; sample types calls, total, self)\n";

static enum MHD_Result sw_request(void *cls, struct MHD_Connection *c,
				  const char *url, const char *method,
				  const char *version, const char *upload,
				  size_t *upload_size, void **con_cls)
{
	struct sw_server *s = cls;
	uint64_t arrived = sw_mono_ns();

	(void)version;
	(void)upload;
	(void)con_cls;
	if (strcmp(method, MHD_HTTP_METHOD_GET) &&
	    strcmp(method, MHD_HTTP_METHOD_HEAD)) {
		*upload_size = 0;
		return sw_reply_text(s, c, MHD_HTTP_METHOD_NOT_ALLOWED,
				     "%s: stopwatch serve is read only (GET); what to probe comes from its --config file\n",
				     method);
	}
	if (!strcmp(url, "/metrics"))
		return sw_metrics(s, c, arrived);
	if (!strcmp(url, "/debug/pprof/profile"))
		return sw_profile(s, c);
	if (!strcmp(url, "/debug/pprof/paths"))
		return sw_paths(s, c);
	if (!strcmp(url, "/") || !strcmp(url, "/debug/pprof/"))
		return sw_reply(c, MHD_HTTP_OK, "text/plain; charset=utf-8",
				(void *)sw_index, sizeof(sw_index) - 1,
				MHD_RESPMEM_PERSISTENT);
	return sw_reply_text(s, c, MHD_HTTP_NOT_FOUND,
			     "%s: not here; try /metrics, /debug/pprof/profile or /debug/pprof/paths\n",
			     url);
}

static void sw_mhd_log(void *cls, const char *fmt, va_list ap)
{
	(void)cls;
	fputs("stopwatch serve: ", stderr);
	vfprintf(stderr, fmt, ap);
}

/* Reads --config and applies it over @cur; on any error @cur stays. */
static int sw_reload(struct sw_server *s, struct sw_conf **cur)
{
	struct sw_err err = { "" };
	struct sw_conf *c = NULL;
	int ret;

	ret = sw_conf_load(s->a.config, &c, &err);
	if (!ret)
		ret = sw_conf_apply(s->dir, *cur, c, &err);
	if (ret) {
		fprintf(stderr, "stopwatch serve: %s%s\n", err.msg,
			*cur ? "; the configuration in force stays" : "");
		sw_conf_free(c);
		return ret;
	}
	sw_conf_free(*cur);
	*cur = c;
	return 0;
}

static void sw_print_listen(struct MHD_Daemon *d, const char *spec)
{
	const union MHD_DaemonInfo *i =
		MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
	const char *colon = strrchr(spec, ':');

	fprintf(stderr, "stopwatch serve: listening on %.*s:%u\n",
		(int)(colon - spec), spec, i ? i->port : 0);
}

int cmd_serve(int argc, char **argv)
{
	struct sw_server s = { 0 };
	struct MHD_Daemon *d = NULL;
	struct sw_conf *conf = NULL;
	struct sw_err err = { "" };
	sigset_t set;
	ssize_t n;
	int fd = -1, ret, sig;

	s.a.max_series = 1000;
	s.a.max_seconds = 60;
	s.a.listen = SW_SERVE_LISTEN;
	ret = sw_serve_parse_args(argc, argv, &s.a);
	if (ret)
		return ret > 0 ? 0 : ret;
	ret = sw_mhd_load(&err);
	if (ret) {
		fprintf(stderr, "stopwatch serve: %s\n", err.msg);
		return ret;
	}
	n = readlink("/proc/self/exe", s.self, sizeof(s.self) - 1);
	if (n <= 0) {
		fprintf(stderr, "stopwatch serve: /proc/self/exe: %s\n",
			strerror(errno));
		return -errno;
	}
	s.self[n] = '\0';
	ret = sw_debugfs_find(s.a.debugfs, &s.dir, &err);
	if (ret) {
		fprintf(stderr, "stopwatch serve: %s\n", err.msg);
		return ret;
	}
	/* Signals go to the main thread's sigwait only; none kills a write. */
	sigemptyset(&set);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	pthread_mutex_init(&s.lock, NULL);
	pthread_mutex_init(&s.cache_lock, NULL);

	fd = sw_listen(s.a.listen);
	if (fd < 0) {
		ret = -EADDRINUSE;
		goto out;
	}
	if (s.a.config) {
		ret = sw_reload(&s, &conf);
		if (ret)
			goto out;
	}
	d = MHD_start_daemon(MHD_USE_THREAD_PER_CONNECTION |
			     MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL |
			     MHD_USE_ERROR_LOG,
			     0, NULL, NULL, sw_request, &s,
			     MHD_OPTION_EXTERNAL_LOGGER, sw_mhd_log, NULL,
			     MHD_OPTION_LISTEN_SOCKET, fd,
			     MHD_OPTION_CONNECTION_LIMIT,
			     (unsigned int)SW_SERVE_MAX_CONN,
			     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)30,
			     MHD_OPTION_END);
	if (!d) {
		fprintf(stderr, "stopwatch serve: the HTTP server did not start on %s\n",
			s.a.listen);
		ret = -EIO;
		goto out;
	}
	fd = -1;	/* the daemon's now */
	sw_print_listen(d, s.a.listen);
	for (;;) {
		sig = 0;
		if (sigwait(&set, &sig))
			continue;
		if (sig != SIGHUP)
			break;
		if (!s.a.config) {
			fprintf(stderr, "stopwatch serve: SIGHUP: no --config to read\n");
			continue;
		}
		if (!sw_reload(&s, &conf))
			fprintf(stderr, "stopwatch serve: %s: applied\n",
				s.a.config);
	}
	fprintf(stderr, "stopwatch serve: %s: stopping after %lu scrapes, %lu errors\n",
		strsignal(sig), (unsigned long)atomic_load(&s.scrapes),
		(unsigned long)atomic_load(&s.errors));
	ret = 0;
out:
	if (d)
		MHD_stop_daemon(d);
	if (fd >= 0)
		close(fd);
	if (conf)
		sw_conf_remove(s.dir, conf);
	sw_conf_free(conf);
	pthread_mutex_destroy(&s.cache_lock);
	pthread_mutex_destroy(&s.lock);
	free(s.dir);
	return ret;
}
