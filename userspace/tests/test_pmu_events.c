// SPDX-License-Identifier: GPL-2.0
/*
 * test_pmu_events.c - PMU-qualified events resolved through the fake sysfs
 * of fixtures/sysfs (an x86-like "cpu" PMU, "armv8_pmuv3", "amd_df" with a
 * split event field, "power" with .scale/.unit companions, "software"
 * with no format at all), and what comes out fed to stopwatch.ko's own
 * parser (lib/events.c, compiled in).
 */
#include <errno.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"
#include "control/pmu-events.h"
#include "events.h"

#define SYSFS "fixtures/sysfs"

/* Resolves @spec, which must succeed, into @ev. */
static void resolve_ok(const char *spec, struct sw_pmu_event *ev)
{
	struct sw_err err = { "" };
	int ret = sw_pmu_event_resolve(SYSFS, spec, ev, &err);

	if (ret)
		fail_msg("%s: %d: %s", spec, ret, err.msg);
}

/* Resolves the list @list, which must succeed, and checks the output. */
static void list_is(const char *list, const char *want)
{
	struct sw_err err = { "" };
	char *out = NULL;
	int ret = sw_pmu_events_resolve(SYSFS, list, &out, &err);

	if (ret)
		fail_msg("%s: %d: %s", list, ret, err.msg);
	assert_string_equal(out, want);
	free(out);
}

/* Resolving @list fails with @want_ret and exactly @want_msg. */
static void list_fails(const char *list, int want_ret, const char *want_msg)
{
	struct sw_err err = { "" };
	char *out = (char *)1;

	assert_int_equal(sw_pmu_events_resolve(SYSFS, list, &out, &err),
			 want_ret);
	assert_null(out);
	assert_string_equal(err.msg, want_msg);
}

static void test_named_events(void **state)
{
	struct sw_pmu_event ev;

	(void)state;
	resolve_ok("cpu/cpu-cycles/", &ev);
	assert_int_equal(ev.type, 4);
	assert_int_equal(ev.config, 0x3c);
	assert_string_equal(ev.alias, "cpu-cycles");
	resolve_ok("armv8_pmuv3/inst_retired/", &ev);
	assert_int_equal(ev.type, 8);
	assert_int_equal(ev.config, 0x8);
	assert_string_equal(ev.alias, "inst_retired");
	resolve_ok("armv8_pmuv3/cpu_cycles/", &ev);
	assert_int_equal(ev.type, 8);
	assert_int_equal(ev.config, 0x11);
	assert_string_equal(ev.alias, "cpu_cycles");
	resolve_ok("power/energy-pkg/", &ev);
	assert_int_equal(ev.type, 9);
	assert_int_equal(ev.config, 0x2);
	/* perf matches event names whatever their case; sysfs's spelling. */
	resolve_ok("cpu/CPU-Cycles/", &ev);
	assert_int_equal(ev.config, 0x3c);
	assert_string_equal(ev.alias, "cpu-cycles");
}

static void test_terms(void **state)
{
	struct sw_pmu_event ev;

	(void)state;
	resolve_ok("cpu/event=0x3c,umask=0x0/", &ev);
	assert_int_equal(ev.type, 4);
	assert_int_equal(ev.config, 0x3c);
	assert_string_equal(ev.alias, "cpu-event-0x3c-umask-0x0");
	/* Decimal values, every x86 field, bare terms meaning 1:
	 * 0xc0 | 0x01 << 8 | 1 << 18 | 1 << 21 | 1 << 23 | 2 << 24. */
	resolve_ok("cpu/event=192,umask=1,edge,any,inv,cmask=2/", &ev);
	assert_int_equal(ev.config, 0x02a401c0);
	assert_string_equal(ev.alias, "cpu.r2a401c0");
	/* Only the alias is bounded: 25 characters fit. */
	resolve_ok("cpu/ event=0xd1 , umask=0x20 /", &ev);
	assert_int_equal(ev.config, 0x20d1);
	assert_string_equal(ev.alias, "cpu-event-0xd1-umask-0x20");
	resolve_ok("armv8_pmuv3/event=0xffff/", &ev);
	assert_int_equal(ev.config, 0xffff);
	/* config=N sets the whole field; named terms then set their bits. */
	resolve_ok("cpu/config=0xff0000ff,event=0x3c/", &ev);
	assert_int_equal(ev.config, 0xff00003c);
	resolve_ok("software/config=0/", &ev);
	assert_int_equal(ev.type, 1);
	assert_int_equal(ev.config, 0);
	assert_string_equal(ev.alias, "software-config-0");
	resolve_ok("software/config=9/", &ev);
	assert_int_equal(ev.config, 9);
}

