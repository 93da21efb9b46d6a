# SPDX-License-Identifier: GPL-2.0
# tests/vm/suites/pfm.sh - CPU vendors' event names through libpfm4, as
# "stopwatch events", "events set" and "time -e" take them: listed, resolved
# into the TYPE:CONFIG libpfm4 encodes, a bogus one refused, and (arm64
# under --icount, QEMU's emulated PMUv3) ARMv8's INST_RETIRED (raw 0x08)
# counted on a timed kernel function exactly as the generic instructions.
#
# QEMU's "max" CPU has an implementer libpfm4 does not know: the suite
# takes libpfm4's Cortex-A57 table (LIBPFM_FORCE_PMU=arm_ac57), whose
# INST_RETIRED is the architectural event 0x08 every PMUv3 has.
#
# Runs in the guest with the repository top as the working directory; uses
# SW_ARCH, SW_REPO and the TAP helpers of tap.sh.  pfm.prepare builds what
# it needs.

. "$SW_REPO/tests/vm/tap.sh"
. "$SW_REPO/tests/vm/lib.sh"
# Exact instruction counts: no handler run timed by the cost sampler.
SW_LOAD_EXTRA=cost_sample=0

[ -x "$SW" ] || skip_all "$SW not built (see pfm.prepare)"

# --- listing and resolving ---------------------------------------------------
"$SW" events list >"$TMP/list" 2>"$TMP/err"
is "events list exits 0" "$?" 0 || cat "$TMP/err"
if grep -q "^Vendor events: none, this stopwatch was built without libpfm4" "$TMP/list"; then
	skip_all "this stopwatch was built without libpfm4 (PFM=0)"
fi
if [ "$SW_ARCH" = arm64 ] && ! grep -q "vendor events from libpfm4" "$TMP/list"; then
	diag "libpfm4 does not recognise this CPU ($(grep -m1 'CPU implementer' /proc/cpuinfo)): taking its arm_ac57 table"
	export LIBPFM_FORCE_PMU=arm_ac57
	"$SW" events list >"$TMP/list" 2>"$TMP/err"
	is "events list exits 0 (LIBPFM_FORCE_PMU=arm_ac57)" "$?" 0 || cat "$TMP/err"
fi
check "events list: vendor events marked, or why there are none" \
	grep -Eq "vendor events from libpfm4|^Vendor events: none" "$TMP/list"
"$SW" events resolve NO_SUCH_VENDOR_EVENT_ZZ >"$TMP/out" 2>"$TMP/err"
rc=$?
is "a bogus name is refused as unknown" \
	"$rc $(grep -c 'NO_SUCH_VENDOR_EVENT_ZZ: unknown event' "$TMP/err")" "1 1"

if [ "$SW_ARCH" != arm64 ]; then
	# x86_64 under TCG: whatever libpfm4 makes of QEMU's CPU, a vendor
	# name it lists resolves (there is no PMU to count it on).
	ev=$(awk '/vendor events from libpfm4/ { getline; print $1; exit }' "$TMP/list")
	if [ -n "$ev" ]; then
		"$SW" events resolve "$ev" >"$TMP/out" 2>"$TMP/err"
		rc=$?
		check "$ev (listed) resolves to NAME=TYPE:CONFIG, or is refused with why ($rc: $(cat "$TMP/out" "$TMP/err"))" \
			grep -Eq "^$ev=[0-9]+:0x[0-9a-f]+\$|$ev: " "$TMP/out" "$TMP/err"
	else
		skip "libpfm4 knows no PMU of QEMU's x86_64 CPU: nothing to resolve"
	fi
	rm -rf "$TMP"
	exit 0
fi

check "events list arm_ac57: INST_RETIRED" \
	sh -c "'$SW' events list arm_ac57 | grep -Eq '^  INST_RETIRED +0x8 '"
is "INST_RETIRED resolves to the raw event 0x08" \
	"$("$SW" events resolve INST_RETIRED 2>&1)" "INST_RETIRED=4:0x8"
is "arm_ac57::inst_retired (PMU, lower case) the same" \
	"$("$SW" events resolve arm_ac57::inst_retired 2>&1)" "inst_retired=4:0x8"
is "INST_RETIRED:u: the mode passed on to the module" \
	"$("$SW" events resolve INST_RETIRED:u 2>&1)" "INST_RETIRED_u=4:0x8:u"

