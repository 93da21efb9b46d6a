/* SPDX-License-Identifier: GPL-2.0 */
/*
 * events.h - perf event names as perf spells them, parsed into perf_event
 * (type, config) pairs.  Shared by the stopwatch PMU counters and the
 * sampler; pure logic, compiled into stopwatch.ko and into host tests.
 */
#ifndef _STOPWATCH_EVENTS_H
#define _STOPWATCH_EVENTS_H

#include "wrapper/types.h"
#ifdef __KERNEL__
#include <uapi/linux/perf_event.h>
#else
#include <linux/perf_event.h>
#endif

#define SW_MAX_EVENTS 8
#define SW_EVENT_NAME_LEN 32

/* struct sw_event_spec.excl: the modes an event does not count in. */
#define SW_EVENT_EXCL_USER	0x1	/* ":k" */
#define SW_EVENT_EXCL_KERNEL	0x2	/* ":u" */

/**
 * struct sw_event_spec - one event.
 * @type:   perf_event_attr.type (PERF_TYPE_*, or a dynamic PMU type)
 * @excl:   SW_EVENT_EXCL_* from perf's modifier ":u" (user mode only) or
 *          ":k" (kernel mode only); 0 (both modes) without one, or ":uk"
 * @config: perf_event_attr.config
 * @name:   name used in column headers: the perf spelling, the raw code
 *          ("r1c2"), the alias of "alias=type:config", or "type:config";
 *          without an alias a modifier shows as "_u" or "_k" (":" is no
 *          character for Prometheus metric names): "instructions_u"
 */
struct sw_event_spec {
	u32 type;
	u32 excl;
	u64 config;
	char name[SW_EVENT_NAME_LEN];
};

int sw_event_modifier(const char *s, size_t *base_len, u32 *excl);
const char *sw_event_modifier_str(u32 excl);
int sw_event_parse(const char *s, struct sw_event_spec *ev);
int sw_events_parse(char *list, struct sw_event_spec *evs, int max,
		    const char **bad);
bool sw_event_is_hw(const struct sw_event_spec *ev);

#ifdef __KERNEL__
struct perf_event_attr;
void sw_event_attr_modes(struct perf_event_attr *a,
			 const struct sw_event_spec *ev);
#endif

#endif /* _STOPWATCH_EVENTS_H */
