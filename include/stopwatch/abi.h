/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-2-Clause */
/*
 * stopwatch/abi.h - the sampler's record stream, shared by stopwatch.ko and
 * the userspace reader (include with -I include).
 *
 * Where the records are
 *   /sys/kernel/debug/stopwatch/samples/cpuN is a relay file per possible
 *   CPU.  read(2) returns whole records, back to back (relay drops its
 *   sub-buffer padding); a record never straddles two reads' sub-buffers.
 *   Each file holds the records produced on CPU N.  A session (one
 *   "start" .. "stop") begins every CPU's stream with SW_REC_STREAM and, on
 *   a clean stop, ends it with SW_REC_END.  A CPU that goes offline during
 *   a session ends its stream with SW_REC_END and begins a new one with
 *   SW_REC_STREAM when it comes back; its END counters are cumulative over
 *   the session, so the last END of a CPU holds its totals.  The files
 *   keep a stopped session's records until the next "start" or unload.
 *
 * Ordering
 *   Within one file records are in the order they were produced on that
 *   CPU.  Across files, and for side-band records (task, mmap, module)
 *   against samples, order by sw_rec_header.time: every record carries the
 *   stopwatch clock (CLOCK_MONOTONIC nanoseconds, NMI-safe fast accessor),
 *   so a reader merges the per-CPU files by time, as perf does.
 *
 * Layout rules
 *   - Every record starts with struct sw_rec_header; size is the whole
 *     record in bytes, a multiple of 8, at least sizeof(sw_rec_header).
 *   - All fields are fixed width, naturally aligned, explicitly padded;
 *     integers are in the producing machine's byte order (the reader
 *     checks SW_ABI_MAGIC to detect the other order).
 *   - Pad and reserved fields are written as zero.
 *   - Compatibility: a reader refuses a stream whose major differs from
 *     SW_ABI_MAJOR.  Within one major, later minors only add record types
 *     and add fields after the existing fixed fields (raising the size):
 *     readers skip unknown types by size and read known records up to
 *     min(size, sizeof(struct)).  The variable part of a record (sample
 *     frames, mmap path) is always the record's last bytes, so readers
 *     locate it from the end with sw_sample_frames() / sw_mmap_path(),
 *     never from sizeof().
 *
 * Identities
 *   pid is the thread-group id (what getpid() returns), tid the thread id
 *   (gettid()), both in the initial pid namespace.  The idle task is
 *   pid 0 / tid 0.
 *
 * Resolving user addresses (pid/ip -> image/offset)
 *   The module emits task records (SW_REC_COMM, SW_REC_FORK, SW_REC_EXIT)
 *   and executable-mapping records (SW_REC_MMAP) as they happen, in the
 *   same stream as the samples, and at "start" it synthesizes COMM and MMAP
 *   records (flag SW_REC_F_SYNTH) for every task that already exists,
 *   before the first sample of the session is taken.  A
 *   reader keeps, per pid, the mappings known at a sample's time; a FORK
 *   of a new process copies the parent's mappings, an exec (SW_COMM_F_EXEC)
 *   drops them.  This works after the process and its /proc entry are
 *   gone.  Mappings are those with execute permission (code), file-backed
 *   or anonymous (JIT code: path "//anon").
 *
 * Resolving kernel addresses
 *   SW_REC_KERNEL gives the kernel release and the run-time address of a
 *   reference symbol (KASLR slide against System.map/vmlinux).
 *   SW_REC_MODULE gives each loaded module's name, base and size (at start,
 *   and on every load/unload during a session): a kernel address inside
 *   [base, base + size) is "module name + (address - base)"; anything else
 *   is core kernel text, resolved with /proc/kallsyms or vmlinux.
 */
#ifndef _STOPWATCH_ABI_H
#define _STOPWATCH_ABI_H

#include <linux/types.h>

/* First field of SW_REC_STREAM: "SWS1" in the producer's byte order. */
#define SW_ABI_MAGIC 0x53575331U
#define SW_ABI_MAJOR 1
#define SW_ABI_MINOR 1

