# SPDX-License-Identifier: GPL-2.0
# tests/vm/suites/span.sh - spans: the time between a start point and a
# stop point with the same key.
#
#   queues     sw_testmod's items held 8.8, 17.6 and 35.2 ms in queue 1
#              and 17.6 ms in queue 2: exact counts per span and exact histogram
#              buckets (holds spin with interrupts off, just above the
#              low end of their log2 buckets: a loaded host stalls the
#              guest for several ms at times, a bucket of 8 ms or more
#              leaves room for it),
#              the per-hop time of a self-paired point; a traced span
#              (stopwatch span --keep --trace): one record per interval,
#              exactly, named, keyed, timed, losses counted
#   workqueue  __queue_work -> process_one_work keyed by the work item
#              (names through BTF), a test work item held 17 ms behind
#              another on an ordered workqueue: exact count, bucket 16-32 ms
#   fork       a program forking N times: the parent's kernel_clone rows
#              and the child's wake_up_new_task -> schedule_tail rows, N each
#   limits     dropped_full, unmatched, abandoned, restarted, unreadable
#              each provoked and counted exactly; bad input refused with
#              the right errno, nothing changed
#   user       user points: uwork's uw_call return -> next entry keyed by
#              the value passed on (999 of 1000, exact), uw_sleep ->
#              hrtimer_nanosleep%return keyed by tid (user to kernel),
#              reads of user memory through a bad pointer (unreadable)
#   tpmod      a span on sw_testmod's own tracepoint: exact count; the
#              module unloaded under it (points detached, counted), loaded
#              again (they stay detached); a module not loaded: ENOENT
#   runqlat    run-queue latency (tracepoints) against runqlat in the
#              same guest (x86_64; the arm64 guests have no bcc)
#   events     CPU events per interval on one thread: sw_test_loop's entry
#              -> return keyed by tid; under arm64 -icount (where this
#              section runs alone) exact instruction counts: identical on
#              every call, +4000 for 2000 more loop iterations; elsewhere
#              cpu-clock; with the fork spans, the parent's rows carry
#              events and the child's (stopped on another thread) count as
#              other_thread and unmeasured
#
# Runs in the guest with the repository top as the working directory;
# span.prepare builds what it needs.

. "$SW_REPO/tests/vm/tap.sh"
. "$SW_REPO/tests/vm/lib.sh"

U=$P/uwork
R=${SW_RESULTS:-/tmp}/span
mkdir -p "$R"

[ -x "$SW" ] || skip_all "$SW not built (see span.prepare)"
[ -r "$MOD" ] && [ -r "$TMOD" ] || skip_all "stopwatch.ko or sw_testmod.ko not built"
[ -x "$P/forker" ] && [ -x "$U" ] || skip_all "$P/forker or $U not built (see span.prepare)"

# scol SPAN COLUMN: a span's value in a span_stats column.
scol() { col "$1" "$2" "$D/span_stats"; }

# hcount FILE VALUE: the count of the histogram bucket starting at VALUE.
hcount() {
	awk -v v="$2" '$1 == v && $2 ~ /^\|/ { print $NF; f = 1 }
		END { if (!f) print 0 }' "$1"
}

# hsum FILE: the sum of all buckets.
hsum() { awk '$2 ~ /^\|/ && $1 ~ /^[0-9]+$/ { s += $NF } END { print s + 0 }' "$1"; }

tctl() { echo "$1" > "$T/ctl"; }

