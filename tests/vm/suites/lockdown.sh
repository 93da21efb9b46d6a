# SPDX-License-Identifier: GPL-2.0
# tests/vm/suites/lockdown.sh - stopwatch under kernel lockdown, as on a
# Secure Boot machine: with the module loaded, lockdown is raised to
# "integrity" (the level Secure Boot sets) at run time; debugfs then
# refuses every file that can be written or mapped (reproduced here),
# while /proc/stopwatch, the same files, keeps working for the demo,
# stopwatch time, span, record/report and the sampler.  Root-only stays
# root-only there (a non-root user and root without CAP_SYS_ADMIN are
# refused), and the program says what lockdown refuses.
#
# Lockdown cannot be lowered again in a boot: run.sh runs this suite last
# (scripts/test.sh lists it last for arm64).
#
# Runs in the guest with the repository top as the working directory; uses
# SW_ARCH, SW_REPO and the TAP helpers of tap.sh.

. "$SW_REPO/tests/vm/tap.sh"
. "$SW_REPO/tests/vm/lib.sh"
. "$SW_REPO/scripts/demo-workload.sh"

DBG=$D
D=/proc/stopwatch
LD=/sys/kernel/security/lockdown

[ -r "$MOD" ] || skip_all "module $MOD not built"
[ -x "$SW" ] || skip_all "$SW not built (see lockdown.prepare)"
[ -x "$P/swwrite" ] || skip_all "$P/swwrite not built (make progs)"
[ -d /sys/kernel/security ] && ! [ -e "$LD" ] &&
	mount -t securityfs none /sys/kernel/security 2>/dev/null
[ -w "$LD" ] || skip_all "no $LD: this kernel has no lockdown LSM"
level() { sed 's/.*\[\([a-z]*\)\].*/\1/' "$LD"; }
[ "$(level)" = none ] ||
	diag "lockdown is already '$(level)' (an earlier suite?)"

# tree DIR: every directory below DIR, and every file with its mode, sorted.
tree() { (cd "$1" && find . | sort | while read -r f; do
	if [ -d "$f" ]; then echo "$f/"; else echo "$f $(stat -c %a "$f")"; fi
	done); }

# refused DESC CMD: CMD (a shell command line) must fail.
refused() { check "$1" sh -c "! { $2; } 2>/dev/null"; }
NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups"
NOADMIN="setpriv --bounding-set=-sys_admin --inh-caps=-sys_admin"

unload
is "module loads (before lockdown: it is not signed)" \
	"$(load "probes=$SW_DEMO_PROBES")" ok || skip_all "stopwatch.ko did not load"

# --- the two trees -------------------------------------------------------------
check "/proc/stopwatch is there" test -r "$D/stats"
is "/proc/stopwatch is root's (uid 0), 0500" "$(stat -c '%u %a' "$D")" "0 500"
is "start the sampler (to have samples/cpuN)" \
	"$(ctl sampler "start event=cpu-clock freq=1000")" ok
is "stop it" "$(ctl sampler stop)" ok
if [ -d "$DBG" ]; then
	tree "$D" >"$TMP/proc.tree"
	tree "$DBG" >"$TMP/dbg.tree"
	is "the same files, with the same modes, in /proc and debugfs" \
		"$(diff "$TMP/dbg.tree" "$TMP/proc.tree" && echo same)" same ||
		diag "$(diff "$TMP/dbg.tree" "$TMP/proc.tree")"
else
	skip "no debugfs directory to compare with"
fi
# the sampler's per-CPU buffers, one file per online CPU
is "samples/cpuN: one per online CPU" "$(ls "$D/samples" | grep -c '^cpu[0-9]*$')" \
	"$(grep -c '^processor' /proc/cpuinfo)"

# --- raise lockdown ------------------------------------------------------------
echo integrity >"$LD" 2>"$TMP/ld.err"
is "lockdown raised to integrity" "$(level)" integrity ||
	skip_all "lockdown not raised: $(cat "$TMP/ld.err")"

# debugfs refuses what can be written or mapped (the reported failure)
if [ -d "$DBG" ]; then
	is "debugfs: probes write refused" "$("$P/swwrite" "$DBG/probes" +vfs_write)" open:EPERM
	check "debugfs: stats still reads" test -n "$(cat "$DBG/stats")"
	cat "$DBG/samples/cpu0" >/dev/null 2>"$TMP/cpu0.err"
	check "debugfs: samples/cpu0 (mmap) refused" \
		grep -q "Operation not permitted" "$TMP/cpu0.err"
	refused "stopwatch time on debugfs fails" \
		"'$SW' time --debugfs '$DBG' -d 1 vfs_write >/dev/null 2>'$TMP/dbg.err'"
	check "  and says lockdown is 'integrity' and what to do" \
		sh -c "grep -q \"lockdown is 'integrity'\" '$TMP/dbg.err' && grep -q 'use /proc/stopwatch' '$TMP/dbg.err'"
	cat "$TMP/dbg.err"
