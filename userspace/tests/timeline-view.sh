#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# timeline-view.sh - open a Chrome JSON trace in speedscope, in headless
# Chromium, and print the page as the browser shows it (its DOM, in the
# sandwich view: a table of the functions), for cli.sh to look for the
# names it expects.  speedscope fetches the trace, so both are served
# from a local HTTP server (python3 -m http.server; Chromium does not
# fetch file:// URLs from a page).
#
# usage: timeline-view.sh SPEEDSCOPE_DIR TRACE.json   (DIR: its dist/release)
# Exits 2 when Chromium or python3 is missing, 1 when the page did not
# come.
set -u
dir=${1:?usage: timeline-view.sh SPEEDSCOPE_DIR TRACE.json}
trace=${2:?usage: timeline-view.sh SPEEDSCOPE_DIR TRACE.json}
chrome=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$chrome" ] || { echo "timeline-view.sh: no chromium" >&2; exit 2; }
command -v python3 >/dev/null 2>&1 || { echo "timeline-view.sh: no python3" >&2; exit 2; }
[ -r "$dir/index.html" ] || { echo "timeline-view.sh: no speedscope in $dir" >&2; exit 2; }

www=$(mktemp -d /tmp/sw-view.XXXXXX) || exit 1
srv=
cleanup() {
	[ -n "$srv" ] && kill "$srv" 2>/dev/null
	rm -rf "$www"
}
trap cleanup EXIT
cp -r "$dir"/. "$www"/
cp "$trace" "$www/trace.json"
# Port 0: the server picks a free one and says which.
python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$www" \
	>"$www/.srv" 2>&1 &
srv=$!
port=
for _ in $(seq 600); do
	port=$(sed -n 's/.* port \([0-9]*\).*/\1/p' "$www/.srv" | head -n 1)
	[ -n "$port" ] && break
	sleep 0.1
done
[ -n "$port" ] || { echo "timeline-view.sh: the HTTP server did not start" >&2; exit 1; }
url="http://127.0.0.1:$port/index.html#profileURL=http://127.0.0.1:$port/trace.json&view=sandwich"
# SwiftShader: speedscope draws with WebGL; --no-sandbox: CI runs as root.
timeout 300 "$chrome" --headless --no-sandbox --no-zygote \
	--disable-dev-shm-usage --use-angle=swiftshader \
	--enable-unsafe-swiftshader --user-data-dir="$www/.profile" \
	--virtual-time-budget=30000 --dump-dom "$url" 2>/dev/null
