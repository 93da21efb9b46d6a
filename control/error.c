// SPDX-License-Identifier: GPL-2.0
/*
 * error.c - why the last control write failed.
 *
 * Every refused request says what was wrong, naming the offending value:
 * in the kernel log (rate-limited: a script writing bad input in a loop
 * cannot flood it) and in the last_error file, which keeps the newest
 * message whether or not the log line was suppressed.
 */
#include <linux/kernel.h>
#include <linux/ratelimit.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "control.h"

/* Process context only: a plain spinlock (sleeping under PREEMPT_RT). */
static DEFINE_SPINLOCK(sw_err_lock);
static char sw_errmsg[SW_ERRMSG_LEN];
static DEFINE_RATELIMIT_STATE(sw_err_rs, 5 * HZ, 10);

/**
 * sw_error() - report a failed request in the kernel log and last_error.
 * @fmt: printf format; the text should name the offending value
 *
 * Context: process context.
 */
void sw_error(const char *fmt, ...)
{
	char msg[SW_ERRMSG_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (__ratelimit(&sw_err_rs))
		pr_err(SW_NAME ": %s\n", msg);
	spin_lock(&sw_err_lock);
	strscpy(sw_errmsg, msg, sizeof(sw_errmsg));
	spin_unlock(&sw_err_lock);
}

/**
 * sw_error_clear() - forget the last error (a new control write begins).
 *
 * Context: process context.
 */
void sw_error_clear(void)
{
	spin_lock(&sw_err_lock);
	sw_errmsg[0] = '\0';
	spin_unlock(&sw_err_lock);
}

/**
 * sw_error_show() - print the last error, or nothing, into a seq_file.
 * @m: seq_file
 *
 * Context: process context.
 */
void sw_error_show(struct seq_file *m)
{
	char msg[SW_ERRMSG_LEN];

	spin_lock(&sw_err_lock);
	strscpy(msg, sw_errmsg, sizeof(msg));
	spin_unlock(&sw_err_lock);
	if (msg[0])
		seq_printf(m, "%s\n", msg);
}
