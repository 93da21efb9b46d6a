// SPDX-License-Identifier: GPL-2.0
/*
 * events.c - perf event name parsing.
 *
 * Accepted spellings:
 *   cycles instructions cache-references ... (perf's generic names)
 *   rNNNN                  raw PMU event code, hexadecimal
 *   TYPE:CONFIG            perf_event_attr type and config (0x.. or decimal)
 *   ALIAS=TYPE:CONFIG      the same, shown under ALIAS (the stopwatch CLI
 *                          resolves "pmu/event=..,umask=../" to this form)
 *
 * Context: process context only.
 */
#include "events.h"
#include "parse.h"

struct sw_event_name {
	const char *name;
	u32 type;
	u64 config;
};

static const struct sw_event_name sw_event_names[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branch-instructions", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "idle-cycles-frontend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "idle-cycles-backend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "context-switches", PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
};

static bool sw_alias_ok(const char *s, size_t len)
{
	size_t i;

	if (!len)
		return false;
	for (i = 0; i < len; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-' ||
		      c == '.'))
			return false;
	}
	return true;
}

/**
 * sw_event_parse() - parse one event name.
 * @s:  the name (NUL-terminated, no surrounding white space)
 * @ev: filled on success
 *
 * Return: 0, -EINVAL for an unknown or malformed name, -E2BIG when the
 * name it would be shown under (the alias, or the whole spelling) is longer
 * than SW_EVENT_NAME_LEN - 1.
 */
int sw_event_parse(const char *s, struct sw_event_spec *ev)
{
	size_t len = strlen(s), i;
	const char *eq, *colon, *spec = s;
	u64 type;

	memset(ev, 0, sizeof(*ev));
	for (i = 0; i < ARRAY_SIZE(sw_event_names); i++) {
		if (!strcmp(s, sw_event_names[i].name)) {
			ev->type = sw_event_names[i].type;
			ev->config = sw_event_names[i].config;
			strcpy(ev->name, s);
			return 0;
		}
	}
	/* Only the name shown in column headers is bounded, not the spec. */
	eq = strchr(s, '=');
	if ((eq ? (size_t)(eq - s) : len) >= SW_EVENT_NAME_LEN)
		return -E2BIG;
	if (s[0] == 'r' && len > 1 &&
	    !sw_parse_number(s + 1, len - 1, 16, &ev->config)) {
		ev->type = PERF_TYPE_RAW;
		strcpy(ev->name, s);
		return 0;
	}
	if (eq) {
		if (!sw_alias_ok(s, eq - s))
			return -EINVAL;
		spec = eq + 1;
	}
	colon = strchr(spec, ':');
	if (!colon || sw_parse_number(spec, colon - spec, 0, &type) ||
	    type > 0xffffffffULL ||
	    sw_parse_number(colon + 1, strlen(colon + 1), 0, &ev->config))
		return -EINVAL;
	ev->type = (u32)type;
	if (eq) {
		memcpy(ev->name, s, eq - s);
		ev->name[eq - s] = '\0';
	} else {
		strcpy(ev->name, s);
	}
	return 0;
}

/**
 * sw_events_parse() - parse a comma- or space-separated event list.
 * @list: the list; modified in place
 * @evs:  output array
 * @max:  size of @evs
 * @bad:  on failure, the offending name (in @list)
 *
 * Return: number of events (0 for an empty list), or -EINVAL (unknown or
 * malformed name), -E2BIG (name too long or more than @max events),
 * -EEXIST (the same event, by name or by type:config, twice).
 */
int sw_events_parse(char *list, struct sw_event_spec *evs, int max,
		    const char **bad)
{
	char *p = list;
	int n = 0, i, ret;

	*bad = NULL;
	while (*p) {
		char *tok;

		while (*p == ',' || *p == ' ' || *p == '\n' || *p == '\t')
			p++;
		if (!*p)
			break;
		tok = p;
		while (*p && *p != ',' && *p != ' ' && *p != '\n' && *p != '\t')
			p++;
		if (*p)
			*p++ = '\0';
		*bad = tok;
		if (n >= max)
			return -E2BIG;
		ret = sw_event_parse(tok, &evs[n]);
		if (ret)
			return ret;
		for (i = 0; i < n; i++)
			if (!strcmp(evs[i].name, evs[n].name) ||
			    (evs[i].type == evs[n].type &&
			     evs[i].config == evs[n].config))
				return -EEXIST;
		n++;
	}
	*bad = NULL;
	return n;
}

/**
 * sw_event_is_hw() - whether an event needs a hardware PMU.
 * @ev: event
 *
 * Return: true for everything but PERF_TYPE_SOFTWARE events.
 */
bool sw_event_is_hw(const struct sw_event_spec *ev)
{
	return ev->type != PERF_TYPE_SOFTWARE;
}
