/* SPDX-License-Identifier: GPL-2.0 */
/*
 * swd.h - the stopwatch data file (.swd) written by "stopwatch record" and
 * read by "stopwatch report".
 *
 * Layout
 *   A 64-byte file header, then sections back to back, each a 40-byte
 *   section header and a payload padded with zeros to a multiple of 8.
 *   All integers are in the writer's byte order; the reader recognizes the
 *   other order by the byte-order mark and refuses it with a clear message.
 *
 *   Sections of type SWD_SEC_RECORDS hold the sampler's records (see
 *   include/stopwatch/abi.h) exactly as read from one CPU's relay file,
 *   whole records only; they are never compressed, so a reader can use
 *   them in place.  Text sections (host facts) may be deflated.
 *
 *   The last section of a complete file is SWD_SEC_END.  A file without it
 *   was cut short (the recorder died, the disk filled): a reader still uses
 *   every whole section and every whole record of a cut one, and says what
 *   is missing.
 *
 * Integrity
 *   Each section header carries a CRC-32 of its own fields and one of its
 *   payload.  A header that fails its check is searched past, 8 bytes at a
 *   time, for the next valid header; a payload that fails its check is
 *   skipped.  Both are reported with their byte offsets.
 *
 * Versions
 *   SWD_MAJOR changes only when an old reader could not read the file;
 *   readers refuse another major.  New section types and new META keys
 *   raise SWD_MINOR; readers skip section types they do not know.
 */
#ifndef _SW_UTIL_SWD_H
#define _SW_UTIL_SWD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/err.h"

#define SWD_MAGIC "STOPWSWD"
#define SWD_MAJOR 1
#define SWD_MINOR 0
#define SWD_BOM 0x01020304U
#define SWD_SEC_MAGIC 0x43455353U	/* "SSEC" in little endian */

/**
 * enum swd_sec_type - section types.
 * @SWD_SEC_META:     "key=value" lines: host, kernel release, command, target,
 *                    sampler settings, times
 * @SWD_SEC_KALLSYMS: /proc/kallsyms at record time (deflated)
 * @SWD_SEC_MODULES:  /proc/modules at record time
 * @SWD_SEC_RECORDS:  sampler records of CPU @arg, whole records only
 * @SWD_SEC_BUILDIDS: "hex-build-id path" lines of the mapped files, and of
 *                    the kernel ("[kernel.kallsyms]") and its modules
 *                    ("[name]") at record end
 * @SWD_SEC_PERFMAP:  /tmp/perf-@arg.map (JIT symbols) at record end
 * @SWD_SEC_VDSO:     the vdso image of the recording machine (deflated)
 * @SWD_SEC_COUNTERS: the sampler control file at the end of recording:
 *                    per-CPU taken/written/lost counters
 * @SWD_SEC_STATE:    synthesized COMM/MMAP/MODULE records that describe the
 *                    processes alive when a rotated file begins
 * @SWD_SEC_END:      "key=value" totals; marks a complete file
 */
enum swd_sec_type {
	SWD_SEC_META = 1,
	SWD_SEC_KALLSYMS = 2,
	SWD_SEC_MODULES = 3,
	SWD_SEC_RECORDS = 4,
	SWD_SEC_BUILDIDS = 5,
	SWD_SEC_PERFMAP = 6,
	SWD_SEC_VDSO = 7,
	SWD_SEC_COUNTERS = 8,
	SWD_SEC_STATE = 9,
	SWD_SEC_END = 10,
	SWD_SEC_TYPE_MAX,
};

/* swd_sec.flags */
#define SWD_SEC_F_DEFLATE 0x0001	/* payload is a zlib stream of raw_size */

/**
 * struct swd_header - start of the file (64 bytes).
 * @magic:       SWD_MAGIC, not NUL-terminated
 * @bom:         SWD_BOM in the writer's byte order
 * @major:       SWD_MAJOR of the writer
 * @minor:       SWD_MINOR of the writer
 * @header_size: sizeof(struct swd_header) of the writer; sections start here
 * @abi_major:   SW_ABI_MAJOR the writer was built with
 * @abi_minor:   SW_ABI_MINOR the writer was built with
 * @pad:         zero
 * @created_ns:  CLOCK_REALTIME when the file was created
 * @reserved:    zero
 */
struct swd_header {
	char magic[8];
	uint32_t bom;
	uint16_t major;
	uint16_t minor;
	uint32_t header_size;
	uint16_t abi_major;
	uint16_t abi_minor;
	uint64_t created_ns;
	uint64_t reserved[4];
};

/**
 * struct swd_sec - a section header (40 bytes).
 * @magic:      SWD_SEC_MAGIC
 * @type:       enum swd_sec_type
 * @flags:      SWD_SEC_F_*
 * @arg:        type-specific: the CPU of RECORDS, the pid of PERFMAP
 * @crc:        CRC-32 of the payload as stored (@size bytes)
 * @size:       bytes of payload as stored, without padding
 * @raw_size:   bytes of payload once inflated (== @size if not deflated)
 * @hdr_crc:    CRC-32 of the bytes of this header before this field
 * @pad:        zero
 */
struct swd_sec {
	uint32_t magic;
	uint16_t type;
	uint16_t flags;
	uint32_t arg;
	uint32_t crc;
	uint64_t size;
	uint64_t raw_size;
	uint32_t hdr_crc;
	uint32_t pad;
};

/* ---- writing ------------------------------------------------------------- */

