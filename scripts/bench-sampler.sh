#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# scripts/bench-sampler.sh - measure the sampler's overhead in the VM and
# print a markdown table: a CPU-bound workload alone, under stopwatch's
# sampler at 1 kHz and 10 kHz per CPU (with and without call stacks) and
# under perf record -F at the same rates (with and without -g), all in one
# VM run; plus the records per second a CPU sustains at 100 kHz and the
# bytes per sample.  A benchmark, not a test: nothing is asserted.
#
# By default the guest runs with -icount (one instruction = 1 ns of guest
# time): the work a fixed stretch of guest time holds is then exact and
# independent of how busy the host is, and the overhead is the share of
# guest instructions the profiler takes (its interrupt handlers, its
# reader), which is what differs between profilers.  --realtime measures
# wall-clock work instead (as noisy as the host is loaded).
#
# usage: scripts/bench-sampler.sh [--arch x86_64|arm64] [--ms N] [--rounds N]
#                                 [--smp N] [--realtime]
#   --arch      guest architecture (default x86_64; arm64 has no perf)
#   --ms        workload run length in guest milliseconds (default 2000)
#   --rounds    runs of each configuration, interleaved (default 3)
#   --smp       virtual CPUs (default 1; x86 -icount needs 1)
#   --realtime  no -icount: guest time is host time
# example:
#   scripts/bench-sampler.sh --rounds 5
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
arch=x86_64 ms=2000 rounds=3 smp=1 icount=--icount
while [ $# -gt 0 ]; do
	case $1 in
	--arch) arch=$2; shift 2 ;;
	--ms) ms=$2; shift 2 ;;
	--rounds) rounds=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--realtime) icount=; shift ;;
	-h|--help) sed -n '4,26p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "bench-sampler.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
done

if [ "$arch" = arm64 ]; then
	scripts/kbuild.sh --arch arm64 \
		--kdir "$(tests/vm/run.sh --arch arm64 --print-kdir)" >/dev/null
	make progs ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- >/dev/null
else
	scripts/kbuild.sh >/dev/null
	make progs >/dev/null
fi

# 11 configurations x rounds runs; -icount runs about 5x slower than real
timeout=$((600 + (11 * rounds * ms) / 1000 * 10))
out=$(mktemp)
trap 'rm -f "$out"' EXIT
rc=0
tests/vm/run.sh --arch "$arch" --smp "$smp" $icount --suite sampler-bench \
	--timeout "$timeout" \
	--append "sw_bench=1 sw_bench_ms=$ms sw_bench_rounds=$rounds sw_bench_clock=${icount:+icount}" \
	>"$out" 2>&1 || rc=$?
results=$(sed -n 's/^\[vm\] results: //p' "$out" | tail -n 1)
if [ -z "$results" ] || [ ! -f "$results/bench-sampler.md" ]; then
	cat "$out" >&2
	echo "bench-sampler.sh: the VM run produced no table (exit $rc)" >&2
	exit 1
fi
cat "$results/bench-sampler.md"
[ "$rc" -eq 0 ] || echo "bench-sampler.sh: note: the VM run reported failures (exit $rc); see $results" >&2
