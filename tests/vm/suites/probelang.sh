# SPDX-License-Identifier: GPL-2.0
# tests/vm/suites/probelang.sh - the probes file's language (issue 11):
# FUNC@TAG identities, per-probe filters (pid= tgid= comm= cgroup= cpus=
# follow= min_ns= max_ns=) and keys (by=, the keys file), with exact counts
# from the functions of tests/kmod/sw_testmod.c, and bad input refused
# whole.
#
# Runs in the guest with the repository top as the working directory; uses
# SW_ARCH, SW_REPO (see tests/vm/README.md) and the TAP helpers of tap.sh.
# probelang.prepare builds stopwatch.ko, sw_testmod.ko and the programs.

. "$SW_REPO/tests/vm/tap.sh"
. "$SW_REPO/tests/vm/lib.sh"

# kcol PROBE KEY COLUMN: a row of the keys file, like col for stats.
kcol() {
	KKEY=$2 awk -v p="$1" -v c="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
		$1 == p && $2 == ENVIRON["KKEY"] && k { print $k; found = 1 }
		END { if (!found) print "absent" }' "$D/keys"
}

# krows PROBE: the probe's rows of the keys file, "key calls" each.
krows() { awk -v p="$1" 'NR > 1 && $1 == p { print $2, $3 }' "$D/keys"; }

# tctl CMD: one command to the test module.
tctl() { echo "$1" > "$T/ctl"; }

unload
rmmod sw_testmod 2>/dev/null
if [ ! -r "$MOD" ] || [ ! -r "$TMOD" ]; then
	skip_all "stopwatch.ko or sw_testmod.ko not built"
fi
is "load stopwatch" "$(load)" ok
is "insmod sw_testmod" "$(insmod "$TMOD" 2>&1 && echo ok)" ok
is "version says stats_format $(stats_format) (include/stopwatch/files.h)" \
	"$(sed -n 's/^stats_format //p' "$D/version")" "$(stats_format)"
hdr=$(head -n 1 "$D/stats" | tr -s ' ')
case "$hdr" in
*" filtered filtered_short filtered_long attach attach_err detached p50_ns p90_ns p99_ns p999_ns cost_ns cost_fixed_ns cost_total_ns window_ns") ok "stats ends with the filtered columns, then attach (1.3), detached (1.4), percentiles (1.6), cost (1.7), window (1.9)" ;;
*) not_ok "stats ends with the filtered columns, then attach (1.3), detached (1.4), percentiles (1.6), cost (1.7), window (1.9)"; diag "header: $hdr" ;;
esac
is "keys header" "$(head -n 1 "$D/keys" | tr -s ' ')" \
	"probe key calls min_ns avg_ns max_ns stddev_ns total_ns"

# --- tags: two probes on one function, different windows --------------------

is "two tagged probes on sw_test_delay" \
	"$(ctl probes '+sw_test_delay@fast max_ns=10000000 +sw_test_delay@slow min_ns=10000000')" ok
is "probes lists both identities" "$(cat "$D/probes" | tr '\n' ' ')" \
	"sw_test_delay@fast sw_test_delay@slow "
check "hist/sw_test_delay@slow exists" test -r "$D/hist/sw_test_delay@slow"
# Fast calls return at once with interrupts off, slow ones sleep 20 ms; the
# window's edge is 10 ms, far from both even under TCG on a busy host.
tctl "delay 7 0"
tctl "delay 3 20000"
is "min_ns=10ms: the 3 slow calls counted" "$(col sw_test_delay@slow calls)" 3
is "min_ns=10ms: the 7 fast calls in filtered_short" \
	"$(col sw_test_delay@slow filtered_short)" 7
check "min_ns=10ms: min_ns >= 20000000" \
	test "$(col sw_test_delay@slow min_ns)" -ge 20000000
is "max_ns=10ms: the 7 fast calls counted" "$(col sw_test_delay@fast calls)" 7
is "max_ns=10ms: the 3 slow calls in filtered_long" \
	"$(col sw_test_delay@fast filtered_long)" 3
is "window filters: nothing filtered at entry" \
	"$(col sw_test_delay@fast filtered)" 0
