// SPDX-License-Identifier: GPL-2.0
/*
 * probe-ctl.c - load stopwatch.ko, write its control files.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stopwatch/abi.h>

#include "control/debugfs.h"
#include "control/probe-ctl.h"
#include "control/probe-spec.h"

static bool sw_module_loaded(void)
{
	return !access(SW_MODULE_SYSFS, F_OK);
}

unsigned int sw_module_max_probes(void)
{
	FILE *f = fopen(SW_MODULE_SYSFS "/parameters/max_probes", "r");
	unsigned int v = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%u", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

static int sw_insmod(const char *path, const char *params)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (syscall(SYS_finit_module, fd, params, 0))
		ret = -errno;
	close(fd);
	return ret == -EEXIST ? 0 : ret;
}

/*
 * The trampolines' companion (stopwatch_tramp.ko, never unloaded: the
 * trampolines' text outlives stopwatch.ko) beside a stopwatch.ko about to
 * be loaded from a file, loaded first where there is one and it is not
 * loaded yet.  stopwatch.ko finds it by itself only where modprobe does
 * (an installed module); without it, probes fall back to kretprobes and
 * say so in stats.
 */
static void sw_insmod_companion(const char *path)
{
	char dir[PATH_MAX], ko[PATH_MAX + 32];
	const char *slash = strrchr(path, '/');

	if (!access("/sys/module/stopwatch_tramp", F_OK))
		return;
	if (slash)
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	else
		snprintf(dir, sizeof(dir), ".");
	snprintf(ko, sizeof(ko), "%s/stopwatch_tramp.ko", dir);
	if (!access(ko, R_OK))
		sw_insmod(ko, "");
}

static int sw_modprobe(const char *params)
{
	char arg[64];
	int status;
	pid_t pid;

	snprintf(arg, sizeof(arg), "%s", params);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		if (*arg)
			execlp("modprobe", "modprobe", "-q", "stopwatch", arg,
			       (char *)NULL);
		else
			execlp("modprobe", "modprobe", "-q", "stopwatch",
			       (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -ENOENT;
}

/* The repository this program was built in: <repo>/build/<dir>/stopwatch. */
static int sw_repo_dir(char *buf, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);
	int i;
	char *slash;

	if (n < 0)
		return -errno;
	buf[n] = '\0';
	for (i = 0; i < 3; i++) {
		slash = strrchr(buf, '/');
		if (!slash)
			return -ENOENT;
		*slash = '\0';
	}
	return 0;
}

int sw_module_ensure(const char *path, unsigned int max_probes, bool *loaded,
		     struct sw_err *err)
{
	char params[64] = "", repo[PATH_MAX], tried[2 * PATH_MAX + 600] = "";
	char cand[PATH_MAX + 256];
	const char *arch, *why = "";
	struct utsname u;
	int ret, r, i;

	*loaded = false;
	if (sw_module_loaded())
		return 0;
	if (max_probes > SW_MAX_PROBES_LIMIT)
		return sw_err_set(err, -E2BIG,
				  "needs max_probes=%u, more than stopwatch.ko takes (%u)",
				  max_probes, SW_MAX_PROBES_LIMIT);
	if (max_probes > SW_MAX_PROBES_DEFAULT)
		snprintf(params, sizeof(params), "max_probes=%u", max_probes);
	if (path) {
		sw_insmod_companion(path);
		ret = sw_insmod(path, params);
		if (ret)
			return sw_err_set(err, ret, "cannot load %s: %s%s", path,
					  strerror(-ret),
					  sw_lockdown_module_why(-ret));
		*loaded = true;
		return 0;
	}
	if (!sw_modprobe(params) && sw_module_loaded()) {
		*loaded = true;
		return 0;
	}
	uname(&u);
	arch = !strcmp(u.machine, "aarch64") ? "arm64" : u.machine;
	ret = sw_repo_dir(repo, sizeof(repo));
	for (i = 0; !ret && i < 2; i++) {
		if (i == 0)
			snprintf(cand, sizeof(cand),
				 "%s/build/module/%s-%s/stopwatch.ko", repo,
				 arch, u.release);
		else
			snprintf(cand, sizeof(cand),
				 "%s/build/module/%s/stopwatch.ko", repo, arch);
		if (access(cand, R_OK))
			continue;
		sw_insmod_companion(cand);
		r = sw_insmod(cand, params);
		if (!r) {
			*loaded = true;
			return 0;
		}
		snprintf(tried + strlen(tried), sizeof(tried) - strlen(tried),
			 "%s%s (%s)", *tried ? ", " : "", cand, strerror(-r));
		if (!*why)
			why = sw_lockdown_module_why(-r);
	}
	return sw_err_set(err, -ENOENT,
			  "stopwatch.ko is not loaded and could not be loaded: 'modprobe stopwatch' failed (install it with 'make install' or DKMS)%s%s; or give --module PATH%s",
			  *tried ? ", tried " : "", tried, why);
}

int sw_ctl_write_ext(const char *dir, const char *file, const char *line,
		     unsigned int flags, struct sw_err *err)
{
	char path[PATH_MAX], *why = NULL;
	size_t len = strlen(line), l;
	ssize_t n;
	int fd, ret = 0;

	/* What the module's parser refuses is refused here, unwritten. */
	if (!strcmp(file, "probes"))
		ret = sw_probes_line_check(line, err);
	else if (!strcmp(file, "sampler"))
		ret = sw_sampler_line_check(line, err);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY | O_CLOEXEC |
		  (flags & SW_CTL_REPLACE ? O_TRUNC : 0));
	if (fd < 0)
		return sw_err_set(err, -errno, "cannot open %s: %s%s", path,
				  strerror(errno), sw_lockdown_why(path, errno));
	/* A copy of the directory in a plain file (tests): append. */
	if (!(flags & SW_CTL_REPLACE))
		(void)lseek(fd, 0, SEEK_END);
	n = write(fd, line, len);
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != len)
		ret = -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret)
		return 0;
	if (!sw_debugfs_read(dir, "last_error", &why, NULL, NULL) && why) {
		l = strlen(why);
		while (l && (why[l - 1] == '\n' || why[l - 1] == ' '))
			why[--l] = '\0';
	}
	l = strcspn(line, "\n");
	if (flags & SW_CTL_QUOTE)
		sw_err_set(err, ret, "stopwatch.ko refused '%.*s': %s%s%s",
			   (int)l, line, strerror(-ret), why && *why ? ": " : "",
			   why && *why ? why : "");
	else
		sw_err_set(err, ret, "stopwatch.ko refused the %s write: %s%s%s",
			   file, strerror(-ret), why && *why ? ": " : "",
			   why && *why ? why : "");
	free(why);
	return ret;
}

int sw_ctl_write(const char *dir, const char *file, const char *line,
		 struct sw_err *err)
{
	return sw_ctl_write_ext(dir, file, line, 0, err);
}

int sw_cgroup_id(const char *path, uint64_t *id, struct sw_err *err)
{
	char full[PATH_MAX];
	struct stat st;

	if (path[0] == '/' && !access(path, F_OK))
		snprintf(full, sizeof(full), "%s", path);
	else
		snprintf(full, sizeof(full), "/sys/fs/cgroup/%s",
			 path[0] == '/' ? path + 1 : path);
	if (stat(full, &st))
		return sw_err_set(err, -errno, "cgroup %s: %s", full,
				  strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return sw_err_set(err, -ENOTDIR,
				  "cgroup %s: not a directory of the cgroup v2 hierarchy",
				  full);
	*id = st.st_ino;
	return 0;
}
