#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# scripts/run.sh - the main job: build stopwatch, then a guided first run
# with the stopwatch program, each command shown as a user would type it:
# "stopwatch time" of a command (loading stopwatch.ko; trampolines where
# the kernel has ftrace direct calls), "stopwatch probe add" of a default
# probe set, a short workload, "stopwatch stat".  If this machine cannot
# load modules (no headers for the running kernel, module loading
# disabled, or the load refused), it does the same inside the bundled
# QEMU VM (tests/vm/run.sh) and prints the transcript from there.
#
# usage: scripts/run.sh [--vm] [--probes f,g,...]
#   --vm           go straight to the VM
#   --probes LIST  functions to probe (default: vfs_read,vfs_write,
#                  do_sys_openat2,hrtimer_nanosleep)
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
force_vm=0
while [ $# -gt 0 ]; do
	case $1 in
	--vm) force_vm=1; shift ;;
	--probes) export SW_DEMO_PROBES=$2; shift 2 ;;
	-h|--help) sed -n '4,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "run.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
done
. scripts/demo-workload.sh

local_ok() {
	[ "$force_vm" -eq 0 ] && [ "$(id -u)" -eq 0 ] &&
		[ -d "/lib/modules/$(uname -r)/build" ] &&
		[ "$(cat /proc/sys/kernel/modules_disabled 2>/dev/null || echo 1)" = 0 ]
}

scripts/deps.sh build
if local_ok; then
	make KDIR="/lib/modules/$(uname -r)/build" module userspace
	rmmod stopwatch 2>/dev/null || true
	if SW_DEMO_MODULE=./stopwatch.ko sw_demo build/userspace/stopwatch; then
		rmmod stopwatch
		exit 0
	fi
	rmmod stopwatch 2>/dev/null || true
	echo "run.sh: the demo failed here; using the VM instead" >&2
else
	echo "run.sh: this machine cannot load stopwatch.ko (running kernel $(uname -r)); using the VM" >&2
fi

scripts/deps.sh test
scripts/kbuild.sh >/dev/null
make userspace progs >/dev/null
out=$(mktemp)
trap 'rm -f "$out"' EXIT
rc=0
tests/vm/run.sh --suite demo 2>&1 | tee "$out" || rc=$?
results=$(sed -n 's/^\[vm\] results: //p' "$out" | tail -n 1)
if [ -z "$results" ] || [ ! -f "$results/demo.txt" ]; then
	echo "run.sh: the VM run produced no statistics (see above)" >&2
	exit 1
fi
printf '\n=== a first run of stopwatch, inside the VM (%s) ===\n' "$results"
cat "$results/demo.txt"
exit "$rc"
