# SPDX-License-Identifier: GPL-2.0
# tests/vm/suites/userspace.sh - the stopwatch program end to end in a VM:
# record a workload with known hot functions (one in a shared library)
# through stopwatch.ko's sampler, report it, and compare with perf record
# of the same workload in the same VM; short-lived processes, call graphs,
# folded stacks, flame graph, pprof, -a/-p/--daemon, exact loss
# accounting, and the errors a user meets.
#
# x86_64 TCG has no PMU: cpu-clock for both stopwatch and perf.  Runs in
# the guest with the repository top as the working directory; uses SW_ARCH,
# SW_REPO, SW_RESULTS and the TAP helpers of tap.sh.

. "$SW_REPO/tests/vm/tap.sh"
. "$SW_REPO/tests/vm/lib.sh"

R=${SW_RESULTS:-/tmp}/userspace
mkdir -p "$TMP" "$R"
EV=cpu-clock
# The three hot functions and their designed shares (swprof.c).
HOT="swprof_hot swprof_lib_hot swprof_warm"

[ "$SW_ARCH" = x86_64 ] || skip_all "this suite compares with perf on the x86_64 guest; on arm64 the program suite runs stat, events, record and report"
[ -x "$SW" ] || skip_all "$SW not built (make userspace)"
[ -r "$MOD" ] || skip_all "module $MOD not built"
[ -x "$P/swprof" ] || skip_all "$P/swprof not built (make progs)"

loaded() { [ -d /sys/module/stopwatch ]; }
unload() { loaded && rmmod stopwatch; }

# share FILE SYMBOL: a symbol's percentage in "report --sort symbol -q"
# output (lines "samples pct% [x] symbol"), 0 when absent.
share() {
	awk -v s="$2" '$1 !~ /^#/ && $4 == s { sub(/%/, "", $2); print $2; f = 1 }
		END { if (!f) print 0 }' "$1"
}

# perf_share FILE SYMBOL: the same from "perf report --stdio -q".
perf_share() {
	awk -v s="$2" '$3 == s { sub(/%/, "", $1); print $1; f = 1 }
		END { if (!f) print 0 }' "$1"
}

# nth FILE N: the symbol of the Nth row.
nth() { awk -v n="$2" '$1 !~ /^#/ && NF >= 4 { if (++i == n) { print $4; exit } }' "$1"; }

# A checking kernel (lockdep: /proc/lockdep; the debug kernel also has
# KASAN) runs its own code many times slower than the workload's: the
# share of a process's samples in the kernel grows with it, and with
# what each profiler does in that kernel.  There the user functions'
# shares are compared among the workload's user samples.
CHECKING=0
[ -r /proc/lockdep ] && CHECKING=1

# ushare FILE SYMBOL COLUMN...: SYMBOL's share of the user samples ([.])
# of FILE, whose percent, mode and symbol columns are given.
ushare() {
	awk -v s="$2" -v p="$3" -v m="$4" -v y="$5" '$1 !~ /^#/ && $m == "[.]" {
		v = $p; sub(/%/, "", v); t += v; if ($y == s) a += v }
		END { printf "%.2f\n", t ? 100 * a / t : 0 }' "$1"
}

absdiff() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; printf "%.2f\n", d }'; }

# --- no module: clear errors ---------------------------------------------------
unload
"$SW" record -a --duration 1 -o "$TMP/none.swd" >"$TMP/out" 2>"$TMP/err"
is "record without the module fails" "$?" 1
check "... and says to load it" grep -q "is stopwatch.ko loaded? (insmod stopwatch.ko)" "$TMP/err"

is "module loads" "$("$P/modload" "$MOD" "")" ok

# --- the workload, recorded by stopwatch -----------------------------------------
"$SW" record -e $EV -F 1000 -g -o "$TMP/sw.swd" -- "$P/swprof" 3000 \
	>"$TMP/rec.out" 2>"$TMP/rec.err"
is "record -- swprof exits 0" "$?" 0
cat "$TMP/rec.err"
check "record prints its summary" grep -q "stopwatch record: wrote [0-9]* samples" "$TMP/rec.err"
check "the sampler is stopped afterwards" grep -q "^state *stopped" "$D/sampler"
cp "$TMP/sw.swd" "$R/sw.swd"

