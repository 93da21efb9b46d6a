# SPDX-License-Identifier: GPL-2.0
# tests/vm/suites/cost.sh - stopwatch's observed cost against an
# independent measurement: a tight loop of getppid(2) (callrate) timed
# without and with a kretprobe on the syscall; the extra time per call is
# what the probe cost the workload, and the probe's cost_ns (its handlers,
# timed on sampled runs, plus the kretprobe's fixed part calibrated at
# load) must come within a stated bound of it.  The overhead file's
# nanoseconds over the run must agree with calls x cost_ns, and its share
# with those nanoseconds over the interval.  A reset clears the cost
# columns and the overhead file's figures, and more calls fill them
# again.  stopwatch time ends with its
# cost line (--json has it, span and trace end with theirs too: in a
# long run only, sw_long=1); stopwatch time --predict's prediction agrees
# with that line within a stated bound and leaves no probe (a long run
# only: it fails on a pattern matching nothing, attaching nothing, leaves
# no probe on ^C, and calibrate=0 marks the prediction); a write to the
# overhead file and an unknown option are refused with a message.  The
# probe's in-window cost (window_ns, calibrated at load) is measured, and
# stopwatch time --correct on an empty leaf of the test module
# (sw_test_leaf) comes within a stated bound of the same calls timed bare.
# A few seconds per boot.
#
# Runs in the guest with the repository top as the working directory; uses
# SW_ARCH, SW_REPO, SW_RESULTS and the TAP helpers of tap.sh.

. "$SW_REPO/tests/vm/tap.sh"
. "$SW_REPO/tests/vm/lib.sh"

R=${SW_RESULTS:-/tmp}/cost
mkdir -p "$R"
CR=$P/callrate

[ -x "$SW" ] || skip_all "$SW not built (see cost.prepare)"
[ -r "$MOD" ] || skip_all "module $MOD not built"
[ -x "$CR" ] || skip_all "$CR not built (see cost.prepare)"

if [ "$SW_ARCH" = arm64 ]; then
	SYS_GETPPID=__arm64_sys_getppid
else
	SYS_GETPPID=__x64_sys_getppid
fi
N=${SW_COST_N:-20000}
RUNS=5

# ov KEY: a value of the overhead file's "all" row by column name; reads
# the file (so its interval restarts).
ov() {
	awk -v c="$1" '$1 == "cpu" { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
		$1 == "all" && k { print $k }' "$D/overhead"
}

# Every load here measures its own calibration (calibrate=1: not the
# boot's first, which lib.sh hands to other suites' loads): the checks
# below hold the calibration against this suite's own measurements, and
# one the host disturbed earlier in the boot would stand for all of them.
SW_LOAD_EXTRA=calibrate=1
unload
is "module loads" "$(load)" ok || skip_all "stopwatch.ko did not load"
cp "$D/overhead" "$R/overhead.load"
check "overhead file: interval, fixed costs, a row per online CPU and all" \
	awk -v n="$(grep -c '^processor' /proc/cpuinfo)" '
		NR == 1 && $1 == "interval_ns" && $2 > 0 { a = 1 }
		NR == 2 && $1 == "fixed_ns" { b = 1 }
		$1 ~ /^[0-9]+$/ { rows++ }
		$1 == "all" { all = 1 }
		END { exit !(a && b && all && (rows == n || n == 0)) }' "$R/overhead.load"
diag "$(sed -n 2p "$R/overhead.load")"
fixed=$(awk '$1 == "fixed_ns" { for (i = 2; i < NF; i += 2) if ($i == "kretprobe") print $(i + 1) }' "$R/overhead.load")
check "the kretprobe's fixed cost was measured at load ($fixed ns)" \
	test "${fixed:-0}" -gt 0

# The calibration parameter: what is in use, read back; given at load,
# used instead of a measurement; bad values refused, naming them, and
# nothing loaded.  PV: the parameter's file.
PV=/sys/module/stopwatch/parameters/calibration
cal=$(cat "$PV" 2>/dev/null)
diag "calibration: $cal"
check "calibration parameter reads kretprobe=F/W,kretprobe_ftrace=F/W" \
	sh -c "echo '$cal' | grep -Eqx 'kretprobe=[0-9]+/[0-9]+,kretprobe_ftrace=[0-9]+/[0-9]+'"
