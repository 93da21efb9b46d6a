// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-events.c - "stopwatch events": the events stopwatch.ko counts
 * per call, with PMU-qualified names resolved through sysfs.
 *
 *   stopwatch events                    the events counted now
 *   stopwatch events set LIST           count these instead
 *   stopwatch events resolve LIST       print LIST as stopwatch.ko takes it
 *   stopwatch events list [PMU...]      the names there are
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "control/debugfs.h"
#include "control/probe-ctl.h"
#include "base/parse-options.h"
#include "control/pmu-events.h"
#include "control/pfm-events.h"

#define SW_EV_PREFIX "stopwatch events: "

struct sw_events_args {
	const char *debugfs;
	const char *sysfs;
	const char *verb;
	char **rest;
	int nrest;
};

static const struct sw_cmd_doc sw_events_doc = {
	.name = "events",
	.usage = "stopwatch events [--debugfs DIR]\n"
		 "       stopwatch events set [--sysfs DIR] [--debugfs DIR] LIST...\n"
		 "       stopwatch events resolve [--sysfs DIR] LIST...\n"
		 "       stopwatch events list [--sysfs DIR] [PMU...]",
	.about =
		"Show or change the perf events stopwatch.ko counts on every call of the\n"
		"probed functions.  Without a command, print the events counted now.\n"
		"\n"
		"Commands:\n"
		"  set LIST        count these events instead ('' for none); all or nothing\n"
		"  resolve LIST    print LIST the way stopwatch.ko takes it, e.g. for\n"
		"                  insmod stopwatch.ko events=...\n"
		"  list [PMU...]   perf's generic and cache names, PAPI presets, every\n"
		"                  PMU's named events, and the vendor events libpfm4 knows\n"
		"                  for this machine's PMUs\n"
		"\n"
		"LIST is comma-separated; several arguments are joined.  Its items:\n"
		"  cycles, instructions, cache-misses, cpu-clock, context-switches, ...\n"
		"  rNNNN, TYPE:CONFIG, ALIAS=TYPE:CONFIG      passed on unchanged\n"
		"  L1-dcache-load-misses, LLC-loads, ...      perf's cache events\n"
		"  PAPI_TOT_CYC, PAPI_L1_DCM, ...             PAPI presets, for this machine\n"
		"  INST_RETIRED, INST_RETIRED.ANY, inst_retired:any_p, PMU::EVENT:UMASK\n"
		"                      a vendor event of libpfm4's tables for this CPU,\n"
		"                      encoded by libpfm4 (LIBPFM_FORCE_PMU=arm_ac57 forces one)\n"
		"  PMU/NAME/           a named event of " SW_SYSFS_DEFAULT "/" SW_PMU_DEVICES "/PMU/events\n"
		"  PMU/TERM=VAL,.../   terms placed as PMU/format/TERM says; a bare TERM is 1;\n"
		"                      config=VAL sets the whole config\n"
		"PMU events become ALIAS=TYPE:CONFIG: ALIAS is NAME (inst_retired), else\n"
		"PMU-TERM-VAL-... (cpu-event-0x3c-umask-0x0); when that is too long for the\n"
		"module's 31 characters, PMU.rCONFIG (cpu.r2a401c0); '-2', '-3'... keep it unique.\n"
		"Only the config field reaches the module: a nonzero config1/2/3 term is an error.\n"
		"A name nobody knows is refused with the closest that exist.  Any item may end\n"
		"in perf's modifier :u (user mode only), :k (kernel mode only) or :uk (both),\n"
		"a PMU item also in /u (cpu/event=0x3c/u); columns show it as _u or _k\n"
		"(instructions:u as instructions_u_avg).\n",
	.examples =
		"  stopwatch events set cycles,instructions\n"
		"  stopwatch events set instructions:u,instructions:k  each mode apart\n"
		"  stopwatch events set 'cpu/event=0x3c,umask=0x0/,cache-misses'\n"
		"  stopwatch events set armv8_pmuv3/inst_retired/ armv8_pmuv3/cpu_cycles/\n"
		"  stopwatch events set ''                            count nothing\n"
		"  insmod stopwatch.ko events=$(stopwatch events resolve cpu/mem-loads,ldlat=0/)\n"
		"  stopwatch events resolve INST_RETIRED.ANY      vendor name, via libpfm4\n"
		"  stopwatch events list cpu\n",
};

/* Return: 0 to go on, 1 after --help, or a negative errno (reported). */
static int sw_events_parse_args(int argc, char **argv,
				struct sw_events_args *a)
{
	const struct sw_option opts[] = {
		SW_OPT_STRING(0, "sysfs", &a->sysfs, "DIR",
			      "the sysfs root holding " SW_PMU_DEVICES "\n"
			      "(default $" SW_SYSFS_ENV ", else " SW_SYSFS_DEFAULT ")"),
		SW_OPT_DEBUGFS(&a->debugfs),
		SW_OPT_END(),
	};
	int n = sw_parse_options(argc, argv, &sw_events_doc, opts);

