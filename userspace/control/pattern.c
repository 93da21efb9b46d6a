// SPDX-License-Identifier: GPL-2.0
/*
 * pattern.c - expand function patterns into probeable kernel functions.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "base/sort.h"
#include "control/debugfs.h"
#include "control/pattern.h"

/* A growing array of malloc()ed strings. */
struct sw_strv {
	char **s;
	size_t n, cap;
};

static int sw_strv_push(struct sw_strv *v, const char *s, size_t len)
{
	char **ns;

	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 64;
		ns = realloc(v->s, v->cap * sizeof(*ns));
		if (!ns)
			return -ENOMEM;
		v->s = ns;
	}
	v->s[v->n] = strndup(s, len);
	if (!v->s[v->n])
		return -ENOMEM;
	v->n++;
	return 0;
}

static void sw_strv_free(struct sw_strv *v)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		free(v->s[i]);
	free(v->s);
	v->s = NULL;
	v->n = v->cap = 0;
}

static int sw_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorts @v and frees the duplicates. */
static void sw_strv_uniq(struct sw_strv *v)
{
	size_t i, j = 0;

	sw_qsort(v->s, v->n, sizeof(*v->s), sw_cmp_str);
	for (i = 0; i < v->n; i++) {
		if (j && !strcmp(v->s[j - 1], v->s[i]))
			free(v->s[i]);
		else
			v->s[j++] = v->s[i];
	}
	v->n = j;
}

static bool sw_strv_has(const struct sw_strv *v, const char *s)
{
	const char *key = s;

	return v->n && bsearch(&key, v->s, v->n, sizeof(*v->s), sw_cmp_str);
}

bool sw_pattern_is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/*
 * One line of available_filter_functions or kallsyms: the name in
 * [*name, *name + *nlen) and the module in [*mod, *mod + *mlen) (0 for
 * vmlinux).  @kallsyms: "ADDR TYPE NAME [MOD]", text symbols only.
 * Return: false for a line to skip.
 */
static bool sw_split_line(const char *line, size_t len, bool kallsyms,
			  const char **name, size_t *nlen, const char **mod,
			  size_t *mlen)
{
	const char *p = line, *end = line + len, *q;

	if (kallsyms) {
		/* Address, then a one-letter type. */
		while (p < end && *p != ' ')
			p++;
		if (end - p < 3 || p[2] != ' ')
			return false;
		if (p[1] != 't' && p[1] != 'T')
			return false;
		p += 3;
	}
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	q = p;
	while (q < end && *q != ' ' && *q != '\t')
		q++;
	if (q == p)
		return false;
	*name = p;
	*nlen = q - p;
	*mod = NULL;
	*mlen = 0;
	p = memchr(q, '[', end - q);
	if (p) {
		q = memchr(p, ']', end - p);
		if (q) {
			*mod = p + 1;
			*mlen = q - p - 1;
		}
	}
	return true;
}

/*
 * A source's lines, split once and sorted by name (then by their order in
 * the file): a pattern that is a plain name is found by halves, a glob is
 * matched against each; a hundred plain names no longer cost a hundred
 * passes over the text.
 */
struct sw_line {
	const char *name, *mod;
	size_t nlen, mlen, idx;
};

struct sw_lines {
	struct sw_line *v;
	size_t n;
};

