// SPDX-License-Identifier: GPL-2.0
/*
 * test_pfm_events.c - vendor event names resolved through libpfm4: for
 * this host's CPU, every event libpfm4 lists resolves to what libpfm4
 * itself encodes for perf_event_open(); EVENT.UMASK is EVENT:UMASK; a
 * name nobody knows and a user-only modifier are refused.  Built without
 * libpfm4 (PFM=0), the program knows no vendor name and says so.
 */
#include <errno.h>
#include <ctype.h>
#include <inttypes.h>

#include "helpers.h"
#include "control/pmu-events.h"
#include "control/pfm-events.h"

#if SW_HAVE_PFM
#include <perfmon/pfmlib_perf_event.h>
#endif

#define SYSFS "fixtures/sysfs"

/* The list @name resolved for the module, or NULL with @ret set. */
static char *resolve(const char *name, int *ret, struct sw_err *err)
{
	char *out = NULL;

	*ret = sw_pmu_events_resolve(SYSFS, name, &out, err);
	return *ret ? NULL : out;
}

static void test_unknown_refused(void **state)
{
	struct sw_err err = { "" };
	char *out;
	int ret;

	(void)state;
	out = resolve("NO_SUCH_VENDOR_EVENT_ZZ", &ret, &err);
	assert_null(out);
	assert_int_equal(ret, -EINVAL);
	assert_non_null(strstr(err.msg,
			       "NO_SUCH_VENDOR_EVENT_ZZ: unknown event"));
	assert_int_equal(sw_pfm_resolve("NO_SUCH_VENDOR_EVENT_ZZ", NULL, NULL,
					NULL, 0, NULL), 1);
}

#if SW_HAVE_PFM

struct walk {
	int compared;		/* events whose encodings were compared */
	char with_umask[256];	/* "PMU::EVENT:UMASK" of a non-default umask */
	char event_only[256];	/* "PMU::EVENT" that libpfm4 encodes alone */
};

/* libpfm4's own encoding of @name, user and kernel mode. */
static int pfm_encode(const char *name, struct perf_event_attr *attr)
{
	pfm_perf_encode_arg_t arg;

	memset(attr, 0, sizeof(*attr));
	memset(&arg, 0, sizeof(arg));
	arg.size = sizeof(arg);
	arg.attr = attr;
	return pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3,
					 PFM_OS_PERF_EVENT, &arg);
}

/* Every event (and unit mask): ours equals libpfm4's, list included. */
static int check_one(const struct sw_pfm_event *ev, void *arg)
{
	struct walk *w = arg;
	struct perf_event_attr attr;
	struct sw_err err = { "" };
	char name[256], want[320], *out;
	uint64_t config;
	uint32_t type;
	int ret;

	if (ev->umask)
		snprintf(name, sizeof(name), "%s::%s:%s", ev->pmu, ev->name,
			 ev->umask);
	else
		snprintf(name, sizeof(name), "%s::%s", ev->pmu, ev->name);
	if (pfm_encode(name, &attr) != PFM_SUCCESS || attr.config1 ||
	    attr.config2)
		return 0;
	ret = sw_pfm_resolve(name, &type, &config, NULL, 0, &err);
	if (ret)
		fail_msg("%s: %d: %s", name, ret, err.msg);
	assert_int_equal(type, attr.type);
	assert_int_equal(config, attr.config);
	if (!w->compared++) {
		/* The first one through the whole list path too. */
		out = resolve(name, &ret, &err);
		if (ret)
			fail_msg("%s: %d: %s", name, ret, err.msg);
		char alias[32], *p;
		size_t l;

		snprintf(alias, sizeof(alias), "%s", strstr(name, "::") + 2);
		for (p = alias; *p; p++)
			if (*p == ':')
				*p = '.';
		for (l = strlen(alias); l > 1 && strchr("-_.", alias[l - 1]); l--)
			alias[l - 1] = '\0';
		snprintf(want, sizeof(want), "%s=%" PRIu32 ":0x%" PRIx64,
			 alias, attr.type, (uint64_t)attr.config);
		assert_string_equal(out, want);
		free(out);
	}
	if (!ev->umask && !w->event_only[0] && !strchr(ev->name, '.'))
		snprintf(w->event_only, sizeof(w->event_only), "%s", name);
	if (ev->umask && !ev->dfl && !w->with_umask[0] &&
	    !strchr(ev->name, '.') && !strchr(ev->umask, '.'))
		snprintf(w->with_umask, sizeof(w->with_umask), "%s", name);
	return 0;
}

/* The first PMU libpfm4 finds here: a vendor one, else its "perf". */
static const char *host_pmu(char ***pmus, size_t *n)
{
	assert_int_equal(sw_pfm_pmus(pmus, n, NULL), 0);
	return *n ? (*pmus)[0] : "perf";
}

