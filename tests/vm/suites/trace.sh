# SPDX-License-Identifier: GPL-2.0
# tests/vm/suites/trace.sh - per-call trace records (probes with trace=):
# exact record counts for a known number of calls through the kretprobe
# and the trampoline, records written + lost = calls traced, one thread's
# calls in time order, a call that migrates between CPUs (cpu_start !=
# cpu_end), a user function's calls, --min filtering in the module,
# "stopwatch script --json" reading a saved recording back, script's
# filters (--min keeps exactly the calls at or over the threshold; --comm,
# -p, -C), --graph's nesting of sw_testmod's chain f1 > f2 > f3 x 2
# (each inner call inside its parent's interval), and its timelines
# (script --perfetto, --chrome) counted; lines printed live, while the
# command still runs, within 1 s of the calls.  The recording
# of the getppid run is kept in the results directory (trace-getppid.swd)
# for the host's decoder tests.
#
# Runs in the guest with the repository top as the working directory; uses
# SW_ARCH, SW_REPO and the TAP helpers of tap.sh.

. "$SW_REPO/tests/vm/tap.sh"
. "$SW_REPO/tests/vm/lib.sh"

unload
if [ ! -r "$MOD" ] || [ ! -x "$SW" ] || [ ! -x "$P/getppid_loop" ]; then
	skip_all "stopwatch.ko, the test programs or the stopwatch program not built"
fi
is "load stopwatch" "$(load)" ok
GETPPID=$(ksym '^__(x64|arm64)_sys_getppid$')
N=2000

# jfield FIELD: the numeric FIELD of each JSON line on stdin.
jfield() { sed -n "s/.*\"$1\":\\([0-9-]*\\).*/\\1/p"; }

# summary FILE: "traced written full nested missing read printed" from
# the loss line stopwatch trace/script prints on stderr.
summary() {
	sed -n 's/.*: \([0-9]*\) calls traced, \([0-9]*\) written, lost: \([0-9]*\) buffer full, \([0-9]*\) nested, \([0-9]*\) missing from the file; \([0-9]*\) calls read, \([0-9]*\) printed/\1 \2 \3 \4 \5 \6 \7/p' "$1"
}

# getppid_run ATTACH: trace N getppid calls of one process through ATTACH.
getppid_run() {
	"$SW" trace --json --attach "$1" "$GETPPID" -- \
		"$P/getppid_loop" "$N" >"$TMP/$1.json" 2>"$TMP/$1.err"
}

for how in kretprobe; do
	if ! getppid_run "$how"; then
		not_ok "trace $GETPPID via $how" "$(cat "$TMP/$how.err")"
		continue
	fi
	pid=$(sed -n 's/.*"pid":\([0-9]*\).*/\1/p' "$TMP/$how.json" | sort -u)
	set -- $(summary "$TMP/$how.err")
	diag "$how: traced=$1 written=$2 full=$3 nested=$4 missing=$5 read=$6 printed=$7"
	is "$how: written + lost = traced" "$(($2 + $3 + $4))" "$1"
	is "$how: every written record is in the file" "$5 $6" "0 $2"
	is "$how: $N records of the command's calls (none lost)" \
		"$(grep -c "\"name\":\"$GETPPID\"" "$TMP/$how.json") $(($3 + $4))" "$N 0"
	is "$how: one process, one thread" \
		"$(echo "$pid" | wc -l) $(jfield tid <"$TMP/$how.json" | sort -u)" "1 $pid"
	ordered=$(jfield end <"$TMP/$how.json" | sort -c -n 2>&1 && echo yes)
	is "$how: in time order (end times never go back)" "$ordered" yes
	sums=$(awk '{ s = $0; sub(/.*"start":/, "", s); sub(/,.*/, "", s)
		d = $0; sub(/.*"dur":/, "", d); sub(/,.*/, "", d)
		e = $0; sub(/.*"end":/, "", e); sub(/,.*/, "", e)
		if (s + 0 + d != e + 0) bad++ } END { print bad + 0 }' "$TMP/$how.json")
	is "$how: start + dur = end on every record" "$sums" 0
