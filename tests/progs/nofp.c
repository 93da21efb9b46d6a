// SPDX-License-Identifier: GPL-2.0
/*
 * nofp MS - spend MS milliseconds of CPU in nofp_leaf(), always called
 * through main -> nofp_outer -> nofp_mid -> nofp_leaf, in a program built
 * without frame pointers (-O2 -fomit-frame-pointer, tests/progs/Makefile):
 * the call chain a table unwinder must find for every sample in the leaf.
 * nofp_mid keeps a stack frame of its own (a local array) and nofp_outer
 * saves registers, so the rules differ from frame to frame.
 */
#include "common.h"
#include <time.h>

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

NOINLINE unsigned long nofp_outer(long ms)
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
	} while (el < ms);
	return acc + n;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s MS\n", argv[0]);
		return 2;
	}
	sink = nofp_outer(arg_long(argv[0], "MS", argv[1]));
	return 0;
}
