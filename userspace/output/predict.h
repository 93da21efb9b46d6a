/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output/predict.h - what timing a set of functions would cost the
 * machine, predicted from a counting pass: each function's call rate
 * times its cost per call (the handlers' sampled time plus the
 * mechanism's fixed part calibrated at load, the stats file's cost_ns),
 * as a share of the online CPUs.
 */
#ifndef SW_OUTPUT_PREDICT_H
#define SW_OUTPUT_PREDICT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/err.h"

/**
 * struct sw_predict_row - one function's prediction.
 * @name:     the function (not owned)
 * @calls:    its calls in the counting pass, the ones its filters left
 *            out included (its handlers ran for them too)
 * @ns:       its cost per call: the stats file's cost_ns, or, when no
 *            run of its handlers was timed, the other functions' mean
 * @rate:     calls per second
 * @share:    predicted share of the online CPUs, in percent
 * @borrowed: @ns is the other functions' mean (none of its runs timed)
 * @uncal:    its mechanism's fixed cost was not calibrated (cost_fixed_ns
 *            0: calibrate=0, or a trampoline or uprobe): @ns lacks it, a
 *            lower bound
 */
struct sw_predict_row {
	const char *name;
	uint64_t calls;
	double ns;
	double rate;
	double share;
	bool borrowed;
	bool uncal;
};

/**
 * struct sw_predict - the prediction for all the functions.
 * @row:     one per function, in the order given
 * @n:       their number
 * @seconds: the counting pass's length
 * @ncpus:   online CPUs
 * @rate:    calls per second, all functions
 * @ns:      mean cost per call, weighted by calls
 * @share:   predicted share of the online CPUs, in percent
 * @uncal:   rows marked uncal (the total is then a lower bound)
 * @unknown: rows with calls whose cost per call nothing measured (none
 *           of any function's handler runs timed): left out of the total
 */
struct sw_predict {
	struct sw_predict_row *row;
	size_t n;
	double seconds;
	unsigned int ncpus;
	double rate, ns, share;
	size_t uncal, unknown;
};

/*
 * Computes the prediction from the stats file's text after a counting pass
 * of @seconds on @ncpus CPUs; @ids are the probes' rows (probe column),
 * @names what to call them.  Return: 0, or a negative errno with @err set
 * (a missing row or column, a bad number, @seconds or @ncpus not above 0).
 */
int sw_predict_compute(const char *stats, char *const *ids,
		       char *const *names, size_t n, double seconds,
		       unsigned int ncpus, struct sw_predict *p,
		       struct sw_err *err);

void sw_predict_free(struct sw_predict *p);

/*
 * The table, a row per function and the total, then the line
 * "stopwatch predict 1.234% of 2 CPUs: 12345 calls/s x 1000 ns"
 * (with " (lower bound: ...)" when some cost was not calibrated).
 */
void sw_predict_fprint(FILE *f, const struct sw_predict *p);

#endif