done
[ -d "$SW_RESULTS" ] && cp "$TMP/kretprobe.json" "$SW_RESULTS/trace-getppid.json" 2>/dev/null

# Live: a call's line is printed when the call returns, not when the
# command ends.  The command makes 5 getppid calls, then watches the
# trace's output file for their lines, polling every 50 ms for at most
# 10 s, and writes how many it saw, how long after its calls the last
# came and how long its last poll took (ms, by /proc/uptime: 10 ms steps;
# a line is seen at most a pause and a poll after it was printed; a poll runs
# grep twice: long on a slow kernel); then it sleeps 2 s more, still
# traced.
ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }
cat >"$TMP/live.sh" <<'EOF'
out=$1 p=$2 fn=$3
ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }
"$p/getppid_loop" 5 >/dev/null
t0=$(ms) n=0
while :; do
	tp=$(ms)
	n=$(grep "\"name\":\"$fn\"" "$out" | grep -c '"comm":"getppid_loop"')
	t1=$(ms)
	[ "$n" -ge 5 ] || [ $((t1 - t0)) -ge 10000 ] && break
	sleep 0.05
done
echo "$n $((t1 - t0)) $((t1 - tp))" >"$out.seen"
sleep 2
EOF
lt0=$(ms)
"$SW" trace --json "$GETPPID" -- sh "$TMP/live.sh" "$TMP/live.json" "$P" \
	"$GETPPID" >"$TMP/live.json" 2>"$TMP/live.err"
lrc=$? lt1=$(ms)
set -- $(cat "$TMP/live.json.seen" 2>/dev/null) - - -
diag "live: the 5 lines seen $2 ms after the calls (the last poll took $3 ms), the trace took $((lt1 - lt0)) ms"
is "live: trace exit status 0" "$lrc" 0
is "live: the 5 calls' lines printed while the command still ran" "$1" 5
poll=$3
case $poll in '' | *[!0-9]*) poll=0 ;; esac
cmp_le "live: printed within 1 s of the calls (seen within 1 s, a pause, a poll and a tick)" \
	"$2" "$((1000 + 50 + poll + 10))"
is "live: the 5 lines in the final output" \
	"$(grep "\"name\":\"$GETPPID\"" "$TMP/live.json" | grep -c '"comm":"getppid_loop"')" 5
set -- $(summary "$TMP/live.err")
is "live: the loss line, every written record printed" "$5 $(($3 + $4)) $2" "0 0 $6"

# Printing rate, for the record (not a bound): 50000 calls printed live.
rt0=$(ms)
"$SW" trace "$GETPPID" -- "$P/getppid_loop" 50000 >"$TMP/rate.txt" 2>"$TMP/rate.err"
rt1=$(ms)
set -- $(summary "$TMP/rate.err")
diag "rate: $7 lines printed of $1 traced ($3 full, $4 nested) in $((rt1 - rt0)) ms: $(($7 * 1000 / (rt1 - rt0 + 1))) lines/s overall"

