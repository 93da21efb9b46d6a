# SPDX-License-Identifier: GPL-2.0
# tests/vm/suites/stopwatch.sh - stopwatch.ko in a VM: exact counts, timing
# truth, migration, run-time control, breakdown, bad input, unload safety.
#
# Runs in the guest with the repository top as the working directory; uses
# SW_ARCH, SW_REPO (see tests/vm/README.md) and the TAP helpers of tap.sh.

. "$SW_REPO/tests/vm/tap.sh"
. "$SW_REPO/tests/vm/lib.sh"

# --- helpers ---------------------------------------------------------------

# bdcol PROBE KEY COLUMN: col's counterpart for a breakdown_stats row.
bdcol() {
	# The key goes through the environment: awk -v would undo escapes.
	BDKEY=$2 awk -v p="$1" -v c="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
		$1 == p && $2 == ENVIRON["BDKEY"] && k { print $k; found = 1 }
		END { if (!found) print "absent" }' "$D/breakdown_stats"
}

# bdsum PROBE: total calls over a probe's breakdown rows (including other).
bdsum() {
	awk -v p="$1" 'NR > 1 && $1 == p { s += $3 } END { print s + 0 }' \
		"$D/breakdown_stats"
}


GETPPID=$(ksym '^__(x64|arm64)_sys_getppid$')
NANOSLEEP=hrtimer_nanosleep

# --- load, layout, permissions ---------------------------------------------

unload
if [ ! -r "$MOD" ]; then
	skip_all "module $MOD not built"
fi
if [ -z "$GETPPID" ]; then
	diag "no getppid syscall entry in /proc/kallsyms"
fi

is "loads with no probes" "$(load)" ok
check "debugfs directory exists" test -d "$D"
hdr=$(head -n 1 "$D/stats")
missing=
for c in probe calls min_ns avg_ns max_ns stddev_ns missed; do
	case " $(echo $hdr) " in *" $c "*) ;; *) missing="$missing $c" ;; esac
done
is "stats header names the required columns" "${missing:-none}" none
is "no probes listed" "$(cat "$D/probes")" ""
check "version names the stats format" grep -qx 'stats_format 1\.[0-9]*' "$D/version"
clk=$(sed -n 's/^call_clock //p' "$D/version")
diag "calls are timed by: $clk"
case $SW_ARCH in
x86_64) re='tsc|mono_fast' ;;
*) re='mono_fast' ;;
esac
check "version names the calls' clock ($re)" sh -c "echo '$clk' | grep -qxE '$re'"

perm_bad=
for f in stats probes reset breakdown breakdown_stats last_error version; do
	m=$(stat -c %a "$D/$f")
	case $m in ?00) ;; *) perm_bad="$perm_bad $f:$m" ;; esac
done
is "debugfs files are root-only" "${perm_bad:-none}" none
unload
kp_base=$(kprobes_list | wc -l)

# --- exact counts ------------------------------------------------------------

is "load with probes=$GETPPID" "$(load probes=$GETPPID)" ok
"$P/getppid_loop" 5000 >/dev/null
is "getppid x 5000: calls == 5000 exactly" "$(col "$GETPPID" calls)" 5000
is "getppid: nothing missed" "$(col "$GETPPID" missed)" 0
"$P/getppid_loop" 2345 >/dev/null
is "another 2345: calls == 7345" "$(col "$GETPPID" calls)" 7345
hsum=$(awk 'NR > 2 && /\|/ && $NF ~ /^[0-9]+$/ { s += $NF } END { print s + 0 }' \
	"$D/hist/$GETPPID")
is "histogram counts add up to calls" "$hsum" 7345
check "histogram title names probe and calls" \
	grep -qx "$GETPPID: ns, 7345 calls" "$D/hist/$GETPPID"
check "histogram header is @hist_log style" \
	grep -q '^ *value |-\{50\} count$' "$D/hist/$GETPPID"

# --- timing truth --------------------------------------------------------------

