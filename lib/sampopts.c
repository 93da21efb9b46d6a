// SPDX-License-Identifier: GPL-2.0
/*
 * sampopts.c - the sampler file's grammar: settings and their defaults,
 * one key=value at a time (module parameters and control line alike),
 * consistency checks, and the control line "start [key=value ...]" /
 * "stop".  Compiled into stopwatch.ko (sampler/), the program (which
 * checks a line with it before writing it) and the host tests.
 *
 * Keys:
 *   event=NAME        any spelling sw_event_parse() accepts (default: cycles
 *                     if the CPU has a PMU, else cpu-clock; decided later),
 *                     or none: no sampling, only the records of traced
 *                     calls and the side band
 *   period=N          sample every N events
 *   freq=HZ           sample HZ times a second per CPU (default 1000)
 *   callchain=LIST    none, kernel, user or kernel,user (default none)
 *   cpus=LIST         CPU list such as 0-3,6 (default all)
 *   pid=TID           only this thread
 *   tgid=PID          only this process
 *   max_rate=N        drop (as throttled) beyond N samples/s per CPU; 0 = no
 *                     limit (default 100000)
 *   kstack=N ustack=N most kernel / user frames, 1..127 (default 64)
 *   unwind=fp|table   user stacks by frame pointers or by the unwind
 *                     tables loaded through the unwind file (default fp)
 *   stack_fail=keep|drop  what to do with a sample whose user stack copy
 *                     faulted (default keep, flagged)
 *
 * Errors set a struct sw_parse_err (lib/parse.h: the offending token and
 * why) and return -EINVAL (bad value), -ENOENT (unknown key or command),
 * -E2BIG (too long) or -EEXIST (a key given twice).
 *
 * Context: process context only.
 */
#include "parse.h"
#include "sampopts.h"

#define SW_STR_(x) #x
#define SW_STR(x) SW_STR_(x)

/* A number (decimal or 0x hexadecimal), all of @s, at most @max. */
static bool sw_opt_num(const char *s, u64 max, u64 *out)
{
	return !sw_parse_number(s, strlen(s), 0, out) && *out <= max;
}

static int sw_opt_bad(struct sw_parse_err *err, const char *val,
		      const char *why, int ret)
{
	err->token = val;
	err->why = why;
	return ret;
}

/**
 * sw_samp_opts_default() - the settings of a bare "start".
 * @o: settings to fill
 */
void sw_samp_opts_default(struct sw_samp_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->pid = -1;
	o->tgid = -1;
	o->max_rate = 100000;
	o->kstack = 64;
	o->ustack = 64;
}

static int sw_opt_callchain(const char *val, u32 *cc)
{
	const char *p = val;
	u32 bits = 0;

	if (!strcmp(val, "none")) {
		*cc = 0;
		return 0;
	}
	while (*p) {
		size_t n = strcspn(p, ",");

		if (n == 6 && !strncmp(p, "kernel", 6))
			bits |= SW_CC_KERNEL;
		else if (n == 4 && !strncmp(p, "user", 4))
			bits |= SW_CC_USER;
		else
			return -EINVAL;
		p += n;
		if (*p == ',' && *++p == '\0')
			return -EINVAL;
	}
	if (!bits)
		return -EINVAL;
	*cc = bits;
	return 0;
}

/**
 * sw_samp_opt_set() - apply one key=value.
 * @o:      settings
 * @key:    key name
 * @val:    value text
 * @err:    on failure, @val (the token) and why it is refused
 *
 * Return: 0 or a negative errno (see the file comment).
 */
int sw_samp_opt_set(struct sw_samp_opts *o, const char *key, const char *val,
		    struct sw_parse_err *err)
{
	size_t len;
	u32 excl;
	u64 v;
	int ret;

	if (!strcmp(key, "event")) {
		o->no_event = !strcmp(val, "none");
		if (o->no_event) {
			o->ev_set = true;
			return 0;
		}
		ret = sw_event_parse(val, &o->ev);
		if (ret)
			return sw_opt_bad(err, val, ret == -E2BIG ?
					  "event name too long" :
					  !sw_event_modifier(val, &len, &excl) ?
					  "unknown event (try cycles, instructions, cpu-clock, rNNNN or TYPE:CONFIG)" :
					  "bad modifier after the last ':' (u: user mode only, k: kernel mode only, uk: both)",
					  ret);
		o->ev_set = true;
		return 0;
	}
	if (!strcmp(key, "period") || !strcmp(key, "freq")) {
		bool freq = key[0] == 'f';

		if (!sw_opt_num(val, freq ? SW_FREQ_MAX : (1ULL << 62), &v) ||
		    !v)
			return sw_opt_bad(err, val, freq ?
					  "not a frequency in 1.." SW_STR(SW_FREQ_MAX) " Hz" :
					  "not a period of at least 1 event",
					  -EINVAL);
		if (freq)
			o->freq = v;
		else
			o->period = v;
		return 0;
	}
	if (!strcmp(key, "callchain")) {
		if (sw_opt_callchain(val, &o->callchain))
			return sw_opt_bad(err, val,
					  "not none, kernel, user or kernel,user",
					  -EINVAL);
		return 0;
	}
	if (!strcmp(key, "cpus")) {
		if (strlen(val) >= sizeof(o->cpus))
			return sw_opt_bad(err, val, "CPU list too long", -E2BIG);
		if (!sw_cpulist_ok(val))
			return sw_opt_bad(err, val, "not a CPU list like 0-3,6",
					  -EINVAL);
		strcpy(o->cpus, val);
		return 0;
	}
	if (!strcmp(key, "pid") || !strcmp(key, "tgid")) {
		if (!sw_opt_num(val, SW_ID_MAX, &v) || !v)
			return sw_opt_bad(err, val, key[0] == 'p' ?
					  "not a thread id" : "not a process id",
					  -EINVAL);
		if (key[0] == 'p')
			o->pid = (s32)v;
		else
			o->tgid = (s32)v;
		return 0;
	}
	if (!strcmp(key, "max_rate")) {
		if (!sw_opt_num(val, SW_RATE_MAX, &v))
			return sw_opt_bad(err, val,
					  "not a rate in 0.." SW_STR(SW_RATE_MAX) " samples/s",
					  -EINVAL);
		o->max_rate = (u32)v;
		return 0;
	}
	if (!strcmp(key, "kstack") || !strcmp(key, "ustack")) {
		if (!sw_opt_num(val, SW_STACK_MAX, &v) || !v)
			return sw_opt_bad(err, val,
					  "not a depth in 1.." SW_STR(SW_STACK_MAX),
					  -EINVAL);
		if (key[0] == 'k')
			o->kstack = (u16)v;
		else
			o->ustack = (u16)v;
		return 0;
	}
	if (!strcmp(key, "unwind")) {
		if (strcmp(val, "fp") && strcmp(val, "table"))
			return sw_opt_bad(err, val, "not fp or table", -EINVAL);
		o->unwind_table = val[0] == 't';
		return 0;
	}
	if (!strcmp(key, "stack_fail")) {
		if (strcmp(val, "keep") && strcmp(val, "drop"))
			return sw_opt_bad(err, val, "not keep or drop", -EINVAL);
		o->stack_drop = val[0] == 'd';
		return 0;
	}
	return sw_opt_bad(err, key,
			  "unknown setting (event period freq callchain cpus pid tgid max_rate kstack ustack unwind stack_fail)",
			  -ENOENT);
}

