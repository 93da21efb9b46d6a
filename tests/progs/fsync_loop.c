// SPDX-License-Identifier: GPL-2.0
/*
 * fsync_loop N [FILE] - make exactly N fsync(2) calls on FILE (default a
 * new file in $TMPDIR or /tmp, removed at the end): N calls of the kernel's
 * vfs_fsync and vfs_fsync_range, a known count inside the vfs_ functions.
 */
#include "common.h"
#include <fcntl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	long n, i;
	int fd;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: %s N [FILE]\n", argv[0]);
		return 2;
	}
	n = arg_long(argv[0], "N", argv[1]);
	if (argc == 3)
		snprintf(path, sizeof(path), "%s", argv[2]);
	else
		snprintf(path, sizeof(path), "%s/fsync_loop.%d",
			 dir && *dir ? dir : "/tmp", (int)getpid());
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	for (i = 0; i < n; i++)
		if (fsync(fd)) {
			perror("fsync");
			return 1;
		}
	close(fd);
	if (argc == 2)
		unlink(path);
	printf("pid=%d fsyncs=%ld\n", getpid(), n);
	return 0;
}
