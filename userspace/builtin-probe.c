// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-probe.c - "stopwatch probe add|remove|list": long-lived probes
 * with the pattern, filter and key syntax of "stopwatch time", written to
 * stopwatch.ko's probes file in one all-or-nothing write.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "control/debugfs.h"
#include "base/parse-options.h"
#include "control/pattern.h"
#include "control/probe-ctl.h"
#include "control/probe-spec.h"
#include "control/span-btf.h"
#include "control/target.h"
#include "control/upoint.h"

struct sw_probe_args {
	struct sw_target t;
	const char *by, *module, *debugfs, *tag;
	const char *attach;
};

static const char sw_probe_about[] =
	"Manage long-lived probes of stopwatch.ko: 'add' expands the patterns\n"
	"(as 'stopwatch time' does) and adds a probe on each function, with the\n"
	"filters and keys given, in one all-or-nothing write; 'remove' removes\n"
	"the probes whose identity (FUNCTION or FUNCTION@TAG) matches; 'list'\n"
	"shows each probe's identity and options.  Read the statistics with\n"
	"'stopwatch stat'.\n";

static const char sw_probe_examples[] =
	"  stopwatch probe add 'vfs_*' --by comm -p 1234\n"
	"  stopwatch probe add --tag slow --min 1ms tcp_sendmsg\n"
	"  stopwatch probe add -p 1234 libc:malloc /usr/bin/app:0x1139\n"
	"  stopwatch probe add --attach kretprobe schedule\n"
	"  stopwatch probe list\n"
	"  stopwatch probe remove --tag slow\n"
	"  stopwatch probe remove 'vfs_*'\n";

static const struct sw_cmd_doc sw_probe_doc = {
	.name = "probe",
	.usage = "stopwatch probe add [OPTIONS] PATTERN...\n"
		 "       stopwatch probe remove [--tag TAG] [IDENTITY-PATTERN...]\n"
		 "       stopwatch probe list [--tag TAG]",
	.about = sw_probe_about,
	.examples = sw_probe_examples,
};

/* The --help of 'probe' alone: the options of every subcommand. */
static int sw_probe_help(FILE *f, const struct sw_option *add_opts,
			 const struct sw_option *other_opts)
{
	const struct sw_option add_group = SW_OPT_GROUP("Options of add:");
	const struct sw_option other_group =
		SW_OPT_GROUP("\nOptions of remove and list:");
	const struct sw_option end = SW_OPT_END();
	size_t na = 0, no = 0;
	struct sw_option *all;

	while (add_opts[na].type != SW_OPT_TYPE_END)
		na++;
	while (other_opts[no].type != SW_OPT_TYPE_END)
		no++;
	all = calloc(na + no + 3, sizeof(*all));
	if (!all)
		return -ENOMEM;
	all[0] = add_group;
	memcpy(all + 1, add_opts, na * sizeof(*all));
	all[na + 1] = other_group;
	memcpy(all + na + 2, other_opts, no * sizeof(*all));
	all[na + no + 2] = end;
	sw_usage_print(f, &sw_probe_doc, all);
	free(all);
	return 0;
}

/*
 * Return: the index of the first argument, 0 after --help, or -errno.
 * With @help, prints the help of every subcommand to it and returns 0.
 */