check "hist of @slow counts 3 calls" \
	grep -qx 'sw_test_delay@slow: ns, 3 calls' "$D/hist/sw_test_delay@slow"
is "same identity again: EEXIST" "$(ctl probes '+sw_test_delay@slow')" EEXIST
is "remove one tag" "$(ctl probes '-sw_test_delay@fast')" ok
is "the other stays" "$(cat "$D/probes")" "sw_test_delay@slow"
is "remove the other" "$(ctl probes '-sw_test_delay@slow')" ok

# --- pid=, tgid=, comm=, follow= -------------------------------------------------

# The shell adds the probe for itself ($$) and does the work itself (echo is
# a builtin); another shell then does the same work.
sh -c '"$0" "$1/probes" "+sw_test_target@me pid=$$ +sw_test_target@mytgid tgid=$$" >/dev/null
	for i in 1 2 3 4 5; do echo "callers 10 0" > "$2/ctl"; done' \
	"$P/swwrite" "$D" "$T"
sh -c 'for i in 1 2 3; do echo "callers 10 0" > "$1/ctl"; done' x "$T"
is "pid=: the shell's 50 calls counted" "$(col sw_test_target@me calls)" 50
is "pid=: another process's 30 calls filtered" \
	"$(col sw_test_target@me filtered)" 30
is "tgid=: the same 50 calls" "$(col sw_test_target@mytgid calls)" 50
is "tgid=: the same 30 filtered" "$(col sw_test_target@mytgid filtered)" 30
is "remove them" "$(ctl probes '-sw_test_target@me -sw_test_target@mytgid')" ok

# swfailer: a shell that renames itself (a symlink would not do: the arm64
# guest's sh is busybox, which picks its applet by that name).
swfailer() { sh -c 'printf swfailer > /proc/$$/comm && eval "$1"' x "$1"; }
is "comm=swfailer" "$(ctl probes '+sw_test_fail@c comm=swfailer')" ok
swfailer "echo 'errors 2 4 0' > $T/ctl"
tctl "errors 5 0 0"
is "comm=: swfailer's 6 calls counted" "$(col sw_test_fail@c calls)" 6
is "comm=: the other 5 filtered" "$(col sw_test_fail@c filtered)" 5
is "remove it" "$(ctl probes '-sw_test_fail@c')" ok

# follow=: the shell and every descendant count, an unrelated shell not.
sh -c '"$0" "$1/probes" "+sw_test_target@fol follow=$$" >/dev/null
	echo "callers 2 0" > "$2/ctl"
	sh -c "sh -c \"echo callers 0 3 > $2/ctl\""' "$P/swwrite" "$D" "$T"
sh -c 'echo "callers 4 0" > "$1/ctl"' x "$T"
is "follow=: the shell's 2 and its grandchild's 3 counted" \
	"$(col sw_test_target@fol calls)" 5
is "follow=: the unrelated 4 filtered" "$(col sw_test_target@fol filtered)" 4
is "remove it" "$(ctl probes '-sw_test_target@fol')" ok

# cpus=: the same work pinned to CPU 0 and to CPU 1.
if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null; then
	is "cpus=1" "$(ctl probes '+sw_test_target@cpu1 cpus=1')" ok
	taskset -c 0 sh -c 'echo "callers 6 0" > "$1/ctl"' x "$T"
	taskset -c 1 sh -c 'echo "callers 0 9" > "$1/ctl"' x "$T"
	is "cpus=1: the 9 calls on CPU 1 counted" "$(col sw_test_target@cpu1 calls)" 9
	is "cpus=1: the 6 on CPU 0 filtered" "$(col sw_test_target@cpu1 filtered)" 6
	is "remove it" "$(ctl probes '-sw_test_target@cpu1')" ok
else
	skip "cpus=: needs 2 CPUs and taskset"
fi

# cgroup=: a cgroup v2 directory's inode number is its id.
CG=
if grep -q '^cgroup2 /sys/fs/cgroup ' /proc/mounts ||
	mount -t cgroup2 none /sys/fs/cgroup 2>/dev/null; then
	CG=/sys/fs/cgroup/swtest.$$
	mkdir "$CG" 2>/dev/null || CG=
