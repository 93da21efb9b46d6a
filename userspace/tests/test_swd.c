// SPDX-License-Identifier: GPL-2.0
/*
 * test_swd.c - the .swd file format: round trip, cut at every byte,
 * damaged headers and payloads, other versions and byte orders.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "helpers.h"
#include "streams.h"

static const char meta[] = "release=6.1.0-test\nhostname=h\ncommand=./app x\n";

/* kallsyms-like text long enough to be deflated. */
static char *long_text(size_t *len)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);
	int i;

	for (i = 0; i < 500; i++)
		fprintf(f, "ffffffff81%06x T function_number_%d\n", i * 16, i);
	fclose(f);
	*len = n;
	return s;
}

/* Writes: META, KALLSYMS (deflated), RECORDS cpu 3 (nrec samples), END. */
static char *write_sample_file(size_t nrec, size_t *records_len)
{
	struct swd_writer w;
	struct tbuf b = { 0 };
	struct sw_err err = { "" };
	char *path = tmp_path("swd"), *ks;
	size_t klen, i;

	ks = long_text(&klen);
	tb_stream(&b, 3, 1, SW_ABI_MAJOR);
	for (i = 0; i < nrec; i++)
		tb_sample(&b, 10 + i, 3, 42, 42, 0x1000 + i, true, NULL, 0, 0);
	assert_int_equal(swd_writer_open(&w, path, &err), 0);
	assert_int_equal(swd_write_section(&w, SWD_SEC_META, 0, meta,
					   sizeof(meta) - 1, false), 0);
	assert_int_equal(swd_write_section(&w, SWD_SEC_KALLSYMS, 0, ks, klen,
					   true), 0);
	assert_int_equal(swd_write_section(&w, SWD_SEC_RECORDS, 3, b.p, b.len,
					   false), 0);
	assert_int_equal(swd_write_section(&w, SWD_SEC_END, 0, "samples=9\n",
					   10, false), 0);
	assert_int_equal(w.nsecs, 4);
	assert_int_equal(swd_writer_close(&w, &err), 0);
	*records_len = b.len;
	free(ks);
	free(b.p);
	return path;
}

static void test_round_trip(void **state)
{
	struct swd_file *f = NULL;
	struct sw_err err = { "" };
	size_t rlen, klen;
	char *path = write_sample_file(9, &rlen), *ks = long_text(&klen), *v;
	const struct swd_section *s;

	(void)state;
	assert_int_equal(swd_open(path, &f, &err), 0);
	assert_true(f->complete);
	assert_int_equal(f->nprob, 0);
	assert_int_equal(f->nsec, 4);
	assert_int_equal(f->hdr->major, SWD_MAJOR);
	s = swd_find(f, SWD_SEC_KALLSYMS);
	assert_non_null(s);
	assert_true(s->flags & SWD_SEC_F_DEFLATE);
	assert_int_equal(s->size, klen);
	assert_memory_equal(s->data, ks, klen);
	s = swd_find(f, SWD_SEC_RECORDS);
	assert_int_equal(s->arg, 3);
	assert_int_equal(s->size, rlen);
	assert_int_equal((uintptr_t)s->data % 8, 0);
	v = swd_kv_get(swd_find(f, SWD_SEC_META), "command");
	assert_string_equal(v, "./app x");
	free(v);
	assert_null(swd_kv_get(swd_find(f, SWD_SEC_META), "comm"));
	swd_close(f);
	unlink(path);
	free(path);
	free(ks);
}

static void copy_cut(const char *from, const char *to, size_t len)
{
	struct stat st;
	char *buf;
	int fd;

	fd = open(from, O_RDONLY);
	assert_true(fd >= 0 && !fstat(fd, &st));
	buf = malloc((size_t)st.st_size);
	assert_int_equal(read(fd, buf, (size_t)st.st_size), st.st_size);
	close(fd);
	fd = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, buf, len), (ssize_t)len);
	close(fd);
	free(buf);
}

/* Every possible cut: the file opens (past its header), never claims to be
 * complete, keeps whole records only, and says how much is missing. */
static void test_cut_everywhere(void **state)
{
	size_t rlen, len, full, prev_records = 0;
	char *path = write_sample_file(20, &rlen), *cut = tmp_path("cut");
	struct stat st;

	(void)state;
	assert_int_equal(stat(path, &st), 0);
	full = (size_t)st.st_size;
	for (len = 0; len <= full; len++) {
		struct swd_file *f = NULL;
		struct sw_err err = { "" };
		const struct swd_section *s;
		int ret;

		copy_cut(path, cut, len);
		ret = swd_open(cut, &f, &err);
		if (len == 0) {
			assert_int_equal(ret, -ENODATA);
			continue;
		}
		if (len < sizeof(struct swd_header)) {
			assert_int_equal(ret, -EINVAL);
			assert_non_null(strstr(err.msg, cut));
			continue;
		}
		assert_int_equal(ret, 0);
		/* Complete only with END's payload (its padding may be cut). */
		assert_int_equal(f->complete, len >= full - 6);	/* 10 + 6 */
		/* Nothing reported lost only when no section was cut. */
		if (!f->nprob)
			assert_int_equal(f->bytes_lost, 0);
		s = swd_find(f, SWD_SEC_RECORDS);
		if (s) {
			size_t n = s->size;

			/* whole records: sizes 104 (stream) + k * 48 */
			assert_true(n == 0 || (n - sizeof(struct sw_rec_stream)) %
						      sizeof(struct sw_rec_sample) == 0);
			assert_true(n >= prev_records);
			prev_records = n;
			if (s->cut)
				assert_true(f->bytes_lost >= s->cut);
		}
		swd_close(f);
	}
	assert_int_equal(prev_records, rlen);
	unlink(cut);
	unlink(path);
	free(cut);
	free(path);
}

