// SPDX-License-Identifier: GPL-2.0
/*
 * recorder.c - drain the sampler's relay files into a .swd file.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/sort.h"
#include "control/debugfs.h"
#include "control/probe-ctl.h"
#include "record/recorder.h"
#include "record/symbol.h"

#define SW_READ_BUF (1U << 20)

static int sw_cpu_cmp(const void *a, const void *b)
{
	const struct sw_rec_cpu *x = a, *y = b;

	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

int sw_recorder_open(struct sw_recorder *r, const char *dir,
		     struct sw_err *err)
{
	char path[4096];
	struct dirent *de;
	DIR *d;
	int ret = 0;

	memset(r, 0, sizeof(*r));
	sw_intern_init(&r->paths);
	sw_u64map_init(&r->anon_pids);
	ret = sw_machine_init(&r->m);
	r->dir = strdup(dir);
	r->bufsize = SW_READ_BUF;
	r->buf = malloc(r->bufsize + SW_REC_MAX_SIZE);
	if (ret || !r->dir || !r->buf)
		return sw_err_set(err, -ENOMEM, "out of memory");
	snprintf(path, sizeof(path), "%s/samples", dir);
	d = opendir(path);
	if (!d)
		return sw_err_set(err, -errno,
				  errno == ENOENT ?
				  "%s: not found: this stopwatch.ko has no sampler (too old?)" :
				  "%s: %s", path, strerror(errno));
	while ((de = readdir(d))) {
		struct sw_rec_cpu *c;
		unsigned long cpu;
		char *end;

		if (strncmp(de->d_name, "cpu", 3))
			continue;
		cpu = strtoul(de->d_name + 3, &end, 10);
		if (end == de->d_name + 3 || *end)
			continue;
		c = realloc(r->cpu, (r->ncpu + 1) * sizeof(*c));
		if (!c) {
			ret = sw_err_set(err, -ENOMEM, "out of memory");
			break;
		}
		r->cpu = c;
		c = &r->cpu[r->ncpu];
		memset(c, 0, sizeof(*c));
		c->cpu = (uint32_t)cpu;
		snprintf(path, sizeof(path), "%s/samples/%s", dir, de->d_name);
		c->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (c->fd < 0) {
			ret = sw_err_set(err, -errno, "cannot open %s: %s%s", path,
					 strerror(errno), sw_lockdown_why(path, errno));
			break;
		}
		r->ncpu++;
	}
	closedir(d);
	if (!ret && !r->ncpu)
		ret = sw_err_set(err, -ENOENT,
				 "%s/samples holds no cpuN files after the start",
				 dir);
	if (!ret)
		sw_qsort(r->cpu, r->ncpu, sizeof(*r->cpu), sw_cpu_cmp);
	return ret;
}

void sw_recorder_close(struct sw_recorder *r)
{
	size_t i;

	for (i = 0; i < r->ncpu; i++)
		if (r->cpu[i].fd >= 0)
			close(r->cpu[i].fd);
	free(r->cpu);
	free(r->buf);
	free(r->dir);
	sw_intern_free(&r->paths);
	sw_u64map_free(&r->anon_pids);
	sw_machine_free(&r->m);
	memset(r, 0, sizeof(*r));
}

/* Looks at a whole record on its way to the file. */
static void sw_recorder_note(struct sw_recorder *r, struct sw_rec_cpu *c,
			     const struct sw_rec_header *h)
{
	switch (h->type) {
	case SW_REC_SAMPLE:
		c->samples++;
		r->samples++;
		r->file_samples++;
		break;
	case SW_REC_MMAP: {
		const struct sw_rec_mmap *m = (const void *)h;
		const char *p;

		if (h->size < sizeof(*m))
			break;
		p = sw_mmap_path(m);
		if (!p)
			break;
		if (p[0] == '/' && strcmp(p, "//anon"))
			sw_intern_str(&r->paths, p);
		else if (m->h.flags & SW_MMAP_F_ANON || !strcmp(p, "//anon"))
			sw_u64map_put(&r->anon_pids, m->pid, 1);
		sw_machine_record(&r->m, h);
		if (r->unw)
			sw_unw_loader_mmap(r->unw, m);
		break;
	}
	case SW_REC_FORK:
		if (r->unw && h->size >= sizeof(struct sw_rec_fork))
			sw_unw_loader_fork(r->unw, (const void *)h);
		sw_machine_record(&r->m, h);
		break;
	case SW_REC_COMM:
	case SW_REC_EXIT:
	case SW_REC_MODULE:
		sw_machine_record(&r->m, h);
		break;
	case SW_REC_LOST: {
		const struct sw_rec_lost *l = (const void *)h;

		if (h->size < sizeof(*l))
			break;
		r->lost[0] += l->full;
		r->lost[1] += l->nested;
		r->lost[2] += l->stack;
		r->lost[3] += l->throttled;
		r->lost[4] += l->sideband;
		break;
	}
	case SW_REC_END:
		c->ended = true;
		break;
	case SW_REC_STREAM:
		/* A CPU back from offline begins a new stream. */
		c->ended = false;
		break;
	default:
		break;
	}
}

