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
 * each optionally followed by perf's modifier:
 *   :u  user mode only     :k  kernel mode only     :uk, :ku  both
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
 * sw_event_modifier() - split perf's modifier off an event name.
 * @s:        the name
 * @base_len: the length of the name without ":MODIFIER"
 * @excl:     the SW_EVENT_EXCL_* the modifier asks for (0: none, or ":uk")
 *
 * The modifier is what follows the last ':' unless that starts with a
 * digit (the CONFIG of TYPE:CONFIG): "u" counts user mode only, "k"
 * kernel mode only, "uk" or "ku" both (as without one).
 *
 * Return: 0, or -EINVAL for an empty modifier, a letter other than u and
 * k, or one twice ("cycles:", "cycles:x", "cycles:uu").
 */
int sw_event_modifier(const char *s, size_t *base_len, u32 *excl)
{
	const char *colon = strrchr(s, ':'), *m;
	bool u = false, k = false;

	*base_len = strlen(s);
	*excl = 0;
	if (!colon || (colon[1] >= '0' && colon[1] <= '9'))
		return 0;
	if (!colon[1])
		return -EINVAL;
	for (m = colon + 1; *m; m++) {
		if (*m == 'u' && !u)
			u = true;
		else if (*m == 'k' && !k)
			k = true;
		else
			return -EINVAL;
	}
	*base_len = colon - s;
	if (u != k)
		*excl = u ? SW_EVENT_EXCL_KERNEL : SW_EVENT_EXCL_USER;
	return 0;
}

/**
 * sw_event_modifier_str() - the modifier of @excl as perf spells it.
 * @excl: SW_EVENT_EXCL_* of an event
 *
 * Return: "u", "k", or "" (both modes).
 */
const char *sw_event_modifier_str(u32 excl)
{
	if (excl == SW_EVENT_EXCL_KERNEL)
		return "u";
	if (excl == SW_EVENT_EXCL_USER)
		return "k";
	return "";
}

/* sw_event_parse() of [s, s + len), a name without modifier. */
static int sw_event_parse_base(const char *s, size_t len,
			       struct sw_event_spec *ev)
{
	const char *eq, *colon, *spec = s, *end = s + len;
	size_t i;
	u64 type;

	for (i = 0; i < ARRAY_SIZE(sw_event_names); i++) {
		if (strlen(sw_event_names[i].name) == len &&
		    !strncmp(s, sw_event_names[i].name, len)) {
			ev->type = sw_event_names[i].type;
			ev->config = sw_event_names[i].config;
			memcpy(ev->name, s, len);
			return 0;
		}
	}
	/* Only the name shown in column headers is bounded, not the spec. */
	eq = memchr(s, '=', len);
	if ((eq ? (size_t)(eq - s) : len) >= SW_EVENT_NAME_LEN)
		return -E2BIG;
	if (s[0] == 'r' && len > 1 &&
	    !sw_parse_number(s + 1, len - 1, 16, &ev->config)) {
		ev->type = PERF_TYPE_RAW;
		memcpy(ev->name, s, len);
		return 0;
	}
	if (eq) {
		if (!sw_alias_ok(s, eq - s))
			return -EINVAL;
		spec = eq + 1;
	}
	colon = memchr(spec, ':', end - spec);
	if (!colon || sw_parse_number(spec, colon - spec, 0, &type) ||
	    type > 0xffffffffULL ||
	    sw_parse_number(colon + 1, end - (colon + 1), 0, &ev->config))
		return -EINVAL;
	ev->type = (u32)type;
	memcpy(ev->name, s, eq ? (size_t)(eq - s) : len);
	return 0;
}

/**
 * sw_event_parse() - parse one event name.
 * @s:  the name (NUL-terminated, no surrounding white space), optionally
 *      followed by perf's modifier ":u", ":k" or ":uk" (sw_event_modifier())
 * @ev: filled on success
 *
 * Return: 0, -EINVAL for an unknown or malformed name or modifier, -E2BIG
 * when the name it would be shown under (the alias, or the whole spelling
 * with "_u" or "_k" for a modifier) is longer than SW_EVENT_NAME_LEN - 1.
 */
int sw_event_parse(const char *s, struct sw_event_spec *ev)
{
	size_t len;
	u32 excl;
	int ret;

	memset(ev, 0, sizeof(*ev));
	ret = sw_event_modifier(s, &len, &excl);
	if (!ret)
		ret = sw_event_parse_base(s, len, ev);
	if (ret)
		return ret;
	ev->excl = excl;
	if (excl && !memchr(s, '=', len)) {
		size_t n = strlen(ev->name);

		if (n + 2 >= SW_EVENT_NAME_LEN)
			return -E2BIG;
		ev->name[n] = '_';
		strcpy(ev->name + n + 1, sw_event_modifier_str(excl));
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
 * malformed name or modifier), -E2BIG (name too long or more than @max
 * events), -EEXIST (the same event, by name or by type:config and
 * modifier, twice).
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
			     evs[i].config == evs[n].config &&
			     evs[i].excl == evs[n].excl))
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

#ifdef __KERNEL__
#include <linux/perf_event.h>

/**
 * sw_event_attr_modes() - @ev's modifier (":u", ":k") on a perf event's
 * attributes, as perf sets it: the hypervisor left out too.
 * @a:  the attributes
 * @ev: the event
 */
void sw_event_attr_modes(struct perf_event_attr *a,
			 const struct sw_event_spec *ev)
{
	a->exclude_user = !!(ev->excl & SW_EVENT_EXCL_USER);
	a->exclude_kernel = !!(ev->excl & SW_EVENT_EXCL_KERNEL);
	a->exclude_hv = !!ev->excl;
}
#endif
