# SPDX-License-Identifier: GPL-2.0
# tests/vm/suites/paths.sh - the measurement core's stacked mode and call
# paths, in a VM.
#
# Part 1: stacked calls (the core keeps the whole record of a call on its
# thread's pending stack, as for a uprobe), through the kretprobe
# mechanism's "stacked" test parameter: exact counts, nesting, recursion,
# a call sleeping in flight, an entry orphaned by a removed probe, and on
# a PMU that counts instructions (arm64 --icount) the same exact counts as
# without it.
#
# Runs in the guest with the repository top as the working directory; uses
# SW_ARCH, SW_REPO and the TAP helpers of tap.sh.  tests/vm/suites/
# paths.prepare builds what it needs.

. "$SW_REPO/tests/vm/tap.sh"
. "$SW_REPO/tests/vm/lib.sh"

T=/sys/kernel/debug/sw_testmod
TMOD=$SW_REPO/build/kmod/$SW_ARCH/sw_testmod.ko
SW=$SW_REPO/build/userspace/stopwatch
[ "$SW_ARCH" = arm64 ] && SW=$SW_REPO/build/userspace-arm64/stopwatch
CPU1=/sys/devices/system/cpu/cpu1/online

# --- helpers ---------------------------------------------------------------

tctl() { "$P/swwrite" "$T/ctl" "$1"; }
# tctlx K CMD: CMD K times (each from its own write).
tctlx() {
	n=$1
	shift
	while [ "$n" -gt 0 ]; do tctl "$*" >/dev/null; n=$((n - 1)); done
}
# pend KEY: a value of the pending file.
pend() { awk -v k="$1" '$1 == k { print $2 }' "$D/pending"; }
cpu1_set() { [ -w "$CPU1" ] && echo "$1" >"$CPU1" 2>/dev/null; }
hw_pmu() {
	for d in /sys/bus/event_source/devices/*; do
		case ${d##*/} in
		cpu | cpu_core | cpu_atom | armv8* | arm_cortex* | arm_neoverse*)
			return 0 ;;
		esac
	done
	return 1
}

unload
rmmod sw_testmod 2>/dev/null
[ -r "$MOD" ] || skip_all "module $MOD not built"
[ -r "$TMOD" ] || skip_all "test module $TMOD not built (paths.prepare)"
is "insmod sw_testmod" "$(insmod "$TMOD" 2>&1 && echo ok)" ok
kp_base=$(kprobes_list | wc -l)

# === Part 1: stacked calls =====================================================

FUNCS="sw_test_loop sw_test_rec sw_test_sleep sw_test_f1 sw_test_f2 sw_test_f3"
is "load stacked=1" "$(load stacked=1)" ok
is "probe the test functions" "$(ctl probes "$(echo "+$FUNCS" | sed 's/ / +/g')")" ok
tctlx 20 loop 1000
is "stacked: loop x 20 is 20 calls" "$(col sw_test_loop calls)" 20
tctlx 5 rec 3 100
is "stacked: recursion to depth 3, 5 times: 20 calls" "$(col sw_test_rec calls)" 20
tctl "chain 7 100 200 300" >/dev/null
is "stacked: chain x 7: f1 7, f2 7, f3 14 calls" \
	"$(col sw_test_f1 calls) $(col sw_test_f2 calls) $(col sw_test_f3 calls)" "7 7 14"
tctlx 3 sleep 1000 20000
is "stacked: a call sleeping 20 ms x 3: 3 calls" "$(col sw_test_sleep calls)" 3
cmp_ge "stacked: each slept call took >= 20 ms" "$(col sw_test_sleep min_ns)" 20000000
cmp_le "stacked: avg of f3 (loop 300) <= avg of f1 (all loops)" \
	"$(col sw_test_f3 avg_ns)" "$(col sw_test_f1 avg_ns)"
is "stacked: nothing unmatched, orphaned or lost" \
	"$(pend unmatched) $(pend orphaned) $(pend lost_no_slot) $(pend lost_too_deep)" "0 0 0 0"
# Deeper than the pending stack: 16 entries kept, the rest lost and counted.
tctl "rec 19 10" >/dev/null
is "stacked: recursion to depth 19 (20 calls): 16 measured" "$(col sw_test_rec calls)" 36
# Their entry half says so, and kretprobes then runs no exit half for them.
is "stacked: the 4 calls beyond the stack: lost_too_deep 4, unmatched 0" \
	"$(pend lost_too_deep) $(pend unmatched)" "4 0"

# A probe removed while its call sleeps: the entry is left on its thread's
# stack, skipped by the exits above it, and abandoned when the thread ends.
ctl reset 1 >/dev/null
"$P/swwrite" "$T/ctl" "sleep 10 1000000" >/dev/null &
sp=$!
sleep 0.3
is "remove sw_test_sleep with a call in flight" "$(ctl probes -sw_test_sleep)" ok
wait $sp
tctlx 4 loop 10
is "stacked: calls after the removal still exact" "$(col sw_test_loop calls)" 4
sleep 0.5	# the thread is freed after an RCU grace period
is "stacked: the removed probe's entry abandoned at thread exit" "$(pend abandoned)" 1
is "stacked: nothing unmatched or orphaned" "$(pend unmatched) $(pend orphaned)" "0 0"

# Exact instruction counts are the same in both modes.
if hw_pmu && grep -qw sw_icount=1 /proc/cmdline; then
	icount() {
		ctl reset 1 >/dev/null
		for i in 1 2 3 4 5 6; do taskset -c 0 "$P/swwrite" "$T/ctl" "loop $1" >/dev/null; done
		echo "$(col sw_test_loop calls) $(col sw_test_loop instructions_min) $(col sw_test_loop instructions_max) $(col sw_test_loop instructions_unmeasured)"
	}
	cpu1_set 0
	is "events instructions" "$(ctl events instructions)" ok
	set -- $(icount 1000)
	is "stacked, loop 1000 x 6: 6 calls, none unmeasured" "$1 $4" "6 0"
	is "stacked: instructions identical on every call" "$2" "$3"
	s1=$2
	set -- $(icount 3000)
	is "stacked: linear, I(3000) - I(1000) == 2 x 2000" "$(($2 - s1))" 4000
	unload
	is "load without stacked" "$(load events=instructions probes=sw_test_loop)" ok
	set -- $(icount 1000)
	is "kretprobe instance data: loop 1000 counts the same ($2)" "$2" "$s1"
	cpu1_set 1
else
	skip "exact instruction counts: no PMU counting instructions here (arm64 --icount has one)"
fi
unload
check "no kprobes left" test "$(kprobes_list | wc -l)" -eq "$kp_base"
