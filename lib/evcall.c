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
 * @cpi:          CPI x SW_CPI_SCALE, rounded down; output
 *
 * Return: false (and no @cpi) when the call retired no instruction.
 */
bool sw_cpi_milli(u64 cycles, u64 instructions, u64 *cpi)
{
	if (!instructions)
		return false;
	*cpi = mul_u64_u64_div_u64(cycles, SW_CPI_SCALE, instructions);
	return true;
}
NOKPROBE_SYMBOL(sw_cpi_milli);
