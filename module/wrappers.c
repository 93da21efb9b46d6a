// SPDX-License-Identifier: GPL-2.0
/*
 * wrappers.c - compiles every include/wrapper/ header against the kernel
 * being built for, including those no part of the module uses yet
 * (uprobes.h, ftrace.h: for the attach mechanisms to come), so a kernel
 * API change breaks the build at once rather than later.  Defines nothing.
 */
#include "wrapper/arch.h"
#include "wrapper/cgroup.h"
#include "wrapper/ftrace.h"
#include "wrapper/irqflags.h"
#include "wrapper/kallsyms.h"
#include "wrapper/kprobes.h"
#include "wrapper/module.h"
#include "wrapper/perf_event.h"
#include "wrapper/seqlock.h"
#include "wrapper/smp.h"
#include "wrapper/stacktrace.h"
#include "wrapper/timekeeping.h"
#include "wrapper/tracepoint.h"
#include "wrapper/uaccess.h"
#include "wrapper/uprobes.h"
