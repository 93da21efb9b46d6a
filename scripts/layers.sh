#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# scripts/layers.sh - check the layering of stopwatch.ko from its objects'
# own symbols (nm): every reference must point to the same folder or to a
# lower layer, and no objects may reference each other in a cycle.  Prints
# each offending reference (object -> symbol -> object) and exits 1.
#
# usage: scripts/layers.sh DIR       DIR: a module build tree (the .o files)
#        scripts/layers.sh --build   build the module for this machine's
#                                    newest kernel headers, then check it
# examples:
#   scripts/layers.sh --build                       # what make check runs
#   scripts/layers.sh build/kbuild/x86_64-6.1.0-56-amd64
#
# The layers, innermost first (a folder may use only its own or lower ones):
LAYERS="lib:0 control:1 relay:2 pmu:2 sampler:3 agg:3 core:4 attach:5 probe:6 span:6 module:7"
set -eu

dir=${1:?usage: scripts/layers.sh DIR|--build}
if [ "$dir" = --build ]; then
	top=$(cd "$(dirname "$0")/.." && pwd)
	ko=$("$top/scripts/kbuild.sh" 2>&1 | sed -n 's/^kbuild.sh: \(.*\.ko\)$/\1/p' | tail -n 1)
	[ -n "$ko" ] || { echo "layers.sh: the module did not build (scripts/kbuild.sh)" >&2; exit 2; }
	dir=$top/build/kbuild/$(basename "$(dirname "$ko")")
fi
[ -d "$dir" ] || { echo "layers.sh: no such directory '$dir'" >&2; exit 2; }
cd "$dir"
# The objects linked into the module (kbuild's stopwatch.mod), else all.
if [ -f stopwatch.mod ]; then
	objs=$(tr ' ' '\n' <stopwatch.mod | sed -n "s|^$PWD/||; s|^\./||; /\.o\$/p" | sort)
else
	objs=$(for l in $LAYERS; do f=${l%%:*}; [ -d "$f" ] && find "$f" -name '*.o' ! -name '*.mod.o'; done | sort)
fi
[ -n "$objs" ] || { echo "layers.sh: no objects under $dir (build the module first)" >&2; exit 2; }
for o in $objs; do
	[ -f "$o" ] || { echo "layers.sh: $dir/$o is missing (build the module first)" >&2; exit 2; }
done

# "def OBJ SYM" and "use OBJ SYM" lines, then one awk pass over them.
for o in $objs; do
	nm --defined-only -g "$o" | awk -v o="$o" 'NF == 3 { print "def", o, $3 }'
	nm -u "$o" | awk -v o="$o" '{ print "use", o, $NF }'
done | awk -v layers="$LAYERS" '
function folder(o) { sub(/\/.*/, "", o); return o }
BEGIN {
	n = split(layers, l, " ")
	for (i = 1; i <= n; i++) { split(l[i], kv, ":"); rank[kv[1]] = kv[2] }
}
$1 == "def" { owner[$3] = $2; next }
$1 == "use" { nu++; uo[nu] = $2; us[nu] = $3 }
END {
	bad = 0
	for (i = 1; i <= nu; i++) {
		t = owner[us[i]]
		if (t == "" || t == uo[i])
			continue
		if (!((uo[i], t) in edge)) { edge[uo[i], t] = us[i]; succ[uo[i]] = succ[uo[i]] " " t }
		fa = folder(uo[i]); fb = folder(t)
		if (fa != fb && rank[fb] > rank[fa]) {
			printf "layers: %s (%s) uses %s of %s (%s, a higher layer)\n", uo[i], fa, us[i], t, fb
			bad = 1
		}
	}
	# Cycles among objects: depth-first search, colour 1 = on the stack.
	for (v in succ) if (!colour[v]) dfs(v, 0)
	exit bad || cyc
}
function dfs(v, d,    s, k, m, w) {
	colour[v] = 1; stack[d] = v
	m = split(succ[v], s, " ")
	for (k = 1; k <= m; k++) {
		w = s[k]
		if (colour[w] == 1) { report(w, d); continue }
		if (!colour[w]) dfs(w, d + 1)
	}
	colour[v] = 2
}
function report(w, d,    i, j, line) {
	for (i = d; i >= 0 && stack[i] != w; i--) ;
	line = "layers: cycle:"
	for (j = i; j <= d; j++)
		line = line " " stack[j] " -(" edge[stack[j], (j < d ? stack[j + 1] : w)] ")->"
	print line " " w
	cyc = 1
}
' && echo "layers: $(echo "$objs" | wc -w) objects, no upward reference, no cycle"
