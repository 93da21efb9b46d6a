// SPDX-License-Identifier: GPL-2.0
/*
 * config.c - the configuration of "stopwatch serve": checked with the
 * module's own parsers, applied as a difference, undone whole.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "control/config.h"
#include "control/debugfs.h"
#include "control/probe-ctl.h"
#include "control/probe-spec.h"
#include "lib/events.h"
#include "lib/parse.h"
#include "lib/spanspec.h"

#define SW_CONF_MAX_BYTES (1 << 20)

static void sw_conf_line_free(struct sw_conf_line *l)
{
	size_t i;

	for (i = 0; i < l->nnames; i++)
		free(l->names[i]);
	free(l->names);
	free(l->text);
}

void sw_conf_free(struct sw_conf *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->n; i++)
		sw_conf_line_free(&c->line[i]);
	free(c->line);
	free(c->events);
	free(c->keys);
	free(c->path);
	free(c);
}

static int sw_conf_add_name(struct sw_conf_line *l, const char *name)
{
	char **n = realloc(l->names, (l->nnames + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	l->names = n;
	l->names[l->nnames] = strdup(name);
	if (!l->names[l->nnames])
		return -ENOMEM;
	l->nnames++;
	return 0;
}

/* A probes line: the module's parser, adds only; the identities it adds. */
static int sw_conf_probes(struct sw_conf_line *l, const char *what,
			  struct sw_err *err)
{
	size_t len = strlen(l->text), ncmd = len / 2 + 1;
	struct sw_parse_err perr = { NULL, NULL };
	struct sw_cmd *cmds = NULL;
	char *copy = NULL;
	int n, i, ret;
	struct sw_err why = { "" };

	ret = sw_probes_line_check(l->text, &why);
	if (ret)
		return sw_err_set(err, ret, "%s:%zu: probes %s", what,
				  l->lineno, why.msg);
	cmds = calloc(ncmd, sizeof(*cmds));
	copy = strdup(l->text);
	if (!cmds || !copy) {
		ret = sw_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	n = sw_parse_cmds(copy, cmds, (int)ncmd, 511, &perr);
	if (n <= 0) {
		ret = sw_err_set(err, -EINVAL, "%s:%zu: probes: no probe named",
				 what, l->lineno);
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (cmds[i].op != SW_CMD_ADD) {
			ret = sw_err_set(err, -EINVAL,
					 "%s:%zu: probes: '-%s': the configuration says what to probe; leave a probe out to remove it",
					 what, l->lineno, cmds[i].name);
			goto out;
		}
		ret = sw_conf_add_name(l, cmds[i].name);
		if (ret) {
			sw_err_set(err, ret, "out of memory");
			goto out;
		}
	}
	ret = 0;
out:
	free(copy);
	free(cmds);
	return ret;
}

static int sw_conf_spans(struct sw_conf_line *l, const char *what,
			 struct sw_err *err)
{
	struct sw_parse_err perr = { NULL, NULL };
	struct sw_span_cmd *cmd = calloc(1, sizeof(*cmd));
	char *copy = strdup(l->text);
	int ret;

	if (!cmd || !copy) {
		ret = sw_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	ret = sw_span_parse(copy, cmd, &perr);
	if (ret < 0) {
		sw_err_set(err, -EINVAL, "%s:%zu: spans: '%.64s': %s", what,
			   l->lineno, perr.token ? perr.token : l->text,
			   perr.why ? perr.why : "malformed");
		ret = -EINVAL;
		goto out;
	}
	if (cmd->op != SW_SPAN_ADD) {
		ret = sw_err_set(err, -EINVAL,
				 "%s:%zu: spans: '%s': the configuration says which spans to keep; leave one out to remove it",
				 what, l->lineno, l->text);
		goto out;
	}
	ret = sw_conf_add_name(l, cmd->name);
	if (ret)
		sw_err_set(err, ret, "out of memory");
out:
	free(copy);
	free(cmd);
	return ret;
}

static int sw_conf_events(const char *list, const char *what, size_t lineno,
			  struct sw_err *err)
{
	struct sw_event_spec evs[SW_MAX_EVENTS];
	const char *bad = NULL;
	char *copy = strdup(list);
	int ret;

