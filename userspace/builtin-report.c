// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-report.c - "stopwatch report": read a recording and show where
 * the time went.
 *
 * Every sample is resolved pid/ip -> image -> symbol (-> source line) with
 * the machine as it was when the sample was taken (util/session.c), then
 * counted by the sort keys (util/aggr.c).  Call stacks, when recorded,
 * feed the call graph, folded stacks, the flame graph and pprof.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "builtin.h"
#include "record/aggr.h"
#include "output/flamegraph.h"
#include "base/json.h"
#include "base/parse-options.h"
#include "output/pprof.h"
#include "record/session.h"
#include "base/table.h"

#define SW_REPORT_DEFAULT_INPUT "stopwatch.swd"
#define SW_MAX_FRAMES 512

struct sw_report_args {
	const char *input;
	const char *sort;
	const char *svg;
	const char *pprof;
	const char *debuginfo_path;
	const char *title;
	bool callgraph;
	bool folded;
	bool json;
	bool all_pids;
	bool quiet;
	bool by_period;
	bool no_demangle;
	const char *vmlinux;
	const char *kmod_dir;
	double min_pct;
	uint64_t limit;
	uint32_t *pids;
	size_t npids;
	char **comms;
	size_t ncomms;
	struct sw_cg_opts cg;
};

struct sw_report {
	struct sw_report_args *a;
	struct sw_session *s;
	struct sw_aggr aggr;
	struct sw_stacks stacks;
	bool want_stacks;
	bool want_src_ip;
	bool want_src_all;
	uint32_t *comm_ids;
	size_t ncomm_ids;
	uint64_t skipped;
	uint64_t uend[5];
	uint32_t locs[SW_MAX_FRAMES + 1];
};

/* How user stacks unwound with tables ended: sw_report.uend[] indices. */
enum { SW_UEND_COMPLETE, SW_UEND_NOTAB, SW_UEND_FAULT, SW_UEND_DEPTH,
       SW_UEND_FP };

/* Counts how the user stack of a sample ended. */
static void sw_report_uend(struct sw_report *r, const struct sw_rec_sample *s)
{
	uint16_t f = s->h.flags;

	if (!s->nr_user)
		return;
	if (!(f & SW_SAMPLE_F_USTACK_TABLE))
		r->uend[SW_UEND_FP]++;
	else if (f & SW_SAMPLE_F_USTACK_TRUNC)
		r->uend[SW_UEND_DEPTH]++;
	else if (f & SW_SAMPLE_F_USTACK_FAULT)
		r->uend[SW_UEND_FAULT]++;
	else if (f & SW_SAMPLE_F_USTACK_NOTAB)
		r->uend[SW_UEND_NOTAB]++;
	else
		r->uend[SW_UEND_COMPLETE]++;
}

static const struct sw_cmd_doc sw_report_doc = {
	.name = "report",
	.usage = "stopwatch report [-i FILE] [OPTIONS]",
	.about =
		"Show where a recording made by 'stopwatch record' spent its samples:\n"
		"resolved to command, image, symbol and source line, as a table, a call\n"
		"graph, folded stacks, an SVG flame graph, a pprof profile or JSON.\n",
	.examples =
		"  stopwatch report -i prof.swd\n"
		"  stopwatch report -i prof.swd --sort comm,image,symbol,srcline\n"
		"  stopwatch report -i prof.swd --sort image        time per loaded image\n"
		"  stopwatch report -i prof.swd --sort pid,comm     time per process\n"
		"  stopwatch report -i prof.swd -g                  call graph\n"
		"  stopwatch report -i prof.swd --folded > out.folded\n"
		"  stopwatch report -i prof.swd --svg flame.svg     open it in a browser\n"
		"  stopwatch report -i prof.swd --pprof prof.pb.gz && go tool pprof -top prof.pb.gz\n",
	.no_args = "the file goes with -i FILE",
};

