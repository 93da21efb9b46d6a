// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-script.c - "stopwatch script": a recording as one stream in
 * time order: traced calls, samples with their stacks, process events.
 * "stopwatch trace" prints through here too (sw_script_print()).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "base/json.h"
#include "base/line.h"
#include "base/parse-options.h"
#include "control/probe-spec.h"
#include "control/target.h"
#include "lib/parse.h"
#include "output/htable.h"
#include "output/timeline.h"
#include "record/bykey.h"
#include "record/calls.h"
#include "record/session.h"

struct sw_script_args {
	const char *input;
	const char *debuginfo_path;
	const char *perfetto, *chrome;
	const char *by;
	uint64_t rows;
	bool json;
	bool all_pids;
	bool graph;
	struct sw_target t;
};

/* A call kept for --graph: its record's words copied. */
struct sw_script_held {
	struct sw_call_info ci;
	uint64_t ev[SW_CALL_NEV_MASK + 1];
	uint64_t args[SW_CALL_NARGS_MASK + 1];
	char comm[SW_COMM_LEN + 1];
};

/* The state of one printing. */
struct sw_script {
	const struct sw_script_opts *o;
	struct sw_session *s;
	struct sw_call_names names;
	FILE *out;
	uint64_t t0;
	uint64_t calls, printed;	/* read; kept (printed, or summed by --by) */
	uint64_t cpus[SW_FILTER_CPUS / 64];
	struct sw_script_held *held;
	size_t nheld, capheld;
	struct sw_bykey *by;
	struct sw_err by_err;
};

static const struct sw_cmd_doc sw_script_doc = {
	.name = "script",
	.usage = "stopwatch script [-i FILE] [--json | --graph | --perfetto OUT | --chrome OUT] [FILTERS]",
	.about =
		"Print a recording as one stream in time order: each traced call (its\n"
		"start, duration, thread, CPUs, return value and event counts), each\n"
		"sample with its call stack, and the process events (comm, fork, exit,\n"
		"mmap) in between.  The CPUs' streams are merged by time; a thread's\n"
		"records keep their order across migrations.  A traced span's interval\n"
		"is a call named as the span, with its key.  With --graph, the calls\n"
		"only, in the order they began, each thread's calls indented under the\n"
		"calls of the thread that enclose them (as ftrace's function_graph).\n"
		"With --by, the calls summed instead: a row per probe or span and key\n"
		"tuple (a span's pairing key, a probe's key values, the thread, the\n"
		"process, the command or the CPU), ranked by total time; --rows bounds\n"
		"the rows of each probe or span, the rest summed in a row 'other (N\n"
		"keys)'.\n",
	.examples =
		"  stopwatch trace -o calls.swd getppid -- ./app\n"
		"  stopwatch script -i calls.swd\n"
		"  stopwatch script -i calls.swd --min 1ms --comm make -C 0-1\n"
		"  stopwatch script -i calls.swd --graph\n"
		"  stopwatch script -i spans.swd --by key             (per request, queue entry)\n"
		"  stopwatch script -i spans.swd --by key,tid --rows 5\n"
		"  stopwatch script -i prof.swd --json | jq 'select(.type==\"call\")'\n"
		"  stopwatch script -i calls.swd --perfetto calls.pftrace   (ui.perfetto.dev)\n"
		"  stopwatch script -i calls.swd --chrome calls.json        (speedscope, chrome://tracing)\n",
};

static const char *sw_script_comm(struct sw_script *sc, uint32_t pid,
				  uint32_t tid)
{
	return sw_str(&sc->s->m, sw_machine_comm(&sc->s->m, pid, tid));
}

/* Whether the filters keep a record of @pid/@tid on @cpu_a or @cpu_b. */
static bool sw_script_keep(struct sw_script *sc, uint32_t pid, uint32_t tid,
			   int64_t cpu_a, int64_t cpu_b)
{
	const struct sw_script_opts *o = sc->o;

	if ((o->pid && pid != o->pid) || (o->tid && tid != o->tid))
		return false;
	if (o->comm && strcmp(sw_script_comm(sc, pid, tid), o->comm))
		return false;
	if (o->cpus && (cpu_a >= 0 || cpu_b >= 0)) {
		bool a = cpu_a >= 0 && cpu_a < SW_FILTER_CPUS &&
			 sc->cpus[cpu_a / 64] >> (cpu_a % 64) & 1;
		bool b = cpu_b >= 0 && cpu_b < SW_FILTER_CPUS &&
			 sc->cpus[cpu_b / 64] >> (cpu_b % 64) & 1;

		if (!a && !b)
			return false;
	}
	return true;
}

/*
 * The text lines' first columns: "%16s %7u/%-7u " (comm, pid/tid), as
 * perf script's.
 */
