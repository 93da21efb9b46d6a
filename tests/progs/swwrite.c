// SPDX-License-Identifier: GPL-2.0
/*
 * swwrite FILE TEXT - write TEXT to FILE in one write(2) and print "ok" or
 * the errno's name (ENOENT, EINVAL, ...), so shell tests can check the
 * exact error a control file returns.  Exit 0 on success, 1 on error.
 */
#include "common.h"
#include <fcntl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	size_t len;
	ssize_t n;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: %s FILE TEXT\n", argv[0]);
		return 2;
	}
	fd = open(argv[1], O_WRONLY);
	if (fd < 0) {
		printf("open:%s\n", strerrorname_np(errno));
		return 1;
	}
	len = strlen(argv[2]);
	n = write(fd, argv[2], len);
	if (n < 0) {
		printf("%s\n", strerrorname_np(errno));
		return 1;
	}
	close(fd);
	printf(n == (ssize_t)len ? "ok\n" : "short\n");
	return n == (ssize_t)len ? 0 : 1;
}
