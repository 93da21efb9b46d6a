// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-serve-none.c - "stopwatch serve" in a program built without
 * libmicrohttpd (make SERVE=0, the default of static builds).
 */
#include <errno.h>
#include <stdio.h>

#include "builtin.h"

int cmd_serve(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr,
		"stopwatch serve: this stopwatch was built without libmicrohttpd (SERVE=0, as static builds are): build it with libmicrohttpd-dev and SERVE=1\n");
	return -ENOTSUP;
}
