# SPDX-License-Identifier: GPL-2.0
# tests/vm/suites/tramp.sh - kernel functions attached through stopwatch's
# direct-call trampolines (attach=trampoline|auto, args=N; auto is the
# default, a probe without args= stays a kretprobe under it): exact call
# counts against a kretprobe on the same function, retval/argN/caller keys,
# the function tracer sharing a trampolined function's ftrace site,
# the fallbacks (arguments on the stack: seven on x86_64, nine on arm64;
# unknown argument count; a function a bpftrace kfunc probe holds: -EBUSY;
# no direct calls: arm64 6.1) said in the
# stats columns attach and attach_err, a forced kretprobe, 2000 threads
# asleep in one trampolined function (no call missed), unwinding through
# a trampoline (/proc/PID/stack), removal and rmmod with calls in flight
# (the stubs are the never-unloaded companion's: neither waits for them),
# schedule() itself with 2000 threads asleep in it, 30 hot functions
# added and removed under load (trampstress.sh: 100 of them, rmmod under
# load, 20 times), and args= checked against BTF (a variadic function or another
# count refused, vmlinux's and a module's; auto falls back); the cost
# sampler times a call's exit with its entry (two handler runs per call
# in the overhead file).
#
# Runs in the guest with the repository top as the working directory; uses
# SW_ARCH, SW_REPO and the TAP helpers of tap.sh.  tests/vm/suites/
# tramp.prepare builds what it needs.

. "$SW_REPO/tests/vm/tap.sh"
. "$SW_REPO/tests/vm/lib.sh"
. "$SW_REPO/tests/vm/tramplib.sh"

TSLEEP=$P/tsleep

tctl() { "$P/swwrite" "$T/ctl" "$1"; }
kcol() {
	KKEY=$2 awk -v p="$1" -v c="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
		$1 == p && $2 == ENVIRON["KKEY"] && k { print $k; found = 1 }
		END { if (!found) print "absent" }' "$D/keys"
}
# mech PROBE: "ATTACH ATTACH_ERR" of its stats row.
mech() { echo "$(col "$1" attach) $(col "$1" attach_err)"; }

unload
rmmod sw_testmod 2>/dev/null
[ -r "$MOD" ] || skip_all "module $MOD not built"
[ -r "$TMOD" ] || skip_all "test module $TMOD not built (tramp.prepare)"
[ -x "$TSLEEP" ] || skip_all "$TSLEEP not built (make progs)"
is "insmod sw_testmod" "$(insmod "$TMOD" 2>&1 && echo ok)" ok
is "load (default attach=auto)" "$(load)" ok
is "the attach parameter says auto" "$(cat /sys/module/stopwatch/parameters/attach)" auto
is "stats format $(stats_format)" "$(sed -n 's/^stats_format //p' "$D/version")" "$(stats_format)"
is "bad attach= option refused" "$(ctl probes '+sw_test_target attach=jump')" EINVAL
is "bad args= option refused" "$(ctl probes '+sw_test_target args=x')" EINVAL

direct=0
direct_calls && direct=1
diag "ftrace direct calls on $SW_ARCH $(uname -r): $direct"
if [ $direct = 0 ]; then
	# No trampoline here: auto falls back (EOPNOTSUPP, 95), forced refuses.
	is "auto on $SW_ARCH $(uname -r)" "$(ctl probes '+sw_test_target attach=auto args=1')" ok
	is "auto falls back to the kretprobe: attach_err EOPNOTSUPP" \
		"$(mech sw_test_target)" "0 95"
	tctl "callers 3 4" >/dev/null
	is "the fallback counts the 7 calls" "$(col sw_test_target calls)" 7
	is "forced trampoline refused" \
		"$(ctl probes '+sw_test_loop attach=trampoline args=1')" EOPNOTSUPP
	unload
	rmmod sw_testmod
	for t in "variadic refused" "another count refused" \
		"auto falls back from a variadic function" \
		"BTF's count counts exactly" "a module's BTF"; do
		skip "args= against BTF ($t): no trampolines without ftrace direct calls ($SW_ARCH $(uname -r))"
	done
	exit 0
