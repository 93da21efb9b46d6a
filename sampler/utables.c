// SPDX-License-Identifier: GPL-2.0
/*
 * utables.c - unwind tables for user stacks (stopwatch/unwind.h): the
 * control file "unwind" that loads them and maps them into processes, and
 * the lookups the overflow handler makes.
 *
 * Tables are keyed by build-id and shared by every process that maps the
 * file.  A process's maps are one array sorted by address, published with
 * RCU in a small hash of processes: the handler finds a pc's map and row
 * without a lock, without touching the mm.  Writers (the control file)
 * hold sw_unw_lock, replace a process's array as a whole and free the old
 * one after a grace period.  Tables live until a CLEAR or unload, which
 * waits for a grace period before freeing them.
 *
 * Memory for tables is bounded by unwind_kb; a table that would not fit is
 * refused with ENOSPC and counted.
 */
#include <linux/hashtable.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/sched/mm.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "control/control.h"
#include "lib/unwtab.h"
#include "buildid.h"
#include "utables.h"

static unsigned int unwind_kb = 65536;
module_param(unwind_kb, uint, 0400);
MODULE_PARM_DESC(unwind_kb,
		 "KiB of kernel memory the unwind tables of user stacks may take in all (default 65536)");

/**
 * struct sw_unw_tab - one loaded table.
 * @node:   in sw_unw_tabs
 * @bid:    build-id
 * @bid_len: its bytes
 * @nr:     rows
 * @bytes:  memory taken
 * @seg:    the file's loadable segments
 * @nseg:   their number
 * @rows:   the rows
 */
struct sw_unw_tab {
	struct list_head node;
	u8 bid[SW_UNW_BUILD_ID_MAX];
	u8 bid_len;
	u32 nr;
	size_t bytes;
	struct sw_unw_seg seg[SW_UNW_SEGS_MAX];
	u32 nseg;
	struct sw_unw_row rows[];
};

/**
 * struct sw_unw_proc - the maps of one process.
 * @node: in sw_unw_procs
 * @rcu:  frees it after a grace period once replaced
 * @mm:   the address space the maps describe, an identity only (never
 *        dereferenced): a map seen in another one (after an exec, or a
 *        pid reused) drops all the older maps
 * @pid:  thread-group id
 * @nr:   maps
 * @m:    maps sorted by start, not overlapping
 */
struct sw_unw_proc {
	struct hlist_node node;
	struct rcu_head rcu;
	const void *mm;
	u32 pid;
	u32 nr;
	struct sw_unw_map m[];
};

static DEFINE_MUTEX(sw_unw_lock);
static LIST_HEAD(sw_unw_tabs);
static DEFINE_HASHTABLE(sw_unw_procs, 6);
static size_t sw_unw_bytes;
static u64 sw_unw_refused_room, sw_unw_refused_bad, sw_unw_maps_loaded;
static u64 sw_unw_refused_procs, sw_unw_refused_stale;
static u32 sw_unw_nproc;

/* Processes with maps, at most (each map of a process replaces its array). */
#define SW_UNW_PROCS_MAX 4096
static struct sw_file *sw_unw_file;

/**
 * sw_unw_proc_map() - the map holding @pc in process @pid.
 * @pid: thread-group id
 * @pc:  user address
 *
 * Context: any, NMI included, under rcu_read_lock() (or with preemption
 * or interrupts off); the map stays valid until the reader's section ends.
 * Return: the map, or NULL.
 */
const struct sw_unw_map *sw_unw_proc_map(u32 pid, u64 pc)
{
	const struct sw_unw_proc *p;
	u32 lo, hi;

	hash_for_each_possible_rcu_notrace(sw_unw_procs, p, node, pid) {
		if (p->pid != pid)
			continue;
		lo = 0;
		hi = p->nr;
		while (lo < hi) {
			u32 mid = lo + (hi - lo) / 2;

			if (pc < p->m[mid].start)
				hi = mid;
			else if (pc >= p->m[mid].end)
				lo = mid + 1;
			else
				return &p->m[mid];
		}
		return NULL;
	}
	return NULL;
}
NOKPROBE_SYMBOL(sw_unw_proc_map);

/* Whether any table is mapped at all (the handler's quick test). */
bool sw_unw_any(void)
{
	return !hash_empty(sw_unw_procs);
}
NOKPROBE_SYMBOL(sw_unw_any);

static struct sw_unw_tab *sw_unw_tab_find(const u8 *bid, u8 len)
{
	struct sw_unw_tab *t;

	list_for_each_entry(t, &sw_unw_tabs, node)
		if (t->bid_len == len && !memcmp(t->bid, bid, len))
			return t;
	return NULL;
}

