# SPDX-License-Identifier: GPL-2.0
# tests/vm/suites/sampler-bench.sh - the sampler's overhead benchmark, guest
# side.  Not a test: it only runs when scripts/bench-sampler.sh boots the VM
# with sw_bench=1 on the kernel command line, and skips otherwise.
#
# A CPU-bound workload (busyloop: one pinned thread per CPU, fixed time)
# runs without a profiler, under stopwatch's sampler at 1 kHz and 10 kHz
# per CPU (with and without call stacks, a reader draining the relay
# files) and under perf record -F at the same rates (with and without -g),
# interleaved, several rounds each.  Then the sampler runs at the highest
# rate cpu-clock allows (100 kHz) to show the records per second a CPU
# sustains.  The result is a markdown table in $SW_RESULTS/bench-sampler.md.

. "$SW_REPO/tests/vm/tap.sh"

[ "$(cmdarg sw_bench)" = 1 ] ||
	skip_all "benchmark, not a test: run scripts/bench-sampler.sh"

D=/sys/kernel/debug/stopwatch
MOD=${SW_MODULE:-$SW_REPO/build/module/$SW_ARCH/stopwatch.ko}
P=${SW_PROGS:-$SW_REPO/build/progs/$SW_ARCH}
TMP=${TMPDIR:-/tmp}/sw-bench.$$
OUT=$SW_RESULTS/bench-sampler.md
MS=$(cmdarg sw_bench_ms)
MS=${MS:-3000}
ROUNDS=$(cmdarg sw_bench_rounds)
ROUNDS=${ROUNDS:-3}
NCPU=$(grep -c '^processor' /proc/cpuinfo)
mkdir -p "$TMP"

if [ "$SW_ARCH" = arm64 ]; then EV=cycles; else EV=cpu-clock; fi
PERF=
if command -v perf >/dev/null 2>&1 && perf --version >/dev/null 2>&1; then
	PERF=perf
fi

rmmod stopwatch 2>/dev/null
is "load stopwatch.ko" "$("$P/modload" "$MOD")" ok

scol() {
	awk -v r="$1" -v c="$2" '
		$1 == "cpu" { for (i = 1; i <= NF; i++) if ($i == c) k = i; t = 1; next }
		t && $1 == r && k { print $k }' "$D/sampler"
}

# Each run appends "config iters samples lost bytes" to $TMP/runs.
base() {
	it=$("$P/busyloop" "$MS" | sed 's/iters=//')
	echo "base $it 0 0 0" >>"$TMP/runs"
}

sw() {	# sw FREQ CALLCHAIN
	"$P/swwrite" "$D/sampler" \
		"start event=$EV freq=$1 callchain=$2 max_rate=0" >/dev/null
	"$P/swdrain" "$D/samples" - >"$TMP/drain.out" &
	dr=$!
	it=$("$P/busyloop" "$MS" | sed 's/iters=//')
	"$P/swwrite" "$D/sampler" stop >/dev/null
	kill -TERM $dr
	wait $dr
	lost=$(($(scol all lost_full) + $(scol all lost_throttled) + \
		$(scol all lost_nested) + $(scol all lost_stack)))
	echo "sw-$1-$2 $it $(scol all taken) $lost $(scol all bytes)" >>"$TMP/runs"
}

pf() {	# pf FREQ [-g]
	rm -f "$TMP/perf.data"
	it=$($PERF record -e cpu-clock -F "$1" -a $2 -o "$TMP/perf.data" \
		-- "$P/busyloop" "$MS" 2>"$TMP/perf.err" | sed -n 's/^iters=//p')
	n=$(sed -n 's/.*(\([0-9]*\) samples).*/\1/p' "$TMP/perf.err" | tail -n 1)
	sz=$(stat -c %s "$TMP/perf.data" 2>/dev/null || echo 0)
	echo "perf-$1${2:+-g} ${it:-0} ${n:-0} 0 $sz" >>"$TMP/runs"
}

