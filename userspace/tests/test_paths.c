// SPDX-License-Identifier: GPL-2.0
/*
 * test_paths.c - the call paths file of stopwatch.ko (util/paths.c): the
 * parser on files captured from the module (tests/fixtures/paths/), and
 * the tree, folded, SVG and pprof writers; malformed files.
 */
#include "helpers.h"
#include "profile.pb-c.h"
#include "output/paths.h"

#define F1 "sw_test_f1"
#define F2 "sw_test_f1;sw_test_f2"
#define F3 "sw_test_f1;sw_test_f2;sw_test_f3"

static const struct sw_path *find(const struct sw_paths *p, const char *path)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (!strcmp(p->path[i].path, path))
			return &p->path[i];
	fail_msg("no path %s", path);
	return NULL;
}

static void load(const char *file, struct sw_paths *p)
{
	struct sw_err err = { "" };
	char *text = read_text(file);

	if (sw_paths_parse(text, p, &err))
		fail_msg("%s: %s", file, err.msg);
	free(text);
}

/* The chain f1 -> f2 -> f3 (f3 twice per f2), 10 runs, on x86_64. */
static void test_chain_x86(void **state)
{
	const struct sw_path *a, *b, *c;
	struct sw_paths p;

	(void)state;
	load("fixtures/paths/x86_64/paths", &p);
	assert_true(p.enabled);
	assert_int_equal(p.n, 3);
	assert_int_equal(p.nodes, 3);
	assert_int_equal(p.max_nodes, 1024);
	assert_int_equal(sw_paths_dropped(&p), 0);
	assert_int_equal(p.nev, 0);
	a = find(&p, F1);
	b = find(&p, F2);
	c = find(&p, F3);
	assert_int_equal(a->depth, 1);
	assert_int_equal(c->depth, 3);
	assert_int_equal(a->calls, 10);
	assert_int_equal(b->calls, 10);
	assert_int_equal(c->calls, 20);
	assert_int_equal(a->self_ns, a->total_ns - b->total_ns);
	assert_int_equal(b->self_ns, b->total_ns - c->total_ns);
	assert_int_equal(c->self_ns, c->total_ns);
	sw_paths_free(&p);
}

/* The same under arm64 -icount, with instructions counted. */
static void test_chain_events(void **state)
{
	const struct sw_path *a, *b, *c;
	struct sw_paths p;

	(void)state;
	load("fixtures/paths/arm64/paths", &p);
	assert_int_equal(p.nev, 1);
	assert_string_equal(p.ev_names[0], "instructions");
	a = find(&p, F1);
	b = find(&p, F2);
	c = find(&p, F3);
	assert_int_equal(c->calls, 2 * a->calls);
	/* Every call measured; self = total - callees' totals. */
	assert_int_equal(a->ev[0], a->calls);
	assert_int_equal(c->ev[0], c->calls);
	assert_int_equal(a->ev[2], a->ev[1] - b->ev[1]);
	assert_int_equal(b->ev[2], b->ev[1] - c->ev[1]);
	assert_int_equal(c->ev[2], c->ev[1]);
	sw_paths_free(&p);
}

static void test_folded(void **state)
{
	uint64_t sum = 0, v;
	struct sw_paths p;
	char *out = NULL, *line, *save = NULL;
	int lines = 0;

	(void)state;
	load("fixtures/paths/x86_64/paths", &p);
	CAPTURE(out, assert_int_equal(sw_paths_print_folded(f, &p), 0));
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *sp = strrchr(line, ' ');

		assert_non_null(sp);
		v = strtoull(sp + 1, NULL, 10);
		*sp = '\0';
		assert_int_equal(v, find(&p, line)->self_ns);
		sum += v;
		lines++;
	}
	assert_int_equal(lines, 3);
	/* Self times add up to the root's total. */
	assert_int_equal(sum, find(&p, F1)->total_ns);
	free(out);
	sw_paths_free(&p);
}

