// SPDX-License-Identifier: GPL-2.0
/*
 * uwork_lib.c - libuwork.so: one function for the uprobe suite to time in
 * a shared library (static builds link it into uwork).
 */
#include "uwork.h"

__attribute__((noinline)) int uwlib_call(int x)
{
	__asm__ volatile("" : "+r"(x));
	return x + 1;
}