fi

# --- counts, keys -----------------------------------------------------------
is "kretprobe and trampoline on sw_test_target" \
	"$(ctl probes '+sw_test_target@k +sw_test_target@t attach=trampoline args=1')" ok
# @k has no args=: under the default (auto) it stays a kretprobe, saying
# ENODATA (61).
is "@k is a kretprobe (no args=: ENODATA), @t a trampoline" "$(mech sw_test_target@k) $(mech sw_test_target@t)" "0 61 1 0"
check "the default's fallback is not logged" sh -c "! dmesg | grep -q \"probe 'sw_test_target@k': kretprobe instead\""
tctl "callers 7 11" >/dev/null
is "18 calls through the trampoline" "$(col sw_test_target@t calls)" 18
is "18 calls through the kretprobe" "$(col sw_test_target@k calls)" 18
is "none missed" "$(col sw_test_target@t missed)" 0
cmp_gt "trampoline times are non-zero" "$(col sw_test_target@t min_ns)" 0
is "a second trampoline on the function: EBUSY" \
	"$(ctl probes '+sw_test_target@t2 attach=trampoline args=1')" EBUSY
is "remove both" "$(ctl probes '-sw_test_target@k -sw_test_target@t')" ok
is "the default puts a function given args= on a trampoline" \
	"$(ctl probes '+sw_test_target args=1') $(mech sw_test_target)" "ok 1 0"
is "and a second probe on it, the kretprobe: EBUSY (16)" \
	"$(ctl probes '+sw_test_target@2 args=1') $(mech sw_test_target@2)" "ok 0 16"
tctl "callers 2 3" >/dev/null
is "both count the 5 calls" "$(col sw_test_target calls) $(col sw_test_target@2 calls)" "5 5"
is "remove them" "$(ctl probes '-sw_test_target -sw_test_target@2')" ok

is "retval, arg0 and caller keys on trampolines" \
	"$(ctl probes '+sw_test_fail attach=trampoline args=1 by=retval +sw_test_target attach=trampoline args=1 by=arg0,caller')" ok
tctl "errors 5 3 2" >/dev/null
is "by=retval: 5 returned 0" "$(kcol sw_test_fail retval=0 calls)" 5
is "by=retval: 3 returned -ENOENT" "$(kcol sw_test_fail retval=-2 calls)" 3
is "by=retval: 2 returned -EINVAL" "$(kcol sw_test_fail retval=-22 calls)" 2
tctl "callers 3 2" >/dev/null
is "by=arg0,caller: arg0=0 from sw_test_caller_a once" \
	"$(awk '$1 == "sw_test_target" && $2 ~ /^arg0=0,caller=sw_test_caller_a\+0x/ { print $3 }' "$D/keys")" 1
is "by=arg0,caller: 5 calls in all" "$(col sw_test_target calls)" 5
is "remove them" "$(ctl probes '-sw_test_fail -sw_test_target')" ok
# The cost sampler times a call's exit with its entry (the entry marks
# the frame's call): the overhead file's estimate of handler runs is two
# per call, within its random gaps' spread.
is "a trampoline on sw_test_target, for its cost" \
	"$(ctl probes '+sw_test_target attach=trampoline args=1')" ok
read -r _ <"$D/overhead"	# its interval starts here
tctl "callers 3000 3000" >/dev/null
oruns=$(awk '$1 == "all" { print $4 }' "$D/overhead")
is "6000 calls, overhead runs within 10% of 2 x 6000 ($oruns): exits timed with their entries" \
	"$(col sw_test_target calls) $([ "${oruns:-0}" -ge 10800 ] && [ "$oruns" -le 13200 ] && echo yes)" "6000 yes"
is "remove it" "$(ctl probes '-sw_test_target')" ok