static void test_event_with_terms(void **state)
{
	struct sw_pmu_event ev;

	(void)state;
	/* The user's terms override the named event's, before or after it. */
	resolve_ok("cpu/cpu-cycles,umask=0x2/", &ev);
	assert_int_equal(ev.config, 0x23c);
	assert_string_equal(ev.alias, "cpu-cycles-umask-0x2");
	resolve_ok("cpu/umask=0x2,cpu-cycles/", &ev);
	assert_int_equal(ev.config, 0x23c);
	resolve_ok("cpu/cpu-cycles,event=0x3d/", &ev);
	assert_int_equal(ev.config, 0x3d);
	/* config1 terms of value 0 are fine: nothing is lost. */
	resolve_ok("cpu/mem-loads,ldlat=0/", &ev);
	assert_int_equal(ev.type, 4);
	assert_int_equal(ev.config, 0x1cd);
	assert_string_equal(ev.alias, "mem-loads-ldlat-0");
	resolve_ok("cpu/event=0x3c,ldlat=0,config1=0,config2=0x0/", &ev);
	assert_int_equal(ev.config, 0x3c);
}

static void test_split_ranges(void **state)
{
	struct sw_pmu_event ev;

	(void)state;
	/* amd_df event=config:0-7,32-35,59-60: bit 8 of the value lands on 32. */
	resolve_ok("amd_df/event=0x1a7/", &ev);
	assert_int_equal(ev.type, 11);
	assert_int_equal(ev.config, 0x1000000a7ULL);
	resolve_ok("amd_df/event=0x7ff,umask=0x3/", &ev);
	assert_int_equal(ev.config, 0x7000003ffULL);
	/* All 14 bits: 8 + 4 + 2. */
	resolve_ok("amd_df/event=0x3fff/", &ev);
	assert_int_equal(ev.config, 0x1800000f000000ffULL);
	resolve_ok("amd_df/event=0x2000/", &ev);
	assert_int_equal(ev.config, 0x1000000000000000ULL);
	/* A config as wide as 64 bits does not shorten the alias. */
	resolve_ok("amd_df/event=0x3fff/", &ev);
	assert_int_equal(ev.config, 0x1800000f000000ffULL);
	assert_string_equal(ev.alias, "amd_df-event-0x3fff");
}

static void test_pass_through(void **state)
{
	(void)state;
	list_is("cycles,instructions,r1c2,4:0x3c,x=4:5,cpu-clock",
		"cycles,instructions,r1c2,4:0x3c,x=4:5,cpu-clock");
	/* An unknown name is refused here, not left to the module. */
	list_fails("cycles,bogus-name", -EINVAL,
		   "bogus-name: unknown event (all there are: stopwatch events list)");
	/* Modifiers are the module's to parse. */
	list_is("cycles:u,instructions:k,r1c2:uk,4:0x3c:u,x=4:5:k",
		"cycles:u,instructions:k,r1c2:uk,4:0x3c:u,x=4:5:k");
	/* Blanks separate like commas; empty items vanish. */
	list_is(" cycles  instructions,,\tcs\n", "cycles,instructions,cs");
	list_is("", "");
	list_is(" , ", "");
}

