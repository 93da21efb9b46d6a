#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# scripts/kbuild.sh - build stopwatch.ko for one architecture and kernel
# out of the source tree: the kernel sources are copied to
# build/kbuild/<arch>-<release>/ and built there, so objects of different
# architectures and kernels never mix; the module lands in
# build/module/<arch>-<release>/stopwatch.ko and is copied to
# build/module/<arch>/stopwatch.ko (the last one built); likewise the
# trampolines' companion, stopwatch_tramp.ko, where the kernel has ftrace
# direct calls.  <release> is the
# kernel release of --kdir (UTS_RELEASE, what uname -r reports there).
#
# usage: scripts/kbuild.sh [--arch x86_64|arm64] [--kdir DIR] [--src DIR|--debug] [-- make args]
#   --arch   target architecture (default: this machine's)
#   --debug  the test build of stopwatch.ko (Kbuild's SW_DEBUG=1: the
#            parameters only the VM suites use), built in the shipped
#            build's tree (only Kbuild's sw-debug-objs compiled again) into
#            build/module/<arch>-<release>/debug/ and build/module/<arch>/debug/
#   --src    another module's directory (with its own Kbuild), relative to
#            the top, e.g. tests/kmod or bench/kmod: built the same way into
#            build/kmod/<arch>-<release>/ (what the guests load: several
#            kernels' boots run side by side) and build/kmod/<arch>/ (the
#            last one built)
#   --kdir   kernel build tree (default for x86_64: the running kernel's
#            if installed, else the one of Debian's default kernel
#            (linux-headers-amd64), else the newest non-rt
#            /usr/src/linux-headers-*-amd64; for arm64: required)
# examples:
#   scripts/kbuild.sh
#   scripts/kbuild.sh --arch arm64 --kdir "$(tests/vm/run.sh --arch arm64 --print-kdir)"
#   scripts/kbuild.sh --src tests/kmod
#   scripts/kbuild.sh --debug
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
arch=$(uname -m)
kdir=
modsrc=
debug=
while [ $# -gt 0 ]; do
	case $1 in
	--arch) arch=$2; shift 2 ;;
	--kdir) kdir=$2; shift 2 ;;
	--src) modsrc=${2%/}; shift 2 ;;
	--debug) debug=1; shift ;;
	--) shift; break ;;
	-h|--help) sed -n '4,29p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "kbuild.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
done

case $arch in
x86_64|amd64) arch=x86_64 karch=x86 cross= ;;
arm64|aarch64) arch=arm64 karch=arm64 cross=aarch64-linux-gnu- ;;
*) echo "kbuild.sh: unsupported architecture '$arch' (x86_64 or arm64)" >&2; exit 2 ;;
esac
[ "$(uname -m)" = aarch64 ] && [ "$arch" = arm64 ] && cross=
# Every core, unless a parent make hands out its own jobs (its flags, not
# the variables after '--', which may hold any letter: KDIR=/home/jo/...).
jobs=-j$(nproc)
for _w in ${MAKEFLAGS:-}; do
	case $_w in
	--) break ;;
	-j* | --jobserver*) jobs= ;;
	esac
done

if [ -z "$kdir" ]; then
	if [ "$arch" = x86_64 ]; then
		if [ -f "/lib/modules/$(uname -r)/build/Makefile" ]; then
			kdir=/lib/modules/$(uname -r)/build
		else
			dep=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null |
				sed -n 's/^\(linux-headers-[^ ,]*\).*/\1/p')
			[ -n "$dep" ] && [ -f "/usr/src/$dep/Makefile" ] && kdir=/usr/src/$dep
		fi
		[ -n "$kdir" ] || kdir=$(for d in /usr/src/linux-headers-*-amd64; do
			case $d in *-rt-amd64) ;; *) [ -d "$d" ] && echo "$d" ;; esac
		done | sort -V | tail -n 1)
	fi
	if [ -z "$kdir" ]; then
		echo "kbuild.sh: no kernel build tree for $arch; pass --kdir" >&2
		exit 1
	fi
fi
[ -f "$kdir/Makefile" ] || { echo "kbuild.sh: $kdir is not a kernel build tree" >&2; exit 1; }
# The release the kernel reports (uname -r); Debian's 6.1 headers have an
# upstream version in include/config/kernel.release, not the release.
kver=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$kdir/include/generated/utsrelease.h" 2>/dev/null) || kver=
[ -n "$kver" ] || kver=$(cat "$kdir/include/config/kernel.release" 2>/dev/null) || kver=
[ -n "$kver" ] || { echo "kbuild.sh: $kdir has no include/generated/utsrelease.h" >&2; exit 1; }
echo "kbuild.sh: $arch, kernel $kver ($kdir)"

# put SRC DST: DST becomes a copy of SRC by a rename, never a file half
# written: a guest of a boot that runs beside this build (scripts/test.sh's
# two streams boot the same kernel side by side) may be loading DST.
put() {
	cp "$1" "$2.tmp$$"
	mv -f "$2.tmp$$" "$2"
}

