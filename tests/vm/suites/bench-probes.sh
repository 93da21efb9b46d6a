# SPDX-License-Identifier: GPL-2.0
# tests/vm/suites/bench-probes.sh - per-call cost of stopwatch and its peers,
# guest side of `make bench`.  Not a test: it runs only when the VM was booted
# with sw_bench=1 (scripts/bench.sh does that) and skips otherwise.
#
# For each hot path (a 1-byte read of /dev/zero probing ksys_read; getppid
# probing its syscall entry) it times N calls with nothing attached, then
# with each tool attached in turn, in the same boot:
#   bare        a kretprobe with empty handlers (bench/kmod/sw_bare.ko)
#   stopwatch   stopwatch.ko, time only
#   stopwatch+2 stopwatch.ko with two software events
#   bpftrace    kprobe + kretprobe keeping a log2 histogram of latency
#   funclatency bcc's funclatency
# and writes ns per call (median of RUNS runs) and the cost each adds over
# no probe to $SW_RESULTS/bench-probes.tsv and a markdown table to
# $SW_RESULTS/bench-probes.md.

. "$SW_REPO/tests/vm/tap.sh"

cmdarg() { tr ' ' '\n' </proc/cmdline | sed -n "s/^$1=//p" | tail -n 1; }
[ "$(cmdarg sw_bench)" = 1 ] || skip_all "benchmark, not a test: run make bench"

MODDIR=$SW_REPO/build/module/$SW_ARCH
P=$SW_REPO/build/progs/$SW_ARCH
N=$(cmdarg sw_bench_calls)
N=${N:-100000}
RUNS=$(cmdarg sw_bench_runs)
RUNS=${RUNS:-7}
EVENTS=${SW_BENCH_EVENTS:-cpu-clock,context-switches}
TMP=${TMPDIR:-/tmp}/sw-bench-probes
TSV=$SW_RESULTS/bench-probes.tsv
mkdir -p "$TMP"
printf 'path\tfunction\tconfig\tns_per_call\truns\n' >"$TSV"

GETPPID=$(awk '$2 ~ /^[tT]$/ && $3 ~ /^__(x64|arm64)_sys_getppid$/ { print $3; exit }' /proc/kallsyms)
BPFTRACE=$(command -v bpftrace)
FUNCLAT=$(command -v funclatency-bpfcc || ls /usr/sbin/funclatency-bpfcc 2>/dev/null)

# wait_for FILE PATTERN SECONDS: until a tool says it is attached.
wait_for() {
	i=0
	while ! grep -q "$2" "$1" 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt $(($3 * 10)) ] && return 1
		sleep 0.1
	done
}

# measure PATH FUNC CONFIG: run the workload, record the median.
measure() {
	out=$("$P/callrate" "$1" "$N" "$RUNS")
	ns=$(echo "$out" | sed -n 's/.*ns_per_call=\([0-9.]*\).*/\1/p')
	runs=$(echo "$out" | sed -n 's/^runs=\([^ ]*\).*/\1/p')
	printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "${ns:-NA}" "$runs" >>"$TSV"
	diag "$1 $3: ${ns:-NA} ns/call ($runs)"
	[ -n "$ns" ]
}

bench_path() {
	path=$1 fn=$2
	rmmod stopwatch 2>/dev/null
	measure "$path" "$fn" none

	if insmod "$MODDIR/sw_bare.ko" "func=$fn"; then
		measure "$path" "$fn" bare
		rmmod sw_bare
	else
		skip "bare kretprobe on $fn did not load"
	fi

	if insmod "$MODDIR/stopwatch.ko" "probes=$fn"; then
		measure "$path" "$fn" stopwatch
		rmmod stopwatch
	fi

	if insmod "$MODDIR/stopwatch.ko" "probes=$fn" "events=$EVENTS" 2>"$TMP/ev.err"; then
		measure "$path" "$fn" "stopwatch+2"
		rmmod stopwatch
	else
		diag "stopwatch with events=$EVENTS: $(cat "$TMP/ev.err")"
	fi

	if [ -n "$BPFTRACE" ]; then
		"$BPFTRACE" -e "kprobe:$fn { @start[tid] = nsecs; }
			kretprobe:$fn /@start[tid]/ { @ns = hist(nsecs - @start[tid]); delete(@start[tid]); }" \
			>"$TMP/bpftrace.out" 2>&1 &
		bp=$!
		if wait_for "$TMP/bpftrace.out" Attaching 300; then
			sleep 1
			measure "$path" "$fn" bpftrace
		else
			diag "bpftrace did not attach: $(head -c 400 "$TMP/bpftrace.out")"
		fi
		kill -INT $bp 2>/dev/null
		wait $bp 2>/dev/null
	fi

	if [ -n "$FUNCLAT" ]; then
		"$FUNCLAT" "$fn" >"$TMP/funclat.out" 2>&1 &
		fp=$!
		if wait_for "$TMP/funclat.out" Tracing 600; then
			sleep 1
			measure "$path" "$fn" funclatency
		else
			diag "funclatency did not attach: $(head -c 400 "$TMP/funclat.out")"
		fi
		kill -INT $fp 2>/dev/null
		wait $fp 2>/dev/null
	fi
	measure "$path" "$fn" none-after
}

bench_path read ksys_read
[ -n "$GETPPID" ] && bench_path getppid "$GETPPID"

# Markdown: added ns per call over the mean of the two no-probe runs, and
# each tool's added cost as a ratio to bpftrace's.
awk -F'\t' '
	NR == 1 { next }
	{ v[$1, $3] = $4; paths[$1] = 1; fn[$1] = $2 }
	END {
		n = split("bare stopwatch stopwatch+2 bpftrace funclatency", cfg, " ")
		printf "| hot path | probe | no probe ns/call | config | ns/call | added ns/call | added vs bpftrace |\n"
		printf "|---|---|---|---|---|---|---|\n"
		for (p in paths) {
			base = (v[p, "none"] + v[p, "none-after"]) / 2
			bt = v[p, "bpftrace"] - base
			for (i = 1; i <= n; i++) {
				c = cfg[i]
				if (!((p, c) in v) || v[p, c] == "NA")
					continue
				add = v[p, c] - base
				ratio = (bt > 0) ? sprintf("%.2f", add / bt) : "n/a"
				printf "| %s | %s | %.1f | %s | %.1f | %.1f | %s |\n", p, fn[p], base, c, v[p, c], add, ratio
			}
		}
	}' "$TSV" >"$SW_RESULTS/bench-probes.md"
ok "per-call cost measured ($(($(wc -l <"$TSV") - 1)) configurations)"
