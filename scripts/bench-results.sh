#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# scripts/bench-results.sh - the measurements behind BENCHMARKS.md and the
# report made from them.  Every number of BENCHMARKS.md comes from a file
# of bench/results/: one measurement run each, a few "# key: value" lines
# (what, date, arch, kernel, build, conditions, source) then tab-separated
# rows under a header row.  `make bench` writes a file for each thing it
# measures (--from) and then the report (--report); a run measured by hand
# (scripts/bench-pmu.sh, a bench-probes boot) is kept the same way.
#
# usage: scripts/bench-results.sh --from KIND IN [KEY=VALUE...] > FILE.tsv
#          KIND: probes (the bench-probes suite's bench-probes.md), pmu
#          (pmu-bench's bench-pmu.txt), sampler (sampler-bench's
#          bench-sampler.md), report (scripts/bench-report.sh's output);
#          KEY=VALUE: the "# key: value" lines to write
#        scripts/bench-results.sh --report [DIR]   BENCHMARKS.md from
#          DIR/*.tsv (default bench/results) on stdout
#        scripts/bench-results.sh --check   BENCHMARKS.md is what --report
#          makes of bench/results (make check)
# examples:
#   scripts/bench-results.sh --from pmu build/bench/bench-pmu.txt \
#       date=2026-11-24 arch=arm64 kernel=6.12.117+deb12-arm64 > bench/results/pmu-arm64-6.12.tsv
#   scripts/bench-results.sh --report > BENCHMARKS.md
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)

# from KIND IN: the rows of a benchmark's own output, tab-separated.
from() {
	case $1 in
	probes)
		printf 'path\tfunction\tconfig\truns\tns_per_call\tadded_ns\n'
		awk -F'|' 'NF >= 7 && $2 !~ /hot path|---/ {
			for (i = 2; i <= 6; i++) gsub(/^ +| +$/, "", $i)
			printf "%s\t%s\t%s\t%s\t%s\t-\n", $2, $3, $4, $5, $6 }' "$2"
		;;
	pmu)
		# "configuration   instr/call   added/hit   vs bare": the
		# configuration is every field but the last three.
		printf 'config\tinstr_per_call\tadded\n'
		awk 'NR > 3 && NF >= 4 && $(NF - 2) ~ /^[0-9.]+$/ {
			c = $1; for (i = 2; i <= NF - 3; i++) c = c " " $i
			printf "%s\t%s\t-\n", c, $(NF - 2) }' "$2"
		;;
	sampler)
		printf 'config\titerations\tspread_pct\tsamples_per_s\tlost\tbytes_per_sample\n'
		awk -F'|' 'NF >= 9 && $2 !~ /configuration|---/ {
			for (i = 2; i <= 9; i++) { gsub(/^ +| +$/, "", $i); sub(/%$/, "", $i) }
			printf "%s\t%s\t%s\t%s\t%s\t%s\n", $2, $3, $4, $6, $8, $9 }' "$2"
		;;
	report)
		# "NAME (42 columns) N samples  cpu C s  wall W s  R samples/s  M MB peak RSS"
		printf 'reader\tcommand\tsamples\tcpu_s\twall_s\tpeak_rss_mb\tinput_mb\n'
		awk '/^stopwatch (report|script) \(/ { r = "stopwatch"; mb = $3; sub(/\(/, "", mb); next }
			/^perf report \(/ { r = "perf"; mb = $3; sub(/\(/, "", mb); next }
			/ samples  cpu / {
				n = substr($0, 1, 42); sub(/ +$/, "", n)
				split(substr($0, 43), f, " +")
				printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r, n, f[2], f[5], f[8], f[12], mb }' "$2"
		;;
	*) echo "bench-results.sh: unknown kind '$1'" >&2; exit 2 ;;
	esac
}

# meta FILE KEY: a "# key: value" line's value.
meta() { sed -n "s/^# $2: //p" "$1" | head -n 1; }

# rows FILE: the table of a results file, header row first.
rows() { grep -v '^#' "$1"; }

# about FILE: one line saying where a table's numbers come from.
about() {
	echo "Measured $(meta "$1" date) on $(meta "$1" arch) $(meta "$1" kernel)$(b=$(meta "$1" build); [ -n "$b" ] && echo ", build $b"): $(meta "$1" conditions). Source: $(meta "$1" source) (\`${1#"$top"/}\`)."
}