static int sw_probe_parse(int argc, char **argv, struct sw_probe_args *a,
			  bool add, FILE *help)
{
	const struct sw_option add_opts[] = {
		SW_OPT_NAME(0, "tag", &a->tag, "TAG",
			    "tag the probes: FUNCTION@TAG ([A-Za-z0-9_], 31 at most)",
			    "a tag"),
		SW_OPT_TARGET(&a->t, "calls"),
		SW_OPT_NAME(0, "by", &a->by, "KEY[,KEY2]",
			    "split by pid, tgid, comm, cpu, caller, argN, retval",
			    "keys"),
		SW_OPT_MODULE(&a->module),
		SW_OPT_ATTACH(&a->attach),
		SW_OPT_DEBUGFS(&a->debugfs),
		SW_OPT_END(),
	};
	const struct sw_option other_opts[] = {
		SW_OPT_NAME(0, "tag", &a->tag, "TAG", "only probes tagged TAG",
			    "a tag"),
		SW_OPT_DEBUGFS(&a->debugfs),
		SW_OPT_END(),
	};
	struct sw_err err = { "" };
	int n, ret = 0;

	if (help)
		return sw_probe_help(help, add_opts, other_opts);
	n = sw_parse_options(argc, argv, &sw_probe_doc,
			     add ? add_opts : other_opts);
	if (n <= 0)
		return n;
	if (a->tag && !sw_tag_ok(a->tag))
		ret = sw_err_set(&err, -EINVAL,
				 "invalid tag '%s': expected 1 to %d of [A-Za-z0-9_]",
				 a->tag, SW_TAG_MAX);
	if (!ret && a->by)
		ret = sw_keys_check(a->by, &err);
	if (!ret)
		ret = sw_target_check(&a->t, &err);
	if (!ret && a->attach)
		ret = sw_attach_check(a->attach, &err);
	if (ret) {
		fprintf(stderr, "stopwatch probe: %s\n", err.msg);
		return ret;
	}
	return n;
}

static int sw_probe_add(int argc, char **argv)
{
	struct sw_probe_args a = { 0 };
	struct sw_pattern_src src = { 0 };
	struct sw_expansion e = { 0 };
	struct sw_probe_opts po = { 0 };
	struct sw_err err = { "" };
	char *dir = NULL, *opts = NULL, *line = NULL;
	unsigned int maxp;
	bool loaded;
	int n, ret;

	n = sw_probe_parse(argc, argv, &a, true, NULL);
	if (n <= 0)
		return n;
	if (n == argc) {
		fprintf(stderr,
			"stopwatch probe add: no function pattern given (e.g. 'vfs_*')\n");
		return -EINVAL;
	}
	ret = sw_points_expand(argv + n, argc - n, (pid_t)a.t.pid, NULL, &src,
			       &e, &err);
	if (ret)
		goto fail;
	sw_pattern_skipped_print(stderr, "probe add", &e);
	ret = sw_btf_attach_extra(&e, a.attach);
	if (ret) {
		sw_err_set(&err, ret, "out of memory");
		goto fail;
	}
	if (!a.debugfs) {
		ret = sw_module_ensure(a.module, e.n, &loaded, &err);
		if (ret)
			goto fail;
		maxp = sw_module_max_probes();
		if (maxp && e.n > maxp) {
			ret = sw_err_set(&err, -E2BIG,
					 "the patterns match %zu probeable functions: needs max_probes=%zu; this load has %u",
					 e.n, e.n, maxp);
			goto fail;
		}
	}
	ret = sw_debugfs_find(a.debugfs, &dir, &err);
	if (ret)
		goto fail;
	po.by = a.by;
	ret = sw_target_apply(&a.t, &po, &err);
	if (ret)
		goto fail;
	opts = sw_probe_opts_format(&po);
	line = opts ? sw_ctl_build_ext('+', e.name, e.extra, e.n, a.tag, opts) :
		      NULL;
	if (!line) {
		ret = sw_err_set(&err, -ENOMEM, "out of memory");
		goto fail;
	}
	ret = sw_ctl_write(dir, "probes", line, &err);
	if (ret)
		goto fail;
	fprintf(stderr, "stopwatch probe add: %zu probe%s added\n", e.n,
		e.n == 1 ? "" : "s");
	goto cleanup;
fail:
	fprintf(stderr, "stopwatch probe add: %s\n", err.msg);
cleanup:
	free(line);
	free(opts);
	free(dir);
	sw_expansion_free(&e);
	sw_pattern_src_free(&src);
	return ret;
}

