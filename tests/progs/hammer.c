// SPDX-License-Identifier: GPL-2.0
/*
 * hammer SECONDS - one thread per online CPU, each pinned, calling
 * getppid, a 1-byte read of /dev/zero and a 1 ms nanosleep in a tight loop
 * until SECONDS pass: keeps probed functions busy (and calls in flight
 * across sleeps) on every CPU while probes or the module go away.
 */
#include "common.h"
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static volatile int stop;

static void *worker(void *arg)
{
	long cpu = (long)arg, iter = 0;
	struct timespec ms = { 0, 1000000 };
	cpu_set_t set;
	char c;
	int fd;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	fd = open("/dev/zero", O_RDONLY);
	while (!stop) {
		syscall(SYS_getppid);
		if (fd >= 0 && read(fd, &c, 1) != 1)
			break;
		if (++iter % 64 == 0)
			nanosleep(&ms, NULL);
	}
	if (fd >= 0)
		close(fd);
	return NULL;
}

int main(int argc, char **argv)
{
	long secs, ncpu, i;
	pthread_t *t;

	if (argc != 2) {
		fprintf(stderr, "usage: %s SECONDS\n", argv[0]);
		return 2;
	}
	secs = arg_long(argv[0], "SECONDS", argv[1]);
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	t = calloc(ncpu, sizeof(*t));
	if (!t)
		return 1;
	for (i = 0; i < ncpu; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	sleep(secs);
	stop = 1;
	for (i = 0; i < ncpu; i++)
		pthread_join(t[i], NULL);
	return 0;
}
