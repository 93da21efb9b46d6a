/* SPDX-License-Identifier: GPL-2.0 */
/*
 * params.h - defaults of stopwatch.ko's parameters that the stopwatch
 * program states in its --help: one place for both.
 */
#ifndef _STOPWATCH_PARAMS_H
#define _STOPWATCH_PARAMS_H

/* attach= when not given at load (attach/tramp.c). */
#define SW_ATTACH_PARAM_DEFAULT "auto"

#endif /* _STOPWATCH_PARAMS_H */
