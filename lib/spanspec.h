/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spanspec.h - the span language: a span times what happens between a
 * start point and a stop point that see the same key.  Parsing of the
 * spans control file's lines, shared by the module and the host tests.
 *
 *   +NAME start=POINT:KEY [start=...] stop=POINT:KEY [stop=...]
 *         [slots=N] [age_ms=N] [pid=N tgid=N comm=S cpus=L cgroup=ID
 *         follow=PID min_ns=N max_ns=N] [trace=on]
 *   -NAME
 *   reset
 *
 * POINT is FUNC (the function's entry), FUNC%return (its return),
 * SYSTEM:EVENT (a tracepoint), or a user function: /PATH:0xOFFSET (its
 * entry) or /PATH:0xOFFSET%return (its return), the file's absolute path
 * (white space and '\\' as \ooo octal escapes, as the probes' uprobe=)
 * and the file offset of its first instruction; a point that begins with
 * '/' is a user point.  The key follows the last ':'.  At a user return
 * point the arguments are gone (keys there: retval, tid, pid); memory
 * reads at a user point read user memory.  KEY is one expression or two
 * joined by ',':
 *
 *   argN        the Nth argument (0..5) at the point (of the entry for a
 *               return point; of the tracepoint's prototype, context
 *               excluded, for a tracepoint)
 *   retval      the return value (return points only)
 *   tid, pid    the current thread's id, its process id
 *   E+OFF...    each +OFF reads memory at the value plus OFF (up to four
 *               reads; decimal or 0x); /SIZE (1, 2, 4 or 8, default 8)
 *               sizes the last read, or truncates a value read by none
 *
 * A point may carry a condition after '?': EXPR==N or EXPR!=N; a hit
 * that fails it is ignored (counted in "skipped").  The same POINT:KEY as
 * start and as stop makes a self-paired point: each hit closes the
 * interval its key's previous hit opened and opens the next.
 */
#ifndef _STOPWATCH_SPANSPEC_H
#define _STOPWATCH_SPANSPEC_H

#include "wrapper/types.h"
#include "parse.h"

#define SW_SPAN_NAME_MAX 63
#define SW_SPAN_TARGET_MAX 255
#define SW_SPAN_POINTS 8
#define SW_SPAN_DEREF 4
#define SW_SPAN_SLOTS_MIN 16
#define SW_SPAN_SLOTS_MAX (1U << 20)
#define SW_SPAN_SLOTS_DEFAULT 4096
#define SW_SPAN_AGE_MS_DEFAULT 10000

/* The base of a key expression. */
enum sw_sx_base {
	SW_SX_ARG0,
	SW_SX_ARG5 = SW_SX_ARG0 + 5,
	SW_SX_RETVAL,
	SW_SX_TID,
	SW_SX_PID,
};

/**
 * struct sw_span_expr - one key expression.
 * @base:   enum sw_sx_base
 * @nderef: memory reads, 0..SW_SPAN_DEREF
 * @size:   bytes of the last read (or of the value when no read), 1..8
 * @pad:    zero
 * @off:    offset added before each read
 */
struct sw_span_expr {
	u8 base;
	u8 nderef;
	u8 size;
	u8 pad;
	s32 off[SW_SPAN_DEREF];
};

/**
 * struct sw_span_key - a point's key: one or two expressions.
 * @n: 1 or 2
 * @e: the expressions
 */
struct sw_span_key {
	u32 n;
	struct sw_span_expr e[2];
};

enum sw_pt_kind {
	SW_PT_ENTRY,
	SW_PT_RETURN,
	SW_PT_TP,
	SW_PT_UENTRY,
	SW_PT_URETURN,
};

#define SW_PT_START 1
#define SW_PT_STOP 2

enum sw_cond_op {
	SW_COND_NONE,
	SW_COND_EQ,
	SW_COND_NE,
};

/**
 * struct sw_span_point - one point of a span.
 * @kind:    enum sw_pt_kind
 * @role:    SW_PT_START, SW_PT_STOP or both (self-paired)
 * @cond_op: enum sw_cond_op
 * @key:     the key taken there
 * @cond:    the condition's expression
 * @cond_v:  the value it is compared with
 * @uoffset: a user point's file offset
 * @target:  function name, "system:event" for a tracepoint, the file's
 *           absolute path (unescaped) for a user point
 */
struct sw_span_point {
	u8 kind;
	u8 role;
	u8 cond_op;
	struct sw_span_key key;
	struct sw_span_expr cond;
	u64 cond_v;
	u64 uoffset;
	char target[SW_SPAN_TARGET_MAX + 1];
};

enum sw_span_op {
	SW_SPAN_ADD,
	SW_SPAN_REMOVE,
	SW_SPAN_RESET,
};

/**
 * struct sw_span_cmd - one parsed line of the spans file.
 * @op:      add, remove or reset
 * @npoints: points in @pt
 * @slots:   in-flight table slots (a power of two)
 * @age_ns:  starts older than this are abandoned
 * @filter:  the probe language's filters, checked at the stop point (and
 *           the duration window on the span)
 * @by:      rows keyed by the stop thread's pid, tgid, comm or cpu
 * @trace:   trace=on: each interval also written as a record (SW_TRACE_ON)
 * @name:    the span's name
 * @pt:      the points
 */
struct sw_span_cmd {
	enum sw_span_op op;
	u32 npoints;
	u32 slots;
	u64 age_ns;
	struct sw_filter filter;
	struct sw_by by;
	u32 trace;
	char name[SW_SPAN_NAME_MAX + 1];
	struct sw_span_point pt[SW_SPAN_POINTS];
};

int sw_span_parse(char *line, struct sw_span_cmd *cmd,
		  struct sw_parse_err *err);
#ifdef SW_UNIT_TEST
int sw_span_parse_expr(const char *s, size_t len, struct sw_span_expr *e);
int sw_span_expr_str(const struct sw_span_expr *e, char *buf, size_t len);
#endif
int sw_span_key_eq_expr(const struct sw_span_key *a,
			const struct sw_span_key *b);

#endif /* _STOPWATCH_SPANSPEC_H */
