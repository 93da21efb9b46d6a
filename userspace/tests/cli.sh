#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cli.sh - end-to-end tests of the stopwatch binary against the fake
# debugfs trees in fixtures/ (no module needed).
#
#   tests/cli.sh path/to/stopwatch
#
# JSON is checked with "python3 -m json.tool" and the Prometheus output
# with "promtool check metrics" when those are installed ($PROMTOOL may
# name promtool); the checks are skipped, and said so, when they are not.
set -u

SW=$(realpath "${1:?usage: cli.sh path/to/stopwatch}")
cd "$(dirname "$0")" || exit 1
PROMTOOL=${PROMTOOL:-$(command -v promtool || true)}
# scripts/deps.sh extracts promtool there when it is not installed.
if [ -z "$PROMTOOL" ] && [ -x ../../.cache/tools/promtool ]; then
	PROMTOOL=$(realpath ../../.cache/tools/promtool)
fi
GEN=${SW_GEN:+$(realpath "$SW_GEN")}
# Samples in the synthetic recordings of the report tests.
NS=${SW_GEN_SAMPLES:-20000}
SYMBIN=${SW_SYMBIN:+$(realpath "$SW_SYMBIN")}
tmp=$(mktemp -d /tmp/sw-cli.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
unset STOPWATCH_DEBUGFS

pass=0 fail=0 skip=0

ok() { pass=$((pass + 1)); echo "ok - $1"; }
not_ok() {
	fail=$((fail + 1))
	echo "not ok - $1"
	shift
	printf '#   %s\n' "$@"
	printf '#   stdout: %s\n' "$(head -c 600 "$tmp/out")"
	printf '#   stderr: %s\n' "$(head -c 600 "$tmp/err")"
}
skipped() { skip=$((skip + 1)); echo "ok - $1 # SKIP $2"; }

# run CMD...: runs it, keeping stdout, stderr and the exit code.
run() {
	"$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
}

# expect NAME RC [STDOUT-SUBSTRING] [EXACT-STDERR]
expect() {
	local name=$1 want=$2 has=${3-} errmsg=${4-__any__}
	if [ "$rc" != "$want" ]; then
		not_ok "$name" "exit code $rc, want $want"
	elif [ -n "$has" ] && ! grep -qF -- "$has" "$tmp/out"; then
		not_ok "$name" "stdout lacks: $has"
	elif [ "$errmsg" != __any__ ] && [ "$(cat "$tmp/err")" != "$errmsg" ]; then
		not_ok "$name" "stderr is not: $errmsg"
	else
		ok "$name"
	fi
}

# wait_for FILE ERE [N]: until FILE has N (1) lines matching ERE, or 60 s
# have passed.  The tests of running programs wait for what the program
# did, not for a time: CI runs them at low priority beside busy guests.
wait_for() {
	local i
	for i in $(seq 600); do
		[ "$(grep -Ec -- "$2" "$1" 2> /dev/null)" -ge "${3:-1}" ] && return 0
		sleep 0.1
	done
	return 1
}
# wait_asleep PID: until PID sleeps in nanosleep (between two readings of
# an interval), or 60 s have passed.
wait_asleep() {
	local i
	for i in $(seq 600); do
		grep -q nanosleep "/proc/$1/wchan" 2> /dev/null && return 0
		sleep 0.1
	done
	return 1
}

# fails NAME EXACT-STDERR CMD...: must exit 1 with exactly that message.
fails() {
	local name=$1 msg=$2
	shift 2
	run "$@"
	expect "$name" 1 "" "$msg"
}


# serve_start DIR [OPTIONS...]: starts "stopwatch serve" on a free port of
# 127.0.0.1 (its stderr in $tmp/serve.err); sets SPID and PORT.
serve_start() {
	local d=$1 i
	shift
	# Emptied here: the child's own redirection happens after the fork,
	# when the loop below may already read the previous server's line.
	: > "$tmp/serve.err"
	"$SW" serve --debugfs "$d" --listen 127.0.0.1:0 "$@" 2>> "$tmp/serve.err" &
	SPID=$!
	PORT=
	for i in $(seq 600); do
		PORT=$(sed -n 's/^stopwatch serve: listening on .*:\([0-9]*\)$/\1/p' "$tmp/serve.err")
		[ -n "$PORT" ] && return 0
		kill -0 "$SPID" 2> /dev/null || return 1
		sleep 0.1
	done
	return 1
}
serve_stop() {
	kill -TERM "$SPID" 2> /dev/null
	wait "$SPID"
	src=$?
}
# get PATH [CURL-OPTIONS...]: the body in $tmp/out, the HTTP status in $code.
get() {
	local path=$1
	shift
	code=$(curl -s -o "$tmp/out" -w '%{http_code}' "$@" "http://127.0.0.1:$PORT$path")
}

B=fixtures/basic
# Kernel functions go with their argument count when the kernel has BTF
# (vfs_read and vfs_write take 4).
A4=
[ -r /sys/kernel/btf/vmlinux ] && A4=" args=4"
MISSED='stopwatch: vfs_write: 12 calls missed (maxactive 12, reentry 0)'

# --- the command ---
run "$SW" --version
expect "--version" 0 "stopwatch version "
run "$SW" version
expect "version command" 0 "stopwatch version "
run "$SW"
expect "no command: usage, exit 1" 1
grep -q "usage: stopwatch" "$tmp/err" && ok "no command prints usage" ||
	not_ok "no command prints usage"
run "$SW" help
expect "help lists stat" 0 "   stat "
run "$SW" --help
expect "--help" 0 "Examples:"
run "$SW" help stat
expect "help stat" 0 "usage: stopwatch stat"
run "$SW" stat --help
expect "stat --help shows examples" 0 "stopwatch stat --probe vfs_read,vfs_write"
fails "unknown command" \
	"stopwatch: 'bogus' is not a stopwatch command. See 'stopwatch help'." \
	"$SW" bogus
fails "help for an unknown command" \
	"stopwatch: 'bogus' is not a stopwatch command. See 'stopwatch help'." \
	"$SW" help bogus

# --- stat, the full table (--raw, -v) ---
run "$SW" stat --debugfs "$B" --raw
expect "table" 0 "vfs_read          123     812    2301   90211       4410    283023       0               0             0         1" "$MISSED"
grep -qF "vfs_read: ns, 123 calls" "$tmp/out" && ok "table has histograms" ||
	not_ok "table has histograms"
run "$SW" stat --debugfs "$B" --raw -b
cmp -s "$tmp/out" golden/basic.txt && ok "table -b output as golden" ||
	not_ok "table -b output as golden"
run env STOPWATCH_DEBUGFS="$B" "$SW" stat --no-hist
expect "STOPWATCH_DEBUGFS" 0 "do_sys_openat2"
grep -q "value |" "$tmp/out" && not_ok "--no-hist prints no histogram" ||
	ok "--no-hist prints no histogram"
run env STOPWATCH_DEBUGFS=/nonexistent "$SW" stat --debugfs "$B" --no-hist
expect "--debugfs beats the environment" 0 "vfs_write"
# The statistics layout: another major is refused, a newer minor is read.
cp -r "$B" "$tmp/fmt"
swv=$("$SW" --version | awk '{ print $3 }')
printf 'stopwatch %s\nstats_format 2.0\ncall_clock mono\n' "$swv" > "$tmp/fmt/version"
fails "stats_format of another major refused" \
	"stopwatch: $tmp/fmt/version says stats_format 2.0; this program reads 1.x: use a stopwatch program and stopwatch.ko of the same version" \
	"$SW" stat --debugfs "$tmp/fmt"
printf 'stopwatch %s\nstats_format 1.99\ncall_clock mono\n' "$swv" > "$tmp/fmt/version"
run "$SW" stat --debugfs "$tmp/fmt" --no-hist
expect "stats_format of a newer minor read" 0 "vfs_write"
run "$SW" stat --debugfs "$B" --probe vfs_read
expect "--probe one probe" 0 "vfs_read: ns, 123 calls" ""
grep -q vfs_write "$tmp/out" && not_ok "--probe leaves out the others" ||
	ok "--probe leaves out the others"
run "$SW" stat --debugfs "$B" --probe vfs_write,do_sys_openat2 --no-hist --raw
expect "--probe comma list" 0 "do_sys_openat2" "$MISSED"
[ "$(wc -l < "$tmp/out")" = 3 ] && ok "--probe comma list: two rows" ||
	not_ok "--probe comma list: two rows"
run "$SW" stat --debugfs "$B" --probe vfs_write --probe vfs_read --no-hist -v
expect "--probe repeated" 0 "vfs_read"
[ "$(wc -l < "$tmp/out")" = 3 ] && ok "--probe repeated: two rows" ||
	not_ok "--probe repeated: two rows"
fails "stat -p is a process, as in perf: says where the probe went" \
	"stopwatch stat: -p vfs_read: stat shows what the probes measured and takes no process; probes are chosen with --probe NAME; time one process's calls with 'stopwatch time -p PID PATTERN' or 'stopwatch probe add -p PID PATTERN'" \
	"$SW" stat --debugfs "$B" -p vfs_read
run "$SW" stat --debugfs "$B" --no-hist -v -H
expect "--human" 0 "vfs_write        4567  300 ns  1.50 us  30.0 us  2.10 us  6.85 ms"
head -n 1 "$tmp/out" | grep -q '_ns' &&
	not_ok "--human: no _ns header over values with units" ||
	ok "--human: no _ns header over values with units"
run "$SW" stat --debugfs "$B" -b --no-hist --raw
expect "--breakdown" 0 "vfs_read   other      3   70000    7674   90211        100     23023"
run "$SW" stat --debugfs fixtures/pmu -b --no-hist --raw
expect "comm breakdown keeps escapes" 0 'ext4_file_read_iter  my\040task         4'

# --- stat, the default table: for people ---
run "$SW" stat --debugfs "$B"
expect "default: units, separators, a loss flagged" 0 "vfs_write       4,567  300 ns  1.50 µs  30.0 µs  2.10 µs  6.85 ms     12!         3"
grep -qxF "! missed: 12 calls not measured: no free kretprobe instance (raise maxactive)" "$tmp/out" &&
	ok "default: the loss explained under the table" ||
	not_ok "default: the loss explained under the table"
head -n 1 "$tmp/out" | grep -qE 'miss_maxactive|miss_reentry|_ns' &&
	not_ok "default: no column of zeros, no _ns header" ||
	ok "default: no column of zeros, no _ns header"
[ ! -s "$tmp/err" ] && ok "default: the loss is in the table, not repeated on stderr" ||
	not_ok "default: the loss is in the table, not repeated on stderr" "$(cat "$tmp/err")"
grep -qF "vfs_read: ns, 123 calls" "$tmp/out" && ok "default: histograms under the table" ||
	not_ok "default: histograms under the table"
run "$SW" stat --debugfs fixtures/x86_64 --no-hist
expect "default: attach in words, its reason once" 0 "attach: kretprobe (no argument count): its argument count is unknown (give args=N)"
grep -qE 'attach_err|(^| )61( |$)' "$tmp/out" && not_ok "default: no errno code on screen" ||
	ok "default: no errno code on screen"
# The spans in --json and --prometheus too (the table prints them its own
# way): each span of span_stats with its calls; none when probes are named.
span_calls=$(awk 'NR > 1 { printf "%s%s=%s", (n++ ? " " : ""), $1, $2 }' fixtures/x86_64/span_stats)
run "$SW" stat --debugfs fixtures/x86_64 --json
got=$(sed 's/.*"spans":\[//' "$tmp/out" | grep -o '"span":"[a-z]*","calls":[0-9]*' |
	sed 's/"span":"\([a-z]*\)","calls":\([0-9]*\)/\1=\2/' | paste -sd' ')
[ "$rc" = 0 ] && [ -n "$span_calls" ] && [ "$got" = "$span_calls" ] &&
	ok "--json: the spans and their calls ($span_calls)" ||
	not_ok "--json: the spans and their calls" "rc $rc, want '$span_calls', got '$got'"
run "$SW" stat --debugfs fixtures/x86_64 --prometheus
got=$(sed -n 's/^stopwatch_span_calls_total{span="\([a-z]*\)"} \([0-9]*\)$/\1=\2/p' "$tmp/out" | paste -sd' ')
[ "$rc" = 0 ] && [ "$got" = "$span_calls" ] &&
	ok "--prometheus: the spans' calls" ||
	not_ok "--prometheus: the spans' calls" "rc $rc, want '$span_calls', got '$got'"
run "$SW" stat --debugfs fixtures/x86_64 --json --probe vfs_read
grep -q '"spans"' "$tmp/out" && not_ok "--json PROBE: no spans" || ok "--json PROBE: no spans"
fails "--raw with -H" \
	"stopwatch stat: --raw prints exact values; -H scales durations: use -v -H for every column with readable durations" \
	"$SW" stat --debugfs "$B" --raw -H
fails "--raw with --json" \
	"stopwatch stat: --raw chooses between tables; JSON and Prometheus always carry every column" \
	"$SW" stat --debugfs "$B" --raw --json

# --- a debugfs mount point, and errors finding the directory ---
mkdir -p "$tmp/mnt/stopwatch" && cp -r "$B/." "$tmp/mnt/stopwatch/"
run "$SW" stat --debugfs "$tmp/mnt" --no-hist
expect "--debugfs at the mount point" 0 "vfs_read"
fails "missing directory" \
	"stopwatch: $tmp/none: No such file or directory" \
	"$SW" stat --debugfs "$tmp/none"
fails "not a stopwatch directory" \
	"stopwatch: $tmp: not a stopwatch debugfs directory (no 'stats' file in it or in $tmp/stopwatch)" \
	"$SW" stat --debugfs "$tmp"
# The module's version file: another major is refused, naming both.
mkdir -p "$tmp/ver" && cp -r "$B/." "$tmp/ver/"
printf 'stopwatch 99.1\nstats_format 1.4\n' > "$tmp/ver/version"
fails "a module of another major version" \
	"stopwatch: $tmp/ver/version: stopwatch.ko is version 99.1, this program $("$SW" --version | sed 's/^stopwatch version //'): major versions differ; use the program built with the module" \
	"$SW" stat --debugfs "$tmp/ver"
printf 'stopwatch %s.9\nstats_format 1.4\n' "$(cut -d. -f1 ../../VERSION)" > "$tmp/ver/version"
run "$SW" stat --debugfs "$tmp/ver" --no-hist
expect "a module of the same major, another minor" 0 "vfs_read"
if [ ! -d /sys/kernel/debug/stopwatch ]; then
	run "$SW" stat
	if [ "$rc" = 1 ] && grep -Eq "is stopwatch.ko loaded\? \(insmod stopwatch.ko\)|debugfs is not mounted on /sys/kernel/debug: mount it with 'mount -t debugfs none /sys/kernel/debug'|permission denied" "$tmp/err"; then
		ok "default directory without the module: $(cat "$tmp/err")"
	else
		not_ok "default directory without the module"
	fi
fi

# --- option errors ---
fails "bad --interval" \
	"stopwatch stat: invalid --interval 'abc': expected seconds, at least 0.001 (e.g. 1 or 0.5)" \
	"$SW" stat --debugfs "$B" --interval abc
fails "zero --interval" \
	"stopwatch stat: invalid --interval '0': expected seconds, at least 0.001 (e.g. 1 or 0.5)" \
	"$SW" stat --debugfs "$B" -i 0
fails "bad -I" \
	"stopwatch stat: invalid --interval-print '0.5': expected milliseconds, at least 1" \
	"$SW" stat --debugfs "$B" -I 0.5
run "$SW" stat --debugfs "$B" --no-hist -I 20 --interval-count 2
expect "-I 20 --interval-count 2: two prints, as perf stat -I" 0 "vfs_read"
[ "$(grep -c '^vfs_read ' "$tmp/out")" = 2 ] && ok "-I: two tables" ||
	not_ok "-I: two tables"
fails "bad --interval-count" \
	"stopwatch stat: invalid --interval-count '0': expected a whole number of prints, at least 1" \
	"$SW" stat --debugfs "$B" -i 1 --interval-count 0
fails "--interval-count needs --interval" \
	"stopwatch stat: --interval-count 3 needs --interval or --watch" \
	"$SW" stat --debugfs "$B" --interval-count 3
run "$SW" stat --debugfs "$B" -i 1 -n 2
[ "$rc" = 1 ] && grep -qF "unknown option '-n'" "$tmp/err" &&
	ok "stat -n is not an option (perf's -n is a null run, not a count)" ||
	not_ok "stat -n is not an option (perf's -n is a null run, not a count)" "rc $rc: $(cat "$tmp/err")"
fails "empty probe name" \
	"stopwatch stat: empty probe name in '--probe vfs_read,,x'" \
	"$SW" stat --debugfs "$B" --probe vfs_read,,x
fails "invalid probe name" \
	"stopwatch stat: invalid probe name '../x': expected a probe identity, FUNCTION or FUNCTION@TAG ([A-Za-z0-9_.@])" \
	"$SW" stat --debugfs "$B" --probe ../x
fails "unknown probe" \
	"stopwatch: probe 'nope' is not being measured (3 probes in $B/stats)" \
	"$SW" stat --debugfs "$B" --probe vfs_read,nope
fails "--json with --prometheus" \
	"stopwatch stat: --json and --prometheus exclude each other" \
	"$SW" stat --debugfs "$B" --json --prometheus
fails "--human with --json" \
	"stopwatch stat: --human applies to the table output only; JSON and Prometheus keep exact values" \
	"$SW" stat --debugfs "$B" --json -H
fails "stray argument" \
	"stopwatch stat: unexpected argument 'vfs_read' (probes go with --probe NAME)" \
	"$SW" stat --debugfs "$B" vfs_read
run "$SW" stat --bogus
expect "unknown option" 1
head -1 "$tmp/err" | grep -qxF "stopwatch stat: unknown option '--bogus'" &&
	ok "unknown option named" || not_ok "unknown option named"
run "$SW" stat --debugfs
expect "option without its value" 1
head -1 "$tmp/err" | grep -qxF "stopwatch stat: option '--debugfs' needs a value" &&
	ok "missing value named" || not_ok "missing value named"

# --- malformed files ---
mkdir -p "$tmp/bad" && cp -r "$B/." "$tmp/bad/"
: > "$tmp/bad/stats"
fails "empty stats" \
	"stopwatch: $tmp/bad/stats: empty: missing the header line" \
	"$SW" stat --debugfs "$tmp/bad"
printf 'probe calls\nvfs_read 12x\n' > "$tmp/bad/stats"
fails "non-numeric stats field" \
	"stopwatch: $tmp/bad/stats: line 2: column 'calls': '12x' is not an unsigned number" \
	"$SW" stat --debugfs "$tmp/bad"
cp "$B/stats" "$tmp/bad/stats"
printf 'vfs_read: ns, 1 calls\n 1024 |@ 1\n' > "$tmp/bad/hist/vfs_read"
fails "histogram without header" \
	"stopwatch: $tmp/bad/hist/vfs_read: line 2: expected the 'value |---...--- count' header: '1024 |@ 1'" \
	"$SW" stat --debugfs "$tmp/bad"
run "$SW" stat --debugfs "$tmp/bad" --no-hist
expect "--no-hist does not read histograms" 0 "vfs_read"
# A damaged file quoted in a message: its control bytes and non-UTF-8
# bytes are shown escaped, not sent to the terminal (valid UTF-8 stays).
printf 'vfs_read: ns, 1 calls\n \033[2J\r\302\233x\377 é |@ 1\n' > "$tmp/bad/hist/vfs_read"
fails "raw bytes of a damaged file are escaped in the message" \
	"stopwatch: $tmp/bad/hist/vfs_read: line 2: expected the 'value |---...--- count' header: '\\x1b[2J\\x0d\\xc2\\x9bx\\xff é |@ 1'" \
	"$SW" stat --debugfs "$tmp/bad"
fails "raw bytes of an argument are escaped in the message" \
	"stopwatch stat: invalid --interval '1\\x1b[31m': expected seconds, at least 0.001 (e.g. 1 or 0.5)" \
	"$SW" stat --debugfs "$tmp/bad" --interval "$(printf '1\033[31m')"
cp "$B/hist/vfs_read" "$tmp/bad/hist/vfs_read"

# --- JSON ---
run "$SW" stat --debugfs "$B" --json -b
expect "--json" 0 '"probes":[{"probe":"vfs_read","calls":123,"min_ns":812,'
[ "$(wc -l < "$tmp/out")" = 1 ] && ok "--json is one line" ||
	not_ok "--json is one line"
if command -v python3 > /dev/null; then
	for d in basic pmu; do
		for opt in "" "-b" "--no-hist"; do
			run sh -c "'$SW' stat --debugfs fixtures/$d --json $opt 2>/dev/null | python3 -m json.tool"
			expect "json.tool accepts $d --json $opt" 0 '"probe":'
		done
	done
	run sh -c "'$SW' stat --debugfs fixtures/pmu --json -b | python3 -c 'import json,sys; d=json.load(sys.stdin); r=d[\"breakdown\"][\"rows\"]; print(r[0][\"comm\"], r[5][\"other\"], r[5][\"comm\"], r[7][\"comm\"] == \"bad\\u00ffname\")'"
	expect "JSON breakdown keys unescaped" 0 "my task True None True"
else
	skipped "JSON validation" "python3 not installed"
fi

# --- Prometheus ---
run "$SW" stat --debugfs "$B" --prometheus
expect "--prometheus" 0 'stopwatch_duration_seconds_bucket{probe="vfs_read",le="0.000002048"} 100'
if [ -n "$PROMTOOL" ]; then
	for d in basic pmu; do
		for opt in "" "-b" "--no-hist"; do
			run sh -c "'$SW' stat --debugfs fixtures/$d --prometheus $opt 2>/dev/null | '$PROMTOOL' check metrics"
			expect "promtool accepts $d --prometheus $opt" 0
		done
	done
else
	skipped "promtool check metrics" "promtool not installed (scripts/deps.sh test fetches it)"
fi

# --- the module's real files (scripts/capture-fixtures.sh) ---
# What the guest's stopwatch (arm64: the static cross build) printed for
# the captured directory is what this build prints for it.
for arch in arm64 x86_64; do
	F=fixtures/$arch
	run "$SW" stat --debugfs "$F" --raw
	if [ "$rc" = 0 ] && cmp -s "$tmp/out" "$F/stat.txt"; then
		ok "captured $arch: stat table as printed in the guest"
	else
		not_ok "captured $arch: stat table as printed in the guest" "rc $rc or output differs from $F/stat.txt"
	fi
	run "$SW" stat --debugfs "$F" --json
	if [ "$rc" = 0 ] && [ "$(sed 's/^{"time_ns":[0-9]*,//' "$tmp/out")" = \
		"$(sed 's/^{"time_ns":[0-9]*,//' "$F/stat.json")" ]; then
		ok "captured $arch: stat --json as printed in the guest"
	else
		not_ok "captured $arch: stat --json as printed in the guest" "rc $rc or output differs from $F/stat.json"
	fi
	run "$SW" stat --debugfs "$F" --prometheus
	if [ "$rc" = 0 ] && cmp -s "$tmp/out" "$F/stat.prom"; then
		ok "captured $arch: stat --prometheus as printed in the guest"
	else
		not_ok "captured $arch: stat --prometheus as printed in the guest" "rc $rc or output differs from $F/stat.prom"
	fi
	if [ -n "$PROMTOOL" ]; then
		run "$PROMTOOL" check metrics < "$F/stat.prom"
		expect "captured $arch: promtool accepts the guest's --prometheus" 0
	else
		skipped "captured $arch: promtool check metrics" "promtool not installed"
	fi
done
c=$(awk 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "cpi_avg") k = i }
	$1 == "vfs_read" { print $k }' fixtures/arm64/stats)
