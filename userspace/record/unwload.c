// SPDX-License-Identifier: GPL-2.0
/*
 * unwload.c - unwind tables into stopwatch.ko while recording.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "record/unwload.h"

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

/* Builds and loads the table of @path; the file entry records how. */
static struct sw_unw_file *sw_unw_file_get(struct sw_unw_loader *l,
					   const struct sw_rec_mmap *m,
					   const char *path)
{
	struct sw_unw_table_cmd *c;
	struct sw_unw_file *f, *nf;
	struct sw_err e = { { 0 } };
	size_t i, len;
	uint64_t t0;
	int ret;

	for (i = 0; i < l->nfiles; i++) {
		f = &l->files[i];
		if (f->t.build_id_size == m->build_id_size &&
		    !memcmp(f->t.build_id, m->build_id, m->build_id_size))
			return f;
	}
	nf = realloc(l->files, (l->nfiles + 1) * sizeof(*nf));
	if (!nf)
		return NULL;
	l->files = nf;
	f = &l->files[l->nfiles++];
	memset(f, 0, sizeof(*f));
	t0 = sw_now_ns();
	ret = sw_cfi_build(path, &f->t, &e);
	l->build_ns += sw_now_ns() - t0;
	if (!ret && (f->t.build_id_size != m->build_id_size ||
		     memcmp(f->t.build_id, m->build_id, m->build_id_size)))
		ret = sw_err_set(&e, -ESTALE,
				 "%s: the file's build-id is not the mapping's (replaced since?)",
				 path);
	/* Keyed by the mapping's build-id whatever happened. */
	f->t.build_id_size = m->build_id_size;
	memcpy(f->t.build_id, m->build_id, m->build_id_size);
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
	memcpy(c->build_id, m->build_id, m->build_id_size);
	c->build_id_size = m->build_id_size;
	c->nr = f->t.nr;
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

	if (l->fd < 0 || !path || path[0] != '/' ||
	    !(m->h.flags & SW_MMAP_F_BUILD_ID) || !m->build_id_size ||
	    m->build_id_size > SW_UNW_BUILD_ID_MAX)
		return;
	f = sw_unw_file_get(l, m, path);
	if (!f || f->status)
		return;
	if (sw_cfi_adj(&f->t, m->start, m->pgoff, &adj)) {
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
}
