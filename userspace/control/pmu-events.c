// SPDX-License-Identifier: GPL-2.0
/*
 * pmu-events.c - PMU-qualified event names ("cpu/event=0x3c,umask=0x0/",
 * "armv8_pmuv3/inst_retired/") resolved through sysfs into the
 * ALIAS=TYPE:CONFIG that stopwatch.ko accepts.  See pmu-events.h.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "lib/parse.h"
#include "control/pmu-events.h"
#include "control/pfm-events.h"
#include "lib/events.h"

#define SW_TERM_MAX 32		/* terms of one event, its own and the user's */
#define SW_TERM_NAME_MAX 64	/* a term's or a named event's name */
#define SW_ATTR_MAX 4096	/* a sysfs attribute file */
#define SW_FIELDS 4		/* config, config1, config2, config3 */

const struct sw_generic_event sw_generic_events[] = {
	{ "cycles", 1 },
	{ "cpu-cycles", 1 },
	{ "instructions", 1 },
	{ "cache-references", 1 },
	{ "cache-misses", 1 },
	{ "branch-instructions", 1 },
	{ "branches", 1 },
	{ "branch-misses", 1 },
	{ "bus-cycles", 1 },
	{ "ref-cycles", 1 },
	{ "stalled-cycles-frontend", 1 },
	{ "idle-cycles-frontend", 1 },
	{ "stalled-cycles-backend", 1 },
	{ "idle-cycles-backend", 1 },
	{ "cpu-clock", 0 },
	{ "task-clock", 0 },
	{ "page-faults", 0 },
	{ "faults", 0 },
	{ "minor-faults", 0 },
	{ "major-faults", 0 },
	{ "context-switches", 0 },
	{ "cs", 0 },
	{ "cpu-migrations", 0 },
	{ "migrations", 0 },
};

const size_t sw_generic_events_n =
	sizeof(sw_generic_events) / sizeof(sw_generic_events[0]);

static const char *const sw_field_names[SW_FIELDS] = {
	"config", "config1", "config2", "config3",
};

/**
 * struct sw_term - one term of the event being resolved.
 * @name:       the term's name ("umask", "config1", ...)
 * @value:      its value
 * @from_event: it comes from the PMU/events/ file (the user's own terms
 *              override those)
 * @needs:      the events file says "name=?": the user must give it
 */
struct sw_term {
	char name[SW_TERM_NAME_MAX];
	uint64_t value;
	bool from_event;
	bool needs;
};

/**
 * struct sw_resolve - the state of one sw_pmu_event_resolve().
 * @sysfs:  sysfs root
 * @spec:   the whole event as given, for messages
 * @pmu:    the PMU's name (a copy)
 * @event:  the named event used, as sysfs spells it, or ""
 * @extra:  the user's terms other than the named event, for the alias
 * @term:   the terms, the event's and the user's
 * @nterm:  how many
 * @evs:    PMU/events/ names, read when first needed
 * @nevs:   how many
 * @evs_read: whether @evs was read
 * @err:    where messages go
 */
struct sw_resolve {
	const char *sysfs;
	const char *spec;
	char pmu[NAME_MAX + 1];
	char event[SW_TERM_NAME_MAX];
	char extra[256];
	struct sw_term term[SW_TERM_MAX];
	int nterm;
	char **evs;
	size_t nevs;
	bool evs_read;
	struct sw_err *err;
};

/**
 * struct sw_format - the bits a term occupies, from PMU/format/TERM.
 * @field: 0 for config, 1 for config1, ...
 * @mask:  the bits, filled from the lowest up by the value's bits
 */
struct sw_format {
	int field;
	uint64_t mask;
};

const char *sw_sysfs_root(const char *dir)
{
	const char *env;

	if (dir && *dir)
		return dir;
	env = getenv(SW_SYSFS_ENV);
	return env && *env ? env : SW_SYSFS_DEFAULT;
}

void sw_strv_free(char **v, size_t n)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* "<sysfs>/bus/event_source/devices[/pmu[/rel]]" into @buf. */
static int sw_pmu_path(char *buf, size_t len, const char *sysfs,
		       const char *pmu, const char *rel)
{
	int n = snprintf(buf, len, "%s/%s%s%s%s%s", sysfs, SW_PMU_DEVICES,
			 pmu ? "/" : "", pmu ? pmu : "", rel ? "/" : "",
			 rel ? rel : "");

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* A name used as a file name under the PMU: no '/', no leading '.'. */
static bool sw_name_ok(const char *s, size_t len)
{
	size_t i;

	if (!len || len >= SW_TERM_NAME_MAX || s[0] == '.')
		return false;
	for (i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' &&
		    s[i] != '-' && s[i] != '.')
			return false;
	return true;
}

static bool sw_alias_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.';
}

int sw_pmu_read_attr(const char *sysfs, const char *pmu, const char *rel,
		     char *buf, size_t len)
{
	char path[PATH_MAX];
	size_t n = 0;
	ssize_t r;
	int fd, ret;

	ret = sw_pmu_path(path, sizeof(path), sysfs, pmu, rel);
	if (ret)
		return ret;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		r = read(fd, buf + n, len - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ret = -errno;
			goto cleanup;
		}
		if (!r)
			break;
		n += (size_t)r;
		if (n == len - 1) {
			char c;

			if (read(fd, &c, 1) > 0)
				ret = -EFBIG;
			break;
		}
	}
	while (n && isspace((unsigned char)buf[n - 1]))
		n--;
	buf[n] = '\0';
cleanup:
	close(fd);
	return ret;
}

static int sw_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether @name is one of the files next to an event: .scale, .unit... */
static bool sw_event_companion(const char *name)
{
	static const char *const sfx[] = {
		".scale", ".unit", ".per-pkg", ".snapshot",
	};
	size_t i, l = strlen(name), s;

	for (i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		s = strlen(sfx[i]);
		if (l > s && !strcmp(name + l - s, sfx[i]))
			return true;
	}
	return false;
}

/* The sorted entries of @path; companions left out if @events. */
static int sw_list_dir(const char *path, bool events, char ***names,
		       size_t *n)
{
	char **v = NULL, **nv;
	size_t cnt = 0, cap = 0;
	struct dirent *de;
	DIR *d;
	int ret = 0;

	*names = NULL;
	*n = 0;
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (events && sw_event_companion(de->d_name))
			continue;
		if (cnt == cap) {
			cap = cap ? cap * 2 : 16;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				ret = -ENOMEM;
				goto cleanup;
			}
			v = nv;
		}
		v[cnt] = strdup(de->d_name);
		if (!v[cnt]) {
			ret = -ENOMEM;
			goto cleanup;
		}
		cnt++;
	}
	if (cnt)
		qsort(v, cnt, sizeof(*v), sw_cmp_str);
