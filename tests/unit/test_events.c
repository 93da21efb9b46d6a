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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generic_names),
		cmocka_unit_test(test_raw_and_typed),
		cmocka_unit_test(test_bad_names),
		cmocka_unit_test(test_lists),
	};

	return cmocka_run_group_tests_name("events", tests, NULL, NULL);
}