static void test_tree(void **state)
{
	struct sw_paths_opts o = { .human = false };
	struct sw_paths p;
	char *out = NULL, want[128];

	(void)state;
	load("fixtures/paths/x86_64/paths", &p);
	CAPTURE(out, assert_int_equal(sw_paths_print_tree(f, &p, &o), 0));
	assert_non_null(strstr(out, "100.00%  sw_test_f1\n"));
	assert_non_null(strstr(out, "%    sw_test_f2\n"));
	assert_non_null(strstr(out, "%      sw_test_f3\n"));
	/* Parent before child. */
	assert_true(strstr(out, "  sw_test_f1\n") < strstr(out, "  sw_test_f2\n"));
	assert_true(strstr(out, "  sw_test_f2\n") < strstr(out, "  sw_test_f3\n"));
	snprintf(want, sizeof(want), "%12d %14llu", 20,
		 (unsigned long long)find(&p, F3)->total_ns);
	assert_non_null(strstr(out, want));
	free(out);
	o.human = true;
	CAPTURE(out, assert_int_equal(sw_paths_print_tree(f, &p, &o), 0));
	assert_true(strstr(out, " us ") || strstr(out, " ms ") ||
		    strstr(out, " ns "));
	free(out);
	sw_paths_free(&p);
}

static void test_svg(void **state)
{
	struct sw_paths p;
	char *out = NULL;

	(void)state;
	load("fixtures/paths/x86_64/paths", &p);
	CAPTURE(out, assert_int_equal(sw_paths_write_svg(f, &p, "t"), 0));
	assert_non_null(strstr(out, "<svg"));
	assert_non_null(strstr(out, "sw_test_f3"));
	assert_non_null(strstr(out, "</svg>"));
	free(out);
	sw_paths_free(&p);
}

static void test_pprof(void **state)
{
	Perftools__Profiles__Profile *prof;
	struct sw_paths p;
	uint8_t *buf = NULL;
	size_t len = 0, i;
	int found = 0;

	(void)state;
	load("fixtures/paths/x86_64/paths", &p);
	assert_int_equal(sw_paths_pprof(&p, &buf, &len), 0);
	prof = perftools__profiles__profile__unpack(NULL, len, buf);
	assert_non_null(prof);
	assert_int_equal(prof->n_sample_type, 3);
	assert_string_equal(prof->string_table[prof->sample_type[2]->type], "self");
	assert_string_equal(prof->string_table[prof->default_sample_type], "self");
	assert_int_equal(prof->n_sample, 3);
	assert_int_equal(prof->n_function, 3);
	for (i = 0; i < prof->n_sample; i++) {
		Perftools__Profiles__Sample *s = prof->sample[i];

		assert_int_equal(s->n_value, 3);
		if (s->n_location_id == 3) {
			/* Innermost first: f3's location, whose function is f3. */
			uint64_t loc = s->location_id[0];
			Perftools__Profiles__Location *l = prof->location[loc - 1];
			Perftools__Profiles__Function *fn =
				prof->function[l->line[0]->function_id - 1];

			assert_string_equal(prof->string_table[fn->name], "sw_test_f3");
			assert_int_equal(s->value[0], 20);
			assert_int_equal(s->value[2], (int64_t)find(&p, F3)->self_ns);
			found++;
		}
	}
	assert_int_equal(found, 1);
	perftools__profiles__profile__free_unpacked(prof, NULL);
	free(buf);
	sw_paths_free(&p);
}

static void bad(const char *text, const char *msg)
{
	struct sw_err err = { "" };
	struct sw_paths p;

	assert_int_equal(sw_paths_parse(text, &p, &err), -EINVAL);
	if (!strstr(err.msg, msg))
		fail_msg("'%s' does not say '%s'", err.msg, msg);
	sw_paths_free(&p);
}

static void test_malformed(void **state)
{
	(void)state;
	bad("paths_format 2\nevents -\npath calls total_ns self_ns\n",
	    "format 2");
	bad("enabled 1\npath calls total_ns self_ns\n", "not a paths file");
	bad("paths_format 1\nevents -\n", "not a paths file");
	bad("paths_format 1\nevents -\npath calls total_ns self_ns\na 1 2\n",
	    "3 values expected");
	bad("paths_format 1\nevents -\npath calls total_ns self_ns\na 1 2 x\n",
	    "'x' is not a count");
	bad("paths_format 1\nevents -\npath calls total_ns self_ns\na 1 2 3 4\n",
	    "more than 3 values");
	bad("paths_format 1\nevents -\nnodes\npath calls total_ns self_ns\n",
	    "line 3");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chain_x86),
		cmocka_unit_test(test_chain_events),
		cmocka_unit_test(test_folded),
		cmocka_unit_test(test_tree),
		cmocka_unit_test(test_svg),
		cmocka_unit_test(test_pprof),
		cmocka_unit_test(test_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
