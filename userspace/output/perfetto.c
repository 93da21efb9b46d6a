// SPDX-License-Identifier: GPL-2.0
/*
 * perfetto.c - a recording as a Perfetto trace (protobuf-c, from
 * perfetto_trace.proto): a track per process and per thread, a slice per
 * call (SLICE_BEGIN at its start, SLICE_END at its return), the call's
 * event deltas as counter tracks under its thread, and each sample as a
 * PerfSample with an interned call stack.
 *
 * Samples are PerfSample packets rather than instant track events: the
 * Perfetto UI gives a process's PerfSamples their own track, with a mark
 * per sample and a flame graph of any selected stretch of time, which is
 * what a profile is read with; instants would only be marks.
 *
 * The trace is written packet by packet, each as one "packet" field of
 * the Trace message, so nothing but the interning tables grows with the
 * recording.  All packets are on one sequence: names, frames, mappings
 * and call stacks are interned on it, each sent once, in the packet that
 * first uses it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perfetto_trace.pb-c.h"
#include "base/intern.h"
#include "output/timeline.h"

typedef Perfetto__Protos__TracePacket SwPfPacket;
typedef Perfetto__Protos__TrackDescriptor SwPfTrack;
typedef Perfetto__Protos__ProcessDescriptor SwPfProcess;
typedef Perfetto__Protos__ThreadDescriptor SwPfThread;
typedef Perfetto__Protos__CounterDescriptor SwPfCounter;
typedef Perfetto__Protos__TrackEvent SwPfEvent;
typedef Perfetto__Protos__DebugAnnotation SwPfAnnotation;
typedef Perfetto__Protos__PerfSample SwPfSample;
typedef Perfetto__Protos__InternedData SwPfInterned;
typedef Perfetto__Protos__EventCategory SwPfCategory;
typedef Perfetto__Protos__EventName SwPfName;
typedef Perfetto__Protos__DebugAnnotationName SwPfAnnotationName;
typedef Perfetto__Protos__InternedString SwPfString;
typedef Perfetto__Protos__Mapping SwPfMapping;
typedef Perfetto__Protos__Frame SwPfFrame;
typedef Perfetto__Protos__Callstack SwPfCallstack;

#define SW_PF_SEQ 1
/* Track uuids: the kind in the high half, the pid or tid in the low. */
#define SW_PF_PROCESS (1ULL << 32)
#define SW_PF_THREAD (2ULL << 32)
#define SW_PF_COUNTER(i) ((3ULL + (i)) << 32)
/* Interned categories and argument names, sent with the first packet. */
enum { SW_PF_CAT_CALL = 1, SW_PF_CAT_SPAN };
enum { SW_PF_ARG_RET = 1, SW_PF_ARG_CPU_START, SW_PF_ARG_CPU_END };

/* A growable array. */
struct sw_pf_vec {
	void *p;
	size_t n, cap;
};

static void *sw_pf_push(struct sw_pf_vec *v, size_t size)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? 2 * v->cap : 64;
		void *p = realloc(v->p, cap * size);

		if (!p)
			return NULL;
		v->p = p;
		v->cap = cap;
	}
	return (char *)v->p + size * v->n++;
}

static void *sw_pf_room(struct sw_pf_vec *v, size_t n, size_t size)
{
	if (n > v->cap) {
		void *p = realloc(v->p, n * size);

		if (!p)
			return NULL;
		v->p = p;
		v->cap = n;
	}
	v->n = n;
	return v->p;
}

struct sw_pf_frame_ref {
	uint64_t iid, fn, map, rel;
};

struct sw_pf_map_ref {
	uint64_t iid, path;
};

/**
 * struct sw_pf - the writer's state.
 * @names:   slice names; iid = index + 1
 * @fnames:  function names of frames; iid = index + 1
 * @mpaths:  mapping paths; iid = index + 1
 * @stacks:  call stacks (their frame iids); iid = index + 1
 * @frames:  symbol id + 1 -> frame iid
 * @maps:    image id + 1 -> mapping iid
 * @counters: tid -> the counter tracks made for it (bit per event)
 * @nframes: frame iids given
 * @nmaps:   mapping iids given
 * @new_*:   what the next packet must intern (ids into the tables above)
 * @buf:     the packed packet
 * @tmp_*:   the next packet's interned messages
 */
