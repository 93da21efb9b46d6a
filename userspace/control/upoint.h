/* SPDX-License-Identifier: GPL-2.0 */
/*
 * upoint.h - user points: BINARY:SYMBOL, BINARY:GLOB and BINARY:0xOFFSET
 * resolved to the file and file offsets stopwatch.ko puts uprobes at.
 *
 * BINARY is a path (anything with a '/'), or a name: with -p PID a file
 * that process maps (libc finds libc.so.6), else a shared library in the
 * loader's directories (LD_LIBRARY_PATH, /etc/ld.so.conf, the standard
 * ones) or an executable in $PATH.  Symbols come from elfutils: .symtab,
 * else separate debuginfo found by build-id or debuglink, else .dynsym;
 * a symbol's address becomes a file offset through the program headers,
 * so PIE executables and libraries need no load address.
 */
#ifndef _SW_UTIL_UPOINT_H
#define _SW_UTIL_UPOINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/err.h"
#include "control/pattern.h"

/**
 * struct sw_upoint - one resolved user point.
 * @name:   the row name, BASENAME:SYMBOL or BASENAME:0xOFFSET (no white
 *          space, '@', ',', '=', '/' or '\\': others become '_')
 * @path:   the file, absolute, symbolic links resolved
 * @offset: file offset of the function's first instruction
 */
struct sw_upoint {
	char *name;
	char *path;
	uint64_t offset;
};

/**
 * struct sw_upoints - what user point patterns expanded to.
 * @v: the points, in the order found (per pattern, by offset)
 * @n: how many
 */
struct sw_upoints {
	struct sw_upoint *v;
	size_t n;
};

/**
 * sw_upoint_is_user() - does @pat name a user point rather than kernel
 * functions?  True with a '/' before its ':', with a 0xOFFSET after it, or
 * when the part before the ':' is not a kernel module of @avail
 * (available_filter_functions' "[module]" tags; NULL: not known).
 */
bool sw_upoint_is_user(const char *pat, const char *avail);

/**
 * sw_upoint_expand() - resolve one user point pattern, appending to @out.
 * @pat:   BINARY:SYMBOL, BINARY:GLOB or BINARY:0xOFFSET
 * @pid:   the process whose mappings name BINARY first (0: none)
 * @dbg:   debuginfo search path for elfutils (NULL: its default)
 * @out:   the points so far; extended
 * @err:   why not, naming the pattern, the file or the symbol
 *
 * Return: 0; -ENOENT (no such file, library or symbol), -EINVAL (not an
 * ELF executable or library, an offset that is not a function's first
 * instruction, an IFUNC, an ambiguous local name) or -ENOMEM.
 */
int sw_upoint_expand(const char *pat, pid_t pid, const char *dbg,
		     struct sw_upoints *out, struct sw_err *err);

void sw_upoints_free(struct sw_upoints *u);

/**
 * sw_upoint_ctl() - the "uprobe=PATH:0xOFFSET" token of @p (white space
 * and '\\' in PATH as \\ooo octal escapes, as stopwatch.ko takes them).
 * Return: a malloc()ed string, or NULL (ENOMEM).
 */
char *sw_upoint_ctl(const struct sw_upoint *p);

/**
 * sw_expansion_add_upoints() - append user points to a kernel expansion:
 * their names to @e->name, their uprobe= tokens to @e->extra.
 * Return: 0 or -ENOMEM.
 */
int sw_expansion_add_upoints(struct sw_expansion *e,
			     const struct sw_upoints *u);

/**
 * sw_points_expand() - expand a command line's patterns, kernel functions
 * (pattern.h) and user points alike, into one expansion.
 * @pat, @npat: the patterns
 * @pid:        -p PID, for user points' BINARY names (0: none)
 * @dbg:        debuginfo search path (NULL: elfutils' default)
 * @src:        filled with the kernel's lists when a pattern needs them
 *              (freed by the caller with sw_pattern_src_free())
 * @e:          the expansion: kernel functions first, then user points
 *              (with their uprobe= tokens in @e->extra)
 * @err:        why not
 *
 * Return: 0 or a negative errno.
 */
int sw_points_expand(char *const *pat, size_t npat, pid_t pid,
		     const char *dbg, struct sw_pattern_src *src,
		     struct sw_expansion *e, struct sw_err *err);

#endif /* _SW_UTIL_UPOINT_H */
