// SPDX-License-Identifier: GPL-2.0
/*
 * err.c - error messages that travel with a negative errno.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "base/err.h"
#include "base/utf8.h"

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

/* fopencookie's write: @size bytes of the escaping stream's buffer. */
static ssize_t sw_escape_write(void *cookie, const char *buf, size_t size)
{
	FILE *to = cookie;
	char *s = malloc(size + 1);

	if (!s) {
		fwrite(buf, 1, size, to);
	} else {
		memcpy(s, buf, size);
		s[size] = '\0';
		/* A NUL (none in text) ends what is shown. */
		sw_fput_escaped(to, s);
		free(s);
	}
	fflush(to);
	return (ssize_t)size;
}

int sw_stderr_escape(void)
{
	static const cookie_io_functions_t io = { .write = sw_escape_write };
	FILE *f = fopencookie(stderr, "w", io);

	if (!f)
		return -ENOMEM;
	setvbuf(f, NULL, _IOLBF, 0);
	stderr = f;
	return 0;
}
