// SPDX-License-Identifier: GPL-2.0
/*
 * callrate read|getppid N [RUNS] - time N calls of a cheap system call and
 * print the median over RUNS runs (default 5) of nanoseconds per call:
 *   read     1-byte read(2) of /dev/zero (ksys_read, vfs_read)
 *   getppid  raw getppid(2)
 * Output: "ns_per_call=<median> runs=<r1>,<r2>,..."
 */
#include "common.h"
#include <fcntl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	long n, runs = 5, i, r;
	double per[64];
	int fd = -1, use_read;
	char c;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: %s read|getppid N [RUNS]\n", argv[0]);
		return 2;
	}
	use_read = !strcmp(argv[1], "read");
	if (!use_read && strcmp(argv[1], "getppid")) {
		fprintf(stderr, "%s: unknown call '%s' (read or getppid)\n",
			argv[0], argv[1]);
		return 2;
	}
	n = arg_long(argv[0], "N", argv[2]);
	if (argc == 4)
		runs = arg_long(argv[0], "RUNS", argv[3]);
	if (n < 1 || runs < 1 || runs > 64) {
		fprintf(stderr, "%s: need N >= 1 and 1 <= RUNS <= 64\n", argv[0]);
		return 2;
	}
	if (use_read) {
		fd = open("/dev/zero", O_RDONLY);
		if (fd < 0) {
			perror("/dev/zero");
			return 1;
		}
	}
	for (r = 0; r < runs; r++) {
		long long t0 = now_ns();

		for (i = 0; i < n; i++) {
			if (use_read) {
				if (read(fd, &c, 1) != 1)
					return 1;
			} else {
				syscall(SYS_getppid);
			}
		}
		per[r] = (double)(now_ns() - t0) / n;
	}
	printf("runs=");
	for (r = 0; r < runs; r++)
		printf("%s%.1f", r ? "," : "", per[r]);
	qsort(per, runs, sizeof(per[0]), cmp_double);
	printf(" ns_per_call=%.1f\n",
	       runs % 2 ? per[runs / 2] : (per[runs / 2 - 1] + per[runs / 2]) / 2);
	return 0;
}
