# SPDX-License-Identifier: GPL-2.0
# tests/vm/suites/time.sh - "stopwatch time" and "stopwatch probe" against
# the live module: patterns expanded to every traceable function (checked
# against the kernel's own lists with awk), exact call counts of workloads
# that make a known number of calls (vfs_fsync_range by fsync_loop; the
# getppid syscall, named exactly: not traceable on x86, still probeable), the probes file back to what it was
# afterwards (also after ^C), another user's probe untouched, two runs at
# once each with its own counts; with the tagged control syntax (probe
# tags, filters): -p counting one process only, --min counting exactly the
# slow calls.
#
# Runs in the guest with the repository top as the working directory; uses
# SW_ARCH, SW_REPO, SW_RESULTS and the TAP helpers of tap.sh.
# tests/vm/suites/time.prepare builds what it needs.

. "$SW_REPO/tests/vm/tap.sh"
. "$SW_REPO/tests/vm/lib.sh"

R=${SW_RESULTS:-/tmp}/time
mkdir -p "$R"
FSYNC=$P/fsync_loop
GETPPID=$P/getppid_loop

[ -x "$SW" ] || skip_all "$SW not built (see time.prepare)"
[ -r "$MOD" ] || skip_all "module $MOD not built"
[ -x "$FSYNC" ] || skip_all "$FSYNC not built (see time.prepare)"

if [ "$SW_ARCH" = arm64 ]; then
	SYS_GETPPID=__arm64_sys_getppid
else
	SYS_GETPPID=__x64_sys_getppid
fi

# The tracing lists, wherever tracefs is.
TR=/sys/kernel/tracing
[ -r $TR/available_filter_functions ] ||
	mount -t tracefs tracefs $TR 2>/dev/null
[ -r $TR/available_filter_functions ] || TR=/sys/kernel/debug/tracing
AFF=$TR/available_filter_functions
BL=/sys/kernel/debug/kprobes/blacklist

# jrow FILE FUNCTION KEY: KEY of FUNCTION's object in stopwatch time --json.
jrow() {
	tr '{' '\n' <"$1" | grep "\"function\":\"$2\"" | head -n 1 |
		tr ',' '\n' | sed -n "s/^\"$3\":\([0-9.]*\).*/\1/p"
}

# jfuncs FILE: the functions of a stopwatch time --json document, sorted.
jfuncs() {
	tr '{' '\n' <"$1" | sed -n 's/^"function":"\([^"]*\)".*/\1/p' | sort -u
}

# Loaded without parameters: the default load must take a whole pattern
# ('vfs_*' below; more in a long run).
unload
is "module loads with the defaults (no parameters)" "$(load)" ok ||
	skip_all "stopwatch.ko did not load"

# Does this stopwatch.ko take probe tags (FUNC@TAG) yet?
if [ "$(ctl probes "+vfs_read@swtagtest")" = ok ]; then
	TAGS=1
	ctl probes "-vfs_read@swtagtest" >/dev/null
else
	TAGS=0
	diag "this stopwatch.ko takes no probe tags: tag and filter checks skipped"
fi

# Another user's probe, there before and after every run.
is "another user's probe vfs_write" "$(ctl probes +vfs_write)" ok
cat "$D/probes" >"$TMP/probes.before"

# --- a pattern: every traceable vfs_ function, exact counts inside ---------
"$SW" time 'vfs_*' --json -o "$TMP/vfs.json" -- "$FSYNC" 300 \
	>/dev/null 2>"$TMP/vfs.err"
is "time 'vfs_*' -- fsync_loop 300 exits 0" "$?" 0 || cat "$TMP/vfs.err"
cp "$TMP/vfs.json" "$TMP/vfs.err" "$R/"
# What the kernel says is probeable: traceable, not blacklisted, not ours.
{ cat "$BL" 2>/dev/null || :; } >"$TMP/bl"
awk 'NR == FNR { bl[$2] = 1; next }
	$1 ~ /^vfs_/ && $2 != "[stopwatch]" && !($1 in bl) { print $1 }' \
	"$TMP/bl" "$AFF" | sort -u >"$TMP/vfs.expect"