static int sw_line_cmp(const void *a, const void *b)
{
	const struct sw_line *x = a, *y = b;
	size_t n = x->nlen < y->nlen ? x->nlen : y->nlen;
	int c = memcmp(x->name, y->name, n);

	if (c)
		return c;
	if (x->nlen != y->nlen)
		return x->nlen < y->nlen ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

/* @text's lines (NULL: none) into @l, sorted. */
static int sw_lines_load(const char *text, bool kallsyms, struct sw_lines *l)
{
	const char *line = text, *nl;
	size_t cap = 0;
	struct sw_line e;

	l->v = NULL;
	l->n = 0;
	for (; text && *line; line = nl + 1) {
		nl = strchrnul(line, '\n');
		if (sw_split_line(line, nl - line, kallsyms, &e.name, &e.nlen,
				  &e.mod, &e.mlen)) {
			if (l->n == cap) {
				struct sw_line *nv;

				cap = cap ? 2 * cap : 4096;
				nv = realloc(l->v, cap * sizeof(*nv));
				if (!nv)
					return -ENOMEM;
				l->v = nv;
			}
			e.idx = l->n;
			l->v[l->n++] = e;
		}
		if (!*nl)
			break;
	}
	sw_qsort(l->v, l->n, sizeof(*l->v), sw_line_cmp);
	return 0;
}

/*
 * The lines @glob can match: for a plain name the run of lines of that
 * name, [*from, *to); for a glob, all of them.
 */
static void sw_lines_range(const struct sw_lines *l, const char *glob,
			   size_t *from, size_t *to)
{
	struct sw_line key = { .name = glob, .nlen = strlen(glob) };
	size_t lo;

	*from = 0;
	*to = l->n;
	if (sw_pattern_is_glob(glob))
		return;
	lo = sw_lower_bound(l->v, l->n, sizeof(*l->v), &key, sw_line_cmp);
	*from = lo;
	while (lo < l->n && l->v[lo].nlen == key.nlen &&
	       !memcmp(l->v[lo].name, glob, key.nlen))
		lo++;
	*to = lo;
}

/* One pattern, split into its module (or NULL) and its glob. */
struct sw_pat {
	const char *text;
	char *mod;
	const char *glob;
	size_t nprobe, nall;
};

static bool sw_pat_match(const struct sw_pat *p, const char *name,
			 size_t nlen, const char *mod, size_t mlen)
{
	char buf[512];

	if (p->mod && (!mod || strlen(p->mod) != mlen ||
		       memcmp(p->mod, mod, mlen)))
		return false;
	if (nlen >= sizeof(buf))
		return false;
	memcpy(buf, name, nlen);
	buf[nlen] = '\0';
	return !fnmatch(p->glob, buf, 0);
}

static bool sw_is_self(const struct sw_pattern_src *src, const char *mod,
		       size_t mlen)
{
	return src->self && mod && strlen(src->self) == mlen &&
	       !memcmp(src->self, mod, mlen);
}

/* The blacklist: "0xSTART-0xEND\tname" lines (the last field is the name). */
static int sw_blacklist_load(const char *text, struct sw_strv *bl)
{
	const char *line = text, *nl, *end, *p;
	int ret;

	for (; text && *line; line = nl + 1) {
		nl = strchrnul(line, '\n');
		end = nl;
		while (end > line && (end[-1] == ' ' || end[-1] == '\t' ||
				      end[-1] == '\r'))
			end--;
		p = end;
		while (p > line && p[-1] != ' ' && p[-1] != '\t')
			p--;
		if (p < end) {
			ret = sw_strv_push(bl, p, end - p);
			if (ret)
				return ret;
		}
		if (!*nl)
			break;
	}
	sw_strv_uniq(bl);
	return 0;
}

/*
 * Adds the names of @l's lines that @p matches: to @hit when they are
 * probeable, else to @miss (kallsyms names that are not in @probeable);
 * @kallsyms: @l holds /proc/kallsyms, else available_filter_functions.
 */
static int sw_scan(const struct sw_lines *l, bool kallsyms, struct sw_pat *p,
		   const struct sw_pattern_src *src, const struct sw_strv *bl,
		   const struct sw_strv *probeable, struct sw_strv *hit,
		   struct sw_strv *miss)
{
	size_t i, to;
	char buf[512];
	int ret;

	for (sw_lines_range(l, p->glob, &i, &to); i < to; i++) {
		const struct sw_line *e = &l->v[i];

		if (!sw_pat_match(p, e->name, e->nlen, e->mod, e->mlen))
			continue;
		memcpy(buf, e->name, e->nlen);
		buf[e->nlen] = '\0';
		p->nall++;
		if (!kallsyms && !sw_is_self(src, e->mod, e->mlen) &&
		    !sw_strv_has(bl, buf)) {
			p->nprobe++;
			ret = sw_strv_push(hit, e->name, e->nlen);
		} else if (kallsyms && !sw_strv_has(probeable, buf)) {
			ret = sw_strv_push(miss, e->name, e->nlen);
		} else if (!kallsyms) {
			ret = sw_strv_push(miss, e->name, e->nlen);
		} else {
			ret = 0;
		}
		if (ret)
			return ret;
	}
	return 0;
}

static int sw_pat_init(struct sw_pat *p, const char *text,
		       struct sw_err *err)
{
	const char *colon = strchr(text, ':');

	memset(p, 0, sizeof(*p));
	p->text = text;
	p->glob = text;
	if (colon) {
		p->mod = strndup(text, colon - text);
		if (!p->mod)
			return -ENOMEM;
		p->glob = colon + 1;
		if (!*p->mod || strchr(p->glob, ':'))
			return sw_err_set(err, -EINVAL,
					  "invalid pattern '%s': expected GLOB or MODULE:GLOB",
					  text);
	}
	if (!*p->glob || strpbrk(p->glob, " \t,=@"))
		return sw_err_set(err, -EINVAL,
				  "invalid pattern '%s': expected a function name or glob",
				  text);
	return 0;
}

/* Is @p's exact name a text symbol of kallsyms, not blacklisted, not ours? */
static bool sw_named_ok(const struct sw_pattern_src *src,
			const struct sw_lines *ks, const struct sw_pat *p,
			const struct sw_strv *bl)
{
	size_t i, to;

	if (!src->kallsyms || sw_strv_has(bl, p->glob))
		return false;
	/* The first such line of the file, as its lines are sorted. */
	for (sw_lines_range(ks, p->glob, &i, &to); i < to; i++) {
		const struct sw_line *e = &ks->v[i];

		if (sw_pat_match(p, e->name, e->nlen, e->mod, e->mlen))
			return !sw_is_self(src, e->mod, e->mlen);
	}
	return false;
}

/* "a, b, c and 4 more" of @v into @buf. */
static const char *sw_names(char *buf, size_t size, const struct sw_strv *v)
{
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < v->n && i < SW_PATTERN_SHOW && len < size; i++)
		len += snprintf(buf + len, size - len, "%s%s", i ? ", " : "",
				v->s[i]);
	if (v->n > SW_PATTERN_SHOW && len < size)
		snprintf(buf + len, size - len, " and %zu more",
			 v->n - SW_PATTERN_SHOW);
	return buf;
}

