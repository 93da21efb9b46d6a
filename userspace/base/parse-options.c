// SPDX-License-Identifier: GPL-2.0
/*
 * parse-options.c - options parsed and documented from one table, through
 * getopt_long(3).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse-options.h"
#include "base/table.h"

/* Where --help starts the option texts; longer option names push it on. */
#define SW_HELP_COLUMN 28
/* getopt_long's value for long-only option i. */
#define SW_LONG_ONLY 256

static size_t sw_opts_count(const struct sw_option *opts)
{
	size_t n = 0;

	while (opts[n].type != SW_OPT_TYPE_END)
		n++;
	return n;
}

/* "  -p, --probe NAME" into @buf; returns its length. */
static int sw_opt_synopsis(char *buf, size_t len, const struct sw_option *o)
{
	return snprintf(buf, len, "  %c%c%s%s%s%s%s",
			o->short_name ? '-' : ' ',
			o->short_name ? o->short_name : ' ',
			o->short_name && o->long_name ? ", " : "  ",
			o->long_name ? "--" : "", o->long_name ? o->long_name : "",
			o->argh ? " " : "", o->argh ? o->argh : "");
}

/* @help, every line after the first indented to @col; then the default. */
static void sw_print_help_text(FILE *f, const char *help, int col,
			       const char *def)
{
	const char *nl;

	for (; (nl = strchr(help, '\n')); help = nl + 1)
		fprintf(f, "%.*s\n%*s", (int)(nl - help), help, col, "");
	if (def)
		fprintf(f, "%s (default %s)\n", help, def);
	else
		fprintf(f, "%s\n", help);
}

static void sw_print_option(FILE *f, const struct sw_option *o)
{
	char syn[128];
	int n = sw_opt_synopsis(syn, sizeof(syn), o);

	if (n + 2 > SW_HELP_COLUMN)
		fprintf(f, "%s ", syn);
	else
		fprintf(f, "%-*s", SW_HELP_COLUMN, syn);
	sw_print_help_text(f, o->help, n + 2 > SW_HELP_COLUMN ? n + 1 :
							      SW_HELP_COLUMN,
			   o->argh ? o->def : NULL);
}

void sw_usage_print(FILE *f, const struct sw_cmd_doc *doc,
		    const struct sw_option *opts)
{
	static const struct sw_option help = SW_OPT_BOOL('h', "help", NULL,
							 "this help");
	size_t i;

	fprintf(f, "usage: %s\n", doc->usage);
	if (doc->about)
		fprintf(f, "\n%s", doc->about);
	if (opts[0].type != SW_OPT_TYPE_GROUP)
		fputs("\nOptions:\n", f);
	else
		fputc('\n', f);
	for (i = 0; opts[i].type != SW_OPT_TYPE_END; i++) {
		if (opts[i].type == SW_OPT_TYPE_GROUP)
			fprintf(f, "%s\n", opts[i].help);
		else if (opts[i].help)
			sw_print_option(f, &opts[i]);
	}
	sw_print_option(f, &help);
	if (doc->examples)
		fprintf(f, "\nExamples:\n%s", doc->examples);
}

static int sw_opt_invalid(const struct sw_cmd_doc *doc,
			  const struct sw_option *o, const char *arg)
{
	fprintf(stderr, "stopwatch %s: invalid --%s '%s': expected %s\n",
		doc->name, o->long_name, arg, o->want);
	return -EINVAL;
}

/* Stores the value of option @o given as @arg (NULL without argument). */
static int sw_opt_store(const struct sw_cmd_doc *doc,
			const struct sw_option *o, const char *arg)
{
	uint64_t u;
	double d;
	char *end;
	int ret;

	switch (o->type) {
	case SW_OPT_TYPE_BOOL:
		*(bool *)o->value = true;
		return 0;
	case SW_OPT_TYPE_SET:
		*(const char **)o->value = o->str;
		return 0;
	case SW_OPT_TYPE_STRING:
		if (o->nonempty && !*arg)
			return sw_opt_invalid(doc, o, arg);
		*(const char **)o->value = arg;
		return 0;
	case SW_OPT_TYPE_U64:
		if (sw_parse_u64(arg, &u) || u < o->umin || u > o->umax)
			return sw_opt_invalid(doc, o, arg);
		*(uint64_t *)o->value = u;
		return 0;
	case SW_OPT_TYPE_DOUBLE:
		d = strtod(arg, &end);
		if (end == arg || *end || !isfinite(d) || d < o->dmin ||
		    d > o->dmax)
			return sw_opt_invalid(doc, o, arg);
		*(double *)o->value = d;
		return 0;
	case SW_OPT_TYPE_CALLBACK:
		ret = o->cb(o, arg);
		if (ret == -EINVAL && o->want)
			return sw_opt_invalid(doc, o, arg);
		if (ret == -ENOMEM)
			fprintf(stderr, "stopwatch %s: out of memory\n",
				doc->name);
		return ret;
	default:
		return -EINVAL;
	}
}