struct sw_pf {
	struct sw_intern names, fnames, mpaths, stacks;
	struct sw_u64map frames, maps, counters;
	uint64_t nframes, nmaps;
	struct sw_pf_vec new_names, new_fnames, new_mpaths, new_stacks;
	struct sw_pf_vec new_frames, new_maps;
	struct sw_pf_vec buf;
	struct sw_pf_vec stack;
	struct sw_pf_vec tmp_names, tmp_strs, tmp_frames, tmp_maps,
		tmp_stacks, tmp_ptrs;
};

static int sw_pf_varint(uint8_t *p, uint64_t v)
{
	int n = 0;

	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

/* Fills @in from the new_* lists. Return: 0 or -ENOMEM. */
static int sw_pf_interned(struct sw_pf *pf, SwPfInterned *in)
{
	size_t nstr = pf->new_fnames.n + pf->new_mpaths.n, nptr, i, k = 0;
	SwPfName *nm;
	SwPfString *st;
	SwPfFrame *fr;
	SwPfMapping *mp;
	SwPfCallstack *cs;
	void **ptr;

	nptr = pf->new_names.n + nstr + pf->new_frames.n + pf->new_maps.n +
	       pf->new_stacks.n;
	nm = sw_pf_room(&pf->tmp_names, pf->new_names.n, sizeof(*nm));
	st = sw_pf_room(&pf->tmp_strs, nstr, sizeof(*st));
	fr = sw_pf_room(&pf->tmp_frames, pf->new_frames.n, sizeof(*fr));
	mp = sw_pf_room(&pf->tmp_maps, pf->new_maps.n, sizeof(*mp));
	cs = sw_pf_room(&pf->tmp_stacks, pf->new_stacks.n, sizeof(*cs));
	ptr = sw_pf_room(&pf->tmp_ptrs, nptr, sizeof(*ptr));
	if ((pf->new_names.n && !nm) || (nstr && !st) ||
	    (pf->new_frames.n && !fr) || (pf->new_maps.n && !mp) ||
	    (pf->new_stacks.n && !cs) || (nptr && !ptr))
		return -ENOMEM;

	in->n_event_names = pf->new_names.n;
	in->event_names = (SwPfName **)(ptr + k);
	for (i = 0; i < pf->new_names.n; i++) {
		uint32_t id = ((uint32_t *)pf->new_names.p)[i];

		perfetto__protos__event_name__init(&nm[i]);
		nm[i].has_iid = 1;
		nm[i].iid = id + 1;
		nm[i].name = (char *)sw_intern_s(&pf->names, id);
		ptr[k++] = &nm[i];
	}
	in->n_function_names = pf->new_fnames.n;
	in->function_names = (SwPfString **)(ptr + k);
	for (i = 0; i < pf->new_fnames.n; i++) {
		uint32_t id = ((uint32_t *)pf->new_fnames.p)[i];

		perfetto__protos__interned_string__init(st);
		st->has_iid = st->has_str = 1;
		st->iid = id + 1;
		st->str.data = (uint8_t *)sw_intern_key(&pf->fnames, id);
		st->str.len = sw_intern_len(&pf->fnames, id) - 1;
		ptr[k++] = st++;
	}
	in->n_mapping_paths = pf->new_mpaths.n;
	in->mapping_paths = (SwPfString **)(ptr + k);
	for (i = 0; i < pf->new_mpaths.n; i++) {
		uint32_t id = ((uint32_t *)pf->new_mpaths.p)[i];

		perfetto__protos__interned_string__init(st);
		st->has_iid = st->has_str = 1;
		st->iid = id + 1;
		st->str.data = (uint8_t *)sw_intern_key(&pf->mpaths, id);
		st->str.len = sw_intern_len(&pf->mpaths, id) - 1;
		ptr[k++] = st++;
	}
	in->n_mappings = pf->new_maps.n;
	in->mappings = (SwPfMapping **)(ptr + k);
	for (i = 0; i < pf->new_maps.n; i++) {
		struct sw_pf_map_ref *m = (struct sw_pf_map_ref *)pf->new_maps.p + i;

		perfetto__protos__mapping__init(&mp[i]);
		mp[i].has_iid = 1;
		mp[i].iid = m->iid;
		mp[i].n_path_string_ids = 1;
		mp[i].path_string_ids = &m->path;
		ptr[k++] = &mp[i];
	}
	in->n_frames = pf->new_frames.n;
	in->frames = (SwPfFrame **)(ptr + k);
	for (i = 0; i < pf->new_frames.n; i++) {
		struct sw_pf_frame_ref *f = (struct sw_pf_frame_ref *)pf->new_frames.p + i;

		perfetto__protos__frame__init(&fr[i]);
		fr[i].has_iid = fr[i].has_function_name_id = 1;
		fr[i].has_mapping_id = fr[i].has_rel_pc = 1;
		fr[i].iid = f->iid;
		fr[i].function_name_id = f->fn;
		fr[i].mapping_id = f->map;
		fr[i].rel_pc = f->rel;
		ptr[k++] = &fr[i];
	}
	in->n_callstacks = pf->new_stacks.n;
	in->callstacks = (SwPfCallstack **)(ptr + k);
	for (i = 0; i < pf->new_stacks.n; i++) {
		uint32_t id = ((uint32_t *)pf->new_stacks.p)[i];

		perfetto__protos__callstack__init(&cs[i]);
		cs[i].has_iid = 1;
		cs[i].iid = id + 1;
		cs[i].n_frame_ids = sw_intern_len(&pf->stacks, id) / 8;
		cs[i].frame_ids = (uint64_t *)sw_intern_key(&pf->stacks, id);
		ptr[k++] = &cs[i];
	}
	return 0;
}

/* Writes @pk (with what it first uses interned) as one Trace.packet. */
static int sw_pf_write(struct sw_timeline *tl, struct sw_pf *pf, SwPfPacket *pk)
{
	SwPfInterned in = PERFETTO__PROTOS__INTERNED_DATA__INIT;
	uint8_t head[11];
	size_t len;
	int n, ret;

	if (pf->new_names.n + pf->new_fnames.n + pf->new_mpaths.n +
	    pf->new_frames.n + pf->new_maps.n + pf->new_stacks.n) {
		ret = sw_pf_interned(pf, &in);
		if (ret)
			return ret;
		pk->interned_data = &in;
	}
	pk->has_trusted_packet_sequence_id = 1;
	pk->trusted_packet_sequence_id = SW_PF_SEQ;
	if (!pk->has_sequence_flags) {
		pk->has_sequence_flags = 1;
		pk->sequence_flags =
			PERFETTO__PROTOS__TRACE_PACKET__SEQUENCE_FLAGS__SEQ_NEEDS_INCREMENTAL_STATE;
	}
	len = perfetto__protos__trace_packet__get_packed_size(pk);
	if (!sw_pf_room(&pf->buf, len ? len : 1, 1))
		return -ENOMEM;
	perfetto__protos__trace_packet__pack(pk, pf->buf.p);
	head[0] = 1 << 3 | 2;	/* Trace.packet, length-delimited */
	n = 1 + sw_pf_varint(head + 1, len);
	if (fwrite(head, 1, n, tl->out) != (size_t)n ||
	    fwrite(pf->buf.p, 1, len, tl->out) != len)
		return -EIO;
	pf->new_names.n = pf->new_fnames.n = pf->new_mpaths.n = 0;
	pf->new_frames.n = pf->new_maps.n = pf->new_stacks.n = 0;
	return 0;
}

static int sw_pf_begin(struct sw_timeline *tl, void *w)
{
	struct sw_pf *pf = w;
	SwPfPacket pk = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	SwPfInterned in = PERFETTO__PROTOS__INTERNED_DATA__INIT;
	SwPfCategory cat[2];
	SwPfCategory *catp[2] = { &cat[0], &cat[1] };
	SwPfAnnotationName an[3];
	SwPfAnnotationName *anp[3] = { &an[0], &an[1], &an[2] };
	static const char *const cats[] = { "call", "span" };
	static const char *const args[] = { "ret", "cpu_start", "cpu_end" };
	unsigned int i;

	sw_intern_init(&pf->names);
	sw_intern_init(&pf->fnames);
	sw_intern_init(&pf->mpaths);
	sw_intern_init(&pf->stacks);
	sw_u64map_init(&pf->frames);
	sw_u64map_init(&pf->maps);
	sw_u64map_init(&pf->counters);
	for (i = 0; i < 2; i++) {
		perfetto__protos__event_category__init(&cat[i]);
		cat[i].has_iid = 1;
		cat[i].iid = i + 1;
		cat[i].name = (char *)cats[i];
	}
	for (i = 0; i < 3; i++) {
		perfetto__protos__debug_annotation_name__init(&an[i]);
		an[i].has_iid = 1;
		an[i].iid = i + 1;
		an[i].name = (char *)args[i];
	}
	in.n_event_categories = 2;
	in.event_categories = catp;
	in.n_debug_annotation_names = 3;
	in.debug_annotation_names = anp;
	pk.interned_data = &in;
	pk.has_sequence_flags = 1;
	pk.sequence_flags =
		PERFETTO__PROTOS__TRACE_PACKET__SEQUENCE_FLAGS__SEQ_INCREMENTAL_STATE_CLEARED;
	return sw_pf_write(tl, pf, &pk);
}

static int sw_pf_track(struct sw_timeline *tl, struct sw_pf *pf,
		       SwPfTrack *td)
{
	SwPfPacket pk = PERFETTO__PROTOS__TRACE_PACKET__INIT;

	pk.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_DESCRIPTOR;
	pk.track_descriptor = td;
	return sw_pf_write(tl, pf, &pk);
}

static int sw_pf_thread(struct sw_timeline *tl, void *w, uint32_t pid,
			uint32_t tid, const char *comm, const char *pcomm,
			bool renamed)
{
	struct sw_pf *pf = w;
	SwPfTrack td = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
	SwPfProcess pd = PERFETTO__PROTOS__PROCESS_DESCRIPTOR__INIT;
	SwPfThread th = PERFETTO__PROTOS__THREAD_DESCRIPTOR__INIT;
	int ret;

	/* the process first (again when its main thread is renamed) */
	if (!renamed || pid == tid) {
		td.has_uuid = 1;
		td.uuid = SW_PF_PROCESS | pid;
		pd.has_pid = 1;
		pd.pid = (int32_t)pid;
		pd.process_name = (char *)pcomm;
		td.process = &pd;
		ret = sw_pf_track(tl, pf, &td);
		if (ret)
			return ret;
		td.process = NULL;
	}
	td.has_uuid = td.has_parent_uuid = 1;
	td.uuid = SW_PF_THREAD | tid;
	td.parent_uuid = SW_PF_PROCESS | pid;
	th.has_pid = th.has_tid = 1;
	th.pid = (int32_t)pid;
	th.tid = (int32_t)tid;
	th.thread_name = (char *)comm;
	td.thread = &th;
	return sw_pf_track(tl, pf, &td);
}

/* The counter tracks of @tid's events up to @nev, made when first used. */
static int sw_pf_counters(struct sw_timeline *tl, struct sw_pf *pf,
			  uint32_t tid, unsigned int nev)
{
	SwPfTrack td = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
	SwPfCounter cd = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__INIT;
	uint64_t made = 0, want = (1ULL << nev) - 1;
	char name[64];
	unsigned int i;
	int ret;

	sw_u64map_get(&pf->counters, tid, &made);
	if ((made & want) == want)
		return 0;
	for (i = 0; i < nev; i++) {
		if (made >> i & 1)
			continue;
		td.has_uuid = td.has_parent_uuid = 1;
		td.uuid = SW_PF_COUNTER(i) | tid;
		td.parent_uuid = SW_PF_THREAD | tid;
		snprintf(name, sizeof(name), "%s per call", tl->ev_names[i]);
		td.name = name;
		td.counter = &cd;
		ret = sw_pf_track(tl, pf, &td);
		if (ret)
			return ret;
	}
	return sw_u64map_put(&pf->counters, tid, made | want);
}

static int sw_pf_call(struct sw_timeline *tl, void *w,
		      const struct sw_call_info *ci, const char *name)
{
	struct sw_pf *pf = w;
	SwPfPacket pk = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	SwPfEvent ev = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	SwPfAnnotation an[3];
	SwPfAnnotation *anp[3] = { &an[0], &an[1], &an[2] };
	uint64_t cat = ci->span ? SW_PF_CAT_SPAN : SW_PF_CAT_CALL;
	uint64_t uuids[SW_CALL_NEV_MASK + 1];
	int64_t vals[SW_CALL_NEV_MASK + 1];
	unsigned int i, na = 0;
	int added = 0, ret;
	int64_t id;

	if (ci->nev) {
		ret = sw_pf_counters(tl, pf, ci->tid, ci->nev);
		if (ret)
			return ret;
	}
	id = sw_intern_add(&pf->names, name, strlen(name) + 1, &added);
	if (id < 0)
		return (int)id;
	if (added) {
		uint32_t *p = sw_pf_push(&pf->new_names, sizeof(*p));

		if (!p)
			return -ENOMEM;
		*p = (uint32_t)id;
	}
	ev.has_type = ev.has_track_uuid = ev.has_name_iid = 1;
	ev.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN;
	ev.track_uuid = SW_PF_THREAD | ci->tid;
	ev.name_iid = (uint64_t)id + 1;
	ev.n_category_iids = 1;
	ev.category_iids = &cat;
	if (ci->has_ret) {
		perfetto__protos__debug_annotation__init(&an[na]);
		an[na].has_name_iid = an[na].has_int_value = 1;
		an[na].name_iid = SW_PF_ARG_RET;
		an[na++].int_value = (int64_t)ci->ret;
	}
	perfetto__protos__debug_annotation__init(&an[na]);
	an[na].has_name_iid = an[na].has_uint_value = 1;
	an[na].name_iid = SW_PF_ARG_CPU_START;
	an[na++].uint_value = ci->cpu_start;
	perfetto__protos__debug_annotation__init(&an[na]);
	an[na].has_name_iid = an[na].has_uint_value = 1;
	an[na].name_iid = SW_PF_ARG_CPU_END;
	an[na++].uint_value = ci->cpu_end;
	ev.n_debug_annotations = na;
	ev.debug_annotations = anp;
	for (i = 0; i < ci->nev; i++) {
		uuids[i] = SW_PF_COUNTER(i) | ci->tid;
		vals[i] = (int64_t)ci->ev[i];
	}
	ev.n_extra_counter_track_uuids = ev.n_extra_counter_values = ci->nev;
	ev.extra_counter_track_uuids = uuids;
	ev.extra_counter_values = vals;
	pk.has_timestamp = 1;
	pk.timestamp = ci->start;
	pk.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT;
	pk.track_event = &ev;
	ret = sw_pf_write(tl, pf, &pk);
	if (ret)
		return ret;

	perfetto__protos__track_event__init(&ev);
	perfetto__protos__trace_packet__init(&pk);
	ev.has_type = ev.has_track_uuid = 1;
	ev.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END;
	ev.track_uuid = SW_PF_THREAD | ci->tid;
	pk.has_timestamp = 1;
	pk.timestamp = ci->end;
	pk.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT;
	pk.track_event = &ev;
	return sw_pf_write(tl, pf, &pk);
}

/* The mapping iid of symbol @sym's image, interned when new. */
static int64_t sw_pf_mapping(struct sw_timeline *tl, struct sw_pf *pf,
			     int64_t sym)
{
	int64_t img = sw_timeline_frame_image_id(tl, sym), path;
	struct sw_pf_map_ref *m;
	uint32_t *p;
	uint64_t iid;
	int added = 0;

	if (sw_u64map_get(&pf->maps, (uint64_t)(img + 1), &iid))
		return (int64_t)iid;
	path = sw_intern_add(&pf->mpaths, sw_timeline_frame_image(tl, sym),
			     strlen(sw_timeline_frame_image(tl, sym)) + 1,
			     &added);
	if (path < 0)
		return path;
	if (added) {
		p = sw_pf_push(&pf->new_mpaths, sizeof(*p));
		if (!p)
			return -ENOMEM;
		*p = (uint32_t)path;
	}
	iid = ++pf->nmaps;
	m = sw_pf_push(&pf->new_maps, sizeof(*m));
	if (!m || sw_u64map_put(&pf->maps, (uint64_t)(img + 1), iid))
		return -ENOMEM;
	m->iid = iid;
	m->path = (uint64_t)path + 1;
	return (int64_t)iid;
}

/* The frame iid of symbol @sym, interned when new. */
static int64_t sw_pf_frame(struct sw_timeline *tl, struct sw_pf *pf,
			   int64_t sym)
{
	const char *fn = sw_timeline_frame_name(tl, sym);
	struct sw_pf_frame_ref *f;
	int64_t map, name;
	uint64_t iid;
	int added = 0;

	if (sw_u64map_get(&pf->frames, (uint64_t)(sym + 1), &iid))
		return (int64_t)iid;
	map = sw_pf_mapping(tl, pf, sym);
	if (map < 0)
		return map;
	name = sw_intern_add(&pf->fnames, fn, strlen(fn) + 1, &added);
	if (name < 0)
		return name;
	if (added) {
		uint32_t *p = sw_pf_push(&pf->new_fnames, sizeof(*p));

		if (!p)
			return -ENOMEM;
		*p = (uint32_t)name;
	}
	iid = ++pf->nframes;
	f = sw_pf_push(&pf->new_frames, sizeof(*f));
	if (!f || sw_u64map_put(&pf->frames, (uint64_t)(sym + 1), iid))
		return -ENOMEM;
	f->iid = iid;
	f->fn = (uint64_t)name + 1;
	f->map = (uint64_t)map;
	f->rel = sw_timeline_frame_rel(tl, sym);
	return (int64_t)iid;
}

static int sw_pf_sample(struct sw_timeline *tl, void *w,
			const struct sw_rec_sample *smp, const int64_t *frames,
			uint32_t nframes)
{
	struct sw_pf *pf = w;
	SwPfPacket pk = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	SwPfSample ps = PERFETTO__PROTOS__PERF_SAMPLE__INIT;
	uint64_t *ids = sw_pf_room(&pf->stack, nframes, sizeof(*ids));
	int64_t stack;
	uint32_t i;
	int added = 0;

	if (!ids)
		return -ENOMEM;
	for (i = 0; i < nframes; i++) {
		int64_t f = sw_pf_frame(tl, pf, frames[i]);

		if (f < 0)
			return (int)f;
		ids[i] = (uint64_t)f;
	}
	stack = sw_intern_add(&pf->stacks, ids, 8 * nframes, &added);
	if (stack < 0)
		return (int)stack;
	if (added) {
		uint32_t *p = sw_pf_push(&pf->new_stacks, sizeof(*p));

		if (!p)
			return -ENOMEM;
		*p = (uint32_t)stack;
	}
	ps.has_cpu = ps.has_pid = ps.has_tid = ps.has_callstack_iid = 1;
	ps.cpu = smp->cpu;
	ps.pid = smp->pid;
	ps.tid = smp->tid;
	ps.callstack_iid = (uint64_t)stack + 1;
	pk.has_timestamp = 1;
	pk.timestamp = smp->h.time;
	pk.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_PERF_SAMPLE;
	pk.perf_sample = &ps;
	return sw_pf_write(tl, pf, &pk);
}

static int sw_pf_end(struct sw_timeline *tl, void *w)
{
	(void)tl;
	(void)w;
	return 0;
}

static void sw_pf_free(struct sw_timeline *tl, void *w)
{
	struct sw_pf *pf = w;
	struct sw_pf_vec *v[] = {
		&pf->new_names, &pf->new_fnames, &pf->new_mpaths,
		&pf->new_stacks, &pf->new_frames, &pf->new_maps, &pf->buf,
		&pf->stack, &pf->tmp_names, &pf->tmp_strs, &pf->tmp_frames,
		&pf->tmp_maps, &pf->tmp_stacks, &pf->tmp_ptrs,
	};
	size_t i;

	(void)tl;
	sw_intern_free(&pf->names);
	sw_intern_free(&pf->fnames);
	sw_intern_free(&pf->mpaths);
	sw_intern_free(&pf->stacks);
	sw_u64map_free(&pf->frames);
	sw_u64map_free(&pf->maps);
	sw_u64map_free(&pf->counters);
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		free(v[i]->p);
}

const struct sw_timeline_ops sw_perfetto_ops = {
	.name = "perfetto",
	.size = sizeof(struct sw_pf),
	.begin = sw_pf_begin,
	.thread = sw_pf_thread,
	.call = sw_pf_call,
	.sample = sw_pf_sample,
	.end = sw_pf_end,
	.free = sw_pf_free,
};