	if (!copy)
		return sw_err_set(err, -ENOMEM, "out of memory");
	ret = sw_events_parse(copy, evs, SW_MAX_EVENTS, &bad);
	if (ret < 0)
		sw_err_set(err, -EINVAL,
			   "%s:%zu: events: '%s': %s", what, lineno,
			   bad ? bad : list,
			   ret == -E2BIG ? "too many events, or a name too long" :
			   ret == -EEXIST ? "the same event twice" :
			   "not an event the module knows (see 'stopwatch events list')");
	free(copy);
	return ret < 0 ? -EINVAL : 0;
}

/* The line of @name in @c (probe or span of @kind) before line @upto. */
static const struct sw_conf_line *sw_conf_find(const struct sw_conf *c,
					       enum sw_conf_kind kind,
					       const char *name, size_t upto)
{
	size_t i, k;

	for (i = 0; i < upto && i < c->n; i++)
		for (k = 0; c->line[i].kind == kind && k < c->line[i].nnames;
		     k++)
			if (!strcmp(c->line[i].names[k], name))
				return &c->line[i];
	return NULL;
}

static int sw_conf_one(struct sw_conf *c, char *line, size_t lineno,
		       const char *what, struct sw_err *err)
{
	size_t wl = strcspn(line, " \t");
	char *rest = line + wl + strspn(line + wl, " \t");
	struct sw_conf_line *l, *nl;
	size_t k;
	int ret;

	if (!*rest)
		return sw_err_set(err, -EINVAL, "%s:%zu: '%.*s' with nothing after it",
				  what, lineno, (int)wl, line);
	if (wl == 6 && !strncmp(line, "events", 6)) {
		if (c->events)
			return sw_err_set(err, -EINVAL, "%s:%zu: events a second time",
					  what, lineno);
		ret = sw_conf_events(rest, what, lineno, err);
		if (!ret && !(c->events = strdup(rest)))
			ret = sw_err_set(err, -ENOMEM, "out of memory");
		return ret;
	}
	if (wl == 4 && !strncmp(line, "keys", 4)) {
		if (c->keys)
			return sw_err_set(err, -EINVAL, "%s:%zu: keys a second time",
					  what, lineno);
		if (sw_parse_breakdown(rest) < 0)
			return sw_err_set(err, -EINVAL,
					  "%s:%zu: keys: '%s': expected none, pid, tgid, comm or cpu",
					  what, lineno, rest);
		if (!(c->keys = strdup(rest)))
			return sw_err_set(err, -ENOMEM, "out of memory");
		return 0;
	}
	if (!(wl == 6 && !strncmp(line, "probes", 6)) &&
	    !(wl == 5 && !strncmp(line, "spans", 5)))
		return sw_err_set(err, -EINVAL,
				  "%s:%zu: unknown setting '%.*s': expected probes, spans, events or keys",
				  what, lineno, (int)wl, line);
	nl = realloc(c->line, (c->n + 1) * sizeof(*nl));
	if (!nl)
		return sw_err_set(err, -ENOMEM, "out of memory");
	c->line = nl;
	l = &c->line[c->n++];
	memset(l, 0, sizeof(*l));
	l->kind = wl == 6 ? SW_CONF_PROBES : SW_CONF_SPANS;
	l->lineno = lineno;
	l->text = strdup(rest);
	if (!l->text)
		return sw_err_set(err, -ENOMEM, "out of memory");
	ret = l->kind == SW_CONF_PROBES ? sw_conf_probes(l, what, err) :
					  sw_conf_spans(l, what, err);
	for (k = 0; !ret && k < l->nnames; k++) {
		const struct sw_conf_line *o =
			sw_conf_find(c, l->kind, l->names[k], c->n - 1);
		size_t j;

		for (j = 0; !o && j < k; j++)
			if (!strcmp(l->names[j], l->names[k]))
				o = l;
		if (o)
			ret = sw_err_set(err, -EINVAL,
					 "%s:%zu: %s '%s' is already on line %zu",
					 what, lineno,
					 l->kind == SW_CONF_PROBES ? "probe" : "span",
					 l->names[k], o->lineno);
	}
	return ret;
}

int sw_conf_parse(const char *text, const char *what, struct sw_conf **out,
		  struct sw_err *err)
{
	struct sw_conf *c = calloc(1, sizeof(*c));
	char *copy = strdup(text), *line, *next;
	size_t lineno = 0;
	int ret = 0;

