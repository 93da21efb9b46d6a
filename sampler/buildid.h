/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _STOPWATCH_SAMPLER_BUILDID_H
#define _STOPWATCH_SAMPLER_BUILDID_H

#include <linux/types.h>

struct file;

u8 sw_file_build_id(struct file *file, u8 *id);

#endif
