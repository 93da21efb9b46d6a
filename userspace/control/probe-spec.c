// SPDX-License-Identifier: GPL-2.0
/*
 * probe-spec.c - control lines for the probes file, and option values.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse-options.h"
#include "control/probe-spec.h"
#include "lib/parse.h"
#include "lib/sampopts.h"

static const struct {
	const char *name;
	uint64_t ns;
} sw_units[] = {
	{ "ns", 1 },
	{ "us", 1000 },
	{ "ms", 1000000 },
	{ "s", 1000000000 },
};

int sw_parse_unit(const char *s, uint64_t *div)
{
	size_t i;

	for (i = 0; i < sizeof(sw_units) / sizeof(sw_units[0]); i++)
		if (!strcmp(s, sw_units[i].name)) {
			*div = sw_units[i].ns;
			return 0;
		}
	return -EINVAL;
}

int sw_opt_unit_cb(const struct sw_option *opt, const char *arg)
{
	uint64_t div;

	if (sw_parse_unit(arg, &div))
		return -EINVAL;
	*(const char **)opt->value = arg;
	return 0;
}

int sw_opt_duration_cb(const struct sw_option *opt, const char *arg)
{
	return sw_parse_duration(arg, opt->value);
}

int sw_opt_msec_cb(const struct sw_option *opt, const char *arg)
{
	char *end;
	double ms;

	errno = 0;
	ms = strtod(arg, &end);
	if (errno || end == arg || *end || !(ms >= 1 && ms <= 1e12))
		return -EINVAL;
	*(double *)opt->value = ms / 1000.0;
	return 0;
}

int sw_parse_duration(const char *s, uint64_t *ns)
{
	const char *p = s;
	uint64_t div;
	double v;
	char *end;

	if (!strcmp(s, "0")) {
		*ns = 0;
		return 0;
	}
	/* strtod would take hex, inf, nan and leading blanks: digits only. */
	while (isdigit((unsigned char)*p))
		p++;
	if (*p == '.') {
		p++;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (p == s || (p == s + 1 && *s == '.'))
		return -EINVAL;
	v = strtod(s, &end);
	if (end != p || sw_parse_unit(p, &div))
		return -EINVAL;
	v *= (double)div;
	if (v < 1.0 || v >= 1.8e19)
		return -EINVAL;
	*ns = (uint64_t)llround(v);
	return 0;
}

bool sw_tag_ok(const char *tag)
{
	size_t n = 0;

	for (; tag[n]; n++)
		if (!isalnum((unsigned char)tag[n]) && tag[n] != '_')
			return false;
	return n >= 1 && n <= SW_TAG_MAX;
}

/* The module's own by= and cpus= parsers (lib/parse.c), messages and all. */
int sw_keys_check(const char *by, struct sw_err *err)
{
	struct sw_by b;
	const char *why = sw_parse_by(by, &b);

	if (why)
		return sw_err_set(err, -EINVAL, "invalid keys '%s': %s", by,
				  why);
	return 0;
}

int sw_cpus_check(const char *cpus, struct sw_err *err)
{
	u64 map[SW_FILTER_CPUS / 64];

	if (!sw_parse_cpus(cpus, map))
		return sw_err_set(err, -EINVAL,
				  "invalid CPU list '%s': expected e.g. 0-3,6, CPUs below %d",
				  cpus, SW_FILTER_CPUS);
	return 0;
}

/* A lib/ parser's error as the module's last_error says it. */
static int sw_parse_err_set(struct sw_err *err, int ret,
			    const struct sw_parse_err *perr)
{
	char msg[256];

	sw_parse_err_str(perr, msg, sizeof(msg));
	return sw_err_set(err, ret, "%s", msg);
}

