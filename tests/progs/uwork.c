// SPDX-License-Identifier: GPL-2.0
/*
 * uwork MODE N [ARG] - user functions with known behaviour, for the
 * uprobe suite.  With UWORK_GO=FILE in the environment it first waits
 * until FILE exists (probes can then be added for its pid), and it ends
 * with _exit(), so nothing but MODE's work runs in between.
 *
 *   calls N          uw_call() N times
 *   lib N            uwlib_call() of libuwork.so N times
 *   sleep N MS       uw_sleep(MS) N times (a nanosleep of MS ms in each)
 *   loop N LEN       uw_warm() once, then uw_loop(LEN) N times: LEN
 *                    iterations of a fixed loop
 *   malloc N         exactly N calls of malloc() (each freed)
 *   spin SEC         uw_call() and uwlib_call() for SEC seconds
 *   fork N           fork(); the child calls uw_call() N times, then the
 *                    parent (after the child exited) N times
 */
#include "common.h"
#include "uwork.h"
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void *volatile uw_sink;

__attribute__((noinline)) int uw_call(int x)
{
	__asm__ volatile("" : "+r"(x));
	return x + 1;
}

__attribute__((noinline)) void uw_sleep(long ms)
{
	struct timespec req = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&req, &req) && errno == EINTR)
		;
}

__attribute__((noinline)) void uw_warm(void)
{
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void uw_loop(long len)
{
	long i;

	for (i = 0; i < len; i++)
		__asm__ volatile("" ::: "memory");
}

static void uw_wait_go(void)
{
	const char *go = getenv("UWORK_GO");
	struct timespec t = { 0, 10000000L };

	while (go && access(go, F_OK))
		nanosleep(&t, NULL);
}

static double uw_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 2 ? argv[1] : "";
	long n = argc > 2 ? arg_long(argv[0], "N", argv[2]) : 0, i;
	long arg = argc > 3 ? arg_long(argv[0], "ARG", argv[3]) : 0;
	int x = 0;
	double end;

	if (argc < 3) {
		fprintf(stderr, "usage: %s calls|lib|sleep|loop|malloc|spin N [ARG]\n",
			argv[0]);
		return 2;
	}
	/* Everything lazy (the PLT, malloc's arenas) before the work. */
	uw_sink = malloc(64);
	free(uw_sink);
	x = uwlib_call(x);
	uw_wait_go();
	if (!strcmp(mode, "calls")) {
		for (i = 0; i < n; i++)
			x = uw_call(x);
	} else if (!strcmp(mode, "lib")) {
		for (i = 0; i < n; i++)
			x = uwlib_call(x);
	} else if (!strcmp(mode, "sleep")) {
		for (i = 0; i < n; i++)
			uw_sleep(arg);
	} else if (!strcmp(mode, "loop")) {
		uw_warm();
		for (i = 0; i < n; i++)
			uw_loop(arg);
	} else if (!strcmp(mode, "malloc")) {
		for (i = 0; i < n; i++) {
			uw_sink = malloc(64);
			free(uw_sink);
		}
	} else if (!strcmp(mode, "fork")) {
		pid_t pid = fork();
		int st = 1;

		if (pid < 0)
			_exit(1);
		if (!pid) {
			for (i = 0; i < n; i++)
				x = uw_call(x);
			_exit(x == -1);
		}
		if (waitpid(pid, &st, 0) != pid || st)
			_exit(1);
		for (i = 0; i < n; i++)
			x = uw_call(x);
	} else if (!strcmp(mode, "spin")) {
		end = uw_now() + n;
		while (uw_now() < end)
			for (i = 0; i < 1000; i++)
				x = uw_call(uwlib_call(x));
	} else {
		fprintf(stderr, "%s: unknown mode '%s'\n", argv[0], mode);
		return 2;
	}
	_exit(x == -1);
}
