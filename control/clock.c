// SPDX-License-Identifier: GPL-2.0
/*
 * clock.c - the clock the calls are timed by (include/wrapper/
 * timekeeping.h): whether new calls are stamped from the TSC, and its
 * scale.  Chosen at load by sw_clock_init() (core init), dropped by
 * sw_clock_check() once the kernel says the TSCs are apart, read by the
 * measurement core and shown in the version file (debugfs.c).  Here, the
 * lowest kernel layer, so that every layer above may read it.
 */
#include "wrapper/timekeeping.h"

SW_CLOCK_DEFINE_STATE;
