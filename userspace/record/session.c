// SPDX-License-Identifier: GPL-2.0
/*
 * session.c - open a recording, account for its losses, replay it in time
 * order.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <fcntl.h>
#include <unistd.h>

#include "control/debugfs.h"
#include "control/snapshot.h"
#include "record/session.h"

static int sw_push(const struct sw_rec_header ***v, size_t *n, size_t *cap,
		   const struct sw_rec_header *h)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 1024;
		const struct sw_rec_header **p = realloc(*v, c * sizeof(*p));

		if (!p)
			return -ENOMEM;
		*v = p;
		*cap = c;
	}
	(*v)[(*n)++] = h;
	return 0;
}

static struct sw_cpu_recs *sw_cpu_of(struct sw_session *s, uint32_t cpu)
{
	struct sw_cpu_recs *c;
	size_t i;

	for (i = 0; i < s->ncpus; i++)
		if (s->cpus[i].cpu == cpu)
			return &s->cpus[i];
	c = realloc(s->cpus, (s->ncpus + 1) * sizeof(*c));
	if (!c)
		return NULL;
	s->cpus = c;
	c = &s->cpus[s->ncpus++];
	memset(c, 0, sizeof(*c));
	c->cpu = cpu;
	return c;
}

/* Minimum size of each record type (before any variable part). */
static const uint32_t sw_rec_min[SW_REC_TYPE_MAX] = {
	[SW_REC_STREAM] = sizeof(struct sw_rec_stream),
	[SW_REC_SAMPLE] = sizeof(struct sw_rec_sample),
	[SW_REC_COMM] = sizeof(struct sw_rec_comm),
	[SW_REC_FORK] = sizeof(struct sw_rec_fork),
	[SW_REC_EXIT] = sizeof(struct sw_rec_exit),
	[SW_REC_MMAP] = sizeof(struct sw_rec_mmap),
	/* LOST and END grew in minor 1: the minor 0 sizes */
	[SW_REC_LOST] = 64,
	[SW_REC_KERNEL] = sizeof(struct sw_rec_kernel),
	[SW_REC_MODULE] = sizeof(struct sw_rec_module),
	[SW_REC_END] = 96,
	[SW_REC_CALL] = sizeof(struct sw_rec_call),
};

/* A record of a type that grew, copied up to what it holds, zero beyond. */
static void sw_copy_rec(void *dst, size_t dsize, const struct sw_rec_header *h)
{
	size_t n = h->size < dsize ? h->size : dsize;

	memset(dst, 0, dsize);
	memcpy(dst, h, n);
}

struct sw_end_seen {
	uint32_t cpu;
	struct sw_rec_end end;
};

/**
 * sw_sampler_counters() - the losses of the sampler file's "all" row
 * (sw_sampler_parse(), the one reader of the table), for a recording's
 * saved copy and for stopwatch record's summary.
 * @text:       the sampler file's text
 * @len:        its length
 * @c:          taken, written, the lost causes and sb_lost into it
 * @kthrottled: the kernel's throttling stops, 0 from a module without the
 *              column (NULL: not wanted)
 *
 * Return: 0, -EINVAL when the table or one of @c's columns is missing or
 * malformed, or -ENOMEM.
 */
int sw_sampler_counters(const char *text, size_t len, struct sw_losses *c,
			uint64_t *kthrottled)
{
	static const char *const names[] = {
		"taken", "written", "lost_full", "lost_nested",
		"lost_stack", "lost_throttled", "sb_lost",
	};
	struct sw_sampler_counts *sc = NULL;
	char *buf = strndup(text, len);
	uint64_t v[7], kt;
	size_t k;
	int ret;

	if (!buf)
		return -ENOMEM;
	ret = sw_sampler_parse(buf, "sampler", &sc, NULL);
	free(buf);
	if (ret)
		return ret == -ENOMEM ? ret : -EINVAL;
	ret = -EINVAL;
	for (k = 0; k < 7; k++)
		if (sw_sampler_count(sc, names[k], &v[k]))
			goto out;
	if (sw_sampler_count(sc, "kthrottled", &kt))
		kt = 0;
	c->taken = v[0];
	c->written = v[1];
	c->full = v[2];
	c->nested = v[3];
	c->stack = v[4];
	c->throttled = v[5];
	c->sideband = v[6];
	if (kthrottled)
		*kthrottled = kt;
	ret = 0;
out:
	sw_sampler_counts_free(sc);
	return ret;
}

