# SPDX-License-Identifier: GPL-2.0
# tests/vm/suites/tramplife.sh - lifetimes where trampolines meet the rest
# of the kernel, each a fault once reproduced:
#   - a kretprobe sharing a trampolined function: the trampoline's caller
#     key is the real caller, not the kretprobe's trampoline
#   - the companion's own text (stopwatch_tramp.ko's stubs) refused on
#     every attach path, as stopwatch.ko's own is
#   - the module of a probed function unloaded and loaded again, on a
#     trampoline and on a kretprobe: the probes are detached (stats column
#     detached), ftrace stays well (no WARNING, ftrace_enabled readable),
#     the probes come off, new ones work
#   - a load that fails on an unknown function after a trampoline was
#     set up unwinds it all: the companion is not left bound to the freed
#     module, no reference on it leaks, the next load's trampolines work
# Without ftrace direct calls (arm64 6.1) only the kretprobe half of the
# module unload runs; the rest is skipped, saying why.

. "$SW_REPO/tests/vm/tap.sh"
. "$SW_REPO/tests/vm/lib.sh"
. "$SW_REPO/tests/vm/tramplib.sh"

TREF=/sys/module/stopwatch_tramp/refcnt

tctl() { "$P/swwrite" "$T/ctl" "$1"; }
mech() { echo "$(col "$1" attach) $(col "$1" attach_err)"; }
# keyed PROBE REGEX: the calls of PROBE's row whose key matches REGEX.
keyed() {
	awk -v p="$1" -v re="$2" '$1 == p && $2 ~ re { n += $3 } END { print n + 0 }' "$D/keys"
}
ftrace_ok() { cat /proc/sys/kernel/ftrace_enabled 2>&1; }

unload
rmmod sw_testmod 2>/dev/null
[ -r "$MOD" ] || skip_all "module $MOD not built"
[ -r "$TMOD" ] || skip_all "test module $TMOD not built (tramp.prepare)"
is "insmod sw_testmod" "$(insmod "$TMOD" 2>&1 && echo ok)" ok
direct=0
direct_calls && direct=1
diag "ftrace direct calls on $SW_ARCH $(uname -r): $direct"
is "load" "$(load)" ok
is "stats format $(stats_format)" "$(sed -n 's/^stats_format //p' "$D/version")" "$(stats_format)"

# --- the caller key of a trampoline that a kretprobe shares -------------------
if [ $direct = 1 ]; then
	is "a kretprobe and a trampoline keyed by caller on sw_test_target" \
		"$(ctl probes '+sw_test_target@k attach=kretprobe +sw_test_target attach=trampoline args=1 by=caller')" ok
	is "one on each" "$(mech sw_test_target@k) $(mech sw_test_target)" "0 0 1 0"
	tctl "callers 3 2" >/dev/null
	is "the kretprobe counts the 5 calls" "$(col sw_test_target@k calls)" 5
	is "by=caller: 3 from sw_test_caller_a" "$(keyed sw_test_target '^caller=sw_test_caller_a[+]0x')" 3
	is "by=caller: 2 from sw_test_caller_b" "$(keyed sw_test_target '^caller=sw_test_caller_b[+]0x')" 2
	diag "keys: $(awk '$1 == "sw_test_target" { printf "%s %s; ", $2, $3 }' "$D/keys" | head -c 300)"
	is "remove them" "$(ctl probes '-sw_test_target@k -sw_test_target')" ok
	is "a trampoline alone by caller (no kretprobe)" \
		"$(ctl probes '+sw_test_target attach=trampoline args=1 by=caller')" ok
	tctl "callers 1 4" >/dev/null
	is "by=caller: 4 from sw_test_caller_b" "$(keyed sw_test_target '^caller=sw_test_caller_b[+]0x')" 4
	is "remove it" "$(ctl probes '-sw_test_target')" ok
else
	skip "no ftrace direct calls: no trampoline's caller key"
fi

# --- the companion's text: refused as stopwatch.ko's own ----------------------
if [ -d /sys/module/stopwatch_tramp ]; then
	is "stopwatch's own function refused" \
		"$(ctl probes '+sw_tramp_enter attach=kretprobe')" EINVAL
	is "a kretprobe on the companion's sw_tramp_stubs refused" \
		"$(ctl probes '+sw_tramp_stubs attach=kretprobe')" EINVAL
	check "saying it is stopwatch's own" grep -q "own functions" "$D/last_error"
	is "a trampoline on it refused" \
		"$(ctl probes '+sw_tramp_stubs attach=trampoline args=0')" EINVAL
	is "auto on it refused" "$(ctl probes '+sw_tramp_stubs args=0')" EINVAL
	is "its exported sw_tramp_attach refused" \
		"$(ctl probes '+sw_tramp_attach')" EINVAL
	is "a span point on it refused" \
		"$(ctl spans '+st start=sw_tramp_stubs:tid stop=sw_test_loop%return:tid')" EINVAL
	is "a span's return point on it refused" \
		"$(ctl spans '+st start=sw_test_loop:tid stop=sw_tramp_stubs%return:tid')" EINVAL
	is "no probe left behind" "$(grep -c . "$D/probes")" 0
	check "no kprobe left on the companion" sh -c "! kprobes_list | grep -q stopwatch_tramp" 
