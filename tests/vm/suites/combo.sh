# SPDX-License-Identifier: GPL-2.0
# tests/vm/suites/combo.sh - features combined, and faults: what one
# feature's suite does not see.
#
#   params    module parameters are root's only (0400): a non-root
#             reader is refused
#   spans     a line with a control character inside is refused (EINVAL,
#             its offset named), nothing added
#   switch    handlers between the sched_switch hook and switch_to(): a
#             span on sched:sched_switch keyed by tid, with events, while a
#             writer blocks several times inside one ksys_write on one CPU
#             (pipe to a reader): the writer's calls all measured (none
#             unmeasured) with and without the span, and the span's own
#             intervals (stopped and started inside the switch) measured,
#             their events no more than their time
#   names     call-path probe names: 40 tagged probes added and removed
#             with paths on; a reset leaves no name behind (probe_names)
#   all       events, keys, call paths, spans on sched_switch and
#             sched_wakeup, the sampler and a uprobe at once under a
#             fork/exec/IO load, CPU 1 unplugged and plugged back in the
#             middle: every probe called, histograms hold every call,
#             uprobe calls exact, losses by cause shown; everything
#             removed; rmmod while probes fire; loaded again
#   modgone   sw_testmod unloaded under a kretprobe on its function and a
#             span on its tracepoint: the module goes, the span's points
#             are detached and counted, the probe is removed cleanly
#   mix       trace=on on a kernel probe (keyed, one command) and a user
#             probe, call paths, the events of "all", driven while a
#             --call-graph dwarf recording of nofp runs: exact calls,
#             records = calls - counted losses, nofp's chains whole,
#             /metrics calls = stats (serve, where built)
#   filegone  a uprobe's binary: its process exits, the file is deleted:
#             calls exact, the probe removed cleanly
#   firing    traced probes firing and a table-unwinding recording of
#             nofp: CPU 1 unplugged and back, a traced probe removed,
#             rmmod refused under the recorder, the sampler stopped under
#             it (losses counted), rmmod with the sampler on and no
#             reader; every wait bounded
#
# Runs in the guest with the repository top as the working directory;
# combo.prepare builds what it needs.  The harness checks the console.

. "$SW_REPO/tests/vm/tap.sh"
. "$SW_REPO/tests/vm/lib.sh"

U=$P/uwork
CPU1=/sys/devices/system/cpu/cpu1/online
R=${SW_RESULTS:-/tmp}/combo
mkdir -p "$R"

[ -r "$MOD" ] && [ -r "$TMOD" ] || skip_all "stopwatch.ko or sw_testmod.ko not built"
[ -x "$SW" ] && [ -x "$U" ] && [ -x "$P/forker" ] ||
	skip_all "the stopwatch program or the test programs not built (combo.prepare)"

scol() { col "$1" "$2" "$D/span_stats"; }
# hcalls PROBE FILE: the N of a copy of hist/PROBE's first title "PROBE:
# ns, N calls".
hcalls() {
	sed -n "s/^$1: ns, \([0-9]*\) calls\$/\1/p" "$2" | head -n 1
}
# hsum FILE: the sum of the first histogram's buckets of a hist/ copy.
hsum() {
	awk '/^$/ && n { exit } $2 ~ /^\|/ && $1 ~ /^[0-9]+$/ { s += $NF; n++ }
		END { print s + 0 }' "$1"
}
padd() {
	"$SW" probe add "$@" >"$TMP/padd.out" 2>&1 && echo ok ||
		tail -n 1 "$TMP/padd.out"
}
pnames() { awk '$1 == "probe_names" { print $2; f = 1 } END { if (!f) print "absent" }' "$D/paths"; }
# alive PID: PID exists and is not a zombie.
alive() {
	_st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c 1)
	[ -n "$_st" ] && [ "$_st" != Z ]
}
# gone PID SECS: whether PID ended within SECS seconds (a child of ours
# is left to wait for its status).
gone() {
	_n=0
	while alive "$1"; do
		[ "$_n" -ge "$(($2 * 10))" ] && return 1
		sleep 0.1
		_n=$((_n + 1))
	done
}
# sampling SECS: the sampler file says running within SECS seconds.
sampling() {
	_n=0
	until grep -q '^state *running' "$D/sampler" 2>/dev/null; do
		[ "$_n" -ge "$(($1 * 10))" ] && return 1
		sleep 0.1
		_n=$((_n + 1))
	done
}
# stop_all PID...: SIGKILL to children of ours still alive, each reaped.
stop_all() {
	for _p in "$@"; do
		kill -KILL "$_p" 2>/dev/null
		gone "$_p" 10 || diag "pid $_p still there 10 s after SIGKILL"
		wait "$_p" 2>/dev/null
	done
}
# samp "A B+C ...": the sampler file's counters of all CPUs, one read: A,
# the sum of B and C, ...
samp() {
	awk -v want="$1" '$1 == "cpu" { for (i = 1; i <= NF; i++) k[$i] = i; next }
		$1 == "all" { n = split(want, w, " ")
			for (j = 1; j <= n; j++) { m = split(w[j], t, "+"); v = 0
				for (i = 1; i <= m; i++) v += $(k[t[i]])
				printf "%s%.0f", (j > 1 ? " " : ""), v }
			print ""; exit }' "$D/sampler"
}

