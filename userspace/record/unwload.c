// SPDX-License-Identifier: GPL-2.0
/*
 * unwload.c - unwind tables into stopwatch.ko while recording.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <limits.h>
#include <sys/stat.h>
#include <gelf.h>

#include "lib/unwtab.h"
#include "record/unwload.h"

/* Debian's directory of the machine's libraries (/lib/<triplet>). */
#if defined(__x86_64__)
#define SW_MULTIARCH "x86_64-linux-gnu"
#elif defined(__aarch64__)
#define SW_MULTIARCH "aarch64-linux-gnu"
#else
#define SW_MULTIARCH ""
#endif

static uint64_t sw_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int sw_unw_write(int fd, const void *buf, size_t len)
{
	ssize_t n = write(fd, buf, len);

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

/**
 * sw_unw_loader_open() - open the module's unwind file and clear it.
 * @l:   the loader
 * @dir: the stopwatch directory
 * @err: why not
 *
 * Return: 0, or a negative errno (-ENOENT: the module has no table
 * unwinder).
 */
int sw_unw_loader_open(struct sw_unw_loader *l, const char *dir,
		       struct sw_err *err)
{
	struct sw_unw_cmd c = { .magic = SW_UNW_MAGIC,
				.cmd = SW_UNW_CMD_CLEAR,
				.size = sizeof(c) };
	char path[4096];
	int ret;

	memset(l, 0, sizeof(*l));
	snprintf(path, sizeof(path), "%s/unwind", dir);
	l->fd = open(path, O_RDWR | O_CLOEXEC);
	if (l->fd < 0)
		return sw_err_set(err, -errno, "%s: %s", path, strerror(errno));
	ret = sw_unw_write(l->fd, &c, sizeof(c));
	if (ret) {
		close(l->fd);
		l->fd = -1;
		return sw_err_set(err, ret, "%s: clear: %s", path,
				  strerror(-ret));
	}
	return 0;
}

static void sw_unw_fail(struct sw_unw_loader *l, const struct sw_err *e)
{
	l->failed++;
	if (!l->first_err.msg[0] && e)
		l->first_err = *e;
}

static struct sw_unw_file *sw_unw_file_find(struct sw_unw_loader *l,
					    const uint8_t *bid, uint8_t len)
{
	size_t i;

	for (i = 0; i < l->nfiles; i++)
		if (l->files[i].t.build_id_size == len &&
		    !memcmp(l->files[i].t.build_id, bid, len))
			return &l->files[i];
	return NULL;
}

/*
 * Builds and loads the table of @path (expected to have build-id @bid,
 * or any when @bid is NULL); the file entry, keyed by build-id, records
 * how it went.  Return: the entry, or NULL without one.
 */
static struct sw_unw_file *sw_unw_file_load(struct sw_unw_loader *l,
					    const char *path,
					    const uint8_t *bid, uint8_t bid_len)
{
	struct sw_unw_table_cmd *c;
	struct sw_unw_file *f, *nf;
	struct sw_cfi_table t;
	struct sw_err e = { { 0 } };
	size_t len;
	uint64_t t0;
	int ret;

	if (bid && (f = sw_unw_file_find(l, bid, bid_len)))
		return f;
	t0 = sw_now_ns();
	ret = sw_cfi_build(path, &t, &e);
	l->build_ns += sw_now_ns() - t0;
	if (!ret && !t.build_id_size)
		ret = sw_err_set(&e, -ENODATA, "%s: no build-id", path);
	if (!ret && bid && (t.build_id_size != bid_len ||
			    memcmp(t.build_id, bid, bid_len)))
		ret = sw_err_set(&e, -ESTALE,
				 "%s: the file's build-id is not the mapping's (replaced since?)",
				 path);
	if (!ret && !bid && (f = sw_unw_file_find(l, t.build_id,
						  t.build_id_size))) {
		sw_cfi_free(&t);
		return f;
	}
	if (ret && !bid) {
		/* A guess of the preload that did not work out: no entry. */
		sw_cfi_free(&t);
		return NULL;
	}
	nf = realloc(l->files, (l->nfiles + 1) * sizeof(*nf));
	if (!nf) {
		sw_cfi_free(&t);
		return NULL;
	}
	l->files = nf;
	f = &l->files[l->nfiles++];
	memset(f, 0, sizeof(*f));
	f->t = t;
	if (bid) {
		/* Keyed by the mapping's build-id whatever happened. */
		f->t.build_id_size = bid_len;
		memcpy(f->t.build_id, bid, bid_len);
	}
	if (ret) {
		f->status = ret;
		if (ret == -ENODATA)
			l->no_cfi++;
		else
			sw_unw_fail(l, &e);
		sw_cfi_free(&f->t);
		return f;
	}
	len = sizeof(*c) + (size_t)f->t.nr * sizeof(c->rows[0]);
	c = calloc(1, len);
	if (!c) {
		f->status = -ENOMEM;
		sw_cfi_free(&f->t);
		return f;
	}
	c->c.magic = SW_UNW_MAGIC;
	c->c.cmd = SW_UNW_CMD_TABLE;
	c->c.size = (uint32_t)len;
	memcpy(c->build_id, f->t.build_id, f->t.build_id_size);
	c->build_id_size = f->t.build_id_size;
	c->nr = f->t.nr;
	c->nseg = f->t.nseg;
	memcpy(c->seg, f->t.seg, sizeof(c->seg));
	memcpy(c->rows, f->t.rows, (size_t)f->t.nr * sizeof(c->rows[0]));
	ret = sw_unw_write(l->fd, c, len);
	free(c);
	if (ret == -EEXIST)
		ret = 0;
	if (ret == -ENOSPC) {
		l->no_room++;
	} else if (ret) {
		sw_err_set(&e, ret, "%s: loading its table of %u rows: %s", path,
			   f->t.nr, strerror(-ret));
		sw_unw_fail(l, &e);
	} else {
		l->tables++;
		l->rows += f->t.nr;
	}
	f->status = ret;
	sw_cfi_free(&f->t);
	return f;
}

/* Whether @path is a regular file; copies it to @out. */
static bool sw_unw_try(const char *dir, const char *name, char *out,
		       size_t len)
{
	struct stat st;
	int n = snprintf(out, len, "%s%s%s", dir, *dir ? "/" : "", name);

	return n > 0 && (size_t)n < len && !stat(out, &st) &&
	       S_ISREG(st.st_mode);
}

/*
 * The files @path needs loaded (its interpreter, its DT_NEEDED libraries
 * found through its RUNPATH or RPATH and the usual directories), appended
 * to @todo.
 */
static void sw_unw_needed(const char *path, char (*todo)[PATH_MAX],
			  size_t *ntodo, size_t max)
{
	static const char *const dirs[] = {
		"/lib/" SW_MULTIARCH, "/usr/lib/" SW_MULTIARCH, "/lib64",
		"/usr/lib64", "/lib", "/usr/lib",
	};
	char origin[PATH_MAX], run[PATH_MAX] = "", buf[PATH_MAX];
	Elf_Scn *scn = NULL;
	GElf_Phdr ph;
	size_t i, nph;
	Elf *e;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	snprintf(origin, sizeof(origin), "%s", path);
	if (strrchr(origin, '/'))
		*strrchr(origin, '/') = '\0';
	if (e && !elf_getphdrnum(e, &nph))
		for (i = 0; i < nph && *ntodo < max; i++) {
			size_t n;
			const char *p;

			if (!gelf_getphdr(e, (int)i, &ph) ||
			    ph.p_type != PT_INTERP)
				continue;
			p = elf_rawfile(e, &n);
			if (p && ph.p_offset + ph.p_filesz <= n && ph.p_filesz &&
			    ph.p_filesz < PATH_MAX &&
			    !p[ph.p_offset + ph.p_filesz - 1])
				snprintf(todo[(*ntodo)++], PATH_MAX, "%s",
					 p + ph.p_offset);
		}
	while (e && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		GElf_Dyn dyn;
		Elf_Data *d;
		int pass;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC)
			continue;
		d = elf_getdata(scn, NULL);
		for (pass = 0; pass < 2 && d; pass++)
			for (i = 0; gelf_getdyn(d, (int)i, &dyn) &&
				    dyn.d_tag != DT_NULL; i++) {
				const char *name;
				size_t k;

				if (pass == 0 && (dyn.d_tag == DT_RUNPATH ||
						  dyn.d_tag == DT_RPATH)) {
					name = elf_strptr(e, sh.sh_link,
							  dyn.d_un.d_val);
					if (name && !strncmp(name, "$ORIGIN", 7))
						snprintf(run, sizeof(run), "%s%s",
							 origin, name + 7);
					else if (name)
						snprintf(run, sizeof(run), "%s",
							 name);
					run[strcspn(run, ":")] = '\0';
				}
				if (pass != 1 || dyn.d_tag != DT_NEEDED ||
				    *ntodo >= max)
					continue;
				name = elf_strptr(e, sh.sh_link, dyn.d_un.d_val);
				if (!name || strchr(name, '/'))
					continue;
				if (run[0] && sw_unw_try(run, name, buf,
							 sizeof(buf))) {
					memcpy(todo[(*ntodo)++], buf, PATH_MAX);
					continue;
				}
				for (k = 0; k < sizeof(dirs) / sizeof(*dirs); k++)
					if (sw_unw_try(dirs[k], name, buf,
						       sizeof(buf))) {
						memcpy(todo[(*ntodo)++], buf,
						       PATH_MAX);
						break;
					}
			}
		break;
	}
	if (e)
		elf_end(e);
	close(fd);
}

