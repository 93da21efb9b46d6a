#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# scripts/bench-report.sh - how fast "stopwatch report" aggregates a
# recording, next to "perf report" on a perf.data of the same workload;
# and how fast "stopwatch script" prints a recording of traced calls and
# samples, next to "perf script" on that perf.data.
#
# Builds the program and the synthetic-recording generator, writes a
# recording of N samples with call stacks (default 1000000; the profile of
# tests/swd-gen.c: two processes, an exited child, a shared library, the
# kernel, symbolized through libdwfl from real ELF files), and times
# report runs (the best of 3 by CPU time: the program is one thread, so
# its CPU time is one core's, also on a busy machine), printing samples per
# CPU second, wall time and peak RSS.  Then, when perf works here, it
# records tests/progs/swprof with perf (cpu-clock, -g) and times
# "perf report" the same way, and prints the ratio of the two rates.
#
# usage: scripts/bench-report.sh [-n SAMPLES] [--no-perf]
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
n=1000000
peer=1
while [ $# -gt 0 ]; do
	case $1 in
	-n) n=$2; shift 2 ;;
	--no-perf) peer=0; shift ;;
	-h|--help) sed -n '4,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "bench-report.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
done

out=$top/build/userspace
work=$top/build/bench
mkdir -p "$work"
make -s -C "$top/userspace" OUT="$out" all bench-gen >/dev/null
SW=$out/stopwatch

echo "bench-report: writing a recording of $n samples ..." >&2
"$out/tests/swd-gen" --samples "$n" "$out/tests/symbin" "$work/bench.swd"

# measure NAME SAMPLES CMD...: the run of 3 with the least CPU time (user +
# system: one thread, so one core's time, whatever else the machine runs),
# its wall time and peak RSS.
measure() {
	name=$1 samples=$2
	shift 2
	best=
	for i in 1 2 3; do
		/usr/bin/time -f "%e %U %S %M" -o "$work/time.txt" "$@" >/dev/null 2>"$work/err.txt" || {
			echo "bench-report: '$*' failed:" >&2
			cat "$work/err.txt" >&2
			exit 1
		}
		read -r w u s m <"$work/time.txt"
		c=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
		if [ -z "$best" ] || awk -v a="$c" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$c wall=$w rss=$m
		fi
	done
	rate=$(awk -v n="$samples" -v t="$best" 'BEGIN { printf "%.0f", (t > 0) ? n / t : 0 }')
	printf '%-42s %8s samples  cpu %5.2f s  wall %5.2f s  %9s samples/s  %4.0f MB peak RSS\n' \
		"$name" "$samples" "$best" "$wall" "$rate" "$(awk -v m="$rss" 'BEGIN { print m / 1024 }')"
	last_rate=$rate
}

[ -x /usr/bin/time ] || { echo "bench-report: needs /usr/bin/time (apt-get install time)" >&2; exit 1; }

echo
echo "stopwatch report ($(du -m "$work/bench.swd" | cut -f1) MB recording):"
measure "report (comm,image,symbol)" "$n" "$SW" report -i "$work/bench.swd" -q
sw_rate=$last_rate
measure "report --sort comm,image,symbol,srcline" "$n" "$SW" report -i "$work/bench.swd" -q --sort comm,image,symbol,srcline
measure "report -g (call graph)" "$n" "$SW" report -i "$work/bench.swd" -q -g
measure "report --folded" "$n" "$SW" report -i "$work/bench.swd" --folded
measure "report --pprof" "$n" "$SW" report -i "$work/bench.swd" -q --pprof "$work/bench.pb.gz"
measure "script (samples with stacks)" "$n" "$SW" script -i "$work/bench.swd" --all-pids

# stopwatch script: a recording of traced calls (10 before each sample,
# each with two event deltas, one in ten a span) and samples with call
# stacks, printed as text and as JSON lines; its "samples" are the
# records printed (calls and samples).
tn=$((n / 10))
"$out/tests/swd-gen" --samples "$tn" --calls 10 "$out/tests/symbin" "$work/trace.swd"
trec=$((tn * 11))
echo
echo "stopwatch script ($(du -m "$work/trace.swd" | cut -f1) MB recording of $((tn * 10)) calls and $tn samples):"
measure "script (calls and samples)" "$trec" "$SW" script -i "$work/trace.swd" --all-pids
measure "script --json (calls and samples)" "$trec" "$SW" script -i "$work/trace.swd" --all-pids --json

if [ "$peer" = 1 ] && command -v perf >/dev/null 2>&1; then
	make -s progs >/dev/null
	echo
	echo "perf report (peer), same workload recorded with perf record -e cpu-clock -c 10000 -g:" >&2
	if perf record -q -e cpu-clock -c 10000 -g -o "$work/perf.data" -- \
		"$top/build/progs/$(uname -m)/swprof" 4000 >/dev/null 2>"$work/perf.err"; then
		pn=$(perf report -i "$work/perf.data" --stats 2>/dev/null |
		     awk '/SAMPLE events:/ { print $3; exit }')
		echo "perf report ($(du -m "$work/perf.data" | cut -f1) MB perf.data):"
		measure "perf report --sort comm,dso,sym -g none" "$pn" \
			perf report -i "$work/perf.data" --stdio --no-children \
			--sort comm,dso,sym -g none
		pr_rate=$last_rate
		measure "perf script (samples with stacks)" "$pn" \
			perf script -i "$work/perf.data"
		last_rate=$pr_rate
		echo
		awk -v a="$sw_rate" -v b="$last_rate" 'BEGIN {
			printf "ratio: stopwatch report aggregates %.1fx the samples per CPU second of perf report\n", (b > 0) ? a / b : 0 }'
	else
		echo "perf record failed here (perf_event_paranoid?): no peer numbers" >&2
		cat "$work/perf.err" >&2
	fi
fi