cleanup:
	closedir(d);
	if (ret) {
		sw_strv_free(v, cnt);
		return ret;
	}
	*names = v;
	*n = cnt;
	return 0;
}

int sw_pmu_names(const char *sysfs, char ***names, size_t *n)
{
	char path[PATH_MAX];
	int ret;

	*names = NULL;
	*n = 0;
	ret = sw_pmu_path(path, sizeof(path), sysfs, NULL, NULL);
	return ret ? ret : sw_list_dir(path, false, names, n);
}

int sw_pmu_dir_names(const char *sysfs, const char *pmu, const char *sub,
		     char ***names, size_t *n)
{
	char path[PATH_MAX];
	int ret;

	*names = NULL;
	*n = 0;
	ret = sw_pmu_path(path, sizeof(path), sysfs, pmu, sub);
	if (ret)
		return ret;
	ret = sw_list_dir(path, !strcmp(sub, "events"), names, n);
	return ret == -ENOENT || ret == -ENOTDIR ? 0 : ret;
}

/* "a, b, c, ... 12 more" (or "none") into @buf, for messages. */
static const char *sw_names_join(char **v, size_t n, char *buf, size_t len)
{
	size_t i, used = 0, l;

	if (!n) {
		snprintf(buf, len, "none");
		return buf;
	}
	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		l = strlen(v[i]) + (i ? 2 : 0);
		/* Keep room for ", ... NNNN more". */
		if (used + l + 16 >= len)
			break;
		memcpy(buf + used, ", ", i ? 2 : 0);
		memcpy(buf + used + (i ? 2 : 0), v[i], strlen(v[i]) + 1);
		used += l;
	}
	if (i < n)
		snprintf(buf + used, len - used, "%s... %zu more", i ? ", " : "",
			 n - i);
	return buf;
}

/* The PMU's term names (format/) joined, for messages. */
static const char *sw_terms_join(struct sw_resolve *c, char *buf, size_t len)
{
	char **v = NULL;
	size_t n = 0;

	if (sw_pmu_dir_names(c->sysfs, c->pmu, "format", &v, &n)) {
		snprintf(buf, len, "?");
		return buf;
	}
	sw_names_join(v, n, buf, len);
	sw_strv_free(v, n);
	return buf;
}

/* The PMU's named events joined, for messages. */
static const char *sw_events_join(struct sw_resolve *c, char *buf,
				  size_t len)
{
	return sw_names_join(c->evs, c->nevs, buf, len);
}

static int sw_read_events(struct sw_resolve *c)
{
	int ret;

	if (c->evs_read)
		return 0;
	ret = sw_pmu_dir_names(c->sysfs, c->pmu, "events", &c->evs, &c->nevs);
	if (ret)
		return sw_err_set(c->err, ret, "%s: cannot list %s/%s/%s/events: %s",
				  c->spec, c->sysfs, SW_PMU_DEVICES, c->pmu,
				  strerror(-ret));
	c->evs_read = true;
	return 0;
}

/* The named event @s (@len chars) as sysfs spells it, or NULL. */
static const char *sw_find_event(struct sw_resolve *c, const char *s,
				 size_t len)
{
	size_t i;

	for (i = 0; i < c->nevs; i++)
		if (strlen(c->evs[i]) == len && !strncmp(c->evs[i], s, len))
			return c->evs[i];
	/* perf matches event names regardless of case. */
	for (i = 0; i < c->nevs; i++)
		if (strlen(c->evs[i]) == len && !strncasecmp(c->evs[i], s, len))
			return c->evs[i];
	return NULL;
}

/* config, config1, ...: the field's index, else -1. */
static int sw_builtin_field(const char *s, size_t len)
{
	int i;

	for (i = 0; i < SW_FIELDS; i++)
		if (strlen(sw_field_names[i]) == len &&
		    !strncmp(sw_field_names[i], s, len))
			return i;
	return -1;
}

/*
 * Records one term.  The user's terms override the named event's; the
 * user giving one twice is an error.
 */
static int sw_term_set(struct sw_resolve *c, const char *name, size_t len,
		       uint64_t value, bool from_event, bool needs)
{
	struct sw_term *t = NULL;
	int i;

	for (i = 0; i < c->nterm; i++) {
		if (strlen(c->term[i].name) == len &&
		    !strncmp(c->term[i].name, name, len)) {
			t = &c->term[i];
			break;
		}
	}
	if (t && !t->from_event && from_event)
		return 0;
	if (t && !t->from_event)
		return sw_err_set(c->err, -EINVAL, "%s: term '%s' given twice",
				  c->spec, t->name);
	if (!t) {
		if (c->nterm == SW_TERM_MAX)
			return sw_err_set(c->err, -E2BIG,
					  "%s: more than %d terms", c->spec,
					  SW_TERM_MAX);
		t = &c->term[c->nterm++];
		memcpy(t->name, name, len);
		t->name[len] = '\0';
	}
	t->value = value;
	t->from_event = from_event;
	t->needs = needs;
	return 0;
}

/* Adds the terms of PMU/events/@event ("event=0xcd,umask=0x1,ldlat=3"). */
static int sw_event_terms(struct sw_resolve *c, const char *event)
{
	char rel[SW_TERM_NAME_MAX + 8], text[SW_ATTR_MAX], *p, *tok, *eq;
	uint64_t v;
	int ret;

	snprintf(rel, sizeof(rel), "events/%s", event);
	ret = sw_pmu_read_attr(c->sysfs, c->pmu, rel, text, sizeof(text));
	if (ret)
		return sw_err_set(c->err, ret, "%s: cannot read %s/%s/%s/%s: %s",
				  c->spec, c->sysfs, SW_PMU_DEVICES, c->pmu,
				  rel, strerror(-ret));
	for (p = text; p;) {
		tok = p;
		p = strchr(p, ',');
		if (p)
			*p++ = '\0';
		while (isspace((unsigned char)*tok))
			tok++;
		if (!*tok)
			continue;
		eq = strchr(tok, '=');
		if (!sw_name_ok(tok, eq ? (size_t)(eq - tok) : strlen(tok)))
			goto bad;
		if (!eq) {
			ret = sw_term_set(c, tok, strlen(tok), 1, true, false);
		} else if (!strcmp(eq + 1, "?")) {
			ret = sw_term_set(c, tok, (size_t)(eq - tok), 0, true,
					  true);
		} else {
			if (sw_parse_number(eq + 1, strlen(eq + 1), 0, &v))
				goto bad;
			ret = sw_term_set(c, tok, (size_t)(eq - tok), v, true,
					  false);
		}
		if (ret)
			return ret;
	}
	return 0;
bad:
	return sw_err_set(c->err, -EINVAL,
			  "%s: %s/%s/%s/%s: cannot parse the term '%.40s'",
			  c->spec, c->sysfs, SW_PMU_DEVICES, c->pmu, rel, tok);
}