/* What sw_index_one() found a record to be. */
enum sw_index_kind {
	SW_IDX_DONE,	/* taken in (settings, losses) or skipped */
	SW_IDX_SYNTH,	/* state at start: applied before the streams */
	SW_IDX_STREAM,	/* a record of its CPU's stream */
};

/*
 * Looks at one record of CPU @cpu's stream (@state: of a STATE section):
 * keeps the settings, the losses and the END records.
 * Return: an enum sw_index_kind, or a negative errno (@err set).
 */
static int sw_index_one(struct sw_session *s, const struct sw_rec_header *h,
			uint32_t cpu, bool state, struct sw_end_seen **ends,
			size_t *nends, struct sw_losses *lostrec,
			struct sw_err *err)
{
	if (h->type < SW_REC_TYPE_MAX && h->size < sw_rec_min[h->type]) {
		s->bad_records++;
		return SW_IDX_DONE;
	}
	switch (h->type) {
	case SW_REC_STREAM: {
		const struct sw_rec_stream *st = (const void *)h;

		if (st->magic != SW_ABI_MAGIC)
			return sw_err_set(err, -EPROTO,
					  "%s: the records of CPU %u were written on a machine of another byte order",
					  s->path, cpu);
		if (st->major != SW_ABI_MAJOR)
			return sw_err_set(err, -EPROTO,
					  "%s: the sampler wrote record format %u.%u; this stopwatch reads %u.x (rebuild one of them)",
					  s->path, st->major, st->minor,
					  SW_ABI_MAJOR);
		if (!s->have_stream) {
			s->stream = *st;
			s->have_stream = true;
		}
		return SW_IDX_DONE;
	}
	case SW_REC_KERNEL:
		if (!s->kernel.h.type)
			memcpy(&s->kernel, h, sizeof(s->kernel));
		return SW_IDX_DONE;
	case SW_REC_LOST: {
		struct sw_rec_lost lb, *l = &lb;

		sw_copy_rec(&lb, sizeof(lb), h);
		lostrec->call_full += l->call_full;
		lostrec->call_nested += l->call_nested;
		lostrec->full += l->full;
		lostrec->nested += l->nested;
		lostrec->stack += l->stack;
		lostrec->throttled += l->throttled;
		lostrec->sideband += l->sideband;
		return SW_IDX_DONE;
	}
	case SW_REC_END: {
		struct sw_end_seen *e = NULL;
		size_t k;

		/* A CPU that went offline and came back ends its stream
		 * more than once; END counters are cumulative over the
		 * session: its last END holds its totals. */
		for (k = 0; k < *nends; k++)
			if ((*ends)[k].cpu == cpu)
				e = &(*ends)[k];
		if (e) {
			if (h->time >= e->end.h.time)
				sw_copy_rec(&e->end, sizeof(e->end), h);
			return SW_IDX_DONE;
		}
		e = realloc(*ends, (*nends + 1) * sizeof(*e));
		if (!e)
			return sw_err_set(err, -ENOMEM, "out of memory");
		*ends = e;
		e[*nends].cpu = cpu;
		sw_copy_rec(&e[*nends].end, sizeof(e->end), h);
		(*nends)++;
		return SW_IDX_DONE;
	}
	case SW_REC_SAMPLE:
		if (!sw_sample_frames((const void *)h)) {
			s->bad_records++;
			return SW_IDX_DONE;
		}
		s->nsamples++;
		break;
	case SW_REC_CALL:
		if (h->size < sizeof(struct sw_rec_call) +
				      8 * sw_call_nwords(h->flags)) {
			s->bad_records++;
			return SW_IDX_DONE;
		}
		s->ncalls++;
		break;
	case SW_REC_COMM:
	case SW_REC_FORK:
	case SW_REC_EXIT:
	case SW_REC_MMAP:
	case SW_REC_MODULE:
		if (state || h->flags & SW_REC_F_SYNTH)
			return SW_IDX_SYNTH;
		break;
	default:
		return SW_IDX_DONE;	/* a later minor's type: skip */
	}
	if (state) {
		s->bad_records++;
		return SW_IDX_DONE;
	}
	return SW_IDX_STREAM;
}

