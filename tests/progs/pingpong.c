// SPDX-License-Identifier: GPL-2.0
/*
 * pingpong N - two processes pass one byte back and forth N times over
 * two pipes: each round trip wakes each of them once (a steady stream of
 * wakeups and switches for the run-queue latency tools).
 */
#include "common.h"
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int ab[2], ba[2];
	long n, i;
	pid_t pid;
	char c = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s N\n", argv[0]);
		return 2;
	}
	n = arg_long(argv[0], "N", argv[1]);
	if (pipe(ab) || pipe(ba)) {
		perror("pipe");
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (!pid) {
		for (i = 0; i < n; i++)
			if (read(ab[0], &c, 1) != 1 || write(ba[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	for (i = 0; i < n; i++)
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1) {
			perror("pingpong");
			return 1;
		}
	waitpid(pid, NULL, 0);
	printf("round trips=%ld\n", n);
	return 0;
}