static void test_host_events_match_libpfm(void **state)
{
	struct walk w;
	char **pmus = NULL;
	size_t n = 0;
	const char *pmu;

	(void)state;
	assert_true(sw_pfm_built());
	memset(&w, 0, sizeof(w));
	pmu = host_pmu(&pmus, &n);
	print_message("libpfm4 PMU of this host: %s\n", pmu);
	assert_int_equal(sw_pfm_events(pmu, check_one, &w), 0);
	print_message("%d events and unit masks encoded as libpfm4 does\n",
		      w.compared);
	assert_true(w.compared > 0);
	sw_strv_free(pmus, n);
	assert_int_equal(sw_pfm_events("no_such_pmu", check_one, &w), -ENOENT);
}

/* EVENT.UMASK (perf's Intel spelling) is EVENT:UMASK; case is free. */
static void test_dots_case_and_alias(void **state)
{
	struct walk w;
	struct perf_event_attr attr;
	struct sw_err err = { "" };
	char **pmus = NULL, dots[256], *p, *out, want[320];
	const char *pmu;
	uint64_t config;
	uint32_t type;
	size_t n = 0;
	int ret;

	(void)state;
	memset(&w, 0, sizeof(w));
	pmu = host_pmu(&pmus, &n);
	assert_int_equal(sw_pfm_events(pmu, check_one, &w), 0);
	sw_strv_free(pmus, n);
	if (!w.with_umask[0]) {
		skip();
		return;
	}
	assert_int_equal(pfm_encode(w.with_umask, &attr), PFM_SUCCESS);
	/* "EVENT.UMASK", in lower case, without the PMU. */
	snprintf(dots, sizeof(dots), "%s", strstr(w.with_umask, "::") + 2);
	for (p = dots; *p; p++)
		*p = *p == ':' ? '.' : (char)tolower((unsigned char)*p);
	assert_int_equal(sw_pfm_resolve(dots, &type, &config, NULL, 0, &err),
			 0);
	assert_int_equal(type, attr.type);
	assert_int_equal(config, attr.config);
	/* Its alias: the same, cut to the module's 31 characters. */
	out = resolve(w.with_umask, &ret, &err);
	if (ret)
		fail_msg("%s: %d: %s", w.with_umask, ret, err.msg);
	snprintf(dots, sizeof(dots), "%s", strstr(w.with_umask, "::") + 2);
	for (p = dots; *p; p++)
		if (*p == ':')
			*p = '.';
	snprintf(want, sizeof(want), "=%" PRIu32 ":0x%" PRIx64, attr.type,
		 (uint64_t)attr.config);
	p = strstr(out, want);
	assert_non_null(p);
	*p = '\0';
	assert_string_equal(out, dots);
	free(out);
}

/*
 * perf's ":u" after a vendor name: the same encoding, the mode passed on
 * to the module ("NAME_u=TYPE:CONFIG:u"); libpfm4's EVENT:UMASK keeps its
 * colon; a modifier that is not one is refused, named.
 */
static void test_modifier(void **state)
{
	struct walk w;
	struct sw_err err = { "" };
	char **pmus = NULL, name[300], *out, *plain;
	size_t n = 0;
	int ret;

	(void)state;
	memset(&w, 0, sizeof(w));
	assert_int_equal(sw_pfm_events(host_pmu(&pmus, &n), check_one, &w), 0);
	sw_strv_free(pmus, n);
	if (!w.event_only[0] || !n) {
		skip();
		return;
	}
	plain = resolve(w.event_only, &ret, &err);
	assert_non_null(plain);
	snprintf(name, sizeof(name), "%s:u", w.event_only);
	out = resolve(name, &ret, &err);
	assert_int_equal(ret, 0);
	assert_non_null(out);
	assert_non_null(strchr(plain, '='));
	snprintf(name, sizeof(name), "%s:u", strchr(plain, '=') + 1);
	assert_string_equal(strchr(out, '=') + 1, name);
	assert_non_null(strstr(out, "_u="));
	free(out);
	free(plain);
	snprintf(name, sizeof(name), "%s:x", w.event_only);
	out = resolve(name, &ret, &err);
	assert_null(out);
	assert_int_equal(ret, -EINVAL);
	assert_non_null(strstr(err.msg, "'x' is not a modifier"));
}

#else

static void test_not_built(void **state)
{
	char **pmus = NULL;
	size_t n = 1;

	(void)state;
	assert_false(sw_pfm_built());
	assert_int_equal(sw_pfm_pmus(&pmus, &n, NULL), -EOPNOTSUPP);
	assert_null(pmus);
	assert_int_equal(n, 0);
}

#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unknown_refused),
#if SW_HAVE_PFM
		cmocka_unit_test(test_host_events_match_libpfm),
		cmocka_unit_test(test_dots_case_and_alias),
		cmocka_unit_test(test_modifier),
#else
		cmocka_unit_test(test_not_built),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
