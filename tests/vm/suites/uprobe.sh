# SPDX-License-Identifier: GPL-2.0
# tests/vm/suites/uprobe.sh - user functions through uprobes (issue 14):
# exact call counts of a PIE executable's function and of a shared
# library's (the cost sampler timing a call's return with its entry: two
# handler runs per call in the overhead file), wall time and cpu-clock of a sleeping user function, exact
# instructions per call under -icount (arm64), libc's malloc with -p
# (another process calling it at once not counted), a forked child and an
# exec'ed image under -p, a binary replaced on disk, user and kernel
# functions in one "stopwatch time", bad input refused whole, removal
# with calls in flight and rmmod while user probes fire on both CPUs.
# Under -icount (arm64) only the instruction counts run, the rest in the
# boots without it.
#
# Runs in the guest with the repository top as the working directory; uses
# SW_ARCH, SW_REPO and the TAP helpers of tap.sh.  uprobe.prepare builds
# stopwatch.ko, the test programs and the stopwatch program.

. "$SW_REPO/tests/vm/tap.sh"
. "$SW_REPO/tests/vm/lib.sh"

U=$P/uwork
GO=$TMP/go

# padd ARGS...: stopwatch probe add, "ok" or its message.
padd() {
	"$SW" probe add "$@" >"$TMP/padd.out" 2>&1 && echo ok ||
		{ tail -n 1 "$TMP/padd.out"; }
}

# prm IDENTITY...: remove probes.
prm() { for id in "$@"; do ctl probes "-$id" >/dev/null; done; }

# started N: wait until N uwork processes wait for $GO (they exist).
go() { touch "$GO"; }
nogo() { rm -f "$GO"; }

unload
if [ ! -r "$MOD" ] || [ ! -x "$U" ] || [ ! -x "$SW" ]; then
	skip_all "stopwatch.ko, uwork or the stopwatch program not built"
fi
is "load stopwatch" "$(load)" ok
icount=0
grep -qw sw_icount=1 /proc/cmdline && icount=1

# --- exact instructions per call (arm64 -icount) --------------------------------

if [ "$SW_ARCH" != arm64 ] || [ "$icount" = 0 ]; then
	skip "exact instructions: only on arm64 under QEMU -icount (a PMU that counts them exactly)"
elif [ "$(ctl events instructions)" != ok ]; then
	skip "exact instructions: the PMU counts no instructions here"
else
	is "probe add uw_warm, uw_loop" \
		"$(padd "$U:uw_warm" "$U:uw_loop")" ok
	# One CPU online: QEMU's icount is global, so a second vCPU running
	# meanwhile would show in this one's counts.
	CPU1=/sys/devices/system/cpu/cpu1/online
	[ -w "$CPU1" ] && echo 0 >"$CPU1"
	# uwrun LEN: reset, uw_loop(LEN) 8 times; "calls min max unmeasured".
	uwrun() {
		ctl reset 1 >/dev/null
		"$U" loop 8 "$1" >/dev/null
		for _c in calls instructions_min instructions_max \
			instructions_unmeasured; do
			printf '%s ' "$(col uwork:uw_loop $_c)"
		done
	}
	for n in 1000 2000 4000; do
		set -- $(exact_run uwrun $n)
		is "uw_loop($n) x 8: 8 calls, none unmeasured" "$1 $4" "8 0"
		is "uw_loop($n): instructions identical on every call" "$2" "$3"
		eval "I$n=$2"
	done
	diag "instructions per call: 1000: $I1000, 2000: $I2000, 4000: $I4000"
	d1=$((I2000 - I1000))
	is "linear: I(4000) - I(2000) == 2 x (I(2000) - I(1000))" \
		"$((I4000 - I2000))" "$((2 * d1))"
	is "a whole number of instructions per iteration" "$((d1 % 1000))" 0
	[ -w "$CPU1" ] && echo 1 >"$CPU1"
	prm uwork:uw_warm uwork:uw_loop
	ctl events '' >/dev/null
fi

