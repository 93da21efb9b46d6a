// SPDX-License-Identifier: GPL-2.0
/*
 * timeline.c - replay a recording once for one or more timeline writers:
 * calls named by their probe or span, threads announced before their
 * first record and again when renamed, samples' stacks symbolized
 * (outermost first) once for all writers.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/timeline.h"

/**
 * struct sw_timeline_run - one replay.
 * @o:          what and where
 * @s:          the recording
 * @names:      probes' names by id (META trace_ids)
 * @span_names: spans' names by id (META trace_span_ids)
 * @ev_buf:     the META events value, split into @ev_names
 * @ev_default: "evN"
 * @ev_names:   the events' names
 * @bad:        call records that did not decode (skipped)
 * @tl:         each writer's view
 * @w:          each writer's state
 * @regular:    each output is a regular file (removed on failure)
 * @frames:     the sample being given, symbolized
 */
struct sw_timeline_run {
	const struct sw_timeline_opts *o;
	struct sw_session *s;
	struct sw_call_names names, span_names;
	char *ev_buf;
	char ev_default[SW_CALL_NEV_MASK + 1][8];
	const char *ev_names[SW_CALL_NEV_MASK + 1];
	uint64_t bad;
	struct sw_timeline tl[SW_TIMELINE_MAX_OUTS];
	void *w[SW_TIMELINE_MAX_OUTS];
	bool regular[SW_TIMELINE_MAX_OUTS];
	int64_t frames[SW_TIMELINE_MAX_FRAMES];
};

static uint64_t sw_timeline_key(uint32_t pid, uint32_t tid)
{
	return (uint64_t)pid << 32 | tid;
}

static const char *sw_timeline_comm(struct sw_session *s, uint32_t pid,
				    uint32_t tid)
{
	return sw_str(&s->m, sw_machine_comm(&s->m, pid, tid));
}

/* Announces the thread to writer @i the first time it is seen. */
static int sw_timeline_thread(struct sw_timeline_run *r, unsigned int i,
			      uint32_t pid, uint32_t tid)
{
	struct sw_timeline *tl = &r->tl[i];
	uint64_t key = sw_timeline_key(pid, tid), v;
	int ret;

	if (sw_u64map_get(&tl->seen, key, &v))
		return 0;
	ret = sw_u64map_put(&tl->seen, key, 1);
	if (ret)
		return ret;
	tl->threads++;
	return r->o->outs[i].ops->thread(tl, r->w[i], pid, tid,
					 sw_timeline_comm(r->s, pid, tid),
					 sw_timeline_comm(r->s, pid, pid),
					 false);
}

static int sw_timeline_call(struct sw_timeline_run *r,
			    const struct sw_rec_header *h, uint32_t cpu)
{
	struct sw_call_info ci;
	char tmp[16], func[256];
	const char *name;
	unsigned int i;
	int ret;

	if (sw_call_decode(h, cpu, &ci)) {
		r->bad++;
		return 0;
	}
	if (ci.span) {
		/* a span's slice carries the span's name, whole */
		name = r->span_names.name[ci.id] ? r->span_names.name[ci.id] :
			sw_call_name(&r->names, ci.id, tmp);
		snprintf(func, sizeof(func), "%s", name);
	} else {
		/* a probe's: the function, without the probe's @tag */
		name = sw_call_name(&r->names, ci.id, tmp);
		snprintf(func, sizeof(func), "%.*s", (int)strcspn(name, "@"),
			 name);
	}
	for (i = 0; i < r->o->nouts; i++) {
		ret = sw_timeline_thread(r, i, ci.pid, ci.tid);
		if (ret)
			return ret;
		r->tl[i].calls++;
		ret = r->o->outs[i].ops->call(&r->tl[i], r->w[i], &ci, func);
		if (ret)
			return ret;
	}
	return 0;
}

static int sw_timeline_sample(struct sw_timeline_run *r,
			      const struct sw_rec_sample *smp)
{
	const __u64 *fr = sw_sample_frames(smp);
	uint32_t i, n = smp->nr_kernel + smp->nr_user, k = 0;
	unsigned int j;
	int ret;

	if (!fr || !n) {
		/* no stack: the sampled address alone (kernel ones have
		 * the top bit set on both architectures) */
		r->frames[0] = sw_session_locate(r->s, smp->pid, smp->ip,
						 (int64_t)smp->ip < 0, false,
						 false);
		if (r->frames[0] < 0)
			r->frames[0] = -1;
		k = 1;
	} else {
		if (n > SW_TIMELINE_MAX_FRAMES)
			n = SW_TIMELINE_MAX_FRAMES;
		/* the record holds the leaf first: reverse */
		for (i = n; i-- > 0;) {
			int64_t id = sw_session_locate(r->s, smp->pid, fr[i],
						       i < smp->nr_kernel,
						       i != 0 && i != smp->nr_kernel,
						       false);

			r->frames[k++] = id < 0 ? -1 : id;
		}
	}
	for (j = 0; j < r->o->nouts; j++) {
		ret = sw_timeline_thread(r, j, smp->pid, smp->tid);
		if (ret)
			return ret;
		r->tl[j].samples++;
		ret = r->o->outs[j].ops->sample(&r->tl[j], r->w[j], smp,
						r->frames, k);
		if (ret)
			return ret;
	}
	return 0;
}