is "add $NANOSLEEP at run time" "$(ctl probes "+$NANOSLEEP")" ok
"$P/sleeper" 20 5 >"$TMP/sleep.out"
calls=$(col $NANOSLEEP calls)
min=$(col $NANOSLEEP min_ns)
avg=$(col $NANOSLEEP avg_ns)
is "nanosleep(20 ms) x 5: calls == 5" "$calls" 5
cmp_ge "min_ns >= 20 ms" "$min" 20000000
# The kernel's call lies inside the sleeper's own clock_gettime() pair, so
# its average is at most the user side's (+0.1% for the two clocks' rates).
# (A fixed 30 ms bound failed on a loaded host that lengthened the sleeps.)
uavg=$(awk -F= '$1 == "slept_ns" { s += $2; n++ } END { if (n) printf "%d", s / n }' "$TMP/sleep.out")
cmp_le "avg_ns <= the sleeper's own average by CLOCK_MONOTONIC (+0.1%)" \
	"$avg" "$((${uavg:-0} + ${uavg:-0} / 1000))"
diag "nanosleep 20 ms: min_ns=$min avg_ns=$avg max_ns=$(col $NANOSLEEP max_ns) stddev_ns=$(col $NANOSLEEP stddev_ns)"
diag "user-side: $(tr '\n' ' ' <"$TMP/sleep.out")"

# --- a call that returns on another CPU ------------------------------------------

is "reset" "$(ctl reset 1)" ok
is "reset zeroes calls" "$(col "$GETPPID" calls) $(col $NANOSLEEP calls)" "0 0"
if [ "$(nproc)" -ge 2 ]; then
	out=$("$P/migrate" 300)
	check "migrate: sleep entered on CPU 0, returned on CPU 1 ($out)" \
		test "$out" = "entry_cpu=0 return_cpu=1"
	is "migrated call measured: migrated == 1" "$(col $NANOSLEEP migrated)" 1
	cmp_ge "migrated call's time >= 300 ms" "$(col $NANOSLEEP max_ns)" 300000000
	# Its two stamps come from two CPUs' clocks: never garbage.
	cmp_le "migrated call's time <= 3 s" "$(col $NANOSLEEP max_ns)" 3000000000
	is "both sleeps counted (300 ms + the 75 ms re-pin delay)" \
		"$(col $NANOSLEEP calls)" 2
	if [ "$SW_ARCH" = x86_64 ]; then
		# The same through a trampoline (x86_64: TSC stamps).
		is "trampoline on $NANOSLEEP too" \
			"$(ctl probes "+$NANOSLEEP@t attach=trampoline args=3")" ok
		out=$("$P/migrate" 300)
		check "migrate again: entered on CPU 0, returned on CPU 1 ($out)" \
			test "$out" = "entry_cpu=0 return_cpu=1"
		is "trampoline: migrated == 1" "$(col $NANOSLEEP@t migrated)" 1
		cmp_ge "trampoline: migrated call's time >= 300 ms" \
			"$(col $NANOSLEEP@t max_ns)" 300000000
		cmp_le "trampoline: migrated call's time <= 3 s" \
			"$(col $NANOSLEEP@t max_ns)" 3000000000
		is "remove the trampoline" "$(ctl probes "-$NANOSLEEP@t")" ok
	fi
else
	skip "migration needs 2 CPUs"
fi

# --- run-time add and remove -----------------------------------------------------

is "add two at once" "$(ctl probes '+vfs_read +ksys_write')" ok
is "probes lists all four" "$(sort "$D/probes" | tr '\n' ' ')" \
	"$(printf '%s\n' "$GETPPID" $NANOSLEEP vfs_read ksys_write | sort | tr '\n' ' ')"
check "hist file created for vfs_read" test -r "$D/hist/vfs_read"
cat "$D/stats" >/dev/null
cmp_ge "vfs_read counts calls (cat read a file)" "$(col vfs_read calls)" 1
is "remove one" "$(ctl probes "-$NANOSLEEP")" ok
is "removed probe gone from stats" "$(col $NANOSLEEP calls)" absent
check "removed probe's hist file gone" test ! -e "$D/hist/$NANOSLEEP"
is "remove and add in one write" "$(ctl probes "-vfs_read +$NANOSLEEP")" ok
is "probes after mixed write" "$(sort "$D/probes" | tr '\n' ' ')" \
	"$(printf '%s\n' "$GETPPID" $NANOSLEEP ksys_write | sort | tr '\n' ' ')"

# --- bad control writes: exact errno, nothing changed ------------------------------

