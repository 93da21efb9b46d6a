// SPDX-License-Identifier: GPL-2.0
/*
 * err.c - error messages that travel with a negative errno.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/err.h"

int sw_err_set(struct sw_err *err, int ret, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return ret;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return ret;
}

void sw_err_prefix(struct sw_err *err, const char *fmt, ...)
{
	char old[SW_ERR_LEN];
	char pre[SW_ERR_LEN];
	va_list ap;

	if (!err)
		return;
	memcpy(old, err->msg, sizeof(old));
	va_start(ap, fmt);
	vsnprintf(pre, sizeof(pre), fmt, ap);
	va_end(ap);
	if (snprintf(err->msg, sizeof(err->msg), "%s: %s", pre, old) >=
	    (int)sizeof(err->msg))
		strcpy(err->msg + sizeof(err->msg) - 4, "...");
}

void sw_err_clear(struct sw_err *err)
{
	if (err)
		err->msg[0] = '\0';
}
