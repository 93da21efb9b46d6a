// SPDX-License-Identifier: GPL-2.0
/*
 * breakdown.c - statistics broken down by pid, tgid, comm or cpu.
 *
 * Each probe has one bounded table per CPU (module parameter
 * breakdown_slots).  A call whose key finds no free slot is counted in the
 * table's "other" row, so the rows of a probe always add up to its calls.
 * Reading merges the per-CPU tables by key.
 */
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/vmalloc.h>

#include "control/control.h"
#include "agg.h"

#define SW_BD_SLOTS_LIMIT 65536

unsigned int sw_bd_slots = 64;
module_param_named(breakdown_slots, sw_bd_slots, uint, 0444);
MODULE_PARM_DESC(breakdown_slots,
		 "Breakdown rows per probe per CPU before calls count as 'other', 1 to 65536 (default 64)");

/**
 * sw_bd_check_params() - refuse a bad breakdown_slots parameter.
 *
 * Context: process context (module init).
 * Return: 0 or -EINVAL, said with sw_error().
 */
int sw_bd_check_params(void)
{
	if (sw_bd_slots < 1 || sw_bd_slots > SW_BD_SLOTS_LIMIT) {
		sw_error("breakdown_slots=%u is outside 1..%d", sw_bd_slots,
			 SW_BD_SLOTS_LIMIT);
		return -EINVAL;
	}
	return 0;
}

/**
 * sw_bdgen_alloc() - allocate empty breakdown tables for every CPU.
 * @mode: SW_BD_PID, SW_BD_TGID, SW_BD_COMM or SW_BD_CPU
 *
 * Context: process context; may sleep.
 * Return: the tables, or NULL when out of memory.
 */
struct sw_bdgen *sw_bdgen_alloc(int mode)
{
	struct sw_bdgen *bd;
	int cpu;

	bd = kzalloc(struct_size(bd, cpu, nr_cpu_ids), GFP_KERNEL);
	if (!bd)
		return NULL;
	bd->mode = mode;
	bd->nslots = sw_bd_slots;
	for_each_possible_cpu(cpu) {
		struct sw_bd_cpu *c;

		c = kvzalloc_node(sizeof(*c) - sizeof(c->tbl) +
					  sw_bd_table_size(bd->nslots),
				  GFP_KERNEL, cpu_to_node(cpu));
		if (!c)
			goto out_free;
		seqcount_init(&c->seq);
		sw_bd_table_init(&c->tbl, bd->nslots);
		bd->cpu[cpu] = c;
	}
	return bd;

out_free:
	sw_bdgen_free(bd);
	return NULL;
}

/**
 * sw_bdgen_free() - free breakdown tables; NULL is accepted.
 * @bd: tables no handler can still see (after an RCU grace period)
 *
 * Context: process context.
 */
void sw_bdgen_free(struct sw_bdgen *bd)
{
	int cpu;

	if (!bd)
		return;
	for_each_possible_cpu(cpu)
		kvfree(bd->cpu[cpu]);
	kfree(bd);
}

/*
 * sw_bd_record() - count one call in this CPU's breakdown table.
 * Context: the measurement core's exit half (preemption disabled, possibly
 * NMI); the only writer of this CPU's table.  No locks, no allocation.
 */
void sw_bd_record(struct sw_bdgen *bd, u64 ns, u32 entry_cpu)
{
	struct sw_bd_cpu *c = bd->cpu[smp_processor_id()];
	struct sw_bd_key key = {};
	int i;

	switch (bd->mode) {
	case SW_BD_PID:
		key.id = current->pid;
		break;
	case SW_BD_TGID:
		key.id = current->tgid;
		break;
	case SW_BD_COMM:
		/* Racy against set_task_comm(); stop at the first NUL. */
		for (i = 0; i < SW_COMM_LEN - 1; i++) {
			key.comm[i] = READ_ONCE(current->comm[i]);
			if (!key.comm[i])
				break;
		}
		break;
	default:
		key.id = entry_cpu;
		break;
	}
	raw_write_seqcount_begin(&c->seq);
	sw_stats_add(sw_bd_lookup(&c->tbl, &key), ns);
	raw_write_seqcount_end(&c->seq);
}
NOKPROBE_SYMBOL(sw_bd_record);

struct sw_bd_row {
	struct sw_bd_key key;
	bool other;
	struct sw_stats st;
};

static int sw_bd_cmp_key(const void *a, const void *b)
{
	const struct sw_bd_row *x = a, *y = b;

	if (x->other != y->other)
		return x->other ? 1 : -1;
	return memcmp(&x->key, &y->key, sizeof(x->key));
}

static int sw_bd_cmp_calls(const void *a, const void *b)
{
	const struct sw_bd_row *x = a, *y = b;

	if (x->other != y->other)
		return x->other ? 1 : -1;
	if (x->st.count != y->st.count)
		return x->st.count > y->st.count ? -1 : 1;
	return memcmp(&x->key, &y->key, sizeof(x->key));
}