/* Appends @n bytes at @p (carry first) as whole records; keeps the rest. */
static int sw_recorder_chunk(struct sw_recorder *r, struct sw_rec_cpu *c,
			     unsigned char *p, size_t n)
{
	size_t off = 0;

	while (n - off >= sizeof(struct sw_rec_header)) {
		const struct sw_rec_header *h = (const void *)(p + off);

		if (h->size < sizeof(*h) || h->size % SW_REC_ALIGN ||
		    h->size > SW_REC_MAX_SIZE || !h->type) {
			/* Not a record boundary: nothing after it can be
			 * trusted in this chunk. */
			c->dropped += n - off;
			r->dropped += n - off;
			n = off;
			break;
		}
		if (h->size > n - off)
			break;
		sw_recorder_note(r, c, h);
		if (r->on_rec) {
			int ret = r->on_rec(r->on_rec_arg, h, c->cpu);

			if (ret)
				return ret;
		}
		off += h->size;
	}
	if (off && r->w) {
		int ret = swd_write_section(r->w, SWD_SEC_RECORDS, c->cpu, p,
					    off, false);

		if (ret)
			return ret;
	}
	r->bytes += off;
	c->ncarry = n - off;
	if (c->ncarry)
		memmove(c->carry, p + off, c->ncarry);
	return 0;
}

static int64_t sw_recorder_read_cpu(struct sw_recorder *r,
				    struct sw_rec_cpu *c)
{
	int64_t total = 0;
	ssize_t n;
	int ret;

	for (;;) {
		memcpy(r->buf, c->carry, c->ncarry);
		n = read(c->fd, r->buf + c->ncarry, r->bufsize);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				break;
			return -errno;
		}
		if (!n)
			break;
		total += n;
		ret = sw_recorder_chunk(r, c, r->buf, c->ncarry + (size_t)n);
		if (ret)
			return ret;
		if ((size_t)n < r->bufsize / 2)
			break;
	}
	return total;
}

int64_t sw_recorder_drain(struct sw_recorder *r, int timeout_ms)
{
	struct pollfd *pfd;
	int64_t total = 0, n;
	size_t i;

	if (timeout_ms > 0) {
		pfd = calloc(r->ncpu, sizeof(*pfd));
		if (!pfd)
			return -ENOMEM;
		for (i = 0; i < r->ncpu; i++) {
			pfd[i].fd = r->cpu[i].fd;
			pfd[i].events = POLLIN;
		}
		/* relay wakes pollers per full sub-buffer only: the timeout
		 * bounds how stale a slow CPU's data gets. */
		poll(pfd, r->ncpu, timeout_ms);
		free(pfd);
	}
	for (i = 0; i < r->ncpu; i++) {
		n = sw_recorder_read_cpu(r, &r->cpu[i]);
		if (n < 0)
			return n;
		total += n;
	}
	return total;
}

/* ---- the sampler file --------------------------------------------------------- */

