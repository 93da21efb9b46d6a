/* SPDX-License-Identifier: GPL-2.0 */
/*
 * symbol.h - image + address -> symbol and source line.
 *
 * ELF files (executables, PIE, shared libraries, the vdso) go through
 * elfutils libdwfl, which finds separate debuginfo by build-id and
 * .gnu_debuglink under the debuginfo path (default
 * ":.debug:/usr/lib/debug").  Kernel and module addresses use the kallsyms
 * snapshot of the recording; anonymous (JIT) code uses /tmp/perf-PID.map.
 * Every answer is cached per (image, address): an image is identified by
 * its path and build-id, so a rebuilt file is a different image.
 */
#ifndef _SW_UTIL_SYMBOL_H
#define _SW_UTIL_SYMBOL_H

#include <stdbool.h>
#include <stdint.h>

#include "base/intern.h"
#include "control/kallsyms.h"
#include "record/machine.h"

#define SW_SYMRES_KNOWN 0x1	/* a symbol was found */
#define SW_SYMRES_SRC 0x2	/* srcline/file/line were looked up */
#define SW_SYMRES_LINE 0x4	/* ... and found */

/**
 * struct sw_symres - what one address of one image is.
 * @image:   image id
 * @sym:     string id of the symbol name ("[unknown]" if none)
 * @srcline: string id of "file.c:123" ("[unknown]" if none); valid with
 *           SW_SYMRES_SRC
 * @file:    string id of the source file's full path; with SW_SYMRES_LINE
 * @line:    source line; with SW_SYMRES_LINE
 * @flags:   SW_SYMRES_*
 * @rel:     the image-relative address looked up (file offset, or the
 *           address itself for kernel and JIT code)
 * @vaddr:   the address in the image's own terms (ELF virtual address,
 *           kernel address)
 * @sym_off: @vaddr minus the symbol's start
 */
struct sw_symres {
	uint32_t image;
	uint32_t sym;
	uint32_t srcline;
	uint32_t file;
	uint32_t line;
	uint32_t flags;
	uint64_t rel;
	uint64_t vaddr;
	uint64_t sym_off;
};

/**
 * struct sw_symbolizer - caches and sources of symbols.
 * @m:              the machine (images, string table)
 * @cache:          (image, rel) -> index in @res
 * @res:            answers
 * @nres:           their number
 * @rescap:         allocated
 * @kallsyms:       kernel symbols of the recording
 * @kslide:         add to a recorded kernel address to get its kallsyms
 *                  address (0 unless the table came from another boot)
 * @debuginfo_path: libdwfl's search path
 * @vdso:           the vdso image of the recording machine, or NULL
 * @vdso_size:      its size
 * @perfmap_text:   callback giving the recorded perf-PID.map text of a pid
 * @perfmap_arg:    its argument (also of @build_id_of)
 * @build_id_of:    callback giving the build-id the recorder read from a
 *                  file (checked against the file when it is opened):
 *                  returns its size, or 0 when none was recorded
 * @krelease:       the recorded kernel release (kernel and module files
 *                  with debug information are looked for under it)
 * @vmlinux:        the kernel's ELF file with debug information, or NULL
 *                  to look where Debian's linux-image-*-dbg puts it
 * @kmod_dir:       a folder to look in first for modules' files, or NULL
 * @no_src:         never look up source lines
 * @no_demangle:    keep C++ and Rust names of user code mangled
 * @warn:           called once per image with a problem (may be NULL)
 * @warn_arg:       its argument
 */
struct sw_symbolizer {
	struct sw_machine *m;
	struct sw_intern cache;
	struct sw_symres *res;
	uint32_t nres;
	uint32_t rescap;
	struct sw_symtab kallsyms;
	int64_t kslide;
	char *debuginfo_path;
	const void *vdso;
	size_t vdso_size;
	int (*perfmap_text)(void *arg, uint32_t pid, const char **text,
			    size_t *len);
	void *perfmap_arg;
	unsigned int (*build_id_of)(void *arg, const char *path,
				    unsigned char *bid);
	const char *krelease;
	const char *vmlinux;
	const char *kmod_dir;
	bool no_src;
	bool no_demangle;
	void (*warn)(void *arg, const char *msg);
	void *warn_arg;
};

int sw_symbolizer_init(struct sw_symbolizer *s, struct sw_machine *m,
		       const char *debuginfo_path);
void sw_symbolizer_free(struct sw_symbolizer *s);

/**
 * sw_symbolizer_set_kallsyms() - use this kallsyms text for kernel
 * addresses.
 * @s:        the symbolizer
 * @text:     /proc/kallsyms contents
 * @len:      length
 * @ref_name: reference symbol of the recording (SW_REC_KERNEL), or NULL
 * @ref_addr: its run-time address
 *
 * When the reference symbol's address in @text differs from @ref_addr (a
 * table of another boot), addresses are shifted by the difference.
 *
 * Return: 0 or -ENOMEM.
 */
int sw_symbolizer_set_kallsyms(struct sw_symbolizer *s, const char *text,
			       size_t len, const char *ref_name,
			       uint64_t ref_addr);

/**
 * sw_symbolize() - resolve an image-relative address.
 * @s:       the symbolizer
 * @image:   image id (from sw_machine_locate())
 * @rel:     image-relative address
 * @srcline: also look up the source line
 *
 * Return: an index for sw_symres_get(), or a negative errno (-ENOMEM).
 */
int64_t sw_symbolize(struct sw_symbolizer *s, uint32_t image, uint64_t rel,
		     bool srcline);

static inline struct sw_symres *sw_symres_get(struct sw_symbolizer *s,
					      uint32_t id)
{
	return &s->res[id];
}

/**
 * sw_elf_build_id() - read the GNU build-id note of an ELF file.
 * @path: file
 * @bid:  at least SW_BUILD_ID_MAX bytes
 *
 * Return: the build-id size (> 0), or a negative errno (-ENOENT: no such
 * file, -ENODATA: no build-id, -ENOEXEC: not ELF).
 */
int sw_elf_build_id(const char *path, unsigned char *bid);

/* "0a1b..." of @size bytes into @out (2 * size + 1 bytes). */
char *sw_build_id_hex(char *out, const unsigned char *bid, unsigned int size);

#endif /* _SW_UTIL_SYMBOL_H */