before=$(cat "$D/probes")
long=$(printf '%0600d' 0 | tr 0 x)
is "+no_such_function -> ENOENT" "$(ctl probes +sw_no_such_function_xyz)" ENOENT
check "last_error names the function" \
	grep -q sw_no_such_function_xyz "$D/last_error"
is "-not_probed -> ENOENT" "$(ctl probes -vfs_write)" ENOENT
is "+already probed -> EEXIST" "$(ctl probes "+$GETPPID")" EEXIST
is "same name twice -> EEXIST" "$(ctl probes '+vfs_write vfs_write')" EEXIST
is "malformed name -> EINVAL" "$(ctl probes '+vfs/read')" EINVAL
is "over-long name -> E2BIG" "$(ctl probes "+$long")" E2BIG
is "good + unknown in one write -> ENOENT" \
	"$(ctl probes '+vfs_write +sw_no_such_function_xyz')" ENOENT
is "own function refused -> EINVAL" "$(ctl probes +sw_probes_apply)" EINVAL
check "last_error says why (own functions)" grep -q "own functions" "$D/last_error"
is "reset 2 -> EINVAL" "$(ctl reset 2)" EINVAL
is "breakdown bogus -> EINVAL" "$(ctl breakdown bogus)" EINVAL
is "breakdown unchanged" "$(cat "$D/breakdown")" none
# A NUL inside a write would cut the command short: the write is refused.
nul_rc=0
printf '+vfs_write\000+ksys_read' >"$D/probes" 2>/dev/null || nul_rc=$?
cmp_ge "probes write with a NUL byte fails" "$nul_rc" 1
check "last_error names the NUL byte and its offset" \
	grep -q "NUL byte at offset 10" "$D/last_error"
is "probe set unchanged after the NUL write" "$(cat "$D/probes")" "$before"
is "events cpu-clock" "$(ctl events cpu-clock)" ok
nul_rc=0
printf '\000garbage' >"$D/events" 2>/dev/null || nul_rc=$?
cmp_ge "events write of \\0garbage fails" "$nul_rc" 1
is "events unchanged after it" "$(cat "$D/events")" cpu-clock
is "events cleared" "$(ctl events '')" ok
is "after all bad writes the probe set is unchanged" "$(cat "$D/probes")" "$before"
check "vfs_write was not left registered" sh -c "! grep -q ' vfs_write' /sys/kernel/debug/kprobes/list"

# --- breakdown by pid and comm with two processes -------------------------------------

is "breakdown pid" "$(ctl breakdown pid)" ok
is "breakdown mode reads back" "$(cat "$D/breakdown")" pid
pa=$("$P/getppid_loop" 300 | sed 's/pid=\([0-9]*\).*/\1/')
pb=$("$P/getppid_loop" 700 | sed 's/pid=\([0-9]*\).*/\1/')
is "pid $pa: 300 calls" "$(bdcol "$GETPPID" "$pa" calls)" 300
is "pid $pb: 700 calls" "$(bdcol "$GETPPID" "$pb" calls)" 700
is "breakdown comm" "$(ctl breakdown comm)" ok
"$P/getppid_loop" 111 sw_alpha >/dev/null
"$P/getppid_loop" 222 sw_beta >/dev/null
"$P/getppid_loop" 33 other >/dev/null
is "comm sw_alpha: 111 calls" "$(bdcol "$GETPPID" sw_alpha calls)" 111
is "comm sw_beta: 222 calls" "$(bdcol "$GETPPID" sw_beta calls)" 222
is "a task named 'other' is escaped, not the overflow row" \
	"$(bdcol "$GETPPID" '\157ther' calls) $(bdcol "$GETPPID" other calls)" "33 absent"
is "breakdown cpu" "$(ctl breakdown cpu)" ok
"$P/getppid_loop" 400 >/dev/null
is "cpu rows add up to 400" "$(bdsum "$GETPPID")" 400
is "breakdown none" "$(ctl breakdown none)" ok
is "breakdown_stats empty when off" "$(tail -n +2 "$D/breakdown_stats")" ""
unload
check "unload leaves no kprobes" test "$(kprobes_list | wc -l)" -eq "$kp_base"

