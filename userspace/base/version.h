/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SW_BASE_VERSION_H
#define SW_BASE_VERSION_H

/* The program's version (the Makefile's VERSION). */
extern const char sw_version[];

#endif