/* Fixed string sizes (each NUL-terminated, NUL-padded). */
#define SW_COMM_LEN 16
#define SW_EVENT_LEN 32
#define SW_MODNAME_LEN 64
#define SW_SYMNAME_LEN 64
#define SW_RELEASE_LEN 72
#define SW_BUILD_ID_MAX 20

/*
 * The module's max_probes parameter: its default, and the most it takes.
 * Probes are allocated as they are added; max_probes only bounds them.
 */
#define SW_MAX_PROBES_DEFAULT 4096
#define SW_MAX_PROBES_LIMIT 65536

/* Record alignment: every size is a multiple of this. */
#define SW_REC_ALIGN 8
#define SW_REC_ALIGN_UP(n) (((n) + SW_REC_ALIGN - 1) & ~(__u32)(SW_REC_ALIGN - 1))

/* Largest record the module ever writes (an MMAP with a PATH_MAX path). */
#define SW_REC_MAX_SIZE 8192

/**
 * enum sw_rec_type - sw_rec_header.type values.
 * @SW_REC_STREAM: session start on one CPU (struct sw_rec_stream)
 * @SW_REC_SAMPLE: one sample (struct sw_rec_sample)
 * @SW_REC_COMM:   a thread's command name (struct sw_rec_comm)
 * @SW_REC_FORK:   a new thread or process (struct sw_rec_fork)
 * @SW_REC_EXIT:   a thread exited (struct sw_rec_exit)
 * @SW_REC_MMAP:   an executable mapping (struct sw_rec_mmap)
 * @SW_REC_LOST:   samples/records lost since the previous LOST record of
 *                 this stream (struct sw_rec_lost)
 * @SW_REC_KERNEL: the kernel image (struct sw_rec_kernel)
 * @SW_REC_MODULE: a kernel module (struct sw_rec_module)
 * @SW_REC_END:    session end on one CPU, final counters (struct sw_rec_end)
 * @SW_REC_CALL:   one completed call of a traced probe, or one interval of
 *                 a traced span (struct sw_rec_call; minor 1)
 *
 * 0 is never a valid type.
 */
enum sw_rec_type {
	SW_REC_STREAM = 1,
	SW_REC_SAMPLE = 2,
	SW_REC_COMM = 3,
	SW_REC_FORK = 4,
	SW_REC_EXIT = 5,
	SW_REC_MMAP = 6,
	SW_REC_LOST = 7,
	SW_REC_KERNEL = 8,
	SW_REC_MODULE = 9,
	SW_REC_END = 10,
	SW_REC_CALL = 11,
	SW_REC_TYPE_MAX,
};

/* sw_rec_header.flags bits shared by all side-band records. */
#define SW_REC_F_SYNTH 0x8000	/* synthesized at start for existing state */

/**
 * struct sw_rec_header - common start of every record (16 bytes).
 * @type:  enum sw_rec_type
 * @flags: type-specific bits (SW_SAMPLE_F_*, SW_COMM_F_*, ...; SW_REC_F_SYNTH)
 * @size:  whole record in bytes including this header, multiple of 8
 * @time:  stopwatch clock (CLOCK_MONOTONIC ns) when the event happened
 */
struct sw_rec_header {
	__u16 type;
	__u16 flags;
	__u32 size;
	__u64 time;
};

/* sw_rec_stream.flags */
#define SW_STREAM_F_FREQ 0x0001		/* period_or_freq is a frequency, Hz */
#define SW_STREAM_F_KSTACK 0x0002	/* kernel call stacks requested */
#define SW_STREAM_F_USTACK 0x0004	/* user call stacks requested */
#define SW_STREAM_F_NMI 0x0008		/* overflow is delivered by NMI */
#define SW_STREAM_F_HW 0x0010		/* hardware (PMU) event */
#define SW_STREAM_F_PID 0x0020		/* filtered to one thread: filter_id */
#define SW_STREAM_F_TGID 0x0040		/* filtered to one process: filter_id */
/*
 * SW_STREAM_F_STACK_DROP: samples whose user stack copy faulted are
 * dropped (lost.stack) instead of kept with SW_SAMPLE_F_USTACK_FAULT.
 */
#define SW_STREAM_F_STACK_DROP 0x0080

