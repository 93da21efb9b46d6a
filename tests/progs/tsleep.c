// SPDX-License-Identifier: GPL-2.0
/*
 * tsleep N MS - start N threads that each sleep MS milliseconds once
 * (nanosleep), wait for all of them and print "slept N".  The threads
 * are all asleep at once: N calls of the sleeping kernel functions in
 * flight together.
 */
#include "common.h"
#include <pthread.h>
#include <time.h>

static struct timespec req;

static void *sleep_once(void *arg)
{
	(void)arg;
	nanosleep(&req, NULL);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_attr_t attr;
	pthread_t *th;
	long n, ms, i;

	if (argc != 3) {
		fprintf(stderr, "usage: %s N MS\n", argv[0]);
		return 2;
	}
	n = arg_long(argv[0], "N", argv[1]);
	ms = arg_long(argv[0], "MS", argv[2]);
	req.tv_sec = ms / 1000;
	req.tv_nsec = (ms % 1000) * 1000000L;
	th = calloc((size_t)n, sizeof(*th));
	if (!th)
		return 1;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (i = 0; i < n; i++) {
		if (pthread_create(&th[i], &attr, sleep_once, NULL)) {
			fprintf(stderr, "%s: thread %ld: cannot start\n",
				argv[0], i);
			return 1;
		}
	}
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	printf("slept %ld\n", n);
	return 0;
}