/* Copies every CPU's table into @rows (room for nslots + 1 per CPU). */
static int sw_bd_collect(struct sw_bdgen *bd, struct sw_bd_table *snap,
			 struct sw_bd_row *rows)
{
	size_t size = sw_bd_table_size(bd->nslots);
	int cpu, n = 0;
	u32 i;

	for_each_possible_cpu(cpu) {
		struct sw_bd_cpu *c = bd->cpu[cpu];
		unsigned int seq;

		do {
			seq = read_seqcount_begin(&c->seq);
			memcpy(snap, &c->tbl, size);
		} while (read_seqcount_retry(&c->seq, seq));
		for (i = 0; i < snap->nslots; i++) {
			if (!snap->slots[i].used)
				continue;
			rows[n].key = snap->slots[i].key;
			rows[n].other = false;
			rows[n].st = snap->slots[i].st;
			n++;
		}
		if (snap->other.count) {
			memset(&rows[n].key, 0, sizeof(rows[n].key));
			rows[n].other = true;
			rows[n].st = snap->other;
			n++;
		}
	}
	return n;
}

/* Sorts rows by key and folds equal keys together; returns the new count. */
static int sw_bd_fold(struct sw_bd_row *rows, int n)
{
	int i, out = 0;

	sort(rows, n, sizeof(*rows), sw_bd_cmp_key, NULL);
	for (i = 0; i < n; i++) {
		if (out && !sw_bd_cmp_key(&rows[out - 1], &rows[i]))
			sw_stats_merge(&rows[out - 1].st, &rows[i].st);
		else
			rows[out++] = rows[i];
	}
	return out;
}

static void sw_bd_show_key(struct seq_file *m, int mode,
			   const struct sw_bd_row *r)
{
	if (r->other)
		seq_puts(m, "other");
	else if (mode == SW_BD_COMM && !r->key.comm[0])
		seq_puts(m, "\\000"); /* empty name: keep the column */
	else if (mode == SW_BD_COMM && !strcmp(r->key.comm, "other"))
		seq_puts(m, "\\157ther"); /* a task named "other": not the row */
	else if (mode == SW_BD_COMM)
		seq_escape(m, r->key.comm, " \t\n\\");
	else
		seq_printf(m, "%llu", r->key.id);
}

/**
 * sw_bd_rows_alloc() - scratch space for sw_bdgen_show().
 * @nslots: slots per table of the generations to be shown
 * @snap:   one table's snapshot, output
 *
 * Context: process context; may sleep.
 * Return: the row buffer, or NULL (nothing allocated) when out of memory.
 */
void *sw_bd_rows_alloc(u32 nslots, void **snap)
{
	struct sw_bd_row *rows;

	rows = kvmalloc_array(num_possible_cpus() * (nslots + 1),
			      sizeof(*rows), GFP_KERNEL);
	*snap = kvmalloc(sw_bd_table_size(nslots), GFP_KERNEL);
	if (!rows || !*snap) {
		kvfree(rows);
		kvfree(*snap);
		*snap = NULL;
		return NULL;
	}
	return rows;
}

/**
 * sw_bd_rows_free() - free what sw_bd_rows_alloc() made; NULL accepted.
 * @rows: row buffer
 * @snap: snapshot buffer
 */
void sw_bd_rows_free(void *rows, void *snap)
{
	kvfree(snap);
	kvfree(rows);
}

/**
 * sw_bdgen_show() - print one probe's rows of the breakdown_stats file.
 * @m:     seq_file
 * @probe: the probe's name, first column
 * @bd:    its tables (kept alive by the caller)
 * @rows:  from sw_bd_rows_alloc() for @bd->nslots
 * @snap:  likewise
 *
 * Rows by calls, busiest first, the "other" row last; columns "calls
 * min_ns avg_ns max_ns stddev_ns total_ns" after the key.
 *
 * Context: process context.
 */
void sw_bdgen_show(struct seq_file *m, const char *probe,
		   struct sw_bdgen *bd, void *rows, void *snap)
{
	struct sw_bd_row *r = rows;
	int n, i;

	n = sw_bd_fold(r, sw_bd_collect(bd, snap, r));
	sort(r, n, sizeof(*r), sw_bd_cmp_calls, NULL);
	for (i = 0; i < n; i++) {
		const struct sw_stats *st = &r[i].st;

		seq_printf(m, "%-24s ", probe);
		sw_bd_show_key(m, bd->mode, &r[i]);
		seq_printf(m, " %10llu %12llu %12llu %12llu %12llu %14llu\n",
			   st->count, st->min, sw_stats_avg(st), st->max,
			   sw_stats_stddev(st), st->sum);
	}
}
