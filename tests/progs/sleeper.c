// SPDX-License-Identifier: GPL-2.0
/*
 * sleeper MS COUNT - nanosleep(MS milliseconds) COUNT times and print how
 * long each sleep took by CLOCK_MONOTONIC.
 */
#include "common.h"
#include <time.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	struct timespec req;
	long ms, count, i;

	if (argc != 3) {
		fprintf(stderr, "usage: %s MS COUNT\n", argv[0]);
		return 2;
	}
	ms = arg_long(argv[0], "MS", argv[1]);
	count = arg_long(argv[0], "COUNT", argv[2]);
	req.tv_sec = ms / 1000;
	req.tv_nsec = (ms % 1000) * 1000000L;
	for (i = 0; i < count; i++) {
		long long t0 = now_ns();

		if (nanosleep(&req, NULL)) {
			perror("nanosleep");
			return 1;
		}
		printf("slept_ns=%lld\n", now_ns() - t0);
	}
	return 0;
}