if [ -n "$modsrc" ]; then
	[ -f "$top/$modsrc/Kbuild" ] || { echo "kbuild.sh: $modsrc has no Kbuild" >&2; exit 2; }
	out=$top/build/kmod/$arch-$kver
	mkdir -p "$out" "$top/build/kmod/$arch"
	src=$top/build/kbuild/$arch-$kver-$(echo "$modsrc" | tr / -)
	mkdir -p "$src"
	for f in "$top/$modsrc"/Kbuild "$top/$modsrc"/*.c "$top/$modsrc"/*.h; do
		[ -e "$f" ] && cp -p -u "$f" "$src/"
	done
	# Only this source's modules (obj-m of its Kbuild) are replaced: the
	# kernel's folder holds the other sources' too (tests/kmod and
	# bench/kmod share it), and a failed build must leave none stale.
	kos=$(sed -n 's/^obj-m *[:+]\{0,1\}= *//p' "$top/$modsrc/Kbuild" | tr ' ' '\n' |
		sed -n 's/\.o$/.ko/p')
	[ -n "$kos" ] || { echo "kbuild.sh: $modsrc/Kbuild names no obj-m module" >&2; exit 2; }
	if ! make $jobs -C "$kdir" M="$src" ARCH=$karch ${cross:+CROSS_COMPILE=$cross} "$@" modules; then
		for ko in $kos; do
			rm -f "$out/$ko"
		done
		exit 1
	fi
	for ko in $kos; do
		put "$src/$ko" "$out/$ko"
		put "$src/$ko" "$top/build/kmod/$arch/$ko"
		echo "kbuild.sh: $out/$ko"
	done
	exit 0
fi

# The test build shares the shipped build's tree: the objects Kbuild's
# sw-debug-objs names are compiled again (their flags differ, which
# kbuild notices), the rest are the shipped build's.
src=$top/build/kbuild/$arch-$kver
out=$top/build/module/$arch-$kver${debug:+/debug}
last=$top/build/module/$arch${debug:+/debug}
mkdir -p "$src" "$out" "$last"
# Mirror the kernel-side sources only (never objects from an in-tree
# build): every top-level folder but the userspace and test ones, so the
# module's folders can change without this script; unchanged files keep
# their times, so rebuilds stay incremental.
kdirs=$(cd "$top" && for d in */; do
	d=${d%/}
	case $d in userspace|tests|bench|build|scripts|docs) continue ;; esac
	echo "$d"
done)
cp -p -u "$top/Kbuild" "$top/VERSION" "$src/"
# shellcheck disable=SC2086
(cd "$top" && find $kdirs -type f \
	\( -name '*.c' -o -name '*.h' -o -name '*.S' \) 2>/dev/null) |
	while read -r f; do
		mkdir -p "$src/$(dirname "$f")"
		cp -p -u "$top/$f" "$src/$f"
	done
# Drop sources deleted from the tree.
# shellcheck disable=SC2086
(cd "$src" && find $kdirs -type f \
	\( -name '*.c' -o -name '*.h' -o -name '*.S' \) 2>/dev/null) |
	while read -r f; do [ -e "$top/$f" ] || rm -f "$src/$f"; done

# A failed build leaves no module behind, not an older one.  The
# trampolines' companion (stopwatch_tramp.ko, Kbuild) is built where the
# kernel has ftrace direct calls and lands beside stopwatch.ko.
# The test build's companion is the shipped one's: only stopwatch.ko of
# it is kept (the guests load the shipped companion).
rm -f "$src/stopwatch.ko"
[ -n "$debug" ] || rm -f "$src/stopwatch_tramp.ko"
if [ -n "$debug" ]; then
	# A source that tests SW_DEBUG must be one Kbuild compiles with it.
	dobjs=$(sed -n 's/^sw-debug-objs *:= *//p' "$top/Kbuild")
	# shellcheck disable=SC2086
	for f in $(cd "$top" && grep -lw SW_DEBUG -r $kdirs --include='*.c' --include='*.h' 2>/dev/null); do
		case " $dobjs " in
		*" ${f%.c}.o "*) ;;
		*) echo "kbuild.sh: $f tests SW_DEBUG but is not in Kbuild's sw-debug-objs ($dobjs)" >&2; exit 2 ;;
		esac
	done
fi
if ! make $jobs -C "$kdir" M="$src" ARCH=$karch ${cross:+CROSS_COMPILE=$cross} \
	${debug:+SW_DEBUG=1} "$@" modules; then
	rm -f "$out/stopwatch.ko" "$last/stopwatch.ko" "$out/stopwatch_tramp.ko" "$last/stopwatch_tramp.ko"
	exit 1
fi
if [ -z "$debug" ]; then
	if [ -f "$src/stopwatch_tramp.ko" ]; then
		put "$src/stopwatch_tramp.ko" "$out/stopwatch_tramp.ko"
		put "$src/stopwatch_tramp.ko" "$last/stopwatch_tramp.ko"
		echo "kbuild.sh: $out/stopwatch_tramp.ko"
	else
		rm -f "$out/stopwatch_tramp.ko" "$last/stopwatch_tramp.ko"
	fi
fi
put "$src/stopwatch.ko" "$out/stopwatch.ko"
put "$src/stopwatch.ko" "$last/stopwatch.ko"
echo "kbuild.sh: $out/stopwatch.ko"
