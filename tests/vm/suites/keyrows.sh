# SPDX-License-Identifier: GPL-2.0
# tests/vm/suites/keyrows.sh - keyed rows (by=, span by=) under a hot
# writer: every read of keys and span_keys ends within a bound while another
# CPU calls the probed function in a loop, the rows add up to the calls
# once it stops, and more distinct keys than slots go to the other row.
#
# Runs in the guest with the repository top as the working directory; uses
# SW_ARCH, SW_REPO (see tests/vm/README.md) and the TAP helpers of tap.sh.

. "$SW_REPO/tests/vm/tap.sh"
. "$SW_REPO/tests/vm/lib.sh"

GETPPID=$(ksym '^__(x64|arm64)_sys_getppid$')
READS=$(rounds 3 5)
BOUND_CS=500	# each read under 5 s (centiseconds of /proc/uptime)
# Slots per CPU table for the reads under load: big enough that copying a
# whole table takes longer than a TCG vCPU's time slice, so that a reader
# which retries the whole table whenever the writer moved never ends while
# the writer runs (single-threaded TCG switches vCPUs every 100 ms).
SLOTS=65536

# ksum FILE NAME: the calls of NAME's rows in FILE (keys layout), all rows.
ksum() { awk -v p="$2" 'NR > 1 && $1 == p { s += $3 } END { print s + 0 }' "$1"; }

# up_cs: uptime in centiseconds.
up_cs() { awk '{ split($1, a, "."); print a[1] * 100 + a[2] }' /proc/uptime; }

# busy: getppid in a loop, on CPU 1 when taskset can pin it; returns once
# the loop makes its system calls (TCG translates it first).
busy() {
	if command -v taskset >/dev/null 2>&1; then
		taskset -c 1 "$P/getppid_loop" 2000000000 >/dev/null &
	else
		"$P/getppid_loop" 2000000000 >/dev/null &
	fi
	BUSY=$!
	busy_from=$(col "$GETPPID" calls)
	n=0
	while [ "$(col "$GETPPID" calls)" -lt $((busy_from + 1000)) ] &&
		[ $n -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
}

unbusy() {
	kill $BUSY
	wait $BUSY 2>/dev/null
}

# timed_reads FILE: READS reads of FILE under the writer, the last one's
# output in $TMP/read.out; sets worst, the slowest in cs, and unread, how
# many reads showed an unread row.  A read still going after BOUND_CS has
# failed: the writer is stopped so that it can end (a reader waiting for a
# quiet table would wait forever, and the suite with it), then started
# again, and no more reads are made.
timed_reads() {
	worst=0 unread=0 i=0
	while [ $i -lt $READS ]; do
		t0=$(up_cs)
		cat "$1" >"$TMP/read.out" &
		rd=$!
		while kill -0 $rd 2>/dev/null &&
			[ $(($(up_cs) - t0)) -le $BOUND_CS ]; do
			sleep 0.05
		done
		late=0
		if kill -0 $rd 2>/dev/null; then
			unbusy
			late=1
		fi
		wait $rd
		dt=$(($(up_cs) - t0))
		[ $dt -gt $worst ] && worst=$dt
		grep -q ' unread=' "$TMP/read.out" && unread=$((unread + 1))
		i=$((i + 1))
		if [ $late = 1 ]; then
			busy
			break
		fi
	done
}

unload
if [ ! -r "$MOD" ]; then
	skip_all "module $MOD not built"
fi
if [ -z "$GETPPID" ]; then
	skip_all "no getppid syscall entry in /proc/kallsyms"
fi

# --- reads under a hot writer ------------------------------------------------

is "load breakdown_slots=$SLOTS" "$(load breakdown_slots=$SLOTS)" ok
is "probe $GETPPID by=pid" "$(ctl probes "+$GETPPID by=pid")" ok
is "span gp by=pid on $GETPPID" \
	"$(ctl spans "+gp start=$GETPPID:tid stop=$GETPPID%return:tid by=pid")" ok
busy
cmp_ge "the loop calls getppid" "$(col "$GETPPID" calls)" 1000
timed_reads "$D/keys"
cp "$TMP/read.out" "$TMP/keys.load"
cmp_le "keys: $READS reads under load, each < 5 s (worst ${worst}0 ms)" \
	"$worst" $BOUND_CS
diag "keys: $unread of $i reads had an unread row"
timed_reads "$D/span_keys"
cmp_le "span_keys: $READS reads under load, each < 5 s (worst ${worst}0 ms)" \
	"$worst" $BOUND_CS
diag "span_keys: $unread of $i reads had an unread row"
t0=$(up_cs)
is "a control write under load" "$(ctl breakdown pid)" ok
cmp_le "the control write < 5 s" $(($(up_cs) - t0)) $BOUND_CS
ctl breakdown none >/dev/null
cmp_ge "keys shows a pid row under load" \
	"$(awk -v p="$GETPPID" 'NR > 1 && $1 == p && $2 ~ /^pid=/' "$TMP/keys.load" | wc -l)" 1
unbusy
cp "$D/keys" "$TMP/keys.after"
cp "$D/stats" "$TMP/stats.after"
calls=$(col "$GETPPID" calls "$TMP/stats.after")
is "keys: rows (other included) add up to the calls ($calls)" \
	"$(ksum "$TMP/keys.after" "$GETPPID")" "$calls"
is "keys: no unread row once the writer stopped" \
	"$(grep -c ' unread=' "$TMP/keys.after")" 0
cp "$D/span_keys" "$TMP/span_keys.after"
cp "$D/span_stats" "$TMP/span_stats.after"
is "span_keys: rows add up to the intervals" \
	"$(ksum "$TMP/span_keys.after" gp)" "$(col gp calls "$TMP/span_stats.after")"
is "remove the span" "$(ctl spans -gp)" ok
unload

# --- more keys than slots ------------------------------------------------------

is "load breakdown_slots=16" "$(load breakdown_slots=16)" ok
is "probe $GETPPID by=pid" "$(ctl probes "+$GETPPID by=pid")" ok
i=0
while [ $i -lt 60 ]; do
	"$P/getppid_loop" 20 >/dev/null
	i=$((i + 1))
done
cp "$D/keys" "$TMP/keys.many"
cp "$D/stats" "$TMP/stats.many"
calls=$(col "$GETPPID" calls "$TMP/stats.many")
cmp_ge "60 processes: at least 1200 calls" "$calls" 1200
is "more keys than slots: rows add up to the calls ($calls)" \
	"$(ksum "$TMP/keys.many" "$GETPPID")" "$calls"
ncpu=$(grep -c '^processor' /proc/cpuinfo)
cmp_le "at most 16 rows per CPU" \
	"$(awk -v p="$GETPPID" 'NR > 1 && $1 == p && $2 ~ /^pid=/' "$TMP/keys.many" | wc -l)" \
	$((16 * ncpu))
cmp_ge "the keys without room are counted in other" \
	"$(awk -v p="$GETPPID" 'NR > 1 && $1 == p && $2 == "other" { print $3 }' "$TMP/keys.many")" 20
unload