: >"$TMP/runs"
for r in $(seq 1 "$ROUNDS"); do
	base
	for f in 1000 10000; do
		sw $f none
		sw $f kernel,user
		if [ -n "$PERF" ]; then
			pf $f
			pf $f -g
		fi
	done
done
for r in $(seq 1 "$ROUNDS"); do
	sw 100000 none
	sw 100000 kernel,user
done
rmmod stopwatch

# config -> median iters, spread, samples/s per CPU, lost, bytes/sample
CLOCK=$(cmdarg sw_bench_clock)
CLOCK=${CLOCK:-host time}
awk -v ms="$MS" -v ncpu="$NCPU" -v ev="$EV" -v perf="${PERF:-none}" -v clock="$CLOCK" '
function median(list,   n, a, i, j, t) {
	n = split(list, a, " ")
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{
	if (!($1 in it)) order[++n] = $1
	it[$1] = it[$1] " " $2
	if (!($1 in lo) || $2 < lo[$1]) lo[$1] = $2
	if ($2 > hi[$1]) hi[$1] = $2
	smp[$1] += $3; lost[$1] += $4; bytes[$1] += $5; runs[$1]++
}
END {
	b = median(it["base"])
	printf "stopwatch sampler overhead: busyloop (%d pinned thread%s, %d ms of guest time per run, median of %d runs), event %s, perf: %s, guest clock: %s\n\n", \
		ncpu, (ncpu > 1 ? "s" : ""), ms, runs["base"], ev, perf, clock
	printf "| configuration | work done (iterations) | spread | overhead | samples/s per CPU | CPU per sample | lost | bytes/sample |\n"
	printf "|---|---:|---:|---:|---:|---:|---:|---:|\n"
	for (i = 1; i <= n; i++) {
		c = order[i]
		m = median(it[c])
		name = c
		sub(/^sw-/, "stopwatch ", name); sub(/^perf-/, "perf record -F ", name)
		sub(/-none$/, "", name); sub(/-kernel,user$/, " callchain=kernel,user", name)
		sub(/-g$/, " -g", name)
		if (c ~ /^sw-/) sub(/ [0-9]+/, " freq=&", name)
		sub(/freq= /, "freq=", name)
		rate = smp[c] / runs[c] / (ms / 1000) / ncpu
		cost = rate > 0 ? (1 - m / b) * 1000000 / rate : 0
		printf "| %s | %d | %.1f%% | %s | %s | %s | %s | %s |\n", name, m, \
			m ? 100 * (hi[c] - lo[c]) / m : 0, \
			c == "base" ? "-" : sprintf("%.1f%%", 100 * (1 - m / b)), \
			c == "base" ? "-" : sprintf("%.0f", rate), \
			c == "base" ? "-" : sprintf("%.1f us", cost), \
			c ~ /^perf/ || c == "base" ? "-" : lost[c], \
			smp[c] && c != "base" ? sprintf("%.0f", bytes[c] / (smp[c] - lost[c] > 0 ? smp[c] - lost[c] : 1)) : "-"
	}
	printf "\noverhead = 1 - iterations / baseline iterations (work lost to the profiler, its interrupts and its reader); spread = (max - min) / median of the runs.\n"
	printf "CPU per sample = overhead / samples per second: the CPU time one sample costs end to end (1 s / that = the records per second a CPU could sustain if it did nothing else).\n"
	if (clock == "icount")
		printf "Guest clock icount: 1 us of guest time is 1000 guest instructions, so overhead and CPU per sample count instructions, whatever the host load.\n"
	printf "perf bytes/sample = perf.data size / samples (includes its headers and side-band records); stopwatch = sample bytes written / samples written.\n"
}' "$TMP/runs" >"$OUT"
cat "$OUT"
cat "$TMP/runs" >"$SW_RESULTS/bench-sampler.runs"
cmp_ge "benchmark table written" "$(wc -l <"$OUT")" 5
rm -rf "$TMP"