# Percentiles (stats p50_ns .. p999_ns, from the log-linear histograms)
# against the exact ones of the same calls: every call's duration is in
# the trace.  The command reads the stats file while the trace's probe is
# still there.  Each estimate must lie in the bucket of the exact value
# (nearest rank), so within 2^-hist_bits of it.
BITS=$(cat /sys/module/stopwatch/parameters/hist_bits 2>/dev/null)
if "$SW" trace --json "$GETPPID" -- sh -c \
	"$P/getppid_loop $N; cat $D/stats >$TMP/pct.stats" \
	>"$TMP/pct.json" 2>"$TMP/pct.err" && [ -s "$TMP/pct.stats" ]; then
	# The trace's probe is tagged: NAME@trPID.
	id=$(awk -v p="$GETPPID@" 'index($1, p) == 1 { print $1; exit }' "$TMP/pct.stats")
	calls=$(col "$id" calls "$TMP/pct.stats")
	jfield dur <"$TMP/pct.json" | sort -n >"$TMP/pct.durs"
	is "percentiles: the stats counted the traced calls" \
		"$calls" "$(wc -l <"$TMP/pct.durs")"
	est=
	for c in p50_ns p90_ns p99_ns p999_ns; do
		est="$est $(col "$id" $c "$TMP/pct.stats")"
	done
	res=$(awk -v est="$est" -v k="$BITS" '
		{ v[NR] = $1 }
		END {
			split(est, e, " "); split("5000 9000 9900 9990", q, " ")
			split("p50 p90 p99 p99.9", name, " ")
			for (i = 1; i <= 4; i++) {
				r = int((NR * q[i] + 9999) / 10000); x = v[r]
				# No ^ (busybox awk may lack math): 2^b <= x < 2^(b+1),
				# the width of a bucket 2^(b-k) above 2^(k+1).
				p = 1
				while (p * 2 <= x) p *= 2
				w = p
				for (j = 0; j < k; j++) w /= 2
				if (w <= 1) { lo = x; hi = x }
				else { lo = int(x / w) * w; hi = lo + w - 1 }
				if (e[i] < lo || e[i] > hi) bad++
				printf "%s %s exact %d [%d, %d] off %.2f%%; ", name[i], e[i], x, lo, hi, 100 * (e[i] - x) / x
			}
			print "bad " bad + 0
		}' "$TMP/pct.durs")
	diag "percentiles (hist_bits=$BITS, $calls calls): $res"
	is "percentiles: p50, p90, p99, p99.9 in the exact value's bucket" \
		"${res##*bad }" 0
else
	not_ok "percentiles: trace $GETPPID" "$(cat "$TMP/pct.err")"
fi

# hist_bits out of range: the load fails naming the value.
unload
load hist_bits=7 >/dev/null 2>&1
is "hist_bits=7: not loaded" "$(loaded && echo loaded || echo no)" no
check "hist_bits=7: the kernel log names the value" \
	sh -c "dmesg | grep -q 'hist_bits=7 is not a number from 0 to 6'"
is "reload stopwatch" "$(load)" ok

# The trampoline (arguments from BTF): 4 threads sleeping 1 ms each.
if "$SW" trace --json --attach trampoline hrtimer_nanosleep -- \
	"$P/tsleep" 4 1 >"$TMP/tr.json" 2>"$TMP/tr.err"; then
	set -- $(summary "$TMP/tr.err")
	diag "trampoline: traced=$1 written=$2 full=$3 nested=$4 missing=$5 read=$6 printed=$7"
	is "trampoline: written + lost = traced, none missing" \
		"$(($2 + $3 + $4)) $5" "$1 0"
	is "trampoline: 4 records of the command's sleeps, 4 threads" \
		"$(grep -c '"name":"hrtimer_nanosleep"' "$TMP/tr.json") $(jfield tid <"$TMP/tr.json" | sort -u | wc -l)" "4 4"
elif grep -q "trampoline\|direct" "$TMP/tr.err"; then
	skip "trace via trampoline: $(tail -n 1 "$TMP/tr.err")"
else
	not_ok "trace via trampoline" "$(cat "$TMP/tr.err")"
fi

# -o then script: the same calls read back from the file.
if "$SW" trace -o "$TMP/g.swd" "$GETPPID" -- "$P/getppid_loop" 300 \
	>/dev/null 2>"$TMP/o.err"; then
	"$SW" script -i "$TMP/g.swd" --json >"$TMP/s.json" 2>"$TMP/s.err"
	is "script --json: 300 call objects" \
		"$(grep -c '^{"type":"call",' "$TMP/s.json")" 300
	check "script --json: every line is one object" \
		sh -c "grep -vc '^{\"type\":\"[a-z]*\",.*}\$' '$TMP/s.json' | grep -qx 0"
	check "script: the comm and exec of the command are there" \
		grep -q '"type":"comm".*getppid_loop' "$TMP/s.json"
	"$SW" script -i "$TMP/g.swd" >"$TMP/s.txt" 2>/dev/null
	is "script text: 300 call lines" \
		"$(grep -c " $GETPPID()\$" "$TMP/s.txt")" 300
	[ -d "$SW_RESULTS" ] && cp "$TMP/g.swd" "$SW_RESULTS/trace-getppid.swd"
else
	rm -f "$TMP/s.json"
	not_ok "trace -o" "$(cat "$TMP/o.err")"
fi
# script's filters read the recording: the kernel cannot change their
# answer (the records they read are checked above on every kernel).
if [ -s "$TMP/s.json" ] && ! once_per_arch; then
	skip "script's filters: checked on 6.1 and in long runs (sw_long=1): reading a recording"
elif [ -s "$TMP/s.json" ]; then
	up0=$(cut -d' ' -f1 /proc/uptime)
	# --min DUR: exactly the calls of the unfiltered output at or over
	# DUR, the median duration (an exact count either way).
	med=$(jfield dur <"$TMP/s.json" | sort -n | sed -n 150p)
	grep '^{"type":"call",' "$TMP/s.json" |
		awk -v m="$med" '{ d = $0; sub(/.*"dur":/, "", d); sub(/,.*/, "", d)
			if (d + 0 >= m + 0) print }' >"$TMP/min.want"
	"$SW" script -i "$TMP/g.swd" --json --min "${med}ns" 2>"$TMP/min.err" |
		grep '^{"type":"call",' >"$TMP/min.got"
	is "script --min ${med}ns: the $(wc -l <"$TMP/min.want") calls at or over it, the same lines" \
		"$(cmp -s "$TMP/min.want" "$TMP/min.got" && wc -l <"$TMP/min.got")" \
		"$(wc -l <"$TMP/min.want")"
	cmp_ge "script --min: at least 150 of the 300" "$(wc -l <"$TMP/min.got")" 150
	"$SW" script -i "$TMP/g.swd" --min 5xs >/dev/null 2>"$TMP/min.err"
	is "script --min 5xs: refused, the value named" \
		"$?:$(grep -c "invalid --min '5xs'" "$TMP/min.err")" "1:1"
	gpid=$(jfield pid <"$TMP/s.json" | sort -u | head -n 1)
	ncpu=$(grep -c '^processor' /proc/cpuinfo)
	is "script --comm getppid_loop -p PID -C 0-$((ncpu - 1)): the 300 calls" \
		"$("$SW" script -i "$TMP/g.swd" --comm getppid_loop -p "$gpid" -C "0-$((ncpu - 1))" 2>/dev/null | grep -c " $GETPPID()\$")" \
		300
	is "script --comm nosuch, -p 1: no call" \
		"$("$SW" script -i "$TMP/g.swd" --comm nosuch 2>/dev/null | grep -c " $GETPPID()\$") $("$SW" script -i "$TMP/g.swd" -p 1 2>/dev/null | grep -c " $GETPPID()\$")" \
		"0 0"
	diag "script filters took $(awk -v a="$up0" '{ printf "%.1f", $1 - a }' /proc/uptime) s"
