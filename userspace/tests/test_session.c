// SPDX-License-Identifier: GPL-2.0
/*
 * test_session.c - replaying a recording: per-CPU streams merged by time,
 * fork/exec/exit and mappings, the command's process tree, kernel modules,
 * JIT perf maps, loss accounting, refusing another ABI major; a live
 * session's merge up to the watermark and its process tree.
 */
#include <errno.h>

#include "helpers.h"
#include "streams.h"
#include "record/session.h"

static const char kallsyms[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81001000 T schedule\n"
	"ffffffff81001800 T do_idle\n"
	"ffffffff81002000 T _etext\n"
	"ffffffffc0001000 t ext4_read\t[ext4]\n"
	"ffffffffc0001100 t ext4_write\t[ext4]\n";

struct file_spec {
	struct tbuf cpu[2];
	const char *meta;
	const char *perfmap;
	uint32_t perfmap_pid;
	const char *counters;
	bool end;
};

static char *write_spec(struct file_spec *fs)
{
	struct swd_writer w;
	struct sw_err err = { "" };
	char *path = tmp_path("sess");
	int c;

	assert_int_equal(swd_writer_open(&w, path, &err), 0);
	if (fs->meta)
		swd_write_section(&w, SWD_SEC_META, 0, fs->meta,
				  strlen(fs->meta), false);
	swd_write_section(&w, SWD_SEC_KALLSYMS, 0, kallsyms,
			  sizeof(kallsyms) - 1, true);
	for (c = 0; c < 2; c++)
		if (fs->cpu[c].len)
			swd_write_section(&w, SWD_SEC_RECORDS, (uint32_t)c,
					  fs->cpu[c].p, fs->cpu[c].len, false);
	if (fs->perfmap)
		swd_write_section(&w, SWD_SEC_PERFMAP, fs->perfmap_pid,
				  fs->perfmap, strlen(fs->perfmap), false);
	if (fs->counters)
		swd_write_section(&w, SWD_SEC_COUNTERS, 0, fs->counters,
				  strlen(fs->counters), false);
	if (fs->end)
		swd_write_section(&w, SWD_SEC_END, 0, "", 0, false);
	assert_int_equal(swd_writer_close(&w, &err), 0);
	for (c = 0; c < 2; c++)
		free(fs->cpu[c].p);
	return path;
}

/* What each replayed sample resolved to: "comm image symbol". */
struct seen {
	struct sw_session *s;
	char out[64][96];
	size_t n;
};

static int on_sample(void *arg, const struct sw_rec_sample *smp)
{
	struct seen *x = arg;
	struct sw_session *s = x->s;
	const struct sw_symres *r;
	int64_t id;

	id = sw_session_locate(s, smp->pid, smp->ip,
			       !(smp->h.flags & SW_SAMPLE_F_USER), false, false);
	assert_true(id >= 0);
	r = sw_symres_get(&s->sym, (uint32_t)id);
	snprintf(x->out[x->n++], sizeof(x->out[0]), "%s %s %s",
		 sw_str(&s->m, sw_machine_comm(&s->m, smp->pid, smp->tid)),
		 sw_str(&s->m, s->m.image[r->image].name_id),
		 sw_str(&s->m, r->sym));
	return 0;
}

static struct sw_session *open_ok(const char *path, bool all)
{
	struct sw_session_opts o = { .all_pids = all };
	struct sw_session *s = NULL;
	struct sw_err err = { "" };

	assert_int_equal(sw_session_open(path, &o, &s, &err), 0);
	return s;
}

/*
 * pid 10 maps /x/app at 0x400000; forks 11, which inherits the mapping,
 * then execs /x/tool (mappings dropped, new one at 0x400000 too); 11 exits
 * and a late sample of it from the other CPU still resolves.  Kernel
 * samples land in the core kernel and in a module.
 */
static void test_fork_exec_exit(void **state)
{
	struct file_spec fs = { .end = true };
	struct tbuf *c0 = &fs.cpu[0], *c1 = &fs.cpu[1];
	struct seen x = { 0 };
	char *path;

	(void)state;
	fs.meta = "target_pid=10\n";
	tb_stream(c0, 0, 1, SW_ABI_MAJOR);
	tb_stream(c1, 1, 1, SW_ABI_MAJOR);
	tb_comm(c0, 5, SW_REC_F_SYNTH, 10, 10, "app");
	tb_mmap(c0, 5, SW_REC_F_SYNTH, 10, 0x400000, 0x1000, 0, "/x/app");
	tb_module(c0, 5, SW_REC_F_SYNTH, "ext4", 0xffffffffc0001000ULL, 0x1000);
	tb_comm(c0, 5, SW_REC_F_SYNTH, 99, 99, "stranger");
	/* cpu1 at t=20: 10 in its mapping; t=30: the child before exec */
	tb_sample(c1, 20, 1, 10, 10, 0x400010, true, NULL, 0, 0);
	tb_fork(c0, 25, 11, 10, false);
	tb_sample(c1, 30, 1, 11, 11, 0x400020, true, NULL, 0, 0);
	tb_comm(c0, 40, SW_COMM_F_EXEC, 11, 11, "tool");
	tb_mmap(c0, 41, 0, 11, 0x400000, 0x2000, 0, "/x/tool");
	tb_sample(c1, 50, 1, 11, 11, 0x401000, true, NULL, 0, 0);
	tb_sample(c0, 55, 0, 10, 10, 0x400030, true, NULL, 0, 0);
	tb_exit(c0, 60, 11, 11);
	tb_sample(c1, 61, 1, 11, 11, 0x400040, true, NULL, 0, 0);
	tb_sample(c1, 70, 1, 10, 10, 0xffffffff81001010ULL, false, NULL, 0, 0);
	tb_sample(c1, 71, 1, 10, 10, 0xffffffffc0001104ULL, false, NULL, 0, 0);
	tb_sample(c1, 72, 1, 10, 10, 0x7fff0000, true, NULL, 0, 0);
	tb_sample(c1, 73, 1, 99, 99, 0x400000, true, NULL, 0, 0);
	tb_end(c0, 80, 0, 1, 1, 0);
	tb_end(c1, 80, 1, 8, 8, 0);
	path = write_spec(&fs);

	x.s = open_ok(path, false);
	assert_int_equal(x.s->target_pid, 10);
	assert_int_equal(x.s->nsamples, 9);
	assert_int_equal(sw_session_for_each(x.s, on_sample, &x), 0);
	assert_int_equal(x.n, 8);
	assert_string_equal(x.out[0], "app app [unknown]");
	assert_string_equal(x.out[1], "forked app [unknown]");
	assert_string_equal(x.out[2], "tool tool [unknown]");
	assert_string_equal(x.out[3], "app app [unknown]");
	assert_string_equal(x.out[4], "tool tool [unknown]");
	assert_string_equal(x.out[5], "app [kernel.kallsyms] schedule");
	assert_string_equal(x.out[6], "app [ext4] ext4_write");
	assert_string_equal(x.out[7], "app [unknown] [unknown]");
	assert_int_equal(x.s->filtered, 1);
	/* END records: exact counts, nothing lost, nothing missing. */
	assert_true(x.s->lost.counted);
	assert_int_equal(x.s->lost.taken, 9);
	assert_int_equal(sw_losses_samples(&x.s->lost), 0);
	sw_session_close(x.s);

	/* --all: the stranger too. */
	memset(&x, 0, sizeof(x));
	x.s = open_ok(path, true);
	assert_int_equal(sw_session_for_each(x.s, on_sample, &x), 0);
	assert_int_equal(x.n, 9);
	assert_string_equal(x.out[8], "stranger [unknown] [unknown]");
	sw_session_close(x.s);
	unlink(path);
	free(path);
}

/* Losses: END records win; missing samples are counted; without END, the
 * sampler's counters; without those, the LOST records. */
static void test_losses(void **state)
{
	struct file_spec fs = { .end = true };
	struct sw_session *s;
	char *path;
	int i;

	(void)state;
	tb_stream(&fs.cpu[0], 0, 1, SW_ABI_MAJOR);
	for (i = 0; i < 3; i++)
		tb_sample(&fs.cpu[0], 10 + i, 0, 1, 1, 0x1000, true, NULL, 0, 0);
	tb_lost(&fs.cpu[0], 20, 0, 7, 2);
	tb_end(&fs.cpu[0], 30, 0, 14, 5, 7);	/* 5 written, 3 in the file */
	path = write_spec(&fs);
	s = open_ok(path, true);
	assert_true(s->lost.counted);
	assert_int_equal(s->lost.taken, 14);
	assert_int_equal(s->lost.full, 7);
	assert_int_equal(s->lost.missing, 2);
	assert_int_equal(sw_losses_samples(&s->lost), 9);
	sw_session_close(s);
	unlink(path);
	free(path);

	/* A CPU that went offline and came back: two ENDs, cumulative
	 * counters; the last one holds the totals. */
	memset(&fs, 0, sizeof(fs));
	tb_stream(&fs.cpu[1], 1, 1, SW_ABI_MAJOR);
	tb_sample(&fs.cpu[1], 10, 1, 1, 1, 0x1000, true, NULL, 0, 0);
	tb_end(&fs.cpu[1], 20, 1, 3, 1, 2);
	tb_stream(&fs.cpu[1], 1, 30, SW_ABI_MAJOR);
	tb_sample(&fs.cpu[1], 40, 1, 1, 1, 0x1000, true, NULL, 0, 0);
	tb_end(&fs.cpu[1], 50, 1, 6, 2, 4);
	path = write_spec(&fs);
	s = open_ok(path, true);
	assert_true(s->lost.counted);
	assert_int_equal(s->lost.taken, 6);
	assert_int_equal(s->lost.written, 2);
	assert_int_equal(s->lost.full, 4);
	assert_int_equal(s->lost.missing, 0);
	sw_session_close(s);
	unlink(path);
	free(path);

	/* No END record: the counters table of the sampler file. */
	memset(&fs, 0, sizeof(fs));
	tb_stream(&fs.cpu[0], 0, 1, SW_ABI_MAJOR);
	tb_sample(&fs.cpu[0], 10, 0, 1, 1, 0x1000, true, NULL, 0, 0);
	tb_lost(&fs.cpu[0], 20, 0, 7, 2);
	fs.counters =
		"state      stopped\n"
		"cpu          taken      written    lost_full  lost_nested   lost_stack lost_throttled     filtered   sb_written      sb_lost ustack_fault          nmi        bytes       queued  error\n"
		"0               12            1           10            0            0              1            0            5            3            0            0           48            0      0\n"
		"all             12            1           10            0            0              1            0            5            3            0            0           48            0      0\n"
		"start event=cpu-clock\n";
	path = write_spec(&fs);
	s = open_ok(path, true);
	assert_true(s->lost.counted);
	assert_int_equal(s->lost.cpus_no_end, 1);
	assert_int_equal(s->lost.taken, 12);
	assert_int_equal(s->lost.full, 10);
	assert_int_equal(s->lost.throttled, 1);
	assert_int_equal(s->lost.sideband, 3);
	assert_false(s->file->complete);
	sw_session_close(s);
	unlink(path);
	free(path);

	/* Neither: what the LOST records said. */
	memset(&fs, 0, sizeof(fs));
	tb_stream(&fs.cpu[0], 0, 1, SW_ABI_MAJOR);
	tb_lost(&fs.cpu[0], 20, 0, 7, 2);
	tb_lost(&fs.cpu[0], 21, 0, 1, 0);
	path = write_spec(&fs);
	s = open_ok(path, true);
	assert_false(s->lost.counted);
	assert_int_equal(s->lost.full, 8);
	assert_int_equal(s->lost.throttled, 2);
	sw_session_close(s);
	unlink(path);
	free(path);
}

static void test_major_mismatch(void **state)
{
	struct file_spec fs = { .end = true };
	struct sw_session *s = NULL;
	struct sw_err err = { "" };
	char *path;

	(void)state;
	tb_stream(&fs.cpu[0], 0, 1, SW_ABI_MAJOR + 1);
	path = write_spec(&fs);
	assert_int_equal(sw_session_open(path, NULL, &s, &err), -EPROTO);
	assert_non_null(strstr(err.msg, "the sampler wrote record format 2."));
	assert_non_null(strstr(err.msg, "; this stopwatch reads 1.x"));
	unlink(path);
	free(path);
}

/* Anonymous executable memory: symbols from the recorded perf map. */
static void test_perf_map(void **state)
{
	struct file_spec fs = { .end = true };
	struct seen x = { 0 };
	char *path;

	(void)state;
	tb_stream(&fs.cpu[0], 0, 1, SW_ABI_MAJOR);
	tb_comm(&fs.cpu[0], 1, SW_REC_F_SYNTH, 20, 20, "java");
	tb_mmap(&fs.cpu[0], 1, SW_REC_F_SYNTH | SW_MMAP_F_ANON, 20,
		0x7f0000000000ULL, 0x10000, 0, "//anon");
	tb_sample(&fs.cpu[0], 5, 0, 20, 20, 0x7f0000000150ULL, true, NULL, 0, 0);
	tb_sample(&fs.cpu[0], 6, 0, 20, 20, 0x7f0000009000ULL, true, NULL, 0, 0);
	fs.perfmap = "7f0000000100 80 LJit;::hot\n"
		     "0x7f0000000200 0x40 Interpreter\n"
		     "garbage line\n";
	fs.perfmap_pid = 20;
	path = write_spec(&fs);
	x.s = open_ok(path, true);
	assert_int_equal(sw_session_for_each(x.s, on_sample, &x), 0);
	assert_int_equal(x.n, 2);
	assert_string_equal(x.out[0], "java [anon:20] LJit;::hot");
	assert_string_equal(x.out[1], "java [anon:20] [unknown]");
	sw_session_close(x.s);
	unlink(path);
	free(path);
}

/* kallsyms parsing: types, modules, hidden addresses. */
static void test_kallsyms(void **state)
{
	struct sw_symtab t;
	const struct sw_ksym *k;

	(void)state;
	assert_int_equal(sw_kallsyms_parse(kallsyms, sizeof(kallsyms) - 1, &t), 0);
	assert_false(t.hidden);
	k = sw_symtab_find(&t, 0xffffffff81001900ULL);
	assert_string_equal(t.names + k->name, "do_idle");
	assert_int_equal(k->end, 0xffffffff81002000ULL);
	k = sw_symtab_find(&t, 0xffffffffc0001050ULL);
	assert_string_equal(t.names + k->name, "ext4_read");
	assert_string_equal(t.names + k->module, "ext4");
	assert_null(sw_symtab_find(&t, 0xffffffff80000000ULL));
	sw_symtab_free(&t);
	assert_int_equal(sw_kallsyms_parse("0000000000000000 T a\n0000000000000000 t b\n",
					   42, &t), 0);
	assert_true(t.hidden);
	sw_symtab_free(&t);
}

/* ---- live: records fed as drained ------------------------------------------ */

struct live_seen {
	uint64_t time[16];
	uint32_t cpu[16];
	size_t n;
};

static int on_live(void *arg, const struct sw_rec_header *h, uint32_t cpu)
{
	struct live_seen *x = arg;

	if (h->type != SW_REC_CALL || x->n == 16)
		return 0;
	x->time[x->n] = h->time;
	x->cpu[x->n++] = cpu;
	return 0;
}

static void live_call(struct sw_session *s, uint32_t cpu, uint64_t t,
		      uint32_t pid)
{
	struct sw_rec_call c = { 0 };
	struct sw_err err = { "" };

	c.h.type = SW_REC_CALL;
	c.h.size = sizeof(c);
	c.h.time = t;
	c.pid = c.tid = pid;
	c.dur = 10;
	c.cpu = (uint16_t)cpu;
	assert_int_equal(sw_session_live_add(s, &c.h, cpu, &err), 0);
}

/* The times replayed so far, "t@cpu ...". */
static const char *live_str(const struct live_seen *x)
{
	static char buf[256];
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < x->n; i++)
		off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%llu@%u",
					i ? " " : "",
					(unsigned long long)x->time[i],
					x->cpu[i]);
	return buf;
}

