// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - stopwatch.ko: module parameters, load and unload.
 *
 * stopwatch times kernel functions with kretprobes and keeps per-CPU
 * statistics and log2 histograms of their wall time, read through
 * /sys/kernel/debug/stopwatch/.
 */
#include <linux/cpumask.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "stopwatch.h"
#include "../pmu/pmu.h"

static char *probes;
module_param(probes, charp, 0444);
MODULE_PARM_DESC(probes,
		 "Comma-separated kernel functions to time from load on, e.g. vfs_read,do_sys_openat2 (default: none; add more through debugfs)");

static unsigned int maxactive;
module_param(maxactive, uint, 0444);
MODULE_PARM_DESC(maxactive,
		 "Calls of one probed function that can be in flight at once; more are counted as missed (default 0 = max(128, 16 x possible CPUs))");

unsigned int sw_max_probes = 64;
module_param_named(max_probes, sw_max_probes, uint, 0444);
MODULE_PARM_DESC(max_probes,
		 "Most functions probed at once, 1 to 4096 (default 64)");

static char *breakdown = "none";
module_param(breakdown, charp, 0444);
MODULE_PARM_DESC(breakdown,
		 "Break statistics down by none, pid, tgid, comm or cpu (default none); changeable in debugfs");

unsigned int sw_bd_slots = 64;
module_param_named(breakdown_slots, sw_bd_slots, uint, 0444);
MODULE_PARM_DESC(breakdown_slots,
		 "Breakdown rows per probe per CPU before calls count as 'other', 1 to 65536 (default 64)");

static char *events;
module_param(events, charp, 0444);
MODULE_PARM_DESC(events,
		 "Comma-separated perf events counted per call, per thread, e.g. cycles,instructions or cpu-clock,r00c0,4:0x3c (default: none; changeable in debugfs)");

DEFINE_MUTEX(sw_lock);
LIST_HEAD(sw_probes);
unsigned int sw_nprobes;
int sw_bd_mode = SW_BD_NONE;

static DEFINE_SPINLOCK(sw_err_lock);
static char sw_errmsg[SW_ERRMSG_LEN];

/**
 * sw_error() - report a failed request in the kernel log and last_error.
 * @fmt: printf format; the text should name the offending value
 *
 * Context: process context.
 */
void sw_error(const char *fmt, ...)
{
	char msg[SW_ERRMSG_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pr_err(SW_NAME ": %s\n", msg);
	spin_lock(&sw_err_lock);
	strscpy(sw_errmsg, msg, sizeof(sw_errmsg));
	spin_unlock(&sw_err_lock);
}

/**
 * sw_error_clear() - forget the last error (a new control write begins).
 *
 * Context: process context.
 */
void sw_error_clear(void)
{
	spin_lock(&sw_err_lock);
	sw_errmsg[0] = '\0';
	spin_unlock(&sw_err_lock);
}

/**
 * sw_error_show() - print the last error, or nothing, into a seq_file.
 * @m: seq_file
 *
 * Context: process context.
 */
void sw_error_show(struct seq_file *m)
{
	char msg[SW_ERRMSG_LEN];

	spin_lock(&sw_err_lock);
	strscpy(msg, sw_errmsg, sizeof(msg));
	spin_unlock(&sw_err_lock);
	if (msg[0])
		seq_printf(m, "%s\n", msg);
}

/**
 * sw_maxactive() - kretprobe instances per probe.
 *
 * Context: any.
 * Return: the maxactive parameter, or by default max(128, 16 x CPUs).
 */
int sw_maxactive(void)
{
	if (maxactive)
		return maxactive;
	return max_t(int, 128, 16 * num_possible_cpus());
}

static int __init sw_check_params(void)
{
	int mode;

	if (sw_max_probes < 1 || sw_max_probes > SW_MAX_PROBES_LIMIT) {
		sw_error("max_probes=%u is outside 1..%d", sw_max_probes,
			 SW_MAX_PROBES_LIMIT);
		return -EINVAL;
	}
	if (sw_bd_slots < 1 || sw_bd_slots > SW_BD_SLOTS_LIMIT) {
		sw_error("breakdown_slots=%u is outside 1..%d", sw_bd_slots,
			 SW_BD_SLOTS_LIMIT);
		return -EINVAL;
	}
	if (maxactive > 65536) {
		sw_error("maxactive=%u is larger than 65536", maxactive);
		return -EINVAL;
	}
	mode = sw_parse_breakdown(breakdown ? breakdown : "none");
	if (mode < 0) {
		sw_error("breakdown=%s is not one of none pid tgid comm cpu",
			 breakdown);
		return -EINVAL;
	}
	sw_bd_mode = mode;
	return 0;
}

static int __init stopwatch_init(void)
{
	char *buf;
	int ret;

	ret = sw_check_params();
	if (ret)
		return ret;
	ret = sw_debugfs_init();
	if (ret)
		return ret;
	ret = sw_pmu_init(events);
	if (ret)
		goto out_remove_debugfs;
	ret = sw_sampler_init();
	if (ret)
		goto out_pmu_exit;
	if (probes && *probes) {
		buf = kstrdup(probes, GFP_KERNEL);
		if (!buf) {
			ret = -ENOMEM;
			goto out_exit_sampler;
		}
		ret = sw_probes_apply(buf);
		kfree(buf);
		if (ret)
			goto out_exit_sampler;
	}
	pr_info(SW_NAME ": loaded, %u probes, maxactive %d\n", sw_nprobes,
		sw_maxactive());
	return 0;

out_exit_sampler:
	sw_sampler_exit();
out_pmu_exit:
	sw_pmu_exit();
out_remove_debugfs:
	sw_debugfs_exit();
	return ret;
}

static void __exit stopwatch_exit(void)
{
	sw_sampler_exit();
	sw_debugfs_exit();
	sw_probes_remove_all();
	sw_pmu_exit();
	pr_info(SW_NAME ": unloaded\n");
}

module_init(stopwatch_init);
module_exit(stopwatch_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("stopwatch: time kernel functions with per-CPU statistics and histograms");
MODULE_AUTHOR("The stopwatch developers");
MODULE_VERSION(SW_VERSION);