/* Walks one section's records into the per-CPU lists. */
static int sw_index_records(struct sw_session *s, const struct swd_section *sec,
			    struct sw_end_seen **ends, size_t *nends,
			    struct sw_losses *lostrec, struct sw_err *err)
{
	const unsigned char *p = sec->data, *end = p + sec->size;
	bool state = sec->type == SWD_SEC_STATE;
	struct sw_cpu_recs *c = NULL;
	int ret;

	if (!state) {
		c = sw_cpu_of(s, sec->arg);
		if (!c)
			return sw_err_set(err, -ENOMEM, "out of memory");
	}
	while (p < end) {
		const struct sw_rec_header *h = (const void *)p;

		p += h->size;
		ret = sw_index_one(s, h, sec->arg, state, ends, nends, lostrec,
				   err);
		if (ret == SW_IDX_SYNTH)
			ret = sw_push(&s->synth, &s->nsynth, &s->synthcap, h);
		else if (ret == SW_IDX_STREAM)
			ret = sw_push(&c->rec, &c->n, &c->cap, h);
		if (ret == -ENOMEM)
			return sw_err_set(err, ret, "out of memory");
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int sw_session_perfmap(void *arg, uint32_t pid, const char **text,
			      size_t *len)
{
	struct sw_session *s = arg;
	uint64_t idx;

	char path[64], *buf, **owned;
	int fd, ret;

	if (sw_u64map_get(&s->perfmaps, pid, &idx)) {
		*text = s->file->sec[idx].data;
		*len = s->file->sec[idx].size;
		return 0;
	}
	/* Not recorded: the JIT may have written it after recording ended,
	 * as perf reads it at report time. */
	snprintf(path, sizeof(path), "/tmp/perf-%" PRIu32 ".map", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = sw_read_fd(fd, &buf, len);
	close(fd);
	if (ret)
		return ret;
	/* Kept until the session closes. */
	owned = realloc(s->owned, (s->nowned + 1) * sizeof(*owned));
	if (!owned) {
		free(buf);
		return -ENOMEM;
	}
	s->owned = owned;
	s->owned[s->nowned++] = buf;
	*text = buf;
	return 0;
}

/* The build-id the recorder read from @path ("hex path" lines). */
static unsigned int sw_session_build_id(void *arg, const char *path,
					unsigned char *bid)
{
	struct sw_session *s = arg;
	const struct swd_section *sec = swd_find(s->file, SWD_SEC_BUILDIDS);
	const char *p, *end;
	size_t plen = strlen(path);

	if (!sec)
		return 0;
	p = sec->data;
	end = p + sec->size;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *sp;
		unsigned int n = 0;

		if (!nl)
			nl = end;
		sp = memchr(p, ' ', (size_t)(nl - p));
		if (sp && (size_t)(nl - sp - 1) == plen &&
		    !memcmp(sp + 1, path, plen) && (sp - p) % 2 == 0 &&
		    (sp - p) / 2 <= SW_BUILD_ID_MAX) {
			for (; p + 2 * n < sp; n++) {
				unsigned int v;

				if (sscanf(p + 2 * n, "%2x", &v) != 1)
					return 0;
				bid[n] = (unsigned char)v;
			}
			return n;
		}
		p = nl + 1;
	}
	return 0;
}

/*
 * Losses: END records per CPU are exact; else the final counters of the
 * sampler file (@cnt, or NULL); else what the LOST records said.
 */
static void sw_session_losses(struct sw_session *s,
			      const struct sw_end_seen *ends, size_t nends,
			      const struct sw_losses *lostrec,
			      const struct sw_losses *cnt)
{
	size_t i, j;

	s->lost.ncpus = (unsigned int)s->ncpus;
	for (i = 0; i < s->ncpus; i++) {
		bool found = false;

		for (j = 0; j < nends; j++)
			if (ends[j].cpu == s->cpus[i].cpu)
				found = true;
		if (!found)
			s->lost.cpus_no_end++;
	}
	if (nends && !s->lost.cpus_no_end) {
		for (j = 0; j < nends; j++) {
			const struct sw_rec_end *e = &ends[j].end;

			s->lost.taken += e->taken;
			s->lost.written += e->written;
			s->lost.full += e->lost_full;
			s->lost.nested += e->lost_nested;
			s->lost.stack += e->lost_stack;
			s->lost.throttled += e->lost_throttled;
			s->lost.sideband += e->sideband_lost;
			s->lost.call_taken += e->call_taken;
			s->lost.call_written += e->call_written;
			s->lost.call_full += e->call_lost_full;
			s->lost.call_nested += e->call_lost_nested;
		}
		s->lost.counted = true;
	} else if (cnt) {
		s->lost = (struct sw_losses){
			.taken = cnt->taken, .written = cnt->written,
			.full = cnt->full, .nested = cnt->nested,
			.stack = cnt->stack, .throttled = cnt->throttled,
			.sideband = cnt->sideband, .counted = true,
			.cpus_no_end = s->lost.cpus_no_end,
			.ncpus = s->lost.ncpus,
		};
	} else {
		s->lost.full = lostrec->full;
		s->lost.nested = lostrec->nested;
		s->lost.stack = lostrec->stack;
		s->lost.throttled = lostrec->throttled;
		s->lost.sideband = lostrec->sideband;
	}
	if (!(nends && !s->lost.cpus_no_end)) {
		s->lost.call_full = lostrec->call_full;
		s->lost.call_nested = lostrec->call_nested;
	}
	s->lost.calls_read = s->ncalls;
	if (s->lost.counted && s->lost.call_written > s->ncalls)
		s->lost.calls_missing = s->lost.call_written - s->ncalls;
	s->lost.read = s->nsamples;
	if (s->lost.counted && s->lost.written > s->nsamples)
		s->lost.missing = s->lost.written - s->nsamples;
}

int sw_session_open(const char *path, const struct sw_session_opts *o,
		    struct sw_session **out, struct sw_err *err)
{
	struct sw_losses lostrec = { 0 }, cnt = { 0 };
	struct sw_end_seen *ends = NULL;
	const struct swd_section *sec;
	struct sw_session *s;
	size_t nends = 0, i;
	bool have_cnt = false;
	char *v;
	int ret;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return sw_err_set(err, -ENOMEM, "out of memory");
	sw_u64map_init(&s->perfmaps);
	ret = sw_machine_init(&s->m);
	if (!ret)
		ret = sw_symbolizer_init(&s->sym, &s->m,
					 o ? o->debuginfo_path : NULL);
	if (ret) {
		sw_err_set(err, ret, "out of memory");
		goto fail;
	}
	if (o) {
		s->sym.no_src = o->no_src;
		s->sym.no_demangle = o->no_demangle;
		s->sym.vmlinux = o->vmlinux;
		s->sym.kmod_dir = o->kmod_dir;
		s->sym.warn = o->warn;
		s->sym.warn_arg = o->warn_arg;
	}
	ret = swd_open(path, &s->file, err);
	if (ret)
		goto fail;
	s->path = s->file->path;
	s->meta = swd_find(s->file, SWD_SEC_META);
	v = sw_session_meta(s, "target_pid");
	if (v && (!o || !o->all_pids))
		s->target_pid = (uint32_t)strtoul(v, NULL, 10);
	free(v);

	for (i = 0; i < s->file->nsec; i++) {
		sec = &s->file->sec[i];
		if (sec->type == SWD_SEC_RECORDS || sec->type == SWD_SEC_STATE) {
			ret = sw_index_records(s, sec, &ends, &nends, &lostrec,
					       err);
			if (ret)
				goto fail;
		} else if (sec->type == SWD_SEC_PERFMAP) {
			ret = sw_u64map_put(&s->perfmaps, sec->arg, i);
			if (ret) {
				sw_err_set(err, ret, "out of memory");
				goto fail;
			}
		} else if (sec->type == SWD_SEC_VDSO && !s->sym.vdso) {
			s->sym.vdso = sec->data;
			s->sym.vdso_size = sec->size;
		} else if (sec->type == SWD_SEC_COUNTERS) {
			have_cnt = !sw_sampler_counters(sec->data, sec->size,
							 &cnt, NULL);
		}
	}
	s->sym.perfmap_text = sw_session_perfmap;
	s->sym.build_id_of = sw_session_build_id;
	s->sym.perfmap_arg = s;

	memcpy(s->krelease, s->kernel.release, SW_RELEASE_LEN);
	s->krelease[SW_RELEASE_LEN] = '\0';
	s->sym.krelease = s->krelease;
	sec = swd_find(s->file, SWD_SEC_KALLSYMS);
	if (sec) {
		char ref[SW_SYMNAME_LEN + 1];

		memcpy(ref, s->kernel.ref_name, SW_SYMNAME_LEN);
		ref[SW_SYMNAME_LEN] = '\0';
		ret = sw_symbolizer_set_kallsyms(&s->sym, sec->data, sec->size,
						 s->kernel.h.type ? ref : NULL,
						 s->kernel.ref_addr);
		if (ret) {
			sw_err_set(err, ret, "out of memory");
			goto fail;
		}
	}

	sw_session_losses(s, ends, nends, &lostrec, have_cnt ? &cnt : NULL);
	free(ends);
	*out = s;
	return 0;
fail:
	free(ends);
	sw_session_close(s);
	return ret;
}

/* What a replay hands records to: samples only, or every record. */
struct sw_replay_cb {
	int (*on_sample)(void *arg, const struct sw_rec_sample *smp);
	int (*on_rec)(void *arg, const struct sw_rec_header *h, uint32_t cpu);
	void *arg;
	uint32_t cpu;	/* the stream of the record being replayed */
	bool synth;	/* replaying the records synthesized at start */
};

/* A session fed while recording (sw_session_live_open()). */
struct sw_session_live {
	char *meta_text;
	struct swd_section meta;
	struct sw_u64map tree;
	struct sw_end_seen *ends;
	size_t nends;
	struct sw_losses lostrec;
	struct sw_replay_cb cb;
	uint64_t last;
	uint64_t late;
};

static void sw_session_live_free(struct sw_session_live *l)
{
	if (!l)
		return;
	free(l->meta_text);
	sw_u64map_free(&l->tree);
	free(l->ends);
	free(l);
}

void sw_session_close(struct sw_session *s)
{
	size_t i;

	if (!s)
		return;
	sw_symbolizer_free(&s->sym);
	sw_machine_free(&s->m);
	for (i = 0; i < s->ncpus; i++) {
		struct sw_cpu_recs *c = &s->cpus[i];

		/* live: the records still queued are copies */
		for (; s->live && c->head < c->n; c->head++)
			free((void *)c->rec[c->head]);
		free(c->rec);
	}
	free(s->cpus);
	sw_session_live_free(s->live);
	free(s->synth);
	sw_u64map_free(&s->perfmaps);
	for (i = 0; i < s->nowned; i++)
		free(s->owned[i]);
	free(s->owned);
	swd_close(s->file);
	free(s);
}

char *sw_session_meta(const struct sw_session *s, const char *key)
{
	char *v = swd_kv_get(s->meta, key);

	return v || !s->file ? v :
		swd_kv_get(swd_find(s->file, SWD_SEC_END), key);
}

/* ---- replay ---------------------------------------------------------------- */

struct sw_heap {
	size_t *idx;	/* CPU stream indices, min-heap by next record time */
	size_t n;
	size_t *pos;
	struct sw_cpu_recs *cpus;
};

static inline uint64_t sw_heap_time(const struct sw_heap *h, size_t i)
{
	const struct sw_cpu_recs *c = &h->cpus[h->idx[i]];

	return c->rec[h->pos[h->idx[i]]]->time;
}

static void sw_heap_down(struct sw_heap *h, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i, t;

		if (l < h->n && sw_heap_time(h, l) < sw_heap_time(h, m))
			m = l;
		if (r < h->n && sw_heap_time(h, r) < sw_heap_time(h, m))
			m = r;
		if (m == i)
			return;
		t = h->idx[i];
		h->idx[i] = h->idx[m];
		h->idx[m] = t;
		i = m;
	}
}

/* Is @pid in the recorded command's process tree? */
static bool sw_in_target(struct sw_u64map *tree, uint32_t pid)
{
	uint64_t v;

	return sw_u64map_get(tree, pid, &v);
}

static int sw_replay_one(struct sw_session *s, const struct sw_rec_header *h,
			 struct sw_u64map *tree, struct sw_replay_cb *cb)
{
	const struct sw_rec_sample *smp;
	int ret;

