/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unwload.h - loads unwind tables into stopwatch.ko while recording: for
 * each executable file mapping the recorder sees, the file's table (built
 * once per build-id) and the process's map of it.
 */
#ifndef _SW_RECORD_UNWLOAD_H
#define _SW_RECORD_UNWLOAD_H

#include <stdint.h>
#include <stopwatch/abi.h>

#include "base/err.h"
#include "base/intern.h"
#include "record/cfi.h"

/**
 * struct sw_unw_file - a file seen, by build-id.
 * @t:      its table's build-id and segments (rows freed once loaded)
 * @status: 0 loaded, else the negative errno that kept it out
 */
struct sw_unw_file {
	struct sw_cfi_table t;
	int status;
};

/**
 * struct sw_unw_loader - the loader.
 * @fd:       the module's unwind file
 * @files:    files seen
 * @nfiles:   their number
 * @tables:   tables loaded
 * @rows:     their rows
 * @maps:     maps loaded
 * @no_cfi:   files without call-frame information
 * @no_room:  tables refused for lack of room (unwind_kb)
 * @failed:   files or maps that failed otherwise
 * @stale:    maps the process no longer had when they reached the module
 * @others:   mappings of processes outside the workload's tree, not loaded
 * @build_ns: time spent building tables
 * @first_err: the first failure's message
 * @workload: pid of the command being recorded, forked by stopwatch, or 0
 *            (then every process's mappings are loaded).  Its synthesized
 *            mappings at start are stopwatch's own, about to be replaced
 *            by its exec, and are not loaded; nor are those of processes
 *            that do not descend from it
 * @tree:     the workload's descendants seen so far (tgids)
 */
struct sw_unw_loader {
	int fd;
	struct sw_unw_file *files;
	size_t nfiles;
	uint64_t tables, rows, maps, stale, others, no_cfi, no_room, failed;
	uint64_t build_ns;
	struct sw_err first_err;
	uint32_t workload;
	struct sw_u64map tree;
};

int sw_unw_loader_open(struct sw_unw_loader *l, const char *dir,
		       struct sw_err *err);
void sw_unw_loader_preload(struct sw_unw_loader *l, const char *cmd);
void sw_unw_loader_mmap(struct sw_unw_loader *l, const struct sw_rec_mmap *m);
void sw_unw_loader_fork(struct sw_unw_loader *l, const struct sw_rec_fork *f);
void sw_unw_loader_close(struct sw_unw_loader *l);

#endif /* _SW_RECORD_UNWLOAD_H */