/**
 * sw_samp_opts_check() - settings that contradict each other.
 * @o:   settings; a missing period and frequency becomes freq=1000
 * @err: on failure, why (no token: the line as a whole)
 *
 * Return: 0 or -EINVAL.
 */
int sw_samp_opts_check(struct sw_samp_opts *o, struct sw_parse_err *err)
{
	if (o->period && o->freq)
		return sw_opt_bad(err, NULL,
				  "period= and freq=: give one of them", -EINVAL);
	if (o->pid >= 0 && o->tgid >= 0)
		return sw_opt_bad(err, NULL, "pid= and tgid=: give one of them",
				  -EINVAL);
	if (!o->period && !o->freq)
		o->freq = 1000;
	return 0;
}

/**
 * sw_samp_parse_cmd() - parse a control line.
 * @line:   "start [key=value ...]" or "stop"; modified in place
 * @defs:   the settings a bare "start" uses
 * @o:      for start: @defs, then the keys given
 * @err:    on failure, the offending token (a whole key=value, in @line)
 *          and why
 *
 * Nothing in @o is meaningful after a failure.
 *
 * Return: SW_CMD_START, SW_CMD_STOP, or a negative errno.
 */
int sw_samp_parse_cmd(char *line, const struct sw_samp_opts *defs,
		      struct sw_samp_opts *o, struct sw_parse_err *err)
{
	static const char *const keys[] = {
		"event", "period", "freq", "callchain", "cpus", "pid",
		"tgid", "max_rate", "kstack", "ustack", "stack_fail",
		"unwind",
	};
	char *p = line, *tok;
	u32 seen = 0;
	int cmd, ret;

	tok = sw_parse_token(&p);
	if (tok && !strcmp(tok, "start"))
		cmd = SW_CMD_START;
	else if (tok && !strcmp(tok, "stop"))
		cmd = SW_CMD_STOP;
	else
		return sw_opt_bad(err, tok ? tok : "",
				  "not a command (start [key=value ...] or stop)",
				  tok ? -ENOENT : -EINVAL);
	*o = *defs;
	while ((tok = sw_parse_token(&p))) {
		char key[16], *eq;
		size_t i, klen;

		if (cmd == SW_CMD_STOP)
			return sw_opt_bad(err, tok, "stop takes no settings",
					  -EINVAL);
		eq = strchr(tok, '=');
		if (!eq || eq == tok || !eq[1])
			return sw_opt_bad(err, tok, "settings are key=value",
					  -EINVAL);
		klen = min_t(size_t, eq - tok, sizeof(key) - 1);
		memcpy(key, tok, klen);
		key[klen] = '\0';
		for (i = 0; i < ARRAY_SIZE(keys); i++)
			if ((size_t)(eq - tok) == klen && !strcmp(key, keys[i]))
				break;
		if (i < ARRAY_SIZE(keys)) {
			if (seen & (1U << i))
				return sw_opt_bad(err, tok, "given twice",
						  -EEXIST);
			seen |= 1U << i;
		}
		ret = sw_samp_opt_set(o, key, eq + 1, err);
		if (ret) {
			err->token = tok;	/* the whole key=value */
			return ret;
		}
	}
	if (cmd == SW_CMD_START) {
		ret = sw_samp_opts_check(o, err);
		if (ret)
			return ret;
	}
	return cmd;
}

/**
 * sw_samp_callchain_str() - "none", "kernel", "user" or "kernel,user".
 * @cc:  SW_CC_* bits
 * @buf: output
 * @len: size of @buf
 *
 * Return: characters written.
 */
int sw_samp_callchain_str(u32 cc, char *buf, size_t len)
{
	const char *s = "none";

	if ((cc & SW_CC_KERNEL) && (cc & SW_CC_USER))
		s = "kernel,user";
	else if (cc & SW_CC_KERNEL)
		s = "kernel";
	else if (cc & SW_CC_USER)
		s = "user";
	return snprintf(buf, len, "%s", s);
}