# The rest needs no exact counter: it runs in the boots without -icount,
# keeping this slow one short.
if [ "$icount" = 1 ]; then
	skip "the other uprobe checks: run in the arm64 boot without -icount"
	unload
	rm -rf "$TMP"
	exit 0
fi

# --- a PIE executable's function: exact calls ---------------------------------

is "probe add uwork:uw_call" "$(padd "$U:uw_call")" ok
UPATH=$(readlink -f "$U")
UOFF=$(sed -n 's/^uwork:uw_call uprobe=.*:\(0x[0-9a-f]*\)$/\1/p' "$D/probes")
check "probes says where: uprobe=PATH:0xOFFSET" \
	grep -q "^uwork:uw_call uprobe=$UPATH:0x[0-9a-f]*\$" "$D/probes"
read -r _ <"$D/overhead"	# its interval starts here
"$U" calls 5000
is "5000 calls of uw_call: calls == 5000" "$(col uwork:uw_call calls)" 5000
# The cost sampler times a call's return with its entry (the entry marks
# the call's pending entry): the overhead file's estimate of handler runs
# is two per call, within its random gaps' spread.
oruns=$(awk '$1 == "all" { print $4 }' "$D/overhead")
is "overhead runs ($oruns) within 10% of 2 x 5000: returns timed with their entries" \
	"$([ "${oruns:-0}" -ge 9000 ] && [ "$oruns" -le 11000 ] && echo yes)" yes
is "no missed calls" "$(col uwork:uw_call missed)" 0
check "hist/uwork:uw_call counts 5000 calls" \
	grep -qx 'uwork:uw_call: ns, 5000 calls' "$D/hist/uwork:uw_call"
"$U" calls 1234
is "1234 more: calls == 6234" "$(col uwork:uw_call calls)" 6234
is "reset" "$(ctl reset 1)" ok
"$U" calls 77
is "after reset: calls == 77" "$(col uwork:uw_call calls)" 77

# --- a function in a shared library ---------------------------------------------

if [ "$SW_ARCH" = arm64 ]; then
	skip "shared library: the arm64 guest is a static busybox root without a dynamic loader; libuwork.so's function is linked into uwork there"
else
	is "probe add libuwork.so:uwlib_call" \
		"$(padd "$P/libuwork.so:uwlib_call")" ok
	"$U" lib 3000
	# uwork calls it once before its work, to bind the PLT.
	is "3000 calls in libuwork.so (+1 at start): calls == 3001" \
		"$(col libuwork.so:uwlib_call calls)" 3001
	is "a library by name through the loader's paths (LD_LIBRARY_PATH)" \
		"$(LD_LIBRARY_PATH=$P padd --tag byname libuwork:uwlib_call)" ok
	check "... resolved to libuwork.so" \
		grep -q "^libuwork.so:uwlib_call@byname uprobe=$(readlink -f "$P/libuwork.so"):" "$D/probes"
	prm libuwork.so:uwlib_call@byname
	is "remove libuwork.so:uwlib_call" "$(ctl probes -libuwork.so:uwlib_call)" ok
fi

# --- a sleeping user function: wall time and cpu-clock --------------------------

is "events cpu-clock" "$(ctl events cpu-clock)" ok
is "probe add uwork:uw_sleep" "$(padd "$U:uw_sleep")" ok
SOFF=$(sed -n 's/^uwork:uw_sleep uprobe=.*:\(0x[0-9a-f]*\)$/\1/p' "$D/probes")
"$U" sleep 5 20
is "five 20 ms sleeps: calls == 5" "$(col uwork:uw_sleep calls)" 5
check "min_ns >= 20 ms" test "$(col uwork:uw_sleep min_ns)" -ge 20000000
check "avg_ns <= 30 ms" test "$(col uwork:uw_sleep avg_ns)" -le 30000000
avg=$(col uwork:uw_sleep avg_ns)
cpu=$(col uwork:uw_sleep cpu-clock_avg)
diag "uw_sleep: avg $avg ns wall, cpu-clock avg $cpu ns"
check "cpu-clock far below wall time (under a third)" \
	test "$((cpu * 3))" -lt "$avg"