# Without tags, a function another user probes is skipped (vfs_write).
if [ "$TAGS" = 0 ]; then
	grep -vx vfs_write "$TMP/vfs.expect" >"$TMP/x"
	mv "$TMP/x" "$TMP/vfs.expect"
fi
jfuncs "$TMP/vfs.json" >"$TMP/vfs.got"
cmp_ge "vfs_*: traceable vfs_ functions in the kernel's list" \
	"$(wc -l <"$TMP/vfs.expect")" 10
is "vfs_*: timed exactly the traceable, unblacklisted vfs_ functions ($(wc -l <"$TMP/vfs.got"))" \
	"$(diff "$TMP/vfs.expect" "$TMP/vfs.got" >"$TMP/vfs.diff" && echo same)" same ||
	cat "$TMP/vfs.diff"
# The ones kallsyms has but that cannot be probed are named.
awk 'NR == FNR { ok[$1] = 1; next }
	$2 ~ /^[tT]$/ && $3 ~ /^vfs_/ && NF == 3 && !($3 in ok) { print $3 }' \
	"$TMP/vfs.expect" /proc/kallsyms | grep -vx vfs_write | sort -u \
	>"$TMP/vfs.unprobeable"
n=$(wc -l <"$TMP/vfs.unprobeable")
if [ "$n" -gt 0 ]; then
	check "vfs_*: the $n unprobeable vfs_ functions are counted" \
		grep -q "time: $n matching functions\? cannot be probed" "$TMP/vfs.err"
	check "vfs_*: the first unprobeable one is named ($(head -n 1 "$TMP/vfs.unprobeable"))" \
		grep -q "skipped: $(head -n 1 "$TMP/vfs.unprobeable")" "$TMP/vfs.err"
else
	skip "every vfs_ text symbol of this kernel is probeable"
fi
is "vfs_*: vfs_fsync_range called exactly 300 times" \
	"$(jrow "$TMP/vfs.json" vfs_fsync_range calls)" 300
nvfs=$(wc -l <"$TMP/vfs.expect")
cmp_ge "default max_probes takes $nvfs vfs_ functions and more" \
	"$(cat /sys/module/stopwatch/parameters/max_probes)" 1024
is "vfs_*: probes file back to what it was" \
	"$(cat "$D/probes" | diff "$TMP/probes.before" - && echo same)" same

# --- exact counts, text output, units --------------------------------------
"$SW" time --raw -u us -o "$TMP/gp.txt" "$SYS_GETPPID" -- "$GETPPID" 1000 \
	>/dev/null 2>"$TMP/gp.err"
is "time $SYS_GETPPID -- getppid_loop 1000 exits 0" "$?" 0 || cat "$TMP/gp.err"
cp "$TMP/gp.txt" "$R/"
is "$SYS_GETPPID: exactly 1000 calls (table)" \
	"$(awk -v f=$SYS_GETPPID '$1 == f { print $2; exit }' "$TMP/gp.txt")" 1000
check "durations in us (header)" grep -q "durations in us" "$TMP/gp.txt"
check "a histogram in us" grep -q "^$SYS_GETPPID: 1000 calls, us" "$TMP/gp.txt"
is "probes file back to what it was" \
	"$(cat "$D/probes" | diff "$TMP/probes.before" - && echo same)" same

# --- errors ------------------------------------------------------------------
"$SW" time 'nosuchfunction_*' -d 1 >/dev/null 2>"$TMP/e1"
is "a pattern matching nothing fails" "$?" 1
check "  and says so" grep -q "matches no kernel function" "$TMP/e1"

# --- ^C: cleaned up ------------------------------------------------------------
"$SW" time vfs_read -d 60 >"$TMP/int.txt" 2>&1 &
pid=$!
i=0
while [ $i -lt 100 ] && cat "$D/probes" | cmp -s "$TMP/probes.before" -; do
	sleep 0.1; i=$((i + 1))
done
sleep 0.5
kill -INT $pid
wait $pid
is "^C: exits 0" "$?" 0 || cat "$TMP/int.txt"
check "^C: the report is printed" grep -q "^vfs_read " "$TMP/int.txt"
is "^C: probes file back to what it was" \
	"$(cat "$D/probes" | diff "$TMP/probes.before" - && echo same)" same