/* Appends one of the user's terms to c->extra, for the alias. */
static void sw_extra_add(struct sw_resolve *c, const char *tok, size_t len)
{
	size_t used = strlen(c->extra);

	if (used + len + 2 >= sizeof(c->extra))
		return;
	if (used)
		c->extra[used++] = ',';
	memcpy(c->extra + used, tok, len);
	c->extra[used + len] = '\0';
}

/* One of the user's terms: "name=value", a bare term or a named event. */
static int sw_user_term(struct sw_resolve *c, const char *tok, size_t len)
{
	const char *eq = memchr(tok, '=', len), *ev;
	size_t nlen = eq ? (size_t)(eq - tok) : len;
	char evbuf[200], fmtbuf[200], path[PATH_MAX], name[SW_TERM_NAME_MAX];
	struct stat st;
	uint64_t v;
	int ret;

	if (!sw_name_ok(tok, nlen))
		return sw_err_set(c->err, -EINVAL,
				  "%s: '%.*s' is not a term (term=value, a bare term or an event name)",
				  c->spec, (int)(len > 60 ? 60 : len), tok);
	if (eq) {
		ret = sw_parse_number(eq + 1, len - nlen - 1, 0, &v);
		if (ret)
			return sw_err_set(c->err, -EINVAL,
					  "%s: '%.*s': %s", c->spec,
					  (int)(len > 60 ? 60 : len), tok,
					  ret == -ERANGE ?
					  "the value does not fit in 64 bits" :
					  "the value is not a number (decimal or 0x hexadecimal)");
		sw_extra_add(c, tok, len);
		return sw_term_set(c, tok, nlen, v, false, false);
	}
	if (sw_builtin_field(tok, len) >= 0) {
		sw_extra_add(c, tok, len);
		return sw_term_set(c, tok, len, 1, false, false);
	}
	ret = sw_read_events(c);
	if (ret)
		return ret;
	ev = sw_find_event(c, tok, len);
	if (ev) {
		if (c->event[0])
			return sw_err_set(c->err, -EINVAL,
					  "%s: two named events, '%s' and '%s': give one",
					  c->spec, c->event, ev);
		snprintf(c->event, sizeof(c->event), "%s", ev);
		return sw_event_terms(c, ev);
	}
	memcpy(name, tok, len);
	name[len] = '\0';
	ret = sw_pmu_path(path, sizeof(path), c->sysfs, c->pmu, "format");
	if (!ret && (size_t)snprintf(path + strlen(path),
				     sizeof(path) - strlen(path), "/%s",
				     name) < sizeof(path) - strlen(path) &&
	    !stat(path, &st) && S_ISREG(st.st_mode)) {
		sw_extra_add(c, tok, len);
		return sw_term_set(c, tok, len, 1, false, false);
	}
	return sw_err_set(c->err, -ENOENT,
			  "%s: PMU '%s' has no event or term '%s' (events: %s; terms: %s)",
			  c->spec, c->pmu, name,
			  sw_events_join(c, evbuf, sizeof(evbuf)),
			  sw_terms_join(c, fmtbuf, sizeof(fmtbuf)));
}

/* "config:0-7,32-35" -> field 0, those bits. */
static int sw_format_parse(const char *s, struct sw_format *f)
{
	const char *colon = strchr(s, ':'), *p;
	unsigned long lo, hi;
	char *end;
	int i;

	if (!colon)
		return -EINVAL;
	f->field = sw_builtin_field(s, (size_t)(colon - s));
	if (f->field < 0)
		return -EINVAL;
	f->mask = 0;
	for (p = colon + 1;;) {
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		lo = strtoul(p, &end, 10);
		hi = lo;
		p = end;
		if (*p == '-') {
			if (!isdigit((unsigned char)p[1]))
				return -EINVAL;
			hi = strtoul(p + 1, &end, 10);
			p = end;
		}
		if (lo > hi || hi > 63)
			return -EINVAL;
		for (i = (int)lo; i <= (int)hi; i++)
			f->mask |= 1ULL << i;
		if (!*p)
			return 0;
		if (*p != ',')
			return -EINVAL;
		p++;
	}
}

/* Spreads @v over the bits of @mask, lowest first. */
static int sw_format_place(uint64_t mask, uint64_t v, uint64_t *out)
{
	uint64_t r = 0;
	int i;

	for (i = 0; i < 64; i++) {
		if (!(mask & (1ULL << i)))
			continue;
		if (v & 1)
			r |= 1ULL << i;
		v >>= 1;
	}
	if (v)
		return -ERANGE;
	*out = r;
	return 0;
}

/* " (from event mem-loads)" when @t came from the named event. */
static const char *sw_origin(const struct sw_resolve *c,
			     const struct sw_term *t, char *buf, size_t len)
{
	if (!t->from_event)
		return "";
	snprintf(buf, len, " (from event %s)", c->event);
	return buf;
}