/* Does identity @id match one of @pat (or any with none) and @tag? */
static bool sw_id_selected(const char *id, const char *tag, char **pat,
			   int npat)
{
	const char *t = sw_identity_tag(id);
	char fn[512];
	int i;

	if (tag && (!t || strcmp(t, tag)))
		return false;
	if (!npat)
		return true;
	snprintf(fn, sizeof(fn), "%.*s", (int)strcspn(id, "@"), id);
	/*
	 * FUNCTION@TAG patterns match the identity; a bare FUNCTION pattern
	 * the untagged probes (or those of --tag): others' stay.
	 */
	for (i = 0; i < npat; i++)
		if (strchr(pat[i], '@') ? !fnmatch(pat[i], id, 0) :
					  (tag || !t) && !fnmatch(pat[i], fn, 0))
			return true;
	return false;
}

static int sw_probe_remove_list(int argc, char **argv, bool remove)
{
	struct sw_probe_args a = { 0 };
	struct sw_err err = { "" };
	char *dir = NULL, *text = NULL, *line = NULL, **ids = NULL, **sel;
	size_t nids = 0, nsel = 0, i;
	const char *l, *nl;
	int n, ret;

	n = sw_probe_parse(argc, argv, &a, false, NULL);
	if (n <= 0)
		return n;
	if (!remove && n < argc) {
		fprintf(stderr, "stopwatch probe list: unexpected argument '%s'\n",
			argv[n]);
		return -EINVAL;
	}
	if (remove && n == argc && !a.tag) {
		fprintf(stderr,
			"stopwatch probe remove: say which probes: IDENTITY patterns, --tag TAG or both\n");
		return -EINVAL;
	}
	ret = sw_debugfs_find(a.debugfs, &dir, &err);
	if (!ret)
		ret = sw_debugfs_read(dir, "probes", &text, NULL, &err);
	if (ret) {
		fprintf(stderr, "stopwatch probe: %s\n", err.msg);
		goto cleanup;
	}
	if (!remove) {
		/* The lines as the module shows them: identity and options. */
		for (l = text; *l; l = nl + 1) {
			char id[512];

			nl = strchrnul(l, '\n');
			snprintf(id, sizeof(id), "%.*s",
				 (int)strcspn(l, " \t\n,"), l);
			if (*id && sw_id_selected(id, a.tag, NULL, 0))
				printf("%.*s\n", (int)(nl - l), l);
			if (!*nl)
				break;
		}
		goto cleanup;
	}
	ret = sw_probes_parse(text, &ids, &nids);
	sel = ret ? NULL : calloc(nids + 1, sizeof(*sel));
	if (!sel) {
		ret = -ENOMEM;
		goto cleanup;
	}
	for (i = 0; i < nids; i++)
		if (sw_id_selected(ids[i], a.tag, argv + n, argc - n))
			sel[nsel++] = ids[i];
	if (!nsel) {
		fprintf(stderr, "stopwatch probe remove: no probe matches\n");
		free(sel);
		ret = -ENOENT;
		goto cleanup;
	}
	line = sw_ctl_build('-', sel, nsel, NULL, NULL);
	free(sel);
	if (!line) {
		ret = -ENOMEM;
		goto cleanup;
	}
	ret = sw_ctl_write(dir, "probes", line, &err);
	if (ret)
		fprintf(stderr, "stopwatch probe remove: %s\n", err.msg);
	else
		fprintf(stderr, "stopwatch probe remove: %zu probe%s removed\n",
			nsel, nsel == 1 ? "" : "s");
cleanup:
	sw_names_free(ids, nids);
	free(line);
	free(text);
	free(dir);
	return ret;
}

int cmd_probe(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		struct sw_probe_args a = { 0 };
		int ret = sw_probe_parse(0, NULL, &a, false,
					 argc < 2 ? stderr : stdout);

		return argc < 2 && !ret ? -EINVAL : ret;
	}
	if (!strcmp(argv[1], "add"))
		return sw_probe_add(argc - 1, argv + 1);
	if (!strcmp(argv[1], "remove") || !strcmp(argv[1], "rm"))
		return sw_probe_remove_list(argc - 1, argv + 1, true);
	if (!strcmp(argv[1], "list") || !strcmp(argv[1], "ls"))
		return sw_probe_remove_list(argc - 1, argv + 1, false);
	fprintf(stderr,
		"stopwatch probe: unknown subcommand '%s': expected add, remove or list\n",
		argv[1]);
	return -EINVAL;
}