probes_table() {
	echo "| hot path | probed function | config | runs | ns/call (median) | added ns/call | added, ratio to bpftrace |"
	echo "|---|---|---|---|---|---|---|"
	rows "$1" | awk -F'\t' 'NR == 1 { next }
		{ n++; p[n] = $1; fn[n] = $2; c[n] = $3; r[n] = $4; t[n] = $5; a[n] = $6
		  if ($3 == "none") base[$1] = $5 }
		END {
			for (i = 1; i <= n; i++) {
				if (a[i] == "-" && t[i] != "-" && c[i] != "none" && (p[i] in base)) a[i] = sprintf("%.1f", t[i] - base[p[i]])
				if (c[i] == "bpftrace" && a[i] != "-") bpf[p[i]] = a[i]
			}
			for (i = 1; i <= n; i++)
				printf "| %s | %s | %s | %s | %s | %s | %s |\n", p[i], fn[i], c[i], r[i],
					t[i] == "-" ? "" : t[i], a[i] == "-" ? "" : a[i],
					(a[i] != "-" && bpf[p[i]] > 0) ? sprintf("%.2f", a[i] / bpf[p[i]]) : ""
		}'
}

pmu_table() {
	echo "| configuration | instructions per call | added per call | vs bare kretprobe |"
	echo "|---|---|---|---|"
	rows "$1" | awk -F'\t' 'NR == 1 { next }
		{ n++; c[n] = $1; t[n] = $2; a[n] = $3; if ($1 == "no probe") none = $2 }
		END {
			for (i = 1; i <= n; i++) {
				if (a[i] == "-" && t[i] != "-" && c[i] != "no probe" && none != "") a[i] = sprintf("%.0f", t[i] - none)
				if (c[i] ~ /^bare kretprobe/) bare = a[i]
			}
			for (i = 1; i <= n; i++)
				printf "| %s | %s | %s | %s |\n", c[i], t[i] == "-" ? "" : t[i], a[i] == "-" ? "" : a[i],
					(a[i] != "-" && bare > 0) ? sprintf("%.2fx", a[i] / bare) : ""
		}'
}

sampler_table() {
	echo "| configuration | work done (iterations) | spread | overhead | samples/s per CPU | CPU per sample | lost | bytes/sample |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|"
	rows "$1" | awk -F'\t' 'NR == 1 { next }
		$1 == "base" { b = $2 }
		{
			o = b > 0 && $1 != "base" ? 1 - $2 / b : -1
			printf "| %s | %s | %s%% | %s | %s | %s | %s | %s |\n", $1, $2, $3,
				o < 0 ? "-" : sprintf("%.1f%%", 100 * o), $4,
				o < 0 || $4 + 0 == 0 ? "-" : sprintf("%.1f us", 1e6 * o / $4), $5, $6
		}'
	echo
	echo "overhead = 1 - iterations / the base's (work lost to the profiler, its interrupts and its"
	echo "reader); spread = (max - min) / median of the runs; CPU per sample = overhead / samples per"
	echo "second (1 s / that: the records per second a CPU could sustain doing nothing else). perf"
	echo "bytes/sample = perf.data size / samples (headers and side-band records included); stopwatch ="
	echo "sample bytes written / samples written."
}

report_table() {
	echo "| reader | command | input | records | CPU s | wall s | records per CPU second | peak RSS |"
	echo "|---|---|---:|---:|---:|---:|---:|---:|"
	rows "$1" | awk -F'\t' 'NR == 1 { next }
		{ rate = $4 > 0 ? $3 / $4 : 0
		  if ($1 == "stopwatch" && !sw) sw = rate
		  if ($1 == "perf" && !pf) pf = rate
		  if ($2 == "script (samples with stacks)") ss = rate
		  if ($2 == "perf script (samples with stacks)") ps = rate
		  printf "| %s | %s | %s MB | %s | %s | %s | %.0f | %s MB |\n", $1, $2, $7, $3, $4, $5, rate, $6 }
		END { if (sw && pf) printf "\nstopwatch report aggregates %.1fx the samples per CPU second of perf report.\n", sw / pf
		      if (ss && ps) printf "stopwatch script prints %.1fx the samples with stacks per CPU second of perf script.\n", ss / ps }'
}

# xpti FILE: events per second one CPU can service at 1% and 2% overhead:
# 10^7 ns (1% of a second) over the added cost of one event.
xpti_table() {
	echo "| measured on | hot path | config | added ns/event | events/s per CPU at 1% | at 2% |"
	echo "|---|---|---|---|---|---|"
	for f in "$@"; do
		k="$(meta "$f" arch) $(meta "$f" kernel)"
		probes_table "$f" | awk -F'|' -v k="$k" 'NR > 2 && $7 + 0 > 0 {
			gsub(/ /, "", $2); gsub(/ /, "", $4)
			printf "| %s | %s | %s | %.0f | %.0f | %.0f |\n", k, $2, $4, $7, 1e7 / $7, 2e7 / $7 }'
	done
}