/* A live session of every process, CPUs 0 and 1 known, replaying to @x. */
static struct sw_session *live_open_all(struct live_seen *x)
{
	static const char meta[] = "mode=all\n";
	struct sw_session *s;
	struct sw_err err = { "" };

	assert_int_equal(sw_session_live_open(meta, sizeof(meta) - 1, false,
					      on_live, x, &s, &err), 0);
	assert_int_equal(sw_session_live_cpu(s, 0), 0);
	assert_int_equal(sw_session_live_cpu(s, 1), 0);
	return s;
}

static void test_live_watermark(void **state)
{
	struct live_seen x = { 0 };
	struct sw_session *s = live_open_all(&x);

	(void)state;
	/* CPU 1 not read yet: nothing goes, however early */
	live_call(s, 0, 100, 1);
	assert_int_equal(sw_session_live_flush(s, 0), 0);
	assert_string_equal(live_str(&x), "");
	live_call(s, 0, 300, 1);
	live_call(s, 1, 200, 2);
	/* 100 and 200 go; 300 waits for CPU 1, read up to 200 */
	assert_int_equal(sw_session_live_flush(s, 0), 0);
	assert_string_equal(live_str(&x), "100@0 200@1");
	/* CPU 1 read past 250 (its record of 250 is the head): 250 goes */
	live_call(s, 1, 250, 2);
	assert_int_equal(sw_session_live_flush(s, 299), 0);
	assert_string_equal(live_str(&x), "100@0 200@1 250@1");
	/* the horizon: records up to it no longer wait for CPU 1 */
	assert_int_equal(sw_session_live_flush(s, 300), 0);
	assert_string_equal(live_str(&x), "100@0 200@1 250@1 300@0");
	/* the end: the rest, in order, and the calls counted */
	live_call(s, 0, 500, 1);
	live_call(s, 1, 400, 2);
	live_call(s, 1, 450, 2);
	assert_int_equal(sw_session_live_end(s, NULL), 0);
	assert_string_equal(live_str(&x),
			    "100@0 200@1 250@1 300@0 400@1 450@1 500@0");
	assert_int_equal(s->lost.calls_read, 7);
	assert_false(s->lost.counted);
	sw_session_close(s);
}

