// SPDX-License-Identifier: GPL-2.0
/*
 * test_pattern.c - util/pattern (function patterns against fixture copies
 * of available_filter_functions, the kprobe blacklist and kallsyms) and
 * util/probe-spec (durations, units, keys, the control lines written to
 * the probes file).
 */
#include <errno.h>
#include <stdbool.h>

#include "helpers.h"
#include "control/pattern.h"
#include "control/probe-spec.h"

struct fx {
	struct sw_pattern_src src;
	char *avail, *bl, *ks;
};

static int setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));

	fx->avail = read_text("fixtures/pattern/available_filter_functions");
	fx->bl = read_text("fixtures/pattern/blacklist");
	fx->ks = read_text("fixtures/pattern/kallsyms");
	fx->src.avail = fx->avail;
	fx->src.blacklist = fx->bl;
	fx->src.kallsyms = fx->ks;
	fx->src.self = "stopwatch";
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fx *fx = *state;

	free(fx->avail);
	free(fx->bl);
	free(fx->ks);
	free(fx);
	return 0;
}

static char *joined(char **v, size_t n)
{
	static char buf[1024];
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < n; i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%s",
				i ? " " : "", v[i]);
	return buf;
}

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int expand1(struct fx *fx, const char *pat, struct sw_expansion *e,
		   struct sw_err *err)
{
	const char *p[] = { pat };

	return sw_pattern_expand(p, 1, &fx->src, e, err);
}

static void test_glob_prefix(void **state)
{
	struct sw_expansion e;
	struct sw_err err = { "" };

	assert_int_equal(expand1(*state, "vfs_*", &e, &err), 0);
	/* Sorted, vfs_read once although listed twice, vfs_readv blacklisted. */
	assert_string_equal(joined(e.name, e.n),
			    "vfs_fsync vfs_fsync_range vfs_read vfs_write");
	/* Named: blacklisted, not traceable, a .cold part; not data objects. */
	assert_string_equal(joined(e.skipped, e.nskipped),
			    "vfs_notrace_helper vfs_readv vfs_write.cold");
	sw_expansion_free(&e);
}

static void test_glob_suffix_and_class(void **state)
{
	const char *p[] = { "*_read_iter", "tcp_v[46]_*" };
	struct fx *fx = *state;
	struct sw_expansion e;

	assert_int_equal(sw_pattern_expand(p, 2, &fx->src, &e, NULL), 0);
	assert_string_equal(joined(e.name, e.n),
			    "ext4_file_read_iter generic_file_read_iter tcp_v4_connect tcp_v4_rcv tcp_v6_connect");
	assert_int_equal(e.nskipped, 0);
	sw_expansion_free(&e);
}

static void test_module(void **state)
{
	struct sw_expansion e;

	assert_int_equal(expand1(*state, "ext4:ext4_*", &e, NULL), 0);
	assert_string_equal(joined(e.name, e.n),
			    "ext4_file_read_iter ext4_sync_file");
	assert_string_equal(joined(e.skipped, e.nskipped), "ext4_notrace");
	sw_expansion_free(&e);
	/* Only that module's: the vmlinux functions are not matched. */
	assert_int_equal(expand1(*state, "ext4:*_read_iter", &e, NULL), 0);
	assert_string_equal(joined(e.name, e.n), "ext4_file_read_iter");
	sw_expansion_free(&e);
}

static void test_plain_name(void **state)
{
	struct sw_expansion e;

	assert_int_equal(expand1(*state, "tcp_sendmsg", &e, NULL), 0);
	assert_string_equal(joined(e.name, e.n), "tcp_sendmsg");
	sw_expansion_free(&e);
	/*
	 * Named exactly, a text symbol that is not traceable but not
	 * blacklisted either (x86's __x64_sys_*) is left to the module.
	 */
	assert_int_equal(expand1(*state, "vfs_notrace_helper", &e, NULL), 0);
	assert_string_equal(joined(e.name, e.n), "vfs_notrace_helper");
	assert_int_equal(e.nskipped, 0);
	sw_expansion_free(&e);
	assert_int_equal(expand1(*state, "ext4:ext4_notrace", &e, NULL), 0);
	assert_string_equal(joined(e.name, e.n), "ext4_notrace");
	sw_expansion_free(&e);
	/* But never a glob, and never stopwatch's own. */
	assert_int_equal(expand1(*state, "vfs_notrace_helpe?", &e, NULL),
			 -EINVAL);
	assert_int_equal(expand1(*state, "sw_probe_add", &e, NULL), -EINVAL);
}

