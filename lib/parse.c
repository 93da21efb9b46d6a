// SPDX-License-Identifier: GPL-2.0
/*
 * parse.c - control-line parsing shared by the module and host tests.
 *
 * Context: process context only (control writes and module init).
 */
#include "parse.h"

static bool sw_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',';
}

/* Characters that occur in kernel symbol names (foo.isra.0, __x64_sys_x). */
static bool sw_is_symchar(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.';
}

/**
 * sw_parse_cmds() - split a control line into probe commands.
 * @buf:      the line; modified in place (tokens are NUL-terminated)
 * @cmds:     output array
 * @max_cmds: size of @cmds
 * @max_name: longest accepted function name, in bytes
 * @err:      filled with the offending token and the reason on failure
 *
 * Tokens are separated by white space or commas.  Each is "+name" (add),
 * "-name" (remove) or "name" (add).  The same name may not appear twice.
 *
 * Return: number of commands (0 for an empty line), or -EINVAL for a
 * malformed name, -E2BIG for a name longer than @max_name or more than
 * @max_cmds commands, -EEXIST for a name given twice.
 */
int sw_parse_cmds(char *buf, struct sw_cmd *cmds, int max_cmds,
		  size_t max_name, struct sw_parse_err *err)
{
	int n = 0, i;
	char *p = buf;

	err->token = NULL;
	err->why = NULL;
	while (*p) {
		enum sw_cmd_op op = SW_CMD_ADD;
		char *tok, *name;
		size_t len;

		while (*p && sw_is_space(*p))
			p++;
		if (!*p)
			break;
		tok = p;
		while (*p && !sw_is_space(*p))
			p++;
		if (*p)
			*p++ = '\0';

		name = tok;
		if (*name == '+' || *name == '-') {
			op = *name == '+' ? SW_CMD_ADD : SW_CMD_REMOVE;
			name++;
		}
		err->token = tok;
		len = strlen(name);
		if (!len) {
			err->why = "missing function name";
			return -EINVAL;
		}
		if (len > max_name) {
			err->why = "function name too long";
			return -E2BIG;
		}
		for (i = 0; name[i]; i++) {
			if (!sw_is_symchar(name[i])) {
				err->why = "invalid character in function name";
				return -EINVAL;
			}
		}
		if (name[0] >= '0' && name[0] <= '9') {
			err->why = "function name starts with a digit";
			return -EINVAL;
		}
		for (i = 0; i < n; i++) {
			if (!strcmp(cmds[i].name, name)) {
				err->why = "function named twice";
				return -EEXIST;
			}
		}
		if (n >= max_cmds) {
			err->why = "too many functions in one command";
			return -E2BIG;
		}
		cmds[n].op = op;
		cmds[n].name = name;
		n++;
	}
	err->token = NULL;
	return n;
}

static const char *const sw_bd_names[SW_BD_NR] = {
	[SW_BD_NONE] = "none", [SW_BD_PID] = "pid", [SW_BD_TGID] = "tgid",
	[SW_BD_COMM] = "comm", [SW_BD_CPU] = "cpu",
};

/**
 * sw_parse_breakdown() - parse a breakdown mode name.
 * @s: "none", "pid", "tgid", "comm" or "cpu", optionally newline-terminated
 *
 * Return: the SW_BD_* value, or -EINVAL.
 */
int sw_parse_breakdown(const char *s)
{
	size_t len = strlen(s);
	int i;

	while (len && (s[len - 1] == '\n' || s[len - 1] == ' '))
		len--;
	for (i = 0; i < SW_BD_NR; i++)
		if (strlen(sw_bd_names[i]) == len &&
		    !strncmp(s, sw_bd_names[i], len))
			return i;
	return -EINVAL;
}

/**
 * sw_breakdown_name() - name of a breakdown mode.
 * @mode: SW_BD_* value
 *
 * Return: static string; "?" for an out-of-range value.
 */
const char *sw_breakdown_name(int mode)
{
	return mode >= 0 && mode < SW_BD_NR ? sw_bd_names[mode] : "?";
}
