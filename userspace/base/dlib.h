/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dlib.h - libraries loaded when a command first needs them.
 *
 * Most commands never use libpfm4 (vendor event names) or libmicrohttpd
 * (serve), and linking them makes every run of the program map and
 * relocate them and what they bring (GnuTLS and its eight libraries for
 * libmicrohttpd).  A file that uses such a library declares a struct
 * sw_dlib with the library's soname, its Debian package and the symbols
 * it calls, and calls sw_dlib_load() before the first call.  Static
 * builds (make LDFLAGS=-static, SW_DLOPEN=0) link the library as before.
 */
#ifndef _SW_BASE_DLIB_H
#define _SW_BASE_DLIB_H

#include <stddef.h>

#include "base/err.h"

/**
 * struct sw_dlsym - one symbol to look up.
 * @name: the symbol's name
 * @slot: the address of the function pointer that receives it
 */
struct sw_dlsym {
	const char *name;
	void *slot;
};

/**
 * struct sw_dlib - one library loaded on demand.
 * @soname:  the file dlopen() looks for, e.g. "libpfm.so.4"
 * @package: the Debian package that ships it, e.g. "libpfm4"
 * @syms:    the symbols, ended by one whose @name is NULL
 * @state:   0 not tried, 1 loaded, a negative errno when it failed
 * @why:     what failed, when it did
 */
struct sw_dlib {
	const char *soname;
	const char *package;
	const struct sw_dlsym *syms;
	int state;
	char why[SW_ERR_LEN];
};

/**
 * sw_dlib_load() - load @l and its symbols, once; later calls return
 * the first one's result.
 * @l:   the library
 * @err: where to say why it failed (names the library and the package);
 *       may be NULL
 *
 * Not thread-safe: call it before starting threads that use @l.
 *
 * Return: 0, or -ELIBACC when the library or one of its symbols is missing.
 */
int sw_dlib_load(struct sw_dlib *l, struct sw_err *err);

#endif /* _SW_BASE_DLIB_H */