/*
 * Every name of the fixtures, as a plain name (found by halves among the
 * sorted lines) and as a glob matching only it (each line tried): the same
 * functions and the same skipped ones, or the same error; and all plain
 * names at once give the union of what each gives alone.
 */
static void test_plain_as_glob(void **state)
{
	struct fx *fx = *state;
	const char *texts[] = { fx->avail, fx->ks };
	const char *pats[64];
	char union_names[1024] = "", *each[64];
	size_t t, np = 0, i;

	for (t = 0; t < 2; t++) {
		const char *line = texts[t], *nl;

		for (; *line; line = nl + 1) {
			char name[128], mod[64], plain[200], glob[200];
			struct sw_expansion e1, e2;
			struct sw_err err1 = { "" }, err2 = { "" };
			char names1[1024];
			int r1, r2;

			nl = strchrnul(line, '\n');
			mod[0] = '\0';
			if (t == 0)
				r1 = sscanf(line, "%127s [%63[^]]]", name, mod);
			else
				r1 = sscanf(line, "%*s %*s %127s [%63[^]]]", name, mod);
			if (r1 >= 1 && !strpbrk(name, "*?[")) {
				snprintf(plain, sizeof(plain), "%s%s%s", mod,
					 *mod ? ":" : "", name);
				snprintf(glob, sizeof(glob), "%s%s[%c]%s", mod,
					 *mod ? ":" : "", name[0], name + 1);
				r1 = expand1(fx, plain, &e1, &err1);
				r2 = expand1(fx, glob, &e2, &err2);
				if (r1 == 0) {
					strcpy(names1, joined(e1.name, e1.n));
					if (r2 == 0) {
						assert_string_equal(names1,
							joined(e2.name, e2.n));
						assert_int_equal(e1.nskipped, e2.nskipped);
						sw_expansion_free(&e2);
					} else {
						/* named exactly, left to the module */
						assert_int_equal(e1.n, 1);
						assert_string_equal(names1, name);
					}
					if (t == 0 && !*mod && np < 64) {
						pats[np] = each[np] = strdup(plain);
						np++;
					}
					sw_expansion_free(&e1);
				} else {
					assert_int_equal(r1, r2);
				}
			}
			if (!*nl)
				break;
		}
	}
	/* The union, from one call with every traceable plain name. */
	{
		struct sw_expansion e;
		char *sorted[64];
		size_t n = 0, len = 0;

		for (i = 0; i < np; i++) {
			size_t j;

			for (j = 0; j < n && strcmp(sorted[j], each[i]); j++)
				;
			if (j == n)
				sorted[n++] = each[i];
		}
		qsort(sorted, n, sizeof(*sorted), cmp_strp);
		for (i = 0; i < n; i++)
			len += snprintf(union_names + len, sizeof(union_names) - len,
					"%s%s", i ? " " : "", sorted[i]);
		assert_int_equal(sw_pattern_expand(pats, np, &fx->src, &e, NULL), 0);
		assert_string_equal(joined(e.name, e.n), union_names);
		sw_expansion_free(&e);
	}
	for (i = 0; i < np; i++)
		free(each[i]);
}

/*
 * kallsyms read only when it can matter: every name of the fixtures, and
 * each with a module, glob or stopwatch's own: where
 * sw_pattern_needs_kallsyms() says no, the expansion without kallsyms is
 * the one with it (names, skipped names, error and message).
 */
