/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kallsyms.h - kernel and module text symbols from /proc/kallsyms text,
 * and the same "START SIZE name" lookup for JIT perf-PID.map files.
 */
#ifndef _SW_UTIL_KALLSYMS_H
#define _SW_UTIL_KALLSYMS_H

#include <stddef.h>
#include <stdint.h>

/**
 * struct sw_ksym - one symbol.
 * @start:  first address
 * @end:    first address after it (the next symbol, or its module's end)
 * @name:   offset of the NUL-terminated name in sw_symtab.names
 * @module: offset of the module name ("" for the core kernel)
 */
struct sw_ksym {
	uint64_t start;
	uint64_t end;
	uint32_t name;
	uint32_t module;
};

/**
 * struct sw_symtab - symbols sorted by address.
 * @sym:    the symbols
 * @n:      their number
 * @names:  the name strings
 * @hidden: every address was 0 (kptr_restrict hid them)
 */
struct sw_symtab {
	struct sw_ksym *sym;
	size_t n;
	char *names;
	int hidden;
};

/**
 * sw_kallsyms_parse() - text symbols (types t, T, w, W) of /proc/kallsyms.
 * @text: the file contents (need not be NUL-terminated)
 * @len:  its length
 * @out:  the table, freed with sw_symtab_free()
 *
 * A symbol ends where the next one starts; the last of the core kernel at
 * _etext when known, the last of a module 4 KiB after its start.
 *
 * Return: 0 or -ENOMEM.
 */
int sw_kallsyms_parse(const char *text, size_t len, struct sw_symtab *out);

/**
 * sw_perfmap_parse() - a /tmp/perf-PID.map: "START SIZE name" lines, START
 * and SIZE in hexadecimal (with or without 0x).  Malformed lines are
 * skipped.
 */
int sw_perfmap_parse(const char *text, size_t len, struct sw_symtab *out);

/* The symbol containing @addr, or NULL. */
const struct sw_ksym *sw_symtab_find(const struct sw_symtab *t, uint64_t addr);

/* The first symbol named @name, or NULL (linear search). */
const struct sw_ksym *sw_symtab_byname(const struct sw_symtab *t,
				       const char *name);

void sw_symtab_free(struct sw_symtab *t);

#endif /* _SW_UTIL_KALLSYMS_H */