grep -q "\"cpi_avg\":$c[,}]" fixtures/arm64/stat.json &&
	grep -q "^stopwatch_cpi_avg{probe=\"vfs_read\"} $c\$" fixtures/arm64/stat.prom &&
	ok "captured arm64: cpi_avg $c in JSON and Prometheus" ||
	not_ok "captured arm64: cpi_avg '$c' in JSON and Prometheus"

# --- intervals, output file, write errors ---
run "$SW" stat --debugfs "$B" --no-hist -w 0.05 --interval-count 3 --raw
expect "--watch --count" 0 "vfs_read"
[ "$(grep -c '^# [0-9]\{4\}-[0-9][0-9]-[0-9][0-9] [0-9:]\{8\}\.[0-9]\{3\}$' "$tmp/out")" = 3 ] &&
	ok "three timestamped snapshots" || not_ok "three timestamped snapshots"
[ "$(grep -cF "$MISSED" "$tmp/err")" = 1 ] &&
	ok "missed calls warned once while unchanged" ||
	not_ok "missed calls warned once while unchanged"
run "$SW" stat --debugfs "$B" --json -w 0.05 --interval-count 2
expect "--json --watch" 0
[ "$(wc -l < "$tmp/out")" = 2 ] && ok "--json --watch: one line each" ||
	not_ok "--json --watch: one line each"
# -i means what it means in 'time': what each interval added (perf stat -I).
run "$SW" stat --debugfs "$B" -i 0.05 --interval-count 2
expect "stat -i: deltas, nothing added to a still file" 0 \
	"vfs_read                              0            0            0"
[ "$(grep -c '^FUNCTION  *CALLS  *AVG  *TOTAL$' "$tmp/out")" = 2 ] &&
	! grep -q '123' "$tmp/out" &&
	ok "stat -i --interval-count 2: two delta tables, no totals" ||
	not_ok "stat -i --interval-count 2: two delta tables, no totals"
run "$SW" stat --debugfs "$B" --json -i 0.05 --interval-count 2
expect "stat --json -i: a line per interval" 0 \
	'"unit":"ns","functions":[{"function":"vfs_read","calls":0,"avg":0,"total":0},'
[ "$(wc -l < "$tmp/out")" = 2 ] && grep -q '^{"interval":2,"time_s":' "$tmp/out" &&
	ok "stat --json -i: two lines" || not_ok "stat --json -i: two lines"
# The interval's calls: the file gains 27 calls and 16977 ns while the
# first interval (2 s) runs, once the first reading is taken.
D=$tmp/delta
mkdir -p "$D"
cp -r "$B/." "$D/"
"$SW" stat --debugfs "$D" --no-hist --probe vfs_read -i 2 --interval-count 1 \
	> "$tmp/out" 2> "$tmp/err" &
pid=$!
wait_asleep "$pid"
sed 's/^vfs_read                        123 /vfs_read                        150 /; s/  283023 /  300000 /' \
	"$B/stats" > "$D/stats.new" && mv "$D/stats.new" "$D/stats"
wait "$pid"
rc=$?
expect "stat -i: what the interval added" 0 \
	"vfs_read                             27          628        16977"
fails "stat -i with --prometheus: counters are totals" \
	"stopwatch stat: --interval prints what each interval added to the calls and times of each probe, not Prometheus counters (totals by design): use --watch SEC for the whole report again" \
	"$SW" stat --debugfs "$B" --prometheus -i 1
fails "stat -i and -w exclude each other" \
	"stopwatch stat: --interval (what each interval added) and --watch (the whole report again) exclude each other" \
	"$SW" stat --debugfs "$B" -i 1 -w 1
"$SW" stat --debugfs "$B" --no-hist -i 0.1 > "$tmp/out" 2> "$tmp/err" &
pid=$!
wait_for "$tmp/out" vfs_read
kill -INT "$pid"
wait "$pid"
rc=$?
expect "SIGINT ends --interval cleanly" 0 "vfs_read"
run "$SW" stat --debugfs "$B" --prometheus -o "$tmp/sw.prom"
expect "--output" 0
grep -qF 'stopwatch_calls_total{probe="vfs_read"} 123' "$tmp/sw.prom" &&
	[ ! -e "$tmp/sw.prom.tmp" ] && [ ! -s "$tmp/out" ] &&
	ok "--output wrote the file, nothing else" ||
	not_ok "--output wrote the file, nothing else"
fails "--output in a missing directory" \
	"stopwatch stat: cannot create $tmp/no/sw.prom.tmp: No such file or directory" \
	"$SW" stat --debugfs "$B" --no-hist --probe vfs_read -o "$tmp/no/sw.prom"
if [ -w /dev/full ]; then
	"$SW" stat --debugfs "$B" --probe vfs_read > /dev/full 2> "$tmp/err"
	rc=$?
	[ "$rc" = 1 ] && grep -q "write error" "$tmp/err" &&
		ok "write error on stdout is reported" ||
		not_ok "write error on stdout is reported" "rc=$rc"
else
	skipped "write error on stdout" "no /dev/full"
fi

# --- events: PMU-qualified names resolved through a fake sysfs ----------------
S=fixtures/sysfs
run "$SW" events --help
expect "events --help shows examples" 0 "stopwatch events set 'cpu/event=0x3c,umask=0x0/,cache-misses'"
run "$SW" help
expect "help lists events" 0 "   events "
run "$SW" events resolve --sysfs "$S" 'cycles,cpu/event=0x3c,umask=0x0/,armv8_pmuv3/inst_retired/,r00c0'
expect "events resolve: commas inside slashes, the rest unchanged" 0 \
	"cycles,cpu-event-0x3c-umask-0x0=4:0x3c,inst_retired=8:0x8,r00c0" ""
[ "$(cat "$tmp/out")" = "cycles,cpu-event-0x3c-umask-0x0=4:0x3c,inst_retired=8:0x8,r00c0" ] &&
	ok "events resolve: one line, nothing else" ||
	not_ok "events resolve: one line, nothing else"
run env STOPWATCH_SYSFS="$S" "$SW" events resolve cpu/mem-loads,ldlat=0/ amd_df/event=0x1a7/
expect "events resolve: STOPWATCH_SYSFS, several arguments, split bit ranges" 0 \
	"mem-loads-ldlat-0=4:0x1cd,amd_df-event-0x1a7=11:0x1000000a7" ""
run env STOPWATCH_SYSFS=/nonexistent "$SW" events resolve --sysfs "$S" armv8_pmuv3/cpu_cycles/
expect "events resolve: --sysfs beats the environment" 0 "cpu_cycles=8:0x11" ""
fails "events resolve: unknown event, the PMU's events listed" \
	"stopwatch events: armv8_pmuv3/inst_retire/: PMU 'armv8_pmuv3' has no event or term 'inst_retire' (events: cpu_cycles, inst_retired; terms: event)" \
	"$SW" events resolve --sysfs "$S" armv8_pmuv3/inst_retire/
fails "events resolve: unknown PMU" \
	"stopwatch events: arm/x/: unknown PMU 'arm' (PMUs in $S/bus/event_source/devices: amd_df, armv8_pmuv3, cpu, power, software)" \
	"$SW" events resolve --sysfs "$S" cycles,arm/x/
