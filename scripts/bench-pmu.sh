#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# scripts/bench-pmu.sh - what a stopwatch probe hit costs, in instructions
# retired, exactly: boots the arm64 test VM with -icount (QEMU counts every
# guest instruction) and runs tests/vm/suites/pmu-bench.sh, which calls a
# trivial kernel function K times under a bare kretprobe with empty
# handlers (the baseline) and under stopwatch with 0, 1, 2 and 3 events,
# on its kretprobe and on its direct-call trampoline (where ftrace has
# direct calls).
# Prints the table: instructions per call, instructions added per hit and
# the ratio to the bare kretprobe.
#
# usage: scripts/bench-pmu.sh [--calls K] [-- run.sh options]
# examples:
#   scripts/bench-pmu.sh
#   scripts/bench-pmu.sh --calls 10000
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
calls=1000
while [ $# -gt 0 ]; do
	case $1 in
	--calls) calls=$2; shift 2 ;;
	--) shift; break ;;
	-h|--help) sed -n '4,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "bench-pmu.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
done
case $calls in
'' | *[!0-9]*) echo "bench-pmu.sh: --calls needs a number" >&2; exit 2 ;;
esac

log=$(mktemp)
trap 'rm -f "$log"' EXIT
rc=0
"$top/tests/vm/run.sh" --arch arm64 --icount --suite pmu-bench \
	--append "sw_bench=1 sw_bench_calls=$calls" "$@" >"$log" 2>&1 || rc=$?
dir=$(sed -n 's/^\[vm\] results: //p' "$log" | tail -n 1)
if [ -z "$dir" ] || [ ! -s "$dir/bench-pmu.txt" ]; then
	cat "$log" >&2
	echo "bench-pmu.sh: the benchmark did not report (run.sh exit $rc)" >&2
	exit 1
fi
cat "$dir/bench-pmu.txt"
exit $rc