/* getopt_long's tables for @opts (and -h/--help), malloc()ed. */
static int sw_getopt_tables(const struct sw_cmd_doc *doc,
			    const struct sw_option *opts, size_t n,
			    struct option **longs, char **shorts)
{
	struct option *lo = calloc(n + 2, sizeof(*lo));
	char *so = malloc(3 * n + 5), *p;
	size_t i, k = 0;

	if (!lo || !so) {
		free(lo);
		free(so);
		return -ENOMEM;
	}
	p = so;
	if (doc->stop_at_command)
		*p++ = '+';
	*p++ = ':';
	*p++ = 'h';
	for (i = 0; i < n; i++) {
		const struct sw_option *o = &opts[i];
		int has_arg = o->argh ? required_argument : no_argument;

		if (o->type == SW_OPT_TYPE_GROUP)
			continue;
		if (o->short_name) {
			*p++ = (char)o->short_name;
			if (o->argh)
				*p++ = ':';
		}
		if (o->long_name)
			lo[k++] = (struct option){
				o->long_name, has_arg, NULL,
				o->short_name ? o->short_name :
						SW_LONG_ONLY + (int)i
			};
	}
	*p = '\0';
	lo[k] = (struct option){ "help", no_argument, NULL, 'h' };
	*longs = lo;
	*shorts = so;
	return 0;
}

static const struct sw_option *sw_opt_find(const struct sw_option *opts,
					   size_t n, int c)
{
	size_t i;

	if (c >= SW_LONG_ONLY)
		return (size_t)(c - SW_LONG_ONLY) < n ?
			&opts[c - SW_LONG_ONLY] : NULL;
	for (i = 0; i < n; i++)
		if (opts[i].type != SW_OPT_TYPE_GROUP &&
		    opts[i].short_name == c)
			return &opts[i];
	return NULL;
}

/* A usage error "<pre>'<arg>'<post>", then the help. */
static int sw_usage_error(const struct sw_cmd_doc *doc,
			  const struct sw_option *opts, const char *pre,
			  const char *arg, const char *post)
{
	fprintf(stderr, "stopwatch %s: %s'%s'%s\n\n", doc->name, pre, arg,
		post);
	sw_usage_print(stderr, doc, opts);
	return -EINVAL;
}

int sw_parse_options(int argc, char **argv, const struct sw_cmd_doc *doc,
		     const struct sw_option *opts)
{
	size_t n = sw_opts_count(opts);
	const struct sw_option *o;
	struct option *longs;
	char *shorts;
	int c, ret;

	ret = sw_getopt_tables(doc, opts, n, &longs, &shorts);
	if (ret) {
		fprintf(stderr, "stopwatch %s: out of memory\n", doc->name);
		return ret;
	}
	/* The defaults, each checked as an argument would be. */
	for (o = opts; o->type != SW_OPT_TYPE_END; o++) {
		if (!o->def || !o->argh)
			continue;
		ret = sw_opt_store(doc, o, o->def);
		if (ret)
			goto cleanup;
	}
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		if (c == 'h') {
			sw_usage_print(stdout, doc, opts);
			ret = 0;
			goto cleanup;
		}
		if (c == ':') {
			ret = sw_usage_error(doc, opts, "option ",
					     argv[optind - 1], " needs a value");
			goto cleanup;
		}
		o = c == '?' ? NULL : sw_opt_find(opts, n, c);
		if (!o) {
			ret = sw_usage_error(doc, opts, "unknown option ",
					     argv[optind - 1], "");
			goto cleanup;
		}
		ret = sw_opt_store(doc, o, o->argh ? optarg : NULL);
		if (ret)
			goto cleanup;
	}
	ret = optind;
	if (doc->no_args && optind < argc) {
		fprintf(stderr, "stopwatch %s: unexpected argument '%s' (%s)\n",
			doc->name, argv[optind], doc->no_args);
		ret = -EINVAL;
	}
cleanup:
	free(longs);
	free(shorts);
	return ret;
}
