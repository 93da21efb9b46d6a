// SPDX-License-Identifier: GPL-2.0
/*
 * migrate MS - one nanosleep(MS) call that enters on CPU 0 and returns on
 * CPU 1: the sleeping thread is pinned to CPU 0, and while it sleeps the
 * main thread re-pins it to CPU 1.  Prints both CPUs; exits 1 if the call
 * did not in fact return on the other CPU.
 */
#include "common.h"
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static volatile pid_t sleeper_tid;
static volatile int entry_cpu = -1, return_cpu = -1;
static long sleep_ms;

static int pin(pid_t tid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(tid, sizeof(set), &set);
}

static void *sleeper(void *arg)
{
	struct timespec req = { .tv_sec = sleep_ms / 1000,
				.tv_nsec = (sleep_ms % 1000) * 1000000L };

	(void)arg;
	if (pin(0, 0)) {
		perror("pin to cpu0");
		exit(1);
	}
	entry_cpu = sched_getcpu();
	__atomic_store_n(&sleeper_tid, (pid_t)syscall(SYS_gettid),
			 __ATOMIC_RELEASE);
	nanosleep(&req, NULL);
	return_cpu = sched_getcpu();
	return NULL;
}

int main(int argc, char **argv)
{
	struct timespec quarter;
	pthread_t t;

	if (argc != 2) {
		fprintf(stderr, "usage: %s MS\n", argv[0]);
		return 2;
	}
	sleep_ms = arg_long(argv[0], "MS", argv[1]);
	quarter.tv_sec = sleep_ms / 4000;
	quarter.tv_nsec = (sleep_ms / 4 % 1000) * 1000000L;
	if (pthread_create(&t, NULL, sleeper, NULL)) {
		perror("pthread_create");
		return 1;
	}
	while (!__atomic_load_n(&sleeper_tid, __ATOMIC_ACQUIRE))
		sched_yield();
	/*
	 * This thread's own nanosleep (the re-pin delay) must not migrate:
	 * only the sleeper's call may count as migrated.
	 */
	if (pin(0, 1)) {
		perror("pin self to cpu1");
		return 1;
	}
	nanosleep(&quarter, NULL);
	if (pin(sleeper_tid, 1)) {
		perror("pin to cpu1");
		return 1;
	}
	pthread_join(t, NULL);
	printf("entry_cpu=%d return_cpu=%d\n", entry_cpu, return_cpu);
	return entry_cpu == 0 && return_cpu == 1 ? 0 : 1;
}