# The function tracer on the same function: ftrace's own caller runs its
# ops, then goes on to the trampoline (the direct call's shared path).
if [ -w $TR/set_ftrace_filter ] && grep -qw function $TR/available_tracers; then
	is "a trampoline on sw_test_target again" \
		"$(ctl probes '+sw_test_target attach=trampoline args=1')" ok
	echo sw_test_target >$TR/set_ftrace_filter
	echo function >$TR/current_tracer
	echo >$TR/trace
	is "callers 4 5 with the function tracer on the site" "$(tctl 'callers 4 5')" ok
	is "the function tracer saw the 9 calls" \
		"$(grep -c 'sw_test_target <-sw_test_caller_[ab]' $TR/trace)" 9
	echo nop >$TR/current_tracer
	echo >$TR/set_ftrace_filter
	tctl "callers 1 1" >/dev/null
	is "the trampoline counted all 11, none missed" \
		"$(mech sw_test_target) $(col sw_test_target calls) $(col sw_test_target missed)" "1 0 11 0"
	is "remove it" "$(ctl probes '-sw_test_target')" ok
else
	skip "no function tracer: the shared site is not tested"
fi

# --- fallbacks ----------------------------------------------------------------
# Arguments on the stack: the seventh on x86_64, the ninth on arm64.
if [ "$SW_ARCH" = arm64 ]; then
	nst=9
	# Seven and eight arguments are all in registers there.
	is "seven arguments on arm64: a trampoline" \
		"$(ctl probes '+sw_test_args7 attach=trampoline args=7')" ok
	is "args7 x 40: every sum right through the trampoline" "$(tctl 'args7 40')" ok
	is "the trampoline counts 40 calls" \
		"$(mech sw_test_args7) $(col sw_test_args7 calls)" "1 0 40"
	is "remove" "$(ctl probes '-sw_test_args7')" ok
else
	nst=7
fi
is "$nst arguments, auto" "$(ctl probes "+sw_test_args$nst attach=auto args=$nst")" ok
is "auto falls back: attach_err E2BIG" "$(mech sw_test_args$nst)" "0 7"
is "$nst arguments, forced trampoline: refused" \
	"$(ctl probes "+sw_test_args$nst@f attach=trampoline args=$nst")" E2BIG
check "the refusal says why" grep -q "stack" "$D/last_error"
is "args$nst x 40 with the fallback" "$(tctl "args$nst 40")" ok
is "the fallback counts 40 calls" "$(col sw_test_args$nst calls)" 40
is "no args=, auto" "$(ctl probes '+sw_test_loop attach=auto')" ok
is "argument count unknown: kretprobe, attach_err ENODATA" "$(mech sw_test_loop)" "0 61"
is "no args=, forced: refused" "$(ctl probes '+sw_test_leaf attach=trampoline')" ENODATA
is "remove" "$(ctl probes "-sw_test_args$nst -sw_test_loop")" ok
unload

is "load attach=auto" "$(load attach=auto)" ok
is "auto with args, and a forced kretprobe" \
	"$(ctl probes '+sw_test_loop args=1 +sw_test_leaf attach=kretprobe args=1')" ok
is "sw_test_loop on a trampoline, sw_test_leaf stays a kretprobe" \
	"$(mech sw_test_loop) $(mech sw_test_leaf)" "1 0 0 0"
check "kprobes list has sw_test_leaf only" \
	sh -c "grep -q sw_test_leaf /sys/kernel/debug/kprobes/list && ! grep -q sw_test_loop /sys/kernel/debug/kprobes/list"
i=0
while [ $i -lt 20 ]; do tctl "loop 100" >/dev/null; i=$((i + 1)); done
is "20 calls of sw_test_loop" "$(col sw_test_loop calls)" 20
unload

