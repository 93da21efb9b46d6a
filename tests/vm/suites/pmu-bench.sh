# SPDX-License-Identifier: GPL-2.0
# tests/vm/suites/pmu-bench.sh - instructions a probe hit costs, exactly:
# sw_test_leaf() called K times with interrupts off, the instructions this
# thread retired meanwhile counted by a perf counter of its own
# (sw_testmod's "bench"), with no probe, with a bare kretprobe (empty
# handlers: the baseline) and with stopwatch counting 0, 1, 2 and 3 events
# (the second event either cycles, which adds cycles per instruction, or
# a second instructions counter: the cost of one more event alone),
# with call paths on (0 and 1 event), keyed by pid, with hist_bits 0 and 6
# (no events), with the cost sampler off (cost_sample=0, no events), and
# attached by its direct-call trampoline instead of a kretprobe (0, 1 and
# 2 events; 0 with the cost sampler off).
#
# A benchmark, not a test: it runs only when the kernel command line says
# sw_bench=1 (scripts/bench-pmu.sh boots it so) and writes its table to
# $SW_RESULTS/bench-pmu.txt.  Exact on QEMU arm64 with -icount.

. "$SW_REPO/tests/vm/tap.sh"
. "$SW_REPO/tests/vm/lib.sh"

CPU1=/sys/devices/system/cpu/cpu1/online
K=1000
# sw_bench_module=PATH (relative to the repository): another build of
# stopwatch.ko to measure, e.g. an older one for a before/after figure.
for arg in $(cat /proc/cmdline); do
	case $arg in
	sw_bench_calls=*) K=${arg#*=} ;;
	sw_bench_module=*) MOD=$SW_REPO/${arg#*=} ;;
	esac
done

grep -qw sw_bench=1 /proc/cmdline ||
	skip_all "benchmark; run it with scripts/bench-pmu.sh"
[ -r "$MOD" ] && [ -r "$TMOD" ] || skip_all "stopwatch.ko or sw_testmod.ko not built"

tctl() { "$P/swwrite" "$T/ctl" "$1"; }
# bench: instructions of K calls, pinned to cpu0.
bench() {
	taskset -c 0 "$P/swwrite" "$T/ctl" "bench $K" >/dev/null &&
		awk '{ print $4 }' "$T/result"
}

rmmod stopwatch 2>/dev/null
rmmod sw_testmod 2>/dev/null
is "insmod sw_testmod" "$(insmod "$TMOD" 2>&1 && echo ok)" ok
# One vCPU online: QEMU's icount is global to all vCPUs.
[ -w "$CPU1" ] && echo 0 >"$CPU1"

base=$(bench)
again=$(bench)
case $base in
'' | *[!0-9]*) skip_all "no instructions counter (QEMU arm64 needs --icount)" ;;
esac
is "the measurement repeats exactly" "$again" "$base"
taskset -c 0 "$P/swwrite" "$T/ctl" "readcost $K" >/dev/null
reads=$(awk '{ print $4 }' "$T/result")
taskset -c 0 "$P/swwrite" "$T/ctl" "readcost 0" >/dev/null
reads0=$(awk '{ print $4 }' "$T/result")
is "bare kretprobe on" "$(tctl 'kretprobe on')" ok
bare=$(bench)
is "bare kretprobe off" "$(tctl 'kretprobe off')" ok
is "stopwatch probes=sw_test_leaf, no events" "$(load probes=sw_test_leaf)" ok
e0=$(bench)
is "events instructions" "$(ctl events instructions)" ok
e1=$(bench)
is "events instructions,cycles" "$(ctl events instructions,cycles)" ok
e2=$(bench)
# The cost of one more event alone: instructions twice (r08 is PMUv3's
# INST_RETIRED), so no cycles-per-instruction is derived; and three.
is "events instructions,r08" "$(ctl events instructions,r08)" ok
d2=$(bench)
is "events instructions,r08,r11" "$(ctl events instructions,r08,r11)" ok
d3=$(bench)
is "events cpu-clock" "$(ctl events cpu-clock)" ok
s1=$(bench)
is "no events, call paths on" "$(ctl events '') $(ctl paths on)" "ok ok"
p0=$(bench)
is "events instructions, call paths on" "$(ctl events instructions)" ok
p1=$(bench)
calls=$(awk 'NR > 1 && $1 == "sw_test_leaf" { print $2 }' "$D/stats")
is "stopwatch counted every hit" "$calls" "$((8 * (K + 1)))"
is "every hit with paths on is on the one path" \
	"$(awk '$1 == "sw_test_leaf" { print $2 }' "$D/paths")" "$((K + 1))"
rmmod stopwatch
# Keyed rows: the probe's own by=pid, no events (one row, found again on
# every call).
is "stopwatch loaded again, sw_test_leaf by=pid" \
	"$(load) $(ctl probes '+sw_test_leaf by=pid')" "ok ok"
k0=$(bench)
is "by=pid: every hit in the keys file" \
	"$(awk 'NR > 1 && $1 == "sw_test_leaf" { s += $3 } END { print s }' "$D/keys")" \
	"$((K + 1))"