# --- another user's probe still counts ----------------------------------------
c0=$(col vfs_write calls)
dd if=/dev/zero of=/dev/null bs=1 count=50 2>/dev/null
cmp_ge "another user's vfs_write probe still counts" \
	"$(( $(col vfs_write calls) - c0 ))" 50

# --- probe add|list|remove ------------------------------------------------------
if [ "$TAGS" = 1 ]; then
	"$SW" probe add --tag keep vfs_read 2>"$TMP/pa.err"
	is "probe add --tag keep vfs_read" "$?" 0 || cat "$TMP/pa.err"
	check "probe list shows vfs_read@keep" sh -c "'$SW' probe list | grep -q '^vfs_read@keep'"
	"$SW" probe remove --tag keep 2>"$TMP/pr.err"
	is "probe remove --tag keep" "$?" 0 || cat "$TMP/pr.err"
else
	"$SW" probe add 'vfs_readv' 2>"$TMP/pa.err"
	is "probe add vfs_readv" "$?" 0 || cat "$TMP/pa.err"
	check "probe list shows vfs_readv" sh -c "'$SW' probe list | grep -qx vfs_readv"
	"$SW" probe remove vfs_readv 2>"$TMP/pr.err"
	is "probe remove vfs_readv" "$?" 0 || cat "$TMP/pr.err"
fi
is "probe add/remove: probes file back to what it was" \
	"$(cat "$D/probes" | diff "$TMP/probes.before" - && echo same)" same

if [ "$TAGS" = 0 ]; then
	skip "two runs at once (needs probe tags)"
	skip "-p (needs probe tags and filters)"
	skip "--min (needs probe tags and filters)"
	ctl probes -vfs_write >/dev/null
	unload
	return 0 2>/dev/null || exit 0
fi

# --- two runs at once -------------------------------------------------------------
"$SW" time --json -o "$TMP/a.json" "$SYS_GETPPID" -- "$GETPPID" 2000 \
	>/dev/null 2>"$TMP/a.err" &
pa=$!
"$SW" time --json -o "$TMP/b.json" "$SYS_GETPPID" -- "$GETPPID" 3000 \
	>/dev/null 2>"$TMP/b.err" &
pb=$!
wait $pa; ra=$?
wait $pb; rb=$?
is "two runs at once: both exit 0" "$ra $rb" "0 0" || cat "$TMP/a.err" "$TMP/b.err"
is "two runs at once: the first counts its 2000 calls" \
	"$(jrow "$TMP/a.json" $SYS_GETPPID calls)" 2000
is "two runs at once: the second counts its 3000 calls" \
	"$(jrow "$TMP/b.json" $SYS_GETPPID calls)" 3000
is "two runs at once: probes file back to what it was" \
	"$(cat "$D/probes" | diff "$TMP/probes.before" - && echo same)" same

# --- -p: one process, another doing the same work not counted --------------------
mkfifo "$TMP/go"
sh -c "read x <'$TMP/go'; exec '$GETPPID' 1500" >/dev/null &
target=$!
"$SW" time --json -p $target -d 4 "$SYS_GETPPID" >"$TMP/p.json" 2>"$TMP/p.err" &
pt=$!
i=0
while [ $i -lt 100 ] && ! grep -q "^$SYS_GETPPID@" "$D/probes"; do
	sleep 0.1; i=$((i + 1))
done
"$GETPPID" 700 >/dev/null
echo go >"$TMP/go"
wait $target
wait $pt
is "-p: exits 0" "$?" 0 || cat "$TMP/p.err"
is "-p: exactly the target's 1500 calls, not the other process's 700" \
	"$(jrow "$TMP/p.json" $SYS_GETPPID calls)" 1500

# --- --min: exactly the slow calls -----------------------------------------------
# 0 ms sleeps return at once, 300 ms sleeps take at least 300 ms.  The
# threshold sits far from both: under TCG a 0 ms sleep has taken 25 ms
# (arm64 6.12, once), so 20 ms was too close.
"$SW" time --json -o "$TMP/min.json" --min 200ms hrtimer_nanosleep -- \
	sh -c "'$P/sleeper' 0 40; '$P/sleeper' 300 3" >/dev/null 2>"$TMP/min.err"
