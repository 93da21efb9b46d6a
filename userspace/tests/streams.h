/* SPDX-License-Identifier: GPL-2.0 */
/*
 * streams.h - build sampler record streams and .swd files in the tests,
 * from the ABI structs of include/stopwatch/abi.h.
 */
#ifndef _SW_TESTS_STREAMS_H
#define _SW_TESTS_STREAMS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stopwatch/abi.h>

#include "record/swd.h"

/* A growing buffer of records of one CPU. */
struct tbuf {
	unsigned char *p;
	size_t len;
	size_t cap;
};

static inline void *tb_rec(struct tbuf *b, uint16_t type, uint16_t flags,
			   size_t size, uint64_t time)
{
	struct sw_rec_header *h;

	if (b->len + size > b->cap) {
		b->cap = (b->len + size) * 2 + 4096;
		b->p = realloc(b->p, b->cap);
		assert_non_null(b->p);
	}
	h = (void *)(b->p + b->len);
	memset(h, 0, size);
	h->type = type;
	h->flags = flags;
	h->size = (uint32_t)size;
	h->time = time;
	b->len += size;
	return h;
}

static inline void tb_stream(struct tbuf *b, uint32_t cpu, uint64_t t,
			     uint16_t major)
{
	struct sw_rec_stream *s = tb_rec(b, SW_REC_STREAM, 0, sizeof(*s), t);

	s->magic = SW_ABI_MAGIC;
	s->major = major;
	s->minor = SW_ABI_MINOR;
	s->cpu = cpu;
	s->ev_type = 1;
	s->flags = SW_STREAM_F_KSTACK | SW_STREAM_F_USTACK;
	s->period_or_freq = 1000;
	strcpy(s->event, "cpu-clock");
}

static inline void tb_comm(struct tbuf *b, uint64_t t, uint16_t flags,
			   uint32_t pid, uint32_t tid, const char *comm)
{
	struct sw_rec_comm *c = tb_rec(b, SW_REC_COMM, flags, sizeof(*c), t);

	c->pid = pid;
	c->tid = tid;
	strncpy(c->comm, comm, SW_COMM_LEN - 1);
}

static inline void tb_fork(struct tbuf *b, uint64_t t, uint32_t pid,
			   uint32_t ppid, bool thread)
{
	struct sw_rec_fork *f = tb_rec(b, SW_REC_FORK,
				       thread ? SW_FORK_F_THREAD : 0,
				       sizeof(*f), t);

	f->pid = thread ? ppid : pid;
	f->tid = pid;
	f->ppid = ppid;
	f->ptid = ppid;
	strcpy(f->comm, "forked");
}

static inline void tb_exit(struct tbuf *b, uint64_t t, uint32_t pid,
			   uint32_t tid)
{
	struct sw_rec_exit *x = tb_rec(b, SW_REC_EXIT, 0, sizeof(*x), t);

	x->pid = pid;
	x->tid = tid;
}

static inline void tb_mmap(struct tbuf *b, uint64_t t, uint16_t flags,
			   uint32_t pid, uint64_t start, uint64_t len,
			   uint64_t pgoff, const char *path)
{
	size_t plen = strlen(path) + 1;
	size_t size = sizeof(struct sw_rec_mmap) +
		      SW_REC_ALIGN_UP((uint32_t)plen);
	struct sw_rec_mmap *m = tb_rec(b, SW_REC_MMAP, flags, size, t);

	m->pid = m->tid = pid;
	m->start = start;
	m->len = len;
	m->pgoff = pgoff;
	m->prot = 5;
	m->path_len = (uint16_t)plen;
	memcpy((char *)m + size - SW_REC_ALIGN_UP((uint32_t)plen), path, plen);
}

static inline void tb_module(struct tbuf *b, uint64_t t, uint16_t flags,
			     const char *name, uint64_t base, uint32_t size)
{
	struct sw_rec_module *m = tb_rec(b, SW_REC_MODULE, flags, sizeof(*m), t);

	m->base = base;
	m->size = size;
	m->text_size = size;
	strncpy(m->name, name, SW_MODNAME_LEN - 1);
}

static inline void tb_sample(struct tbuf *b, uint64_t t, uint32_t cpu,
			     uint32_t pid, uint32_t tid, uint64_t ip, bool user,
			     const uint64_t *frames, unsigned int nk,
			     unsigned int nu)
{
	size_t size = sizeof(struct sw_rec_sample) + 8 * (size_t)(nk + nu);
	struct sw_rec_sample *s = tb_rec(b, SW_REC_SAMPLE,
					 user ? SW_SAMPLE_F_USER : 0, size, t);

	s->pid = pid;
	s->tid = tid;
	s->ip = ip;
	s->period = 1000;
	s->cpu = cpu;
	s->nr_kernel = (uint16_t)nk;
	s->nr_user = (uint16_t)nu;
	if (nk + nu)
		memcpy(s->frames, frames, 8 * (size_t)(nk + nu));
}

static inline void tb_lost(struct tbuf *b, uint64_t t, uint32_t cpu,
			   uint64_t full, uint64_t throttled)
{
	struct sw_rec_lost *l = tb_rec(b, SW_REC_LOST, 0, sizeof(*l), t);

	l->cpu = cpu;
	l->full = full;
	l->throttled = throttled;
}

static inline void tb_end(struct tbuf *b, uint64_t t, uint32_t cpu,
			  uint64_t taken, uint64_t written, uint64_t full)
{
	struct sw_rec_end *e = tb_rec(b, SW_REC_END, 0, sizeof(*e), t);

	e->cpu = cpu;
	e->taken = taken;
	e->written = written;
	e->lost_full = full;
}

/* A temporary file name under $TMPDIR, unlinked by the caller. */
static inline char *tmp_path(const char *tag)
{
	char *p = NULL;
	const char *dir = getenv("TMPDIR");

	assert_true(asprintf(&p, "%s/sw-test-%s-%d.swd", dir ? dir : "/tmp",
			     tag, (int)getpid()) > 0);
	return p;
}

#endif /* _SW_TESTS_STREAMS_H */