/* A thread already on a timeline changed its name. */
static int sw_timeline_comm_rec(struct sw_timeline_run *r,
				const struct sw_rec_comm *c)
{
	unsigned int i;
	uint64_t v;
	int ret;

	for (i = 0; i < r->o->nouts; i++) {
		if (!sw_u64map_get(&r->tl[i].seen,
				   sw_timeline_key(c->pid, c->tid), &v))
			continue;
		ret = r->o->outs[i].ops->thread(&r->tl[i], r->w[i], c->pid,
						c->tid,
						sw_timeline_comm(r->s, c->pid, c->tid),
						sw_timeline_comm(r->s, c->pid, c->pid),
						true);
		if (ret)
			return ret;
	}
	return 0;
}

static int sw_timeline_rec(void *arg, const struct sw_rec_header *h,
			   uint32_t cpu)
{
	struct sw_timeline_run *r = arg;
	unsigned int i;
	int ret = 0;

	if (h->type == SW_REC_CALL)
		ret = sw_timeline_call(r, h, cpu);
	else if (h->type == SW_REC_SAMPLE)
		ret = sw_timeline_sample(r, (const void *)h);
	else if (h->type == SW_REC_COMM)
		ret = sw_timeline_comm_rec(r, (const void *)h);
	for (i = 0; !ret && i < r->o->nouts; i++)
		if (ferror(r->tl[i].out))
			ret = -EIO;
	return ret;
}

static void sw_timeline_warn(void *arg, const char *msg)
{
	fprintf(stderr, "stopwatch %s: warning: %s\n", (const char *)arg, msg);
}

/* Event names from the recording's "events" (comma separated), if any. */
static void sw_timeline_ev_names(struct sw_timeline_run *r)
{
	char *p, *tok, *save = NULL;
	unsigned int i;

	for (i = 0; i <= SW_CALL_NEV_MASK; i++) {
		snprintf(r->ev_default[i], sizeof(r->ev_default[i]), "ev%u", i);
		r->ev_names[i] = r->ev_default[i];
	}
	r->ev_buf = sw_session_meta(r->s, "events");
	i = 0;
	for (p = r->ev_buf; p && i <= SW_CALL_NEV_MASK &&
	     (tok = strtok_r(p, ",\n", &save)); p = NULL)
		r->ev_names[i++] = tok;
}

/* What was lost, and what was written, said on stderr. */
static void sw_timeline_summary(const struct sw_timeline_run *r)
{
	const struct sw_timeline_opts *o = r->o;
	const struct sw_losses *l = &r->s->lost;
	unsigned int i;

	if (!l->counted)
		fprintf(stderr,
			"stopwatch %s: %s: the final counters are missing (recording cut short): exported what was read; lost at least %" PRIu64
			" calls (buffer full), %" PRIu64 " (nested)\n",
			o->cmd, o->input, l->call_full, l->call_nested);
	else if (l->call_full + l->call_nested + l->calls_missing)
		fprintf(stderr,
			"stopwatch %s: %s: calls lost: %" PRIu64
			" buffer full, %" PRIu64 " nested, %" PRIu64
			" missing from the file\n",
			o->cmd, o->input, l->call_full, l->call_nested,
			l->calls_missing);
	if (sw_losses_samples(l))
		fprintf(stderr, "stopwatch %s: %s: samples lost: %" PRIu64 "\n",
			o->cmd, o->input, sw_losses_samples(l));
	if (r->bad)
		fprintf(stderr,
			"stopwatch %s: %s: %" PRIu64 " call records malformed, left out\n",
			o->cmd, o->input, r->bad);
	for (i = 0; i < o->nouts; i++)
		fprintf(stderr,
			"stopwatch %s: %s: %" PRIu64 " calls, %" PRIu64
			" samples, %" PRIu64 " threads written (%s)\n",
			o->cmd, r->tl[i].path, r->tl[i].calls,
			r->tl[i].samples, r->tl[i].threads,
			o->outs[i].ops->name);
}