int sw_probes_line_check(const char *line, struct sw_err *err)
{
	size_t len = strlen(line), ncmd = len / 2 + 1;
	struct sw_parse_err perr = { NULL, NULL };
	struct sw_cmd *cmds = calloc(ncmd, sizeof(*cmds));
	char *copy = strdup(line);
	int ret;

	if (!cmds || !copy) {
		ret = sw_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	/* 511: the longest symbol name the module takes (KSYM_NAME_LEN - 1). */
	ret = sw_parse_cmds(copy, cmds, (int)ncmd, 511, &perr);
	if (ret < 0)
		sw_parse_err_set(err, ret, &perr);
	else
		ret = 0;
out:
	free(copy);
	free(cmds);
	return ret;
}

int sw_sampler_line_check(const char *line, struct sw_err *err)
{
	struct sw_samp_opts defs, o;
	struct sw_parse_err perr;
	char *copy = strdup(line);
	int ret;

	if (!copy)
		return sw_err_set(err, -ENOMEM, "out of memory");
	sw_samp_opts_default(&defs);
	ret = sw_samp_parse_cmd(copy, &defs, &o, &perr);
	if (ret < 0)
		sw_parse_err_set(err, ret, &perr);
	else
		ret = 0;
	free(copy);
	return ret;
}

int sw_comm_check(const char *comm, struct sw_err *err)
{
	const char *p;

	for (p = comm; *p; p++)
		if (isspace((unsigned char)*p) || *p == '=' || *p == ',')
			break;
	if (!*comm || *p || strlen(comm) > SW_COMM_MAX)
		return sw_err_set(err, -EINVAL,
				  "invalid command name '%s': expected 1 to %d characters, no blanks, commas or '='",
				  comm, SW_COMM_MAX);
	return 0;
}

char *sw_probe_opts_format(const struct sw_probe_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	const char *sep = "";

	if (!f)
		return NULL;
#define SW_NUM(field, key)						\
	do {								\
		if (o->field) {						\
			fprintf(f, "%s" key "=%" PRIu64, sep, o->field);	\
			sep = " ";					\
		}							\
	} while (0)
#define SW_STR(field, key)						\
	do {								\
		if (o->field) {						\
			fprintf(f, "%s" key "=%s", sep, o->field);	\
			sep = " ";					\
		}							\
	} while (0)
	SW_NUM(pid, "pid");
	SW_NUM(tgid, "tgid");
	SW_NUM(follow, "follow");
	SW_STR(comm, "comm");
	SW_NUM(cgroup, "cgroup");
	SW_STR(cpus, "cpus");
	SW_NUM(min_ns, "min_ns");
	SW_NUM(max_ns, "max_ns");
	SW_STR(by, "by");
#undef SW_NUM
#undef SW_STR
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

char *sw_ctl_build(char sign, char *const *name, size_t n, const char *tag,
		   const char *opts)
{
	return sw_ctl_build_ext(sign, name, NULL, n, tag, opts);
}

char *sw_ctl_build_ext(char sign, char *const *name, char *const *extra,
		       size_t n, const char *tag, const char *opts)
{
	char *buf = NULL;
	size_t i, len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	for (i = 0; i < n; i++) {
		fprintf(f, "%s%c%s", i ? " " : "", sign, name[i]);
		if (tag)
			fprintf(f, "@%s", tag);
		if (sign == '+' && extra && extra[i])
			fprintf(f, " %s", extra[i]);
		if (sign == '+' && opts && *opts)
			fprintf(f, " %s", opts);
	}
	fputc('\n', f);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

void sw_names_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

int sw_probes_parse(const char *text, char ***out, size_t *n)
{
	const char *line = text, *nl, *p, *q;
	char **v = NULL, **nv;
	size_t cnt = 0;

	for (; *line; line = nl + 1) {
		nl = strchrnul(line, '\n');
		p = line;
		while (p < nl && isspace((unsigned char)*p))
			p++;
		q = p;
		while (q < nl && !isspace((unsigned char)*q) && *q != ',')
			q++;
		if (q > p) {
			nv = realloc(v, (cnt + 1) * sizeof(*v));
			if (!nv)
				goto nomem;
			v = nv;
			v[cnt] = strndup(p, q - p);
			if (!v[cnt])
				goto nomem;
			cnt++;
		}
		if (!*nl)
			break;
	}
	*out = v;
	*n = cnt;
	return 0;
nomem:
	sw_names_free(v, cnt);
	return -ENOMEM;
}

const char *sw_identity_tag(const char *id)
{
	const char *at = strchr(id, '@');

	return at ? at + 1 : NULL;
}

int sw_attach_check(const char *mode, struct sw_err *err)
{
	if (!strcmp(mode, "kretprobe") || !strcmp(mode, "trampoline") ||
	    !strcmp(mode, "auto"))
		return 0;
	return sw_err_set(err, -EINVAL,
			  "--attach %s: expected kretprobe, trampoline or auto",
			  mode);
}
