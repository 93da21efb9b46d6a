// SPDX-License-Identifier: GPL-2.0
/*
 * parse.c - control-line parsing shared by the module and host tests.
 *
 * Context: process context only (control writes and module init).
 */
#include "events.h"
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

/* White space only: an option's value runs to it (commas included). */
static bool sw_is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * Characters of a user point's name (BINARY:SYMBOL, BINARY:0xOFFSET):
 * printable, and none that the control syntax or a debugfs file name
 * gives a meaning (white space, ',', '=', '@', '/', '\\').
 */
static bool sw_is_userchar(char c)
{
	return c > ' ' && c < 0x7f && c != ',' && c != '=' && c != '@' &&
	       c != '/' && c != '\\';
}

static bool sw_is_tagchar(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/**
 * sw_parse_number() - parse an unsigned number, all of [s, s + len).
 * @s:    the text
 * @len:  its length
 * @base: 10, 16, or 0: 0x.. hexadecimal, else decimal
 * @out:  the value
 *
 * Return: 0, -EINVAL (empty, a bad digit) or -ERANGE (more than 64 bits).
 */
int sw_parse_number(const char *s, size_t len, int base, u64 *out)
{
	u64 v = 0;
	size_t i = 0;

	if (base == 0) {
		base = 10;
		if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
			base = 16;
			i = 2;
		}
	}
	if (i >= len)
		return -EINVAL;
	for (; i < len; i++) {
		int d;
		char c = s[i];

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -EINVAL;
		if (v > (U64_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	*out = v;
	return 0;
}

/* A decimal number, the whole of @s; no sign, no overflow. */
static bool sw_parse_dec(const char *s, u64 *v)
{
	return !sw_parse_number(s, strlen(s), 10, v);
}

static bool sw_parse_id(const char *s, u32 *v)
{
	u64 x;

	if (!sw_parse_dec(s, &x) || x > SW_ID_MAX)
		return false;
	*v = (u32)x;
	return true;
}

/**
 * sw_parse_err_str() - the message of a parse error, as the module's
 * last_error and the program say it: "'TOKEN': why" (a long token cut
 * at 64 characters), or the reason alone when no token is at fault.
 * @err: the error
 * @buf: output
 * @len: size of @buf
 *
 * Return: what snprintf() returns.
 */
int sw_parse_err_str(const struct sw_parse_err *err, char *buf, size_t len)
{
	const char *why = err->why ? err->why : "malformed";

	if (!err->token)
		return snprintf(buf, len, "%s", why);
	return snprintf(buf, len, "'%.64s%s': %s", err->token,
			strlen(err->token) > 64 ? "..." : "", why);
}

/**
 * sw_parse_token() - the next white-space separated token of a line.
 * @p: where the rest of the line starts; moved past the token
 *
 * The token is NUL-terminated in place.
 *
 * Return: the token, or NULL at the end of the line.
 */
char *sw_parse_token(char **p)
{
	char *s = *p, *tok;

	while (*s && sw_is_ws(*s))
		s++;
	if (!*s) {
		*p = s;
		return NULL;
	}
	tok = s;
	while (*s && !sw_is_ws(*s))
		s++;
	if (*s)
		*s++ = '\0';
	*p = s;
	return tok;
}

/*
 * The one reader of CPU lists ("0-1,3"): CPUs or ascending ranges of
 * them, comma-separated, each below @nbits; set in @map (@nbits bits)
 * unless @map is NULL.  Return: true, or false for a list out of form or
 * out of bounds.
 */
static bool sw_cpulist_read(const char *s, u64 *map, u64 nbits)
{
	char num[12];

	if (map)
		memset(map, 0, (nbits + 63) / 64 * 8);
	if (!*s)
		return false;
	while (*s) {
		u64 a, b;
		size_t i;
		char *dash;

		for (i = 0; s[i] && s[i] != ','; i++)
			;
		if (!i || i >= sizeof(num))
			return false;
		memcpy(num, s, i);
		num[i] = '\0';
		s += i;
		if (*s == ',' && !*++s)
			return false;	/* trailing comma */
		dash = strchr(num, '-');
		if (dash)
			*dash++ = '\0';
		if (!sw_parse_dec(num, &a))
			return false;
		b = a;
		if (dash && !sw_parse_dec(dash, &b))
			return false;
		if (a > b || b >= nbits)
			return false;
		for (; map && a <= b; a++)
			map[a / 64] |= 1ULL << (a % 64);
	}
	return true;
}

/**
 * sw_cpulist_ok() - whether @s is a CPU list ("0-1,3": CPUs or ascending
 * ranges, comma-separated).  Which CPUs exist is the caller's question.
 */
bool sw_cpulist_ok(const char *s)
{
	return sw_cpulist_read(s, NULL, U32_MAX);
}

/**
 * sw_parse_cpus() - a cpus= list ("0-1,3"): CPUs or ranges of them, each
 * below SW_FILTER_CPUS, into the bitmap @map (SW_FILTER_CPUS bits).
 * @s: the text; not modified
 *
 * Return: true, or false for a list out of form or out of bounds.
 */
bool sw_parse_cpus(const char *s, u64 *map)
{
	return sw_cpulist_read(s, map, SW_FILTER_CPUS);
}

static const char *const sw_key_names[SW_KEY_NR] = {
	[SW_KEY_NONE] = "none",	    [SW_KEY_PID] = "pid",
	[SW_KEY_TGID] = "tgid",	    [SW_KEY_COMM] = "comm",
	[SW_KEY_CPU] = "cpu",	    [SW_KEY_CALLER] = "caller",
	[SW_KEY_ARG0] = "arg0",	    [SW_KEY_ARG0 + 1] = "arg1",
	[SW_KEY_ARG0 + 2] = "arg2", [SW_KEY_ARG0 + 3] = "arg3",
	[SW_KEY_ARG0 + 4] = "arg4", [SW_KEY_ARG5] = "arg5",
	[SW_KEY_RETVAL] = "retval", [SW_KEY_SPAN] = "key",
};

/**
 * sw_key_name() - name of a key kind, as by= takes it.
 * @kind: SW_KEY_* value
 *
 * Return: static string; "?" for an out-of-range value.
 */
const char *sw_key_name(int kind)
{
	return kind >= 0 && kind < SW_KEY_NR ? sw_key_names[kind] : "?";
}

static int sw_parse_key(const char *s, size_t len)
{
	int i;

	for (i = SW_KEY_NONE + 1; i < SW_KEY_NR; i++)
		if (strlen(sw_key_names[i]) == len &&
		    !strncmp(s, sw_key_names[i], len))
			return i;
	return -1;
}

/**
 * sw_parse_by() - a by= value: "K" or "K1,K2", two different keys.
 * @v:  the text; not modified
 * @by: output
 *
 * Return: NULL, or why it is wrong.
 */
const char *sw_parse_by(const char *v, struct sw_by *by)
{
	const char *comma = strchr(v, ',');
	int k0, k1 = SW_KEY_NONE;

	k0 = sw_parse_key(v, comma ? (size_t)(comma - v) : strlen(v));
	if (comma) {
		if (strchr(comma + 1, ','))
			return "by= takes one key or a pair";
		k1 = sw_parse_key(comma + 1, strlen(comma + 1));
	}
	if (k0 < 0 || k1 < 0)
		return "unknown key (pid tgid comm cpu caller arg0..arg5 retval)";
	if (k0 == k1)
		return "key named twice";
	by->k[0] = (u8)k0;
	by->k[1] = (u8)k1;
	by->own = 1;
	return NULL;
}

/**
 * sw_parse_upoint() - PATH:0xOFFSET, a user function's file and offset:
 * an absolute path (white space and '\\' written as octal escapes, \040
 * and \134) and a hexadecimal file offset, split at the last ':'.
 * Unescapes PATH in place and NUL-terminates it.  The probes' uprobe=
 * and the spans' user points take it.
 * @v:    the text; modified
 * @off:  the offset, output
 *
 * Return: NULL, or why it is wrong.
 */
const char *sw_parse_upoint(char *v, u64 *off)
{
	char *colon = strrchr(v, ':'), *r, *w;

	*off = 0;
	if (!colon || colon == v || colon[1] != '0' || colon[2] != 'x' ||
	    !colon[3])
		return "expected PATH:0xOFFSET";
	if (sw_parse_number(colon + 3, strlen(colon + 3), 16, off))
		return "bad offset (hexadecimal, 0x...)";
	if (*v != '/')
		return "the path must be absolute";
	*colon = '\0';
	for (r = w = v; *r; r++, w++) {
		if (*r == '\\') {
			if (r[1] < '0' || r[1] > '3' || r[2] < '0' ||
			    r[2] > '7' || r[3] < '0' || r[3] > '7')
				return "bad escape in path (\\ooo, octal)";
			*w = (char)((r[1] - '0') << 6 | (r[2] - '0') << 3 |
				    (r[3] - '0'));
			if (!*w)
				return "bad escape in path (\\ooo, octal)";
			r += 3;
		} else {
			*w = *r;
		}
	}
	*w = '\0';
	return NULL;
}

/* uprobe=PATH:0xOFFSET (sw_parse_upoint()). */
static const char *sw_parse_uprobe(char *v, struct sw_cmd *c)
{
	const char *why;
	u64 off;

	if (c->upath)
		return "option given twice";
	why = sw_parse_upoint(v, &off);
	if (why)
		return !strcmp(why, "expected PATH:0xOFFSET") ?
			       "expected uprobe=PATH:0xOFFSET" : why;
	c->upath = v;
	c->uoffset = off;
	return NULL;
}

/* Each option: its name, the flag it sets (0: by=). */
static const struct {
	const char *name;
	u32 flag;
} sw_opts[] = {
	{ "pid", SW_F_PID },	   { "tgid", SW_F_TGID },
	{ "comm", SW_F_COMM },	   { "cgroup", SW_F_CGROUP },
	{ "cpus", SW_F_CPUS },	   { "follow", SW_F_FOLLOW },
	{ "min_ns", SW_F_MIN },	   { "max_ns", SW_F_MAX },
	{ "by", 0 },	   { "uprobe", ~0U },
	{ "attach", ~1U }, { "args", ~2U },
	{ "trace", ~3U },
};

/* attach=kretprobe|trampoline|auto and args=N of a kernel function. */
static const char *sw_parse_attach(struct sw_cmd *c, u32 which, char *v)
{
	u64 n;

	if (sw_name_is_user(c->name))
		return "attach= and args= belong to kernel functions";
	if (which == ~2U) {
		if (c->has_args)
			return "option given twice";
		if (!sw_parse_dec(v, &n) || n > SW_ARGS_MAX)
			return "args= takes an argument count, 0 to 127";
		c->has_args = 1;
		c->nargs = (u8)n;
		return NULL;
	}
	if (c->attach)
		return "option given twice";
	if (!strcmp(v, "kretprobe"))
		c->attach = SW_ATTACH_KRETPROBE;
	else if (!strcmp(v, "trampoline"))
		c->attach = SW_ATTACH_TRAMPOLINE;
	else if (!strcmp(v, "auto"))
		c->attach = SW_ATTACH_AUTO;
	else
		return "attach= takes kretprobe, trampoline or auto";
	return NULL;
}

/* One NAME=VALUE option of @c; returns why it is wrong, or NULL. */
static const char *sw_parse_opt(struct sw_cmd *c, char *tok)
{
	struct sw_filter *f = &c->filter;
	char *v = strchr(tok, '=');
	size_t i, len = (size_t)(v - tok);
	bool ok;

	*v++ = '\0';
	for (i = 0; i < ARRAY_SIZE(sw_opts); i++)
		if (strlen(sw_opts[i].name) == len &&
		    !strcmp(tok, sw_opts[i].name))
			break;
	v[-1] = '=';	/* the token stays whole for the message */
	if (i == ARRAY_SIZE(sw_opts))
		return "unknown option (pid tgid comm cgroup cpus follow min_ns max_ns by uprobe attach args trace)";
	if (sw_opts[i].flag == ~3U) {
		if (c->trace)
			return "option given twice";
		if (!strcmp(v, "on"))
			c->trace = SW_TRACE_ON;
		else if (!strcmp(v, "ret"))
			c->trace = SW_TRACE_ON | SW_TRACE_RET;
		else
			return "trace= takes on or ret";
		return NULL;
	}
	if (sw_opts[i].flag == ~1U || sw_opts[i].flag == ~2U)
		return sw_parse_attach(c, sw_opts[i].flag, v);
	if (sw_opts[i].flag == ~0U) {
		if (!sw_name_is_user(c->name))
			return "uprobe= belongs to a user point (BINARY:NAME)";
		return sw_parse_uprobe(v, c);
	}
	if (!sw_opts[i].flag) {
		if (c->by.own)
			return "option given twice";
		return sw_parse_by(v, &c->by);
	}
	if (f->flags & sw_opts[i].flag)
		return "option given twice";
	switch (sw_opts[i].flag) {
	case SW_F_PID:
		ok = sw_parse_id(v, &f->pid);
		break;
	case SW_F_TGID:
		ok = sw_parse_id(v, &f->tgid);
		break;
	case SW_F_FOLLOW:
		ok = sw_parse_id(v, &f->follow);
		break;
	case SW_F_CGROUP:
		ok = sw_parse_dec(v, &f->cgroup);
		break;
	case SW_F_MIN:
		ok = sw_parse_dec(v, &f->min_ns);
		break;
	case SW_F_MAX:
		ok = sw_parse_dec(v, &f->max_ns);
		break;
	case SW_F_CPUS:
		if (!sw_parse_cpus(v, f->cpus))
			return "bad CPU list (e.g. 0-1,3; CPUs below 256)";
		ok = true;
		break;
	default: /* SW_F_COMM */
		if (!*v || strlen(v) >= SW_COMM_LEN)
			return "comm must be 1 to 15 characters";
		memset(f->comm, 0, sizeof(f->comm));
		memcpy(f->comm, v, strlen(v));
		ok = true;
		break;
	}
	if (!ok)
		return "bad number";
	f->flags |= sw_opts[i].flag;
	if ((f->flags & SW_F_WINDOW) == SW_F_WINDOW && f->min_ns > f->max_ns)
		return "min_ns is above max_ns";
	return NULL;
}

/* FUNC or FUNC@TAG; returns why it is wrong, or NULL. */
static const char *sw_parse_name(const char *name, size_t max_name,
				 u32 *func_len, int *ret)
{
	const char *at = strchr(name, '@');
	size_t len = at ? (size_t)(at - name) : strlen(name), i;
	bool user = sw_name_is_user(name);

	*ret = -EINVAL;
	if (!len)
		return "missing function name";
	if (len > max_name) {
		*ret = -E2BIG;
		return "function name too long";
	}
	for (i = 0; i < len; i++)
		if (user ? !sw_is_userchar(name[i]) : !sw_is_symchar(name[i]))
			return "invalid character in function name";
	if (user && (name[0] == ':' || name[len - 1] == ':'))
		return "a user point's name is BINARY:NAME";
	if (!user && name[0] >= '0' && name[0] <= '9')
		return "function name starts with a digit";
	if (at) {
		for (i = 1; at[i]; i++)
			if (!sw_is_tagchar(at[i]))
				return "invalid character in tag (A-Z a-z 0-9 _)";
		if (i == 1 || i - 1 > SW_TAG_MAX)
			return "tag must be 1 to 31 characters";
	}
	*func_len = (u32)len;
	return NULL;
}

/**
 * sw_parse_cmds() - split a control line into probe commands.
 * @buf:      the line; modified in place (tokens are NUL-terminated)
 * @cmds:     output array
 * @max_cmds: size of @cmds
 * @max_name: longest accepted function name, in bytes (a tag may follow)
 * @err:      filled with the offending token and the reason on failure
 *
 * Tokens are separated by white space or commas.  Each is "+name" (add),
 * "-name" (remove) or "name" (add), where name is FUNC or FUNC@TAG (TAG:
 * 1 to 31 of A-Z a-z 0-9 _), or an option NAME=VALUE of the probe added
 * by the token before it; an option's value runs to the next white space
 * (commas included).  Options: pid= tgid= follow= (ids), comm= (1 to 15
 * characters), cgroup= (cgroup v2 id), cpus= (list such as 0-1,3),
 * min_ns= max_ns= (duration window), by=K or by=K1,K2 (K: pid tgid comm
 * cpu caller arg0..arg5 retval).  The same identity may not appear twice.
 * A name with a ':' is a user point's, BINARY:NAME (printable, without
 * '@' ',' '=' '/' '\\'); adding one takes uprobe=PATH:0xOFFSET.
 * A kernel function takes attach=kretprobe|trampoline|auto (how it is
 * attached) and args=N (its argument count, which a trampoline needs).
 * trace=on writes a record of each call into the sampler's streams,
 * trace=ret with the return value.
 *
 * Return: number of commands (0 for an empty line), or -EINVAL for a
 * malformed name or option, -E2BIG for a name longer than @max_name or
 * more than @max_cmds commands, -EEXIST for a name given twice.
 */
int sw_parse_cmds(char *buf, struct sw_cmd *cmds, int max_cmds,
		  size_t max_name, struct sw_parse_err *err)
{
	int n = 0, i, ret;
	char *p = buf;

	err->token = NULL;
	err->why = NULL;
	while (*p) {
		enum sw_cmd_op op = SW_CMD_ADD;
		bool opt = false;
		char *tok, *name;
		u32 func_len;

		while (*p && sw_is_space(*p))
			p++;
		if (!*p)
			break;
		tok = p;
		while (*p && !(opt ? sw_is_ws(*p) : sw_is_space(*p))) {
			if (*p == '=')
				opt = true;
			p++;
		}
		if (*p)
			*p++ = '\0';

		err->token = tok;
		if (opt) {
			if (!n || cmds[n - 1].op != SW_CMD_ADD) {
				err->why = "option without a probe to add before it";
				return -EINVAL;
			}
			err->why = sw_parse_opt(&cmds[n - 1], tok);
			if (err->why)
				return -EINVAL;
			continue;
		}
		name = tok;
		if (*name == '+' || *name == '-') {
			op = *name == '+' ? SW_CMD_ADD : SW_CMD_REMOVE;
			name++;
		}
		err->why = sw_parse_name(name, max_name, &func_len, &ret);
		if (err->why)
			return ret;
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
		memset(&cmds[n], 0, sizeof(cmds[n]));
		cmds[n].op = op;
		cmds[n].name = name;
		cmds[n].func_len = func_len;
		n++;
	}
	for (i = 0; i < n; i++) {
		if (cmds[i].op == SW_CMD_ADD && sw_name_is_user(cmds[i].name) &&
		    !cmds[i].upath) {
			err->token = cmds[i].name;
			err->why = "a user point needs uprobe=PATH:0xOFFSET";
			return -EINVAL;
		}
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
