// SPDX-License-Identifier: GPL-2.0
/*
 * version.c - the program's version string, given by the Makefile
 * (-DSW_VERSION), in a room of its own so that every command can print it.
 */
#include "base/version.h"

const char sw_version[] = SW_VERSION;
