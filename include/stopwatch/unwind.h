/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-2-Clause */
/*
 * stopwatch/unwind.h - unwind tables for user stacks, shared by
 * stopwatch.ko and the program (include with -I include).
 *
 * The program turns each mapped ELF's call-frame information into a
 * table of rows sorted by address: from a row's @pc to the next row's, the
 * rule of the row says how to find the canonical frame address (CFA), the
 * caller's frame pointer and the return address.  Tables are keyed by the
 * file's build-id and shared by every process mapping the file.  Per
 * process, the program then says which address ranges map which table.
 * The sampler's overflow handler unwinds user stacks with them.
 *
 * Everything is written to the control file "unwind" (debugfs and /proc
 * stopwatch directories), one command per write(2), each starting with
 * struct sw_unw_cmd whose @size is the whole write:
 *   SW_UNW_CMD_TABLE  struct sw_unw_table_cmd, then @nr struct sw_unw_row
 *   SW_UNW_CMD_MAP    struct sw_unw_map_cmd
 *   SW_UNW_CMD_CLEAR  the header alone: drops every table and map
 * Reading the file shows what is loaded and what was refused.
 *
 * Addresses: a row's @pc is an address in the file's own ELF address
 * space (what its symbol table and CFI use).  A user pc of the process
 * maps to it as (pc + adj) modulo 2^64 for the map that holds pc; table
 * addresses are below 4 GiB.  For a mapping of file offset pgoff at
 * start, adj = pgoff + (vaddr - off) - start with the segment holding
 * pgoff (sw_unw_adj()).
 */
#ifndef _STOPWATCH_UNWIND_H
#define _STOPWATCH_UNWIND_H

#include <linux/types.h>

#define SW_UNW_MAGIC 0x574e5553		/* "SUNW" little-endian */
#define SW_UNW_BUILD_ID_MAX 20
#define SW_UNW_ROWS_MAX (1U << 22)	/* rows in one table */
#define SW_UNW_MAPS_MAX 512		/* maps of one process */
#define SW_UNW_SEGS_MAX 8		/* loadable segments of one file */

enum sw_unw_cmd_type {
	SW_UNW_CMD_TABLE = 1,
	SW_UNW_CMD_MAP = 2,
	SW_UNW_CMD_CLEAR = 3,
};

/**
 * struct sw_unw_cmd - the start of every write (16 bytes).
 * @magic: SW_UNW_MAGIC
 * @cmd:   enum sw_unw_cmd_type
 * @size:  bytes of the whole write
 * @pad:   zero
 */
struct sw_unw_cmd {
	__u32 magic;
	__u32 cmd;
	__u32 size;
	__u32 pad;
};

/* struct sw_unw_row.cfa: how the CFA is found. */
enum sw_unw_cfa {
	SW_UNW_CFA_NONE = 0,	/* no rule here (no CFI, or one not supported) */
	SW_UNW_CFA_SP = 1,	/* stack pointer + cfa_off */
	SW_UNW_CFA_FP = 2,	/* frame pointer + cfa_off */
	SW_UNW_CFA_PLT = 3,	/* x86-64 PLT: sp + cfa_off (+ 8, below) */
	SW_UNW_CFA_END = 4,	/* outermost frame: no return address */
	SW_UNW_CFA_SIGNAL = 5,	/* signal trampoline: see below */
	SW_UNW_CFA_MAX,
};

/*
 * SW_UNW_CFA_SIGNAL marks a signal trampoline (x86-64 glibc's __restore_rt,
 * whose CIE has the 'S' augmentation): the stack pointer there points into
 * the signal frame the kernel built, and the interrupted context is saved
 * in it.  The interrupted pc is at sp + ra_off, its stack pointer at
 * sp + cfa_off, its frame pointer at sp + fp_off (arm64: its x30 right
 * after, at sp + fp_off + 8).  The row has fp SW_UNW_FP_AT and ra
 * SW_UNW_RA_AT; the three offsets are word-aligned and within
 * [0, SW_UNW_SIGNAL_MAX).  The walk goes on at the interrupted pc as at a
 * sample's own pc: not as at a return address.
 */
#define SW_UNW_SIGNAL_MAX 4096