static void sw_script_line_head(struct sw_line *l, const char *comm,
				uint32_t pid, uint32_t tid)
{
	sw_line_str(l, comm, 16, 0);
	sw_line_putc(l, ' ');
	sw_line_u64(l, pid, 7, 0);
	sw_line_putc(l, '/');
	sw_line_u64(l, tid, 7, SW_LINE_LEFT);
	sw_line_putc(l, ' ');
}

/* Seconds since the recording's start, "%12.6f" (microseconds rounded). */
static void sw_script_line_time(struct sw_line *l, const struct sw_script *sc,
				uint64_t t)
{
	uint64_t ns = t - sc->t0;

	sw_line_fixed(l, ns / 1000 + (ns % 1000 >= 500), 6, 12);
}

/* "[%03u]": a CPU. */
static void sw_script_line_cpu(struct sw_line *l, uint32_t cpu)
{
	sw_line_putc(l, '[');
	sw_line_u64(l, cpu, 3, SW_LINE_ZERO);
}

/* A JSON member: @key (its quotes, colon and leading comma) and @v. */
static void sw_line_jnum(struct sw_line *l, const char *key, uint64_t v)
{
	sw_line_puts(l, key);
	sw_line_u64(l, v, 0, 0);
}

/* One call's line (or JSON object); @depth: its nesting, -1 when not shown. */
static void sw_script_call_print(struct sw_script *sc,
				 const struct sw_call_info *ci,
				 const char *comm, int depth)
{
	char tmp[16], func[256];
	struct sw_line l;
	const char *name;
	unsigned int i;
	size_t n;
	FILE *f = sc->out;

	name = sw_call_info_name(&sc->names, ci, tmp);
	/* the function: the probe's identity without its @tag */
	n = strcspn(name, "@");
	if (n >= sizeof(func))
		n = sizeof(func) - 1;
	memcpy(func, name, n);
	func[n] = 0;
	sw_line_init(&l, f);
	if (sc->o->json) {
		sw_line_puts(&l, "{\"type\":\"call\",\"name\":");
		sw_line_json_str(&l, func);
		sw_line_puts(&l, ci->span ? ",\"span_name\":" : ",\"probe\":");
		sw_line_json_str(&l, name);
		sw_line_jnum(&l, ",\"id\":", ci->id);
		sw_line_jnum(&l, ci->span ? ",\"span\":true,\"start\":" :
					    ",\"span\":false,\"start\":",
			     ci->start);
		sw_line_jnum(&l, ",\"end\":", ci->end);
		sw_line_jnum(&l, ",\"dur\":", ci->dur);
		sw_line_jnum(&l, ",\"pid\":", ci->pid);
		sw_line_jnum(&l, ",\"tid\":", ci->tid);
		sw_line_jnum(&l, ",\"cpu_start\":", ci->cpu_start);
		sw_line_jnum(&l, ",\"cpu_end\":", ci->cpu_end);
		sw_line_puts(&l, ",\"comm\":");
		sw_line_json_str(&l, comm);
		if (depth >= 0) {
			sw_line_puts(&l, ",\"depth\":");
			sw_line_i64(&l, depth);
		}
		if (ci->has_ret) {
			sw_line_puts(&l, ",\"ret\":");
			sw_line_i64(&l, (int64_t)ci->ret);
		}
		if (ci->has_path)
			sw_line_jnum(&l, ",\"path\":", ci->path);
		for (i = 0; i < ci->nkeys; i++) {
			sw_line_puts(&l, ",\"key");
			sw_line_u64(&l, i, 0, 0);
			sw_line_puts(&l, "\":");
			sw_line_u64(&l, ci->key[i], 0, 0);
		}
		if (ci->nev) {
			sw_line_puts(&l, ",\"ev\":[");
			for (i = 0; i < ci->nev; i++) {
				if (i)
					sw_line_putc(&l, ',');
				sw_line_u64(&l, ci->ev[i], 0, 0);
			}
			sw_line_jnum(&l, "],\"ev_bad\":", ci->ev_bad);
		}
		sw_line_putc(&l, '}');
		sw_line_end(&l);
		return;
	}
	sw_script_line_head(&l, comm, ci->pid, ci->tid);
	sw_script_line_cpu(&l, ci->cpu_start);
	sw_line_putc(&l, '>');
	sw_line_u64(&l, ci->cpu_end, 3, SW_LINE_ZERO);
	sw_line_puts(&l, "] ");
	sw_script_line_time(&l, sc, ci->start);
	sw_line_putc(&l, ' ');
	sw_line_fixed(&l, ci->dur, 3, 12);
	sw_line_puts(&l, " us  ");
	sw_line_pad(&l, ' ', depth > 0 ? 2 * (size_t)depth : 0);
	if (ci->span)
		sw_line_puts(&l, "span ");
	sw_line_puts(&l, func);
	if (!ci->span)
		sw_line_puts(&l, "()");
	if (ci->has_ret) {
		sw_line_puts(&l, " = ");
		sw_line_i64(&l, (int64_t)ci->ret);
	}
	/* a span's key: what its points read, often an address */
	for (i = 0; i < ci->nkeys; i++) {
		if (ci->span) {
			sw_line_puts(&l, i ? ",0x" : " key=0x");
			sw_line_x64(&l, ci->key[i], 0);
		} else {
			sw_line_puts(&l, " key");
			sw_line_u64(&l, i, 0, 0);
			sw_line_putc(&l, '=');
			sw_line_u64(&l, ci->key[i], 0, 0);
		}
	}
	for (i = 0; i < ci->nev; i++) {
		sw_line_puts(&l, " ev");
		sw_line_u64(&l, i, 0, 0);
		sw_line_putc(&l, '=');
		sw_line_u64(&l, ci->ev[i], 0, 0);
		if (ci->ev_bad >> i & 1)
			sw_line_putc(&l, '?');
	}
	sw_line_end(&l);
}

