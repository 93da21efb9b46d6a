// SPDX-License-Identifier: GPL-2.0
/*
 * breakdown.c - statistics in rows keyed by one value or a pair: the
 * global breakdown mode (pid, tgid, comm or cpu: the breakdown_stats file)
 * and each probe's own by= (also caller, argN, retval: the keys file,
 * which shows the global mode's rows too).
 *
 * Each probe has one bounded table per CPU (module parameter
 * breakdown_slots).  A call whose key finds no free slot is counted in the
 * table's "other" row, so the rows of a probe always add up to its calls.
 * The measurement core computes the key (core/filter.c); a row keeps the
 * call's time and, when the table's event set measured it, its event
 * counts.  Reading merges the per-CPU tables by key.
 */
#include <linux/moduleparam.h>
#include <linux/kallsyms.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/vmalloc.h>

#include "control/control.h"
#include "pmu/pmu.h"
#include "wrapper/kallsyms.h"
#include "agg.h"

#define SW_BD_SLOTS_LIMIT 65536

unsigned int sw_bd_slots = 64;
module_param_named(breakdown_slots, sw_bd_slots, uint, 0400);
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
 * @by:  what the rows are keyed by
 * @set: the current event set, whose counts the rows sum (NULL: none)
 *
 * Context: process context; may sleep.
 * Return: the tables, or NULL when out of memory.
 */
struct sw_bdgen *sw_bdgen_alloc(struct sw_by by, const struct sw_evset *set)
{
	struct sw_bdgen *bd;
	int cpu;

	bd = kzalloc(struct_size(bd, cpu, nr_cpu_ids), GFP_KERNEL);
	if (!bd)
		return NULL;
	bd->by = by;
	bd->nslots = sw_bd_slots;
	bd->set_id = set ? set->id : 0;
	bd->nev = set ? set->n : 0;
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
 * sw_bd_add() - count one call in this CPU's row for @key.
 * @acc: the call's event counts under bd->set_id, or NULL
 * @bad: events of @acc the call was not counted for
 * Context: the measurement core's exit half (preemption disabled, possibly
 * NMI); the only writer of this CPU's table.  No locks, no allocation.
 */
void sw_bd_add(struct sw_bdgen *bd, const struct sw_bd_key *key, u64 ns,
	       const u64 *acc, u32 bad)
{
	struct sw_bd_cpu *c = bd->cpu[sw_cpu()];

	raw_write_seqcount_begin(&c->seq);
	sw_bd_slot_add(sw_bd_lookup(&c->tbl, key), ns, acc ? bd->nev : 0,
		       acc ? bad : 0, acc);
	raw_write_seqcount_end(&c->seq);
}
NOKPROBE_SYMBOL(sw_bd_add);

struct sw_bd_row {
	bool other;
	struct sw_bd_slot s;
};

static int sw_bd_cmp_key(const void *a, const void *b)
{
	const struct sw_bd_row *x = a, *y = b;

	if (x->other != y->other)
		return x->other ? 1 : -1;
	return memcmp(&x->s.key, &y->s.key, sizeof(x->s.key));
}

static int sw_bd_cmp_calls(const void *a, const void *b)
{
	const struct sw_bd_row *x = a, *y = b;

	if (x->other != y->other)
		return x->other ? 1 : -1;
	if (x->s.st.count != y->s.st.count)
		return x->s.st.count > y->s.st.count ? -1 : 1;
	return memcmp(&x->s.key, &y->s.key, sizeof(x->s.key));
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
			rows[n].other = false;
			rows[n].s = snap->slots[i];
			n++;
		}
		if (snap->other.st.count) {
			rows[n].other = true;
			rows[n].s = snap->other;
			memset(&rows[n].s.key, 0, sizeof(rows[n].s.key));
			n++;
		}
	}
	return n;
}

/* Merges equal keys, then sorts busiest first; returns the row count. */
static int sw_bd_fold(struct sw_bd_row *rows, int n)
{
	int i, out = 0;

	sort(rows, n, sizeof(*rows), sw_bd_cmp_key, NULL);
	for (i = 0; i < n; i++) {
		if (out && !sw_bd_cmp_key(&rows[out - 1], &rows[i]))
			sw_bd_slot_merge(&rows[out - 1].s, &rows[i].s);
		else
			rows[out++] = rows[i];
	}
	sort(rows, out, sizeof(*rows), sw_bd_cmp_calls, NULL);
	return out;
}

static void sw_bd_show_comm(struct seq_file *m, const char *comm)
{
	if (!comm[0])
		seq_puts(m, "\\000"); /* empty name: keep the column */
	else
		seq_escape(m, comm, " \t\n\\");
}

