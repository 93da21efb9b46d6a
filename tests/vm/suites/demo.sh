# SPDX-License-Identifier: GPL-2.0
# tests/vm/suites/demo.sh - the README's "main job" inside the VM: the
# guided first run of scripts/demo-workload.sh (stopwatch time with a
# command, probe add, a workload, stat), its transcript saved to
# $SW_RESULTS/demo.txt (scripts/run.sh prints it), and facts about it
# checked against the module's own stats file.

. "$SW_REPO/tests/vm/tap.sh"
. "$SW_REPO/tests/vm/tramplib.sh"
. "$SW_REPO/scripts/demo-workload.sh"

MOD=${SW_MODULE:-$SW_REPO/build/module/$SW_ARCH/stopwatch.ko}
CLI=$SW_REPO/build/userspace/stopwatch
[ "$SW_ARCH" = arm64 ] && CLI=$SW_REPO/build/userspace-arm64/stopwatch
D=/sys/kernel/debug/stopwatch
OUT=$SW_RESULTS/demo.txt
[ -r "$MOD" ] || skip_all "module $MOD not built"
[ -x "$CLI" ] || skip_all "$CLI not built (see demo.prepare)"

# stat_col PROBE COLUMN: a column of the module's stats file.
stat_col() {
	awk -v p="$1" -v c="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
		$1 == p && k { print $k; exit }' "$D/stats"
}

# Whether attach=auto puts the demo's functions on trampolines: with ftrace
# direct calls, the companion loaded, and the kernel's BTF to give each
# function's argument count (without it: a kretprobe, "no argument count").
no_tramp_why=
tramp_expected() {
	if ! direct_calls; then
		no_tramp_why="no ftrace direct calls ($SW_ARCH $(uname -r))"
	elif [ ! -d /sys/module/stopwatch_tramp ]; then
		no_tramp_why="stopwatch_tramp.ko not loaded"
	elif [ ! -r /sys/kernel/btf/vmlinux ]; then
		no_tramp_why="no kernel BTF (argument counts unknown)"
	else
		return 0
	fi
	return 1
}

# Checks against the module while the demo's probes are in: TAP output to
# the suite's standard output (fd 3), not into the transcript.
sw_demo_check() {
	{
	cmp_ge "vfs_read was called during the workload" \
		"$(stat_col vfs_read calls)" 1
	cmp_ge "hrtimer_nanosleep: at least the workload's ten sleeps" \
		"$(stat_col hrtimer_nanosleep calls)" 10
	if tramp_expected; then
		is "attach=auto, ftrace direct calls: vfs_read on a trampoline" \
			"$(stat_col vfs_read attach)" 1
	else
		is "$no_tramp_why: vfs_read on a kretprobe" \
			"$(stat_col vfs_read attach)" 0
	fi
	} >&3
}

rmmod stopwatch 2>/dev/null
[ -n "${SW_MODULE:-}" ] && SW_DEMO_MODULE=$SW_MODULE
exec 3>&1
sw_demo "$CLI" >"$OUT" 2>&1
is "the demo's commands all exit 0" "$?" 0 || tail -n 20 "$OUT"
check "the demo loaded stopwatch.ko" test -d /sys/module/stopwatch
check "the transcript shows 'stopwatch time vfs_read vfs_write -- dd ...'" \
	grep -q '^\$ stopwatch time .*vfs_read vfs_write -- dd ' "$OUT"
