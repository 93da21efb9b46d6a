// SPDX-License-Identifier: GPL-2.0
/*
 * pfm-events-none.c - the program built without libpfm4 (make PFM=0):
 * no vendor event names, and said so (see pfm-events.h).
 */
#include <errno.h>
#include <stdio.h>

#include "control/pfm-events.h"

bool sw_pfm_built(void)
{
	return false;
}

const char *sw_pfm_missing(void)
{
	return NULL;
}

int sw_pfm_resolve(const char *name, uint32_t *type, uint64_t *config,
		   char *fstr, size_t flen, struct sw_err *err)
{
	(void)name;
	(void)type;
	(void)config;
	(void)fstr;
	(void)flen;
	(void)err;
	return 1;
}

int sw_pfm_pmus(char ***names, size_t *n, size_t *core)
{
	*names = NULL;
	*n = 0;
	if (core)
		*core = 0;
	return -EOPNOTSUPP;
}

int sw_pfm_events(const char *pmu,
		  int (*fn)(const struct sw_pfm_event *ev, void *arg),
		  void *arg)
{
	(void)pmu;
	(void)fn;
	(void)arg;
	return -EOPNOTSUPP;
}
