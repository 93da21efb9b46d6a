#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/kmod/build.sh - build the test module sw_testmod.ko out of the
# source tree (build/kbuild-kmod/<arch>/), into build/kmod/<arch>/.
#
# usage: tests/kmod/build.sh [--arch x86_64|arm64] [--kdir DIR] [-- make args]
#   --arch   target architecture (default: this machine's)
#   --kdir   kernel build tree (default for this machine's arch: the newest
#            /usr/src/linux-headers-*-amd64; for arm64: required)
# examples:
#   tests/kmod/build.sh
#   tests/kmod/build.sh --arch arm64 --kdir "$(tests/vm/run.sh --arch arm64 --print-kdir)"
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
arch=$(uname -m)
kdir=
while [ $# -gt 0 ]; do
	case $1 in
	--arch) arch=$2; shift 2 ;;
	--kdir) kdir=$2; shift 2 ;;
	--) shift; break ;;
	-h|--help) sed -n '4,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "build.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
done

case $arch in
x86_64|amd64) arch=x86_64 karch=x86 cross= ;;
arm64|aarch64) arch=arm64 karch=arm64 cross=aarch64-linux-gnu- ;;
*) echo "build.sh: unsupported architecture '$arch' (x86_64 or arm64)" >&2; exit 2 ;;
esac
[ "$(uname -m)" = aarch64 ] && [ "$arch" = arm64 ] && cross=

if [ -z "$kdir" ]; then
	if [ "$arch" = x86_64 ]; then
		kdir=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -n 1)
	fi
	if [ -z "$kdir" ]; then
		echo "build.sh: no kernel build tree for $arch; pass --kdir" >&2
		exit 1
	fi
fi
[ -f "$kdir/Makefile" ] || { echo "build.sh: $kdir is not a kernel build tree" >&2; exit 1; }

src=$top/build/kbuild-kmod/$arch
out=$top/build/kmod/$arch
mkdir -p "$src" "$out"
cp -p -u "$top/tests/kmod/Kbuild" "$top/tests/kmod/sw_testmod.c" "$src/"
make -C "$kdir" M="$src" ARCH=$karch ${cross:+CROSS_COMPILE=$cross} "$@" modules
cp "$src/sw_testmod.ko" "$out/sw_testmod.ko"
echo "build.sh: $out/sw_testmod.ko"
