/* SPDX-License-Identifier: GPL-2.0 */
/*
 * err.h - error messages that travel with a negative errno.
 *
 * Helpers return a negative errno and, when given a struct sw_err, leave a
 * message there that names the file, line and offending value.  The caller
 * decides whether and how to print it.
 */
#ifndef _SW_UTIL_ERR_H
#define _SW_UTIL_ERR_H

#define SW_ERR_LEN 512

struct sw_err {
	char msg[SW_ERR_LEN];
};

/**
 * sw_err_set() - record a message.
 * @err: where to record it; may be NULL
 * @ret: negative errno to hand back
 * @fmt: printf format
 *
 * Return: @ret, so that callers can write "return sw_err_set(err, -EINVAL, ...)".
 */
int sw_err_set(struct sw_err *err, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * sw_err_prefix() - put "prefix: " in front of the recorded message.
 * @err: may be NULL
 * @fmt: printf format of the prefix
 */
void sw_err_prefix(struct sw_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void sw_err_clear(struct sw_err *err);

/**
 * sw_stderr_escape() - make stderr escape what it echoes.
 *
 * Replaces stderr with a line-buffered stream that writes to the old one
 * through sw_fput_escaped(): every message that quotes file content or
 * user input shows non-printable bytes as \xNN.  Child processes keep
 * the file descriptor, unfiltered.
 *
 * Return: 0, or -ENOMEM (stderr unchanged).
 */
int sw_stderr_escape(void);

#endif /* _SW_UTIL_ERR_H */
