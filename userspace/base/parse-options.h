/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse-options.h - a command's options, declared once in a table that
 * drives both the parsing and the --help text (after perf's
 * parse-options and libbpf-tools' argp tables).
 *
 *	struct sw_stat_args a = { 0 };
 *	const struct sw_option opts[] = {
 *		SW_OPT_BOOL(0, "no-hist", &a.no_hist, "no histograms"),
 *		SW_OPT_U64('n', "count", &a.count, "N", "stop after N prints",
 *			   1, UINT64_MAX, "a whole number of prints, at least 1"),
 *		SW_OPT_END(),
 *	};
 *	n = sw_parse_options(argc, argv, &stat_doc, opts);
 *
 * -h/--help is always there.  Values are checked as they are parsed; a bad
 * one is reported as "stopwatch CMD: invalid --NAME 'VALUE': expected WANT".
 * An option's default is given in the table too, as an argument:
 *
 *		SW_OPT_U64(0, "paths", &a.paths, "N", "paths listed", 0,
 *			   UINT64_MAX, "a whole number", SW_DEFAULT("10")),
 *
 * is stored (and checked) before the command line is parsed, and --help
 * says "paths listed (default 10)": the text cannot drift from the value.
 */
#ifndef _SW_UTIL_PARSE_OPTIONS_H
#define _SW_UTIL_PARSE_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum sw_opt_type {
	SW_OPT_TYPE_END,
	SW_OPT_TYPE_GROUP,	/* a heading in --help */
	SW_OPT_TYPE_BOOL,	/* no argument: *(bool *)value = true */
	SW_OPT_TYPE_SET,	/* no argument: *(const char **)value = str */
	SW_OPT_TYPE_STRING,	/* *(const char **)value = the argument */
	SW_OPT_TYPE_U64,	/* *(uint64_t *)value, in [umin, umax] */
	SW_OPT_TYPE_DOUBLE,	/* *(double *)value, finite, in [dmin, dmax] */
	SW_OPT_TYPE_CALLBACK,	/* cb(opt, argument) */
};

struct sw_option;

/*
 * Returns 0, or a negative errno: -EINVAL is reported with the option's
 * @want when it has one (else the callback said why), -ENOMEM as such.
 */
typedef int (*sw_opt_cb)(const struct sw_option *opt, const char *arg);

/**
 * struct sw_option - one option.
 * @type:       what it stores
 * @short_name: the letter, or 0
 * @long_name:  the long name without "--", or NULL
 * @value:      where the value goes (the callback's context for CALLBACK)
 * @argh:       the argument's name in --help; NULL: takes no argument
 * @help:       the --help text; '\n' starts another line; NULL hides the
 *              option (an alias)
 * @want:       what a valid value is, for the error message
 * @str:        the string SET stores
 * @umin, @umax: U64 range
 * @dmin, @dmax: DOUBLE range
 * @nonempty:   STRING: the empty string is invalid
 * @cb:         CALLBACK's function
 * @def:        the default, as an argument: stored as one before parsing
 *              (a CALLBACK's must replace, not add), said in --help
 */
struct sw_option {
	enum sw_opt_type type;
	int short_name;
	const char *long_name;
	void *value;
	const char *argh;
	const char *help;
	const char *want;
	const char *str;
	uint64_t umin, umax;
	double dmin, dmax;
	bool nonempty;
	sw_opt_cb cb;
	const char *def;
};

/* The last argument of an option that takes a value: its default. */
#define SW_DEFAULT(d) .def = (d)

#define SW_OPT_END() { .type = SW_OPT_TYPE_END }
#define SW_OPT_GROUP(h) { .type = SW_OPT_TYPE_GROUP, .help = (h) }
#define SW_OPT_BOOL(s, l, v, h)						\
	{ .type = SW_OPT_TYPE_BOOL, .short_name = (s), .long_name = (l),	\
	  .value = (v), .help = (h) }
#define SW_OPT_SET(s, l, v, string, h)					\
	{ .type = SW_OPT_TYPE_SET, .short_name = (s), .long_name = (l),	\
	  .value = (v), .str = (string), .help = (h) }
#define SW_OPT_STRING(s, l, v, a, h, ...)				\
	{ .type = SW_OPT_TYPE_STRING, .short_name = (s), .long_name = (l),	\
	  .value = (v), .argh = (a), .help = (h), __VA_ARGS__ }
#define SW_OPT_NAME(s, l, v, a, h, w, ...)				\
	{ .type = SW_OPT_TYPE_STRING, .short_name = (s), .long_name = (l),	\
	  .value = (v), .argh = (a), .help = (h), .want = (w),		\
	  .nonempty = true, __VA_ARGS__ }
#define SW_OPT_U64(s, l, v, a, h, lo, hi, w, ...)			\
	{ .type = SW_OPT_TYPE_U64, .short_name = (s), .long_name = (l),	\
	  .value = (v), .argh = (a), .help = (h), .umin = (lo),		\
	  .umax = (hi), .want = (w), __VA_ARGS__ }
#define SW_OPT_DOUBLE(s, l, v, a, h, lo, hi, w, ...)			\
	{ .type = SW_OPT_TYPE_DOUBLE, .short_name = (s), .long_name = (l),	\
	  .value = (v), .argh = (a), .help = (h), .dmin = (lo),		\
	  .dmax = (hi), .want = (w), __VA_ARGS__ }
#define SW_OPT_CALLBACK(s, l, v, a, h, f, w, ...)			\
	{ .type = SW_OPT_TYPE_CALLBACK, .short_name = (s), .long_name = (l),	\
	  .value = (v), .argh = (a), .help = (h), .cb = (f), .want = (w),	\
	  __VA_ARGS__ }

/**
 * struct sw_cmd_doc - what --help says around the options.
 * @name:     the command, e.g. "stat" (messages start "stopwatch stat: ")
 * @usage:    the synopsis lines, without "usage: "
 * @about:    what the command does (paragraphs, sections), or NULL
 * @examples: the example lines, or NULL
 * @stop_at_command: options end at the first non-option (a command to run)
 * @no_args:  when set, the command takes no arguments but options, and a
 *            stray one is refused with this hint, e.g. "probes go with -p"
 */
struct sw_cmd_doc {
	const char *name;
	const char *usage;
	const char *about;
	const char *examples;
	bool stop_at_command;
	const char *no_args;
};

/**
 * sw_parse_options() - parse a command's options.
 * @argc, @argv: the arguments from the command's name on
 * @doc:  the command's --help texts
 * @opts: the options, ended by SW_OPT_END()
 *
 * Return: the index in @argv of the first argument that is not an option
 * (>= 1); 0 after printing --help; a negative errno after printing why.
 */
int sw_parse_options(int argc, char **argv, const struct sw_cmd_doc *doc,
		     const struct sw_option *opts);

/* Prints the --help text made from @doc and @opts. */
void sw_usage_print(FILE *f, const struct sw_cmd_doc *doc,
		    const struct sw_option *opts);

#endif /* _SW_UTIL_PARSE_OPTIONS_H */