	if (n <= 0)
		return n < 0 ? n : 1;
	a->verb = n < argc ? argv[n++] : "show";
	a->rest = argv + n;
	a->nrest = argc - n;
	if (strcmp(a->verb, "show") && strcmp(a->verb, "set") &&
	    strcmp(a->verb, "resolve") && strcmp(a->verb, "list")) {
		fprintf(stderr,
			SW_EV_PREFIX "'%s' is not a command (set, resolve, list; none to show)\n",
			a->verb);
		return -EINVAL;
	}
	if (!strcmp(a->verb, "show") && a->nrest) {
		fprintf(stderr, SW_EV_PREFIX "'show' takes no arguments\n");
		return -EINVAL;
	}
	if ((!strcmp(a->verb, "set") || !strcmp(a->verb, "resolve")) &&
	    !a->nrest) {
		fprintf(stderr,
			SW_EV_PREFIX "%s: give an event list (e.g. cycles,instructions)\n",
			a->verb);
		return -EINVAL;
	}
	return 0;
}

/* The arguments joined with commas, resolved. */
static int sw_events_resolve_args(const struct sw_events_args *a, char **out)
{
	struct sw_err err = { "" };
	char *list = NULL;
	size_t len = 0;
	FILE *f;
	int i, ret;

	*out = NULL;
	f = open_memstream(&list, &len);
	if (!f)
		return -ENOMEM;
	for (i = 0; i < a->nrest; i++)
		fprintf(f, "%s%s", i ? "," : "", a->rest[i]);
	if (fclose(f)) {
		free(list);
		return -ENOMEM;
	}
	ret = sw_pmu_events_resolve(sw_sysfs_root(a->sysfs), list, out, &err);
	if (ret)
		fprintf(stderr, SW_EV_PREFIX "%s\n", err.msg);
	free(list);
	return ret;
}

static int sw_events_show(const struct sw_events_args *a)
{
	struct sw_err err = { "" };
	char *dir = NULL, *text = NULL;
	int ret;

	ret = sw_debugfs_find(a->debugfs, &dir, &err);
	if (ret) {
		fprintf(stderr, SW_EV_PREFIX "%s\n", err.msg);
		goto cleanup;
	}
	ret = sw_debugfs_read(dir, "events", &text, NULL, &err);
	if (ret) {
		fprintf(stderr, SW_EV_PREFIX "%s%s\n", err.msg,
			ret == -ENOENT ?
			" (this stopwatch.ko counts no events; rebuild and reload it)" :
			"");
		goto cleanup;
	}
	fputs(text, stdout);
cleanup:
	free(text);
	free(dir);
	return ret;
}

/* Writes @line to the events file; on refusal says why, with last_error. */
static int sw_events_write(const char *dir, const char *line)
{
	struct sw_err err = { "" };
	int ret;

	ret = sw_ctl_write_ext(dir, "events", line,
			       SW_CTL_REPLACE | SW_CTL_QUOTE, &err);
	if (ret)
		fprintf(stderr, SW_EV_PREFIX "%s%s\n", err.msg,
			ret == -ENOENT ?
			" (this stopwatch.ko counts no events; rebuild and reload it)" :
			"");
	return ret;
}

static int sw_events_set(const struct sw_events_args *a)
{
	struct sw_err err = { "" };
	char *dir = NULL, *list = NULL, *line = NULL;
	int ret;

	ret = sw_events_resolve_args(a, &list);
	if (ret)
		goto cleanup;
	ret = sw_debugfs_find(a->debugfs, &dir, &err);
	if (ret) {
		fprintf(stderr, SW_EV_PREFIX "%s\n", err.msg);
		goto cleanup;
	}
	if (asprintf(&line, "%s\n", list) < 0) {
		line = NULL;
		ret = -ENOMEM;
		goto cleanup;
	}
	ret = sw_events_write(dir, line);
cleanup:
	free(line);
	free(list);
	free(dir);
	return ret;
}

static int sw_events_print_resolved(const struct sw_events_args *a)
{
	char *list = NULL;
	int ret;

	ret = sw_events_resolve_args(a, &list);
	if (!ret)
		printf("%s\n", list);
	free(list);
	return ret;
}