/**
 * struct sw_rec_stream - first record of every CPU's stream in a session
 * (104 bytes).
 * @h:              header; type SW_REC_STREAM
 * @magic:          SW_ABI_MAGIC
 * @major:          SW_ABI_MAJOR of the producer; readers refuse another
 * @minor:          SW_ABI_MINOR of the producer
 * @cpu:            CPU whose records follow (the relay file's N)
 * @session:        session number, counting starts since the module loaded
 * @ev_type:        perf_event_attr.type of the sampled event
 * @flags:          SW_STREAM_F_*
 * @ev_config:      perf_event_attr.config of the sampled event
 * @period_or_freq: sample period in events, or frequency in Hz (F_FREQ)
 * @filter_id:      the pid or tid samples are restricted to (F_PID/F_TGID)
 * @max_kstack:     most kernel frames per sample
 * @max_ustack:     most user frames per sample
 * @realtime_ns:    CLOCK_REALTIME at the same instant as @h.time, to show
 *                  wall-clock times
 * @event:          the event as the user spelled it ("cycles", "r1c2", ...)
 */
struct sw_rec_stream {
	struct sw_rec_header h;
	__u32 magic;
	__u16 major;
	__u16 minor;
	__u32 cpu;
	__u32 session;
	__u32 ev_type;
	__u32 flags;
	__u64 ev_config;
	__u64 period_or_freq;
	__u32 filter_id;
	__u16 max_kstack;
	__u16 max_ustack;
	__u64 realtime_ns;
	char event[SW_EVENT_LEN];
};

/* sw_rec_sample h.flags */
#define SW_SAMPLE_F_USER 0x0001		/* ip was in user mode */
#define SW_SAMPLE_F_KSTACK_TRUNC 0x0002	/* kernel stack hit max_kstack */
#define SW_SAMPLE_F_USTACK_TRUNC 0x0004	/* user stack hit max_ustack */
#define SW_SAMPLE_F_USTACK_FAULT 0x0008	/* user stack read faulted there */
#define SW_SAMPLE_F_KSTACK_ERR 0x0010	/* kernel unwinder reported an error */
#define SW_SAMPLE_F_IDLE 0x0020		/* the CPU's idle task was running */
#define SW_SAMPLE_F_KTHREAD 0x0040	/* a kernel thread (no user context) */
#define SW_SAMPLE_F_USTACK_TABLE 0x0080	/* user stack unwound with tables */
#define SW_SAMPLE_F_USTACK_NOTAB 0x0100	/* ... ended at a pc no table covers
					 * (frame pointers tried there) */

/**
 * struct sw_rec_sample - one sample (48 bytes + 8 per frame).
 * @h:         header; type SW_REC_SAMPLE, flags SW_SAMPLE_F_*
 * @pid:       thread-group id of the interrupted task
 * @tid:       thread id of the interrupted task
 * @ip:        interrupted instruction pointer (user or kernel, see
 *             SW_SAMPLE_F_USER)
 * @period:    events this sample stands for (the event's period when it
 *             overflowed; for cpu-clock, nanoseconds)
 * @cpu:       CPU the sample was taken on
 * @nr_kernel: kernel call-stack entries at the start of @frames
 * @nr_user:   user call-stack entries after them
 * @frames:    call stacks, innermost first.  The kernel part (only when
 *             the sample hit kernel mode) begins with @ip followed by
 *             return addresses.  The user part begins with the user-mode
 *             pc (@ip for a user-mode sample, else where the task entered
 *             the kernel) followed by return addresses found by walking
 *             frame pointers.  Locate them with sw_sample_frames(): they
 *             are the last 8 * (nr_kernel + nr_user) bytes of the record.
 */
struct sw_rec_sample {
	struct sw_rec_header h;
	__u32 pid;
	__u32 tid;
	__u64 ip;
	__u64 period;
	__u32 cpu;
	__u16 nr_kernel;
	__u16 nr_user;
	__u64 frames[];
};

/* sw_rec_comm h.flags */
#define SW_COMM_F_EXEC 0x0001	/* the name changed because of an exec */

