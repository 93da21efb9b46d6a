/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tramp.h - what the trampolines' registration (tramp.c) and their
 * handler halves (tramp_run.c, called from tramp_x86.S or tramp_arm64.S)
 * share.
 */
#ifndef _STOPWATCH_TRAMP_H
#define _STOPWATCH_TRAMP_H

#include "wrapper/ftrace.h"
#include "attach.h"
#include "tramp_frame.h"

#if defined(SW_HAVE_FTRACE_DIRECT) && \
	(defined(CONFIG_X86_64) || defined(CONFIG_ARM64))
#define SW_HAVE_TRAMP 1

/* The stubs (tramp_x86.S, tramp_arm64.S), SW_TRAMP_STUB_SIZE bytes apart. */
extern const u8 sw_tramp_stubs[];

/*
 * Each stub's probe: set before its direct call is installed, cleared once
 * the probe is released (tramp.c, under its lock); read by the halves.
 */
extern struct sw_tramp *sw_tramp_slot[SW_TRAMP_SLOTS];
#endif

#endif /* _STOPWATCH_TRAMP_H */
