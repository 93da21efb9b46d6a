// SPDX-License-Identifier: GPL-2.0
/*
 * util/paths.c - stopwatch.ko's call paths (the debugfs paths file): the
 * parser and the writers of util/paths.h.
 *
 * The file (format 1):
 *
 *   paths_format 1
 *   enabled 1
 *   nodes N
 *   max_nodes M
 *   probe_names K               (names kept for the paths)
 *   dropped_full D1
 *   dropped_no_entry D2
 *   dropped_stale D3
 *   events E1 E2 ...            ("events -" without events)
 *   path calls total_ns self_ns [E_calls E_total E_self ...]
 *   a;b;c 10 123456 23456 [...]
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "control/debugfs.h"
#include "output/flamegraph.h"
#include "output/paths.h"
#include "output/pprof.h"
#include "base/units.h"
#include "base/sort.h"

static int sw_path_cmp(const void *x, const void *y)
{
	return strcmp(((const struct sw_path *)x)->path,
		      ((const struct sw_path *)y)->path);
}

/* One "key value" line of the head into @p; -EINVAL if unknown. */
static int sw_paths_head(struct sw_paths *p, const char *key, uint64_t v)
{
	static const struct {
		const char *key;
		size_t off;
	} k[] = {
		{ "nodes", offsetof(struct sw_paths, nodes) },
		{ "max_nodes", offsetof(struct sw_paths, max_nodes) },
		{ "dropped_full", offsetof(struct sw_paths, dropped_full) },
		{ "dropped_no_entry", offsetof(struct sw_paths, dropped_no_entry) },
		{ "dropped_stale", offsetof(struct sw_paths, dropped_stale) },
	};
	size_t i;

	if (!strcmp(key, "enabled")) {
		p->enabled = v != 0;
		return 0;
	}
	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		if (!strcmp(key, k[i].key)) {
			*(uint64_t *)((char *)p + k[i].off) = v;
			return 0;
		}
	}
	return -EINVAL;
}

static int sw_paths_events(struct sw_paths *p, char *rest, int lineno,
			   struct sw_err *err)
{
	char *save = NULL, *tok;

