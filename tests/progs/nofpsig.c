// SPDX-License-Identifier: GPL-2.0
/*
 * nofpsig MS - spend about MS milliseconds of CPU mostly in a signal
 * handler, in a program built without frame pointers (-O2
 * -fomit-frame-pointer, tests/progs/Makefile): main -> sig_outer ->
 * sig_inner spins until done, and a profiling timer (every millisecond of
 * CPU) interrupts sig_inner with SIGPROF, whose handler sig_handler ->
 * sig_leaf spins longer than the timer's period (a tick at least, 4 ms
 * with HZ=250), so that the next signal is pending when the handler
 * returns and most of the time goes to sig_leaf; the handler stops the
 * timer once MS is spent.  The chain a table unwinder must find for a sample in sig_leaf
 * goes through the C library's signal trampoline (__restore_rt) back into
 * the interrupted sig_inner: main;sig_outer;sig_inner;[trampoline];
 * sig_handler;sig_leaf.
 */
#include "common.h"
#include <signal.h>
#include <sys/time.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))

static volatile sig_atomic_t done;
static volatile unsigned long sink;
static long limit_ms;
static const struct itimerval timer_off;

NOINLINE unsigned long sig_leaf(unsigned long n)
{
	unsigned long x = n, i;

	for (i = 0; i < 4000000; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	__asm__ volatile("" : "+r"(x));
	return x;
}

NOINLINE void sig_handler(int sig)
{
	volatile unsigned long buf[16];
	struct timespec t;
	int i;

	for (i = 0; i < 16; i++)
		buf[i] = (unsigned long)(sig + i);
	sink += sig_leaf(buf[sig & 15]);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	if (t.tv_sec * 1000 + t.tv_nsec / 1000000 >= limit_ms) {
		/* Else a signal is always pending: sig_inner never resumes. */
		setitimer(ITIMER_PROF, &timer_off, NULL);
		done = 1;
	}
}

NOINLINE unsigned long sig_inner(unsigned long n)
{
	struct itimerval it = { { 0, 1000 }, { 0, 1000 } };
	unsigned long x = n;

	if (setitimer(ITIMER_PROF, &it, NULL))
		return 0;
	while (!done)
		x = x * 2862933555777941757ul + 3037000493ul;
	return x;
}

NOINLINE unsigned long sig_outer(unsigned long n)
{
	return sig_inner(n + 1) ^ n;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = sig_handler };

	if (argc != 2) {
		fprintf(stderr, "usage: %s MS\n", argv[0]);
		return 2;
	}
	limit_ms = arg_long(argv[0], "MS", argv[1]);
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGPROF, &sa, NULL)) {
		perror("sigaction");
		return 1;
	}
	sink = sig_outer((unsigned long)argc);
	return 0;
}
