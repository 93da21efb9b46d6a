/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probe-spec.h - what "stopwatch time" and "stopwatch probe" write to
 * stopwatch.ko's probes file, and the values their options take.
 *
 * The control syntax (one write, all or nothing):
 *
 *	+NAME[@TAG] [KEY=VALUE ...] -NAME[@TAG] ...
 *
 * TAG is [A-Za-z0-9_]{1,31}; KEY=VALUE tokens are options of the probe
 * token before them (filters pid tgid comm cgroup cpus follow min_ns
 * max_ns, keys by=K[,K2]).  Pure logic: host-tested.
 */
#ifndef _SW_UTIL_PROBE_SPEC_H
#define _SW_UTIL_PROBE_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "lib/bounds.h"
#include "lib/params.h"

#define SW_COMM_MAX 15

/**
 * sw_parse_duration() - "1ms", "500us", "1.5s", "250ns" to nanoseconds.
 * @s:  the text: a decimal number and a unit (ns, us, ms, s); "0" alone
 * @ns: the result
 *
 * Return: 0, or -EINVAL (no unit, unknown unit, not a number, below 1 ns
 * when not 0, too large).
 */
int sw_parse_duration(const char *s, uint64_t *ns);

/**
 * sw_parse_unit() - an output unit: "ns", "us", "ms" or "s".
 * @s:   the text
 * @div: nanoseconds per unit
 *
 * Return: 0 or -EINVAL.
 */
int sw_parse_unit(const char *s, uint64_t *div);

struct sw_option;

/*
 * sw_opt_duration_cb(), sw_opt_msec_cb(), sw_opt_unit_cb() - option
 * callbacks (parse-options): --min/--max DUR into the option's uint64_t
 * (nanoseconds), -I MSEC (at least 1) into the option's double in seconds,
 * -u UNIT kept as the option's string once it names a unit.
 * Return: 0 or -EINVAL.
 */
int sw_opt_duration_cb(const struct sw_option *opt, const char *arg);
int sw_opt_msec_cb(const struct sw_option *opt, const char *arg);
int sw_opt_unit_cb(const struct sw_option *opt, const char *arg);

/* True for a valid TAG: [A-Za-z0-9_]{1,31}. */
bool sw_tag_ok(const char *tag);

/**
 * sw_keys_check() - validate a --by value: K or K1,K2 with K one of pid
 * tgid comm cpu caller argN (N 0..5) retval, two different keys at most.
 * Return: 0 or -EINVAL with the reason in @err.
 */
int sw_keys_check(const char *by, struct sw_err *err);

/* Validate a CPU list "0-3,6": digits, '-' and ','. Return: 0 or -EINVAL. */
int sw_cpus_check(const char *cpus, struct sw_err *err);

/**
 * sw_probes_line_check() - parse a probes control line with the module's
 * own parser (lib/parse.c) before writing it.
 * Return: 0, or its negative errno with the module's message in @err:
 * "'TOKEN': why".
 */
int sw_probes_line_check(const char *line, struct sw_err *err);

/**
 * sw_sampler_line_check() - parse a sampler control line ("start
 * [key=value ...]", "stop") with the module's own parser (lib/sampopts.c)
 * before writing it.
 * Return: 0, or its negative errno with the module's message in @err.
 */
int sw_sampler_line_check(const char *line, struct sw_err *err);

/* Validate a comm: 1..15 bytes, no whitespace, no '='. */
int sw_comm_check(const char *comm, struct sw_err *err);

/* The module's attach= default comes from the header it is built from. */
#define SW_ATTACH_HELP                                                   \
	"attach kernel functions by kretprobe, trampoline or\n"          \
	"auto (a trampoline where the function allows, else a\n"         \
	"kretprobe); default: the module's attach parameter\n"           \
	"(" SW_ATTACH_PARAM_DEFAULT " unless set at load); each function's\n" \
	"argument count, from BTF, goes along"

#define SW_OPT_ATTACH(p)						\
	SW_OPT_NAME(0, "attach", (p), "MODE", SW_ATTACH_HELP, "a mode")

/* --attach MODE: kretprobe, trampoline or auto; else -EINVAL, said. */
int sw_attach_check(const char *mode, struct sw_err *err);

/**
 * struct sw_probe_opts - the filters and keys of the probes one command adds.
 * Zero/NULL members are left out.  @pid is a thread (pid=), @tgid a
 * process (tgid=), @follow a process and its descendants (follow=).
 */
struct sw_probe_opts {
	uint64_t pid, tgid, follow, cgroup, min_ns, max_ns;
	const char *comm, *cpus, *by;
};

/**
 * sw_probe_opts_format() - the "KEY=VALUE ..." tokens of @o.
 * Return: a malloc()ed string ("" when there are none), or NULL (ENOMEM).
 */
char *sw_probe_opts_format(const struct sw_probe_opts *o);

/**
 * sw_ctl_build() - the one control write that adds or removes probes.
 * @sign:  '+' to add, '-' to remove
 * @name:  the functions
 * @n:     how many (at least 1)
 * @tag:   the tag of every probe, or NULL for plain names
 * @opts:  the option tokens after each added probe (sw_probe_opts_format()),
 *         or NULL/"" for none; not written when removing
 *
 * "+vfs_read@t42 tgid=7 +vfs_write@t42 tgid=7\n".
 *
 * Return: a malloc()ed string, or NULL (ENOMEM).
 */
char *sw_ctl_build(char sign, char *const *name, size_t n, const char *tag,
		   const char *opts);

/*
 * sw_ctl_build_ext() - the same with per-name tokens @extra[i] (a user
 * point's uprobe=PATH:0xOFFSET) after each added name's identity; @extra
 * or its members may be NULL.
 */
char *sw_ctl_build_ext(char sign, char *const *name, char *const *extra,
		       size_t n, const char *tag, const char *opts);

/**
 * sw_probes_parse() - the identities of a probes file's lines ("vfs_read",
 * "vfs_read@t42 tgid=7 ...": the first token of each line).
 * @text: the file
 * @out:  malloc()ed array of malloc()ed identities
 * @n:    how many
 * Return: 0 or -ENOMEM.
 */
int sw_probes_parse(const char *text, char ***out, size_t *n);
void sw_names_free(char **v, size_t n);

/* The tag of identity @id ("vfs_read@t42" -> "t42"), or NULL. */
const char *sw_identity_tag(const char *id);

#endif /* _SW_UTIL_PROBE_SPEC_H */
