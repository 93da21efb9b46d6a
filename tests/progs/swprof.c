// SPDX-License-Identifier: GPL-2.0
/*
 * swprof MS [fork N] - a workload with a known profile for the stopwatch
 * record/report tests, built with frame pointers and linked with
 * libswprof.so.  Runs for about MS milliseconds.
 *
 *   swprof MS          main -> swprof_run -> {swprof_hot 60%,
 *                      swprof_lib_hot 30% (in libswprof.so), swprof_warm 10%}:
 *                      the three do the same loop for 6, 3 and 1 units of
 *                      each round
 *   swprof MS fork N   N short-lived children one after the other, each
 *                      named "swchild", running the same rounds for MS / N
 *                      milliseconds and exiting; the parent only waits
 *
 * Prints "pid=PID" when done.
 */
#include "common.h"
#include "swprof.h"
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

NOINLINE void swprof_store(unsigned long x)
{
	sink = x;
}

NOINLINE unsigned long swprof_hot(unsigned long units)
{
	unsigned long i, x = units;

	for (i = 0; i < units * SWPROF_UNIT; i++)
		x = x * 2862933555777941757UL + 3037000493UL;
	swprof_store(x);
	return x;
}

NOINLINE unsigned long swprof_warm(unsigned long units)
{
	unsigned long i, x = units;

	for (i = 0; i < units * SWPROF_UNIT; i++)
		x = x * 2862933555777941757UL + 3037000493UL;
	swprof_store(x);
	return x;
}

NOINLINE void swprof_run(long ms)
{
	long long end = now_ms() + ms;

	while (now_ms() < end) {
		swprof_hot(6);
		swprof_lib_hot(3);
		swprof_warm(1);
	}
}

int main(int argc, char **argv)
{
	long ms, n, i;

	if (argc != 2 && !(argc == 4 && !strcmp(argv[2], "fork"))) {
		fprintf(stderr, "usage: %s MS [fork N]\n", argv[0]);
		return 2;
	}
	ms = arg_long(argv[0], "MS", argv[1]);
	if (argc == 2) {
		swprof_run(ms);
	} else {
		n = arg_long(argv[0], "N", argv[3]);
		for (i = 0; i < n; i++) {
			pid_t pid = fork();

			if (pid < 0) {
				perror("fork");
				return 1;
			}
			if (!pid) {
				set_comm("swchild");
				swprof_run(n ? ms / n : ms);
				_exit(0);
			}
			waitpid(pid, NULL, 0);
		}
	}
	printf("pid=%d\n", (int)getpid());
	return 0;
}