# time's row of vfs_write: dd wrote 2000 one-byte blocks, nothing else.
w=$(awk '/^\$ stopwatch time/ { t = 1; next } /^\$ / { t = 0 }
	t && $1 == "vfs_write" { gsub(",", "", $2); print $2; exit }' "$OUT")
is "stopwatch time: vfs_write called exactly 2000 times by dd" "$w" 2000
check "the transcript shows 'stopwatch stat' with a vfs_read row" \
	awk '/^\$ stopwatch stat/ { s = 1; next } s && $1 == "vfs_read" { f = 1 } END { exit !f }' "$OUT"
is "probe remove left no probe" "$(awk 'NR > 1' "$D/stats" | wc -l)" 0
# --- the default table of stat, for people ------------------------------------
# The transcript's stat section: its table (from the "probe" header to the
# first blank line; cells are two or more blanks apart), then histograms.
awk '/^\$ stopwatch stat/ { s = 1; next } /^\$ / { s = 0 } s' "$OUT" >"$SW_RESULTS/demo-stat.txt"
ST=$SW_RESULTS/demo-stat.txt
is "stat: every line fits in 100 columns" \
	"$(sed 's/µ/u/g' "$ST" | awk 'length > 100' | wc -l)" 0
# stat_table: the table's rows (not its footnotes), fields joined by '|'.
stat_table() {
	awk -F '  +' '/^probe / { t = 1 } t && /^$/ { exit }
		t && !/^(!|attach:)/ { l = $1; for (i = 2; i <= NF; i++) l = l "|" $i; print l }' "$ST"
}
stat_table >"$SW_RESULTS/demo-stat.cells"
cmp_ge "stat: a header and the demo's probes" "$(wc -l <"$SW_RESULTS/demo-stat.cells")" 5
is "stat: no column is zero (or -) on every row" \
	"$(awk -F '|' 'NR == 1 { n = NF; for (i = 1; i <= NF; i++) h[i] = $i; next }
		{ for (i = 2; i <= NF; i++) if ($i !~ /^(0!?|0 |-)$/) nz[i] = 1 }
		END { for (i = 2; i <= n; i++) if (!nz[i]) printf "%s ", h[i] }' "$SW_RESULTS/demo-stat.cells")" ""
is "stat: attach is a column of words, no errno column" \
	"$(awk -F '|' 'NR == 1 { a = $NF; next } $NF !~ /^(kretprobe|trampoline|uprobe)( \(.*\))?$/ { bad = bad " " $1 }
		END { print a bad }' "$SW_RESULTS/demo-stat.cells")" attach
check "stat: no attach_err, no _ns header" \
	sh -c "! head -n 1 '$ST' | grep -Eq 'attach_err|_ns'"
if tramp_expected; then
	check "stat: vfs_read on a trampoline, in words" grep -Eq '^vfs_read .*  trampoline$' "$ST"
else
	check "stat: vfs_read on a kretprobe, in words, the reason under the table" \
		sh -c "grep -Eq '^vfs_read .*  kretprobe\$' '$ST' && grep -q '^attach: kretprobe (' '$ST'"
fi
# calls (separators taken out) = the histogram's title = its buckets' sum.
awk -F '  +' '/^probe / && !t { t = 1; next }
	t == 1 && /^$/ { t = 2; next }
	t == 1 && !/^(!|\*|attach:)/ { c = $2; gsub(",", "", c); calls[$1] = c; next }
	t == 2 && / calls$/ { split($0, w, " "); p = w[1]; sub(/:$/, "", p)
		u = w[2] == "ns,"; if (u) title[p] = w[3]; next }
	t == 2 && /^$/ { u = 0; next }
	t == 2 && u && /\|/ { n = split($0, w, " "); sum[p] += w[n] }
	END { for (p in calls) print p, calls[p], title[p] + 0, sum[p] + 0 }' "$ST" |
while read -r p c h b; do
	is "stat: $p: $c calls = its histogram's title ($h) = its buckets ($b)" "$c $h" "$b $b"
done

# What the probe's own filters left out is shown, flagged '*' (not '!': no
# loss) and explained under the table: every dd write is shorter than
# --min 1s (filtered_short).
"$CLI" time --min 1s --no-hist vfs_write -- \
	dd if=/dev/zero of=/dev/null bs=1 count=100 status=none >"$SW_RESULTS/demo-loss.txt" 2>&1
is "time --min 1s vfs_write -- dd (100 writes) exits 0" "$?" 0 || cat "$SW_RESULTS/demo-loss.txt"
check "time: filtered_short 100, flagged '*' in the row" \
	grep -Eq '^vfs_write .* 100\*( |$)' "$SW_RESULTS/demo-loss.txt"
check "time: and its footnote names the cause" \
	grep -qxF "* filtered_short: 100 calls shorter than the probe's min_ns, left out" "$SW_RESULTS/demo-loss.txt"
check "time: no loss flagged ('!') for a filter's choice" \
	sh -c "! grep -q '!' '$SW_RESULTS/demo-loss.txt'"

check "rmmod stopwatch" rmmod stopwatch