else
	skip "no debugfs directory"
fi

# --- /proc/stopwatch under lockdown ---------------------------------------------
is "/proc: reset" "$(ctl reset 1)" ok
sw_demo_workload
cmp_ge "demo: vfs_read counted" "$(col vfs_read calls)" 1
"$SW" stat >"$TMP/stat.txt" 2>"$TMP/err"
is "stopwatch stat exits 0" "$?" 0 || cat "$TMP/err"
check "stopwatch stat: a vfs_read row" grep -q "^vfs_read " "$TMP/stat.txt"
is "/proc: probes write" "$(ctl probes -hrtimer_nanosleep)" ok
check "/proc: probes reads without it" sh -c "! grep -q hrtimer_nanosleep '$D/probes'"

"$SW" time -d 1 vfs_write >"$TMP/time.txt" 2>"$TMP/err"
is "stopwatch time -d 1 vfs_write exits 0" "$?" 0 || cat "$TMP/err"
check "stopwatch time: a vfs_write row" grep -q "vfs_write" "$TMP/time.txt"

"$SW" span --raw --start vfs_write:tid --stop vfs_write%return:tid -- \
	dd if=/dev/zero of=/dev/null bs=1 count=10 >"$TMP/span.txt" 2>"$TMP/err"
is "stopwatch span -- dd exits 0" "$?" 0 || cat "$TMP/err"
cmp_ge "stopwatch span: calls" "$(awk '$1 == "calls" { print $2 }' "$TMP/span.txt")" 10

if [ -x "$P/swprof" ]; then
	"$SW" record -e cpu-clock -F 1000 -g -o "$TMP/p.swd" -- "$P/swprof" 1000 \
		>/dev/null 2>"$TMP/rec.err"
	is "stopwatch record -- swprof exits 0" "$?" 0 || cat "$TMP/rec.err"
	check "record wrote samples" grep -q "stopwatch record: wrote [1-9][0-9]* samples" "$TMP/rec.err"
	"$SW" report -i "$TMP/p.swd" --sort symbol -q >"$TMP/rep.txt" 2>"$TMP/err"
	is "stopwatch report exits 0" "$?" 0 || cat "$TMP/err"
	is "report: top symbol" \
		"$(awk '$1 !~ /^#/ && NF >= 4 { print $4; exit }' "$TMP/rep.txt")" swprof_hot
else
	skip "$P/swprof not built"
fi
# the sampler's buffers read directly, as cat does
is "/proc: sampler start" "$(ctl sampler "start event=cpu-clock freq=1000")" ok
sw_demo_workload
is "/proc: sampler stop" "$(ctl sampler stop)" ok
n=0
for f in "$D"/samples/cpu*; do
	n=$((n + $(cat "$f" | wc -c)))
done
cmp_gt "/proc: samples/cpuN read (bytes)" "$n" 0

# --- root-only ----------------------------------------------------------------
if $NOBODY true 2>/dev/null; then
	check "nobody can run cat (the refusals below are the files')" \
		$NOBODY cat /proc/version
	refused "non-root: reading stats refused" "$NOBODY cat $D/stats"
	refused "non-root: writing probes refused" \
		"$NOBODY sh -c 'echo +vfs_write > $D/probes'"
	refused "non-root: reading samples/cpu0 refused" "$NOBODY cat $D/samples/cpu0"
	refused "non-root: stopwatch stat refused" \
		"$NOBODY '$SW' stat >/dev/null 2>'$TMP/nr.err'"
	check "  saying permission denied" grep -q "permission denied" "$TMP/nr.err"
else
	skip "setpriv cannot switch users here"
fi
if $NOADMIN true 2>/dev/null; then
	refused "root without CAP_SYS_ADMIN: refused" \
		"$NOADMIN cat $D/stats >/dev/null 2>'$TMP/cap.err'"
	check "  with EPERM" grep -q "Operation not permitted" "$TMP/cap.err"
else
	skip "setpriv cannot drop capabilities here"
fi

# --- unload --------------------------------------------------------------------
exec 3<"$D/stats"
check "rmmod refused while a /proc file is open" sh -c "! rmmod stopwatch 2>/dev/null"
exec 3<&-
check "rmmod stopwatch" rmmod stopwatch
check "/proc/stopwatch is gone" test ! -e "$D"
rm -rf "$TMP"
