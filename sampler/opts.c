// SPDX-License-Identifier: GPL-2.0
/*
 * opts.c - sampler settings: defaults, one key=value at a time (module
 * parameters and control line alike), consistency checks, and the control
 * line "start [key=value ...]" / "stop".
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
 *   stack_fail=keep|drop  what to do with a sample whose user stack copy
 *                     faulted (default keep, flagged)
 *
 * Errors name the offending text in @err and return -EINVAL (bad value),
 * -ENOENT (unknown key or command), -E2BIG (too long) or -EEXIST (a key
 * given twice).
 *
 * Context: process context only.
 */
#include "lib/parse.h"
#include "opts.h"

#ifndef __KERNEL__
#include <stdarg.h>
#define scnprintf snprintf
#endif

static void sw_err(char *err, size_t len, const char *fmt, ...)
	__printf(3, 4);

static void sw_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

/* Decimal (or 0x hexadecimal) unsigned number, all of @s, at most @max. */
static int sw_opt_u64(const char *s, u64 max, u64 *out)
{
	u64 v = 0;
	int base = 10;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		int d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			return -EINVAL;
		if (v > (U64_MAX - d) / base)
			return -EINVAL;
		v = v * base + d;
	}
	if (v > max)
		return -ERANGE;
	*out = v;
	return 0;
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
 * @err:    on failure, a message naming the bad key or value
 * @errlen: size of @err
 *
 * Return: 0 or a negative errno (see the file comment).
 */
int sw_samp_opt_set(struct sw_samp_opts *o, const char *key, const char *val,
		    char *err, size_t errlen)
{
	u64 v;
	int ret;

	if (!strcmp(key, "event")) {
		o->no_event = !strcmp(val, "none");
		if (o->no_event) {
			o->ev_set = true;
			return 0;
		}
		ret = sw_event_parse(val, &o->ev);
		if (ret) {
			sw_err(err, errlen, "event=%.40s: %s", val,
			       ret == -E2BIG ? "name too long" :
			       "unknown event (try cycles, instructions, cpu-clock, rNNNN or TYPE:CONFIG)");
			return ret;
		}
		o->ev_set = true;
		return 0;
	}
	if (!strcmp(key, "period") || !strcmp(key, "freq")) {
		bool freq = key[0] == 'f';

		ret = sw_opt_u64(val, freq ? SW_FREQ_MAX : (1ULL << 62), &v);
		if (ret || !v) {
			if (freq)
				sw_err(err, errlen, "freq=%.40s: not a frequency in 1..%d Hz",
				       val, SW_FREQ_MAX);
			else
				sw_err(err, errlen, "period=%.40s: not a period of at least 1 event",
				       val);
			return -EINVAL;
		}
		if (freq)
			o->freq = v;
		else
			o->period = v;
		return 0;
	}
	if (!strcmp(key, "callchain")) {
		if (sw_opt_callchain(val, &o->callchain)) {
			sw_err(err, errlen, "callchain=%.40s: not none, kernel, user or kernel,user",
			       val);
			return -EINVAL;
		}
		return 0;
	}
	if (!strcmp(key, "cpus")) {
		if (strlen(val) >= sizeof(o->cpus)) {
			sw_err(err, errlen, "cpus=%.40s...: list too long", val);
			return -E2BIG;
		}
		if (!sw_cpulist_ok(val)) {
			sw_err(err, errlen, "cpus=%.40s: not a CPU list like 0-3,6", val);
			return -EINVAL;
		}
		strcpy(o->cpus, val);
		return 0;
	}
	if (!strcmp(key, "pid") || !strcmp(key, "tgid")) {
		if (sw_opt_u64(val, 0x3fffffff, &v) || !v) {
			sw_err(err, errlen, "%s=%.40s: not a %s", key, val,
			       key[0] == 'p' ? "thread id" : "process id");
			return -EINVAL;
		}
		if (key[0] == 'p')
			o->pid = (s32)v;
		else
			o->tgid = (s32)v;
		return 0;
	}
	if (!strcmp(key, "max_rate")) {
		if (sw_opt_u64(val, 10000000, &v)) {
			sw_err(err, errlen, "max_rate=%.40s: not a rate in 0..10000000 samples/s",
			       val);
			return -EINVAL;
		}
		o->max_rate = (u32)v;
		return 0;
	}
	if (!strcmp(key, "kstack") || !strcmp(key, "ustack")) {
		if (sw_opt_u64(val, SW_STACK_MAX, &v) || !v) {
			sw_err(err, errlen, "%s=%.40s: not a depth in 1..%d", key,
			       val, SW_STACK_MAX);
			return -EINVAL;
		}
		if (key[0] == 'k')
			o->kstack = (u16)v;
		else
			o->ustack = (u16)v;
		return 0;
	}
	if (!strcmp(key, "stack_fail")) {
		if (!strcmp(val, "keep")) {
			o->stack_drop = false;
		} else if (!strcmp(val, "drop")) {
			o->stack_drop = true;
		} else {
			sw_err(err, errlen, "stack_fail=%.40s: not keep or drop", val);
			return -EINVAL;
		}
		return 0;
	}
	sw_err(err, errlen, "%.40s: unknown setting (event period freq callchain cpus pid tgid max_rate kstack ustack stack_fail)",
	       key);
	return -ENOENT;
}