/**
 * sw_unw_loader_preload() - load the tables a command will need before it
 * runs: its program (found through PATH), the program's interpreter and
 * the libraries it needs, transitively (at most 64 files).  The module
 * maps each into the process as the mapping happens, so the first samples
 * already unwind.  Files it cannot find are left to the mapping records.
 * @l:   the loader
 * @cmd: the command's first word
 */
void sw_unw_loader_preload(struct sw_unw_loader *l, const char *cmd)
{
	enum { MAXF = 64 };
	char (*todo)[PATH_MAX] = calloc(MAXF, PATH_MAX);
	const char *pathv = getenv("PATH");
	size_t ntodo = 0, i, j;

	if (!todo || l->fd < 0)
		goto out;
	if (strchr(cmd, '/')) {
		snprintf(todo[ntodo++], PATH_MAX, "%s", cmd);
	} else {
		while (pathv && *pathv) {
			size_t n = strcspn(pathv, ":");
			char dir[PATH_MAX];

			snprintf(dir, sizeof(dir), "%.*s", (int)n, pathv);
			if (n && sw_unw_try(dir, cmd, todo[0], PATH_MAX)) {
				ntodo = 1;
				break;
			}
			pathv += n + (pathv[n] == ':');
		}
	}
	elf_version(EV_CURRENT);
	for (i = 0; i < ntodo; i++) {
		for (j = 0; j < i; j++)
			if (!strcmp(todo[j], todo[i]))
				break;
		if (j < i)
			continue;
		sw_unw_file_load(l, todo[i], NULL, 0);
		sw_unw_needed(todo[i], todo, &ntodo, MAXF);
	}
out:
	free(todo);
}

