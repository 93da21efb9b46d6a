// SPDX-License-Identifier: GPL-2.0
/*
 * symlib.c - the shared library of the symbolization test programs: one
 * function at a known line (kept there by #line).
 */
#define NOINLINE __attribute__((noinline, used))

extern volatile unsigned long symlib_sink;
volatile unsigned long symlib_sink;

#line 200
NOINLINE unsigned long lib_hot(unsigned long n)
{
	unsigned long i, x = 0;

	for (i = 0; i < n; i++)
		x += i * i;
	symlib_sink = x;
	return x;
}