/**
 * struct swd_writer - a .swd file being written.
 * @f:      the stream
 * @path:   its name, for messages
 * @bytes:  bytes written so far (the file's size)
 * @nsecs:  sections written so far
 * @error:  the first write error (negative errno), sticky
 */
struct swd_writer {
	FILE *f;
	char *path;
	uint64_t bytes;
	uint64_t nsecs;
	int error;
};

/**
 * swd_writer_open() - create @path (or truncate it) and write the header.
 * @w:    writer to set up
 * @path: file name; "-" is not allowed (the file must be seekable by readers)
 * @err:  message on failure; may be NULL
 *
 * Return: 0 or a negative errno.
 */
int swd_writer_open(struct swd_writer *w, const char *path,
		    struct sw_err *err);

/**
 * swd_write_section() - append one section.
 * @w:       the writer
 * @type:    enum swd_sec_type
 * @arg:     swd_sec.arg
 * @data:    payload
 * @len:     payload bytes
 * @deflate: compress the payload (text sections)
 *
 * Return: 0 or the writer's sticky negative errno.
 */
int swd_write_section(struct swd_writer *w, unsigned int type, uint32_t arg,
		      const void *data, size_t len, bool deflate);

/**
 * swd_deflate() - compress @len bytes as swd_write_section() would.
 * @data: input
 * @len:  its size
 * @out:  malloc()ed zlib stream, or NULL when compressing does not pay
 * @olen: its size
 *
 * For data written to many files (the host facts of rotated recordings):
 * compress once, then swd_write_deflated() each time.
 *
 * Return: 0 or -ENOMEM.
 */
int swd_deflate(const void *data, size_t len, void **out, size_t *olen);

/**
 * swd_write_deflated() - append a section whose payload @z (@zlen bytes)
 * is the zlib stream of @raw_len bytes, from swd_deflate().
 *
 * Return: 0 or the writer's sticky negative errno.
 */
int swd_write_deflated(struct swd_writer *w, unsigned int type, uint32_t arg,
		       const void *z, size_t zlen, size_t raw_len);

/**
 * swd_writer_close() - flush, fsync and close; frees @w's resources.
 * @w:   the writer
 * @err: message on failure; may be NULL
 *
 * Return: 0 or a negative errno (including an earlier write error).
 */
int swd_writer_close(struct swd_writer *w, struct sw_err *err);

/* ---- reading ------------------------------------------------------------- */

/**
 * struct swd_section - a section found by the reader.
 * @type:     enum swd_sec_type
 * @flags:    swd_sec.flags
 * @arg:      swd_sec.arg
 * @offset:   file offset of the section header
 * @data:     payload (inflated when it was deflated); for RECORDS, points
 *            into the mapped file and holds whole records only
 * @size:     bytes at @data
 * @cut:      bytes of payload the file lacks (the section was cut short)
 * @owned:    @data was allocated by the reader
 */
struct swd_section {
	unsigned int type;
	unsigned int flags;
	uint32_t arg;
	uint64_t offset;
	const void *data;
	size_t size;
	uint64_t cut;
	bool owned;
};

/**
 * struct swd_problem - something wrong with the file, with what it cost.
 * @offset: file offset where it was found
 * @lost:   bytes that could not be used
 * @msg:    what happened, for the user
 */
struct swd_problem {
	uint64_t offset;
	uint64_t lost;
	char msg[200];
};

/**
 * struct swd_file - an opened .swd file.
 * @path:       its name
 * @map:        the whole file, mapped read-only
 * @map_size:   its size
 * @hdr:        the file header (inside @map)
 * @nsec:       number of usable sections
 * @sec:        the sections in file order
 * @complete:   an END section was found
 * @nprob:      number of problems
 * @prob:       problems found (cut-off, bad checksums, unknown bytes)
 * @bytes_lost: total bytes that could not be used
 */
struct swd_file {
	char *path;
	void *map;
	size_t map_size;
	const struct swd_header *hdr;
	size_t nsec;
	struct swd_section *sec;
	bool complete;
	size_t nprob;
	struct swd_problem *prob;
	uint64_t bytes_lost;
};

/**
 * swd_open() - map and index a .swd file.
 * @path: file name
 * @out:  on success the file, freed with swd_close()
 * @err:  message on failure; may be NULL
 *
 * Damage after the file header is not an error: it is recorded in
 * @out->prob and the usable sections are returned.
 *
 * Return: 0, -ENOENT/-EACCES/... (cannot open), -ENODATA (empty),
 * -EINVAL (not a .swd file, or damaged header), -EPROTO (another major
 * version or byte order), -ENOMEM.
 */
int swd_open(const char *path, struct swd_file **out, struct sw_err *err);

void swd_close(struct swd_file *f);

/* Value of META/END key @key ("release", ...) in section @s, or NULL; the
 * result is malloc()ed. */
char *swd_kv_get(const struct swd_section *s, const char *key);

/* The first section of @type, or NULL. */
const struct swd_section *swd_find(const struct swd_file *f,
				   unsigned int type);

const char *swd_sec_name(unsigned int type);

/* zlib's CRC-32 of @len bytes, continuing @crc (start with 0). */
uint32_t swd_crc32(uint32_t crc, const void *buf, size_t len);

/* Checks a section header's magic and its own CRC. */
bool swd_sec_valid(const struct swd_sec *s);

#endif /* _SW_UTIL_SWD_H */
