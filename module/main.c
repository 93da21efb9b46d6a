// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - stopwatch.ko: composes the parts, in dependency order, and
 * holds no state of its own.
 *
 *   control/  debugfs directory, control files, error reporting
 *   pmu/      the event set (perf counters per CPU), told of by the registry
 *   core/     the measurement core: pending calls, context-switch hook
 *   probe/    the registry of probed functions and its files
 *   sampler/  the oprofile-style sampler (independent of probes)
 *   span/     spans: intervals between two points with the same key
 *
 * Each part checks its own module parameters and registers its own files;
 * exit undoes init in reverse.
 */
#include <linux/module.h>

#include "control/control.h"
#include "pmu/pmu.h"
#include "core/core.h"
#include "probe/probe.h"
#include "sampler/session.h"
#include "span/span.h"

static int __init stopwatch_init(void)
{
	int ret;

	ret = sw_debugfs_init();
	if (ret)
		return ret;
	ret = sw_pmu_init(&sw_registry_pmu_client);
	if (ret)
		goto out_remove_debugfs;
	ret = sw_core_init();
	if (ret)
		goto out_pmu_exit;
	ret = sw_registry_init();
	if (ret)
		goto out_core_cleanup;
	ret = sw_probe_files_init();
	if (ret)
		goto out_registry_exit;
	ret = sw_sampler_init();
	if (ret)
		goto out_remove_probe_files;
	ret = sw_span_init();
	if (ret)
		goto out_sampler_exit;
	return 0;

out_sampler_exit:
	sw_sampler_exit();
out_remove_probe_files:
	sw_probe_files_exit();
out_registry_exit:
	sw_registry_exit();
out_core_cleanup:
	sw_core_cleanup();
out_pmu_exit:
	sw_pmu_exit();
out_remove_debugfs:
	sw_debugfs_exit();
	return ret;
}

static void __exit stopwatch_exit(void)
{
	sw_span_exit();
	sw_sampler_exit();
	sw_probe_files_exit();
	sw_registry_exit();
	sw_core_cleanup();
	sw_pmu_exit();
	sw_debugfs_exit();
	pr_info(SW_NAME ": unloaded\n");
}

module_init(stopwatch_init);
module_exit(stopwatch_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("stopwatch: time kernel functions with per-CPU statistics and histograms");
MODULE_AUTHOR("The stopwatch developers");
MODULE_VERSION(SW_VERSION);
