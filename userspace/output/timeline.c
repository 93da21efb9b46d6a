// SPDX-License-Identifier: GPL-2.0
/*
 * timeline.c - replay a recording for a timeline writer: calls named by
 * their probe or span, threads announced before their first record and
 * again when renamed, samples' stacks symbolized outermost first.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/timeline.h"

struct sw_timeline_run {
	struct sw_timeline tl;
	const struct sw_timeline_ops *ops;
	void *w;
};

static uint64_t sw_timeline_key(uint32_t pid, uint32_t tid)
{
	return (uint64_t)pid << 32 | tid;
}

static const char *sw_timeline_comm(struct sw_timeline *tl, uint32_t pid,
				    uint32_t tid)
{
	return sw_str(&tl->s->m, sw_machine_comm(&tl->s->m, pid, tid));
}

/* Announces the thread the first time it is seen. */
static int sw_timeline_thread(struct sw_timeline_run *r, uint32_t pid,
			      uint32_t tid)
{
	struct sw_timeline *tl = &r->tl;
	uint64_t key = sw_timeline_key(pid, tid), v;
	int ret;

	if (sw_u64map_get(&tl->seen, key, &v))
		return 0;
	ret = sw_u64map_put(&tl->seen, key, 1);
	if (ret)
		return ret;
	tl->threads++;
	return r->ops->thread(tl, r->w, pid, tid,
			      sw_timeline_comm(tl, pid, tid),
			      sw_timeline_comm(tl, pid, pid), false);
}

static int sw_timeline_call(struct sw_timeline_run *r,
			    const struct sw_rec_header *h, uint32_t cpu)
{
	struct sw_timeline *tl = &r->tl;
	struct sw_call_info ci;
	char tmp[16], func[256];
	const char *name;
	int ret;

	if (sw_call_decode(h, cpu, &ci)) {
		tl->bad++;
		return 0;
	}
	if (ci.span) {
		/* a span's slice carries the span's name, whole */
		name = tl->span_names.name[ci.id] ?
			tl->span_names.name[ci.id] :
			sw_call_name(&tl->names, ci.id, tmp);
		snprintf(func, sizeof(func), "%s", name);
	} else {
		/* a probe's: the function, without the probe's @tag */
		name = sw_call_name(&tl->names, ci.id, tmp);
		snprintf(func, sizeof(func), "%.*s", (int)strcspn(name, "@"),
			 name);
	}
	ret = sw_timeline_thread(r, ci.pid, ci.tid);
	if (ret)
		return ret;
	tl->calls++;
	return r->ops->call(tl, r->w, &ci, func);
}

static int sw_timeline_sample(struct sw_timeline_run *r,
			      const struct sw_rec_sample *smp)
{
	struct sw_timeline *tl = &r->tl;
	const __u64 *fr = sw_sample_frames(smp);
	uint32_t i, n = smp->nr_kernel + smp->nr_user, k = 0;
	int ret;

	ret = sw_timeline_thread(r, smp->pid, smp->tid);
	if (ret)
		return ret;
	if (!fr || !n) {
		/* no stack: the sampled address alone (kernel ones have
		 * the top bit set on both architectures) */
		tl->frames[0] = sw_session_locate(tl->s, smp->pid, smp->ip,
						  (int64_t)smp->ip < 0, false,
						  false);
		k = 1;
	} else {
		if (n > SW_TIMELINE_MAX_FRAMES)
			n = SW_TIMELINE_MAX_FRAMES;
		/* the record holds the leaf first: reverse */
		for (i = n; i-- > 0;) {
			int64_t id = sw_session_locate(tl->s, smp->pid, fr[i],
						       i < smp->nr_kernel,
						       i != 0 && i != smp->nr_kernel,
						       false);

			tl->frames[k++] = id < 0 ? -1 : id;
		}
	}
	if (tl->frames[0] < -1)
		tl->frames[0] = -1;
	tl->samples++;
	return r->ops->sample(tl, r->w, smp, tl->frames, k);
}

static int sw_timeline_rec(void *arg, const struct sw_rec_header *h,
			   uint32_t cpu)
{
	struct sw_timeline_run *r = arg;
	struct sw_timeline *tl = &r->tl;
	int ret = 0;

	if (h->type == SW_REC_CALL) {
		ret = sw_timeline_call(r, h, cpu);
	} else if (h->type == SW_REC_SAMPLE) {
		ret = sw_timeline_sample(r, (const void *)h);
	} else if (h->type == SW_REC_COMM) {
		const struct sw_rec_comm *c = (const void *)h;
		uint64_t v;

		/* a thread already on the timeline changed its name */
		if (sw_u64map_get(&tl->seen, sw_timeline_key(c->pid, c->tid),
				  &v))
			ret = r->ops->thread(tl, r->w, c->pid, c->tid,
					     sw_timeline_comm(tl, c->pid, c->tid),
					     sw_timeline_comm(tl, c->pid, c->pid),
					     true);
	}
	if (!ret && ferror(tl->out))
		ret = -EIO;
	return ret;
}