fi

# --- timelines: script --perfetto and --chrome --------------------------------
# A recording with all a timeline shows: $GETPPID traced with two events'
# deltas while "record -g" samples the command.  Both exports are counted
# by tests/timeline-check.py (its own protobuf reader; python3's json)
# against what script --json reads from the same file: a slice per call,
# a counter value per call and event, a sample per sample.  (The host's
# cli.sh checks the exports of the getppid recording above, kept as a
# fixture.)  The recording and its exports are kept in the results
# directory (trace-timeline.*).
TLC=$SW_REPO/userspace/tests/timeline-check.py
t_tl=$(date +%s)
if [ "$(ctl events cpu-clock,context-switches) $(ctl probes "+$GETPPID trace=on")" = "ok ok" ]; then
	"$SW" record -q -e cpu-clock -F 999 -g -o "$TMP/tl.swd" -- \
		"$P/getppid_loop" 1000 >/dev/null 2>"$TMP/tlrec.err"
	is "timeline recording: record -g of traced calls, exit status 0" "$?" 0 ||
		diag "$(tail -n 3 "$TMP/tlrec.err")"
	ctl probes "-$GETPPID" >/dev/null
	ctl events '' >/dev/null
	t_rec=$(date +%s)
	"$SW" script -i "$TMP/tl.swd" --json --all-pids >"$TMP/tl.json" 2>/dev/null
	t_json=$(date +%s)
	calls=$(grep -c '^{"type":"call",' "$TMP/tl.json")
	samples=$(grep -c '^{"type":"sample",' "$TMP/tl.json")
	diag "timeline recording: $calls calls, $samples samples"
	cmp_ge "timeline recording: the command's 1000 calls" "$calls" 1000
	cmp_gt "timeline recording: some samples" "$samples" 0
	if "$SW" script -i "$TMP/tl.swd" --all-pids --perfetto "$TMP/tl.pftrace" \
		--chrome "$TMP/tl.chrome.json" 2>"$TMP/tl.err"; then
		t_exp=$(date +%s)
		diag "timelines: record $((t_rec - t_tl)) s, script --json $((t_json - t_rec)) s, both exports $((t_exp - t_json)) s"
		is "chrome: an X event per call, an i event per sample" \
			"$(grep -c '"ph":"X"' "$TMP/tl.chrome.json") $(grep -c '"ph":"i"' "$TMP/tl.chrome.json")" \
			"$calls $samples"
		if ! command -v python3 >/dev/null 2>&1; then
			skip "perfetto trace counts: no python3 in this guest"
		elif ! once_per_arch; then
			skip "perfetto trace counts: on 6.1 and in long runs (sw_long=1): the export of a recording whose chrome counts hold"
		elif ! python3 "$TLC" perfetto "$TMP/tl.pftrace" chrome \
			"$TMP/tl.chrome.json" >"$TMP/tl.pf" 2>&1; then
			not_ok "the perfetto and chrome traces hold together" "$(cat "$TMP/tl.pf")"
		else
			diag "$(tr '\n' ' ' <"$TMP/tl.pf")"
			pf() { sed -n "s/^$1=//p" "$TMP/tl.pf"; }
			is "perfetto: a slice begin and end per call, none left open" \
				"$(pf perfetto.begin) $(pf perfetto.end) $(pf perfetto.open)" "$calls $calls 0"
			is "perfetto: a PerfSample per sample" "$(pf perfetto.samples)" "$samples"
			is "perfetto: a counter value per call and event" \
				"$(pf perfetto.counter_values)" "$((calls * 2))"
			check "perfetto: slices named $GETPPID, a thread getppid_loop" \
				sh -c "grep -qx 'perfetto.names=.*$GETPPID.*' '$TMP/tl.pf' && grep -qx 'perfetto.threads=.*getppid_loop.*' '$TMP/tl.pf'"
			is "chrome: the json parses, its stack frames hold together" \
				"$(pf chrome.ph_X)" "$calls"
		fi
	else
		not_ok "script --perfetto --chrome" "$(cat "$TMP/tl.err")"
	fi
	if [ -d "$SW_RESULTS" ]; then
		cp "$TMP/tl.swd" "$SW_RESULTS/trace-timeline.swd"
		cp "$TMP/tl.pftrace" "$SW_RESULTS/trace-timeline.pftrace" 2>/dev/null
		cp "$TMP/tl.chrome.json" "$SW_RESULTS/trace-timeline.chrome.json" 2>/dev/null
	fi
