# SPDX-License-Identifier: GPL-2.0
# tests/vm/suites/fixtures.sh - capture what stopwatch.ko really prints,
# for the host tests of the stopwatch program's parsers
# (userspace/tests/fixtures/<arch>/).  scripts/capture-fixtures.sh boots
# the VM with this suite and copies $SW_RESULTS/fixtures/<arch>/ into the
# tree; the host tests then parse the files and assert what is below.
#
# The known setup: probes vfs_read and vfs_write, breakdown by comm, the
# events $FIX_EVENTS (arm64: cycles,instructions, so the stats have cpi_*
# columns; x86_64 TCG has no PMU: software events), and a workload of
# "dd bs=1 count=$FIX_DD" (at least $FIX_DD calls of each probe, by the
# command "dd").  The files are copied under the names debugfs gives them,
# so the directory reads like a stopwatch debugfs directory
# (stopwatch stat --debugfs DIR).  arm64 needs --icount: QEMU's PMUv3
# counts instructions only then.
#
# The spans $FIX_SPANS (lines of the spans file, each filtered to the
# command "dd", so that nothing else moves them while the files are read):
# wr, vfs_write's entry to its return, and rd, vfs_read's, by=comm (rows
# in span_keys), both keyed by tid (at least $FIX_DD intervals each); rw,
# vfs_read's entry to vfs_write's return on the same thread (one interval
# per byte dd copies: at least $FIX_DD; dd's reads with no write after
# them restart it, its writes with no read before them are unmatched).
# They are defined before the workload and removed once their files
# (spans, span_stats, span_keys, span_hist/, span_lhists) are read.
#
# The sampler file is captured after a session of the sampler (event
# $FIX_SEV, freq=$FIX_FREQ, no call stacks) over a second of dd loops
# ($FIX_SDD_BS-byte reads and writes), run once the probes' files are
# read, so that it holds the per-CPU counter table with every column
# the module has.

. "$SW_REPO/tests/vm/tap.sh"
. "$SW_REPO/tests/vm/lib.sh"

FIX_DD=3000
if [ "$SW_ARCH" = arm64 ]; then
	FIX_EVENTS=cycles,instructions
else
	FIX_EVENTS=cpu-clock,context-switches
fi
# The sampler's event: the default of each (x86_64 TCG: no PMU).
if [ "$SW_ARCH" = arm64 ]; then
	FIX_SEV=cycles
else
	FIX_SEV=cpu-clock
fi
FIX_FREQ=1000
FIX_SPANS="+wr start=vfs_write:tid stop=vfs_write%return:tid comm=dd
+rd start=vfs_read:tid stop=vfs_read%return:tid comm=dd by=comm
+rw start=vfs_read:tid stop=vfs_write%return:tid comm=dd"
FIX_SDD_BS=4096
FIX_SDD_COUNT=256
OUT=${SW_RESULTS:-/tmp}/fixtures/$SW_ARCH

[ -r "$MOD" ] || skip_all "module $MOD not built"
[ -x "$P/modload" ] || skip_all "$P/modload not built (make progs)"

unload
is "module loads with the known probes, events and breakdown" \
	"$(load "probes=vfs_read,vfs_write events=$FIX_EVENTS breakdown=comm")" ok ||
	skip_all "stopwatch.ko did not load: nothing to capture (arm64 counts instructions only with --icount)"
while read -r line; do
	is "span ${line%% *}: added (${line#* })" "$(ctl spans "$line")" ok
done <<SPANS
$FIX_SPANS
SPANS
dd if=/dev/zero of=/dev/null bs=1 count=$FIX_DD 2>/dev/null
is "the workload ran" "$?" 0

rm -rf "$OUT"
mkdir -p "$OUT/hist" "$OUT/span_hist"
# One read per file, all right after the workload.
for f in stats hists lhists breakdown breakdown_stats keys events counters version \
	probes last_error spans span_stats span_keys span_lhists; do
	cat "$D/$f" >"$OUT/$f" 2>/dev/null || rm -f "$OUT/$f"
done
for f in "$D"/hist/*; do
	cat "$f" >"$OUT/hist/${f##*/}"
done
for f in "$D"/span_hist/*; do
	cat "$f" >"$OUT/span_hist/${f##*/}"
done
cat >"$OUT/workload" <<WL
probes vfs_read,vfs_write
events $FIX_EVENTS
breakdown comm
workload dd if=/dev/zero of=/dev/null bs=1 count=$FIX_DD
$(echo "$FIX_SPANS" | sed 's/^/span /')
sampler start event=$FIX_SEV freq=$FIX_FREQ, then dd if=/dev/zero of=/dev/null bs=$FIX_SDD_BS count=$FIX_SDD_COUNT in a loop for 1 s, stop (after the files above were read)
kernel $(uname -r)
machine $(uname -m)
WL

cmp_ge "vfs_read calls (at least dd's reads)" "$(col vfs_read calls "$OUT/stats")" $FIX_DD
cmp_ge "vfs_write calls (at least dd's writes)" "$(col vfs_write calls "$OUT/stats")" $FIX_DD
check "hist/vfs_read captured" test -s "$OUT/hist/vfs_read"
check "hists captured (a section per probe)" grep -q "^vfs_write: ns, " "$OUT/hists"
check "breakdown_stats has a dd row" grep -q "^vfs_read  *dd " "$OUT/breakdown_stats"
if [ "$SW_ARCH" = arm64 ]; then
	check "stats has cpi columns" grep -q " cpi_avg " "$OUT/stats"
fi