unload
rmmod sw_testmod 2>/dev/null
is "load stopwatch" "$(load)" ok

# --- params: root's only ------------------------------------------------------

is "parameters are mode 0400" \
	"$(stat -c %a /sys/module/stopwatch/parameters/* | sort -u | tr '\n' ' ')" "400 "
check "root reads max_threads" test -n "$(cat /sys/module/stopwatch/parameters/max_threads)"
if [ ! -x "$P/runas" ]; then
	skip "$P/runas not built: a non-root read not tried"
	skip "$P/runas not built"
elif ! "$P/runas" 65534 cat /proc/version >/dev/null 2>&1; then
	skip "uid 65534 cannot run cat here: a non-root read not tried"
	skip "uid 65534 cannot run cat here"
else
	if "$P/runas" 65534 cat /sys/module/stopwatch/parameters/max_threads \
		>"$TMP/np.out" 2>&1; then
		not_ok "uid 65534 cannot read max_threads"
		diag "read: $(cat "$TMP/np.out")"
	else
		ok "uid 65534 cannot read max_threads"
	fi
	check "the refusal is EACCES" grep -qi "permission denied" "$TMP/np.out"
fi

# --- spans: one span per line --------------------------------------------------

nl='
'
is "a span line with a line break inside -> EINVAL" \
	"$(ctl spans "+nl start=sched:sched_switch:tid${nl}stop=sched:sched_switch:tid")" EINVAL
check "last_error names the offset" grep -q "control character 0x0a at offset 32" "$D/last_error"
is "nothing added" "$(cat "$D/spans")" ""
grep -q '^+nl ' "$D/spans" && ctl spans -nl >/dev/null
is "a tab is still a separator" \
	"$(ctl spans "+tb	start=sched:sched_switch:tid stop=sched:sched_switch:tid") $(ctl spans -tb)" "ok ok"

# --- switch: handlers inside the context switch ---------------------------------
# One CPU: the writer of a pipe blocks several times inside one write of
# 256 KiB, the reader (4 KiB reads) runs in between.