/**
 * sw_samp_opts_check() - settings that contradict each other.
 * @o:      settings; a missing period and frequency becomes freq=1000
 * @err:    on failure, the reason
 * @errlen: size of @err
 *
 * Return: 0 or -EINVAL.
 */
int sw_samp_opts_check(struct sw_samp_opts *o, char *err, size_t errlen)
{
	if (o->period && o->freq) {
		sw_err(err, errlen, "period=%llu and freq=%llu: give one of them",
		       (unsigned long long)o->period,
		       (unsigned long long)o->freq);
		return -EINVAL;
	}
	if (o->pid >= 0 && o->tgid >= 0) {
		sw_err(err, errlen, "pid=%d and tgid=%d: give one of them",
		       o->pid, o->tgid);
		return -EINVAL;
	}
	if (!o->period && !o->freq)
		o->freq = 1000;
	return 0;
}

/**
 * sw_samp_parse_cmd() - parse a control line.
 * @line:   "start [key=value ...]" or "stop"; modified in place
 * @defs:   the settings a bare "start" uses
 * @o:      for start: @defs, then the keys given
 * @err:    on failure, a message naming the offending text
 * @errlen: size of @err
 *
 * Nothing in @o is meaningful after a failure.
 *
 * Return: SW_CMD_START, SW_CMD_STOP, or a negative errno.
 */
int sw_samp_parse_cmd(char *line, const struct sw_samp_opts *defs,
		      struct sw_samp_opts *o, char *err, size_t errlen)
{
	static const char ws[] = " \t\n";
	char *p = line, *tok;
	u32 seen = 0;
	int cmd, ret;

	p += strspn(p, ws);
	tok = p;
	p += strcspn(p, ws);
	if (*p)
		*p++ = '\0';
	if (!strcmp(tok, "start")) {
		cmd = SW_CMD_START;
	} else if (!strcmp(tok, "stop")) {
		cmd = SW_CMD_STOP;
	} else {
		sw_err(err, errlen, "'%.40s': not a command (start [key=value ...] or stop)",
		       tok);
		return *tok ? -ENOENT : -EINVAL;
	}
	*o = *defs;
	for (;;) {
		static const char *const keys[] = {
			"event", "period", "freq", "callchain", "cpus", "pid",
			"tgid", "max_rate", "kstack", "ustack", "stack_fail",
		};
		char *eq;
		size_t i;

		p += strspn(p, ws);
		if (!*p)
			break;
		tok = p;
		p += strcspn(p, ws);
		if (*p)
			*p++ = '\0';
		if (cmd == SW_CMD_STOP) {
			sw_err(err, errlen, "stop takes no settings, got '%.40s'", tok);
			return -EINVAL;
		}
		eq = strchr(tok, '=');
		if (!eq || eq == tok || !eq[1]) {
			sw_err(err, errlen, "'%.40s': settings are key=value", tok);
			return -EINVAL;
		}
		*eq = '\0';
		for (i = 0; i < ARRAY_SIZE(keys); i++)
			if (!strcmp(tok, keys[i]))
				break;
		if (i < ARRAY_SIZE(keys)) {
			if (seen & (1U << i)) {
				sw_err(err, errlen, "%.40s= given twice", tok);
				return -EEXIST;
			}
			seen |= 1U << i;
		}
		ret = sw_samp_opt_set(o, tok, eq + 1, err, errlen);
		if (ret)
			return ret;
	}
	if (cmd == SW_CMD_START) {
		ret = sw_samp_opts_check(o, err, errlen);
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
	return scnprintf(buf, len, "%s", s);
}
