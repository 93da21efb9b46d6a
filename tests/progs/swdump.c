// SPDX-License-Identifier: GPL-2.0
/*
 * swdump - a minimal reader of the sampler's record stream, for the VM
 * tests (the full reader is "stopwatch record/report").
 *
 * usage: swdump COMMAND [--pid PID] [--kallsyms FILE] FILE...
 *   FILEs are saved copies of /sys/kernel/debug/stopwatch/samples/cpuN.
 *   summary   key=value counts: records by type, losses, END totals
 *   samples   one line per sample: time cpu pid tid U|K ip nk nu comm
 *   top       "count symbol" of the samples' ips (user ips through the
 *             stream's MMAP records and the ELF symbol tables, kernel ips
 *             through kallsyms), most frequent first
 *   images    "count path" of the user-mode samples' images
 *   ustack    one line per sample: its user stack as "sym;caller;..."
 *   kstack    one line per sample: its kernel stack as "sym;caller;..."
 *   tids      the distinct tids of the samples
 *   mmaps     one line per MMAP record: pid start len pgoff build-id path
 *
 * Refuses streams of another ABI major (exit 3), reports malformed
 * records (exit 4).  Files are merged by record time, as a reader must.
 */
#include "common.h"
#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#include "../../include/stopwatch/abi.h"

struct rec {
	const struct sw_rec_header *h;
	size_t seq;
};

struct map {
	uint32_t pid;
	uint64_t start, len, pgoff;
	char *path;
};

struct sym {
	uint64_t addr, size;
	char *name;
};

struct elfimg {
	char *path;
	int ok;
	struct sym *syms;
	size_t nsyms;
	Elf64_Phdr *load;
	size_t nload;
};

static struct rec *recs;
static size_t nrecs, caprecs;
static struct map *maps;
static size_t nmaps;
static struct elfimg *imgs;
static size_t nimgs;
static struct sym *ksyms;
static size_t nksyms;
static char comms[1 << 16][SW_COMM_LEN];	/* by tid, low 16 bits */

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		perror("swdump");
		exit(1);
	}
	return p;
}

static char *read_all(const char *path, size_t *len)
{
	size_t cap = 1 << 20, n = 0;
	char *buf = xrealloc(NULL, cap);
	int fd = open(path, O_RDONLY);
	ssize_t r;

	if (fd < 0) {
		fprintf(stderr, "swdump: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	while ((r = read(fd, buf + n, cap - n)) > 0) {
		n += r;
		if (n == cap)
			buf = xrealloc(buf, cap *= 2);
	}
	close(fd);
	*len = n;
	return buf;
}

static size_t bad;

static void load_stream(const char *path)
{
	size_t len, off = 0;
	char *buf = read_all(path, &len);
	int first = 1;

	while (off + sizeof(struct sw_rec_header) <= len) {
		const struct sw_rec_header *h = (const void *)(buf + off);

		if (h->size < sizeof(*h) || h->size % 8 || h->size > len - off ||
		    !h->type) {
			fprintf(stderr, "swdump: %s: malformed record at offset %zu\n",
				path, off);
			bad++;
			return;
		}
		if (first) {
			const struct sw_rec_stream *s = (const void *)h;

			if (h->type != SW_REC_STREAM || s->magic != SW_ABI_MAGIC) {
				fprintf(stderr, "swdump: %s: does not start with a stopwatch stream record\n",
					path);
				bad++;
				return;
			}
			first = 0;
		}
		if (h->type == SW_REC_STREAM) {
			const struct sw_rec_stream *s = (const void *)h;

			if (s->major != SW_ABI_MAJOR) {
				fprintf(stderr, "swdump: %s: stream ABI major %u, this reader understands %u\n",
					path, s->major, SW_ABI_MAJOR);
				exit(3);
			}
		}
		if (nrecs == caprecs)
			recs = xrealloc(recs, (caprecs = caprecs * 2 + 1024) *
					      sizeof(*recs));
		recs[nrecs].h = h;
		recs[nrecs].seq = nrecs;
		nrecs++;
		off += h->size;
	}
}

static int cmp_rec(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->h->time != y->h->time)
		return x->h->time < y->h->time ? -1 : 1;
	return x->seq < y->seq ? -1 : 1;
}