is "calibration parameter: the kretprobe's fixed cost is the overhead file's" \
	"$(echo "$cal" | sed -n 's/^kretprobe=\([0-9]*\)\/.*/\1/p')" "$fixed"
unload
is "load with calibration=kretprobe=111/22,kretprobe_ftrace=333/44" \
	"$(load calibration=kretprobe=111/22,kretprobe_ftrace=333/44)" ok
is "given calibration: the parameter reads it back" "$(cat "$PV")" \
	"kretprobe=111/22,kretprobe_ftrace=333/44"
is "given calibration: the overhead file's fixed costs are it" \
	"$(sed -n 2p "$D/overhead" | awk '{ for (i = 2; i < NF; i += 2)
		if ($i ~ /^kretprobe/) printf "%s=%s ", $i, $(i + 1) }')" \
	"kretprobe=111 kretprobe_ftrace=333 "
unload
for bad in bogus kretprobe=1 kretprobe=1/x uprobe=1/2 \
	kretprobe=1/2,kretprobe=3/4 kretprobe=10000001/0; do
	dmesg -C 2>/dev/null
	is "calibration=$bad refused with EINVAL" "$(load "calibration=$bad")" EINVAL
	check "  nothing loaded" sh -c '! test -d /sys/module/stopwatch'
	check "  the kernel log names the value" \
		sh -c "dmesg | grep -qF \"calibration: '$bad' is not\""
done
is "module loads again" "$(load)" ok
# The program's cache (/run/stopwatch/calibration): a load by the program
# that measured leaves "BOOT_ID SRCVERSION VALUE"; the next load by the
# program, in the same boot, is handed VALUE (the parameter reads it).
CC=/run/stopwatch/calibration
unload
rm -f "$CC"
"$SW" time -d 0.1 --module "$MOD" "$SYS_GETPPID" >"$R/cc1.out" 2>&1
is "program load (no cache): stopwatch time runs" "$?" 0
cal1=$(cat "$PV" 2>/dev/null)
is "program load (no cache): the cache holds boot id, srcversion, calibration" \
	"$(cat "$CC" 2>/dev/null)" \
	"$(cat /proc/sys/kernel/random/boot_id) $(cat /sys/module/stopwatch/srcversion) $cal1"
unload
"$SW" time -d 0.1 --module "$MOD" "$SYS_GETPPID" >"$R/cc2.out" 2>&1
is "program load (cache): stopwatch time runs" "$?" 0
is "program load (cache): the module was handed the cached calibration" \
	"$(cat "$PV" 2>/dev/null)" "$cal1"
echo "0000 $(cut -d' ' -f2- "$CC")" >"$CC"
unload
"$SW" time -d 0.1 --module "$MOD" "$SYS_GETPPID" >"$R/cc3.out" 2>&1
is "program load (cache of another boot): stopwatch time runs" "$?" 0
is "program load (cache of another boot): measured again, the cache rewritten" \
	"$(cut -d' ' -f1 "$CC")" "$(cat /proc/sys/kernel/random/boot_id)"
