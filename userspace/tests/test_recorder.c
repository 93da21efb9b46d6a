// SPDX-License-Identifier: GPL-2.0
/*
 * test_recorder.c - the relay reader: records cut across reads are carried
 * and written whole, bytes that are not records are dropped and counted,
 * the sampler file's fields, and the state a rotated file starts with.
 * The relay files are FIFOs here, so a test decides where reads end.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "helpers.h"
#include "streams.h"
#include "record/recorder.h"

struct fake {
	char dir[256];
	int wfd;
};

static void fake_new(struct fake *f)
{
	char p[512];

	snprintf(f->dir, sizeof(f->dir), "%s/sw-rec-%d",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
	snprintf(p, sizeof(p), "%s/samples", f->dir);
	mkdir(f->dir, 0755);
	assert_true(!mkdir(p, 0755) || errno == EEXIST);
	snprintf(p, sizeof(p), "%s/samples/cpu2", f->dir);
	unlink(p);
	assert_int_equal(mkfifo(p, 0600), 0);
}

static void fake_free(struct fake *f)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/samples/cpu2", f->dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/samples", f->dir);
	rmdir(p);
	rmdir(f->dir);
}

static void test_carry_and_garbage(void **state)
{
	struct sw_recorder r;
	struct swd_writer w;
	struct swd_file *sf = NULL;
	struct sw_err err = { "" };
	struct tbuf b = { 0 };
	struct fake f;
	char p[512], *out = tmp_path("rec");
	const struct swd_section *s;
	size_t i, n, cut, total = 0;
	int wfd;

	(void)state;
	fake_new(&f);
	assert_int_equal(sw_recorder_open(&r, f.dir, &err), 0);
	assert_int_equal(r.ncpu, 1);
	assert_int_equal(r.cpu[0].cpu, 2);
	snprintf(p, sizeof(p), "%s/samples/cpu2", f.dir);
	wfd = open(p, O_WRONLY);
	assert_true(wfd >= 0);
	assert_int_equal(swd_writer_open(&w, out, &err), 0);
	r.w = &w;

	tb_stream(&b, 2, 1, SW_ABI_MAJOR);
	for (i = 0; i < 10; i++)
		tb_sample(&b, 10 + i, 2, 5, 5, 0x1000 + i, true, NULL, 0, 0);
	tb_mmap(&b, 30, 0, 5, 0x400000, 0x1000, 0, "/bin/true");
	/* Three reads: cut inside a record, and again inside another. */
	cut = sizeof(struct sw_rec_stream) + 3 * sizeof(struct sw_rec_sample) + 20;
	assert_int_equal(write(wfd, b.p, cut), (ssize_t)cut);
	n = (size_t)sw_recorder_drain(&r, 0);
	assert_int_equal(n, cut);
	assert_int_equal(r.cpu[0].ncarry, 20);
	assert_int_equal(r.samples, 3);
	assert_int_equal(write(wfd, b.p + cut, 50), 50);
	sw_recorder_drain(&r, 0);
	assert_int_equal(write(wfd, b.p + cut + 50, b.len - cut - 50),
			 (ssize_t)(b.len - cut - 50));
	sw_recorder_drain(&r, 0);
	assert_int_equal(r.cpu[0].ncarry, 0);
	assert_int_equal(r.samples, 10);
	assert_int_equal(r.bytes, b.len);
	/* The mapped file is remembered for its build-id. */
	assert_int_equal(r.paths.n, 1);

	/* Not a record (size 3): the rest of that read is dropped. */
	{
		unsigned char junk[64] = { 0 };
		struct sw_rec_header *h = (void *)junk;

		h->type = SW_REC_SAMPLE;
		h->size = 3;
		assert_int_equal(write(wfd, junk, sizeof(junk)), (ssize_t)sizeof(junk));
		sw_recorder_drain(&r, 0);
		assert_int_equal(r.dropped, sizeof(junk));
	}
	close(wfd);
	assert_int_equal(sw_recorder_finish_file(&r, NULL, "samples=10\n"), 0);
	assert_int_equal(swd_writer_close(&w, &err), 0);

	/* The file holds exactly the records, in whole pieces. */
	assert_int_equal(swd_open(out, &sf, &err), 0);
	assert_true(sf->complete);
	for (i = 0; i < sf->nsec; i++) {
		s = &sf->sec[i];
		if (s->type != SWD_SEC_RECORDS)
			continue;
		assert_int_equal(s->arg, 2);
		assert_memory_equal(s->data, b.p + total, s->size);
		total += s->size;
	}
	assert_int_equal(total, b.len);
	s = swd_find(sf, SWD_SEC_BUILDIDS);
	assert_non_null(s);
	swd_close(sf);
	sw_recorder_close(&r);
	fake_free(&f);
	unlink(out);
	free(out);
	free(b.p);
}