else
	not_ok "timeline recording: events and a traced $GETPPID" "$(cat "$D/last_error" 2>/dev/null)"
	ctl probes "-$GETPPID" >/dev/null 2>&1
	ctl events '' >/dev/null 2>&1
fi
# Bad input: an unwritable output.
"$SW" script -i "$TMP/g.swd" --perfetto /proc/nonexistent/x.pftrace \
	2>"$TMP/bad.err" && rc=0 || rc=$?
check "an unwritable --perfetto file: an error naming it (exit $rc)" \
	sh -c "[ $rc -ne 0 ] && grep -q 'cannot write /proc/nonexistent/x.pftrace' '$TMP/bad.err'"
diag "timelines: $(($(date +%s) - t_tl)) s"

# A call that sleeps on CPU 0 and returns on CPU 1.
if [ "$(grep -c '^processor' /proc/cpuinfo)" -ge 2 ]; then
	"$SW" trace --json hrtimer_nanosleep -- "$P/migrate" 300 \
		>"$TMP/m.json" 2>"$TMP/m.err"
	check "migrate: one call began on CPU 0 and returned on CPU 1" \
		grep -q '"cpu_start":0,"cpu_end":1' "$TMP/m.json"
	cmp_ge "migrate: that call took >= 300 ms" \
		"$(grep '"cpu_start":0,"cpu_end":1' "$TMP/m.json" | jfield dur | head -n 1)" 300000000
