// SPDX-License-Identifier: GPL-2.0
/*
 * pfm-events.c - vendor event names through libpfm4 (see pfm-events.h).
 *
 * Kept apart from pmu-events.c: libpfm4's <perfmon/perf_event.h> has its
 * own struct perf_event_attr, which <linux/perf_event.h> would clash with.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perfmon/pfmlib_perf_event.h>

#include "base/dlib.h"
#include "control/pfm-events.h"

#define SW_PFM_NAME_MAX 256

#if SW_DLOPEN
/*
 * libpfm4 is loaded by the first name that needs it (dlib.h): its event
 * tables are most of the relocations a run of the program would do.
 */
static struct {
	__typeof__(pfm_initialize) *initialize;
	__typeof__(pfm_strerror) *strerror;
	__typeof__(pfm_find_event) *find_event;
	__typeof__(pfm_get_event_info) *get_event_info;
	__typeof__(pfm_get_event_attr_info) *get_event_attr_info;
	__typeof__(pfm_get_event_next) *get_event_next;
	__typeof__(pfm_get_os_event_encoding) *get_os_event_encoding;
	__typeof__(pfm_get_pmu_info) *get_pmu_info;
} sw_pfm;

static const struct sw_dlsym sw_pfm_syms[] = {
	{ "pfm_initialize", &sw_pfm.initialize },
	{ "pfm_strerror", &sw_pfm.strerror },
	{ "pfm_find_event", &sw_pfm.find_event },
	{ "pfm_get_event_info", &sw_pfm.get_event_info },
	{ "pfm_get_event_attr_info", &sw_pfm.get_event_attr_info },
	{ "pfm_get_event_next", &sw_pfm.get_event_next },
	{ "pfm_get_os_event_encoding", &sw_pfm.get_os_event_encoding },
	{ "pfm_get_pmu_info", &sw_pfm.get_pmu_info },
	{ NULL, NULL }
};

static struct sw_dlib sw_pfm_lib = {
	.soname = "libpfm.so.4",
	.package = "libpfm4",
	.syms = sw_pfm_syms,
};

#define pfm_initialize (*sw_pfm.initialize)
#define pfm_strerror (*sw_pfm.strerror)
#define pfm_find_event (*sw_pfm.find_event)
#define pfm_get_event_info (*sw_pfm.get_event_info)
#define pfm_get_event_attr_info (*sw_pfm.get_event_attr_info)
#define pfm_get_event_next (*sw_pfm.get_event_next)
#define pfm_get_os_event_encoding (*sw_pfm.get_os_event_encoding)
#define pfm_get_pmu_info (*sw_pfm.get_pmu_info)

static int sw_pfm_load(struct sw_err *err)
{
	return sw_dlib_load(&sw_pfm_lib, err);
}

const char *sw_pfm_missing(void)
{
	return sw_pfm_lib.state < 0 ? sw_pfm_lib.why : NULL;
}
#else
static int sw_pfm_load(struct sw_err *err)
{
	(void)err;
	return 0;
}

const char *sw_pfm_missing(void)
{
	return NULL;
}
#endif

bool sw_pfm_built(void)
{
	return true;
}

/* pfm_initialize() once; its result every time after. */
static int sw_pfm_init(struct sw_err *err)
{
	static int state;	/* 0 not tried, 1 ready, else a PFM_ERR_ */
	int ret;

	ret = sw_pfm_load(err);
	if (ret)
		return ret;
	if (!state) {
		ret = pfm_initialize();
		state = ret == PFM_SUCCESS ? 1 : ret;
	}
	if (state == 1)
		return 0;
	return sw_err_set(err, -EIO, "libpfm4 did not initialize: %s",
			  pfm_strerror(state));
}

/* @name with every '.' as ':' (perf's Intel EVENT.UMASK), or false. */
static bool sw_pfm_dots(const char *name, char *buf, size_t len)
{
	size_t i, l = strlen(name);

	if (!strchr(name, '.') || l >= len)
		return false;
	for (i = 0; i <= l; i++)
		buf[i] = name[i] == '.' ? ':' : name[i];
	return true;
}

