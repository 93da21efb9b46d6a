/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse.h - parsing of the control lines written to debugfs and of module
 * parameters.  Pure logic: compiled into stopwatch.ko and into host tests.
 */
#ifndef _STOPWATCH_PARSE_H
#define _STOPWATCH_PARSE_H

#include "sw_types.h"

enum sw_cmd_op {
	SW_CMD_ADD,
	SW_CMD_REMOVE,
};

/**
 * struct sw_cmd - one probe command: "+name", "-name" or "name" (add).
 * @op:   add or remove
 * @name: function name, NUL-terminated, pointing into the parsed buffer
 */
struct sw_cmd {
	enum sw_cmd_op op;
	const char *name;
};

/**
 * struct sw_parse_err - where parsing stopped, for the error message.
 * @token: the offending token (NUL-terminated, in the parsed buffer), or NULL
 * @why:   static text saying what is wrong with it
 */
struct sw_parse_err {
	const char *token;
	const char *why;
};

int sw_parse_cmds(char *buf, struct sw_cmd *cmds, int max_cmds,
		  size_t max_name, struct sw_parse_err *err);

enum sw_breakdown {
	SW_BD_NONE,
	SW_BD_PID,
	SW_BD_TGID,
	SW_BD_COMM,
	SW_BD_CPU,
	SW_BD_NR,
};

int sw_parse_breakdown(const char *s);
const char *sw_breakdown_name(int mode);

#endif /* _STOPWATCH_PARSE_H */