# bpftrace's kfunc probe holds a function's direct call: ours is refused.
if command -v bpftrace >/dev/null 2>&1 && [ -r /sys/kernel/btf/vmlinux ]; then
	is "load" "$(load)" ok
	bpftrace -e 'kfunc:vfs_fsync_range { @n = count(); }' >"$TMP/bt.out" 2>&1 &
	bt=$!
	n=0
	while [ $n -lt 120 ] && ! grep -q Attaching "$TMP/bt.out"; do
		sleep 0.5; n=$((n + 1))
	done
	sleep 1
	if grep -q Attaching "$TMP/bt.out"; then
		is "bpftrace holds vfs_fsync_range: auto falls back" \
			"$(ctl probes '+vfs_fsync_range attach=auto args=4')" ok
		is "attach_err EBUSY" "$(mech vfs_fsync_range)" "0 16"
		is "forced trampoline: EBUSY" \
			"$(ctl probes '+vfs_fsync_range@f attach=trampoline args=4')" EBUSY
	else
		skip "bpftrace did not attach: $(head -c 200 "$TMP/bt.out")"
		skip "bpftrace did not attach"
		skip "bpftrace did not attach"
	fi
	kill -INT $bt 2>/dev/null
	wait $bt 2>/dev/null
	unload
else
	skip "no bpftrace or no BTF: -EBUSY not tested"
fi

# --- sleeping calls: none missed, unwinding, removal in flight -----------------
is "load" "$(load)" ok
is "hrtimer_nanosleep: trampoline and kretprobe" \
	"$(ctl probes '+hrtimer_nanosleep attach=trampoline args=3 +hrtimer_nanosleep@k')" ok
is "2000 threads asleep at once" "$("$TSLEEP" 2000 1500)" "slept 2000"
is "trampoline: 2000 calls, none missed" \
	"$(col hrtimer_nanosleep calls) $(col hrtimer_nanosleep missed)" "2000 0"
diag "kretprobe on the same calls: $(col hrtimer_nanosleep@k calls) calls, $(col hrtimer_nanosleep@k miss_maxactive) missed for want of maxactive"
cmp_ge "trampoline: each call >= 1.5 s" "$(col hrtimer_nanosleep min_ns)" 1500000000

"$P/sleeper" 3000 1 >/dev/null &
sl=$!
sleep 1
st=$(cat /proc/$sl/stack 2>/dev/null)
diag "$(echo "$st" | tr '\n' ' ' | head -c 600)"
# The function's body, the trampoline, the function's entry (the body's
# address the trampoline returns through; on arm64 the function's frame
# record the trampoline pushes), then its callers.
echo "$st" >"$TMP/stack"
is "/proc/PID/stack: the body, sw_tramp_common, the entry, down to the syscall" \
	"$(awk '/hrtimer_nanosleep\+/ && !b { b = 1; next }
		b == 1 && /sw_tramp_common/ { b = 2; next }
		b == 2 && /hrtimer_nanosleep\+0x/ { b = 3; next }
		b == 3 && /do_syscall_64|invoke_syscall/ { b = 4 } END { print b + 0 }' "$TMP/stack")" 4
wait $sl

# rmmod with the probes on while 200 calls sleep in the function: the
# trampolines are the companion's (stopwatch_tramp.ko, never unloaded), so
# rmmod does not wait for them; the calls return later through the
# companion, untouched.  They sleep until SIGUSR1 ends them.
# asleep N: N calls of tsleep asleep in hrtimer_nanosleep (ts, their pid;
# t0, when they are all asleep) until wake_all ends them.
# wake_all N NAME: wake them, and check as NAME that all N woke.
asleep() {
	"$TSLEEP" "$1" 600000 >"$TMP/ts.out" &
	ts=$!
	sleep 2
	t0=$(date +%s)
}
wake_all() {
	kill -USR1 $ts
	wait $ts
	is "$2" "$(cat "$TMP/ts.out")" "slept $1"
}
check "the trampolines' companion is loaded" test -d /sys/module/stopwatch_tramp
asleep 200
rmmod stopwatch 2>"$TMP/rmmod.err"
is "rmmod with the probes on and 200 calls asleep in one: succeeds" "$?" 0
diag "rmmod took $(($(date +%s) - t0)) s; $(cat "$TMP/rmmod.err")"
check "module gone" sh -c "! test -d /sys/module/stopwatch"
check "the sleepers are still asleep in it" kill -0 $ts
# Loaded again, with a trampoline on the same function (the same stub):
# the old calls return under another generation of the companion's ops
# and are counted nowhere; new calls are.
is "load again" "$(load)" ok
is "a trampoline on hrtimer_nanosleep again" \
	"$(ctl probes '+hrtimer_nanosleep attach=trampoline args=3')" ok
