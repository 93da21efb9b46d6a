// SPDX-License-Identifier: GPL-2.0
/*
 * test_abi.c - the record ABI (include/stopwatch/abi.h): sizes and offsets
 * are part of the contract with readers, and the helpers that find the
 * variable parts of records.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../include/stopwatch/abi.h"

static void test_sizes(void **state)
{
	(void)state;
	assert_int_equal(sizeof(struct sw_rec_header), 16);
	assert_int_equal(sizeof(struct sw_rec_stream), 104);
	assert_int_equal(sizeof(struct sw_rec_sample), 48);
	assert_int_equal(sizeof(struct sw_rec_comm), 40);
	assert_int_equal(sizeof(struct sw_rec_fork), 48);
	assert_int_equal(sizeof(struct sw_rec_exit), 24);
	assert_int_equal(sizeof(struct sw_rec_mmap), 104);
	/* minor 1 added the call losses to LOST and END */
	assert_int_equal(sizeof(struct sw_rec_lost), 80);
	assert_int_equal(sizeof(struct sw_rec_kernel), 176);
	assert_int_equal(sizeof(struct sw_rec_module), 96);
	assert_int_equal(sizeof(struct sw_rec_end), 128);
	/* a time-only call record: 32 bytes */
	assert_int_equal(sizeof(struct sw_rec_call), 32);
}

static void test_offsets(void **state)
{
	(void)state;
	assert_int_equal(offsetof(struct sw_rec_header, size), 4);
	assert_int_equal(offsetof(struct sw_rec_header, time), 8);
	assert_int_equal(offsetof(struct sw_rec_stream, magic), 16);
	assert_int_equal(offsetof(struct sw_rec_stream, major), 20);
	assert_int_equal(offsetof(struct sw_rec_stream, minor), 22);
	assert_int_equal(offsetof(struct sw_rec_stream, event), 72);
	assert_int_equal(offsetof(struct sw_rec_sample, ip), 24);
	assert_int_equal(offsetof(struct sw_rec_sample, period), 32);
	assert_int_equal(offsetof(struct sw_rec_sample, nr_kernel), 44);
	assert_int_equal(offsetof(struct sw_rec_mmap, build_id), 76);
	assert_int_equal(offsetof(struct sw_rec_mmap, path_len), 96);
	assert_int_equal(offsetof(struct sw_rec_lost, full), 24);
	assert_int_equal(offsetof(struct sw_rec_end, taken), 24);
	assert_int_equal(offsetof(struct sw_rec_lost, call_full), 64);
	assert_int_equal(offsetof(struct sw_rec_end, call_taken), 96);
	assert_int_equal(offsetof(struct sw_rec_call, tid), 16);
	assert_int_equal(offsetof(struct sw_rec_call, dur), 24);
	assert_int_equal(offsetof(struct sw_rec_call, id), 28);
	assert_int_equal(offsetof(struct sw_rec_call, cpu), 30);
	assert_int_equal(offsetof(struct sw_rec_call, words), 32);
	assert_int_equal(sw_call_nwords(0), 0);
	assert_int_equal(sw_call_nwords(SW_CALL_F_RET | SW_CALL_F_DUR64 |
					3 << SW_CALL_NEV_SHIFT |
					2 << SW_CALL_NKEYS_SHIFT), 7);
	assert_int_equal(SW_REC_ALIGN_UP(1), 8);
	assert_int_equal(SW_REC_ALIGN_UP(16), 16);
}

static void test_sample_frames(void **state)
{
	uint64_t buf[16];
	struct sw_rec_sample *s = (void *)buf;
	const __u64 *f;

	(void)state;
	memset(buf, 0, sizeof(buf));
	s->h.type = SW_REC_SAMPLE;
	s->nr_kernel = 2;
	s->nr_user = 3;
	s->h.size = sizeof(*s) + 5 * 8;
	s->frames[0] = 10;
	s->frames[4] = 14;
	f = sw_sample_frames(s);
	assert_ptr_equal(f, s->frames);
	assert_int_equal(f[4], 14);
	/* a later minor adds 8 bytes of fixed fields: frames stay at the end */
	s->h.size += 8;
	memmove((char *)s->frames + 8, s->frames, 40);
	f = sw_sample_frames(s);
	assert_int_equal(f[0], 10);
	assert_int_equal(f[4], 14);
	/* a size too small for its frames */
	s->h.size = sizeof(*s) + 8;
	assert_null(sw_sample_frames(s));
}

static void test_mmap_path(void **state)
{
	uint64_t buf[32];
	struct sw_rec_mmap *m = (void *)buf;

	(void)state;
	memset(buf, 0, sizeof(buf));
	m->path_len = sizeof("/bin/true");
	m->h.size = sizeof(*m) + SW_REC_ALIGN_UP(m->path_len);
	strcpy(m->path, "/bin/true");
	assert_string_equal(sw_mmap_path(m), "/bin/true");
	m->path[9] = 'x';	/* no terminating NUL */
	assert_null(sw_mmap_path(m));
	m->path_len = 0;
	assert_null(sw_mmap_path(m));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_offsets),
		cmocka_unit_test(test_sample_frames),
		cmocka_unit_test(test_mmap_path),
	};

	return cmocka_run_group_tests_name("abi", tests, NULL, NULL);
}
