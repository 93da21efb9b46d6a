/* SPDX-License-Identifier: GPL-2.0 */
/*
 * calls.h - the records of traced calls (struct sw_rec_call,
 * stopwatch/abi.h) decoded, and the names of their ids.
 */
#ifndef _SW_RECORD_CALLS_H
#define _SW_RECORD_CALLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <stopwatch/abi.h>

#define SW_TRACE_NAMES 65536
/* Span ids are small (the module holds at most 16 spans). */
#define SW_TRACE_SPAN_NAMES 256

/**
 * struct sw_call_info - one decoded call record.
 * @start:     when the call began, stopwatch clock ns
 * @end:       when it returned (the record's time)
 * @dur:       its duration, ns
 * @tid:       thread
 * @pid:       process
 * @id:        its probe's id (or the span's, @span)
 * @span:      @id is a span's
 * @cpu_start: CPU it began on
 * @cpu_end:   CPU it returned on (the stream's)
 * @has_ret:   @ret holds the return value
 * @ret:       the return value
 * @has_path:  @path holds the call-path node
 * @path:      the call-path node
 * @nkeys:     key values in @key
 * @key:       the probe's by= key values (numeric parts)
 * @ev_bad:    events not measured for the whole call (bit per event)
 * @nev:       event deltas at @ev
 * @ev:        the call's event counts, in the events file's order
 * @nargs:     arguments at @args
 * @args:      the leading integer arguments
 */
struct sw_call_info {
	uint64_t start, end, dur;
	uint32_t tid, pid;
	uint16_t id;
	bool span;
	uint32_t cpu_start, cpu_end;
	bool has_ret;
	uint64_t ret;
	bool has_path;
	uint64_t path;
	unsigned int nkeys;
	uint64_t key[2];
	uint64_t ev_bad;
	unsigned int nev;
	const uint64_t *ev;
	unsigned int nargs;
	const uint64_t *args;
};

/**
 * sw_call_decode() - decode a call record.
 * @h:   the record (its size checked against its buffer)
 * @cpu: the CPU whose stream held it
 * @ci:  output; @ci->ev and @ci->args point into @h
 *
 * Return: 0, or -EINVAL when @h is not a whole call record.
 */
int sw_call_decode(const struct sw_rec_header *h, uint32_t cpu,
		   struct sw_call_info *ci);

/**
 * struct sw_call_names - names of the ids, from a recording's trace_ids
 * ("ID:NAME,ID:NAME": probes) and trace_span_ids (the same for spans).
 */
struct sw_call_names {
	char *buf, *span_buf;
	const char *name[SW_TRACE_NAMES];
	const char *span[SW_TRACE_SPAN_NAMES];
};

void sw_call_names_parse(struct sw_call_names *n, const char *ids);
/* The spans' names, "ID:NAME,...", after sw_call_names_parse(). */
void sw_call_names_parse_spans(struct sw_call_names *n, const char *ids);
void sw_call_names_free(struct sw_call_names *n);
/* The name of @id; "probe#ID" (in @tmp, 16 bytes) when unknown. */
const char *sw_call_name(const struct sw_call_names *n, uint16_t id,
			 char *tmp);
/* The name of @ci's probe or span; "span#ID" (in @tmp) for an unknown span. */
const char *sw_call_info_name(const struct sw_call_names *n,
			      const struct sw_call_info *ci, char *tmp);

/**
 * sw_calls_nest() - how calls nest, thread by thread, as function_graph
 * shows them.
 * @v:     the calls (any order)
 * @n:     how many
 * @order: output, @n indices into @v in the order to print them: by start
 *         time, an enclosing call before the calls inside it
 * @depth: output, per call of @v: how many calls of its thread enclose it
 *         (began no later, ended no earlier: the thread's calls, spans
 *         with their stop thread's)
 *
 * Return: 0, or -ENOMEM.
 */
int sw_calls_nest(const struct sw_call_info *v, size_t n, size_t *order,
		  unsigned int *depth);

#endif