static void sw_timeline_warn(void *arg, const char *msg)
{
	fprintf(stderr, "stopwatch %s: warning: %s\n", (const char *)arg, msg);
}

/* Event names from the recording's "events" (comma separated), if any. */
static void sw_timeline_ev_names(struct sw_timeline *tl)
{
	char *p, *tok, *save = NULL;
	unsigned int i = 0;

	for (i = 0; i <= SW_CALL_NEV_MASK; i++) {
		snprintf(tl->ev_default[i], sizeof(tl->ev_default[i]), "ev%u", i);
		tl->ev_names[i] = tl->ev_default[i];
	}
	tl->ev_buf = sw_session_meta(tl->s, "events");
	i = 0;
	for (p = tl->ev_buf; p && i <= SW_CALL_NEV_MASK &&
	     (tok = strtok_r(p, ",\n", &save)); p = NULL)
		tl->ev_names[i++] = tok;
}

/* What was lost, and what was written, said on stderr. */
static void sw_timeline_summary(const struct sw_timeline_opts *o,
				const struct sw_timeline_ops *ops,
				const struct sw_timeline *tl)
{
	const struct sw_losses *l = &tl->s->lost;

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
	if (tl->bad)
		fprintf(stderr,
			"stopwatch %s: %s: %" PRIu64 " call records malformed, left out\n",
			o->cmd, o->input, tl->bad);
	fprintf(stderr,
		"stopwatch %s: %s: %" PRIu64 " calls, %" PRIu64
		" samples, %" PRIu64 " threads written (%s)\n",
		o->cmd, o->output, tl->calls, tl->samples, tl->threads,
		ops->name);
}

/* @a and @b name the same file. */
static bool sw_timeline_same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

int sw_timeline_export(const struct sw_timeline_opts *o,
		       const struct sw_timeline_ops *ops)
{
	struct sw_session_opts so = { 0 };
	struct sw_err err = { "" };
	struct sw_timeline_run *r;
	struct sw_timeline *tl;
	bool regular = false;
	struct stat st;
	char *ids;
	int ret;

	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	tl = &r->tl;
	r->ops = ops;
	sw_u64map_init(&tl->seen);
	so.debuginfo_path = o->debuginfo_path;
	so.all_pids = o->all_pids;
	so.no_src = true;
	so.warn = sw_timeline_warn;
	so.warn_arg = (void *)o->cmd;
	ret = sw_session_open(o->input, &so, &tl->s, &err);
	if (ret) {
		fprintf(stderr, "stopwatch %s: %s\n", o->cmd, err.msg);
		goto out_free;
	}
	ids = sw_session_meta(tl->s, "trace_ids");
	sw_call_names_parse(&tl->names, ids);
	free(ids);
	ids = sw_session_meta(tl->s, "span_ids");
	sw_call_names_parse(&tl->span_names, ids);
	free(ids);
	sw_timeline_ev_names(tl);
	tl->path = o->output;
	if (sw_timeline_same_file(o->input, o->output)) {
		ret = -EINVAL;
		fprintf(stderr, "stopwatch %s: %s is the recording: not written\n",
			o->cmd, o->output);
		goto out_close;
	}
	tl->out = fopen(o->output, "w");
	if (!tl->out) {
		ret = -errno;
		fprintf(stderr, "stopwatch %s: cannot write %s: %s\n", o->cmd,
			o->output, strerror(-ret));
		goto out_close;
	}
	/* a partial file is removed on failure, a device or pipe left be */
	regular = !fstat(fileno(tl->out), &st) && S_ISREG(st.st_mode);
	setvbuf(tl->out, NULL, _IOFBF, 1 << 20);
	r->w = calloc(1, ops->size);
	if (!r->w) {
		ret = -ENOMEM;
		goto out_fclose;
	}
	ret = ops->begin(tl, r->w);
	if (!ret)
		ret = sw_session_replay(tl->s, sw_timeline_rec, r);
	if (!ret)
		ret = ops->end(tl, r->w);
	ops->free(tl, r->w);
	free(r->w);
out_fclose:
	if (fclose(tl->out) && !ret)
		ret = -errno;
	if (ret) {
		fprintf(stderr, "stopwatch %s: writing %s (%s): %s%s\n",
			o->cmd, o->output, ops->name, strerror(-ret),
			regular ? "; removed" : "");
		if (regular)
			unlink(o->output);
	} else {
		sw_timeline_summary(o, ops, tl);
	}
out_close:
	free(tl->ev_buf);
	sw_call_names_free(&tl->names);
	sw_call_names_free(&tl->span_names);
	sw_session_close(tl->s);
out_free:
	sw_u64map_free(&tl->seen);
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