is "--min 200ms: exits 0" "$?" 0 || cat "$TMP/min.err"
cp "$TMP/min.json" "$R/"
is "--min 200ms: exactly the 3 sleeps of 300 ms counted" \
	"$(jrow "$TMP/min.json" hrtimer_nanosleep calls)" 3
is "--min 200ms: the 40 sleeps of 0 ms counted apart as short" \
	"$(jrow "$TMP/min.json" hrtimer_nanosleep filtered_short)" 40
cmp_ge "--min 200ms: the shortest counted call took 300 ms or more" \
	"$(jrow "$TMP/min.json" hrtimer_nanosleep min)" 300000000

# --- --by comm: exact keyed rows --------------------------------------------------
"$SW" time --json -o "$TMP/by.json" --by comm "$SYS_GETPPID" -- \
	sh -c "'$GETPPID' 300 alpha; '$GETPPID' 200 beta" >/dev/null 2>"$TMP/by.err"
is "--by comm: exits 0" "$?" 0 || cat "$TMP/by.err"
cp "$TMP/by.json" "$R/"
# jkey FILE KEY: calls of the keyed row KEY.
jkey() {
	tr '{' '\n' <"$1" | grep "\"key\":\"$2\"" | head -n 1 |
		tr ',' '\n' | sed -n 's/^"calls":\([0-9]*\).*/\1/p'
}
is "--by comm: comm=alpha made exactly 300 calls" "$(jkey "$TMP/by.json" comm=alpha)" 300
is "--by comm: comm=beta made exactly 200 calls" "$(jkey "$TMP/by.json" comm=beta)" 200

# --- --by retval: the error distribution -----------------------------------------
# 60 redirections from a missing file: 60 opens failing with ENOENT (-2)
# (on "true": a failed redirection of a special builtin such as ":" ends sh).
"$SW" time --json -o "$TMP/rv.json" --by retval do_sys_openat2 -- \
	sh -c 'exec 2>/dev/null; i=0; while [ $i -lt 60 ]; do true </nonexistent/sw; i=$((i + 1)); done' \
	>/dev/null 2>"$TMP/rv.err"
is "--by retval: exits 0" "$?" 0 || cat "$TMP/rv.err"
cp "$TMP/rv.json" "$R/"
is "--by retval: exactly 60 calls returned -ENOENT" "$(jkey "$TMP/rv.json" retval=-2)" 60

# --- -e: sets the events for the run, clears them, refuses others' -------------
EV=cpu-clock
"$SW" time --json -o "$TMP/ev.json" -e $EV "$SYS_GETPPID" -- "$GETPPID" 100 \
	>/dev/null 2>"$TMP/ev.err"
is "-e $EV: exits 0" "$?" 0 || cat "$TMP/ev.err"
cp "$TMP/ev.json" "$R/"
check "-e $EV: the report carries ${EV}_avg" grep -q "\"${EV}_avg\":" "$TMP/ev.json"
is "-e $EV: the events are cleared afterwards" "$(cat "$D/events")" ""
is "another user sets events" "$(ctl events context-switches)" ok
"$SW" time -e $EV "$SYS_GETPPID" -- "$GETPPID" 10 >/dev/null 2>"$TMP/ev2.err"
is "-e $EV while another user's events are set: refused" "$?" 1
check "  and says so" grep -q "set by another user; not changing them" "$TMP/ev2.err"
is "  and leaves them" "$(cat "$D/events")" context-switches
ctl events "" >/dev/null

# --- -C and --cgroup ------------------------------------------------------------
if command -v taskset >/dev/null 2>&1; then
	"$SW" time --json -o "$TMP/cpu.json" -C 1 "$SYS_GETPPID" -- \
		taskset -c 0 "$GETPPID" 400 >/dev/null 2>"$TMP/cpu.err"
	is "-C 1, the work pinned on CPU 0: no call counted" \
		"$(jrow "$TMP/cpu.json" $SYS_GETPPID calls)" 0 || cat "$TMP/cpu.err"
	"$SW" time --json -o "$TMP/cpu0.json" -C 0 "$SYS_GETPPID" -- \
		taskset -c 0 "$GETPPID" 400 >/dev/null 2>"$TMP/cpu.err"
	is "-C 0, the work pinned on CPU 0: its 400 calls counted" \
		"$(jrow "$TMP/cpu0.json" $SYS_GETPPID calls)" 400 || cat "$TMP/cpu.err"