/* ---- symbols -------------------------------------------------------------- */

static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static const struct sym *find_sym(const struct sym *s, size_t n, uint64_t a,
				  int sized)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (s[mid].addr <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	s += lo - 1;
	if (sized && a >= s->addr + (s->size ? s->size : 1))
		return NULL;
	return s;
}

static void load_kallsyms(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512], type, name[256];
	unsigned long long a;
	size_t cap = 0;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &a, &type, name) != 3 ||
		    (type != 't' && type != 'T') || !a)
			continue;
		if (nksyms == cap)
			ksyms = xrealloc(ksyms, (cap = cap * 2 + 4096) *
						sizeof(*ksyms));
		ksyms[nksyms].addr = a;
		ksyms[nksyms].size = 0;
		ksyms[nksyms].name = strdup(name);
		nksyms++;
	}
	fclose(f);
	qsort(ksyms, nksyms, sizeof(*ksyms), cmp_sym);
}

static void elf_load(struct elfimg *e)
{
	size_t len, i;
	char *buf = NULL;
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	int fd = open(e->path, O_RDONLY);

	if (fd < 0)
		return;
	close(fd);
	buf = read_all(e->path, &len);
	eh = (const void *)buf;
	if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_phoff + (size_t)eh->e_phnum * sizeof(Elf64_Phdr) > len ||
	    eh->e_shoff + (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > len)
		goto out;
	for (i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(buf + eh->e_phoff) + i;

		if (ph->p_type != PT_LOAD)
			continue;
		e->load = xrealloc(e->load, (e->nload + 1) * sizeof(*ph));
		e->load[e->nload++] = *ph;
	}
	sh = (const void *)(buf + eh->e_shoff);
	for (i = 0; i < eh->e_shnum; i++) {
		const Elf64_Sym *st;
		const char *str;
		size_t j, n;

		if (sh[i].sh_type != SHT_SYMTAB && sh[i].sh_type != SHT_DYNSYM)
			continue;
		if (sh[i].sh_link >= eh->e_shnum ||
		    sh[i].sh_offset + sh[i].sh_size > len)
			continue;
		st = (const void *)(buf + sh[i].sh_offset);
		str = buf + sh[sh[i].sh_link].sh_offset;
		n = sh[i].sh_size / sizeof(*st);
		for (j = 0; j < n; j++) {
			if (ELF64_ST_TYPE(st[j].st_info) != STT_FUNC ||
			    !st[j].st_value)
				continue;
			e->syms = xrealloc(e->syms,
					   (e->nsyms + 1) * sizeof(*e->syms));
			e->syms[e->nsyms].addr = st[j].st_value;
			e->syms[e->nsyms].size = st[j].st_size;
			e->syms[e->nsyms].name = strdup(str + st[j].st_name);
			e->nsyms++;
		}
	}
	qsort(e->syms, e->nsyms, sizeof(*e->syms), cmp_sym);
	e->ok = 1;
out:
	free(buf);
}

static struct elfimg *elf_get(const char *path)
{
	size_t i;

	for (i = 0; i < nimgs; i++)
		if (!strcmp(imgs[i].path, path))
			return &imgs[i];
	imgs = xrealloc(imgs, (nimgs + 1) * sizeof(*imgs));
	memset(&imgs[nimgs], 0, sizeof(*imgs));
	imgs[nimgs].path = strdup(path);
	elf_load(&imgs[nimgs]);
	return &imgs[nimgs++];
}

/* ---- address-space state ------------------------------------------------------ */

static void maps_drop(uint32_t pid)
{
	size_t i, j = 0;

	for (i = 0; i < nmaps; i++)
		if (maps[i].pid != pid)
			maps[j++] = maps[i];
	nmaps = j;
}