fails "events resolve: a config1 term that is not 0" \
	"stopwatch events: cpu/mem-loads/: ldlat=0x3 (from event mem-loads) sets config1 bits (config1:0-15), and stopwatch.ko takes the config field only" \
	"$SW" events resolve --sysfs "$S" cpu/mem-loads/
fails "events resolve: a value too wide" \
	"stopwatch events: cpu/umask=0x100/: umask=0x100 does not fit in its 8 bits (config:8-15)" \
	"$SW" events resolve --sysfs "$S" cpu/umask=0x100/
fails "events resolve without a list" \
	"stopwatch events: resolve: give an event list (e.g. cycles,instructions)" \
	"$SW" events resolve
fails "events resolve: an unknown name is refused, none close" \
	"stopwatch events: bogus-event: unknown event (all there are: stopwatch events list)" \
	"$SW" events resolve --sysfs "$S" cycles,bogus-event
fails "events resolve: an unknown name, the closest known names" \
	"stopwatch events: instrutions: unknown event; closest: instructions (all there are: stopwatch events list)" \
	"$SW" events resolve --sysfs "$S" instrutions
fails "events resolve: closest names include the PMUs' own events" \
	"stopwatch events: inst_retird: unknown event; closest: armv8_pmuv3/inst_retired/ (all there are: stopwatch events list)" \
	"$SW" events resolve --sysfs "$S" inst_retird
run "$SW" events resolve --sysfs "$S" cycles:u,cpu/cpu-cycles/k,L1-dcache-loads:u,instructions:uk
expect "events resolve: perf's modifiers :u, :k, PMU/TERMS/k kept, the mode in aliases" 0 \
	"cycles:u,cpu-cycles_k=4:0x3c:k,L1-dcache-loads_u=3:0x0:u,instructions:uk" ""
fails "events resolve: a bad modifier named" \
	"stopwatch events: cycles:x: 'x' is not a modifier stopwatch.ko takes: u (user mode only), k (kernel mode only), uk (both, as without one)" \
	"$SW" events resolve --sysfs "$S" cycles:x
fails "events resolve: a modifier twice named" \
	"stopwatch events: cycles:uu: 'uu' is not a modifier stopwatch.ko takes: u (user mode only), k (kernel mode only), uk (both, as without one)" \
	"$SW" events resolve --sysfs "$S" cycles:uu
fails "events resolve: an alias too long for the module" \
	"stopwatch events: a-name-longer-than-thirty-one-chars=4:1: the name is longer than stopwatch.ko's 31 characters (give it an ALIAS=TYPE:CONFIG)" \
	"$SW" events resolve --sysfs "$S" a-name-longer-than-thirty-one-chars=4:1
run "$SW" events resolve --sysfs "$S" L1-dcache-load-misses,dTLB-stores,LLC-prefetch-misses
expect "events resolve: perf's generic cache events as PERF_TYPE_HW_CACHE" 0 \
	"L1-dcache-load-misses=3:0x10000,dTLB-stores=3:0x103,LLC-prefetch-misses=3:0x10202" ""
run "$SW" events resolve --sysfs "$S" PAPI_TOT_CYC,PAPI_TOT_INS,PAPI_L1_DCM,PAPI_BR_MSP
expect "events resolve: PAPI presets resolved through the generic events" 0 \
	"PAPI_TOT_CYC=0:0x0,PAPI_TOT_INS=0:0x1,PAPI_L1_DCM=3:0x10000,PAPI_BR_MSP=0:0x5" ""
fails "events resolve: a PAPI preset without a hardware PMU is not available" \
	"stopwatch events: PAPI_TOT_CYC: not available here: no hardware PMU in fixtures/sysfs-nocore/bus/event_source/devices (it maps to cycles)" \
	"$SW" events resolve --sysfs fixtures/sysfs-nocore PAPI_TOT_CYC
run "$SW" events resolve --sysfs "$S" 'r00c0,4:0x3c,x=4:1,cpu-clock'
expect "events resolve: the module's own spellings still pass" 0 "r00c0,4:0x3c,x=4:1,cpu-clock" ""
fails "events: unknown command" \
	"stopwatch events: 'sett' is not a command (set, resolve, list; none to show)" \
	"$SW" events sett cycles
run "$SW" events list --sysfs "$S"
expect "events list: generic names" 0 "  context-switches                      software"
grep -qx '  armv8_pmuv3/inst_retired/             event=0x0008' "$tmp/out" &&
	grep -qx 'cpu (type 4) terms: any=config:21 cmask=config:24-31 edge=config:18 event=config:0-7 inv=config:23 ldlat=config1:0-15 umask=config:8-15' "$tmp/out" &&
	! grep -q 'energy-pkg\.' "$tmp/out" &&
	ok "events list: every PMU's terms and events, no .scale/.unit" ||
	not_ok "events list: every PMU's terms and events, no .scale/.unit"
grep -qx '  PAPI_TOT_CYC  total cycles: cycles' "$tmp/out" &&
	grep -qx '  L1-dcache-load-misses                 3:0x10000' "$tmp/out" &&
	ok "events list: cache events and PAPI presets, what each is here" ||
	not_ok "events list: cache events and PAPI presets, what each is here"
run "$SW" events list --sysfs fixtures/sysfs-nocore
grep -qx '  PAPI_L1_DCM   level 1 data cache misses: L1-dcache-load-misses (not available here)' "$tmp/out" &&
	ok "events list: presets not available without a hardware PMU" ||
	not_ok "events list: presets not available without a hardware PMU"
run "$SW" events list --sysfs "$S" power
[ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "$(printf 'power (type 9) terms: event=config:0-7\n  power/energy-pkg/                     event=0x02')" ] &&
	ok "events list PMU: that PMU only" ||
	not_ok "events list PMU: that PMU only"
# Vendor names through libpfm4, with a table forced (LIBPFM_FORCE_PMU) so
# that the answers do not depend on the host's CPU: Intel Skylake's on
# x86_64, Cortex-A57's on arm64.
case $(uname -m) in
x86_64) PFMPMU=skl PFMEV=INST_RETIRED.ANY_P PFMWANT=INST_RETIRED.ANY_P=4:0xc0
	PFMLOW=inst_retired:any_p PFMLOWWANT=inst_retired.any_p=4:0xc0 ;;
aarch64) PFMPMU=arm_ac57 PFMEV=INST_RETIRED PFMWANT=INST_RETIRED=4:0x8
	PFMLOW=arm_ac57::inst_retired PFMLOWWANT=inst_retired=4:0x8 ;;
*) PFMPMU= ;;
esac
if "$SW" events list --sysfs "$S" | grep -q "built without libpfm4"; then
	skipped "events: vendor names" "built without libpfm4 (PFM=0)"
	fails "events list: unknown PMU" \
		"stopwatch events: no PMU 'cpuu' in $S/bus/event_source/devices nor among libpfm4's of this CPU" \
		"$SW" events list --sysfs "$S" cpuu
elif [ -z "$PFMPMU" ]; then
	skipped "events: vendor names" "no libpfm4 table chosen for $(uname -m)"
else
	export LIBPFM_FORCE_PMU=$PFMPMU
	fails "events list: unknown PMU" \
		"stopwatch events: no PMU 'cpuu' in $S/bus/event_source/devices nor among libpfm4's of this CPU ($PFMPMU)" \
		"$SW" events list --sysfs "$S" cpuu
	run "$SW" events resolve --sysfs "$S" "$PFMEV"
	expect "events resolve: a vendor name ($PFMEV) through libpfm4" 0 "$PFMWANT" ""
	run "$SW" events resolve --sysfs "$S" "$PFMLOW"
	expect "events resolve: libpfm4's spelling, any case ($PFMLOW)" 0 "$PFMLOWWANT" ""
	run "$SW" events list --sysfs "$S" cpu
	expect "events list: the core PMU, then libpfm4's core table beside it" 0 \
		"$PFMPMU (vendor events from libpfm4, core PMU; give NAME, NAME:UMASK or $PFMPMU::NAME):" ""
	run "$SW" events list --sysfs "$S" "$PFMPMU"
	[ "$rc" = 0 ] && [ "$(head -n 1 "$tmp/out")" = "$PFMPMU (vendor events from libpfm4, core PMU; give NAME, NAME:UMASK or $PFMPMU::NAME):" ] &&
		grep -Eq '^  INST_RETIRED +0x' "$tmp/out" &&
		ok "events list: libpfm4's PMU named: its table only" ||
		not_ok "events list: libpfm4's PMU named: its table only"
	run "$SW" events list --sysfs "$S"
	expect "events list: vendor tables in the whole list" 0 \
		"$PFMPMU (vendor events from libpfm4" ""
	run "$SW" events resolve --sysfs "$S" "$PFMEV:u,$PFMLOW:k"
	expect "events resolve: perf's :u and :k after vendor names (EVENT:UMASK kept)" 0 \
		"${PFMWANT%%=*}_u=${PFMWANT#*=}:u,${PFMLOWWANT%%=*}_k=${PFMLOWWANT#*=}:k"
	fails "events resolve: a vendor name with a modifier that is not one" \
		"stopwatch events: $PFMEV:x: 'x' is not a modifier stopwatch.ko takes: u (user mode only), k (kernel mode only), uk (both, as without one)" \
		"$SW" events resolve --sysfs "$S" "$PFMEV:x"
	run "$SW" events resolve --sysfs "$S" INST_RETIRED.NO_SUCH_UMASK
	[ "$rc" = 1 ] && grep -q "^stopwatch events: INST_RETIRED.NO_SUCH_UMASK: libpfm4 cannot encode INST_RETIRED:NO_SUCH_UMASK: .* (its unit masks: " "$tmp/err" &&
		ok "events resolve: a unit mask the event lacks, its unit masks listed" ||
		not_ok "events resolve: a unit mask the event lacks, its unit masks listed" "$(cat "$tmp/err")"
	fails "events resolve: a name neither the module nor libpfm4 knows" \
		"stopwatch events: NO_SUCH_VENDOR_EVENT: unknown event (all there are: stopwatch events list)" \
		"$SW" events resolve --sysfs "$S" NO_SUCH_VENDOR_EVENT
	unset LIBPFM_FORCE_PMU
fi
# show and set against a fake debugfs; its events file a plain file.
E=$tmp/evdbg
mkdir -p "$E"
cp "$B/stats" "$E/"
printf "events: event 'cycles': no hardware PMU present\n" > "$E/last_error"
printf 'cpu-clock\ncontext-switches\n' > "$E/events"
run "$SW" events --debugfs "$E"
[ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "$(printf 'cpu-clock\ncontext-switches')" ] &&
	ok "events: prints the events file" || not_ok "events: prints the events file"
run env STOPWATCH_SYSFS="$S" "$SW" events set --debugfs "$E" cycles armv8_pmuv3/inst_retired/
expect "events set" 0 "" ""
[ "$(cat "$E/events")" = "cycles,inst_retired=8:0x8" ] &&
	ok "events set wrote the resolved list" ||
	not_ok "events set wrote the resolved list" "$(cat "$E/events")"
fails "events set: nothing written when resolving fails" \
	"stopwatch events: cpu/event=0x3c: no closing '/' (PMU/TERMS/, e.g. cpu/event=0x3c/)" \
	"$SW" events set --sysfs "$S" --debugfs "$E" cpu/event=0x3c
[ "$(cat "$E/events")" = "cycles,inst_retired=8:0x8" ] &&
	ok "events file unchanged after a failed set" ||
	not_ok "events file unchanged after a failed set"
run "$SW" events set --debugfs "$E" ''
expect "events set '' (none)" 0 "" ""
[ "$(cat "$E/events")" = "" ] && ok "events set '' wrote an empty list" ||
	not_ok "events set '' wrote an empty list"
if [ -w /dev/full ]; then
	# A write the "module" refuses: the errno and last_error shown.
	rm "$E/events"
	ln -s /dev/full "$E/events"
	fails "events set refused: errno and last_error" \
		"stopwatch events: stopwatch.ko refused 'cycles': No space left on device: events: event 'cycles': no hardware PMU present" \
		"$SW" events set --debugfs "$E" cycles
else
	skipped "events set refused" "/dev/full not writable"
fi
rm -f "$E/events"
fails "events without an events file" \
	"stopwatch events: $E/events: No such file or directory (this stopwatch.ko counts no events; rebuild and reload it)" \
	"$SW" events --debugfs "$E"
# record -e goes through the same resolver.
fails "record -e: an unknown PMU event" \
	"stopwatch record: --event: cpu/bogus/: PMU 'cpu' has no event or term 'bogus' (events: cpu-cycles, mem-loads; terms: any, cmask, edge, event, inv, ldlat, umask)" \
	env STOPWATCH_SYSFS="$S" "$SW" record -e cpu/bogus/ -a
fails "record -e: one event only" \
	"stopwatch record: --event 'cycles,instructions': the sampler samples one event at a time (several counted per call: stopwatch time -e LIST)" \
	"$SW" record -e cycles,instructions -a
fails "record -e twice: a list, refused as one" \
	"stopwatch record: --event 'cycles,cs': the sampler samples one event at a time (several counted per call: stopwatch time -e LIST)" \
	"$SW" record -e cycles -e cs -a
fails "record -e: an unknown name refused before the module" \
	"stopwatch record: --event: cyles: unknown event; closest: cycles (all there are: stopwatch events list)" \
	env STOPWATCH_SYSFS="$S" "$SW" record -e cyles -a
fails "time -e twice: one list, each item resolved" \
	"stopwatch time: -e: cycles:: '' is not a modifier stopwatch.ko takes: u (user mode only), k (kernel mode only), uk (both, as without one)" \
	env STOPWATCH_SYSFS="$S" "$SW" time -e cs -e cycles: vfs_read -d 1

# --- record and report -------------------------------------------------------
run "$SW" help
expect "help lists record and report" 0 "   report "
run "$SW" record --help
expect "record --help shows examples" 0 "stopwatch record -e cycles -c 100000 -g -o prof.swd -- ./app args"
run "$SW" report --help
expect "report --help shows examples" 0 "stopwatch report -i prof.swd --svg flame.svg"
fails "record with nothing to record" \
	"$(printf 'stopwatch record: nothing to record: give a command, -a (all processes) or -p PID\n')" \
	sh -c "'$SW' record 2>&1 >/dev/null | head -1 >&2; exit 1"
fails "record -c and -F" \
	"stopwatch record: -c (period) and -F (frequency) exclude each other" \
	"$SW" record -c 1000 -F 99 -a
fails "record bad --freq" \
	"stopwatch record: invalid --freq '0': expected samples per second, 1 to 100000" \
	"$SW" record -F 0 -a
fails "record bad --call-graph" \
	"stopwatch record: invalid --call-graph 'stack': expected fp, dwarf, kernel, user, kernel,user or none" \
	"$SW" record --call-graph stack -a
fails "record --call-graph dwarf,8192: no stack size to give, said why" \
	"stopwatch record: --call-graph dwarf,8192: stopwatch copies no user stack, so there is no size to give; use --call-graph dwarf" \
	"$SW" record --call-graph dwarf,8192 -a
fails "record --call-graph lbr: not possible, said why and what is" \
	"stopwatch record: --call-graph lbr: stopwatch.ko's sampler reads no last-branch records; possible: fp, dwarf, kernel, user, none" \
	"$SW" record --call-graph lbr -a
