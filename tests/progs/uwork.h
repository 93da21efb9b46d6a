/* SPDX-License-Identifier: GPL-2.0 */
/* uwork.h - the function uwork calls in its shared library (libuwork.so). */
#ifndef _STOPWATCH_PROGS_UWORK_H
#define _STOPWATCH_PROGS_UWORK_H

int uwlib_call(int x);

#endif
