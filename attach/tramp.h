/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tramp.h - what the trampolines' registration (tramp.c) and their
 * handler halves (tramp_run.c, called from the companion module's stubs,
 * tramp/) share.
 */
#ifndef _STOPWATCH_TRAMP_H
#define _STOPWATCH_TRAMP_H

#include "wrapper/ftrace.h"
#include "tramp/abi.h"
#include "attach.h"

#if defined(SW_HAVE_FTRACE_DIRECT) && defined(SW_TRAMP_ARCH)
#define SW_HAVE_TRAMP 1

/*
 * Each stub's probe: set before its direct call is installed, cleared once
 * the probe is removed (tramp.c, under its lock); read by the halves.
 */
extern struct sw_tramp *sw_tramp_slot[SW_TRAMP_SLOTS];

/* tramp_run.c: the halves, handed to the companion in struct sw_tramp_ops. */
void sw_tramp_enter(void *frame);
void sw_tramp_exit(void *frame);
#endif

#endif /* _STOPWATCH_TRAMP_H */