/*
 * The error for pattern @p, which left nothing to probe: what it matched
 * that cannot be probed (its own entries of @miss from @m0 and of @pmiss
 * from @pm0, the lists being append-only while patterns are scanned), or
 * that it matched nothing.
 */
static int sw_pattern_fail(const struct sw_pat *p, const struct sw_strv *miss,
			   size_t m0, const struct sw_strv *pmiss, size_t pm0,
			   struct sw_err *err)
{
	struct sw_strv mine = { 0 };
	char names[256];
	size_t j;
	int ret = 0;

	for (j = m0; !ret && j < miss->n; j++)
		ret = sw_strv_push(&mine, miss->s[j], strlen(miss->s[j]));
	for (j = pm0; !ret && j < pmiss->n; j++)
		ret = sw_strv_push(&mine, pmiss->s[j], strlen(pmiss->s[j]));
	if (ret)
		goto out;
	sw_strv_uniq(&mine);
	if (!mine.n)
		ret = sw_err_set(err, -ENOENT,
				 "'%s' matches no kernel function%s%s",
				 p->text, p->mod ? " of module " : "",
				 p->mod ? p->mod : "");
	else
		ret = sw_err_set(err, -EINVAL,
				 "'%s' matches %zu function%s, none of which can be probed (not traceable, kprobe blacklist or stopwatch's own): %s",
				 p->text, mine.n, mine.n == 1 ? "" : "s",
				 sw_names(names, sizeof(names), &mine));
out:
	sw_strv_free(&mine);
	return ret;
}

