/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse.h - parsing of the control lines written to debugfs and of module
 * parameters.  Pure logic: compiled into stopwatch.ko and into host tests.
 */
#ifndef _STOPWATCH_PARSE_H
#define _STOPWATCH_PARSE_H

#include "wrapper/types.h"
#include "bounds.h"

enum sw_cmd_op {
	SW_CMD_ADD,
	SW_CMD_REMOVE,
};

#ifndef SW_COMM_LEN
#define SW_COMM_LEN 16
#endif

/* Filters of a probe (struct sw_filter.flags). */
#define SW_F_PID	(1U << 0)
#define SW_F_TGID	(1U << 1)
#define SW_F_COMM	(1U << 2)
#define SW_F_CGROUP	(1U << 3)
#define SW_F_CPUS	(1U << 4)
#define SW_F_FOLLOW	(1U << 5)
#define SW_F_MIN	(1U << 6)
#define SW_F_MAX	(1U << 7)
/* The filters decided at entry, before the clock is read. */
#define SW_F_ENTRY (SW_F_PID | SW_F_TGID | SW_F_COMM | SW_F_CGROUP | \
		    SW_F_CPUS | SW_F_FOLLOW)
/* The duration window, decided at exit. */
#define SW_F_WINDOW (SW_F_MIN | SW_F_MAX)

/**
 * struct sw_filter - which calls of a probe count.
 * @flags:  SW_F_* set: the filters in force (all must pass)
 * @pid:    thread id (pid=)
 * @tgid:   process id (tgid=)
 * @follow: a process whose descendants count too (follow=)
 * @cgroup: cgroup v2 id, the cgroup directory's inode number (cgroup=)
 * @min_ns: shorter calls are counted apart, not folded (min_ns=)
 * @max_ns: longer calls likewise (max_ns=)
 * @cpus:   bitmap of CPUs (cpus=)
 * @comm:   exact command name, NUL-padded (comm=)
 */
struct sw_filter {
	u32 flags;
	u32 pid;
	u32 tgid;
	u32 follow;
	u64 cgroup;
	u64 min_ns;
	u64 max_ns;
	u64 cpus[SW_FILTER_CPUS / 64];
	char comm[SW_COMM_LEN];
};

/* What rows of a probe are keyed by (by=); the first four are SW_BD_*. */
enum sw_key_kind {
	SW_KEY_NONE,
	SW_KEY_PID,
	SW_KEY_TGID,
	SW_KEY_COMM,
	SW_KEY_CPU,
	SW_KEY_CALLER,
	SW_KEY_ARG0,
	SW_KEY_ARG5 = SW_KEY_ARG0 + 5,
	SW_KEY_RETVAL,
	SW_KEY_SPAN,	/* a span's pairing key (a pair: by is key,key): spans only */
	SW_KEY_NR,
};

/**
 * struct sw_by - the key of a probe's rows: one kind or a pair.
 * @k:   kinds, SW_KEY_NONE when unused (k[0] none: no rows)
 * @own: set by by=; clear for the global breakdown mode's shorthand
 */
struct sw_by {
	u8 k[2];
	u8 own;
	u8 pad;
};

/* How a kernel function is attached: the module's attach= parameter
 * and a probe's attach= option (attach/tramp.c). */
enum sw_attach {
	SW_ATTACH_DEFAULT,	/* option not given: the module parameter */
	SW_ATTACH_KRETPROBE,
	SW_ATTACH_TRAMPOLINE,	/* a trampoline or an error */
	SW_ATTACH_AUTO,		/* a trampoline where it can, else kretprobe */
};

/* Most arguments args= takes (a C function has at most 127). */
#define SW_ARGS_MAX 127

/**
 * struct sw_cmd - one probe command: "+name", "-name" or "name" (add),
 * with its options when it adds.
 * @op:       add or remove
 * @name:     the probe's identity, FUNC or FUNC@TAG, NUL-terminated,
 *            pointing into the parsed buffer
 * @func_len: length of FUNC in @name
 * @filter:   filters (flags 0: none)
 * @by:       keys (k[0] SW_KEY_NONE: none given)
 * @upath:    a user point (a name with a ':'): the file's absolute path
 *            from its uprobe= option, unescaped, pointing into the parsed
 *            buffer; NULL for a kernel function
 * @uoffset:  the file offset of the user point's first instruction
 * @attach:   a kernel function's attach= (SW_ATTACH_*; DEFAULT: none)
 * @has_args: args= was given
 * @nargs:    its argument count from args= (BTF, through the program)
 * @trace:    trace=on|ret: SW_TRACE_* bits, 0 when not given
 */
struct sw_cmd {
	enum sw_cmd_op op;
	const char *name;
	u32 func_len;
	struct sw_filter filter;
	struct sw_by by;
	const char *upath;
	u64 uoffset;
	u8 attach;
	u8 has_args;
	u8 nargs;
	u8 trace;
};

/* struct sw_cmd.trace: a record per call (on), with its return value. */
#define SW_TRACE_ON 0x1
#define SW_TRACE_RET 0x2
/* Trace records name a probe by a 16-bit id. */
#define SW_TRACE_ID_MAX 0xffff

/* Is @name (FUNC or FUNC@TAG) a user point's, BINARY:WHAT? */
static inline bool sw_name_is_user(const char *name)
{
	for (; *name && *name != '@'; name++)
		if (*name == ':')
			return true;
	return false;
}

/**
 * struct sw_parse_err - where parsing stopped, for the error message.
 * @token: the offending token (NUL-terminated, in the parsed buffer), or NULL
 * @why:   static text saying what is wrong with it
 */
struct sw_parse_err {
	const char *token;
	const char *why;
};

int sw_parse_number(const char *s, size_t len, int base, u64 *out);
int sw_parse_err_str(const struct sw_parse_err *err, char *buf, size_t len);
char *sw_parse_token(char **p);
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

const char *sw_parse_upoint(char *v, u64 *off);
bool sw_cpulist_ok(const char *s);
bool sw_parse_cpus(const char *s, u64 *map);
const char *sw_parse_by(const char *v, struct sw_by *by);
int sw_parse_breakdown(const char *s);
const char *sw_breakdown_name(int mode);
const char *sw_key_name(int kind);

#endif /* _STOPWATCH_PARSE_H */