/* Puts every term's bits into @fields. */
static int sw_compose(struct sw_resolve *c, uint64_t fields[SW_FIELDS])
{
	char text[256], rel[SW_TERM_NAME_MAX + 8], fmtbuf[200], orig[96];
	struct sw_format f;
	uint64_t placed;
	int i, k, ret;

	memset(fields, 0, SW_FIELDS * sizeof(fields[0]));
	/* config=N first: the named terms then set their bits in it. */
	for (i = 0; i < c->nterm; i++) {
		struct sw_term *t = &c->term[i];

		k = sw_builtin_field(t->name, strlen(t->name));
		if (k >= 0 && !t->needs)
			fields[k] = t->value;
	}
	for (i = 0; i < c->nterm; i++) {
		struct sw_term *t = &c->term[i];

		if (t->needs)
			return sw_err_set(c->err, -EINVAL,
					  "%s: event '%s' needs a value for '%s' (its sysfs file says %s=?): e.g. %s/%s,%s=1/",
					  c->spec, c->event, t->name, t->name,
					  c->pmu, c->event, t->name);
		k = sw_builtin_field(t->name, strlen(t->name));
		if (k < 0) {
			snprintf(rel, sizeof(rel), "format/%s", t->name);
			ret = sw_pmu_read_attr(c->sysfs, c->pmu, rel, text,
					       sizeof(text));
			if (ret == -ENOENT)
				return sw_err_set(c->err, -ENOENT,
						  "%s: PMU '%s' has no term '%s'%s (terms: %s)",
						  c->spec, c->pmu, t->name,
						  sw_origin(c, t, orig, sizeof(orig)),
						  sw_terms_join(c, fmtbuf, sizeof(fmtbuf)));
			if (ret)
				return sw_err_set(c->err, ret,
						  "%s: cannot read %s/%s/%s/%s: %s",
						  c->spec, c->sysfs, SW_PMU_DEVICES,
						  c->pmu, rel, strerror(-ret));
			if (sw_format_parse(text, &f))
				return sw_err_set(c->err, -EINVAL,
						  "%s: %s/%s/%s/%s: cannot parse '%.60s' (expected e.g. config:0-7)",
						  c->spec, c->sysfs, SW_PMU_DEVICES,
						  c->pmu, rel, text);
			if (sw_format_place(f.mask, t->value, &placed))
				return sw_err_set(c->err, -EINVAL,
						  "%s: %s=0x%" PRIx64 "%s does not fit in its %d bits (%s)",
						  c->spec, t->name, t->value,
						  sw_origin(c, t, orig, sizeof(orig)),
						  __builtin_popcountll(f.mask), text);
			k = f.field;
			fields[k] = (fields[k] & ~f.mask) | placed;
		} else {
			snprintf(text, sizeof(text), "%s:0-63",
				 sw_field_names[k]);
		}
		if (k && t->value)
			return sw_err_set(c->err, -EINVAL,
					  "%s: %s=0x%" PRIx64 "%s sets %s bits (%s), and stopwatch.ko takes the config field only",
					  c->spec, t->name, t->value,
					  sw_origin(c, t, orig, sizeof(orig)),
					  sw_field_names[k], text);
	}
	return 0;
}

/* @s with ',' and '=' as '-' and what an alias cannot hold as '_'. */
static void sw_alias_clean(char *s)
{
	for (; *s; s++) {
		if (*s == ',' || *s == '=')
			*s = '-';
		else if (!sw_alias_char(*s))
			*s = '_';
	}
}

/* Cuts @s to @max characters, dropping separators left at the end. */
static void sw_alias_cut(char *s, size_t max)
{
	size_t l = strlen(s);

	if (l > max) {
		l = max;
		while (l > 1 && (s[l - 1] == '-' || s[l - 1] == '_' ||
				 s[l - 1] == '.'))
			l--;
		s[l] = '\0';
	}
}

/* Room for the alias: the module bounds the name, not "=TYPE:CONFIG". */
static int sw_alias_room(void)
{
	return SW_PMU_ITEM_MAX;
}

static void sw_alias_make(struct sw_resolve *c, struct sw_pmu_event *ev)
{
	size_t room = (size_t)sw_alias_room(), keep;
	char cand[512], raw[32];

	if (c->event[0] && c->extra[0])
		snprintf(cand, sizeof(cand), "%s-%s", c->event, c->extra);
	else if (c->event[0])
		snprintf(cand, sizeof(cand), "%s", c->event);
	else
		snprintf(cand, sizeof(cand), "%s-%s", c->pmu, c->extra);
	sw_alias_clean(cand);
	if (strlen(cand) > room && !c->event[0]) {
		/* PMU.rCONFIG, keeping 3 characters of the PMU at least;
		 * else the PMU's name alone. */
		snprintf(raw, sizeof(raw), ".r%" PRIx64, ev->config);
		keep = strlen(c->pmu) < 3 ? strlen(c->pmu) : 3;
		snprintf(cand, sizeof(cand), "%s", c->pmu);
		sw_alias_clean(cand);
		if (strlen(raw) + keep <= room) {
			sw_alias_cut(cand, room - strlen(raw));
			strcat(cand, raw);
		}
	}
	sw_alias_cut(cand, room < SW_PMU_ITEM_MAX ? room : SW_PMU_ITEM_MAX);
	memcpy(ev->alias, cand, strlen(cand) + 1);
}

int sw_pmu_event_resolve(const char *sysfs, const char *spec,
			 struct sw_pmu_event *ev, struct sw_err *err)
{
	struct sw_resolve *c;
	const char *slash, *end, *p, *q;
	char path[PATH_MAX], text[64], buf[300];
	char **pmus = NULL;
	size_t npmus = 0;
	uint64_t fields[SW_FIELDS], type;
	struct stat st;
	int ret;

	memset(ev, 0, sizeof(*ev));
	c = calloc(1, sizeof(*c));
	if (!c)
		return sw_err_set(err, -ENOMEM, "out of memory");
	c->sysfs = sysfs;
	c->spec = spec;
	c->err = err;

	slash = strchr(spec, '/');
	if (!slash) {
		ret = sw_err_set(err, -EINVAL, "%s: not a PMU event (PMU/TERMS/)",
				 spec);
		goto cleanup;
	}
	end = strchr(slash + 1, '/');
	if (!end) {
		ret = sw_err_set(err, -EINVAL,
				 "%s: no closing '/' (PMU/TERMS/, e.g. cpu/event=0x3c/)",
				 spec);
		goto cleanup;
	}
	if (end[1]) {
		ret = sw_err_set(err, -EINVAL,
				 "%s: '%s' after the closing '/': expected a modifier, u (user mode only), k (kernel mode only) or uk (both)",
				 spec, end + 1);
		goto cleanup;
	}
	if (!sw_name_ok(spec, (size_t)(slash - spec)) ||
	    (size_t)(slash - spec) > NAME_MAX) {
		ret = sw_err_set(err, -EINVAL, "%s: '%.*s' is not a PMU name",
				 spec, (int)(slash - spec), spec);
		goto cleanup;
	}
	memcpy(c->pmu, spec, (size_t)(slash - spec));
	c->pmu[slash - spec] = '\0';

