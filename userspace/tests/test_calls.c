// SPDX-License-Identifier: GPL-2.0
/*
 * test_calls.c - the records of traced calls as stopwatch.ko wrote them
 * (fixtures/trace/getppid-x86_64.swd: "stopwatch trace -o ... getppid" of
 * 300 getppid calls in the VM, the kallsyms and vdso sections left out):
 * decoded, merged with the other CPU's stream in time order, named, and
 * their losses read; and the same records dealt out over two CPUs' streams
 * (a thread migrating at every call) keep their order in the merge.
 */
#include <errno.h>

#include "helpers.h"
#include "streams.h"
#include "record/calls.h"
#include "record/session.h"

#define FIXTURE "fixtures/trace/getppid-x86_64.swd"
#define NCALLS 300

struct seen {
	unsigned int calls, other;
	uint64_t last_time, last_end;
	uint32_t tid;
	bool order_ok, fields_ok;
	uint32_t cpus_seen;	/* bit per stream CPU of the calls */
	struct sw_call_names *names;
	bool names_ok;
};

static int on_rec(void *arg, const struct sw_rec_header *h, uint32_t cpu)
{
	struct seen *s = arg;
	struct sw_call_info ci;
	char tmp[16];

	if (h->time < s->last_time)
		s->order_ok = false;
	s->last_time = h->time;
	if (h->type != SW_REC_CALL) {
		s->other++;
		return 0;
	}
	assert_int_equal(sw_call_decode(h, cpu, &ci), 0);
	s->calls++;
	s->cpus_seen |= 1U << (cpu & 31);
	if (!s->tid)
		s->tid = ci.tid;
	if (ci.tid != s->tid || ci.pid != ci.tid || ci.cpu_end != cpu ||
	    ci.start + ci.dur != ci.end || !ci.dur || ci.has_ret ||
	    ci.nev || ci.nkeys || ci.nargs || ci.span || ci.end < s->last_end)
		s->fields_ok = false;
	s->last_end = ci.end;
	if (s->names && strncmp(sw_call_name(s->names, ci.id, tmp),
				"__x64_sys_getppid@", 18))
		s->names_ok = false;
	return 0;
}

static void test_fixture(void **state)
{
	struct sw_session_opts so = { .no_src = true };
	struct sw_session *s = NULL;
	struct sw_err err = { "" };
	struct sw_call_names names;
	struct seen seen = { .order_ok = true, .fields_ok = true,
			     .names_ok = true, .names = &names };
	char *ids, *target;

	(void)state;
	assert_int_equal(sw_session_open(FIXTURE, &so, &s, &err), 0);
	ids = sw_session_meta(s, "trace_ids");
	assert_non_null(ids);
	sw_call_names_parse(&names, ids);
	assert_int_equal(s->ncalls, NCALLS);
	assert_int_equal(sw_session_replay(s, on_rec, &seen), 0);
	assert_int_equal(seen.calls, NCALLS);
	assert_true(seen.other > 0);	/* COMM, EXIT, MMAP of the command */
	assert_true(seen.order_ok);
	assert_true(seen.fields_ok);
	assert_true(seen.names_ok);
	target = sw_session_meta(s, "target_pid");
	assert_non_null(target);
	assert_int_equal(seen.tid, strtoul(target, NULL, 10));
	/* losses from the END records: none, all read */
	assert_true(s->lost.counted);
	assert_int_equal(s->lost.call_taken, NCALLS);
	assert_int_equal(s->lost.call_written, NCALLS);
	assert_int_equal(s->lost.call_full + s->lost.call_nested, 0);
	assert_int_equal(s->lost.calls_read, NCALLS);
	assert_int_equal(s->lost.calls_missing, 0);
	free(target);
	free(ids);
	sw_call_names_free(&names);
	sw_session_close(s);
}