static void sw_bd_show_key(struct seq_file *m, int mode,
			   const struct sw_bd_row *r)
{
	if (r->other)
		seq_puts(m, "other");
	else if (mode == SW_BD_COMM && !strcmp(r->s.key.comm, "other"))
		seq_puts(m, "\\157ther"); /* a task named "other": not the row */
	else if (mode == SW_BD_COMM)
		sw_bd_show_comm(m, r->s.key.comm);
	else
		seq_printf(m, "%llu", r->s.key.id);
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

static void sw_bd_show_time(struct seq_file *m, const struct sw_stats *st)
{
	seq_printf(m, " %10llu %12llu %12llu %12llu %12llu %14llu", st->count,
		   st->min, sw_stats_avg(st), st->max, sw_stats_stddev(st),
		   st->sum);
}

/**
 * sw_bdgen_show() - print one probe's rows of the breakdown_stats file.
 * @m:     seq_file
 * @probe: the probe's name, first column
 * @bd:    its tables (kept alive by the caller), keyed by the global mode
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
	for (i = 0; i < n; i++) {
		seq_printf(m, "%-24s ", probe);
		sw_bd_show_key(m, bd->by.k[0], &r[i]);
		sw_bd_show_time(m, &r[i].s.st);
		seq_putc(m, '\n');
	}
}

/*
 * A return value: an int function's error leaves the upper half of the
 * register zero on x86 and arm64 (32-bit moves zero-extend), so a value
 * whose low half is -1..-4095 and high half zero reads as that error.
 */
static s64 sw_retval(u64 v)
{
	if (!(v >> 32) && (s32)v < 0 && (s32)v >= -4095)
		return (s32)v;
	return (s64)v;
}

/* "kind=value" of one part of a key; @id: its numeric value. */
static void sw_keys_show_part(struct seq_file *m, u8 kind, u64 id,
			      const char *comm)
{
	char sym[KSYM_SYMBOL_LEN + 8];

	seq_printf(m, "%s=", sw_key_name(kind));
	switch (kind) {
	case SW_KEY_COMM:
		sw_bd_show_comm(m, comm);
		break;
	case SW_KEY_CALLER:
		snprintf(sym, sizeof(sym), "%pS", (void *)id);
		/* an address with no symbol is shown as kallsyms would */
		if (!strncmp(sym, "0x", 2) && !sw_kallsyms_show_value())
			strscpy(sym, "0x0", sizeof(sym));
		seq_escape(m, sym, " \t\n\\");
		break;
	case SW_KEY_RETVAL:
		seq_printf(m, "%lld", sw_retval(id));
		break;
	case SW_KEY_PID:
	case SW_KEY_TGID:
	case SW_KEY_CPU:
		seq_printf(m, "%llu", id);
		break;
	default: /* argN: an integer, signed */
		seq_printf(m, "%lld", (s64)id);
		break;
	}
}

/**
 * sw_keys_header() - the keys file's first line.
 * @m:   seq_file
 * @set: the current event set (NULL: none): one <event>_avg column each
 *
 * Context: process context.
 */
void sw_keys_header(struct seq_file *m, const struct sw_evset *set)
{
	char name[SW_EVENT_NAME_LEN + 8];
	u32 i;

	seq_printf(m, "%-24s %-24s %10s %12s %12s %12s %12s %14s", "probe",
		   "key", "calls", "min_ns", "avg_ns", "max_ns", "stddev_ns",
		   "total_ns");
	for (i = 0; set && i < set->n; i++) {
		snprintf(name, sizeof(name), "%s_avg", set->spec[i].name);
		seq_printf(m, " %14s", name);
	}
	seq_putc(m, '\n');
}

/**
 * sw_keys_show() - print one probe's rows of the keys file.
 * @m:     seq_file
 * @probe: the probe's identity, first column
 * @bd:    its tables (kept alive by the caller)
 * @set:   the current event set, as given to sw_keys_header()
 * @rows:  from sw_bd_rows_alloc() for @bd->nslots
 * @snap:  likewise
 *
 * The key column is "kind=value", a pair joined with ","; rows by calls,
 * busiest first, "other" last.  The per-event averages are over the calls
 * measured for the event; "-" where the tables were made under another
 * event set than the current one (a reset starts them anew).
 *
 * Context: process context.
 */
void sw_keys_show(struct seq_file *m, const char *probe, struct sw_bdgen *bd,
		  const struct sw_evset *set, void *rows, void *snap)
{
	bool evs = set && bd->set_id == set->id;
	struct sw_bd_row *r = rows;
	int n, i, j;
	u32 e;

	n = sw_bd_fold(r, sw_bd_collect(bd, snap, r));
	for (i = 0; i < n; i++) {
		const struct sw_bd_slot *s = &r[i].s;
		bool second = false;

		seq_printf(m, "%-24s ", probe);
		if (r[i].other)
			seq_puts(m, "other");
		for (j = 0; !r[i].other && j < 2; j++) {
			u8 kind = bd->by.k[j];
			u64 id = second ? s->key.id2 : s->key.id;

			if (kind == SW_KEY_NONE)
				continue;
			if (j)
				seq_putc(m, ',');
			sw_keys_show_part(m, kind, id, s->key.comm);
			if (kind != SW_KEY_COMM)
				second = true;
		}
		sw_bd_show_time(m, &s->st);
		for (e = 0; set && e < set->n; e++) {
			if (!evs)
				seq_printf(m, " %14s", "-");
			else
				seq_printf(m, " %14llu",
					   s->ev_n[e] ? div64_u64(s->ev_sum[e],
								  s->ev_n[e]) :
							0);
		}
		seq_putc(m, '\n');
	}
}
