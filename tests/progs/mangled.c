// SPDX-License-Identifier: GPL-2.0
/*
 * mangled MS - spend MS milliseconds of CPU in functions whose symbol
 * names are mangled as a C++ and a Rust compiler name them: main calls
 * the Rust legacy function swdemo::outer, which calls the C++ method
 * sw::demo::Widget::spin(int) const, where the time goes.  Reports
 * should show those names, and the mangled ones with --no-demangle.
 */
#include "common.h"
#include <time.h>

#define NOINLINE __attribute__((noinline))

unsigned long widget_spin(int n) __asm__("_ZNK2sw4demo6Widget4spinEi");
unsigned long demo_outer(int n) __asm__("_ZN6swdemo5outer17h00112233aabbccddE");

static volatile unsigned long sink;

NOINLINE unsigned long widget_spin(int n)
{
	unsigned long x = (unsigned long)n;
	int i;

	for (i = 0; i < 200000; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	__asm__ volatile("" : "+r"(x));
	return x;
}

NOINLINE unsigned long demo_outer(int n)
{
	return widget_spin(n) + 1;
}

int main(int argc, char **argv)
{
	struct timespec t0, t;
	long ms;
	int n = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s MS\n", argv[0]);
		return 2;
	}
	ms = arg_long(argv[0], "MS", argv[1]);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		sink += demo_outer(n++);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 +
		 (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
	return 0;
}