fails "record --call-graph fp: accepted (perf's frame-pointer mode)" \
	"stopwatch record: /nonexistent: No such file or directory" \
	"$SW" record --call-graph fp -a -q --duration 1 --debugfs /nonexistent
fails "record -p and a command" \
	"stopwatch record: -p PID and a command exclude each other" \
	"$SW" record -p 1 -- true
fails "report bad --sort" \
	"stopwatch report: unknown sort key 'dso2': expected comm, pid, tid, image, symbol, srcline or cpu" \
	"$SW" report -i x.swd --sort comm,dso2
fails "report bad --min-percent" \
	"stopwatch report: invalid --min-percent '120': expected a percentage from 0 to 100" \
	"$SW" report -i x.swd --min-percent 120
fails "report missing file" \
	"stopwatch report: cannot open $tmp/none.swd: No such file or directory" \
	"$SW" report -i "$tmp/none.swd"
printf 'not a recording at all, just some text that is long enough to hold a header\n' > "$tmp/text.swd"
fails "report of a file that is not a recording" \
	"stopwatch report: $tmp/text.swd: not a stopwatch data file (no STOPWSWD magic)" \
	"$SW" report -i "$tmp/text.swd"
: > "$tmp/empty.swd"
fails "report of an empty file" \
	"stopwatch report: $tmp/empty.swd: empty file (the recording wrote nothing)" \
	"$SW" report -i "$tmp/empty.swd"
# The module's absence, without a module: a debugfs-like tree without stopwatch/.
mkdir -p "$tmp/nomod"
fails "record without the module" \
	"stopwatch record: $tmp/nomod: not a stopwatch debugfs directory (no 'stats' file in it or in $tmp/nomod/stopwatch)" \
	"$SW" record --debugfs "$tmp/nomod" -a

if [ -n "$GEN" ] && [ -n "$SYMBIN" ] && [ -x "$GEN" ]; then
	G=$tmp/gen.swd
	"$GEN" --samples "$NS" "$SYMBIN" "$G"
	run "$SW" report -i "$G"
	expect "report of a synthetic recording" 0 "symprog   symprog-pie        [.] sym_hot" ""
	grep -q '^# command: symprog (pid 1000 and its children)$' "$tmp/out" &&
		ok "report header: command and target" ||
		not_ok "report header: command and target"
	[ "$(grep -vc '^#' "$tmp/out")" = 5 ] && ok "report: five rows (exited child included, stranger left out)" ||
		not_ok "report: five rows (exited child included, stranger left out)"
	run "$SW" report -i "$G" --sort symbol,srcline -n 3 -q
	expect "--sort symbol,srcline" 0 "[.] sym_hot   symprog.c:10"
	run "$SW" report -i "$G" --sort image -q
	expect "--sort image clumps by image" 0 "libsymlib.so"
	[ "$(grep -vc '^#' "$tmp/out")" = 4 ] && ok "--sort image: four images" ||
		not_ok "--sort image: four images"
	# Under -F periods vary: sym_warm (20% of the samples) here carries
	# ten times the period of the others, so by period it leads.  The
	# rows are ordered, and -n cut, by what is printed: samples, unless
	# --period.
	GW=$tmp/gen-warm.swd
	"$GEN" --samples "$NS" --warm-period 10000000 "$SYMBIN" "$GW"
	run "$SW" report -i "$GW" --sort symbol -q
	[ "$(grep -v '^#' "$tmp/out" | awk '{print $4}' | head -2 | tr '\n' ' ')" = "sym_hot sym_warm " ] &&
		ok "report with varied periods: rows by samples" ||
		not_ok "report with varied periods: rows by samples"
	run "$SW" report -i "$GW" --sort symbol -q -n 1
	[ "$(grep -v '^#' "$tmp/out" | awk '{print $4}')" = sym_hot ] &&
		ok "report -n 1 keeps the row with most samples" ||
		not_ok "report -n 1 keeps the row with most samples"
	run "$SW" report -i "$GW" --sort symbol -q --period -n 1
	[ "$(grep -v '^#' "$tmp/out" | awk '{print $4}')" = sym_warm ] &&
		ok "report --period -n 1 keeps the row with most period" ||
		not_ok "report --period -n 1 keeps the row with most period"
	run sh -c "'$SW' report -i '$GW' --sort symbol --json | python3 -c 'import json,sys; r=json.load(sys.stdin)[\"rows\"]; print(all(a[\"samples\"] >= b[\"samples\"] for a, b in zip(r, r[1:])))'"
	expect "report --json rows by samples" 0 "True"
	run "$SW" report -i "$G" --comm symchild --sort comm,symbol -q
	expect "--comm keeps one command" 0 "symchild  [.] sym_hot"
	run "$SW" report -i "$G" --folded
	expect "--folded" 0 "symprog;main;sym_mid;lib_hot "
	run "$SW" report -i "$G" -g -q
	expect "-g: hottest path" 0 " main -> sym_mid -> sym_hot"
	run "$SW" report -i "$G" --json
	expect "--json" 0 '"sort":["comm","image","symbol"],"rows":[{"samples":'
	if command -v python3 > /dev/null; then
		run sh -c "'$SW' report -i '$G' --json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d[\"rows\"][0][\"symbol\"], d[\"complete\"], d[\"samples\"])'"
		expect "--json parses" 0 "sym_hot True $NS"
	fi
	run "$SW" report -i "$G" --svg "$tmp/f.svg" -q
	expect "--svg" 0
	grep -q 'data-n="sym_hot"' "$tmp/f.svg" && grep -q '</svg>' "$tmp/f.svg" &&
		ok "--svg wrote a flame graph" || not_ok "--svg wrote a flame graph"
	run "$SW" report -i "$G" --pprof "$tmp/p.pb.gz" -q
	expect "--pprof" 0
	if command -v go > /dev/null; then
		run env HOME="$tmp" GOCACHE="$tmp/gocache" GOFLAGS= go tool pprof -top "$tmp/p.pb.gz"
		expect "go tool pprof -top reads the profile" 0 "flat%"
		[ "$(awk '/flat%/ { getline; print $NF; exit }' "$tmp/out")" = sym_hot ] &&
			ok "go tool pprof: top symbol sym_hot" ||
			not_ok "go tool pprof: top symbol sym_hot"
	else
		skipped "go tool pprof" "go not installed (apt-get install golang-go)"
	fi
	# Cut short: what is whole is shown, and the loss is said.
	size=$(stat -c %s "$G")
	"$GEN" --samples "$NS" --cut $((size / 2)) "$SYMBIN" "$tmp/cut.swd"
	run "$SW" report -i "$tmp/cut.swd" --sort symbol -q
	expect "a cut file still reports" 0 "[.] sym_hot"
	grep -q "stopwatch report: warning: $tmp/cut.swd is incomplete (the recording did not finish writing it): the profile is partial" "$tmp/err" &&
		grep -Eq "the file ends inside (the records of CPU|a section header)" "$tmp/err" &&
		ok "a cut file: partial profile and what was cut said" ||
		not_ok "a cut file: partial profile and what was cut said"
	"$GEN" --samples 1000 --lost 250 "$SYMBIN" "$tmp/lost.swd"
	run "$SW" report -i "$tmp/lost.swd"
	expect "losses in the header" 0 "# lost 250 samples (20.00%): buffer full 250"

	# record against a fake debugfs: relay files holding the same stream.
	F=$tmp/fakedbg
	mkdir -p "$F/samples"
	cp fixtures/basic/stats "$F/stats"
	printf 'state      stopped\n' > "$F/sampler"
	"$GEN" --samples 3000 --raw "$F" "$SYMBIN" "$tmp/unused.swd"
	run "$SW" record --debugfs "$F" -a --duration 0.2 -o "$tmp/rec.swd"
	expect "record -a from relay files" 0
	grep -q "^\[ stopwatch record: wrote 3000 samples" "$tmp/err" &&
		ok "record counted the samples it drained" ||
		not_ok "record counted the samples it drained"
	[ "$(sed -n '2,$p' "$F/sampler")" = "$(printf 'start freq=1000 callchain=none\nstop')" ] &&
		ok "record wrote start and stop to the sampler file" ||
		not_ok "record wrote start and stop to the sampler file" "$(cat "$F/sampler")"
	run "$SW" report -i "$tmp/rec.swd" --sort comm,symbol -q
	expect "report of what record drained" 0 "symprog   [.] sym_hot"
	# trace, live, against a fake debugfs whose relay files hold
	# swd-gen's stream with traced calls and spans: calls printed while
	# trace runs (before its ^C), then the rest at the ^C; the same call
	# objects in the same order as script prints from the file, and the
	# same loss line; no file written.  (A live trace symbolizes no
	# kernel frames of samples: it records none.)
	F4=$tmp/fakedbg4
	mkdir -p "$F4/samples"
	cp fixtures/basic/stats "$F4/stats"
	printf 'state      stopped\n' > "$F4/sampler"
	printf 'sym_work trace=on id=1\n' > "$F4/probes"
	printf '+request start=a stop=b trace=on id=1\n' > "$F4/spans"
	"$GEN" --samples 300 --calls 3 --raw "$F4" "$SYMBIN" "$tmp/calls.swd"
	"$SW" trace --json --spans --debugfs "$F4" \
		> "$tmp/live.json" 2> "$tmp/live.err" &
	tp=$!
	wait_for "$tmp/live.json" '"type":"call"'
	kill -0 "$tp" 2> /dev/null && grep -q '"type":"call"' "$tmp/live.json" &&
		ok "trace: calls printed while it runs (before ^C)" ||
		not_ok "trace: calls printed while it runs (before ^C)" "$(cat "$tmp/live.err")"
	# what it has open meanwhile: the relay files, no recording
	fds=$(ls -l "/proc/$tp/fd" 2> /dev/null)
	echo "$fds" | grep -q "$F4/samples/cpu0" &&
		! echo "$fds" | grep -q 'stopwatch-trace-\|\.swd' &&
		ok "trace: no file written meanwhile" ||
		not_ok "trace: no file written meanwhile" "$fds"
	kill -INT "$tp"
	wait "$tp"
	rc=$?
	"$SW" script -i "$tmp/calls.swd" --json --all-pids 2> "$tmp/script.err" |
		grep '"type":"call"' > "$tmp/script.calls"
	[ "$rc" = 0 ] && [ -s "$tmp/script.calls" ] &&
		grep '"type":"call"' "$tmp/live.json" | cmp -s - "$tmp/script.calls" &&
		ok "trace: at ^C, every call printed, in script's order" ||
		not_ok "trace: at ^C, every call printed, in script's order" \
			"exit $rc; $(grep -c '"type":"call"' "$tmp/live.json") vs $(wc -l < "$tmp/script.calls") calls" \
			"$(diff "$tmp/live.json" "$tmp/script.calls" | head -5)"
	[ "$(grep 'calls traced\|final counters' "$tmp/live.err")" = \
	  "$(grep 'calls traced\|final counters' "$tmp/script.err" | sed 's/stopwatch script:/stopwatch trace:/')" ] &&
		ok "trace: the loss line as script's" ||
		not_ok "trace: the loss line as script's" "$(cat "$tmp/live.err")" "$(cat "$tmp/script.err")"
	# serve's CPU profile: record and report --pprof, over HTTP.
	if command -v curl > /dev/null; then
		printf 'state      stopped\n' > "$F/sampler"
		serve_start "$F" --state-dir "$tmp" || not_ok "serve starts" "$(cat "$tmp/serve.err")"
		curl -s -o "$tmp/prof.pb.gz" -w '%{http_code}' \
			"http://127.0.0.1:$PORT/debug/pprof/profile?seconds=1" > "$tmp/prof.code" &
		cp=$!
		wait_for "$F/sampler" '^start'
		get "/debug/pprof/profile?seconds=1"
		[ "$code" = 409 ] && grep -q "one at a time" "$tmp/out" &&
			ok "serve: a second profile meanwhile is refused (409)" ||
			not_ok "serve: a second profile meanwhile is refused (409)" "status $code"
		wait "$cp"
		[ "$(cat "$tmp/prof.code")" = 200 ] && [ "$(head -c 2 "$tmp/prof.pb.gz" | od -An -tx1 | tr -d ' ')" = 1f8b ] &&
			ok "serve: /debug/pprof/profile?seconds=1 is a gzip'd profile" ||
			not_ok "serve: /debug/pprof/profile?seconds=1 is a gzip'd profile" \
				"status $(cat "$tmp/prof.code")" "$(head -c 300 "$tmp/prof.pb.gz")"
		if command -v go > /dev/null; then
			HOME=$tmp GOCACHE=$tmp/gocache go tool pprof -top "$tmp/prof.pb.gz" > "$tmp/top" 2>&1
			awk '$NF == "sym_hot" { found = 1 } END { exit !found }' "$tmp/top" &&
				[ "$(awk '/flat%/ { getline; print $NF; exit }' "$tmp/top")" = sym_hot ] &&
				ok "serve: go tool pprof -top of the profile has sym_hot on top" ||
				not_ok "serve: go tool pprof -top of the profile has sym_hot on top" "$(head -20 "$tmp/top")"
		else
			skipped "serve: go tool pprof reads the profile" "no go here"
		fi
		ls "$tmp"/stopwatch-profile.* > /dev/null 2>&1 &&
			not_ok "serve: the profile's recording is removed" "$(ls "$tmp")" ||
			ok "serve: the profile's recording is removed"
		serve_stop
	else
		skipped "serve: CPU profile over HTTP" "no curl here"
	fi
	# -e PMU/.../: the sampler gets the resolved ALIAS=TYPE:CONFIG.
	F3=$tmp/fakedbg3
	mkdir -p "$F3/samples"
	cp fixtures/basic/stats "$F3/stats"
	printf 'state      stopped\n' > "$F3/sampler"
	"$GEN" --samples 10 --raw "$F3" "$SYMBIN" "$tmp/unused.swd"
	run env STOPWATCH_SYSFS=fixtures/sysfs "$SW" record --debugfs "$F3" \
		-e armv8_pmuv3/inst_retired/ -c 100000 -a --duration 0.1 -o "$tmp/rec3.swd"
	expect "record -e armv8_pmuv3/inst_retired/" 0
	[ "$(sed -n 2p "$F3/sampler")" = "start event=inst_retired=8:0x8 period=100000 callchain=none" ] &&
		ok "record -e: the sampler got event=inst_retired=8:0x8" ||
		not_ok "record -e: the sampler got event=inst_retired=8:0x8" "$(cat "$F3/sampler")"
	# --daemon: a later file resolves processes described only in an
	# earlier one (the second batch has no records for them).
	F2=$tmp/fakedbg2
	mkdir -p "$F2/samples" "$tmp/more/samples"
	cp fixtures/basic/stats "$F2/stats"
	printf 'state      stopped\n' > "$F2/sampler"
	"$GEN" --samples 2000 --raw "$F2" "$SYMBIN" "$tmp/unused.swd"
	"$GEN" --samples 2000 --no-synth --raw "$tmp/more" "$SYMBIN" "$tmp/unused.swd"
	"$SW" record --daemon --rotate-interval 1 --debugfs "$F2" -o "$tmp/daemon" \
		> "$tmp/out" 2> "$tmp/err" &
	dp=$!
	wait_for "$tmp/err" ' done$'
	cat "$tmp/more/samples/cpu0" >> "$F2/samples/cpu0"
	cat "$tmp/more/samples/cpu1" >> "$F2/samples/cpu1"
	wait_for "$tmp/err" ' done$' 2
	kill -INT "$dp"
	wait "$dp"
	rc=$?
	expect "record --daemon ends on SIGINT" 0
	n=$(ls "$tmp/daemon"/stopwatch-*.swd | wc -l)
	[ "$n" -ge 2 ] && ok "record --daemon rotated ($n files)" ||
		not_ok "record --daemon rotated ($n files)"
	: > "$tmp/later"
	for f in $(ls "$tmp/daemon"/stopwatch-*.swd | sed 1d); do
		"$SW" report -i "$f" --all -q --sort comm,image,symbol >> "$tmp/later" 2>/dev/null
	done
	grep -Eq "symprog +symprog-pie +\[\.\] sym_hot" "$tmp/later" &&
		! grep -Eq "symprog +\[unknown\]" "$tmp/later" &&
		ok "a rotated file resolves what an earlier file described" ||
		not_ok "a rotated file resolves what an earlier file described" "$(cat "$tmp/later")"
	printf 'state      running\n' > "$F/sampler"
	fails "record while the sampler runs" \
		"stopwatch record: the sampler is already running (another 'stopwatch record'?); stop it with 'echo stop > $F/sampler'" \
		"$SW" record --debugfs "$F" -a --duration 0.1 -o "$tmp/rec2.swd"
	rm "$F/sampler"
	fails "record with a module without sampler" \
		"stopwatch record: $F/sampler: not found: this stopwatch.ko has no sampler (rebuild and reload it)" \
		"$SW" record --debugfs "$F" -a --duration 0.1 -o "$tmp/rec2.swd"
