// SPDX-License-Identifier: GPL-2.0
/*
 * tsleep N MS - start N threads that each sleep MS milliseconds once
 * (nanosleep), wait for all of them and print "slept N".  The threads
 * are all asleep at once: N calls of the sleeping kernel functions in
 * flight together.
 *
 * SIGUSR1 wakes them all at once (each sleep returns early, EINTR), so
 * a test can keep the calls in flight for as long as it needs and end
 * them when it says, not when a timer it had to guess says.
 */
#include "common.h"
#include <pthread.h>
#include <signal.h>
#include <time.h>

static struct timespec req;
static pthread_t *th;
static long nth;

static void *sleep_once(void *arg)
{
	(void)arg;
	nanosleep(&req, NULL);
	return NULL;
}

static void on_wake(int sig)
{
	(void)sig;
}

/* Waits for SIGUSR1 (blocked in every thread) and interrupts each sleep. */
static void *waker(void *arg)
{
	sigset_t *set = arg;
	long i;
	int sig;

	if (sigwait(set, &sig))
		return NULL;
	for (i = 0; i < nth; i++)
		pthread_kill(th[i], SIGUSR2);
	return NULL;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_wake };
	pthread_attr_t attr;
	pthread_t w;
	sigset_t set;
	long ms, i;

	if (argc != 3) {
		fprintf(stderr, "usage: %s N MS\n", argv[0]);
		return 2;
	}
	nth = arg_long(argv[0], "N", argv[1]);
	ms = arg_long(argv[0], "MS", argv[2]);
	req.tv_sec = ms / 1000;
	req.tv_nsec = (ms % 1000) * 1000000L;
	th = calloc((size_t)nth, sizeof(*th));
	if (!th)
		return 1;
	/* SIGUSR2 interrupts a sleep (no SA_RESTART); SIGUSR1 only the waker takes. */
	sigaction(SIGUSR2, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (i = 0; i < nth; i++) {
		if (pthread_create(&th[i], &attr, sleep_once, NULL)) {
			fprintf(stderr, "%s: thread %ld: cannot start\n",
				argv[0], i);
			return 1;
		}
	}
	if (pthread_create(&w, &attr, waker, &set)) {
		fprintf(stderr, "%s: cannot start the waker\n", argv[0]);
		return 1;
	}
	for (i = 0; i < nth; i++)
		pthread_join(th[i], NULL);
	printf("slept %ld\n", nth);
	return 0;
}
