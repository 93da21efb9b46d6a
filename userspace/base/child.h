/* SPDX-License-Identifier: GPL-2.0 */
/*
 * child.h - the command a measuring subcommand runs ("-- COMMAND ARGS"):
 * found on the command line, forked, held before exec until the
 * measurement is in place.
 */
#ifndef _SW_UTIL_CHILD_H
#define _SW_UTIL_CHILD_H

#include <sys/types.h>

int sw_command_split(int argc, char **argv, const char *who, char ***cmd);
pid_t sw_child_start(char **cmd, int *go, const char *who);
void sw_signals_catch(void (*fn)(int));

#endif /* _SW_UTIL_CHILD_H */
