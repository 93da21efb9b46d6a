// SPDX-License-Identifier: GPL-2.0
/*
 * test_snapshot.c - reading the stopwatch directory: the fixtures under
 * tests/fixtures/, and malformed files built in a temporary directory.
 */
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"
#include "control/debugfs.h"
#include "control/snapshot.h"
#include "output/correct.h"

static const struct sw_snapshot_opts all = { .hist = true,
					     .breakdown = true };

static uint64_t val(const struct sw_snapshot *s, const char *probe,
		    const char *col)
{
	const struct sw_probe_stat *p = sw_snapshot_probe(s, probe);
	int c = sw_snapshot_col(s, col);

	if (!p || c < 0)
		fail_msg("no %s/%s", probe, col);
	return p->val[c];
}

static struct sw_snapshot *load_ok(const char *dir,
				   const struct sw_snapshot_opts *o)
{
	struct sw_snapshot *s = NULL;
	struct sw_err err = { "" };
	int ret = sw_snapshot_load(dir, o, &s, &err);

	if (ret)
		fail_msg("load %s: %d: %s", dir, ret, err.msg);
	return s;
}

static void test_basic(void **state)
{
	struct sw_snapshot *s = load_ok("fixtures/basic", &all);
	static const char *const cols[] = {
		"calls", "min_ns", "avg_ns", "max_ns", "stddev_ns", "total_ns",
		"missed", "miss_maxactive", "miss_reentry", "migrated",
	};
	const struct sw_probe_stat *p;
	size_t i;

	(void)state;
	assert_int_equal(s->ncols, 10);
	for (i = 0; i < 10; i++)
		assert_string_equal(s->col[i], cols[i]);
	assert_int_equal(s->nprobes, 3);
	assert_string_equal(s->probe[0].name, "vfs_read");
	assert_string_equal(s->probe[1].name, "vfs_write");
	assert_string_equal(s->probe[2].name, "do_sys_openat2");
	assert_true(val(s, "vfs_read", "calls") == 123);
	assert_true(val(s, "vfs_read", "max_ns") == 90211);
	assert_true(val(s, "vfs_read", "total_ns") == 283023);
	assert_true(val(s, "vfs_read", "migrated") == 1);
	assert_true(val(s, "vfs_write", "missed") == 12);
	assert_true(val(s, "vfs_write", "miss_maxactive") == 12);
	assert_true(val(s, "vfs_write", "miss_reentry") == 0);
	assert_true(s->time_ns > 0);
	assert_string_equal(s->dir, "fixtures/basic");

	p = sw_snapshot_probe(s, "vfs_read");
	assert_non_null(p->hist);
	assert_int_equal(p->hist->n, 1);
	assert_true(p->hist->hist[0].bucket[11] == 99);
	assert_true(p->hist->hist[0].bucket[17] == 3);
	p = sw_snapshot_probe(s, "do_sys_openat2");
	assert_non_null(p->hist);
	assert_int_equal(sw_hist_top(&p->hist->hist[0]), -1);

	assert_non_null(s->bd);
	assert_string_equal(s->bd->mode, "pid");
	assert_int_equal(s->bd->ncols, 6);
	assert_string_equal(s->bd->col[0], "calls");
	assert_int_equal(s->bd->nrows, 4);
	assert_string_equal(s->bd->row[0].probe, "vfs_read");
	assert_true(s->bd->row[0].is_num);
	assert_true(s->bd->row[0].num == 1234);
	assert_false(s->bd->row[0].other);
	assert_true(s->bd->row[0].val[0] == 100);
	assert_true(s->bd->row[2].other);
	assert_false(s->bd->row[2].is_num);
	assert_string_equal(s->bd->row[2].key, "other");
	assert_true(s->bd->row[3].num == 4242);
	sw_snapshot_free(s);
}