else
	skip "no stopwatch_tramp.ko on $(uname -r) (no direct calls): nothing of it to refuse"
fi

# --- the probed function's module unloaded and loaded again ------------------
# sw_test_loop on a trampoline (where there are direct calls), sw_test_target
# on a kretprobe: both functions of sw_testmod.
if [ $direct = 1 ]; then
	adds='+sw_test_loop attach=trampoline args=1 +sw_test_target attach=kretprobe'
	dels='-sw_test_loop -sw_test_target'
else
	adds='+sw_test_target attach=kretprobe'
	dels='-sw_test_target'
fi
# work: one call of sw_test_loop, 3 of sw_test_target.
work() { tctl "loop 10" >/dev/null; tctl "callers 2 1" >/dev/null; }
is "probes on sw_testmod's functions" "$(ctl probes "$adds")" ok
work
[ $direct = 1 ] && is "the trampoline counts the call" "$(mech sw_test_loop) $(col sw_test_loop calls)" "1 0 1"
is "the kretprobe counts 3 calls" "$(mech sw_test_target) $(col sw_test_target calls)" "0 0 3"
is "none detached yet" "$(col sw_test_target detached)" 0
dmesg -c >/dev/null 2>&1
is "rmmod sw_testmod with them on" "$(rmmod sw_testmod 2>&1 && echo ok)" ok
is "the kretprobe is detached" "$(col sw_test_target detached)" 1
if [ $direct = 1 ]; then
	is "the trampoline is detached" "$(col sw_test_loop detached)" 1
	check "the detachment is logged" sh -c "dmesg | grep -q 'module sw_testmod going: 1 trampoline detached'"
fi
is "insmod sw_testmod again" "$(insmod "$TMOD" 2>&1 && echo ok)" ok
work
is "the detached kretprobe counts nothing more" "$(col sw_test_target calls)" 3
[ $direct = 1 ] && is "the detached trampoline counts nothing more" "$(col sw_test_loop calls)" 1
is "remove them" "$(ctl probes "$dels")" ok
is "ftrace is still enabled" "$(ftrace_ok)" 1
is "the same probes on the reloaded functions" "$(ctl probes "$adds")" ok
work
[ $direct = 1 ] && is "the new trampoline counts the call" "$(mech sw_test_loop) $(col sw_test_loop calls) $(col sw_test_loop detached)" "1 0 1 0"
is "the new kretprobe counts 3" "$(col sw_test_target calls) $(col sw_test_target detached)" "3 0"
is "removed" "$(ctl probes "$dels")" ok
# Unloaded once more with them on, loaded again, then stopwatch itself.
is "the same probes once more" "$(ctl probes "$adds")" ok
is "rmmod sw_testmod" "$(rmmod sw_testmod 2>&1 && echo ok)" ok
is "insmod sw_testmod" "$(insmod "$TMOD" 2>&1 && echo ok)" ok
is "rmmod stopwatch with the detached probes on" "$(rmmod stopwatch 2>&1 && echo ok)" ok
is "ftrace is still enabled" "$(ftrace_ok)" 1

# --- a load that fails after setting up a trampoline --------------------------
if [ $direct = 1 ] && [ -r "$TREF" ]; then
	ref0=$(cat "$TREF")
	is "load with a trampoline, then an unknown function: ENOENT" \
		"$(load 'probes="ksys_read args=3 attach=trampoline no_such_fn"')" ENOENT
	is "no reference on stopwatch_tramp leaked" "$(cat "$TREF")" "$ref0"
	is "again: ENOENT" \
		"$(load 'probes="ksys_read args=3 attach=trampoline no_such_fn"')" ENOENT
	is "still none leaked" "$(cat "$TREF")" "$ref0"
	is "a load after them" "$(load)" ok
	is "its trampolines work (the companion is free)" \
		"$(ctl probes '+ksys_read attach=trampoline args=3') $(mech ksys_read)" "ok 1 0"
	check "no EBUSY blaming BPF in the log" sh -c "! grep -q BPF $D/last_error"
	cmp_ge "counting calls" "$(cat /proc/version >/dev/null; col ksys_read calls)" 1
	unload
	is "the companion holds no reference once unloaded" "$(cat "$TREF")" "$ref0"
else
	skip "no ftrace direct calls (or no stopwatch_tramp.ko): no failed load with a trampoline"
fi
is "ftrace is enabled at the end" "$(ftrace_ok)" 1
rmmod sw_testmod 2>/dev/null