	if (h->type == SW_REC_CALL) {
		const struct sw_rec_call *c = (const void *)h;

		if (s->target_pid && !sw_in_target(tree, c->pid)) {
			s->filtered++;
			return 0;
		}
		return cb->on_rec ? cb->on_rec(cb->arg, h, cb->cpu) : 0;
	}
	if (h->type != SW_REC_SAMPLE) {
		if (h->type == SW_REC_FORK && s->target_pid) {
			const struct sw_rec_fork *f = (const void *)h;

			if (sw_in_target(tree, f->ppid) &&
			    sw_u64map_put(tree, f->pid, 1))
				return -ENOMEM;
		}
		ret = sw_machine_record(&s->m, h);
		if (ret == -EINVAL) {
			s->bad_records++;
			return 0;
		}
		if (ret || !cb->on_rec || cb->synth)
			return ret;
		return cb->on_rec(cb->arg, h, cb->cpu);
	}
	smp = (const void *)h;
	if (s->target_pid && !sw_in_target(tree, smp->pid)) {
		s->filtered++;
		return 0;
	}
	if (!s->first_time || h->time < s->first_time)
		s->first_time = h->time;
	if (h->time > s->last_time)
		s->last_time = h->time;
	return cb->on_rec ? cb->on_rec(cb->arg, h, cb->cpu) :
			    cb->on_sample(cb->arg, smp);
}

static int sw_replay(struct sw_session *s, struct sw_replay_cb *cb)
{
	struct sw_heap h = { 0 };
	struct sw_u64map tree;
	const struct swd_section *mods;
	size_t i;
	int ret = 0;

	sw_u64map_init(&tree);
	if (s->target_pid && sw_u64map_put(&tree, s->target_pid, 1))
		return -ENOMEM;
	cb->synth = true;
	for (i = 0; i < s->nsynth; i++) {
		ret = sw_replay_one(s, s->synth[i], &tree, cb);
		if (ret)
			goto out;
	}
	cb->synth = false;
	/* Without MODULE records, the /proc/modules snapshot. */
	mods = swd_find(s->file, SWD_SEC_MODULES);
	if (!s->m.nkmod && mods) {
		ret = sw_machine_add_modules(&s->m, mods->data, mods->size);
		if (ret)
			goto out;
	}
	h.cpus = s->cpus;
	h.idx = calloc(s->ncpus + 1, sizeof(*h.idx));
	h.pos = calloc(s->ncpus + 1, sizeof(*h.pos));
	if (!h.idx || !h.pos) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < s->ncpus; i++)
		if (s->cpus[i].n)
			h.idx[h.n++] = i;
	for (i = h.n; i-- > 0;)
		sw_heap_down(&h, i);
	while (h.n) {
		size_t c = h.idx[0];
		const struct sw_rec_header *rec = s->cpus[c].rec[h.pos[c]];

		if (++h.pos[c] == s->cpus[c].n) {
			h.idx[0] = h.idx[--h.n];
		}
		if (h.n)
			sw_heap_down(&h, 0);
		cb->cpu = s->cpus[c].cpu;
		ret = sw_replay_one(s, rec, &tree, cb);
		if (ret)
			goto out;
	}
out:
	free(h.idx);
	free(h.pos);
	sw_u64map_free(&tree);
	return ret;
}

