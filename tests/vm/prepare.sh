# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# tests/vm/prepare.sh - what the suites' host-side hooks (NAME.prepare)
# share; sourced by them, from the repository top (bash).
#
#   once CMD...   run CMD unless a hook of this boot ran the same command
#                 line already and it succeeded: tests/vm/run.sh gives each
#                 boot's hooks a directory of their own (SW_PREPARE_DONE),
#                 so the module, the test module and the programs are
#                 built once per boot, not once per suite; without it
#                 (a hook run by hand) CMD always runs.  Builds of
#                 boots that run side by side take turns (a lock).

once() {
	local key rc
	# Boots run side by side (scripts/test.sh's two streams) and build
	# into the same trees (build/kbuild/ARCH-KVER...): one build at a
	# time, machine-wide for this checkout.  A hook that runs another
	# hook (paths.prepare runs fixtures.prepare) holds the lock already.
	if [ -z "${SW_PREPARE_LOCKED:-}" ]; then
		mkdir -p build
		exec 9>build/.prepare.lock
		flock 9
		SW_PREPARE_LOCKED=1 once "$@"
		rc=$?
		flock -u 9
		exec 9>&-
		return "$rc"
	fi
	if [ -z "${SW_PREPARE_DONE:-}" ] || [ ! -d "$SW_PREPARE_DONE" ]; then
		"$@"
		return
	fi
	key=$(printf '%s\n' "$*" | md5sum | cut -c1-32)
	if [ -e "$SW_PREPARE_DONE/$key" ]; then
		echo "prepare: done already for this boot: $*"
		return 0
	fi
	"$@" && : >"$SW_PREPARE_DONE/$key"
}
