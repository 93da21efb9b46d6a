// SPDX-License-Identifier: GPL-2.0
/*
 * stopwatch.c - the stopwatch command: dispatches "stopwatch <command>" to
 * the builtin-<command>.c that implements it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "base/err.h"


struct sw_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static int cmd_help(int argc, char **argv);
static int cmd_version(int argc, char **argv);

static const struct sw_command sw_commands[] = {
	{ "time", cmd_time, "Time kernel functions matching patterns, then report" },
	{ "probe", cmd_probe, "Add, remove and list long-lived probes" },
	{ "span", cmd_span, "Time intervals between two points with the same key" },
	{ "events", cmd_events, "Show, set, resolve and list the events counted per call" },
	{ "record", cmd_record, "Sample where the CPUs spend their time into a file" },
	{ "report", cmd_report, "Show a recording: table, call graph, flame graph, pprof" },
	{ "trace", cmd_trace, "Print every call of functions matching patterns, in time order" },
	{ "script", cmd_script, "Print a recording as one stream in time order" },
	{ "stat", cmd_stat, "Print the statistics and histograms of the probed functions" },
	{ "serve", cmd_serve, "Serve the statistics and profiles over HTTP (Prometheus, pprof)" },
	{ "help", cmd_help, "Show this help, or a command's with 'help COMMAND'" },
	{ "version", cmd_version, "Print the version" },
};

#define SW_NCOMMANDS (sizeof(sw_commands) / sizeof(sw_commands[0]))

static void sw_usage(FILE *f)
{
	size_t i;

	fprintf(f,
		"usage: stopwatch [--version] [--help] COMMAND [ARGS]\n"
		"\n"
		"Measure how long kernel functions take and where the CPUs spend their time,\n"
		"with the stopwatch.ko module.\n"
		"\n"
		"Commands:\n");
	for (i = 0; i < SW_NCOMMANDS; i++)
		fprintf(f, "   %-10s %s\n", sw_commands[i].name,
			sw_commands[i].summary);
	fprintf(f,
		"\n"
		"Examples:\n"
		"   echo vfs_read > /sys/kernel/debug/stopwatch/probes\n"
		"   stopwatch stat                   table and histograms\n"
		"   stopwatch stat --probe vfs_read -i 1   what each second added, one probe\n"
		"   stopwatch time 'vfs_*' -- ./app  time the vfs_ functions for ./app\n"
		"   stopwatch probe add -p 1234 --by comm 'tcp_v[46]_*'\n"
		"   stopwatch record -g -o prof.swd -- ./app   profile a program\n"
		"   stopwatch report -i prof.swd     where it spent its time\n"
		"   stopwatch help stat              options of 'stat'\n"
		"\n"
		"See 'stopwatch COMMAND --help' or 'man stopwatch-COMMAND'.\n");
}

static const struct sw_command *sw_find_command(const char *name)
{
	size_t i;

	for (i = 0; i < SW_NCOMMANDS; i++)
		if (!strcmp(sw_commands[i].name, name))
			return &sw_commands[i];
	return NULL;
}

static int cmd_help(int argc, char **argv)
{
	const struct sw_command *cmd;
	char help[] = "--help";
	char *args[3];

	if (argc < 2) {
		sw_usage(stdout);
		return 0;
	}
	cmd = sw_find_command(argv[1]);
	if (!cmd || cmd->fn == cmd_help || cmd->fn == cmd_version) {
		if (cmd) {
			sw_usage(stdout);
			return 0;
		}
		fprintf(stderr,
			"stopwatch: '%s' is not a stopwatch command. See 'stopwatch help'.\n",
			argv[1]);
		return -EINVAL;
	}
	args[0] = argv[1];
	args[1] = help;
	args[2] = NULL;
	return cmd->fn(2, args);
}

static int cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("stopwatch version %s\n", sw_version);
	return 0;
}

/* Reports a failed write to stdout, which would otherwise go unnoticed. */
static int sw_close_stdout(void)
{
	int bad = ferror(stdout), ret;

	errno = 0;
	ret = fclose(stdout);
	if (!ret && !bad)
		return 0;
	fprintf(stderr, "stopwatch: write error on standard output: %s\n",
		strerror(ret && errno ? errno : EIO));
	return -EIO;
}

int main(int argc, char **argv)
{
	const struct sw_command *cmd;
	int ret;

	/* Messages quote files and arguments: no raw control bytes. */
	sw_stderr_escape();
	if (argc < 2) {
		sw_usage(stderr);
		return 1;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		ret = cmd_help(1, argv + 1);
	} else if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		ret = cmd_version(1, argv + 1);
	} else if (argv[1][0] == '-') {
		fprintf(stderr, "stopwatch: unknown option '%s'\n\n", argv[1]);
		sw_usage(stderr);
		return 1;
	} else {
		cmd = sw_find_command(argv[1]);
		if (!cmd) {
			fprintf(stderr,
				"stopwatch: '%s' is not a stopwatch command. See 'stopwatch help'.\n",
				argv[1]);
			return 1;
		}
		ret = cmd->fn(argc - 1, argv + 1);
	}
	if (sw_close_stdout() && !ret)
		ret = -EIO;
	return ret ? 1 : 0;
}