wake_all 200 "the sleepers all woke, through a stub of the unloaded module's"
is "their calls, entered under the previous load, are not counted" "$(col hrtimer_nanosleep calls)" 0
is "new calls are" "$("$P/sleeper" 10 3 >/dev/null; col hrtimer_nanosleep calls)" 3

# Removal while 200 calls sleep: at once; the stub is taken by the next
# probe, which does not count the old calls when they return; rmmod is
# at once too.  They sleep until SIGUSR1 wakes them.
asleep 200
is "remove the probe while 200 calls sleep" "$(ctl probes '-hrtimer_nanosleep')" ok
cmp_le "removal does not wait for them" "$(($(date +%s) - t0))" 3
is "the module holds no reference on itself" "$(cat /sys/module/stopwatch/refcnt)" 0
is "a trampoline on hrtimer_nanosleep, the stub taken again" \
	"$(ctl probes '+hrtimer_nanosleep@2 attach=trampoline args=3')" ok
check "the sleepers were still asleep" kill -0 $ts
wake_all 200 "the sleepers all woke"
is "the new probe did not count the removed one's calls" "$(col hrtimer_nanosleep@2 calls)" 0
is "but counts its own" "$("$P/sleeper" 10 2 >/dev/null; col hrtimer_nanosleep@2 calls)" 2
asleep 50
rmmod stopwatch 2>"$TMP/rmmod.err"
is "rmmod while 50 calls sleep in a trampoline: succeeds" "$?" 0
cmp_le "at once" "$(($(date +%s) - t0))" 5
wake_all 50 "the sleepers all woke"
rmmod stopwatch_tramp 2>"$TMP/rmmod.err"
is "the companion refuses rmmod (never unloaded)" "$? $(test -d /sys/module/stopwatch_tramp && echo loaded)" "1 loaded"
diag "rmmod stopwatch_tramp: $(cat "$TMP/rmmod.err")"

# --- schedule itself: 2000 threads asleep in it -------------------------------
# Every thread that sleeps sleeps in schedule(): the trampoline misses
# none of its calls.  Threads that went to sleep while it was on (an idle
# kworker may sleep for minutes) stay in its stub after the probe and the
# module are gone; they return through the companion whenever they wake.
# No kretprobe beside it (its misses are shown on hrtimer_nanosleep
# above): its instances would stay pending in such threads even after its
# removal, and reading /proc/PID/stack of one once it is runnable trips a
# WARN_ON_ONCE in 6.1's rethook_find_ret_addr (the stack reads below).
is "load" "$(load)" ok
is "add schedule, attach=trampoline" \
	"$(ctl probes '+schedule attach=trampoline args=0')" ok