/* Keep @ci for --graph, its words copied. */
static int sw_script_hold(struct sw_script *sc, const struct sw_call_info *ci)
{
	struct sw_script_held *h;

	if (sc->nheld == sc->capheld) {
		size_t cap = sc->capheld ? 2 * sc->capheld : 1024;

		h = realloc(sc->held, cap * sizeof(*h));
		if (!h)
			return -ENOMEM;
		sc->held = h;
		sc->capheld = cap;
	}
	h = &sc->held[sc->nheld++];
	h->ci = *ci;
	memcpy(h->ev, ci->ev, 8 * ci->nev);
	memcpy(h->args, ci->args, 8 * ci->nargs);
	/* set again where the array is read: it moves as it grows */
	h->ci.ev = NULL;
	h->ci.args = NULL;
	snprintf(h->comm, sizeof(h->comm), "%s",
		 sw_script_comm(sc, ci->pid, ci->tid));
	return 0;
}

/* --graph: the calls kept, by start, nested per thread. */
static int sw_script_graph(struct sw_script *sc)
{
	struct sw_call_info *v = NULL;
	unsigned int *depth = NULL;
	size_t *order = NULL, i;
	int ret = -ENOMEM;

	v = malloc((sc->nheld + 1) * sizeof(*v));
	order = malloc((sc->nheld + 1) * sizeof(*order));
	depth = malloc((sc->nheld + 1) * sizeof(*depth));
	if (!v || !order || !depth)
		goto cleanup;
	/*
	 * The words' pointers again: the held array moved when it grew,
	 * and a pointer set when a call was kept would point at freed
	 * memory.
	 */
	for (i = 0; i < sc->nheld; i++) {
		v[i] = sc->held[i].ci;
		v[i].ev = sc->held[i].ev;
		v[i].args = sc->held[i].args;
	}
	ret = sw_calls_nest(v, sc->nheld, order, depth);
	for (i = 0; !ret && i < sc->nheld; i++)
		sw_script_call_print(sc, &v[order[i]],
				     sc->held[order[i]].comm,
				     (int)depth[order[i]]);
cleanup:
	free(v);
	free(order);
	free(depth);
	return ret;
}

/* --by: count @ci in its row; a record without the key asked for stops. */
static int sw_script_by_add(struct sw_script *sc, const struct sw_call_info *ci)
{
	char tmp[16];
	int ret;

	ret = sw_bykey_add(sc->by, ci,
			   sw_machine_comm(&sc->s->m, ci->pid, ci->tid),
			   &sc->by_err);
	if (ret == -EINVAL)
		sw_err_prefix(&sc->by_err, "%s %s", ci->span ? "span" : "probe",
			      sw_call_info_name(&sc->names, ci, tmp));
	return ret;
}

/* A row's name: the probe's function (its @tag left out) or the span's. */
static void sw_script_by_name(struct sw_script *sc, const struct sw_by_row *r,
			      char *buf, size_t len)
{
	struct sw_call_info ci = { .id = r->id, .span = r->span };
	char tmp[16];
	const char *name = sw_call_info_name(&sc->names, &ci, tmp);

	snprintf(buf, len, "%.*s", (int)strcspn(name, "@"), name);
}

/* A key cell: a span's key in hex (often an address), a comm by name. */
static void sw_script_by_cell(struct sw_script *sc, const struct sw_by_row *r,
			      unsigned int i, char *buf, size_t len)
{
	enum sw_by_field f = sc->by->spec.field[i];

	if (r->other)
		snprintf(buf, len, "other (%" PRIu64 " keys)", r->nkeys);
	else if (f == SW_BY_COMM)
		snprintf(buf, len, "%s", sw_str(&sc->s->m, (uint32_t)r->v[i]));
	else if ((f == SW_BY_KEY || f == SW_BY_KEY2) && r->span)
		snprintf(buf, len, "0x%" PRIx64, r->v[i]);
	else
		snprintf(buf, len, "%" PRIu64, r->v[i]);
}

