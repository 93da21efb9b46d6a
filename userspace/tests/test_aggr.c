// SPDX-License-Identifier: GPL-2.0
/*
 * test_aggr.c - sort keys, aggregation and ordering of report rows, folded
 * stacks, the call graph, the flame graph and the pprof encoding (decoded
 * back with protobuf-c).
 */
#include <errno.h>

#include "helpers.h"
#include "profile.pb-c.h"
#include "record/aggr.h"
#include "output/flamegraph.h"
#include "output/pprof.h"

static const char kallsyms[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81001000 T alpha\n"
	"ffffffff81002000 T beta\n"
	"ffffffff81003000 T gamma\n"
	"ffffffff81004000 T main_loop\n"
	"ffffffff81005000 T _etext\n";

#define A 0xffffffff81001000ULL
#define B 0xffffffff81002000ULL
#define G 0xffffffff81003000ULL
#define M 0xffffffff81004000ULL

struct fixture {
	struct sw_machine m;
	struct sw_symbolizer sym;
	uint32_t comm_a, comm_b;
};

static struct fixture *fx_new(void)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_int_equal(sw_machine_init(&f->m), 0);
	assert_int_equal(sw_symbolizer_init(&f->sym, &f->m, NULL), 0);
	assert_int_equal(sw_symbolizer_set_kallsyms(&f->sym, kallsyms,
						    sizeof(kallsyms) - 1, NULL, 0), 0);
	f->comm_a = (uint32_t)sw_intern_str(&f->m.str, "app");
	f->comm_b = (uint32_t)sw_intern_str(&f->m.str, "bpp");
	return f;
}

static void fx_free(struct fixture *f)
{
	sw_symbolizer_free(&f->sym);
	sw_machine_free(&f->m);
	free(f);
}

static uint32_t loc(struct fixture *f, uint64_t addr)
{
	int64_t id = sw_symbolize(&f->sym, f->m.kernel, addr, false);

	assert_true(id >= 0);
	return (uint32_t)id;
}

static void test_sort_parse(void **state)
{
	struct sw_aggr a = { 0 };
	struct sw_err err = { "" };

	(void)state;
	assert_int_equal(sw_sort_parse("comm,image,symbol,srcline", &a, &err), 0);
	assert_int_equal(a.nkey, 4);
	assert_int_equal(a.key[3], SW_SK_SRCLINE);
	assert_true(sw_aggr_wants_srcline(&a));
	assert_int_equal(sw_sort_parse("dso,sym", &a, &err), 0);
	assert_int_equal(a.key[0], SW_SK_IMAGE);
	assert_int_equal(a.key[1], SW_SK_SYMBOL);
	assert_false(sw_aggr_wants_srcline(&a));
	assert_int_equal(sw_sort_parse("comm,bogus", &a, &err), -EINVAL);
	assert_string_equal(err.msg, "unknown sort key 'bogus': expected comm, pid, tid, image, symbol, srcline or cpu");
	assert_int_equal(sw_sort_parse("pid,pid", &a, &err), -EINVAL);
	assert_string_equal(err.msg, "sort key 'pid' given twice");
	assert_int_equal(sw_sort_parse("pid,", &a, &err), -EINVAL);
	assert_int_equal(sw_sort_parse("", &a, &err), -EINVAL);
}

static void add(struct sw_aggr *a, struct fixture *f, uint32_t comm,
		uint32_t pid, uint32_t cpu, uint64_t addr, uint64_t period,
		int times)
{
	struct sw_sample_info si = { comm, pid, pid, cpu, loc(f, addr), period };

	while (times--)
		assert_int_equal(sw_aggr_add(a, &f->sym, &si), 0);
}