static void test_lazy_kallsyms(void **state)
{
	struct fx *fx = *state;
	const char *texts[] = { fx->avail, fx->ks, fx->bl };
	struct sw_pattern_src lazy = fx->src;
	size_t t, nlazy = 0, nneed = 0;

	lazy.kallsyms = NULL;
	for (t = 0; t < 3; t++) {
		const char *line = texts[t], *nl;

		for (; *line; line = nl + 1) {
			char name[128], mod[64] = "", pats[3][200];
			int k, r;

			nl = strchrnul(line, '\n');
			if (t == 0)
				r = sscanf(line, "%127s [%63[^]]]", name, mod);
			else if (t == 1)
				r = sscanf(line, "%*s %*s %127s [%63[^]]]", name, mod);
			else
				r = sscanf(line, "%*s %127s", name);
			snprintf(pats[0], sizeof(pats[0]), "%s", name);
			snprintf(pats[1], sizeof(pats[1]), "%s:%s",
				 *mod ? mod : "vmlinux", name);
			snprintf(pats[2], sizeof(pats[2]), "%s*", name);
			for (k = 0; r >= 1 && k < 3; k++) {
				const char *p = pats[k];
				struct sw_expansion e1, e2;
				struct sw_err err1 = { "" }, err2 = { "" };
				int r1, r2;

				if (sw_pattern_needs_kallsyms(&p, 1, &fx->src)) {
					nneed++;
					continue;
				}
				/* Only plain names are ever read without it. */
				assert_int_equal(k, 0);
				nlazy++;
				r1 = sw_pattern_expand(&p, 1, &fx->src, &e1, &err1);
				r2 = sw_pattern_expand(&p, 1, &lazy, &e2, &err2);
				assert_int_equal(r1, r2);
				assert_string_equal(err1.msg, err2.msg);
				if (r1)
					continue;
				assert_string_equal(joined(e1.name, e1.n),
						    joined(e2.name, e2.n));
				assert_int_equal(e1.nskipped, e2.nskipped);
				sw_expansion_free(&e1);
				sw_expansion_free(&e2);
			}
			if (!*nl)
				break;
		}
	}
	assert_true(nlazy >= 5);
	assert_true(nneed >= 30);
	/* A blacklisted traceable name, and stopwatch's own, need it. */
	assert_true(sw_pattern_needs_kallsyms((const char *[]){ "vfs_readv" }, 1,
					      &fx->src));
	assert_true(sw_pattern_needs_kallsyms((const char *[]){ "sw_probe_add" },
					      1, &fx->src));
	assert_false(sw_pattern_needs_kallsyms((const char *[]){ "vfs_read",
						"vfs_write" }, 2, &fx->src));
}

static void test_errors(void **state)
{
	struct sw_expansion e;
	struct sw_err err = { "" };

	assert_int_equal(expand1(*state, "nosuch_*", &e, &err), -ENOENT);
	assert_string_equal(err.msg, "'nosuch_*' matches no kernel function");
	assert_int_equal(expand1(*state, "xfs:xfs_*", &e, &err), -ENOENT);
	assert_string_equal(err.msg,
			    "'xfs:xfs_*' matches no kernel function of module xfs");
	/* Matches, but only what cannot be probed: named. */
	assert_int_equal(expand1(*state, "kprobe_only_*", &e, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "matches 1 function, none of which can be probed"));
	assert_non_null(strstr(err.msg, ": kprobe_only_bl"));
	/* Stopwatch's own functions are never probed. */
	assert_int_equal(expand1(*state, "sw_probe_*", &e, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "sw_probe_add"));
	/* A blacklisted function named exactly is refused. */
	assert_int_equal(expand1(*state, "kprobe_only_bl", &e, &err), -EINVAL);
	assert_int_equal(expand1(*state, ":vfs_*", &e, &err), -EINVAL);
	assert_int_equal(expand1(*state, "vfs_read@x", &e, &err), -EINVAL);
	assert_int_equal(expand1(*state, "a:b:c", &e, &err), -EINVAL);
	assert_int_equal(sw_pattern_expand(NULL, 0, &((struct fx *)*state)->src,
					   &e, &err), -EINVAL);
}

/*
 * A pattern matching nothing after one named exactly that is not
 * traceable: the error is the second one's own, not the first's skips.
 */
