// SPDX-License-Identifier: GPL-2.0
/*
 * nofp MS [UNTIL] - spend MS milliseconds of CPU in nofp_leaf(), always
 * called through main -> nofp_outer -> nofp_mid -> nofp_leaf; with UNTIL,
 * go on past MS until the file UNTIL exists (at most 40 x MS), then say
 * on stdout which ended it ("nofp: UNTIL appeared" or "nofp: limit").
 * Built without frame pointers (-O2 -fomit-frame-pointer, tests/progs/Makefile):
 * the call chain a table unwinder must find for every sample in the leaf.
 * nofp_mid keeps a stack frame of its own (a local array) and nofp_outer
 * saves registers, so the rules differ from frame to frame.
 */
#include "common.h"
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

static volatile unsigned long sink;

NOINLINE unsigned long nofp_leaf(unsigned long n)
{
	unsigned long x = n, i;

	for (i = 0; i < 200000; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	__asm__ volatile("" : "+r"(x));
	return x;
}

NOINLINE unsigned long nofp_mid(unsigned long n)
{
	volatile unsigned long buf[32];
	unsigned long r;
	int i;

	for (i = 0; i < 32; i++)
		buf[i] = n + (unsigned long)i;
	r = nofp_leaf(buf[n & 31]);
	for (i = 0; i < 32; i++)
		r ^= buf[i];
	return r;
}

/* Whether to go on at @el ms of CPU: before @ms, or until @until exists. */
static int nofp_more(long el, long ms, const char *until)
{
	if (el < ms)
		return 1;
	if (!until)
		return 0;
	if (access(until, F_OK) == 0) {
		printf("nofp: %s appeared\n", until);
		return 0;
	}
	if (el >= 40 * ms) {
		printf("nofp: limit\n");
		return 0;
	}
	return 1;
}

NOINLINE unsigned long nofp_outer(long ms, const char *until)
{
	struct timespec t0, t;
	unsigned long acc = 0, n = 0;
	long el;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	do {
		acc += nofp_mid(n++);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
		el = (t.tv_sec - t0.tv_sec) * 1000 +
		     (t.tv_nsec - t0.tv_nsec) / 1000000;
	} while (nofp_more(el, ms, until));
	return acc + n;
}

int main(int argc, char **argv)
{
	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: %s MS [UNTIL]\n", argv[0]);
		return 2;
	}
	sink = nofp_outer(arg_long(argv[0], "MS", argv[1]),
			  argc == 3 ? argv[2] : NULL);
	return 0;
}