fi
if [ -n "$CG" ]; then
	cgid=$(stat -c %i "$CG")
	is "cgroup=$cgid" "$(ctl probes "+sw_test_target@cg cgroup=$cgid")" ok
	sh -c 'echo $$ > "$2/cgroup.procs" && echo "callers 3 4" > "$1/ctl"' x "$T" "$CG"
	tctl "callers 5 0"
	is "cgroup=: the 7 calls inside counted" "$(col sw_test_target@cg calls)" 7
	is "cgroup=: the 5 outside filtered" "$(col sw_test_target@cg filtered)" 5
	is "remove it" "$(ctl probes '-sw_test_target@cg')" ok
	rmdir "$CG" 2>/dev/null
else
	skip "cgroup=: no cgroup v2 hierarchy in this guest"
fi

# --- keys ---------------------------------------------------------------------------

is "by=caller" "$(ctl probes '+sw_test_target@caller by=caller')" ok
tctl "callers 7 11"
rows=$(krows sw_test_target@caller)
# (printf: the key escapes the space before "[sw_testmod]" as \040.)
is "by=caller: two rows" "$(printf '%s\n' "$rows" | wc -l)" 2
is "by=caller: 7 calls from sw_test_caller_a" \
	"$(printf '%s\n' "$rows" | awk '$1 ~ /^caller=sw_test_caller_a\+0x/ { print $2 }')" 7
is "by=caller: 11 calls from sw_test_caller_b, busiest first" \
	"$(printf '%s\n' "$rows" | head -n 1 | awk '$1 ~ /^caller=sw_test_caller_b\+0x/ { print $2 }')" 11
printf '%s\n' "$rows" | while IFS= read -r l; do diag "$l"; done

is "by=retval, by=comm,retval and by=arg0 on one function" \
	"$(ctl probes '+sw_test_fail@rv by=retval +sw_test_fail@cr by=comm,retval sw_test_target@arg by=arg0')" ok
tctl "errors 5 3 2"
swfailer "echo 'errors 1 4 0' > $T/ctl"
is "by=retval: 6 returned 0" "$(kcol sw_test_fail@rv retval=0 calls)" 6
is "by=retval: 7 returned -ENOENT" "$(kcol sw_test_fail@rv retval=-2 calls)" 7
is "by=retval: 2 returned -EINVAL" "$(kcol sw_test_fail@rv retval=-22 calls)" 2
is "by=retval: three rows" "$(krows sw_test_fail@rv | wc -l)" 3
is "by=comm,retval: swfailer returned -ENOENT 4 times" \
	"$(kcol sw_test_fail@cr comm=swfailer,retval=-2 calls)" 4
is "by=comm,retval: swfailer returned 0 once" \
	"$(kcol sw_test_fail@cr comm=swfailer,retval=0 calls)" 1
is "by=comm,retval: swfailer never -EINVAL" \
	"$(kcol sw_test_fail@cr comm=swfailer,retval=-22 calls)" absent
tctl "callers 3 2"
is "by=arg0: arg0=0 twice from each caller" "$(kcol sw_test_target@arg arg0=0 calls)" 2
is "by=arg0: arg0=2 once" "$(kcol sw_test_target@arg arg0=2 calls)" 1

# The global breakdown mode still keys probes without a by= of their own,
# in breakdown_stats (as before) and in keys; probes with one keep theirs.
is "plain probe next to them" "$(ctl probes '+sw_test_loop')" ok
is "breakdown pid" "$(ctl breakdown pid)" ok
tctl "loop 10"
tctl "loop 10"
is "breakdown_stats: the plain probe's row" \
	"$(awk -v p=sw_test_loop 'NR > 1 && $1 == p { print $3 }' "$D/breakdown_stats")" 2
is "breakdown_stats: no rows of by= probes" \
	"$(awk 'NR > 1 && $1 ~ /@/' "$D/breakdown_stats" | wc -l)" 0
is "keys: the plain probe's rows keyed pid=" \
	"$(awk 'NR > 1 && $1 == "sw_test_loop" { sub(/=.*/, "", $2); print $2 }' "$D/keys" | sort -u)" pid