static void test_errors_per_pattern(void **state)
{
	const char *p[] = { "vfs_notrace_helper", "nosuch_fn" };
	const char *q[] = { "vfs_notrace_helper", "kprobe_only_*" };
	struct fx *fx = *state;
	struct sw_expansion e;
	struct sw_err err = { "" };

	assert_int_equal(sw_pattern_expand(p, 2, &fx->src, &e, &err), -ENOENT);
	assert_string_equal(err.msg, "'nosuch_fn' matches no kernel function");
	assert_int_equal(sw_pattern_expand(q, 2, &fx->src, &e, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "'kprobe_only_*' matches 1 function, none of which can be probed"));
	assert_non_null(strstr(err.msg, ": kprobe_only_bl"));
	assert_null(strstr(err.msg, "vfs_notrace_helper"));
}

static void test_no_kallsyms(void **state)
{
	struct fx *fx = *state;
	struct sw_pattern_src src = fx->src;
	struct sw_expansion e;

	/* Without kallsyms, the blacklisted traceable ones are still named. */
	src.kallsyms = NULL;
	src.blacklist = fx->bl;
	assert_int_equal(sw_pattern_expand((const char *[]){ "vfs_*" }, 1,
					   &src, &e, NULL), 0);
	assert_string_equal(joined(e.skipped, e.nskipped), "vfs_readv");
	sw_expansion_free(&e);
}

static void test_skipped_print(void **state)
{
	struct sw_expansion e;
	char *out = NULL;

	assert_int_equal(expand1(*state, "vfs_*", &e, NULL), 0);
	CAPTURE(out, sw_pattern_skipped_print(f, "time", &e));
	assert_string_equal(out,
			    "stopwatch time: 3 matching functions cannot be probed (not traceable, kprobe blacklist or stopwatch's own), skipped: vfs_notrace_helper, vfs_readv, vfs_write.cold\n");
	free(out);
	sw_expansion_free(&e);
}

static void test_duration(void **state)
{
	uint64_t ns = 7;

	(void)state;
	assert_int_equal(sw_parse_duration("1ms", &ns), 0);
	assert_int_equal(ns, 1000000);
	assert_int_equal(sw_parse_duration("500us", &ns), 0);
	assert_int_equal(ns, 500000);
	assert_int_equal(sw_parse_duration("1.5s", &ns), 0);
	assert_int_equal(ns, 1500000000);
	assert_int_equal(sw_parse_duration("250ns", &ns), 0);
	assert_int_equal(ns, 250);
	assert_int_equal(sw_parse_duration("0", &ns), 0);
	assert_int_equal(ns, 0);
	assert_int_equal(sw_parse_duration("0.5us", &ns), 0);
	assert_int_equal(ns, 500);
	assert_int_equal(sw_parse_duration("100", &ns), -EINVAL);
	assert_int_equal(sw_parse_duration("1 ms", &ns), -EINVAL);
	assert_int_equal(sw_parse_duration("ms", &ns), -EINVAL);
	assert_int_equal(sw_parse_duration("-1ms", &ns), -EINVAL);
	assert_int_equal(sw_parse_duration("1h", &ns), -EINVAL);
	assert_int_equal(sw_parse_duration("0x10ms", &ns), -EINVAL);
	assert_int_equal(sw_parse_duration("0.1ns", &ns), -EINVAL);
	assert_int_equal(sw_parse_duration("99999999999s", &ns), -EINVAL);
	assert_int_equal(sw_parse_duration("", &ns), -EINVAL);
}