else
	skipped "report of synthetic recordings" "SW_GEN/SW_SYMBIN not set (make test sets them)"
fi

# --- time and probe against a fake debugfs (the control lines written) ---
T=$tmp/tfake
mkdir -p "$T/hist"
cat > "$T/stats" <<'EOT'
probe calls min_ns avg_ns max_ns stddev_ns total_ns missed miss_maxactive miss_reentry migrated filtered filtered_short filtered_long
vfs_read@tst 123 812 2301 90211 4410 283023 0 0 0 1 7 5 2
vfs_write@tst 10 300 1500 3000 200 15000 0 0 0 0 0 0 0
vfs_read 99 1 1 1 0 99 0 0 0 0 0 0 0
EOT
sed 's/^vfs_read:/vfs_read@tst:/' "$B/hist/vfs_read" > "$T/hist/vfs_read@tst"
sed 's/^vfs_write:/vfs_write@tst:/' "$B/hist/vfs_write" > "$T/hist/vfs_write@tst"
printf 'probe key calls min_ns avg_ns max_ns stddev_ns total_ns\nvfs_read@tst dd 23 900 2301 90000 4410 52923\nvfs_read@tst comm=my\\040task,retval=-2 4 1 2 3 1 8\n' > "$T/keys"
printf 'vfs_read\n' > "$T/probes"
: > "$T/last_error"
: > "$T/events"
export STOPWATCH_TRACING=$PWD/fixtures/pattern
run "$SW" time --debugfs "$T" --tag tst -u us --min 1ms --max 2s -p 42 -C 0-1 --by comm,retval 'vfs_[rw]*' -d 0.05 --raw
expect "time: filters, keys and units" 0 "vfs_read                            123        0.812        2.301       90.211"
[ "$(sed -n 2p "$T/probes")" = "+vfs_read@tst$A4 tgid=42 cpus=0-1 min_ns=1000000 max_ns=2000000000 by=comm,retval +vfs_write@tst$A4 tgid=42 cpus=0-1 min_ns=1000000 max_ns=2000000000 by=comm,retval" ] &&
	ok "time: one control write adds every probe with its options" ||
	not_ok "time: one control write adds every probe with its options" "$(cat "$T/probes")"
[ "$(sed -n 3p "$T/probes")" = "-vfs_read@tst -vfs_write@tst" ] &&
	ok "time: removes exactly its own probes, by tag" ||
	not_ok "time: removes exactly its own probes, by tag" "$(cat "$T/probes")"
grep -qF "skipped: vfs_readv, vfs_write.cold" "$tmp/err" &&
	ok "time: names the matching functions it cannot probe" ||
	not_ok "time: names the matching functions it cannot probe"
grep -qF "0.512 ->      1.024 : 1" "$tmp/out" &&
	ok "time: histogram in the unit" || not_ok "time: histogram in the unit"
grep -qE "^vfs_read +dd +23 " "$tmp/out" && ok "time: keyed rows" ||
	not_ok "time: keyed rows"
printf 'vfs_read\n' > "$T/probes"
printf 'vfs_read\n' > "$T/probes"
run "$SW" time --debugfs "$T" --tag tst 'vfs_[rw]*' -d 0.01 --no-hist
expect "time: the default table, units, filters' choices flagged" 0 "vfs_read     123  812 ns  2.30 µs  90.2 µs  4.41 µs   283 µs         1        7*              5*             2*"
grep -qxF "* filtered_short: 5 calls shorter than the probe's min_ns, left out" "$tmp/out" &&
	ok "time: what a filter left out explained under the table" ||
	not_ok "time: what a filter left out explained under the table"
run "$SW" time --debugfs "$T" --tag tst -u us 'vfs_[rw]*' -d 0.01 --no-hist
expect "time -u us: the default table in one unit" 0 "vfs_read     123   0.812   2.301  90.211      4.410   283.023"
# --correct: window_ns off min and avg (and the percentiles), the row
# marked, the amount said in one line; a probe with 0 (not calibrated)
# as measured, marked and named in a second line; not with --predict.
cp "$T/stats" "$tmp/stats.keep"
awk 'NR == 1 { print $0, "window_ns"; next } $1 == "vfs_read@tst" { print $0, 812; next }
	{ print $0, 0 }' "$tmp/stats.keep" > "$T/stats"
printf 'vfs_read\n' > "$T/probes"
run "$SW" time --debugfs "$T" --tag tst --correct -u ns 'vfs_[rw]*' -d 0.01 --no-hist --raw
expect "time --correct: min and avg less window_ns, the row marked" 0 "vfs_read*                           123            0         1489        90211"
grep -qE "^vfs_write! +10 +300 +1500 +3000 " "$tmp/out" &&
	ok "time --correct: a probe not calibrated as measured, marked" ||
	not_ok "time --correct: a probe not calibrated as measured, marked"
grep -qxF "# * corrected for the probe: 812 ns subtracted from min, avg and percentiles (the probe's in-window cost, calibrated at load; never below 0; max and histograms as measured)" "$tmp/out" &&
	grep -qxF "# ! not corrected: vfs_write (the probe's in-window cost was not calibrated: a trampoline or uprobe, calibrate=0, or an older module)" "$tmp/out" &&
	ok "time --correct: the lines saying what was subtracted and what not" ||
	not_ok "time --correct: the lines saying what was subtracted and what not"
printf 'vfs_read\n' > "$T/probes"
run "$SW" time --debugfs "$T" --tag tst --correct 'vfs_read' -d 0.01 --no-hist --json
expect "time --correct --json: corrected values, corrected and window_ns" 0 '"avg":1489,'
grep -qF '"corrected":true,"window_ns":812' "$tmp/out" &&
	ok "time --correct --json: corrected and window_ns per function" ||
	not_ok "time --correct --json: corrected and window_ns per function"
mv "$tmp/stats.keep" "$T/stats"
fails "time --predict --correct is refused" \
	"stopwatch time: --predict prints a prediction only: not with --correct" \
	"$SW" time --debugfs "$T" --predict --correct vfs_read -d 1
printf 'vfs_read\n' > "$T/probes"
run "$SW" time --debugfs "$T" --tag tst --json --by comm,retval vfs_read -- true
expect "time --json -- true" 0 '"probe":"vfs_read@tst","calls":123'
grep -qF '{"key":"comm=my task,retval=-2","calls":4,"min":1' "$tmp/out" &&
	ok "time --json: keyed rows with the real comm" ||
	not_ok "time --json: keyed rows with the real comm"
[ "$(sed -n 2p "$T/probes")" = "+vfs_read@tst$A4 follow=$(sed -n 2p "$T/probes" | sed 's/.*follow=\([0-9]*\).*/\1/') by=comm,retval" ] &&
	ok "time -- COMMAND follows the command (follow=PID)" ||
	not_ok "time -- COMMAND follows the command (follow=PID)" "$(cat "$T/probes")"
if command -v python3 > /dev/null; then
	python3 -m json.tool < "$tmp/out" > /dev/null && ok "time --json is valid JSON" ||
		not_ok "time --json is valid JSON"
fi
run "$SW" time --debugfs "$T" --tag tst vfs_read -i 0.02 -d 0.05 --no-hist
expect "time -i: interval deltas" 0 "# 0.0"
fails "time: a pattern matching nothing" \
	"stopwatch time: 'nosuch_*' matches no kernel function" \
	"$SW" time --debugfs "$T" 'nosuch_*' -d 1
fails "time: only unprobeable matches" \
	"stopwatch time: 'kprobe_only_*' matches 1 function, none of which can be probed (not traceable, kprobe blacklist or stopwatch's own): kprobe_only_bl" \
	"$SW" time --debugfs "$T" 'kprobe_only_*' -d 1
fails "time: bad --min" \
	"stopwatch time: invalid --min '5': expected a duration with a unit: ns, us, ms or s (e.g. 1ms)" \
	"$SW" time --debugfs "$T" --min 5 vfs_read
fails "time: bad -u" \
	"stopwatch time: invalid --unit 'min': expected ns, us, ms or s" \
	"$SW" time --debugfs "$T" -u min vfs_read
fails "time: bad --by" \
	"stopwatch time: invalid keys 'color': unknown key (pid tgid comm cpu caller arg0..arg5 retval)" \
	"$SW" time --debugfs "$T" --by color vfs_read
fails "time: -p and -t" \
	"stopwatch time: -p (a process) and -t (a thread) exclude each other" \
	"$SW" time --debugfs "$T" -p 1 -t 2 vfs_read
fails "time: no pattern" \
	"stopwatch time: no function pattern given (e.g. 'vfs_*'); see 'stopwatch time --help'" \
	"$SW" time --debugfs "$T" -d 1
printf 'cycles\n' > "$T/events"
fails "time -e: refuses to change another user's events" \
	"stopwatch time: the module already counts the events cycles, set by another user; not changing them to instructions (see 'stopwatch events')" \
	"$SW" time --debugfs "$T" -e instructions vfs_read -d 1
: > "$T/events"
run env STOPWATCH_SYSFS=fixtures/sysfs "$SW" time --debugfs "$T" --tag tst --no-hist -e 'cycles,armv8_pmuv3/inst_retired/' vfs_read -d 0.01
expect "time -e: PMU-qualified events resolved" 0
[ "$(sed -n 1p "$T/events")" = "cycles,inst_retired=8:0x8" ] &&
	ok "time -e: the resolved list written to the events file" ||
	not_ok "time -e: the resolved list written to the events file" "$(cat "$T/events")"
[ "$(sed -n 2p "$T/events")" = "" ] && [ "$(wc -l < "$T/events")" = 2 ] &&
	ok "time -e: and cleared at the end" ||
	not_ok "time -e: and cleared at the end" "$(cat "$T/events")"
: > "$T/events"
run "$SW" time --help
expect "time --help shows examples" 0 "stopwatch time 'vfs_*' -d 10"
# The attach default --help states is the module's own (lib/params.h).
moddef=$(sed -n 's/^#define SW_ATTACH_PARAM_DEFAULT "\(.*\)"$/\1/p' ../../lib/params.h)
grep -q "^static char \*attach = SW_ATTACH_PARAM_DEFAULT;" ../../attach/tramp.c &&
	ok "the module's attach= default is SW_ATTACH_PARAM_DEFAULT ($moddef)" ||
	not_ok "the module's attach= default is SW_ATTACH_PARAM_DEFAULT ($moddef)"
for c in time "probe add"; do
	run sh -c "'$SW' $c --help | tr -s ' \n' '  '"
	expect "$c --help: attach default $moddef" 0 "default: the module's attach parameter ($moddef "
done
run "$SW" probe --help
expect "probe --help lists the options of add" 0 "      --attach MODE"
expect "probe --help lists the options of remove and list" 0 "      --tag TAG             only probes tagged TAG"
printf 'vfs_read\nvfs_read@keep tgid=7 by=comm\nvfs_write@keep\nvfs_write@other\n' > "$T/probes"
run "$SW" probe list --debugfs "$T" --tag keep
expect "probe list --tag" 0 "vfs_read@keep tgid=7 by=comm"
[ "$(wc -l < "$tmp/out")" = 2 ] && ok "probe list --tag: only that tag" ||
	not_ok "probe list --tag: only that tag"
run "$SW" probe remove --debugfs "$T" --tag keep
expect "probe remove --tag" 0
[ "$(tail -n 1 "$T/probes")" = "-vfs_read@keep -vfs_write@keep" ] &&
	ok "probe remove --tag: one write, that tag only" ||
	not_ok "probe remove --tag: one write, that tag only" "$(cat "$T/probes")"
fails "probe remove FUNCTION leaves tagged probes alone" \
	"stopwatch probe remove: no probe matches" \
	"$SW" probe remove --debugfs "$T" 'vfs_w*'
run "$SW" probe remove --debugfs "$T" 'vfs_write@*'
[ "$(tail -n 1 "$T/probes")" = "-vfs_write@keep -vfs_write@other" ] &&
	ok "probe remove FUNCTION@*: every tag" ||
	not_ok "probe remove FUNCTION@*: every tag" "$(cat "$T/probes")"
run "$SW" probe add --debugfs "$T" --tag slow --min 1ms --by comm -p 9 vfs_write
expect "probe add" 0
[ "$(tail -n 1 "$T/probes")" = "+vfs_write@slow$A4 tgid=9 min_ns=1000000 by=comm" ] &&
	ok "probe add: the control line" ||
	not_ok "probe add: the control line" "$(cat "$T/probes")"
run "$SW" probe add --debugfs "$T" --tag kr --attach kretprobe vfs_write
expect "probe add --attach" 0
[ "$(tail -n 1 "$T/probes")" = "+vfs_write@kr attach=kretprobe$A4" ] &&
	ok "probe add --attach: the control line" ||
	not_ok "probe add --attach: the control line" "$(cat "$T/probes")"
# A function returning an aggregate of more than 16 bytes takes one more
# register, where the result goes: ZSTD_adjustCParams_internal takes a
# 28-byte struct by value (counted 9: on the stack), four scalars, and
# returns a 28-byte struct: 14.
if [ -n "$A4" ] && grep -qa 'ZSTD_adjustCParams_internal' /sys/kernel/btf/vmlinux; then
	mkdir -p "$T/sret"
	echo ZSTD_adjustCParams_internal >"$T/sret/available_filter_functions"
	STOPWATCH_TRACING=$T/sret run "$SW" probe add --debugfs "$T" --tag sret ZSTD_adjustCParams_internal
	expect "probe add: a function returning a large aggregate" 0
	[ "$(tail -n 1 "$T/probes")" = "+ZSTD_adjustCParams_internal@sret args=14" ] &&
		ok "probe add: its result's register counted in args=" ||
		not_ok "probe add: its result's register counted in args=" "$(tail -n 1 "$T/probes")"
else
	skipped "probe add: a function returning a large aggregate" "no ZSTD_adjustCParams_internal in this kernel's BTF"
	skipped "probe add: its result's register counted in args=" "no such function here"
fi
fails "probe add: bad --attach" \
	"stopwatch probe: --attach fast: expected kretprobe, trampoline or auto" \
	"$SW" probe add --debugfs "$T" --attach fast vfs_write