static void test_modifiers(void **state)
{
	struct sw_event_spec evs[SW_MAX_EVENTS];
	struct sw_err err = { "" };
	const char *bad;
	char *out;

	(void)state;
	/* perf's PMU/TERMS/u and PMU/TERMS/:u; the alias says the mode. */
	list_is("cpu/cpu-cycles/u,armv8_pmuv3/inst_retired/:k",
		"cpu-cycles_u=4:0x3c:u,inst_retired_k=8:0x8:k");
	list_is("cpu/cpu-cycles/uk", "cpu-cycles=4:0x3c");
	/* One event in several modes is several events. */
	list_is("cpu/cpu-cycles/u,cpu/cpu-cycles/k,cpu/cpu-cycles/",
		"cpu-cycles_u=4:0x3c:u,cpu-cycles_k=4:0x3c:k,cpu-cycles=4:0x3c");
	list_fails("cpu/cpu-cycles/u,cpu/event=0x3c/:u", -EEXIST,
		   "cpu/cpu-cycles/u and cpu/event=0x3c/ are the same event (4:0x3c)");
	/* Cache events and PAPI presets. */
	list_is("L1-dcache-loads:u,PAPI_TOT_INS:k,PAPI_TOT_INS",
		"L1-dcache-loads_u=3:0x0:u,PAPI_TOT_INS_k=0:0x1:k,PAPI_TOT_INS=0:0x1");
	/* A plain name with a modifier already taken: the alias moves on. */
	list_is("cpu-cycles:u,cpu/cpu-cycles/u",
		"cpu-cycles:u,cpu-cycles_u-2=4:0x3c:u");
	/* Bad modifiers name themselves. */
	list_fails("cycles,cycles:x", -EINVAL,
		   "cycles:x: 'x' is not a modifier stopwatch.ko takes: u (user mode only), k (kernel mode only), uk (both, as without one)");
	list_fails("cycles:", -EINVAL,
		   "cycles:: '' is not a modifier stopwatch.ko takes: u (user mode only), k (kernel mode only), uk (both, as without one)");
	list_fails("cycles:uu", -EINVAL,
		   "cycles:uu: 'uu' is not a modifier stopwatch.ko takes: u (user mode only), k (kernel mode only), uk (both, as without one)");
	list_fails("L1-dcache-loads:G", -EINVAL,
		   "L1-dcache-loads:G: 'G' is not a modifier stopwatch.ko takes: u (user mode only), k (kernel mode only), uk (both, as without one)");
	list_fails("cpu/cpu-cycles/:", -EINVAL,
		   "cpu/cpu-cycles/:: '' is not a modifier stopwatch.ko takes: u (user mode only), k (kernel mode only), uk (both, as without one)");
	/* Too long with "_u": refused here, as the module would. */
	list_fails("r00000000000000000000000000001:u", -E2BIG,
		   "r00000000000000000000000000001:u: with '_u' for its modifier the name is longer than stopwatch.ko's 31 characters (give it an ALIAS=TYPE:CONFIG:u)");
	/* The module takes the output, under the names the program expects. */
	assert_int_equal(sw_pmu_events_resolve(SYSFS,
			"instructions:u,cpu/cpu-cycles/k,x=4:5:u,LLC-loads:k,cs",
			&out, &err), 0);
	assert_int_equal(sw_events_parse(out, evs, SW_MAX_EVENTS, &bad), 5);
	assert_string_equal(evs[0].name, "instructions_u");
	assert_int_equal(evs[0].excl, SW_EVENT_EXCL_KERNEL);
	assert_string_equal(evs[1].name, "cpu-cycles_k");
	assert_int_equal(evs[1].excl, SW_EVENT_EXCL_USER);
	assert_string_equal(evs[2].name, "x");
	assert_string_equal(evs[3].name, "LLC-loads_k");
	assert_int_equal(evs[4].excl, 0);
	free(out);
	out = sw_event_list_names(
		"instructions:u,cpu-cycles_k=4:0x3c:k,x=4:5:u,cycles:uk,cs");
	assert_string_equal(out, "instructions_u,cpu-cycles_k,x,cycles,cs");
	free(out);
}

static void test_commas_inside_slashes(void **state)
{
	(void)state;
	list_is("cycles,cpu/event=0x3c,umask=0x0/,armv8_pmuv3/inst_retired/,cs",
		"cycles,cpu-event-0x3c-umask-0x0=4:0x3c,inst_retired=8:0x8,cs");
	list_is("cpu/event=0xc0,umask=0x1/ cpu/mem-loads,ldlat=0/",
		"cpu-event-0xc0-umask-0x1=4:0x1c0,mem-loads-ldlat-0=4:0x1cd");
	list_is("cpu/cpu-cycles/,cpu/mem-loads,umask=2,ldlat=0/,r00c0",
		"cpu-cycles=4:0x3c,mem-loads-umask-2-ldlat-0=4:0x2cd,r00c0");
}