/**
 * struct sw_rec_comm - a thread's command name, as set by exec or
 * prctl(PR_SET_NAME), or synthesized at start (40 bytes).
 * @h:    header; type SW_REC_COMM, flags SW_COMM_F_EXEC, SW_REC_F_SYNTH
 * @pid:  thread-group id
 * @tid:  thread id
 * @comm: the name (task->comm)
 *
 * An exec (SW_COMM_F_EXEC) replaces the whole process image: a reader
 * forgets the pid's mappings; the MMAP records of the new image follow.
 */
struct sw_rec_comm {
	struct sw_rec_header h;
	__u32 pid;
	__u32 tid;
	char comm[SW_COMM_LEN];
};

/* sw_rec_fork h.flags */
#define SW_FORK_F_THREAD 0x0001	/* a new thread in ppid's process */

/**
 * struct sw_rec_fork - a task was created (48 bytes).
 * @h:    header; type SW_REC_FORK, flags SW_FORK_F_THREAD
 * @pid:  thread-group id of the new task
 * @tid:  thread id of the new task
 * @ppid: thread-group id of the creating task
 * @ptid: thread id of the creating task
 * @comm: the new task's name (inherited from its creator)
 *
 * A new process (not a thread) shares nothing with the parent from now on
 * but starts with copies of the parent's mappings.
 */
struct sw_rec_fork {
	struct sw_rec_header h;
	__u32 pid;
	__u32 tid;
	__u32 ppid;
	__u32 ptid;
	char comm[SW_COMM_LEN];
};

/**
 * struct sw_rec_exit - a thread exited (24 bytes).
 * @h:   header; type SW_REC_EXIT
 * @pid: thread-group id
 * @tid: thread id; when tid == pid the whole process is going away once
 *       its other threads have exited too
 */
struct sw_rec_exit {
	struct sw_rec_header h;
	__u32 pid;
	__u32 tid;
};

/* sw_rec_mmap h.flags */
#define SW_MMAP_F_ANON 0x0001	/* no file: path is "//anon" */
#define SW_MMAP_F_BUILD_ID 0x0002	/* build_id[] is valid */

/**
 * struct sw_rec_mmap - an executable mapping of process @pid (104 bytes
 * plus the path, padded to 8).
 * @h:             header; type SW_REC_MMAP, flags SW_MMAP_F_*, SW_REC_F_SYNTH
 * @pid:           thread-group id owning the address space
 * @tid:           thread that created the mapping (== pid when synthesized)
 * @start:         first address of the mapping
 * @len:           length in bytes
 * @pgoff:         file offset of @start in bytes (user ip maps to file
 *                 offset ip - start + pgoff)
 * @ino:           inode number of the file (0 if anonymous)
 * @ino_generation: inode generation
 * @dev_major:     major number of the file's device
 * @dev_minor:     minor number of the file's device
 * @prot:          PROT_READ/WRITE/EXEC bits of the mapping
 * @build_id_size: bytes used in @build_id (0 if unknown)
 * @pad:           zero
 * @build_id:      the file's GNU build-id when SW_MMAP_F_BUILD_ID
 * @path_len:      bytes in @path including the terminating NUL
 * @pad2:          zero
 * @path:          absolute path of the file as the process saw it
 *                 (d_path), or "//anon"; NUL-terminated, zero-padded up
 *                 to the record size.  Locate it with sw_mmap_path(): it
 *                 is the last SW_REC_ALIGN_UP(path_len) bytes of the record.
 */
struct sw_rec_mmap {
	struct sw_rec_header h;
	__u32 pid;
	__u32 tid;
	__u64 start;
	__u64 len;
	__u64 pgoff;
	__u64 ino;
	__u32 ino_generation;
	__u32 dev_major;
	__u32 dev_minor;
	__u32 prot;
	__u8 build_id_size;
	__u8 pad[3];
	__u8 build_id[SW_BUILD_ID_MAX];
	__u16 path_len;
	__u16 pad2[3];
	char path[];
};