"$SW" report -i "$TMP/sw.swd" >"$TMP/rep.txt" 2>"$TMP/rep.err"
is "report exits 0" "$?" 0
cat "$TMP/rep.txt" | head -20
check "report header names the command" grep -q "^# command: .*swprof 3000 (pid [0-9]* and its children)" "$TMP/rep.txt"
"$SW" report -i "$TMP/sw.swd" --sort symbol -q >"$TMP/sym.txt" 2>/dev/null
is "1st symbol" "$(nth "$TMP/sym.txt" 1)" swprof_hot
is "2nd symbol (shared library)" "$(nth "$TMP/sym.txt" 2)" swprof_lib_hot
is "3rd symbol" "$(nth "$TMP/sym.txt" 3)" swprof_warm
"$SW" report -i "$TMP/sw.swd" --sort image,symbol -q >"$TMP/img.txt" 2>/dev/null
check "swprof_lib_hot is in libswprof.so" grep -Eq "libswprof\.so +\[\.\] swprof_lib_hot" "$TMP/img.txt"
"$SW" report -i "$TMP/sw.swd" --sort symbol,srcline -q -n 20 >"$TMP/src.txt" 2>/dev/null
check "swprof_hot has file:line" grep -Eq "swprof_hot +swprof\.c:[0-9]+" "$TMP/src.txt"
check "swprof_lib_hot has file:line" grep -Eq "swprof_lib_hot +swprof_lib\.c:[0-9]+" "$TMP/src.txt"

# --- the same workload, recorded by perf -------------------------------------------
if command -v perf >/dev/null 2>&1; then
	perf record -q -e $EV -F 1000 -g -o "$TMP/perf.data" -- "$P/swprof" 3000 \
		>/dev/null 2>"$TMP/perf.err"
	perf report -i "$TMP/perf.data" --stdio --no-children --sort symbol -q \
		-g none 2>/dev/null | grep -v '^$' >"$TMP/perf.txt"
	head -5 "$TMP/perf.txt"
	for s in $HOT; do
		a=$(share "$TMP/sym.txt" "$s")
		b=$(perf_share "$TMP/perf.txt" "$s")
		diag "$s: stopwatch $a%, perf $b%"
		if [ $CHECKING = 1 ]; then
			a=$(ushare "$TMP/sym.txt" "$s" 2 3 4)
			b=$(ushare "$TMP/perf.txt" "$s" 1 2 3)
			cmp_le "$s share of the user samples within 5 points of perf's ($a% vs $b%; a checking kernel)" \
				"$(absdiff "$a" "$b")" 5
		else
			cmp_le "$s share within 5 points of perf's ($a% vs $b%)" "$(absdiff "$a" "$b")" 5
		fi
	done
	is "perf's top symbol is the same" "$(awk 'NR == 1 { print $3 }' "$TMP/perf.txt")" swprof_hot
else
	skip "perf not installed"
fi

# --- call graph, folded stacks, flame graph, pprof, JSON -----------------------------
"$SW" report -i "$TMP/sw.swd" -g -q >"$TMP/cg.txt" 2>/dev/null
check "call graph: main -> swprof_run -> swprof_hot is a common path" \
	grep -q "main -> swprof_run -> swprof_hot$" "$TMP/cg.txt"
is "call graph: swprof_hot's hottest caller is swprof_run" \
	"$(grep -A1 '^ *[0-9.]*%  swprof_hot  \[swprof\]$' "$TMP/cg.txt" | sed -n 2p | awk '{ print $2 }')" \
	swprof_run
"$SW" report -i "$TMP/sw.swd" --folded >"$TMP/out.folded" 2>/dev/null
check "folded: comm;...;main;swprof_run;swprof_hot N" \
	grep -Eq "^swprof;.*main;swprof_run;swprof_hot [0-9]+$" "$TMP/out.folded"