is "cpu-clock measured on every call" \
	"$(col uwork:uw_sleep cpu-clock_unmeasured)" 0
is "events off" "$(ctl events '')" ok

# Keys read the user registers: uw_sleep's argument is its milliseconds.
is "probe add --by arg0 uw_sleep@k" "$(padd --tag k --by arg0 "$U:uw_sleep")" ok
"$U" sleep 2 20
"$U" sleep 1 30
is "by arg0: the row arg0=20 has 2 calls" \
	"$(awk '$1 == "uwork:uw_sleep@k" && $2 == "arg0=20" { print $3 }' "$D/keys")" 2
is "by arg0: the row arg0=30 has 1 call" \
	"$(awk '$1 == "uwork:uw_sleep@k" && $2 == "arg0=30" { print $3 }' "$D/keys")" 1
prm uwork:uw_sleep@k

# --- libc's malloc with -p -------------------------------------------------------

if [ "$SW_ARCH" = arm64 ]; then
	# Static: malloc is uwork's own (there is no libc.so to map).
	MPT="$U:malloc"
	MROW=uwork:malloc
else
	MPT=libc:malloc
	MROW=libc.so.6:malloc
fi
# mallocs PROBE-ARGS...: A (1000 calls) and B (700) wait for $GO while the
# probes are added with -p A; prints their exit codes.
mallocs() {
	nogo
	UWORK_GO=$GO "$U" malloc 1000 & A=$!
	UWORK_GO=$GO "$U" malloc 700 & B=$!
	sleep 0.5
	is "probe add -p A $MPT (A's mapping named by its name)" \
		"$(padd -p "$A" "$MPT")" ok
	for t in "$@"; do
		is "probe add --tag $t $MPT (every process)" \
			"$(padd --tag "$t" "$MPT")" ok
	done
	go
	wait "$A"; sa=$?
	wait "$B"; sb=$?
	is "both malloc programs ran" "$sa $sb" "0 0"
}
mallocs
is "-p A: exactly A's 1000 malloc calls" "$(col "$MROW" calls)" 1000
is "-p A: B never hit the breakpoint (only A's address space has it)" \
	"$(col "$MROW" filtered)" 0
prm "$MROW"
# With a probe of every process on the same function, B's calls hit the
# shared uprobe and are left out by the -p probe's filter at entry.
mallocs all
is "-p A beside a probe of all: still exactly 1000" "$(col "$MROW" calls)" 1000
check "-p A: B's 700 calls among those filtered at entry" \
	test "$(col "$MROW" filtered)" -ge 700
check "@all: A's and B's calls and more (>= 1700)" \
	test "$(col "$MROW@all" calls)" -ge 1700
prm "$MROW" "$MROW@all"

# Two probes of one function nest on the pending stack: both count all.
is "probe add uw_call@t1" "$(padd --tag t1 "$U:uw_call")" ok
is "probe add uw_call@t2" "$(padd --tag t2 "$U:uw_call")" ok
ctl reset 1 >/dev/null
"$U" calls 400
is "uw_call@t1, @t2 and the untagged probe: 400 each" \
	"$(col uwork:uw_call@t1 calls) $(col uwork:uw_call@t2 calls) $(col uwork:uw_call calls)" \
	"400 400 400"
prm uwork:uw_call@t1 uwork:uw_call@t2 uwork:uw_call

# --- fork and exec under -p ---------------------------------------------------------

nogo
UWORK_GO=$GO "$U" fork 300 & A=$!
sleep 0.3
is "probe add -p A uw_call (A forks)" "$(padd -p "$A" --tag fk "$U:uw_call")" ok
go
wait "$A"
is "fork: the parent's 300 calls, not the child's" \
	"$(col uwork:uw_call@fk calls)" 300
is "fork: the child's first call filtered, then the breakpoint left its address space" \
	"$(col uwork:uw_call@fk filtered)" 1
prm uwork:uw_call@fk

nogo
sh -c 'while [ ! -e "$1" ]; do sleep 0.05; done; exec "$2" calls 250' sh "$GO" "$U" &
A=$!
sleep 0.3
is "probe add -p SH uw_call (SH then execs uwork)" \
	"$(padd -p "$A" --tag ex "$U:uw_call")" ok