	ret = sw_pmu_path(path, sizeof(path), sysfs, c->pmu, NULL);
	if (!ret && stat(path, &st)) {
		ret = -errno;
		if (ret != -ENOENT) {
			sw_err_set(err, ret, "%s: %s: %s", spec, path,
				   strerror(-ret));
			goto cleanup;
		}
		ret = sw_pmu_names(sysfs, &pmus, &npmus);
		if (ret)
			sw_err_set(err, -ENOENT,
				   "%s: no PMUs: cannot read %s/%s: %s", spec,
				   sysfs, SW_PMU_DEVICES, strerror(-ret));
		else
			sw_err_set(err, -ENOENT,
				   "%s: unknown PMU '%s' (PMUs in %s/%s: %s)",
				   spec, c->pmu, sysfs, SW_PMU_DEVICES,
				   sw_names_join(pmus, npmus, buf, sizeof(buf)));
		ret = -ENOENT;
		goto cleanup;
	}
	if (ret) {
		sw_err_set(err, ret, "%s: path too long", spec);
		goto cleanup;
	}
	ret = sw_pmu_read_attr(sysfs, c->pmu, "type", text, sizeof(text));
	if (ret) {
		sw_err_set(err, ret, "%s: cannot read %s/type: %s", spec, path,
			   strerror(-ret));
		goto cleanup;
	}
	if (sw_parse_number(text, strlen(text), 0, &type) || type > UINT32_MAX) {
		ret = sw_err_set(err, -EINVAL, "%s: %s/type: '%.20s' is not a PMU type",
				 spec, path, text);
		goto cleanup;
	}

	if (end == slash + 1) {
		ret = sw_err_set(err, -EINVAL,
				 "%s: nothing between the slashes: give an event name or terms, e.g. %s/event=0x3c/",
				 spec, c->pmu);
		goto cleanup;
	}
	for (p = slash + 1; p < end; p = q + 1) {
		const char *s = p;
		size_t len;

		q = memchr(p, ',', (size_t)(end - p));
		if (!q)
			q = end;
		while (s < q && isspace((unsigned char)*s))
			s++;
		len = (size_t)(q - s);
		while (len && isspace((unsigned char)s[len - 1]))
			len--;
		if (!len) {
			ret = sw_err_set(err, -EINVAL, "%s: an empty term",
					 spec);
			goto cleanup;
		}
		ret = sw_user_term(c, s, len);
		if (ret)
			goto cleanup;
	}
	ret = sw_compose(c, fields);
	if (ret)
		goto cleanup;
	ev->type = (uint32_t)type;
	ev->config = fields[0];
	sw_alias_make(c, ev);
	ret = 0;
cleanup:
	sw_strv_free(pmus, npmus);
	sw_strv_free(c->evs, c->nevs);
	free(c);
	return ret;
}

/* The next item of @p: separated by commas or blanks outside "/.../". */
static const char *sw_next_item(const char *p, size_t *len, bool *pmu)
{
	const char *s;
	bool inside = false;

	while (*p == ',' || isspace((unsigned char)*p))
		p++;
	if (!*p)
		return NULL;
	*pmu = false;
	for (s = p; *s; s++) {
		if (*s == '/') {
			inside = !inside;
			*pmu = true;
		} else if (!inside && (*s == ',' || isspace((unsigned char)*s))) {
			break;
		}
	}
	*len = (size_t)(s - p);
	return p;
}

/*
 * The name the module shows for a passed-on item (sw_event_parse()'s: the
 * alias, else all with a modifier as "_u" or "_k"); an item it cannot
 * parse as it is shows up to its '='.
 */
static void sw_item_name(const char *s, size_t len, char *out, size_t size)
{
	const char *eq = memchr(s, '=', len);
	struct sw_event_spec ev;
	char *t = strndup(s, len);

	if (t && !sw_event_parse(t, &ev))
		snprintf(out, size, "%s", ev.name);
	else
		snprintf(out, size, "%.*s", (int)(eq ? (size_t)(eq - s) : len),
			 s);
	free(t);
}

/**
 * struct sw_item - one item of the list being resolved.
 * @text: where it starts in the list
 * @len:  its length
 * @pmu:  it is a PMU event, resolved into @ev
 * @excl: SW_EVENT_EXCL_* of its modifier (":u", ":k", or "/u" of a PMU
 *        event)
 * @ev:   the resolved event
 */
struct sw_item {
	const char *text;
	size_t len;
	bool pmu;
	uint32_t excl;
	struct sw_pmu_event ev;
};

/* Whether another item than @self already has the name @name. */
static bool sw_name_taken(const struct sw_item *it, size_t n, size_t self,
			  const char *name)
{
	char shown[256];
	size_t i;

	for (i = 0; i < n; i++) {
		if (i == self)
			continue;
		if (it[i].pmu) {
			/* PMU items after @self have no final name yet. */
			if (i < self && !strcmp(it[i].ev.alias, name))
				return true;
			continue;
		}
		sw_item_name(it[i].text, it[i].len, shown, sizeof(shown));
		if (!strcmp(shown, name))
			return true;
	}
	return false;
}

/* Makes item @self's alias unique: "-2", "-3"... */
static void sw_alias_unique(struct sw_item *it, size_t n, size_t self)
{
	struct sw_pmu_event *ev = &it[self].ev;
	size_t room = (size_t)sw_alias_room();
	char base[SW_PMU_ITEM_MAX + 1], sfx[16];
	unsigned int k;

	if (!sw_name_taken(it, n, self, ev->alias))
		return;
	memcpy(base, ev->alias, sizeof(base));
	for (k = 2; k < 1000; k++) {
		snprintf(sfx, sizeof(sfx), "-%u", k);
		snprintf(ev->alias, sizeof(ev->alias), "%s", base);
		if (strlen(sfx) < room)
			sw_alias_cut(ev->alias, room - strlen(sfx));
		else
			ev->alias[0] = '\0';
		strcat(ev->alias, sfx);
		if (!sw_name_taken(it, n, self, ev->alias))
			return;
	}
}

/* Cache events and PAPI presets. */
/* perf's spelling of the caches and operations, PERF_COUNT_HW_CACHE_* order. */
static const char *const sw_caches[] = {
	"L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB", "branch", "node",
};

static const struct {
	const char *one, *all;
} sw_cache_ops[] = {
	{ "load", "loads" }, { "store", "stores" }, { "prefetch", "prefetches" },
};

