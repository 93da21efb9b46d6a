// SPDX-License-Identifier: GPL-2.0
/*
 * forker N [COMM] - fork exactly N times, one child at a time: each child
 * exits at once, the parent waits for it.  Optionally under a given
 * command name (children inherit it).
 */
#include "common.h"
#include <sys/wait.h>
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
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (!pid)
			_exit(0);
		if (waitpid(pid, NULL, 0) != pid) {
			perror("waitpid");
			return 1;
		}
	}
	printf("pid=%d forks=%ld\n", getpid(), n);
	return 0;
}