static void test_errors_unknown(void **state)
{
	(void)state;
	list_fails("cycles,nope/event=1/", -ENOENT,
		   "nope/event=1/: unknown PMU 'nope' (PMUs in fixtures/sysfs/bus/event_source/devices: amd_df, armv8_pmuv3, cpu, power, software)");
	list_fails("armv8_pmuv3/inst_retires/", -ENOENT,
		   "armv8_pmuv3/inst_retires/: PMU 'armv8_pmuv3' has no event or term 'inst_retires' (events: cpu_cycles, inst_retired; terms: event)");
	list_fails("cpu/event=0x3c,umsk=1/", -ENOENT,
		   "cpu/event=0x3c,umsk=1/: PMU 'cpu' has no term 'umsk' (terms: any, cmask, edge, event, inv, ldlat, umask)");
	/* .scale and .unit are not events. */
	list_fails("power/energy-pkg.scale/", -ENOENT,
		   "power/energy-pkg.scale/: PMU 'power' has no event or term 'energy-pkg.scale' (events: energy-pkg; terms: event)");
	list_fails("software/cpu-clock/", -ENOENT,
		   "software/cpu-clock/: PMU 'software' has no event or term 'cpu-clock' (events: none; terms: none)");
	list_fails("nope/x/", -ENOENT,
		   "nope/x/: unknown PMU 'nope' (PMUs in fixtures/sysfs/bus/event_source/devices: amd_df, armv8_pmuv3, cpu, power, software)");
}

static void test_errors_values(void **state)
{
	(void)state;
	list_fails("cpu/event=0x100/", -EINVAL,
		   "cpu/event=0x100/: event=0x100 does not fit in its 8 bits (config:0-7)");
	list_fails("cpu/inv=2/", -EINVAL,
		   "cpu/inv=2/: inv=0x2 does not fit in its 1 bits (config:23)");
	list_fails("amd_df/event=0x4000/", -EINVAL,
		   "amd_df/event=0x4000/: event=0x4000 does not fit in its 14 bits (config:0-7,32-35,59-60)");
	list_fails("armv8_pmuv3/event=0x10000/", -EINVAL,
		   "armv8_pmuv3/event=0x10000/: event=0x10000 does not fit in its 16 bits (config:0-15)");
	list_fails("cpu/event=0xzz/", -EINVAL,
		   "cpu/event=0xzz/: 'event=0xzz': the value is not a number (decimal or 0x hexadecimal)");
	list_fails("cpu/event=99999999999999999999/", -EINVAL,
		   "cpu/event=99999999999999999999/: 'event=99999999999999999999': the value does not fit in 64 bits");
	/* config1 can not reach the module: nonzero is an error. */
	list_fails("cpu/mem-loads/", -EINVAL,
		   "cpu/mem-loads/: ldlat=0x3 (from event mem-loads) sets config1 bits (config1:0-15), and stopwatch.ko takes the config field only");
	list_fails("cpu/event=0xcd,ldlat=5/", -EINVAL,
		   "cpu/event=0xcd,ldlat=5/: ldlat=0x5 sets config1 bits (config1:0-15), and stopwatch.ko takes the config field only");
	list_fails("software/config1=1/", -EINVAL,
		   "software/config1=1/: config1=0x1 sets config1 bits (config1:0-63), and stopwatch.ko takes the config field only");
}

static void test_errors_syntax(void **state)
{
	(void)state;
	list_fails("cpu/cpu-cycles/p", -EINVAL,
		   "cpu/cpu-cycles/p: 'p' is not a modifier stopwatch.ko takes: u (user mode only), k (kernel mode only), uk (both, as without one)");
	list_fails("cycles,cpu/event=0x3c,cs", -EINVAL,
		   "cpu/event=0x3c,cs: no closing '/' (PMU/TERMS/, e.g. cpu/event=0x3c/)");
	list_fails("cpu//", -EINVAL,
		   "cpu//: nothing between the slashes: give an event name or terms, e.g. cpu/event=0x3c/");
	list_fails("cpu/event=1,,umask=1/", -EINVAL,
		   "cpu/event=1,,umask=1/: an empty term");
	list_fails("cpu/event=1,event=2/", -EINVAL,
		   "cpu/event=1,event=2/: term 'event' given twice");
	list_fails("cpu/cpu-cycles,mem-loads/", -EINVAL,
		   "cpu/cpu-cycles,mem-loads/: two named events, 'cpu-cycles' and 'mem-loads': give one");
	list_fails("../x/", -EINVAL, "../x/: '..' is not a PMU name");
	list_fails("cpu/../", -EINVAL,
		   "cpu/../: '..' is not a term (term=value, a bare term or an event name)");
	list_fails("cpu/cpu-cycles/,cpu/event=0x3c/", -EEXIST,
		   "cpu/cpu-cycles/ and cpu/event=0x3c/ are the same event (4:0x3c)");
}