# section KIND TITLE INTRO: every results file of KIND, its table and
# where it comes from.
each() { for f in "$dir"/*.tsv; do [ "$(meta "$f" what)" = "$1" ] && echo "$f"; done; return 0; }

report() {
	dir=${1:-$top/bench/results}
	echo "# stopwatch benchmarks"
	echo
	echo "Generated by \`scripts/bench-results.sh --report\` from the measurements in \`bench/results/\`;"
	echo "\`make bench\` measures again, rewrites the files it measured and this report. Each table"
	echo "says when, on what kernel and build, and how it was measured. Do not edit by hand."
	echo
	echo "Emulated time is not hardware time. Read the ratios against peers measured in the same boot,"
	echo "and the exact instruction counts. The guests run with \`-icount shift=0\`: guest time advances"
	echo "one nanosecond per guest instruction, so guest \"ns\" are instructions, and the host's load does"
	echo "not change them."
	echo
	echo "## 1. Per-call cost on hot paths (x86_64 guest)"
	echo
	echo "A 1-byte \`read\` of /dev/zero with \`ksys_read\` probed, and \`getppid\` with its syscall entry"
	echo "probed; medians. \`stopwatch+2\` counts two software events (cpu-clock, context-switches) per"
	echo "call; \`bare\` is a kretprobe with empty handlers (\`bench/kmod/sw_bare.c\`); bpftrace keeps a"
	echo "log2 histogram of kprobe-to-kretprobe latency; funclatency is bcc's."
	for f in $(each probes); do
		echo; about "$f"; echo; probes_table "$f"
	done
	echo
	echo "## 2. Instructions added per probe hit (arm64 guest, exact)"
	echo
	echo "\`sw_test_leaf()\` called with interrupts off, the instructions retired counted by a perf"
	echo "counter of the test module's own (\`tests/vm/suites/pmu-bench.sh\`). \"1 event\" counts"
	echo "instructions; a second event is cycles (which adds cycles per instruction) or another"
	echo "instructions counter (r08), a third r11. arm64 6.1 has no ftrace direct calls: no trampoline."
	for f in $(each pmu); do
		echo; about "$f"; echo; pmu_table "$f"
	done
	echo
	echo "## 3, 4. Sampler overhead, records per second, bytes per sample (x86_64 guest)"
	echo
	echo "A busy loop (one pinned thread) sampled at each frequency, by stopwatch's sampler and by"
	echo "perf record, side by side (\`tests/vm/suites/sampler-bench.sh\`)."
	for f in $(each sampler); do
		echo; about "$f"; echo; sampler_table "$f"
	done
	echo
	echo "## 5. Readers: \`stopwatch report\` and \`stopwatch script\` (host)"
	echo
	echo "A synthetic recording with call stacks (\`userspace/tests/swd-gen.c\`) reported by stopwatch,"
	echo "and perf report on a perf.data of the same workload; then stopwatch script printing that"
	echo "recording and one of traced calls (ten per sample, two event deltas each) and samples, and"
	echo "perf script printing the perf.data; the best of 3 runs by CPU time (\`scripts/bench-report.sh\`;"
	echo "records: samples, or calls and samples). Host times: the host's load moves them."
	for f in $(each report); do
		echo; about "$f"; echo; report_table "$f"
	done
	echo
	echo "## 6. Events per second serviceable at 1% and 2% overhead (XPTI-style)"
	echo
	echo "From section 1: one CPU spends 1% of its time (10 ms a second) on probes when events/s x"
	echo "added cost = 10^7 ns. Guest ns are guest instructions here; on a CPU that retires k"
	echo "instructions per ns, multiply the rates by k."
	echo
	# shellcheck disable=SC2046
	xpti_table $(each probes)
}

case ${1:-} in
--from) shift; k=$1 in=$2; shift 2
	for kv in "$@"; do echo "# ${kv%%=*}: ${kv#*=}"; done
	from "$k" "$in" ;;
--report) report "${2:-}" ;;
--check)
	if report | cmp -s - "$top/BENCHMARKS.md"; then
		echo "bench-results: BENCHMARKS.md is made from bench/results ($(ls "$top"/bench/results/*.tsv | wc -l) files)"
	else
		echo "bench-results.sh: BENCHMARKS.md is not what bench/results makes: run scripts/bench-results.sh --report > BENCHMARKS.md (the report is never edited by hand)" >&2
		exit 1
	fi
	;;
*) echo "usage: scripts/bench-results.sh --from KIND IN [KEY=VALUE...] | --report [DIR] | --check" >&2; exit 2 ;;
esac
