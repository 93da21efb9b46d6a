/* SPDX-License-Identifier: GPL-2.0 */
/*
 * demangle.h - C++ and Rust symbol names as their programmers wrote them.
 */
#ifndef _SW_RECORD_DEMANGLE_H
#define _SW_RECORD_DEMANGLE_H

#include <stdbool.h>

/**
 * sw_demangle() - the readable form of a mangled symbol name.
 * @name: a symbol name as the ELF symbol table or a perf map holds it
 *
 * Itanium C++ names ("_Z..."), Rust's legacy names ("_ZN...17h<hash>E",
 * printed without the hash) and Rust's v0 names ("_R...") are demangled
 * by libiberty, the demangler of binutils and perf; C++ names keep their
 * parameter lists ("ns::f(int)"), so that overloads stay apart.
 *
 * Return: a new string (free() it), or NULL when @name is not a mangled
 * name or cannot be demangled (the caller keeps @name as it is).
 */
char *sw_demangle(const char *name);

/**
 * sw_is_mangled() - whether @name has a mangled name's prefix.
 * @name: a symbol name
 *
 * Return: true for names that begin "_Z" (Itanium C++, Rust legacy) or
 * "_R" (Rust v0); whether they really are mangled is the demangler's call.
 */
bool sw_is_mangled(const char *name);

#endif /* _SW_RECORD_DEMANGLE_H */
