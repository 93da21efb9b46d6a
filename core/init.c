// SPDX-License-Identifier: GPL-2.0
/*
 * init.c - bring the measurement core up and down: the cost sampling, the
 * pending table, the call paths, then the sched_switch hook that uses the
 * table.
 */
#include "core.h"
#include "cost.h"

/**
 * sw_core_init() - start the pending table and the context-switch hook.
 *
 * Context: process context (module init), after the pmu.
 * Return: 0 or a negative errno; nothing is left behind on failure.
 */
int sw_core_init(void)
{
	int ret;

	sw_clock_init();
	ret = sw_cost_init();
	if (ret)
		return ret;
	ret = sw_pending_init();
	if (ret)
		goto out_cost;
	ret = sw_paths_init();
	if (ret)
		goto out_pending;
	ret = sw_virt_init();
	if (ret)
		goto out_paths;
	return 0;

out_paths:
	sw_paths_exit_module();
out_pending:
	sw_pending_exit();
out_cost:
	sw_cost_exit();
	return ret;
}

/**
 * sw_core_cleanup() - stop the hook, then free the pending table.
 *
 * Called after every probe is gone.
 *
 * Context: process context (module exit or failed init).
 */
void sw_core_cleanup(void)
{
	sw_virt_exit();
	sw_paths_exit_module();
	sw_pending_exit();
	sw_cost_exit();
}
