/* SPDX-License-Identifier: GPL-2.0 */
/*
 * session.h - a recording opened for reporting: the .swd file, the host
 * facts it carries, the machine rebuilt from its side-band records, the
 * symbolizer, and what was lost.
 *
 * sw_session_for_each() replays the records of all CPUs merged by time
 * (records synthesized at start first), applies the side-band records to
 * the machine and hands each sample of the selected processes to a
 * callback, so that the callback resolves it against the machine as it was
 * when the sample was taken.
 */
#ifndef _SW_UTIL_SESSION_H
#define _SW_UTIL_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include <stopwatch/abi.h>

#include "base/err.h"
#include "record/machine.h"
#include "record/swd.h"
#include "record/symbol.h"

/**
 * struct sw_losses - what the recording lost, by cause.
 * @taken:       samples the sampler took (sum over CPUs), when known
 * @written:     samples it wrote to the relay buffers, when known
 * @full:        lost: buffer full
 * @nested:      lost: handler interrupted itself
 * @stack:       lost: user stack copy faulted (stack_fail=drop)
 * @throttled:   lost: over max_rate
 * @sideband:    side-band records lost (names, mappings: samples of the
 *               processes concerned may show as [unknown])
 * @read:        samples found in the file
 * @missing:     samples the sampler wrote that are not in the file
 *               (recording cut short, reader too slow, file damaged)
 * @counted:     @taken/@written come from final counters (END records or
 *               the sampler's counters at the end)
 * @cpus_no_end: CPUs whose stream has no END record
 * @ncpus:       CPUs with a stream
 * @call_taken:  call records of traced probes produced, when counted
 * @call_written: of them written to the relay buffers
 * @call_full:   call records lost: buffer full
 * @call_nested: call records lost: the ring's writer was busy (a handler
 *               interrupted another on its CPU)
 * @calls_read:  call records found in the file
 * @calls_missing: call records written that are not in the file
 */
struct sw_losses {
	uint64_t taken;
	uint64_t written;
	uint64_t full;
	uint64_t nested;
	uint64_t stack;
	uint64_t throttled;
	uint64_t sideband;
	uint64_t read;
	uint64_t missing;
	bool counted;
	unsigned int cpus_no_end;
	unsigned int ncpus;
	uint64_t call_taken;
	uint64_t call_written;
	uint64_t call_full;
	uint64_t call_nested;
	uint64_t calls_read;
	uint64_t calls_missing;
};

int sw_sampler_counters(const char *text, size_t len, struct sw_losses *c,
			uint64_t *kthrottled);

/* Samples lost by all causes, including those missing from the file. */
static inline uint64_t sw_losses_samples(const struct sw_losses *l)
{
	return l->full + l->nested + l->stack + l->throttled + l->missing;
}

/**
 * struct sw_session_opts - how to open a recording.
 * @debuginfo_path: libdwfl debuginfo path, or NULL for the default
 * @all_pids:       report every process, not only the recorded command's
 *                  process tree
 * @no_src:         never look up source lines
 * @no_demangle:    keep C++ and Rust names mangled
 * @vmlinux:        the kernel's ELF file with debug information (source
 *                  lines of kernel code), or NULL to look for it
 * @kmod_dir:       a folder to look in first for modules' files, or NULL
 * @warn:           called with warnings (missing files, stale builds)
 * @warn_arg:       its argument
 */
struct sw_session_opts {
	const char *debuginfo_path;
	bool all_pids;
	bool no_src;
	bool no_demangle;
	const char *vmlinux;
	const char *kmod_dir;
	void (*warn)(void *arg, const char *msg);
	void *warn_arg;
};

/*
 * A CPU's stream: its records in file order; live (sw_session_live_add()),
 * copies of those not yet replayed, from @head on, and @seen, the latest
 * time read from the stream.
 */
struct sw_cpu_recs {
	uint32_t cpu;
	const struct sw_rec_header **rec;
	size_t n;
	size_t cap;
	size_t head;
	uint64_t seen;
};

struct sw_session_live;

/**
 * struct sw_session - an opened recording.
 * @file:        the .swd file (NULL: live)
 * @path:        its path, for messages
 * @meta:        its META section, or NULL
 * @m:           the machine
 * @sym:         the symbolizer
 * @stream:      the first SW_REC_STREAM found (settings), or zeroed
 * @have_stream: @stream is valid
 * @kernel:      the SW_REC_KERNEL record, or zeroed
 * @krelease:    its release, NUL-terminated ("" when none)
 * @target_pid:  the recorded command's or -p process, 0 for all
 * @lost:        losses
 * @cpus:        records per CPU, in file order
 * @ncpus:       number of CPU streams
 * @synth:       records synthesized at start and STATE records, applied
 *               first
 * @nsynth:      their number
 * @synthcap:    allocated
 * @nsamples:    sample records found
 * @ncalls:      call records found
 * @filtered:    samples of processes outside the target tree (after
 *               sw_session_for_each())
 * @bad_records: records too short for their type (skipped)
 * @first_time:  earliest sample time
 * @last_time:   latest sample time
 * @perfmaps:    PERFMAP sections by pid
 * @owned:       perf maps read from /tmp at report time, freed at close
 * @nowned:      their number
 * @live:        the state of a live session, or NULL
 */
