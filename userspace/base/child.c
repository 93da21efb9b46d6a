// SPDX-License-Identifier: GPL-2.0
/*
 * child.c - the command a measuring subcommand runs (child.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/child.h"

/**
 * sw_command_split() - find "--" and the command after it.
 * @argc: arguments
 * @argv: their values; argv[0] is the subcommand
 * @who:  the subcommand, for the message
 * @cmd:  the command's argv (NULL-terminated, in @argv), or NULL
 *
 * Return: the number of arguments before "--" (@argc without one), or
 * -EINVAL after saying that "--" has no command after it.
 */
int sw_command_split(int argc, char **argv, const char *who, char ***cmd)
{
	int i;

	*cmd = NULL;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--"))
			continue;
		if (i + 1 == argc) {
			fprintf(stderr,
				"stopwatch %s: '--' and no command after it\n",
				who);
			return -EINVAL;
		}
		*cmd = argv + i + 1;
		return i;
	}
	return argc;
}

/**
 * sw_child_start() - fork @cmd, held before exec until a byte is written
 * to *@go (or *@go is closed: then it exits 127).
 * @cmd: the command
 * @go:  the pipe's write end, output
 * @who: the subcommand, for the message
 *
 * Return: the child's pid, or a negative errno (said).
 */
pid_t sw_child_start(char **cmd, int *go, const char *who)
{
	int fds[2], ret;
	pid_t pid;
	char c;

	if (pipe2(fds, O_CLOEXEC))
		goto fail;
	pid = fork();
	if (pid < 0) {
		ret = errno;
		close(fds[0]);
		close(fds[1]);
		errno = ret;
		goto fail;
	}
	if (!pid) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		close(fds[1]);
		if (read(fds[0], &c, 1) != 1)
			_exit(127);
		execvp(cmd[0], cmd);
		fprintf(stderr, "stopwatch %s: cannot run %s: %s\n", who, cmd[0],
			strerror(errno));
		_exit(127);
	}
	close(fds[0]);
	*go = fds[1];
	return pid;
fail:
	ret = -errno;
	fprintf(stderr, "stopwatch %s: cannot start %s: %s\n", who, cmd[0],
		strerror(-ret));
	return ret;
}

/**
 * sw_signals_catch() - @fn handles SIGINT, SIGTERM and SIGCHLD.
 * @fn: the handler
 */
void sw_signals_catch(void (*fn)(int))
{
	struct sigaction sa = { 0 };

	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
}
