#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# scripts/kbuild.sh - build stopwatch.ko for one architecture out of the
# source tree: the kernel sources are copied to build/kbuild/<arch>/ and
# built there, so x86_64 and arm64 objects never mix; the module lands in
# build/module/<arch>/stopwatch.ko.
#
# usage: scripts/kbuild.sh [--arch x86_64|arm64] [--kdir DIR] [--src DIR] [-- make args]
#   --arch   target architecture (default: this machine's)
#   --src    another module's directory (with its own Kbuild), relative to
#            the top, e.g. tests/kmod or bench/kmod: built the same way into
#            build/kmod/<arch>/
#   --kdir   kernel build tree (default for this machine's arch: the newest
#            /usr/src/linux-headers-*-amd64; for arm64: required)
# examples:
#   scripts/kbuild.sh
#   scripts/kbuild.sh --arch arm64 --kdir "$(tests/vm/run.sh --arch arm64 --print-kdir)"
#   scripts/kbuild.sh --src tests/kmod
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
arch=$(uname -m)
kdir=
modsrc=
while [ $# -gt 0 ]; do
	case $1 in
	--arch) arch=$2; shift 2 ;;
	--kdir) kdir=$2; shift 2 ;;
	--src) modsrc=${2%/}; shift 2 ;;
	--) shift; break ;;
	-h|--help) sed -n '4,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "kbuild.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
done

case $arch in
x86_64|amd64) arch=x86_64 karch=x86 cross= ;;
arm64|aarch64) arch=arm64 karch=arm64 cross=aarch64-linux-gnu- ;;
*) echo "kbuild.sh: unsupported architecture '$arch' (x86_64 or arm64)" >&2; exit 2 ;;
esac
[ "$(uname -m)" = aarch64 ] && [ "$arch" = arm64 ] && cross=

if [ -z "$kdir" ]; then
	if [ "$arch" = x86_64 ]; then
		kdir=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -n 1)
	fi
	if [ -z "$kdir" ]; then
		echo "kbuild.sh: no kernel build tree for $arch; pass --kdir" >&2
		exit 1
	fi
fi
[ -f "$kdir/Makefile" ] || { echo "kbuild.sh: $kdir is not a kernel build tree" >&2; exit 1; }

if [ -n "$modsrc" ]; then
	[ -f "$top/$modsrc/Kbuild" ] || { echo "kbuild.sh: $modsrc has no Kbuild" >&2; exit 2; }
	out=$top/build/kmod/$arch
	mkdir -p "$out"
	src=$top/build/kbuild/$arch-$(echo "$modsrc" | tr / -)
	mkdir -p "$src"
	for f in "$top/$modsrc"/Kbuild "$top/$modsrc"/*.c "$top/$modsrc"/*.h; do
		[ -e "$f" ] && cp -p -u "$f" "$src/"
	done
	make -C "$kdir" M="$src" ARCH=$karch ${cross:+CROSS_COMPILE=$cross} "$@" modules
	for ko in "$src"/*.ko; do
		cp "$ko" "$out/"
		echo "kbuild.sh: $out/$(basename "$ko")"
	done
	exit 0
fi

src=$top/build/kbuild/$arch
out=$top/build/module/$arch
mkdir -p "$src" "$out"
# Mirror the kernel-side sources only (never objects from an in-tree
# build); unchanged files keep their times, so rebuilds stay incremental.
cp -p -u "$top/Kbuild" "$src/"
(cd "$top" && find module include pmu sampler relay -type f \
	\( -name '*.c' -o -name '*.h' \) 2>/dev/null) |
	while read -r f; do
		mkdir -p "$src/$(dirname "$f")"
		cp -p -u "$top/$f" "$src/$f"
	done
# Drop sources deleted from the tree.
(cd "$src" && find module include pmu sampler relay -type f \
	\( -name '*.c' -o -name '*.h' \) 2>/dev/null) |
	while read -r f; do [ -e "$top/$f" ] || rm -f "$src/$f"; done

make -C "$kdir" M="$src" ARCH=$karch ${cross:+CROSS_COMPILE=$cross} "$@" modules
cp "$src/stopwatch.ko" "$out/stopwatch.ko"
echo "kbuild.sh: $out/stopwatch.ko"
