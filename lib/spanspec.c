// SPDX-License-Identifier: GPL-2.0
/*
 * spanspec.c - parsing of the span language (spanspec.h), shared by the
 * module and the host tests.
 *
 * Context: process context only (control writes).
 */
#include "events.h"
#include "spanspec.h"

static bool sw_sp_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool sw_sp_namechar(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-' ||
	       c == '>';
}

static bool sw_sp_symchar(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.';
}

/* A number in [s, s + len): decimal or 0x hex, at most @max. */
static bool sw_sp_num(const char *s, size_t len, u64 max, u64 *v)
{
	u64 x;

	if (sw_parse_number(s, len, 0, &x) || x > max)
		return false;
	*v = x;
	return true;
}

/**
 * sw_span_parse_expr() - parse one key expression.
 * @s:   its text (not NUL-terminated)
 * @len: its length
 * @e:   output
 *
 * Return: 0, or -EINVAL for anything but argN, retval, tid or pid, then
 * up to SW_SPAN_DEREF "+OFF" and an optional "/SIZE".
 */
SW_TESTED int sw_span_parse_expr(const char *s, size_t len,
				 struct sw_span_expr *e)
{
	size_t i = 0, j;
	u64 v;

	memset(e, 0, sizeof(*e));
	e->size = 8;
	if (len >= 4 && !strncmp(s, "arg", 3) && s[3] >= '0' && s[3] <= '5') {
		e->base = SW_SX_ARG0 + (s[3] - '0');
		i = 4;
	} else if (len >= 6 && !strncmp(s, "retval", 6)) {
		e->base = SW_SX_RETVAL;
		i = 6;
	} else if (len >= 3 && !strncmp(s, "tid", 3)) {
		e->base = SW_SX_TID;
		i = 3;
	} else if (len >= 3 && !strncmp(s, "pid", 3)) {
		e->base = SW_SX_PID;
		i = 3;
	} else {
		return -EINVAL;
	}
	while (i < len && s[i] == '+') {
		if (e->nderef == SW_SPAN_DEREF)
			return -EINVAL;
		for (j = ++i; j < len && s[j] != '+' && s[j] != '/'; j++)
			;
		if (!sw_sp_num(s + i, j - i, 0x7fffffff, &v))
			return -EINVAL;
		e->off[e->nderef++] = (s32)v;
		i = j;
	}
	if (i < len && s[i] == '/') {
		if (len - i != 2 || !sw_sp_num(s + i + 1, 1, 8, &v) ||
		    (v != 1 && v != 2 && v != 4 && v != 8))
			return -EINVAL;
		e->size = (u8)v;
		i = len;
	}
	return i == len ? 0 : -EINVAL;
}

#ifdef SW_UNIT_TEST
/**
 * sw_span_expr_str() - an expression back in the language (the unit
 * tests' check of what sw_span_parse_expr() made).
 * @e:   the expression
 * @buf: output
 * @len: its size
 *
 * Return: the length written (snprintf's), the text truncated to fit.
 */
int sw_span_expr_str(const struct sw_span_expr *e, char *buf, size_t len)
{
	static const char *const base[] = { "retval", "tid", "pid" };
	int n, i;

	if (e->base <= SW_SX_ARG5)
		n = snprintf(buf, len, "arg%u", e->base - SW_SX_ARG0);
	else
		n = snprintf(buf, len, "%s", base[e->base - SW_SX_RETVAL]);
	for (i = 0; i < e->nderef; i++)
		n += snprintf(buf + (n < (int)len ? n : (int)len),
			      n < (int)len ? len - n : 0, "+%d", e->off[i]);
	if (e->size != 8)
		n += snprintf(buf + (n < (int)len ? n : (int)len),
			      n < (int)len ? len - n : 0, "/%u", e->size);
	return n;
}
#endif /* SW_UNIT_TEST */

/**
 * sw_span_key_eq_expr() - do two keys read the same way?
 * @a: a key
 * @b: another
 *
 * Return: 1 when equal, else 0.
 */
int sw_span_key_eq_expr(const struct sw_span_key *a,
			const struct sw_span_key *b)
{
	return a->n == b->n && !memcmp(a->e, b->e, a->n * sizeof(a->e[0]));
}

/* Does @e read an argument? */
static bool sw_span_expr_arg(const struct sw_span_expr *e)
{
	return e->base <= SW_SX_ARG5;
}