# Bounded table: 2 slots per CPU, 5 processes: the rest goes to "other".
is "load breakdown=pid breakdown_slots=2" \
	"$(load probes=$GETPPID breakdown=pid breakdown_slots=2)" ok
for n in 10 20 30 40 50; do "$P/getppid_loop" $n >/dev/null; done
cmp_ge "other row holds the overflow" "$(bdcol "$GETPPID" other calls)" 1
is "rows + other == all 150 calls" "$(bdsum "$GETPPID")" 150
is "overall calls 150" "$(col "$GETPPID" calls)" 150
unload

# --- bad insmod: exact errno, kernel log names it, nothing left -----------------------

badload() {
	desc=$1 want=$2 name=$3
	shift 3
	dmesg -C 2>/dev/null
	is "insmod $desc -> $want" "$(load "$@")" "$want"
	check "insmod $desc: kernel log names '$(printf %.40s "$name")'" \
		sh -c "dmesg | grep -F -q -- '$(printf %.60s "$name")'"
	check "insmod $desc: module not loaded" sh -c '! test -d /sys/module/stopwatch'
	check "insmod $desc: no kprobes left" test "$(kprobes_list | wc -l)" -eq "$kp_base"
}

BL=$(awk 'NR == FNR { if ($2 ~ /^[tT]$/) t[$3]++; next }
	  ($2 in t) && t[$2] == 1 && $2 !~ /^(asm_|__)/ { print $2; exit }' \
	/proc/kallsyms /sys/kernel/debug/kprobes/blacklist 2>/dev/null)
badload "unknown function" ENOENT sw_no_such_function_xyz \
	probes=vfs_read,sw_no_such_function_xyz
if [ -n "$BL" ]; then
	badload "blacklisted $BL" EINVAL "$BL" probes=vfs_read,$BL
else
	skip "no kprobe blacklist entry found to test with"
fi
badload "duplicate" EEXIST "vfs_read" probes=vfs_read,vfs_read
badload "over-long name" E2BIG "$(printf %.60s "$long")" probes=$long
badload "over max_probes" E2BIG "max_probes" max_probes=2 probes=vfs_read,vfs_write,ksys_read
badload "bad breakdown" EINVAL "breakdown=bogus" breakdown=bogus
badload "max_probes=0" EINVAL "max_probes=0" max_probes=0
# More than the kernel's 1024 characters in probes=: say what to do instead.
many=$(i=0; while [ $i -lt 120 ]; do printf 'vfs_read%03d,' $i; i=$((i + 1)); done)
badload "probes= of ${#many} characters" ENOSPC \
	"1024-character limit for a module parameter" probes=$many

# Limit at run time.
is "load max_probes=2" "$(load max_probes=2 probes=vfs_read)" ok
is "third probe over max_probes=2 -> E2BIG" \
	"$(ctl probes '+vfs_write +ksys_read')" E2BIG
is "limit left the probe set unchanged" "$(cat "$D/probes")" vfs_read
is "one more fits" "$(ctl probes +vfs_write)" ok
unload

# --- rmmod under load on every CPU, 3 times (6 in a long run), calls in flight -----

rm_ok=0 rm_calls=0
nr=$(rounds 3 6)
for i in $(seq 1 "$nr"); do
	load probes=$GETPPID,ksys_read,vfs_read,$NANOSLEEP >/dev/null || continue
	"$P/hammer" 2 &
	hp=$!
	"$P/sleeper" 3000 1 >/dev/null &
	sp=$!
	sleep 0.5
	c=$(col "$GETPPID" calls)
	[ "$c" != absent ] && [ "$c" -gt 0 ] && rm_calls=$((rm_calls + 1))
	rmmod stopwatch && rm_ok=$((rm_ok + 1))
	# The calls in flight return now, after the unload, not seconds
	# later: the sleeper's nanosleep and the hammer's calls end on the
	# signal (their return paths are the same).
	kill $hp $sp 2>/dev/null
	wait $hp
	wait $sp
done
is "$nr loads + rmmods under load all succeeded" "$rm_ok" "$nr"
is "probes were firing in every round" "$rm_calls" "$nr"
check "module gone afterwards" sh -c '! test -d /sys/module/stopwatch'
check "no kprobes left afterwards" test "$(kprobes_list | wc -l)" -eq "$kp_base"

rm -rf "$TMP"