go
wait "$A"
is "exec: the same process's new image probed: 250 calls" \
	"$(col uwork:uw_call@ex calls)" 250
prm uwork:uw_call@ex

# --- the binary replaced on disk -------------------------------------------------

nogo
cp "$U" "$TMP/uw" && [ "$SW_ARCH" = arm64 ] || cp "$P/libuwork.so" "$TMP/"
is "probe add a copy of uwork" "$(padd --tag rp "$TMP/uw:uw_call")" ok
UWORK_GO=$GO "$TMP/uw" calls 100 & A=$!
sleep 0.3
cp "$U" "$TMP/uw.new" && mv -f "$TMP/uw.new" "$TMP/uw"
go
wait "$A"
is "replaced: the old image's process still probed (100 calls)" \
	"$(col uw:uw_call@rp calls)" 100
"$TMP/uw" calls 50
is "replaced: the new file is another file, not probed (still 100)" \
	"$(col uw:uw_call@rp calls)" 100
prm uw:uw_call@rp

# --- user and kernel functions in one stopwatch time ---------------------------------

"$SW" time -o "$TMP/time.txt" "$U:uw_sleep" hrtimer_nanosleep -- \
	"$U" sleep 3 20 >"$TMP/time.err" 2>&1
is "stopwatch time uwork:uw_sleep hrtimer_nanosleep -- uwork sleep 3 20" "$?" 0
check "the report has the user function with 3 calls" \
	grep -Eq '^uwork:uw_sleep +3 ' "$TMP/time.txt"
check "and the kernel function under it with 3 calls" \
	grep -Eq '^hrtimer_nanosleep +3 ' "$TMP/time.txt"
grep -q '@t' "$D/probes" && not_ok "time removed its probes" ||
	ok "time removed its probes"

# One call path through user and kernel code: with call paths on, the
# kernel function a user function calls is a path under it.
upcol() {
	awk -v p="$1" -v c="$2" '
		$1 == "path" { for (i = 1; i <= NF; i++) if ($i == c) k = i; on = 1; next }
		on && $1 == p && k { print $k; found = 1 }
		END { if (!found) print "absent" }' "$D/paths"
}
is "paths on" "$(ctl paths on)" ok
is "probe add hrtimer_nanosleep (uwork:uw_sleep is probed)" \
	"$(padd hrtimer_nanosleep)" ok
"$U" sleep 3 20
is "path uwork:uw_sleep: 3 calls" "$(upcol uwork:uw_sleep calls)" 3
is "path uwork:uw_sleep;hrtimer_nanosleep: 3 calls" \
	"$(upcol 'uwork:uw_sleep;hrtimer_nanosleep' calls)" 3
ut=$(upcol uwork:uw_sleep total_ns)
kt=$(upcol 'uwork:uw_sleep;hrtimer_nanosleep' total_ns)
case "$ut$kt" in *[!0-9]*) d="$ut - $kt" ;; *) d=$((ut - kt)) ;; esac
is "self(uw_sleep) = total(uw_sleep) - total(its nanosleeps)" \
	"$(upcol uwork:uw_sleep self_ns)" "$d"
cmp_ge "the nanosleeps under it: >= 3 x 20 ms" "$kt" 60000000
prm hrtimer_nanosleep
is "paths off" "$(ctl paths off)" ok

# With a command, only it and its descendants (follow=): another uwork
# calling the same function meanwhile is left out.
nogo
UWORK_GO=$GO "$U" calls 500 & B=$!
"$SW" time -o "$TMP/time2.txt" "$U:uw_call" -- \
	sh -c 'touch "$1"; "$2" calls 200' sh "$GO" "$U" >"$TMP/time2.err" 2>&1
is "stopwatch time uwork:uw_call -- sh -c 'uwork calls 200'" "$?" 0
wait "$B"
check "exactly the command's 200 calls, not the other uwork's 500" \
	grep -Eq '^uwork:uw_call +200 ' "$TMP/time2.txt"

