// SPDX-License-Identifier: GPL-2.0
/*
 * demangle.c - C++ and Rust symbol names through libiberty's demangler.
 */
#include <libiberty/demangle.h>
#include <stdlib.h>
#include <string.h>

#include "record/demangle.h"

bool sw_is_mangled(const char *name)
{
	return name && name[0] == '_' && (name[1] == 'Z' || name[1] == 'R');
}

char *sw_demangle(const char *name)
{
	if (!sw_is_mangled(name))
		return NULL;
	/*
	 * DMGL_AUTO lets libiberty tell the schemes apart (a Rust legacy
	 * name is also a valid Itanium one; libiberty recognises its hash).
	 */
	return cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI | DMGL_AUTO);
}