rmmod stopwatch
# The wall-time histogram's sub-bucket bits (hist_bits, default 4): 0 (the
# log2 layout) and 6, no events; none for a module without the parameter.
# (An older module loads too: the kernel ignores an unknown parameter.)
hb0= hb6=
for b in 0 6; do
	r=$(load hist_bits=$b probes=sw_test_leaf)
	if [ "$r" = ok ] &&
	   [ "$(cat /sys/module/stopwatch/parameters/hist_bits 2>/dev/null)" = $b ]; then
		eval hb$b=\$\(bench\)
	else
		skip "hist_bits=$b: $r; this stopwatch.ko has no such parameter"
	fi
	rmmod stopwatch 2>/dev/null
done
# The cost sampler (core/cost.h) off: what it adds per call on average
# is the difference from the 0-event row (it times one handler run in 64
# on average, and counts every call down).
nc0=
is "stopwatch loaded again, cost_sample=0" \
	"$(load cost_sample=0 probes=sw_test_leaf)" ok && nc0=$(bench)
rmmod stopwatch 2>/dev/null
# The same probe on stopwatch's direct-call trampoline (where ftrace has
# direct calls: not arm64 6.1): time only, then 1 and 2 events; and time
# only with the cost sampler off.
tr0= tr1= tr2= trnc0=
is "stopwatch loaded again" "$(load)" ok
r=$(ctl probes '+sw_test_leaf attach=trampoline args=1')
if [ "$r" = ok ]; then
	tr0=$(bench)
	is "the trampoline counted every hit" \
		"$(col sw_test_leaf calls) $(col sw_test_leaf attach)" \
		"$((K + 1)) 1"
	is "trampoline: events instructions" "$(ctl events instructions)" ok
	tr1=$(bench)
	is "trampoline: events instructions,r08" "$(ctl events instructions,r08)" ok
	tr2=$(bench)
	is "the trampoline counted every hit, with events" \
		"$(awk 'NR > 1 && $1 == "sw_test_leaf" { print $2 }' "$D/stats")" \
		"$((3 * (K + 1)))"
	rmmod stopwatch
	is "stopwatch loaded again, cost_sample=0, trampoline" \
		"$(load cost_sample=0) $(ctl probes '+sw_test_leaf attach=trampoline args=1')" \
		"ok ok" && trnc0=$(bench)
else
	skip "no trampoline on $(uname -r): $r"
fi
rmmod stopwatch
rmmod sw_testmod
[ -w "$CPU1" ] && echo 1 >"$CPU1"

# row NAME TOTAL: instructions per call, added per hit, ratio to bare.
row() {
	awk -v name="$1" -v t="$2" -v b="$base" -v bare="$bare" -v k="$K" 'BEGIN {
		add = (t - b) / k; badd = (bare - b) / k
		if (t == b) printf "%-34s %12.3f %12s %10s\n", name, t / k, "-", "-"
		else printf "%-34s %12.3f %12.3f %9.2fx\n", name, t / k, add, add / badd }'
}
{
	echo "probe hit cost, $SW_ARCH, $(uname -r): instructions retired, exact (QEMU -icount)"
	echo "$K calls of sw_test_leaf() with interrupts off; baseline: a bare kretprobe with empty handlers"
	printf '%-34s %12s %12s %10s\n' "configuration" "instr/call" "added/hit" "vs bare"
	row "no probe" "$base"
	row "bare kretprobe, empty handlers" "$bare"
	row "stopwatch, 0 events" "$e0"
	row "stopwatch, 1 event (instructions)" "$e1"
	row "stopwatch, 2 events (+cycles)" "$e2"
	row "stopwatch, 2 events (+r08, no cpi)" "$d2"
	row "stopwatch, 3 events (+r08,r11)" "$d3"
	row "stopwatch, 1 sw event (cpu-clock)" "$s1"
	row "stopwatch, call paths, 0 events" "$p0"
	row "stopwatch, call paths, 1 event" "$p1"
	row "stopwatch, by=pid, 0 events" "$k0"
	[ -n "$nc0" ] && row "stopwatch, 0 events, cost_sample=0" "$nc0"
	[ -n "$hb0" ] && row "stopwatch, 0 events, hist_bits=0" "$hb0"
	[ -n "$hb6" ] && row "stopwatch, 0 events, hist_bits=6" "$hb6"
	if [ -n "$tr0" ]; then
		row "stopwatch trampoline, 0 events" "$tr0"
		row "stopwatch trampoline, 1 event" "$tr1"
		row "stopwatch trampoline, 2 events (+r08)" "$tr2"
		[ -n "$trnc0" ] && row "stopwatch trampoline, cost_sample=0" "$trnc0"
	else
		printf '%-34s %12s\n' "stopwatch trampoline, 0 events" "(no direct calls)"
	fi
	awk -v r="$reads" -v r0="$reads0" -v k="$K" 'BEGIN {
		printf "(reading one hardware counter through pmu->read(): %.3f instructions)\n", (r - r0) / k }'
	[ -n "$nc0" ] && awk -v a="$e0" -v b="$nc0" -v ta="$tr0" -v tb="$trnc0" -v k="$K" 'BEGIN {
		printf "(the cost sampler, on average per call: %.3f instructions on the kretprobe", (a - b) / k
		if (ta != "" && tb != "") printf ", %.3f on the trampoline", (ta - tb) / k
		printf ")\n" }'
} >"$SW_RESULTS/bench-pmu.txt"
diag "$(cat "$SW_RESULTS/bench-pmu.txt")"