#define SW_NCACHES (sizeof(sw_caches) / sizeof(sw_caches[0]))
#define SW_NOPS (sizeof(sw_cache_ops) / sizeof(sw_cache_ops[0]))

/*
 * A subset of PAPI's presets (papiStdEventDefs.h), each mapped to the perf
 * generic event that counts it; the kernel maps that to the PMU's own.
 */
const struct sw_papi_preset sw_papi_presets[] = {
	{ "PAPI_TOT_CYC", "total cycles", "cycles" },
	{ "PAPI_TOT_INS", "instructions completed", "instructions" },
	{ "PAPI_REF_CYC", "reference clock cycles", "ref-cycles" },
	{ "PAPI_BR_INS", "branch instructions", "branches" },
	{ "PAPI_BR_MSP", "branch instructions mispredicted", "branch-misses" },
	{ "PAPI_L1_DCM", "level 1 data cache misses", "L1-dcache-load-misses" },
	{ "PAPI_L1_DCA", "level 1 data cache accesses", "L1-dcache-loads" },
	{ "PAPI_L1_STM", "level 1 store misses", "L1-dcache-store-misses" },
	{ "PAPI_L1_ICM", "level 1 instruction cache misses", "L1-icache-load-misses" },
	{ "PAPI_L3_TCM", "last level cache misses", "cache-misses" },
	{ "PAPI_L3_TCA", "last level cache accesses", "cache-references" },
	{ "PAPI_L3_LDM", "last level cache load misses", "LLC-load-misses" },
	{ "PAPI_TLB_DM", "data TLB misses", "dTLB-load-misses" },
	{ "PAPI_TLB_IM", "instruction TLB misses", "iTLB-load-misses" },
	{ "PAPI_STL_ICY", "cycles with no instruction issue", "stalled-cycles-frontend" },
	{ "PAPI_RES_STL", "cycles stalled on any resource", "stalled-cycles-backend" },
};

const size_t sw_papi_presets_n =
	sizeof(sw_papi_presets) / sizeof(sw_papi_presets[0]);

bool sw_cache_event_name(size_t i, char *buf, size_t len)
{
	size_t c = i / (SW_NOPS * 2), op = i / 2 % SW_NOPS;

	if (c >= SW_NCACHES)
		return false;
	if (i % 2)
		snprintf(buf, len, "%s-%s-misses", sw_caches[c], sw_cache_ops[op].one);
	else
		snprintf(buf, len, "%s-%s", sw_caches[c], sw_cache_ops[op].all);
	return true;
}

/* PERF_TYPE_HW_CACHE's config of a perf cache event name, or false. */
static bool sw_cache_event_parse(const char *name, uint64_t *config)
{
	char buf[64];
	size_t i;

	for (i = 0; sw_cache_event_name(i, buf, sizeof(buf)); i++) {
		if (strcmp(buf, name))
			continue;
		*config = (uint64_t)(i / (SW_NOPS * 2)) |
			  (uint64_t)(i / 2 % SW_NOPS) << 8 |
			  (uint64_t)(i % 2 ? PERF_COUNT_HW_CACHE_RESULT_MISS :
				     PERF_COUNT_HW_CACHE_RESULT_ACCESS) << 16;
		return true;
	}
	return false;
}

bool sw_core_pmu(const char *sysfs, char *buf, size_t len)
{
	char **pmus = NULL, path[4096];
	size_t n = 0, i;
	struct stat st;
	bool found = false;

	if (sw_pmu_names(sysfs, &pmus, &n))
		return false;
	for (i = 0; i < n && !found; i++) {
		snprintf(path, sizeof(path), "%s/%s/%s/cpus", sysfs,
			 SW_PMU_DEVICES, pmus[i]);
		if (!strcmp(pmus[i], "cpu") || !stat(path, &st)) {
			snprintf(buf, len, "%s", pmus[i]);
			found = true;
		}
	}
	sw_strv_free(pmus, n);
	return found;
}

/*
 * Whether the kernel can count (@type, @config) on this thread: 1 yes,
 * 0 no, -1 unknown (not allowed to ask, or not the live sysfs).
 */
static int sw_event_countable(const char *sysfs, uint32_t type, uint64_t config)
{
	struct perf_event_attr attr;
	int fd;

	if (strcmp(sysfs, SW_SYSFS_DEFAULT))
		return -1;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = (int)syscall(__NR_perf_event_open, &attr, 0, -1, -1,
			  PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return 1;
	}
	if (errno == ENOENT || errno == EOPNOTSUPP || errno == ENODEV ||
	    errno == EINVAL)
		return 0;
	return -1;
}

int sw_named_event_resolve(const char *sysfs, const char *name,
			   uint32_t *type, uint64_t *config, struct sw_err *err)
{
	const char *event = name, *via = "";
	struct sw_event_spec ev;
	char core[256];
	size_t i;

	for (i = 0; i < sw_papi_presets_n; i++)
		if (!strcmp(name, sw_papi_presets[i].name)) {
			event = sw_papi_presets[i].event;
			via = " (it maps to ";
			break;
		}
	if (sw_cache_event_parse(event, config)) {
		*type = PERF_TYPE_HW_CACHE;
	} else if (*via && !sw_event_parse(event, &ev)) {
		*type = ev.type;
		*config = ev.config;
	} else {
		return 1;
	}
	if (!sw_core_pmu(sysfs, core, sizeof(core)))
		return sw_err_set(err, -ENODEV,
				  "%s: not available here: no hardware PMU in %s/%s%s%s%s",
				  name, sysfs, SW_PMU_DEVICES, via,
				  *via ? event : "", *via ? ")" : "");
	if (!sw_event_countable(sysfs, *type, *config))
		return sw_err_set(err, -ENODEV,
				  "%s: not available here: the kernel cannot count it on PMU '%s'%s%s%s",
				  name, core, via, *via ? event : "",
				  *via ? ")" : "");
	return 0;
}

/* Levenshtein distance, case-insensitive, of two short names. */
static size_t sw_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, prev, cur, best;
	size_t row[128];

	if (la >= 128 || lb >= 128)
		return (size_t)-1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			cur = row[j];
			best = prev + (tolower((unsigned char)a[i - 1]) !=
				       tolower((unsigned char)b[j - 1]));
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			prev = cur;
		}
	}
	return row[lb];
}

#define SW_CANDIDATES 4

struct sw_cands {
	const char *want;
	size_t limit;
	char name[SW_CANDIDATES][96];
	size_t dist[SW_CANDIDATES];
	int n;
};

