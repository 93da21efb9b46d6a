#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# scripts/layers.sh - check the layering of stopwatch.ko and of the stopwatch
# program, from their objects' own symbols (nm) and from their sources'
# #include lines: every reference must point to the same folder or to a
# lower layer, and no objects may reference each other in a cycle.  Prints
# each offending reference (object -> symbol -> object, or file -> header)
# and exits 1.
#
# usage: scripts/layers.sh DIR              DIR: a module build tree (.o files)
#        scripts/layers.sh --userspace DIR  DIR: the program's build tree
#        scripts/layers.sh --includes       both sides' #include lines
#        scripts/layers.sh --lists [ARCH KBUILD]
#                                           the lists of layers below, of
#                                           ARCHITECTURE.md (its first
#                                           fenced block: the module, its
#                                           second: the program) and of
#                                           Kbuild's header comment agree
#        scripts/layers.sh --build          build the module for this
#                                           machine's newest kernel headers
#                                           and the program, check all three
# examples:
#   scripts/layers.sh --build                       # what make check runs
#   scripts/layers.sh build/kbuild/x86_64-6.1.0-56-amd64
#   scripts/layers.sh --userspace build/userspace
#
# The layers, innermost first (a folder may use only its own or lower ones).
# ARCHITECTURE.md and Kbuild's header list the same (--lists, which make
# check runs, compares them).
# The module (kernel side):
LAYERS="lib:0 control:1 relay:2 pmu:2 sampler:3 agg:3 core:4 attach:5 probe:6 span:6 module:7"
# The program (userspace/; "." is its top: stopwatch.c and builtin-*.c;
# lib is the module's lib/ compiled in, gen the generated protobuf code):
US_LAYERS="lib:0 gen:0 base:1 control:2 record:3 output:4 .:5"
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)

# check_objects LAYERS OBJ...: run in the build tree; one awk pass over
# "def OBJ SYM" and "use OBJ SYM" lines.
check_objects() {
	lay=$1; shift
	for o in "$@"; do
		nm --defined-only -g "$o" | awk -v o="$o" 'NF == 3 { print "def", o, $3 }'
		nm -u "$o" | awk -v o="$o" '{ print "use", o, $NF }'
	done | awk -v layers="$lay" '
function folder(o) { if (o !~ /\//) return "."; sub(/\/.*/, "", o); return o }
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
'
}

# objects_of DIR: the objects linked into the module (kbuild's
# stopwatch.mod), else every object of a layer's folder.
module_objects() {
	if [ -f stopwatch.mod ]; then
		tr ' ' '\n' <stopwatch.mod | sed -n "s|^$PWD/||; s|^\./||; /\.o\$/p" | sort
	else
		for l in $LAYERS; do f=${l%%:*}; [ -d "$f" ] && find "$f" -name '*.o' ! -name '*.mod.o'; done | sort
	fi
}

# The program's objects: every one but the tests'.
userspace_objects() {
	find . -name '*.o' ! -path './tests/*' | sed 's|^\./||' | sort
}

# check_tree KIND DIR
check_tree() {
	[ -d "$2" ] || { echo "layers.sh: no such directory '$2'" >&2; return 2; }
	(
	cd "$2"
	if [ "$1" = module ]; then lay=$LAYERS; objs=$(module_objects); else lay=$US_LAYERS; objs=$(userspace_objects); fi
	[ -n "$objs" ] || { echo "layers.sh: no objects under $2 (build first)" >&2; exit 2; }
	for o in $objs; do
		[ -f "$o" ] || { echo "layers.sh: $2/$o is missing (build first)" >&2; exit 2; }
	done
	# shellcheck disable=SC2086
	check_objects "$lay" $objs &&
		echo "layers: $1: $(echo "$objs" | wc -w) objects, no upward reference, no cycle"
	)
}

# check_includes: every quoted #include of a layer's source names a header
# of its own folder or of a lower layer (both sides; include/ and a
# folder's own headers are always allowed).
check_includes() {
	(
	cd "$top"
	{
		for l in $LAYERS; do
			f=${l%%:*}
			find "$f" -name '*.[ch]' | sed "s|^|module $f |"
		done
		for l in $US_LAYERS; do
			f=${l%%:*}
			case $f in gen) continue ;; lib) continue ;; .) find userspace -maxdepth 1 -name '*.[ch]' | sed 's|^|userspace . |' ;;
			*) find "userspace/$f" -name '*.[ch]' | sed "s|^|userspace $f |" ;; esac
		done
	} | while read -r side f path; do
		sed -n 's/^#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$path" | sed "s|^|$side $f $path |"
	done | awk -v ml="$LAYERS" -v ul="$US_LAYERS" '
	BEGIN {
		n = split(ml, l, " "); for (i = 1; i <= n; i++) { split(l[i], kv, ":"); mr[kv[1]] = kv[2] }
		n = split(ul, l, " "); for (i = 1; i <= n; i++) { split(l[i], kv, ":"); ur[kv[1]] = kv[2] }
	}
	{
		side = $1; f = $2; path = $3; h = $4; nf++
		if (h !~ /\//) next
		t = h; sub(/\/.*/, "", t)
		if (t == "wrapper" || t == "stopwatch" || t == "include") next
		if (side == "module") {
			if (!(t in mr)) next
			if (mr[t] > mr[f]) { printf "layers: %s (%s) includes %s (%s, a higher layer)\n", path, f, h, t; bad = 1 }
		} else {
			if (!(t in ur)) next
			if (ur[t] > ur[f]) { printf "layers: %s (%s) includes %s (%s, a higher layer)\n", path, f, h, t; bad = 1 }
		}
	}
	END { if (!bad) printf "layers: includes: %d lines of both sides, none upward\n", nf; exit bad }'
	)
}

