# SPDX-License-Identifier: GPL-2.0
# tests/vm/suites/program.sh - the stopwatch program's four commands on
# the guest's architecture (x86_64: the host build; arm64: the static
# build in build/userspace-arm64): stat as a table, JSON and Prometheus
# text with per-call CPI (arm64's emulated PMUv3 counts cycles and
# instructions; x86_64 TCG has no PMU, so no CPI there), events show and
# set, record of a known workload and its report.  arm64 needs --icount:
# QEMU's PMUv3 counts instructions only then.
#
# Runs in the guest with the repository top as the working directory; uses
# SW_ARCH, SW_REPO, SW_RESULTS and the TAP helpers of tap.sh.
# tests/vm/suites/program.prepare builds what it needs.

. "$SW_REPO/tests/vm/tap.sh"
. "$SW_REPO/tests/vm/lib.sh"

R=${SW_RESULTS:-/tmp}/program
mkdir -p "$R"

[ -x "$SW" ] || skip_all "$SW not built (see program.prepare)"
[ -r "$MOD" ] || skip_all "module $MOD not built"
[ -x "$P/modload" ] || skip_all "$P/modload not built (make progs)"

if [ "$SW_ARCH" = arm64 ]; then
	EVENTS=cycles,instructions
	CPI=1
else
	EVENTS=cpu-clock,context-switches
	CPI=0
fi

# jnum FILE PROBE KEY: the number KEY of PROBE's object in stat --json.
jnum() {
	tr '{' '\n' <"$1" | grep "\"probe\":\"$2\"" | head -n 1 |
		tr ',' '\n' | sed -n "s/^\"$3\":\([0-9.]*\)\$/\1/p"
}

# pnum FILE METRIC PROBE: the value of METRIC{probe="PROBE"} in Prometheus text.
pnum() {
	awk -v m="$2{${4:-probe}=\"$3\"}" '$1 == m { print $2; f = 1 }
		END { if (!f) print "absent" }' "$1"
}

unload
is "module loads with events=$EVENTS" \
	"$(load "probes=vfs_read,vfs_write events=$EVENTS")" ok ||
	skip_all "stopwatch.ko did not load (arm64 counts instructions only with --icount)"
dd if=/dev/zero of=/dev/null bs=1 count=2000 2>/dev/null

# --- stat on the live files --------------------------------------------------
"$SW" stat >"$TMP/live.txt" 2>"$TMP/err"
is "stat exits 0 with events $EVENTS" "$?" 0 || cat "$TMP/err"
check "stat: a vfs_read row" grep -q "^vfs_read " "$TMP/live.txt"
"$SW" stat --json >"$TMP/live.json" 2>"$TMP/err"
is "stat --json exits 0" "$?" 0 || cat "$TMP/err"
"$SW" stat --prometheus >"$TMP/live.prom" 2>"$TMP/err"
is "stat --prometheus exits 0" "$?" 0 || cat "$TMP/err"
cp "$TMP/live.txt" "$TMP/live.json" "$TMP/live.prom" "$R/"

# --- the same on a copy, so the values can be compared exactly -----------------
mkdir -p "$TMP/snap/hist"
for f in stats breakdown breakdown_stats; do cat "$D/$f" >"$TMP/snap/$f"; done
for f in "$D"/hist/*; do cat "$f" >"$TMP/snap/hist/${f##*/}"; done
"$SW" stat --debugfs "$TMP/snap" --no-hist --raw >"$TMP/snap.txt" 2>&1
"$SW" stat --debugfs "$TMP/snap" --json >"$TMP/snap.json" 2>&1
"$SW" stat --debugfs "$TMP/snap" --prometheus >"$TMP/snap.prom" 2>&1
cp "$TMP/snap/stats" "$R/snap-stats"
cp "$TMP/snap.txt" "$TMP/snap.json" "$TMP/snap.prom" "$R/"
is "calls: JSON = stats file" "$(jnum "$TMP/snap.json" vfs_read calls)" \
	"$(col vfs_read calls "$TMP/snap/stats")"
if [ "$CPI" = 1 ]; then
	for c in cpi_min cpi_avg cpi_max; do
		v=$(col vfs_read $c "$TMP/snap/stats")
		check "$c is a decimal with three places ($v)" \
			sh -c "echo '$v' | grep -Eq '^[0-9]+\.[0-9]{3}\$'"
		is "$c: table = stats file" "$(col vfs_read $c "$TMP/snap.txt")" "$v"
		is "$c: JSON = stats file" "$(jnum "$TMP/snap.json" vfs_read $c)" "$v"
		is "$c: Prometheus = stats file" \
			"$(pnum "$TMP/snap.prom" stopwatch_$c vfs_read)" "$v"
	done
	is "cpi_avg of vfs_write in JSON" \
		"$(jnum "$TMP/snap.json" vfs_write cpi_avg)" \
		"$(col vfs_write cpi_avg "$TMP/snap/stats")"
	check "Prometheus: cpi_avg is a gauge" \
		grep -q "^# TYPE stopwatch_cpi_avg gauge" "$TMP/snap.prom"
	cmp_gt "vfs_read cpi_avg above 0" \
		"$(col vfs_read cpi_avg "$TMP/snap/stats")" 0
