/* SPDX-License-Identifier: GPL-2.0 */
/*
 * span-btf.h - a span point as a user writes it (FUNC:work,
 * sched:sched_wakeup:p->pid, FUNC%return:retval) turned into what
 * stopwatch.ko takes (argument positions, offsets and sizes), with the
 * kernel's BTF read through libbpf.
 */
#ifndef _SW_UTIL_SPAN_BTF_H
#define _SW_UTIL_SPAN_BTF_H

#include "base/err.h"

struct sw_span_btf;

struct sw_span_btf *sw_span_btf_new(const char *dir);
void sw_span_btf_free(struct sw_span_btf *b);
int sw_span_point_resolve(struct sw_span_btf *b, const char *point,
			  char **out, struct sw_err *err);
int sw_span_raw_expr(const char *s, size_t len);
int sw_btf_arg_regs(struct sw_span_btf *b, const char *fn, struct sw_err *err);
int sw_span_btf_func(struct sw_span_btf *b, const char *fn);

struct sw_expansion;
int sw_btf_attach_extra(struct sw_expansion *e, const char *mode);

#endif /* _SW_UTIL_SPAN_BTF_H */