	*out = NULL;
	if (!c || !copy || !(c->path = strdup(what))) {
		ret = sw_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (line = copy; line && !ret; line = next) {
		size_t n;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		line += strspn(line, " \t");
		n = strlen(line);
		while (n && strchr(" \t\r", line[n - 1]))
			line[--n] = '\0';
		if (!*line || *line == '#')
			continue;
		ret = sw_conf_one(c, line, lineno, what, err);
	}
	if (!ret) {
		*out = c;
		c = NULL;
	}
out:
	sw_conf_free(c);
	free(copy);
	return ret;
}

int sw_conf_load(const char *path, struct sw_conf **out, struct sw_err *err)
{
	char *text = NULL;
	size_t len;
	int fd, ret;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return sw_err_set(err, -errno, "cannot read %s: %s", path,
				  strerror(errno));
	ret = sw_read_fd(fd, &text, &len);
	close(fd);
	if (ret)
		return sw_err_set(err, ret, "cannot read %s: %s", path,
				  strerror(-ret));
	if (len > SW_CONF_MAX_BYTES || strlen(text) != len)
		ret = sw_err_set(err, -EINVAL, "%s: %s", path,
				 len > SW_CONF_MAX_BYTES ?
				 "larger than 1 MiB" : "has a NUL byte");
	else
		ret = sw_conf_parse(text, path, out, err);
	free(text);
	return ret;
}

/* ---- applying ---- */

/* Whether @c has a line of @l's kind and text. */
static bool sw_conf_has(const struct sw_conf *c, const struct sw_conf_line *l)
{
	size_t i;

	for (i = 0; c && i < c->n; i++)
		if (c->line[i].kind == l->kind &&
		    !strcmp(c->line[i].text, l->text))
			return true;
	return false;
}

static const char *sw_conf_file(enum sw_conf_kind kind)
{
	return kind == SW_CONF_PROBES ? "probes" : "spans";
}

/* Writes "@text\n" to @file; on refusal, why, with the module's words. */
static int sw_conf_write(const char *dir, const char *file, const char *text,
			 unsigned int flags, struct sw_err *err)
{
	char *line = NULL;
	int ret;

	if (asprintf(&line, "%s\n", text) < 0)
		return sw_err_set(err, -ENOMEM, "out of memory");
	ret = sw_ctl_write_ext(dir, file, line, flags, err);
	free(line);
	return ret;
}

static void sw_conf_unadd(const char *dir, const struct sw_conf_line *l)
{
	char line[600];
	size_t k;

	for (k = 0; k < l->nnames; k++) {
		snprintf(line, sizeof(line), "-%s", l->names[k]);
		sw_conf_write(dir, sw_conf_file(l->kind), line, 0, NULL);
	}
}

void sw_conf_remove(const char *dir, const struct sw_conf *c)
{
	size_t i;

	for (i = c ? c->n : 0; i-- > 0;)
		sw_conf_unadd(dir, &c->line[i]);
}

static bool sw_str_differs(const char *a, const char *b)
{
	return b && (!a || strcmp(a, b));
}

int sw_conf_apply(const char *dir, const struct sw_conf *old,
		  const struct sw_conf *new, struct sw_err *err)
{
	const struct sw_conf_line **added = NULL, **removed = NULL;
	size_t nadded = 0, nremoved = 0, i;
	bool events = false, keys = false;
	struct sw_err why = { "" };
	int ret = 0;

	added = calloc(new->n + 1, sizeof(*added));
	removed = calloc((old ? old->n : 0) + 1, sizeof(*removed));
	if (!added || !removed) {
		ret = sw_err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	if (sw_str_differs(old ? old->events : NULL, new->events)) {
		ret = sw_conf_write(dir, "events", new->events,
				    SW_CTL_REPLACE | SW_CTL_QUOTE, &why);
		if (ret) {
			sw_err_set(err, ret, "%s: events %s: %s", new->path,
				   new->events, why.msg);
			goto undo;
		}
		events = true;
	}
	if (sw_str_differs(old ? old->keys : NULL, new->keys)) {
		ret = sw_conf_write(dir, "breakdown", new->keys, SW_CTL_REPLACE,
				    &why);
		if (ret) {
			sw_err_set(err, ret, "%s: keys %s: %s", new->path,
				   new->keys, why.msg);
			goto undo;
		}
		keys = true;
	}
	/* What goes away first, so that a line may move a probe's options. */
	for (i = old ? old->n : 0; i-- > 0;) {
		if (sw_conf_has(new, &old->line[i]))
			continue;
		sw_conf_unadd(dir, &old->line[i]);
		removed[nremoved++] = &old->line[i];
	}
	for (i = 0; i < new->n; i++) {
		const struct sw_conf_line *l = &new->line[i];

		if (sw_conf_has(old, l))
			continue;
		ret = sw_conf_write(dir, sw_conf_file(l->kind), l->text,
				    SW_CTL_QUOTE, &why);
		if (ret) {
			sw_err_set(err, ret, "%s:%zu: the module refused %s '%s': %s",
				   new->path, l->lineno, sw_conf_file(l->kind),
				   l->text, why.msg);
			goto undo;
		}
		added[nadded++] = l;
	}
	goto out;
undo:
	while (nadded)
		sw_conf_unadd(dir, added[--nadded]);
	for (i = nremoved; i-- > 0;)
		sw_conf_write(dir, sw_conf_file(removed[i]->kind),
			      removed[i]->text, 0, NULL);
	if (keys)
		sw_conf_write(dir, "breakdown",
			      old && old->keys ? old->keys : "none",
			      SW_CTL_REPLACE, NULL);
	if (events)
		sw_conf_write(dir, "events",
			      old && old->events ? old->events : "",
			      SW_CTL_REPLACE, NULL);
out:
	free(added);
	free(removed);
	return ret;
}
