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

# Checks against the module while the demo's probes are in: TAP output to
# the suite's standard output (fd 3), not into the transcript.
sw_demo_check() {
	{
	cmp_ge "vfs_read was called during the workload" \
		"$(stat_col vfs_read calls)" 1
	cmp_ge "hrtimer_nanosleep: at least the workload's ten sleeps" \
		"$(stat_col hrtimer_nanosleep calls)" 10
	if direct_calls && [ -d /sys/module/stopwatch_tramp ]; then
		is "attach=auto, ftrace direct calls: vfs_read on a trampoline" \
			"$(stat_col vfs_read attach)" 1
	else
		is "no ftrace direct calls ($SW_ARCH $(uname -r)): vfs_read on a kretprobe" \
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
# time's row of vfs_write: dd wrote 20000 one-byte blocks, nothing else.
w=$(awk '/^\$ stopwatch time/ { t = 1; next } /^\$ / { t = 0 }
	t && $1 == "vfs_write" { gsub(",", "", $2); print $2; exit }' "$OUT")
is "stopwatch time: vfs_write called exactly 20000 times by dd" "$w" 20000
check "the transcript shows 'stopwatch stat' with a vfs_read row" \
	awk '/^\$ stopwatch stat/ { s = 1; next } s && $1 == "vfs_read" { f = 1 } END { exit !f }' "$OUT"
is "probe remove left no probe" "$(awk 'NR > 1' "$D/stats" | wc -l)" 0
check "rmmod stopwatch" rmmod stopwatch