static void maps_add(uint32_t pid, uint64_t start, uint64_t len,
		     uint64_t pgoff, const char *path)
{
	size_t i, j = 0;

	for (i = 0; i < nmaps; i++)	/* a new mapping replaces overlaps */
		if (maps[i].pid != pid || maps[i].start >= start + len ||
		    maps[i].start + maps[i].len <= start)
			maps[j++] = maps[i];
	nmaps = j;
	maps = xrealloc(maps, (nmaps + 1) * sizeof(*maps));
	maps[nmaps].pid = pid;
	maps[nmaps].start = start;
	maps[nmaps].len = len;
	maps[nmaps].pgoff = pgoff;
	maps[nmaps].path = strdup(path);
	nmaps++;
}

static void maps_fork(uint32_t parent, uint32_t child)
{
	size_t i, n = nmaps;

	maps_drop(child);
	n = nmaps;
	for (i = 0; i < n; i++)
		if (maps[i].pid == parent)
			maps_add(child, maps[i].start, maps[i].len,
				 maps[i].pgoff, maps[i].path);
}

static const struct map *maps_find(uint32_t pid, uint64_t ip)
{
	size_t i;

	for (i = nmaps; i-- > 0;)
		if (maps[i].pid == pid && ip >= maps[i].start &&
		    ip - maps[i].start < maps[i].len)
			return &maps[i];
	return NULL;
}

static void apply(const struct sw_rec_header *h)
{
	switch (h->type) {
	case SW_REC_COMM: {
		const struct sw_rec_comm *c = (const void *)h;

		memcpy(comms[c->tid & 0xffff], c->comm, SW_COMM_LEN);
		if (h->flags & SW_COMM_F_EXEC)
			maps_drop(c->pid);
		break;
	}
	case SW_REC_FORK: {
		const struct sw_rec_fork *f = (const void *)h;

		memcpy(comms[f->tid & 0xffff], f->comm, SW_COMM_LEN);
		if (!(h->flags & SW_FORK_F_THREAD))
			maps_fork(f->ppid, f->pid);
		break;
	}
	case SW_REC_MMAP: {
		const struct sw_rec_mmap *m = (const void *)h;
		const char *p = sw_mmap_path(m);

		if (p)
			maps_add(m->pid, m->start, m->len, m->pgoff, p);
		else
			bad++;
		break;
	}
	}
}

/* Writes a name for user address @ip of @pid into @buf. */
static void user_name(uint32_t pid, uint64_t ip, char *buf, size_t len)
{
	const struct map *m = maps_find(pid, ip);
	struct elfimg *e;
	uint64_t off;
	size_t i;

	if (!m) {
		snprintf(buf, len, "[unknown]");
		return;
	}
	off = ip - m->start + m->pgoff;
	e = elf_get(m->path);
	for (i = 0; e->ok && i < e->nload; i++) {
		const Elf64_Phdr *ph = &e->load[i];
		const struct sym *s;

		if (off < ph->p_offset || off >= ph->p_offset + ph->p_filesz)
			continue;
		s = find_sym(e->syms, e->nsyms, off - ph->p_offset + ph->p_vaddr,
			     1);
		if (s) {
			snprintf(buf, len, "%s", s->name);
			return;
		}
	}
	snprintf(buf, len, "%s+0x%llx", m->path, (unsigned long long)off);
}

static void kernel_name(uint64_t ip, char *buf, size_t len)
{
	const struct sym *s = find_sym(ksyms, nksyms, ip, 0);

	if (s)
		snprintf(buf, len, "%s", s->name);
	else
		snprintf(buf, len, "[k:0x%llx]", (unsigned long long)ip);
}

/* ---- counting ---------------------------------------------------------------- */

struct count {
	char *key;
	size_t n;
};

static struct count *counts;
static size_t ncounts;

static void count(const char *key)
{
	size_t i;

	for (i = 0; i < ncounts; i++)
		if (!strcmp(counts[i].key, key)) {
			counts[i].n++;
			return;
		}
	counts = xrealloc(counts, (ncounts + 1) * sizeof(*counts));
	counts[ncounts].key = strdup(key);
	counts[ncounts].n = 1;
	ncounts++;
}

static int cmp_count(const void *a, const void *b)
{
	const struct count *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->key, y->key);
}