int sw_pattern_expand(const char *const *pat, size_t npat,
		      const struct sw_pattern_src *src,
		      struct sw_expansion *out, struct sw_err *err)
{
	struct sw_strv bl = { 0 }, hit = { 0 }, miss = { 0 }, pmiss = { 0 };
	struct sw_strv all = { 0 };
	struct sw_lines av = { 0 }, ks = { 0 };
	struct sw_pat p = { 0 };
	size_t i, j, m0, pm0;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!npat)
		return sw_err_set(err, -EINVAL, "no function pattern given");
	ret = sw_blacklist_load(src->blacklist, &bl);
	if (!ret)
		ret = sw_lines_load(src->avail, false, &av);
	if (!ret)
		ret = sw_lines_load(src->kallsyms, true, &ks);
	if (ret)
		goto cleanup;
	for (i = 0; i < npat; i++) {
		free(p.mod);
		ret = sw_pat_init(&p, pat[i], err);
		if (ret)
			goto cleanup;
		j = hit.n;
		m0 = miss.n;
		pm0 = pmiss.n;
		ret = sw_scan(&av, false, &p, src, &bl, NULL, &hit, &pmiss);
		if (ret)
			goto cleanup;
		/* Everything traceable that matched, for the kallsyms pass. */
		for (; j < hit.n; j++) {
			ret = sw_strv_push(&all, hit.s[j], strlen(hit.s[j]));
			if (ret)
				goto cleanup;
		}
		sw_strv_uniq(&all);
		if (src->kallsyms) {
			j = miss.n;
			ret = sw_scan(&ks, true, &p, src, &bl, &all, NULL,
				      &miss);
			if (ret)
				goto cleanup;
			p.nall += miss.n - j;
		}
		/*
		 * A function named exactly, not a glob, need not be
		 * traceable: kallsyms has it and the blacklist does not
		 * (x86's __x64_sys_* wrappers); stopwatch.ko decides.
		 */
		if (!p.nprobe && !sw_pattern_is_glob(p.glob) &&
		    sw_named_ok(src, &ks, &p, &bl)) {
			ret = sw_strv_push(&hit, p.glob, strlen(p.glob));
			if (ret)
				goto cleanup;
			ret = sw_strv_push(&all, p.glob, strlen(p.glob));
			if (ret)
				goto cleanup;
			sw_strv_uniq(&all);
			p.nprobe = 1;
		}
		if (!p.nprobe) {
			ret = sw_pattern_fail(&p, &miss, m0, &pmiss, pm0, err);
			goto cleanup;
		}
	}
	for (j = 0; j < pmiss.n; j++) {
		ret = sw_strv_push(&miss, pmiss.s[j], strlen(pmiss.s[j]));
		if (ret)
			goto cleanup;
	}
	sw_strv_uniq(&hit);
	sw_strv_uniq(&miss);
	/* A name skipped under one pattern may be probeable under another. */
	for (i = j = 0; i < miss.n; i++) {
		if (sw_strv_has(&hit, miss.s[i]))
			free(miss.s[i]);
		else
			miss.s[j++] = miss.s[i];
	}
	miss.n = j;
	out->name = hit.s;
	out->n = hit.n;
	out->skipped = miss.s;
	out->nskipped = miss.n;
	hit.s = miss.s = NULL;
	hit.n = miss.n = 0;
cleanup:
	free(p.mod);
	free(av.v);
	free(ks.v);
	sw_strv_free(&bl);
	sw_strv_free(&hit);
	sw_strv_free(&miss);
	sw_strv_free(&pmiss);
	sw_strv_free(&all);
	return ret;
}

void sw_expansion_free(struct sw_expansion *e)
{
	size_t i;

	for (i = 0; i < e->n; i++) {
		free(e->name[i]);
		if (e->extra)
			free(e->extra[i]);
	}
	free(e->extra);
	for (i = 0; i < e->nskipped; i++)
		free(e->skipped[i]);
	free(e->name);
	free(e->skipped);
	memset(e, 0, sizeof(*e));
}

void sw_pattern_skipped_print(FILE *f, const char *cmd,
			      const struct sw_expansion *e)
{
	struct sw_strv v = { e->skipped, e->nskipped, e->nskipped };
	char names[256];

	if (!e->nskipped)
		return;
	fprintf(f, "stopwatch %s: %zu matching function%s cannot be probed (not traceable, kprobe blacklist or stopwatch's own), skipped: %s\n",
		cmd, e->nskipped, e->nskipped == 1 ? "" : "s",
		sw_names(names, sizeof(names), &v));
}

static int sw_read_path(const char *path, char **buf)
{
	char *dir = strdup(path), *slash;
	int ret;

	if (!dir)
		return -ENOMEM;
	slash = strrchr(dir, '/');
	*slash = '\0';
	ret = sw_debugfs_read(dir, slash + 1, buf, NULL, NULL);
	free(dir);
	return ret;
}