EV=cpu-clock
pipeline() {
	dd if=/dev/zero bs=256k count=16 2>/dev/null | dd of=/dev/null bs=4k 2>/dev/null
}
if [ -w "$CPU1" ] || [ "$(nproc 2>/dev/null)" = 1 ]; then
	[ -w "$CPU1" ] && echo 0 >"$CPU1"
	is "events $EV" "$(ctl events $EV)" ok
	is "probe ksys_write by=pid" "$(ctl probes '+ksys_write by=pid')" ok
	ctl reset 1 >/dev/null
	pipeline
	cp "$D/stats" "$R/switch-nospan.stats"
	cmp_ge "no span: ksys_write calls" "$(col ksys_write calls)" 16
	is "no span: ksys_write: none unmeasured" "$(col ksys_write ${EV}_unmeasured)" 0
	is "span sw on sched_switch keyed by tid" \
		"$(ctl spans '+sw start=sched:sched_switch:tid stop=sched:sched_switch:tid')" ok
	ctl reset 1 >/dev/null
	ctl spans reset >/dev/null
	pipeline
	cp "$D/stats" "$R/switch-span.stats"
	cp "$D/span_stats" "$R/switch-span.span_stats"
	cp "$D/pending" "$R/switch-span.pending"
	cmp_ge "span: ksys_write calls" "$(col ksys_write calls)" 16
	is "span: ksys_write: none unmeasured" "$(col ksys_write ${EV}_unmeasured)" 0
	cmp_ge "span sw: intervals" "$(scol sw calls)" 64
	# An interval is unmeasured only for a cause it counts: its entry
	# taken off by the return of the call it was opened inside (ev_lost),
	# no room, or a stop on another thread.
	is "span sw: intervals stopped inside the switch measured, but for counted causes" \
		"$(scol sw ${EV}_unmeasured)" \
		"$(($(scol sw ev_lost) + $(scol sw ev_no_slot) + $(scol sw ev_too_deep) + $(scol sw other_thread)))"
	diag "span sw: $(scol sw calls) intervals, ${EV} unmeasured $(scol sw ${EV}_unmeasured), ev_lost $(scol sw ev_lost)"
	check "span sw: events (${EV}_avg) no more than time (avg_ns)" \
		test "$(scol sw ${EV}_avg)" -le "$(scol sw avg_ns)"
	is "remove span sw, probe" "$(ctl spans -sw) $(ctl probes -ksys_write)" "ok ok"
	ctl events '' >/dev/null
	[ -w "$CPU1" ] && echo 1 >"$CPU1"
else
	skip "switch: CPU 1 cannot be taken offline: two threads on one CPU not arranged"
fi

# --- names: call-path probe names freed ----------------------------------------

is "paths on" "$(ctl paths on)" ok
n=0
for i in $(seq 1 40); do
	[ "$(ctl probes "+ksys_read@t$i")" = ok ] || continue
	cat /proc/version >/dev/null
	[ "$(ctl probes "-ksys_read@t$i")" = ok ] && n=$((n + 1))
done
is "40 tagged probes added, called and removed" "$n" 40
cmp_le "names kept meanwhile: those the paths name, 40 at most" "$(pnames)" 40
is "paths reset" "$(ctl paths reset)" ok
is "after the reset: no name kept" "$(pnames)" 0
# Never called: no path names them, a sweep every 16 removals frees them.
n=0
for i in $(seq 1 40); do
	[ "$(ctl probes "+ksys_sync@u$i")" = ok ] &&
		[ "$(ctl probes "-ksys_sync@u$i")" = ok ] && n=$((n + 1))
done
is "40 tagged probes of an uncalled function added and removed" "$n" 40
is "names kept: the 8 since the last sweep" "$(pnames)" 8
is "paths off" "$(ctl paths off)" ok

# --- all: every feature at once under load, CPU 1 unplugged and back -----------

EVS=cpu-clock,page-faults
if [ "$SW_ARCH" = arm64 ] && hw_pmu; then
	if [ "$(ctl events instructions,cpu-clock)" = ok ]; then
		EVS=instructions,cpu-clock
	elif [ "$(ctl events cycles,cpu-clock)" = ok ]; then
		EVS=cycles,cpu-clock
	else
		diag "no hardware events here: $(cat "$D/last_error")"
	fi
fi
EV1=${EVS%%,*}
cp "$U" "$TMP/uw"
[ -r "$P/libuwork.so" ] && cp "$P/libuwork.so" "$TMP/"
is "events $EVS" "$(ctl events $EVS)" ok
is "paths on" "$(ctl paths on)" ok
KP="ksys_read ksys_write do_sys_openat2 kernel_clone"
is "probes with keys (by=pid, by=comm) and without" \
	"$(ctl probes '+ksys_read by=pid +ksys_write by=comm +do_sys_openat2 +kernel_clone')" ok
