// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs.c - find and read the stopwatch directory (/proc/stopwatch, else
 * debugfs'), and say what kernel lockdown refuses.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "base/version.h"
#include "control/debugfs.h"
#include "stopwatch/files.h"

#ifndef DEBUGFS_MAGIC
#define DEBUGFS_MAGIC 0x64626720
#endif

static char *sw_path_join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *p = malloc(la + lb + 2);

	while (la > 1 && a[la - 1] == '/')
		la--;
	if (!p)
		return NULL;
	memcpy(p, a, la);
	p[la] = '/';
	memcpy(p + la + 1, b, lb + 1);
	return p;
}

/* 0 when @dir holds a regular "stats" file, else a negative errno. */
static int sw_has_stats(const char *dir)
{
	struct stat st;
	char *p = sw_path_join(dir, "stats");
	int ret = 0;

	if (!p)
		return -ENOMEM;
	if (stat(p, &st))
		ret = -errno;
	else if (!S_ISREG(st.st_mode))
		ret = -ENOENT;
	free(p);
	return ret;
}

static int sw_is_debugfs(const char *path)
{
	struct statfs sfs;

	return !statfs(path, &sfs) && sfs.f_type == DEBUGFS_MAGIC;
}

/* Explains why @dir, the one we were told to use, is not usable. */
static int sw_debugfs_explain(const char *dir, int ret, struct sw_err *err)
{
	char parent[PATH_MAX];
	struct stat st;
	char *slash;

	if (ret == -EACCES || ret == -EPERM)
		return sw_err_set(err, ret,
				  "%s: permission denied: the stopwatch directory is root's only; run stopwatch as root",
				  dir);
	if (ret == -ENOMEM)
		return sw_err_set(err, ret, "out of memory");

	if (!stat(dir, &st)) {
		if (!S_ISDIR(st.st_mode))
			return sw_err_set(err, -ENOTDIR,
					  "%s is not a directory (expected the stopwatch debugfs directory)",
					  dir);
		if (sw_is_debugfs(dir) && !strstr(dir, "stopwatch")) {
			char *sub = sw_path_join(dir, "stopwatch");

			sw_err_set(err, -ENOENT,
				   "%s not found: is stopwatch.ko loaded? (insmod stopwatch.ko)",
				   sub ? sub : dir);
			free(sub);
			return -ENOENT;
		}
		if (!strcmp(dir, SW_DEBUGFS_MOUNT))
			goto not_mounted;
		return sw_err_set(err, -ENOENT,
				  "%s: not a stopwatch debugfs directory (no 'stats' file in it or in %s/stopwatch)",
				  dir, dir);
	}
	if (errno == EACCES)
		return sw_err_set(err, -EACCES,
				  "%s: permission denied: the stopwatch directory is root's only; run stopwatch as root",
				  dir);

	snprintf(parent, sizeof(parent), "%s", dir);
	while (strlen(parent) > 1 && parent[strlen(parent) - 1] == '/')
		parent[strlen(parent) - 1] = '\0';
	slash = strrchr(parent, '/');
	if (slash && slash != parent)
		*slash = '\0';
	else if (slash)
		strcpy(parent, "/");
	else
		strcpy(parent, ".");

	if (sw_is_debugfs(parent))
		return sw_err_set(err, -ENOENT,
				  "%s not found: is stopwatch.ko loaded? (insmod stopwatch.ko)",
				  dir);
	if (!strcmp(parent, SW_DEBUGFS_MOUNT))
		goto not_mounted;
	return sw_err_set(err, -ENOENT, "%s: %s", dir, strerror(ENOENT));

not_mounted:
	return sw_err_set(err, -ENOENT,
			  "debugfs is not mounted on %s: mount it with 'mount -t debugfs none %s'",
			  SW_DEBUGFS_MOUNT, SW_DEBUGFS_MOUNT);
}

/*
 * The statistics layout @dir's version file names, against the one this
 * program reads (stopwatch/files.h): a different major is refused; a newer
 * minor only appends columns.  A directory without a version file (a copy
 * of the statistics alone) is taken as it is.
 */
