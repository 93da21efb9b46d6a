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
#   filegone  a uprobe's binary: its process exits, the file is deleted:
#             calls exact, the probe removed cleanly
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

unload
check "stopwatch unloaded" sh -c '! test -d /sys/module/stopwatch'
rm -rf "$TMP"
