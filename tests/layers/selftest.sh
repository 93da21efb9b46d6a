#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/layers/selftest.sh - scripts/layers.sh on small objects made here:
# a clean layout passes; an upward reference and a cycle inside one layer
# each fail, naming the symbol.  The lists of layers of ARCHITECTURE.md,
# Kbuild and layers.sh agree, and a disagreeing copy fails.  Then the real
# module's objects (built with scripts/kbuild.sh) must pass.  Ends with "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok - $1"; }
nok() { fail=$((fail + 1)); echo "not ok - $1"; }

# obj DIR/NAME.o "C source"
obj() {
	mkdir -p "$tmp/$2/$(dirname "$1")"
	printf '%s\n' "$3" >"$tmp/$2/${1%.o}.c"
	cc -c -o "$tmp/$2/$1" "$tmp/$2/${1%.o}.c"
}

# good: core uses agg, agg uses lib
obj lib/a.o good 'int sw_lib_fn(void) { return 1; }'
obj agg/b.o good 'int sw_lib_fn(void); int sw_agg_fn(void) { return sw_lib_fn(); }'
obj core/c.o good 'int sw_agg_fn(void); int sw_core_fn(void) { return sw_agg_fn(); }'
if out=$("$top/scripts/layers.sh" "$tmp/good" 2>&1); then ok "clean layout passes"; else nok "clean layout passes: $out"; fi

# up: agg calls into core
obj lib/a.o up 'int sw_lib_fn(void) { return 1; }'
obj core/c.o up 'int sw_core_fn(void) { return 2; }'
obj agg/b.o up 'int sw_core_fn(void); int sw_agg_fn(void) { return sw_core_fn(); }'
out=$("$top/scripts/layers.sh" "$tmp/up" 2>&1)
rc=$?
if [ $rc -ne 0 ] && echo "$out" | grep -q 'agg/b.o (agg) uses sw_core_fn of core/c.o'; then
	ok "upward reference fails and is named"
else
	nok "upward reference fails and is named (rc $rc: $out)"
fi

# cycle: two objects of one folder call each other
obj core/x.o cyc 'int sw_y(void); int sw_x(void) { return sw_y(); }'
obj core/y.o cyc 'int sw_x(void); int sw_y(void) { return sw_x(); }'
out=$("$top/scripts/layers.sh" "$tmp/cyc" 2>&1)
rc=$?
if [ $rc -ne 0 ] && echo "$out" | grep -q 'cycle:.*sw_[xy]'; then
	ok "cycle fails and names its symbols"
else
	nok "cycle fails and names its symbols (rc $rc: $out)"
fi

# the program: a base object that calls into output is upward; the top
# (".", the commands) may use every room
obj base/a.o us 'int sw_out_fn(void); int sw_base_fn(void) { return sw_out_fn(); }'
obj output/b.o us 'int sw_out_fn(void) { return 3; }'
obj builtin-x.o us 'int sw_out_fn(void); int sw_base_fn(void); int cmd_x(void) { return sw_out_fn() + sw_base_fn(); }'
out=$("$top/scripts/layers.sh" --userspace "$tmp/us" 2>&1)
rc=$?
if [ $rc -ne 0 ] && echo "$out" | grep -q 'base/a.o (base) uses sw_out_fn of output/b.o' &&
   ! echo "$out" | grep -q 'builtin-x.o'; then
	ok "program: upward reference fails and is named, the commands may use any room"
else
	nok "program: upward reference fails and is named (rc $rc: $out)"
fi

# the lists of layers: ARCHITECTURE.md and Kbuild agree with layers.sh;
# a copy that ranks one folder otherwise fails, naming the file
if out=$("$top/scripts/layers.sh" --lists 2>&1); then ok "$out"; else nok "lists of layers agree: $out"; fi
sed 's/^ 3  agg\// 4  agg\//' "$top/ARCHITECTURE.md" >"$tmp/ARCHITECTURE.md"
sed 's/^#   5 attach\//#   5 attach\/ agg\//' "$top/Kbuild" >"$tmp/Kbuild"
out=$("$top/scripts/layers.sh" --lists "$tmp/ARCHITECTURE.md" "$tmp/Kbuild" 2>&1)
rc=$?
if [ $rc -ne 0 ] && echo "$out" | grep -q "$tmp/ARCHITECTURE.md lists the module's layers as '.*agg:4" &&
   echo "$out" | grep -q "$tmp/Kbuild lists the module's layers as '.*agg:5"; then
	ok "a list that disagrees fails, naming its file"
else
	nok "a list that disagrees fails, naming its file (rc $rc: $out)"
fi

# the module and the program themselves, objects and includes
if out=$("$top/scripts/layers.sh" --build 2>&1); then
	ok "stopwatch.ko and stopwatch: $(echo "$out" | tr '\n' ';')"
else
	nok "stopwatch.ko and stopwatch layering: $out"
fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