/* The name of event @i: from the recording's "events", else evI. */
static const char *sw_script_ev_name(const char *events, unsigned int i,
				     char *buf, size_t len)
{
	const char *p = events;
	size_t n;

	while (p && i--) {
		p = strchr(p, ',');
		if (p)
			p++;
	}
	n = p ? strcspn(p, ",\n") : 0;
	if (n)
		snprintf(buf, len, "%.*s", (int)n, p);
	else
		snprintf(buf, len, "ev%u", i);
	return buf;
}

static const char *const sw_by_pct_keys[SW_PCT_NR] = { "p50", "p90", "p99",
						       "p99.9" };

static void sw_script_by_json(struct sw_script *sc, const char *events)
{
	const struct sw_bykey *b = sc->by;
	uint64_t pct[SW_PCT_NR];
	char buf[256];
	unsigned int i, e;
	size_t r;
	FILE *f = sc->out;

	for (r = 0; r < b->n; r++) {
		const struct sw_by_row *w = &b->rows[r];

		if (sw_by_row_pcts(w, pct))
			memset(pct, 0, sizeof(pct));
		sw_script_by_name(sc, w, buf, sizeof(buf));
		fputs("{\"type\":\"by\",\"name\":", f);
		sw_json_str(f, buf);
		fprintf(f, ",\"span\":%s", w->span ? "true" : "false");
		if (w->other)
			fprintf(f, ",\"other\":true,\"keys\":%" PRIu64, w->nkeys);
		for (i = 0; !w->other && i < b->spec.n; i++) {
			fputc(',', f);
			sw_json_key(f, sw_by_name(b->spec.field[i]));
			if (b->spec.field[i] == SW_BY_COMM)
				sw_json_str(f, sw_str(&sc->s->m,
						      (uint32_t)w->v[i]));
			else
				sw_json_u64(f, w->v[i]);
		}
		fprintf(f, ",\"calls\":%" PRIu64 ",\"total_ns\":%" PRIu64
			",\"min_ns\":%" PRIu64 ",\"avg_ns\":%" PRIu64
			",\"max_ns\":%" PRIu64, w->dur.count, w->dur.sum,
			w->dur.min, sw_stats_avg(&w->dur), w->dur.max);
		for (i = 0; i < SW_PCT_NR; i++)
			fprintf(f, ",\"%s_ns\":%" PRIu64, sw_by_pct_keys[i],
				pct[i]);
		for (e = 0; e < b->nev; e++) {
			sw_script_ev_name(events, e, buf, sizeof(buf) - 4);
			strcat(buf, "_avg");
			fputc(',', f);
			sw_json_key(f, buf);
			sw_json_u64(f, sw_stats_avg(&w->ev[e]));
		}
		fputs("}\n", f);
	}
}

/* The human table: a row per probe or span and key tuple. */
static int sw_script_by_table(struct sw_script *sc, const char *events)
{
	static const char *const heads[] = { "TOTAL", "MIN", "AVG", "MAX",
					     "P50", "P90", "P99" };
	const struct sw_bykey *b = sc->by;
	uint64_t pct[SW_PCT_NR];
	struct sw_htable t;
	char buf[256], head[96];
	unsigned int i, k;
	bool ok;
	size_t r;
	int ret;

	ret = sw_htable_init(&t, b->n);
	if (ret)
		return ret;
	ret = -ENOMEM;
	/* the columns, in the order the cells are set below */
	ok = sw_htable_add(&t, "NAME", SW_HK_TEXT, NULL);
	for (i = 0; i < b->spec.n; i++) {
		snprintf(head, sizeof(head), "%s", sw_by_name(b->spec.field[i]));
		for (k = 0; head[k]; k++)
			head[k] = (char)toupper((unsigned char)head[k]);
		ok = ok && sw_htable_add(&t, head, SW_HK_TEXT, NULL);
	}
	ok = ok && sw_htable_add(&t, "CALLS", SW_HK_COUNT, NULL);
	for (i = 0; i < 7; i++)
		ok = ok && sw_htable_add(&t, heads[i], SW_HK_DUR, NULL);
	for (i = 0; i < b->nev; i++) {
		sw_script_ev_name(events, i, head, sizeof(head) - 4);
		strcat(head, "_avg");
		ok = ok && sw_htable_add(&t, head, SW_HK_COUNT, NULL);
	}
	if (!ok)
		goto cleanup;
	t.col[1 + b->spec.n].keep = true;
	for (r = 0; r < b->n; r++) {
		const struct sw_by_row *w = &b->rows[r];
		struct sw_hcol *c = t.col;

		if (sw_by_row_pcts(w, pct))
			goto cleanup;
		sw_script_by_name(sc, w, buf, sizeof(buf));
		if (sw_hcol_text(c++, r, buf))
			goto cleanup;
		for (i = 0; i < b->spec.n; i++) {
			sw_script_by_cell(sc, w, i, buf, sizeof(buf));
			if (sw_hcol_text(c++, r, w->other && i ? "" : buf))
				goto cleanup;
		}
		(c++)->v[r] = w->dur.count;
		(c++)->v[r] = w->dur.sum;
		(c++)->v[r] = w->dur.min;
		(c++)->v[r] = sw_stats_avg(&w->dur);
		(c++)->v[r] = w->dur.max;
		for (i = 0; i <= SW_PCT_99; i++)
			(c++)->v[r] = pct[i];
		for (i = 0; i < b->nev; i++)
			(c++)->v[r] = sw_stats_avg(&w->ev[i]);
	}
	ret = sw_htable_print(sc->out, &t);
cleanup:
	sw_htable_free(&t);
	return ret;
}

