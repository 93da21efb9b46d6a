// SPDX-License-Identifier: GPL-2.0
/*
 * runas UID CMD [ARGS...] - run CMD as user and group UID, with no
 * supplementary groups: a non-root reader for the guests, whose busybox
 * has no setpriv --reuid and no user database for su.
 */
#include "common.h"
#include <grp.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long uid;

	if (argc < 3) {
		fprintf(stderr, "usage: %s UID CMD [ARGS...]\n", argv[0]);
		return 2;
	}
	uid = arg_long(argv[0], "UID", argv[1]);
	if (setgroups(0, NULL) || setgid(uid) || setuid(uid)) {
		perror("runas: setgroups/setgid/setuid");
		return 1;
	}
	execvp(argv[2], argv + 2);
	perror(argv[2]);
	return 127;
}