struct sw_session {
	struct swd_file *file;
	const char *path;
	const struct swd_section *meta;
	struct sw_machine m;
	struct sw_symbolizer sym;
	struct sw_rec_stream stream;
	bool have_stream;
	struct sw_rec_kernel kernel;
	char krelease[SW_RELEASE_LEN + 1];
	uint32_t target_pid;
	struct sw_losses lost;
	struct sw_cpu_recs *cpus;
	size_t ncpus;
	const struct sw_rec_header **synth;
	size_t nsynth;
	size_t synthcap;
	uint64_t nsamples;
	uint64_t ncalls;
	uint64_t filtered;
	uint64_t bad_records;
	uint64_t first_time;
	uint64_t last_time;
	struct sw_u64map perfmaps;
	char **owned;
	size_t nowned;
	struct sw_session_live *live;
};

/**
 * sw_session_open() - open a recording.
 * @path: the .swd file
 * @o:    options
 * @out:  on success the session, freed with sw_session_close()
 * @err:  message on failure
 *
 * Return: 0 or a negative errno (see swd_open(); -EPROTO for a stream of
 * another record ABI major).
 */
int sw_session_open(const char *path, const struct sw_session_opts *o,
		    struct sw_session **out, struct sw_err *err);

void sw_session_close(struct sw_session *s);

/**
 * sw_session_for_each() - replay the recording.
 * @s:         the session
 * @on_sample: called for each sample of the selected processes, with the
 *             machine as of the sample's time; a nonzero return stops the
 *             replay and is returned
 * @arg:       passed to @on_sample
 *
 * Can be called once per session (the machine keeps the final state).
 *
 * Return: 0, @on_sample's nonzero value, or -ENOMEM.
 */
int sw_session_for_each(struct sw_session *s,
			int (*on_sample)(void *arg,
					 const struct sw_rec_sample *smp),
			void *arg);

/**
 * sw_session_replay() - replay every record in one order: the records of
 * all CPUs merged by time, each CPU's in its own order (so a thread's
 * records stay in the order they were written, across migrations, as
 * long as the CPUs' clocks agree).  Side-band records update the machine
 * before @on_rec sees them; samples and calls of processes outside the
 * target tree are left out (counted in filtered).
 * @s:      the session
 * @on_rec: called with each record and the CPU whose stream held it; a
 *          nonzero return stops the replay and is returned
 * @arg:    passed to @on_rec
 *
 * Can be called once per session, instead of sw_session_for_each().
 *
 * Return: 0, @on_rec's nonzero value, or -ENOMEM.
 */
int sw_session_replay(struct sw_session *s,
		      int (*on_rec)(void *arg, const struct sw_rec_header *h,
				    uint32_t cpu),
		      void *arg);

/**
 * sw_session_live_open() - a session fed while recording, with no file:
 * the records of each CPU's stream as they are read
 * (sw_session_live_add()), replayed merged by time as far as every stream
 * has been read (sw_session_live_flush()), the losses set at the end
 * (sw_session_live_end()).  Replays as sw_session_replay() does.
 * @meta:     the META text the recording's file would hold (target_pid,
 *            trace_ids, ...)
 * @len:      its length
 * @all_pids: every process, not only the target's tree
 * @on_rec:   called with each record replayed, as sw_session_replay()'s
 * @arg:      passed to @on_rec
 * @out:      on success the session, freed with sw_session_close()
 * @err:      message on failure
 */
int sw_session_live_open(const char *meta, size_t len, bool all_pids,
			 int (*on_rec)(void *arg, const struct sw_rec_header *h,
				       uint32_t cpu),
			 void *arg, struct sw_session **out, struct sw_err *err);

/* Makes the stream of @cpu known (it holds the merge back until read). */
int sw_session_live_cpu(struct sw_session *s, uint32_t cpu);

/**
 * sw_session_live_add() - one whole record of CPU @cpu's stream, in the
 * stream's order: kept (copied) for the merge, or taken in at once
 * (settings, losses, the state synthesized at start).
 * Return: 0 or a negative errno (@err set; -EPROTO: another record ABI).
 */
int sw_session_live_add(struct sw_session *s, const struct sw_rec_header *h,
			uint32_t cpu, struct sw_err *err);

/**
 * sw_session_live_flush() - replay the records kept, merged by time, up
 * to the watermark: a record is replayed once every CPU's stream either
 * holds a record kept after it or has been read past its time, or when
 * it is no later than @horizon (the caller's bound on how late a record
 * still arrives; UINT64_MAX: everything).
 * Return: 0 or the callback's nonzero value.
 */
int sw_session_live_flush(struct sw_session *s, uint64_t horizon);

/*
 * sw_session_live_late() - records replayed after one of a later time:
 * they reached their stream past the horizon, when later records of
 * other CPUs had already gone (0 for a session of a file).
 */
uint64_t sw_session_live_late(const struct sw_session *s);

/**
 * sw_session_live_end() - replay everything kept, then set s->lost from
 * the END and LOST records seen and the sampler's final @counters (the
 * sampler file's text, or NULL) as sw_session_open() does.
 */
int sw_session_live_end(struct sw_session *s, const char *counters);

/* The value of @key in META, else in END (malloc()ed), or NULL. */
char *sw_session_meta(const struct sw_session *s, const char *key);

/**
 * sw_session_locate() - symbolize one address of a sample.
 * @s:        the session
 * @pid:      the sample's process
 * @addr:     the address
 * @kernel:   a kernel address
 * @ret_addr: a return address (callers' frames): looked up at @addr - 1 so
 *            that the call instruction, not the next one, is found
 * @srcline:  also look up the source line
 *
 * Return: an id for sw_symres_get(&s->sym, id), or a negative errno.
 */
int64_t sw_session_locate(struct sw_session *s, uint32_t pid, uint64_t addr,
			  bool kernel, bool ret_addr, bool srcline);

#endif /* _SW_UTIL_SESSION_H */
