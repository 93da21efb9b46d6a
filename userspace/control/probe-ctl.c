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

/* The longest parameter string a load passes. */
#define SW_LOAD_PARAMS_MAX	256

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

/* modprobe stopwatch with @params (NAME=VALUE words, spaces between). */
static int sw_modprobe(const char *params)
{
	char buf[SW_LOAD_PARAMS_MAX], *argv[8], *save = NULL, *w;
	int status, n = 0;
	pid_t pid;

	snprintf(buf, sizeof(buf), "%s", params);
	argv[n++] = "modprobe";
	argv[n++] = "-q";
	argv[n++] = "stopwatch";
	for (w = strtok_r(buf, " ", &save); w && n < 7;
	     w = strtok_r(NULL, " ", &save))
		argv[n++] = w;
	argv[n] = NULL;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		execvp("modprobe", argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -ENOENT;
}

/* The first line of a small file, its newline cut; 0 or -errno. */
static int sw_read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	int ret = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)size, f))
		ret = -ENODATA;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return ret ? ret : (*buf ? 0 : -ENODATA);
}

/*
 * The srcversion of a module file (its .modinfo's "srcversion=", read
 * from the file's bytes: uncompressed modules only), or of the module
 * modprobe would load (@path NULL: modinfo's answer).
 */
static int sw_ko_srcversion(const char *path, char *buf, size_t size)
{
	static const char key[] = "srcversion=";
	char *data = NULL, *p;
	size_t len = 0;
	FILE *f;
	int fd, ret = -ENOENT;

	if (!path) {
		f = popen("modinfo -F srcversion stopwatch 2>/dev/null", "re");
		if (!f)
			return -errno;
		if (fgets(buf, (int)size, f))
			ret = 0;
		pclose(f);
		buf[strcspn(buf, "\n")] = '\0';
		return !ret && *buf ? 0 : -ENOENT;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (sw_read_fd(fd, &data, &len))
		goto out;
	for (p = memmem(data, len, key, sizeof(key) - 1); p;
	     p = memmem(p + 1, len - (size_t)(p + 1 - data), key, sizeof(key) - 1)) {
		if (p > data && p[-1] == '\0' && strlen(p + sizeof(key) - 1) < size) {
			strcpy(buf, p + sizeof(key) - 1);
			ret = *buf ? 0 : -ENOENT;
			break;
		}
	}
out:
	free(data);
	close(fd);
	return ret;
}

/*
 * The calibration cache: one line, "BOOT_ID SRCVERSION VALUE", where
 * VALUE is what stopwatch.ko's calibration parameter read after the
 * boot's first calibrated load of that module.  A later load of the same
 * module in the same boot is handed VALUE and measures nothing (the
 * measurement registers and removes kretprobes: up to a second on a slow
 * machine).  In /run: gone at reboot.
 */
#define SW_CALIB_DIR	"/run/stopwatch"
#define SW_CALIB_CACHE	SW_CALIB_DIR "/calibration"

/* The cached VALUE for a module of @srcversion in this boot. */
static bool sw_calib_cached(const char *srcversion, char *val, size_t size)
{
	char boot[64], line[SW_LOAD_PARAMS_MAX];
	char *b, *sv, *v, *save = NULL;

	if (sw_read_line("/proc/sys/kernel/random/boot_id", boot, sizeof(boot)) ||
	    sw_read_line(SW_CALIB_CACHE, line, sizeof(line)))
		return false;
	b = strtok_r(line, " ", &save);
	sv = strtok_r(NULL, " ", &save);
	v = strtok_r(NULL, " ", &save);
	if (!b || !sv || !v || strcmp(b, boot) || strcmp(sv, srcversion) ||
	    strlen(v) >= size)
		return false;
	strcpy(val, v);
	return true;
}

/*
 * After a load that measured: the module's calibration into the cache,
 * when it measured something (a value above 0) and says its srcversion.
 */
static void sw_calib_save(void)
{
	char boot[64], sv[64], val[160], tmp[sizeof(SW_CALIB_CACHE) + 16];
	FILE *f;

	if (sw_read_line(SW_MODULE_SYSFS "/parameters/calibration", val, sizeof(val)) ||
	    !strpbrk(val, "123456789") ||
	    sw_read_line(SW_MODULE_SYSFS "/srcversion", sv, sizeof(sv)) ||
	    sw_read_line("/proc/sys/kernel/random/boot_id", boot, sizeof(boot)))
		return;
	if (mkdir(SW_CALIB_DIR, 0755) && errno != EEXIST)
		return;
	snprintf(tmp, sizeof(tmp), "%s.%d", SW_CALIB_CACHE, (int)getpid());
	f = fopen(tmp, "we");
	if (!f)
		return;
	fprintf(f, "%s %s %s\n", boot, sv, val);
	if (fclose(f) || rename(tmp, SW_CALIB_CACHE))
		unlink(tmp);
}

/*
 * Load stopwatch.ko from @path (NULL: modprobe) with @params, handed the
 * boot's cached calibration for that module when there is one (without
 * it again if that load fails); a load that measured leaves its
 * calibration in the cache.  0 or -errno.
 */
static int sw_load(const char *path, const char *params)
{
	char sv[64], val[160], p[SW_LOAD_PARAMS_MAX];
	bool cached;
	int ret;

	cached = !sw_ko_srcversion(path, sv, sizeof(sv)) &&
		 sw_calib_cached(sv, val, sizeof(val));
	if (cached) {
		snprintf(p, sizeof(p), "%s%scalibration=%s", params,
			 *params ? " " : "", val);
		ret = path ? sw_insmod(path, p) : sw_modprobe(p);
		if (!ret && (path || sw_module_loaded()))
			return 0;
	}
	ret = path ? sw_insmod(path, params) : sw_modprobe(params);
	if (!ret && sw_module_loaded())
		sw_calib_save();
	return ret;
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
	char params[SW_LOAD_PARAMS_MAX] = "", repo[PATH_MAX], tried[2 * PATH_MAX + 600] = "";
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
		ret = sw_load(path, params);
		if (ret)
			return sw_err_set(err, ret, "cannot load %s: %s%s", path,
					  strerror(-ret),
					  sw_lockdown_module_why(-ret));
		*loaded = true;
		return 0;
	}
	if (!sw_load(NULL, params) && sw_module_loaded()) {
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
		r = sw_load(cand, params);
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