static void test_alias_unique(void **state)
{
	(void)state;
	/* Same spelling of different events cannot happen; the same alias
	 * from a named event and a passed-on item can. */
	list_is("cpu-cycles=0:0,cpu/cpu-cycles/",
		"cpu-cycles=0:0,cpu-cycles-2=4:0x3c");
	list_is("cpu/cpu-cycles/,cpu-cycles=0:0",
		"cpu-cycles-2=4:0x3c,cpu-cycles=0:0");
	list_is("cpu-cycles,cpu/cpu-cycles/,cpu-cycles-2=1:0",
		"cpu-cycles,cpu-cycles-3=4:0x3c,cpu-cycles-2=1:0");
	/* A cut alias that meets another gets a suffix within the room. */
	list_is("cpu/event=0x3c,umask=0x0/,cpu-event-0x3c-umask-0x0=1:1",
		"cpu-event-0x3c-umask-0x0-2=4:0x3c,cpu-event-0x3c-umask-0x0=1:1");
	/* Two term lists too long for their names: PMU.rCONFIG, distinct. */
	list_is("cpu/event=0xc0,umask=0x1,cmask=0x1,inv/,cpu/event=0xc0,umask=0x1,cmask=0x2,inv/",
		"cpu.r18001c0=4:0x18001c0,cpu.r28001c0=4:0x28001c0");
}

/* Every resolved list is one stopwatch.ko's parser takes as it is. */
static void test_module_accepts(void **state)
{
	static const char *const lists[] = {
		"cycles,cpu/event=0x3c,umask=0x0/,armv8_pmuv3/inst_retired/,cs",
		"cpu/mem-loads,ldlat=0/,cpu/cpu-cycles/,power/energy-pkg/",
		"amd_df/event=0x3fff/,amd_df/event=0x1a7/,software/config=0/",
		"cpu/event=0x3c,umask=0x0/,cpu-event-0x3c-umask-0x0=1:1",
		"cpu-cycles=0:0,cpu/cpu-cycles/,armv8_pmuv3/cpu_cycles/",
	};
	struct sw_event_spec evs[SW_MAX_EVENTS];
	struct sw_err err = { "" };
	const char *bad;
	char *out;
	size_t i;
	int n;

	(void)state;
	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		if (sw_pmu_events_resolve(SYSFS, lists[i], &out, &err))
			fail_msg("%s: %s", lists[i], err.msg);
		n = sw_events_parse(out, evs, SW_MAX_EVENTS, &bad);
		if (n < 0)
			fail_msg("module refuses '%s' (%d)", bad ? bad : "?", n);
		free(out);
	}
	/* The aliases are the names the module shows. */
	assert_int_equal(sw_pmu_events_resolve(SYSFS,
			"armv8_pmuv3/inst_retired/,cpu/event=0xd1,umask=0x20/",
			&out, &err), 0);
	assert_int_equal(sw_events_parse(out, evs, SW_MAX_EVENTS, &bad), 2);
	assert_string_equal(evs[0].name, "inst_retired");
	assert_int_equal(evs[0].type, 8);
	assert_int_equal(evs[0].config, 8);
	assert_string_equal(evs[1].name, "cpu-event-0xd1-umask-0x20");
	assert_int_equal(evs[1].type, 4);
	assert_int_equal(evs[1].config, 0x20d1);
	free(out);
}

/* The generic names listed are those stopwatch.ko knows, same kind. */
static void test_generic_names(void **state)
{
	struct sw_event_spec ev;
	size_t i;

	(void)state;
	assert_int_equal(sw_generic_events_n, 24);
	for (i = 0; i < sw_generic_events_n; i++) {
		if (sw_event_parse(sw_generic_events[i].name, &ev))
			fail_msg("module does not know %s", sw_generic_events[i].name);
		assert_int_equal(sw_event_is_hw(&ev), sw_generic_events[i].hw);
	}
}

