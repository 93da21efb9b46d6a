// SPDX-License-Identifier: GPL-2.0
/*
 * perfhog CPU N SECONDS - another perf user: open N pinned CPU-wide
 * "instructions" counters on CPU (as perf stat -a -e instructions:D would)
 * and hold them for SECONDS.  Prints "opened N" once they are open, so a
 * test can wait for that line.  Exit 0 when all N opened.
 */
#include "common.h"
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct perf_event_attr attr;
	long cpu, n, secs, i;

	if (argc != 4) {
		fprintf(stderr, "usage: %s CPU N SECONDS\n", argv[0]);
		return 2;
	}
	cpu = arg_long(argv[0], "CPU", argv[1]);
	n = arg_long(argv[0], "N", argv[2]);
	secs = arg_long(argv[0], "SECONDS", argv[3]);
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_INSTRUCTIONS;
	attr.pinned = 1;
	for (i = 0; i < n; i++) {
		if (syscall(SYS_perf_event_open, &attr, -1, (int)cpu, -1, 0) < 0) {
			printf("perf_event_open %ld: %s\n", i,
			       strerrorname_np(errno));
			fflush(stdout);
			break;
		}
	}
	printf("opened %ld\n", i);
	fflush(stdout);
	sleep(secs);
	return i == n ? 0 : 1;
}
