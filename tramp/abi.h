/* SPDX-License-Identifier: GPL-2.0 */
/*
 * abi.h - what stopwatch.ko and stopwatch_tramp.ko agree on: the
 * trampolines' stack frame, the pool of stubs and the one call that joins
 * the two modules.  Shared by tramp/ (the companion module: stubs_x86.S,
 * stubs_arm64.S, stubs.c) and attach/ (tramp.c, tramp_run.c, which checks
 * every offset against its C layout when compiling).
 *
 * Why two modules: a traced function's body returns into the trampoline,
 * so a thread asleep in a trampolined function (schedule(), a wait, a
 * read) holds the trampoline's text until it wakes, which may be never.
 * The text therefore lives in a module that is never unloaded (it has an
 * init function and no exit: the kernel refuses rmmod), and stopwatch.ko
 * reaches it through SW_TRAMP_ABI-versioned ops only while it is loaded.
 * stopwatch.ko can then go at any time: a call still in flight returns
 * to the companion, which finds the ops gone (or of a later load:
 * another generation) and goes straight back to the caller.
 *
 * Version 3 added sw_tramp_owns(): stopwatch.ko refuses probes on what
 * it says is the companion's.
 *
 * The frame, from the stack pointer up (x86_64; arm64 below):
 *
 *   0    struct pt_regs (168 bytes): the argument registers at entry;
 *        ax, dx and ip (the caller's return address) at exit
 *   168  struct sw_call (40 bytes)
 *   208  seq: the probe's number when the entry half measured the call,
 *        0 when it did not (stopwatch.ko writes it)
 *   212  gen: the ops' generation the entry ran under (the companion
 *        writes it)
 *   216  the stub's index, set by the stub
 *   224  struct sw_vcall (136 bytes): a lean call's events
 *   360  spare (8 bytes)
 *   368  end; a multiple of 16 with the saved %rbp above it, so the
 *        calls out of the trampoline keep the stack 16-byte aligned
 *
 * arm64:
 *
 *   0    struct pt_regs (336 bytes): x0-x8 at entry; x0, x1 and pc (the
 *        caller's return address) at exit
 *   336  struct sw_call (40 bytes)
 *   376  seq, 380 gen (as above)
 *   384  the stub's index, set by the common body
 *   392  struct sw_vcall (136 bytes), 528 spare (8 bytes)
 *   536  padding to a multiple of 16
 *   544  the traced function's frame record: the body's frame pointer
 *        above it and the body's address (the instruction after the
 *        ftrace call site) as its return address
 *   560  the caller's frame record: the caller's fp and return address
 *   576  the stack pointer at the ftrace call site
 */
#ifndef _STOPWATCH_TRAMP_ABI_H
#define _STOPWATCH_TRAMP_ABI_H

/* Stubs in the pool, and each one's size in bytes. */
#define SW_TRAMP_SLOTS		1024
#define SW_TRAMP_STUB_SIZE	16

/* The frame's offsets per architecture: SW_TF_*. */
#include "wrapper/ftrace_direct.h"

/*
 * Above the frame, both architectures: the caller's frame pointer is at
 * SW_TF_CALLER_FP, and SW_TF_ENTRY_SP is the stack pointer at the
 * function's entry (x86_64: where its return address is).  A kretprobe
 * sharing the function replaced that return address before the stub ran;
 * its record of the call is found by them (attach/tramp_run.c).
 */

/*
 * The version of everything in this file: a companion loaded from an
 * older or newer stopwatch refuses the ops (-EPROTO) and stopwatch.ko
 * falls back to kretprobes, saying so, until the machine reboots.
 */
#define SW_TRAMP_ABI		3

#ifndef __ASSEMBLY__
#include <linux/types.h>

/**
 * struct sw_tramp_ops - stopwatch.ko's halves, handed to the companion.
 * @abi:   SW_TRAMP_ABI as stopwatch.ko was built with it
 * @stubs: set by sw_tramp_attach(): the first stub's address
 * @enter: the entry half, called with the frame (its gen already set:
 *         the companion's number for this attach, never the same twice
 *         in a boot)
 * @exit:  the exit half, called only for a call its entry measured (seq
 *         not 0) under the same attach (gen)
 *
 * Both halves are called with preemption disabled, inside an RCU-sched
 * read-side section: sw_tramp_detach() waits for them.
 */
struct sw_tramp_ops {
	u32 abi;
	unsigned long stubs;
	void (*enter)(void *frame);
	void (*exit)(void *frame);
};

/*
 * The companion's exports (stubs.c), found by stopwatch.ko with
 * symbol_get(): no load-time dependency between the two modules.
 */
int sw_tramp_attach(struct sw_tramp_ops *ops);
void sw_tramp_detach(struct sw_tramp_ops *ops);
bool sw_tramp_owns(unsigned long addr);
#endif /* !__ASSEMBLY__ */

#endif /* _STOPWATCH_TRAMP_ABI_H */
