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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture),
		cmocka_unit_test(test_migrating_thread),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
