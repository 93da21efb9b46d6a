#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/capture-fixtures.sh - regenerate userspace/tests/fixtures/<arch>/
# from what stopwatch.ko really prints: boots the VM with the "fixtures"
# suite (tests/vm/suites/fixtures.sh: known probes, events and workload),
# then copies the captured debugfs files into the tree.  Commit the result;
# the host tests (make check) parse these files.
#
# usage: scripts/capture-fixtures.sh [ARCH ...]   (default: arm64 x86_64)
#   arm64 boots with --icount (QEMU's PMUv3 counts instructions only then),
#   so the stats have cpi_* columns; x86_64 TCG has no PMU (software events).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
archs=("$@")
[ ${#archs[@]} -gt 0 ] || archs=(arm64 x86_64)

for arch in "${archs[@]}"; do
	case $arch in
	arm64) opts=(--arch arm64 --icount) ;;
	x86_64) opts=(--arch x86_64) ;;
	-h|--help) sed -n '4,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "capture-fixtures.sh: unknown architecture '$arch' (arm64, x86_64)" >&2; exit 2 ;;
	esac
	log=$(mktemp)
	echo "capture-fixtures.sh: booting the $arch guest" >&2
	if ! tests/vm/run.sh "${opts[@]}" --suite fixtures 2> >(tee "$log" >&2); then
		echo "capture-fixtures.sh: the $arch fixtures suite failed; tree unchanged" >&2
		rm -f "$log"
		exit 1
	fi
	# This run's own results directory (others may run the VM meanwhile).
	run=$(sed -n 's/^\[vm\] results: //p' "$log" | tail -n 1)
	rm -f "$log"
	src=$run/fixtures/$arch
	[ -s "$src/stats" ] || { echo "capture-fixtures.sh: $src/stats missing" >&2; exit 1; }
	dst=userspace/tests/fixtures/$arch
	rm -rf "$dst"
	mkdir -p "$dst"
	cp -r "$src"/. "$dst"/
	echo "capture-fixtures.sh: $dst: $(find "$dst" -type f | wc -l) files" >&2
done
