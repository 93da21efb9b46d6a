// SPDX-License-Identifier: GPL-2.0
/*
 * swdrain DIR OUT - keep the sampler's relay files DIR/cpuN drained into
 * OUT/cpuN (or /dev/null if OUT is "-") every 10 ms until SIGINT or
 * SIGTERM, then read what is left and print "bytes=N".  The reader the
 * overhead benchmark runs beside the workload.
 */
#include "common.h"
#include <fcntl.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#define MAXCPU 256

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	static char buf[1 << 20];
	int in[MAXCPU], out[MAXCPU], n = 0, i, last = 0;
	struct timespec tick = { 0, 10000000 };
	unsigned long long bytes = 0;
	char path[4096];

	if (argc != 3) {
		fprintf(stderr, "usage: %s DIR OUT|-\n", argv[0]);
		return 2;
	}
	for (i = 0; i < MAXCPU; i++) {
		snprintf(path, sizeof(path), "%s/cpu%d", argv[1], i);
		in[n] = open(path, O_RDONLY);
		if (in[n] < 0)
			break;
		if (strcmp(argv[2], "-"))
			snprintf(path, sizeof(path), "%s/cpu%d", argv[2], i);
		else
			snprintf(path, sizeof(path), "/dev/null");
		out[n] = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (out[n] < 0) {
			perror(path);
			return 1;
		}
		n++;
	}
	if (!n) {
		fprintf(stderr, "%s: no %s/cpu0\n", argv[0], argv[1]);
		return 1;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	for (;;) {
		for (i = 0; i < n; i++) {
			ssize_t r;

			while ((r = read(in[i], buf, sizeof(buf))) > 0) {
				if (write(out[i], buf, r) != r) {
					perror("write");
					return 1;
				}
				bytes += r;
			}
		}
		if (last)
			break;
		if (stop)
			last = 1;	/* one more pass after the signal */
		else
			nanosleep(&tick, NULL);
	}
	printf("bytes=%llu\n", bytes);
	return 0;
}
