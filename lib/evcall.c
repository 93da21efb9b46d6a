// SPDX-License-Identifier: GPL-2.0
/*
 * evcall.c - what of the per-call event bookkeeping is not inline in
 * evcall.h: the cycles-per-instruction of a call.
 */
#include "evcall.h"

/**
 * sw_cpi_milli() - cycles per instruction of one call, fixed point.
 * @cycles:       cycles of the call
 * @instructions: instructions of the call
 *
 * Return: CPI x SW_CPI_SCALE, rounded down; SW_CPI_NONE when the call
 * retired no instruction.
 */
u64 sw_cpi_milli(u64 cycles, u64 instructions)
{
	if (!instructions)
		return SW_CPI_NONE;
	return mul_u64_u64_div_u64(cycles, SW_CPI_SCALE, instructions);
}
NOKPROBE_SYMBOL(sw_cpi_milli);