/* --by: the rows ranked, printed as a table or JSON lines. */
static int sw_script_by_print(struct sw_script *sc)
{
	char *events;
	int ret;

	ret = sw_bykey_rank(sc->by, sc->o->rows);
	if (ret)
		return ret;
	events = sw_session_meta(sc->s, "events");
	if (sc->o->json)
		sw_script_by_json(sc, events);
	else if (sc->by->n)
		ret = sw_script_by_table(sc, events);
	else
		fputs("# no traced calls\n", sc->out);
	free(events);
	return ret ? ret : ferror(sc->out) ? -EIO : 0;
}

static int sw_script_call(struct sw_script *sc, const struct sw_rec_header *h,
			  uint32_t cpu)
{
	struct sw_call_info ci;

	if (sw_call_decode(h, cpu, &ci))
		return 0;
	sc->calls++;
	if (ci.dur < sc->o->min_ns ||
	    !sw_script_keep(sc, ci.pid, ci.tid, ci.cpu_start, ci.cpu_end))
		return 0;
	sc->printed++;
	if (sc->o->graph)
		return sw_script_hold(sc, &ci);
	if (sc->by)
		return sw_script_by_add(sc, &ci);
	sw_script_call_print(sc, &ci, sw_script_comm(sc, ci.pid, ci.tid), -1);
	return 0;
}

static void sw_script_sample(struct sw_script *sc,
			     const struct sw_rec_sample *smp)
{
	const __u64 *fr = sw_sample_frames(smp);
	uint32_t i, n = smp->nr_kernel + smp->nr_user;
	FILE *f = sc->out;
	struct sw_line l;

	sw_line_init(&l, f);
	if (!sw_script_keep(sc, smp->pid, smp->tid, smp->cpu, -1))
		return;
	if (sc->o->json) {
		fprintf(f, "{\"type\":\"sample\",\"time\":%" PRIu64
			",\"pid\":%u,\"tid\":%u,\"cpu\":%u,\"period\":%" PRIu64
			",\"ip\":%" PRIu64 ",\"comm\":",
			(uint64_t)smp->h.time, smp->pid, smp->tid, smp->cpu,
			(uint64_t)smp->period, (uint64_t)smp->ip);
		sw_json_str(f, sw_script_comm(sc, smp->pid, smp->tid));
		fputs(",\"stack\":[", f);
	} else {
		sw_script_line_head(&l, sw_script_comm(sc, smp->pid, smp->tid),
				    smp->pid, smp->tid);
		sw_script_line_cpu(&l, smp->cpu);
		sw_line_puts(&l, "]     ");
		sw_script_line_time(&l, sc, smp->h.time);
		sw_line_puts(&l, " sample period=");
		sw_line_u64(&l, smp->period, 0, 0);
		sw_line_end(&l);
	}
	for (i = 0; fr && i < n; i++) {
		bool kernel = i < smp->nr_kernel;
		int64_t id = sw_session_locate(sc->s, smp->pid, fr[i], kernel,
					       i != 0 && i != smp->nr_kernel,
					       false);
		const char *sym = id < 0 ? "[unknown]" :
			sw_str(&sc->s->m,
			       sw_symres_get(&sc->s->sym, (uint32_t)id)->sym);

		if (sc->o->json) {
			fprintf(f, "%s{\"ip\":%" PRIu64 ",\"sym\":", i ? "," : "",
				(uint64_t)fr[i]);
			sw_json_str(f, sym);
			fputc('}', f);
		} else {
			sw_line_putc(&l, '\t');
			sw_line_x64(&l, fr[i], 16);
			sw_line_putc(&l, ' ');
			sw_line_puts(&l, sym);
			sw_line_end(&l);
		}
	}
	if (sc->o->json)
		fputs("]}\n", f);
}