"$SW" report -i "$TMP/sw.swd" --svg "$TMP/flame.svg" -q >/dev/null 2>&1
cp "$TMP/flame.svg" "$R/flame.svg" 2>/dev/null
check "flame graph is well-formed XML naming swprof_hot" python3 -c "
import sys, xml.etree.ElementTree as E
t = E.parse('$TMP/flame.svg')
sys.exit(0 if any('swprof_hot' in (g.get('data-n') or '') for g in t.iter('{http://www.w3.org/2000/svg}g')) else 1)"
"$SW" report -i "$TMP/sw.swd" --json >"$TMP/rep.json" 2>/dev/null
check "JSON parses, top row swprof_hot" python3 -c "
import json; d = json.load(open('$TMP/rep.json')); assert d['rows'][0]['symbol'] == 'swprof_hot', d['rows'][0]"
"$SW" report -i "$TMP/sw.swd" --pprof "$TMP/prof.pb.gz" -q >/dev/null 2>&1
if command -v go >/dev/null 2>&1; then
	HOME=$TMP GOCACHE=$TMP/gocache go tool pprof -top "$TMP/prof.pb.gz" >"$TMP/pprof.txt" 2>&1
	is "go tool pprof -top accepts the profile" "$?" 0
	is "pprof's top symbol" "$(awk '/flat%/ { getline; print $NF; exit }' "$TMP/pprof.txt")" swprof_hot
else
	skip "go not installed (golang-go)"
fi

# --- exact accounting: the report's losses match the sampler's counters --------------
scol() {
	awk -v r="$1" -v c="$2" '
		$1 == "cpu" { for (i = 1; i <= NF; i++) if ($i == c) k = i; t = 1; next }
		t && $1 == r && k { print $k; found = 1 }
		END { if (!found) print "absent" }' "$D/sampler"
}
written=$(scol all written)
lost_sum=$(($(scol all lost_full) + $(scol all lost_nested) + \
	$(scol all lost_stack) + $(scol all lost_throttled)))
json=$("$SW" report -i "$TMP/sw.swd" --all --json 2>/dev/null)
read_n=$(echo "$json" | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['samples'])")
lost_n=$(echo "$json" | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['lost']['samples'])")
diag "sampler written $written lost $lost_sum; report read $read_n lost $lost_n"
is "every sample the sampler wrote is in the file" "$read_n" "$written"
is "the report's losses are the sampler's" "$lost_n" "$lost_sum"

# --- short-lived processes: resolved from the stream after they exited ---------------
"$SW" record -e $EV -F 1000 -g -o "$TMP/fork.swd" -- "$P/swprof" 3000 fork 15 \
	>/dev/null 2>"$TMP/fork.err"
is "record of 15 short-lived children exits 0" "$?" 0
"$SW" report -i "$TMP/fork.swd" --sort comm,image,symbol -q >"$TMP/fork.txt" 2>/dev/null
head -6 "$TMP/fork.txt"
is "children's samples first: comm, image, symbol" \
	"$(awk '$1 !~ /^#/ { print $3, $4, $6; exit }' "$TMP/fork.txt")" \
	"swchild swprof swprof_hot"
if [ $CHECKING = 1 ]; then
	# The parent's fork and wait, and each child's start before it is
	# named, are kernel work: a checking kernel's share.
	cmp_ge "children's share of the user samples (a checking kernel)" \
		"$(awk '$1 !~ /^#/ && $5 == "[.]" { sub(/%/, "", $2); t += $2; if ($3 == "swchild") s += $2 }
			END { print t ? 100 * s / t : 0 }' "$TMP/fork.txt")" 80
	diag "children's share of all samples: $(awk '$1 !~ /^#/ && $3 == "swchild" { s += $2 } END { print s + 0 }' "$TMP/fork.txt")%"
else
	cmp_ge "children's share" \
		"$(awk '$1 !~ /^#/ && $3 == "swchild" { s += $2 } END { print s + 0 }' "$TMP/fork.txt")" 80
fi
unk=$(awk '$1 !~ /^#/ && $3 == "swchild" && $6 == "[unknown]" { s += $2 } END { print s + 0 }' "$TMP/fork.txt")
cmp_le "children's [unknown] share" "$unk" 5
"$SW" report -i "$TMP/fork.swd" --sort pid -q >"$TMP/pids.txt" 2>/dev/null
cmp_ge "15 child processes (and the parent) seen" "$(grep -vc '^#' "$TMP/pids.txt")" 15