int sw_session_for_each(struct sw_session *s,
			int (*on_sample)(void *arg,
					 const struct sw_rec_sample *smp),
			void *arg)
{
	struct sw_replay_cb cb = { .on_sample = on_sample, .arg = arg };

	return sw_replay(s, &cb);
}

int sw_session_replay(struct sw_session *s,
		      int (*on_rec)(void *arg, const struct sw_rec_header *h,
				    uint32_t cpu),
		      void *arg)
{
	struct sw_replay_cb cb = { .on_rec = on_rec, .arg = arg };

	return sw_replay(s, &cb);
}

int64_t sw_session_locate(struct sw_session *s, uint32_t pid, uint64_t addr,
			  bool kernel, bool ret_addr, bool srcline)
{
	uint32_t image;
	uint64_t rel;

	if (ret_addr && addr)
		addr--;
	sw_machine_locate(&s->m, pid, addr, kernel, &image, &rel);
	return sw_symbolize(&s->sym, image, rel, srcline);
}

/* ---- live: fed while recording ------------------------------------------------ */

int sw_session_live_open(const char *meta, size_t len, bool all_pids,
			 int (*on_rec)(void *arg, const struct sw_rec_header *h,
				       uint32_t cpu),
			 void *arg, struct sw_session **out, struct sw_err *err)
{
	struct sw_session_live *l;
	struct sw_session *s;
	char *v;
	int ret;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	l = calloc(1, sizeof(*l));
	if (!s || !l) {
		free(s);
		free(l);
		return sw_err_set(err, -ENOMEM, "out of memory");
	}
	s->live = l;
	s->path = "the live recording";
	sw_u64map_init(&s->perfmaps);
	sw_u64map_init(&l->tree);
	l->cb.on_rec = on_rec;
	l->cb.arg = arg;
	ret = sw_machine_init(&s->m);
	if (!ret)
		ret = sw_symbolizer_init(&s->sym, &s->m, NULL);
	l->meta_text = malloc(len + 1);
	if (ret || !l->meta_text) {
		sw_session_close(s);
		return sw_err_set(err, -ENOMEM, "out of memory");
	}
	memcpy(l->meta_text, meta, len);
	l->meta_text[len] = '\0';
	l->meta.type = SWD_SEC_META;
	l->meta.data = l->meta_text;
	l->meta.size = len;
	s->meta = &l->meta;
	v = sw_session_meta(s, "target_pid");
	if (v && !all_pids)
		s->target_pid = (uint32_t)strtoul(v, NULL, 10);
	free(v);
	if (s->target_pid && sw_u64map_put(&l->tree, s->target_pid, 1)) {
		sw_session_close(s);
		return sw_err_set(err, -ENOMEM, "out of memory");
	}
	*out = s;
	return 0;
}

