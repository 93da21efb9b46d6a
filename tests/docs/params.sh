#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/docs/params.sh - README's "Module parameters" table against the
# module's sources: every module_param*() of stopwatch.ko has a row, every
# row names a parameter, and a parameter that exists only in the test build
# (inside #ifdef SW_DEBUG) says so in its row.  Prints TAP.
set -euo pipefail
cd "$(dirname "$0")/../.."

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# name<TAB>debug|all for each parameter of the module's own folders.
for f in $(grep -o '[a-z_]*/[a-z_0-9]*\.o' Kbuild | sed 's/\.o$/.c/' | sort -u); do
	[ -f "$f" ] || continue
	awk '/^#ifdef SW_DEBUG/ { d = 1 } /^#endif/ { d = 0 }
	     /^#else/ { d = 0 }
	     match($0, /module_param(_named|_cb)?\([a-z_0-9]+/) {
		s = substr($0, RSTART, RLENGTH); sub(/.*\(/, "", s)
		print s "\t" (d ? "debug" : "all") }' "$f"
done | sort -u > "$tmp/src"

# The table's rows: "| `a`, `b` | default | meaning |".
awk '/^### Module parameters/ { t = 1; next } t && /^#/ { t = 0 }
     t && /^\| `/ { split($0, c, "|"); print c[2] "\t" c[4] }' README.md > "$tmp/rows"

n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n - $1"; echo "# $2"; }

[ -s "$tmp/src" ] && [ -s "$tmp/rows" ] ||
	{ echo "not ok 1 - no parameters found (Kbuild or README changed form?)"; exit 1; }

while IFS=$'\t' read -r name kind; do
	row=$(awk -F'\t' -v p="\`$name\`" 'index($1, p) { print $2 }' "$tmp/rows")
	if [ -z "$row" ]; then
		not_ok "README: a row for $name" "module_param $name has none in README's Module parameters"
	elif [ "$kind" = debug ] && ! grep -q 'test build only' <<<"$row"; then
		not_ok "README: $name says it is in the test build only" "its row: $row"
	elif [ "$kind" = all ] && grep -q 'test build only' <<<"$row"; then
		not_ok "README: $name is not said to be test-only" "its row: $row"
	else
		ok "README: $name ($kind)"
	fi
done < "$tmp/src"

cut -f1 "$tmp/rows" | grep -o '`[a-z_0-9]*`' | tr -d '`' | sort -u > "$tmp/named"
cut -f1 "$tmp/src" > "$tmp/params"
extra=$(comm -23 "$tmp/named" "$tmp/params" | tr '\n' ' ')
if [ -z "$extra" ]; then
	ok "README: every row names a parameter of the module"
else
	not_ok "README: every row names a parameter of the module" "not parameters: $extra"
fi
echo "# $((n - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