static void test_sampler_field(void **state)
{
	static const char text[] =
		"state      running\n"
		"event      cpu-clock type=1 config=0x0\n"
		"rate       freq=1000 Hz\n";
	char *v;

	(void)state;
	v = sw_sampler_field(text, "state");
	assert_string_equal(v, "running");
	free(v);
	v = sw_sampler_field(text, "rate");
	assert_string_equal(v, "freq=1000 Hz");
	free(v);
	assert_null(sw_sampler_field(text, "stat"));
	assert_null(sw_sampler_field(text, "filter"));
}

/* The state a rotated file starts with: live processes and their
 * mappings, modules; exited processes are forgotten. */
static void test_rotation_state(void **state)
{
	struct sw_recorder r;
	struct tbuf b = { 0 };
	struct fake f;
	struct sw_err err = { "" };
	void *st = NULL;
	size_t len = 0, off, ncomm = 0, nmmap = 0, nmod = 0;

	(void)state;
	fake_new(&f);
	assert_int_equal(sw_recorder_open(&r, f.dir, &err), 0);
	tb_comm(&b, 1, SW_REC_F_SYNTH, 7, 7, "alive");
	tb_mmap(&b, 1, SW_REC_F_SYNTH, 7, 0x400000, 0x2000, 0x1000, "/usr/bin/alive");
	tb_mmap(&b, 1, SW_REC_F_SYNTH | SW_MMAP_F_ANON, 7, 0x7f0000000000ULL,
		0x1000, 0, "//anon");
	tb_comm(&b, 1, SW_REC_F_SYNTH, 8, 8, "dead");
	tb_mmap(&b, 1, SW_REC_F_SYNTH, 8, 0x400000, 0x1000, 0, "/usr/bin/dead");
	tb_exit(&b, 5, 8, 8);
	tb_module(&b, 1, SW_REC_F_SYNTH, "ext4", 0xffffffffc0000000ULL, 0x5000);
	for (off = 0; off < b.len;) {
		const struct sw_rec_header *h = (const void *)(b.p + off);

		assert_int_equal(sw_machine_record(&r.m, h), 0);
		off += h->size;
	}
	assert_int_equal(sw_recorder_state(&r, &st, &len), 0);
	for (off = 0; off < len;) {
		const struct sw_rec_header *h = (const void *)((char *)st + off);

		assert_true(h->flags & SW_REC_F_SYNTH);
		if (h->type == SW_REC_COMM) {
			const struct sw_rec_comm *c = (const void *)h;

			assert_int_equal(c->pid, 7);
			assert_string_equal(c->comm, "alive");
			ncomm++;
		} else if (h->type == SW_REC_MMAP) {
			const struct sw_rec_mmap *m = (const void *)h;

			assert_int_equal(m->pid, 7);
			if (m->h.flags & SW_MMAP_F_ANON) {
				assert_string_equal(sw_mmap_path(m), "//anon");
			} else {
				assert_string_equal(sw_mmap_path(m), "/usr/bin/alive");
				assert_int_equal(m->pgoff, 0x1000);
				assert_int_equal(m->len, 0x2000);
			}
			nmmap++;
		} else if (h->type == SW_REC_MODULE) {
			const struct sw_rec_module *mo = (const void *)h;

			assert_string_equal(mo->name, "ext4");
			assert_int_equal(mo->size, 0x5000);
			nmod++;
		}
		off += h->size;
	}
	assert_int_equal(ncomm, 1);
	assert_int_equal(nmmap, 2);
	assert_int_equal(nmod, 1);
	/* The machine restarted from that state; the new file's build-ids
	 * and perf maps are those of the live mappings. */
	assert_int_equal(r.m.nproc, 1);
	assert_int_equal(r.paths.n, 1);
	assert_int_equal(r.anon_pids.n, 1);
	free(st);
	free(b.p);
	sw_recorder_close(&r);
	fake_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_carry_and_garbage),
		cmocka_unit_test(test_sampler_field),
		cmocka_unit_test(test_rotation_state),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