/*
 * A user point's target, /PATH:0xOFFSET[%return]: unescaped in place into
 * p->target (the path) and p->uoffset.  Returns why it is wrong, or NULL.
 */
static const char *sw_span_parse_upoint(struct sw_span_point *p)
{
	char *ret = strstr(p->target, "%return");
	static const char *const noargs =
		"argN at a user return point: the arguments are not kept there (retval tid pid)";
	const char *why;
	u32 i;

	p->kind = SW_PT_UENTRY;
	if (ret) {
		if (ret[7])
			return "only %return may follow a user point";
		*ret = '\0';
		p->kind = SW_PT_URETURN;
	}
	why = sw_parse_upoint(p->target, &p->uoffset);
	if (why)
		return why;
	for (i = 0; i < p->key.n; i++) {
		if (p->key.e[i].base == SW_SX_RETVAL && p->kind != SW_PT_URETURN)
			return "retval only at a return point";
		if (sw_span_expr_arg(&p->key.e[i]) && p->kind == SW_PT_URETURN)
			return noargs;
	}
	if (p->cond_op && p->cond.base == SW_SX_RETVAL &&
	    p->kind != SW_PT_URETURN)
		return "retval only at a return point";
	if (p->cond_op && sw_span_expr_arg(&p->cond) &&
	    p->kind == SW_PT_URETURN)
		return noargs;
	return NULL;
}

/* TARGET[%return]:KEY[?EXPR==N]; returns why it is wrong, or NULL. */
static const char *sw_span_parse_point(char *v, struct sw_span_point *p)
{
	char *q, *colon, *key, *comma, *ret;
	size_t tlen, i;
	bool ne;
	u64 cv;

	q = strchr(v, '?');
	if (q) {
		char *op = strstr(q + 1, "==");

		ne = false;
		if (!op) {
			op = strstr(q + 1, "!=");
			ne = true;
		}
		if (!op || sw_span_parse_expr(q + 1, op - q - 1, &p->cond) ||
		    !sw_sp_num(op + 2, strlen(op + 2), U64_MAX, &cv))
			return "bad condition (EXPR==N or EXPR!=N)";
		p->cond_op = ne ? SW_COND_NE : SW_COND_EQ;
		p->cond_v = cv;
		*q = '\0';
	}
	colon = strrchr(v, ':');
	if (!colon || colon == v || !colon[1]) {
		if (q)
			*q = '?';
		return "a point is POINT:KEY";
	}
	key = colon + 1;
	tlen = colon - v;
	p->key.n = 1;
	comma = strchr(key, ',');
	if (comma) {
		p->key.n = 2;
		if (sw_span_parse_expr(comma + 1, strlen(comma + 1),
				       &p->key.e[1]))
			goto bad_key;
	}
	if (sw_span_parse_expr(key, comma ? (size_t)(comma - key) : strlen(key),
			       &p->key.e[0]))
		goto bad_key;
	if (q)
		*q = '?';
	if (tlen > SW_SPAN_TARGET_MAX)
		return "point name too long";
	memcpy(p->target, v, tlen);
	p->target[tlen] = '\0';
	if (p->target[0] == '/')
		return sw_span_parse_upoint(p);
	ret = strchr(p->target, '%');
	colon = strchr(p->target, ':');
	p->kind = SW_PT_ENTRY;
	if (ret) {
		if (strcmp(ret, "%return"))
			return "only %return may follow a function";
		*ret = '\0';
		p->kind = SW_PT_RETURN;
	} else if (colon) {
		if (strchr(colon + 1, ':') || colon == p->target || !colon[1])
			return "a tracepoint is SYSTEM:EVENT";
		p->kind = SW_PT_TP;
	}
	if (!p->target[0])
		return "missing function name";
	for (i = 0; p->target[i]; i++)
		if (!sw_sp_symchar(p->target[i]) && p->target + i != colon)
			return "invalid character in point name";
	for (i = 0; i < p->key.n; i++)
		if (p->key.e[i].base == SW_SX_RETVAL && p->kind != SW_PT_RETURN)
			return "retval only at a FUNC%return point";
	if (p->cond_op && p->cond.base == SW_SX_RETVAL &&
	    p->kind != SW_PT_RETURN)
		return "retval only at a FUNC%return point";
	return NULL;
bad_key:
	if (q)
		*q = '?';
	return "bad key (argN retval tid pid, +OFF reads, /SIZE, two joined by ',')";
}