/**
 * struct sw_rec_lost - records that could not be written (64 bytes).
 * @h:         header; type SW_REC_LOST; time is when this record was written
 * @cpu:       CPU the losses happened on
 * @pad:       zero
 * @full:      samples lost because a buffer was full (the per-CPU staging
 *             buffer the overflow handler writes, or the relay buffer)
 * @nested:    samples lost because the handler interrupted itself on this
 *             CPU (nesting guard)
 * @stack:     samples dropped because their stack copy faulted (only with
 *             SW_STREAM_F_STACK_DROP)
 * @throttled: samples dropped because the CPU exceeded the sampler's
 *             max_sample_rate
 * @sideband:  side-band records (task, mmap, module) lost: buffer full
 * @call_full:   call records lost: buffer full (staging ring or relay;
 *               minor 1)
 * @call_nested: call records lost: their handler interrupted another
 *               writer of the staging ring on this CPU (minor 1)
 *
 * Counts are since the previous LOST record of the same CPU stream in this
 * session; they are written as soon as the buffer has room again.
 */
struct sw_rec_lost {
	struct sw_rec_header h;
	__u32 cpu;
	__u32 pad;
	__u64 full;
	__u64 nested;
	__u64 stack;
	__u64 throttled;
	__u64 sideband;
	__u64 call_full;
	__u64 call_nested;
};

/**
 * struct sw_rec_kernel - the running kernel (176 bytes).
 * @h:        header; type SW_REC_KERNEL
 * @ref_addr: run-time address of the function named in @ref_name; its
 *            difference to the address in System.map/vmlinux is the KASLR
 *            slide
 * @ref_name: a core kernel function name ("schedule")
 * @release:  utsname release, e.g. "6.1.0-26-amd64"
 * @machine:  utsname machine, e.g. "x86_64", "aarch64"
 */
struct sw_rec_kernel {
	struct sw_rec_header h;
	__u64 ref_addr;
	char ref_name[SW_SYMNAME_LEN];
	char release[SW_RELEASE_LEN];
	char machine[16];
};

/* sw_rec_module h.flags */
#define SW_MODULE_F_LOAD 0x0001		/* loaded during the session */
#define SW_MODULE_F_UNLOAD 0x0002	/* going away: forget the range */

/**
 * struct sw_rec_module - a kernel module's core (text and data) region
 * (96 bytes).
 * @h:         header; type SW_REC_MODULE, flags SW_MODULE_F_*, SW_REC_F_SYNTH
 * @base:      start of the module's core region (text first)
 * @size:      bytes in the core region
 * @text_size: bytes of executable text at @base
 * @pad:       zero
 * @name:      module name, e.g. "ext4"
 */
struct sw_rec_module {
	struct sw_rec_header h;
	__u64 base;
	__u32 size;
	__u32 text_size;
	char name[SW_MODNAME_LEN];
};

/**
 * struct sw_rec_end - a CPU's final counters for the session (96 bytes).
 * @h:                header; type SW_REC_END
 * @cpu:              CPU
 * @pad:              zero
 * @taken:            samples taken (handler calls that passed the filters)
 * @written:          samples written to the stream
 * @lost_full:        see struct sw_rec_lost; taken == written + lost_full +
 *                    lost_nested + lost_stack + lost_throttled exactly
 * @lost_nested:      see struct sw_rec_lost
 * @lost_stack:       see struct sw_rec_lost
 * @lost_throttled:   see struct sw_rec_lost
 * @filtered:         handler calls skipped by the pid/tgid filter, or in
 *                    the mode the event leaves out (":k", ":u")
 * @sideband_written: side-band records written
 * @sideband_lost:    side-band records lost
 * @call_taken:       call records produced (minor 1); call_taken ==
 *                    call_written + call_lost_full + call_lost_nested
 * @call_written:     call records written to the stream
 * @call_lost_full:   see struct sw_rec_lost
 * @call_lost_nested: see struct sw_rec_lost
 *
 * The END record itself is written only if the buffer has room: a stream
 * without one was cut short (the sampler file still shows the counters).
 */
struct sw_rec_end {
	struct sw_rec_header h;
	__u32 cpu;
	__u32 pad;
	__u64 taken;
	__u64 written;
	__u64 lost_full;
	__u64 lost_nested;
	__u64 lost_stack;
	__u64 lost_throttled;
	__u64 filtered;
	__u64 sideband_written;
	__u64 sideband_lost;
	__u64 call_taken;
	__u64 call_written;
	__u64 call_lost_full;
	__u64 call_lost_nested;
};

