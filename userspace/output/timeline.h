/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timeline.h - a recording's calls, samples and threads handed, in time
 * order, to a timeline writer (Perfetto's protobuf trace, Chrome's JSON
 * trace events): "stopwatch script --perfetto/--chrome".
 */
#ifndef _SW_OUTPUT_TIMELINE_H
#define _SW_OUTPUT_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "record/calls.h"
#include "record/session.h"

/* The most frames a sample's stack is given to a writer with. */
#define SW_TIMELINE_MAX_FRAMES 1024

struct sw_timeline;

/**
 * struct sw_timeline_ops - a timeline writer.
 * @name:   the format, for messages ("perfetto", "chrome")
 * @size:   bytes of its state, zeroed before @begin
 * @begin:  the output file is open: write a header
 * @thread: a thread is first seen (@renamed false) or its command name
 *          changed (@renamed true); @comm is its name now, @pcomm its
 *          process's
 * @call:   a traced call (or span): @name is what to call its slice
 * @sample: a sample; @frames are symbol ids (sw_timeline_frame_*()),
 *          outermost first, -1 for a frame that did not resolve
 * @end:    the last record was given: finish the file
 * @free:   release the state (also after a failure)
 *
 * Each returns 0 or a negative errno, which stops the export.
 */
struct sw_timeline_ops {
	const char *name;
	size_t size;
	int (*begin)(struct sw_timeline *tl, void *w);
	int (*thread)(struct sw_timeline *tl, void *w, uint32_t pid,
		      uint32_t tid, const char *comm, const char *pcomm,
		      bool renamed);
	int (*call)(struct sw_timeline *tl, void *w,
		    const struct sw_call_info *ci, const char *name);
	int (*sample)(struct sw_timeline *tl, void *w,
		      const struct sw_rec_sample *smp, const int64_t *frames,
		      uint32_t nframes);
	int (*end)(struct sw_timeline *tl, void *w);
	void (*free)(struct sw_timeline *tl, void *w);
};

/**
 * struct sw_timeline - one writer's view of an export.
 * @s:        the recording
 * @out:      the output file
 * @path:     its name
 * @ev_names: the names of the calls' event deltas, by index ("ev0" when
 *            the recording does not say)
 * @calls:    call records given to the writer
 * @samples:  samples given to the writer
 * @threads:  threads given to the writer
 */
struct sw_timeline {
	struct sw_session *s;
	FILE *out;
	const char *path;
	const char *const *ev_names;
	uint64_t calls, samples, threads;
	/* private: (pid, tid) already announced */
	struct sw_u64map seen;
};

/* One file to write, in one format. */
struct sw_timeline_out {
	const struct sw_timeline_ops *ops;
	const char *path;
};

#define SW_TIMELINE_MAX_OUTS 2

/**
 * struct sw_timeline_opts - what to export, where.
 * @input:          the recording
 * @outs:           the files to write (one replay feeds them all)
 * @nouts:          their number, at most SW_TIMELINE_MAX_OUTS
 * @debuginfo_path: libdwfl's search path, or NULL
 * @all_pids:       every process, not only the recorded command's
 * @cmd:            the command, for messages ("script")
 */
struct sw_timeline_opts {
	const char *input;
	struct sw_timeline_out outs[SW_TIMELINE_MAX_OUTS];
	unsigned int nouts;
	const char *debuginfo_path;
	bool all_pids;
	const char *cmd;
};

extern const struct sw_timeline_ops sw_perfetto_ops;
extern const struct sw_timeline_ops sw_chrome_ops;

/**
 * sw_timeline_export() - write a recording as timelines.
 * @o: what and where
 *
 * Errors (an unreadable recording, an unwritable output) are said on
 * stderr naming the file, and no output is left behind; a recording cut
 * short is exported as far as it was read, and the loss said.
 *
 * Return: 0 or a negative errno.
 */
int sw_timeline_export(const struct sw_timeline_opts *o);

/* A frame's function name ("[unknown]" for -1). */
const char *sw_timeline_frame_name(const struct sw_timeline *tl, int64_t id);
/* A frame's image path ("[unknown]" for -1). */
const char *sw_timeline_frame_image(const struct sw_timeline *tl, int64_t id);
/* A frame's image id (-1 for -1). */
int64_t sw_timeline_frame_image_id(const struct sw_timeline *tl, int64_t id);
/* A frame's address within its image (0 for -1). */
uint64_t sw_timeline_frame_rel(const struct sw_timeline *tl, int64_t id);

#endif
