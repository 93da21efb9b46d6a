#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# scripts/bench.sh - `make bench`: stopwatch's cost next to its peers, all
# measured in one run: each measurement's rows go to a file of
# bench/results/ (scripts/bench-results.sh --from), and BENCHMARKS.md is
# made again from all of them (--report).  A benchmark, not a test:
# nothing here is asserted.
#
#   x86_64 guest, one boot (-icount, 1 vCPU: guest time counts guest
#   instructions, so the host's load does not move the numbers):
#     1. per-call cost on hot paths: stopwatch (time only, 2 software
#        events), a bare kretprobe, bpftrace, bcc funclatency
#     3. sampler overhead at 1 and 10 kHz, with and without call stacks,
#        against perf record -F; 4. records/s a CPU sustains, bytes/sample
#   arm64 guest, one boot (-icount): 2. exact instructions added per probe
#     hit with 0, 1, 2 hardware events and the bare-kretprobe baseline
#   host: 5. stopwatch report samples/s and peak memory (vs perf report)
#   6. an XPTI-style projection: events per second serviceable at 1% and
#     2% overhead, from the measured per-call costs
#
# usage: scripts/bench.sh [--quick] [--out FILE] [--no-arm64]
#   --quick     fewer calls and rounds (a few minutes; for trying it out):
#               its results go to build/bench/results/ (a copy of
#               bench/results/ with the files it measured replaced)
#   --out FILE  where the report goes (default BENCHMARKS.md; with
#               --quick build/bench/BENCHMARKS.md)
#   --no-arm64  skip the arm64 boot
# examples:
#   make bench
#   scripts/bench.sh --quick --out /tmp/bench.md
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
out=BENCHMARKS.md quick=0 arm64=1
while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=1; shift ;;
	--out) out=$2; shift 2 ;;
	--no-arm64) arm64=0; shift ;;
	-h|--help) sed -n '4,31p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "bench.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
done

if [ $quick -eq 1 ]; then
	calls=5000 runs=3 rounds=1 ms=1000 pmucalls=200 samples=200000
else
	calls=20000 runs=5 rounds=3 ms=2000 pmucalls=1000 samples=1000000
fi

work=$top/build/bench
mkdir -p "$work"
scripts/deps.sh test
make userspace >/dev/null

# vm ARCH SUITES APPEND: boot once, print the results directory.
vm() {
	log=$work/vm-$1.log
	tests/vm/run.sh --arch "$1" --icount $4 --suite "$2" --timeout 2400 \
		--append "$3" >"$log" 2>&1 || true
	sed -n 's/^\[vm\] results: //p' "$log" | tail -n 1
}

echo "bench.sh: x86_64 guest: per-call cost, sampler overhead" >&2
x86=$(vm x86_64 bench-probes,sampler-bench \
	"sw_bench=1 sw_bench_calls=$calls sw_bench_runs=$runs sw_bench_rounds=$rounds sw_bench_ms=$ms sw_bench_clock=icount" \
	"--smp 1")
arm=
if [ $arm64 -eq 1 ]; then
	echo "bench.sh: arm64 guest: instructions per probe hit" >&2
	arm=$(vm arm64 pmu-bench "sw_bench=1 sw_bench_calls=$pmucalls" "")
fi
echo "bench.sh: host: report speed" >&2
scripts/bench-report.sh -n "$samples" >"$work/report.md" 2>"$work/report.log" ||
	echo "(the report benchmark failed: see build/bench/report.log)" >"$work/report.md"

# The results: bench/results/, or for a quick run a copy of it.
results=$top/bench/results
if [ $quick -eq 1 ]; then
	results=$work/results
	rm -rf "$results"
	cp -r "$top/bench/results" "$results"
	[ "$out" = BENCHMARKS.md ] && out=$work/BENCHMARKS.md
fi
qemu=$(qemu-system-x86_64 --version | head -n 1 | sed 's/ (.*//')
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
when=$(date -u '+%Y-%m-%d %H:%M UTC')
build=$(git -C "$top" describe --always --dirty 2>/dev/null || echo unknown)
host="$qemu TCG on a $(nproc)-core $cpu host"
# keep KIND IN FILE KVER ARCH CONDITIONS: IN's rows into $results/FILE.
keep() {
	if [ -z "$2" ] || [ ! -s "$2" ]; then
		echo "bench.sh: $1 not measured (see build/bench/*.log): $3 kept as it was" >&2
		return 0
	fi
	scripts/bench-results.sh --from "$1" "$2" what="$1" "date=$when" arch="$5" \
		kernel="$4" build="$build" "conditions=$6" \
		"source=make bench$([ $quick -eq 1 ] && echo ' (--quick)')" >"$results/$3.tsv"
}
series() { echo "$1" | sed 's/^\([0-9]*\.[0-9]*\).*/\1/'; }
kver=$(tests/vm/run.sh --print-kver 2>/dev/null || echo unknown)
keep probes "${x86:+$x86/bench-probes.md}" "probes-x86_64-$(series "$kver")" "$kver" x86_64 \
	"$host, -icount shift=0, 1 vCPU; $calls calls a run, $runs runs per round, $rounds interleaved rounds; medians"
keep sampler "${x86:+$x86/bench-sampler.md}" "sampler-x86_64-$(series "$kver")" "$kver" x86_64 \
	"$host, -icount shift=0 (1 us of guest time is 1000 guest instructions), 1 vCPU; $ms ms of guest time per run"
if [ -n "$arm" ]; then
	akver=$(tests/vm/run.sh --arch arm64 --print-kver 2>/dev/null || echo unknown)
	keep pmu "$arm/bench-pmu.txt" "pmu-arm64-$(series "$akver")" "$akver" arm64 \
		"$host, -icount shift=0 (exact); $pmucalls calls; instructions added per call over no probe"
fi
grep -q ' samples  cpu ' "$work/report.md" 2>/dev/null && keep report "$work/report.md" report-host \
	"host ($(uname -r))" "$(uname -m)" "$(nproc)-core $cpu host, its load as it was; $samples samples"
scripts/bench-results.sh --report "$results" >"$out"
echo "bench.sh: wrote $out from $results" >&2