static void sw_script_event(struct sw_script *sc, const struct sw_rec_header *h)
{
	const char *type = NULL;
	uint32_t pid = 0, tid = 0;
	char what[300] = "";
	FILE *f = sc->out;
	struct sw_line l;

	switch (h->type) {
	case SW_REC_COMM: {
		const struct sw_rec_comm *c = (const void *)h;

		type = "comm";
		pid = c->pid;
		tid = c->tid;
		snprintf(what, sizeof(what), "%.*s", SW_COMM_LEN, c->comm);
		break;
	}
	case SW_REC_FORK: {
		const struct sw_rec_fork *c = (const void *)h;

		type = "fork";
		pid = c->pid;
		tid = c->tid;
		snprintf(what, sizeof(what), "%u/%u", c->ppid, c->ptid);
		break;
	}
	case SW_REC_EXIT: {
		const struct sw_rec_exit *c = (const void *)h;

		type = "exit";
		pid = c->pid;
		tid = c->tid;
		break;
	}
	case SW_REC_MMAP: {
		const struct sw_rec_mmap *c = (const void *)h;
		const char *p = sw_mmap_path(c);

		type = "mmap";
		pid = c->pid;
		tid = c->tid;
		snprintf(what, sizeof(what), "%.256s", p ? p : "?");
		break;
	}
	default:
		return;
	}
	if (!sw_script_keep(sc, pid, tid, -1, -1))
		return;
	if (sc->o->json) {
		fprintf(f, "{\"type\":\"%s\",\"time\":%" PRIu64
			",\"pid\":%u,\"tid\":%u,\"what\":", type, (uint64_t)h->time, pid,
			tid);
		sw_json_str(f, what);
		fputs("}\n", f);
		return;
	}
	sw_line_init(&l, f);
	sw_script_line_head(&l, sw_script_comm(sc, pid, tid), pid, tid);
	sw_line_puts(&l, "          ");
	sw_script_line_time(&l, sc, h->time);
	sw_line_putc(&l, ' ');
	sw_line_puts(&l, type);
	sw_line_putc(&l, ' ');
	sw_line_puts(&l, what);
	sw_line_end(&l);
}

static int sw_script_rec(void *arg, const struct sw_rec_header *h,
			 uint32_t cpu)
{
	struct sw_script *sc = arg;
	int ret = 0;

	if (!sc->t0)
		sc->t0 = h->type == SW_REC_CALL ?
			h->time - ((const struct sw_rec_call *)h)->dur :
			h->time;
	if (h->type == SW_REC_CALL)
		ret = sw_script_call(sc, h, cpu);
	else if (sc->o->graph || sc->by)
		;
	else if (h->type == SW_REC_SAMPLE)
		sw_script_sample(sc, (const void *)h);
	else if (!sc->o->calls_only)
		sw_script_event(sc, h);
	return ret ? ret : ferror(sc->out) ? -EIO : 0;
}

static void sw_script_warn(void *arg, const char *msg)
{
	(void)arg;
	fprintf(stderr, "stopwatch script: warning: %s\n", msg);
}

/* Losses, said on stderr after the stream. */
static void sw_script_losses(struct sw_script *sc, const char *cmd)
{
	const struct sw_losses *l = &sc->s->lost;

	if (l->counted)
		fprintf(stderr,
			"stopwatch %s: %" PRIu64 " calls traced, %" PRIu64
			" written, lost: %" PRIu64 " buffer full, %" PRIu64
			" nested, %" PRIu64 " missing from the file; %" PRIu64
			" calls read, %" PRIu64 " %s\n",
			cmd, l->call_taken, l->call_written, l->call_full,
			l->call_nested, l->calls_missing, sc->calls,
			sc->printed, sc->by ? "summed" : "printed");
	else
		fprintf(stderr,
			"stopwatch %s: the final counters are missing (recording cut short): lost at least %" PRIu64
			" buffer full, %" PRIu64 " nested; %" PRIu64
			" calls read\n",
			cmd, l->call_full, l->call_nested, sc->calls);
}

/* The options' parts: the CPU list, the --by keys. */
static int sw_script_setup(struct sw_script *sc, struct sw_bykey *by,
			   const char *cmd)
{
	const struct sw_script_opts *o = sc->o;
	struct sw_err err = { "" };
	int ret;

	if (o->cpus && !sw_parse_cpus(o->cpus, sc->cpus)) {
		fprintf(stderr, "stopwatch %s: invalid --cpu '%s': expected a CPU list (0-3,6), each below %d\n",
			cmd, o->cpus, SW_FILTER_CPUS);
		return -EINVAL;
	}
	if (o->by) {
		struct sw_by_spec sp;

		ret = sw_by_parse(o->by, &sp, &err);
		if (ret) {
			fprintf(stderr, "stopwatch %s: %s\n", cmd, err.msg);
			return ret;
		}
		sc->by = by;
		sw_bykey_init(by, &sp);
	}
	return 0;
}

/* The names of the traced probes' and spans' ids, from META. */
static void sw_script_names(struct sw_script *sc)
{
	char *ids;

	ids = sw_session_meta(sc->s, "trace_ids");
	sw_call_names_parse(&sc->names, ids);
	free(ids);
	ids = sw_session_meta(sc->s, "trace_span_ids");
	sw_call_names_parse_spans(&sc->names, ids);
	free(ids);
}

static void sw_script_free(struct sw_script *sc)
{
	sw_call_names_free(&sc->names);
	free(sc->held);
	if (sc->by)
		sw_bykey_free(sc->by);
	sw_session_close(sc->s);
}