static int sw_add_list(const char *opt, const char *arg, bool numeric,
		       struct sw_report_args *a)
{
	char *copy = strdup(arg), *save = NULL, *tok;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (numeric) {
			uint64_t v;
			uint32_t *n;

			if (sw_parse_u64(tok, &v) || v > UINT32_MAX) {
				fprintf(stderr,
					"stopwatch report: invalid %s '%s': expected process ids\n",
					opt, arg);
				ret = -EINVAL;
				break;
			}
			n = realloc(a->pids, (a->npids + 1) * sizeof(*n));
			if (!n) {
				ret = -ENOMEM;
				break;
			}
			a->pids = n;
			a->pids[a->npids++] = (uint32_t)v;
		} else {
			char **n = realloc(a->comms, (a->ncomms + 1) * sizeof(*n));

			if (!n) {
				ret = -ENOMEM;
				break;
			}
			a->comms = n;
			a->comms[a->ncomms] = strdup(tok);
			if (!a->comms[a->ncomms]) {
				ret = -ENOMEM;
				break;
			}
			a->ncomms++;
		}
	}
	free(copy);
	return ret;
}

static int sw_pid_list_cb(const struct sw_option *opt, const char *arg)
{
	return sw_add_list("--pid", arg, true, opt->value);
}

static int sw_comm_list_cb(const struct sw_option *opt, const char *arg)
{
	return sw_add_list("--comm", arg, false, opt->value);
}

/* Return: 0 to go on, 1 after --help, or a negative errno (reported). */
static int sw_report_parse_args(int argc, char **argv, struct sw_report_args *a)
{
	const struct sw_option opts[] = {
		SW_OPT_STRING('i', "input", &a->input, "FILE",
			      "the recording",
			      SW_DEFAULT(SW_REPORT_DEFAULT_INPUT)),
		SW_OPT_STRING('s', "sort", &a->sort, "KEYS",
			      "group rows by these keys, in order, among comm, pid,\n"
			      "tid, image, symbol, srcline, cpu",
			      SW_DEFAULT(SW_SORT_DEFAULT)),
		SW_OPT_DOUBLE(0, "min-percent", &a->min_pct, "PCT",
			      "leave out rows below PCT percent", 0, 100,
			      "a percentage from 0 to 100"),
		SW_OPT_DOUBLE(0, "percent-limit", &a->min_pct, "PCT", NULL, 0,
			      100, "a percentage from 0 to 100"),
		SW_OPT_U64('n', "limit", &a->limit, "N", "at most N rows", 0,
			   UINT64_MAX, "a whole number"),
		SW_OPT_BOOL(0, "period", &a->by_period,
			    "weigh by period (events, ns) instead of samples"),
		SW_OPT_BOOL('g', "call-graph", &a->callgraph,
			    "after the table, the callers of the hottest functions\n"
			    "and the most common call paths (needs record -g)"),
		SW_OPT_U64(0, "cg-entries", &a->cg.entries, "N",
			   "functions in the call graph", 0, UINT64_MAX,
			   "a whole number", SW_DEFAULT("10")),
		SW_OPT_U64(0, "cg-paths", &a->cg.paths, "N",
			   "call paths listed", 0, UINT64_MAX,
			   "a whole number", SW_DEFAULT("10")),
		SW_OPT_BOOL(0, "folded", &a->folded,
			    "folded stacks 'comm;outer;...;inner count' instead"),
		SW_OPT_STRING(0, "svg", &a->svg, "FILE",
			      "also write an SVG flame graph to FILE"),
		SW_OPT_STRING(0, "pprof", &a->pprof, "FILE",
			      "also write a gzip'd pprof profile to FILE"),
		SW_OPT_STRING(0, "title", &a->title, "TEXT",
			      "title of the flame graph"),
		SW_OPT_BOOL('j', "json", &a->json,
			    "the table as one JSON document"),
		SW_OPT_CALLBACK(0, "pid", a, "PID[,PID..]",
				"only these processes", sw_pid_list_cb, NULL),
		SW_OPT_CALLBACK(0, "comm", a, "NAME[,NAME..]",
				"only these commands (thread names)",
				sw_comm_list_cb, NULL),
		SW_OPT_BOOL(0, "all", &a->all_pids,
			    "every process, not only the recorded command and its\n"
			    "children"),
		SW_OPT_STRING(0, "debuginfo-path", &a->debuginfo_path, "P",
			      "where to find separate debuginfo (libdwfl syntax;\n"
			      "default :.debug:/usr/lib/debug)"),
		SW_OPT_STRING('k', "vmlinux", &a->vmlinux, "FILE",
			      "the kernel's ELF file with debug information, for\n"
			      "kernel source lines (default: Debian's\n"
			      "linux-image-*-dbg path for the recorded release)"),
		SW_OPT_STRING(0, "kmod-dir", &a->kmod_dir, "DIR",
			      "look here first for modules' .ko files (their\n"
			      "source lines; default /lib/modules/RELEASE)"),
		SW_OPT_BOOL(0, "no-demangle", &a->no_demangle,
			    "keep C++ and Rust symbol names mangled"),
		SW_OPT_BOOL('q', "quiet", &a->quiet, "no '#' header lines"),
		SW_OPT_END(),
	};
	int n;

	a->cg.min_pct = 0.5;
	a->cg.depth = 32;
	n = sw_parse_options(argc, argv, &sw_report_doc, opts);
	if (n <= 0)
		return n < 0 ? n : 1;
	if (a->json && a->folded) {
		fprintf(stderr,
			"stopwatch report: --json and --folded exclude each other\n");
		return -EINVAL;
	}
	a->cg.period = a->by_period;
	return 0;
}

