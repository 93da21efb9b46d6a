/* SPDX-License-Identifier: GPL-2.0 */
/* swprof.h - shared by swprof.c and swprof_lib.c. */
#ifndef _STOPWATCH_SWPROF_H
#define _STOPWATCH_SWPROF_H

/* No inlining, no sibling calls: every frame is in the call stack. */
#define NOINLINE __attribute__((noinline, noipa, \
				optimize("no-optimize-sibling-calls")))

/* Loop iterations per unit of work. */
#define SWPROF_UNIT 20000UL

extern volatile unsigned long swprof_lib_sink;
unsigned long swprof_lib_hot(unsigned long units);

/*
 * The hot functions end with a call so that they are not leaves: a leaf
 * may keep no frame record, and a frame-pointer walk from it would skip
 * its caller (perf's too).
 */

#endif