/* After the replay (@ret its result): --graph, --by, errors, losses. */
static int sw_script_finish(struct sw_script *sc, int ret, const char *cmd)
{
	if (!ret && sc->o->graph)
		ret = sw_script_graph(sc);
	if (!ret && sc->by)
		ret = sw_script_by_print(sc);
	if (ret && sc->by_err.msg[0])
		fprintf(stderr, "stopwatch %s: %s\n", cmd, sc->by_err.msg);
	else if (ret)
		fprintf(stderr, "stopwatch %s: %s\n", cmd, strerror(-ret));
	if (!sc->o->quiet)
		sw_script_losses(sc, cmd);
	sw_script_free(sc);
	return ret;
}

int sw_script_print(const char *input, const struct sw_script_opts *o,
		    const char *cmd)
{
	struct sw_session_opts so = { 0 };
	struct sw_script sc = { .o = o, .out = stdout };
	struct sw_err err = { "" };
	struct sw_bykey by;
	int ret;

	ret = sw_script_setup(&sc, &by, cmd);
	if (ret)
		return ret;
	so.debuginfo_path = o->debuginfo_path;
	so.all_pids = o->all_pids;
	so.no_src = true;
	so.warn = sw_script_warn;
	ret = sw_session_open(input, &so, &sc.s, &err);
	if (ret) {
		fprintf(stderr, "stopwatch %s: %s\n", cmd, err.msg);
		if (sc.by)
			sw_bykey_free(sc.by);
		return ret;
	}
	sw_script_names(&sc);
	ret = sw_session_replay(sc.s, sw_script_rec, &sc);
	return sw_script_finish(&sc, ret, cmd);
}

/* ---- live: printing while recording (stopwatch trace) -------------------- */

struct sw_script_live {
	struct sw_script sc;
	struct sw_bykey by;
	const char *cmd;
};

int sw_script_live_open(const struct sw_script_opts *o, const char *cmd,
			const char *meta, size_t len,
			struct sw_script_live **out)
{
	struct sw_script_live *l = calloc(1, sizeof(*l));
	struct sw_err err = { "" };
	int ret;

	*out = NULL;
	if (!l)
		return -ENOMEM;
	l->sc.o = o;
	l->sc.out = stdout;
	l->cmd = cmd;
	ret = sw_script_setup(&l->sc, &l->by, cmd);
	if (!ret)
		ret = sw_session_live_open(meta, len, o->all_pids,
					   sw_script_rec, &l->sc, &l->sc.s,
					   &err);
	if (ret) {
		if (err.msg[0])
			fprintf(stderr, "stopwatch %s: %s\n", cmd, err.msg);
		if (l->sc.by)
			sw_bykey_free(l->sc.by);
		free(l);
		return ret;
	}
	sw_script_names(&l->sc);
	*out = l;
	return 0;
}

int sw_script_live_cpu(struct sw_script_live *l, uint32_t cpu)
{
	return sw_session_live_cpu(l->sc.s, cpu);
}

int sw_script_live_add(struct sw_script_live *l,
		       const struct sw_rec_header *h, uint32_t cpu)
{
	struct sw_err err = { "" };
	int ret = sw_session_live_add(l->sc.s, h, cpu, &err);

	if (ret)
		fprintf(stderr, "stopwatch %s: %s\n", l->cmd, err.msg);
	return ret;
}

int sw_script_live_flush(struct sw_script_live *l, uint64_t horizon)
{
	int ret = sw_session_live_flush(l->sc.s, horizon);

	if (fflush(l->sc.out) && !ret)
		ret = -EIO;
	if (ret)
		fprintf(stderr, "stopwatch %s: %s\n", l->cmd, strerror(-ret));
	return ret;
}

int sw_script_live_end(struct sw_script_live *l, const char *counters)
{
	int ret = sw_session_live_end(l->sc.s, counters);
	uint64_t late = sw_session_live_late(l->sc.s);

	ret = sw_script_finish(&l->sc, ret, l->cmd);
	if (late)
		fprintf(stderr,
			"stopwatch %s: %" PRIu64 " record%s printed out of time order (reached the program after later ones of other CPUs had been printed)\n",
			l->cmd, late, late == 1 ? "" : "s");
	free(l);
	return ret;
}

void sw_script_live_free(struct sw_script_live *l)
{
	if (!l)
		return;
	sw_script_free(&l->sc);
	free(l);
}