/* Points equal in all but role. */
static bool sw_span_point_same(const struct sw_span_point *a,
			       const struct sw_span_point *b)
{
	return a->kind == b->kind && !strcmp(a->target, b->target) &&
	       a->uoffset == b->uoffset && sw_span_key_eq_expr(&a->key, &b->key) &&
	       a->cond_op == b->cond_op &&
	       (!a->cond_op || (!memcmp(&a->cond, &b->cond, sizeof(a->cond)) &&
				a->cond_v == b->cond_v));
}

/* slots=N age_ms=N; returns why it is wrong, or NULL (1: not ours). */
static const char *sw_span_parse_own(struct sw_span_cmd *c, char *tok,
				     bool *mine)
{
	u64 v;

	*mine = true;
	if (!strncmp(tok, "slots=", 6)) {
		if (!sw_sp_num(tok + 6, strlen(tok + 6), SW_SPAN_SLOTS_MAX, &v) ||
		    v < SW_SPAN_SLOTS_MIN || (v & (v - 1)))
			return "slots= takes a power of two from 16 to 1048576";
		c->slots = (u32)v;
		return NULL;
	}
	if (!strncmp(tok, "age_ms=", 7)) {
		if (!sw_sp_num(tok + 7, strlen(tok + 7), 86400000, &v) || !v)
			return "age_ms= takes 1 to 86400000";
		c->age_ns = v * 1000000ULL;
		return NULL;
	}
	*mine = false;
	return NULL;
}

/**
 * sw_span_parse() - parse one line of the spans file.
 * @line: the line; modified in place
 * @cmd:  output
 * @err:  the offending token and why, on failure
 *
 * The filter and by= options are the probe language's (sw_parse_cmds()
 * parses them); by= takes key (the interval's pairing key, its first
 * value), pid, tgid, comm or cpu (of the stop point's
 * thread); trace=on (the probes' option) writes each interval as a
 * record, trace=ret is refused (an interval has no return value).  A
 * start and a stop point that are the same POINT:KEY become one
 * self-paired point.
 *
 * Return: 0, or -EINVAL (malformed; no start or no stop point), -E2BIG
 * (too many points, name too long).
 */
int sw_span_parse(char *line, struct sw_span_cmd *cmd,
		  struct sw_parse_err *err)
{
	char opts[512] = "x", *optp[32];
	size_t olen = 1, i, nopt = 0;
	struct sw_cmd pc;
	bool first = true, starts = false, stops = false;
	char *p = line;
	u32 k;

