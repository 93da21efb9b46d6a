# SPDX-License-Identifier: GPL-2.0
# tests/vm/suites/trampstress.sh - rmmod under load with trampolines on 100
# hot kernel functions, over and over: load, attach all 100 through
# trampolines while threads on every CPU open, read, stat, sleep, fork and
# exec, then rmmod with the calls still coming (calls in flight return
# through the companion's stubs, stopwatch_tramp.ko, untouched: tramp.c).  The console is scanned after the boot as for
# every suite.
#
# A stress run, not part of the test matrix (one cycle takes 40 s to 2
# minutes under TCG): it runs only when the guest is booted with sw_stress=N (the
# number of cycles) on the kernel command line, e.g.
#
#   tests/vm/run.sh --kernel 6.12 --suite trampstress --append sw_stress=20
#   make stress                   # 20 cycles on every kernel with trampolines
#
# Every other cycle counts two software events as well.
#
# and skips otherwise.  tests/vm/suites/tramp.sh runs one such cycle.

. "$SW_REPO/tests/vm/tap.sh"
. "$SW_REPO/tests/vm/lib.sh"
. "$SW_REPO/tests/vm/tramplib.sh"

cycles=$(cmdarg sw_stress)
case $cycles in
'' | *[!0-9]*) skip_all "stress run: boot with sw_stress=CYCLES (make stress)" ;;
esac
unload
[ -r "$MOD" ] || skip_all "module $MOD not built"
direct_calls ||
	skip_all "no ftrace direct calls on $SW_ARCH $(uname -r)"
# The hot functions' args= come from BTF (tramplib.sh's hot_functions);
# a kernel without BTF (the debug kernel) gets the hot system calls'
# wrappers instead, whose one argument is the registers on every kernel.
if [ -r /sys/kernel/btf/vmlinux ]; then
	HOT=$(hot_functions 100)
	nhot=$(echo "$HOT" | wc -l)
	is "100 of the hot candidates are traceable" "$nhot" 100
	addl=$(hot_adds $HOT)
else
	HOT=$(hot_wrappers 100)
	nhot=$(echo "$HOT" | grep -c .)
	diag "no /sys/kernel/btf/vmlinux: $nhot system call wrappers (args=1) instead of BTF's hot functions"
	cmp_ge "no BTF: at least 40 hot system call wrappers are traceable" "$nhot" 40
	addl=$(echo "$HOT" | awk '{ print $1, 1 }' | adds_line)
fi

# The load: hammer (getppid, read, nanosleep on every CPU), forks and
# execs, and a walk of the file system, until the cycles are done.
"$P/hammer" 100000 >/dev/null 2>&1 &
hm=$!
(while :; do "$P/forker" 50 >/dev/null; ls -R /usr/lib >/dev/null 2>&1; done) &
fk=$!

r=0 bad=0 calls=0
while [ $r -lt "$cycles" ]; do
	t0=$(date +%s)
	# Every other cycle counts software events: the lean calls' slots and
	# the sched_switch hook's virtual counts under the same load.
	ev=
	[ $((r % 2)) = 1 ] && ev=events=cpu-clock,context-switches
	res=$(load max_probes=200 $ev)
	[ "$res" = ok ] || { diag "cycle $r: load: $res"; bad=$((bad + 1)); }
	res=$(ctl probes "$addl")
	[ "$res" = ok ] || { diag "cycle $r: adding: $res: $(cat "$D/last_error")"; bad=$((bad + 1)); }
	n=$(on_trampolines)
	[ "$n" = "$nhot" ] || { diag "cycle $r: $n of $nhot on trampolines"; bad=$((bad + 1)); }
	sleep 1
	c=$(calls_total)
	[ "$c" -gt 0 ] || { diag "cycle $r: no calls counted"; bad=$((bad + 1)); }
	calls=$((calls + c))
	[ -z "$ev" ] || diag "cycle $r: events on, pending: $(tr '\n' ' ' <"$D/pending")"
	rmmod stopwatch 2>"$TMP/rmmod.err" ||
		{ diag "cycle $r: rmmod: $(cat "$TMP/rmmod.err")"; bad=$((bad + 1)); }
	! loaded || { diag "cycle $r: still loaded"; bad=$((bad + 1)); }
	diag "cycle $r: $c calls in 1 s, $(($(date +%s) - t0)) s"
	r=$((r + 1))
done
is "$cycles cycles of load, $nhot trampolines, rmmod under load: all clean" "$bad" 0
cmp_gt "calls counted" "$calls" 0
kill $fk $hm 2>/dev/null
wait $hm 2>/dev/null