is "uprobe uw_call" "$(padd "$TMP/uw:uw_call")" ok
is "span on sched_switch (tid)" \
	"$(ctl spans '+sw start=sched:sched_switch:tid stop=sched:sched_switch:tid')" ok
is "span sched_wakeup -> sched_switch (the woken task)" \
	"$(ctl spans '+wk start=sched:sched_wakeup:arg0 stop=sched:sched_switch:arg2')" ok
is "sampler started" "$("$P/swwrite" "$D/sampler" "start freq=500 callchain=kernel")" ok
ctl reset 1 >/dev/null
ctl spans reset >/dev/null
(
	for i in 1 2 3 4 5 6; do
		"$P/forker" 30 >/dev/null
		for j in 1 2 3 4 5 6 7 8 9 10; do sh -c : ; done
		dd if=/dev/zero of="$TMP/io" bs=4k count=64 conv=fsync 2>/dev/null
		cat "$TMP/io" >/dev/null
	done
) &
ld=$!
for i in 1 2 3 4 5; do "$TMP/uw" calls 200 >/dev/null; done &
uw=$!
sleep 2
if [ -w "$CPU1" ]; then
	echo 0 >"$CPU1"
	is "cpu1 offline under load" "$(cat "$CPU1")" 0
	sleep 2
	echo 1 >"$CPU1"
	is "cpu1 online again" "$(cat "$CPU1")" 1
else
	skip "CPU 1 cannot be unplugged here"
	skip "CPU 1 cannot be unplugged here"
fi
wait $uw
wait $ld
is "sampler stopped" "$("$P/swwrite" "$D/sampler" stop)" ok
for f in stats keys paths span_stats pending sampler; do cp "$D/$f" "$R/all.$f"; done
# The probes still fire (reading a file calls them): each histogram is
# compared with itself, read once, and with the calls read before it.
for p in $KP; do
	c=$(col $p calls)
	cp "$D/hist/$p" "$R/all.hist.$p"
	h=$(hcalls $p "$R/all.hist.$p")
	cmp_gt "all: $p called" "$c" 0
	is "all: $p: its histogram's buckets hold every call of its title" \
		"$(hsum "$R/all.hist.$p")" "$h"
	cmp_ge "all: $p: its histogram has the calls stats had before" "$h" "$c"
done
is "all: uw_call: exactly 1000 calls" "$(col uw:uw_call calls)" 1000
cmp_gt "all: keyed rows of ksys_read" "$(awk '$1 == "ksys_read"' "$D/keys" | wc -l)" 0
cmp_gt "all: span sw intervals" "$(scol sw calls)" 0
cmp_gt "all: span wk intervals" "$(scol wk calls)" 0
cmp_gt "all: call paths kept" "$(awk '$1 == "nodes" { print $2 }' "$D/paths")" 0
cmp_gt "all: samples taken" "$(awk '$1 == "cpu" { for (i = 1; i <= NF; i++) if ($i == "taken") k = i; next }
	k && $1 == "all" { print $k; exit }' "$D/sampler")" 0
for k in lost_no_slot lost_too_deep orphaned abandoned unmatched; do
	check "all: pending shows $k" grep -q "^$k [0-9]*\$" "$D/pending"
done
diag "pending: $(tr '\n' ' ' <"$D/pending")"
diag "span sw: $(scol sw calls) intervals, ${EV1} unmeasured $(scol sw ${EV1}_unmeasured) (CPU 1 went away under some)"
cmp_le "all: span sw: unmeasured intervals are some of its intervals" \
	"$(scol sw ${EV1}_unmeasured)" "$(scol sw calls)"
is "remove the spans" "$(ctl spans -sw) $(ctl spans -wk)" "ok ok"
is "remove the probes" \
	"$(ctl probes '-ksys_read -ksys_write -do_sys_openat2 -kernel_clone') $(ctl probes -uw:uw_call)" "ok ok"
is "paths off, no events" "$(ctl paths off) $(ctl events '')" "ok ok"
is "nothing left" "$(cat "$D/probes" "$D/spans")" ""
# rmmod while probes fire on every CPU, the sampler running.
is "probes again, sampler again" \
	"$(ctl events $EV1) $(ctl probes '+ksys_read +ksys_write by=pid') $("$P/swwrite" "$D/sampler" 'start freq=500')" "ok ok ok"