/* --perfetto and --chrome: the timelines, output/timeline.c. */
static int sw_script_timelines(const struct sw_script_args *a)
{
	struct sw_timeline_opts t = {
		.input = a->input, .debuginfo_path = a->debuginfo_path,
		.all_pids = a->all_pids, .cmd = "script",
	};

	if (a->json) {
		fprintf(stderr, "stopwatch script: --json goes with neither --perfetto nor --chrome\n");
		return -EINVAL;
	}
	/* A timeline is the whole recording: the viewer zooms and filters. */
	if (a->graph || a->t.pid || a->t.tid || a->t.cpus || a->t.comm ||
	    a->t.min_ns) {
		fprintf(stderr, "stopwatch script: %s shapes the printed stream; --perfetto and --chrome export the whole recording\n",
			a->graph ? "--graph" : a->t.min_ns ? "--min" :
			a->t.pid ? "-p/--pid" : a->t.tid ? "-t/--tid" :
			a->t.cpus ? "-C/--cpu" : "--comm");
		return -EINVAL;
	}
	if (a->perfetto)
		t.outs[t.nouts++] = (struct sw_timeline_out){ &sw_perfetto_ops, a->perfetto };
	if (a->chrome)
		t.outs[t.nouts++] = (struct sw_timeline_out){ &sw_chrome_ops, a->chrome };
	return sw_timeline_export(&t);
}

int cmd_script(int argc, char **argv)
{
	struct sw_script_args a = { .input = SW_RECORD_DEFAULT_OUTPUT };
	const struct sw_option opts[] = {
		SW_OPT_NAME('i', "input", &a.input, "FILE",
			    "the recording (default " SW_RECORD_DEFAULT_OUTPUT ")",
			    "a file name"),
		SW_OPT_BOOL(0, "json", &a.json,
			    "one JSON object per line (type: call, sample, comm,\n"
			    "fork, exit, mmap)"),
		SW_OPT_STRING(0, "perfetto", &a.perfetto, "OUT",
			      "write a Perfetto trace to OUT instead: a track per\n"
			      "thread, a slice per call, counters of its events,\n"
			      "samples with their stacks"),
		SW_OPT_STRING(0, "chrome", &a.chrome, "OUT",
			      "write Chrome's JSON trace events to OUT instead"),
		SW_OPT_BOOL(0, "all-pids", &a.all_pids,
			    "every process, not only the recorded command's"),
		SW_OPT_BOOL(0, "graph", &a.graph,
			    "calls only, by start, each thread's inner calls\n"
			    "indented under the calls enclosing them"),
		SW_OPT_STRING(0, "debuginfo-path", &a.debuginfo_path, "PATH",
			      "where to look for debug information"),
		SW_OPT_NAME(0, "by", &a.by, "KEY[,KEY]",
			    "sum the calls instead of printing them: a row per\n"
			    "probe or span and KEY (key, key2, tid, pid, comm,\n"
			    "cpu): calls, total, min, avg, max, p50, p90, p99\n"
			    "of the durations, each event's mean",
			    "key, key2, tid, pid, comm or cpu, or two of them"),
		SW_OPT_U64(0, "rows", &a.rows, "N",
			   "with --by: rows per probe or span, the rest summed\n"
			   "into an other row (0: all)", 0, UINT32_MAX,
			   "a whole number", SW_DEFAULT("20")),
		SW_OPT_GROUP("Which records:"),
		SW_OPT_U64('p', "pid", &a.t.pid, "PID",
			   "only the process PID (all its threads)", 1,
			   SW_ID_MAX, "a process id"),
		SW_OPT_U64('t', "tid", &a.t.tid, "TID", "only the thread TID", 1,
			   SW_ID_MAX, "a thread id"),
		SW_OPT_NAME('C', "cpu", &a.t.cpus, "CPUS",
			    "only records of these CPUs (0-3,6): samples taken,\n"
			    "calls begun or ended there", "a CPU list"),
		SW_OPT_NAME(0, "comm", &a.t.comm, "NAME",
			    "only threads whose command is NAME", "a command name"),
		SW_OPT_CALLBACK(0, "min", &a.t.min_ns, "DUR",
				"only calls lasting at least DUR (1ms, 500us)",
				sw_opt_duration_cb,
				"a duration with a unit: ns, us, ms or s (e.g. 1ms)"),
		SW_OPT_END(),
	};
	struct sw_script_opts o = { 0 };
	int n;

	n = sw_parse_options(argc, argv, &sw_script_doc, opts);
	if (n <= 0)
		return n;
	if (n != argc) {
		fprintf(stderr, "stopwatch script: unexpected argument '%s'\n",
			argv[n]);
		return -EINVAL;
	}
	if (a.by && (a.perfetto || a.chrome || a.graph)) {
		fprintf(stderr, "stopwatch script: --by sums the calls; it goes with neither %s\n",
			a.graph ? "--graph" : a.perfetto ? "--perfetto" : "--chrome");
		return -EINVAL;
	}
	if (a.perfetto || a.chrome)
		return sw_script_timelines(&a);
	o.json = a.json;
	o.by = a.by;
	o.rows = a.rows;
	o.all_pids = a.all_pids;
	o.graph = a.graph;
	o.debuginfo_path = a.debuginfo_path;
	o.pid = a.t.pid;
	o.tid = a.t.tid;
	o.comm = a.t.comm;
	o.cpus = a.t.cpus;
	o.min_ns = a.t.min_ns;
	n = sw_script_print(a.input, &o, "script");
	if (fflush(stdout) && !n)
		n = -EIO;
	return n;
}
