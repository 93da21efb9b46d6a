// SPDX-License-Identifier: GPL-2.0
/*
 * getppid_loop N [COMM] - make exactly N getppid system calls (raw
 * syscall, never cached by libc), optionally under a given command name.
 */
#include "common.h"
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n, i;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: %s N [COMM]\n", argv[0]);
		return 2;
	}
	n = arg_long(argv[0], "N", argv[1]);
	set_comm(argc == 3 ? argv[2] : NULL);
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	printf("pid=%d calls=%ld\n", getpid(), n);
	return 0;
}