static void test_aggregate(void **state)
{
	struct fixture *f = fx_new();
	struct sw_aggr a = { 0 };
	struct sw_row *rows = NULL;
	char buf[32];
	int64_t n;

	(void)state;
	assert_int_equal(sw_sort_parse("comm,symbol", &a, NULL), 0);
	sw_aggr_init(&a);
	add(&a, f, f->comm_a, 1, 0, A + 4, 10, 3);
	add(&a, f, f->comm_a, 1, 1, A + 8, 10, 2);	/* same row */
	add(&a, f, f->comm_b, 2, 0, A + 4, 10, 5);	/* tie: 5 vs 5 */
	add(&a, f, f->comm_a, 1, 0, B, 1000, 1);	/* heaviest by period */
	add(&a, f, f->comm_a, 1, 0, G, 5, 1);
	assert_int_equal(a.total_samples, 12);
	assert_int_equal(a.total_period, 1105);
	n = sw_aggr_sorted(&a, &f->m, true, &rows);
	assert_int_equal(n, 4);
	assert_string_equal(sw_aggr_cell(&a, &f->m, &rows[0], 1, buf), "beta");
	assert_int_equal(rows[1].samples, 5);
	/* Equal weight: ordered by the key text, "app" before "bpp". */
	assert_string_equal(sw_aggr_cell(&a, &f->m, &rows[1], 0, buf), "app");
	assert_string_equal(sw_aggr_cell(&a, &f->m, &rows[2], 0, buf), "bpp");
	assert_string_equal(sw_aggr_cell(&a, &f->m, &rows[3], 1, buf), "gamma");
	free(rows);
	/* By samples (what report prints unless --period): beta's one
	 * heavy sample goes below gamma's lighter one only by period. */
	n = sw_aggr_sorted(&a, &f->m, false, &rows);
	assert_int_equal(n, 4);
	assert_string_equal(sw_aggr_cell(&a, &f->m, &rows[0], 0, buf), "app");
	assert_string_equal(sw_aggr_cell(&a, &f->m, &rows[1], 0, buf), "bpp");
	assert_string_equal(sw_aggr_cell(&a, &f->m, &rows[2], 1, buf), "beta");
	assert_string_equal(sw_aggr_cell(&a, &f->m, &rows[3], 1, buf), "gamma");
	free(rows);
	sw_aggr_free(&a);

	/* By cpu and pid: numbers. */
	assert_int_equal(sw_sort_parse("cpu,pid", &a, NULL), 0);
	sw_aggr_init(&a);
	add(&a, f, f->comm_a, 7, 3, A, 1, 2);
	add(&a, f, f->comm_a, 8, 3, A, 1, 1);
	n = sw_aggr_sorted(&a, &f->m, false, &rows);
	assert_int_equal(n, 2);
	assert_string_equal(sw_aggr_cell(&a, &f->m, &rows[0], 0, buf), "3");
	assert_string_equal(sw_aggr_cell(&a, &f->m, &rows[0], 1, buf), "7");
	free(rows);
	sw_aggr_free(&a);
	fx_free(f);
}

/* Stacks: 6 x main->alpha->beta (innermost beta), 3 x main->gamma,
 * 1 x main->alpha (unknown frame below). */
static void fill_stacks(struct fixture *f, struct sw_stacks *st)
{
	uint32_t s1[3] = { loc(f, B + 1), loc(f, A + 1), loc(f, M + 1) };
	uint32_t s1b[3] = { loc(f, B + 2), loc(f, A + 2), loc(f, M + 1) };
	uint32_t s2[2] = { loc(f, G), loc(f, M + 3) };
	uint32_t s3[3] = { loc(f, 0xffffffff90000000ULL), loc(f, A), loc(f, M) };
	int i;

	sw_stacks_init(st);
	for (i = 0; i < 4; i++)
		assert_int_equal(sw_stacks_add(st, f->comm_a, s1, 3, 100), 0);
	for (i = 0; i < 2; i++)
		assert_int_equal(sw_stacks_add(st, f->comm_a, s1b, 3, 100), 0);
	for (i = 0; i < 3; i++)
		assert_int_equal(sw_stacks_add(st, f->comm_b, s2, 2, 100), 0);
	assert_int_equal(sw_stacks_add(st, f->comm_a, s3, 3, 100), 0);
}

static void test_folded(void **state)
{
	struct fixture *fx = fx_new();
	struct sw_stacks st;
	char *out = NULL;

	(void)state;
	fill_stacks(fx, &st);
	assert_int_equal(st.set.n, 4);
	assert_int_equal(st.total_samples, 10);
	CAPTURE(out, assert_int_equal(sw_write_folded(f, &st, &fx->sym, false), 0));
	/* Two address-level stacks fold into one line; sorted; kernel "_[k]". */
	assert_string_equal(out,
			    "app;main_loop_[k];alpha_[k];[unknown] ([kernel.kallsyms])_[k] 1\n"
			    "app;main_loop_[k];alpha_[k];beta_[k] 6\n"
			    "bpp;main_loop_[k];gamma_[k] 3\n");
	free(out);
	CAPTURE(out, assert_int_equal(sw_write_folded(f, &st, &fx->sym, true), 0));
	assert_non_null(strstr(out, "beta_[k] 600\n"));
	free(out);
	sw_stacks_free(&st);
	fx_free(fx);
}

static void test_callgraph(void **state)
{
	struct sw_cg_opts o = { .entries = 10, .min_pct = 0.5, .depth = 8,
				.paths = 2 };
	struct fixture *fx = fx_new();
	struct sw_stacks st;
	char *out = NULL;

	(void)state;
	fill_stacks(fx, &st);
	CAPTURE(out, assert_int_equal(sw_print_callgraph(f, &st, &fx->sym, &o), 0));
	assert_non_null(strstr(out,
		" 60.00%  beta  [kernel.kallsyms]\n"
		"     60.00%  alpha  [kernel.kallsyms]\n"
		"         60.00%  main_loop  [kernel.kallsyms]\n"));
	assert_non_null(strstr(out, " 30.00%  gamma  [kernel.kallsyms]\n"));
	assert_non_null(strstr(out,
		"# The most common call paths, outermost caller first\n#\n"
		" 60.00%  main_loop -> alpha -> beta\n"
		" 30.00%  main_loop -> gamma\n"));
	/* --cg-paths 2: the third path is not listed */
	assert_null(strstr(out, "10.00%  main_loop -> alpha -> [unknown]"));
	free(out);
	sw_stacks_free(&st);
	fx_free(fx);
}

