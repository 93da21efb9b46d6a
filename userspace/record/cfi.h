/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cfi.h - unwind tables (stopwatch/unwind.h) from an ELF file's call-frame
 * information (.eh_frame, through libdw's CFI interface).
 */
#ifndef _SW_RECORD_CFI_H
#define _SW_RECORD_CFI_H

#include <stddef.h>
#include <stdint.h>
#include <stopwatch/unwind.h>

#include "base/err.h"

/**
 * struct sw_cfi_table - a table built from one file.
 * @rows:     rows sorted by address (malloc'd)
 * @nr:       their number
 * @build_id: the file's GNU build-id
 * @build_id_size: its bytes (0: the file has none)
 * @seg:      the loadable segments
 * @nseg:     their number
 * @fdes:     frame descriptions the rows come from
 * @debug_fdes: of them, found in .debug_frame (not in .eh_frame)
 * @unsupported: rows whose rules the unwinder cannot follow (SW_UNW_CFA_NONE
 *            inside a frame description)
 * @signal:   rows of signal trampolines (SW_UNW_CFA_SIGNAL)
 */
struct sw_cfi_table {
	struct sw_unw_row *rows;
	uint32_t nr;
	uint8_t build_id[SW_UNW_BUILD_ID_MAX];
	uint8_t build_id_size;
	struct sw_unw_seg seg[SW_UNW_SEGS_MAX];
	uint32_t nseg;
	uint32_t fdes;
	uint32_t debug_fdes;
	uint32_t unsupported;
	uint32_t signal;
};

int sw_cfi_build(const char *path, struct sw_cfi_table *t,
		 struct sw_err *err);
void sw_cfi_free(struct sw_cfi_table *t);

#endif /* _SW_RECORD_CFI_H */
