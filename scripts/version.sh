#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# scripts/version.sh - the one version of stopwatch.ko and the stopwatch
# program: the top VERSION file.  Kbuild passes it to the module
# (-DSW_VERSION: MODULE_VERSION and the version file), userspace/Makefile
# to the program; dkms.conf needs it as a literal, which --check compares.
#
# usage: scripts/version.sh                  print the version
#        scripts/version.sh --check [CONF]   CONF's PACKAGE_VERSION (default
#                                            dkms.conf) must be VERSION's
#        scripts/version.sh --selftest       --check passes on dkms.conf and
#                                            fails on a copy with another version
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
ver=$(cat "$top/VERSION")
case $ver in
[0-9]*.[0-9]*) ;;
*) echo "version.sh: VERSION holds '$ver', not MAJOR.MINOR" >&2; exit 1 ;;
esac

check() {
	d=$(sed -n 's/^PACKAGE_VERSION="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$1")
	if [ "$d" != "$ver" ]; then
		echo "version.sh: $1: PACKAGE_VERSION is '$d', VERSION is '$ver': make them equal" >&2
		return 1
	fi
	echo "version: $ver (VERSION, $1)"
}

case ${1:-} in
'') echo "$ver" ;;
--check) check "${2:-$top/dkms.conf}" ;;
--selftest)
	check "$top/dkms.conf"
	tmp=$(mktemp)
	trap 'rm -f "$tmp"' EXIT
	sed 's/^PACKAGE_VERSION=.*/PACKAGE_VERSION="99.0"/' "$top/dkms.conf" >"$tmp"
	if out=$(check "$tmp" 2>&1); then
		echo "version.sh: --check passed on a dkms.conf of version 99.0" >&2
		exit 1
	fi
	case $out in
	*"PACKAGE_VERSION is '99.0', VERSION is '$ver'"*) echo "version: a different dkms.conf fails: ok" ;;
	*) echo "version.sh: --check failed without naming the versions: $out" >&2; exit 1 ;;
	esac
	;;
*) echo "usage: scripts/version.sh [--check [CONF] | --selftest]" >&2; exit 2 ;;
esac
