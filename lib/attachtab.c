// SPDX-License-Identifier: GPL-2.0
/*
 * attachtab.c - the words for how a probe is attached (attachtab.h).  Pure
 * logic: compiled into stopwatch.ko, the stopwatch program and host tests.
 */
#include "attachtab.h"

static const char *const sw_attach_names[] = {
	[SW_STATS_ATTACH_KRETPROBE] = "kretprobe",
	[SW_STATS_ATTACH_TRAMPOLINE] = "trampoline",
	[SW_STATS_ATTACH_UPROBE] = "uprobe",
};

const char *sw_attach_name(int attach)
{
	if (attach < 0 || attach >= (int)ARRAY_SIZE(sw_attach_names))
		return NULL;
	return sw_attach_names[attach];
}

/* The refusals of sw_tramp_register() (attach/tramp.c), the last any other. */
static const struct sw_attach_why sw_attach_whys[] = {
	{ EOPNOTSUPP, "no direct calls",
	  "this kernel or architecture has no ftrace direct calls for stopwatch" },
	{ ENODATA, "no argument count",
	  "its argument count is unknown (give args=N)" },
	{ E2BIG, "stack arguments",
	  "it takes arguments on the stack (more than a trampoline passes in registers)" },
	{ ENOSPC, "no free trampoline",
	  "every trampoline stub is in use" },
	{ ENOPKG, "no stopwatch_tramp",
	  "stopwatch_tramp.ko, which holds the trampolines, is not loaded (modprobe stopwatch_tramp, or insmod it from the build directory)" },
	{ EPROTO, "stopwatch_tramp mismatch",
	  "the stopwatch_tramp.ko loaded is of another stopwatch version (reboot to load a matching pair)" },
	{ EBUSY, "another direct caller",
	  "another direct caller (e.g. a BPF fentry/fexit program) holds it" },
	{ EINVAL, "ftrace or BTF refused",
	  "ftrace cannot trace it" },
	{ ENOENT, "not traceable",
	  "ftrace cannot trace it, or its module is going away" },
	{ 0, "ftrace refused",
	  "ftrace refused the direct call" },
};

const struct sw_attach_why *sw_attach_why(int err)
{
	const struct sw_attach_why *w = sw_attach_whys;

	if (err < 0)
		err = -err;
	while (w->err && w->err != err)
		w++;
	return w;
}