static void print_counts(void)
{
	size_t i;

	qsort(counts, ncounts, sizeof(*counts), cmp_count);
	for (i = 0; i < ncounts; i++)
		printf("%zu %s\n", counts[i].n, counts[i].key);
}

static void chain(const struct sw_rec_sample *s, int kernel)
{
	const __u64 *f = sw_sample_frames(s);
	char line[8192], name[512];
	size_t used = 0, i, n = kernel ? s->nr_kernel : s->nr_user;

	if (!f) {
		bad++;
		return;
	}
	if (!kernel)
		f += s->nr_kernel;
	line[0] = '\0';
	for (i = 0; i < n; i++) {
		/* return addresses point after the call: look up addr - 1 */
		uint64_t a = i ? f[i] - 1 : f[i];

		if (kernel)
			kernel_name(a, name, sizeof(name));
		else
			user_name(s->pid, a, name, sizeof(name));
		used += snprintf(line + used, sizeof(line) - used, "%s%s",
				 i ? ";" : "", name);
		if (used >= sizeof(line))
			break;
	}
	printf("%s\n", line);
}

int main(int argc, char **argv)
{
	const char *cmd, *kallsyms = "/proc/kallsyms";
	unsigned long long tot[SW_REC_TYPE_MAX] = { 0 };
	unsigned long long lost[5] = { 0 }, end[5] = { 0 }, nsamp = 0;
	unsigned long long nuser = 0, nkern = 0, minor = 0;
	unsigned long long kaddr_mod = 0, kaddr_ref = 0;
	long pid = -1;
	size_t i;
	int a = 2;

	if (argc < 3) {
		fprintf(stderr, "usage: %s summary|samples|top|images|ustack|kstack|tids|mmaps [--pid PID] [--kallsyms FILE] FILE...\n",
			argv[0]);
		return 2;
	}
	cmd = argv[1];
	for (; a < argc - 1 && !strncmp(argv[a], "--", 2); a += 2) {
		if (!strcmp(argv[a], "--pid"))
			pid = arg_long(argv[0], "PID", argv[a + 1]);
		else if (!strcmp(argv[a], "--kallsyms"))
			kallsyms = argv[a + 1];
		else
			break;
	}
	for (; a < argc; a++)
		load_stream(argv[a]);
	qsort(recs, nrecs, sizeof(*recs), cmp_rec);
	if (!strcmp(cmd, "top") || !strcmp(cmd, "kstack"))
		load_kallsyms(kallsyms);

	for (i = 0; i < nrecs; i++) {
		const struct sw_rec_header *h = recs[i].h;
		const struct sw_rec_sample *s = (const void *)h;
		char name[512];

		if (h->type < SW_REC_TYPE_MAX)
			tot[h->type]++;
		apply(h);
		if (h->type == SW_REC_STREAM)
			minor = ((const struct sw_rec_stream *)h)->minor;
		if (h->type == SW_REC_MODULE &&
		    ((const struct sw_rec_module *)h)->base)
			kaddr_mod++;
		if (h->type == SW_REC_KERNEL &&
		    ((const struct sw_rec_kernel *)h)->ref_addr)
			kaddr_ref++;
		if (h->type == SW_REC_LOST) {
			const struct sw_rec_lost *l = (const void *)h;

			lost[0] += l->full;
			lost[1] += l->nested;
			lost[2] += l->stack;
			lost[3] += l->throttled;
			lost[4] += l->sideband;
		}
		if (h->type == SW_REC_END) {
			const struct sw_rec_end *e = (const void *)h;

			end[0] += e->taken;
			end[1] += e->written;
			end[2] += e->lost_full + e->lost_nested +
				  e->lost_stack + e->lost_throttled;
			end[3] += e->lost_full;
			end[4] += e->sideband_written;
		}
		if (h->type == SW_REC_MMAP && !strcmp(cmd, "mmaps")) {
			const struct sw_rec_mmap *m = (const void *)h;
			char id[2 * SW_BUILD_ID_MAX + 1] = "-";
			const char *path = sw_mmap_path(m);
			int j;

			if (pid >= 0 && m->pid != pid)
				continue;
			if (h->flags & SW_MMAP_F_BUILD_ID)
				for (j = 0; j < m->build_id_size &&
					    j < SW_BUILD_ID_MAX; j++)
					sprintf(id + 2 * j, "%02x", m->build_id[j]);
			printf("%u 0x%llx 0x%llx 0x%llx %s %s\n", m->pid,
			       (unsigned long long)m->start,
			       (unsigned long long)m->len,
			       (unsigned long long)m->pgoff, id,
			       path ? path : "?");
		}
		if (h->type != SW_REC_SAMPLE || (pid >= 0 && s->pid != pid))
			continue;
		nsamp++;
		if (h->flags & SW_SAMPLE_F_USER)
			nuser++;
		else
			nkern++;
		if (!strcmp(cmd, "samples")) {
			printf("%llu %u %u %u %c 0x%llx %u %u %.16s\n",
			       (unsigned long long)h->time, s->cpu, s->pid,
			       s->tid, h->flags & SW_SAMPLE_F_USER ? 'U' : 'K',
			       (unsigned long long)s->ip, s->nr_kernel,
			       s->nr_user, comms[s->tid & 0xffff]);
		} else if (!strcmp(cmd, "top")) {
			if (h->flags & SW_SAMPLE_F_USER)
				user_name(s->pid, s->ip, name, sizeof(name));
			else
				kernel_name(s->ip, name, sizeof(name));
			count(name);
		} else if (!strcmp(cmd, "images")) {
			const struct map *m;

			if (!(h->flags & SW_SAMPLE_F_USER))
				continue;
			m = maps_find(s->pid, s->ip);
			count(m ? m->path : "[unresolved]");
		} else if (!strcmp(cmd, "ustack")) {
			chain(s, 0);
		} else if (!strcmp(cmd, "kstack")) {
			if (!(h->flags & SW_SAMPLE_F_USER))
				chain(s, 1);
		} else if (!strcmp(cmd, "tids")) {
			snprintf(name, sizeof(name), "%u", s->tid);
			count(name);
		}
	}
	if (!strcmp(cmd, "summary")) {
		printf("records=%zu\nstreams=%llu\nends=%llu\nminor=%llu\n",
		       nrecs, tot[SW_REC_STREAM], tot[SW_REC_END], minor);
		printf("samples=%llu\nuser_samples=%llu\nkernel_samples=%llu\n",
		       nsamp, nuser, nkern);
		printf("comm=%llu\nfork=%llu\nexit=%llu\nmmap=%llu\nmodule=%llu\nkernel=%llu\n",
		       tot[SW_REC_COMM], tot[SW_REC_FORK], tot[SW_REC_EXIT],
		       tot[SW_REC_MMAP], tot[SW_REC_MODULE],
		       tot[SW_REC_KERNEL]);
		printf("lost_records=%llu\nlost_full=%llu\nlost_nested=%llu\nlost_stack=%llu\nlost_throttled=%llu\nlost_sideband=%llu\n",
		       tot[SW_REC_LOST], lost[0], lost[1], lost[2], lost[3],
		       lost[4]);
		printf("end_taken=%llu\nend_written=%llu\nend_lost=%llu\nend_lost_full=%llu\nend_sideband_written=%llu\n",
		       end[0], end[1], end[2], end[3], end[4]);
		printf("module_with_base=%llu\nkernel_with_ref=%llu\n",
		       kaddr_mod, kaddr_ref);
		printf("bad=%zu\n", bad);
	} else if (!strcmp(cmd, "top") || !strcmp(cmd, "images") ||
		   !strcmp(cmd, "tids")) {
		print_counts();
	} else if (strcmp(cmd, "samples") && strcmp(cmd, "ustack") &&
		   strcmp(cmd, "kstack") && strcmp(cmd, "mmaps")) {
		fprintf(stderr, "swdump: unknown command '%s'\n", cmd);
		return 2;
	}
	if (fflush(stdout) || ferror(stdout))
		return 1;
	return bad ? 4 : 0;
}