else
	skip "no hardware PMU on $SW_ARCH TCG: no cpi columns"
fi

# --- events -------------------------------------------------------------------
"$SW" events >"$TMP/ev.txt" 2>"$TMP/err"
is "events exits 0" "$?" 0 || cat "$TMP/err"
for e in $(echo "$EVENTS" | tr ',' ' '); do
	check "events shows $e" grep -q "$e" "$TMP/ev.txt"
done
"$SW" events set cpu-clock >"$TMP/out" 2>"$TMP/err"
is "events set cpu-clock exits 0" "$?" 0 || cat "$TMP/err"
is "the module counts cpu-clock only" "$(awk '{ print $1 }' "$D/events" | tr '\n' ' ')" "cpu-clock "

# --- record and report ------------------------------------------------------------
if [ -x "$P/swprof" ]; then
	"$SW" record -e cpu-clock -F 1000 -g -o "$TMP/p.swd" -- "$P/swprof" 2000 \
		>/dev/null 2>"$TMP/rec.err"
	is "record -- swprof exits 0" "$?" 0 || cat "$TMP/rec.err"
	check "record prints its summary" grep -q "stopwatch record: wrote [0-9]* samples" "$TMP/rec.err"
	"$SW" report -i "$TMP/p.swd" --sort symbol -q >"$TMP/rep.txt" 2>"$TMP/err"
	is "report exits 0" "$?" 0 || cat "$TMP/err"
	head -5 "$TMP/rep.txt"
	is "report: top symbol" \
		"$(awk '$1 !~ /^#/ && NF >= 4 { print $4; exit }' "$TMP/rep.txt")" swprof_hot
	"$SW" report -i "$TMP/p.swd" --folded >"$TMP/f.txt" 2>/dev/null
	check "report --folded: main;swprof_run;swprof_hot" \
		grep -Eq "main;swprof_run;swprof_hot [0-9]+$" "$TMP/f.txt"
else
	skip "$P/swprof not built"
fi

# --- serve: a scrape against a known number of calls, a profile over HTTP ------
# A probe from serve's --config on the getppid system call, filtered to one
# command name, and a span from its entry to its return (sgp), driven N
# times: /metrics must say N calls and a histogram _count of N, and the
# span N intervals in log-linear buckets (span_lhists).  In a long run (sw_long=1) promtool checks the live page and
# go tool pprof reads a CPU profile over HTTP (the host's go, when it has
# one) with swprof's hot function on top.
GETPPID=$(awk '$2 ~ /^[tT]$/ && $3 ~ /^__(x64|arm64)_sys_getppid$/ { print $3; exit }' /proc/kallsyms)
PROMTOOL=$SW_REPO/.cache/tools/promtool
if ! "$SW" serve --help >/dev/null 2>&1; then
	skip "serve: $SW is built without it (static builds: SERVE=0)"
elif ! command -v curl >/dev/null; then
	skip "serve: no curl in the guest"
elif [ -z "$GETPPID" ]; then
	skip "serve: no getppid system call symbol in /proc/kallsyms"
