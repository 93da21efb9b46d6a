// SPDX-License-Identifier: GPL-2.0
/*
 * dlib.c - libraries loaded when a command first needs them (see dlib.h).
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/dlib.h"

int sw_dlib_load(struct sw_dlib *l, struct sw_err *err)
{
	const struct sw_dlsym *s;
	void *h, *p;

	if (!l->state) {
		l->state = 1;
		h = dlopen(l->soname, RTLD_NOW | RTLD_LOCAL);
		if (!h) {
			snprintf(l->why, sizeof(l->why),
				 "%s cannot be loaded (Debian package %s): %s",
				 l->soname, l->package, dlerror());
			l->state = -ELIBACC;
		}
		for (s = l->syms; h && s->name; s++) {
			p = dlsym(h, s->name);
			if (!p) {
				snprintf(l->why, sizeof(l->why),
					 "%s has no %s (Debian package %s, a version too old?)",
					 l->soname, s->name, l->package);
				l->state = -ELIBACC;
				dlclose(h);
				break;
			}
			/* A function pointer from dlsym()'s void *. */
			memcpy(s->slot, &p, sizeof(p));
		}
	}
	if (l->state == 1)
		return 0;
	return sw_err_set(err, l->state, "%s", l->why);
}