# The spans: dd's intervals only (comm=dd), so the files agree.
is "spans lists the spans as they were written" "$(cat "$OUT/spans")" "$FIX_SPANS"
for s in wr rd rw; do
	cmp_ge "span $s: calls (at least dd's $FIX_DD)" \
		"$(col $s calls "$OUT/span_stats")" $FIX_DD
	is "span_hist/$s: the buckets add up to the calls" \
		"$(awk '$2 ~ /^\|/ && $1 ~ /^[0-9]+$/ { s += $NF } END { print s + 0 }' \
			"$OUT/span_hist/$s")" "$(col $s calls "$OUT/span_stats")"
	is "span $s: no start dropped, no key unreadable" \
		"$(col $s dropped_full "$OUT/span_stats") $(col $s unreadable "$OUT/span_stats")" "0 0"
	# span_lhists: "NAME: ns, CALLS calls, hist_bits K; total NS", then
	# "LOW HIGH COUNT" rows.
	is "span_lhists $s: the title's calls and the rows' sum are span_stats' calls" \
		"$(awk -v s="$s:" '$1 == s { on = 1; t = $3; next } on && NF == 3 { n += $3; next } on { exit } END { print t + 0, n + 0 }' \
			"$OUT/span_lhists")" \
		"$(col $s calls "$OUT/span_stats") $(col $s calls "$OUT/span_stats")"
done
check "span_stats has the events' columns" \
	grep -q " ${FIX_EVENTS%%,*}_avg " "$OUT/span_stats"
check "span_keys has rd's dd row" grep -q "^rd  *comm=dd " "$OUT/span_keys"
is "span_keys: rd's rows add up to its calls" \
	"$(awk 'NR > 1 && $1 == "rd" { s += $3 } END { print s + 0 }' "$OUT/span_keys")" \
	"$(col rd calls "$OUT/span_stats")"
is "span_keys: no rows of the spans without by=" \
	"$(awk 'NR > 1 && $1 != "rd"' "$OUT/span_keys" | wc -l)" 0
diag "spans: wr $(col wr calls "$OUT/span_stats") rd $(col rd calls "$OUT/span_stats") rw $(col rw calls "$OUT/span_stats") calls (rw restarted $(col rw restarted "$OUT/span_stats"), unmatched $(col rw unmatched "$OUT/span_stats")); the probes' dd rows in keys: vfs_read $(awk '$1 == "vfs_read" && $2 == "comm=dd" { print $3 }' "$OUT/keys"), vfs_write $(awk '$1 == "vfs_write" && $2 == "comm=dd" { print $3 }' "$OUT/keys")"
for s in wr rd rw; do
	is "span $s: removed" "$(ctl spans "-$s")" ok
done

# The sampler, after the probes' files are read (its dd adds calls to
# them): a short session, then its file with the per-CPU counters.
is "sampler: start event=$FIX_SEV freq=$FIX_FREQ" \
	"$(ctl sampler "start event=$FIX_SEV freq=$FIX_FREQ")" ok
# uptime_cs: the guest's uptime in centiseconds (its date may lack %N).
uptime_cs() { awk '{ split($1, t, "."); print t[1] * 100 + t[2] }' /proc/uptime; }
t_end=$(($(uptime_cs) + 100))
n_dd=0
while [ "$(uptime_cs)" -lt "$t_end" ]; do
	dd if=/dev/zero of=/dev/null bs=$FIX_SDD_BS count=$FIX_SDD_COUNT 2>/dev/null
	n_dd=$((n_dd + 1))
done
diag "sampler workload: $n_dd dd runs in 1 s"
is "sampler: stop" "$(ctl sampler stop)" ok
cat "$D/sampler" >"$OUT/sampler"
# scol ROW COLUMN: a value of the captured per-CPU table, by column name.
scol() {
	awk -v r="$1" -v c="$2" '
		$1 == "cpu" { for (i = 1; i <= NF; i++) if ($i == c) k = i; t = 1; next }
		t && $1 == r && k { print $k; found = 1 }
		END { if (!found) print "absent" }' "$OUT/sampler"
}
check "sampler captured stopped" grep -q "^state  *stopped\$" "$OUT/sampler"
check "sampler's event line names $FIX_SEV" \
	grep -Eq "^event +$FIX_SEV type=" "$OUT/sampler"
check "sampler has the counter table's header, with kthrottled" \
	grep -q "^cpu .* taken .* kthrottled .* queued  *error\$" "$OUT/sampler"
check "sampler has the table's all row" grep -q "^all " "$OUT/sampler"
cmp_ge "sampler: samples taken (all row)" "$(scol all taken)" 1
is "sampler: nothing left queued" "$(scol all queued)" 0
diag "sampler: taken $(scol all taken) written $(scol all written) lost_full $(scol all lost_full) lost_nested $(scol all lost_nested) lost_stack $(scol all lost_stack) lost_throttled $(scol all lost_throttled) kthrottled $(scol all kthrottled)"

# What the program makes of the captured directory: the host tests
# compare these with their own reading of the same files.
if [ -x "$SW" ]; then
	"$SW" stat --debugfs "$OUT" --raw >"$OUT/stat.txt" 2>"$TMP/err"
	is "stopwatch stat reads the captured files" "$?" 0 || cat "$TMP/err"
	check "stopwatch stat --raw: a spans section" grep -qx "spans:" "$OUT/stat.txt"
	"$SW" stat --debugfs "$OUT" --json >"$OUT/stat.json" 2>"$TMP/err"
	is "stopwatch stat --json reads them" "$?" 0 || cat "$TMP/err"
	"$SW" stat --debugfs "$OUT" --prometheus >"$OUT/stat.prom" 2>"$TMP/err"
	is "stopwatch stat --prometheus reads them" "$?" 0 || cat "$TMP/err"
else
	skip "$SW not built: no stat.txt, stat.json, stat.prom"
fi

unload
rm -rf "$TMP"
