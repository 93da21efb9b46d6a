/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output/correct.h - latencies corrected for the probe (--correct): each
 * probe's min, avg and percentiles less its calibrated in-window cost (the
 * stats file's window_ns: what of every measured window is the probe's
 * own, measured at load), never below 0; a probe whose cost was not
 * calibrated (0, or a module without the column) is left as measured.
 */
#ifndef SW_OUTPUT_CORRECT_H
#define SW_OUTPUT_CORRECT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "control/snapshot.h"

/* The marks of a corrected row and of one left uncorrected. */
#define SW_CORRECT_MARK "*"
#define SW_UNCAL_MARK "!"

/**
 * sw_correct_snapshot() - correct the probes @ids of @s in place.
 * @s:      the snapshot (its min_ns, avg_ns and percentile columns)
 * @ids:    the probes
 * @n:      how many
 * @window: out, per probe: the nanoseconds taken off, 0 when not
 *          calibrated (left as measured) or not in the snapshot
 */
void sw_correct_snapshot(struct sw_snapshot *s, char *const *ids, size_t n,
			 uint64_t *window);

/**
 * sw_correct_all() - correct every probe of @s in place.
 * Return: per probe of @s, in its order, the nanoseconds taken off (0:
 * left as measured); NULL when out of memory (nothing corrected).
 */
uint64_t *sw_correct_all(struct sw_snapshot *s);

/**
 * sw_correct_names() - @names with the mark of each row: SW_CORRECT_MARK
 * where @window is not 0, else SW_UNCAL_MARK.
 * Return: an array of @n strings (sw_correct_names_free()), or NULL.
 */
char **sw_correct_names(char *const *names, const uint64_t *window, size_t n);
void sw_correct_names_free(char **names, size_t n);

/**
 * sw_correct_fprint() - the report's lines about the correction: one
 * saying what was subtracted, from what ("# * corrected for the probe:
 * 812 ns subtracted ..."), with each function's amount when they
 * differ; one naming the functions left uncorrected, if any.
 */
void sw_correct_fprint(FILE *f, char *const *names, const uint64_t *window,
		       size_t n);

#endif
