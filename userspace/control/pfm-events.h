/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pfm-events.h - the CPU vendors' own event names, from libpfm4.
 *
 * libpfm4 keeps every PMU's event table (Intel's INST_RETIRED:ANY_P,
 * ARM's INST_RETIRED, AMD's RETIRED_INSTRUCTIONS, with their unit masks)
 * and detects which of its PMUs this machine has.  Here a name of those
 * tables becomes the perf_event_attr type and config stopwatch.ko takes,
 * through libpfm4's own encoder (pfm_get_os_event_encoding(),
 * PFM_OS_PERF_EVENT), and the tables of the PMUs present are listed.
 *
 * Names: libpfm4's "[PMU::]EVENT[:UMASK...]" in any case, or perf's Intel
 * spelling "EVENT.UMASK" (each '.' read as ':').  libpfm4 reads
 * LIBPFM_FORCE_PMU (e.g. arm_ac57) to take a PMU it does not detect.
 *
 * A program built without libpfm4 (make PFM=0) has these functions say so
 * at run time: sw_pfm_resolve() knows no name, sw_pfm_pmus() fails with
 * -EOPNOTSUPP.
 */
#ifndef _SW_UTIL_PFM_EVENTS_H
#define _SW_UTIL_PFM_EVENTS_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"

#define SW_PFM_FORCE_ENV "LIBPFM_FORCE_PMU"

/**
 * struct sw_pfm_event - one event (or one of its unit masks) of a PMU.
 * @pmu:        libpfm4's name of the PMU, e.g. "arm_ac57"
 * @name:       the event, e.g. "INST_RETIRED"
 * @umask:      the unit mask, or NULL for the event itself
 * @desc:       libpfm4's description (of the unit mask, for one)
 * @code:       the event's code in libpfm4's table
 * @dfl:        the unit mask is the event's default
 */
struct sw_pfm_event {
	const char *pmu;
	const char *name;
	const char *umask;
	const char *desc;
	uint64_t code;
	bool dfl;
};

/**
 * sw_pfm_built() - whether this program was built with libpfm4.
 *
 * Return: true with libpfm4 (make PFM=1, the default).
 */
bool sw_pfm_built(void);

/**
 * sw_pfm_missing() - why libpfm4 is not there, once a call needed it.
 *
 * The program loads libpfm.so.4 when a name first needs it: a machine
 * without Debian's libpfm4 runs every command but vendor event names.
 *
 * Return: a message naming the library and its package, or NULL (loaded,
 * not tried yet, linked statically, or built without libpfm4).
 */
const char *sw_pfm_missing(void);

/**
 * sw_pfm_resolve() - a vendor event name into perf_event_attr's type and
 * config.
 * @name:   the name as given
 * @type:   perf_event_attr.type, on success
 * @config: perf_event_attr.config, on success
 * @fstr:   libpfm4's full spelling ("arm_ac57::INST_RETIRED"), on
 *          success; may be NULL
 * @flen:   size of @fstr
 * @err:    why not, when libpfm4 knows the name but stopwatch.ko cannot
 *          count it; may be NULL
 *
 * Return: 0 (resolved); 1 (not a name libpfm4 knows on this machine, no
 * libpfm4, or libpfm4 did not initialize); -EINVAL (libpfm4 knows it but
 * cannot encode it as given, e.g. a unit mask missing, or it needs
 * config1/config2 or leaves out user or kernel mode, which stopwatch.ko
 * does not take; said in @err).
 */
int sw_pfm_resolve(const char *name, uint32_t *type, uint64_t *config,
		   char *fstr, size_t flen, struct sw_err *err);

/**
 * sw_pfm_pmus() - the vendor PMUs libpfm4 finds on this machine.
 * @names: on success a malloc()ed array of malloc()ed names (free with
 *         sw_strv_free())
 * @n:     on success their number (0: none detected)
 * @core:  on success, how many of the first ones are core PMUs (the rest
 *         uncore); may be NULL
 *
 * libpfm4's generic "perf" and "perf_raw" tables are left out: they are
 * perf's generic names, which stopwatch.ko knows itself.
 *
 * Return: 0, -EOPNOTSUPP without libpfm4, -ELIBACC when libpfm.so.4 cannot be
 * loaded (sw_pfm_missing() says why), -EIO when libpfm4 does not
 * initialize, -ENOMEM.
 */
int sw_pfm_pmus(char ***names, size_t *n, size_t *core);

/**
 * sw_pfm_events() - every event and unit mask of one PMU, in table order.
 * @pmu: a name from sw_pfm_pmus()
 * @fn:  called for each event, then for each of its unit masks; a nonzero
 *       return stops the walk and is returned
 * @arg: passed to @fn
 *
 * Return: 0, what @fn returned, -ENOENT for no such PMU, -EOPNOTSUPP
 * without libpfm4.
 */
int sw_pfm_events(const char *pmu,
		  int (*fn)(const struct sw_pfm_event *ev, void *arg),
		  void *arg);

#endif /* _SW_UTIL_PFM_EVENTS_H */