/* Offers @name, shown as @shown, to the closest-names list. */
static void sw_cand_offer(struct sw_cands *c, const char *name,
			  const char *shown)
{
	size_t d = sw_distance(c->want, name);
	int i, at;

	if (d > c->limit && (strlen(c->want) < 4 || !strcasestr(name, c->want)))
		return;
	if (d > c->limit)
		d = c->limit + 1;
	for (i = 0; i < c->n; i++)
		if (!strcmp(c->name[i], shown))
			return;
	for (at = c->n; at > 0 && c->dist[at - 1] > d; at--)
		;
	if (at >= SW_CANDIDATES)
		return;
	if (c->n < SW_CANDIDATES)
		c->n++;
	for (i = c->n - 1; i > at; i--) {
		memcpy(c->name[i], c->name[i - 1], sizeof(c->name[i]));
		c->dist[i] = c->dist[i - 1];
	}
	snprintf(c->name[at], sizeof(c->name[at]), "%s", shown);
	c->dist[at] = d;
}

/* A vendor event of libpfm4 to sw_cand_offer(), its unit masks not. */
static int sw_cand_pfm(const struct sw_pfm_event *ev, void *arg)
{
	if (!ev->umask)
		sw_cand_offer(arg, ev->name, ev->name);
	return 0;
}

/* Every known name to sw_cand_offer(). */
static void sw_cands_fill(struct sw_cands *c, const char *sysfs)
{
	char buf[96], **pmus = NULL, **evs = NULL;
	size_t npmus = 0, nevs, i, j;

	if (!sw_pfm_pmus(&pmus, &npmus, NULL))
		for (i = 0; i < npmus; i++)
			sw_pfm_events(pmus[i], sw_cand_pfm, c);
	sw_strv_free(pmus, npmus);
	pmus = NULL;
	npmus = 0;

	for (i = 0; i < sw_generic_events_n; i++)
		sw_cand_offer(c, sw_generic_events[i].name,
			      sw_generic_events[i].name);
	for (i = 0; sw_cache_event_name(i, buf, sizeof(buf)); i++)
		sw_cand_offer(c, buf, buf);
	for (i = 0; i < sw_papi_presets_n; i++)
		sw_cand_offer(c, sw_papi_presets[i].name, sw_papi_presets[i].name);
	if (sw_pmu_names(sysfs, &pmus, &npmus))
		return;
	for (i = 0; i < npmus; i++) {
		evs = NULL;
		nevs = 0;
		if (sw_pmu_dir_names(sysfs, pmus[i], "events", &evs, &nevs))
			continue;
		for (j = 0; j < nevs; j++) {
			snprintf(buf, sizeof(buf), "%s/%s/", pmus[i], evs[j]);
			sw_cand_offer(c, evs[j], buf);
		}
		sw_strv_free(evs, nevs);
	}
	sw_strv_free(pmus, npmus);
}

int sw_event_unknown(const char *sysfs, const char *name, struct sw_err *err)
{
	struct sw_cands c;
	const char *missing;
	char list[512];
	size_t off = 0;
	int i;

	memset(&c, 0, sizeof(c));
	c.want = name;
	c.limit = strlen(name) / 3 > 2 ? strlen(name) / 3 : 2;
	sw_cands_fill(&c, sysfs);
	list[0] = '\0';
	for (i = 0; i < c.n && off < sizeof(list); i++)
		off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%s",
					i ? ", " : "", c.name[i]);
	/* Vendor names were not looked up: say so, with what to install. */
	missing = sw_pfm_missing();
	if (!c.n)
		return sw_err_set(err, -EINVAL,
				  "%s: unknown event (all there are: stopwatch events list)%s%s",
				  name, missing ? "; no vendor event names: " : "",
				  missing ? missing : "");
	return sw_err_set(err, -EINVAL,
			  "%s: unknown event; closest: %s (all there are: stopwatch events list)%s%s",
			  name, list, missing ? "; no vendor event names: " : "",
			  missing ? missing : "");
}

/*
 * The alias of a libpfm4 name: the event and unit masks without the
 * "PMU::", each ':' as '.' (inst_retired:any_p -> inst_retired.any_p),
 * cut to the module's room.
 */
static void sw_pfm_alias(const char *spec, char *alias, size_t len)
{
	const char *s = strstr(spec, "::");
	char *p;

	snprintf(alias, len, "%s", s && s[2] ? s + 2 : spec);
	for (p = alias; *p; p++)
		if (*p == ':')
			*p = '.';
	sw_alias_clean(alias);
	sw_alias_cut(alias, (size_t)sw_alias_room());
}

/*
 * Splits perf's modifier off @spec (modified): "NAME:u" of an item without
 * a PMU, "PMU/TERMS/u" or "PMU/TERMS/:u" of a PMU event.
 */
static int sw_item_modifier(char *spec, bool pmu, uint32_t *excl,
			    struct sw_err *err)
{
	char *cut = NULL, buf[16];
	const char *mod = NULL;
	size_t len;

	*excl = 0;
	if (pmu) {
		cut = strrchr(spec, '/');
		if (!cut || cut == strchr(spec, '/') || !cut[1])
			return 0;	/* no closing '/' yet, or nothing after */
		cut++;
		mod = *cut == ':' ? cut + 1 : cut;
		if (strlen(mod) < sizeof(buf) - 2) {
			snprintf(buf, sizeof(buf), "x:%s", mod);
			if (!sw_event_modifier(buf, &len, excl)) {
				*cut = '\0';
				return 0;
			}
		}
	} else if (sw_event_modifier(spec, &len, excl)) {
		mod = strrchr(spec, ':') + 1;
	} else {
		spec[len] = '\0';
		return 0;
	}
	return sw_err_set(err, -EINVAL,
			  "%s: '%s' is not a modifier stopwatch.ko takes: u (user mode only), k (kernel mode only), uk (both, as without one)",
			  spec, mod);
}

/* A resolved item's alias with its modifier: "LLC-loads_u". */
static void sw_alias_mode(struct sw_pmu_event *ev, uint32_t excl)
{
	if (!excl)
		return;
	sw_alias_cut(ev->alias, SW_PMU_ITEM_MAX - 2);
	strcat(ev->alias, "_");
	strcat(ev->alias, sw_event_modifier_str(excl));
}

