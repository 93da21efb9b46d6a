// SPDX-License-Identifier: GPL-2.0
/*
 * machine.c - threads, processes, mappings and modules of the recorded
 * machine, rebuilt from the record stream.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/machine.h"

int sw_machine_init(struct sw_machine *m)
{
	int64_t id;

	memset(m, 0, sizeof(*m));
	sw_intern_init(&m->str);
	sw_intern_init(&m->image_ids);
	sw_u64map_init(&m->proc_of);
	sw_u64map_init(&m->thread_comm);
	id = sw_intern_str(&m->str, "[unknown]");
	if (id < 0)
		return -ENOMEM;
	m->unknown = (uint32_t)id;
	id = sw_machine_image(m, SW_IMG_KERNEL, "[kernel.kallsyms]", 0, NULL, 0);
	if (id < 0)
		return -ENOMEM;
	m->kernel = (uint32_t)id;
	return 0;
}

void sw_machine_free(struct sw_machine *m)
{
	uint32_t i;

	for (i = 0; i < m->nimage; i++)
		free(m->image[i].path);
	free(m->image);
	for (i = 0; i < m->nproc; i++)
		free(m->proc[i].maps);
	free(m->proc);
	free(m->kmod);
	sw_intern_free(&m->str);
	sw_intern_free(&m->image_ids);
	sw_u64map_free(&m->proc_of);
	sw_u64map_free(&m->thread_comm);
	memset(m, 0, sizeof(*m));
}

static const char *sw_basename(const char *p)
{
	const char *s = strrchr(p, '/');

	return s && s[1] ? s + 1 : p;
}

int64_t sw_machine_image(struct sw_machine *m, enum sw_image_kind kind,
			 const char *path, uint32_t pid,
			 const unsigned char *bid, unsigned int bid_size)
{
	struct {
		uint32_t kind;
		uint32_t pid;
		uint32_t bid_size;
		unsigned char bid[SW_BUILD_ID_MAX];
		char path[];
	} *key;
	size_t plen = strlen(path), klen;
	struct sw_image *img, *n;
	char namebuf[64];
	int64_t id, nid;
	int added;

	if (bid_size > SW_BUILD_ID_MAX)
		bid_size = SW_BUILD_ID_MAX;
	klen = sizeof(*key) + plen;
	key = calloc(1, klen);
	if (!key)
		return -ENOMEM;
	key->kind = kind;
	key->pid = kind == SW_IMG_ANON || kind == SW_IMG_UNKNOWN ? pid : 0;
	key->bid_size = bid_size;
	if (bid_size)
		memcpy(key->bid, bid, bid_size);
	memcpy(key->path, path, plen);
	id = sw_intern_add(&m->image_ids, key, klen, &added);
	free(key);
	if (id < 0 || !added)
		return id;
	if ((uint32_t)id != m->nimage)
		return -EINVAL;
	n = realloc(m->image, (m->nimage + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	m->image = n;
	img = &m->image[m->nimage];
	memset(img, 0, sizeof(*img));
	img->kind = kind;
	img->pid = pid;
	img->path = strdup(path);
	if (!img->path)
		return -ENOMEM;
	img->build_id_size = bid_size;
	if (bid_size)
		memcpy(img->build_id, bid, bid_size);
	switch (kind) {
	case SW_IMG_ANON:
		snprintf(namebuf, sizeof(namebuf), "[anon:%" PRIu32 "]", pid);
		nid = sw_intern_str(&m->str, namebuf);
		break;
	case SW_IMG_FILE:
		nid = sw_intern_str(&m->str, sw_basename(path));
		break;
	default:
		nid = sw_intern_str(&m->str, path);
	}
	if (nid < 0)
		return -ENOMEM;
	img->name_id = (uint32_t)nid;
	m->nimage++;
	return id;
}

struct sw_proc *sw_machine_proc(struct sw_machine *m, uint32_t pid)
{
	uint64_t v;

	if (!sw_u64map_get(&m->proc_of, pid, &v))
		return NULL;
	return &m->proc[v];
}

/* A new incarnation of @pid, copying @from's mappings when given. */
static struct sw_proc *sw_proc_new(struct sw_machine *m, uint32_t pid,
				   const struct sw_proc *from)
{
	struct sw_proc *n, *p;
	size_t from_idx = from ? (size_t)(from - m->proc) : 0;

	n = realloc(m->proc, (m->nproc + 1) * sizeof(*n));
	if (!n)
		return NULL;
	m->proc = n;
	if (from)
		from = &m->proc[from_idx];
	p = &m->proc[m->nproc];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->comm = UINT32_MAX;
	if (from && from->nmaps) {
		p->maps = malloc(from->nmaps * sizeof(*p->maps));
		if (!p->maps)
			return NULL;
		memcpy(p->maps, from->maps, from->nmaps * sizeof(*p->maps));
		p->nmaps = p->cap = from->nmaps;
	}
	if (sw_u64map_put(&m->proc_of, pid, m->nproc)) {
		free(p->maps);
		return NULL;
	}
	m->nproc++;
	return p;
}

