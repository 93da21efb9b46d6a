/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attachtab.h - the words for how a probe is attached: the stats file's
 * attach column (a number) and its attach_err column (why a kernel
 * function is on a kretprobe where attach=auto would have put it on a
 * trampoline: a positive errno).  Pure logic: the module explains a
 * refusal with these texts, the program names the columns with them.
 */
#ifndef _STOPWATCH_ATTACHTAB_H
#define _STOPWATCH_ATTACHTAB_H

#include "wrapper/types.h"

/* The stats file's attach column. */
#define SW_STATS_ATTACH_KRETPROBE	0
#define SW_STATS_ATTACH_TRAMPOLINE	1
#define SW_STATS_ATTACH_UPROBE		2

/**
 * sw_attach_name() - the word for an attach column's value.
 * @attach: SW_STATS_ATTACH_*
 *
 * Return: "kretprobe", "trampoline", "uprobe", or NULL for another value.
 */
const char *sw_attach_name(int attach);

/**
 * struct sw_attach_why - why a trampoline was refused.
 * @err:   the positive errno of the refusal (0 ends the table: any other)
 * @brief: a few words, for a table cell: "no argument count"
 * @text:  the whole reason, as the kernel log and last_error say it
 */
struct sw_attach_why {
	int err;
	const char *brief;
	const char *text;
};

/**
 * sw_attach_why() - the reason for a refusal.
 * @err: a positive errno (the attach_err column), or its negative
 *
 * Return: its entry; an errno the table does not know gets the last entry
 * ("ftrace refused the direct call").
 */
const struct sw_attach_why *sw_attach_why(int err);

#endif /* _STOPWATCH_ATTACHTAB_H */