	p->nev = 0;
	for (tok = strtok_r(rest, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		if (!strcmp(tok, "-"))
			continue;
		if (p->nev == SW_MAX_EVENTS ||
		    strlen(tok) >= SW_EVENT_NAME_LEN)
			return sw_err_set(err, -EINVAL,
					  "paths line %d: too many events or a name too long ('%s')",
					  lineno, tok);
		strcpy(p->ev_names[p->nev++], tok);
	}
	return 0;
}

/* A row: PATH calls total self [3 per event]. */
static int sw_paths_row(struct sw_paths *p, char *line, int lineno,
			size_t *cap, struct sw_err *err)
{
	char *save = NULL, *tok = strtok_r(line, " ", &save), *end;
	struct sw_path *r;
	uint64_t v[3 + 3 * SW_MAX_EVENTS];
	uint32_t i, n = 3 + 3 * p->nev;
	const char *c;

	if (!tok)
		return 0;
	for (i = 0; i < n; i++) {
		char *f = strtok_r(NULL, " ", &save);

		if (!f)
			return sw_err_set(err, -EINVAL,
					  "paths line %d: %u values expected after the path '%s', found %u",
					  lineno, n, tok, i);
		errno = 0;
		v[i] = strtoull(f, &end, 10);
		if (errno || *end || end == f)
			return sw_err_set(err, -EINVAL,
					  "paths line %d: '%s' is not a count",
					  lineno, f);
	}
	if (strtok_r(NULL, " ", &save))
		return sw_err_set(err, -EINVAL,
				  "paths line %d: more than %u values after '%s'",
				  lineno, n, tok);
	if (p->n == *cap) {
		size_t nc = *cap ? 2 * *cap : 64;
		struct sw_path *np = realloc(p->path, nc * sizeof(*np));

		if (!np)
			return -ENOMEM;
		p->path = np;
		*cap = nc;
	}
	r = &p->path[p->n];
	memset(r, 0, sizeof(*r));
	r->path = strdup(tok);
	if (!r->path)
		return -ENOMEM;
	p->n++;
	r->depth = 1;
	for (c = tok; *c; c++)
		r->depth += *c == ';';
	r->calls = v[0];
	r->total_ns = v[1];
	r->self_ns = v[2];
	memcpy(r->ev, v + 3, 3 * p->nev * sizeof(uint64_t));
	return 0;
}

/**
 * sw_paths_parse() - parse the text of the paths file.
 * @text: the file, NUL-terminated (modified: split into lines)
 * @p:    output; free with sw_paths_free() (also after a failure)
 * @err:  message naming the line on failure
 *
 * Return: 0, -EINVAL (not format 1, or a bad line) or -ENOMEM.
 */
int sw_paths_parse(const char *text, struct sw_paths *p, struct sw_err *err)
{
	char *copy = strdup(text), *line, *save = NULL;
	bool head = true, fmt = false;
	int lineno = 0, ret = 0;
	size_t cap = 0;

	memset(p, 0, sizeof(*p));
	if (!copy)
		return -ENOMEM;
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char key[32];
		uint64_t v;
		int used = 0;

		lineno++;
		if (!head) {
			ret = sw_paths_row(p, line, lineno, &cap, err);
			if (ret)
				break;
			continue;
		}
		if (!strncmp(line, "path ", 5)) {
			head = false;
			continue;
		}
		if (!strncmp(line, "events ", 7)) {
			ret = sw_paths_events(p, line + 7, lineno, err);
			if (ret)
				break;
			continue;
		}
		if (sscanf(line, "%31s %" SCNu64 "%n", key, &v, &used) != 2 ||
		    line[used]) {
			ret = sw_err_set(err, -EINVAL,
					 "paths line %d: '%.60s' is not 'KEY VALUE'",
					 lineno, line);
			break;
		}
		if (!strcmp(key, "paths_format")) {
			if (v != 1) {
				ret = sw_err_set(err, -EINVAL,
						 "paths format %" PRIu64 " is not 1: a newer stopwatch.ko?",
						 v);
				break;
			}
			fmt = true;
			continue;
		}
		/* Unknown head lines are newer additions: skipped. */
		sw_paths_head(p, key, v);
	}
	free(copy);
	if (!ret && (!fmt || head))
		ret = sw_err_set(err, -EINVAL,
				 "not a paths file (no paths_format line or no header)");
	if (!ret)
		sw_qsort(p->path, p->n, sizeof(*p->path), sw_path_cmp);
	return ret;
}

/**
 * sw_paths_load() - read and parse <dir>/paths.
 * @dir: the stopwatch debugfs directory
 * @p:   output; free with sw_paths_free()
 * @err: message on failure
 *
 * Return: 0 or a negative errno (-ENOENT: a module without call paths).
 */
int sw_paths_load(const char *dir, struct sw_paths *p, struct sw_err *err)
{
	char *buf = NULL;
	int ret;

	memset(p, 0, sizeof(*p));
	ret = sw_debugfs_read(dir, "paths", &buf, NULL, err);
	if (ret == -ENOENT)
		return sw_err_set(err, ret,
				  "%s/paths: no such file: this stopwatch.ko keeps no call paths",
				  dir);
	if (ret)
		return ret;
	ret = sw_paths_parse(buf, p, err);
	free(buf);
	return ret;
}

/** sw_paths_free() - free the nodes of @p. */
void sw_paths_free(struct sw_paths *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		free(p->path[i].path);
	free(p->path);
	memset(p, 0, sizeof(*p));
}

/** sw_paths_dropped() - calls on no path, all causes. */
uint64_t sw_paths_dropped(const struct sw_paths *p)
{
	return p->dropped_full + p->dropped_no_entry + p->dropped_stale;
}

/* ---- the tree ---------------------------------------------------------- */

