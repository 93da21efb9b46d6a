/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output/cost.h - the line that says what stopwatch cost the machine
 * while a command ran: the difference of two reads of the overhead file.
 */
#ifndef SW_OUTPUT_COST_H
#define SW_OUTPUT_COST_H

#include <stdio.h>

#include "control/overhead.h"

/*
 * "stopwatch cost 0.420% of 2 CPUs over 3.1 s: 1.2 M calls x 310 ns"
 * (nothing when either read lacks the file).
 */
void sw_cost_fprint(FILE *f, const struct sw_overhead *a,
		    const struct sw_overhead *b);

/*
 * The same as a JSON object's members, after a comma:
 * ,"stopwatch_cost":{"share_pct":..,"cpus":..,"seconds":..,"calls":..,
 * "ns_per_call":..,"ns":..} (nothing without the file).
 */
void sw_cost_json(FILE *f, const struct sw_overhead *a,
		  const struct sw_overhead *b);

#endif