static int sw_format_check(const char *dir, struct sw_err *err)
{
	char *text = NULL, *p;
	unsigned int major, minor;
	int ret = 0;

	if (sw_debugfs_read(dir, SW_FILE_VERSION, &text, NULL, NULL) || !text)
		return 0;
	p = strstr(text, SW_VERSION_FORMAT_KEY " ");
	if (p && sscanf(p + sizeof(SW_VERSION_FORMAT_KEY), "%u.%u", &major,
			&minor) == 2 && major != SW_STATS_FORMAT_MAJOR)
		ret = sw_err_set(err, -EPROTO,
				 "%s/%s says stats_format %u.%u; this program reads %d.x: use a stopwatch program and stopwatch.ko of the same version",
				 dir, SW_FILE_VERSION, major, minor,
				 SW_STATS_FORMAT_MAJOR);
	free(text);
	return ret;
}

/* The major of a version "MAJOR.MINOR...": the digits before the first '.'. */
static long sw_version_major(const char *v)
{
	char *end;
	long m = strtol(v, &end, 10);

	return end != v && (*end == '.' || !*end) ? m : -1;
}

/*
 * stopwatch.ko's version file must name the program's major version: the
 * module and the program are built from one VERSION, and the files the
 * program reads change meaning only with a new major.  A directory with
 * no version file (a module without one, a directory of plain files) is
 * taken as it is.
 */
static int sw_debugfs_check_version(const char *dir, struct sw_err *err)
{
	char kver[64], *buf = NULL;
	long km, um;
	int ret;

	ret = sw_debugfs_read(dir, SW_FILE_VERSION, &buf, NULL, NULL);
	if (ret)
		return 0;
	if (sscanf(buf, "stopwatch %63s", kver) != 1) {
		ret = sw_err_set(err, -EPROTO,
				 "%s/version: no 'stopwatch VERSION' line", dir);
		goto out;
	}
	km = sw_version_major(kver);
	um = sw_version_major(sw_version);
	if (km < 0 || km != um)
		ret = sw_err_set(err, -EPROTO,
				 "%s/version: stopwatch.ko is version %s, this program %s: "
				 "major versions differ; use the program built with the module",
				 dir, kver, sw_version);
out:
	free(buf);
	return ret;
}

static int sw_debugfs_found(char *path, char **out, struct sw_err *err)
{
	int ret;

	if (!path)
		return sw_err_set(err, -ENOMEM, "out of memory");
	ret = sw_debugfs_check_version(path, err);
	if (!ret)
		ret = sw_format_check(path, err);
	if (ret) {
		free(path);
		return ret;
	}
	*out = path;
	return 0;
}

int sw_debugfs_find(const char *dir, char **out, struct sw_err *err)
{
	const char *env = getenv(SW_DEBUGFS_ENV);
	char *sub = NULL;
	int ret;

	*out = NULL;
	if ((!dir || !*dir) && !(env && *env)) {
		/* /proc/stopwatch first: lockdown allows it */
		ret = sw_has_stats(SW_PROC_DIR);
		if (!ret)
			return sw_debugfs_found(strdup(SW_PROC_DIR), out, err);
		if (ret != -ENOENT)
			return sw_debugfs_explain(SW_PROC_DIR, ret, err);
	}
	if (!dir || !*dir)
		dir = env && *env ? env : SW_DEBUGFS_PATH;

	ret = sw_has_stats(dir);
	if (!ret)
		return sw_debugfs_found(strdup(dir), out, err);
	if (ret == -EACCES || ret == -EPERM || ret == -ENOMEM)
		return sw_debugfs_explain(dir, ret, err);

	/* A debugfs mount point: use its stopwatch subdirectory. */
	sub = sw_path_join(dir, "stopwatch");
	if (!sub)
		return sw_err_set(err, -ENOMEM, "out of memory");
	if (!sw_has_stats(sub))
		return sw_debugfs_found(sub, out, err);
	free(sub);
	return sw_debugfs_explain(dir, ret, err);
}

