/* SPDX-License-Identifier: GPL-2.0 */
/* common.h - argument helpers for the test programs. */
#ifndef _STOPWATCH_PROGS_COMMON_H
#define _STOPWATCH_PROGS_COMMON_H

#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

static inline long arg_long(const char *prog, const char *what, const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (errno || *end || v < 0) {
		fprintf(stderr, "%s: %s must be a non-negative number, not '%s'\n",
			prog, what, s);
		exit(2);
	}
	return v;
}

static inline void set_comm(const char *comm)
{
	if (comm && prctl(PR_SET_NAME, comm, 0, 0, 0)) {
		perror("prctl(PR_SET_NAME)");
		exit(1);
	}
}

#endif