/* One PMU: its type and terms, then its named events. */
static int sw_events_list_pmu(const char *sysfs, const char *pmu)
{
	char **terms = NULL, **evs = NULL, rel[NAME_MAX + 16], text[256];
	size_t nterms = 0, nevs = 0, i;
	int ret;

	ret = sw_pmu_read_attr(sysfs, pmu, "type", text, sizeof(text));
	if (ret)
		snprintf(text, sizeof(text), "?");
	printf("%s (type %s)", pmu, text);
	ret = sw_pmu_dir_names(sysfs, pmu, "format", &terms, &nterms);
	if (ret)
		goto cleanup;
	ret = sw_pmu_dir_names(sysfs, pmu, "events", &evs, &nevs);
	if (ret)
		goto cleanup;
	if (!nterms)
		printf(": no terms (%s/config=N/)", pmu);
	else
		printf(" terms:");
	for (i = 0; i < nterms; i++) {
		snprintf(rel, sizeof(rel), "format/%s", terms[i]);
		if (sw_pmu_read_attr(sysfs, pmu, rel, text, sizeof(text)))
			snprintf(text, sizeof(text), "?");
		printf(" %s=%s", terms[i], text);
	}
	printf("\n");
	if (!nevs)
		printf("  (no named events)\n");
	for (i = 0; i < nevs; i++) {
		int w;

		snprintf(rel, sizeof(rel), "events/%s", evs[i]);
		if (sw_pmu_read_attr(sysfs, pmu, rel, text, sizeof(text)))
			snprintf(text, sizeof(text), "?");
		w = printf("  %s/%s/", pmu, evs[i]);
		printf("%*s%s\n", w < 40 ? 40 - w : 1, "", text);
	}
cleanup:
	sw_strv_free(terms, nterms);
	sw_strv_free(evs, nevs);
	if (ret)
		fprintf(stderr, SW_EV_PREFIX "cannot read PMU %s: %s\n", pmu,
			strerror(-ret));
	return ret;
}

/* perf's cache events and PAPI's presets, and what each is here. */
static void sw_events_list_named(const char *sysfs)
{
	char name[64], core[256], why[128];
	struct sw_err err;
	uint32_t type;
	uint64_t config;
	size_t i;

	if (!sw_core_pmu(sysfs, core, sizeof(core)))
		snprintf(core, sizeof(core), "none");
	printf("\nCache events (PERF_TYPE_HW_CACHE; hardware PMU: %s):\n", core);
	for (i = 0; sw_cache_event_name(i, name, sizeof(name)); i++) {
		if (sw_named_event_resolve(sysfs, name, &type, &config, &err))
			snprintf(why, sizeof(why), "not available here");
		else
			snprintf(why, sizeof(why), "3:0x%" PRIx64, config);
		printf("  %-38s%s\n", name, why);
	}
	printf("\nPAPI presets (each the generic event it maps to, on this machine):\n");
	for (i = 0; i < sw_papi_presets_n; i++) {
		const struct sw_papi_preset *p = &sw_papi_presets[i];
		int w;

		w = printf("  %s", p->name);
		printf("%*s%s: %s%s\n", w < 16 ? 16 - w : 1, "", p->about,
		       p->event,
		       sw_named_event_resolve(sysfs, p->name, &type, &config,
					      &err) ?
		       " (not available here)" : "");
	}
}

/* One vendor event or unit mask of sw_events_list_vendor(). */
static int sw_events_list_pfm_one(const struct sw_pfm_event *ev, void *arg)
{
	int w;

	(void)arg;
	if (!ev->umask)
		w = printf("  %s", ev->name);
	else
		w = printf("    :%s%s", ev->umask, ev->dfl ? " (default)" : "");
	printf("%*s0x%-5" PRIx64 " %s\n", w < 40 ? 40 - w : 1, "", ev->code,
	       ev->desc ? ev->desc : "");
	return 0;
}

/* libpfm4's table of the vendor PMU @pmu. */
static int sw_events_list_vendor(const char *pmu, bool core)
{
	int ret;

	printf("%s (vendor events from libpfm4, %s PMU; give NAME, NAME:UMASK or %s::NAME):\n",
	       pmu, core ? "core" : "uncore", pmu);
	ret = sw_pfm_events(pmu, sw_events_list_pfm_one, NULL);
	if (ret)
		fprintf(stderr, SW_EV_PREFIX "cannot list libpfm4's PMU %s: %s\n",
			pmu, strerror(-ret));
	return ret;
}

/* Why there are no vendor events to list (@ret from sw_pfm_pmus()). */
static void sw_events_no_vendor(int ret, size_t n)
{
	if (ret == -EOPNOTSUPP)
		printf("Vendor events: none, this stopwatch was built without libpfm4 (make PFM=1)\n");
	else if (ret == -ELIBACC)
		printf("Vendor events: none, %s\n", sw_pfm_missing());
	else if (ret)
		printf("Vendor events: none, libpfm4 did not start (%s)\n",
		       strerror(-ret));
	else if (!n)
		printf("Vendor events: none, libpfm4 knows no PMU of this CPU (%s=NAME takes one of its tables, e.g. arm_ac57)\n",
		       SW_PFM_FORCE_ENV);
}

