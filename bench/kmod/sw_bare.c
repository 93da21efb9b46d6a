// SPDX-License-Identifier: GPL-2.0
/*
 * sw_bare.c - the benchmark baseline: one kretprobe with empty entry and
 * return handlers on the function named by func=, so that the cost of the
 * kprobe machinery itself can be told apart from what stopwatch adds.
 */
#include <linux/kprobes.h>
#include <linux/module.h>

static char *func = "ksys_read";
module_param(func, charp, 0444);
MODULE_PARM_DESC(func, "Kernel function to put the empty kretprobe on (default ksys_read)");

/* Context: kprobe pre-handler; does nothing by design. */
static int sw_bare_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return 0;
}
NOKPROBE_SYMBOL(sw_bare_entry);

/* Context: kretprobe return handler; does nothing by design. */
static int sw_bare_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return 0;
}
NOKPROBE_SYMBOL(sw_bare_return);

static struct kretprobe sw_bare_krp = {
	.entry_handler = sw_bare_entry,
	.handler = sw_bare_return,
	.data_size = 16,	/* as much per-call data as stopwatch keeps */
	.maxactive = 128,
};

static int __init sw_bare_init(void)
{
	int ret;

	sw_bare_krp.kp.symbol_name = func;
	ret = register_kretprobe(&sw_bare_krp);
	if (ret)
		pr_err("sw_bare: cannot probe '%s' (%d)\n", func, ret);
	return ret;
}

static void __exit sw_bare_exit(void)
{
	unregister_kretprobe(&sw_bare_krp);
}

module_init(sw_bare_init);
module_exit(sw_bare_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Empty kretprobe: the baseline of stopwatch's benchmark");