static struct sw_unw_proc *sw_unw_proc_find(u32 pid)
{
	struct sw_unw_proc *p;

	hash_for_each_possible(sw_unw_procs, p, node, pid)
		if (p->pid == pid)
			return p;
	return NULL;
}

/* Drops every map and table.  Context: process, sw_unw_lock held. */
static void sw_unw_clear(void)
{
	struct sw_unw_tab *t, *tn;
	struct sw_unw_proc *p;
	struct hlist_node *pn;
	int bkt;

	hash_for_each_safe(sw_unw_procs, bkt, pn, p, node) {
		hash_del_rcu(&p->node);
		kfree_rcu(p, rcu);
	}
	/* no reader holds a map, so none holds a table's rows */
	synchronize_rcu();
	list_for_each_entry_safe(t, tn, &sw_unw_tabs, node) {
		list_del(&t->node);
		kvfree(t);
	}
	sw_unw_bytes = 0;
	sw_unw_maps_loaded = 0;
	sw_unw_nproc = 0;
}

static int sw_unw_load_table(const struct sw_unw_table_cmd *c, size_t len)
{
	struct sw_unw_tab *t;
	const char *why;
	size_t bytes;
	u32 bad;

	if (len < sizeof(*c) || !c->nr || c->nr > SW_UNW_ROWS_MAX ||
	    len != sizeof(*c) + (size_t)c->nr * sizeof(c->rows[0])) {
		sw_error("unwind: table of %zu bytes with nr=%u: not %zu + 16 * nr with nr 1..%u",
			 len, len < sizeof(*c) ? 0 : c->nr, sizeof(*c),
			 SW_UNW_ROWS_MAX);
		return -EINVAL;
	}
	if (!c->build_id_size || c->build_id_size > SW_UNW_BUILD_ID_MAX ||
	    c->pad[0] || c->pad[1] || c->pad[2] || c->nseg > SW_UNW_SEGS_MAX) {
		sw_error("unwind: table build_id_size=%u nseg=%u: not 1..%d and 0..%d, or padding not zero",
			 c->build_id_size, c->nseg, SW_UNW_BUILD_ID_MAX,
			 SW_UNW_SEGS_MAX);
		return -EINVAL;
	}
	if (sw_unw_rows_check(c->rows, c->nr, &bad, &why)) {
		sw_unw_refused_bad++;
		sw_error("unwind: table row %u (pc=%#x): %s; nothing was loaded",
			 bad, c->rows[bad].pc, why);
		return -EINVAL;
	}
	if (sw_unw_tab_find(c->build_id, c->build_id_size))
		return -EEXIST;
	bytes = struct_size(t, rows, c->nr);
	if (sw_unw_bytes + bytes > (size_t)unwind_kb * 1024) {
		sw_unw_refused_room++;
		sw_error("unwind: table of %u rows (%zu KiB) does not fit: %zu of unwind_kb=%u KiB used",
			 c->nr, bytes >> 10, sw_unw_bytes >> 10, unwind_kb);
		return -ENOSPC;
	}
	t = kvmalloc(bytes, GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	memcpy(t->bid, c->build_id, c->build_id_size);
	t->bid_len = c->build_id_size;
	t->nr = c->nr;
	t->bytes = bytes;
	memcpy(t->seg, c->seg, sizeof(t->seg));
	t->nseg = c->nseg;
	memcpy(t->rows, c->rows, (size_t)c->nr * sizeof(c->rows[0]));
	list_add(&t->node, &sw_unw_tabs);
	sw_unw_bytes += bytes;
	return 0;
}

/*
 * Maps [@start, @end) of process @pid (address space @mm) to table @t, or
 * to no table when @t is NULL (code without a table: the old maps it
 * overlaps must not unwind it), replacing what it overlaps.  Maps of
 * another address space are dropped.
 *
 * Context: process context, sw_unw_lock held.
 */
static int sw_unw_insert(u32 pid, const void *mm, u64 start, u64 end,
			 u64 adj, const struct sw_unw_tab *t)
{
	struct sw_unw_proc *old, *p;
	u32 i, n = 0, keep = 0;

	old = sw_unw_proc_find(pid);
	if (old && old->mm == mm)
		for (i = 0; i < old->nr; i++)
			keep += old->m[i].end <= start || old->m[i].start >= end;
	if (!t) {
		if (!old || (old->mm == mm && keep == old->nr))
			return 0;
		if (!keep) {
			hash_del_rcu(&old->node);
			kfree_rcu(old, rcu);
			sw_unw_nproc--;
			return 0;
		}
	}
	if (!old && sw_unw_nproc >= SW_UNW_PROCS_MAX) {
		sw_unw_refused_procs++;
		sw_error("unwind: map pid=%u: already %d processes", pid,
			 SW_UNW_PROCS_MAX);
		return -ENOSPC;
	}
	if (t && keep >= SW_UNW_MAPS_MAX) {
		sw_error("unwind: map pid=%u: already %d maps", pid,
			 SW_UNW_MAPS_MAX);
		return -ENOSPC;
	}
	p = kmalloc(struct_size(p, m, keep + 1), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	p->pid = pid;
	p->mm = mm;
	/* Keep the old maps that do not overlap, insert the new in order. */
	for (i = 0; keep && i < old->nr; i++)
		if (old->m[i].end <= start || old->m[i].start >= end)
			p->m[n++] = old->m[i];
	if (t) {
		for (i = n; i > 0 && p->m[i - 1].start > start; i--)
			p->m[i] = p->m[i - 1];
		p->m[i].start = start;
		p->m[i].end = end;
		p->m[i].adj = adj;
		p->m[i].rows = t->rows;
		p->m[i].nr = t->nr;
		n++;
		sw_unw_maps_loaded++;
	}
	p->nr = n;
	if (old) {
		hlist_replace_rcu(&old->node, &p->node);
		kfree_rcu(old, rcu);
	} else {
		hash_add_rcu(sw_unw_procs, &p->node, p->pid);
		sw_unw_nproc++;
	}
	return 0;
}

/* Whether @mm is still @task's address space (not replaced by an exec). */
static bool sw_unw_mm_current(struct task_struct *task,
			      const struct mm_struct *mm)
{
	bool same;

	task_lock(task);
	same = task->mm == mm;
	task_unlock(task);
	return same;
}

/**
 * sw_unw_sb_map() - an executable mapping the side-band saw: map its
 * table into the process if one with its build-id is loaded, else mark
 * the range as having none.
 * @task:  a thread of the process (current, or referenced by the caller)
 * @mm:    the address space mapped into
 * @start: first address
 * @len:   bytes
 * @pgoff: file offset of @start
 * @bid:   the file's build-id, or NULL (no file, or no build-id)
 * @bid_len: its bytes
 *
 * Context: process context, may sleep (the side-band's task_work, or its
 * start-time walk of existing mappings with @mm's mmap_lock held).
 */
void sw_unw_sb_map(struct task_struct *task, const struct mm_struct *mm,
		   u64 start, u64 len, u64 pgoff, const u8 *bid, u8 bid_len)
{
	const struct sw_unw_tab *t = NULL;
	u64 adj = 0;

	mutex_lock(&sw_unw_lock);
	if (bid && bid_len)
		t = sw_unw_tab_find(bid, bid_len);
	if (t && sw_unw_adj(t->seg, t->nseg, start, pgoff, &adj))
		t = NULL;
	/* a walk that raced with an exec must not undo the exec's maps */
	if (sw_unw_mm_current(task, mm))
		sw_unw_insert(task_tgid_nr(task), mm, start, start + len, adj,
			      t);
	mutex_unlock(&sw_unw_lock);
}

/*
 * A map command from the program, made from an MMAP record it read some
 * time after the mapping happened: applied only if the process still maps
 * a file with the table's build-id at @c->start (an exec or munmap since
 * makes the record stale: -ESTALE, counted, not applied).
 *
 * Context: process context, the control file's write; takes the mm's
 * mmap_lock, then sw_unw_lock (the side-band's walk takes them in this
 * order too), then the task's lock.
 */
static int sw_unw_load_map(const struct sw_unw_map_cmd *c, size_t len)
{
	u8 bid[SW_UNW_BUILD_ID_MAX];
	struct vm_area_struct *vma;
	struct task_struct *task;
	struct sw_unw_tab *t;
	struct mm_struct *mm;
	struct pid *pid;
	u64 end;
	int ret;

	if (len != sizeof(*c) || !c->pid || c->start >= c->end ||
	    c->pad[0] || c->pad[1] || c->pad[2] || c->pad2) {
		sw_error("unwind: map of %zu bytes pid=%u %#llx-%#llx: not 72 bytes, pid > 0, start < end, zero padding",
			 len, len >= sizeof(*c) ? c->pid : 0,
			 len >= sizeof(*c) ? c->start : 0,
			 len >= sizeof(*c) ? c->end : 0);
		return -EINVAL;
	}
	pid = find_get_pid(c->pid);
	task = pid ? get_pid_task(pid, PIDTYPE_TGID) : NULL;
	put_pid(pid);
	mm = task ? get_task_mm(task) : NULL;
	if (!mm) {
		mutex_lock(&sw_unw_lock);
		sw_unw_refused_stale++;
		mutex_unlock(&sw_unw_lock);
		if (task)
			put_task_struct(task);
		return -ESRCH;
	}
	ret = mmap_read_lock_killable(mm);
	if (ret)
		goto out_mm;
	mutex_lock(&sw_unw_lock);
	t = c->build_id_size <= SW_UNW_BUILD_ID_MAX ?
		    sw_unw_tab_find(c->build_id, c->build_id_size) : NULL;
	if (!t) {
		sw_error("unwind: map pid=%u %#llx-%#llx: no table with that build-id",
			 c->pid, c->start, c->end);
		ret = -ENOENT;
		goto out_unlock;
	}
	vma = find_vma(mm, c->start);
	if (!vma || vma->vm_start > c->start || !(vma->vm_flags & VM_EXEC) ||
	    !vma->vm_file ||
	    sw_file_build_id(vma->vm_file, bid) != t->bid_len ||
	    memcmp(bid, t->bid, t->bid_len) ||
	    !sw_unw_mm_current(task, mm)) {
		sw_unw_refused_stale++;
		ret = -ESTALE;
		goto out_unlock;
	}
	end = min_t(u64, c->end, vma->vm_end);
	ret = sw_unw_insert(c->pid, mm, c->start, end, c->adj, t);
out_unlock:
	mutex_unlock(&sw_unw_lock);
	mmap_read_unlock(mm);
out_mm:
	mmput(mm);
	put_task_struct(task);
	return ret;
}

/* Context: process context, the control file's write. */
static int sw_unw_apply(const void *buf, size_t len)
{
	const struct sw_unw_cmd *c = buf;
	int ret;

	if (len < sizeof(*c) || c->magic != SW_UNW_MAGIC || c->size != len ||
	    c->pad) {
		sw_error("unwind: write of %zu bytes: no command header (magic %#x, size = the write's, zero padding)",
			 len, SW_UNW_MAGIC);
		return -EINVAL;
	}
	if (c->cmd == SW_UNW_CMD_MAP)
		return sw_unw_load_map(buf, len);
	mutex_lock(&sw_unw_lock);
	switch (c->cmd) {
	case SW_UNW_CMD_TABLE:
		ret = sw_unw_load_table(buf, len);
		break;
	case SW_UNW_CMD_CLEAR:
		sw_unw_clear();
		ret = 0;
		break;
	default:
		sw_error("unwind: command %u: not 1 (table), 2 (map) or 3 (clear)",
			 c->cmd);
		ret = -EINVAL;
	}
	mutex_unlock(&sw_unw_lock);
	return ret;
}

/* Context: process context, the control file's read. */
static int sw_unw_show(struct seq_file *m)
{
	struct sw_unw_proc *p;
	struct sw_unw_tab *t;
	u32 ntab = 0, nproc = 0;
	int bkt;

	mutex_lock(&sw_unw_lock);
	list_for_each_entry(t, &sw_unw_tabs, node)
		ntab++;
	hash_for_each(sw_unw_procs, bkt, p, node)
		nproc++;
	seq_printf(m, "tables %u\nbytes %zu\nlimit_bytes %zu\nprocesses %u\nmaps_loaded %llu\nrefused_room %llu\nrefused_bad %llu\nrefused_processes %llu\nrefused_stale %llu\n",
		   ntab, sw_unw_bytes, (size_t)unwind_kb * 1024, nproc,
		   sw_unw_maps_loaded, sw_unw_refused_room, sw_unw_refused_bad,
		   sw_unw_refused_procs, sw_unw_refused_stale);
	mutex_unlock(&sw_unw_lock);
	return 0;
}

static const struct sw_ctl_file sw_unw_ctl = {
	.show = sw_unw_show,
	.apply_bin = sw_unw_apply,
	.bin_max = sizeof(struct sw_unw_table_cmd) +
		   (size_t)SW_UNW_ROWS_MAX * sizeof(struct sw_unw_row),
};

/**
 * sw_unwind_init() - create the unwind control file.
 * Context: process context (module init), after sw_debugfs_init().
 * Return: 0 or a negative errno.
 */
int sw_unwind_init(void)
{
	struct sw_file *f = sw_debugfs_add_ctl("unwind", 0600, NULL,
					       &sw_unw_ctl);

	if (IS_ERR(f))
		return PTR_ERR(f);
	sw_unw_file = f;
	return 0;
}

/**
 * sw_unwind_exit() - remove the file, free every table and map.
 * Context: process context (module exit), after sampling stopped.
 */
void sw_unwind_exit(void)
{
	sw_debugfs_remove(&sw_unw_file);
	mutex_lock(&sw_unw_lock);
	sw_unw_clear();
	mutex_unlock(&sw_unw_lock);
}
