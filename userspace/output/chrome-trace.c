// SPDX-License-Identifier: GPL-2.0
/*
 * chrome-trace.c - a recording as Chrome's JSON trace events (what
 * chrome://tracing, Perfetto's UI and speedscope open): an "X" complete
 * event per call (ts and dur in microseconds), "M" metadata events naming
 * processes and threads, a "C" counter event with each call's event
 * deltas, and each sample as an "i" instant event whose "sf" names its
 * stack in the "stackFrames" dictionary written at the end.
 *
 * One event per line, so that a line count is an event count.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/intern.h"
#include "base/json.h"
#include "output/timeline.h"

/* A stack frame node: a symbol called from its parent node (0: none). */
struct sw_ct_node {
	uint64_t parent;
	int64_t sym;
};

/**
 * struct sw_ct - the writer's state.
 * @nodes: stack frame nodes by (parent, symbol); id = index + 1
 * @node:  their (parent, symbol), by index
 * @nnode: entries in @node
 * @cap:   allocated
 * @sep:   what goes before the next event
 */
struct sw_ct {
	struct sw_intern nodes;
	struct sw_ct_node *node;
	size_t nnode, cap;
	const char *sep;
};

/* Microseconds, from ns, with the ns kept as three decimals. */
static void sw_ct_us(FILE *f, const char *key, uint64_t ns)
{
	fprintf(f, ",\"%s\":%" PRIu64 ".%03u", key, ns / 1000,
		(unsigned int)(ns % 1000));
}

static int sw_ct_begin(struct sw_timeline *tl, void *w)
{
	struct sw_ct *ct = w;

	sw_intern_init(&ct->nodes);
	ct->sep = "\n";
	fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", tl->out);
	return 0;
}

static void sw_ct_meta(struct sw_timeline *tl, struct sw_ct *ct,
		       const char *what, uint32_t pid, uint32_t tid,
		       const char *name)
{
	fprintf(tl->out, "%s{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":",
		ct->sep, what, pid, tid);
	sw_json_str(tl->out, name);
	fputs("}}", tl->out);
	ct->sep = ",\n";
}

static int sw_ct_thread(struct sw_timeline *tl, void *w, uint32_t pid,
			uint32_t tid, const char *comm, const char *pcomm,
			bool renamed)
{
	struct sw_ct *ct = w;

	if (!renamed || pid == tid)
		sw_ct_meta(tl, ct, "process_name", pid, pid, pcomm);
	sw_ct_meta(tl, ct, "thread_name", pid, tid, comm);
	return 0;
}

static int sw_ct_call(struct sw_timeline *tl, void *w,
		      const struct sw_call_info *ci, const char *name)
{
	struct sw_ct *ct = w;
	FILE *f = tl->out;
	unsigned int i;

	fprintf(f, "%s{\"name\":", ct->sep);
	sw_json_str(f, name);
	fprintf(f, ",\"cat\":\"%s\",\"ph\":\"X\"", ci->span ? "span" : "call");
	sw_ct_us(f, "ts", ci->start);
	sw_ct_us(f, "dur", ci->dur);
	fprintf(f, ",\"pid\":%u,\"tid\":%u,\"args\":{\"cpu_start\":%u,\"cpu_end\":%u",
		ci->pid, ci->tid, ci->cpu_start, ci->cpu_end);
	if (ci->has_ret)
		fprintf(f, ",\"ret\":%" PRId64, (int64_t)ci->ret);
	fputs("}}", f);
	ct->sep = ",\n";
	if (!ci->nev)
		return 0;
	/* the call's event deltas, on a counter of its thread */
	fprintf(f, ",\n{\"name\":\"events per call, thread %u\",\"ph\":\"C\"",
		ci->tid);
	sw_ct_us(f, "ts", ci->start);
	fprintf(f, ",\"pid\":%u,\"tid\":%u,\"args\":{", ci->pid, ci->tid);
	for (i = 0; i < ci->nev; i++) {
		fputs(i ? "," : "", f);
		sw_json_str(f, tl->ev_names[i]);
		fprintf(f, ":%" PRIu64, ci->ev[i]);
	}
	fputs("}}", f);
	return 0;
}

/* The node of @sym called from @parent, added when new; 0 on failure. */
static uint64_t sw_ct_node(struct sw_ct *ct, uint64_t parent, int64_t sym)
{
	struct sw_ct_node key = { parent, sym };
	int added = 0;
	int64_t id = sw_intern_add(&ct->nodes, &key, sizeof(key), &added);

	if (id < 0)
		return 0;
	if (added) {
		if (ct->nnode == ct->cap) {
			size_t cap = ct->cap ? 2 * ct->cap : 256;
			struct sw_ct_node *n = realloc(ct->node, cap * sizeof(*n));

			if (!n)
				return 0;
			ct->node = n;
			ct->cap = cap;
		}
		ct->node[ct->nnode++] = key;
	}
	return (uint64_t)id + 1;
}

static int sw_ct_sample(struct sw_timeline *tl, void *w,
			const struct sw_rec_sample *smp, const int64_t *frames,
			uint32_t nframes)
{
	struct sw_ct *ct = w;
	FILE *f = tl->out;
	uint64_t node = 0;
	uint32_t i;

	for (i = 0; i < nframes; i++) {
		node = sw_ct_node(ct, node, frames[i]);
		if (!node)
			return -ENOMEM;
	}
	fprintf(f, "%s{\"name\":", ct->sep);
	sw_json_str(f, sw_timeline_frame_name(tl, nframes ? frames[nframes - 1] : -1));
	fputs(",\"cat\":\"sample\",\"ph\":\"i\",\"s\":\"t\"", f);
	sw_ct_us(f, "ts", smp->h.time);
	fprintf(f, ",\"pid\":%u,\"tid\":%u,\"sf\":\"%" PRIu64
		"\",\"args\":{\"cpu\":%u,\"period\":%" PRIu64 "}}",
		smp->pid, smp->tid, node, smp->cpu, (uint64_t)smp->period);
	ct->sep = ",\n";
	return 0;
}

static int sw_ct_end(struct sw_timeline *tl, void *w)
{
	struct sw_ct *ct = w;
	FILE *f = tl->out;
	size_t i;

	fputs("\n],\n\"stackFrames\":{", f);
	for (i = 0; i < ct->nnode; i++) {
		fprintf(f, "%s\"%zu\":{\"name\":", i ? ",\n" : "\n", i + 1);
		sw_json_str(f, sw_timeline_frame_name(tl, ct->node[i].sym));
		fputs(",\"category\":", f);
		sw_json_str(f, sw_timeline_frame_image(tl, ct->node[i].sym));
		if (ct->node[i].parent)
			fprintf(f, ",\"parent\":\"%" PRIu64 "\"", ct->node[i].parent);
		fputc('}', f);
	}
	fputs("\n}}\n", f);
	return ferror(f) ? -EIO : 0;
}

static void sw_ct_free(struct sw_timeline *tl, void *w)
{
	struct sw_ct *ct = w;

	(void)tl;
	sw_intern_free(&ct->nodes);
	free(ct->node);
}

const struct sw_timeline_ops sw_chrome_ops = {
	.name = "chrome",
	.size = sizeof(struct sw_ct),
	.begin = sw_ct_begin,
	.thread = sw_ct_thread,
	.call = sw_ct_call,
	.sample = sw_ct_sample,
	.end = sw_ct_end,
	.free = sw_ct_free,
};