static struct sw_proc *sw_proc_get(struct sw_machine *m, uint32_t pid)
{
	struct sw_proc *p = sw_machine_proc(m, pid);

	return p ? p : sw_proc_new(m, pid, NULL);
}

/* Inserts [start, end) into @p's sorted mappings, cutting what it overlaps. */
static int sw_proc_map(struct sw_proc *p, const struct sw_map *nm)
{
	struct sw_map *out;
	size_t i, n = 0, cap = p->nmaps + 2;

	out = malloc(cap * sizeof(*out));
	if (!out)
		return -ENOMEM;
	for (i = 0; i < p->nmaps; i++) {
		struct sw_map o = p->maps[i];

		if (o.end <= nm->start || o.start >= nm->end) {
			out[n++] = o;
			continue;
		}
		if (o.start < nm->start) {
			struct sw_map l = o;

			l.end = nm->start;
			out[n++] = l;
		}
		if (o.end > nm->end) {
			struct sw_map r = o;

			r.pgoff += nm->end - o.start;
			r.start = nm->end;
			out[n++] = r;
		}
	}
	/* Insert in order. */
	for (i = n; i > 0 && out[i - 1].start > nm->start; i--)
		out[i] = out[i - 1];
	out[i] = *nm;
	n++;
	free(p->maps);
	p->maps = out;
	p->nmaps = n;
	p->cap = cap;
	return 0;
}

static int sw_set_thread_comm(struct sw_machine *m, uint32_t tid,
			      const char *comm, size_t len)
{
	char buf[SW_COMM_LEN + 1];
	int64_t id;

	memcpy(buf, comm, len);
	buf[len] = '\0';
	buf[strnlen(buf, len)] = '\0';
	id = sw_intern_str(&m->str, buf);
	if (id < 0)
		return -ENOMEM;
	return sw_u64map_put(&m->thread_comm, tid, (uint64_t)id);
}

/* Names thread @tid of process @p; a leader's name is the process's too. */
static int sw_name_task(struct sw_machine *m, struct sw_proc *p, uint32_t tid,
			const char *comm)
{
	uint64_t id;
	int ret;

	ret = sw_set_thread_comm(m, tid, comm, SW_COMM_LEN);
	if (ret)
		return ret;
	if (p->pid == tid && sw_u64map_get(&m->thread_comm, tid, &id))
		p->comm = (uint32_t)id;
	return 0;
}

static int sw_machine_rec_comm(struct sw_machine *m, const struct sw_rec_comm *r)
{
	struct sw_proc *p;

	m->nr_comms++;
	if (r->h.flags & SW_COMM_F_EXEC) {
		/* A new image: the old mappings are gone. */
		p = sw_proc_get(m, r->pid);
		if (!p)
			return -ENOMEM;
		p->nmaps = 0;
		p->exited = false;
	} else {
		p = sw_proc_get(m, r->pid);
		if (!p)
			return -ENOMEM;
	}
	return sw_name_task(m, p, r->tid, r->comm);
}