/* The fixture's call records, dealt alternately to CPU 0 and CPU 1. */
static void test_migrating_thread(void **state)
{
	struct sw_session_opts so = { .no_src = true, .all_pids = true };
	struct sw_session *s = NULL;
	struct sw_err err = { "" };
	struct seen seen = { .order_ok = true, .fields_ok = true };
	struct tbuf cpu[2] = { { 0 } };
	struct swd_file *f = NULL;
	struct swd_writer w;
	char *path = tmp_path("calls");
	size_t i, n = 0;
	int c;

	(void)state;
	assert_int_equal(swd_open(FIXTURE, &f, &err), 0);
	for (c = 0; c < 2; c++)
		tb_stream(&cpu[c], (uint32_t)c, 1, SW_ABI_MAJOR);
	for (i = 0; i < f->nsec; i++) {
		const struct swd_section *sec = &f->sec[i];
		const unsigned char *p = sec->data, *end = p + sec->size;

		if (sec->type != SWD_SEC_RECORDS)
			continue;
		while (p < end) {
			const struct sw_rec_header *h = (const void *)p;

			if (h->type == SW_REC_CALL) {
				struct tbuf *b = &cpu[n++ & 1];

				memcpy(tb_rec(b, h->type, h->flags, h->size,
					      h->time), h, h->size);
			}
			p += h->size;
		}
	}
	swd_close(f);
	assert_int_equal(n, NCALLS);
	assert_int_equal(swd_writer_open(&w, path, &err), 0);
	for (c = 0; c < 2; c++)
		swd_write_section(&w, SWD_SEC_RECORDS, (uint32_t)c, cpu[c].p,
				  cpu[c].len, false);
	assert_int_equal(swd_writer_close(&w, &err), 0);
	assert_int_equal(sw_session_open(path, &so, &s, &err), 0);
	assert_int_equal(sw_session_replay(s, on_rec, &seen), 0);
	assert_int_equal(seen.calls, NCALLS);
	assert_true(seen.order_ok);
	/* cpu_end is the stream's: both CPUs; the thread's order is kept */
	assert_int_equal(seen.cpus_seen, 3);
	assert_true(seen.fields_ok);
	sw_session_close(s);
	for (c = 0; c < 2; c++)
		free(cpu[c].p);
	unlink(path);
	free(path);
}

/*
 * Several traced probes: every id of trace_ids has its name, a user
 * probe's BINARY:NAME whole (its ':' is not the separator).
 */
static void test_names(void **state)
{
	static struct sw_call_names n;
	char tmp[16];

	(void)state;
	sw_call_names_parse(&n, "1:__x64_sys_getppid,2:uwork:uw_call,7:vfs_read@t1");
	assert_string_equal(sw_call_name(&n, 1, tmp), "__x64_sys_getppid");
	assert_string_equal(sw_call_name(&n, 2, tmp), "uwork:uw_call");
	assert_string_equal(sw_call_name(&n, 7, tmp), "vfs_read@t1");
	assert_string_equal(sw_call_name(&n, 3, tmp), "probe#3");
	sw_call_names_free(&n);
	sw_call_names_parse(&n, NULL);
	assert_string_equal(sw_call_name(&n, 1, tmp), "probe#1");
	sw_call_names_free(&n);
}

/* Spans' names apart from the probes': the same id names both. */
static void test_span_names(void **state)
{
	static struct sw_call_names n;
	struct sw_call_info ci = { .id = 1 };
	char tmp[16];

	(void)state;
	sw_call_names_parse(&n, "1:vfs_read@t1");
	sw_call_names_parse_spans(&n, "1:wq,3:q->b.c");
	assert_string_equal(sw_call_info_name(&n, &ci, tmp), "vfs_read@t1");
	ci.span = true;
	assert_string_equal(sw_call_info_name(&n, &ci, tmp), "wq");
	ci.id = 3;
	assert_string_equal(sw_call_info_name(&n, &ci, tmp), "q->b.c");
	ci.id = 2;
	assert_string_equal(sw_call_info_name(&n, &ci, tmp), "span#2");
	ci.id = 300;
	assert_string_equal(sw_call_info_name(&n, &ci, tmp), "span#300");
	sw_call_names_free(&n);
}

/*
 * A span's record as span/points.c writes it: a duration over 2^32 ns,
 * two key values, the events' bad mask and two deltas.
 */
