// SPDX-License-Identifier: GPL-2.0
/*
 * test_events.c - event name parsing, from lib/events.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "events.h"

static void test_generic_names(void **state)
{
	struct sw_event_spec ev;

	(void)state;
	assert_int_equal(sw_event_parse("cycles", &ev), 0);
	assert_int_equal(ev.type, PERF_TYPE_HARDWARE);
	assert_int_equal(ev.config, PERF_COUNT_HW_CPU_CYCLES);
	assert_string_equal(ev.name, "cycles");
	assert_int_equal(sw_event_parse("stalled-cycles-backend", &ev), 0);
	assert_int_equal(ev.config, PERF_COUNT_HW_STALLED_CYCLES_BACKEND);
	assert_int_equal(sw_event_parse("context-switches", &ev), 0);
	assert_int_equal(ev.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(ev.config, PERF_COUNT_SW_CONTEXT_SWITCHES);
	assert_false(sw_event_is_hw(&ev));
	assert_int_equal(sw_event_parse("major-faults", &ev), 0);
	assert_int_equal(ev.config, PERF_COUNT_SW_PAGE_FAULTS_MAJ);
}

static void test_raw_and_typed(void **state)
{
	struct sw_event_spec ev;

	(void)state;
	assert_int_equal(sw_event_parse("r1c2", &ev), 0);
	assert_int_equal(ev.type, PERF_TYPE_RAW);
	assert_int_equal(ev.config, 0x1c2);
	assert_true(sw_event_is_hw(&ev));
	assert_int_equal(sw_event_parse("4:0x3c", &ev), 0);
	assert_int_equal(ev.type, 4);
	assert_int_equal(ev.config, 0x3c);
	assert_string_equal(ev.name, "4:0x3c");
	assert_int_equal(sw_event_parse("inst_retired=8:0x8", &ev), 0);
	assert_int_equal(ev.type, 8);
	assert_int_equal(ev.config, 8);
	assert_string_equal(ev.name, "inst_retired");
	/* Only the alias is bounded: a long spec under a short alias is fine. */
	assert_int_equal(sw_event_parse("cpu-event-0x3c-umask-0x0=4:0x000000000000003c",
					&ev),
			 0);
	assert_string_equal(ev.name, "cpu-event-0x3c-umask-0x0");
	assert_int_equal(ev.config, 0x3c);
	assert_int_equal(sw_event_parse("1:9", &ev), 0);
	assert_int_equal(ev.type, PERF_TYPE_SOFTWARE);
}

static void test_bad_names(void **state)
{
	struct sw_event_spec ev;

	(void)state;
	assert_int_equal(sw_event_parse("cycle", &ev), -EINVAL);
	assert_int_equal(sw_event_parse("rxyz", &ev), -EINVAL);
	assert_int_equal(sw_event_parse("r", &ev), -EINVAL);
	assert_int_equal(sw_event_parse("4:", &ev), -EINVAL);
	assert_int_equal(sw_event_parse(":5", &ev), -EINVAL);
	assert_int_equal(sw_event_parse("0x100000000:1", &ev), -EINVAL);
	assert_int_equal(sw_event_parse("bad alias=4:1", &ev), -EINVAL);
	assert_int_equal(sw_event_parse("=4:1", &ev), -EINVAL);
	assert_int_equal(
		sw_event_parse("a_very_long_alias_name_that_overflows=4:1", &ev),
		-E2BIG);
	assert_int_equal(
		sw_event_parse("0x00000000000004:0x000000000000000000003c", &ev),
		-E2BIG);
}

static void test_lists(void **state)
{
	struct sw_event_spec evs[3];
	const char *bad;
	char buf[128];

	(void)state;
	strcpy(buf, "cycles,instructions\n");
	assert_int_equal(sw_events_parse(buf, evs, 3, &bad), 2);
	assert_string_equal(evs[1].name, "instructions");
	strcpy(buf, "");
	assert_int_equal(sw_events_parse(buf, evs, 3, &bad), 0);
	strcpy(buf, "cycles,bogus");
	assert_int_equal(sw_events_parse(buf, evs, 3, &bad), -EINVAL);
	assert_string_equal(bad, "bogus");
	strcpy(buf, "cycles,cpu-cycles");
	assert_int_equal(sw_events_parse(buf, evs, 3, &bad), -EEXIST);
	assert_string_equal(bad, "cpu-cycles");
	strcpy(buf, "cycles instructions cache-misses branch-misses");
	assert_int_equal(sw_events_parse(buf, evs, 3, &bad), -E2BIG);
	assert_string_equal(bad, "branch-misses");
}

