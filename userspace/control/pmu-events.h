/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmu-events.h - turn PMU-qualified event names into what stopwatch.ko
 * accepts.
 *
 * stopwatch.ko parses perf's generic names (cycles, cpu-clock, ...), raw
 * "rNNNN", "TYPE:CONFIG" and "ALIAS=TYPE:CONFIG" (lib/events.c).
 * perf's PMU syntax, "cpu/event=0x3c,umask=0x0/" or
 * "armv8_pmuv3/inst_retired/", needs sysfs to mean anything:
 *
 *   <sysfs>/bus/event_source/devices/PMU/type          perf_event_attr.type
 *   <sysfs>/bus/event_source/devices/PMU/format/TERM   "config:0-7,32-35"
 *   <sysfs>/bus/event_source/devices/PMU/events/NAME   "event=0x3c,umask=0x0"
 *
 * so the stopwatch program resolves it here and hands the module
 * "ALIAS=TYPE:CONFIG".
 *
 * Aliases.  The module takes ALIAS=TYPE:CONFIG up to SW_PMU_ITEM_MAX
 * characters in all, the alias made of letters, digits, '_', '-', '.':
 *   PMU/NAME/              NAME                      inst_retired
 *   PMU/NAME,TERMS/        NAME-TERMS                mem-loads-ldlat-0
 *   PMU/TERMS/             PMU-TERMS                 cpu-event-0x3c-umask-0x0
 * with ',' and '=' turned into '-' and any other character not allowed
 * into '_'.  When that does not fit, a named event is cut to the room
 * left and a term list becomes PMU.rCONFIG (cpu.r3c, like perf's raw
 * rNNNN; the PMU's name cut if need be, to no less than 3 characters),
 * else just the PMU's name, cut.  A name another item of the list already
 * has gets "-2", "-3", ... appended (the name cut to make room).
 */
#ifndef _SW_UTIL_PMU_EVENTS_H
#define _SW_UTIL_PMU_EVENTS_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"

#define SW_SYSFS_ENV "STOPWATCH_SYSFS"
#define SW_SYSFS_DEFAULT "/sys"
#define SW_PMU_DEVICES "bus/event_source/devices"

/* stopwatch.ko's SW_EVENT_NAME_LEN - 1: the longest alias it accepts. */
#define SW_PMU_ITEM_MAX 31

/**
 * struct sw_pmu_event - one resolved PMU event.
 * @type:   perf_event_attr.type, from PMU/type
 * @config: perf_event_attr.config
 * @alias:  the alias, before it is made unique within a list
 */
struct sw_pmu_event {
	uint32_t type;
	uint64_t config;
	char alias[SW_PMU_ITEM_MAX + 1];
};

/**
 * struct sw_generic_event - a name stopwatch.ko knows without sysfs.
 * @name: perf's spelling
 * @hw:   true for hardware events (they need a hardware PMU)
 */
struct sw_generic_event {
	const char *name;
	int hw;
};

extern const struct sw_generic_event sw_generic_events[];
extern const size_t sw_generic_events_n;

/**
 * sw_sysfs_root() - the sysfs directory to read PMUs from.
 * @dir: a directory named by the user (--sysfs), or NULL
 *
 * Return: @dir, else $STOPWATCH_SYSFS, else "/sys".
 */
const char *sw_sysfs_root(const char *dir);

/**
 * sw_pmu_event_resolve() - resolve one "PMU/TERMS/" event.
 * @sysfs: sysfs root (sw_sysfs_root())
 * @spec:  the event, e.g. "cpu/event=0x3c,umask=0x0/"
 * @ev:    filled on success
 * @err:   on failure, a message naming the PMU, event or term at fault
 *         and, for an unknown one, what exists instead; may be NULL
 *
 * TERMS is a comma list of "term=value" (decimal or 0x hexadecimal; a bare
 * "term" means 1), "config=value" (config1=, config2=, config3= too) and
 * at most one named event of PMU/events/, whose own terms the others
 * override.  Each term's bits come from PMU/format/TERM.
 *
 * Return: 0; -ENOENT (no such PMU, event or term); -EINVAL (malformed
 * spelling, a value that does not fit its bits, a nonzero value for
 * config1/config2/config3, which stopwatch.ko cannot take, or an event
 * whose "term=?" was not given); -E2BIG (TYPE:CONFIG alone too long for
 * the module); -EIO and others when sysfs cannot be read; -ENOMEM.
 */
int sw_pmu_event_resolve(const char *sysfs, const char *spec,
			 struct sw_pmu_event *ev, struct sw_err *err);

/**
 * sw_pmu_events_resolve() - resolve an event list for stopwatch.ko.
 * @sysfs: sysfs root (sw_sysfs_root())
 * @list:  items separated by commas or white space outside "/.../"
 * @out:   on success a malloc()ed comma-separated list the caller frees:
 *         PMU items as ALIAS=TYPE:CONFIG, every other item unchanged
 * @err:   on failure, the item at fault and why; may be NULL
 *
 * Items without a PMU: a cache event or PAPI preset becomes
 * NAME=TYPE:CONFIG (sw_named_event_resolve()); what stopwatch.ko's own
 * parser takes (lib/events.c) passes unchanged; else a CPU vendor's event
 * name libpfm4 knows becomes NAME=TYPE:CONFIG (sw_pfm_resolve(); NAME
 * without "PMU::", ':' as '.'); else the item is refused with the closest
 * names known (sw_event_unknown()).
 * Aliases are unique within the list (see the file comment).  Two resolved
 * items that are the same TYPE:CONFIG are an error (-EEXIST); the same
 * module name twice is left to the module.
 *
 * Return: 0 or a negative errno (those of sw_pmu_event_resolve() and
 * sw_named_event_resolve(), -EINVAL for an unknown name or an
 * unterminated "PMU/..." item, -E2BIG for a name too long).
 */
int sw_pmu_events_resolve(const char *sysfs, const char *list, char **out,
			  struct sw_err *err);

/**
 * sw_pmu_names() - the PMUs in sysfs, sorted.
 * @sysfs: sysfs root
 * @names: on success a malloc()ed array of malloc()ed names
 * @n:     on success their number
 *
 * Return: 0 or a negative errno (-ENOENT without the devices directory).
 */
int sw_pmu_names(const char *sysfs, char ***names, size_t *n);

/**
 * sw_pmu_dir_names() - the entries of one of a PMU's directories, sorted.
 * @sysfs: sysfs root
 * @pmu:   PMU name
 * @sub:   "events" or "format"; for "events" the .scale, .unit,
 *         .per-pkg and .snapshot companions are left out
 * @names: on success a malloc()ed array of malloc()ed names
 * @n:     on success their number (0, and success, without the directory)
 *
 * Return: 0 or a negative errno.
 */
int sw_pmu_dir_names(const char *sysfs, const char *pmu, const char *sub,
		     char ***names, size_t *n);

/**
 * sw_pmu_read_attr() - read one small sysfs file of a PMU.
 * @sysfs: sysfs root
 * @pmu:   PMU name
 * @rel:   path below the PMU's directory, e.g. "type" or "events/x"
 * @buf:   output, NUL-terminated, trailing white space removed
 * @len:   size of @buf
 *
 * Return: 0 or a negative errno (-EFBIG when it does not fit @buf).
 */
int sw_pmu_read_attr(const char *sysfs, const char *pmu, const char *rel,
		     char *buf, size_t len);

/**
 * sw_strv_free() - free an array from sw_pmu_names() or sw_pmu_dir_names().
 * @v: the array; may be NULL
 * @n: its length
 */
void sw_strv_free(char **v, size_t n);


/*
 * Names beyond the module's own (lib/events.c): perf's generic cache events
 * ("L1-dcache-load-misses", PERF_TYPE_HW_CACHE) and PAPI's preset names
 * ("PAPI_TOT_CYC"), each resolved for this machine into ALIAS=TYPE:CONFIG;
 * and, for a name nobody knows, the closest names that exist.
 *
 * "For this machine": a hardware event needs a core PMU in sysfs (one
 * named "cpu", or one with a "cpus" file: cpu_core, armv8_pmuv3_0...).
 * When the sysfs read is the live one (/sys), the kernel is asked too
 * (perf_event_open() of the event on the calling thread): a PMU that
 * cannot count an event makes it "not available here".
 */
/**
 * struct sw_papi_preset - one PAPI preset and the generic event it maps to.
 * @name:  PAPI's name, e.g. "PAPI_TOT_CYC"
 * @about: PAPI's description
 * @event: the perf generic event counting it
 */
struct sw_papi_preset {
	const char *name;
	const char *about;
	const char *event;
};

extern const struct sw_papi_preset sw_papi_presets[];
extern const size_t sw_papi_presets_n;

/**
 * sw_cache_event_name() - perf's name of the @i-th generic cache event.
 * @i:   0 up
 * @buf: output
 * @len: its size (32 is enough)
 *
 * Return: true while @i names one ("L1-dcache-loads", ...), false past
 * the last.
 */
bool sw_cache_event_name(size_t i, char *buf, size_t len);

/**
 * sw_core_pmu() - the first core PMU of @sysfs (the one PERF_TYPE_HARDWARE
 * and PERF_TYPE_HW_CACHE events count on).
 * @sysfs: sysfs root
 * @buf:   its name, on success
 * @len:   size of @buf
 *
 * Return: true when there is one.
 */
bool sw_core_pmu(const char *sysfs, char *buf, size_t len);

/**
 * sw_named_event_resolve() - a cache event or PAPI preset for this machine.
 * @sysfs: sysfs root
 * @name:  the name as given
 * @type:  perf_event_attr.type, on success
 * @config: perf_event_attr.config, on success
 * @err:   why not, when it is known but not available here
 *
 * Return: 0 (resolved); 1 (not a name of these tables); -ENODEV (known,
 * but not available on this machine, said in @err).
 */
int sw_named_event_resolve(const char *sysfs, const char *name,
			   uint32_t *type, uint64_t *config, struct sw_err *err);

/**
 * sw_event_unknown() - the message for a name nobody knows.
 * @sysfs: sysfs root, for the PMUs' own event names
 * @name:  the name as given
 * @err:   filled: the name, what is wrong, and the closest known names
 *
 * Return: -EINVAL.
 */
int sw_event_unknown(const char *sysfs, const char *name, struct sw_err *err);

/**
 * sw_event_list_add() - append @item to a comma list, for repeated -e.
 * @list: the list so far (malloc()ed, or NULL); replaced
 * @item: one -e argument, itself maybe a list
 *
 * Return: 0, -EINVAL for an empty @item, -ENOMEM.
 */
int sw_event_list_add(char **list, const char *item);

/**
 * sw_event_list_names() - the names stopwatch.ko shows for an event list.
 * @list: a list as sw_pmu_events_resolve() makes it
 *
 * ALIAS=TYPE:CONFIG items show as ALIAS; others as sw_event_parse() names
 * them ("instructions:u" as "instructions_u").
 *
 * Return: a malloc()ed comma-separated list the caller frees, or NULL
 * (out of memory).
 */
char *sw_event_list_names(const char *list);

#endif /* _SW_UTIL_PMU_EVENTS_H */