static void test_span_decode(void **state)
{
	uint64_t buf[16] = { 0 };
	struct sw_rec_call *c = (void *)buf;
	struct sw_call_info ci;
	uint16_t f = SW_CALL_F_SPAN | SW_CALL_F_DUR64 | SW_CALL_F_EV_BAD |
		     2 << SW_CALL_NKEYS_SHIFT | 2 << SW_CALL_NEV_SHIFT;

	(void)state;
	c->h.type = SW_REC_CALL;
	c->h.flags = f;
	c->h.size = sizeof(*c) + 8 * sw_call_nwords(f);
	assert_int_equal(sw_call_nwords(f), 6);
	c->h.time = 10000000000ULL;
	c->tid = 11;
	c->pid = 10;
	c->dur = 0xffffffff;
	c->id = 2;
	c->cpu = 1;
	c->words[0] = 5000000000ULL;
	c->words[1] = 0xffff888001234560ULL;
	c->words[2] = 7;
	c->words[3] = 2;
	c->words[4] = 100;
	c->words[5] = 200;
	assert_int_equal(sw_call_decode(&c->h, 3, &ci), 0);
	assert_true(ci.span);
	assert_int_equal(ci.id, 2);
	assert_true(ci.dur == 5000000000ULL && ci.start == 5000000000ULL);
	assert_int_equal(ci.cpu_start, 1);
	assert_int_equal(ci.cpu_end, 3);
	assert_int_equal(ci.nkeys, 2);
	assert_true(ci.key[0] == 0xffff888001234560ULL && ci.key[1] == 7);
	assert_true(ci.ev_bad == 2);
	assert_int_equal(ci.nev, 2);
	assert_true(ci.ev[0] == 100 && ci.ev[1] == 200);
	assert_false(ci.has_ret || ci.has_path);
	c->h.size -= 8;
	assert_int_equal(sw_call_decode(&c->h, 3, &ci), -EINVAL);
}

/*
 * Nesting, thread by thread: an outer call with two inner ones (one of
 * them with an inner call of its own), another thread's call in the
 * middle, two calls that only overlap, and equal intervals.
 */
static void test_nest(void **state)
{
	/* tid, start, end */
	static const uint64_t c[][3] = {
		{ 1, 200, 300 },	/* 0: inside 3, depth 1 */
		{ 1, 210, 250 },	/* 1: inside 0, depth 2 */
		{ 2, 150, 900 },	/* 2: thread 2 alone, depth 0 */
		{ 1, 100, 1000 },	/* 3: outer, depth 0 */
		{ 1, 400, 500 },	/* 4: inside 3, depth 1 */
		{ 1, 950, 1200 },	/* 5: overlaps 3 only: depth 0 */
		{ 1, 1100, 1150 },	/* 6: inside 5, depth 1 */
		{ 3, 10, 20 },		/* 7, 8: equal: the second inside */
		{ 3, 10, 20 },
	};
	static const unsigned int want_depth[] = { 1, 2, 0, 0, 1, 0, 1, 0, 1 };
	static const size_t want_order[] = { 7, 8, 3, 2, 0, 1, 4, 5, 6 };
	struct sw_call_info v[9];
	unsigned int depth[9];
	size_t order[9], i;

	(void)state;
	memset(v, 0, sizeof(v));
	for (i = 0; i < 9; i++) {
		v[i].tid = (uint32_t)c[i][0];
		v[i].start = c[i][1];
		v[i].end = c[i][2];
		v[i].dur = c[i][2] - c[i][1];
	}
	assert_int_equal(sw_calls_nest(v, 9, order, depth), 0);
	for (i = 0; i < 9; i++) {
		assert_int_equal(depth[i], want_depth[i]);
		assert_int_equal(order[i], want_order[i]);
	}
	assert_int_equal(sw_calls_nest(v, 0, order, depth), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture),
		cmocka_unit_test(test_migrating_thread),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_span_names),
		cmocka_unit_test(test_span_decode),
		cmocka_unit_test(test_nest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