static void test_cache_and_papi(void **state)
{
	struct sw_event_spec evs[SW_MAX_EVENTS], ev;
	struct sw_err err = { "" };
	const char *bad;
	char *out, name[64];
	uint32_t type;
	uint64_t config;
	size_t i;

	(void)state;
	list_is("L1-dcache-loads,L1-icache-load-misses,node-prefetch-misses",
		"L1-dcache-loads=3:0x0,L1-icache-load-misses=3:0x10001,node-prefetch-misses=3:0x10206");
	list_is("PAPI_TOT_INS,PAPI_TLB_DM,cs",
		"PAPI_TOT_INS=0:0x1,PAPI_TLB_DM=3:0x10003,cs");
	list_fails("PAPI_L1_DCM,L1-dcache-load-misses", -EEXIST,
		   "PAPI_L1_DCM and L1-dcache-load-misses are the same event (3:0x10000)");
	/* 7 caches, 3 operations, access and miss; all short enough. */
	for (i = 0; sw_cache_event_name(i, name, sizeof(name)); i++) {
		assert_int_equal(sw_named_event_resolve(SYSFS, name, &type,
							&config, &err), 0);
		assert_true(strlen(name) < SW_EVENT_NAME_LEN);
	}
	assert_int_equal(i, 42);
	/* Every preset maps to a name the module or this table knows. */
	for (i = 0; i < sw_papi_presets_n; i++) {
		if (sw_named_event_resolve(SYSFS, sw_papi_presets[i].name,
					   &type, &config, &err))
			fail_msg("%s: %s", sw_papi_presets[i].name, err.msg);
		if (type != PERF_TYPE_HW_CACHE)
			assert_int_equal(sw_event_parse(sw_papi_presets[i].event,
							&ev), 0);
	}
	/* And the module takes what they resolve to. */
	assert_int_equal(sw_pmu_events_resolve(SYSFS,
		"PAPI_TOT_CYC,PAPI_TOT_INS,PAPI_L1_DCM,PAPI_BR_MSP,dTLB-stores",
		&out, &err), 0);
	assert_int_equal(sw_events_parse(out, evs, SW_MAX_EVENTS, &bad), 5);
	assert_string_equal(evs[2].name, "PAPI_L1_DCM");
	assert_int_equal(evs[2].type, PERF_TYPE_HW_CACHE);
	assert_true(sw_event_is_hw(&evs[2]));
	free(out);
	/* Not a name of these tables. */
	assert_int_equal(sw_named_event_resolve(SYSFS, "cycles", &type,
						&config, &err), 1);
}

