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

. "$SW_REPO/tests/vm/tap.sh"
. "$SW_REPO/tests/vm/lib.sh"

FIX_DD=3000
if [ "$SW_ARCH" = arm64 ]; then
	FIX_EVENTS=cycles,instructions
else
	FIX_EVENTS=cpu-clock,context-switches
fi
OUT=${SW_RESULTS:-/tmp}/fixtures/$SW_ARCH

[ -r "$MOD" ] || skip_all "module $MOD not built"
[ -x "$P/modload" ] || skip_all "$P/modload not built (make progs)"

unload
is "module loads with the known probes, events and breakdown" \
	"$(load "probes=vfs_read,vfs_write events=$FIX_EVENTS breakdown=comm")" ok ||
	skip_all "stopwatch.ko did not load: nothing to capture (arm64 counts instructions only with --icount)"
dd if=/dev/zero of=/dev/null bs=1 count=$FIX_DD 2>/dev/null
is "the workload ran" "$?" 0

rm -rf "$OUT"
mkdir -p "$OUT/hist"
# One read per file, all right after the workload.
for f in stats hists lhists breakdown breakdown_stats keys events counters version \
	probes last_error sampler; do
	cat "$D/$f" >"$OUT/$f" 2>/dev/null || rm -f "$OUT/$f"
done
for f in "$D"/hist/*; do
	cat "$f" >"$OUT/hist/${f##*/}"
done
cat >"$OUT/workload" <<WL
probes vfs_read,vfs_write
events $FIX_EVENTS
breakdown comm
workload dd if=/dev/zero of=/dev/null bs=1 count=$FIX_DD
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

# What the program makes of the captured directory: the host tests
# compare these with their own reading of the same files.
if [ -x "$SW" ]; then
	"$SW" stat --debugfs "$OUT" --raw >"$OUT/stat.txt" 2>"$TMP/err"
	is "stopwatch stat reads the captured files" "$?" 0 || cat "$TMP/err"
	"$SW" stat --debugfs "$OUT" --json >"$OUT/stat.json" 2>"$TMP/err"
	is "stopwatch stat --json reads them" "$?" 0 || cat "$TMP/err"
	"$SW" stat --debugfs "$OUT" --prometheus >"$OUT/stat.prom" 2>"$TMP/err"
	is "stopwatch stat --prometheus reads them" "$?" 0 || cat "$TMP/err"
else
	skip "$SW not built: no stat.txt, stat.json, stat.prom"
fi

unload
rm -rf "$TMP"
