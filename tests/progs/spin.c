// SPDX-License-Identifier: GPL-2.0
/*
 * spin CPU SECONDS - busy-loop in user space on CPU for SECONDS, so that
 * another thread sleeping on that CPU has a competitor for it.  Prints the
 * loop iterations done when the time is up.
 */
#include "common.h"
#include <sched.h>
#include <time.h>

int main(int argc, char **argv)
{
	struct timespec t0, t;
	unsigned long long iters = 0;
	long cpu, secs;
	cpu_set_t set;

	if (argc != 3) {
		fprintf(stderr, "usage: %s CPU SECONDS\n", argv[0]);
		return 2;
	}
	cpu = arg_long(argv[0], "CPU", argv[1]);
	secs = arg_long(argv[0], "SECONDS", argv[2]);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		volatile unsigned int k;

		for (k = 0; k < 100000; k++)
			;
		iters++;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (t.tv_sec - t0.tv_sec < secs);
	printf("spun %llu\n", iters);
	return 0;
}