static void test_flamegraph(void **state)
{
	struct sw_flame_opts o = { .title = "t<1>", .width = 1220,
				   .unit = "samples" };
	struct fixture *fx = fx_new();
	struct sw_stacks st;
	char *out = NULL;

	(void)state;
	fill_stacks(fx, &st);
	CAPTURE(out, assert_int_equal(sw_write_flamegraph(f, &st, &fx->sym, &o), 0));
	assert_true(!strncmp(out, "<?xml", 5));
	assert_non_null(strstr(out, "<svg version=\"1.1\" width=\"1220\""));
	assert_non_null(strstr(out, ">t&lt;1&gt;</text>"));
	assert_non_null(strstr(out, "function search()"));
	/* all = 1200 px; beta 6 of 10 samples = 720 px; gamma 3 = 360 px */
	assert_non_null(strstr(out, "<title>all (10 samples, 100.00%)</title><rect x=\"10.00\""));
	assert_non_null(strstr(out, "<title>beta_[k] (6 samples, 60.00%)</title>"));
	assert_non_null(strstr(out, "width=\"720.00\""));
	assert_non_null(strstr(out, "<title>gamma_[k] (3 samples, 30.00%)</title>"));
	assert_non_null(strstr(out, "width=\"360.00\""));
	assert_non_null(strstr(out, "</svg>\n"));
	free(out);
	sw_stacks_free(&st);
	fx_free(fx);
}

static const char *pstr(const Perftools__Profiles__Profile *p, int64_t i)
{
	assert_true(i >= 0 && (size_t)i < p->n_string_table);
	return p->string_table[i];
}

static void test_pprof(void **state)
{
	struct sw_pprof_info info = { .event = "cpu-clock", .time_ns = 5,
				      .duration_ns = 7, .period = 100,
				      .comment = "c" };
	struct fixture *fx = fx_new();
	Perftools__Profiles__Profile *p;
	struct sw_stacks st;
	uint8_t *buf = NULL;
	size_t len = 0, i, j;
	int64_t total = 0, beta = 0;

	(void)state;
	fill_stacks(fx, &st);
	assert_int_equal(sw_pprof_encode(&st, &fx->sym, &info, &buf, &len), 0);
	p = perftools__profiles__profile__unpack(NULL, len, buf);
	assert_non_null(p);
	assert_string_equal(p->string_table[0], "");
	assert_int_equal(p->n_sample_type, 2);
	assert_string_equal(pstr(p, p->sample_type[0]->type), "samples");
	assert_string_equal(pstr(p, p->sample_type[1]->type), "cpu");
	assert_string_equal(pstr(p, p->sample_type[1]->unit), "nanoseconds");
	assert_int_equal(p->period, 100);
	assert_int_equal(p->duration_nanos, 7);
	assert_int_equal(p->n_sample, 4);
	assert_int_equal(p->n_mapping, 1);
	assert_true(p->mapping[0]->has_functions);
	for (i = 0; i < p->n_sample; i++) {
		const Perftools__Profiles__Sample *s = p->sample[i];
		const Perftools__Profiles__Location *l = NULL;

		assert_int_equal(s->n_value, 2);
		assert_int_equal(s->value[1], 100 * s->value[0]);
		total += s->value[0];
		assert_int_equal(s->n_label, 1);
		assert_string_equal(pstr(p, s->label[0]->key), "comm");
		/* The innermost location's function. */
		for (j = 0; j < p->n_location; j++)
			if (p->location[j]->id == s->location_id[0])
				l = p->location[j];
		assert_non_null(l);
		assert_int_equal(l->n_line, 1);
		for (j = 0; j < p->n_function; j++)
			if (p->function[j]->id == l->line[0]->function_id &&
			    !strcmp(pstr(p, p->function[j]->name), "beta"))
				beta += s->value[0];
	}
	assert_int_equal(total, 10);
	assert_int_equal(beta, 6);
	perftools__profiles__profile__free_unpacked(p, NULL);
	free(buf);
	sw_stacks_free(&st);
	fx_free(fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sort_parse),
		cmocka_unit_test(test_aggregate),
		cmocka_unit_test(test_folded),
		cmocka_unit_test(test_callgraph),
		cmocka_unit_test(test_flamegraph),
		cmocka_unit_test(test_pprof),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