/* sw_rec_call h.flags: which optional words follow the fixed part. */
#define SW_CALL_F_SPAN 0x0001	/* @id is a span's, not a probe's */
#define SW_CALL_F_DUR64 0x0002	/* duration >= 2^32 ns: first word */
#define SW_CALL_F_RET 0x0004	/* the return value: a word */
#define SW_CALL_F_PATH 0x0008	/* the call-path node: a word */
#define SW_CALL_NKEYS_SHIFT 4	/* bits 4-5: key values, a word each */
#define SW_CALL_NKEYS_MASK 0x3
#define SW_CALL_NEV_SHIFT 6	/* bits 6-9: event deltas, a word each */
#define SW_CALL_NEV_MASK 0xf
#define SW_CALL_NARGS_SHIFT 10	/* bits 10-12: arguments, a word each */
#define SW_CALL_NARGS_MASK 0x7
/* SW_CALL_F_EV_BAD: a word of events not measured for the whole call */
#define SW_CALL_F_EV_BAD 0x2000

/**
 * struct sw_rec_call - one completed call or span interval (32 bytes
 * when time only, plus 8 per optional word).
 * @h:      header; type SW_REC_CALL, flags SW_CALL_F_* and counts; time is
 *          when the call returned (the interval stopped), the stopwatch
 *          clock, so that a CPU's records are in the order of their time
 * @tid:    thread id of the call (of the span's stop)
 * @pid:    its thread-group id
 * @dur:    duration in ns; 0xffffffff with SW_CALL_F_DUR64, then the
 *          first optional word holds it.  The call started at
 *          h.time - duration
 * @id:     the probe's id (SW_CALL_F_SPAN: the span's), as the module's
 *          trace_ids file names it
 * @cpu:    CPU the call started on (the span's start); the CPU it ended
 *          on is the stream's (the record is written there)
 * @words:  the optional words, in this order: duration (F_DUR64), return
 *          value (F_RET), path node (F_PATH), key values (NKEYS), a mask
 *          of events not measured for the whole call (F_EV_BAD), event
 *          deltas (NEV, in the order of the events file), arguments
 *          (NARGS).  Use sw_call_words() and the counts.
 */
struct sw_rec_call {
	struct sw_rec_header h;
	__u32 tid;
	__u32 pid;
	__u32 dur;
	__u16 id;
	__u16 cpu;
	__u64 words[];
};

/* Number of optional words a call record's flags announce. */
static inline __u32 sw_call_nwords(__u16 f)
{
	return !!(f & SW_CALL_F_DUR64) + !!(f & SW_CALL_F_RET) +
	       !!(f & SW_CALL_F_PATH) + !!(f & SW_CALL_F_EV_BAD) +
	       ((f >> SW_CALL_NKEYS_SHIFT) & SW_CALL_NKEYS_MASK) +
	       ((f >> SW_CALL_NEV_SHIFT) & SW_CALL_NEV_MASK) +
	       ((f >> SW_CALL_NARGS_SHIFT) & SW_CALL_NARGS_MASK);
}

/**
 * sw_sample_frames() - the call-stack entries of a sample.
 * @s: a sample record whose h.size has been checked against the buffer
 *
 * Return: nr_kernel kernel entries followed by nr_user user entries, or
 * NULL if the size cannot hold them.
 */
static inline const __u64 *sw_sample_frames(const struct sw_rec_sample *s)
{
	__u32 n = (__u32)s->nr_kernel + s->nr_user;

	if (s->h.size < sizeof(*s) + 8 * n)
		return (const __u64 *)0;
	return (const __u64 *)((const char *)s + s->h.size - 8 * n);
}

/**
 * sw_mmap_path() - the path of a mapping record.
 * @m: an mmap record whose h.size has been checked against the buffer
 *
 * Return: the NUL-terminated path, or NULL if the record is malformed.
 */
static inline const char *sw_mmap_path(const struct sw_rec_mmap *m)
{
	__u32 n = SW_REC_ALIGN_UP((__u32)m->path_len);
	const char *p;

	if (!m->path_len || m->h.size < sizeof(*m) + n)
		return (const char *)0;
	p = (const char *)m + m->h.size - n;
	return p[m->path_len - 1] == '\0' ? p : (const char *)0;
}

#endif /* _STOPWATCH_ABI_H */
