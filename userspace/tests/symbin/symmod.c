// SPDX-License-Identifier: GPL-2.0
/*
 * symmod.c - stands in for a kernel module: compiled and linked
 * relocatable (ld -r, as a .ko is) into symmod.ko with a build-id, its
 * functions at known lines; the symbolizer places a kallsyms address of
 * "[symmod]" in it through the function's name and offset.
 */
#define NOINLINE __attribute__((noinline, used))

static volatile unsigned long sink;

#line 300
NOINLINE unsigned long mod_hot(unsigned long n)
{
	unsigned long i, x = 1;

	for (i = 0; i < n; i++)
		x = x * 31 + i;
	sink = x;
	return x;
}

#line 320
NOINLINE unsigned long mod_warm(unsigned long n)
{
	return mod_hot(n / 2) + 1;
}
