#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# scripts/bench-serve.sh - how long "stopwatch serve" takes to answer a
# large scrape and how much memory it keeps.
#
# Writes a synthetic stopwatch directory of P probes (default 1000), each
# with a duration histogram and K keyed rows (default 64, the keys file),
# starts serve on it (--max-series as given, default serve's own), scrapes
# /metrics R times (default 20) one after the other, and prints the
# server's CPU time per scrape (user + system: one thread reads and writes
# a page, so this is also right on a busy machine), the best and median
# wall time per scrape (curl's time_total), the page's size and series,
# and the server's peak resident memory (VmHWM).
#
# usage: scripts/bench-serve.sh [-p PROBES] [-k KEYS] [-r SCRAPES] [--max-series N]
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
p=1000 k=64 r=20 maxs=
while [ $# -gt 0 ]; do
	case $1 in
	-p) p=$2; shift 2 ;;
	-k) k=$2; shift 2 ;;
	-r) r=$2; shift 2 ;;
	--max-series) maxs="--max-series $2"; shift 2 ;;
	-h|--help) sed -n '4,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "bench-serve.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
done
command -v curl >/dev/null || { echo "bench-serve.sh: needs curl" >&2; exit 2; }

out=$top/build/userspace
work=$top/build/bench/serve
rm -rf "$work"
mkdir -p "$work/dir"
make -s -C "$top/userspace" OUT="$out" all >/dev/null
SW=$out/stopwatch

python3 - "$work/dir" "$p" "$k" <<'PY'
import sys
d, np, nk = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
open(d + "/version", "w").write("stopwatch 0.3\nstats_format 1.5\ncall_clock mono_fast\n")
open(d + "/sampler", "w").write("state      stopped\n")
cols = "calls min_ns avg_ns max_ns stddev_ns total_ns missed miss_maxactive miss_reentry migrated".split()
with open(d + "/stats", "w") as f, open(d + "/hists", "w") as h, open(d + "/keys", "w") as k:
    f.write("probe " + " ".join(cols) + "\n")
    k.write("probe key calls min_ns avg_ns max_ns stddev_ns total_ns\n")
    for i in range(np):
        name = "bench_function_%04d" % i
        buckets = [(b, (i + b) % 97 + 1) for b in range(8, 24)]
        calls = sum(c for _, c in buckets)
        total = sum(c * (3 << b) // 2 for b, c in buckets)
        f.write("%s %d 300 %d %d 500 %d 0 0 0 0\n" % (name, calls, total // calls, 1 << 23, total))
        h.write("%s: ns, %d calls; total %d, min 300, avg %d, max %d, stddev 500\n"
                % (name, calls, total, total // calls, 1 << 23))
        h.write("     value |-------------------------------------------------- count\n")
        for b, c in buckets:
            h.write("%10d |@ %d\n" % (1 << b, c))
        h.write("\n")
        for j in range(nk):
            c = (i * 7 + j * 13) % 1000 + 1
            k.write("%s comm=task%02d %d 300 1500 9000 700 %d\n" % (name, j, c, c * 1500))
PY

: >"$work/serve.err"
"$SW" serve --debugfs "$work/dir" --listen 127.0.0.1:0 $maxs 2>"$work/serve.err" &
pid=$!
trap 'kill $pid 2>/dev/null' EXIT
port=
for i in $(seq 100); do
	port=$(sed -n 's/^stopwatch serve: listening on .*:\([0-9]*\)$/\1/p' "$work/serve.err")
	[ -n "$port" ] && break
	sleep 0.1
done
[ -n "$port" ] || { cat "$work/serve.err" >&2; exit 1; }
cpu() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }
c0=$(cpu)
for i in $(seq "$r"); do
	curl -s -o "$work/metrics" -w '%{time_total}\n' "http://127.0.0.1:$port/metrics"
done | sort -n >"$work/times"
c1=$(cpu)
tck=$(getconf CLK_TCK)
cpums=$(awk -v a="$c0" -v b="$c1" -v t="$tck" -v r="$r" 'BEGIN { printf "%.1f", (b - a) * 1000 / t / r }')
hwm=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status")
rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
best=$(head -n 1 "$work/times")
med=$(sed -n "$(( (r + 1) / 2 ))p" "$work/times")
series=$(grep -vc '^#' "$work/metrics")
echo "| probes | keyed rows | scrapes | CPU ms/scrape | best s | median s | page bytes | series | peak RSS KiB | RSS KiB |"
echo "|---|---|---|---|---|---|---|---|---|---|"
echo "| $p | $((p * k)) | $r | $cpums | $best | $med | $(wc -c <"$work/metrics") | $series | $hwm | $rss |"