/* The parent of process @pid, from /proc; 0 when it is gone or unreadable. */
static uint32_t sw_unw_ppid(uint32_t pid)
{
	char path[32], buf[512];
	unsigned int ppid;
	const char *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%u/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	p = strrchr(buf, ')');	/* the name may hold spaces and parentheses */
	if (!p || sscanf(p + 1, " %*c %u", &ppid) != 1)
		return 0;
	return ppid;
}

/*
 * Whether process @pid is the workload or descends from it (always, when
 * there is no workload).  Descendants are known from FORK records, or
 * found through /proc when a mapping's record comes before its process's
 * FORK record (they travel in different CPUs' streams).  At start
 * (@synth) only the workload exists of its tree.
 */
static bool sw_unw_in_tree(struct sw_unw_loader *l, uint32_t pid, bool synth)
{
	uint32_t p = pid;
	uint64_t v;
	int depth;

	if (!l->workload || pid == l->workload ||
	    sw_u64map_get(&l->tree, pid, &v))
		return true;
	if (synth)
		return false;
	for (depth = 0; depth < 64 && p > 1; depth++) {
		p = sw_unw_ppid(p);
		if (p == l->workload || (p && sw_u64map_get(&l->tree, p, &v))) {
			sw_u64map_put(&l->tree, pid, 1);
			return true;
		}
	}
	return false;
}

