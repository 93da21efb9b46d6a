/* SPDX-License-Identifier: GPL-2.0 */
/*
 * machine.h - what the record stream says about the recorded machine at
 * each point in time: threads and their names, processes and their
 * executable mappings, kernel modules.  Fed the side-band records in time
 * order (sw_machine_record()), it turns a sample's pid/ip into an image and
 * an address inside it (sw_machine_locate()), also for processes that have
 * long exited.
 */
#ifndef _SW_UTIL_MACHINE_H
#define _SW_UTIL_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <stopwatch/abi.h>

#include "base/intern.h"

/**
 * enum sw_image_kind - what an image is.
 * @SW_IMG_FILE:    an ELF file mapped by a process
 * @SW_IMG_ANON:    anonymous executable memory (JIT): symbols from
 *                  /tmp/perf-PID.map
 * @SW_IMG_VDSO:    the vdso
 * @SW_IMG_KERNEL:  the kernel image
 * @SW_IMG_MODULE:  a kernel module
 * @SW_IMG_UNKNOWN: an address in no known image (still per pid or kernel)
 */
enum sw_image_kind {
	SW_IMG_FILE,
	SW_IMG_ANON,
	SW_IMG_VDSO,
	SW_IMG_KERNEL,
	SW_IMG_MODULE,
	SW_IMG_UNKNOWN,
};

/**
 * struct sw_image - a thing code runs from.
 * @kind:          enum sw_image_kind
 * @path:          file path, "[kernel.kallsyms]", "[module]", "//anon", ...
 * @name_id:       string id of the short name reports show (a path's base
 *                 name, "[kernel.kallsyms]", "[ext4]", "[anon:PID]")
 * @pid:           for SW_IMG_ANON: the process (perf-PID.map is per pid)
 * @build_id:      GNU build-id
 * @build_id_size: bytes in @build_id, 0 if unknown
 * @priv:          the symbolizer's per-image state
 */
struct sw_image {
	enum sw_image_kind kind;
	char *path;
	uint32_t name_id;
	uint32_t pid;
	unsigned char build_id[SW_BUILD_ID_MAX];
	unsigned int build_id_size;
	void *priv;
};

/* An executable mapping of a process. */
struct sw_map {
	uint64_t start;
	uint64_t end;
	uint64_t pgoff;
	uint32_t image;
};

/**
 * struct sw_proc - one incarnation of a process (a pid reused later is a
 * new sw_proc).
 * @pid:    thread-group id
 * @ppid:   the creating process, 0 if unknown
 * @comm:   string id of the process name (of its main thread)
 * @maps:   mappings sorted by start, non-overlapping
 * @nmaps:  their number
 * @cap:    allocated
 * @exited: the main thread exited
 */
struct sw_proc {
	uint32_t pid;
	uint32_t ppid;
	uint32_t comm;
	struct sw_map *maps;
	size_t nmaps;
	size_t cap;
	bool exited;
};

/* A kernel module's text range. */
struct sw_kmod {
	uint64_t base;
	uint64_t end;
	uint32_t image;
};

/**
 * struct sw_machine - the recorded machine.
 * @str:        string table: names, comms, symbols, source lines
 * @image:      images, index = image id
 * @nimage:     their number
 * @image_ids:  (kind, pid, build-id, path) -> image id
 * @proc:       process incarnations, index = proc id
 * @nproc:      their number
 * @proc_of:    pid -> current proc id
 * @thread_comm: tid -> string id of the thread's name
 * @kmod:       kernel modules sorted by base
 * @nkmod:      their number
 * @kernel:     image id of the kernel
 * @unknown:    string id of "[unknown]"
 * @nr_forks, @nr_comms, @nr_exits, @nr_mmaps: side-band records seen
 */
struct sw_machine {
	struct sw_intern str;
	struct sw_image *image;
	uint32_t nimage;
	struct sw_intern image_ids;
	struct sw_proc *proc;
	uint32_t nproc;
	struct sw_u64map proc_of;
	struct sw_u64map thread_comm;
	struct sw_kmod *kmod;
	size_t nkmod;
	uint32_t kernel;
	uint32_t unknown;
	uint64_t nr_forks, nr_comms, nr_exits, nr_mmaps;
};

int sw_machine_init(struct sw_machine *m);
void sw_machine_free(struct sw_machine *m);

/**
 * sw_machine_record() - apply a side-band record (COMM, FORK, EXIT, MMAP,
 * MODULE); other types are ignored.
 * @m: the machine
 * @h: a record whose size has been checked
 *
 * Return: 0, -EINVAL (malformed record) or -ENOMEM.
 */
int sw_machine_record(struct sw_machine *m, const struct sw_rec_header *h);

/**
 * sw_machine_add_modules() - learn modules from /proc/modules text (used
 * when the stream has no MODULE records).
 */
int sw_machine_add_modules(struct sw_machine *m, const char *text,
			   size_t len);

/**
 * sw_machine_locate() - the image and image-relative address of @ip.
 * @m:      the machine
 * @pid:    the process (ignored for kernel addresses)
 * @ip:     the address
 * @kernel: @ip is a kernel address
 * @image:  image id; an unknown address gets the "[unknown]" image
 * @rel:    for files and the vdso, the file offset of @ip; otherwise @ip
 *
 * Return: true if an image was found.
 */
bool sw_machine_locate(struct sw_machine *m, uint32_t pid, uint64_t ip,
		       bool kernel, uint32_t *image, uint64_t *rel);

/* String id of the name of thread @tid of process @pid (":pid" if unknown). */
uint32_t sw_machine_comm(struct sw_machine *m, uint32_t pid, uint32_t tid);

/* The current incarnation of process @pid, or NULL. */
struct sw_proc *sw_machine_proc(struct sw_machine *m, uint32_t pid);

/**
 * sw_machine_image() - the id of an image, adding it when new.
 * @m:        the machine
 * @kind:     enum sw_image_kind
 * @path:     the path or bracketed name
 * @pid:      owner for SW_IMG_ANON, else 0
 * @bid:      build-id or NULL
 * @bid_size: its size
 *
 * Return: the id, or -ENOMEM.
 */
int64_t sw_machine_image(struct sw_machine *m, enum sw_image_kind kind,
			 const char *path, uint32_t pid,
			 const unsigned char *bid, unsigned int bid_size);

static inline const char *sw_str(const struct sw_machine *m, uint32_t id)
{
	return sw_intern_s(&m->str, id);
}

#endif /* _SW_UTIL_MACHINE_H */