# doc_layers FILE BLOCK: "folder:rank" lines of a list of layers in FILE,
# sorted: the lines "RANK folder/ [folder/...] text" (a leading "#" is
# left out, "." stands for the program's top) of its BLOCKth fenced block,
# or with BLOCK 0 of its leading comment.
doc_layers() {
	awk -v want="$2" '
	want == 0 && !/^#/ { exit }
	want > 0 && /^```/ { if (++fence > 2 * want - 1) exit; next }
	want > 0 && fence != 2 * want - 1 { next }
	{
		sub(/^#/, "")
		if ($1 !~ /^[0-9]+$/) next
		for (i = 2; i <= NF && ($i ~ /\// || $i == "."); i++) {
			f = $i; sub(/\/.*/, "", f); print f ":" $1
		}
	}' "$1" | sort
}

# same_list FILE BLOCK WHAT VAR: FILE's list (doc_layers) is VAR's.
same_list() {
	eval "w=\$$4"
	w=$(echo "$w" | tr ' ' '\n' | sort)
	got=$(doc_layers "$1" "$2")
	[ "$got" = "$w" ] && return 0
	echo "layers: $1 lists $3's layers as '$(echo $got)', scripts/layers.sh's $4 as '$(echo $w)'"
	return 1
}

# check_lists ARCH KBUILD: the module's layers of ARCH, of KBUILD and of
# LAYERS, and the program's of ARCH and of US_LAYERS are the same.
check_lists() {
	rc=0
	same_list "$1" 1 "the module" LAYERS || rc=1
	same_list "$2" 0 "the module" LAYERS || rc=1
	same_list "$1" 2 "the program" US_LAYERS || rc=1
	[ $rc -eq 0 ] && echo "layers: lists: ${1##*/}, ${2##*/} and scripts/layers.sh agree ($(echo $LAYERS | wc -w) module folders, $(echo $US_LAYERS | wc -w) program folders)"
	return $rc
}

case ${1:?usage: scripts/layers.sh DIR|--userspace DIR|--includes|--lists|--build} in
--build)
	# The build trees are the VM boots' prepares' too (tests/vm/prepare.sh),
	# which scripts/test.sh runs beside make check: their lock, held until
	# the trees are read.
	mkdir -p "$top/build"
	exec 9>"$top/build/.prepare.lock"
	flock 9
	ko=$("$top/scripts/kbuild.sh" 2>&1 | sed -n 's/^kbuild.sh: \(.*\.ko\)$/\1/p' | tail -n 1)
	[ -n "$ko" ] || { echo "layers.sh: the module did not build (scripts/kbuild.sh)" >&2; exit 2; }
	make -s -C "$top" userspace >/dev/null || { echo "layers.sh: the program did not build" >&2; exit 2; }
	rc=0
	check_tree module "$top/build/kbuild/$(basename "$(dirname "$ko")")" || rc=1
	check_tree userspace "$top/build/userspace" || rc=1
	check_includes || rc=1
	check_lists "$top/ARCHITECTURE.md" "$top/Kbuild" || rc=1
	exit $rc
	;;
--lists) check_lists "${2:-$top/ARCHITECTURE.md}" "${3:-$top/Kbuild}" ;;
--userspace) check_tree userspace "${2:?usage: scripts/layers.sh --userspace DIR}" ;;
--includes) check_includes ;;
*) check_tree module "$1" ;;
esac
