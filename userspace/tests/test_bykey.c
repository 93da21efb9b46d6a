// SPDX-License-Identifier: GPL-2.0
/*
 * test_bykey.c - "stopwatch script --by": the calls of a recording summed
 * per (span, key tuple), over fixtures/trace/span-tid-x86_64.swd, what the
 * span suite records in the VM: a traced span "bt", sw_test_loop's entry
 * -> return keyed by tid, over three processes that make 1, 2 and 3
 * intervals (the kallsyms and vdso sections left out).
 */
#include <errno.h>

#include "helpers.h"
#include "record/bykey.h"
#include "record/calls.h"
#include "record/session.h"

#define FIXTURE "fixtures/trace/span-tid-x86_64.swd"

/* The fixture's three processes and their intervals. */
static const struct {
	uint32_t tid;
	uint64_t calls;
} want[] = { { 279, 1 }, { 280, 2 }, { 281, 3 } };
#define NWANT (sizeof(want) / sizeof(want[0]))

struct by_run {
	struct sw_session *s;
	struct sw_bykey b;
	struct sw_err err;
	int ret;
};

static int on_rec(void *arg, const struct sw_rec_header *h, uint32_t cpu)
{
	struct by_run *r = arg;
	struct sw_call_info ci;

	if (h->type != SW_REC_CALL || sw_call_decode(h, cpu, &ci))
		return 0;
	r->ret = sw_bykey_add(&r->b, &ci,
			      sw_machine_comm(&r->s->m, ci.pid, ci.tid),
			      &r->err);
	return r->ret;
}

/* The fixture's calls summed by @by into @r (its rows not yet ranked). */
static int by_run(struct by_run *r, const char *by)
{
	struct sw_session_opts so = { .no_src = true, .all_pids = true };
	struct sw_by_spec sp;
	int ret;

	memset(r, 0, sizeof(*r));
	assert_int_equal(sw_by_parse(by, &sp, &r->err), 0);
	assert_int_equal(sw_session_open(FIXTURE, &so, &r->s, &r->err), 0);
	sw_bykey_init(&r->b, &sp);
	ret = sw_session_replay(r->s, on_rec, r);
	return ret ? ret : r->ret;
}

static void by_done(struct by_run *r)
{
	sw_bykey_free(&r->b);
	sw_session_close(r->s);
}

static void test_parse(void **state)
{
	struct sw_err err = { "" };
	struct sw_by_spec sp;

	(void)state;
	assert_int_equal(sw_by_parse("key,tid", &sp, &err), 0);
	assert_int_equal(sp.n, 2);
	assert_int_equal(sp.field[0], SW_BY_KEY);
	assert_int_equal(sp.field[1], SW_BY_TID);
	assert_int_equal(sw_by_parse("cpu", &sp, &err), 0);
	assert_int_equal(sp.n, 1);
	assert_int_equal(sp.field[0], SW_BY_CPU);
	assert_int_equal(sw_by_parse("key,queue", &sp, &err), -EINVAL);
	assert_string_equal(err.msg,
			    "invalid --by 'key,queue': unknown key 'queue' (key, key2, tid, pid, comm, cpu)");
	assert_int_equal(sw_by_parse("", &sp, &err), -EINVAL);
	assert_int_equal(sw_by_parse("key,", &sp, &err), -EINVAL);
	assert_int_equal(sw_by_parse("tid,tid", &sp, &err), -EINVAL);
	assert_string_equal(err.msg, "invalid --by 'tid,tid': 'tid' twice");
	assert_int_equal(sw_by_parse("key,tid,cpu", &sp, &err), -EINVAL);
	assert_string_equal(err.msg,
			    "invalid --by 'key,tid,cpu': at most 2 keys");
}

/* By the span's key: a row per process, its intervals counted exactly. */
static void test_by_key(void **state)
{
	struct by_run r;
	uint64_t pct[SW_PCT_NR], total = 0;
	size_t i, j;

	(void)state;
	assert_int_equal(by_run(&r, "key,tid"), 0);
	assert_int_equal(sw_bykey_rank(&r.b, 0), 0);
	assert_int_equal(r.b.n, NWANT);
	for (i = 0; i < r.b.n; i++) {
		const struct sw_by_row *w = &r.b.rows[i];

		assert_true(w->span);
		assert_false(w->other);
		/* keyed by tid: the key is the thread that stopped it */
		assert_int_equal(w->v[0], w->v[1]);
		for (j = 0; j < NWANT && want[j].tid != w->v[0]; j++)
			;
		assert_true(j < NWANT);
		assert_int_equal(w->dur.count, want[j].calls);
		assert_true(w->dur.min > 0 && w->dur.min <= w->dur.max);
		assert_int_equal(sw_by_row_pcts(w, pct), 0);
		assert_true(pct[SW_PCT_50] >= w->dur.min &&
			    pct[SW_PCT_999] <= w->dur.max);
		if (w->dur.count == 1)
			assert_int_equal(pct[SW_PCT_50], w->dur.min);
		/* ranked by total time, most first */
		if (i)
			assert_true(w->dur.sum <= r.b.rows[i - 1].dur.sum);
		total += w->dur.sum;
	}
	assert_int_equal(r.b.nev, 0);
	by_done(&r);
	/* by comm: the three processes are one command */
	assert_int_equal(by_run(&r, "comm"), 0);
	assert_int_equal(sw_bykey_rank(&r.b, 0), 0);
	assert_int_equal(r.b.n, 1);
	assert_int_equal(r.b.rows[0].dur.count, 6);
	assert_int_equal(r.b.rows[0].dur.sum, total);
	by_done(&r);
}

/* --rows 1: the busiest key, then the other two summed, counted. */
static void test_other(void **state)
{
	struct by_run r;
	uint64_t top;

	(void)state;
	assert_int_equal(by_run(&r, "key"), 0);
	assert_int_equal(sw_bykey_rank(&r.b, 1), 0);
	assert_int_equal(r.b.n, 2);
	assert_false(r.b.rows[0].other);
	assert_true(r.b.rows[1].other);
	assert_int_equal(r.b.rows[1].nkeys, 2);
	top = r.b.rows[0].dur.count;
	assert_int_equal(r.b.rows[1].dur.count, 6 - top);
	by_done(&r);
}

/* A span reads one key value: key2 is refused, the value named. */
static void test_key2(void **state)
{
	struct by_run r;

	(void)state;
	assert_int_equal(by_run(&r, "key2"), -EINVAL);
	assert_string_equal(r.err.msg,
			    "--by key2: its records carry 1 key value");
	by_done(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_by_key),
		cmocka_unit_test(test_other),
		cmocka_unit_test(test_key2),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