/* The index of the node whose path is @path's first @len bytes, or -1. */
static long sw_paths_find(const struct sw_paths *p, const char *path,
			  size_t len)
{
	size_t lo = 0, hi = p->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strncmp(p->path[mid].path, path, len);

		if (!c && p->path[mid].path[len])
			c = 1;
		if (!c)
			return (long)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* The parent of each node (-1: a root), and the root of each. */
static int sw_paths_links(const struct sw_paths *p, long **parent,
			  long **root)
{
	size_t i;

	*parent = calloc(p->n + 1, sizeof(**parent));
	*root = calloc(p->n + 1, sizeof(**root));
	if (!*parent || !*root)
		return -ENOMEM;
	/* Sorted by path: a parent before its children. */
	for (i = 0; i < p->n; i++) {
		const char *semi = strrchr(p->path[i].path, ';');

		(*parent)[i] = semi ? sw_paths_find(p, p->path[i].path,
						    (size_t)(semi - p->path[i].path)) : -1;
		(*root)[i] = (*parent)[i] < 0 ? (long)i : -1;
	}
	for (i = 0; i < p->n; i++) {
		long r = (long)i;
		int guard = 0;

		while ((*parent)[r] >= 0 && guard++ < 4096)
			r = (*parent)[r];
		(*root)[i] = r;
	}
	return 0;
}

struct sw_paths_sort {
	const struct sw_paths *p;
	long *parent;
};

/* Children after their parent; siblings heaviest (total) first. */
static void sw_paths_order(const struct sw_paths *p, const long *parent,
			   long node, size_t *out, size_t *n)
{
	size_t i, j, k = 0, *kids = NULL;

	if (node >= 0)
		out[(*n)++] = (size_t)node;
	for (i = 0; i < p->n; i++)
		if (parent[i] == node)
			k++;
	if (!k)
		return;
	kids = malloc(k * sizeof(*kids));
	if (!kids)
		return;
	for (i = 0, j = 0; i < p->n; i++)
		if (parent[i] == node)
			kids[j++] = i;
	for (i = 1; i < k; i++) {
		size_t x = kids[i];

		for (j = i; j > 0 && (p->path[kids[j - 1]].total_ns <
					  p->path[x].total_ns ||
				      (p->path[kids[j - 1]].total_ns ==
					       p->path[x].total_ns &&
				       kids[j - 1] > x)); j--)
			kids[j] = kids[j - 1];
		kids[j] = x;
	}
	for (i = 0; i < k; i++)
		sw_paths_order(p, parent, (long)kids[i], out, n);
	free(kids);
}

static const char *sw_paths_ns(char *buf, uint64_t ns, bool human)
{
	if (human)
		return sw_fmt_human_ns(buf, ns);
	snprintf(buf, SW_UNITS_LEN, "%" PRIu64, ns);
	return buf;
}

/**
 * sw_paths_print_tree() - the trie, indented: per node its calls, total
 * and self time, the average total per call and its share of its root's
 * total; with events, each event's total and self counts.
 * @f: output
 * @p: the paths
 * @o: options
 *
 * Return: 0, -ENOMEM or -EIO.
 */
int sw_paths_print_tree(FILE *f, const struct sw_paths *p,
			const struct sw_paths_opts *o)
{
	char b1[SW_UNITS_LEN], b2[SW_UNITS_LEN], b3[SW_UNITS_LEN];
	long *parent = NULL, *root = NULL;
	size_t *order = NULL, n = 0, i;
	uint32_t e;
	int ret;

	ret = sw_paths_links(p, &parent, &root);
	if (ret)
		goto cleanup;
	order = calloc(p->n + 1, sizeof(*order));
	if (!order) {
		ret = -ENOMEM;
		goto cleanup;
	}
	sw_paths_order(p, parent, -1, order, &n);
	if (n != p->n) {
		ret = -ENOMEM;
		goto cleanup;
	}
	fprintf(f, "%12s %14s %14s %12s %7s", "calls", "total", "self", "avg",
		"share");
	for (e = 0; e < p->nev; e++)
		fprintf(f, " %14.14s %14.14s", p->ev_names[e], "self");
	fputs("  path\n", f);
	for (i = 0; i < n; i++) {
		const struct sw_path *r = &p->path[order[i]];
		const struct sw_path *rt = &p->path[root[order[i]]];
		const char *name = strrchr(r->path, ';');
		double share = rt->total_ns ?
			100.0 * (double)r->total_ns / (double)rt->total_ns : 0;

		fprintf(f, "%12" PRIu64 " %14s %14s %12s %6.2f%%", r->calls,
			sw_paths_ns(b1, r->total_ns, o->human),
			sw_paths_ns(b2, r->self_ns, o->human),
			sw_paths_ns(b3, r->calls ? r->total_ns / r->calls : 0,
				    o->human), share);
		for (e = 0; e < p->nev; e++) {
			if (!r->ev[3 * e])
				fprintf(f, " %14s %14s", "-", "-");
			else
				fprintf(f, " %14" PRIu64 " %14" PRIu64,
					r->ev[3 * e + 1], r->ev[3 * e + 2]);
		}
		fprintf(f, "  %*s%s\n", 2 * (int)(r->depth - 1), "",
			name ? name + 1 : r->path);
	}
	ret = ferror(f) ? -EIO : 0;
cleanup:
	free(parent);
	free(root);
	free(order);
	return ret;
}

/**
 * sw_paths_print_folded() - one line per path with self time: "a;b;c NS",
 * the input of flamegraph.pl and speedscope.  Lines sum to the roots'
 * total time.
 * @f: output
 * @p: the paths
 *
 * Return: 0 or -EIO.
 */
int sw_paths_print_folded(FILE *f, const struct sw_paths *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (p->path[i].self_ns)
			fprintf(f, "%s %" PRIu64 "\n", p->path[i].path,
				p->path[i].self_ns);
	return ferror(f) ? -EIO : 0;
}

/**
 * sw_paths_write_svg() - a flame graph of self time: each box as wide as
 * the total time of its path.
 * @f:     output
 * @p:     the paths
 * @title: the heading
 *
 * Return: 0, -ENOMEM or -EIO.
 */
int sw_paths_write_svg(FILE *f, const struct sw_paths *p, const char *title)
{
	const struct sw_flame_opts o = {
		.title = title,
		.subtitle = "self time of probed functions per call path (stopwatch)",
		.width = 1200,
		.unit = "ns",
	};
	const char **stacks = calloc(p->n + 1, sizeof(*stacks));
	uint64_t *w = calloc(p->n + 1, sizeof(*w));
	size_t i;
	int ret = -ENOMEM;

	if (!stacks || !w)
		goto cleanup;
	for (i = 0; i < p->n; i++) {
		stacks[i] = p->path[i].path;
		w[i] = p->path[i].self_ns;
	}
	ret = sw_write_flamegraph_folded(f, stacks, w, p->n, &o);
cleanup:
	free(stacks);
	free(w);
	return ret;
}

/**
 * sw_paths_pprof() - the paths as a pprof profile: one sample per path
 * with its calls, total and self time (self shown by default).
 * @p:   the paths
 * @out: malloc()ed serialized Profile message (not compressed)
 * @len: its length
 *
 * Return: 0 or -ENOMEM.
 */
int sw_paths_pprof(const struct sw_paths *p, uint8_t **out, size_t *len)
{
	static const char *const types[] = { "calls", "total", "self" };
	static const char *const units[] = { "count", "nanoseconds",
					     "nanoseconds" };
	const struct sw_pprof_folded info = {
		.types = types,
		.units = units,
		.ntypes = 3,
		.deftype = 2,
		.comment = "stopwatch call paths: wall time of probed functions",
	};
	const char **stacks = calloc(p->n + 1, sizeof(*stacks));
	int64_t *v = calloc(3 * p->n + 1, sizeof(*v));
	size_t i;
	int ret = -ENOMEM;

	if (!stacks || !v)
		goto cleanup;
	for (i = 0; i < p->n; i++) {
		stacks[i] = p->path[i].path;
		v[3 * i] = (int64_t)p->path[i].calls;
		v[3 * i + 1] = (int64_t)p->path[i].total_ns;
		v[3 * i + 2] = (int64_t)p->path[i].self_ns;
	}
	ret = sw_pprof_encode_folded(stacks, v, p->n, &info, out, len);
cleanup:
	free(stacks);
	free(v);
	return ret;
}
