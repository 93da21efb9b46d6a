/* SPDX-License-Identifier: GPL-2.0 */
/*
 * debugfs.h - find and read the stopwatch directory: /proc/stopwatch,
 * else (a stopwatch.ko without it) /sys/kernel/debug/stopwatch; and say
 * what kernel lockdown refuses.
 */
#ifndef _SW_UTIL_DEBUGFS_H
#define _SW_UTIL_DEBUGFS_H

#include <stddef.h>

#include "base/err.h"

#define SW_PROC_DIR "/proc/stopwatch"
#define SW_DEBUGFS_MOUNT "/sys/kernel/debug"
#define SW_DEBUGFS_PATH SW_DEBUGFS_MOUNT "/stopwatch"
/* the default directory, as the commands' help names it */
#define SW_DEBUGFS_DIR SW_PROC_DIR
#define SW_DEBUGFS_ENV "STOPWATCH_DEBUGFS"

/* --debugfs DIR and --module PATH, as every command that takes them. */
#define SW_OPT_DEBUGFS(p)						\
	SW_OPT_STRING(0, "debugfs", (p), "DIR",				\
		      "use DIR instead of " SW_DEBUGFS_DIR " ($"		\
		      SW_DEBUGFS_ENV " too);\nDIR may also be a debugfs mount")
#define SW_OPT_MODULE(p)						\
	SW_OPT_NAME(0, "module", (p), "PATH",				\
		    "load stopwatch.ko from PATH if it is not loaded",	\
		    "a file name")
#define SW_LOCKDOWN_FILE "/sys/kernel/security/lockdown"

/**
 * sw_debugfs_find() - locate the stopwatch directory.
 * @dir: a directory named by the user (--debugfs), or NULL
 * @out: on success, a malloc()ed path the caller frees
 * @err: message on failure; may be NULL
 *
 * Tries @dir, else $STOPWATCH_DEBUGFS, else /proc/stopwatch (which kernel
 * lockdown allows), else /sys/kernel/debug/stopwatch (a stopwatch.ko
 * without /proc/stopwatch).
 * The directory is accepted when it holds a "stats" file; a directory
 * whose "stopwatch" subdirectory holds one (a debugfs mount point) is
 * accepted too and resolved to that subdirectory.  Its "version" file,
 * when it has one, must name this program's major version.
 *
 * Return: 0, -ENOENT (not found, module not loaded or debugfs not
 * mounted, as the message says), -EACCES, -EPROTO (another major
 * version), -ENOMEM.
 */
int sw_debugfs_find(const char *dir, char **out, struct sw_err *err);

/**
 * sw_debugfs_read() - read a whole file of the stopwatch directory.
 * @dir:  the directory, from sw_debugfs_find()
 * @name: file name relative to @dir, e.g. "stats" or "hist/vfs_read"
 * @buf:  on success a malloc()ed, NUL-terminated buffer the caller frees
 * @len:  on success the number of bytes read (without the NUL); may be NULL
 * @err:  message on failure; may be NULL
 *
 * debugfs files report size 0, so this reads until end of file.
 *
 * Return: 0 or a negative errno (-ENOENT when the file does not exist).
 */
int sw_debugfs_read(const char *dir, const char *name, char **buf,
		    size_t *len, struct sw_err *err);

/**
 * sw_lockdown_level() - the kernel lockdown level in force.
 *
 * Return: "none", "integrity" or "confidentiality" (static), or NULL when
 * it cannot be read (no securityfs mounted, no lockdown in this kernel).
 */
const char *sw_lockdown_level(void);

/**
 * sw_lockdown_why() - why opening @path failed, when it is kernel
 * lockdown's doing (debugfs under lockdown opens no file that can be
 * written or mapped) or /proc/stopwatch's capability check.
 * @path:   the file
 * @errnum: the errno of the failed open (positive)
 *
 * Return: a static string starting "; " with the lockdown level and what
 * to do, or "" when @errnum is not EPERM.
 */
const char *sw_lockdown_why(const char *path, int errnum);

/**
 * sw_lockdown_module_why() - why loading a module failed, when it is
 * module signing's doing (lockdown or module.sig_enforce).
 * @errnum: the errno of finit_module() (positive)
 *
 * Return: a static string starting "; " that says how to sign, or "".
 */
const char *sw_lockdown_module_why(int errnum);

/**
 * sw_read_fd() - read everything from a file descriptor.
 * @fd:  the descriptor
 * @buf: on success a malloc()ed, NUL-terminated buffer
 * @len: on success the byte count; may be NULL
 *
 * Return: 0 or a negative errno.
 */
int sw_read_fd(int fd, char **buf, size_t *len);

#endif /* _SW_UTIL_DEBUGFS_H */
