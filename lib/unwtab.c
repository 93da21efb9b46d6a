// SPDX-License-Identifier: GPL-2.0
/*
 * unwtab.c - unwind tables: validation and lookup.
 */
#include "unwtab.h"

/* Whether a signal rule's offset is word-aligned and within the frame. */
static bool sw_unw_sig_off(s32 off)
{
	return off >= 0 && off < SW_UNW_SIGNAL_MAX && !(off & 7);
}

/**
 * sw_unw_rows_check() - whether rows make a valid table.
 * @r:   rows
 * @nr:  their number, at least 1
 * @bad: set to the index of the first bad row
 * @why: set to what is wrong with it
 *
 * Rows must have strictly increasing addresses, rules in range (a signal
 * rule: saved pc and frame pointer, offsets as stopwatch/unwind.h says)
 * and zero padding.
 *
 * Context: any.
 * Return: 0, or -EINVAL with @bad and @why set.
 */
int sw_unw_rows_check(const struct sw_unw_row *r, u32 nr, u32 *bad,
		      const char **why)
{
	u32 i;

	for (i = 0; i < nr; i++) {
		*bad = i;
		if (i && r[i].pc <= r[i - 1].pc) {
			*why = "address not above the previous row's";
			return -EINVAL;
		}
		if (r[i].cfa >= SW_UNW_CFA_MAX) {
			*why = "CFA rule out of range";
			return -EINVAL;
		}
		if (r[i].fp >= SW_UNW_FP_MAX) {
			*why = "frame-pointer rule out of range";
			return -EINVAL;
		}
		if (r[i].ra >= SW_UNW_RA_MAX) {
			*why = "return-address rule out of range";
			return -EINVAL;
		}
		if (r[i].cfa == SW_UNW_CFA_SIGNAL &&
		    (r[i].fp != SW_UNW_FP_AT || r[i].ra != SW_UNW_RA_AT)) {
			*why = "signal rule without saved pc and frame pointer";
			return -EINVAL;
		}
		if (r[i].cfa == SW_UNW_CFA_SIGNAL &&
		    (!sw_unw_sig_off(r[i].cfa_off) ||
		     !sw_unw_sig_off(r[i].fp_off) ||
		     !sw_unw_sig_off(r[i].ra_off))) {
			*why = "signal rule's offset misaligned or outside the frame";
			return -EINVAL;
		}
		if (r[i].pad) {
			*why = "padding not zero";
			return -EINVAL;
		}
	}
	return 0;
}

/**
 * sw_unw_find() - the row covering a table address.
 * @r:  rows, valid (sw_unw_rows_check())
 * @nr: their number
 * @pc: table address
 *
 * Context: any, NMI included; at most 23 steps for the largest table.
 * Return: the last row whose address is at most @pc, or NULL when @pc is
 * below the first row or at or above 4 GiB.
 */
const struct sw_unw_row *sw_unw_find(const struct sw_unw_row *r, u32 nr,
				     u64 pc)
{
	u32 lo = 0, hi = nr;

	if (pc > U32_MAX || !nr || r[0].pc > pc)
		return NULL;
	/* r[lo].pc <= pc; the answer is below hi. */
	while (hi - lo > 1) {
		u32 mid = lo + (hi - lo) / 2;

		if (r[mid].pc <= pc)
			lo = mid;
		else
			hi = mid;
	}
	return &r[lo];
}
NOKPROBE_SYMBOL(sw_unw_find);

/**
 * sw_unw_adj() - what to add to a pc of a mapping to get a table address.
 * @seg:   the file's loadable segments
 * @nseg:  their number
 * @start: the mapping's first address
 * @pgoff: its file offset (page-aligned)
 * @adj:   the result
 *
 * Context: any.
 * Return: 0, or -ENOENT when no segment holds @pgoff.
 */
int sw_unw_adj(const struct sw_unw_seg *seg, u32 nseg, u64 start, u64 pgoff,
	       u64 *adj)
{
	u32 i;

	for (i = 0; i < nseg; i++) {
		u64 off = seg[i].off & ~(u64)0xfff;

		if (pgoff >= off && pgoff < seg[i].off + seg[i].filesz) {
			*adj = pgoff + (seg[i].vaddr - seg[i].off) - start;
			return 0;
		}
	}
	return -ENOENT;
}
