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
#   stopwatch-tramp  time only, attached by stopwatch's direct-call
#               trampoline (attach=trampoline args=N) instead of a kretprobe
#   stopwatch-paths  time only, call paths on (each call on its thread's
#               pending stack with its path node)
#   stopwatch+2 stopwatch.ko with two software events
#   stopwatch-pid-out  time only, with a pid= filter that leaves every call
#               out (pid=1): the cost of a filtered-out call
#   stopwatch-pid-in   the same filter letting every call in (the
#               workload's own pid): the cost of a filtered-in call
#   bpftrace    kprobe + kretprobe keeping a log2 histogram of latency
#   bpftrace-kfunc  the same with kfunc + kretfunc (BPF trampoline; needs
#               BTF for the function: not for syscall wrappers)
#   funclatency bcc's funclatency
# and writes ns per call (median of RUNS runs) and the cost each adds over
# no probe to $SW_RESULTS/bench-probes.tsv and a markdown table to
# $SW_RESULTS/bench-probes.md.  sw_bench_configs=a,b,... keeps only those
# configs (none is always measured), sw_bench_paths=read|getppid only that
# hot path: for measuring one change quickly.

. "$SW_REPO/tests/vm/tap.sh"

[ "$(cmdarg sw_bench)" = 1 ] || skip_all "benchmark, not a test: run make bench"

MOD=${SW_MODULE:-$SW_REPO/build/module/$SW_ARCH/stopwatch.ko}
KMODDIR=${SW_KMODDIR:-$SW_REPO/build/kmod/$SW_ARCH}
P=$SW_REPO/build/progs/$SW_ARCH
N=$(cmdarg sw_bench_calls)
N=${N:-100000}
RUNS=$(cmdarg sw_bench_runs)
RUNS=${RUNS:-5}
EVENTS=${SW_BENCH_EVENTS:-cpu-clock,context-switches}
CONFIGS=$(cmdarg sw_bench_configs)
PATHS=$(cmdarg sw_bench_paths)
TMP=${TMPDIR:-/tmp}/sw-bench-probes
TSV=$SW_RESULTS/bench-probes.tsv
mkdir -p "$TMP"
printf 'path\tfunction\tconfig\truns_ns_per_call\n' >"$TSV"

GETPPID=$(awk '$2 ~ /^[tT]$/ && $3 ~ /^__(x64|arm64)_sys_getppid$/ { print $3; exit }' /proc/kallsyms)
BPFTRACE=$(command -v bpftrace)
FUNCLAT=$(command -v funclatency-bpfcc || ls /usr/sbin/funclatency-bpfcc 2>/dev/null)

# wait_for FILE PATTERN SECONDS PID: until a tool says it is attached.
wait_for() {
	i=0
	while ! grep -q "$2" "$1" 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt $(($3 * 10)) ] && return 1
		kill -0 "$4" 2>/dev/null || return 1
		sleep 0.1
	done
}

# stop_tool PID: SIGINT, then SIGKILL if it does not go within 20 s.
stop_tool() {
	kill -INT "$1" 2>/dev/null
	i=0
	while kill -0 "$1" 2>/dev/null && [ $i -lt 200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -KILL "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}

# want CONFIG: whether sw_bench_configs= (if given) names it.
want() {
	[ -z "$CONFIGS" ] || [ "$1" = none ] ||
		case ",$CONFIGS," in *",$1,"*) ;; *) return 1 ;; esac
}