static int sw_machine_rec_fork(struct sw_machine *m, const struct sw_rec_fork *r)
{
	struct sw_proc *parent, *p;

	m->nr_forks++;
	if (!(r->h.flags & SW_FORK_F_THREAD) && r->pid != r->ppid) {
		parent = sw_machine_proc(m, r->ppid);
		p = sw_proc_new(m, r->pid, parent);
		if (!p)
			return -ENOMEM;
		p->ppid = r->ppid;
	} else {
		p = sw_proc_get(m, r->pid);
		if (!p)
			return -ENOMEM;
	}
	return sw_name_task(m, p, r->tid, r->comm);
}

static int sw_machine_rec_exit(struct sw_machine *m, const struct sw_rec_exit *r)
{
	struct sw_proc *p;

	m->nr_exits++;
	/* Keep names and mappings: samples of this task may still follow in
	 * time order from other CPUs' streams; a reused pid starts a new
	 * incarnation at its FORK. */
	if (r->pid == r->tid) {
		p = sw_machine_proc(m, r->pid);
		if (p)
			p->exited = true;
	}
	return 0;
}

static int sw_machine_rec_mmap(struct sw_machine *m, const struct sw_rec_mmap *r)
{
	const char *path = sw_mmap_path(r);
	enum sw_image_kind kind = SW_IMG_FILE;
	struct sw_proc *p;
	struct sw_map nm;
	int64_t img;

	if (!path)
		return -EINVAL;
	m->nr_mmaps++;
	if (!r->len || r->start + r->len < r->start)
		return 0;
	if (r->h.flags & SW_MMAP_F_ANON || !strcmp(path, "//anon"))
		kind = SW_IMG_ANON;
	else if (!strcmp(path, "[vdso]"))
		kind = SW_IMG_VDSO;
	else if (path[0] != '/')
		kind = SW_IMG_ANON;	/* "[heap]"-like special mappings */
	img = sw_machine_image(m, kind, kind == SW_IMG_ANON ? "//anon" : path,
			       r->pid,
			       r->h.flags & SW_MMAP_F_BUILD_ID ? r->build_id : NULL,
			       r->h.flags & SW_MMAP_F_BUILD_ID ? r->build_id_size : 0);
	if (img < 0)
		return (int)img;
	p = sw_proc_get(m, r->pid);
	if (!p)
		return -ENOMEM;
	nm.start = r->start;
	nm.end = r->start + r->len;
	nm.pgoff = r->pgoff;
	nm.image = (uint32_t)img;
	return sw_proc_map(p, &nm);
}

static int sw_kmod_add(struct sw_machine *m, const char *name, uint64_t base,
		       uint64_t size, bool unload)
{
	char path[SW_MODNAME_LEN + 3];
	struct sw_kmod *n;
	size_t i;
	int64_t img;

	/* Forget whatever was at this address. */
	for (i = 0; i < m->nkmod; i++)
		if (m->kmod[i].base < base + size && base < m->kmod[i].end) {
			memmove(&m->kmod[i], &m->kmod[i + 1],
				(m->nkmod - i - 1) * sizeof(*m->kmod));
			m->nkmod--;
			i--;
		}
	if (unload || !size)
		return 0;
	snprintf(path, sizeof(path), "[%s]", name);
	img = sw_machine_image(m, SW_IMG_MODULE, path, 0, NULL, 0);
	if (img < 0)
		return (int)img;
	n = realloc(m->kmod, (m->nkmod + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	m->kmod = n;
	for (i = m->nkmod; i > 0 && m->kmod[i - 1].base > base; i--)
		m->kmod[i] = m->kmod[i - 1];
	m->kmod[i].base = base;
	m->kmod[i].end = base + size;
	m->kmod[i].image = (uint32_t)img;
	m->nkmod++;
	return 0;
}

int sw_machine_add_modules(struct sw_machine *m, const char *text,
			   size_t len)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		char line[512], name[SW_MODNAME_LEN];
		unsigned long long size, base;
		int ret;

		if (!nl)
			nl = end;
		if ((size_t)(nl - p) < sizeof(line)) {
			memcpy(line, p, (size_t)(nl - p));
			line[nl - p] = '\0';
			/* name size refcount deps state address */
			if (sscanf(line, "%63s %llu %*s %*s %*s %llx", name, &size,
				   &base) == 3 && base) {
				ret = sw_kmod_add(m, name, base, size, false);
				if (ret)
					return ret;
			}
		}
		p = nl + 1;
	}
	return 0;
}

