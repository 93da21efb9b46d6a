/* SPDX-License-Identifier: GPL-2.0 */
/*
 * builtin.h - the stopwatch subcommands.
 *
 * Each cmd_<name>() gets the arguments from the subcommand's name on
 * (argv[0] is "<name>") and returns 0 on success or a negative errno after
 * printing what went wrong.  Add a command by writing builtin-<name>.c,
 * declaring it here and listing it in stopwatch.c's command table.
 */
#ifndef _SW_BUILTIN_H
#define _SW_BUILTIN_H

#include "base/version.h"

int cmd_stat(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_events(int argc, char **argv);
int cmd_time(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_span(int argc, char **argv);
int cmd_serve(int argc, char **argv);

#endif /* _SW_BUILTIN_H */