is "schedule: 2000 threads asleep at once" "$("$TSLEEP" 2000 1500)" "slept 2000"
is "schedule on a trampoline" "$(mech schedule)" "1 0"
cmp_ge "trampoline: at least the 2000 sleeps returned" "$(col schedule calls)" 2000
is "trampoline: none missed" "$(col schedule missed)" 0
cmp_ge "trampoline: the longest call >= 1.5 s" "$(col schedule max_ns)" 1500000000
held=$(grep -l sw_tramp_common /proc/[0-9]*/stack 2>/dev/null | wc -l)
diag "threads asleep in schedule through the trampoline: $held"
cmp_gt "some threads are asleep in schedule through the trampoline" "$held" 0
t0=$(date +%s)
rmmod stopwatch 2>"$TMP/rmmod.err"
is "rmmod with schedule on a trampoline: succeeds" "$?" 0
diag "rmmod took $(($(date +%s) - t0)) s; $(cat "$TMP/rmmod.err")"
check "module gone" sh -c '! test -d /sys/module/stopwatch'
# The threads asleep through the stub wake whenever the kernel wakes them;
# kernel threads the workqueue does not need may sleep for minutes: wake
# them (what the kernel's livepatch does to its stragglers; sw_testmod
# wakeidle): each returns through the companion, then sleeps again in the
# plain schedule().
for st in /proc/[0-9]*/stack; do
	grep -q sw_tramp_common "$st" 2>/dev/null || continue
	pd=${st%/stack}
	tctl "wakeidle ${pd#/proc/}" >/dev/null
done
# Until none is left, 2 s at most.
i=0
while [ $i -lt 20 ] && grep -q -l sw_tramp_common /proc/[0-9]*/stack 2>/dev/null; do
	sleep 0.1; i=$((i + 1))
done
diag "threads still asleep through the stub $((i / 10)).$((i % 10)) s later: $(grep -l sw_tramp_common /proc/[0-9]*/stack 2>/dev/null | wc -l)"
is "load again at once" "$(load)" ok
unload

# --- many hot functions, added and removed under load --------------------------
# Milliseconds of uptime (busybox date has no %N).
uptime_ms() { awk '{ printf "%d", $1 * 1000 }' /proc/uptime; }
# Which of them take their arguments in registers, and how many, is
# BTF's word: without it no args= can be given (a wrong one hands the
# function wrong arguments), so none goes on a trampoline.
if [ -r /sys/kernel/btf/vmlinux ]; then
	# 30 (50 in a long run): every step below is a loop over the probes
	# of one line, the same code for 30 as for 100, and each
	# trampoline's removal and unload costs ftrace's text patching, slow
	# under TCG.  The stress suite (make stress) runs 100 of them twenty
	# times.
	nwant=$(rounds 30 50)
	HOT=$(hot_functions "$nwant")
	nhot=$(echo "$HOT" | wc -l)
	is "$nwant of the hot candidates are traceable" "$nhot" "$nwant"
	is "load max_probes=200" "$(load max_probes=200)" ok
	addl=$(hot_adds $HOT)
	reml=$(for f in $HOT; do printf -- '-%s ' "$f"; done)
	"$P/hammer" 30 >/dev/null 2>&1 &
	hm=$!
	fails=0
	# One round (trampstress does twenty, make stress), then a second add
	# that stays on through unload: added, removed and added again.
	t0=$(uptime_ms)
	[ "$(ctl probes "$addl")" = ok ] || fails=$((fails + 1))
	t1=$(uptime_ms)
	"$TSLEEP" 20 50 >/dev/null
	ls -R /sys/kernel/debug/stopwatch >/dev/null
	t2=$(uptime_ms)
	[ "$(ctl probes "$reml")" = ok ] || fails=$((fails + 1))
	t3=$(uptime_ms)
	diag "one line adding the $nhot under load took $((t1 - t0)) ms, removing them $((t3 - t2)) ms"
	is "$nhot trampolines added and removed under load" "$fails" 0
	is "and added again, left on" "$(ctl probes "$addl")" ok
	is "all $nhot on trampolines" "$(on_trampolines)" "$nhot"
	# How ftrace reaches them: a site with our ops alone calls its trampoline
	# directly ("direct-->"); one shared with other ops goes through ftrace's
	# own caller first.
	if [ -r "$TR/enabled_functions" ]; then
		h1=$(echo "$HOT" | head -n 1)
		diag "enabled_functions: $(grep -c 'direct-->' "$TR/enabled_functions") direct calls of $(grep -c '^[^[:space:]]' "$TR/enabled_functions") sites; $h1: $(grep -A 2 "^$h1 " "$TR/enabled_functions" | tr '\n\t' '  ' | head -c 300)"
	fi
	calls=$(calls_total)
	cmp_gt "they counted calls" "$calls" 0
	# A name that several static functions share: the trampoline goes where
	# the kprobe resolved the name (one site), not on every function of that
	# name.
	dup=$(shared_name $HOT)
	if [ -n "$dup" ] && [ -r "$TR/enabled_functions" ]; then
		# BTF may not describe a name several functions share (pahole leaves
		# out one whose prototypes differ): args= is then taken as given.
		dn=$(btf_args "$dup" | awk '{ print $2 }')
		diag "$dup: $(grep -cx "$dup" "$TR/available_filter_functions") traceable functions of that name; BTF's args=${dn:-(none)}"
		is "a shared name ($dup) on a trampoline" \
			"$(ctl probes "+$dup attach=trampoline args=${dn:-6}")" ok
		is "one site of that name is enabled" \
			"$(grep -c "^$dup " "$TR/enabled_functions")" 1
		is "removed" "$(ctl probes "-$dup")" ok
	else
		skip "no traceable name shared by several functions here, or no enabled_functions"
	fi
	kill $hm 2>/dev/null
	wait $hm 2>/dev/null
	unload
	check "module unloaded with the trampolines on" sh -c "! test -d /sys/module/stopwatch"