static int sw_events_list(const struct sw_events_args *a)
{
	const char *sysfs = sw_sysfs_root(a->sysfs);
	char **pmus = NULL, **vpmus = NULL, core[256];
	size_t npmus = 0, nvpmus = 0, nvcore = 0, i, k;
	int ret, vret, j, shown = 0;
	bool has_core;

	if (!a->nrest) {
		printf("Generic events (stopwatch.ko knows them by name):\n");
		for (i = 0; i < sw_generic_events_n; i++)
			printf("  %-38s%s\n", sw_generic_events[i].name,
			       sw_generic_events[i].hw ? "hardware" : "software");
		printf("  %-38s%s\n", "rNNNN", "raw hardware event, hexadecimal");
		printf("  %-38s%s\n", "TYPE:CONFIG", "perf_event_attr type and config");
		printf("  %-38s%s\n", "ALIAS=TYPE:CONFIG", "the same, shown as ALIAS");
		sw_events_list_named(sysfs);
	}
	ret = sw_pmu_names(sysfs, &pmus, &npmus);
	if (ret) {
		fprintf(stderr, SW_EV_PREFIX "cannot list the PMUs in %s/%s: %s\n",
			sysfs, SW_PMU_DEVICES, strerror(-ret));
		goto cleanup;
	}
	vret = sw_pfm_pmus(&vpmus, &nvpmus, &nvcore);
	if (vret == -ENOMEM) {
		ret = vret;
		goto cleanup;
	}
	has_core = sw_core_pmu(sysfs, core, sizeof(core));
	if (!a->nrest)
		printf("\nPMUs (%s/%s), their terms and named events:\n", sysfs,
		       SW_PMU_DEVICES);
	for (j = 0; j < a->nrest; j++) {
		for (i = 0; i < npmus; i++)
			if (!strcmp(pmus[i], a->rest[j]))
				break;
		for (k = 0; k < nvpmus; k++)
			if (!strcmp(vpmus[k], a->rest[j]))
				break;
		if (i == npmus && k == nvpmus) {
			fprintf(stderr, SW_EV_PREFIX "no PMU '%s' in %s/%s nor among libpfm4's of this CPU",
				a->rest[j], sysfs, SW_PMU_DEVICES);
			for (k = 0; k < nvpmus; k++)
				fprintf(stderr, "%s%s", k ? ", " : " (", vpmus[k]);
			fprintf(stderr, "%s\n", nvpmus ? ")" : "");
			ret = -ENOENT;
			goto cleanup;
		}
	}
	/* Each sysfs PMU; the core one followed by libpfm4's core tables. */
	for (i = 0; i < npmus; i++) {
		bool want = !a->nrest;

		for (j = 0; j < a->nrest; j++)
			if (!strcmp(pmus[i], a->rest[j]))
				want = true;
		if (!want)
			continue;
		if (!a->nrest || shown++)
			putchar('\n');
		ret = sw_events_list_pmu(sysfs, pmus[i]);
		if (ret)
			goto cleanup;
		if (!a->nrest || !has_core || strcmp(pmus[i], core))
			continue;
		for (k = 0; k < nvcore; k++) {
			putchar('\n');
			ret = sw_events_list_vendor(vpmus[k], true);
			if (ret)
				goto cleanup;
		}
	}
	/* libpfm4's PMUs: all of them, or those named. */
	for (k = 0; k < nvpmus; k++) {
		bool want = !a->nrest;

		for (j = 0; j < a->nrest; j++)
			if (!strcmp(vpmus[k], a->rest[j]))
				want = true;
		if (!want)
			continue;
		if (!a->nrest || shown++)
			putchar('\n');
		ret = sw_events_list_vendor(vpmus[k], k < nvcore);
		if (ret)
			goto cleanup;
	}
	if (!a->nrest && (vret || !nvpmus)) {
		putchar('\n');
		sw_events_no_vendor(vret, nvpmus);
	}
cleanup:
	sw_strv_free(pmus, npmus);
	sw_strv_free(vpmus, nvpmus);
	return ret;
}

int cmd_events(int argc, char **argv)
{
	struct sw_events_args a = { 0 };
	int ret;

	ret = sw_events_parse_args(argc, argv, &a);
	if (ret)
		return ret > 0 ? 0 : ret;
	if (!strcmp(a.verb, "set"))
		return sw_events_set(&a);
	if (!strcmp(a.verb, "resolve"))
		return sw_events_print_resolved(&a);
	if (!strcmp(a.verb, "list"))
		return sw_events_list(&a);
	return sw_events_show(&a);
}