static void flip(const char *path, size_t off)
{
	unsigned char c;
	int fd = open(path, O_RDWR);

	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &c, 1, (off_t)off), 1);
	c ^= 0x5a;
	assert_int_equal(pwrite(fd, &c, 1, (off_t)off), 1);
	close(fd);
}

/* A damaged payload is skipped; a damaged header is searched past. */
static void test_corrupt(void **state)
{
	struct swd_file *f = NULL;
	struct sw_err err = { "" };
	size_t rlen, rec_off;
	char *path = write_sample_file(5, &rlen);
	const struct swd_section *s;

	(void)state;
	assert_int_equal(swd_open(path, &f, &err), 0);
	rec_off = swd_find(f, SWD_SEC_RECORDS)->offset;
	swd_close(f);

	/* A byte inside the records: that section goes, the rest stays. */
	flip(path, rec_off + sizeof(struct swd_sec) + 30);
	assert_int_equal(swd_open(path, &f, &err), 0);
	assert_null(swd_find(f, SWD_SEC_RECORDS));
	assert_non_null(swd_find(f, SWD_SEC_END));
	assert_true(f->complete);
	assert_int_equal(f->nprob, 1);
	assert_non_null(strstr(f->prob[0].msg, "checksum mismatch in the records section"));
	assert_int_equal(f->bytes_lost, rlen);
	swd_close(f);
	flip(path, rec_off + sizeof(struct swd_sec) + 30);

	/* A byte of the records' section header: resynchronized at END. */
	flip(path, rec_off + 9);
	assert_int_equal(swd_open(path, &f, &err), 0);
	assert_null(swd_find(f, SWD_SEC_RECORDS));
	s = swd_find(f, SWD_SEC_END);
	assert_non_null(s);
	assert_non_null(swd_find(f, SWD_SEC_KALLSYMS));
	assert_int_equal(f->nprob, 1);
	assert_non_null(strstr(f->prob[0].msg, "damaged section header"));
	assert_int_equal(f->prob[0].offset, rec_off);
	assert_int_equal(f->bytes_lost, s->offset - rec_off);
	swd_close(f);
	unlink(path);
	free(path);
}

static void test_not_swd(void **state)
{
	struct swd_file *f = NULL;
	struct sw_err err = { "" };
	char *path = tmp_path("bad");
	struct swd_header h;
	size_t rlen;
	int fd;

	(void)state;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_int_equal(write(fd, "hello world, not a recording at all........"
				   "......................................", 80), 80);
	close(fd);
	assert_int_equal(swd_open(path, &f, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "not a stopwatch data file"));
	unlink(path);
	free(path);

	assert_int_equal(swd_open("/nonexistent/x.swd", &f, &err), -ENOENT);
	assert_string_equal(err.msg,
			    "cannot open /nonexistent/x.swd: No such file or directory");

	/* Another major version, another byte order. */
	path = write_sample_file(1, &rlen);
	fd = open(path, O_RDWR);
	assert_int_equal(pread(fd, &h, sizeof(h), 0), sizeof(h));
	h.major = SWD_MAJOR + 1;
	assert_int_equal(pwrite(fd, &h, sizeof(h), 0), sizeof(h));
	assert_int_equal(swd_open(path, &f, &err), -EPROTO);
	assert_non_null(strstr(err.msg, "file format version 2.0, this stopwatch reads version 1.x"));
	h.major = SWD_MAJOR;
	h.bom = __builtin_bswap32(SWD_BOM);
	assert_int_equal(pwrite(fd, &h, sizeof(h), 0), sizeof(h));
	assert_int_equal(swd_open(path, &f, &err), -EPROTO);
	assert_non_null(strstr(err.msg, "other byte order"));
	close(fd);
	unlink(path);
	free(path);
}

/* Sections of a type this reader does not know are kept, not fatal. */
static void test_unknown_section(void **state)
{
	struct swd_writer w;
	struct swd_file *f = NULL;
	struct sw_err err = { "" };
	char *path = tmp_path("unk");

	(void)state;
	assert_int_equal(swd_writer_open(&w, path, &err), 0);
	swd_write_section(&w, 99, 0, "future", 6, false);
	swd_write_section(&w, SWD_SEC_END, 0, "", 0, false);
	assert_int_equal(swd_writer_close(&w, &err), 0);
	assert_int_equal(swd_open(path, &f, &err), 0);
	assert_int_equal(f->nsec, 2);
	assert_true(f->complete);
	assert_string_equal(swd_sec_name(99), "unknown");
	swd_close(f);
	unlink(path);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_cut_everywhere),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_not_swd),
		cmocka_unit_test(test_unknown_section),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