int sw_session_live_cpu(struct sw_session *s, uint32_t cpu)
{
	return sw_cpu_of(s, cpu) ? 0 : -ENOMEM;
}

int sw_session_live_add(struct sw_session *s, const struct sw_rec_header *h,
			uint32_t cpu, struct sw_err *err)
{
	struct sw_session_live *l = s->live;
	struct sw_cpu_recs *c = sw_cpu_of(s, cpu);
	struct sw_rec_header *copy;
	int ret;

	if (!c)
		return sw_err_set(err, -ENOMEM, "out of memory");
	ret = sw_index_one(s, h, cpu, false, &l->ends, &l->nends, &l->lostrec,
			   err);
	if (ret < 0)
		return ret;
	if (ret == SW_IDX_SYNTH) {
		l->cb.synth = true;
		l->cb.cpu = cpu;
		ret = sw_replay_one(s, h, &l->tree, &l->cb);
		l->cb.synth = false;
		return ret;
	}
	if (h->time > c->seen)
		c->seen = h->time;
	if (ret != SW_IDX_STREAM)
		return 0;
	/* the queue of a CPU that keeps producing: drop what was taken */
	if (c->head >= 4096 && 2 * c->head >= c->n) {
		memmove(c->rec, c->rec + c->head,
			(c->n - c->head) * sizeof(*c->rec));
		c->n -= c->head;
		c->head = 0;
	}
	copy = malloc(h->size);
	if (!copy)
		return sw_err_set(err, -ENOMEM, "out of memory");
	memcpy(copy, h, h->size);
	ret = sw_push(&c->rec, &c->n, &c->cap, copy);
	if (ret) {
		free(copy);
		return sw_err_set(err, ret, "out of memory");
	}
	return 0;
}

