// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - stopwatch.ko: composes the parts, in dependency order, and
 * holds no state of its own.
 *
 *   control/  debugfs directory, control files, error reporting
 *   pmu/      the event set (perf counters per CPU), told of by the registry
 *             and the spans
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

/*
 * The pmu tells one client of a change of the event set: this one passes
 * it on to the probes' registry, then the spans (both keep per-set event
 * statistics).  Lock order: the registry's lock, then the spans'.
 */
static int sw_clients_prepare(const struct sw_evset *set)
{
	int ret = sw_registry_pmu_client.prepare(set);

	if (ret)
		return ret;
	ret = sw_span_pmu_client.prepare(set);
	if (ret)
		sw_registry_pmu_client.abort();
	return ret;
}

static void sw_clients_commit(void)
{
	sw_span_pmu_client.commit();
	sw_registry_pmu_client.commit();
}

static void sw_clients_abort(void)
{
	sw_span_pmu_client.abort();
	sw_registry_pmu_client.abort();
}

static void sw_clients_done(void)
{
	sw_span_pmu_client.done();
	sw_registry_pmu_client.done();
}

static const struct sw_pmu_client sw_clients = {
	.prepare = sw_clients_prepare,
	.commit = sw_clients_commit,
	.abort = sw_clients_abort,
	.done = sw_clients_done,
};

static int __init stopwatch_init(void)
{
	int ret;

	ret = sw_debugfs_init();
	if (ret)
		return ret;
	ret = sw_pmu_init(&sw_clients);
	if (ret)
		goto out_remove_debugfs;
	ret = sw_core_init();
	if (ret)
		goto out_pmu_exit;
	sw_cost_calibrate();
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