is "keys: by=caller rows kept" "$(krows sw_test_target@caller | wc -l)" 2 ||
	cat "$D/keys" | while IFS= read -r l; do diag "$l"; done
is "breakdown none" "$(ctl breakdown none)" ok
is "reset" "$(ctl reset 1)" ok
is "reset empties the keyed rows" "$(krows sw_test_target@caller | wc -l)" 0
tctl "callers 1 0"
is "rows fill again after a reset" \
	"$(krows sw_test_target@caller | awk '$1 ~ /^caller=sw_test_caller_a\+0x/ { print $2 }')" 1 ||
	cat "$D/keys" | while IFS= read -r l; do diag "$l"; done

# Rows carry the event statistics: a software event, so on any guest.
# The sleeps are 20 ms: a 2 ms one can end before schedule() when TCG
# stalls the vCPU between arming the timer and sleeping, and then it
# switches no context (the averages are whole numbers).
if [ "$(ctl events context-switches)" = ok ]; then
	is "by=arg0 with events" "$(ctl probes '+sw_test_delay@ev by=arg0')" ok
	tctl "delay 4 0"
	tctl "delay 2 20000"
	case "$(head -n 1 "$D/keys")" in
	*" context-switches_avg") ok "keys header ends with context-switches_avg" ;;
	*) not_ok "keys header ends with context-switches_avg" ;;
	esac
	is "events: the 4 calls that do not sleep" \
		"$(kcol sw_test_delay@ev arg0=0 calls)" 4
	is "events: they switch no context" \
		"$(kcol sw_test_delay@ev arg0=0 context-switches_avg)" 0
	is "events: the 2 calls that sleep" \
		"$(kcol sw_test_delay@ev arg0=20000 calls)" 2
	check "events: they switch context at least once each" \
		test "$(kcol sw_test_delay@ev arg0=20000 context-switches_avg)" -ge 1
	is "remove it, no events" \
		"$(ctl probes '-sw_test_delay@ev')$(ctl events '')" okok
else
	skip "rows with events: context-switches cannot be counted here"
fi

# --- bad input: refused whole, named, nothing changes ----------------------------

before=$(cat "$D/probes")
badcase() {
	is "$1: $3" "$(ctl probes "$2")" "$3"
	check "$1: last_error names '$4'" grep -qF -- "$4" "$D/last_error"
	is "$1: probes unchanged" "$(cat "$D/probes")" "$before"
}
badcase "unknown option" "+sw_test_leaf foo=1" EINVAL "foo=1"
badcase "bad number" "+sw_test_leaf pid=12x" EINVAL "pid=12x"
badcase "comm too long" "+sw_test_leaf comm=0123456789abcdef" EINVAL \
	"comm=0123456789abcdef"
badcase "argument index out of range" "+sw_test_leaf by=arg6" EINVAL "by=arg6"
badcase "unknown key" "+sw_test_leaf by=pid,bogus" EINVAL "by=pid,bogus"
badcase "option without a probe" "pid=1 +sw_test_leaf" EINVAL "pid=1"
badcase "option of a removal" "-sw_test_loop pid=1" EINVAL "pid=1"
badcase "bad tag" "+sw_test_leaf@a-b" EINVAL "sw_test_leaf@a-b"
badcase "existing identity" "+sw_test_leaf +sw_test_fail@rv" EEXIST \
	"sw_test_fail@rv"
badcase "min above max" "+sw_test_leaf min_ns=5 max_ns=4" EINVAL "max_ns=4"
check "no sw_test_leaf probe registered" \
	sh -c "! grep -q sw_test_leaf /sys/kernel/debug/kprobes/list"

# --- gone cleanly -----------------------------------------------------------------

is "remove every probe" \
	"$(ctl probes '-sw_test_target@caller -sw_test_fail@rv -sw_test_fail@cr -sw_test_target@arg -sw_test_loop')" ok
is "no probes left" "$(cat "$D/probes")" ""
unload
check "stopwatch unloaded" sh -c '! test -d /sys/module/stopwatch'
rmmod sw_testmod
rm -rf "$TMP"