int sw_machine_record(struct sw_machine *m, const struct sw_rec_header *h)
{
	switch (h->type) {
	case SW_REC_COMM:
		if (h->size < sizeof(struct sw_rec_comm))
			return -EINVAL;
		return sw_machine_rec_comm(m, (const void *)h);
	case SW_REC_FORK:
		if (h->size < sizeof(struct sw_rec_fork))
			return -EINVAL;
		return sw_machine_rec_fork(m, (const void *)h);
	case SW_REC_EXIT:
		if (h->size < sizeof(struct sw_rec_exit))
			return -EINVAL;
		return sw_machine_rec_exit(m, (const void *)h);
	case SW_REC_MMAP:
		if (h->size < sizeof(struct sw_rec_mmap))
			return -EINVAL;
		return sw_machine_rec_mmap(m, (const void *)h);
	case SW_REC_MODULE: {
		const struct sw_rec_module *r = (const void *)h;
		char name[SW_MODNAME_LEN + 1];

		if (h->size < sizeof(*r))
			return -EINVAL;
		memcpy(name, r->name, SW_MODNAME_LEN);
		name[SW_MODNAME_LEN] = '\0';
		return sw_kmod_add(m, name, r->base, r->size,
				   h->flags & SW_MODULE_F_UNLOAD);
	}
	default:
		return 0;
	}
}

bool sw_machine_locate(struct sw_machine *m, uint32_t pid, uint64_t ip,
		       bool kernel, uint32_t *image, uint64_t *rel)
{
	struct sw_proc *p;
	size_t lo, hi;

	*rel = ip;
	if (kernel) {
		lo = 0;
		hi = m->nkmod;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (m->kmod[mid].end <= ip)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < m->nkmod && m->kmod[lo].base <= ip) {
			*image = m->kmod[lo].image;
			return true;
		}
		*image = m->kernel;
		return true;
	}
	p = sw_machine_proc(m, pid);
	if (p) {
		lo = 0;
		hi = p->nmaps;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (p->maps[mid].end <= ip)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < p->nmaps && p->maps[lo].start <= ip) {
			const struct sw_map *mp = &p->maps[lo];
			enum sw_image_kind k = m->image[mp->image].kind;

			*image = mp->image;
			if (k == SW_IMG_FILE || k == SW_IMG_VDSO)
				*rel = ip - mp->start + mp->pgoff;
			return true;
		}
	}
	{
		int64_t id = sw_machine_image(m, SW_IMG_UNKNOWN, "[unknown]", 0,
					      NULL, 0);

		*image = id < 0 ? m->kernel : (uint32_t)id;
	}
	return false;
}

uint32_t sw_machine_comm(struct sw_machine *m, uint32_t pid, uint32_t tid)
{
	struct sw_proc *p;
	char buf[24];
	uint64_t id;
	int64_t n;

	if (sw_u64map_get(&m->thread_comm, tid, &id))
		return (uint32_t)id;
	p = sw_machine_proc(m, pid);
	if (p && p->comm != UINT32_MAX)
		return p->comm;
	if (!pid) {
		n = sw_intern_str(&m->str, "swapper");
	} else {
		snprintf(buf, sizeof(buf), ":%" PRIu32, pid);
		n = sw_intern_str(&m->str, buf);
	}
	if (n < 0)
		return m->unknown;
	/* Remember, so the next lookup is a hash hit. */
	sw_u64map_put(&m->thread_comm, tid, (uint64_t)n);
	return (uint32_t)n;
}