else
	skip "migration needs 2 CPUs"
fi

# Several threads: each thread's calls in order; --min in the module.
"$SW" trace --json --min 50ms hrtimer_nanosleep -- \
	sh -c "$P/tsleep 3 100; $P/tsleep 2 1" >"$TMP/t.json" 2>"$TMP/t.err"
is "--min 50ms: the 3 sleeps of 100 ms, not the 2 of 1 ms" \
	"$(grep -c '"name":"hrtimer_nanosleep"' "$TMP/t.json")" 3
is "--min 50ms: 3 threads" "$(jfield tid <"$TMP/t.json" | sort -u | wc -l)" 3
cmp_ge "--min 50ms: the shortest printed is >= 50 ms" \
	"$(jfield dur <"$TMP/t.json" | sort -n | head -n 1)" 50000000

# A user function (uprobe): uw_loop called 8 times.
if [ -x "$P/uwork" ]; then
	"$SW" trace --json "$P/uwork:uw_loop" -- "$P/uwork" loop 8 100 \
		>"$TMP/u.json" 2>"$TMP/u.err"
	is "user function: 8 records of uw_loop" \
		"$(grep -c '"type":"call"' "$TMP/u.json")" 8
else
	skip "uwork not built"
fi

# --graph: sw_testmod's chain, 3 times f1 > f2 > (f3, f3): 12 calls, by
# start, depths 0 1 2 2; each inner call inside the enclosing one (a
# recording printed by script --graph, as trace --graph prints it).
up0=$(cut -d' ' -f1 /proc/uptime)
if insmod "$TMOD" 2>"$TMP/insmod.err"; then
	"$SW" trace -o "$TMP/n.swd" sw_test_f1 sw_test_f2 sw_test_f3 -- \
		"$P/swwrite" "$T/ctl" "chain 3 100 100 100" >/dev/null 2>"$TMP/n.err"
	"$SW" script -i "$TMP/n.swd" --graph --json >"$TMP/n.json" 2>>"$TMP/n.err"
	is "graph: 12 calls, depths 0 1 2 2 x 3" \
		"$(grep -c '"type":"call"' "$TMP/n.json") $(jfield depth <"$TMP/n.json" | tr '\n' ' ')" \
		"12 0 1 2 2 0 1 2 2 0 1 2 2 "
	is "graph: names by depth (f1 0, f2 1, f3 2)" \
		"$(sed -n 's/.*"name":"sw_test_f\([123]\)".*"depth":\([0-9]*\).*/\1\2/p' "$TMP/n.json" | sort -u | tr '\n' ' ')" \
		"10 21 32 "
	bad=$(awk '{ s = $0; sub(/.*"start":/, "", s); sub(/,.*/, "", s)
		e = $0; sub(/.*"end":/, "", e); sub(/,.*/, "", e)
		d = $0; sub(/.*"depth":/, "", d); sub(/,.*/, "", d)
		u = $0; sub(/.*"dur":/, "", u); sub(/,.*/, "", u)
		t = $0; sub(/.*"tid":/, "", t); sub(/,.*/, "", t)
		d += 0; S[d] = s + 0; E[d] = e + 0; U[d] = u + 0; T[d] = t
		if (d > 0 && (s + 0 < S[d - 1] || e + 0 > E[d - 1] ||
		    u + 0 > U[d - 1] || t != T[d - 1])) bad++
		} END { print bad + 0 }' "$TMP/n.json")
	is "graph: every inner call inside its parent (start, end, dur, thread)" "$bad" 0
	"$SW" script -i "$TMP/n.swd" --graph >"$TMP/n.txt" 2>/dev/null
	is "graph text: f1, f2 two spaces under it, f3 four" \
		"$(grep -c "us  sw_test_f1()\$" "$TMP/n.txt") $(grep -c "us    sw_test_f2()\$" "$TMP/n.txt") $(grep -c "us      sw_test_f3()\$" "$TMP/n.txt")" \
		"3 3 6"
	rmmod sw_testmod
	diag "graph checks took $(awk -v a="$up0" '{ printf "%.1f", $1 - a }' /proc/uptime) s"