/* libpfm4's encoding of @name for perf_event_open(), user and kernel. */
static int sw_pfm_encode(const char *name, struct perf_event_attr *attr,
			 char **fstr)
{
	pfm_perf_encode_arg_t arg;

	memset(attr, 0, sizeof(*attr));
	memset(&arg, 0, sizeof(arg));
	arg.size = sizeof(arg);
	arg.attr = attr;
	arg.fstr = fstr;
	return pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3,
					 PFM_OS_PERF_EVENT, &arg);
}

/*
 * " (its unit masks: A, B, ...)" for the event of @name, which libpfm4
 * refused for its unit masks or modifiers; "" when there is none to say.
 */
static const char *sw_pfm_umasks(const char *name, char *buf, size_t len)
{
	pfm_event_attr_info_t ainfo;
	pfm_event_info_t einfo;
	char base[SW_PFM_NAME_MAX], *colon;
	const char *ev;
	size_t used;
	int idx, a, n = 0;

	buf[0] = '\0';
	snprintf(base, sizeof(base), "%s", name);
	ev = strstr(base, "::");
	colon = strpbrk(ev ? ev + 2 : base, ":.");
	if (colon)
		*colon = '\0';
	idx = pfm_find_event(base);
	memset(&einfo, 0, sizeof(einfo));
	einfo.size = sizeof(einfo);
	if (idx < 0 ||
	    pfm_get_event_info(idx, PFM_OS_PERF_EVENT, &einfo) != PFM_SUCCESS)
		return buf;
	used = (size_t)snprintf(buf, len, " (its unit masks:");
	for (a = 0; a < einfo.nattrs && used < len; a++) {
		memset(&ainfo, 0, sizeof(ainfo));
		ainfo.size = sizeof(ainfo);
		if (pfm_get_event_attr_info(idx, a, PFM_OS_PERF_EVENT, &ainfo) !=
		    PFM_SUCCESS || ainfo.type != PFM_ATTR_UMASK)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s %s",
					 n++ ? "," : "", ainfo.name);
	}
	if (!n)
		buf[0] = '\0';
	else if (used + 2 < len)
		strcat(buf, ")");
	else
		snprintf(buf + len - 6, 6, "...)");
	return buf;
}

int sw_pfm_resolve(const char *name, uint32_t *type, uint64_t *config,
		   char *fstr, size_t flen, struct sw_err *err)
{
	struct perf_event_attr attr;
	char dots[SW_PFM_NAME_MAX], *full = NULL;
	const char *used = name;
	int ret;

	if (!*name || strchr(name, '/') || strchr(name, '='))
		return 1;
	/* libpfm4 that does not start knows no name: the caller says why. */
	if (sw_pfm_init(NULL))
		return 1;
	ret = sw_pfm_encode(name, &attr, &full);
	if (ret != PFM_SUCCESS && sw_pfm_dots(name, dots, sizeof(dots))) {
		used = dots;
		ret = sw_pfm_encode(dots, &attr, &full);
	}
	if (ret == PFM_ERR_NOTFOUND) {
		ret = 1;
		goto cleanup;
	}
	if (ret != PFM_SUCCESS) {
		char umasks[200];

		ret = sw_err_set(err, -EINVAL, "%s: libpfm4 cannot encode %s: %s%s",
				 name, used, pfm_strerror(ret),
				 sw_pfm_umasks(used, umasks, sizeof(umasks)));
		goto cleanup;
	}
	if (attr.config1 || attr.config2) {
		ret = sw_err_set(err, -EINVAL,
				 "%s: libpfm4's %s sets config1/config2 (0x%" PRIx64 "/0x%" PRIx64 "), and stopwatch.ko takes the config field only",
				 name, full ? full : used,
				 (uint64_t)attr.config1, (uint64_t)attr.config2);
		goto cleanup;
	}
	if (attr.exclude_user || attr.exclude_kernel) {
		ret = sw_err_set(err, -EINVAL,
				 "%s: libpfm4's modifiers leave out %s mode; give the mode as perf's trailing :u or :k",
				 name, attr.exclude_user ? "user" : "kernel");
		goto cleanup;
	}
	*type = attr.type;
	*config = attr.config;
	if (fstr)
		snprintf(fstr, flen, "%s", full ? full : used);
	ret = 0;
cleanup:
	free(full);
	return ret;
}