static void test_breakdown_unread(void **state)
{
	static const char text[] =
		"probe pid calls min_ns avg_ns max_ns stddev_ns total_ns\n"
		"getppid 12 5 1 2 3 1 10\n"
		"getppid other 2 1 2 3 1 4\n"
		"getppid unread=1 7 1 2 3 1 14\n";
	struct sw_breakdown *bd = NULL;
	struct sw_err err = { "" };

	(void)state;
	assert_int_equal(sw_breakdown_parse(text, "pid", "breakdown_stats",
					    NULL, &bd, &err), 0);
	assert_int_equal(bd->nrows, 3);
	assert_true(bd->row[0].is_num);
	assert_true(bd->row[1].other);
	assert_false(bd->row[2].other);
	assert_false(bd->row[2].is_num);
	assert_string_equal(bd->row[2].text, "unread=1");
	assert_true(bd->row[2].val[0] == 7);
	sw_breakdown_free(bd);
}

static void test_filter(void **state)
{
	static const char *const names[] = { "do_sys_openat2", "vfs_write" };
	struct sw_snapshot_opts o = { .filter = names, .nfilter = 2,
				      .breakdown = true };
	struct sw_snapshot *s = load_ok("fixtures/basic", &o);

	(void)state;
	/* File order, not filter order; no histograms were asked for. */
	assert_int_equal(s->nprobes, 2);
	assert_string_equal(s->probe[0].name, "vfs_write");
	assert_string_equal(s->probe[1].name, "do_sys_openat2");
	assert_null(s->probe[0].hist);
	/* Breakdown rows of the other probes are dropped. */
	assert_int_equal(s->bd->nrows, 1);
	assert_string_equal(s->bd->row[0].probe, "vfs_write");
	sw_snapshot_free(s);
}

static void test_filter_unknown(void **state)
{
	static const char *const names[] = { "vfs_read", "nope" };
	struct sw_snapshot_opts o = { .filter = names, .nfilter = 2 };
	struct sw_snapshot *s = NULL;
	struct sw_err err = { "" };

	(void)state;
	assert_int_equal(sw_snapshot_load("fixtures/basic", &o, &s, &err),
			 -ENOENT);
	assert_null(s);
	assert_string_equal(err.msg,
			    "probe 'nope' is not being measured (3 probes in fixtures/basic/stats)");
}

static void test_pmu(void **state)
{
	struct sw_snapshot *s = load_ok("fixtures/pmu", &all);
	const struct sw_probe_stat *p;
	const struct sw_hist *h;
	const struct sw_breakdown *bd;

	(void)state;
	assert_int_equal(s->ncols, 15);
	assert_string_equal(s->col[10], "cycles_min");
	assert_string_equal(s->col[14], "cpi_min");
	assert_true(val(s, "ext4_file_read_iter", "cycles_unmeasured") == 1);
	assert_true(val(s, "tcp_sendmsg.isra.0", "cycles_max") == 15000);
	p = sw_snapshot_probe(s, "ext4_file_read_iter");
	assert_int_equal(p->hist->n, 2);
	h = sw_hist_find(p->hist, "cycles");
	assert_non_null(h);
	assert_true(h->calls == 9);
	assert_true(h->bucket[12] == 6);

	bd = s->bd;
	assert_string_equal(bd->mode, "comm");
	assert_int_equal(bd->nrows, 8);
	assert_string_equal(bd->row[0].key, "my\\040task");
	assert_string_equal(bd->row[0].text, "my task");
	assert_false(bd->row[0].is_num);
	assert_string_equal(bd->row[1].text, "back\\slash");
	assert_string_equal(bd->row[2].text, "tab\there");
	assert_string_equal(bd->row[3].text, "say\"hi\"");
	assert_true(bd->row[5].other);
	assert_string_equal(bd->row[7].text, "bad\xffname");
	sw_snapshot_free(s);
}

static void check_stats_error(const char *text, int want, const char *msg)
{
	struct sw_snapshot *s = (struct sw_snapshot *)1;
	struct sw_err err = { "" };

	assert_int_equal(sw_snapshot_parse_stats(text, "stats", NULL, &s, &err),
			 want);
	assert_null(s);
	assert_string_equal(err.msg, msg);
}

