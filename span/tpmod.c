// SPDX-License-Identifier: GPL-2.0
/*
 * tpmod.c - tracepoint points whose tracepoint a module defines.
 *
 * The kernel's own tracepoints are found by name (wrapper/tracepoint.h);
 * a module's are not among them.  The tracepoint core tells a notifier of
 * every module with tracepoints (register_tracepoint_module_notifier():
 * at registration, once per module already loaded, then as modules come
 * and go), under its module-list mutex, so a module cannot go while it is
 * told of it:
 *
 *   attach  a temporary notifier looks through each loaded module's
 *           tracepoints for the event's name and registers the point's
 *           probe on the first it finds, inside the callback (the module
 *           is pinned there); no module has it: -ENOENT
 *   going   a notifier kept for the spans' life detaches every point on a
 *           going module's tracepoints before the tracepoint core checks
 *           that they have no probes left, waits until no CPU runs their
 *           probe, and marks them detached: the span stays, its other
 *           points work on, span_stats counts its detached points
 *
 * Locks: the tracepoint core's module-list mutex > sw_span_tpmod_lock (the
 * list of attached points) > the tracepoint core's own; the spans' lock is
 * taken before all of them (a point is attached or removed under it) and
 * never inside.  Process context only.
 */
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/tracepoint.h>

#include "control/control.h"
#include "span.h"

static DEFINE_MUTEX(sw_span_tpmod_lock);
static LIST_HEAD(sw_span_tpmods);
static bool sw_span_tpmod_nb_on;

/* The tracepoint @name of @mod, or NULL. */
static struct tracepoint *sw_span_tpmod_find(struct module *mod,
					     const char *name)
{
	unsigned int i;

	for (i = 0; i < mod->num_tracepoints; i++) {
		struct tracepoint *tp =
			tracepoint_ptr_deref(&mod->tracepoints_ptrs[i]);

		if (!strcmp(tp->name, name))
			return tp;
	}
	return NULL;
}

struct sw_span_tpmod_search {
	struct notifier_block nb;
	struct sw_span_pt *pt;
	const char *event;
	int ret;
};

/*
 * Told of each loaded module with tracepoints, under the tracepoint core's
 * module-list mutex: attach to the first with the event.
 * Context: process context (register_tracepoint_module_notifier()).
 */
static int sw_span_tpmod_search_cb(struct notifier_block *nb,
				   unsigned long val, void *data)
{
	struct sw_span_tpmod_search *s =
		container_of(nb, struct sw_span_tpmod_search, nb);
	struct tp_module *tpm = data;
	struct tracepoint *tp;

	if (val != MODULE_STATE_COMING || s->ret != -ENOENT)
		return NOTIFY_OK;
	tp = sw_span_tpmod_find(tpm->mod, s->event);
	if (!tp)
		return NOTIFY_OK;
	s->ret = tracepoint_probe_register(tp, s->pt->tpfunc, s->pt);
	if (s->ret)
		return NOTIFY_OK;
	s->pt->tp = tp;
	s->pt->tpmod = tpm->mod;
	mutex_lock(&sw_span_tpmod_lock);
	list_add(&s->pt->tpmod_link, &sw_span_tpmods);
	mutex_unlock(&sw_span_tpmod_lock);
	return NOTIFY_OK;
}

/**
 * sw_span_tpmod_attach() - attach a tracepoint point to the tracepoint of
 * its event in a loaded module.
 * @pt:    the point (not registered)
 * @event: the event's name
 * @func:  its probe (points.c's, for every prototype), kept in @pt
 *
 * Context: process context, under the spans' lock.
 * Return: 0 (pt->tp, pt->tpmod set), -ENOENT (no loaded module has it)
 * or tracepoint_probe_register()'s errno.
 */
int sw_span_tpmod_attach(struct sw_span_pt *pt, const char *event,
			 void *func)
{
	struct sw_span_tpmod_search s = {
		.nb.notifier_call = sw_span_tpmod_search_cb,
		.pt = pt,
		.event = event,
		.ret = -ENOENT,
	};
	int ret;

	pt->tpfunc = func;
	ret = register_tracepoint_module_notifier(&s.nb);
	if (ret)
		return ret;
	unregister_tracepoint_module_notifier(&s.nb);
	return s.ret;
}

/**
 * sw_span_tpmod_detach() - detach a module tracepoint's point, unless its
 * module went first (then it is detached already).
 * @pt: the point
 *
 * Context: process context, under the spans' lock.
 * Return: true when it detached it now (a tracepoint_synchronize_
 * unregister() must follow before @pt is freed).
 */
bool sw_span_tpmod_detach(struct sw_span_pt *pt)
{
	bool now = false;

	mutex_lock(&sw_span_tpmod_lock);
	if (pt->tpmod) {
		tracepoint_probe_unregister(pt->tp, pt->tpfunc, pt);
		list_del(&pt->tpmod_link);
		pt->tpmod = NULL;
		now = true;
	}
	mutex_unlock(&sw_span_tpmod_lock);
	return now;
}

/*
 * A module with tracepoints goes: detach the points on them.
 * Context: process context, the tracepoint core's module-list mutex held
 * (before it checks that the module's tracepoints have no probes left).
 */
static int sw_span_tpmod_going(struct notifier_block *nb, unsigned long val,
			       void *data)
{
	struct tp_module *tpm = data;
	struct sw_span_pt *pt, *tmp;
	bool any = false;

	if (val != MODULE_STATE_GOING)
		return NOTIFY_OK;
	mutex_lock(&sw_span_tpmod_lock);
	list_for_each_entry_safe(pt, tmp, &sw_span_tpmods, tpmod_link) {
		if (pt->tpmod != tpm->mod)
			continue;
		tracepoint_probe_unregister(pt->tp, pt->tpfunc, pt);
		list_del(&pt->tpmod_link);
		pt->tpmod = NULL;
		pt->tp = NULL;
		WRITE_ONCE(pt->gone, true);
		any = true;
	}
	mutex_unlock(&sw_span_tpmod_lock);
	/* No CPU runs their probe after this: the span may free them. */
	if (any)
		tracepoint_synchronize_unregister();
	return NOTIFY_OK;
}

static struct notifier_block sw_span_tpmod_nb = {
	.notifier_call = sw_span_tpmod_going,
};

/**
 * sw_span_tpmod_init() - watch modules with tracepoints go.
 *
 * Context: process context (module init).
 * Return: 0 or a negative errno.
 */
int sw_span_tpmod_init(void)
{
	int ret = register_tracepoint_module_notifier(&sw_span_tpmod_nb);

	sw_span_tpmod_nb_on = !ret;
	return ret;
}

/**
 * sw_span_tpmod_exit() - stop watching (every span is gone).
 *
 * Context: process context (module exit).
 */
void sw_span_tpmod_exit(void)
{
	if (sw_span_tpmod_nb_on)
		unregister_tracepoint_module_notifier(&sw_span_tpmod_nb);
	sw_span_tpmod_nb_on = false;
}
