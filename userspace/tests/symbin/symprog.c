// SPDX-License-Identifier: GPL-2.0
/*
 * symprog.c - a program with functions at known lines (kept there by
 * #line), built as PIE, non-PIE and stripped with separate debuginfo, and
 * linked with libsymlib.so; the symbolization tests resolve its addresses.
 * Two functions bear mangled names (a C++ method, a Rust legacy function),
 * as a C++ or Rust compiler would have named them.
 *
 *   symprog            a little work, exit 0
 *   symprog addrs      print "name=0xADDR" of its functions and lib_hot,
 *                      then its /proc/self/maps, and exit
 */
#include <stdio.h>
#include <string.h>

#define NOINLINE __attribute__((noinline, used))

unsigned long lib_hot(unsigned long n);
static volatile unsigned long sink;

#line 100
NOINLINE unsigned long sym_hot(unsigned long n)
{
	unsigned long i, x = 1;

	for (i = 0; i < n; i++)
		x = x * 31 + i;
	sink = x;
	return x;
}

#line 120
NOINLINE unsigned long sym_warm(unsigned long n)
{
	return sym_hot(n / 2) + 1;
}

#line 140
NOINLINE unsigned long sym_mid(unsigned long n)
{
	return sym_hot(n) + sym_warm(n) + lib_hot(n);
}

/* A C++ method: sw::demo::Widget::spin(int) const. */
unsigned long cxx_spin(int n) __asm__("_ZNK2sw4demo6Widget4spinEi");
/* A Rust function, legacy mangling with its hash: swdemo::leaf. */
unsigned long rust_leaf(unsigned long n)
	__asm__("_ZN6swdemo4leaf17h0123456789abcdefE");

#line 180
NOINLINE unsigned long cxx_spin(int n)
{
	return sym_hot((unsigned long)n) ^ 3;
}

#line 190
NOINLINE unsigned long rust_leaf(unsigned long n)
{
	return sym_hot(n) ^ 5;
}

#line 160
int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "addrs")) {
		FILE *f = fopen("/proc/self/maps", "r");
		char line[512];

		printf("sym_hot=%p\nsym_warm=%p\nsym_mid=%p\nmain=%p\nlib_hot=%p\n",
		       (void *)sym_hot, (void *)sym_warm, (void *)sym_mid,
		       (void *)main, (void *)lib_hot);
		while (f && fgets(line, sizeof(line), f))
			fputs(line, stdout);
		if (f)
			fclose(f);
		return 0;
	}
	return (int)((sym_mid(1000) + cxx_spin(10) + rust_leaf(10)) & 1) * 0;
}