else
	skip "many hot functions on trampolines: no /sys/kernel/btf/vmlinux (their args= unknown)"
fi
rmmod sw_testmod

# --- the stopwatch program passes args= from BTF --------------------------------
if [ -x "$SW" ] && [ -r /sys/kernel/btf/vmlinux ]; then
	"$SW" time --module "$MOD" --attach trampoline -j hrtimer_nanosleep -- "$P/sleeper" 50 6 \
		>"$TMP/time.json" 2>"$TMP/time.err"
	is "stopwatch time --attach trampoline: ran" "$?" 0
	diag "$(head -c 300 "$TMP/time.err")"
	is "6 calls timed through the trampoline (args= from BTF)" \
		"$(tr '{' '\n' <"$TMP/time.json" | grep '"function":"hrtimer_nanosleep"' |
			tr ',' '\n' | sed -n 's/^"calls":\([0-9]*\).*/\1/p' | head -n 1)" 6
	unload
else
	skip "stopwatch program not built or no BTF"
fi

# --- args= checked against the kernel's BTF -----------------------------------
# A trampoline keeps only the args= registers across its entry half: a
# count below the function's own, or a variadic function, would run it
# with arguments the half overwrote (seq_printf with args=3: an oops in
# string() at the next read of a /proc file).  Where the kernel's BTF
# describes the function, the module checks args= against it: the count
# the stopwatch program writes, and no trampoline for a variadic function.
# Where BTF does not describe it (sw_testmod, built without BTF) args= is
# taken as given, as above.
if [ -r /sys/kernel/btf/vmlinux ]; then
	diag "sw_testmod's BTF: $(ls /sys/kernel/btf/sw_testmod 2>&1)"
	is "load" "$(load)" ok
	# First the case that does not crash a kernel without the check.  The
	# first check of a load reads vmlinux's BTF and indexes it.
	t0=$(uptime_ms)
	is "hrtimer_nanosleep args=2 (BTF: 3): refused" \
		"$(ctl probes '+hrtimer_nanosleep attach=trampoline args=2')" EINVAL
	t1=$(uptime_ms)
	check "the refusal names both counts" \
		grep -q "args=2, but BTF says hrtimer_nanosleep takes 3 argument registers" "$D/last_error"
	diag "$(cat "$D/last_error")"
	is "args=4 (one too many): refused too" \
		"$(ctl probes '+hrtimer_nanosleep attach=trampoline args=4')" EINVAL
	diag "the first check (BTF read and indexed) took $((t1 - t0)) ms, the next $(($(uptime_ms) - t1)) ms; $(dmesg | grep -o 'functions of vmlinux.s BTF indexed.*' | tail -n 1)"
	is "seq_printf attach=trampoline args=3: refused" \
		"$(ctl probes '+seq_printf attach=trampoline args=3')" EINVAL
	check "the refusal says seq_printf is variadic" \
		grep -q "seq_printf is variadic" "$D/last_error"
	diag "$(cat "$D/last_error")"
	is "no probe was left" "$(col seq_printf calls) $(col hrtimer_nanosleep calls)" "absent absent"
	check "/proc files read (seq_printf) after the refusals" \
		sh -c 'cat /proc/cpuinfo /proc/self/mountinfo /proc/modules >/dev/null'
	is "seq_printf attach=auto args=3: accepted" \
		"$(ctl probes '+seq_printf attach=auto args=3')" ok
	is "on the kretprobe, attach_err EINVAL" "$(mech seq_printf)" "0 22"
	check "the kernel log says why: variadic" sh -c \
		"dmesg | grep -q \"probe 'seq_printf': kretprobe instead of a trampoline: seq_printf is variadic\""
	cat /proc/cpuinfo >/dev/null
	cmp_gt "the kretprobe counts seq_printf's calls from /proc/cpuinfo" \
		"$(col seq_printf calls)" 0
	is "BTF's count, args=3: a trampoline" \
		"$(ctl probes '+hrtimer_nanosleep attach=trampoline args=3') $(mech hrtimer_nanosleep)" "ok 1 0"
	"$P/sleeper" 10 3 >/dev/null
	is "it counts the 3 sleeps exactly" "$(col hrtimer_nanosleep calls)" 3
	is "remove them" "$(ctl probes '-seq_printf -hrtimer_nanosleep')" ok
	# A module's function: its module's split BTF, on top of vmlinux's.
	mfn=
	for f in v9fs_file_open v9fs_vfs_getattr_dotl v9fs_vfs_getattr; do
		grep -qx "$f \[9p\]" "$TR/available_filter_functions" && { mfn=$f; break; }
	done
	mn=
	[ -n "$mfn" ] && [ -x "$SW" ] && mn=$(btf_args "$mfn" | awk '{ print $2 }')
	if [ -r /sys/kernel/btf/9p ] && [ -n "$mn" ]; then
		is "$mfn [9p] args=$((mn + 1)) (BTF: $mn): refused" \
			"$(ctl probes "+$mfn attach=trampoline args=$((mn + 1))")" EINVAL
		check "the refusal names both counts" \
			grep -q "args=$((mn + 1)), but BTF says $mfn takes $mn argument registers" "$D/last_error"
		is "args=$mn: a trampoline, and a kretprobe beside it" \
			"$(ctl probes "+$mfn attach=trampoline args=$mn +$mfn@k attach=kretprobe") $(mech "$mfn")" "ok 1 0"
		for f in "$SW_REPO/README.md" "$SW_REPO/Kbuild" "$SW_REPO/Makefile"; do
			cat "$f" >/dev/null
			stat "$f" >/dev/null
		done
		cp "$D/stats" "$TMP/stats.9p"
		cmp_gt "the trampoline counts calls" "$(col "$mfn" calls "$TMP/stats.9p")" 0
		is "as many as the kretprobe" "$(col "$mfn" calls "$TMP/stats.9p")" "$(col "$mfn@k" calls "$TMP/stats.9p")"
		is "remove them" "$(ctl probes "-$mfn -$mfn@k")" ok
	else
		skip "a module's BTF: no 9p function traceable ($mfn), no /sys/kernel/btf/9p or no count from the program ($(head -c 200 "$TMP/btf-args/out" 2>/dev/null))"
	fi
	unload
else
	skip "no /sys/kernel/btf/vmlinux: args= is taken as given (not checked)"
fi