/* @a and @b name the same file. */
static bool sw_timeline_same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/* Opens output @i and its writer. Return: 0 or a negative errno, said. */
static int sw_timeline_open(struct sw_timeline_run *r, unsigned int i)
{
	const struct sw_timeline_out *out = &r->o->outs[i];
	struct sw_timeline *tl = &r->tl[i];
	struct stat st;

	if (sw_timeline_same_file(r->o->input, out->path)) {
		fprintf(stderr, "stopwatch %s: %s is the recording: not written\n",
			r->o->cmd, out->path);
		return -EINVAL;
	}
	tl->out = fopen(out->path, "w");
	if (!tl->out) {
		int ret = -errno;

		fprintf(stderr, "stopwatch %s: cannot write %s: %s\n",
			r->o->cmd, out->path, strerror(-ret));
		return ret;
	}
	/* a partial file is removed on failure, a device or pipe left be */
	r->regular[i] = !fstat(fileno(tl->out), &st) && S_ISREG(st.st_mode);
	setvbuf(tl->out, NULL, _IOFBF, 1 << 20);
	r->w[i] = calloc(1, out->ops->size);
	if (!r->w[i])
		return -ENOMEM;
	return out->ops->begin(tl, r->w[i]);
}

/* Finishes (@ret 0) or abandons output @i. Return: @ret or its error. */
static int sw_timeline_close(struct sw_timeline_run *r, unsigned int i,
			     int ret)
{
	const struct sw_timeline_out *out = &r->o->outs[i];
	struct sw_timeline *tl = &r->tl[i];

	if (r->w[i]) {
		if (!ret)
			ret = out->ops->end(tl, r->w[i]);
		out->ops->free(tl, r->w[i]);
		free(r->w[i]);
	}
	if (tl->out) {
		if (fclose(tl->out) && !ret)
			ret = -errno;
		if (ret) {
			fprintf(stderr, "stopwatch %s: writing %s (%s): %s%s\n",
				r->o->cmd, out->path, out->ops->name,
				strerror(-ret),
				r->regular[i] ? "; removed" : "");
			if (r->regular[i])
				unlink(out->path);
		}
	}
	sw_u64map_free(&tl->seen);
	return ret;
}

int sw_timeline_export(const struct sw_timeline_opts *o)
{
	struct sw_session_opts so = { 0 };
	struct sw_err err = { "" };
	struct sw_timeline_run *r;
	unsigned int i, n = 0;
	int ret, ret2, failed = -1;
	char *ids;

	if (o->nouts > SW_TIMELINE_MAX_OUTS)
		return -EINVAL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->o = o;
	so.debuginfo_path = o->debuginfo_path;
	so.all_pids = o->all_pids;
	so.no_src = true;
	so.warn = sw_timeline_warn;
	so.warn_arg = (void *)o->cmd;
	ret = sw_session_open(o->input, &so, &r->s, &err);
	if (ret) {
		fprintf(stderr, "stopwatch %s: %s\n", o->cmd, err.msg);
		free(r);
		return ret;
	}
	ids = sw_session_meta(r->s, "trace_ids");
	sw_call_names_parse(&r->names, ids);
	free(ids);
	ids = sw_session_meta(r->s, "trace_span_ids");
	sw_call_names_parse(&r->span_names, ids);
	free(ids);
	sw_timeline_ev_names(r);
	for (i = 0; i < o->nouts; i++) {
		r->tl[i].s = r->s;
		r->tl[i].path = o->outs[i].path;
		r->tl[i].ev_names = r->ev_names;
		sw_u64map_init(&r->tl[i].seen);
	}
	for (ret = 0; !ret && n < o->nouts; n++) {
		ret = sw_timeline_open(r, n);
		if (ret)
			failed = (int)n;
	}
	if (!ret)
		ret = sw_session_replay(r->s, sw_timeline_rec, r);
	/* one output failing fails (and removes) all of them; the others
	 * of one that could not be opened are cancelled */
	for (i = 0; i < o->nouts; i++) {
		ret2 = sw_timeline_close(r, i, failed < 0 || (int)i == failed ?
					 ret : -ECANCELED);
		if (!ret)
			ret = ret2;
	}
	if (!ret)
		sw_timeline_summary(r);
	free(r->ev_buf);
	sw_call_names_free(&r->names);
	sw_call_names_free(&r->span_names);
	sw_session_close(r->s);
	free(r);
	return ret;
}

const char *sw_timeline_frame_name(const struct sw_timeline *tl, int64_t id)
{
	if (id < 0)
		return "[unknown]";
	return sw_str(&tl->s->m,
		      sw_symres_get(&tl->s->sym, (uint32_t)id)->sym);
}

int64_t sw_timeline_frame_image_id(const struct sw_timeline *tl, int64_t id)
{
	if (id < 0)
		return -1;
	return sw_symres_get(&tl->s->sym, (uint32_t)id)->image;
}

const char *sw_timeline_frame_image(const struct sw_timeline *tl, int64_t id)
{
	int64_t img = sw_timeline_frame_image_id(tl, id);

	if (img < 0 || (uint64_t)img >= tl->s->m.nimage)
		return "[unknown]";
	return tl->s->m.image[img].path;
}

uint64_t sw_timeline_frame_rel(const struct sw_timeline *tl, int64_t id)
{
	if (id < 0)
		return 0;
	return sw_symres_get(&tl->s->sym, (uint32_t)id)->rel;
}