static void test_modifiers(void **state)
{
	struct sw_event_spec ev;
	size_t len;
	u32 excl;

	(void)state;
	assert_int_equal(sw_event_parse("cycles", &ev), 0);
	assert_int_equal(ev.excl, 0);
	assert_int_equal(sw_event_parse("instructions:u", &ev), 0);
	assert_int_equal(ev.type, PERF_TYPE_HARDWARE);
	assert_int_equal(ev.config, PERF_COUNT_HW_INSTRUCTIONS);
	assert_int_equal(ev.excl, SW_EVENT_EXCL_KERNEL);
	assert_string_equal(ev.name, "instructions_u");
	assert_int_equal(sw_event_parse("cycles:k", &ev), 0);
	assert_int_equal(ev.excl, SW_EVENT_EXCL_USER);
	assert_string_equal(ev.name, "cycles_k");
	/* Both modes is no modifier at all, under the plain name. */
	assert_int_equal(sw_event_parse("cycles:uk", &ev), 0);
	assert_int_equal(ev.excl, 0);
	assert_string_equal(ev.name, "cycles");
	assert_int_equal(sw_event_parse("cycles:ku", &ev), 0);
	assert_int_equal(ev.excl, 0);
	assert_string_equal(ev.name, "cycles");
	assert_int_equal(sw_event_parse("r1c2:k", &ev), 0);
	assert_int_equal(ev.type, PERF_TYPE_RAW);
	assert_int_equal(ev.config, 0x1c2);
	assert_string_equal(ev.name, "r1c2_k");
	assert_int_equal(sw_event_parse("4:0x3c:u", &ev), 0);
	assert_int_equal(ev.type, 4);
	assert_int_equal(ev.config, 0x3c);
	assert_int_equal(ev.excl, SW_EVENT_EXCL_KERNEL);
	assert_string_equal(ev.name, "4:0x3c_u");
	/* An alias is shown as given. */
	assert_int_equal(sw_event_parse("inst_user=8:0x8:u", &ev), 0);
	assert_int_equal(ev.type, 8);
	assert_int_equal(ev.config, 8);
	assert_int_equal(ev.excl, SW_EVENT_EXCL_KERNEL);
	assert_string_equal(ev.name, "inst_user");
	assert_int_equal(sw_event_parse("cpu-clock:k", &ev), 0);
	assert_int_equal(ev.type, PERF_TYPE_SOFTWARE);
	assert_string_equal(sw_event_modifier_str(ev.excl), "k");
	assert_string_equal(sw_event_modifier_str(SW_EVENT_EXCL_KERNEL), "u");
	assert_string_equal(sw_event_modifier_str(0), "");
	/* A digit after the last ':' is TYPE:CONFIG's CONFIG. */
	assert_int_equal(sw_event_modifier("4:0x3c", &len, &excl), 0);
	assert_int_equal(len, 6);
	assert_int_equal(excl, 0);
	assert_int_equal(sw_event_modifier("cycles:u", &len, &excl), 0);
	assert_int_equal(len, 6);
	assert_int_equal(excl, SW_EVENT_EXCL_KERNEL);
	/* The name with "_u" must fit, as the plain name must. */
	assert_int_equal(sw_event_parse("stalled-cycles-frontend:u", &ev), 0);
	assert_string_equal(ev.name, "stalled-cycles-frontend_u");
	assert_int_equal(sw_event_parse("r00000000000000000000000000001", &ev),
			 0);
	assert_int_equal(sw_event_parse("r00000000000000000000000000001:u", &ev),
			 -E2BIG);
}

static void test_bad_modifiers(void **state)
{
	static const char *const bad[] = {
		"cycles:", "cycles:x", "cycles:uu", "cycles:kk", "cycles:uku",
		"cycles:U", "cycles:p", "cycles:u:k", "cycles::u", ":u",
		"cycle:u", "4:0x3c:x", "x=4:1:h", "cycles:u,",
	};
	struct sw_event_spec ev;
	size_t i, len;
	u32 excl;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ev.excl = 7;
		assert_int_equal(sw_event_parse(bad[i], &ev), -EINVAL);
	}
	assert_int_equal(sw_event_modifier("cycles:x", &len, &excl), -EINVAL);
	assert_int_equal(sw_event_modifier("cycles:", &len, &excl), -EINVAL);
	assert_int_equal(sw_event_modifier("cycles:uu", &len, &excl), -EINVAL);
	assert_int_equal(sw_event_modifier("cycles:ukx", &len, &excl), -EINVAL);
}

static void test_modifier_lists(void **state)
{
	struct sw_event_spec evs[4];
	const char *bad;
	char buf[128];

	(void)state;
	/* One event in each mode is three events. */
	strcpy(buf, "instructions:u,instructions:k,instructions");
	assert_int_equal(sw_events_parse(buf, evs, 4, &bad), 3);
	assert_string_equal(evs[0].name, "instructions_u");
	assert_string_equal(evs[1].name, "instructions_k");
	assert_string_equal(evs[2].name, "instructions");
	assert_int_equal(evs[2].excl, 0);
	strcpy(buf, "cycles:u,cpu-cycles:u");
	assert_int_equal(sw_events_parse(buf, evs, 4, &bad), -EEXIST);
	assert_string_equal(bad, "cpu-cycles:u");
	strcpy(buf, "cycles,cycles:ku");
	assert_int_equal(sw_events_parse(buf, evs, 4, &bad), -EEXIST);
	assert_string_equal(bad, "cycles:ku");
	strcpy(buf, "cycles:u cycles:x");
	assert_int_equal(sw_events_parse(buf, evs, 4, &bad), -EINVAL);
	assert_string_equal(bad, "cycles:x");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generic_names),
		cmocka_unit_test(test_raw_and_typed),
		cmocka_unit_test(test_bad_names),
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_modifiers),
		cmocka_unit_test(test_bad_modifiers),
		cmocka_unit_test(test_modifier_lists),
	};

	return cmocka_run_group_tests_name("events", tests, NULL, NULL);
}
