/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stopwatch.h - internal interfaces between the parts of stopwatch.ko.
 */
#ifndef _STOPWATCH_INTERNAL_H
#define _STOPWATCH_INTERNAL_H

#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/seqlock.h>
#include <linux/seq_file.h>

#include "lib/stats.h"
#include "lib/bdtab.h"
#include "lib/parse.h"
#include "lib/evcall.h"

struct sw_evgen;
struct sw_evset;

#define SW_NAME "stopwatch"
#define SW_MAX_PROBES_LIMIT 4096
#define SW_BD_SLOTS_LIMIT 65536
#define SW_ERRMSG_LEN 256
#define SW_VERSION "0.1"
#define SW_STATS_FORMAT_MAJOR 1
/* 1.1: <event>_min/_avg/_max/_unmeasured and cpi_* columns appended */
#define SW_STATS_FORMAT_MINOR 1

/**
 * struct sw_pcpu - one CPU's statistics for one probe.
 * @seq:      odd while the owning CPU updates; readers retry
 * @st:       wall-time statistics, nanoseconds
 * @migrated: calls that returned on another CPU than they entered on
 * @hist:     log2 histogram of wall time
 */
struct sw_pcpu {
	seqcount_t seq;
	struct sw_stats st;
	u64 migrated;
	u64 hist[SW_HIST_BUCKETS];
};

/**
 * struct sw_gen - one generation of a probe's statistics.
 * @pcpu: per-CPU statistics
 *
 * Reset swaps in a new generation under RCU, so the handlers never see a
 * half-cleared table and never need a lock.
 */
struct sw_gen {
	struct sw_pcpu __percpu *pcpu;
};

/**
 * struct sw_bd_cpu - one CPU's breakdown table.
 * @seq: odd while the owning CPU updates; readers retry
 * @tbl: the table (variable size)
 */
struct sw_bd_cpu {
	seqcount_t seq;
	struct sw_bd_table tbl;
};

/**
 * struct sw_bdgen - one generation of a probe's breakdown tables.
 * @mode:   what the tables are keyed by (SW_BD_*)
 * @nslots: slots per table
 * @cpu:    one table per possible CPU, indexed by CPU number
 */
struct sw_bdgen {
	int mode;
	u32 nslots;
	struct sw_bd_cpu *cpu[];
};

/**
 * struct sw_probe - one probed kernel function.
 * @list:         entry in sw_probes, protected by sw_lock
 * @krp:          the kretprobe
 * @gen:          current statistics generation (RCU)
 * @bd:           current breakdown tables, NULL when off (RCU)
 * @evs:          current event statistics, NULL without events (RCU)
 * @hist:         debugfs hist/<name> file
 * @missed_base:  kretprobe nmissed at the last reset
 * @reentry_base: kprobe nmissed at the last reset
 * @name:         function name
 */
struct sw_probe {
	struct list_head list;
	struct kretprobe krp;
	struct sw_gen __rcu *gen;
	struct sw_bdgen __rcu *bd;
	struct sw_evgen __rcu *evs;
	struct dentry *hist;
	unsigned long missed_base;
	unsigned long reentry_base;
	char name[];
};

/**
 * struct sw_call - per-call data kept in the kretprobe instance.
 * @t0:     entry timestamp, sw_clock_ns()
 * @cpu:    CPU the call entered on
 * @set_id: id of the event set counted since entry, 0 for none
 * @ev:     the call's virtualized event counts (pmu/virt.c updates them
 *          at context switches)
 */
struct sw_call {
	u64 t0;
	u32 cpu;
	u32 set_id;
	struct sw_evcall ev;
};

/* module/main.c */
extern struct mutex sw_lock;
extern struct list_head sw_probes;
extern unsigned int sw_nprobes;
extern unsigned int sw_max_probes;
extern unsigned int sw_bd_slots;
extern int sw_bd_mode;
void sw_error(const char *fmt, ...) __printf(1, 2);
void sw_error_clear(void);
void sw_error_show(struct seq_file *m);
int sw_maxactive(void);

/* module/probes.c */
int sw_probes_apply(char *line);
void sw_probes_remove_all(void);
int sw_reset_all(void);
int sw_breakdown_set(int mode);
int sw_probe_read(struct sw_probe *p, struct sw_stats *st, u64 *hist,
		  u64 *migrated);
void sw_probe_missed(struct sw_probe *p, unsigned long *maxactive,
		     unsigned long *reentry);
struct sw_evcall *sw_call_evcall(struct kretprobe_instance *ri, u32 set_id);
int sw_probes_evgen_prepare(const struct sw_evset *set,
			    struct sw_evgen ***gens);
void sw_probes_evgen_swap(struct sw_evgen **gens);
void sw_probes_evgen_free(struct sw_evgen **gens, int n);

/* module/breakdown.c */
struct sw_bdgen *sw_bdgen_alloc(int mode);
void sw_bdgen_free(struct sw_bdgen *bd);
void sw_bd_record(struct sw_bdgen *bd, u64 ns, u32 entry_cpu);
int sw_breakdown_show(struct seq_file *m);

/**
 * struct sw_ctl_file - a debugfs control file (sw_debugfs_add_ctl()).
 * @show:  prints the current state; NULL for a write-only file
 * @apply: carries out one write, a NUL-terminated copy it may modify;
 *         returns 0 or a negative errno after saying why with sw_error()
 */
struct sw_ctl_file {
	int (*show)(struct seq_file *m);
	int (*apply)(char *buf);
};

/* module/debugfs.c */
int sw_debugfs_init(void);
void sw_debugfs_exit(void);
struct dentry *sw_debugfs_root(void);
struct dentry *sw_debugfs_add_ctl(const char *name, umode_t mode,
				  struct dentry *parent,
				  const struct sw_ctl_file *ctl);
int sw_debugfs_add_hist(struct sw_probe *p);
void sw_debugfs_remove_hist(struct sw_probe *p);
void sw_seq_emit(void *ctx, const char *fmt, ...);

/* sampler/sampler.c */
int sw_sampler_init(void);
void sw_sampler_exit(void);

#endif /* _STOPWATCH_INTERNAL_H */