else
	ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up 2>/dev/null
	N=5000
	printf '# program suite\nprobes %s comm=swserve\nspans +sgp start=%s:tid stop=%s%%return:tid comm=swserve\n' \
		"$GETPPID" "$GETPPID" "$GETPPID" >"$TMP/serve.conf"
	t0=$(date +%s)
	"$SW" serve --listen 127.0.0.1:0 --config "$TMP/serve.conf" \
		--state-dir "$TMP" 2>"$TMP/serve.err" &
	spid=$!
	port=
	for i in $(seq 100); do
		port=$(sed -n 's/^stopwatch serve: listening on .*:\([0-9]*\)$/\1/p' "$TMP/serve.err")
		[ -n "$port" ] && break
		sleep 0.1
	done
	is "serve: starts with a probe on $GETPPID from its config" "${port:+up}" up ||
		cat "$TMP/serve.err"
	"$P/getppid_loop" "$N" swserve >/dev/null
	curl -s -o "$TMP/serve.prom" -w '%{http_code}' "http://127.0.0.1:$port/metrics" >"$TMP/code"
	is "serve: /metrics answers 200" "$(cat "$TMP/code")" 200
	cp "$TMP/serve.prom" "$R/serve.prom"
	is "serve: calls of $GETPPID" "$(pnum "$TMP/serve.prom" stopwatch_calls_total "$GETPPID")" "$N"
	is "serve: the duration histogram's _count" \
		"$(pnum "$TMP/serve.prom" stopwatch_duration_seconds_count "$GETPPID")" "$N"
	# The span's intervals: the same calls, in the log-linear buckets of
	# span_lhists (a 2^hist_bits-th of a power of two wide: more than one
	# le per power of two), their count the +Inf bucket's.
	is "serve: the span's intervals (span_duration_seconds_count)" \
		"$(pnum "$TMP/serve.prom" stopwatch_span_duration_seconds_count sgp span)" "$N"
	is "serve: the span's +Inf bucket" \
		"$(awk '$1 == "stopwatch_span_duration_seconds_bucket{span=\"sgp\",le=\"+Inf\"}" { print $2 }' "$TMP/serve.prom")" "$N"
	check "serve: the span's buckets are log-linear (two le less than 1.5x apart)" \
		awk '/^# HELP stopwatch_span_duration_seconds / { help = ($0 ~ /log-linear/) }
			/^stopwatch_span_duration_seconds_bucket\{span="sgp",le="[0-9]/ {
				le = $1; sub(/.*le="/, "", le); sub(/".*/, "", le)
				if (prev > 0 && le + 0 < 1.5 * prev) fine = 1
				prev = le + 0
			}
			END { exit !(help && fine) }' "$TMP/serve.prom"
	diag "serve: started, driven and scraped in $(( $(date +%s) - t0 )) s"
	# promtool and go start slowly under TCG (a profile also records and
	# symbolizes the whole machine): a long run only.
	if ! long_run; then
		skip "serve: promtool and go tool pprof over HTTP: a long run only (sw_long=1)"
	else
		t1=$(date +%s)
		if [ -x "$PROMTOOL" ]; then
			check "serve: promtool check metrics accepts the live /metrics" \
				sh -c "'$PROMTOOL' check metrics < '$TMP/serve.prom'"
		else
			skip "serve: no $PROMTOOL (scripts/deps.sh test fetches it)"
		fi
		# Prometheus' own server scrapes serve every second; a second
		# run of the workload after its first scrapes is what rate()
		# sees (the first run came before any sample).  The answer of
		# histogram_quantile(0.99, rate(...)) must lie in the fine bucket
		# that holds the 99th percentile of that second run, read from
		# /metrics before and after it: that bucket is also where
		# stopwatch's p99 of those calls lies, so the two differ by at
		# most its width, 2^-hist_bits of its lower bound.
		PROM=$SW_REPO/.cache/tools/prometheus
		if [ "$(uname -m)" != x86_64 ]; then
			skip "prometheus: the extracted server is Debian's amd64 binary; the arm64 guests are busybox"
		elif [ -x "$PROM" ]; then
			t2=$(date +%s)
			printf 'global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: sw\n    static_configs:\n      - targets: ["127.0.0.1:%s"]\n' \
				"$port" >"$TMP/prom.yml"
			"$PROM" --config.file="$TMP/prom.yml" --storage.tsdb.path="$TMP/promdb" \
				--web.listen-address=127.0.0.1:9099 >"$TMP/prom.log" 2>&1 &
			ppid_=$!
			up=
			for i in $(seq 120); do
				curl -s "http://127.0.0.1:9099/-/ready" 2>/dev/null | grep -q Ready && { up=1; break; }
				sleep 0.5
			done
			is "prometheus: the server starts" "${up:+up}" up || tail -5 "$TMP/prom.log"
			# Ready is not scraping: wait for two samples of the count.
			for i in $(seq 60); do
				curl -s "http://127.0.0.1:9099/api/v1/query" --data-urlencode \
					"query=count_over_time(stopwatch_duration_seconds_count{probe=\"$GETPPID\"}[1m])" \
					>"$TMP/c.json"
				c=$(sed -n 's/.*"value":\[[0-9.]*,"\([^"]*\)"\].*/\1/p' "$TMP/c.json")
				[ "${c:-0}" -ge 2 ] 2>/dev/null && break
				sleep 0.5
			done
			curl -s -o "$TMP/before.prom" "http://127.0.0.1:$port/metrics"
			# A fifth of the first run: less likely to reach a power of
			# two the first did not (a new le series has no rate yet).
			"$P/getppid_loop" $(( N / 5 )) swserve >/dev/null
			curl -s -o "$TMP/after.prom" "http://127.0.0.1:$port/metrics"
			# Until Prometheus has scraped after the second run: its
			# count's increase is then the run's N calls.
			q=
			for i in $(seq 40); do
				sleep 0.5
				curl -s "http://127.0.0.1:9099/api/v1/query" --data-urlencode \
					"query=increase(stopwatch_duration_seconds_count{probe=\"$GETPPID\"}[1m])" \
					>"$TMP/n.json"
				n=$(sed -n 's/.*"value":\[[0-9.]*,"\([^"]*\)"\].*/\1/p' "$TMP/n.json")
				awk -v n="$n" 'BEGIN { exit !(n ~ /^[0-9.e+]+$/ && n + 0 > 0) }' || continue
				curl -s "http://127.0.0.1:9099/api/v1/query" --data-urlencode \
					"query=histogram_quantile(0.99, rate(stopwatch_duration_seconds_bucket{probe=\"$GETPPID\"}[1m]))" \
					>"$TMP/q.json"
				q=$(sed -n 's/.*"value":\[[0-9.]*,"\([^"]*\)"\].*/\1/p' "$TMP/q.json")
				break
			done
			cp "$TMP/q.json" "$TMP/n.json" "$TMP/before.prom" "$TMP/after.prom" "$R/" 2>/dev/null
			# The bucket holding rank 0.99 n of the second run: "lo le".
			want=$(awk -v m="stopwatch_duration_seconds_bucket{probe=\"$GETPPID\"," '
				index($1, m) == 1 {
					le = $1; sub(/.*le="/, "", le); sub(/".*/, "", le)
					if (FILENAME == ARGV[1]) { b[le] = $2; next }
					if (!(le in b)) { grew = 1; next }
					k[++n] = le; d[n] = $2 - b[le]
				}
				END {
					if (grew || !n) { print "grew"; exit }
					r = 0.99 * d[n]; lo = 0
					for (i = 1; i < n; i++) {
						if (d[i] >= r) { print lo, k[i]; exit }
						lo = k[i]
					}
					print lo, lo
				}' "$TMP/before.prom" "$TMP/after.prom")
			p99=$(awk -v m="stopwatch_duration_quantile_seconds{probe=\"$GETPPID\",quantile=\"0.99\"}" '$1 == m { print $2 }' "$TMP/after.prom")
			diag "prometheus: p99 of the second run's ${n:-?} calls $q s; its fine bucket [$want] s; stopwatch's p99 of both runs $p99 s"
			if [ "$want" = grew ]; then
				skip "prometheus: the second run reached a power of two the first did not (new le series have no rate)"
			else
				check "prometheus: histogram_quantile(0.99, rate()) on the fine buckets lies in the bucket of the 99th percentile" \
					awk -v q="$q" -v lo="${want% *}" -v hi="${want#* }" \
					'BEGIN { exit !(q ~ /^[0-9.e+-]+$/ && q + 0 >= lo - 1e-12 && q + 0 <= hi + 1e-12 && hi - lo <= lo / 16 + 1e-9) }'
			fi
			kill "$ppid_" 2>/dev/null
			wait "$ppid_" 2>/dev/null
			diag "prometheus: its checks took $(( $(date +%s) - t2 )) s"
		else
			skip "prometheus: no $PROM (scripts/deps.sh test extracts it)"
		fi
		if [ -x "$P/swprof" ] && command -v go >/dev/null; then
			# One per CPU: the profile is the whole machine's, idle
			# included, and swprof_hot is 60% of one workload.
			wp=
			for i in $(seq "$(nproc)"); do
				"$P/swprof" 6000 >/dev/null &
				wp="$wp $!"
			done
			# pprof waits 1.5 times the seconds asked by default: the
			# recording is symbolized after them, slowly under TCG.
			HOME=$TMP GOCACHE=$TMP/gocache go tool pprof -timeout 120 -top \
				"http://127.0.0.1:$port/debug/pprof/profile?seconds=2" >"$TMP/top" 2>&1
			kill $wp 2>/dev/null
			wait $wp 2>/dev/null
			cp "$TMP/top" "$R/serve-pprof-top.txt"
			is "serve: go tool pprof -top over HTTP: swprof_hot on top" \
				"$(awk '/flat%/ { getline; print $NF; exit }' "$TMP/top")" swprof_hot ||
				head -20 "$TMP/top"
		else
			skip "serve: go tool pprof over HTTP (no go or no swprof)"
		fi
		diag "serve: promtool and pprof took $(( $(date +%s) - t1 )) s"
	fi
	kill -TERM "$spid"
	wait "$spid"
	is "serve: SIGTERM stops it (exit 0)" "$?" 0
	check "serve: on exit its probe is removed" sh -c "! grep -q '$GETPPID' '$D/probes'"
	diag "serve: all its checks took $(( $(date +%s) - t0 )) s"
fi

unload
rm -rf "$TMP"
