/* SPDX-License-Identifier: GPL-2.0 */
/*
 * recorder.h - the reader side of "stopwatch record": controls the sampler
 * through its debugfs file, drains the per-CPU relay files into a .swd
 * file, and collects the host facts a report needs later (kallsyms,
 * modules, the vdso, build-ids, JIT perf maps, final counters).
 *
 * Memory stays bounded however long it runs: one read buffer, a carry of
 * at most one partial record per CPU, the set of mapped paths and the
 * process state needed to start a rotated file (live processes only).
 */
#ifndef _SW_UTIL_RECORDER_H
#define _SW_UTIL_RECORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "base/intern.h"
#include "record/machine.h"
#include "record/swd.h"
#include "record/unwload.h"

/**
 * struct sw_rec_cpu - one relay file.
 * @fd:        open file
 * @cpu:       its CPU number
 * @carry:     bytes of a record cut by the previous read
 * @ncarry:    their number
 * @samples:   samples drained
 * @ended:     an END record was seen
 * @dropped:   bytes dropped because they did not parse as records
 */
struct sw_rec_cpu {
	int fd;
	uint32_t cpu;
	unsigned char carry[SW_REC_MAX_SIZE];
	size_t ncarry;
	uint64_t samples;
	bool ended;
	uint64_t dropped;
};

/**
 * struct sw_recorder - the reader.
 * @dir:        stopwatch debugfs directory
 * @cpu:        the relay files
 * @ncpu:       their number
 * @buf:        read buffer
 * @bufsize:    its size
 * @w:          the output file, or NULL between rotations
 * @paths:      paths of file mappings seen (for build-ids)
 * @anon_pids:  processes with anonymous executable mappings (perf maps)
 * @m:          process state for rotated files' STATE section
 * @samples:    samples drained in total
 * @file_samples: samples in the current file
 * @bytes:      record bytes drained in total
 * @lost:       sums of the LOST records drained (full, nested, stack,
 *              throttled, sideband)
 * @dropped:    bytes dropped as unparsable
 * @unw:        loads unwind tables for the mappings seen, or NULL
 * @on_rec:     called with each whole record drained and its CPU, or
 *              NULL; a nonzero return ends the drain and is returned
 * @on_rec_arg: its argument
 */
struct sw_recorder {
	char *dir;
	struct sw_rec_cpu *cpu;
	size_t ncpu;
	unsigned char *buf;
	size_t bufsize;
	struct swd_writer *w;
	struct sw_intern paths;
	struct sw_u64map anon_pids;
	struct sw_machine m;
	uint64_t samples;
	uint64_t file_samples;
	uint64_t bytes;
	uint64_t lost[5];
	uint64_t dropped;
	struct sw_unw_loader *unw;
	int (*on_rec)(void *arg, const struct sw_rec_header *h, uint32_t cpu);
	void *on_rec_arg;
};

/**
 * sw_recorder_open() - open every samples/cpuN file of @dir.
 * Return: 0, -ENOENT (no sampler in this module), or a negative errno.
 */
int sw_recorder_open(struct sw_recorder *r, const char *dir,
		     struct sw_err *err);
void sw_recorder_close(struct sw_recorder *r);

/**
 * sw_recorder_drain() - wait up to @timeout_ms for data, then read every
 * relay file until it is empty, appending whole records to r->w (when
 * set) and handing each to r->on_rec (when set).
 *
 * Return: bytes of records read (0: nothing), or a negative errno (a write
 * error on the output).
 */
int64_t sw_recorder_drain(struct sw_recorder *r, int timeout_ms);

/**
 * sw_sampler_ctl() - write a control line to the sampler file.
 * @dir:  stopwatch debugfs directory
 * @line: "start ..." or "stop"
 * @err:  on failure, the module's reason (from last_error)
 */
int sw_sampler_ctl(const char *dir, const char *line, struct sw_err *err);

/**
 * sw_sampler_state() - read the sampler file.
 * @dir:  stopwatch debugfs directory
 * @text: malloc()ed contents
 *
 * Return: 0 or a negative errno (-ENOENT: the module has no sampler).
 */
int sw_sampler_state(const char *dir, char **text);

/* Value after "@key " on a line of the sampler file, malloc()ed, or NULL. */
char *sw_sampler_field(const char *text, const char *key);

/**
 * struct sw_facts - host facts every file carries: kallsyms, modules and
 * the vdso, read by sw_facts_capture() before the sampler starts.
 */
struct sw_facts {
	char *kallsyms;
	size_t kallsyms_len;
	char *modules;
	size_t modules_len;
	void *vdso;
	size_t vdso_len;
	/* the same deflated, once, for rotated files (NULL: not yet, or
	 * compressing did not pay) */
	void *z[3];
	size_t zlen[3];
	bool ztried[3];
};

int sw_facts_capture(struct sw_facts *f);
void sw_facts_free(struct sw_facts *f);

/**
 * sw_facts_write() - the host-facts sections of a new file.
 * @w:       the file
 * @f:       the facts
 * @deflate: compress them (costly the first time: a few hundred ms for a
 *           distribution kernel's kallsyms, far more under emulation, so
 *           the first file of a recording, written while the relay buffers
 *           fill, stores them plain)
 */
int sw_facts_write(struct swd_writer *w, struct sw_facts *f, bool deflate);

/**
 * sw_recorder_finish_file() - the closing sections of the current file:
 * build-ids of the mapped files, perf maps of JIT processes, the sampler's
 * counters (@counters, may be NULL) and END with @end_kv lines.
 */
int sw_recorder_finish_file(struct sw_recorder *r, const char *counters,
			    const char *end_kv);

/**
 * sw_recorder_state() - synthesized COMM/MMAP/MODULE records of the live
 * processes, for the STATE section of a rotated file; also drops the
 * state of exited processes.
 * @r:   the recorder
 * @out: malloc()ed records
 * @len: their bytes
 */
int sw_recorder_state(struct sw_recorder *r, void **out, size_t *len);

#endif /* _SW_UTIL_RECORDER_H */