else
	skip "-C (no taskset in this guest)"
fi
CG=/sys/fs/cgroup
if [ -f $CG/cgroup.controllers ] && mkdir -p $CG/swtime 2>/dev/null; then
	"$SW" time --json -o "$TMP/cg.json" --cgroup swtime "$SYS_GETPPID" -- \
		sh -c "'$GETPPID' 100; sh -c 'echo \$\$ > $CG/swtime/cgroup.procs; exec $GETPPID 250'" \
		>/dev/null 2>"$TMP/cg.err"
	is "--cgroup: exactly the 250 calls made inside the cgroup, not the 100 outside" \
		"$(jrow "$TMP/cg.json" $SYS_GETPPID calls)" 250 || cat "$TMP/cg.err"
	rmdir $CG/swtime 2>/dev/null
else
	skip "--cgroup (no cgroup v2 hierarchy on $CG)"
fi

# --- -i: per-interval deltas, not running totals ---------------------------------
"$SW" time --json -o "$TMP/int.json" -i 0.3 "$SYS_GETPPID" -- \
	sh -c "'$GETPPID' 500; sleep 1.5; '$GETPPID' 700" >/dev/null 2>"$TMP/int.err"
is "-i 0.3: exits 0" "$?" 0 || cat "$TMP/int.err"
cp "$TMP/int.json" "$R/"
grep '"interval":' "$TMP/int.json" | tr ',' '\n' |
	sed -n 's/^"calls":\([0-9]*\).*/\1/p' >"$TMP/int.calls"
cmp_ge "-i 0.3: at least 4 interval lines" "$(wc -l <"$TMP/int.calls")" 4
is "-i 0.3: an interval of the 1.5 s sleep added 0 calls" \
	"$(grep -cx 0 "$TMP/int.calls" | awk '{ print ($1 > 0) ? "yes" : "no" }')" yes
cmp_le "-i 0.3: no interval added more than the 701 calls of the largest part" \
	"$(sort -n "$TMP/int.calls" | tail -n 1)" 701
cmp_le "-i 0.3: the intervals add up to no more than the whole" \
	"$(awk '{ s += $1 } END { print s + 0 }' "$TMP/int.calls")" \
	"$(grep -v '"interval":' "$TMP/int.json" | tr '{' '\n' |
		grep "\"function\":\"$SYS_GETPPID\"" | tr ',' '\n' |
		sed -n 's/^"calls":\([0-9]*\).*/\1/p')"

is "probes file back to what it was at the end" \
	"$(cat "$D/probes" | diff "$TMP/probes.before" - && echo same)" same
ctl probes -vfs_write >/dev/null

# --- one snapshot per screen: a row's calls are its histogram's total --------
# stats and the histograms are read apart; under a busy workload the
# calls, sums and buckets shown for a probe must still be one read.
. "$SW_REPO/scripts/demo-workload.sh"
for f in $(echo "$SW_DEMO_PROBES" | tr , ' '); do
	ctl probes "+$f" >/dev/null
done
DEMO="--probe $SW_DEMO_PROBES"
( while :; do dd if=/dev/zero of=/dev/null bs=1 count=3000 2>/dev/null; done ) &
BUSY=$!
sleep 0.2
for i in 1 2 3; do
	cat "$D/lhists" >"$TMP/snap$i.lhists"
	"$SW" stat --raw $DEMO >"$TMP/snap$i.txt" 2>>"$TMP/snap.err"
	"$SW" stat $DEMO --json >"$TMP/snap$i.json" 2>>"$TMP/snap.err"
	"$SW" stat $DEMO --prometheus >"$TMP/snap$i.prom" 2>>"$TMP/snap.err"