static void test_stats_errors(void **state)
{
	(void)state;
	check_stats_error("", -ENODATA, "stats: empty: missing the header line");
	check_stats_error("vfs_read 1 2\nvfs_write 3 4\n", -EINVAL,
			  "stats: no 'probe' column in the header line, which starts with 'vfs_read': is the header missing?");
	check_stats_error("probe calls\nvfs_read abc\n", -EINVAL,
			  "stats: line 2: column 'calls': 'abc' is not an unsigned number");
	check_stats_error("probe calls\nvfs_read -1\n", -EINVAL,
			  "stats: line 2: column 'calls': '-1' is not an unsigned number");
	check_stats_error("probe calls\nvfs_read 18446744073709551616\n",
			  -ERANGE,
			  "stats: line 2: column 'calls': '18446744073709551616' is too large for 64 bits");
	check_stats_error("probe calls min_ns\nvfs_read 1\n", -EINVAL,
			  "stats: line 2: 2 fields where the header has 3: 'vfs_read 1'");
	check_stats_error("probe calls\nf 1\nf 2\n", -EINVAL,
			  "stats: line 3: probe 'f' appears twice");
}

static void test_stats_columns_by_name(void **state)
{
	struct sw_snapshot *s = NULL;

	(void)state;
	/* Any column order; "probe" need not come first. */
	assert_int_equal(sw_snapshot_parse_stats("max_ns probe calls\n"
						 "7 f 3\n", "stats", NULL, &s,
						 NULL), 0);
	assert_int_equal(s->ncols, 2);
	assert_true(val(s, "f", "calls") == 3);
	assert_true(val(s, "f", "max_ns") == 7);
	assert_int_equal(sw_snapshot_col(s, "min_ns"), -1);
	sw_snapshot_free(s);
	/* No probes at all. */
	assert_int_equal(sw_snapshot_parse_stats("probe calls\n", "stats",
						 NULL, &s, NULL), 0);
	assert_int_equal(s->nprobes, 0);
	sw_snapshot_free(s);
}

static void check_bd_error(const char *text, const char *mode,
			   const char *msg)
{
	struct sw_breakdown *bd = (struct sw_breakdown *)1;
	struct sw_err err = { "" };

	assert_int_equal(sw_breakdown_parse(text, mode, "bds", NULL, &bd, &err),
			 -EINVAL);
	assert_null(bd);
	assert_string_equal(err.msg, msg);
}

static void test_breakdown_parse(void **state)
{
	struct sw_breakdown *bd = NULL;

	(void)state;
	/* The mode file and the header disagree: the header wins. */
	assert_int_equal(sw_breakdown_parse("probe cpu calls\nf 3 9\nf other 1\n",
					    "pid", "bds", NULL, &bd, NULL), 0);
	assert_string_equal(bd->mode, "cpu");
	assert_int_equal(bd->ncols, 1);
	assert_true(bd->row[0].is_num && bd->row[0].num == 3);
	assert_true(bd->row[1].other);
	sw_breakdown_free(bd);
	/* A mode stopwatch does not know yet: keys stay strings. */
	assert_int_equal(sw_breakdown_parse("probe cgroup calls\nf /a 1\n",
					    "cgroup", "bds", NULL, &bd, NULL), 0);
	assert_string_equal(bd->mode, "cgroup");
	assert_false(bd->row[0].is_num);
	assert_string_equal(bd->row[0].text, "/a");
	sw_breakdown_free(bd);
	/* Off: header only. */
	assert_int_equal(sw_breakdown_parse("probe none calls\n", "none", "bds",
					    NULL, &bd, NULL), 0);
	assert_string_equal(bd->mode, "none");
	assert_int_equal(bd->nrows, 0);
	sw_breakdown_free(bd);

	check_bd_error("probe pid calls\nf abc 1\n", "pid",
		       "bds: line 2: pid 'abc' is not a number");
	check_bd_error("probe pid calls\nf 1 x\n", "pid",
		       "bds: line 2: column 'calls': 'x' is not an unsigned number");
	check_bd_error("probe cgroup calls\n", "", 
		       "bds: the header has no key column named after the breakdown mode '?'");
	check_bd_error("f 1 2\n", "pid",
		       "bds: no 'probe' column in the header line, which starts with 'f': is the header missing?");
}

/* A scratch copy of fixtures/basic that tests may break. */
static char scratch[64];

