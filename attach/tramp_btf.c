// SPDX-License-Identifier: GPL-2.0
/*
 * tramp_btf.c - a trampoline's args=N checked against the kernel's BTF.
 *
 * A trampoline keeps the argument registers args= names across its entry
 * half and no others: a function given fewer than it takes, or a variadic
 * one (its arguments past the named ones, and on x86_64 %al, are not
 * among them), would run with arguments the half overwrote.  So where
 * the kernel describes the function in BTF, args= must be what BTF gives
 * (counted as the stopwatch program counts it for the args= it writes,
 * lib/btf.c), and a variadic function gets no trampoline.
 *
 * The module cannot call the kernel's own BTF lookups (not exported): it
 * reads the blobs the kernel shows in /sys/kernel/btf, vmlinux's and a
 * module's (split BTF on top of vmlinux's), and parses them with
 * lib/btf.c.  vmlinux's is read once, at the first check: what is kept
 * is an index of its functions, one u64 each (name hash and count); the
 * blob itself (a few MB) is freed at once.  A module's function costs a
 * read of that module's blob and of vmlinux's each time, freed after.
 *
 * What stays the user's word: a function BTF does not describe (a module
 * built without BTF, as out-of-tree modules usually are; a compiler's
 * clone such as foo.isra.0; a name pahole left out), every function when
 * the kernel has no BTF or its blob cannot be read (said once in the
 * kernel log), and, for a name several static functions share, which of
 * them it is (a count any of them takes is accepted).  The files are
 * opened in the caller's mount namespace (where /sys is in the writer's
 * view; a writer without it gets no check).
 */
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "lib/btf.h"
#include "control/control.h"
#include "tramp_btf.h"

#define SW_BTF_DIR "/sys/kernel/btf/"

/* The largest blob read (vmlinux's is a few MB). */
#define SW_BTF_MAX_BYTES (64 << 20)

/* Distinct counts kept for one name (static functions may share it). */
#define SW_BTF_MAX_SAME 4

/*
 * vmlinux's function index, why there is none for good, and whether a
 * failure was said; under sw_btf_lock.
 */
static DEFINE_MUTEX(sw_btf_lock);
static u64 *sw_btf_idx;
static u32 sw_btf_nidx;
static int sw_btf_err;
static bool sw_btf_said;

/*
 * Reads the file at @path whole into a kvmalloc()'d buffer.
 * Context: process context.
 * Return: 0, or a negative errno (-ENOENT: no such file).
 */
static int sw_btf_read(const char *path, void **data, size_t *len)
{
	struct file *f = filp_open(path, O_RDONLY, 0);
	loff_t size, pos = 0;
	void *buf;
	int ret = 0;

	if (IS_ERR(f))
		return PTR_ERR(f);
	size = i_size_read(file_inode(f));
	if (size <= 0 || size > SW_BTF_MAX_BYTES) {
		ret = -EFBIG;
		goto out_close;
	}
	buf = kvmalloc(size, GFP_KERNEL);
	if (!buf) {
		ret = -ENOMEM;
		goto out_close;
	}
	while (pos < size) {
		ssize_t n = kernel_read(f, buf + pos, size - pos, &pos);

		if (n < 0) {
			ret = n;
			goto out_free;
		}
		if (!n)
			break;
	}
	if (pos != size) {
		ret = -EIO;
		goto out_free;
	}
	*data = buf;
	*len = size;
	goto out_close;

out_free:
	kvfree(buf);
out_close:
	filp_close(f, NULL);
	return ret;
}

/*
 * Opens and indexes a blob read from @path (split on @base when given);
 * the caller frees *@data and *@offs (kvfree(), NULL included).
 */
static int sw_btf_load(const char *path, const struct sw_btf *base,
		       struct sw_btf *b, void **data, u32 **offs)
{
	size_t len;
	int ret;

	*data = NULL;
	*offs = NULL;
	ret = sw_btf_read(path, data, &len);
	if (ret)
		return ret;
	ret = sw_btf_open(b, *data, len, base);
	if (ret)
		return ret;
	*offs = kvmalloc_array(max_t(u32, b->nr, 1), sizeof(**offs),
			       GFP_KERNEL);
	if (!*offs)
		return -ENOMEM;
	return sw_btf_index(b, *offs);
}

/*
 * Makes vmlinux's function index, once.  A blob that is malformed or too
 * large is remembered: it is not read again.  Another failure (no such
 * file: a kernel without BTF, or a caller whose mount namespace has no
 * /sys; no memory) is tried again at the next check.  Either is said in
 * the kernel log once a load.
 * Context: process context, under sw_btf_lock.
 */
static int sw_btf_vmlinux_index(void)
{
	struct sw_btf b;
	void *data;
	u32 *offs, n;
	u64 *idx;
	int ret;

	lockdep_assert_held(&sw_btf_lock);
	if (sw_btf_idx)
		return 0;
	if (sw_btf_err)
		return sw_btf_err;
	ret = sw_btf_load(SW_BTF_DIR "vmlinux", NULL, &b, &data, &offs);
	if (!ret) {
		n = sw_btf_count_funcs(&b);
		idx = kvmalloc_array(max_t(u32, n, 1), sizeof(*idx),
				     GFP_KERNEL);
		if (idx) {
			sw_btf_nidx = sw_btf_index_funcs(&b, idx, n);
			sw_btf_idx = idx;
			pr_info(SW_NAME ": %u functions of vmlinux's BTF indexed (%zu KiB) to check trampolines' args=\n",
				sw_btf_nidx, (size_t)n * sizeof(*idx) >> 10);
		} else {
			ret = -ENOMEM;
		}
	}
	kvfree(offs);
	kvfree(data);
	if (ret == -EINVAL || ret == -EFBIG)
		sw_btf_err = ret;
	if (ret && !sw_btf_said) {
		sw_btf_said = true;
		pr_info(SW_NAME ": %s unreadable (%d): trampolines take args= as given\n",
			SW_BTF_DIR "vmlinux", ret);
	}
	return ret;
}

