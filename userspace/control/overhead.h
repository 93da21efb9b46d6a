/* SPDX-License-Identifier: GPL-2.0 */
/*
 * control/overhead.h - the module's overhead file: stopwatch's own cost,
 * per CPU and in all (stopwatch/files.h describes the format).
 */
#ifndef SW_CONTROL_OVERHEAD_H
#define SW_CONTROL_OVERHEAD_H

#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"

/**
 * struct sw_overhead - one read of the overhead file.
 * @have:       the file was there and parsed
 * @ncpus:      online CPUs (its rows)
 * @total_ns:   estimated ns in stopwatch's handlers since load, all CPUs
 * @total_runs: estimated handler runs since load (two per measured call)
 * @fixed_kretprobe: the kretprobe's fixed ns per call included (0: not)
 * @at:         CLOCK_MONOTONIC seconds of the read
 */
struct sw_overhead {
	bool have;
	unsigned int ncpus;
	uint64_t total_ns;
	uint64_t total_runs;
	uint64_t fixed_kretprobe;
	double at;
};

/* Parses the file's text (@what names it in messages). */
int sw_overhead_parse(const char *text, const char *what,
		      struct sw_overhead *o, struct sw_err *err);

/*
 * Reads @dir's overhead file; a module without one leaves @o->have false
 * and returns 0.
 */
int sw_overhead_read(const char *dir, struct sw_overhead *o,
		     struct sw_err *err);

#endif
