// SPDX-License-Identifier: GPL-2.0
/*
 * swd-gen - write a synthetic recording (.swd) of a known profile, built
 * from the symbolization test programs, for the report tests and the
 * report benchmark.
 *
 *   swd-gen [--samples N] [--no-end] [--cut BYTES] [--lost N]
 *           [--no-stacks] [--no-synth] [--raw DIR] [--warm-period P]
 *           [--calls K] SYMBIN_DIR OUT.swd
 *
 * --raw DIR also writes each CPU's records to DIR/samples/cpuN, as the
 * sampler's relay files would hold them (a fake debugfs for record).
 * --no-synth leaves out the records that describe the processes alive at
 * start (as in a stream that continues an earlier one).
 * --warm-period P gives sym_warm's samples a period of P (periods vary
 * from sample to sample under a frequency, as with record -F).
 * --calls K adds K traced calls before each sample: the sampled process's
 * calls of "sym_work" (trace id 1), each with two event deltas, the first
 * of each K (K >= 2) a span "request" (span id 1) around the others (the
 * timeline exports' tests and benchmark).
 *
 * The profile: process "symprog" (pid 1000, symprog-pie with
 * libsymlib.so) and a short-lived child "symchild" (pid 1001, fork + exec
 * of symprog-nopie, exits before the end).  Of the samples,
 *   55%  symprog  sym_hot    (main -> sym_mid -> sym_hot)
 *   20%  symprog  sym_warm   (main -> sym_mid -> sym_warm)
 *   10%  symprog  lib_hot    (main -> sym_mid -> lib_hot, libsymlib.so)
 *    5%  symprog  [kernel] do_syscall_64 (user part: main)
 *   10%  symchild sym_hot    (main -> sym_hot)
 * spread over the bodies of the functions, on two CPUs, cpu-clock with a
 * period of 1000000 ns.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stopwatch/abi.h>

#include "record/swd.h"

#define PID_MAIN 1000
#define PID_CHILD 1001
#define PIE_BASE 0x555555554000ULL
#define NOPIE_BASE 0ULL
#define LIB_BASE 0x7f1234500000ULL
#define PERIOD ((uint64_t)1000000)
#define KBASE 0xffffffff81000000ULL

struct fn {
	const char *name;
	uint64_t vaddr;
	uint64_t size;
};

struct img {
	const char *path;
	uint64_t base;		/* load bias */
	uint64_t xvaddr, xoff, xlen;	/* the executable PT_LOAD */
};