/* The PMU's info, when libpfm4 has it and it is present. */
static bool sw_pfm_pmu_info(pfm_pmu_t p, pfm_pmu_info_t *info)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	return pfm_get_pmu_info(p, info) == PFM_SUCCESS && info->is_present;
}

int sw_pfm_pmus(char ***names, size_t *n, size_t *core)
{
	pfm_pmu_info_t info;
	char **v = NULL;
	size_t cnt = 0, ncore = 0, i;
	int ret, pass, p;

	*names = NULL;
	*n = 0;
	ret = sw_pfm_init(NULL);
	if (ret)
		return ret;
	/* Core PMUs first, then the uncore ones: two passes over the table. */
	for (pass = 0; pass < 2; pass++) {
		pfm_for_all_pmus(p) {
			char **nv;

			if (!sw_pfm_pmu_info((pfm_pmu_t)p, &info) ||
			    info.type == PFM_PMU_TYPE_OS_GENERIC ||
			    (info.type == PFM_PMU_TYPE_CORE) != !pass)
				continue;
			nv = realloc(v, (cnt + 1) * sizeof(*v));
			if (!nv)
				goto nomem;
			v = nv;
			v[cnt] = strdup(info.name);
			if (!v[cnt])
				goto nomem;
			cnt++;
		}
		if (!pass)
			ncore = cnt;
	}
	*names = v;
	*n = cnt;
	if (core)
		*core = ncore;
	return 0;
nomem:
	for (i = 0; i < cnt; i++)
		free(v[i]);
	free(v);
	return -ENOMEM;
}

int sw_pfm_events(const char *pmu,
		  int (*fn)(const struct sw_pfm_event *ev, void *arg),
		  void *arg)
{
	pfm_event_attr_info_t ainfo;
	pfm_event_info_t einfo;
	pfm_pmu_info_t info;
	struct sw_pfm_event ev;
	int ret, p, i, a;

	ret = sw_pfm_init(NULL);
	if (ret)
		return ret;
	pfm_for_all_pmus(p) {
		if (sw_pfm_pmu_info((pfm_pmu_t)p, &info) &&
		    !strcmp(info.name, pmu))
			break;
	}
	if (p >= PFM_PMU_MAX)
		return -ENOENT;
	for (i = info.first_event; i != -1; i = pfm_get_event_next(i)) {
		memset(&einfo, 0, sizeof(einfo));
		einfo.size = sizeof(einfo);
		if (pfm_get_event_info(i, PFM_OS_PERF_EVENT, &einfo) !=
		    PFM_SUCCESS)
			continue;
		memset(&ev, 0, sizeof(ev));
		ev.pmu = info.name;
		ev.name = einfo.name;
		ev.desc = einfo.desc;
		ev.code = einfo.code;
		ret = fn(&ev, arg);
		if (ret)
			return ret;
		for (a = 0; a < einfo.nattrs; a++) {
			memset(&ainfo, 0, sizeof(ainfo));
			ainfo.size = sizeof(ainfo);
			if (pfm_get_event_attr_info(i, a, PFM_OS_PERF_EVENT,
						    &ainfo) != PFM_SUCCESS ||
			    ainfo.type != PFM_ATTR_UMASK)
				continue;
			ev.umask = ainfo.name;
			ev.desc = ainfo.desc;
			ev.code = ainfo.code;
			ev.dfl = ainfo.is_dfl;
			ret = fn(&ev, arg);
			if (ret)
				return ret;
		}
	}
	return 0;
}