static void test_listing(void **state)
{
	char **v = NULL, buf[64];
	size_t n = 0;

	(void)state;
	assert_int_equal(sw_pmu_names(SYSFS, &v, &n), 0);
	assert_int_equal(n, 5);
	assert_string_equal(v[0], "amd_df");
	assert_string_equal(v[2], "cpu");
	assert_string_equal(v[4], "software");
	sw_strv_free(v, n);
	assert_int_equal(sw_pmu_dir_names(SYSFS, "power", "events", &v, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(v[0], "energy-pkg");
	sw_strv_free(v, n);
	assert_int_equal(sw_pmu_dir_names(SYSFS, "software", "events", &v, &n), 0);
	assert_int_equal(n, 0);
	assert_null(v);
	assert_int_equal(sw_pmu_read_attr(SYSFS, "cpu", "events/mem-loads", buf,
					  sizeof(buf)), 0);
	assert_string_equal(buf, "event=0xcd,umask=0x1,ldlat=3");
	assert_int_equal(sw_pmu_read_attr(SYSFS, "cpu", "events/mem-loads", buf,
					  8), -EFBIG);
	assert_int_equal(sw_pmu_names("/nonexistent", &v, &n), -ENOENT);
	unsetenv(SW_SYSFS_ENV);
	assert_string_equal(sw_sysfs_root(NULL), "/sys");
	setenv(SW_SYSFS_ENV, "/x", 1);
	assert_string_equal(sw_sysfs_root(NULL), "/x");
	assert_string_equal(sw_sysfs_root("/y"), "/y");
	unsetenv(SW_SYSFS_ENV);
}

/* A scratch sysfs for what the fixture does not hold. */
static char scratch[64];

static void put(const char *rel, const char *text)
{
	char path[256], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s", scratch,
		 rel);
	for (slash = strchr(path + strlen(scratch) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static int scratch_setup(void **state)
{
	(void)state;
	snprintf(scratch, sizeof(scratch), "/tmp/sw-pmu-test.XXXXXX");
	if (!mkdtemp(scratch))
		return -1;
	put("uncore_imc_free_running_0/type", "19\n");
	put("uncore_imc_free_running_0/format/event", "config:0-7\n");
	put("uncore_imc_free_running_0/format/umask", "config:8-15\n");
	put("qmark/type", "20\n");
	put("qmark/format/event", "config:0-7\n");
	put("qmark/format/umask", "config:8-15\n");
	put("qmark/format/flag", "config:63\n");
	put("qmark/format/bad", "config5:0-3\n");
	put("qmark/events/needs", "event=0x2e,umask=?\n");
	put("qmark/events/badterm", "event=0x2e,nosuch=1\n");
	put("qmark/events/garbage", "event=zz\n");
	put("qmark/events/with-bare", "event=0x2e,flag\n");
	put("badtype/type", "x\n");
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int scratch_teardown(void **state)
{
	(void)state;
	return nftw(scratch, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void test_scratch(void **state)
{
	struct sw_pmu_event ev;
	struct sw_err err = { "" };
	char *out = NULL, want[300];

	(void)state;
	/* A long PMU name: PMU.rCONFIG, the alias within 31. */
	assert_int_equal(sw_pmu_events_resolve(scratch,
			"uncore_imc_free_running_0/event=0xff,umask=0xff/",
			&out, &err), 0);
	assert_string_equal(out, "uncore_imc_free_running_0.rffff=19:0xffff");
	assert_true(strchr(out, '=') - out <= SW_PMU_ITEM_MAX);
	free(out);
	/* "umask=?": the user must give it. */
	assert_int_equal(sw_pmu_event_resolve(scratch, "qmark/needs/", &ev, &err),
			 -EINVAL);
	assert_string_equal(err.msg,
			    "qmark/needs/: event 'needs' needs a value for 'umask' (its sysfs file says umask=?): e.g. qmark/needs,umask=1/");
	assert_int_equal(sw_pmu_event_resolve(scratch, "qmark/needs,umask=3/",
					      &ev, &err), 0);
	assert_int_equal(ev.config, 0x32e);
	assert_string_equal(ev.alias, "needs-umask-3");
	assert_int_equal(sw_pmu_event_resolve(scratch, "qmark/with-bare/", &ev,
					      &err), 0);
	assert_int_equal(ev.config, 0x800000000000002eULL);
	/* 31 - strlen("=20:0x800000000000002e") leaves 9. */
	assert_string_equal(ev.alias, "with-bare");
	assert_int_equal(sw_pmu_event_resolve(scratch, "qmark/badterm/", &ev,
					      &err), -ENOENT);
	assert_string_equal(err.msg,
			    "qmark/badterm/: PMU 'qmark' has no term 'nosuch' (from event badterm) (terms: bad, event, flag, umask)");
	assert_int_equal(sw_pmu_event_resolve(scratch, "qmark/garbage/", &ev,
					      &err), -EINVAL);
	snprintf(want, sizeof(want),
		 "qmark/garbage/: %s/bus/event_source/devices/qmark/events/garbage: cannot parse the term 'event=zz'",
		 scratch);
	assert_string_equal(err.msg, want);
	assert_int_equal(sw_pmu_event_resolve(scratch, "qmark/bad=1/", &ev,
					      &err), -EINVAL);
	snprintf(want, sizeof(want),
		 "qmark/bad=1/: %s/bus/event_source/devices/qmark/format/bad: cannot parse 'config5:0-3' (expected e.g. config:0-7)",
		 scratch);
	assert_string_equal(err.msg, want);
	assert_int_equal(sw_pmu_event_resolve(scratch, "badtype/config=1/", &ev,
					      &err), -EINVAL);
	snprintf(want, sizeof(want),
		 "badtype/config=1/: %s/bus/event_source/devices/badtype/type: 'x' is not a PMU type",
		 scratch);
	assert_string_equal(err.msg, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_named_events),
		cmocka_unit_test(test_terms),
		cmocka_unit_test(test_event_with_terms),
		cmocka_unit_test(test_split_ranges),
		cmocka_unit_test(test_pass_through),
		cmocka_unit_test(test_modifiers),
		cmocka_unit_test(test_commas_inside_slashes),
		cmocka_unit_test(test_errors_unknown),
		cmocka_unit_test(test_errors_values),
		cmocka_unit_test(test_errors_syntax),
		cmocka_unit_test(test_alias_unique),
		cmocka_unit_test(test_module_accepts),
		cmocka_unit_test(test_generic_names),
		cmocka_unit_test(test_cache_and_papi),
		cmocka_unit_test(test_listing),
		cmocka_unit_test_setup_teardown(test_scratch, scratch_setup,
						scratch_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