/* errno is kept: callers pass errno in the same argument list. */
const char *sw_lockdown_level(void)
{
	static const char *const levels[] = { "none", "integrity",
					      "confidentiality" };
	char text[128], *open_, *close_;
	int fd, saved = errno;
	size_t i;
	ssize_t n;

	/* "none [integrity] confidentiality": the one in force in brackets */
	fd = open(SW_LOCKDOWN_FILE, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		errno = saved;
		return NULL;
	}
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	errno = saved;
	if (n <= 0)
		return NULL;
	text[n] = '\0';
	open_ = strchr(text, '[');
	close_ = open_ ? strchr(open_, ']') : NULL;
	if (!close_)
		return NULL;
	*close_ = '\0';
	for (i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
		if (!strcmp(open_ + 1, levels[i]))
			return levels[i];
	return NULL;
}

const char *sw_lockdown_why(const char *path, int errnum)
{
	static char why[640];
	const char *level = sw_lockdown_level();
	int saved = errno, have_proc;
	struct stat st;

	if (errnum != EPERM)
		return "";
	if (!strncmp(path, SW_PROC_DIR "/", strlen(SW_PROC_DIR) + 1))
		return "; " SW_PROC_DIR " needs CAP_SYS_ADMIN (root outside a container)";
	if (level && !strcmp(level, "none"))
		return "";
	have_proc = !stat(SW_PROC_DIR "/stats", &st) || errno != ENOENT;
	errno = saved;
	snprintf(why, sizeof(why),
		 "; %s%s%s: debugfs opens no file that can be written or mapped under lockdown; %s",
		 level ? "kernel lockdown is '" : "kernel lockdown (see " SW_LOCKDOWN_FILE,
		 level ? level : "",
		 level ? "' (Secure Boot sets it)" : ") may be in force (Secure Boot)",
		 have_proc ?
		 "use " SW_PROC_DIR ", which it allows (the default: drop --debugfs and $" SW_DEBUGFS_ENV ")" :
		 "load a stopwatch.ko that has " SW_PROC_DIR ", which it allows");
	return why;
}

const char *sw_lockdown_module_why(int errnum)
{
	static char why[640];
	const char *level = sw_lockdown_level();

	if (errnum != EPERM && errnum != EKEYREJECTED && errnum != ENOKEY &&
	    errnum != EBADMSG)
		return "";
	if (errnum == EPERM && (!level || !strcmp(level, "none")))
		return "";
	snprintf(why, sizeof(why),
		 "; %s%s%s loads only modules signed with a key it trusts: install with 'make dkms-install' (DKMS signs them) and enroll DKMS's key once: 'mokutil --import /var/lib/dkms/mok.pub', reboot, confirm in the MOK manager (README: Secure Boot)",
		 level && strcmp(level, "none") ? "kernel lockdown is '" : "this kernel",
		 level && strcmp(level, "none") ? level : "",
		 level && strcmp(level, "none") ? "': it" : "");
	return why;
}

int sw_read_fd(int fd, char **buf, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *b = malloc(cap), *nb;
	ssize_t r;

	if (!b)
		return -ENOMEM;
	for (;;) {
		if (cap - n < 2) {
			if (cap > (size_t)SSIZE_MAX / 2) {
				free(b);
				return -EFBIG;
			}
			nb = realloc(b, cap * 2);
			if (!nb) {
				free(b);
				return -ENOMEM;
			}
			b = nb;
			cap *= 2;
		}
		r = read(fd, b + n, cap - n - 1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			free(b);
			return (int)r;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	b[n] = '\0';
	*buf = b;
	if (len)
		*len = n;
	return 0;
}

int sw_debugfs_read(const char *dir, const char *name, char **buf,
		    size_t *len, struct sw_err *err)
{
	char *path = sw_path_join(dir, name);
	int fd = -1, ret;

	*buf = NULL;
	if (!path)
		return sw_err_set(err, -ENOMEM, "out of memory");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = sw_err_set(err, -errno, "%s: %s", path, strerror(errno));
		goto cleanup;
	}
	ret = sw_read_fd(fd, buf, len);
	if (ret)
		sw_err_set(err, ret, "%s: %s", path, strerror(-ret));
cleanup:
	if (fd >= 0)
		close(fd);
	free(path);
	return ret;
}