unset STOPWATCH_TRACING

# --- stat: call paths (a paths file captured from the module) ---
PX=fixtures/paths/x86_64
run "$SW" stat --debugfs "$PX" --tree
expect "stat --tree" 0 "          20         477430         477430        23871  14.20%      sw_test_f3" ""
run "$SW" stat --debugfs "$PX" --folded
expect "stat --folded" 0 "sw_test_f1;sw_test_f2 1829640" ""
[ "$(awk '{ s += $2 } END { print s }' "$tmp/out")" = 3363020 ] &&
	ok "stat --folded adds up to the root's total" ||
	not_ok "stat --folded adds up to the root's total"
fails "stat --tree without a paths file" \
	"stopwatch: $B/paths: no such file: this stopwatch.ko keeps no call paths" \
	"$SW" stat --debugfs "$B" --tree
fails "stat --tree --folded" \
	"stopwatch stat: --tree, --folded, --svg and --pprof exclude each other" \
	"$SW" stat --debugfs "$PX" --tree --folded
fails "stat --tree -i 1" \
	"stopwatch stat: the call paths (--tree, --folded, --svg, --pprof) are printed once, whole: not with --json, --prometheus, --interval, --watch, --breakdown or --probe" \
	"$SW" stat --debugfs "$PX" --tree -i 1
# --- span against the fake debugfs: the control lines, names through BTF ---
: > "$T/spans"
run "$SW" span --debugfs "$T" --btf /nonexistent --keep --name raw \
	--start 'f:arg0+8+0x10/4' --start 'sched:sched_switch:arg1+4/4?arg3/4==0' \
	--stop 'g%return:retval,tid' --slots 64 --age 500 --comm make --by comm
expect "span --keep with raw keys (no BTF needed)" 0
[ "$(tail -n 1 "$T/spans")" = "+raw start=f:arg0+8+0x10/4 start=sched:sched_switch:arg1+4/4?arg3/4==0 stop=g%return:retval,tid slots=64 age_ms=500 comm=make by=comm" ] &&
	ok "span: the control line" ||
	not_ok "span: the control line" "$(cat "$T/spans")"
run "$SW" span --debugfs "$T" --remove raw
expect "span --remove" 0
[ "$(tail -n 1 "$T/spans")" = "-raw" ] && ok "span --remove: the control line" ||
	not_ok "span --remove: the control line" "$(cat "$T/spans")"
fails "span without --stop" \
	"stopwatch span: a span needs --start and --stop; see 'stopwatch span --help'" \
	"$SW" span --debugfs "$T" --start f:arg0
fails "span --slots not a power of two" \
	"stopwatch span: --slots 100 is not a power of two" \
	"$SW" span --debugfs "$T" --start f:arg0 --stop g:arg0 --slots 100
fails "span: a name without BTF" \
	"stopwatch span: f:work: cannot read the kernel's BTF /nonexistent/vmlinux (No such file or directory): names need CONFIG_DEBUG_INFO_BTF; raw argN+OFF keys work without it" \
	"$SW" span --debugfs "$T" --btf /nonexistent --keep --start f:work --stop g:arg0
if [ -r /sys/kernel/btf/vmlinux ]; then
	run "$SW" span --debugfs "$T" --keep --name wq --start __queue_work:work \
		--stop 'process_one_work:work?work->func!=0' \
		--start 'sched:sched_wakeup_new:p->pid'
	expect "span --keep with BTF names" 0
	tail -n 1 "$T/spans" | grep -Eq '^\+wq start=__queue_work:arg2 start=sched:sched_wakeup_new:arg0\+[0-9]+/4 stop=process_one_work:arg1\?arg1\+24!=0$' &&
		ok "span: names resolved to positions and offsets" ||
		not_ok "span: names resolved to positions and offsets" "$(tail -n 1 "$T/spans")"
	fails "span: an argument the function lacks" \
		"stopwatch span: __queue_work:wrk: __queue_work has no argument 'wrk' (its arguments: cpu wq work)" \
		"$SW" span --debugfs "$T" --keep --start __queue_work:wrk --stop g:arg0
	fails "span: a field the struct lacks" \
		"stopwatch span: __queue_work:work->nope: 'work' of __queue_work: no field 'nope' (or a bit field) in the struct it points to" \
		"$SW" span --debugfs "$T" --keep --start '__queue_work:work->nope' --stop g:arg0
	fails "span: a struct is not a key" \
		"stopwatch span: sched:sched_switch:next->se: key 'next...' of sched:sched_switch is not an integer or a pointer" \
		"$SW" span --debugfs "$T" --keep --start 'sched:sched_switch:next->se' --stop g:arg0
else
	skipped "span: BTF names" "no /sys/kernel/btf/vmlinux on this machine"
fi

# --- serve: /metrics, errors, configuration --------------------------------
if command -v curl > /dev/null; then
	V=$tmp/serve
	cp -r fixtures/x86_64 "$V"
	: > "$V/probes"; : > "$V/spans"
	printf 'state      stopped\n' > "$V/sampler"
	serve_start "$V" || not_ok "serve starts" "$(cat "$tmp/serve.err")"
	get /metrics -D "$tmp/hdr"
	[ "$code" = 200 ] && grep -qi '^content-type: text/plain; version=0.0.4' "$tmp/hdr" &&
		ok "serve: /metrics answers in the text format 0.0.4" ||
		not_ok "serve: /metrics answers in the text format 0.0.4" "status $code" "$(cat "$tmp/hdr")"
	# The calls, the histogram's count and its sum are those of the lhists
	# file (the fine buckets' own pass), not the stats file's.
	want=$(sed -n 's/^vfs_read: ns, \([0-9]*\) calls, hist_bits.*/\1/p' "$V/lhists")
	tot=$(sed -n 's/^vfs_read: ns, .*; total \([0-9]*\)$/\1/p' "$V/lhists")
	[ "$want" != "$(awk '$1 == "vfs_read" { print $2 }' "$V/stats")" ] ||
		not_ok "serve: the fixture's lhists and stats calls differ" "both $want"
	grep -qx "stopwatch_calls_total{probe=\"vfs_read\"} $want" "$tmp/out" &&
		grep -qx "stopwatch_duration_seconds_count{probe=\"vfs_read\"} $want" "$tmp/out" &&
		grep -qx "stopwatch_duration_seconds_bucket{probe=\"vfs_read\",le=\"+Inf\"} $want" "$tmp/out" &&
		grep -qx "stopwatch_duration_seconds_sum{probe=\"vfs_read\"} $(awk -v t="$tot" 'BEGIN { printf "%.9f", t / 1e9 }' | sed 's/0*$//')" "$tmp/out" &&
		ok "serve: vfs_read's calls, _count, +Inf bucket and _sum are the lhists file's ($want calls, $tot ns)" ||
		not_ok "serve: vfs_read's calls, _count, +Inf bucket and _sum are the lhists file's ($want calls, $tot ns)"
	grep -q '^stopwatch_keyed_calls_total{probe="vfs_read",key="comm=dd"} 3003$' "$tmp/out" &&
		grep -q '^stopwatch_sampler_running 0$' "$tmp/out" &&
		ok "serve: keyed rows and the sampler's counters" ||
		not_ok "serve: keyed rows and the sampler's counters"
	if [ -n "$PROMTOOL" ]; then
		"$PROMTOOL" check metrics < "$tmp/out" > "$tmp/pt" 2>&1 &&
			ok "serve: promtool check metrics accepts /metrics" ||
			not_ok "serve: promtool check metrics accepts /metrics" "$(head -5 "$tmp/pt")"
	else
		skipped "serve: promtool check metrics" "no promtool (scripts/deps.sh test fetches it)"
	fi
	get /metrics -D "$tmp/hdr" -H 'Accept: application/openmetrics-text; version=1.0.0,text/plain;q=0.5'
	[ "$code" = 200 ] && grep -qi '^content-type: application/openmetrics-text; version=1.0.0' "$tmp/hdr" &&
		[ "$(tail -n 1 "$tmp/out")" = "# EOF" ] &&
		grep -qx '# TYPE stopwatch_calls counter' "$tmp/out" &&
		grep -q '^stopwatch_calls_total{probe="vfs_read"}' "$tmp/out" &&
		ok "serve: OpenMetrics when Accept asks (family without _total, # EOF)" ||
		not_ok "serve: OpenMetrics when Accept asks (family without _total, # EOF)" "status $code"
	# The OpenMetrics parser of Debian's python3-prometheus-client, when there.
	ompy=
	for py in python3 /usr/bin/python3; do
		command -v "$py" > /dev/null && "$py" -c 'import prometheus_client.openmetrics.parser' 2> /dev/null &&
			{ ompy=$py; break; }
	done
	if [ -n "$ompy" ]; then
		"$ompy" -c 'import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families as p
print(len(list(p(sys.stdin.read()))))' < "$tmp/out" > "$tmp/om" 2>&1 &&
			ok "serve: prometheus_client's OpenMetrics parser reads $(cat "$tmp/om") families" ||
			not_ok "serve: prometheus_client's OpenMetrics parser reads the page" "$(tail -1 "$tmp/om")"
	else
		skipped "serve: an OpenMetrics parser" "no python3-prometheus-client here"
	fi
	get /metrics -X POST
	[ "$code" = 405 ] && grep -q "read only" "$tmp/out" &&
		ok "serve: POST is refused (405, read only)" ||
		not_ok "serve: POST is refused (405, read only)" "status $code"
	get /nope
	[ "$code" = 404 ] && ok "serve: an unknown path is 404" || not_ok "serve: an unknown path is 404" "status $code"
	for q in 0 -1 x 61; do
		get "/debug/pprof/profile?seconds=$q"
		[ "$code" = 400 ] && grep -q "seconds=$q: expected a whole number of seconds from 1 to 60" "$tmp/out" ||
			{ not_ok "serve: profile seconds=$q is refused (400)" "status $code" "$(cat "$tmp/out")"; continue; }
		ok "serve: profile seconds=$q is refused (400)"
	done
	get /debug/pprof/paths
	[ "$code" = 404 ] && grep -q "keeps no call paths" "$tmp/out" &&
		ok "serve: /debug/pprof/paths without a paths file says so (404)" ||
		not_ok "serve: /debug/pprof/paths without a paths file says so (404)" "status $code"
	cp fixtures/paths/x86_64/paths "$V/paths"
	get /debug/pprof/paths
	[ "$code" = 200 ] && [ "$(head -c 2 "$tmp/out" | od -An -tx1 | tr -d ' ')" = 1f8b ] &&
		ok "serve: /debug/pprof/paths is a gzip'd profile" ||
		not_ok "serve: /debug/pprof/paths is a gzip'd profile" "status $code"
	# A client that goes away mid-response, then 200 at once.
	curl -s --limit-rate 1k --max-time 0.3 "http://127.0.0.1:$PORT/metrics" > /dev/null 2>&1
	curl -s "http://127.0.0.1:$PORT/metrics" | head -c 10 > /dev/null
	for i in $(seq 200); do
		curl -s -o /dev/null -w '%{http_code}\n' "http://127.0.0.1:$PORT/metrics" &
	done > "$tmp/codes"
	wait $(jobs -p | grep -vx "$SPID")
	n=$(grep -cx 200 "$tmp/codes")
	[ "$n" = 200 ] && kill -0 "$SPID" &&
		ok "serve: after a client left mid-response, 200 concurrent scrapes all answered" ||
		not_ok "serve: after a client left mid-response, 200 concurrent scrapes all answered" \
			"$n of 200: $(sort "$tmp/codes" | uniq -c | tr '\n' ' ')"
	# The port in use.
	run "$SW" serve --debugfs "$V" --listen "127.0.0.1:$PORT"
	expect "serve: a port in use is refused" 1 "" \
		"stopwatch serve: cannot listen on 127.0.0.1:$PORT: Address already in use (another server has the port: pick another with --listen)"
	fails "serve: a malformed --listen" \
		"stopwatch serve: --listen 'localhost': expected ADDR:PORT, e.g. 127.0.0.1:9464 or [::1]:9464, port 0 to 65535" \
		"$SW" serve --debugfs "$V" --listen localhost
	serve_stop
	[ "$src" = 0 ] && grep -q "stopping after" "$tmp/serve.err" &&
		ok "serve: SIGTERM stops it cleanly" || not_ok "serve: SIGTERM stops it cleanly" "status $src"

	# The configuration: checked whole, nothing written when bad.
	C=$tmp/serve.conf
	badconf() {
		printf "$2" > "$C"
		: > "$V/probes"
		run "$SW" serve --debugfs "$V" --listen 127.0.0.1:0 --config "$C"
		[ "$rc" = 1 ] && [ "$(cat "$tmp/err")" = "stopwatch serve: $C:$3" ] && [ ! -s "$V/probes" ] &&
			ok "serve: config refused whole: $1" ||
			not_ok "serve: config refused whole: $1" "rc $rc" "probes: $(cat "$V/probes")"
	}
	badconf "an unknown setting" 'probes vfs_read\nfrobnicate 1\n' \
		"2: unknown setting 'frobnicate': expected probes, spans, events or keys"
	badconf "a bad probe line" 'probes vfs_read\nprobes bad%%name\n' \
		"2: probes 'bad%name': invalid character in function name"
	badconf "a probe twice" 'probes vfs_read\nprobes vfs_write vfs_read by=comm\n' \
		"2: probe 'vfs_read' is already on line 1"
	badconf "a removal" 'probes -vfs_read\n' \
		"1: probes: '-vfs_read': the configuration says what to probe; leave a probe out to remove it"
	badconf "an unknown event" 'events cpu-clock,nosuch\nprobes vfs_read\n' \
		"1: events: 'nosuch': not an event the module knows (see 'stopwatch events list')"
	badconf "bad keys" 'keys sometimes\n' \
		"1: keys: 'sometimes': expected none, pid, tgid, comm or cpu"
	badconf "keys twice" 'keys comm\nkeys pid\n' "2: keys a second time"
	badconf "a bad span" 'spans q start=a:arg1\n' \
		"1: spans: 'q': a line is +NAME ..., -NAME or reset"
	printf '# what to probe\nevents cpu-clock\nkeys comm\nprobes vfs_read vfs_write@w by=comm\n\nspans +q start=__queue_work:arg2 stop=process_one_work:arg1\n' > "$C"
	: > "$V/probes"; : > "$V/spans"
	serve_start "$V" --config "$C" || not_ok "serve starts with a config" "$(cat "$tmp/serve.err")"
	[ "$(cat "$V/probes")" = "vfs_read vfs_write@w by=comm" ] && [ "$(cat "$V/events")" = cpu-clock ] &&
		[ "$(cat "$V/breakdown")" = comm ] &&
		[ "$(cat "$V/spans")" = "+q start=__queue_work:arg2 stop=process_one_work:arg1" ] &&
		ok "serve: the config's lines are written to the module's files" ||
		not_ok "serve: the config's lines are written to the module's files" "$(cat "$V/probes" "$V/spans")"
	# SIGHUP with a bad file: nothing changes, it still answers.
	printf 'probes vfs_read\nprobes ext4_file_read_iter\nbogus\n' > "$C"
	: > "$V/probes"
	kill -HUP "$SPID"
	wait_for "$tmp/serve.err" "'bogus' with nothing after it"
	get /metrics
	[ ! -s "$V/probes" ] && [ "$code" = 200 ] &&
		grep -q "$C:3: 'bogus' with nothing after it; the configuration in force stays" "$tmp/serve.err" &&
		ok "serve: SIGHUP with a bad config keeps the old one and answers" ||
		not_ok "serve: SIGHUP with a bad config keeps the old one and answers" "$(cat "$tmp/serve.err")"
	# SIGHUP with a good one: what changed only.
	printf 'events cpu-clock\nkeys comm\nprobes vfs_read vfs_write@w by=comm\nprobes ext4_file_read_iter\n' > "$C"
	n=$(grep -c "$C: applied" "$tmp/serve.err")
	kill -HUP "$SPID"
	wait_for "$tmp/serve.err" "$C: applied" $((n + 1))
	[ "$(cat "$V/spans")" = "$(printf '+q start=__queue_work:arg2 stop=process_one_work:arg1\n-q')" ] &&
		[ "$(cat "$V/probes")" = ext4_file_read_iter ] &&
		grep -q "$C: applied" "$tmp/serve.err" &&
		ok "serve: SIGHUP applies what changed (a span removed, a probe added)" ||
		not_ok "serve: SIGHUP applies what changed (a span removed, a probe added)" \
			"probes: $(cat "$V/probes")" "spans: $(cat "$V/spans")"
	: > "$V/probes"
	serve_stop
	[ "$(cat "$V/probes")" = "$(printf -- '-ext4_file_read_iter\n-vfs_read\n-vfs_write@w')" ] &&
		ok "serve: on exit the config's probes are removed" ||
		not_ok "serve: on exit the config's probes are removed" "$(cat "$V/probes")"
	# The cap on keyed rows: one series kept, the rest summed in "other".
	serve_start "$V" --max-series 1
	get /metrics
	serve_stop
	grep -c '^stopwatch_keyed_calls_total' "$tmp/out" > "$tmp/n"
	sum=$(awk '$1 == "vfs_read" { s += $3 } END { print s }' "$V/keys")
	other=$(awk -v dd="$(awk '$2 == "comm=dd" { print $3 }' "$V/keys")" -v s="$sum" 'BEGIN { print s - dd }')
	# vfs_read's comm=dd has the most calls; vfs_write's rows all go.
	[ "$(cat "$tmp/n")" = 3 ] &&
		grep -qx 'stopwatch_keyed_calls_total{probe="vfs_read",key="comm=dd"} 3003' "$tmp/out" &&
		grep -qx "stopwatch_keyed_calls_total{probe=\"vfs_read\",key=\"other\"} $other" "$tmp/out" &&
		ok "serve: --max-series 1 keeps the busiest key and sums the rest ($other) in other" ||
		not_ok "serve: --max-series 1 keeps the busiest key and sums the rest ($other) in other" \
			"$(grep '^stopwatch_keyed_calls_total' "$tmp/out")"
