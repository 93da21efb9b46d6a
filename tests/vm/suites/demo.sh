# SPDX-License-Identifier: GPL-2.0
# tests/vm/suites/demo.sh - the README's "main job" inside the VM: load
# stopwatch.ko with the default probe set, run a short workload, save the
# formatted statistics to $SW_RESULTS/demo.txt (scripts/run.sh prints it).

. "$SW_REPO/tests/vm/tap.sh"
. "$SW_REPO/scripts/demo-workload.sh"

MOD=${SW_MODULE:-$SW_REPO/build/module/$SW_ARCH/stopwatch.ko}
CLI=$SW_REPO/build/userspace/stopwatch
[ -r "$MOD" ] || skip_all "module $MOD not built"

rmmod stopwatch 2>/dev/null
check "insmod stopwatch.ko probes=$SW_DEMO_PROBES" \
	insmod "$MOD" "probes=$SW_DEMO_PROBES"
sw_demo_workload
if [ -x "$CLI" ] && [ "$SW_ARCH" = x86_64 ]; then
	check "stopwatch stat" sh -c "'$CLI' stat > '$SW_RESULTS/demo.txt' 2>&1"
else
	{ cat /sys/kernel/debug/stopwatch/stats; echo
	  for h in /sys/kernel/debug/stopwatch/hist/*; do cat "$h"; echo; done
	} > "$SW_RESULTS/demo.txt"
fi
calls=$(awk 'NR > 1 && $1 == "vfs_read" { print $2 }' /sys/kernel/debug/stopwatch/stats)
cmp_ge "vfs_read was called during the workload" "${calls:-0}" 1
check "rmmod stopwatch" rmmod stopwatch