unload
is "module loads for the rest" "$(load)" ok
# --correct: sw_test_leaf (returns x + 1) called with interrupts off by
# the test module ("leaf K"), timed bare by the module (loop and call
# included: the true cost per call, the least of three runs), then probed
# (attach=kretprobe, no filter: the time-only path the calibration timed).
# stopwatch time --correct over one run: its row marked, the line with
# the amount, the avg column the measured mean less window_ns.  Then
# the probe alone over RUNS runs, read between them: the least mean per
# run, as the calibration takes (a TCG guest without -icount has calls
# the host stretches by milliseconds: one moves a run's mean by hundreds
# of ns), less window_ns, is the corrected mean.  Under -icount (guest
# time is instructions) it must be within 10% of the true cost (floor
# 1 ns: the column's resolution); without -icount (x86_64 TCG, times move
# with the host's load between the calibration at load and the run) the
# correction must remove at least 3/4 of the measured excess without
# going below 0: corrected <= true + (uncorrected - true) / 4.  In both,
# the uncorrected mean is clearly larger (> 2 x true).
K=4000
if [ -r "$TMOD" ] && { insmod "$TMOD" 2>"$R/tmod.err" || [ -d "$T" ]; }; then
	tbare=
	for i in 1 2 3 4; do
		echo "leaf $K" >"$T/ctl"
		[ $i = 1 ] && continue	# warm
		tbare=$(awk -v k=$K -v b="$tbare" '{ v = $6 / k;
			printf "%.3f", (b == "" || v < b) ? v : b }' "$T/result")
	done
	"$SW" time --correct -v -u ns --no-hist -d 600 --attach kretprobe \
		sw_test_leaf >"$R/correct.out" 2>"$R/correct.err" &
	pid=$!
	i=0
	while [ $i -lt 600 ] && ! grep -q "^sw_test_leaf@" "$D/probes"; do
		sleep 0.1; i=$((i + 1))
	done
	win=$(awk 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "window_ns") k = i; next }
		$1 ~ /^sw_test_leaf(@|$)/ && k { print $k }' "$D/stats")
	echo "leaf $K" >"$T/ctl"
	kill -INT $pid
	wait $pid
	is "stopwatch time --correct runs (^C ends it)" "$?" 0
	row=$(grep '^sw_test_leaf' "$R/correct.out")
	diag "$row"
	diag "$(grep '^# [*!]' "$R/correct.out")"
	# -v: FUNCTION CALLS MIN AVG MAX STDDEV TOTAL ... (ns)
	calls=$(echo "$row" | awk '{ print $2 }')
	cavg=$(echo "$row" | awk '{ print $4 }')
	tavg=$(echo "$row" | awk '{ printf "%.3f", $7 / $2 }')
	check "window_ns of sw_test_leaf's probe calibrated at load ($win ns)" \
		test "${win:-0}" -gt 0
	is "--correct: $K calls measured" "$calls" "$K"
	case $row in
	'sw_test_leaf* '*) mark=yes ;;
	*) mark=no ;;
	esac
	is "--correct: the row is marked corrected (*)" "$mark" yes
	check "--correct: one line states the $win ns subtracted" \
		grep -q "^# \\* corrected for the probe: $win ns subtracted from min, avg and percentiles" "$R/correct.out"
	is "--correct: the avg column is the measured mean ($tavg) less window_ns" \
		"$cavg" "$(awk -v u="$tavg" -v w="$win" 'BEGIN { a = int(u + 0.5) - w; print (a > 0 ? a : 0) }')"
	# The probe alone, RUNS runs: the least mean per run.
	is "probe sw_test_leaf" "$(ctl probes "+sw_test_leaf attach=kretprobe")" ok
	uavg= c0=0 t0=0
	i=0
	while [ $i -lt "$RUNS" ]; do
		echo "leaf $K" >"$T/ctl"
		v=$(awk 'NR == 1 { for (i = 1; i <= NF; i++) s[$i] = i; next }
			$1 == "sw_test_leaf" { print $s["calls"], $s["total_ns"] }' "$D/stats")
		c1=${v% *} t1=${v#* }
		uavg=$(awk -v c=$((c1 - c0)) -v t=$((t1 - t0)) -v b="$uavg" 'BEGIN {
			v = c ? t / c : 0; printf "%.3f", (b == "" || v < b) ? v : b }')
		c0=$c1 t0=$t1 i=$((i + 1))
	done
	# stopwatch stat --correct on the same probe: its JSON's avg_ns and
	# p50_ns the stats file's less window_ns (never below 0), marked
	# corrected; max_ns as measured; the default table marks the row and
	# says the amount.  Nothing calls the function meanwhile.
	raw=$(awk 'NR == 1 { for (i = 1; i <= NF; i++) s[$i] = i; next }
		$1 == "sw_test_leaf" { print $s["avg_ns"], $s["p50_ns"], $s["max_ns"], $s["window_ns"] }' "$D/stats")
	"$SW" stat --correct --json --no-hist --probe sw_test_leaf >"$R/stat-correct.json" 2>"$R/stat-correct.err"
	is "stat --correct --json exits 0" "$?" 0
	got=$(for k in avg_ns p50_ns max_ns window_ns; do
		tr ',' '\n' <"$R/stat-correct.json" | sed -n "s/^\"$k\":\([0-9]*\).*/\1/p" | head -n 1
	done | paste -sd' ' -)
	want=$(echo "$raw" | awk '{ a = $1 - $4; p = $2 - $4; print (a > 0 ? a : 0), (p > 0 ? p : 0), $3, $4 }')
	is "stat --correct: avg, p50 less window_ns, max as measured ($raw)" "$got" "$want"
	check "stat --correct --json: the probe marked corrected" \
		grep -q '"probe":"sw_test_leaf","corrected":true' "$R/stat-correct.json"
	"$SW" stat --correct --no-hist --probe sw_test_leaf >"$R/stat-correct.txt" 2>&1
	check "stat --correct: the row marked and the amount said" \
		sh -c "grep -q '^sw_test_leaf\\* ' '$R/stat-correct.txt' &&
			grep -q '^# \\* corrected for the probe: ${win:-x} ns subtracted' '$R/stat-correct.txt'"
	"$SW" stat --correct --prometheus >/dev/null 2>"$R/stat-correct-prom.err"
	is "stat --correct --prometheus refused (exit 1)" "$?" 1
	check "  saying metrics stay as measured" grep -q "Prometheus metrics stay as measured" "$R/stat-correct-prom.err"
	ctl probes "-sw_test_leaf" >/dev/null
	is "sw_test_leaf: $RUNS x $K calls measured" "$c0" $((RUNS * K))
	cmean=$(awk -v u="$uavg" -v w="${win:-0}" 'BEGIN { printf "%.3f", u - w }')
	printf 'arch=%s kernel=%s icount=%s window_ns=%s true_ns=%s uncorrected_ns=%s corrected_ns=%s time_uncorrected_ns=%s time_avg_col=%s\n' \
		"$SW_ARCH" "$(uname -r)" "$(grep -c sw_icount=1 /proc/cmdline)" \
		"$win" "$tbare" "$uavg" "$cmean" "$tavg" "$cavg" >>"$R/numbers"
	diag "sw_test_leaf: true $tbare ns/call bare; least mean of $RUNS runs probed $uavg, window_ns $win, corrected $cmean; stopwatch time's run: $tavg, corrected avg $cavg"
	check "uncorrected mean $uavg ns clearly above the true $tbare ns (> 2x)" \
		awk -v u="$uavg" -v t="$tbare" 'BEGIN { exit !(t > 0 && u > 2 * t) }'
	if grep -qw sw_icount=1 /proc/cmdline; then
		check "-icount: corrected mean $cmean ns within 10% of the true $tbare ns (floor 1 ns: the column's resolution)" \
			awk -v c="$cmean" -v t="$tbare" 'BEGIN { d = c - t; if (d < 0) d = -d;
				b = 0.1 * t; if (b < 1) b = 1; exit !(d <= b) }'
	else
		# TCG without -icount: the calibration at load and these runs
		# time the window apart, under the host's load; in CI the
		# calibrated window was 17% above this suite's (6.1) and 26%
		# below it (6.12, 6.12-rt).  The 10% goal is checked under
		# -icount only; here: the correction removes the window to within
		# half of it, either side.
		check "no -icount: corrected mean $cmean ns within (uncorrected $uavg - true $tbare) / 2 of the true" \
			awk -v c="$cmean" -v t="$tbare" -v u="$uavg" 'BEGIN { d = c - t; if (d < 0) d = -d; exit !(d <= (u - t) / 2) }'
	fi
	rmmod sw_testmod 2>/dev/null
else
	skip "--correct on sw_test_leaf: sw_testmod not built or did not load: $(cat "$R/tmod.err" 2>/dev/null)"
fi
is "a write to the overhead file is refused" "$(ctl overhead reset)" EPERM
check "last_error says the overhead file is read-only" \
	grep -q "overhead: read-only" "$D/last_error"

# rate: the least ns per call of RUNS runs of N getppid calls (the run
# least disturbed: in a guest without -icount the host's load moves the
# times).
rate() {
	"$CR" getppid "$N" "$RUNS" | sed -n 's/^runs=\([^ ]*\).*/\1/p' |
		tr ',' '\n' | sort -g | head -n 1
}

# The workload alone, then probed (attach=kretprobe: what calib measured),
# then alone again: the bare rate is the lesser of the two.
bare1=$(rate)
is "probe $SYS_GETPPID" "$(ctl probes "+$SYS_GETPPID attach=kretprobe")" ok
ov ns >/dev/null
probed=$(rate)
cp "$D/overhead" "$R/overhead.run"
cp "$D/stats" "$R/stats.run"
# reset, with the probe still on: its calls and cost columns and the
# overhead file's figures from zero, and filled again by 2000 more calls
# (few processes: each costs a TCG guest a tenth of a second or more).
# figs: the probe's calls, cost_ns, cost_fixed_ns, cost_total_ns, then
# the overhead file's ns, runs, total_ns, total_runs of "all" and its
# CPUs' samples, one line.
figs() {
	awk -v p="$SYS_GETPPID" '
		FNR == 1 { f++ }
		f == 1 && FNR == 1 { for (i = 1; i <= NF; i++) s[$i] = i; next }
		f == 1 && $1 == p { a = $s["calls"] " " $s["cost_ns"] " " $s["cost_fixed_ns"] " " $s["cost_total_ns"] }
		f == 2 && $1 == "cpu" { for (i = 1; i <= NF; i++) k[$i] = i; next }
		f == 2 && $1 ~ /^[0-9]+$/ && k["samples"] { n += $k["samples"] }
		f == 2 && $1 == "all" { b = $k["ns"] " " $k["runs"] " " $k["total_ns"] " " $k["total_runs"] }
		END { print a, b, n + 0 }' "$D/stats" "$D/overhead"
}
# allpos N...: whether every N is a number above 0.
allpos() {
	for v; do [ "$v" -gt 0 ] 2>/dev/null || return 1; done
}
is "reset" "$(ctl reset 1)" ok
is "after a reset: calls and cost columns 0, the overhead file's ns, runs, total_ns, total_runs and samples 0" \
	"$(figs)" "0 0 0 0 0 0 0 0 0"
"$CR" getppid 2000 1 >/dev/null
rfigs=$(figs)
diag "2000 calls after the reset: calls cost_ns cost_fixed_ns cost_total_ns, overhead ns runs total_ns total_runs samples: $rfigs"
is "2000 calls after the reset: calls 2000" "${rfigs%% *}" 2000
is "and the cost columns and the overhead file's figures are not 0" \
	"$(allpos $rfigs && echo yes)" yes

ctl probes "-$SYS_GETPPID" >/dev/null
bare2=$(rate)
base=$(awk -v a="$bare1" -v b="$bare2" 'BEGIN { print (a < b ? a : b) }')
calls=$(col "$SYS_GETPPID" calls "$R/stats.run")
cost=$(col "$SYS_GETPPID" cost_ns "$R/stats.run")
cfix=$(col "$SYS_GETPPID" cost_fixed_ns "$R/stats.run")
ctot=$(col "$SYS_GETPPID" cost_total_ns "$R/stats.run")
ons=$(awk '$1 == "all" { print $3 }' "$R/overhead.run")
oruns=$(awk '$1 == "all" { print $4 }' "$R/overhead.run")
oint=$(awk '$1 == "interval_ns" { print $2 }' "$R/overhead.run")
oshare=$(awk '$1 == "all" { print $2 }' "$R/overhead.run")
ncpu=$(awk '$1 ~ /^[0-9]+$/ { n++ } END { print n }' "$R/overhead.run")
diag "getppid: bare ${base} ns/call (${bare1}, ${bare2}), probed ${probed} ns/call; cost_ns $cost (fixed $cfix), calls $calls; overhead: $ons ns, $oruns runs, share $oshare% of $ncpu CPUs over $oint ns"
printf 'arch=%s kernel=%s base=%s probed=%s cost_ns=%s fixed=%s calls=%s overhead_ns=%s runs=%s interval=%s share=%s\n' \
	"$SW_ARCH" "$(uname -r)" "$base" "$probed" "$cost" "$cfix" "$calls" \
	"$ons" "$oruns" "$oint" "$oshare" >>"$R/numbers"
is "calls counted" "$calls" $((N * RUNS))
check "cost_ns observed ($cost ns, of which fixed $cfix)" test "${cost:-0}" -gt 0
# The bound: under -icount (sw_icount=1: guest time is guest instructions,
# the host's load does not move it) the probe's observed cost within
# [0.8, 1.25] x the workload's slowdown per call (the slowdown also holds
# what no handler sees: cache and branch effects on the workload).
# Without -icount (the x86_64 guests) a TCG guest's times move with the
# host's load (bare rates of one boot seen 2x apart): a sanity factor of 4
# only.
# icount_bounds LO HI LO_ELSE HI_ELSE: $lo and $hi, the first pair under
# -icount.  within V E: V in [E x lo, E x hi], E above 0.
icount_bounds() {
	if grep -qw sw_icount=1 /proc/cmdline; then lo=$1 hi=$2; else lo=$3 hi=$4; fi
}
within() {
	awk -v v="$1" -v e="$2" -v lo="$lo" -v hi="$hi" \
		'BEGIN { exit !(e > 0 && v >= e * lo && v <= e * hi) }'
}
icount_bounds 0.8 1.25 0.25 4
# cost_ns is the mean over every call of the RUNS runs, the slowdown that
# of the least disturbed run: without -icount one run the host stretched
# moves the one several times over and not the other.  There the pair is
# measured once more, the probe on again and its columns from zero, and
# the second pair is the one checked (the checks after this one keep the
# first run's columns, which they compare with each other).
cslow=$(awk -v b="$base" -v p="$probed" 'BEGIN { print p - b }')
ccost=$cost
if [ "$lo" = 0.25 ] && ! within "$ccost" "$cslow"; then
	diag "cost_ns $ccost outside [$lo, $hi] x the slowdown $cslow: no -icount, measured once more"
	ctl probes "+$SYS_GETPPID attach=kretprobe" >/dev/null
	ctl reset 1 >/dev/null
	probed=$(rate)
	ccost=$(col "$SYS_GETPPID" cost_ns)
	ctl probes "-$SYS_GETPPID" >/dev/null
	bare3=$(rate)
	base=$(awk -v a="$base" -v b="$bare3" 'BEGIN { print (a < b ? a : b) }')
	cslow=$(awk -v b="$base" -v p="$probed" 'BEGIN { print p - b }')
fi
check "cost_ns $ccost within [$lo, $hi] x the slowdown per call ($base -> $probed ns)" \
	within "$ccost" "$cslow"
check "cost_total_ns = cost_ns x calls ($ctot)" test "$ctot" = $((cost * calls))
# The overhead file's estimate over the run (its gaps are random, mean 64
# handler runs): within 25% of calls x cost_ns under -icount, and two runs
# per call.  Without -icount one timed window the host stretched by
# milliseconds (a cost_ns several times the usual one) weighs in by its
# random gap in the one and by its share of the samples in the other: a
# sanity factor of 3 there.
icount_bounds 0.75 1.25 0.33 3
check "overhead ns over the run ($ons) within [$lo, $hi] x calls x cost_ns" \
	within "$ons" "$((cost * calls))"
check "overhead runs ($oruns) within 10% of 2 x calls" \
	awk -v r="$oruns" -v n="$calls" \
	'BEGIN { exit !(r >= 2 * n * 0.9 && r <= 2 * n * 1.1) }'
check "overhead share ($oshare%) = ns / (interval x CPUs)" \
	awk -v s="$oshare" -v o="$ons" -v i="$oint" -v n="$ncpu" \
	'BEGIN { e = 100 * o / (i * n); exit !(s >= e - 0.002 && s <= e + 0.002) }'

# stopwatch time: the cost line.
"$SW" time --attach kretprobe --no-hist "$SYS_GETPPID" -- "$CR" getppid "$N" 1 >"$R/time.out" 2>"$R/time.err"
is "stopwatch time runs" "$?" 0
line=$(grep '^stopwatch cost ' "$R/time.out")
diag "$line"
check "stopwatch time ends with its cost line" \
	sh -c "tail -n 1 '$R/time.out' | grep -Eq '^stopwatch cost [0-9.]+% of [0-9]+ CPUs? over [0-9.]+ s: [0-9.]+( [kMGT])? calls x [0-9]+ ns\$'"

# stopwatch time --predict: a counting pass over the same workload with
# the same probe, then the prediction against the run above's cost line.
# Both shares are of the online CPUs over their run; under -icount the
# prediction within [0.75, 1.25] x the observation (the goal's 25%).
# Without -icount the two are separate runs in a guest whose times move
# with the host's load, and each per-call cost rests on ~1/64 of the
# calls timed (one window the host stretched by milliseconds moves it:
# see the overhead bounds above): a sanity factor of 10 there, which a
# wrong unit or a lost term would still break.
pt0=$(date +%s%N)
"$SW" time --predict --attach kretprobe "$SYS_GETPPID" -- "$CR" getppid "$N" 1 >"$R/predict.out" 2>"$R/predict.err"
is "stopwatch time --predict runs" "$?" 0
pline=$(grep '^stopwatch predict ' "$R/predict.out")
diag "$pline"
pshare=$(printf '%s\n' "$pline" | sed -n 's/^stopwatch predict \([0-9.]*\)% .*/\1/p')
tshare=$(printf '%s\n' "$line" | sed -n 's/^stopwatch cost \([0-9.]*\)% .*/\1/p')
check "--predict: a row for $SYS_GETPPID, its rate and share" \
	grep -Eq "^$SYS_GETPPID +[0-9.]+( [kMG])? +[0-9]+ +[0-9.]+%\$" "$R/predict.out"
check "--predict: calibrated (no lower-bound mark)" \
	sh -c "! grep -q 'lower bound\\|unknown' '$R/predict.out'"
is "--predict: no probe left" "$(grep -c "^$SYS_GETPPID@" "$D/probes")" 0
printf 'arch=%s kernel=%s predicted_pct=%s observed_pct=%s\n' "$SW_ARCH" \
	"$(uname -r)" "$pshare" "$tshare" >>"$R/numbers"
icount_bounds 0.75 1.25 0.1 10
# Without -icount one stretched window can move either run's cost per
# call up to tenfold (most when both CI streams and the host's unit
# tests are busy): when the pair disagrees, both runs once more, and the
# second pair is the one checked (both pairs shown).
if ! grep -qw sw_icount=1 /proc/cmdline && ! within "$pshare" "$tshare"; then
	diag "first pair outside [$lo, $hi]: predicted $pshare%, observed $tshare%; both again"
	"$SW" time --attach kretprobe --no-hist "$SYS_GETPPID" -- "$CR" getppid "$N" 1 >"$R/time2.out" 2>>"$R/time.err"
	"$SW" time --predict --attach kretprobe "$SYS_GETPPID" -- "$CR" getppid "$N" 1 >"$R/predict2.out" 2>>"$R/predict.err"
	diag "$(grep '^stopwatch cost ' "$R/time2.out")"
	diag "$(grep '^stopwatch predict ' "$R/predict2.out")"
	pshare=$(sed -n 's/^stopwatch predict \([0-9.]*\)% .*/\1/p' "$R/predict2.out")
	tshare=$(sed -n 's/^stopwatch cost \([0-9.]*\)% .*/\1/p' "$R/time2.out")
fi
check "predicted overhead $pshare% within [$lo, $hi] x the observed $tshare%" \
	within "$pshare" "$tshare"
diag "--predict checks took $((($(date +%s%N) - pt0) / 1000000)) ms"
"$SW" time --no-such-option "$SYS_GETPPID" >/dev/null 2>"$R/badopt.err"
is "stopwatch time --no-such-option fails (exit 1)" "$?" 1
check "and names the option" grep -q "no-such-option" "$R/badopt.err"
# The rest costs TCG seconds per command (pattern expansion, BTF): only
# in a long run (boot with sw_long=1: tests/vm/run.sh --suite cost
# --append sw_long=1).
if long_run; then
	"$SW" time --json "$SYS_GETPPID" -- "$CR" getppid "$N" 1 >"$R/time.json" 2>>"$R/time.err"
	check "stopwatch time --json has stopwatch_cost" \
		grep -Eq '"stopwatch_cost":\{"share_pct":[0-9.]+,"cpus":[0-9]+,"seconds":[0-9.]+,"calls":[0-9]+,"ns_per_call":[0-9.]+,"ns":[0-9]+\}' "$R/time.json"
	# stopwatch span and trace end with theirs too (span points: their
	# handlers' own time only, no mechanism part).
	"$SW" span --start "$SYS_GETPPID:tid" --stop "$SYS_GETPPID%return:tid" \
		-- "$CR" getppid "$N" 1 >"$R/span.out" 2>"$R/span.err"
	diag "span: $(tail -n 1 "$R/span.out")"
	check "stopwatch span ends with its cost line" \
		sh -c "tail -n 1 '$R/span.out' | grep -Eq '^stopwatch cost [0-9.]+% of [0-9]+ CPUs? over [0-9.]+ s: [0-9.]+( [kMGT])? calls x [0-9]+ ns\$'"
	"$SW" trace "$SYS_GETPPID" -- "$CR" getppid 2000 1 >"$R/trace.out" 2>"$R/trace.err"
	diag "trace: $(tail -n 1 "$R/trace.out")"
	check "stopwatch trace ends with its cost line" \
		sh -c "tail -n 1 '$R/trace.out' | grep -Eq '^stopwatch cost [0-9.]+% of [0-9]+ CPUs? over [0-9.]+ s: [0-9.]+( [kMGT])? calls x [0-9]+ ns\$'"
	# A pattern matching nothing, beside one that matches: an error naming
	# it, and nothing attached.
	"$SW" time --predict -d 0.1 "$SYS_GETPPID" sw_no_such_fn_q >/dev/null 2>"$R/predict-bad.err"
	is "--predict on a pattern matching nothing fails (exit 1)" "$?" 1
	check "and names it" grep -q "'sw_no_such_fn_q' matches no kernel function" "$R/predict-bad.err"
	is "and attaches nothing" "$(grep -c "^$SYS_GETPPID@" "$D/probes")" 0
	# ^C during the counting pass: the probe removed, the shorter pass
	# predicted from.
	"$SW" time --predict -d 60 "$SYS_GETPPID" >"$R/predict-int.out" 2>&1 &
	pid=$!
	i=0
	while [ $i -lt 100 ] && ! grep -q "^$SYS_GETPPID@" "$D/probes"; do
		sleep 0.1; i=$((i + 1))
	done
	"$CR" getppid 2000 1 >/dev/null
	kill -INT $pid
	wait $pid
	is "--predict, ^C: exits 0" "$?" 0
	check "--predict, ^C: a prediction" grep -q '^stopwatch predict ' "$R/predict-int.out"
	is "--predict, ^C: no probe left" "$(grep -c "^$SYS_GETPPID@" "$D/probes")" 0
	# A module loaded without calibration: the prediction says it is
	# a lower bound.
	unload
	is "module loads with calibrate=0" "$(SW_LOAD_EXTRA=; load calibrate=0)" ok
	"$SW" time --predict --attach kretprobe "$SYS_GETPPID" -- "$CR" getppid 2000 1 >"$R/predict-nocal.out" 2>&1
	diag "$(grep '^stopwatch predict ' "$R/predict-nocal.out")"
	check "calibrate=0: the prediction is marked a lower bound" \
		grep -q '^stopwatch predict .*(lower bound: not calibrated)$' "$R/predict-nocal.out"
else
	skip "time --json, span and trace cost lines, --predict on a pattern matching nothing, on ^C and with calibrate=0: a long run only (sw_long=1)"
fi

unload