# refcheck WHAT KIND HIST: HIST's buckets hold exactly what sw_testmod
# measured of the same waits (its spanref line KIND: "LOW:COUNT ...
# straddle N"), bucket by bucket.  A loaded host can stall the guest
# for a long time (a single-threaded TCG guest runs its vCPUs in turn):
# the module's own brackets of each wait absorb that, and a wait whose
# brackets straddle two buckets (a stall right at a call) is said.
refcheck() {
	_ref=$(awk -v k="$2" '$1 == k' "$T/spanref")
	_str=${_ref##* straddle }
	diag "$1: sw_testmod measured: $_ref"
	if [ "$_str" != 0 ]; then
		skip "$1: $_str wait(s) straddled two buckets (a guest stall at a call): buckets not comparable"
		return
	fi
	_ok=1
	for _p in $(echo "$_ref" | cut -d' ' -f2- | sed 's/ straddle.*//'); do
		[ "$(hcount "$3" "${_p%%:*}")" = "${_p#*:}" ] || _ok=0
	done
	[ "$(hsum "$3")" = "$(echo "$_ref" | tr ' ' '\n' | awk -F: 'NF == 2 { s += $2 } END { print s + 0 }')" ] || _ok=0
	if [ $_ok = 1 ]; then
		ok "$1: histogram buckets equal the module's own measure"
	else
		not_ok "$1: histogram buckets equal the module's own measure"
		sed 's/^/#   /' "$3"
	fi
}

# The event counted per interval: exact instructions under arm64 -icount,
# else a software event every kernel has.
# EXACT: exact counts are read through exact_run (tap.sh), which repeats
# a run that an interrupt landed in.
if hw_pmu && grep -qw sw_icount=1 /proc/cmdline; then
	EV=instructions EXACT=exact_run
else
	EV=cpu-clock EXACT=
fi

# evrun N: reset, four intervals of sw_test_loop(N); "calls EV_min EV_max
# EV_unmeasured other_thread ev_lost ev_no_slot ev_too_deep EV_avg" of
# span ev.
evrun() {
	ctl spans reset >/dev/null
	for _i in 1 2 3 4; do tctl "loop $1"; done
	cp "$D/span_stats" "$R/ev-$1.stats"
	for _c in calls ${EV}_min ${EV}_max ${EV}_unmeasured other_thread \
		ev_lost ev_no_slot ev_too_deep ${EV}_avg; do
		printf '%s ' "$(scol ev $_c)"
	done
}

# up_ms: milliseconds since boot (/proc/uptime, to the hundredth).
up_ms() {
	read -r _up _idle </proc/uptime
	_ms=${_up#*.}
	echo $(( ${_up%.*} * 1000 + ${_ms#0} * 10 ))
}

# The points named through BTF (p->pid, work->func) need the kernel's BTF;
# a kernel built without it (the debug kernel by default) has none.
BTF=/sys/kernel/btf/vmlinux

# sched_clock_stable: whether this guest's sched_clock (what cpu-clock
# counts with, perf's local_clock()) is stable.  x86_64: the kernel says
# "sched_clock: Marking stable" once it is and "Marking unstable" if it
# stops being so; an unsynchronized TSC (a loaded host at boot, the
# clocksource then hpet) never gets there.  Unstable, it is clamped to the
# tick and can stand still through a whole interval (read 0).  Unknown
# (the boot's first lines gone from the log) counts as stable only with
# the TSC as clocksource.  Elsewhere: stable.
sched_clock_stable() {
	[ "$SW_ARCH" = x86_64 ] || return 0
	grep -qx tsc "$CLOCKSOURCE" 2>/dev/null || return 1
	dmesg >"$TMP/dmesg" 2>/dev/null || return 0
	grep -q 'sched_clock: Marking unstable' "$TMP/dmesg" && return 1
	grep -q 'sched_clock: Marking stable' "$TMP/dmesg" && return 0
	# No word either way: from the boot's start, it never became stable.
	! head -n 1 "$TMP/dmesg" | grep -q '^\[ *0\.000000\]'
}

CPU1=/sys/devices/system/cpu/cpu1/online
CLOCKSOURCE=/sys/devices/system/clocksource/clocksource0/current_clocksource
cpu1_set() { [ -w "$CPU1" ] && echo "$1" >"$CPU1" 2>/dev/null; }

# uevrun LEN: reset, uwork's uw_warm() then uw_loop(LEN) 8 times under
# span uev; "calls EV_min EV_max EV_unmeasured other_thread restarted".
uevrun() {
	ctl spans reset >/dev/null
	"$U" loop 8 "$1" >/dev/null
	cp "$D/span_stats" "$R/uev-$1.stats"
	for _c in calls ${EV}_min ${EV}_max ${EV}_unmeasured other_thread \
		restarted; do
		printf '%s ' "$(scol uev $_c)"
	done
}

span_events() {
	# icount: one CPU online (QEMU's count is global: a second vCPU
	# running meanwhile would show in this one's counts).
	[ $EV = instructions ] && cpu1_set 0
	is "events $EV" "$(ctl events $EV)" ok
	is "add span ev (sw_test_loop entry -> return, keyed by tid, by=comm)" \
		"$(ctl spans "+ev start=sw_test_loop:tid stop=sw_test_loop%return:tid by=comm")" ok
	check "span_stats has ${EV}_avg" grep -qw "${EV}_avg" "$D/span_stats"
	if [ $EV = instructions ]; then n1=1000 n2=3000; else n1=100000 n2=300000; fi
	evrun $n1 >/dev/null	# warm-up: the probed paths translated once
	set -- $($EXACT evrun $n1)
	diag "loop $n1: calls $1 ${EV} min $2 max $3 unmeasured $4 other_thread $5 ev_lost $6 ev_no_slot $7 ev_too_deep $8"
	is "ev: 4 intervals" "$1" 4
	is "ev: none unmeasured" "$4" 0
	is "ev: other_thread 0" "$5" 0
	is "ev: ev_lost, ev_no_slot, ev_too_deep 0" "$6 $7 $8" "0 0 0"
	a_min=$2 a_max=$3
	set -- $($EXACT evrun $n2)
	diag "loop $n2: calls $1 ${EV} min $2 max $3 avg $9 unmeasured $4"
	is "ev: 4 intervals again, none unmeasured" "$1 $4" "4 0"
	if [ $EV = instructions ]; then
		is "ev: the same instructions on every interval (loop $n1)" "$a_min" "$a_max"
		is "ev: the same instructions on every interval (loop $n2)" "$2" "$3"
		is "ev: loop $n2 - loop $n1 = $((2 * (n2 - n1))) instructions exactly" \
			"$(($2 - a_min))" "$((2 * (n2 - n1)))"
	elif ! sched_clock_stable; then
		why=$(grep -o 'sched_clock: Marking [a-z]*' "$TMP/dmesg" 2>/dev/null | tail -n 1)
		skip "ev: cpu-clock of the loops: sched_clock not stable in this guest (clocksource $(cat "$CLOCKSOURCE" 2>/dev/null), ${why:-sched_clock never marked stable})"
		skip "ev: least cpu-clock of loop $n2 > loop $n1's: the same"
	else
		cmp_gt "ev: cpu-clock_min > 0" "$a_min" 0
		# The least, not the mean: the host preempting a vCPU adds to
		# an interval's clock, never takes from it.
		cmp_gt "ev: least cpu-clock of loop $n2 > loop $n1's" "$2" "$a_min"
	fi
	# span_keys: the rows carry <event>_avg, as the keys file's do.
	cp "$D/span_keys" "$R/ev.keys"
	if [ $EV = instructions ]; then
		is "ev: span_keys row (comm) with ${EV}_avg = the intervals' (span_stats ${EV}_min)" \
			"$(col ev ${EV}_avg "$D/span_keys")" "$(scol ev ${EV}_min)"
	else
		cmp_gt "ev: span_keys row (comm) with ${EV}_avg > 0" \
			"$(col ev ${EV}_avg "$D/span_keys")" 0
	fi
	"$SW" stat --raw >"$TMP/evstat.out" 2>&1
	check "stopwatch stat shows span ev with ${EV}_avg" \
		sh -c "grep -qw '${EV}_avg' '$TMP/evstat.out' && grep -q '^ev ' '$TMP/evstat.out'"
	is "remove ev" "$(ctl spans -ev)" ok
	# A traced span's record carries its interval's events: the same
	# counts as the span's statistics (one interval: its min).
	evt0=$(up_ms)
	"$SW" span --keep --trace --name evt --start sw_test_loop:tid \
		--stop sw_test_loop%return:tid >/dev/null 2>"$TMP/evt.err"
	"$SW" trace --spans --json -- sh -c "echo 'loop $n1' > $T/ctl" \
		>"$TMP/evt.json" 2>>"$TMP/evt.err"
	evr=$(sed -n 's/.*"span":true.*"ev":\[\([0-9]*\)\],"ev_bad":\([0-9]*\).*/\1 \2/p' "$TMP/evt.json")
	is "evt: one record, with its ${EV} count, not marked bad" \
		"$(grep -c '"span":true' "$TMP/evt.json") $(echo "$evr" | awk '{ print $2 }')" "1 0"
	is "evt: the record's ${EV} = the span's ${EV}_min" \
		"${evr% *}" "$(scol evt ${EV}_min)" || cat "$TMP/evt.err"
	is "remove evt" "$(ctl spans -evt)" ok
	diag "traced span with events took $(( $(up_ms) - evt0 )) ms"
	# stopwatch span's report shows the event columns too.
	"$SW" span --raw --start sw_test_loop:tid --stop sw_test_loop%return:tid -- \
		sh -c "echo 'loop $n1' > $T/ctl" >"$TMP/evcli.out" 2>"$TMP/evcli.err"
	is "stopwatch span -- COMMAND with events exits 0" "$?" 0 || cat "$TMP/evcli.err"
	cp "$TMP/evcli.out" "$R/evcli.out"
	is "stopwatch span: calls 1, ${EV}_unmeasured 0" \
		"$(awk '$1 == "calls" || $1 == "'${EV}'_unmeasured" { printf "%s ", $2 }' "$TMP/evcli.out")" "1 0 "
	check "stopwatch span: the report has ${EV}_avg" \
		grep -q "^  ${EV}_avg " "$TMP/evcli.out"
	# A single interval: a bound only for the exact instructions (with
	# task-clock one such interval read 0 on x86_64 6.1).
	[ $EV = instructions ] && cmp_gt "stopwatch span: ${EV}_avg > 0" \
		"$(awk '$1 == "'${EV}'_avg" { print $2 }' "$TMP/evcli.out")" 0

	# A user function's entry -> return, keyed by tid.  uw_warm starts
	# too (each process calls it once before its loops): the first hit
	# of a uprobe in a process maps the process's uprobe area, which
	# would land in the first loop's interval otherwise; its start is
	# replaced by the first uw_loop's (restarted).
	"$SW" span --keep --name uev --start "$U:uw_warm:tid" \
		--start "$U:uw_loop:tid" \
		--stop "$U:uw_loop%return:tid" 2>"$TMP/uev.err"
	is "span uev (uwork:uw_warm, uw_loop entry -> uw_loop return, user points)" "$?" 0 ||
		cat "$TMP/uev.err"
	# Exact counts under -icount: short loops; cpu-clock elsewhere: long
	# enough to stand out of the uprobes' own time.
	if [ $EV = instructions ]; then ul="1000 2000 4000"; else ul="100000 200000 400000"; fi
	set -- $ul
	ul1=$1 ul3=$3
	uevrun $ul1 >/dev/null
	for n in $ul; do
		set -- $($EXACT uevrun $n)
		diag "uw_loop($n) x 8: calls $1 ${EV} min $2 max $3 unmeasured $4 other_thread $5"
		is "uev: uw_loop($n) x 8: 8 intervals, none unmeasured, other_thread 0, uw_warm's start restarted" \
			"$1 $4 $5 $6" "8 0 0 1"
		[ $EV = instructions ] &&
			is "uev: uw_loop($n): the same instructions on every interval" "$2" "$3"
		eval "UI$n=$2 UX$n=$3"
	done
	if [ $EV = instructions ]; then
		d1=$((UI2000 - UI1000))
		is "uev: linear: I(4000) - I(2000) == 2 x (I(2000) - I(1000))" \
			"$((UI4000 - UI2000))" "$((2 * d1))"
		is "uev: a whole number of instructions per iteration ($d1 per 1000)" \
			"$((d1 % 1000))" 0
		cmp_gt "uev: more iterations, more instructions" "$d1" 0
	else
		# One cpu-clock read that comes out short (sched_clock under
		# TCG) must not decide it, nor one interval the loaded host
		# stretched: the longer loop must win on the longest or on the
		# shortest of its 8 intervals.
		eval "a=\$UX$ul3 b=\$UX$ul1 c=\$UI$ul3 d=\$UI$ul1"
		w=0
		[ "$a" -gt "$b" ] || [ "$c" -gt "$d" ] && w=1
		is "uev: cpu-clock of uw_loop($ul3) > uw_loop($ul1)'s (longest or shortest of 8: $a > $b or $c > $d)" "$w" 1
	fi
	is "remove uev" "$(ctl spans -uev)" ok
	[ $EV = instructions ] && cpu1_set 1
	is "no events after the events section" "$(ctl events '')" ok
}

unload
rmmod sw_testmod 2>/dev/null
is "module loads" "$(load)" ok || skip_all "stopwatch.ko did not load"
is "insmod sw_testmod" "$(insmod "$TMOD" 2>&1 && echo ok)" ok ||
	skip_all "sw_testmod.ko did not load"
check "spans, span_stats, span_keys and span_hist/ exist" \
	test -w "$D/spans" -a -r "$D/span_stats" -a -r "$D/span_keys" -a -d "$D/span_hist"

# span_trace_cost: under -icount, the instructions a traced span's record
# adds per interval: sw_test_caller_a() calls sw_test_target() M times,
# a span times each of those calls (entry -> return by tid); the caller's
# instructions_min holds the span's handlers, with and without trace=on
# (the sampler running, event=none, so that every record is written).
span_trace_cost() {
	M=200
	cpu1_set 0
	is "trace cost: events instructions" "$(ctl events instructions)" ok
	is "trace cost: sampler start event=none" "$(ctl sampler 'start event=none')" ok
	# scost OPTS: the caller's instructions_min over 6 runs.
	scost() {
		ctl spans "+sc start=sw_test_target:tid stop=sw_test_target%return:tid $1" >/dev/null
		ctl probes "+sw_test_caller_a" >/dev/null
		ctl reset 1 >/dev/null
		for _i in 1 2 3 4 5 6; do
			tctl "callers $M 0"
		done
		col sw_test_caller_a instructions_min
		ctl probes "-sw_test_caller_a" >/dev/null
		ctl spans -sc >/dev/null
	}
	plain=$(scost "")
	traced=$(scost "trace=on")
	if [ -z "$plain" ] || [ -z "$traced" ] || [ "$plain" = absent ] ||
	   [ "$traced" = absent ]; then
		skip "trace cost: the caller's instructions not read ($plain, $traced)"
	else
		per=$(( (traced - plain) / M ))
		diag "trace cost: caller of $M intervals: $plain instructions untraced, $traced traced: $per per traced interval (a 48-byte record: time, key, one event)"
		cmp_le "trace cost: a traced interval costs <= 300 instructions more ($per)" "$per" 300
	fi
	is "trace cost: sampler stop" "$(ctl sampler stop)" ok
	is "trace cost: no events" "$(ctl events '')" ok
	cpu1_set 1
}

if [ $EV = instructions ]; then
	# arm64 -icount: the exact instruction counts alone (a short boot).
	span_events
	span_trace_cost
	unload
	rmmod sw_testmod
	rm -rf "$TMP"
	exit 0
fi

# --- queues: exact counts and buckets ---------------------------------------
# q->id is the first field of struct sw_spanq: arg0+0/4 (the test module
# has no BTF: raw keys).
Q1='sw_spanq_add:arg1?arg0+0/4==1'
Q1S='sw_spanq_del:arg1?arg0+0/4==1'
Q2='sw_spanq_add:arg1?arg0+0/4==2'
Q2S='sw_spanq_del:arg1?arg0+0/4==2'
is "add span q1" "$(ctl spans "+q1 start=$Q1 stop=$Q1S")" ok
is "add span q2" "$(ctl spans "+q2 start=$Q2 stop=$Q2S by=comm")" ok
is "spans lists both" "$(cut -d' ' -f1 "$D/spans" | tr '\n' ' ')" "+q1 +q2 "
# A warm-up round, so that the probed paths are translated once (TCG).
tctl "spanq 4 100 100"
is "reset after the warm-up" "$(ctl spans reset)" ok
tctl "spanref reset"
tctl "spanq 5 8800 17600"
tctl "spanq 3 17600 17600"
tctl "spanq 2 35200 17600"
cp "$D/span_stats" "$R/queues.stats"
cp "$D/span_hist/q1" "$R/q1.hist"
cp "$D/span_hist/q2" "$R/q2.hist"
is "q1: 10 intervals" "$(scol q1 calls)" 10
cp "$T/spanref" "$R/queues.ref"
# Nominally 5 in [8388608, 16777216), 3 in [16777216, 33554432), 2 in
# [33554432, 67108864) ns.
refcheck "q1 (held 8.8, 17.6, 35.2 ms)" q1 "$R/q1.hist"
cmp_ge "q1: min_ns >= 8.8 ms" "$(scol q1 min_ns)" 8800000
is "q2: 10 intervals" "$(scol q2 calls)" 10
refcheck "q2 (held 17.6 ms)" q2 "$R/q2.hist"
for c in unmatched dropped_full unreadable abandoned; do
	is "q1: $c 0" "$(scol q1 $c)" 0
done
is "q1: 20 hits skipped by the condition (queue 2's)" "$(scol q1 skipped)" 20
is "q1: nothing in flight" "$(scol q1 in_flight)" 0
is "q2: rows by comm: the writer's 10" \
	"$(awk '$1 == "q2" && $2 ~ /^comm=/ { print $3 }' "$D/span_keys")" 10
is "reset" "$(ctl spans reset)" ok
is "q1: 0 after reset" "$(scol q1 calls)" 0
is "q1: skipped 0 after reset" "$(scol q1 skipped)" 0
is "remove q1 q2" "$(ctl spans -q1; ctl spans -q2)" "ok
ok"
is "no spans left" "$(cat "$D/spans")" ""

# Per hop: successive adds of one item (self-paired point): the time it
# spent in queue 1 before it was added to queue 2.
is "add self-paired span hop" \
	"$(ctl spans "+hop start=sw_spanq_add:arg1 stop=sw_spanq_add:arg1")" ok
tctl "spanref reset"
tctl "spanq 4 17600 100"
cp "$D/span_hist/hop" "$R/hop.hist"
is "hop: 4 intervals (one per item)" "$(scol hop calls)" 4
refcheck "hop (17.6 ms in queue 1)" hop "$R/hop.hist"
is "hop: 8 hits started (each add opens the next interval)" "$(scol hop started)" 8
is "hop: the 4 last adds in flight" "$(scol hop in_flight)" 4
is "hop: unmatched 0" "$(scol hop unmatched)" 0
is "remove hop" "$(ctl spans -hop)" ok

# A traced span: each interval a record in the recording of
# "stopwatch trace --spans", as many as the span counted.  In the same
# recording, a traced span bt keyed by tid with by=key rows: three
# processes make 1, 2 and 3 intervals, each a row of its own keyed by its
# tid, in script --by and in span_keys
# (userspace/tests/fixtures/trace/span-tid-x86_64.swd is a recording of bt
# alone).
tq0=$(up_ms)
"$SW" span --keep --trace --name tq --start "$Q1" --stop "$Q1S" 2>"$TMP/tq.err"
is "span --keep --trace: added, its line with trace=on id=N" \
	"$?:$(grep -c '^+tq .* trace=on id=[0-9][0-9]*$' "$D/spans")" "0:1"
bt0=$(up_ms)
is "add traced span bt (sw_test_loop entry -> return, keyed by tid, by=key)" \
	"$(ctl spans "+bt start=sw_test_loop:tid stop=sw_test_loop%return:tid by=key trace=on")" ok
btms=$(( $(up_ms) - bt0 ))
# bp: the same intervals keyed by a pair (tid,pid), by=key: rows by both
# values (each process here has one thread: tid = pid).
is "add span bp (keyed by the pair tid,pid, by=key)" \
	"$(ctl spans "+bp start=sw_test_loop:tid,pid stop=sw_test_loop%return:tid,pid by=key")" ok
"$SW" trace --spans -o "$R/spans.swd" -- sh -c "echo 'spanq 5 200 0' > $T/ctl
	(echo 'loop 10' > $T/ctl)
	(for i in 1 2; do echo 'loop 10' > $T/ctl; done)
	(for i in 1 2 3; do echo 'loop 10' > $T/ctl; done)" \
	>/dev/null 2>"$TMP/tq.err"
is "trace --spans -o exits 0" "$?" 0 || cat "$TMP/tq.err"
"$SW" script -i "$R/spans.swd" --json >"$TMP/tq.json" 2>"$TMP/tq.err"
tqn=$(grep -c '"name":"tq","span_name":"tq",.*"span":true' "$TMP/tq.json")
is "tq: 5 records, 5 intervals counted" "$tqn $(scol tq calls)" "5 5"
tqloss=$(sed -n 's/.*: \([0-9]*\) calls traced, \([0-9]*\) written, lost: \([0-9]*\) buffer full, \([0-9]*\) nested, \([0-9]*\) missing.*/\1 \2 \3 \4 \5/p' "$TMP/tq.err")
is "tq, bt: 11 traced = written, none lost or missing" \
	"$(echo "$tqloss" | awk '{ print $1, ($1 == $2), $3, $4, $5 }')" "11 1 0 0 0"
tqbad=$(awk '/"span_name":"tq"/ { d = $0; sub(/.*"dur":/, "", d); sub(/,.*/, "", d)
	k = $0; if (k !~ /"key0":[0-9]/ || d + 0 < 200000) bad++ } END { print bad + 0 }' "$TMP/tq.json")
is "tq: each record has its key and lasts >= the 200 us hold" "$tqbad" 0
"$SW" script -i "$R/spans.swd" >"$TMP/tq.txt" 2>/dev/null
is "script text: 5 lines 'span tq key=0x...'" \
	"$(grep -c ' span tq key=0x[0-9a-f]*$' "$TMP/tq.txt")" 5
bt0=$(up_ms)
"$SW" script -i "$R/spans.swd" --by key,tid --json >"$TMP/by.json" 2>/dev/null
is "script --by key,tid: tq, 5 rows (one per item) of 1 interval" \
	"$(grep -c '^{"type":"by","name":"tq","span":true,"key":[0-9]*,"tid":[0-9]*,"calls":1,' "$TMP/by.json")" 5
is "script --by key,tid: bt, rows of 1, 2 and 3 intervals, the key the tid" \
	"$(sed -n 's/^{"type":"by","name":"bt","span":true,"key":\([0-9]*\),"tid":\1,"calls":\([0-9]*\),.*/\2/p' "$TMP/by.json" | sort -n | tr '\n' ' ')" "1 2 3 "
is "span_keys by=key: the same rows, 'key=0x<tid> calls' each" \
	"$(awk '$1 == "bt" { print $2, $3 }' "$D/span_keys" | sort)" \
	"$(sed -n 's/^{"type":"by","name":"bt","span":true,"key":\([0-9]*\),"tid":[0-9]*,"calls":\([0-9]*\),.*/\1 \2/p' "$TMP/by.json" |
		while read -r k n; do printf 'key=0x%x %s\n' "$k" "$n"; done | sort)"
is "span_keys by=key of a pair key: bt's rows, 'key=0x<tid>,key=0x<pid>' each" \
	"$(awk '$1 == "bp" { print $2, $3 }' "$D/span_keys" | sort)" \
	"$(awk '$1 == "bt" { print $2 "," $2, $3 }' "$D/span_keys" | sort)"
cmp_ge "  bp has the 3 rows of 1, 2 and 3 intervals" "$(awk '$1 == "bp"' "$D/span_keys" | wc -l)" 3
is "by=key,pid of a pair key: refused" \
	"$(ctl spans "+bq start=sw_test_loop:tid,pid stop=sw_test_loop%return:tid,pid by=key,pid")" EINVAL
check "  last_error says by=key of a pair key takes no second key" \
	grep -qF "by=key of a span whose key is a pair" "$D/last_error"
is "a probe's by=key: refused" "$(ctl probes "+sw_test_loop by=key")" EINVAL
check "last_error names by=key" grep -qF "by=key is a span's pairing key" "$D/last_error"
diag "of which adding bt: $btms ms; script --by and by=key checks: $(( $(up_ms) - bt0 )) ms"
is "remove tq, bt, bp" "$(ctl spans -tq; ctl spans -bt; ctl spans -bp)" "ok
ok
ok"
"$SW" span --trace --start "$Q1" --stop "$Q1S" -d 1 >/dev/null 2>"$TMP/tq.err"
is "span --trace without --keep: refused" \
	"$?:$(grep -c 'trace goes with --keep' "$TMP/tq.err")" "1:1"
diag "traced span checks took $(( $(up_ms) - tq0 )) ms"

# The program, one-shot, raw keys on the test module.
tctl "spanref reset"
"$SW" span --raw --start "$Q1" --stop "$Q1S" --name q1cli --by key -- \
	sh -c "echo 'spanq 6 8800 0' > $T/ctl" >"$TMP/cli.out" 2>"$TMP/cli.err"
is "stopwatch span -- COMMAND exits 0" "$?" 0 || cat "$TMP/cli.err"
cp "$TMP/cli.out" "$R/cli.out"
is "stopwatch span: calls 6" "$(awk '$1 == "calls" { print $2 }' "$TMP/cli.out")" 6
refcheck "stopwatch span (held 8.8 ms)" q1 "$TMP/cli.out"
is "stopwatch span --by key: its rows, one per item, 1 interval each" \
	"$(awk '$1 ~ /^key=0x[0-9a-f]+$/ { n++; c += $2 } END { print n + 0, c + 0 }' "$TMP/cli.out")" "6 6" ||
	cat "$TMP/cli.out"
is "stopwatch span: its span removed" "$(cat "$D/spans")" ""
"$SW" span --start "$Q1" --stop "$Q1S" -u us --json -- \
	sh -c "echo 'spanq 3 8800 0' > $T/ctl" >"$TMP/cli.json" 2>"$TMP/cli.err"
is "stopwatch span --json exits 0" "$?" 0 || cat "$TMP/cli.err"
check "stopwatch span --json: calls 3" grep -q '"calls":3,' "$TMP/cli.json"

# --- workqueue latency, names through BTF -----------------------------------
if [ -r "$BTF" ]; then
	A=$(awk '$3 == "sw_spanwork_item" { print $1; exit }' /proc/kallsyms)
	"$SW" span --keep --name wq --start "__queue_work:work?work->func==0x$A" \
		--stop "process_one_work:work?work->func==0x$A" 2>"$TMP/wq.err"
	is "stopwatch span --keep wq (BTF names)" "$?" 0 || cat "$TMP/wq.err"
	grep '^+wq' "$D/spans" | tee "$R/wq.line" | sed 's/^/# /'
	check "wq: work resolved to arg2 / arg1, func to +24" \
		grep -q 'start=__queue_work:arg2?arg2+24==0x.* stop=process_one_work:arg1?arg1+24==0x' "$R/wq.line"
	tctl "spanref reset"
	tctl "spanwork 8 17000"
	cp "$D/span_hist/wq" "$R/wq.hist"
	cp "$D/span_stats" "$R/wq.stats"
	is "wq: 8 work items" "$(scol wq calls)" 8
	refcheck "wq (held 17 ms behind another)" wq "$R/wq.hist"
	is "wq: unmatched 0" "$(scol wq unmatched)" 0
	"$SW" stat >"$TMP/stat.out" 2>&1
	check "stopwatch stat shows span wq" grep -q '^wq ' "$TMP/stat.out"
	is "stopwatch span --remove wq" "$("$SW" span --remove wq 2>&1 && echo ok)" ok
else
	skip "no $BTF (a kernel without BTF): workqueue check by BTF names"
fi

# --- fork: the parent's and the child's rows --------------------------------
if [ -r "$BTF" ]; then
	"$SW" span --keep --name fork_parent --start kernel_clone:tid \
		--stop kernel_clone%return:tid --comm swforker 2>"$TMP/f.err"
	is "span fork_parent" "$?" 0 || cat "$TMP/f.err"
	"$SW" span --keep --name fork_child --start 'wake_up_new_task:p->pid' \
		--stop schedule_tail:tid --comm swforker 2>"$TMP/f.err"
	is "span fork_child (p->pid through BTF)" "$?" 0 || cat "$TMP/f.err"
	is "events $EV for the fork spans" "$(ctl events $EV)" ok
	"$P/forker" 25 swforker >/dev/null
	cp "$D/span_stats" "$R/fork.stats"
	is "fork_parent: 25 rows" "$(scol fork_parent calls)" 25
	is "fork_child: 25 rows" "$(scol fork_child calls)" 25
	is "fork_parent: the parent's events on every row (other_thread, unmeasured, ev_lost)" \
		"$(scol fork_parent other_thread) $(scol fork_parent ${EV}_unmeasured) $(scol fork_parent ev_lost)" "0 0 0"
	# Every row measured (above); counts on the whole: cpu-clock follows
	# local_clock(), which an unstable sched_clock (TCG without -icount)
	# holds at the last tick + 1 tick until the next tick: one row of a
	# run on x86_64 6.1 read 0 over 453 us of wall time.
	cmp_gt "fork_parent: ${EV}_avg > 0" "$(scol fork_parent ${EV}_avg)" 0
	is "fork_child: stopped on the child: 25 other_thread, 25 unmeasured" \
		"$(scol fork_child other_thread) $(scol fork_child ${EV}_unmeasured)" "25 25"
	is "no events again" "$(ctl events '')" ok
	is "remove the fork spans" \
		"$(ctl spans -fork_parent; ctl spans -fork_child)" "ok
ok"
else
	skip "no $BTF (a kernel without BTF): fork check by BTF names"
fi

# --- events per interval on one thread --------------------------------------
span_events

# --- user points ------------------------------------------------------------
# Each return of uw_call to the next call, keyed by the value passed on
# (uwork chains x = uw_call(x)): 999 intervals of 1000 calls, the first
# entry unmatched, the last return in flight.
"$SW" span --keep --name uchain --start "$U:uw_call%return:retval/4" \
	--stop "$U:uw_call:arg0/4" 2>"$TMP/uc.err"
is "span uchain (uw_call%return:retval -> uw_call:arg0)" "$?" 0 || cat "$TMP/uc.err"
grep '^+uchain' "$D/spans" | tee "$R/uchain.line" | sed 's/^/# /'
check "uchain: points resolved to PATH:0xOFFSET" \
	grep -q "^+uchain start=$(readlink -f "$U"):0x[0-9a-f]*%return:retval/4 stop=$(readlink -f "$U"):0x[0-9a-f]*:arg0/4" "$R/uchain.line"
"$U" calls 1000
cp "$D/span_stats" "$R/uchain.stats"
is "uchain: 999 intervals" "$(scol uchain calls)" 999
is "uchain: 1 unmatched (the first entry), 1 in flight (the last return)" \
	"$(scol uchain unmatched) $(scol uchain in_flight)" "1 1"
is "uchain: 1000 started" "$(scol uchain started)" 1000
is "remove uchain" "$(ctl spans -uchain)" ok

# A user function's entry to a kernel function's return, keyed by tid.
"$SW" span --keep --name usleep --start "$U:uw_sleep:tid" \
	--stop hrtimer_nanosleep%return:tid 2>"$TMP/us.err"
is "span usleep (uw_sleep -> hrtimer_nanosleep%return)" "$?" 0 || cat "$TMP/us.err"
"$U" sleep 3 20 >/dev/null
cp "$D/span_stats" "$R/usleep.stats"
is "usleep: 3 intervals" "$(scol usleep calls)" 3
cmp_ge "usleep: min_ns >= 20 ms" "$(scol usleep min_ns)" 20000000
is "remove usleep" "$(ctl spans -usleep)" ok

# A read of user memory through a bad pointer (uw_call's argument, a small
# integer): unreadable, never a fault.
"$SW" span --keep --name ubad --start "$U:uw_call:arg0+0" \
	--stop "$U:uw_call%return:tid" 2>"$TMP/ub.err"
is "span ubad (a read through uw_call's integer argument)" "$?" 0 || cat "$TMP/ub.err"
"$U" calls 100
is "ubad: 100 unreadable, none started" \
	"$(scol ubad unreadable) $(scol ubad started)" "100 0"
is "remove ubad" "$(ctl spans -ubad)" ok
"$SW" span --start "$U:uw_call:nosuchname" --stop "$U:uw_call%return:tid" -d 1 \
	>/dev/null 2>"$TMP/uname.err"
rc=$?
check "stopwatch span: a user point's key by name is refused (raw keys only)" \
	sh -c "[ $rc -ne 0 ] && grep -q 'raw keys' '$TMP/uname.err'"

# --- limits: every loss counted exactly -------------------------------------
# limsteps SPAN: the steps the age limit must outlast, with their reads.
limsteps() {
	tctl "spanptr 1000 20"
	_l1="$(scol "$1" started) $(scol "$1" dropped_full) $(scol "$1" in_flight)"
	tctl "spanptr2 5000 7"
	_l2=$(scol "$1" unmatched)
	tctl "spanptr2 1000 3"
	_l3=$(scol "$1" calls)
	tctl "spanptr 1003 2"
	_l4=$(scol "$1" restarted)
}
# The starts must not age before the steps are done: a debug kernel
# under TCG runs them many times slower than a distribution kernel.
# Time them once under a span that never ages (its starts go with it),
# and give span lim 4 times that, 4 s at least.
is "add span limcal (no age limit in reach)" \
	"$(ctl spans "+limcal start=sw_spanptr_start:arg0 stop=sw_spanptr_stop:arg0 slots=16 age_ms=86400000")" ok
t0=$(up_ms)
limsteps limcal
lim_ms=$(($(up_ms) - t0))
is "limcal: the same counts as lim's below, unaged" "$_l1 $_l2 $_l3 $_l4" "16 4 16 7 3 2"
is "remove limcal" "$(ctl spans -limcal)" ok
age=$((lim_ms * 4))
[ $age -ge 4000 ] || age=4000
diag "lim's steps took $lim_ms ms: age_ms=$age"
is "add span lim (16 slots, $age ms age)" \
	"$(ctl spans "+lim start=sw_spanptr_start:arg0 stop=sw_spanptr_stop:arg0 slots=16 age_ms=$age")" ok
t0=$(up_ms)
limsteps lim
t1=$(up_ms)
set -- $_l1
is "lim: 16 started" "$1" 16
is "lim: 4 dropped_full" "$2" 4
is "lim: 16 in flight" "$3" 16
is "lim: 7 unmatched" "$_l2" 7
is "lim: 3 intervals" "$_l3" 3
is "lim: 2 restarted" "$_l4" 2
cmp_lt "lim: the steps took less than age_ms ($((t1 - t0)) ms)" "$((t1 - t0))" "$age"
# The scan runs every 100 ms: a second past the age, all are gone.
sleep $((age / 1000 + 1))
cp "$D/span_stats" "$R/lim.stats"
is "lim: 13 abandoned after $age ms" "$(scol lim abandoned)" 13
is "lim: none in flight" "$(scol lim in_flight)" 0
is "remove lim" "$(ctl spans -lim)" ok
is "add span bad (a read through each pointer)" \
	"$(ctl spans "+bad start=sw_spanptr_start:arg0+8 stop=sw_spanptr_stop:arg0+8")" ok
tctl "spanptr 16 5"
is "bad: 5 unreadable keys (pointers 16..20), no oops" "$(scol bad unreadable)" 5
is "bad: none started" "$(scol bad started)" 0
is "remove bad" "$(ctl spans -bad)" ok

# --- bad input: the errno, last_error, nothing changed ----------------------
is "add span keep" "$(ctl spans "+keep start=sw_spanptr_start:arg0 stop=sw_spanptr_stop:arg0")" ok
cp "$D/spans" "$TMP/spans.before"
badspan() {
	is "refused: $1" "$(ctl spans "$2")" "$3"
	check "last_error names '$4'" grep -qF -- "$4" "$D/last_error"
	is "spans unchanged after: $1" "$(cat "$D/spans")" "$(cat "$TMP/spans.before")"
}
badspan "unknown function" "+x start=sw_no_such_fn_zz:arg0 stop=sw_spanptr_stop:arg0" ENOENT sw_no_such_fn_zz
badspan "unknown tracepoint" "+x start=sched:no_such_tp_zz:arg0 stop=sw_spanptr_stop:arg0" ENOENT no_such_tp_zz
badspan "arg6" "+x start=sw_spanptr_start:arg6 stop=sw_spanptr_stop:arg0" EINVAL arg6
badspan "retval at an entry" "+x start=sw_spanptr_start:retval stop=sw_spanptr_stop:arg0" EINVAL retval
badspan "no stop point" "+x start=sw_spanptr_start:arg0" EINVAL "start= and a stop="
badspan "slots not a power of two" "+x start=sw_spanptr_start:arg0 stop=sw_spanptr_stop:arg0 slots=100" EINVAL slots=100
badspan "slots past max_span_slots (another span holds some)" "+x start=sw_spanptr_start:arg0 stop=sw_spanptr_stop:arg0 slots=1048576" E2BIG "slots=1048576 is more than the"
check "last_error names max_span_slots=1048576" grep -qF "max_span_slots=1048576" "$D/last_error"
badspan "bad filter" "+x start=sw_spanptr_start:arg0 stop=sw_spanptr_stop:arg0 pid=abc" EINVAL pid=abc
badspan "by=retval" "+x start=sw_spanptr_start:arg0 stop=sw_spanptr_stop:arg0 by=retval" EINVAL by=retval
badspan "name exists" "+keep start=sw_spanptr_start:arg0 stop=sw_spanptr_stop:arg0" EEXIST keep
badspan "remove unknown" "-nosuch" ENOENT nosuch
badspan "argN at a user return point" "+x start=$(readlink -f "$U"):0x10%return:arg0 stop=sw_spanptr_stop:arg0" EINVAL "argN at a user return point"
badspan "user point: no such file" "+x start=/no/such/file_zz:0x10:tid stop=sw_spanptr_stop:arg0" ENOENT file_zz
badspan "second point fails" "+x start=sw_spanptr_start:arg0 stop=sw_no_such_fn_zz:arg0" ENOENT sw_no_such_fn_zz
check "no kprobe left from the refused spans" \
	sh -c "[ \$(grep -c sw_spanptr_start /sys/kernel/debug/kprobes/list) = 1 ]"
"$SW" span --start 'sw_spanptr_start:nosuchname' --stop sw_spanptr_stop:arg0 -d 1 \
	>/dev/null 2>"$TMP/name.err"
cmp_ne_rc=$?
check "stopwatch span: a name not in the BTF is an error naming it" \
	sh -c "[ $cmp_ne_rc -ne 0 ] && grep -q nosuchname '$TMP/name.err'"
is "remove keep" "$(ctl spans -keep)" ok

# --- run-queue latency against runqlat ---------------------------------------
# bcc's runqlat as libbpf-tools builds it (compiled ahead, CO-RE: it traces
# within a second), else bcc's Python one, which compiles its program with
# clang first: two to three minutes of a TCG guest, every boot.
RQL=/usr/sbin/runqlat
[ -x "$RQL" ] || RQL=/usr/sbin/runqlat-bpfcc
if [ "$SW_ARCH" = arm64 ]; then
	skip "runqlat: the arm64 guests run a busybox root without bcc"
elif [ ! -r "$BTF" ]; then
	skip "runqlat: no $BTF (a kernel without BTF): span rq names p->pid and prev->__state through it, and runqlat's CO-RE program needs it"
elif [ ! -x "$RQL" ]; then
	skip "runqlat: neither /usr/sbin/runqlat (libbpf-tools) nor $RQL (bpfcc-tools) installed"
else
	# The span's line first (BTF resolution is slow under TCG): then it
	# is added with one write once runqlat traces, and removed just
	# before runqlat stops, so that both watch the same window.
	"$SW" span --keep --name rq --start 'sched:sched_wakeup:p->pid' \
		--start 'sched:sched_wakeup_new:p->pid' \
		--start 'sched:sched_switch:prev->pid?prev->__state==0' \
		--stop 'sched:sched_switch:next->pid?next->pid!=0' 2>"$TMP/rq.err"
	is "span rq on the scheduler's tracepoints" "$?" 0 || cat "$TMP/rq.err"
	RQLINE=$(grep '^+rq ' "$D/spans")
	ctl spans -rq >/dev/null
	# runqlat reports on ^C.  A job started with & in a script ignores
	# SIGINT: the libbpf-tools one sets its own handler, bcc's Python one
	# needs SIGINT back to its default first.  Line-buffered, both, so
	# that "Tracing" shows as soon as it is printed.
	if [ "$RQL" = /usr/sbin/runqlat ]; then
		stdbuf -oL "$RQL" 300 1 >"$TMP/rql.out" 2>"$TMP/rql.err" &
	else
		PYTHONUNBUFFERED=1 python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$RQL" 300 1 >"$TMP/rql.out" 2>"$TMP/rql.err" &
	fi
	rpid=$!
	diag "peer: $RQL"
	# Until it traces: 300 s at most by the clock (bcc's Python one
	# compiles first), less if it exits.
	t0=$(up_ms)
	while ! grep -q Tracing "$TMP/rql.out" && kill -0 $rpid 2>/dev/null &&
		[ $(($(up_ms) - t0)) -lt 300000 ]; do
		sleep 0.2
	done
	rql_ms=$(($(up_ms) - t0))
	if ! grep -q Tracing "$TMP/rql.out"; then
		kill -KILL $rpid 2>/dev/null
		wait $rpid
		not_ok "runqlat traces within 300 s (gave up after $rql_ms ms)"
		sed 's/^/#   /' "$TMP/rql.err"
	else
		diag "runqlat traced after $rql_ms ms"
		is "add rq" "$(ctl spans "$RQLINE")" ok
		"$P/pingpong" 30000 >/dev/null
		cp "$D/span_stats" "$R/rq.stats"
		ctl spans -rq >/dev/null
		# Its report and exit take about what its start took: 10 times
		# that, 30 s at least, then it is killed and counts as a failure.
		lim_wait=$((rql_ms * 10))
		[ $lim_wait -ge 30000 ] || lim_wait=30000
		kill -INT $rpid
		t0=$(up_ms)
		while kill -0 $rpid 2>/dev/null && [ $(($(up_ms) - t0)) -lt $lim_wait ]; do
			sleep 0.2
		done
		if kill -0 $rpid 2>/dev/null; then
			kill -KILL $rpid 2>/dev/null
			wait $rpid
			not_ok "runqlat reports within $lim_wait ms of SIGINT (killed)"
		else
			wait $rpid
			ok "runqlat reports within $lim_wait ms of SIGINT ($(($(up_ms) - t0)) ms)"
		fi
		cp "$D/span_hist/rq" "$R/rq.hist" 2>/dev/null
		cp "$TMP/rql.out" "$R/runqlat.out"
		# runqlat: "lo -> hi : count |bar|" in microseconds.
		rn=$(awk '$2 == "->" && $4 == ":" { s += $5 } END { print s + 0 }' "$TMP/rql.out")
		sn=$(col rq calls "$R/rq.stats")
		diag "runqlat events $rn, stopwatch $sn"
		cmp_gt "runqlat saw events" "$rn" 60000
		check "events within 2% of runqlat's ($sn vs $rn)" \
			awk -v a="$sn" -v b="$rn" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.02 * b) }'
		# runqlat has only its histogram: the mean lies between the means
		# of the buckets' low and high ends.
		awk '$2 == "->" && $4 == ":" { lo += $1 * $5; hi += ($3 + 1) * $5; n += $5 }
			END { if (n) printf "%.0f %.0f\n", lo * 1000 / n, hi * 1000 / n; else print "0 0" }' \
			"$TMP/rql.out" >"$TMP/rql.mean"
		read -r mlo mhi <"$TMP/rql.mean"
		savg=$(col rq avg_ns "$R/rq.stats")
		diag "runqlat mean in [$mlo, $mhi] ns, stopwatch avg_ns $savg"
		check "stopwatch's mean within 10% of runqlat's bounds" \
			awk -v s="$savg" -v lo="$mlo" -v hi="$mhi" 'BEGIN { exit !(s >= 0.9 * lo && s <= 1.1 * hi) }'
	fi
fi

# --- a module's tracepoint ----------------------------------------------------
# sw_testmod's sw_spantp(id, phase): phase 0 starts, phase 1 stops.
is "add span mtp on sw_testmod's tracepoint" \
	"$(ctl spans "+mtp start=sw_testmod:sw_spantp:arg0?arg1==0 stop=sw_testmod:sw_spantp:arg0?arg1==1")" ok
tctl "spantp 50"
cp "$D/span_stats" "$R/mtp.stats"
is "mtp: 50 intervals, none unmatched" \
	"$(scol mtp calls) $(scol mtp unmatched)" "50 0"
is "mtp: no point detached" "$(scol mtp detached)" 0
# The module goes while the span is on its tracepoint: its points detach
# (the tracepoint core would warn of probes left behind otherwise).
is "rmmod sw_testmod under span mtp" "$(rmmod sw_testmod 2>&1 && echo ok)" ok
is "mtp: both points detached, the span stays" \
	"$(scol mtp detached) $(grep -c '^+mtp ' "$D/spans")" "2 1"
is "insmod sw_testmod again" "$(insmod "$TMOD" 2>&1 && echo ok)" ok
tctl "spantp 5"
is "mtp: detached points stay detached (still 50)" "$(scol mtp calls)" 50
is "remove mtp" "$(ctl spans -mtp)" ok
badspan() {
	is "refused: $1" "$(ctl spans "$2")" "$3"
	check "last_error names '$4'" grep -qF -- "$4" "$D/last_error"
}
badspan "a tracepoint of no loaded module" \
	"+x start=sw_nomod:sw_no_such_tp_zz:arg0 stop=sw_spanptr_stop:arg0" ENOENT \
	"no such tracepoint in the kernel or a loaded module"
is "no spans left" "$(cat "$D/spans")" ""

unload
check "stopwatch unloaded" sh -c '! test -d /sys/module/stopwatch'
rmmod sw_testmod
rm -rf "$TMP"