else
	skipped "serve over HTTP" "no curl here"
fi

# --- script --perfetto / --chrome: timelines ---------------------------------
# fixtures/trace/getppid-x86_64.swd (the module's): 300 traced getppid
# calls of one thread; and swd-gen's recording with samples, traced calls
# of two event deltas and spans around them (a recording of the module's
# with samples is megabytes of kernel symbols: tests/vm/suites/trace.sh
# checks one in the guest).  Each export is read back three ways: protoc --decode with the
# program's own perfetto_trace.proto, timeline-check.py (a protobuf
# reader of its own, and python3's json), and speedscope in headless
# Chromium for the Chrome JSON (scripts/deps.sh test installs them).
PROTOC=$(command -v protoc || true)
SPEEDSCOPE=../../.cache/tools/speedscope/node_modules/speedscope/dist/release
PROTO=../output/perfetto_trace.proto
# tl_decode FILE: the Perfetto trace FILE as protoc prints it.
tl_decode() {
	"$PROTOC" --proto_path="$(dirname "$PROTO")" \
		--decode perfetto.protos.Trace "$PROTO" < "$1"
}
[ -n "$GEN" ] && [ -n "$SYMBIN" ] &&
	"$GEN" --samples 2000 --calls 3 "$SYMBIN" "$tmp/gen.swd"
for tl in getppid gen; do
	case $tl in
	getppid) F=fixtures/trace/getppid-x86_64.swd fn=__x64_sys_getppid th=getppid_loop ;;
	gen) F=$tmp/gen.swd fn=sym_work th=symprog ;;
	esac
	[ -s "$F" ] || { skipped "$tl: timelines" "no $F (swd-gen not built)"; continue; }
	"$SW" script -i "$F" --json --all-pids > "$tmp/$tl.json" 2>/dev/null
	calls=$(grep -c '^{"type":"call",' "$tmp/$tl.json")
	samples=$(grep -c '^{"type":"sample",' "$tmp/$tl.json")
	nev=$(grep -m 1 '^{"type":"call",' "$tmp/$tl.json" | sed -n 's/.*"ev":\[\([0-9,]*\)\].*/\1/p' | tr ',' '\n' | grep -c .)
	run "$SW" script -i "$F" --all-pids --perfetto "$tmp/$tl.pftrace" --chrome "$tmp/$tl.chrome.json"
	expect "$tl: script --perfetto --chrome ($calls calls, $samples samples)" 0
	if grep -q "$tmp/$tl.pftrace: $calls calls, $samples samples" "$tmp/err"; then
		ok "$tl: stderr says what was written"
	else
		not_ok "$tl: stderr says what was written" "want $calls calls, $samples samples"
	fi
	if [ -z "$PROTOC" ]; then
		skipped "$tl: protoc --decode" "no protoc (scripts/deps.sh installs protobuf-compiler)"
	elif ! tl_decode "$tmp/$tl.pftrace" > "$tmp/$tl.txt" 2> "$tmp/err"; then
		not_ok "$tl: protoc --decode perfetto.protos.Trace" "$(head -c 300 "$tmp/err")"
	else
		got="$(grep -c 'type: TYPE_SLICE_BEGIN' "$tmp/$tl.txt") $(grep -c 'type: TYPE_SLICE_END' "$tmp/$tl.txt") $(grep -c 'perf_sample {' "$tmp/$tl.txt") $(grep -c 'extra_counter_values:' "$tmp/$tl.txt")"
		want="$calls $calls $samples $((calls * nev))"
		if [ "$got" = "$want" ]; then
			ok "$tl: protoc: slice begins, ends, samples, counter values ($got)"
		else
			not_ok "$tl: protoc: slice begins, ends, samples, counter values" "got $got, want $want"
		fi
		if grep -q "name: \"$fn\"" "$tmp/$tl.txt" &&
		   grep -q "thread_name: \"$th\"" "$tmp/$tl.txt"; then
			ok "$tl: protoc: the slices' name $fn and the thread's $th"
		else
			not_ok "$tl: protoc: the slices' name and the thread's" "no $fn or $th"
		fi
		if [ $tl = gen ]; then
			# swd-gen's span "request" (SW_CALL_F_SPAN): a slice
			# of that name, category span (iid 2), per sample
			got="$(grep -c 'category_iids: 2$' "$tmp/$tl.txt") $(grep -c '"cat":"span"' "$tmp/$tl.chrome.json") $(grep -c '^{"name":"request","cat":"span"' "$tmp/$tl.chrome.json")"
			if [ "$got" = "$samples $samples $samples" ] && grep -q 'name: "request"' "$tmp/$tl.txt"; then
				ok "$tl: spans: slices named by the span, category span ($got)"
			else
				not_ok "$tl: spans: slices named by the span" "got $got, want $samples each"
			fi
		fi
		if [ "$samples" -gt 0 ]; then
			# each function name a sample's stack has in script --json
			# is interned for the Perfetto stacks
			sed -n 's/^{"type":"sample".*"stack":\[//p' "$tmp/$tl.json" |
				grep -o '"sym":"[^"]*"' | sed 's/"sym":"//; s/"$//' | sort -u > "$tmp/$tl.syms"
			sed -n 's/^ *str: "\(.*\)"$/\1/p' "$tmp/$tl.txt" | sort -u > "$tmp/$tl.strs"
			missing=$(comm -23 "$tmp/$tl.syms" "$tmp/$tl.strs" | head -n 3)
			if [ -s "$tmp/$tl.syms" ] && [ -z "$missing" ]; then
				ok "$tl: protoc: the samples' $(wc -l < "$tmp/$tl.syms") functions interned"
			else
				not_ok "$tl: protoc: the samples' functions interned" "missing: $missing"
			fi
		fi
	fi
	if ! command -v python3 >/dev/null 2>&1; then
		skipped "$tl: timeline-check.py" "no python3"
	else
		python3 ./timeline-check.py perfetto "$tmp/$tl.pftrace" > "$tmp/$tl.pf" 2>&1
		got=$(sed -n 's/^\(begin\|end\|open\|samples\)=//p' "$tmp/$tl.pf" | tr '\n' ' ')
		if [ "$got" = "$calls $calls 0 $samples " ]; then
			ok "$tl: timeline-check.py perfetto: begins, ends, none open, samples"
		else
			not_ok "$tl: timeline-check.py perfetto" "$(cat "$tmp/$tl.pf")"
		fi
		python3 ./timeline-check.py chrome "$tmp/$tl.chrome.json" > "$tmp/$tl.ct" 2>&1
		got=$(sed -n 's/^\(ph_X\|ph_i\)=//p' "$tmp/$tl.ct" | tr '\n' ' ')
		want="$calls "
		[ "$samples" -gt 0 ] && want="$calls $samples "
		if [ "$got" = "$want" ]; then
			ok "$tl: timeline-check.py chrome: X per call, i per sample"
		else
			not_ok "$tl: timeline-check.py chrome" "$(cat "$tmp/$tl.ct")"
		fi
	fi
	# up to 3 tries: on a loaded machine the page may come before the
	# profile is drawn
	for _ in 1 2 3; do
		./timeline-view.sh "$SPEEDSCOPE" "$tmp/$tl.chrome.json" > "$tmp/$tl.dom" 2> "$tmp/err"
		vrc=$?
		[ $vrc != 0 ] || ! grep -q "$fn" "$tmp/$tl.dom" || break
	done
	if [ $vrc = 2 ]; then
		skipped "$tl: speedscope shows it" "$(cat "$tmp/err") (scripts/deps.sh test)"
	elif grep -q "$fn" "$tmp/$tl.dom" &&
	     grep -q "$th (tid [0-9]*)" "$tmp/$tl.dom"; then
		ok "$tl: speedscope in headless Chromium shows $fn, thread $th"
	else
		not_ok "$tl: speedscope shows it" "exit $vrc; page: $(head -c 300 "$tmp/$tl.dom")"
	fi
done
F=fixtures/trace/getppid-x86_64.swd
run "$SW" script -i "$F" --perfetto "$tmp/no/such/dir/x.pftrace"
expect "script --perfetto to an unwritable file: an error naming it" 1 "" \
	"stopwatch script: cannot write $tmp/no/such/dir/x.pftrace: No such file or directory"
cp "$F" "$tmp/same.swd"
run "$SW" script -i "$tmp/same.swd" --chrome "$tmp/same.swd"
if [ "$rc" = 1 ] && cmp -s "$F" "$tmp/same.swd" &&
   grep -qx "stopwatch script: $tmp/same.swd is the recording: not written" "$tmp/err"; then
	ok "script --chrome onto the recording itself: refused, the recording intact"
else
	not_ok "script --chrome onto the recording itself: refused" "rc $rc"
fi
if [ -w /dev/full ]; then
	run "$SW" script -i "$F" --perfetto /dev/full
	expect "script --perfetto to a full device: the write error said" 1 "" \
		"stopwatch script: writing /dev/full (perfetto): Input/output error"
fi
run "$SW" script -i "$F" --perfetto "$tmp/a" --json
expect "script --perfetto with --json: refused" 1 "" \
	"stopwatch script: --json goes with neither --perfetto nor --chrome"
run "$SW" script -i "$F" --chrome "$tmp/a" --min 1ms
expect "script --chrome with --min: refused, the option named" 1 "" \
	"stopwatch script: --min shapes the printed stream; --perfetto and --chrome export the whole recording"
# A recording cut short: what was read is exported, the loss said.
head -c 9000 "$F" > "$tmp/cut.swd"
"$SW" script -i "$tmp/cut.swd" --json 2>/dev/null | grep -c '^{"type":"call",' > "$tmp/cutn"
run "$SW" script -i "$tmp/cut.swd" --chrome "$tmp/cut.json"
if [ "$rc" = 0 ] && grep -q "cut.swd: the final counters are missing (recording cut short): exported what was read" "$tmp/err" &&
   [ "$(grep -c '"ph":"X"' "$tmp/cut.json")" = "$(cat "$tmp/cutn")" ] &&
   [ "$(cat "$tmp/cutn")" -gt 0 ] && [ "$(cat "$tmp/cutn")" -lt 300 ]; then
	ok "a recording cut short: its $(cat "$tmp/cutn") calls exported, the loss said"
else
	not_ok "a recording cut short: exported, the loss said" "rc $rc, $(cat "$tmp/cutn") calls"
fi

# --- script --graph: more calls than its first array holds -----------------
# The calls kept for --graph grow their array (1024 at first); each must
# still print its own event values: the same calls, values and all, as
# the flat stream (the nesting depth aside).
if [ -s "$tmp/gen.swd" ]; then
	run "$SW" script -i "$tmp/gen.swd" --all-pids --graph --json
	sed 's/,"depth":[0-9]*//' "$tmp/out" | grep '^{"type":"call",' | sort > "$tmp/graph.calls"
	"$SW" script -i "$tmp/gen.swd" --all-pids --json 2>/dev/null |
		grep '^{"type":"call",' | sort > "$tmp/flat.calls"
	if [ "$rc" = 0 ] && [ "$(wc -l < "$tmp/graph.calls")" -gt 1024 ] &&
	   cmp -s "$tmp/graph.calls" "$tmp/flat.calls"; then
		ok "script --graph of $(wc -l < "$tmp/flat.calls") calls: each with its own values, as the flat stream"
	else
		not_ok "script --graph of many calls: each with its own values" \
			"rc $rc; $(wc -l < "$tmp/graph.calls") vs $(wc -l < "$tmp/flat.calls") calls" \
			"$(diff "$tmp/graph.calls" "$tmp/flat.calls" | head -4)"
	fi
else
	skipped "script --graph of many calls" "no $tmp/gen.swd (swd-gen not built)"
fi

# --- script --by: the calls summed per probe or span and key ---------------
# fixtures/trace/span-tid-x86_64.swd (the module's, tests/vm/suites/span.sh):
# a traced span bt keyed by tid, three processes making 1, 2 and 3
# intervals; fixtures/trace/getppid-x86_64.swd: 300 calls of one thread.
F=fixtures/trace/span-tid-x86_64.swd
run "$SW" script -i "$F" --all-pids --by key --json
got=$(sed -n 's/^{"type":"by","name":"bt","span":true,"key":[0-9]*,"calls":\([0-9]*\),.*/\1/p' "$tmp/out" | sort -n | tr '\n' ' ')
if [ "$rc" = 0 ] && [ "$got" = "1 2 3 " ] && [ "$(wc -l < "$tmp/out")" = 3 ]; then
	ok "script --by key --json: a row per key, 1, 2 and 3 intervals"
else
	not_ok "script --by key --json" "rc $rc, calls '$got'"
