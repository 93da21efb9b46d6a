/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bounds.h - the bounds of the control grammar (lib/parse.c) that the
 * program checks before it writes a line: plain constants, so that the
 * module and the program include the same numbers.
 */
#ifndef _STOPWATCH_BOUNDS_H
#define _STOPWATCH_BOUNDS_H

/* Longest probe tag, after the '@' of FUNC@TAG. */
#define SW_TAG_MAX 31
/* CPUs a cpus= filter can name: 0..SW_FILTER_CPUS - 1. */
#define SW_FILTER_CPUS 256
/* Largest process or thread id a pid=, tgid= or follow= filter takes. */
#define SW_ID_MAX 0x7fffffff

#endif