static int find_fn(const char *path, struct fn *f)
{
	Elf_Scn *scn = NULL;
	int fd = open(path, O_RDONLY);
	Elf *e;
	int ret = -ENOENT;

	if (fd < 0)
		return -errno;
	e = elf_begin(fd, ELF_C_READ, NULL);
	while (e && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t i, n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		d = elf_getdata(scn, NULL);
		n = sh.sh_size / sh.sh_entsize;
		for (i = 0; d && i < n; i++) {
			GElf_Sym s;
			const char *nm;

			if (!gelf_getsym(d, (int)i, &s))
				continue;
			nm = elf_strptr(e, sh.sh_link, s.st_name);
			if (nm && !strcmp(nm, f->name) &&
			    GELF_ST_TYPE(s.st_info) == STT_FUNC && s.st_value) {
				f->vaddr = s.st_value;
				f->size = s.st_size ? s.st_size : 1;
				ret = 0;
			}
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	return ret;
}

static int find_xload(struct img *im)
{
	int fd = open(im->path, O_RDONLY);
	size_t n, i;
	Elf *e;
	int ret = -ENOENT;

	if (fd < 0)
		return -errno;
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (e && !elf_getphdrnum(e, &n))
		for (i = 0; i < n; i++) {
			GElf_Phdr ph;

			if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD &&
			    ph.p_flags & PF_X) {
				im->xvaddr = ph.p_vaddr & ~0xfffULL;
				im->xoff = ph.p_offset & ~0xfffULL;
				im->xlen = ((ph.p_vaddr + ph.p_memsz + 0xfff) & ~0xfffULL) -
					   im->xvaddr;
				ret = 0;
				break;
			}
		}
	if (e)
		elf_end(e);
	close(fd);
	return ret;
}

static unsigned char buf[1 << 20];
static size_t blen;
static struct swd_writer w;
static int cur_cpu = -1;
static const char *raw_dir;

static void flush_cpu(void)
{
	if (blen)
		swd_write_section(&w, SWD_SEC_RECORDS, (uint32_t)cur_cpu, buf,
				  blen, false);
	if (blen && raw_dir) {
		char path[4096];
		FILE *f;

		snprintf(path, sizeof(path), "%s/samples/cpu%d", raw_dir,
			 cur_cpu);
		f = fopen(path, "a");
		if (!f || fwrite(buf, 1, blen, f) != blen || fclose(f)) {
			perror(path);
			exit(1);
		}
	}
	blen = 0;
}

static void *rec(int cpu, size_t size)
{
	void *p;

	if (cpu != cur_cpu || blen + size > sizeof(buf)) {
		flush_cpu();
		cur_cpu = cpu;
	}
	p = buf + blen;
	memset(p, 0, size);
	blen += size;
	return p;
}

static void hdr(struct sw_rec_header *h, int type, int flags, size_t size,
		uint64_t t)
{
	h->type = (uint16_t)type;
	h->flags = (uint16_t)flags;
	h->size = (uint32_t)size;
	h->time = t;
}

static void stream(int cpu, uint64_t t, bool stacks)
{
	struct sw_rec_stream *s = rec(cpu, sizeof(*s));

	hdr(&s->h, SW_REC_STREAM, 0, sizeof(*s), t);
	s->magic = SW_ABI_MAGIC;
	s->major = SW_ABI_MAJOR;
	s->minor = SW_ABI_MINOR;
	s->cpu = (uint32_t)cpu;
	s->ev_type = 1;
	s->flags = stacks ? SW_STREAM_F_KSTACK | SW_STREAM_F_USTACK : 0;
	s->period_or_freq = PERIOD;
	s->max_kstack = s->max_ustack = 64;
	strcpy(s->event, "cpu-clock");
}

static void comm(int cpu, uint64_t t, int flags, uint32_t pid, const char *c)
{
	struct sw_rec_comm *r = rec(cpu, sizeof(*r));

	hdr(&r->h, SW_REC_COMM, flags, sizeof(*r), t);
	r->pid = r->tid = pid;
	strncpy(r->comm, c, SW_COMM_LEN - 1);
}

static void mmap_rec(int cpu, uint64_t t, int flags, uint32_t pid,
		     const struct img *im)
{
	size_t plen = strlen(im->path) + 1;
	size_t size = sizeof(struct sw_rec_mmap) + SW_REC_ALIGN_UP((uint32_t)plen);
	struct sw_rec_mmap *m = rec(cpu, size);

	hdr(&m->h, SW_REC_MMAP, flags, size, t);
	m->pid = m->tid = pid;
	m->start = im->base + im->xvaddr;
	m->len = im->xlen;
	m->pgoff = im->xoff;
	m->prot = 5;
	m->path_len = (uint16_t)plen;
	memcpy((char *)m + size - SW_REC_ALIGN_UP((uint32_t)plen), im->path,
	       plen);
}

static uint64_t rnd_state = 88172645463325252ULL;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/* A runtime address inside @f of @im. */
static uint64_t ip_in(const struct img *im, const struct fn *f)
{
	return im->base + f->vaddr + rnd() % f->size;
}

/* A return address inside @f (somewhere after its start). */
static uint64_t ret_in(const struct img *im, const struct fn *f)
{
	return im->base + f->vaddr + 1 + (f->size > 2 ? 4 % (f->size - 1) : 0);
}

/* A traced call (or @span) of id 1 that returned at @t after @dur ns,
 * two events. */
static void call(int cpu, uint64_t t, uint32_t pid, uint32_t dur, bool span)
{
	size_t size = sizeof(struct sw_rec_call) + 16;
	struct sw_rec_call *c = rec(cpu, size);

	hdr(&c->h, SW_REC_CALL,
	    2 << SW_CALL_NEV_SHIFT | (span ? SW_CALL_F_SPAN : 0), size, t);
	c->pid = c->tid = pid;
	c->dur = dur;
	c->id = 1;
	c->cpu = (uint16_t)cpu;
	c->words[0] = dur / 10;
	c->words[1] = dur & 3;
}

static void sample(int cpu, uint64_t t, uint32_t pid, uint64_t ip,
		   uint64_t period, bool user, const uint64_t *kfr, int nk,
		   const uint64_t *ufr, int nu)
{
	size_t size = sizeof(struct sw_rec_sample) + 8 * (size_t)(nk + nu);
	struct sw_rec_sample *s = rec(cpu, size);

	hdr(&s->h, SW_REC_SAMPLE, user ? SW_SAMPLE_F_USER : 0, size, t);
	s->pid = s->tid = pid;
	s->ip = ip;
	s->period = period;
	s->cpu = (uint32_t)cpu;
	s->nr_kernel = (uint16_t)nk;
	s->nr_user = (uint16_t)nu;
	memcpy(s->frames, kfr, 8 * (size_t)nk);
	memcpy(s->frames + nk, ufr, 8 * (size_t)nu);
}

int main(int argc, char **argv)
{
	static const char kallsyms[] =
		"ffffffff81000000 T _stext\n"
		"ffffffff81001000 T do_syscall_64\n"
		"ffffffff81001400 t helper_fn\n"
		"ffffffff81002000 T _etext\n"
		"ffffffffc0001000 t mod_fn\t[fakemod]\n";
	static const struct option opts[] = {
		{ "samples", required_argument, NULL, 'n' },
		{ "no-end", no_argument, NULL, 'E' },
		{ "cut", required_argument, NULL, 'c' },
		{ "lost", required_argument, NULL, 'l' },
		{ "no-stacks", no_argument, NULL, 'S' },
		{ "raw", required_argument, NULL, 'r' },
		{ "no-synth", no_argument, NULL, 's' },
		{ "warm-period", required_argument, NULL, 'w' },
		{ "calls", required_argument, NULL, 'C' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t nsamples = 1000, lost = 0, cut = 0, i, t = 1000000000ULL;
	uint64_t warm_period = PERIOD, ncalls = 0, k;
	uint64_t child_start, child_end, taken[2] = { 0 }, written[2] = { 0 };
	bool end = true, stacks = true, synth = true;
	struct img pie = { 0 }, nopie = { 0 }, lib = { 0 };
	struct fn hot = { .name = "sym_hot" }, warm = { .name = "sym_warm" }, mid = { .name = "sym_mid" },
		  mainf = { .name = "main" }, lhot = { .name = "lib_hot" };
	struct fn nhot = { .name = "sym_hot" }, nmain = { .name = "main" };
	char p1[4096], p2[4096], p3[4096], meta[1024];
	struct sw_err err = { "" };
	int c, cpu;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			nsamples = strtoull(optarg, NULL, 10);
			break;
		case 'E':
			end = false;
			break;
		case 'c':
			cut = strtoull(optarg, NULL, 10);
			break;
		case 'l':
			lost = strtoull(optarg, NULL, 10);
			break;
		case 'S':
			stacks = false;
			break;
		case 'r':
			raw_dir = optarg;
			break;
		case 'w':
			warm_period = strtoull(optarg, NULL, 10);
			break;
		case 's':
			synth = false;
			break;
		case 'C':
			ncalls = strtoull(optarg, NULL, 10);
			break;
		default:
			return 2;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "usage: swd-gen [--samples N] [--no-end] [--cut BYTES] [--lost N] [--no-stacks] [--no-synth] [--raw DIR] [--calls K] SYMBIN_DIR OUT.swd\n");
		return 2;
	}
	elf_version(EV_CURRENT);
	snprintf(p1, sizeof(p1), "%s/symprog-pie", argv[optind]);
	snprintf(p2, sizeof(p2), "%s/symprog-nopie", argv[optind]);
	snprintf(p3, sizeof(p3), "%s/libsymlib.so", argv[optind]);
	pie.path = realpath(p1, NULL);
	nopie.path = realpath(p2, NULL);
	lib.path = realpath(p3, NULL);
	if (!pie.path || !nopie.path || !lib.path) {
		fprintf(stderr, "swd-gen: test programs not found in %s\n",
			argv[optind]);
		return 1;
	}
	pie.base = PIE_BASE;
	nopie.base = NOPIE_BASE;
	lib.base = LIB_BASE;
	if (find_xload(&pie) || find_xload(&nopie) || find_xload(&lib) ||
	    find_fn(pie.path, &hot) || find_fn(pie.path, &warm) ||
	    find_fn(pie.path, &mid) || find_fn(pie.path, &mainf) ||
	    find_fn(lib.path, &lhot) || find_fn(nopie.path, &nhot) ||
	    find_fn(nopie.path, &nmain)) {
		fprintf(stderr, "swd-gen: cannot read the test programs' symbols\n");
		return 1;
	}

	if (swd_writer_open(&w, argv[optind + 1], &err)) {
		fprintf(stderr, "swd-gen: %s\n", err.msg);
		return 1;
	}
	snprintf(meta, sizeof(meta),
		 "hostname=gen\nrelease=6.1.0-test\nmachine=x86_64\n"
		 "command=symprog\ntarget_pid=%d\nstart_realtime_ns=1700000000000000000\n"
		 "event=cpu-clock\nrate=period=%" PRIu64 "\nperiod=%" PRIu64 "\ncallchain=%s\n%s",
		 PID_MAIN, PERIOD, PERIOD, stacks ? "kernel,user" : "none",
		 ncalls ? "trace_ids=1:sym_work\ntrace_span_ids=1:request\n" : "");
	swd_write_section(&w, SWD_SEC_META, 0, meta, strlen(meta), false);
	swd_write_section(&w, SWD_SEC_KALLSYMS, 0, kallsyms,
			  sizeof(kallsyms) - 1, true);

	for (cpu = 0; cpu < 2; cpu++)
		stream(cpu, t, stacks);
	/* The target already exists at start: synthesized records. */
	if (synth) {
		comm(0, t, SW_REC_F_SYNTH, PID_MAIN, "symprog");
		mmap_rec(0, t, SW_REC_F_SYNTH, PID_MAIN, &pie);
		mmap_rec(0, t, SW_REC_F_SYNTH, PID_MAIN, &lib);
		/* An unrelated process: left out unless --all. */
		comm(0, t, SW_REC_F_SYNTH, 77, "other");
	}
	flush_cpu();

	child_start = nsamples / 3;
	child_end = child_start + nsamples / 5;
	for (i = 0; i < nsamples; i++) {
		uint64_t kfr[4], ufr[8], r = rnd() % 100;
		uint32_t pid = PID_MAIN;
		int nk = 0, nu = 0;
		uint64_t ip;
		bool user = true;
		uint64_t period = PERIOD;

		cpu = (int)(i & 1);
		t += 500000;
		if (i == child_start) {
			struct sw_rec_fork *f = rec(0, sizeof(*f));

			hdr(&f->h, SW_REC_FORK, 0, sizeof(*f), t - 1);
			f->pid = f->tid = PID_CHILD;
			f->ppid = f->ptid = PID_MAIN;
			strcpy(f->comm, "symprog");
			comm(0, t - 1, SW_COMM_F_EXEC, PID_CHILD, "symchild");
			mmap_rec(0, t - 1, 0, PID_CHILD, &nopie);
			mmap_rec(0, t - 1, 0, PID_CHILD, &lib);
		}
		if (i == child_end) {
			struct sw_rec_exit *x = rec(0, sizeof(*x));

			hdr(&x->h, SW_REC_EXIT, 0, sizeof(*x), t - 1);
			x->pid = x->tid = PID_CHILD;
		}
		if (i >= child_start && i < child_end && r < 50) {
			pid = PID_CHILD;
			ip = ip_in(&nopie, &nhot);
			ufr[nu++] = ip;
			ufr[nu++] = ret_in(&nopie, &nmain);
		} else if (r < 55) {
			ip = ip_in(&pie, &hot);
			ufr[nu++] = ip;
			ufr[nu++] = ret_in(&pie, &mid);
			ufr[nu++] = ret_in(&pie, &mainf);
		} else if (r < 75) {
			period = warm_period;
			ip = ip_in(&pie, &warm);
			ufr[nu++] = ip;
			ufr[nu++] = ret_in(&pie, &mid);
			ufr[nu++] = ret_in(&pie, &mainf);
		} else if (r < 85) {
			ip = ip_in(&lib, &lhot);
			ufr[nu++] = ip;
			ufr[nu++] = ret_in(&pie, &mid);
			ufr[nu++] = ret_in(&pie, &mainf);
		} else if (r < 90) {
			user = false;
			ip = KBASE + 0x1000 + rnd() % 0x400;
			kfr[nk++] = ip;
			ufr[nu++] = ret_in(&pie, &mainf) + 8;
		} else {
			/* The child's share outside its lifetime goes to the
			 * parent's hot loop. */
			ip = ip_in(&pie, &hot);
			ufr[nu++] = ip;
			ufr[nu++] = ret_in(&pie, &mid);
			ufr[nu++] = ret_in(&pie, &mainf);
		}
		if (!stacks)
			nk = nu = 0;
		/* the span from t - 400 us to t - 100 us, the calls in it */
		for (k = ncalls >= 2; k < ncalls; k++)
			call(cpu, t - 400000 + 100000 * k / ncalls + 50000 / ncalls,
			     pid, (uint32_t)(40000 / ncalls + k), false);
		if (ncalls >= 2)
			call(cpu, t - 100000, pid, 300000, true);
		sample(cpu, t, pid, ip, period, user, kfr, nk, ufr, nu);
		taken[cpu]++;
		written[cpu]++;
	}
	if (lost) {
		struct sw_rec_lost *l = rec(1, sizeof(*l));

		hdr(&l->h, SW_REC_LOST, 0, sizeof(*l), t + 1);
		l->cpu = 1;
		l->full = lost;
		taken[1] += lost;
	}
	if (end)
		for (cpu = 0; cpu < 2; cpu++) {
			struct sw_rec_end *e = rec(cpu, sizeof(*e));

			hdr(&e->h, SW_REC_END, 0, sizeof(*e), t + 2);
			e->cpu = (uint32_t)cpu;
			e->taken = taken[cpu];
			e->written = written[cpu];
			e->lost_full = cpu ? lost : 0;
		}
	flush_cpu();
	if (end) {
		char kv[128];

		snprintf(kv, sizeof(kv), "duration_ns=%" PRIu64 "\nsamples=%" PRIu64 "\n",
			 (uint64_t)(t - 1000000000ULL), nsamples);
		swd_write_section(&w, SWD_SEC_END, 0, kv, strlen(kv), false);
	}
	if (swd_writer_close(&w, &err)) {
		fprintf(stderr, "swd-gen: %s\n", err.msg);
		return 1;
	}
	if (cut && truncate(argv[optind + 1], (off_t)cut)) {
		perror("swd-gen: truncate");
		return 1;
	}
	free((char *)pie.path);
	free((char *)nopie.path);
	free((char *)lib.path);
	return 0;
}