/**
 * sw_unw_loader_fork() - a FORK record: a new process of the workload's
 * tree is remembered, so that its own mappings (dlopen, exec) are loaded.
 * @l: the loader
 * @f: a FORK record whose size was checked
 */
void sw_unw_loader_fork(struct sw_unw_loader *l, const struct sw_rec_fork *f)
{
	uint64_t v;

	if (l->workload && !(f->h.flags & SW_FORK_F_THREAD) &&
	    (f->ppid == l->workload || sw_u64map_get(&l->tree, f->ppid, &v)))
		sw_u64map_put(&l->tree, f->pid, 1);
}

/**
 * sw_unw_loader_mmap() - a mapping record: load its file's table (once)
 * and map it into its process.  Failures are counted, never fatal.
 * @l: the loader
 * @m: an MMAP record whose size was checked
 */
void sw_unw_loader_mmap(struct sw_unw_loader *l, const struct sw_rec_mmap *m)
{
	struct sw_unw_map_cmd c;
	struct sw_unw_file *f;
	struct sw_err e;
	const char *path = sw_mmap_path(m);
	uint64_t adj;
	int ret;

	if (l->workload && m->pid == l->workload &&
	    (m->h.flags & SW_REC_F_SYNTH))
		return;
	if (!sw_unw_in_tree(l, m->pid, m->h.flags & SW_REC_F_SYNTH)) {
		l->others++;
		return;
	}
	if (l->fd < 0 || !path || path[0] != '/' ||
	    !(m->h.flags & SW_MMAP_F_BUILD_ID) || !m->build_id_size ||
	    m->build_id_size > SW_UNW_BUILD_ID_MAX)
		return;
	f = sw_unw_file_load(l, path, m->build_id, m->build_id_size);
	if (!f || f->status)
		return;
	if (sw_unw_adj(f->t.seg, f->t.nseg, m->start, m->pgoff, &adj)) {
		sw_err_set(&e, -ENOENT, "%s: no segment at file offset %#llx",
			   path, (unsigned long long)m->pgoff);
		sw_unw_fail(l, &e);
		return;
	}
	memset(&c, 0, sizeof(c));
	c.c.magic = SW_UNW_MAGIC;
	c.c.cmd = SW_UNW_CMD_MAP;
	c.c.size = sizeof(c);
	c.pid = m->pid;
	c.build_id_size = m->build_id_size;
	memcpy(c.build_id, m->build_id, m->build_id_size);
	c.start = m->start;
	c.end = m->start + m->len;
	c.adj = adj;
	ret = sw_unw_write(l->fd, &c, sizeof(c));
	if (ret == -ESTALE || ret == -ESRCH) {
		/* gone or replaced (exec, munmap) since the record was made */
		l->stale++;
		return;
	}
	if (ret) {
		sw_err_set(&e, ret, "%s: map into pid %u: %s", path, m->pid,
			   strerror(-ret));
		sw_unw_fail(l, &e);
		return;
	}
	l->maps++;
}

/** sw_unw_loader_close() - close the file; tables stay loaded. */
void sw_unw_loader_close(struct sw_unw_loader *l)
{
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
	free(l->files);
	l->files = NULL;
	l->nfiles = 0;
	sw_u64map_free(&l->tree);
}