/*
 * An item without a PMU: a cache event or PAPI preset, or else a vendor
 * event name libpfm4 knows, becomes a resolved item (0); anything
 * stopwatch.ko's parser takes passes as it is (1).
 */
static int sw_plain_item(const char *sysfs, const char *spec,
			 struct sw_item *it, struct sw_err *err)
{
	struct sw_event_spec ev;
	int ret, ret2;

	ret = sw_named_event_resolve(sysfs, spec, &it->ev.type,
				     &it->ev.config, err);
	if (ret <= 0) {
		if (!ret) {
			it->pmu = true;
			snprintf(it->ev.alias, sizeof(it->ev.alias), "%s", spec);
		}
		return ret;
	}
	ret = sw_event_parse(spec, &ev);
	if (!ret)
		return 1;
	ret2 = sw_pfm_resolve(spec, &it->ev.type, &it->ev.config, NULL, 0,
			      err);
	if (ret2 <= 0) {
		if (!ret2) {
			it->pmu = true;
			sw_pfm_alias(spec, it->ev.alias, sizeof(it->ev.alias));
		}
		return ret2;
	}
	if (ret == -E2BIG)
		return sw_err_set(err, ret,
				  "%s: the name is longer than stopwatch.ko's %d characters (give it an ALIAS=TYPE:CONFIG)",
				  spec, SW_PMU_ITEM_MAX);
	return sw_event_unknown(sysfs, spec, err);
}

/* A passed-on item with its modifier: its name must fit the module's. */
static int sw_passed_on(const struct sw_item *it, struct sw_err *err)
{
	struct sw_event_spec ev;
	char *t = strndup(it->text, it->len);
	int ret;

	if (!t)
		return sw_err_set(err, -ENOMEM, "out of memory");
	ret = sw_event_parse(t, &ev);
	if (ret == -E2BIG)
		sw_err_set(err, ret,
			   "%s: with '_%s' for its modifier the name is longer than stopwatch.ko's %d characters (give it an ALIAS=TYPE:CONFIG:%s)",
			   t, sw_event_modifier_str(it->excl), SW_PMU_ITEM_MAX,
			   sw_event_modifier_str(it->excl));
	free(t);
	return ret == -E2BIG ? ret : 0;
}

int sw_pmu_events_resolve(const char *sysfs, const char *list, char **out,
			  struct sw_err *err)
{
	struct sw_item *it = NULL, *nit;
	size_t n = 0, cap = 0, len, i, j, olen;
	const char *p = list, *s;
	char *spec = NULL;
	FILE *f = NULL;
	bool pmu;
	int ret = 0;

	*out = NULL;
	while ((s = sw_next_item(p, &len, &pmu))) {
		p = s + len;
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			nit = realloc(it, cap * sizeof(*it));
			if (!nit) {
				ret = sw_err_set(err, -ENOMEM, "out of memory");
				goto cleanup;
			}
			it = nit;
		}
		memset(&it[n], 0, sizeof(it[n]));
		it[n].text = s;
		it[n].len = len;
		it[n].pmu = pmu;
		n++;
	}
	for (i = 0; i < n; i++) {
		free(spec);
		spec = strndup(it[i].text, it[i].len);
		if (!spec) {
			ret = sw_err_set(err, -ENOMEM, "out of memory");
			goto cleanup;
		}
		ret = sw_item_modifier(spec, it[i].pmu, &it[i].excl, err);
		if (ret && !it[i].pmu) {
			/* libpfm4's EVENT:UMASK ("inst_retired:any_p"), or a
			 * modifier that is not one */
			struct sw_err e2 = { "" };

			it[i].excl = 0;
			if (!sw_plain_item(sysfs, spec, &it[i], &e2))
				ret = 0;
			if (ret)
				goto cleanup;
		} else if (ret) {
			goto cleanup;
		} else if (!it[i].pmu) {
			ret = sw_plain_item(sysfs, spec, &it[i], err);
			if (ret < 0)
				goto cleanup;
			if (ret) {
				ret = sw_passed_on(&it[i], err);
				if (ret)
					goto cleanup;
				continue;
			}
		} else {
			ret = sw_pmu_event_resolve(sysfs, spec, &it[i].ev, err);
			if (ret)
				goto cleanup;
		}
		sw_alias_mode(&it[i].ev, it[i].excl);
		for (j = 0; j < i; j++) {
			if (it[j].pmu && it[j].ev.type == it[i].ev.type &&
			    it[j].ev.config == it[i].ev.config &&
			    it[j].excl == it[i].excl) {
				ret = sw_err_set(err, -EEXIST,
						 "%.*s and %s are the same event (%" PRIu32 ":0x%" PRIx64 ")",
						 (int)it[j].len, it[j].text, spec,
						 it[i].ev.type, it[i].ev.config);
				goto cleanup;
			}
		}
		sw_alias_unique(it, n, i);
	}
	f = open_memstream(out, &olen);
	if (!f) {
		ret = sw_err_set(err, -ENOMEM, "out of memory");
		goto cleanup;
	}
	for (i = 0; i < n; i++) {
		if (i)
			fputc(',', f);
		if (it[i].pmu)
			fprintf(f, "%s=%" PRIu32 ":0x%" PRIx64 "%s%s",
				it[i].ev.alias, it[i].ev.type, it[i].ev.config,
				it[i].excl ? ":" : "",
				sw_event_modifier_str(it[i].excl));
		else
			fwrite(it[i].text, 1, it[i].len, f);
	}
	if (fclose(f)) {
		free(*out);
		*out = NULL;
		ret = sw_err_set(err, -ENOMEM, "out of memory");
	}
cleanup:
	free(spec);
	free(it);
	return ret;
}

int sw_event_list_add(char **list, const char *item)
{
	char *n;

	if (!*item)
		return -EINVAL;
	if (asprintf(&n, "%s%s%s", *list ? *list : "", *list ? "," : "",
		     item) < 0)
		return -ENOMEM;
	free(*list);
	*list = n;
	return 0;
}

char *sw_event_list_names(const char *list)
{
	char *out = NULL, name[256];
	const char *p = list, *s;
	size_t len, olen;
	bool pmu;
	FILE *f = open_memstream(&out, &olen);

	if (!f)
		return NULL;
	while ((s = sw_next_item(p, &len, &pmu))) {
		sw_item_name(s, len, name, sizeof(name));
		fprintf(f, "%s%s", p == list ? "" : ",", name);
		p = s + len;
	}
	if (fclose(f)) {
		free(out);
		return NULL;
	}
	return out;
}