else
	skip "graph: sw_testmod: $(cat "$TMP/insmod.err")"
fi

# The sampler file counts the records by cause.
check "sampler file: call_taken column" grep -q call_taken "$D/sampler"

# --- exact instructions per traced call (arm64 -icount) ----------------------
# sw_test_caller_a() calls sw_test_target() M times; with instructions
# counted, the caller's count holds the inner probe's handlers: the
# difference with and without trace=on, over M, is what a record costs.
if ! hw_pmu || ! grep -qw sw_icount=1 /proc/cmdline; then
	skip "instructions per traced call: only under QEMU -icount (arm64 --icount boot)"
elif ! insmod "$TMOD" 2>"$TMP/insmod.err"; then
	skip "instructions per traced call: sw_testmod: $(cat "$TMP/insmod.err")"
else
	M=200
	CPU1=/sys/devices/system/cpu/cpu1/online
	[ -w "$CPU1" ] && echo 0 >"$CPU1"
	is "events instructions" "$(ctl events instructions)" ok
	# icost INNER-OPTIONS: the caller's instructions_min over 6 runs.
	icost() {
		ctl probes "+sw_test_caller_a +sw_test_target $1" >/dev/null
		ctl reset 1 >/dev/null
		for i in 1 2 3 4 5 6; do
			"$P/swwrite" "$T/ctl" "callers $M 0" >/dev/null
		done
		col sw_test_caller_a instructions_min
		ctl probes "-sw_test_caller_a -sw_test_target" >/dev/null
	}
	is "sampler start event=none" "$(ctl sampler 'start event=none')" ok
	for how in kretprobe trampoline; do
		extra=
		[ $how = trampoline ] && extra="attach=trampoline args=1"
		plain=$(icost "$extra")
		traced=$(icost "$extra trace=on")
		case "$plain $traced" in
		*absent*|" "*|*" ") plain= ;;
		esac
		if [ -z "$plain" ] || [ -z "$traced" ]; then
			skip "$how: instructions per traced call: probes not added ($how)"
			continue
		fi
		per=$(( (traced - plain) / M ))
		diag "$how: caller of $M calls: $plain instructions aggregated only, $traced traced: $per per traced call (a 40-byte record: time and one event)"
		# The goal is 120; this bound keeps what is reached from growing.
		cmp_le "$how: a traced call costs <= 300 instructions more ($per)" "$per" 300
	done
	is "sampler stop" "$(ctl sampler stop)" ok
	[ -w "$CPU1" ] && echo 1 >"$CPU1"
	unload
	rmmod sw_testmod 2>/dev/null
	is "reload stopwatch" "$(load)" ok
fi

is "probes removed after trace" "$(grep -c trace= "$D/probes")" 0
is "unload" "$(unload && echo ok)" ok