int sw_sampler_state(const char *dir, char **text)
{
	return sw_debugfs_read(dir, "sampler", text, NULL, NULL);
}

char *sw_sampler_field(const char *text, const char *key)
{
	size_t klen = strlen(key);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, key, klen) && (p[klen] == ' ' || p[klen] == '\t')) {
			const char *v = p + klen, *nl;

			v += strspn(v, " \t");
			nl = strchr(v, '\n');
			return strndup(v, nl ? (size_t)(nl - v) : strlen(v));
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

int sw_sampler_ctl(const char *dir, const char *line, struct sw_err *err)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/sampler", dir);
	if (access(path, F_OK) && errno == ENOENT)
		return sw_err_set(err, -ENOENT,
				  "%s: not found: this stopwatch.ko has no sampler",
				  path);
	return sw_ctl_write_ext(dir, "sampler", line, SW_CTL_QUOTE, err);
}

/* ---- host facts ---------------------------------------------------------------- */

static int sw_read_path(const char *path, char **buf, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	ret = sw_read_fd(fd, buf, len);
	close(fd);
	return ret;
}

/* The vdso of this process: the same image the kernel maps everywhere. */
static int sw_vdso_capture(void **out, size_t *len)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long lo, hi;

		if (!strstr(line, "[vdso]") ||
		    sscanf(line, "%llx-%llx", &lo, &hi) != 2 || hi <= lo)
			continue;
		*out = malloc(hi - lo);
		if (!*out) {
			ret = -ENOMEM;
			break;
		}
		memcpy(*out, (const void *)(uintptr_t)lo, hi - lo);
		*len = hi - lo;
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

int sw_facts_capture(struct sw_facts *f)
{
	memset(f, 0, sizeof(*f));
	if (sw_read_path("/proc/kallsyms", &f->kallsyms, &f->kallsyms_len))
		f->kallsyms = NULL;
	if (sw_read_path("/proc/modules", &f->modules, &f->modules_len))
		f->modules = NULL;
	if (sw_vdso_capture(&f->vdso, &f->vdso_len))
		f->vdso = NULL;
	return 0;
}

void sw_facts_free(struct sw_facts *f)
{
	int i;

	free(f->kallsyms);
	free(f->modules);
	free(f->vdso);
	for (i = 0; i < 3; i++)
		free(f->z[i]);
	memset(f, 0, sizeof(*f));
}

int sw_facts_write(struct swd_writer *w, struct sw_facts *f, bool deflate)
{
	static const unsigned int type[3] = { SWD_SEC_KALLSYMS,
					      SWD_SEC_MODULES, SWD_SEC_VDSO };
	const void *raw[3] = { f->kallsyms, f->modules, f->vdso };
	size_t len[3] = { f->kallsyms_len, f->modules_len, f->vdso_len };
	int i, ret = 0;

	for (i = 0; i < 3 && !ret; i++) {
		if (!raw[i])
			continue;
		/* Compressed once, the first time it is asked for. */
		if (deflate && !f->z[i] && !f->ztried[i]) {
			swd_deflate(raw[i], len[i], &f->z[i], &f->zlen[i]);
			f->ztried[i] = true;
		}
		if (deflate && f->z[i])
			ret = swd_write_deflated(w, type[i], 0, f->z[i],
						 f->zlen[i], len[i]);
		else
			ret = swd_write_section(w, type[i], 0, raw[i], len[i],
						false);
	}
	return ret;
}

/*
 * The GNU build-id in a buffer of ELF notes (what /sys/kernel/notes and
 * /sys/module/NAME/notes/.note.gnu.build-id hold): its length, or 0.
 */