	memset(cmd, 0, sizeof(*cmd));
	cmd->slots = SW_SPAN_SLOTS_DEFAULT;
	cmd->age_ns = SW_SPAN_AGE_MS_DEFAULT * 1000000ULL;
	err->token = NULL;
	err->why = NULL;
	while (*p) {
		char *tok, *eq;
		bool mine;

		while (*p && sw_sp_ws(*p))
			p++;
		if (!*p)
			break;
		tok = p;
		while (*p && !sw_sp_ws(*p))
			p++;
		if (*p)
			*p++ = '\0';
		err->token = tok;
		if (first) {
			first = false;
			if (!strcmp(tok, "reset")) {
				cmd->op = SW_SPAN_RESET;
				continue;
			}
			if (*tok != '+' && *tok != '-') {
				err->why = "a line is +NAME ..., -NAME or reset";
				return -EINVAL;
			}
			cmd->op = *tok == '+' ? SW_SPAN_ADD : SW_SPAN_REMOVE;
			tok++;
			if (!*tok) {
				err->why = "missing span name";
				return -EINVAL;
			}
			if (strlen(tok) > SW_SPAN_NAME_MAX) {
				err->why = "span name longer than 63 characters";
				return -E2BIG;
			}
			for (i = 0; tok[i]; i++)
				if (!sw_sp_namechar(tok[i])) {
					err->why = "invalid character in span name (A-Z a-z 0-9 _ . - >)";
					return -EINVAL;
				}
			strcpy(cmd->name, tok);
			continue;
		}
		if (cmd->op != SW_SPAN_ADD) {
			err->why = "only +NAME takes options";
			return -EINVAL;
		}
		eq = strchr(tok, '=');
		if (eq && (!strncmp(tok, "start=", 6) ||
			   !strncmp(tok, "stop=", 5))) {
			struct sw_span_point *pt;
			bool start = tok[2] == 'a';

			if (cmd->npoints == SW_SPAN_POINTS) {
				err->why = "more than 8 points";
				return -E2BIG;
			}
			pt = &cmd->pt[cmd->npoints];
			err->why = sw_span_parse_point(eq + 1, pt);
			if (err->why)
				return -EINVAL;
			pt->role = start ? SW_PT_START : SW_PT_STOP;
			start ? (starts = true) : (stops = true);
			for (k = 0; k < cmd->npoints; k++) {
				if (!sw_span_point_same(&cmd->pt[k], pt))
					continue;
				if (cmd->pt[k].role & pt->role) {
					err->why = "point given twice";
					return -EINVAL;
				}
				cmd->pt[k].role |= pt->role;
				break;
			}
			if (k == cmd->npoints)
				cmd->npoints++;
			continue;
		}
		err->why = sw_span_parse_own(cmd, tok, &mine);
		if (err->why)
			return -EINVAL;
		if (mine)
			continue;
		if (!eq) {
			err->why = "unknown token (start= stop= slots= age_ms= or a filter)";
			return -EINVAL;
		}
		if (!strncmp(tok, "attach=", 7) || !strncmp(tok, "args=", 5)) {
			err->why = "attach= and args= are a probe's options; a span's points attach as kprobes, tracepoints or uprobes";
			return -EINVAL;
		}
		if (olen + 1 + strlen(tok) + 1 > sizeof(opts) ||
		    nopt == ARRAY_SIZE(optp)) {
			err->why = "options too long";
			return -E2BIG;
		}
		optp[nopt++] = tok;
		opts[olen++] = ' ';
		strcpy(opts + olen, tok);
		olen += strlen(tok);
	}
	err->token = NULL;
	if (first) {
		err->why = "empty line";
		return -EINVAL;
	}
	if (cmd->op != SW_SPAN_ADD)
		return 0;
	if (!starts || !stops) {
		err->why = "a span needs a start= and a stop= point";
		return -EINVAL;
	}
	/* The filters: the probe language's own parser, on a dummy probe. */
	if (sw_parse_cmds(opts, &pc, 1, SW_SPAN_NAME_MAX, err) < 0) {
		/* err->token points into opts: name the token of the line. */
		if (err->token) {
			for (i = 0, k = 0; opts + i < err->token; i++)
				k += opts[i] == ' ' || !opts[i];
			err->token = k && k <= nopt ? optp[k - 1] : NULL;
		}
		return -EINVAL;
	}
	for (k = 0; k < 2; k++) {
		u8 kind = pc.by.k[k];

		if (kind != SW_KEY_NONE && kind != SW_KEY_PID &&
		    kind != SW_KEY_TGID && kind != SW_KEY_COMM &&
		    kind != SW_KEY_CPU && kind != SW_KEY_SPAN) {
			err->why = "a span's by= takes key, pid, tgid, comm or cpu";
			for (i = 0; i < nopt; i++)
				if (!strncmp(optp[i], "by=", 3))
					err->token = optp[i];
			return -EINVAL;
		}
	}
	/*
	 * by=key where the key is a pair (a point's key has two values): the
	 * rows are keyed by both, the row's two parts; nothing else fits.
	 */
	for (i = 0; i < cmd->npoints && cmd->pt[i].key.n < 2; i++)
		;
	if (i < cmd->npoints &&
	    (pc.by.k[0] == SW_KEY_SPAN || pc.by.k[1] == SW_KEY_SPAN)) {
		if (pc.by.k[0] != SW_KEY_SPAN || pc.by.k[1] != SW_KEY_NONE) {
			err->why = "by=key of a span whose key is a pair keys the rows by both of its values: it takes no second key";
			for (i = 0; i < nopt; i++)
				if (!strncmp(optp[i], "by=", 3))
					err->token = optp[i];
			return -EINVAL;
		}
		pc.by.k[1] = SW_KEY_SPAN;
	}
	if (pc.trace & SW_TRACE_RET) {
		err->why = "a span's trace= takes on (an interval has no return value)";
		for (i = 0; i < nopt; i++)
			if (!strncmp(optp[i], "trace=", 6))
				err->token = optp[i];
		return -EINVAL;
	}
	cmd->filter = pc.filter;
	cmd->by = pc.by;
	cmd->trace = pc.trace;
	return 0;
}
