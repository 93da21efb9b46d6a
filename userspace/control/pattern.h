/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pattern.h - expand function patterns ("vfs_*", "tcp_v[46]_*",
 * "ext4:ext4_*") into the kernel functions stopwatch.ko can probe.
 *
 * What can be probed is the tracing subsystem's list of traceable
 * functions (available_filter_functions: "name [module]" lines) minus the
 * kprobe blacklist and stopwatch's own functions.  kallsyms is read only to
 * name what a pattern matches but cannot be probed.  Pure logic: the
 * callers read the files (sw_pattern_read_system()) or fixtures.
 */
#ifndef _SW_UTIL_PATTERN_H
#define _SW_UTIL_PATTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/err.h"

/* How many skipped names sw_pattern_skipped_print() shows. */
#define SW_PATTERN_SHOW 5

/**
 * struct sw_pattern_src - the text of the files patterns expand against.
 * @avail:     available_filter_functions (required)
 * @blacklist: the kprobe blacklist ("0xSTART-0xEND name" lines), or NULL
 * @kallsyms:  /proc/kallsyms, or NULL (then nothing is named as skipped)
 * @self:      a module whose functions are never probed ("stopwatch"), or
 *             NULL
 * @kallsyms_path: where sw_pattern_read_kallsyms() reads kallsyms from
 *             (sw_pattern_read_system() sets it), or NULL
 */
struct sw_pattern_src {
	const char *avail;
	const char *blacklist;
	const char *kallsyms;
	const char *self;
	char *kallsyms_path;
};

/**
 * struct sw_expansion - what patterns expanded to.
 * @name:     the probeable functions, sorted, each once
 * @n:        how many
 * @skipped:  functions the patterns matched in kallsyms that cannot be
 *            probed (not traceable, blacklisted, stopwatch's own), sorted
 * @nskipped: how many
 * @extra:    per name, the tokens written after it when adding (a user
 *            point's uprobe=PATH:0xOFFSET), NULL for none; or NULL
 */
struct sw_expansion {
	char **name;
	size_t n;
	char **skipped;
	size_t nskipped;
	char **extra;
};

/* True when @s holds a glob character (*, ?, [). */
bool sw_pattern_is_glob(const char *s);

/**
 * sw_pattern_expand() - expand @npat patterns against @src.
 * @pat:  the patterns: fnmatch(3) globs, "MOD:GLOB" for a module's
 *        functions, or plain names
 * @npat: how many
 * @src:  the files' text
 * @out:  on success, the expansion (freed with sw_expansion_free())
 * @err:  why not, naming the pattern; may be NULL
 *
 * A pattern that matches no probeable function is an error: -ENOENT when
 * it matches nothing at all, -EINVAL when everything it matches cannot be
 * probed (the message names them).
 *
 * Return: 0 or a negative errno.
 */
int sw_pattern_expand(const char *const *pat, size_t npat,
		      const struct sw_pattern_src *src,
		      struct sw_expansion *out, struct sw_err *err);

void sw_expansion_free(struct sw_expansion *e);

/*
 * Prints "stopwatch: N functions matched but cannot be probed: a, b, c,
 * ... (first SW_PATTERN_SHOW)" when there are any.
 */
void sw_pattern_skipped_print(FILE *f, const char *cmd,
			      const struct sw_expansion *e);

/**
 * sw_pattern_needs_kallsyms() - whether expanding @pat can use kallsyms.
 * @pat:  the patterns
 * @npat: how many
 * @src:  the files' text (avail and blacklist)
 *
 * kallsyms only names what a pattern matches but cannot probe, and finds
 * the untraceable names the module may still take: it adds nothing to a
 * plain name (no glob, no MODULE:) that is a line of @src->avail (not
 * stopwatch's own) and not in the blacklist.  Reading and sorting it is
 * most of what a pattern costs (hundreds of thousands of lines); past a
 * few names, looking each up in @src->avail costs more than that read.
 *
 * Return: false when every pattern is such a name and they are few.
 */
bool sw_pattern_needs_kallsyms(const char *const *pat, size_t npat,
			       const struct sw_pattern_src *src);

/**
 * sw_pattern_read_kallsyms() - read @src->kallsyms from
 * @src->kallsyms_path, once; unreadable, it stays NULL (nothing is then
 * named as skipped).
 * @src: from sw_pattern_read_system()
 */
void sw_pattern_read_kallsyms(struct sw_pattern_src *src);

/**
 * sw_pattern_read_system() - read the running kernel's lists.
 * @src: filled with malloc()ed texts, freed with sw_pattern_src_free()
 * @err: why not; may be NULL
 *
 * available_filter_functions from /sys/kernel/tracing, else
 * /sys/kernel/debug/tracing (mounting tracefs on /sys/kernel/tracing
 * when neither is there); the kprobe blacklist when readable, and where
 * /proc/kallsyms is, for sw_pattern_read_kallsyms().  $STOPWATCH_TRACING
 * names another directory holding available_filter_functions, blacklist
 * and kallsyms (tests).
 *
 * Return: 0 or a negative errno.
 */
int sw_pattern_read_system(struct sw_pattern_src *src, struct sw_err *err);
void sw_pattern_src_free(struct sw_pattern_src *src);

#endif /* _SW_UTIL_PATTERN_H */