done
kill $BUSY; wait $BUSY 2>/dev/null
# table: "probe calls ..." rows, then "probe: ns, N calls" sections whose
# bucket rows end in their count.
snap_table() {
	awk 'NR == 1 { next }
	     /^$/ { sec = 1 }
	     !sec && NF > 1 && $2 ~ /^[0-9]+$/ { calls[$1] = $2; next }
	     /: ns, [0-9]+ calls$/ { p = $1; sub(/:$/, "", p); sec = 1; u = 1; next }
	     /: [^ ]+, [0-9]+ calls$/ { u = 0; next }
	     u && /\|/ { tot[p] += $NF }
	     END { for (p in calls) print p, calls[p], tot[p] + 0 }' "$1"
}
snap_json() {
	tr '{' '\n' <"$1" | awk -F'[:,]' '
	     /"breakdown":/ { exit }
	     /^"probe":/ { p = $2; gsub(/"/, "", p); calls[p] = $4; u = 0 }
	     /^"low":/ && u { v = $4; sub(/}.*/, "", v); tot[p] += v }
	     /"ns":\[$/ { u = 1; next }
	     /":\[$/ { u = 0 }
	     END { for (p in calls) print p, calls[p], tot[p] + 0 }'
}
snap_prom() {
	awk '/^stopwatch_calls_total\{/ { split($1, a, "\""); calls[a[2]] = $2 }
	     /^stopwatch_duration_seconds_count\{/ { split($1, a, "\""); tot[a[2]] = $2 }
	     END { for (p in calls) print p, calls[p], tot[p] + 0 }' "$1"
}
bad=""; rows=0
for i in 1 2 3; do
	for f in table json prom; do
		case $f in
		table) snap_table "$TMP/snap$i.txt" ;;
		json) snap_json "$TMP/snap$i.json" ;;
		prom) snap_prom "$TMP/snap$i.prom" ;;
		esac >"$TMP/snap.$f"
		rows=$((rows + $(wc -l <"$TMP/snap.$f")))
		bad="$bad$(awk -v f="$f#$i" '$2 != $3 { printf " %s:%s:%s!=%s", f, $1, $2, $3 }' "$TMP/snap.$f")"
	done
done
is "snapshot: 3 x (table, JSON, Prometheus) x 4 demo probes read" "$rows" 36 ||
	head -n 20 "$TMP/snap.err" "$TMP/snap1.txt" | sed 's/^/# /'
