/* SPDX-License-Identifier: GPL-2.0 */
/*
 * config.h - what "stopwatch serve" keeps probed: a file of lines in the
 * module's own control grammar, checked whole with the module's parsers
 * (lib/) before anything is written, and applied as a difference from the
 * configuration in force, undone whole when the module refuses a line.
 *
 * The file:
 *   # a comment; blank lines are ignored
 *   events LIST      the events file (e.g. cpu-clock,context-switches)
 *   keys MODE        the breakdown file (none, pid, tgid, comm, cpu)
 *   probes LINE      a line of the probes file (adds only: FUNC[@TAG] ...)
 *   spans LINE       a line of the spans file (adds only: NAME start=...)
 * events and keys at most once each; a probe or a span named twice is an
 * error.
 */
#ifndef _SW_CONTROL_CONFIG_H
#define _SW_CONTROL_CONFIG_H

#include <stddef.h>

#include "base/err.h"

enum sw_conf_kind {
	SW_CONF_PROBES,
	SW_CONF_SPANS,
};

/**
 * struct sw_conf_line - one probes or spans line.
 * @kind:   probes or spans
 * @text:   what is written to the file (the line after its first word)
 * @lineno: its line in the file, for messages
 * @names:  the probe identities (FUNC or FUNC@TAG) or the span name it adds
 * @nnames: their number
 */
struct sw_conf_line {
	enum sw_conf_kind kind;
	char *text;
	size_t lineno;
	char **names;
	size_t nnames;
};

/**
 * struct sw_conf - a whole configuration.
 * @path:   the file it was read from, for messages
 * @events: the events line, or NULL
 * @keys:   the breakdown mode, or NULL
 * @line:   the probes and spans lines, in file order
 * @n:      their number
 */
struct sw_conf {
	char *path;
	char *events;
	char *keys;
	struct sw_conf_line *line;
	size_t n;
};

/**
 * sw_conf_parse() - check and split a configuration.
 * @text: the file's contents
 * @what: its name for messages ("FILE:LINE: ...")
 * @out:  on success the configuration, freed with sw_conf_free()
 * @err:  on failure the first offending line, named
 *
 * Return: 0, -EINVAL (a bad line), -ENOMEM.
 */
int sw_conf_parse(const char *text, const char *what, struct sw_conf **out,
		  struct sw_err *err);

/* sw_conf_parse() of the file @path (at most 1 MiB). */
int sw_conf_load(const char *path, struct sw_conf **out, struct sw_err *err);

void sw_conf_free(struct sw_conf *c);

/**
 * sw_conf_apply() - make the module's probes go from @old to @new.
 * @dir: the stopwatch directory
 * @old: the configuration in force, or NULL (none yet)
 * @new: the one to apply
 * @err: why the module refused, with the line
 *
 * Lines in both are left alone; those only in @old are removed, those
 * only in @new added, events and keys written when they differ.  When the
 * module refuses any write, every write made so far is undone: @old stays
 * in force.
 *
 * Return: 0 or the refusal's negative errno.
 */
int sw_conf_apply(const char *dir, const struct sw_conf *old,
		  const struct sw_conf *new, struct sw_err *err);

/* Removes the probes and spans of @c (events and keys stay). */
void sw_conf_remove(const char *dir, const struct sw_conf *c);

#endif /* _SW_CONTROL_CONFIG_H */