int sw_pattern_read_system(struct sw_pattern_src *src, struct sw_err *err)
{
	static const char *const dirs[] = { "/sys/kernel/tracing",
					    "/sys/kernel/debug/tracing" };
	const char *env = getenv("STOPWATCH_TRACING");
	char *path = NULL, *text = NULL;
	size_t i;
	int ret = -ENOENT;

	memset(src, 0, sizeof(*src));
	src->self = "stopwatch";
	if (env && *env) {
		if (asprintf(&path, "%s/available_filter_functions", env) < 0)
			return -ENOMEM;
		ret = sw_read_path(path, &text);
		free(path);
	} else {
		for (i = 0; i < 2 && ret; i++)
			ret = sw_read_path(i ? "/sys/kernel/debug/tracing/available_filter_functions"
					     : "/sys/kernel/tracing/available_filter_functions",
					   &text);
		if (ret == -ENOENT &&
		    !mount("tracefs", dirs[0], "tracefs", 0, NULL))
			ret = sw_read_path("/sys/kernel/tracing/available_filter_functions",
					   &text);
	}
	if (ret) {
		const char *level = ret == -EPERM ? sw_lockdown_level() : NULL;

		return sw_err_set(err, ret,
				  "cannot read the kernel's traceable functions (available_filter_functions under %s or %s): %s%s",
				  env && *env ? env : dirs[0], dirs[1],
				  strerror(-ret),
				  level && !strcmp(level, "confidentiality") ?
				  "; kernel lockdown is 'confidentiality', which refuses tracefs: name the functions without patterns" :
				  "");
	}
	src->avail = text;
	text = NULL;
	if (env && *env) {
		if (asprintf(&path, "%s/blacklist", env) >= 0) {
			if (!sw_read_path(path, &text))
				src->blacklist = text;
			free(path);
		}
		if (asprintf(&src->kallsyms_path, "%s/kallsyms", env) < 0)
			src->kallsyms_path = NULL;
		return 0;
	}
	if (!sw_read_path("/sys/kernel/debug/kprobes/blacklist", &text))
		src->blacklist = text;
	src->kallsyms_path = strdup("/proc/kallsyms");
	return 0;
}

void sw_pattern_read_kallsyms(struct sw_pattern_src *src)
{
	char *text = NULL;

	if (src->kallsyms || !src->kallsyms_path)
		return;
	if (!sw_read_path(src->kallsyms_path, &text))
		src->kallsyms = text;
}

/*
 * Is plain @name a line of available_filter_functions that is not
 * stopwatch's own?  Each line where it starts is split as the expansion
 * splits them (sw_split_line()).
 */
static bool sw_avail_has(const struct sw_pattern_src *src, const char *name)
{
	size_t len = strlen(name), nlen, mlen;
	const char *p = src->avail, *n, *m;

	while (p && (p = strstr(p, name))) {
		if ((p == src->avail || p[-1] == '\n') &&
		    sw_split_line(p, strchrnul(p, '\n') - p, false, &n, &nlen,
				  &m, &mlen) &&
		    nlen == len && !sw_is_self(src, m, mlen))
			return true;
		p++;
	}
	return false;
}

/*
 * Names looked for one by one in available_filter_functions before one
 * read of kallsyms is the cheaper: each is a search of the whole file.
 */
#define SW_PATTERN_LAZY_MAX 16

bool sw_pattern_needs_kallsyms(const char *const *pat, size_t npat,
			       const struct sw_pattern_src *src)
{
	struct sw_strv bl = { 0 };
	bool need = npat > SW_PATTERN_LAZY_MAX ||
		    sw_blacklist_load(src->blacklist, &bl);
	size_t i;

	for (i = 0; !need && i < npat; i++) {
		const char *n = pat[i];

		need = strchr(n, ':') || sw_pattern_is_glob(n) ||
		       strlen(n) >= 512 || sw_strv_has(&bl, n) ||
		       !sw_avail_has(src, n);
	}
	sw_strv_free(&bl);
	return need;
}

void sw_pattern_src_free(struct sw_pattern_src *src)
{
	free((char *)src->avail);
	free((char *)src->blacklist);
	free((char *)src->kallsyms);
	free(src->kallsyms_path);
	memset(src, 0, sizeof(*src));
}