static void sw_report_warn(void *arg, const char *msg)
{
	(void)arg;
	fprintf(stderr, "stopwatch report: warning: %s\n", msg);
}

static bool sw_report_keep(struct sw_report *r, const struct sw_rec_sample *s,
			   uint32_t comm)
{
	size_t i;

	if (r->a->npids) {
		for (i = 0; i < r->a->npids; i++)
			if (r->a->pids[i] == s->pid)
				break;
		if (i == r->a->npids)
			return false;
	}
	if (r->ncomm_ids) {
		for (i = 0; i < r->ncomm_ids; i++)
			if (r->comm_ids[i] == comm)
				break;
		if (i == r->ncomm_ids)
			return false;
	}
	return true;
}

static int sw_report_sample(void *arg, const struct sw_rec_sample *s)
{
	struct sw_report *r = arg;
	struct sw_session *sess = r->s;
	struct sw_sample_info si;
	bool kernel = !(s->h.flags & SW_SAMPLE_F_USER);
	int64_t id;
	int ret;

	si.comm = sw_machine_comm(&sess->m, s->pid, s->tid);
	if (!sw_report_keep(r, s, si.comm)) {
		r->skipped++;
		return 0;
	}
	id = sw_session_locate(sess, s->pid, s->ip, kernel, false,
			       r->want_src_ip);
	if (id < 0)
		return (int)id;
	sw_report_uend(r, s);
	si.pid = s->pid;
	si.tid = s->tid;
	si.cpu = s->cpu;
	si.loc = (uint32_t)id;
	si.period = s->period;
	ret = sw_aggr_add(&r->aggr, &sess->sym, &si);
	if (ret)
		return ret;
	if (r->want_stacks) {
		const __u64 *fr = sw_sample_frames(s);
		size_t n = 0, nk = s->nr_kernel, nu = s->nr_user, i;

		/* The sampled address first, unless the stack starts with it. */
		if (!fr || !(nk + nu) || fr[0] != s->ip)
			r->locs[n++] = si.loc;
		for (i = 0; fr && i < nk + nu && n < SW_MAX_FRAMES; i++) {
			bool k = i < nk;
			/* The first of each part is where the CPU was, not a
			 * return address. */
			bool ret_addr = !(i == 0 || i == nk);

			if (i == 0 && fr[0] == s->ip) {
				r->locs[n++] = si.loc;
				continue;
			}
			id = sw_session_locate(sess, s->pid, fr[i], k, ret_addr,
					       r->want_src_all);
			if (id < 0)
				return (int)id;
			r->locs[n++] = (uint32_t)id;
		}
		ret = sw_stacks_add(&r->stacks, si.comm, r->locs, n, s->period);
		if (ret)
			return ret;
	}
	return 0;
}