"$P/hammer" 3 &
hm=$!
sleep 1
cmp_gt "probes fire" "$(col ksys_read calls)" 0
check "rmmod while probes fire" rmmod stopwatch
wait $hm
check "stopwatch gone" sh -c '! test -d /sys/module/stopwatch'
is "loaded again" "$(load)" ok

# --- mix: traced probes with the older features, a table-unwinding recording ----
# A kernel probe (by=pid, one command name) and a user probe, both
# trace=on, with call paths and the events of "all", driven N and 300
# times while "record --call-graph dwarf -- nofp" samples nofp (no frame
# pointers, a known chain): exact calls, every call's record written or
# counted lost, every nofp_leaf sample with its whole chain, and /metrics
# saying what stats says (when serve is built).  The calls are made from
# outside the recorded command, once the sampler runs, and end before it
# stops.

GP=$(ksym '^__(x64|arm64)_sys_getppid$')
N=2000
t_mix=$(date +%s)
cp "$U" "$TMP/uwt"
is "events $EVS, paths on" "$(ctl events $EVS) $(ctl paths on)" "ok ok"
is "probe $GP comm=swmix by=pid trace=on" \
	"$(ctl probes "+$GP comm=swmix by=pid trace=on")" ok
# The user probe through the program (it resolves the offset), then again
# with trace=on at the place the module says.
is "uprobe uwt:uw_call" "$(padd "$TMP/uwt:uw_call")" ok
up=$(sed -n 's/^uwt:uw_call \(uprobe=[^ ]*\).*/\1/p' "$D/probes")
is "uwt:uw_call again with trace=on ($up)" \
	"$(ctl probes -uwt:uw_call) $(ctl probes "+uwt:uw_call $up trace=on")" "ok ok"
check "both traced" test "$(grep -c ' trace=on id=' "$D/probes")" = 2
ctl reset 1 >/dev/null
# nofp runs 3 s of CPU and then on until the workload says it is done
# (mix.done): the calls are made while the recording runs, however slow
# the kernel (a debug kernel takes several times 3 s for them).
rm -f "$TMP/mix.done"
(
	sampling 60 || { touch "$TMP/mix.done"; exit 1; }
	"$P/getppid_loop" $N swmix >/dev/null
	"$TMP/uwt" calls 300 >/dev/null
	touch "$TMP/mix.done"
) &
wl=$!
"$SW" record -q -e cpu-clock -F 499 --call-graph dwarf -o "$TMP/mix.swd" -- \
	"$P/nofp" 3000 "$TMP/mix.done" >"$TMP/mix.out" 2>"$TMP/mix.err" &
rp=$!
check "mix: the traced workload ends within 60 s" gone "$wl" 60
rc="not within 60 s"
gone "$rp" 60 && { wait "$rp"; rc=$?; }
is "mix: record --call-graph dwarf -- nofp ends, exit status 0" "$rc" 0 ||
	diag "$(tail -n 3 "$TMP/mix.err")"
is "mix: ... once the workload was done (the recording ran throughout)" \
	"$(cat "$TMP/mix.out")" "nofp: $TMP/mix.done appeared"
stop_all "$wl" "$rp"
cp "$D/stats" "$D/keys" "$D/paths" "$D/sampler" "$R/" 2>/dev/null
gc=$(col "$GP" calls)
uc=$(col uwt:uw_call calls)
is "mix: $GP: exactly $N calls" "$gc" "$N"
is "mix: uwt:uw_call: exactly 300 calls" "$uc" 300
is "mix: $GP: one keyed row (pid=) of $N calls" \
	"$(awk -v p="$GP" 'NR > 1 && $1 == p { print $2 ~ /^pid=/, $3 }' "$D/keys")" "1 $N"