int sw_session_live_flush(struct sw_session *s, uint64_t horizon)
{
	struct sw_session_live *l = s->live;

	for (;;) {
		struct sw_cpu_recs *best = NULL;
		const struct sw_rec_header *h;
		uint64_t limit = UINT64_MAX, t = 0;
		size_t i;
		int ret;

		for (i = 0; i < s->ncpus; i++) {
			struct sw_cpu_recs *c = &s->cpus[i];

			if (c->head < c->n) {
				uint64_t ct = c->rec[c->head]->time;

				if (!best || ct < t) {
					best = c;
					t = ct;
				}
			} else if ((c->seen > horizon ? c->seen : horizon) < limit) {
				limit = c->seen > horizon ? c->seen : horizon;
			}
		}
		if (!best || t > limit)
			return 0;
		h = best->rec[best->head++];
		if (best->head == best->n)
			best->head = best->n = 0;
		if (t < l->last)
			l->late++;
		else
			l->last = t;
		l->cb.cpu = best->cpu;
		ret = sw_replay_one(s, h, &l->tree, &l->cb);
		free((void *)h);
		if (ret)
			return ret;
	}
}

uint64_t sw_session_live_late(const struct sw_session *s)
{
	return s->live ? s->live->late : 0;
}

int sw_session_live_end(struct sw_session *s, const char *counters)
{
	struct sw_session_live *l = s->live;
	struct sw_losses cnt = { 0 };
	bool have_cnt = false;
	int ret;

	ret = sw_session_live_flush(s, UINT64_MAX);
	if (counters)
		have_cnt = !sw_sampler_counters(counters, strlen(counters),
						 &cnt, NULL);
	memset(&s->lost, 0, sizeof(s->lost));
	sw_session_losses(s, l->ends, l->nends, &l->lostrec,
			  have_cnt ? &cnt : NULL);
	return ret;
}