/* struct sw_unw_row.fp: where the caller's frame pointer is. */
enum sw_unw_fp {
	SW_UNW_FP_SAME = 0,	/* unchanged */
	SW_UNW_FP_AT = 1,	/* saved at CFA + fp_off */
	SW_UNW_FP_MAX,
};

/* struct sw_unw_row.ra: where the return address is. */
enum sw_unw_ra {
	SW_UNW_RA_AT = 0,	/* saved at CFA + ra_off */
	SW_UNW_RA_LR = 1,	/* still in the link register (arm64 leaf) */
	SW_UNW_RA_MAX,
};

/**
 * struct sw_unw_row - one row of a table (16 bytes).
 * @pc:      first address the row covers (ELF address)
 * @cfa_off: offset added to the CFA's register; SW_UNW_CFA_SIGNAL: of
 *           the saved stack pointer from the stack pointer
 * @fp_off:  SW_UNW_FP_AT: offset of the saved frame pointer from the CFA;
 *           SW_UNW_CFA_PLT: 8 more is added to the CFA when (pc & 15) is
 *           at least this; SW_UNW_CFA_SIGNAL: of the saved frame pointer
 *           from the stack pointer
 * @ra_off:  SW_UNW_RA_AT: offset of the return address from the CFA;
 *           SW_UNW_CFA_SIGNAL: of the saved pc from the stack pointer
 * @cfa:     enum sw_unw_cfa
 * @fp:      enum sw_unw_fp
 * @ra:      enum sw_unw_ra
 * @pad:     zero
 */
struct sw_unw_row {
	__u32 pc;
	__s32 cfa_off;
	__s16 fp_off;
	__s16 ra_off;
	__u8 cfa;
	__u8 fp;
	__u8 ra;
	__u8 pad;
};

/**
 * struct sw_unw_seg - a loadable segment of the file (24 bytes).
 * @off:    its file offset
 * @vaddr:  its ELF address
 * @filesz: its bytes in the file
 */
struct sw_unw_seg {
	__u64 off;
	__u64 vaddr;
	__u64 filesz;
};

/**
 * struct sw_unw_table_cmd - load one table (240 bytes, then the rows).
 * @c:             header; cmd SW_UNW_CMD_TABLE, size 240 + 16 * @nr
 * @build_id:      the file's build-id
 * @build_id_size: bytes used in @build_id, 1..20
 * @pad:           zero
 * @nr:            rows that follow, 1..SW_UNW_ROWS_MAX
 * @nseg:          segments used in @seg, 0..SW_UNW_SEGS_MAX
 * @seg:           the file's loadable segments: with them the module maps
 *                 the table into every process that maps the file from
 *                 then on, as the mapping happens (the sampler's
 *                 side-band sees it), with no map command
 * @rows:          sorted by strictly increasing @pc; the last row ends the
 *                 table (usually SW_UNW_CFA_NONE)
 */
struct sw_unw_table_cmd {
	struct sw_unw_cmd c;
	__u8 build_id[SW_UNW_BUILD_ID_MAX];
	__u8 build_id_size;
	__u8 pad[3];
	__u32 nr;
	__u32 nseg;
	struct sw_unw_seg seg[SW_UNW_SEGS_MAX];
	struct sw_unw_row rows[];
};

/**
 * struct sw_unw_map_cmd - a range of process @pid unwound with a table
 * (72 bytes).
 * @c:             header; cmd SW_UNW_CMD_MAP, size 72
 * @pid:           thread-group id
 * @build_id_size: bytes used in @build_id
 * @pad:           zero
 * @build_id:      the table's build-id (loaded before)
 * @start:         first address of the range
 * @end:           first address after it
 * @adj:           added to a pc in [start, end) gives the table address
 *
 * A map replaces every map of @pid it overlaps (munmap, exec).
 */
struct sw_unw_map_cmd {
	struct sw_unw_cmd c;
	__u32 pid;
	__u8 build_id_size;
	__u8 pad[3];
	__u8 build_id[SW_UNW_BUILD_ID_MAX];
	__u32 pad2;
	__u64 start;
	__u64 end;
	__u64 adj;
};

#endif /* _STOPWATCH_UNWIND_H */