static void put(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", scratch, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static int scratch_setup(void **state)
{
	char cmd[256];

	(void)state;
	strcpy(scratch, "/tmp/sw-test-XXXXXX");
	if (!mkdtemp(scratch))
		return -1;
	snprintf(cmd, sizeof(cmd), "cp -r fixtures/basic/. %s/", scratch);
	return system(cmd) ? -1 : 0;
}

static int scratch_teardown(void **state)
{
	char cmd[256];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", scratch);
	return system(cmd) ? -1 : 0;
}

static void test_hist_vanished(void **state)
{
	struct sw_snapshot *s;
	char path[256];

	(void)state;
	snprintf(path, sizeof(path), "%s/hist/vfs_write", scratch);
	assert_int_equal(unlink(path), 0);
	s = load_ok(scratch, &all);
	assert_null(sw_snapshot_probe(s, "vfs_write")->hist);
	assert_non_null(sw_snapshot_probe(s, "vfs_read")->hist);
	sw_snapshot_free(s);
}

static void test_hist_malformed(void **state)
{
	struct sw_snapshot *s = NULL;
	struct sw_err err = { "" };
	char want[512];

	(void)state;
	put("hist/vfs_read", "vfs_read: ns, 1 calls\n"
			     "value |------ count\n"
			     " 1024 |@ one\n");
	assert_int_equal(sw_snapshot_load(scratch, &all, &s, &err), -EINVAL);
	snprintf(want, sizeof(want),
		 "%s/hist/vfs_read: line 3: count is not a number: '1024 |@ one'",
		 scratch);
	assert_string_equal(err.msg, want);
	put("hist/vfs_read", "");
	assert_int_equal(sw_snapshot_load(scratch, &all, &s, &err), -ENODATA);
	snprintf(want, sizeof(want), "%s/hist/vfs_read: empty: no histogram",
		 scratch);
	assert_string_equal(err.msg, want);
}

/*
 * The hists file (stats_format 1.5): one read for every probe's
 * histograms; each row's timing columns come from its wall-time title,
 * read with the buckets, not from the stats file read apart.
 */
static void test_hists_file(void **state)
{
	const struct sw_probe_stat *p;
	struct sw_snapshot *s;

	(void)state;
	put("hists", "vfs_read: ns, 5 calls; total 7000, min 1000, avg 1400, max 2000, stddev 400\n"
		     "value |-------------------------------------------------- count\n"
		     "  512 |                                                   0\n"
		     " 1024 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 5\n"
		     " 2048 |                                                   0\n"
		     "\n"
		     "gone_by_now: ns, 1 calls; total 1, min 1, avg 1, max 1, stddev 0\n"
		     "value |-------------------------------------------------- count\n"
		     "    0 |                                                   0\n"
		     "    1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 1\n"
		     "    2 |                                                   0\n");
	/* Not read when the hists file is there. */
	put("hist/vfs_read", "not a histogram\n");
	s = load_ok(scratch, &all);
	p = sw_snapshot_probe(s, "vfs_read");
	assert_non_null(p->hist);
	assert_int_equal(p->hist->n, 1);
	assert_true(p->hist->hist[0].calls == 5);
	assert_true(p->hist->hist[0].bucket[11] == 5);
	assert_true(p->val[sw_snapshot_col(s, "calls")] == 5);
	assert_true(p->val[sw_snapshot_col(s, "min_ns")] == 1000);
	assert_true(p->val[sw_snapshot_col(s, "avg_ns")] == 1400);
	assert_true(p->val[sw_snapshot_col(s, "max_ns")] == 2000);
	assert_true(p->val[sw_snapshot_col(s, "stddev_ns")] == 400);
	assert_true(p->val[sw_snapshot_col(s, "total_ns")] == 7000);
	/* Others as the stats file has them, without a histogram. */
	assert_true(sw_snapshot_probe(s, "vfs_write")->val[0] == 4567);
	assert_null(sw_snapshot_probe(s, "vfs_write")->hist);
	sw_snapshot_free(s);
	/* No probe left: no histograms, no error. */
	put("hists", "");
	s = load_ok(scratch, &all);
	assert_null(sw_snapshot_probe(s, "vfs_read")->hist);
	sw_snapshot_free(s);
}

/*
 * The keys file read a line at a time: rows enough to fill several of the
 * arena's blocks and to grow the row array, a dropped probe's rows, blank
 * lines and a last line without its newline.
 */
static void test_keys_file(void **state)
{
	const struct sw_snapshot_opts o = { .keys = true };
	struct sw_err err = { "" };
	struct sw_snapshot *s = NULL;
	struct sw_breakdown *k;
	char *text = NULL, want[256];
	size_t len = 0, i;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(f);
	fputs("probe key calls total_ns\n", f);
	for (i = 0; i < 3000; i++)
		fprintf(f, "vfs_read comm=t\\040%zu %zu %zu\n", i, i + 1,
			10 * i);
	fputs("\n", f);
	for (i = 0; i < 2000; i++)
		fprintf(f, "gone_by_now comm=g%zu 1 1\n", i);
	for (i = 0; i < 10; i++)
		fprintf(f, "vfs_write pid=%zu %zu 7\n", i, i);
	fputs("vfs_write other 5 5", f);
	assert_int_equal(fclose(f), 0);
	put("keys", text);
	free(text);
	s = load_ok(scratch, &o);
	k = s->keys;
	assert_non_null(k);
	assert_int_equal(k->nrows, 3011);
	assert_int_equal(k->ncols, 2);
	for (i = 0; i < 3000; i++) {
		snprintf(want, sizeof(want), "comm=t\\040%zu", i);
		assert_string_equal(k->row[i].probe, "vfs_read");
		assert_string_equal(k->row[i].key, want);
		snprintf(want, sizeof(want), "comm=t %zu", i);
		assert_string_equal(k->row[i].text, want);
		assert_true(k->row[i].val[0] == i + 1);
		assert_true(k->row[i].val[1] == 10 * i);
	}
	assert_string_equal(k->row[3009].probe, "vfs_write");
	assert_string_equal(k->row[3009].text, "pid=9");
	assert_true(k->row[3009].val[0] == 9);
	assert_true(k->row[3010].other);
	assert_true(k->row[3010].val[1] == 5);
	sw_snapshot_free(s);
	/* The header only: no keyed rows. */
	put("keys", "probe key calls total_ns\n");
	s = load_ok(scratch, &o);
	assert_null(s->keys);
	sw_snapshot_free(s);
	/* A short row, named by its line. */
	put("keys", "probe key calls total_ns\nvfs_read comm=a 1 2\n\nvfs_read comm=b 3\n");
	s = NULL;
	assert_int_equal(sw_snapshot_load(scratch, &o, &s, &err), -EINVAL);
	assert_null(s);
	snprintf(want, sizeof(want),
		 "%s/keys: line 4: 3 fields where the header has 4: 'vfs_read comm=b 3'",
		 scratch);
	assert_string_equal(err.msg, want);
}

static void test_stats_missing(void **state)
{
	struct sw_snapshot *s = NULL;
	struct sw_err err = { "" };
	char path[256], want[512];

	(void)state;
	snprintf(path, sizeof(path), "%s/breakdown", scratch);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(sw_snapshot_load(scratch, &all, &s, &err), -ENOENT);
	snprintf(want, sizeof(want), "%s/breakdown: No such file or directory",
		 scratch);
	assert_string_equal(err.msg, want);
}

static void test_debugfs_find(void **state)
{
	struct sw_err err = { "" };
	char *dir = NULL, sub[128], want[512];

	(void)state;
	assert_int_equal(sw_debugfs_find("fixtures/basic", &dir, &err), 0);
	assert_string_equal(dir, "fixtures/basic");
	free(dir);

	/* The environment variable, when no directory is given. */
	setenv(SW_DEBUGFS_ENV, "fixtures/pmu", 1);
	assert_int_equal(sw_debugfs_find(NULL, &dir, &err), 0);
	assert_string_equal(dir, "fixtures/pmu");
	free(dir);
	/* --debugfs wins over the environment. */
	assert_int_equal(sw_debugfs_find("fixtures/basic", &dir, &err), 0);
	assert_string_equal(dir, "fixtures/basic");
	free(dir);
	unsetenv(SW_DEBUGFS_ENV);

	/* A debugfs mount point: its stopwatch subdirectory. */
	snprintf(sub, sizeof(sub), "%s/stopwatch", scratch);
	assert_int_equal(mkdir(sub, 0700), 0);
	snprintf(sub, sizeof(sub), "%s/stopwatch/stats", scratch);
	assert_int_equal(link("fixtures/basic/stats", sub), 0);
	snprintf(sub, sizeof(sub), "%s/stats", scratch);
	assert_int_equal(unlink(sub), 0);
	assert_int_equal(sw_debugfs_find(scratch, &dir, &err), 0);
	snprintf(want, sizeof(want), "%s/stopwatch", scratch);
	assert_string_equal(dir, want);
	free(dir);

	assert_int_equal(sw_debugfs_find("fixtures", &dir, &err), -ENOENT);
	assert_null(dir);
	assert_string_equal(err.msg,
			    "fixtures: not a stopwatch debugfs directory (no 'stats' file in it or in fixtures/stopwatch)");
	assert_int_equal(sw_debugfs_find("fixtures/nonexistent", &dir, &err),
			 -ENOENT);
	assert_string_equal(err.msg,
			    "fixtures/nonexistent: No such file or directory");
	assert_int_equal(sw_debugfs_find("fixtures/basic/stats", &dir, &err),
			 -ENOTDIR);
	assert_string_equal(err.msg,
			    "fixtures/basic/stats is not a directory (expected the stopwatch debugfs directory)");
}

/*
 * The module's real files (fixtures/<arch>/, captured in the VM by
 * scripts/capture-fixtures.sh after "dd bs=1 count=3000" with probes
 * vfs_read and vfs_write, breakdown by comm and the events in the
 * "events" file).
 */
static void check_captured(const char *arch, const char *const *events,
			   size_t nevents, bool cpi)
{
	static const char *const base[] = {
		"calls", "min_ns", "avg_ns", "max_ns", "stddev_ns", "total_ns",
		"missed", "miss_maxactive", "miss_reentry", "migrated",
	};
	static const char *const what[] = { "min", "avg", "max", "unmeasured" };
	static const char *const tail[] = {
		"filtered", "filtered_short", "filtered_long", "attach",
		"attach_err", "detached", "p50_ns", "p90_ns", "p99_ns",
		"p999_ns", "cost_ns", "cost_fixed_ns", "cost_total_ns",
		"window_ns",
	};
	static const char *const probes[] = { "vfs_read", "vfs_write" };
	char dir[64], name[64];
	struct sw_snapshot *s;
	size_t i, k, c = 0;

	snprintf(dir, sizeof(dir), "fixtures/%s", arch);
	s = load_ok(dir, &all);
	/* The columns, in the module's order; only cpi_* have decimals. */
	assert_int_equal(s->ncols, 10 + 4 * nevents + (cpi ? 3 : 0) + 14);
	for (i = 0; i < 10; i++, c++)
		assert_string_equal(s->col[c], base[i]);
	for (i = 0; i < nevents; i++)
		for (k = 0; k < 4; k++, c++) {
			snprintf(name, sizeof(name), "%s_%s", events[i], what[k]);
			assert_string_equal(s->col[c], name);
		}
	if (cpi) {
		assert_string_equal(s->col[c++], "cpi_min");
		assert_string_equal(s->col[c++], "cpi_avg");
		assert_string_equal(s->col[c++], "cpi_max");
	}
	for (i = 0; i < 14; i++, c++)
		assert_string_equal(s->col[c], tail[i]);
	for (c = 0; c < s->ncols; c++)
		assert_int_equal(s->places[c],
				 strncmp(s->col[c], "cpi_", 4) ? 0 : 3);

	assert_int_equal(s->nprobes, 2);
	for (i = 0; i < 2; i++) {
		const struct sw_probe_stat *p = &s->probe[i];

		assert_string_equal(p->name, probes[i]);
		assert_true(val(s, p->name, "calls") >= 3000);
		assert_true(val(s, p->name, "min_ns") <= val(s, p->name, "avg_ns"));
		assert_true(val(s, p->name, "avg_ns") <= val(s, p->name, "max_ns"));
		assert_true(val(s, p->name, "total_ns") >=
			    val(s, p->name, "calls") * val(s, p->name, "min_ns"));
		/* The row's timing columns come with its histogram (hists):
		 * the same calls, in one read.
		 */
		assert_int_equal(p->hist->n, 1 + nevents);
		assert_true(p->hist->hist[0].calls == val(s, p->name, "calls"));
		/* ... and so do its percentiles, in order, within the
		 * extremes (stats_format 1.6).
		 */
		assert_true(p->hist->hist[0].has_pct);
		assert_true(p->hist->hist[0].row[SW_HIST_ROW_P50] ==
			    val(s, p->name, "p50_ns"));
		assert_true(p->hist->hist[0].row[SW_HIST_ROW_P999] ==
			    val(s, p->name, "p999_ns"));
		assert_true(val(s, p->name, "min_ns") <= val(s, p->name, "p50_ns"));
		assert_true(val(s, p->name, "p50_ns") <= val(s, p->name, "p90_ns"));
		assert_true(val(s, p->name, "p90_ns") <= val(s, p->name, "p99_ns"));
		assert_true(val(s, p->name, "p99_ns") <= val(s, p->name, "p999_ns"));
		assert_true(val(s, p->name, "p999_ns") <= val(s, p->name, "max_ns"));
		/* Nothing filtered, nothing gone; a kernel function. */
		assert_true(val(s, p->name, "filtered") == 0);
		assert_true(val(s, p->name, "detached") == 0);
		for (k = 0; k < nevents; k++)
			assert_non_null(sw_hist_find(p->hist, events[k]));
		if (cpi) {
			assert_true(val(s, p->name, "cpi_min") > 0);
			assert_true(val(s, p->name, "cpi_min") <=
				    val(s, p->name, "cpi_avg"));
			assert_true(val(s, p->name, "cpi_avg") <=
				    val(s, p->name, "cpi_max"));
		}
	}

	/* The breakdown by comm: dd's own reads, at least its 3000. */
	assert_non_null(s->bd);
	assert_string_equal(s->bd->mode, "comm");
	assert_int_equal(s->bd->ncols, 6);
	for (i = 0; i < s->bd->nrows; i++)
		if (!strcmp(s->bd->row[i].probe, "vfs_read") &&
		    !strcmp(s->bd->row[i].text, "dd"))
			break;
	assert_true(i < s->bd->nrows);
	assert_true(s->bd->row[i].val[sw_breakdown_col(s->bd, "calls")] >=
		    3000);
	sw_snapshot_free(s);
}

static void test_captured(void **state)
{
	static const char *const arm64[] = { "cycles", "instructions" };
	static const char *const x86[] = { "cpu-clock", "context-switches" };

	(void)state;
	check_captured("arm64", arm64, 2, true);
	check_captured("x86_64", x86, 2, false);
}

/* Fixed-point columns: scaled by their places, every row alike. */
static void test_stats_decimals(void **state)
{
	static const char text[] =
		"probe calls cpi_avg\n"
		"a 1 1.250\n"
		"b 2 0.007\n";
	struct sw_snapshot *s = NULL;
	struct sw_err err = { "" };

	(void)state;
	assert_int_equal(sw_snapshot_parse_stats(text, "stats", NULL, &s, &err), 0);
	assert_int_equal(s->places[0], 0);
	assert_int_equal(s->places[1], 3);
	assert_true(val(s, "a", "cpi_avg") == 1250);
	assert_true(val(s, "b", "cpi_avg") == 7);
	sw_snapshot_free(s);
	assert_int_equal(sw_snapshot_parse_stats("probe x\na 1.25\nb 1.250\n",
						 "stats", NULL, &s, &err),
			 -EINVAL);
	assert_string_equal(err.msg,
			    "stats: line 3: column 'x': '1.250' is not printed with the decimal places of the rows above");
	assert_int_equal(sw_snapshot_parse_stats("probe x\na 1.\n", "stats",
						 NULL, &s, &err), -EINVAL);
	assert_int_equal(sw_snapshot_parse_stats("probe x\na .5\n", "stats",
						 NULL, &s, &err), -EINVAL);
}

/*
 * --correct: window_ns read by name and taken off min, avg and the
 * percentiles (never below 0), max as measured; 0 or no such probe
 * leaves a row as measured; the marks and the lines that say so.
 */
static void test_correct(void **state)
{
	static const char text[] =
		"probe calls min_ns avg_ns max_ns p50_ns p90_ns p99_ns p999_ns cost_ns window_ns\n"
		"a 10 700 1000 5000 900 1200 2000 4000 300 812\n"
		"b 10 700 1000 5000 900 1200 2000 4000 300 0\n"
		"c 10 100 1000 5000 900 1200 2000 4000 300 640\n";
	char *ids[] = { "a", "b", "c", "gone" }, *names[] = { "fa", "fb", "fc", "fg" };
	struct sw_err err = { "" };
	struct sw_snapshot *s = NULL;
	uint64_t window[4];
	char **marked, *out = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(sw_snapshot_parse_stats(text, "stats", NULL, &s, &err), 0);
	sw_correct_snapshot(s, ids, 4, window);
	assert_true(window[0] == 812 && window[1] == 0 && window[2] == 640 &&
		    window[3] == 0);
	assert_true(val(s, "a", "min_ns") == 0);	/* 700 - 812: not below 0 */
	assert_true(val(s, "a", "avg_ns") == 188);
	assert_true(val(s, "a", "p50_ns") == 88);
	assert_true(val(s, "a", "p90_ns") == 388);
	assert_true(val(s, "a", "p99_ns") == 1188);
	assert_true(val(s, "a", "p999_ns") == 3188);
	assert_true(val(s, "a", "max_ns") == 5000);
	assert_true(val(s, "a", "cost_ns") == 300);
	assert_true(val(s, "b", "min_ns") == 700);	/* not calibrated */
	assert_true(val(s, "b", "avg_ns") == 1000);
	assert_true(val(s, "b", "p999_ns") == 4000);
	assert_true(val(s, "c", "min_ns") == 0);
	assert_true(val(s, "c", "avg_ns") == 360);
	marked = sw_correct_names(names, window, 4);
	assert_non_null(marked);
	assert_string_equal(marked[0], "fa*");
	assert_string_equal(marked[1], "fb!");
	assert_string_equal(marked[3], "fg!");
	sw_correct_names_free(marked, 4);
	f = open_memstream(&out, &len);
	assert_non_null(f);
	sw_correct_fprint(f, names, window, 4);
	fclose(f);
	assert_string_equal(out,
		"# * corrected for the probe: 812 ns (fa), 640 ns (fc) subtracted from min, avg and percentiles (the probe's in-window cost, calibrated at load; never below 0; max and histograms as measured)\n"
		"# ! not corrected: fb, fg (the probe's in-window cost was not calibrated: a trampoline or uprobe, calibrate=0, or an older module)\n");
	free(out);
	/* One amount said once; none uncalibrated: no second line. */
	window[0] = window[1] = window[2] = window[3] = 812;
	out = NULL;
	f = open_memstream(&out, &len);
	sw_correct_fprint(f, names, window, 4);
	fclose(f);
	assert_string_equal(out,
		"# * corrected for the probe: 812 ns subtracted from min, avg and percentiles (the probe's in-window cost, calibrated at load; never below 0; max and histograms as measured)\n");
	free(out);
	sw_snapshot_free(s);
	/* A module before stats_format 1.9: no window_ns, nothing corrected. */
	assert_int_equal(sw_snapshot_parse_stats("probe calls min_ns avg_ns\na 1 5 5\n",
						 "stats", NULL, &s, &err), 0);
	sw_correct_snapshot(s, ids, 1, window);
	assert_true(window[0] == 0 && val(s, "a", "avg_ns") == 5);
	sw_snapshot_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic),
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_breakdown_unread),
		cmocka_unit_test(test_filter_unknown),
		cmocka_unit_test(test_pmu),
		cmocka_unit_test(test_captured),
		cmocka_unit_test(test_correct),
		cmocka_unit_test(test_stats_decimals),
		cmocka_unit_test(test_stats_errors),
		cmocka_unit_test(test_stats_columns_by_name),
		cmocka_unit_test(test_breakdown_parse),
		cmocka_unit_test_setup_teardown(test_hist_vanished,
						scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_hist_malformed,
						scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_hists_file, scratch_setup,
						scratch_teardown),
		cmocka_unit_test_setup_teardown(test_keys_file, scratch_setup,
						scratch_teardown),
		cmocka_unit_test_setup_teardown(test_stats_missing,
						scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_debugfs_find,
						scratch_setup, scratch_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