is "snapshot: each histogram total equals its row's calls" "${bad:-none}" none
# The lhists title's total is of the calls its buckets hold (one pass):
# between the sums of their buckets' low and high bounds.  And so is the
# Prometheus _sum of the fine buckets: between the sums of each bucket's
# count times its lower and upper le (seconds, printed to the ns).
bad=""; rows=0
for i in 1 2 3; do
	rows=$((rows + $(grep -c '; total [0-9]*$' "$TMP/snap$i.lhists")))
	bad="$bad$(awk '
	     function end() { if (p != "" && (lo > t || hi < t)) printf " %s:%.0f<=%.0f<=%.0f", p, lo, t, hi }
	     /^[^0-9]/ && / calls, hist_bits / { end(); p = $1; t = $NF; lo = hi = 0; next }
	     NF == 3 { lo += $1 * $3; hi += $2 * $3 }
	     END { end() }' "$TMP/snap$i.lhists")"
	bad="$bad$(awk '
	     /^stopwatch_duration_seconds_bucket\{/ {
		split($1, a, "\""); p = a[2]; le = a[4]
		if (le == "+Inf") le = prev[p]
		d = $2 - cum[p]; lo[p] += d * prev[p]; hi[p] += d * le
		cum[p] = $2; prev[p] = le }
	     /^stopwatch_duration_seconds_sum\{/ { split($1, a, "\""); sum[a[2]] = $2 }
	     END { for (p in sum) if (sum[p] < lo[p] - 1e-6 || sum[p] > hi[p] + 1e-6)
		printf " prom:%s:%g<=%g<=%g", p, lo[p], sum[p], hi[p] }' "$TMP/snap$i.prom")"
done
cmp_ge "snapshot: lhists titles carry the total (stats_format 1.9)" "$rows" 12
is "snapshot: each fine histogram's total and _sum within its buckets' bounds" \
	"${bad:-none}" none
cmp_ge "snapshot: vfs_read counted while the workload ran" \
	"$(awk '$1 == "vfs_read" { print $2 }' "$TMP/snap.table")" 1
for f in $(echo "$SW_DEMO_PROBES" | tr , ' '); do
	ctl probes "-$f" >/dev/null
done

# --- the module is loaded when it is not -------------------------------------------
unload
"$SW" time --raw -o "$TMP/load.txt" "$SYS_GETPPID" -- "$GETPPID" 100 >/dev/null 2>"$TMP/load.err"
is "not loaded: time loads build/module/<arch>-<release>/stopwatch.ko and runs" "$?" 0 ||
	cat "$TMP/load.err"
check "  the module is loaded" loaded
is "  its 100 calls" \
	"$(awk -v f=$SYS_GETPPID '$1 == f { print $2; exit }' "$TMP/load.txt")" 100
unload
"$SW" time --raw --module "$MOD" -o "$TMP/load2.txt" 'vfs_fsync*' -- "$FSYNC" 20 >/dev/null 2>"$TMP/load2.err"
is "not loaded: time --module PATH loads it" "$?" 0 || cat "$TMP/load2.err"
is "  vfs_fsync_range: 20 calls" \
	"$(awk '$1 == "vfs_fsync_range" { print $2; exit }' "$TMP/load2.txt")" 20
unload

# --- no first-try limit: the default load takes whole patterns -------------------
# 'vfs_*' was timed above under the default load.  'tcp_*' (about 370
# functions) and 'ext4:*' (about 850) take some 6 minutes per boot under
# TCG: only in a long run (boot with sw_long=1: tests/vm/run.sh --suite
# time --append sw_long=1).
# kb: what the kernel holds in slab, per-CPU and vmalloc memory, in kB.
kb() {
	awk '/^(Slab|Percpu|VmallocUsed):/ { s += $2 } END { print s + 0 }' /proc/meminfo
}
if long_run; then
	is "default load (no parameters)" "$(load)" ok
	before=$(kb)
	"$SW" probe add 'tcp_*' >/dev/null 2>"$TMP/tcp.err"
	is "default load: probe add 'tcp_*' exits 0" "$?" 0 || cat "$TMP/tcp.err"
	ntcp=$(awk 'NR > 1' "$D/stats" | wc -l)
	cmp_gt "default load: 'tcp_*' probed more than 64 functions ($ntcp)" "$ntcp" 64
	diag "memory of $ntcp probes: $(( ($(kb) - before) * 1024 / (ntcp > 0 ? ntcp : 1) )) bytes each ($(nproc) CPUs, slab + percpu + vmalloc)"
	"$SW" probe remove 'tcp_*' >/dev/null 2>&1
	modprobe ext4 2>/dev/null
	if grep -q ' \[ext4\]$' "$AFF"; then
		"$SW" time 'ext4:*' -d 1 --json -o "$TMP/ext4.json" >/dev/null 2>"$TMP/ext4.err"
		is "default load: time 'ext4:*' -d 1 exits 0" "$?" 0 || cat "$TMP/ext4.err"
		cmp_gt "default load: 'ext4:*' timed the ext4 module's functions ($(jfuncs "$TMP/ext4.json" | wc -l))" \
			"$(jfuncs "$TMP/ext4.json" | wc -l)" 64
	else
		skip "no ext4 module in this guest: 'ext4:*' not tried"
	fi
else
	skip "'tcp_*' on the default load: a long run only (sw_long=1)"
	skip "'ext4:*' on the default load: a long run only (sw_long=1)"
fi
unload
# Beyond the load's bound: refused, with the number needed.
is "load max_probes=16" "$(load max_probes=16)" ok
"$SW" time 'vfs_*' -d 1 >/dev/null 2>"$TMP/over.err"
is "max_probes=16: time 'vfs_*' refused" "$?" 1
check "max_probes=16: the refusal says 'needs max_probes=$nvfs; this load has 16'" \
	grep -q "needs max_probes=$nvfs; this load has 16" "$TMP/over.err"
is "max_probes=16: nothing probed" "$(awk 'NR > 1' "$D/stats" | wc -l)" 0
unload