# --- bad input: a clear error, nothing changed -------------------------------------

before=$(cat "$D/probes")
is "no such file -> ENOENT" \
	"$(ctl probes "+x:f uprobe=/nonexistent/file:0x0")" ENOENT
check "last_error names the file" grep -q "/nonexistent/file: no such file" "$D/last_error"
is "all or nothing: a good user probe and a bad one -> ENOENT" \
	"$(ctl probes "+uwork:uw_call@ok uprobe=$UPATH:$UOFF +x:f uprobe=/nonexistent:0x0")" ENOENT
is "offset beyond the file -> EINVAL" \
	"$(ctl probes "+uwork:far uprobe=$UPATH:0x7fffffff")" EINVAL
is "a directory -> EINVAL" "$(ctl probes "+x:d uprobe=/tmp:0x0")" EINVAL
is "user point without uprobe= -> EINVAL" "$(ctl probes "+uwork:uw_call@x")" EINVAL
is "relative path -> EINVAL" "$(ctl probes "+x:f uprobe=uwork:0x10")" EINVAL
is "bad offset -> EINVAL" "$(ctl probes "+x:f uprobe=$UPATH:0xzz")" EINVAL
is "uprobe= on a kernel function -> EINVAL" \
	"$(ctl probes "+vfs_read uprobe=$UPATH:$UOFF")" EINVAL
is "the probes are unchanged" "$(cat "$D/probes")" "$before"
out=$("$SW" probe add /nonexistent/prog:main 2>&1); rc=$?
check "program: no such file: fails, naming it" \
	sh -c '[ "$1" != 0 ] && echo "$2" | grep -q "/nonexistent/prog"' sh "$rc" "$out"
out=$("$SW" probe add "$U:no_such_function" 2>&1); rc=$?
check "program: no such symbol: fails, naming it" \
	sh -c '[ "$1" != 0 ] && echo "$2" | grep -q "no function no_such_function"' sh "$rc" "$out"
out=$("$SW" probe add "$SW_REPO/README.md:main" 2>&1); rc=$?
check "program: a non-ELF file: fails, saying so" \
	sh -c '[ "$1" != 0 ] && echo "$2" | grep -q "not an ELF file"' sh "$rc" "$out"
is "the probes are still unchanged" "$(cat "$D/probes")" "$before"

# --- removal with calls in flight; rmmod while user probes fire -----------------------

nogo
is "probe add uw_sleep@fl" "$(padd --tag fl "$U:uw_sleep")" ok
"$U" sleep 1 1500 & A=$!
sleep 0.5
is "remove it while a call sleeps inside" "$(ctl probes -uwork:uw_sleep@fl)" ok
wait "$A"
is "the sleeping program returned normally" "$?" 0

"$U" spin 60 & S1=$!
"$U" spin 60 & S2=$!
"$U" sleep 200 100 & S3=$!
fails=0
i=0
nr=$(rounds 3 6)
while [ $i -lt "$nr" ]; do
	unload
	r=$(load)
	[ "$r" = ok ] || fails=$((fails + 1))
	r=$(ctl probes "+uwork:uw_call uprobe=$UPATH:$UOFF +uwork:uw_sleep uprobe=$UPATH:$SOFF")
	[ "$r" = ok ] || fails=$((fails + 1))
	sleep 0.3
	i=$((i + 1))
done
unload
is "$nr load / probe / rmmod cycles under load" "$fails" 0
check "stopwatch unloaded" sh -c '! [ -d /sys/module/stopwatch ]'
kill "$S1" "$S2" "$S3" 2>/dev/null
wait "$S1"; r1=$?
wait "$S2"; r2=$?
wait "$S3"; r3=$?
# Done (0) or ended by SIGTERM (143); a broken uprobe would be SIGILL,
# SIGSEGV or SIGTRAP.
is "the probed programs survived every cycle (exit 0 or SIGTERM)" \
	"$(for r in $r1 $r2 $r3; do [ $r = 0 ] || [ $r = 143 ] && echo y || echo "n($r)"; done | tr '\n' ' ')" "y y y "

rm -rf "$TMP"