# measure PATH FUNC CONFIG [PIDPROBE]: run the workload; every run's
# ns/call is kept.  With PIDPROBE the workload's shell first adds the probe
# "+PIDPROBE pid=<its pid>", then execs the workload (same pid).
measure() {
	want "$3" || return 0
	if [ -n "${4:-}" ]; then
		out=$(sh -c 'echo "+$1 pid=$$" >/sys/kernel/debug/stopwatch/probes &&
			exec "$2" "$3" "$4" "$5"' x "$4" "$P/callrate" "$1" "$N" "$RUNS")
	else
		out=$("$P/callrate" "$1" "$N" "$RUNS")
	fi
	runs=$(echo "$out" | sed -n 's/^runs=\([^ ]*\).*/\1/p')
	[ -n "$runs" ] || { diag "$1 $3: callrate failed: $out"; return 1; }
	printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$runs" >>"$TSV"
	diag "$1 $3: $out"
}

# attach_measure PATH FUNC CONFIG PATTERN TIMEOUT CMD...: start a tracer,
# wait until it has attached, measure, stop it.
attach_measure() {
	path=$1 fn=$2 cfg=$3 pat=$4 tmo=$5
	shift 5
	want "$cfg" || return 0
	"$@" >"$TMP/$cfg.out" 2>&1 &
	tp=$!
	t0=$(cut -d' ' -f1 /proc/uptime)
	if wait_for "$TMP/$cfg.out" "$pat" "$tmo" $tp; then
		diag "$cfg attached after $(awk -v a="$t0" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { printf "%.0f", b - a }') s"
		sleep 1
		measure "$path" "$fn" "$cfg"
	else
		diag "$cfg did not attach within $tmo s: $(head -c 300 "$TMP/$cfg.out")"
	fi
	stop_tool $tp
}

one_round() {
	path=$1 fn=$2
	rmmod stopwatch 2>/dev/null
	measure "$path" "$fn" none
	if insmod "$KMODDIR/sw_bare.ko" "func=$fn"; then
		measure "$path" "$fn" bare
		rmmod sw_bare
	fi
	if insmod "$MOD" "probes=$fn"; then
		measure "$path" "$fn" stopwatch
		rmmod stopwatch
	fi
	if insmod "$MOD"; then
		# Register arguments: ksys_read 3, a syscall wrapper 1 (regs).
		nargs=3
		[ "$fn" = "$GETPPID" ] && nargs=1
		if echo "+$fn attach=trampoline args=$nargs" \
			>/sys/kernel/debug/stopwatch/probes 2>/dev/null; then
			# What the cost depends on: the calls' clock, and
			# whether the site calls the trampoline directly.
			ef=/sys/kernel/tracing/enabled_functions
			[ -r $ef ] || ef=/sys/kernel/debug/tracing/enabled_functions
			diag "stopwatch-tramp on $fn: $(grep '^call_clock ' /sys/kernel/debug/stopwatch/version); $(grep -A 2 "^$fn " $ef 2>/dev/null | tr '\n\t' '  ' | head -c 300)"
			measure "$path" "$fn" stopwatch-tramp
		else
			diag "stopwatch-tramp: no trampoline for $fn: $(cat /sys/kernel/debug/stopwatch/last_error 2>/dev/null)"
		fi
		rmmod stopwatch
	fi
	if insmod "$MOD" "probes=$fn" paths=1; then
		measure "$path" "$fn" stopwatch-paths
		rmmod stopwatch
	fi
	if insmod "$MOD"; then
		echo "+$fn pid=1" >/sys/kernel/debug/stopwatch/probes &&
			measure "$path" "$fn" stopwatch-pid-out
		echo "-$fn" >/sys/kernel/debug/stopwatch/probes
		measure "$path" "$fn" stopwatch-pid-in "$fn"
		rmmod stopwatch
	fi
	if insmod "$MOD" "probes=$fn" "events=$EVENTS" 2>"$TMP/ev.err"; then
		measure "$path" "$fn" "stopwatch+2"
		rmmod stopwatch
	else
		diag "stopwatch with events=$EVENTS: $(cat "$TMP/ev.err")"
	fi
	[ -n "$BPFTRACE" ] && attach_measure "$path" "$fn" bpftrace Attaching 300 \
		"$BPFTRACE" -e "kprobe:$fn { @start[tid] = nsecs; }
			kretprobe:$fn /@start[tid]/ { @ns = hist(nsecs - @start[tid]); delete(@start[tid]); }"
	[ -n "$BPFTRACE" ] && [ "$fn" != "$GETPPID" ] &&
		attach_measure "$path" "$fn" bpftrace-kfunc Attaching 300 \
		"$BPFTRACE" -e "kfunc:$fn { @start[tid] = nsecs; }
			kretfunc:$fn /@start[tid]/ { @ns = hist(nsecs - @start[tid]); delete(@start[tid]); }"
	measure "$path" "$fn" none
}

[ -r "$MOD" ] && [ -r "$KMODDIR/sw_bare.ko" ] ||
	skip_all "stopwatch.ko or sw_bare.ko not built (bench-probes.prepare)"
ROUNDS=$(cmdarg sw_bench_rounds)
ROUNDS=${ROUNDS:-3}
FL_TIMEOUT=$(cmdarg sw_bench_bcc_timeout)
FL_TIMEOUT=${FL_TIMEOUT:-900}
[ -n "$PATHS" ] && [ "$PATHS" != getppid ] && GETPPID=
for r in $(seq 1 "$ROUNDS"); do
	[ "${PATHS:-read}" = read ] && one_round read ksys_read
	[ -n "$GETPPID" ] && one_round getppid "$GETPPID"
done
# bcc compiles its program with clang when it starts: minutes under
# emulation, so it is attached once per hot path, after the rounds.
if [ -n "$FUNCLAT" ] && want funclatency; then
	# Unbuffered, or its "Tracing..." line only shows at exit.
	export PYTHONUNBUFFERED=1
	attach_measure read ksys_read funclatency Tracing "$FL_TIMEOUT" "$FUNCLAT" ksys_read
	[ -n "$GETPPID" ] && attach_measure getppid "$GETPPID" funclatency Tracing "$FL_TIMEOUT" "$FUNCLAT" "$GETPPID"
	measure read ksys_read none
	[ -n "$GETPPID" ] && measure getppid "$GETPPID" none
fi

# Markdown: the median of every run of a config; the added cost over the
# no-probe median, and each tool's added cost as a ratio to bpftrace's.
awk -F'\t' '
	function median(list,    a, n, i, j, t) {
		n = split(list, a, ",")
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) {
				t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
			}
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	NR == 1 { next }
	{
		k = $1 SUBSEP $3
		if (k in v)
			v[k] = v[k] "," $4
		else
			v[k] = $4
		cnt[k] += split($4, tmp, ",")
		fn[$1] = $2
		if (!($1 in seen)) { seen[$1] = 1; order[++np] = $1 }
	}
	END {
		nc = split("bare stopwatch stopwatch-tramp stopwatch-paths stopwatch-pid-out stopwatch-pid-in stopwatch+2 bpftrace bpftrace-kfunc funclatency", cfg, " ")
		printf "| hot path | probed function | config | runs | ns/call (median) | added ns/call | added, ratio to bpftrace |\n"
		printf "|---|---|---|---|---|---|---|\n"
		for (i = 1; i <= np; i++) {
			p = order[i]
			base = median(v[p, "none"])
			bt = ((p, "bpftrace") in v) ? median(v[p, "bpftrace"]) - base : 0
			printf "| %s | %s | none | %d | %.1f | | |\n", p, fn[p], cnt[p, "none"], base
			for (j = 1; j <= nc; j++) {
				c = cfg[j]
				if (!((p, c) in v))
					continue
				m = median(v[p, c])
				ratio = (bt > 0) ? sprintf("%.2f", (m - base) / bt) : "n/a"
				printf "| %s | %s | %s | %d | %.1f | %.1f | %s |\n", p, fn[p], c, cnt[p, c], m, m - base, ratio
			}
		}
	}' "$TSV" >"$SW_RESULTS/bench-probes.md"
ok "per-call cost measured ($(($(wc -l <"$TSV") - 1)) series)"