static unsigned int sw_notes_build_id(const char *buf, size_t len,
				      unsigned char *bid)
{
	size_t off = 0;

	while (len - off >= 12) {
		uint32_t nsz, dsz, type;
		size_t name, desc;

		memcpy(&nsz, buf + off, 4);
		memcpy(&dsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		name = off + 12;
		desc = name + ((nsz + 3u) & ~3u);
		if (desc > len || dsz > len - desc)
			return 0;
		if (type == 3 && nsz == 4 && !memcmp(buf + name, "GNU", 4) &&
		    dsz > 0 && dsz <= SW_BUILD_ID_MAX) {
			memcpy(bid, buf + desc, dsz);
			return dsz;
		}
		off = desc + ((dsz + 3u) & ~3u);
	}
	return 0;
}

/* "hex [kernel.kallsyms]" and "hex [module]" lines of the running kernel. */
static void sw_kernel_build_ids(FILE *f)
{
	char hex[2 * SW_BUILD_ID_MAX + 1], path[320];
	unsigned char bid[SW_BUILD_ID_MAX];
	struct dirent *de;
	unsigned int n;
	size_t len;
	char *buf;
	DIR *d;

	if (!sw_read_path("/sys/kernel/notes", &buf, &len)) {
		n = sw_notes_build_id(buf, len, bid);
		if (n)
			fprintf(f, "%s [kernel.kallsyms]\n",
				sw_build_id_hex(hex, bid, n));
		free(buf);
	}
	d = opendir("/sys/module");
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path),
			 "/sys/module/%s/notes/.note.gnu.build-id", de->d_name);
		if (sw_read_path(path, &buf, &len))
			continue;
		n = sw_notes_build_id(buf, len, bid);
		if (n)
			fprintf(f, "%s [%s]\n", sw_build_id_hex(hex, bid, n),
				de->d_name);
		free(buf);
	}
	closedir(d);
}

int sw_recorder_finish_file(struct sw_recorder *r, const char *counters,
			    const char *end_kv)
{
	char *bids = NULL, hex[2 * SW_BUILD_ID_MAX + 1], path[64];
	size_t blen = 0, i;
	FILE *f;
	int ret;

	f = open_memstream(&bids, &blen);
	if (!f)
		return -ENOMEM;
	for (i = 0; i < r->paths.n; i++) {
		const char *p = sw_intern_s(&r->paths, (uint32_t)i);
		unsigned char bid[SW_BUILD_ID_MAX];
		int n = sw_elf_build_id(p, bid);

		if (n > 0)
			fprintf(f, "%s %s\n",
				sw_build_id_hex(hex, bid, (unsigned int)n), p);
	}
	sw_kernel_build_ids(f);
	if (fclose(f)) {
		free(bids);
		return -ENOMEM;
	}
	ret = swd_write_section(r->w, SWD_SEC_BUILDIDS, 0, bids, blen, true);
	free(bids);
	/* JIT symbols: /tmp/perf-PID.map of processes with anonymous code. */
	for (i = 0; !ret && r->anon_pids.mask && i <= r->anon_pids.mask; i++) {
		char *text = NULL;
		size_t len = 0;

		if (!r->anon_pids.full[i])
			continue;
		snprintf(path, sizeof(path), "/tmp/perf-%" PRIu64 ".map",
			 r->anon_pids.key[i]);
		if (sw_read_path(path, &text, &len))
			continue;
		ret = swd_write_section(r->w, SWD_SEC_PERFMAP,
					(uint32_t)r->anon_pids.key[i], text,
					len, true);
		free(text);
	}
	if (!ret && counters)
		ret = swd_write_section(r->w, SWD_SEC_COUNTERS, 0, counters,
					strlen(counters), false);
	if (!ret)
		ret = swd_write_section(r->w, SWD_SEC_END, 0, end_kv,
					strlen(end_kv), false);
	return ret;
}

/* ---- state for rotated files ------------------------------------------------------ */

struct sw_buf {
	unsigned char *p;
	size_t len;
	size_t cap;
};

static void *sw_buf_room(struct sw_buf *b, size_t n)
{
	void *p;

	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 65536;
		unsigned char *np;

		while (b->len + n > cap)
			cap *= 2;
		np = realloc(b->p, cap);
		if (!np)
			return NULL;
		b->p = np;
		b->cap = cap;
	}
	p = b->p + b->len;
	memset(p, 0, n);
	b->len += n;
	return p;
}