static void test_unit_tag_keys(void **state)
{
	uint64_t d;

	(void)state;
	assert_int_equal(sw_parse_unit("us", &d), 0);
	assert_int_equal(d, 1000);
	assert_int_equal(sw_parse_unit("s", &d), 0);
	assert_int_equal(d, 1000000000);
	assert_int_equal(sw_parse_unit("usec", &d), -EINVAL);
	assert_true(sw_tag_ok("t1234"));
	assert_true(sw_tag_ok("A_b9"));
	assert_false(sw_tag_ok(""));
	assert_false(sw_tag_ok("a-b"));
	assert_false(sw_tag_ok("abcdefghijabcdefghijabcdefghij12"));
	assert_true(sw_tag_ok("abcdefghijabcdefghijabcdefghij1"));
	assert_int_equal(sw_keys_check("comm", NULL), 0);
	assert_int_equal(sw_keys_check("comm,retval", NULL), 0);
	assert_int_equal(sw_keys_check("arg2", NULL), 0);
	assert_int_equal(sw_keys_check("caller,cpu", NULL), 0);
	assert_int_equal(sw_keys_check("arg9", NULL), -EINVAL);
	assert_int_equal(sw_keys_check("comm,comm", NULL), -EINVAL);
	assert_int_equal(sw_keys_check("comm,pid,cpu", NULL), -EINVAL);
	assert_int_equal(sw_keys_check("", NULL), -EINVAL);
	assert_int_equal(sw_keys_check("comm,", NULL), -EINVAL);
	assert_int_equal(sw_cpus_check("0-3,6", NULL), 0);
	assert_int_equal(sw_cpus_check("1", NULL), 0);
	assert_int_equal(sw_cpus_check("0-", NULL), -EINVAL);
	assert_int_equal(sw_cpus_check("a", NULL), -EINVAL);
	assert_int_equal(sw_comm_check("dd", NULL), 0);
	assert_int_equal(sw_comm_check("a b", NULL), -EINVAL);
	assert_int_equal(sw_comm_check("x=y", NULL), -EINVAL);
	assert_int_equal(sw_comm_check("0123456789abcdef", NULL), -EINVAL);
}

static void test_ctl_lines(void **state)
{
	char *names[] = { "vfs_read", "vfs_write" };
	struct sw_probe_opts o = { 0 };
	char *opts, *line;

	(void)state;
	opts = sw_probe_opts_format(&o);
	assert_string_equal(opts, "");
	free(opts);
	o.tgid = 7;
	o.follow = 9;
	o.comm = "dd";
	o.cgroup = 4242;
	o.cpus = "0-1,3";
	o.min_ns = 1000000;
	o.max_ns = 2000000;
	o.by = "comm,retval";
	opts = sw_probe_opts_format(&o);
	assert_string_equal(opts,
			    "tgid=7 follow=9 comm=dd cgroup=4242 cpus=0-1,3 min_ns=1000000 max_ns=2000000 by=comm,retval");
	line = sw_ctl_build('+', names, 2, "t42", opts);
	assert_string_equal(line,
			    "+vfs_read@t42 tgid=7 follow=9 comm=dd cgroup=4242 cpus=0-1,3 min_ns=1000000 max_ns=2000000 by=comm,retval +vfs_write@t42 tgid=7 follow=9 comm=dd cgroup=4242 cpus=0-1,3 min_ns=1000000 max_ns=2000000 by=comm,retval\n");
	free(line);
	/* Removing names the identities only. */
	line = sw_ctl_build('-', names, 2, "t42", opts);
	assert_string_equal(line, "-vfs_read@t42 -vfs_write@t42\n");
	free(line);
	line = sw_ctl_build('+', names, 1, NULL, NULL);
	assert_string_equal(line, "+vfs_read\n");
	free(line);
	free(opts);
	o = (struct sw_probe_opts){ .pid = 5 };
	opts = sw_probe_opts_format(&o);
	assert_string_equal(opts, "pid=5");
	free(opts);
}

static void test_probes_parse(void **state)
{
	char **v;
	size_t n;

	(void)state;
	assert_int_equal(sw_probes_parse("vfs_read\nvfs_write@t42 tgid=7 by=comm\n\n  tcp_sendmsg@keep\n",
					 &v, &n), 0);
	assert_string_equal(joined(v, n),
			    "vfs_read vfs_write@t42 tcp_sendmsg@keep");
	assert_null(sw_identity_tag(v[0]));
	assert_string_equal(sw_identity_tag(v[1]), "t42");
	sw_names_free(v, n);
	assert_int_equal(sw_probes_parse("", &v, &n), 0);
	assert_int_equal(n, 0);
	sw_names_free(v, n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_glob_prefix),
		cmocka_unit_test(test_glob_suffix_and_class),
		cmocka_unit_test(test_module),
		cmocka_unit_test(test_plain_name),
		cmocka_unit_test(test_plain_as_glob),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_errors_per_pattern),
		cmocka_unit_test(test_no_kallsyms),
		cmocka_unit_test(test_lazy_kallsyms),
		cmocka_unit_test(test_skipped_print),
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_unit_tag_keys),
		cmocka_unit_test(test_ctl_lines),
		cmocka_unit_test(test_probes_parse),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