fi
run "$SW" script -i "$F" --all-pids --by key,tid
if [ "$rc" = 0 ] && head -n 1 "$tmp/out" | grep -q '^NAME  *KEY  *TID  *CALLS  *TOTAL  *MIN  *AVG  *MAX  *P50  *P90  *P99$' &&
   [ "$(awk 'NR > 1 && $1 == "bt" && $2 == sprintf("0x%x", $3) { n += $4 } END { print n }' "$tmp/out")" = 6 ]; then
	ok "script --by key,tid: the table, the key in hex the tid, 6 intervals"
else
	not_ok "script --by key,tid: the table" "rc $rc: $(head -c 300 "$tmp/out")"
fi
run "$SW" script -i "$F" --all-pids --by key --rows 1
if [ "$rc" = 0 ] && [ "$(wc -l < "$tmp/out")" = 3 ] &&
   grep -q '^bt  *other (2 keys)  ' "$tmp/out"; then
	ok "script --by key --rows 1: the busiest key, then other (2 keys)"
else
	not_ok "script --by key --rows 1" "rc $rc: $(cat "$tmp/out")"
fi
run "$SW" script -i "$F" --all-pids --by comm --min 1s --json
if [ "$rc" = 0 ] && [ ! -s "$tmp/out" ]; then
	ok "script --by with --min 1s: no rows"
else
	not_ok "script --by with --min 1s: no rows" "rc $rc: $(cat "$tmp/out")"
fi
run "$SW" script -i fixtures/trace/getppid-x86_64.swd --by tid,cpu --json
if [ "$rc" = 0 ] && [ "$(wc -l < "$tmp/out")" = 1 ] &&
   grep -q ' 300 calls read, 300 summed$' "$tmp/err" &&
   grep -q '^{"type":"by","name":"__x64_sys_getppid","span":false,"tid":[0-9]*,"cpu":[0-9]*,"calls":300,' "$tmp/out"; then
	ok "script --by tid,cpu of 300 getppid calls: one row of 300, 300 summed"
else
	not_ok "script --by tid,cpu: one row of 300" "rc $rc: $(cat "$tmp/out")"
fi
fails "script --by an unknown key: refused, the key named" \
	"stopwatch script: invalid --by 'queue': unknown key 'queue' (key, key2, tid, pid, comm, cpu)" \
	"$SW" script -i "$F" --by queue
run "$SW" script -i "$F" --all-pids --by key2
if [ "$rc" = 1 ] && [ ! -s "$tmp/out" ] &&
   grep -qx "stopwatch script: span bt: --by key2: its records carry 1 key value" "$tmp/err"; then
	ok "script --by key2 of a span's one key: refused, the span named"
else
	not_ok "script --by key2 of a span's one key: refused" "rc $rc: $(cat "$tmp/err")"
fi
fails "script --by with --graph: refused" \
	"stopwatch script: --by sums the calls; it goes with neither --graph" \
	"$SW" script -i "$F" --by key --graph
fails "script --by with --perfetto: refused" \
	"stopwatch script: --by sums the calls; it goes with neither --perfetto" \
	"$SW" script -i "$F" --by key --perfetto "$tmp/by.pftrace"

# The event columns: each row's <event>_avg is the mean (halves up) of its
# calls' deltas as script --json prints them (swd-gen: two deltas a call).
if [ -s "$tmp/gen.swd" ]; then
	"$SW" script -i "$tmp/gen.swd" --all-pids --json 2>/dev/null |
		awk '/^{"type":"call".*"ev_bad":0}$/ {
			split($0, a, /"name":"/); split(a[2], b, /"/); n = b[1]
			split($0, a, /"tid":/); split(a[2], b, /,/); t = b[1]
			split($0, a, /"ev":\[/); split(a[2], b, /\]/); split(b[1], e, /,/)
			k = n " " t; c[k]++; s0[k] += e[1]; s1[k] += e[2]
		}
		END { for (k in c) printf "%s %d %d %d\n", k, c[k],
			int((2 * s0[k] + c[k]) / (2 * c[k])), int((2 * s1[k] + c[k]) / (2 * c[k])) }' |
		sort > "$tmp/ev.want"
	"$SW" script -i "$tmp/gen.swd" --all-pids --by tid --rows 0 --json 2>/dev/null |
		sed -n 's/^{"type":"by","name":"\([^"]*\)",.*"tid":\([0-9]*\),"calls":\([0-9]*\),.*"ev0_avg":\([0-9]*\),"ev1_avg":\([0-9]*\)}$/\1 \2 \3 \4 \5/p' |
		sort > "$tmp/ev.got"
	if [ -s "$tmp/ev.got" ] && cmp -s "$tmp/ev.want" "$tmp/ev.got"; then
		ok "script --by tid: calls and ev0_avg, ev1_avg per row are the means of the records ($(wc -l < "$tmp/ev.got") rows)"
	else
		not_ok "script --by tid: the event means" "want $(tr '\n' ';' < "$tmp/ev.want") got $(tr '\n' ';' < "$tmp/ev.got")"
	fi
else
	skipped "script --by: the event means" "no swd-gen recording"
fi

# --- the documentation agrees with the option tables --------------------------

# The option names a command's --help lists (-h/--help left out: every
# command has them).
help_opts() {
	"$SW" "$1" --help 2>&1 | grep -E '^  +-' |
		grep -oE '(^|[ ,])--?[A-Za-z0-9][A-Za-z0-9-]*' | tr -d ' ,' |
		grep -vxE -- '-h|--help' | sort -u
}
# The option names in the tags of a man page's OPTIONS section.
man_opts() {
	awk '/^\.SH/ { sec = $2 } sec == "OPTIONS" && prev == ".TP" { print } { prev = $0 }' "$1" |
		sed 's/\\-/-/g; s/\\f[RBIP]//g' |
		grep -oE '(^|[ ",])--?[A-Za-z0-9][A-Za-z0-9-]*' | tr -d ' ,"' |
		grep -vxE -- '-h|--help' | sort -u
}
# Options a man page documents that --help does not list, on purpose:
# stat's -p is refused, with where to go instead (perf's letter).
man_only="stat:-p"
for c in stat record report events time probe span serve trace script; do
	page=../man/stopwatch-$c.1
	help_opts "$c" > "$tmp/help-$c"
	man_opts "$page" | while read -r o; do
		case " $man_only " in *" $c:$o "*) ;; *) printf '%s\n' "$o" ;; esac
	done > "$tmp/man-$c"
	if [ ! -s "$tmp/help-$c" ]; then
		not_ok "$c: --help lists options" "none found"
	elif d=$(diff "$tmp/help-$c" "$tmp/man-$c"); then
		ok "$c: the man page's options are those of --help"
	else
		not_ok "$c: the man page's options are those of --help" \
			"< only in --help, > only in stopwatch-$c.1:" "$d"
	fi
done
# What the README shows a command taking must be among its options: the
# options after "stopwatch CMD" on a line (or "`CMD" in "The stopwatch
# program"), and those in backquotes in that chapter's paragraphs about CMD.
awk '
	/^## / { prog = ($0 == "## The stopwatch program") ; cmd = "" }
	/^### / { cmd = "" }
	/^### stopwatch time/ { cmd = "time" }
	/^### Spans/ { cmd = "span" }
	prog && /^\*\*(record|report|events|stat|probe)\*\*/ {
		cmd = $0; sub(/^\*\*/, "", cmd); sub(/\*\*.*/, "", cmd)
	}
	{
		line = $0
		while (match(line, /(stopwatch |`)(stat|record|report|events|time|probe|span|serve)( [^`#;|>)]*)?/)) {
			n = split(substr(line, RSTART, RLENGTH), w, "[ /]")
			c = w[1] == "stopwatch" ? w[2] : substr(w[1], 2)
			# Outside that chapter "`stat" is stat(1).
			for (i = 2; i <= n && w[i] != "--" && (prog || w[1] == "stopwatch"); i++)
				if (w[i] ~ /^--?[A-Za-z]/) { o = w[i]; sub(/=.*/, "", o); print c, o }
			line = substr(line, RSTART + RLENGTH)
		}
		if (prog && cmd != "" && !/^ *stopwatch /) {
			line = $0
			while (match(line, /`--?[a-z][A-Za-z0-9-]*/)) {
				print cmd, substr(line, RSTART + 1, RLENGTH - 1)
				line = substr(line, RSTART + RLENGTH)
			}
		}
	}' ../../README.md | sort -u > "$tmp/readme-opts"
bad=
while read -r c o; do
	case " $man_only " in *" $c:$o "*) continue ;; esac
	grep -qxF -- "$o" "$tmp/help-$c" || bad="$bad $c:$o"
done < "$tmp/readme-opts"
[ "$(wc -l < "$tmp/readme-opts")" -gt 30 ] && [ -z "$bad" ] &&
	ok "README: every option it shows a command taking is in its --help" ||
	not_ok "README: every option it shows a command taking is in its --help" \
		"$(wc -l < "$tmp/readme-opts") found; not in --help:$bad"

# Every man page renders without groff warnings and without macro text
# or font escapes left in the words (a stray "R;" after an argument).
if command -v groff > /dev/null && command -v col > /dev/null; then
	for page in ../man/*.1; do
		groff -man -Tutf8 -ww "$page" 2> "$tmp/groff-err" | col -b > "$tmp/page"
		left=$(grep -nE '[a-z0-9](R|I|B|P|fR|fI|fB|fP)[;,:.)]( |$)|\\f|^\.[A-Z]' "$tmp/page")
		[ ! -s "$tmp/groff-err" ] && [ -z "$left" ] &&
			ok "$(basename "$page") renders cleanly" ||
			not_ok "$(basename "$page") renders cleanly" "$(cat "$tmp/groff-err")" "$left"
	done
else
	skipped "man pages render cleanly" "no groff or col here"
fi

# --- shell completion, driven in a real bash ---------------------------------
COMPL=$(realpath ../completion/stopwatch.bash)
# comp LINE: what _stopwatch offers for LINE typed up to its end (the
# program found on PATH, events from the fixture sysfs, functions from a
# fixture available_filter_functions), sorted, on one line.
comp() {
	PATH="$(dirname "$SW"):$PATH" STOPWATCH_SYSFS=$S bash --norc --noprofile -c '
		source "$1" || exit 1
		_STOPWATCH_FUNCS=$3
		line=$2
		COMP_LINE=$line
		COMP_POINT=${#line}
		read -ra COMP_WORDS <<<"$line"
		[[ $line == *" " ]] && COMP_WORDS+=("")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_stopwatch
		printf "%s\n" "${COMPREPLY[@]}"' _ "$COMPL" "$1" \
		fixtures/available_filter_functions 2>&1 | sort -u | tr '\n' ' '
}
# comp_is NAME LINE WANT
comp_is() {
	local got
	got=$(comp "$2")
	[ "$got" = "$3" ] && ok "$1" || {
		: > "$tmp/out"; : > "$tmp/err"
		not_ok "$1" "completing '$2'" "got:  $got" "want: $3"
	}
}
run bash --norc --noprofile -c "source '$COMPL' && complete -p stopwatch"
expect "completion: bash registers _stopwatch for stopwatch" 0 "complete -F _stopwatch stopwatch" ""
comp_is "completion: commands" "stopwatch " \
	"events help probe record report script serve span stat time trace version "
comp_is "completion: a command's prefix" "stopwatch ti" "time "
comp_is "completion: options from the command's --help" "stopwatch record --call" "--call-graph "
comp_is "completion: --call-graph modes" "stopwatch record --call-graph " \
	"fp kernel kernel,user none user "
comp_is "completion: probe verbs" "stopwatch probe " "add list remove "
comp_is "completion: probe add's own options" "stopwatch probe add --ta" "--tag "
comp_is "completion: kernel functions for time" "stopwatch time -d 1 vfs_re" "vfs_read vfs_readv "
comp_is "completion: MODULE:FUNCTION (bash gives back what follows ':')" \
	"stopwatch time ext4:ext4_file_" "ext4_file_read_iter ext4_file_write_iter "
comp_is "completion: span points are kernel functions" "stopwatch span --start ksys" "ksys_read "
comp_is "completion: -e takes event names" "stopwatch time -e PAPI_TOT_" "PAPI_TOT_CYC PAPI_TOT_INS "
comp_is "completion: the item after the last comma of a list" \
	"stopwatch events set cycles,L1-dcache-load-m" "cycles,L1-dcache-load-misses "
comp_is "completion: PMU events from sysfs" "stopwatch record -e armv8_pmuv3/inst" \
	"armv8_pmuv3/inst_retired/ "
comp_is "completion: an option's argument is skipped to find the verb" \
	"stopwatch events --sysfs $S set cyc" "cycles "
comp_is "completion: events list takes PMUs" "stopwatch events list a" "amd_df armv8_pmuv3 "
comp_is "completion: help takes commands" "stopwatch help st" "stat "

# --- libraries loaded when a command needs them (base/dlib.h) ---------------
# A dynamic build needs neither libpfm4 nor libmicrohttpd to start; with
# each made unloadable (an empty file bound over it in a mount namespace of
# its own), the commands that need them name the library and its package.
needed=$(LD_TRACE_LOADED_OBJECTS=1 "$SW" 2>/dev/null)
if [ -z "$needed" ]; then
	skipped "startup: libraries loaded at start" "a static build"
else
	grep -Eq 'libpfm|libmicrohttpd|libgnutls' <<<"$needed" &&
		not_ok "startup: neither libpfm4 nor libmicrohttpd loaded at start" "$needed" ||
		ok "startup: neither libpfm4 nor libmicrohttpd loaded at start"
fi
pfmso=$(ldconfig -p 2>/dev/null | sed -n 's/^[[:space:]]*libpfm\.so\.4 (.*) => //p' | head -n 1)
mhdso=$(ldconfig -p 2>/dev/null | sed -n 's/^[[:space:]]*libmicrohttpd\.so\.12 (.*) => //p' | head -n 1)
if [ -z "$needed" ]; then
	skipped "startup: a missing library named" "a static build"
elif [ -z "$pfmso" ] || [ -z "$mhdso" ] || ! unshare -m true 2>/dev/null; then
	skipped "startup: a missing library named" "needs root, unshare and both libraries installed"
else
	S=$S unshare -m sh -c 'mount --bind /dev/null "$(readlink -f "$1")" &&
		mount --bind /dev/null "$(readlink -f "$2")" && shift 2 &&
		"$@" events resolve --sysfs "$S" NO_SUCH_VENDOR_EVENT
		echo "rc=$?"
		"$@" serve --listen 127.0.0.1:0 --debugfs /nonexistent
		echo "rc=$?"
		"$@" events list --sysfs "$S" 2>&1 | grep "^Vendor events:"
		"$@" events resolve --sysfs "$S" cycles' sh "$pfmso" "$mhdso" "$SW" \
		> "$tmp/out" 2> "$tmp/err"
	if grep -q "^stopwatch events: NO_SUCH_VENDOR_EVENT: unknown event.*; no vendor event names: libpfm.so.4 cannot be loaded (Debian package libpfm4): " "$tmp/err" &&
	   grep -q "^stopwatch serve: libmicrohttpd.so.12 cannot be loaded (Debian package libmicrohttpd12): " "$tmp/err" &&
	   grep -q "^Vendor events: none, libpfm.so.4 cannot be loaded (Debian package libpfm4): " "$tmp/out" &&
	   [ "$(grep -c '^rc=1$' "$tmp/out")" = 2 ] && grep -qx 'cycles' "$tmp/out"; then
		ok "startup: without libpfm4 and libmicrohttpd, the rest works and each is named"
	else
		not_ok "startup: without libpfm4 and libmicrohttpd, the rest works and each is named"
	fi
fi

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