/*
 * What module @mod's BTF gives for @name (into @regs): 0 when the module
 * has none or it cannot be read.
 * Context: process context, under sw_btf_lock (one blob pair at a time).
 */
static int sw_btf_module_regs(const char *mod, const char *name, u8 *regs)
{
	struct sw_btf v, m;
	void *vdata, *mdata;
	u32 *voffs, *moffs;
	char *path;
	int n = 0;

	path = kasprintf(GFP_KERNEL, SW_BTF_DIR "%s", mod);
	if (!path)
		return 0;
	if (sw_btf_load(SW_BTF_DIR "vmlinux", NULL, &v, &vdata, &voffs))
		goto out_free_vmlinux;
	if (!sw_btf_load(path, &v, &m, &mdata, &moffs))
		n = sw_btf_regs_by_name(&m, name, regs, SW_BTF_MAX_SAME);
	kvfree(moffs);
	kvfree(mdata);
out_free_vmlinux:
	kvfree(voffs);
	kvfree(vdata);
	kfree(path);
	return n;
}

/*
 * The module whose text holds @addr, into @mod (MODULE_NAME_LEN): false
 * for the kernel's own.  From kallsyms' "name+off/size [module]".
 */
static bool sw_btf_module_of(unsigned long addr, char *mod)
{
	char *sym = kmalloc(KSYM_SYMBOL_LEN, GFP_KERNEL);
	char *open, *close;
	bool ret = false;
	size_t len;

	if (!sym)
		return false;
	sprint_symbol(sym, addr);
	open = strrchr(sym, '[');
	close = open ? strchr(open, ']') : NULL;
	if (open && close) {
		len = close - open - 1;
		/* A file name under /sys/kernel/btf: no '/', no "..". */
		if (len && len < MODULE_NAME_LEN &&
		    !memchr(open + 1, '/', len) && open[1] != '.') {
			memcpy(mod, open + 1, len);
			mod[len] = '\0';
			ret = true;
		}
	}
	kfree(sym);
	return ret;
}

/*
 * The distinct counts BTF gives for @name (into @regs; 0: none): from
 * its module's BTF when @addr is a module's, else from vmlinux's index.
 * Context: process context.
 */
static int sw_btf_regs(const char *name, unsigned long addr, u8 *regs)
{
	char mod[MODULE_NAME_LEN];
	int n = 0;

	if (sw_btf_module_of(addr, mod)) {
		mutex_lock(&sw_btf_lock);
		n = sw_btf_module_regs(mod, name, regs);
		mutex_unlock(&sw_btf_lock);
		return n;
	}
	mutex_lock(&sw_btf_lock);
	if (!sw_btf_vmlinux_index())
		n = sw_btf_index_find(sw_btf_idx, sw_btf_nidx, name, regs,
				      SW_BTF_MAX_SAME);
	mutex_unlock(&sw_btf_lock);
	return n;
}

/**
 * sw_tramp_btf_check() - refuse args=@nargs where BTF says otherwise.
 * @name:  the function, as the probe names it
 * @addr:  its address (whose module's BTF describes it)
 * @nargs: the probe's args=
 * @why:   set to the reason when refused (the function, and BTF's count
 *         beside @nargs, or that it is variadic)
 * @len:   room in @why
 *
 * Context: process context (reads files; sleeps).
 * Return: 0 (BTF gives @nargs, or does not describe @name: @nargs is
 * taken as given), or -EINVAL.
 */
int sw_tramp_btf_check(const char *name, unsigned long addr, int nargs,
		       char *why, size_t len)
{
	u8 regs[SW_BTF_MAX_SAME];
	int n = sw_btf_regs(name, addr, regs), i, w;
	char counts[4 * SW_BTF_MAX_SAME + 16] = "";
	bool variadic = false;

	switch (sw_btf_verdict(regs, n, nargs)) {
	case SW_BTF_IS_VARIADIC:
		snprintf(why, len,
			 "%s is variadic (BTF): a trampoline passes only the %d argument registers of args=, not the rest",
			 name, nargs);
		return -EINVAL;
	case SW_BTF_OTHER_COUNT:
		for (i = 0, w = 0; i < n; i++) {
			if (regs[i] == SW_BTF_VARIADIC)
				variadic = true;
			else
				w += scnprintf(counts + w, sizeof(counts) - w,
					       "%s%d", w ? " or " : "", regs[i]);
		}
		snprintf(why, len,
			 "args=%d, but BTF says %s takes %s argument registers%s",
			 nargs, name, counts,
			 variadic ? " (another function of that name is variadic)" : "");
		return -EINVAL;
	default:
		return 0;
	}
}

/**
 * sw_tramp_btf_exit() - free vmlinux's function index.
 *
 * Context: process context (module exit).
 */
void sw_tramp_btf_exit(void)
{
	mutex_lock(&sw_btf_lock);
	kvfree(sw_btf_idx);
	sw_btf_idx = NULL;
	sw_btf_nidx = 0;
	sw_btf_err = 0;
	sw_btf_said = false;
	mutex_unlock(&sw_btf_lock);
}
