// SPDX-License-Identifier: GPL-2.0
/*
 * modload FILE.ko [PARAMS] - load a module with finit_module(2) and print
 * "ok" or the errno's name, so tests can check the exact error a failed
 * module init returns (insmod front ends reword it).  Exit 0 on success.
 */
#include "common.h"
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int fd;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: %s FILE.ko [PARAMS]\n", argv[0]);
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		printf("open:%s\n", strerrorname_np(errno));
		return 1;
	}
	if (syscall(SYS_finit_module, fd, argc == 3 ? argv[2] : "", 0)) {
		printf("%s\n", strerrorname_np(errno));
		return 1;
	}
	printf("ok\n");
	return 0;
}