/* A record arriving after the horizon let later ones go: counted late. */
static void test_live_late(void **state)
{
	struct live_seen x = { 0 };
	struct sw_session *s = live_open_all(&x);

	(void)state;
	live_call(s, 0, 100, 1);
	live_call(s, 0, 300, 1);
	assert_int_equal(sw_session_live_flush(s, 300), 0);
	assert_string_equal(live_str(&x), "100@0 300@0");
	assert_true(sw_session_live_late(s) == 0);
	live_call(s, 1, 200, 2);
	live_call(s, 1, 400, 2);
	assert_int_equal(sw_session_live_end(s, NULL), 0);
	assert_string_equal(live_str(&x), "100@0 300@0 200@1 400@1");
	assert_true(sw_session_live_late(s) == 1);
	sw_session_close(s);
}

static void test_live_tree(void **state)
{
	static const char meta[] = "mode=command\ntarget_pid=10\n";
	struct live_seen x = { 0 };
	struct sw_rec_fork f = { 0 };
	struct sw_session *s;
	struct sw_err err = { "" };

	(void)state;
	assert_int_equal(sw_session_live_open(meta, sizeof(meta) - 1, false,
					      on_live, &x, &s, &err), 0);
	assert_int_equal(s->target_pid, 10);
	live_call(s, 0, 100, 11);	/* not (yet) in the tree */
	live_call(s, 0, 200, 10);
	f.h.type = SW_REC_FORK;
	f.h.size = sizeof(f);
	f.h.time = 300;
	f.pid = f.tid = 11;
	f.ppid = f.ptid = 10;
	assert_int_equal(sw_session_live_add(s, &f.h, 0, &err), 0);
	live_call(s, 0, 400, 11);
	assert_int_equal(sw_session_live_end(s, NULL), 0);
	assert_string_equal(live_str(&x), "200@0 400@0");
	assert_int_equal(s->filtered, 1);
	sw_session_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fork_exec_exit),
		cmocka_unit_test(test_losses),
		cmocka_unit_test(test_major_mismatch),
		cmocka_unit_test(test_perf_map),
		cmocka_unit_test(test_kallsyms),
		cmocka_unit_test(test_live_watermark),
		cmocka_unit_test(test_live_late),
		cmocka_unit_test(test_live_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