# --- -p PID, -a ------------------------------------------------------------------------
"$P/swprof" 4000 >/dev/null &
wp=$!
sleep 0.3
"$SW" record -p "$wp" -F 1000 -o "$TMP/pid.swd" >/dev/null 2>"$TMP/pid.err"
is "record -p ends when the process does" "$?" 0 || diag "$(cat "$TMP/pid.err")"
wait "$wp"
"$SW" report -i "$TMP/pid.swd" --sort symbol -q >"$TMP/pid.txt" 2>/dev/null
is "record -p: top symbol" "$(nth "$TMP/pid.txt" 1)" swprof_hot
"$SW" record -a --duration 1 -o "$TMP/all.swd" >/dev/null 2>&1
is "record -a --duration 1 exits 0" "$?" 0
"$SW" report -i "$TMP/all.swd" -q >"$TMP/all.txt" 2>/dev/null
cmp_ge "record -a has samples" "$(grep -vc '^#' "$TMP/all.txt")" 1

# --- --daemon: rotated files, each complete, later ones still resolve -----------------
"$P/swprof" 8000 >/dev/null &
wp=$!
"$SW" record --daemon --rotate-interval 1 -F 500 -o "$TMP/d" >/dev/null 2>"$TMP/d.err" &
dp=$!
sleep 7
# A loaded host slows the guest: give the rotation up to 60 s more to make
# its third file (the check below still fails if it never does).
i=0
while [ "$(ls "$TMP/d"/stopwatch-*.swd 2>/dev/null | wc -l)" -lt 3 ] &&
	[ $i -lt 120 ]; do
	sleep 0.5
	i=$((i + 1))
done
kill -INT "$dp"
wait "$dp"
is "record --daemon ends cleanly on SIGINT" "$?" 0
wait "$wp"
n=$(ls "$TMP/d"/stopwatch-*.swd 2>/dev/null | wc -l)
cmp_ge "--daemon rotated files" "$n" 3
bad=0
for f in "$TMP/d"/stopwatch-*.swd; do
	"$SW" report -i "$f" --all -q >/dev/null 2>"$TMP/d1.err" || bad=$((bad + 1))
	grep -q "incomplete" "$TMP/d1.err" && bad=$((bad + 1))
done
is "every rotated file is complete and readable" "$bad" 0
second=$(ls "$TMP/d"/stopwatch-*.swd | sed -n 2p)
"$SW" report -i "$second" --all --comm swprof --sort symbol -q >"$TMP/d2.txt" 2>/dev/null
is "a rotated file resolves a process that started before it" "$(nth "$TMP/d2.txt" 1)" swprof_hot

# --- errors -----------------------------------------------------------------------
echo "start event=$EV freq=100" >"$D/sampler"
"$SW" record -a --duration 1 -o "$TMP/busy.swd" >/dev/null 2>"$TMP/err"
is "record refuses while the sampler runs" "$?" 1
check "... and says so" grep -q "the sampler is already running" "$TMP/err"
echo stop >"$D/sampler"
"$SW" record -e no-such-event -a --duration 1 -o "$TMP/bad.swd" >/dev/null 2>"$TMP/err"
is "a bad event fails" "$?" 1
check "... naming the event, before the module sees it" grep -q "no-such-event: unknown event" "$TMP/err"
"$SW" record -o "$TMP/x.swd" -- /nonexistent/prog >/dev/null 2>"$TMP/err"
is "a missing command fails" "$?" 1
check "... naming it" grep -q "cannot run '/nonexistent/prog': No such file or directory" "$TMP/err"
head -c 3000 "$TMP/sw.swd" >"$TMP/cut.swd"
"$SW" report -i "$TMP/cut.swd" >/dev/null 2>"$TMP/err"
is "a cut file still reports" "$?" 0
check "... and says it is incomplete" grep -q "is incomplete" "$TMP/err"

unload
rm -rf "$TMP"