check "mix: $GP: ${EV1} measured (a ${EV1}_avg column)" test "$(col "$GP" "${EV1}_avg")" != absent
cmp_gt "mix: call paths kept" "$(awk '$1 == "nodes" { print $2 }' "$D/paths")" 0
"$SW" script -i "$TMP/mix.swd" --json --all-pids >"$TMP/mix.json" 2>"$TMP/mix.script"
set -- $(sed -n 's/.*: \([0-9]*\) calls traced, \([0-9]*\) written, lost: \([0-9]*\) buffer full, \([0-9]*\) nested, \([0-9]*\) missing.*/\1 \2 \3 \4 \5/p' "$TMP/mix.script")
diag "mix: traced=${1:-?} written=${2:-?} full=${3:-?} nested=${4:-?} missing=${5:-?}"
if [ $# = 5 ]; then
	is "mix: calls traced = both probes' calls" "$1" "$((gc + uc))"
	is "mix: written + lost = traced" "$(($2 + $3 + $4))" "$1"
	gr=$(grep -c "\"type\":\"call\".*\"name\":\"$GP\"" "$TMP/mix.json")
	ur=$(grep -c '"type":"call".*"name":"uwt:uw_call"' "$TMP/mix.json")
	diag "mix: records: $gr of $GP, $ur of uwt:uw_call"
	is "mix: records = calls - lost (full, nested, missing from the file)" \
		"$((gr + ur))" "$((gc + uc - $3 - $4 - $5))"
	cmp_le "mix: $GP records no more than its calls" "$gr" "$gc"
	cmp_le "mix: uwt:uw_call records no more than its calls" "$ur" "$uc"
else
	not_ok "mix: script's loss line" "$(tail -n 2 "$TMP/mix.script")"
fi
"$SW" report -i "$TMP/mix.swd" --folded >"$TMP/mix.folded" 2>/dev/null
cp "$TMP/mix.folded" "$R/" 2>/dev/null
set -- $(awk '{ n = $NF; sub(/ [0-9]+$/, ""); k = split($0, f, ";")
	if (f[k] != "nofp_leaf") next
	t += n
	if ($0 !~ /^nofp;_start;__libc_start_main[^;]*;.*main;nofp_outer;nofp_mid;nofp_leaf$/) b += n }
	END { printf "%d %d\n", t, b }' "$TMP/mix.folded")
cmp_ge "mix: nofp_leaf samples (fewer on a loaded machine: nofp shares the CPUs)" "${1:-0}" 30
bad=${2:-x}
[ "${1:-0}" -gt 0 ] || bad="no samples"
is "mix: every one shows _start;__libc_start_main;...;main;nofp_outer;nofp_mid;nofp_leaf" "$bad" 0
grep "nofp_leaf [0-9]*$" "$TMP/mix.folded" |
	grep -v ";main;nofp_outer;nofp_mid;nofp_leaf [0-9]*$" | head -n 5 |
	while read -r l; do diag "wrong chain: $l"; done
if ! "$SW" serve --help >/dev/null 2>&1; then
	skip "mix: serve: $SW is built without it (static builds: SERVE=0)"
elif ! command -v curl >/dev/null; then
	skip "mix: serve: no curl in the guest"
else
	ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up 2>/dev/null
	"$SW" serve --listen 127.0.0.1:0 --state-dir "$TMP" 2>"$TMP/serve.err" &
	spid=$!
	port=
	for i in $(seq 100); do
		port=$(sed -n 's/^stopwatch serve: listening on .*:\([0-9]*\)$/\1/p' "$TMP/serve.err")
		[ -n "$port" ] && break
		sleep 0.1
	done
	is "mix: serve starts" "${port:+up}" up || diag "$(cat "$TMP/serve.err")"
	curl -s -m 20 -o "$TMP/mix.prom" "http://127.0.0.1:$port/metrics"
	cp "$TMP/mix.prom" "$R/" 2>/dev/null
	for p in "$GP" uwt:uw_call; do
		is "mix: /metrics calls of $p = stats" \
			"$(awk -v m="stopwatch_calls_total{probe=\"$p\"}" '$1 == m { print $2 }' "$TMP/mix.prom")" \
			"$(col "$p" calls)"
	done
	kill -TERM "$spid"
	rc="not within 20 s"
	gone "$spid" 20 && { wait "$spid"; rc=$?; }
	is "mix: serve ends on SIGTERM, exit status 0" "$rc" 0
	stop_all "$spid"
fi
is "mix: probes removed, paths off, no events" \
	"$(ctl probes "-$GP -uwt:uw_call") $(ctl paths off) $(ctl events '')" "ok ok ok"
diag "mix: $(( $(date +%s) - t_mix )) s"

# --- modgone: a probed module unloaded -------------------------------------------

is "insmod sw_testmod" "$(insmod "$TMOD" 2>&1 && echo ok)" ok
is "kretprobe on sw_test_loop" "$(ctl probes '+sw_test_loop attach=kretprobe')" ok
is "span on sw_testmod's tracepoint" \
	"$(ctl spans '+mtp start=sw_testmod:sw_spantp:arg0?arg1==0 stop=sw_testmod:sw_spantp:arg0?arg1==1')" ok
for i in 1 2 3 4 5 6 7 8 9 10; do echo "loop 100" >"$T/ctl"; done
echo "spantp 20" >"$T/ctl"
is "10 calls, 20 intervals" "$(col sw_test_loop calls) $(scol mtp calls)" "10 20"
is "rmmod sw_testmod under both" "$(rmmod sw_testmod 2>&1 && echo ok)" ok
is "the span's points detached, counted" "$(scol mtp detached)" 2
is "insmod sw_testmod again" "$(insmod "$TMOD" 2>&1 && echo ok)" ok
for i in 1 2 3 4 5; do echo "loop 100" >"$T/ctl"; done
echo "spantp 5" >"$T/ctl"
is "nothing counted on the new module's text (still 10, 20)" \
	"$(col sw_test_loop calls) $(scol mtp calls)" "10 20"
is "probe and span removed" "$(ctl probes -sw_test_loop) $(ctl spans -mtp)" "ok ok"
rmmod sw_testmod

# --- filegone: a uprobe's binary deleted -------------------------------------------

cp "$U" "$TMP/uwg"
is "uprobe on a copy of uwork" "$(padd "$TMP/uwg:uw_call")" ok
"$TMP/uwg" calls 300 >/dev/null
rm -f "$TMP/uwg"
is "the process exited, the file deleted: 300 calls" "$(col uwg:uw_call calls)" 300
is "its probe removed" "$(ctl probes -uwg:uw_call)" ok
cp "$U" "$TMP/uwg"
"$TMP/uwg" calls 30 >/dev/null
is "a new file at that path is not the probed one" "$(col uwg:uw_call calls)" absent

# --- firing: what traced probes and a table-unwinding recording stand on goes away
# getppid in bursts (traced, keyed, on call paths; on CPU 1 where taskset
# can pin it) and 2 ms sleeps (traced with their return values, calls in
# flight) while "record --call-graph dwarf -p" samples nofp with its
# tables: CPU 1 unplugged and plugged back, the traced getppid probe
# removed, rmmod tried under the recorder, the sampler stopped under it;
# then, the recorder killed, the sampler started again by hand on nofp
# with the tables it left, the module removed with the sleeps still
# traced.  Every wait
# is bounded; the console scan is the rest.

t_fire=$(date +%s)
is "probes traced (trace=on, trace=ret), keyed, on paths" \
	"$(ctl events $EV1) $(ctl paths on) $(ctl probes "+$GP by=pid trace=on +hrtimer_nanosleep trace=ret")" "ok ok ok"
pin=
command -v taskset >/dev/null 2>&1 && [ -w "$CPU1" ] && pin="taskset -c 1"
# Bursts with pauses, not a busy loop: TCG runs all CPUs on one thread.
while :; do $pin "$P/getppid_loop" 2000 >/dev/null; sleep 0.05; done &
gl=$!
"$P/sleeper" 2 100000 >/dev/null &
sl=$!
$pin "$P/nofp" 60000 >/dev/null &
np=$!
"$SW" record -q -e cpu-clock -F 250 --call-graph dwarf -p "$np" \
	-o "$TMP/f.swd" >/dev/null 2>"$TMP/f.err" &
rp=$!
check "firing: a dwarf recording of nofp runs" sampling 30
# The sampler may run before the recorder has handed nofp's tables over.
_n=0
while [ "$(awk '$1 == "processes" { print $2 }' "$D/unwind")" = 0 ] &&
	[ "$_n" -lt 100 ]; do
	sleep 0.1
	_n=$((_n + 1))
done
cmp_ge "firing: nofp's tables mapped into it" \
	"$(awk '$1 == "processes" { print $2 }' "$D/unwind")" 1
cmp_gt "firing: the traced probe fires" "$(col "$GP" calls)" 0
if [ -w "$CPU1" ] && [ "$(cat "$CPU1")" = 1 ]; then
	echo 0 >"$CPU1"
	is "firing: cpu1 offline while tracing and sampling" "$(cat "$CPU1")" 0
	echo 1 >"$CPU1"
	is "firing: cpu1 online again" "$(cat "$CPU1")" 1
	check "firing: the recording survived" alive "$rp"
else
	skip "firing: no second CPU to unplug ($CPU1 not writable)"
	skip "firing: no second CPU to unplug"
	skip "firing: no second CPU to unplug"
fi
is "firing: remove the traced $GP while it fires" "$(ctl probes "-$GP")" ok
check "firing: ... it is gone" sh -c "! grep -q '^$GP ' '$D/probes'"
if rmmod stopwatch 2>"$TMP/rmmod.err"; then
	# Allowed too: nothing the recorder holds pins the module.
	ok "firing: rmmod under the recorder: removed"
	skip "firing: the sampler stopped under the recorder: the module is gone"
	load >/dev/null
	ctl probes "+hrtimer_nanosleep trace=ret" >/dev/null
	reloaded=1
else
	# kmod's rmmod says "in use", busybox's the errno (EAGAIN).
	diag "firing: rmmod under the recorder: $(cat "$TMP/rmmod.err")"
	check "firing: rmmod under the recorder: refused, the module still there" loaded
	check "firing: ... the recording goes on" alive "$rp"
	is "firing: stop the sampler under the recorder" "$(ctl sampler stop)" ok
	# one read: taken, the rest, queued; calls traced, written, lost
	set -- $(samp "taken written+lost_full+lost_nested+lost_stack+lost_throttled queued call_taken call_written+call_lost_full+call_lost_nested call_lost_full")
	is "firing: ... stopped: nothing queued" "${3:-?}" 0
	is "firing: samples taken = written + lost by cause" "${1:-?}" "${2:-!}"
	is "firing: calls traced = written + lost by cause" "${4:-?}" "${5:-!}"
	cmp_gt "firing: calls traced" "${4:-0}" 0
	diag "firing: ${4:-?} calls traced, ${6:-?} lost (buffer full); ${1:-?} samples"
fi
# The recorder gone by SIGKILL: the tables and nofp's maps stay loaded.
stop_all "$rp"
if loaded && [ "$(ctl sampler "start event=cpu-clock freq=250 callchain=kernel,user unwind=table tgid=$np")" = ok ]; then
	ok "firing: the sampler started by hand on nofp, unwind=table"
	if [ -z "${reloaded:-}" ]; then
		check "firing: ... nofp still has its tables" \
			test "$(awk '$1 == "processes" { print $2 }' "$D/unwind")" -ge 1
	else
		skip "firing: nofp's tables went with the module"
	fi
else
	not_ok "firing: the sampler started by hand on nofp" "$(cat "$D/last_error" 2>/dev/null)"
fi
check "firing: rmmod with the sampler on, tables mapped, traced probes firing, no reader" \
	rmmod stopwatch
check "firing: stopwatch gone" sh -c '! test -d /sys/module/stopwatch'
stop_all "$gl" "$sl" "$np"
[ -w "$CPU1" ] && echo 1 >"$CPU1"
diag "firing: $(( $(date +%s) - t_fire )) s"

unload
check "stopwatch unloaded" sh -c '! test -d /sys/module/stopwatch'
rm -rf "$TMP"
