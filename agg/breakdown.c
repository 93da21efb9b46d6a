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
 *
 * Each row has its own sequence (odd while its CPU's handler updates it).
 * A reader copies one row at a time and retries a row a bounded number of
 * times, so a read always ends however hot the writers are; a row it could
 * not copy whole in those tries is shown, as copied, in an "unread=N" row
 * (N: such rows) after "other", so the rows still add up to the calls,
 * within the calls made during the read.
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

/* Tries a reader makes to copy a row whole before it gives up on it. */
#define SW_BD_READ_TRIES 64

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
 * The row's sequence is odd while it changes (a claim included); the end
 * is a release store of the even value, which orders the row's stores
 * before it.
 */
void sw_bd_add(struct sw_bdgen *bd, const struct sw_bd_key *key, u64 ns,
	       const u64 *acc, u32 bad)
{
	struct sw_bd_table *t = &bd->cpu[sw_cpu()]->tbl;
	struct sw_bd_slot *s = sw_bd_find(t, key);
	u32 seq = s->seq + 1;

	WRITE_ONCE(s->seq, seq);
	smp_wmb(); /* the odd sequence before the row's stores */
	sw_bd_claim(t, s, key);
	sw_bd_slot_add(s, ns, acc ? bd->nev : 0, acc ? bad : 0, acc);
	smp_store_release(&s->seq, seq + 1);
}
NOKPROBE_SYMBOL(sw_bd_add);

/* What a shown row is: a key's, "other" or "unread" (shown in that order). */
enum { SW_ROW_KEY, SW_ROW_OTHER, SW_ROW_UNREAD };

/**
 * struct sw_bd_row - one row to show.
 * @kind:   SW_ROW_*
 * @unread: for SW_ROW_UNREAD, the table rows it holds
 * @s:      the row's counts (and key)
 */
struct sw_bd_row {
	u32 kind;
	u32 unread;
	struct sw_bd_slot s;
};

static int sw_bd_cmp_key(const void *a, const void *b)
{
	const struct sw_bd_row *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind > y->kind ? 1 : -1;
	return memcmp(&x->s.key, &y->s.key, sizeof(x->s.key));
}

static int sw_bd_cmp_calls(const void *a, const void *b)
{
	const struct sw_bd_row *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind > y->kind ? 1 : -1;
	if (x->s.st.count != y->s.st.count)
		return x->s.st.count > y->s.st.count ? -1 : 1;
	return memcmp(&x->s.key, &y->s.key, sizeof(x->s.key));
}

/*
 * Copies one row into @out: true when whole (its sequence even and the same
 * before and after), false after SW_BD_READ_TRIES tries, @out then holding
 * the last copy, which may mix values from before and after a write.
 */
static bool sw_bd_copy_slot(const struct sw_bd_slot *s, struct sw_bd_slot *out)
{
	unsigned int i;
	u32 seq;

	for (i = 0; i < SW_BD_READ_TRIES; i++) {
		seq = smp_load_acquire(&s->seq);
		memcpy(out, s, sizeof(*out));
		smp_rmb(); /* the copy before the second look at the sequence */
		if (!(seq & 1) && READ_ONCE(s->seq) == seq)
			return true;
		cpu_relax();
	}
	return false;
}

/*
 * Appends @s to @rows[*n] as a row of @kind, or folds it into @unr (this
 * CPU's "unread" row, at @rows[*unr] once made) when it was not read whole.
 */
static void sw_bd_take(struct sw_bd_row *rows, int *n, int *unr, u32 kind,
		       const struct sw_bd_slot *s, bool whole)
{
	if (!whole) {
		if (*unr < 0) {
			*unr = (*n)++;
			rows[*unr].kind = SW_ROW_UNREAD;
			rows[*unr].unread = 0;
			memset(&rows[*unr].s, 0, sizeof(rows[*unr].s));
			sw_stats_init(&rows[*unr].s.st);
		}
		rows[*unr].unread++;
		sw_bd_slot_merge(&rows[*unr].s, s);
		return;
	}
	rows[*n].kind = kind;
	rows[*n].unread = 0;
	rows[*n].s = *s;
	if (kind != SW_ROW_KEY)
		memset(&rows[*n].s.key, 0, sizeof(rows[*n].s.key));
	(*n)++;
}

/*
 * Copies every CPU's table into @rows (room for nslots + 2 per CPU), row by
 * row through @snap (one row): bounded work however busy the writers are.
 */
static int sw_bd_collect(struct sw_bdgen *bd, struct sw_bd_slot *snap,
			 struct sw_bd_row *rows)
{
	int cpu, n = 0;
	u32 i;

	for_each_possible_cpu(cpu) {
		struct sw_bd_table *t = &bd->cpu[cpu]->tbl;
		int unr = -1;
		bool whole;

		for (i = 0; i < bd->nslots; i++) {
			if (!READ_ONCE(t->slots[i].used))
				continue;
			whole = sw_bd_copy_slot(&t->slots[i], snap);
			if (snap->used)
				sw_bd_take(rows, &n, &unr, SW_ROW_KEY, snap,
					   whole);
			if (!(i & 255))
				cond_resched();
		}
		whole = sw_bd_copy_slot(&t->other, snap);
		if (snap->st.count)
			sw_bd_take(rows, &n, &unr, SW_ROW_OTHER, snap, whole);
	}
	return n;
}

/* Merges equal keys, then sorts busiest first; returns the row count. */
static int sw_bd_fold(struct sw_bd_row *rows, int n)
{
	int i, out = 0;

	sort(rows, n, sizeof(*rows), sw_bd_cmp_key, NULL);
	for (i = 0; i < n; i++) {
		if (out && !sw_bd_cmp_key(&rows[out - 1], &rows[i])) {
			sw_bd_slot_merge(&rows[out - 1].s, &rows[i].s);
			rows[out - 1].unread += rows[i].unread;
		} else
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
	if (r->kind == SW_ROW_OTHER)
		seq_puts(m, "other");
	else if (r->kind == SW_ROW_UNREAD)
		seq_printf(m, "unread=%u", r->unread);
	else if (mode == SW_BD_COMM && !strcmp(r->s.key.comm, "other"))
		seq_puts(m, "\\157ther"); /* a task named "other": not the row */
	else if (mode == SW_BD_COMM && !strncmp(r->s.key.comm, "unread=", 7))
		seq_printf(m, "\\165%s", r->s.key.comm + 1); /* nor "unread=" */
	else if (mode == SW_BD_COMM)
		sw_bd_show_comm(m, r->s.key.comm);
	else
		seq_printf(m, "%llu", r->s.key.id);
}

/**
 * sw_bd_rows_alloc() - scratch space for sw_bdgen_show().
 * @nslots: slots per table of the generations to be shown
 * @snap:   room for one row's copy, output
 *
 * Context: process context; may sleep.
 * Return: the row buffer, or NULL (nothing allocated) when out of memory.
 */
void *sw_bd_rows_alloc(u32 nslots, void **snap)
{
	struct sw_bd_row *rows;

	rows = kvmalloc_array(num_possible_cpus() * (nslots + 2),
			      sizeof(*rows), GFP_KERNEL);
	*snap = kvmalloc(sizeof(struct sw_bd_slot), GFP_KERNEL);
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
 * Rows by calls, busiest first, then the "other" row, then "unread=N"
 * (rows not read whole, see the top of this file); columns "calls
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
	case SW_KEY_SPAN: /* a span's key: often an address */
		seq_printf(m, "0x%llx", id);
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

	seq_printf(m, "%-24s %-24s %10s %12s %12s %12s %12s %14s",
		   SW_COLS_KEYS_HEAD);
	for (i = 0; set && i < set->n; i++) {
		snprintf(name, sizeof(name), "%s" SW_COL_EV_AVG,
			 set->spec[i].name);
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
 * busiest first, then "other", then "unread=N" (rows not read whole).
 * The per-event averages are over the calls measured for the event; "-"
 * where the tables were made under another event set than the current one
 * (a reset starts them anew).
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
		if (r[i].kind == SW_ROW_OTHER)
			seq_puts(m, "other");
		else if (r[i].kind == SW_ROW_UNREAD)
			seq_printf(m, "unread=%u", r[i].unread);
		for (j = 0; r[i].kind == SW_ROW_KEY && j < 2; j++) {
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
