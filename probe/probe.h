/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probe.h - the probe registry: which functions are timed, how, and what
 * their statistics look like in debugfs.  The top of the module below
 * main.c.
 *
 *   show.c      one probe's row of the stats file and its hist/<probe> file
 *   registry.c  the probes: add and remove (all or nothing), reset,
 *               breakdown mode; keeps every probe's event statistics in
 *               step with the pmu's event set (struct sw_pmu_client)
 *   files.c     stats, probes, reset, breakdown and breakdown_stats
 */
#ifndef _STOPWATCH_PROBE_H
#define _STOPWATCH_PROBE_H

#include <linux/list.h>
#include <linux/seq_file.h>

#include "agg/agg.h"
#include "attach/attach.h"
#include "core/core.h"
#include "core/cost.h"
#include "pmu/pmu.h"

/**
 * struct sw_probe - one timed function, of the kernel or of a program.
 * @list:    entry in the registry's list, under its lock
 * @aggs:    the aggregations its calls are folded into
 * @kp:      how a kernel function is attached by kretprobe
 * @up:      how a user function is attached (@upath set)
 * @tp:      how a kernel function is attached by trampoline (@tramp set)
 * @spec:    its filters and keys (handed to kp or up when it has any)
 * @hist:    its debugfs hist/<name> file
 * @func:    the function's name (a user point's: BINARY:NAME)
 * @upath:   a user point's file, NULL for a kernel function
 * @uoffset: a user point's file offset
 * @attach:  a kernel function's attach= option (SW_ATTACH_*)
 * @nargs:   its argument count from args=, -1 when not given
 * @tramp:   attached by trampoline (else kretprobe, or uprobe)
 * @kp_left: on a trampoline, its kretprobe (which checked the function
 *           and resolved its address) is still registered, disabled: it
 *           goes with the others of its control line, in one batch
 * @attach_err: why a kernel function is not on a trampoline when
 *           attach=auto would have put it on one: a positive errno of
 *           sw_tramp_register(), 0 otherwise
 * @name:    the probe's identity, FUNC or FUNC@TAG (several probes with
 *           different tags may time one function)
 */
struct sw_probe {
	struct list_head list;
	struct sw_aggs aggs;
	union {
		struct sw_kretprobe kp;
		struct sw_uprobe up;
	};
	struct sw_tramp tp;
	struct sw_spec spec;
	struct sw_file *hist;
	char *func;
	char *upath;
	u64 uoffset;
	int attach;
	int nargs;
	bool tramp;
	bool kp_left;
	int attach_err;
	char name[];
};

/* probe/show.c */
int sw_hist_show(struct seq_file *m, void *v);
struct sw_show_buf;
void sw_lhist_section(struct seq_file *m, struct sw_probe *p,
		      struct sw_show_buf *buf);
void sw_hist_sections(struct seq_file *m, struct sw_probe *p,
		      struct sw_show_buf *buf, bool row);
void sw_stats_header(struct seq_file *m, const struct sw_evset *set);
/**
 * struct sw_show_buf - scratch for reading one probe's statistics.
 * @tm:  the merged wall-time statistics
 * @evr: the merged event statistics
 */
struct sw_show_buf {
	struct sw_timing *tm;
	struct sw_evread evr;
};

struct sw_show_buf *sw_show_buf_alloc(void);
void sw_show_buf_free(struct sw_show_buf *buf);

void sw_stats_row(struct seq_file *m, struct sw_probe *p,
		  struct sw_show_buf *buf);

/* probe/registry.c */
extern const struct sw_pmu_client sw_registry_pmu_client;
int sw_registry_init(void);
void sw_registry_exit(void);
int sw_registry_for_each(int (*fn)(struct sw_probe *p, void *arg),
			 void *arg, void (*first)(void *arg));
int sw_probes_apply(char *line);
int sw_reset_all(void);
int sw_breakdown_set(int mode);
int sw_breakdown_mode(void);

/* probe/files.c */
int sw_probe_files_init(void);
void sw_probe_files_exit(void);

#endif /* _STOPWATCH_PROBE_H */
