// SPDX-License-Identifier: GPL-2.0
/*
 * busyloop MS - a CPU-bound workload for overhead measurements: one thread
 * per online CPU, each pinned, doing a fixed arithmetic loop for MS
 * milliseconds.  Prints the iterations done in total ("iters=N"): the
 * same work rate with and without a profiler means no overhead.
 */
#include "common.h"
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

static long long end_ns;

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void *worker(void *arg)
{
	unsigned long long iters = 0, x = (unsigned long)arg;
	long cpu = (long)arg;
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	while (now_ns() < end_ns) {
		for (i = 0; i < 10000; i++)
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		iters++;
	}
	__asm__ volatile("" : : "r"(x));
	return (void *)(unsigned long)iters;
}

int main(int argc, char **argv)
{
	unsigned long long total = 0;
	long ncpu, i, ms;
	pthread_t *t;

	if (argc != 2) {
		fprintf(stderr, "usage: %s MS\n", argv[0]);
		return 2;
	}
	ms = arg_long(argv[0], "MS", argv[1]);
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	t = calloc(ncpu, sizeof(*t));
	if (!t)
		return 1;
	end_ns = now_ns() + ms * 1000000LL;
	for (i = 0; i < ncpu; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (i = 0; i < ncpu; i++) {
		void *r;

		pthread_join(t[i], &r);
		total += (unsigned long)r;
	}
	printf("iters=%llu\n", total);
	return 0;
}