# --- counting (exact under --icount) ------------------------------------------
if ! grep -qw sw_icount=1 /proc/cmdline; then
	skip "counting: QEMU's arm64 PMUv3 counts instructions only under --icount"
	rm -rf "$TMP"
	exit 0
fi
[ -r "$MOD" ] || skip_all "module $MOD not built"
[ -r "$TMOD" ] || skip_all "test module $TMOD not built"
[ -x "$P/modload" ] || skip_all "$P/modload not built (make progs)"
unload
is "insmod sw_testmod" "$(insmod "$TMOD" 2>&1 && echo ok)" ok
is "module loads with events=instructions" \
	"$(load events=instructions probes=sw_test_loop)" ok

# loop 1000 x 4 (2 instructions an iteration, interrupts off): EVENT's
# min and max per call.
loopcount() {
	ctl reset 1 >/dev/null
	for i in 1 2 3 4; do "$P/swwrite" "$T/ctl" "loop 1000" >/dev/null; done
	echo "$(col sw_test_loop calls) $(col sw_test_loop "$1_min") $(col sw_test_loop "$1_max")"
}
set -- $(loopcount instructions)
is "instructions: 4 calls, identical (min == max)" "$1 $2" "4 $3"
gen=$2
is "events set INST_RETIRED (the vendor name)" \
	"$("$SW" events set INST_RETIRED 2>&1 && echo ok)" ok
is "the module counts INST_RETIRED" "$(cat "$D/events" 2>&1)" INST_RETIRED
set -- $(loopcount INST_RETIRED)
is "INST_RETIRED: 4 calls, identical (min == max)" "$1 $2" "4 $3"
is "INST_RETIRED per call == instructions per call ($gen)" "$2" "$gen"
# perf's modes on the vendor name: a kernel function's instructions are
# all kernel mode.  Two sets of the same shape (a second counter read
# inside the window adds its own instructions): the first event's count
# per call is the same with or without :k.
is "events set instructions,INST_RETIRED:u" \
	"$("$SW" events set instructions,INST_RETIRED:u 2>&1 && echo ok)" ok
set -- $(loopcount instructions)
gen2=$2
is "instructions beside INST_RETIRED:u: identical calls" "$1 $3" "4 $gen2"
set -- $(loopcount INST_RETIRED_u)
is "INST_RETIRED:u per call: 0, every call" "$2 $3" "0 0"
is "events set INST_RETIRED:k,INST_RETIRED:u" \
	"$("$SW" events set INST_RETIRED:k,INST_RETIRED:u 2>&1 && echo ok)" ok
set -- $(loopcount INST_RETIRED_k)
is "INST_RETIRED:k per call == instructions per call in that shape ($gen2), every call" "$2 $3" "$gen2 $gen2"

# time -e takes it through the same resolver.  time attaches its own
# probe (its attach mode, its own window): compared with time -e
# instructions over the same 4 calls.
# jrow FILE FUNCTION KEY: a number of that function's object.
jrow() {
	tr '{' '\n' <"$1" | grep "\"function\":\"$2\"" | head -n 1 |
		tr ',' '\n' | sed -n "s/^\"$3\":\([0-9.]*\).*/\1/p"
}
for e in instructions INST_RETIRED; do
	ctl events "" >/dev/null	# time -e keeps another user's events
	"$SW" time --json -e "$e" -o "$TMP/time-$e.json" sw_test_loop -- \
		sh -c "for i in 1 2 3 4; do '$P/swwrite' '$T/ctl' 'loop 1000'; done" \
		>/dev/null 2>"$TMP/err"
	is "time -e $e sw_test_loop exits 0" "$?" 0 || cat "$TMP/err"
done
tgen=$(jrow "$TMP/time-instructions.json" sw_test_loop instructions_avg)
is "time -e INST_RETIRED: 4 calls, average == time -e instructions' ($tgen)" \
	"$(jrow "$TMP/time-INST_RETIRED.json" sw_test_loop calls) $(jrow "$TMP/time-INST_RETIRED.json" sw_test_loop INST_RETIRED_avg)" \
	"4 $tgen" || cat "$TMP/time-instructions.json" "$TMP/time-INST_RETIRED.json"
unload
rmmod sw_testmod 2>/dev/null
rm -rf "$TMP"
