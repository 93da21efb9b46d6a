// SPDX-License-Identifier: GPL-2.0
/*
 * swprof_lib.c - the shared-library half of swprof (libswprof.so): one of
 * its hot functions, so that a profile shows time in a shared library.
 */
#include "swprof.h"

volatile unsigned long swprof_lib_sink;

NOINLINE void swprof_lib_store(unsigned long x)
{
	swprof_lib_sink = x;
}

/* Same loop as swprof.c's work: the same cost per unit. */
NOINLINE unsigned long swprof_lib_hot(unsigned long units)
{
	unsigned long i, x = units;

	for (i = 0; i < units * SWPROF_UNIT; i++)
		x = x * 2862933555777941757UL + 3037000493UL;
	swprof_lib_store(x);
	return x;
}