static void sw_fmt_group(char *buf, size_t len, uint64_t v)
{
	char tmp[32];
	size_t n, i, o = 0;

	snprintf(tmp, sizeof(tmp), "%" PRIu64, v);
	n = strlen(tmp);
	for (i = 0; i < n && o + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = '\0';
}

static void sw_fmt_time(char *buf, size_t len, uint64_t ns)
{
	time_t t = (time_t)(ns / 1000000000ULL);
	struct tm tm;

	if (!ns || !localtime_r(&t, &tm) ||
	    !strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(buf, len, "an unknown time");
}

/* "lost 10 samples (0.08%): buffer full 10, ..." or NULL when none. */
static char *sw_losses_text(const struct sw_losses *l)
{
	uint64_t lost = sw_losses_samples(l);
	uint64_t base = l->counted && l->taken ? l->taken : lost + l->read;
	char *s = NULL;
	size_t len = 0;
	FILE *f;

	if (!lost && !l->sideband)
		return NULL;
	f = open_memstream(&s, &len);
	if (!f)
		return NULL;
	fprintf(f, "lost %" PRIu64 " samples (%.2f%%)", lost,
		base ? 100.0 * (double)lost / (double)base : 0.0);
	if (lost) {
		const char *sep = ": ";

		if (l->full) {
			fprintf(f, "%sbuffer full %" PRIu64, sep, l->full);
			sep = ", ";
		}
		if (l->throttled) {
			fprintf(f, "%sthrottled (max_rate) %" PRIu64, sep,
				l->throttled);
			sep = ", ";
		}
		if (l->nested) {
			fprintf(f, "%snested handler %" PRIu64, sep, l->nested);
			sep = ", ";
		}
		if (l->stack) {
			fprintf(f, "%suser stack unreadable %" PRIu64, sep,
				l->stack);
			sep = ", ";
		}
		if (l->missing)
			fprintf(f, "%swritten but missing from the file %" PRIu64,
				sep, l->missing);
	}
	if (l->sideband)
		fprintf(f, "; %" PRIu64 " task/mapping records lost (some samples may show as [unknown])",
			l->sideband);
	fclose(f);
	return s;
}

static void sw_report_header(FILE *f, struct sw_report *r)
{
	struct sw_session *s = r->s;
	char *host = sw_session_meta(s, "hostname");
	char *rel = sw_session_meta(s, "release");
	char *mach = sw_session_meta(s, "machine");
	char *cmd = sw_session_meta(s, "command");
	char *start = sw_session_meta(s, "start_realtime_ns");
	char *dur = sw_session_meta(s, "duration_ns");
	char *ev = sw_session_meta(s, "event");
	char *rate = sw_session_meta(s, "rate");
	char *cc = sw_session_meta(s, "callchain");
	char *lost = sw_losses_text(&s->lost);
	char when[64], n1[32], n2[32];
	size_t i;

	sw_fmt_time(when, sizeof(when), start ? strtoull(start, NULL, 10) : 0);
	fprintf(f, "# stopwatch report of %s\n", s->file->path);
	fprintf(f, "# recorded %s on %s (%s, %s)", when, host ? host : "?",
		rel ? rel : "?", mach ? mach : "?");
	if (dur)
		fprintf(f, " for %.2f s", (double)strtoull(dur, NULL, 10) / 1e9);
	fputc('\n', f);
	if (cmd)
		fprintf(f, "# command: %s (pid %" PRIu32 " and its children)\n",
			cmd, s->target_pid);
	else if (s->target_pid)
		fprintf(f, "# process %" PRIu32 " and its children\n",
			s->target_pid);
	fprintf(f, "# event %s, %s, call stacks %s\n", ev ? ev : "?",
		rate ? rate : "?", cc ? cc : "none");
	sw_fmt_group(n1, sizeof(n1), r->aggr.total_samples);
	sw_fmt_group(n2, sizeof(n2), r->aggr.total_period);
	fprintf(f, "# %s samples shown, period %s", n1, n2);
	if (s->filtered || r->skipped)
		fprintf(f, " (%" PRIu64 " samples of other processes left out)",
			s->filtered + r->skipped);
	fputc('\n', f);
	if (r->uend[SW_UEND_COMPLETE] + r->uend[SW_UEND_NOTAB] +
	    r->uend[SW_UEND_FAULT] + r->uend[SW_UEND_DEPTH])
		fprintf(f, "# user stacks by unwind tables: %" PRIu64 " complete, %" PRIu64
			" ended where no table covers the code, %" PRIu64
			" ended at an unreadable or bad frame, %" PRIu64
			" at the depth limit; %" PRIu64 " by frame pointers\n",
			r->uend[SW_UEND_COMPLETE], r->uend[SW_UEND_NOTAB],
			r->uend[SW_UEND_FAULT], r->uend[SW_UEND_DEPTH],
			r->uend[SW_UEND_FP]);
	if (lost)
		fprintf(f, "# %s\n", lost);
	if (!s->file->complete)
		fprintf(f, "# WARNING: the file is incomplete: this profile is partial\n");
	for (i = 0; i < s->file->nprob; i++)
		fprintf(f, "# WARNING: %s\n", s->file->prob[i].msg);
	fprintf(f, "#\n");
	free(host);
	free(rel);
	free(mach);
	free(cmd);
	free(start);
	free(dur);
	free(ev);
	free(rate);
	free(cc);
	free(lost);
}

/* Warnings on stderr, for every output format: never a partial profile
 * presented as whole. */
static void sw_report_stderr(struct sw_report *r)
{
	struct sw_session *s = r->s;
	char *lost = sw_losses_text(&s->lost);
	size_t i;

	if (!s->file->complete) {
		fprintf(stderr,
			"stopwatch report: warning: %s is incomplete (the recording did not finish writing it): the profile is partial\n",
			s->file->path);
		if (!s->lost.counted)
			fprintf(stderr,
				"stopwatch report: warning: the sampler's final counters are missing: losses are unknown\n");
	}
	for (i = 0; i < s->file->nprob; i++)
		fprintf(stderr, "stopwatch report: warning: %s\n",
			s->file->prob[i].msg);
	if (s->bad_records)
		fprintf(stderr,
			"stopwatch report: warning: %" PRIu64 " malformed records skipped\n",
			s->bad_records);
	if (lost)
		fprintf(stderr, "stopwatch report: warning: %s\n", lost);
	if (!s->sym.kallsyms.n || s->sym.kallsyms.hidden)
		fprintf(stderr,
			"stopwatch report: warning: the recording has no usable kallsyms (%s): kernel symbols show as [unknown]\n",
			s->sym.kallsyms.hidden ?
			"its addresses were hidden: record as root, or lower kernel.kptr_restrict" :
			"/proc/kallsyms could not be read");
	free(lost);
}

static bool sw_is_kernel_image(const struct sw_machine *m, uint32_t image)
{
	return m->image[image].kind == SW_IMG_KERNEL ||
	       m->image[image].kind == SW_IMG_MODULE;
}

static int sw_report_table(FILE *f, struct sw_report *r, struct sw_row *rows,
			   size_t nrows)
{
	struct sw_aggr *a = &r->aggr;
	struct sw_machine *m = &r->s->m;
	uint64_t total = r->a->by_period ? a->total_period : a->total_samples;
	size_t w[SW_SK_NR], i, k, shown = 0;
	int sym_k = -1;
	char buf[32];

	for (k = 0; k < a->nkey; k++) {
		w[k] = strlen(sw_sort_name(a->key[k]));
		if (a->key[k] == SW_SK_SYMBOL)
			sym_k = (int)k;
	}
	for (i = 0; i < nrows; i++) {
		double pct = total ? 100.0 * (double)(r->a->by_period ?
						      rows[i].period :
						      rows[i].samples) /
					     (double)total : 0;

		if (pct < r->a->min_pct || (r->a->limit && i >= r->a->limit))
			break;
		shown++;
		for (k = 0; k < a->nkey; k++) {
			size_t l = strlen(sw_aggr_cell(a, m, &rows[i], k, buf));

			if ((int)k == sym_k)
				l += 4;
			if (l > w[k])
				w[k] = l;
		}
	}
	fprintf(f, "#%9s %8s", "samples", "percent");
	for (k = 0; k < a->nkey; k++)
		fprintf(f, "  %-*s", k + 1 < a->nkey ? (int)w[k] : 0,
			sw_sort_name(a->key[k]));
	fputc('\n', f);
	for (i = 0; i < shown; i++) {
		double pct = total ? 100.0 * (double)(r->a->by_period ?
						      rows[i].period :
						      rows[i].samples) /
					     (double)total : 0;

		fprintf(f, "%10" PRIu64 " %7.2f%%", rows[i].samples, pct);
		for (k = 0; k < a->nkey; k++) {
			const char *cell = sw_aggr_cell(a, m, &rows[i], k, buf);
			int width = k + 1 < a->nkey ? (int)w[k] : 0;

			if ((int)k == sym_k) {
				uint32_t image = (uint32_t)(rows[i].val[k] >> 32);

				fprintf(f, "  %s %-*s",
					sw_is_kernel_image(m, image) ? "[k]" : "[.]",
					width ? width - 4 : 0, cell);
			} else {
				fprintf(f, "  %-*s", width, cell);
			}
		}
		fputc('\n', f);
	}
	if (shown < nrows && !r->a->quiet)
		fprintf(f, "# %zu more rows below the --min-percent/--limit threshold\n",
			nrows - shown);
	return ferror(f) ? -EIO : 0;
}

static int sw_report_json(FILE *f, struct sw_report *r, struct sw_row *rows,
			  size_t nrows)
{
	struct sw_aggr *a = &r->aggr;
	struct sw_machine *m = &r->s->m;
	const struct sw_losses *l = &r->s->lost;
	uint64_t total = r->a->by_period ? a->total_period : a->total_samples;
	char *ev = sw_session_meta(r->s, "event");
	size_t i, k;
	char buf[32];

	fputs("{", f);
	sw_json_key(f, "file");
	sw_json_str(f, r->s->file->path);
	fputs(",", f);
	sw_json_key(f, "complete");
	fputs(r->s->file->complete ? "true" : "false", f);
	fputs(",", f);
	sw_json_key(f, "event");
	sw_json_str(f, ev ? ev : "");
	fputs(",", f);
	sw_json_key(f, "samples");
	sw_json_u64(f, a->total_samples);
	fputs(",", f);
	sw_json_key(f, "period");
	sw_json_u64(f, a->total_period);
	fputs(",", f);
	sw_json_key(f, "lost");
	fputs("{", f);
	sw_json_key(f, "samples");
	sw_json_u64(f, sw_losses_samples(l));
	fprintf(f, ",\"full\":%" PRIu64 ",\"throttled\":%" PRIu64
		   ",\"nested\":%" PRIu64 ",\"stack\":%" PRIu64
		   ",\"missing\":%" PRIu64 ",\"sideband\":%" PRIu64
		   ",\"counted\":%s},",
		l->full, l->throttled, l->nested, l->stack, l->missing,
		l->sideband, l->counted ? "true" : "false");
	sw_json_key(f, "sort");
	fputs("[", f);
	for (k = 0; k < a->nkey; k++) {
		if (k)
			fputc(',', f);
		sw_json_str(f, sw_sort_name(a->key[k]));
	}
	fputs("],", f);
	sw_json_key(f, "rows");
	fputs("[", f);
	for (i = 0; i < nrows; i++) {
		double pct = total ? 100.0 * (double)(r->a->by_period ?
						      rows[i].period :
						      rows[i].samples) /
					     (double)total : 0;

		if (pct < r->a->min_pct || (r->a->limit && i >= r->a->limit))
			break;
		fprintf(f, "%s{\"samples\":%" PRIu64 ",\"period\":%" PRIu64
			   ",\"percent\":%.4f",
			i ? "," : "", rows[i].samples, rows[i].period, pct);
		for (k = 0; k < a->nkey; k++) {
			fputc(',', f);
			sw_json_key(f, sw_sort_name(a->key[k]));
			if (a->key[k] == SW_SK_PID || a->key[k] == SW_SK_TID ||
			    a->key[k] == SW_SK_CPU)
				sw_json_u64(f, rows[i].val[k]);
			else
				sw_json_str(f, sw_aggr_cell(a, m, &rows[i], k, buf));
		}
		fputc('}', f);
	}
	fputs("]}\n", f);
	free(ev);
	return ferror(f) ? -EIO : 0;
}

static int sw_report_svg(struct sw_report *r)
{
	struct sw_flame_opts o = { 0 };
	char *ev = sw_session_meta(r->s, "event");
	char *cmd = sw_session_meta(r->s, "command");
	char sub[512];
	FILE *f;
	int ret;

	f = fopen(r->a->svg, "w");
	if (!f) {
		fprintf(stderr, "stopwatch report: cannot create %s: %s\n",
			r->a->svg, strerror(errno));
		free(ev);
		free(cmd);
		return -errno;
	}
	snprintf(sub, sizeof(sub), "%s: %" PRIu64 " samples of %s%s%s%s",
		 r->s->file->path, r->stacks.total_samples, ev ? ev : "?",
		 cmd ? " (" : "", cmd ? cmd : "", cmd ? ")" : "");
	o.title = r->a->title ? r->a->title : "stopwatch flame graph";
	o.subtitle = sub;
	o.width = 1200;
	o.period = r->a->by_period;
	o.unit = r->a->by_period ? "period" : "samples";
	ret = sw_write_flamegraph(f, &r->stacks, &r->s->sym, &o);
	if (fclose(f) && !ret)
		ret = -EIO;
	if (ret)
		fprintf(stderr, "stopwatch report: cannot write %s: %s\n",
			r->a->svg, strerror(-ret));
	free(ev);
	free(cmd);
	return ret;
}

static int sw_report_pprof(struct sw_report *r)
{
	struct sw_pprof_info info = { 0 };
	char *ev = sw_session_meta(r->s, "event");
	char *start = sw_session_meta(r->s, "start_realtime_ns");
	char *dur = sw_session_meta(r->s, "duration_ns");
	char *per = sw_session_meta(r->s, "period");
	struct sw_err err = { "" };
	char comment[512];
	uint8_t *buf = NULL;
	size_t len = 0;
	int ret;

	info.event = ev ? ev : "events";
	info.time_ns = start ? strtoull(start, NULL, 10) : 0;
	info.duration_ns = dur ? strtoull(dur, NULL, 10) : 0;
	info.period = per ? strtoull(per, NULL, 10) : 0;
	snprintf(comment, sizeof(comment), "stopwatch report of %s",
		 r->s->file->path);
	info.comment = comment;
	ret = sw_pprof_encode(&r->stacks, &r->s->sym, &info, &buf, &len);
	if (!ret)
		ret = sw_pprof_write(r->a->pprof, buf, len, &err);
	if (ret)
		fprintf(stderr, "stopwatch report: %s\n",
			err.msg[0] ? err.msg : strerror(-ret));
	free(buf);
	free(ev);
	free(start);
	free(dur);
	free(per);
	return ret;
}

/* The --comm names as the session's string ids. */
static int sw_report_comm_ids(struct sw_report *r)
{
	size_t i;

	if (!r->a->ncomms)
		return 0;
	r->comm_ids = calloc(r->a->ncomms, sizeof(*r->comm_ids));
	if (!r->comm_ids)
		return -ENOMEM;
	for (i = 0; i < r->a->ncomms; i++) {
		int64_t id = sw_intern_str(&r->s->m.str, r->a->comms[i]);

		if (id < 0)
			return -ENOMEM;
		r->comm_ids[r->ncomm_ids++] = (uint32_t)id;
	}
	return 0;
}

/* Opens the recording and adds up its samples. */
static int sw_report_load(struct sw_report *r)
{
	struct sw_report_args *a = r->a;
	struct sw_session_opts so = { 0 };
	struct sw_err err = { "" };
	int ret;

	ret = sw_sort_parse(a->sort, &r->aggr, &err);
	if (ret) {
		fprintf(stderr, "stopwatch report: %s\n", err.msg);
		return ret;
	}
	sw_aggr_init(&r->aggr);
	sw_stacks_init(&r->stacks);
	r->want_stacks = a->callgraph || a->folded || a->svg || a->pprof;
	r->want_src_ip = sw_aggr_wants_srcline(&r->aggr) || a->pprof;
	r->want_src_all = a->pprof != NULL;

	so.debuginfo_path = a->debuginfo_path;
	so.all_pids = a->all_pids || a->npids;
	so.no_demangle = a->no_demangle;
	so.vmlinux = a->vmlinux;
	so.kmod_dir = a->kmod_dir;
	so.warn = sw_report_warn;
	ret = sw_session_open(a->input, &so, &r->s, &err);
	if (ret) {
		fprintf(stderr, "stopwatch report: %s\n", err.msg);
		return ret;
	}
	ret = sw_report_comm_ids(r);
	if (ret)
		return ret;
	ret = sw_session_for_each(r->s, sw_report_sample, r);
	if (ret)
		fprintf(stderr, "stopwatch report: %s\n", strerror(-ret));
	return ret;
}

/* What the user should know about what was read. */
static void sw_report_notes(struct sw_report *r)
{
	struct sw_report_args *a = r->a;

	sw_report_stderr(r);
	if (!r->aggr.total_samples)
		fprintf(stderr, "stopwatch report: no samples%s in %s\n",
			r->s->nsamples ? " of the selected processes" : "",
			a->input);
	if (r->want_stacks && r->s->have_stream &&
	    !(r->s->stream.flags & (SW_STREAM_F_KSTACK | SW_STREAM_F_USTACK)))
		fprintf(stderr,
			"stopwatch report: note: the recording has no call stacks (record with -g): stacks are one frame deep\n");
}

/* The table (or JSON, or folded stacks), then the files asked for. */
static int sw_report_write(struct sw_report *r)
{
	struct sw_report_args *a = r->a;
	struct sw_row *rows = NULL;
	int64_t nrows;
	int ret;

	nrows = sw_aggr_sorted(&r->aggr, &r->s->m, a->by_period, &rows);
	if (nrows < 0)
		return (int)nrows;
	if (a->folded) {
		ret = sw_write_folded(stdout, &r->stacks, &r->s->sym,
				      a->by_period);
	} else if (a->json) {
		ret = sw_report_json(stdout, r, rows, (size_t)nrows);
	} else {
		if (!a->quiet)
			sw_report_header(stdout, r);
		ret = sw_report_table(stdout, r, rows, (size_t)nrows);
		if (!ret && a->callgraph)
			ret = sw_print_callgraph(stdout, &r->stacks, &r->s->sym,
						 &a->cg);
	}
	if (!ret && a->svg)
		ret = sw_report_svg(r);
	if (!ret && a->pprof)
		ret = sw_report_pprof(r);
	free(rows);
	return ret;
}

/* --cg-entries and --cg-paths are parsed as uint64_t into size_t. */
_Static_assert(sizeof(size_t) == sizeof(uint64_t), "64-bit size_t");

int cmd_report(int argc, char **argv)
{
	struct sw_report_args a = { 0 };
	struct sw_report r = { .a = &a };
	size_t i;
	int ret;

	ret = sw_report_parse_args(argc, argv, &a);
	if (ret) {
		ret = ret > 0 ? 0 : ret;
		goto cleanup;
	}
	ret = sw_report_load(&r);
	if (ret)
		goto cleanup_run;
	sw_report_notes(&r);
	ret = sw_report_write(&r);
cleanup_run:
	if (ret == -ENOMEM)
		fprintf(stderr, "stopwatch report: out of memory\n");
cleanup:
	free(r.comm_ids);
	sw_stacks_free(&r.stacks);
	sw_aggr_free(&r.aggr);
	sw_session_close(r.s);
	for (i = 0; i < a.ncomms; i++)
		free(a.comms[i]);
	free(a.comms);
	free(a.pids);
	return ret;
}