int sw_recorder_state(struct sw_recorder *r, void **out, size_t *len)
{
	struct sw_machine *m = &r->m;
	struct sw_buf b = { 0 };
	size_t i, j, off;
	uint32_t p;
	int ret = 0;

	for (p = 0; p < m->nproc; p++) {
		struct sw_proc *pr = &m->proc[p];
		struct sw_rec_comm *c;

		if (pr->exited || sw_machine_proc(m, pr->pid) != pr)
			continue;
		c = sw_buf_room(&b, sizeof(*c));
		if (!c)
			goto nomem;
		c->h.type = SW_REC_COMM;
		c->h.flags = SW_REC_F_SYNTH;
		c->h.size = sizeof(*c);
		c->pid = c->tid = pr->pid;
		if (pr->comm != UINT32_MAX)
			strncpy(c->comm, sw_str(m, pr->comm), SW_COMM_LEN - 1);
		for (j = 0; j < pr->nmaps; j++) {
			const struct sw_image *img = &m->image[pr->maps[j].image];
			const char *path = img->path;
			size_t plen = strlen(path) + 1,
			       size = sizeof(struct sw_rec_mmap) +
				      SW_REC_ALIGN_UP((uint32_t)plen);
			struct sw_rec_mmap *mm;

			if (size > SW_REC_MAX_SIZE)
				continue;
			off = b.len;
			if (!sw_buf_room(&b, size))
				goto nomem;
			mm = (void *)(b.p + off);
			mm->h.type = SW_REC_MMAP;
			mm->h.flags = SW_REC_F_SYNTH |
				      (img->kind == SW_IMG_ANON ? SW_MMAP_F_ANON : 0);
			mm->h.size = (uint32_t)size;
			mm->pid = mm->tid = pr->pid;
			mm->start = pr->maps[j].start;
			mm->len = pr->maps[j].end - pr->maps[j].start;
			mm->pgoff = pr->maps[j].pgoff;
			mm->prot = 5;	/* PROT_READ | PROT_EXEC */
			mm->path_len = (uint16_t)plen;
			memcpy((char *)mm + size - SW_REC_ALIGN_UP((uint32_t)plen),
			       path, plen);
		}
	}
	for (i = 0; i < m->nkmod; i++) {
		const struct sw_image *img = &m->image[m->kmod[i].image];
		struct sw_rec_module *mo = sw_buf_room(&b, sizeof(*mo));
		size_t nl;

		if (!mo)
			goto nomem;
		mo->h.type = SW_REC_MODULE;
		mo->h.flags = SW_REC_F_SYNTH;
		mo->h.size = sizeof(*mo);
		mo->base = m->kmod[i].base;
		mo->size = (uint32_t)(m->kmod[i].end - m->kmod[i].base);
		/* "[name]" -> "name" */
		nl = strlen(img->path);
		if (nl >= 2 && nl - 2 < SW_MODNAME_LEN)
			memcpy(mo->name, img->path + 1, nl - 2);
	}
	/* Start over from the live state: exited processes are forgotten,
	 * and the new file's build-ids and perf maps are those of the
	 * mappings it starts with and those that follow. */
	sw_machine_free(m);
	ret = sw_machine_init(m);
	sw_intern_free(&r->paths);
	sw_u64map_free(&r->anon_pids);
	for (off = 0; !ret && off < b.len;) {
		const struct sw_rec_header *h = (const void *)(b.p + off);

		if (h->type == SW_REC_MMAP) {
			const struct sw_rec_mmap *mm = (const void *)h;
			const char *path = sw_mmap_path(mm);

			if (path && path[0] == '/' && strcmp(path, "//anon"))
				sw_intern_str(&r->paths, path);
			else if (mm->h.flags & SW_MMAP_F_ANON)
				sw_u64map_put(&r->anon_pids, mm->pid, 1);
		}
		ret = sw_machine_record(m, h);
		off += h->size;
	}
	if (ret) {
		free(b.p);
		return ret;
	}
	*out = b.p;
	*len = b.len;
	return 0;
nomem:
	free(b.p);
	return -ENOMEM;
}
