#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# scripts/test.sh - run every stopwatch test on a fresh Debian 12 machine:
# install what is missing, build the module, the program and the test
# workloads, run the host unit tests, then the VM suites (QEMU TCG: this
# machine need not load modules).  Ends with one "N passed, N failed,
# N skipped" line over everything; exits nonzero if anything failed.
#
# usage: scripts/test.sh [--host-only] [--vm-only] [--suite NAME,...] [--arch A,...]
#   --arch   guest architectures (default x86_64,arm64; arm64 runs with
#            -icount, which the exact instruction-count checks need)
# examples:
#   scripts/test.sh                      # everything
#   scripts/test.sh --host-only          # unit tests only, no VM
#   scripts/test.sh --suite stopwatch    # one VM suite
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
host=1 vm=1 suites= arches=x86_64,arm64
while [ $# -gt 0 ]; do
	case $1 in
	--host-only) vm=0; shift ;;
	--vm-only) host=0; shift ;;
	--suite) suites=$2; shift 2 ;;
	--arch) arches=$2; shift 2 ;;
	-h|--help) sed -n '4,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "test.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
done

pass=0 fail=0 skip=0 stage_fail=
log=$top/build/test-logs
rm -rf "$log"
mkdir -p "$log"

stage() { printf '\n=== %s ===\n' "$*"; }
broken() { fail=$((fail + 1)); stage_fail="$stage_fail $1"; echo "test.sh: $1 FAILED"; }

stage "dependencies"
scripts/deps.sh all || { echo "test.sh: cannot install dependencies" >&2; exit 1; }

stage "build"
if ! scripts/kbuild.sh >"$log/kbuild.log" 2>&1; then
	cat "$log/kbuild.log"; broken "module build"
elif grep -E 'warning:|error:' "$log/kbuild.log"; then
	broken "module build (warnings)"
fi
make progs >"$log/progs.log" 2>&1 || { cat "$log/progs.log"; broken "test programs build"; }
make userspace >"$log/userspace.log" 2>&1 || { cat "$log/userspace.log"; broken "userspace build"; }

# Counts cmocka's "[  PASSED  ] N test(s)." / "[  FAILED  ] N test(s)" lines.
count_cmocka() {
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test(s)\..*/\1/p' "$1" | awk '{s+=$1} END {print s+0}')
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test(s), listed below:.*/\1/p' "$1" | awk '{s+=$1} END {print s+0}')
	# Script-driven checks end with a plain "N passed, N failed[, N skipped]".
	p2=$(sed -n 's/^\([0-9]*\) passed, [0-9]* failed.*/\1/p' "$1" | awk '{s+=$1} END {print s+0}')
	f2=$(sed -n 's/^[0-9]* passed, \([0-9]*\) failed.*/\1/p' "$1" | awk '{s+=$1} END {print s+0}')
	s2=$(sed -n 's/^[0-9]* passed, [0-9]* failed, \([0-9]*\) skipped.*/\1/p' "$1" | awk '{s+=$1} END {print s+0}')
	pass=$((pass + p + p2)); fail=$((fail + f + f2)); skip=$((skip + s2))
	echo "test.sh: $2: $((p + p2)) passed, $((f + f2)) failed, $s2 skipped"
}

if [ $host -eq 1 ]; then
	stage "host unit tests"
	make check >"$log/unit.log" 2>&1
	rc=$?
	grep -E '^\[  (FAILED|ERROR)' "$log/unit.log"
	count_cmocka "$log/unit.log" "host unit tests"
	[ $rc -eq 0 ] || { tail -20 "$log/unit.log"; [ "$(grep -c 'FAILED' "$log/unit.log")" -gt 0 ] || broken "host unit tests (exit $rc)"; }
fi

# The VM boots: ARCH EXTRA-OPTIONS SUITES.  arm64 boots twice: -icount
# (exact instruction counts) only for the pmu suite, since it makes the
# load-heavy suites several times slower.
vm_runs() {
	echo "x86_64 - ${suites:-all}"
	echo "arm64 --icount ${suites:-pmu}"
	[ -n "$suites" ] || echo "arm64 - smoke,stopwatch,sampler,pmu"
}

if [ $vm -eq 1 ]; then
	built=
	vm_runs | while read -r arch extra list; do
		case ",$arches," in *",$arch,"*) ;; *) continue ;; esac
		[ "$extra" = - ] && extra=
		[ "$list" = all ] && list=
		stage "VM suites ($arch${extra:+ $extra}${list:+: $list})"
		if [ "$arch" != x86_64 ]; then
			case " $built " in *" $arch "*) ;; *)
				kdir=$(tests/vm/run.sh --arch "$arch" --print-kdir) &&
					scripts/kbuild.sh --arch "$arch" --kdir "$kdir" >"$log/kbuild-$arch.log" 2>&1 &&
					make progs ARCH="$arch" CROSS_COMPILE=aarch64-linux-gnu- >"$log/progs-$arch.log" 2>&1 ||
					{ tail -20 "$log/kbuild-$arch.log" 2>/dev/null; echo "0 passed, 1 failed" >"$log/vm-$arch-build.log"; continue; }
				built="$built $arch" ;;
			esac
		fi
		name=$arch${extra:+-icount}
		tests/vm/run.sh --arch "$arch" $extra --timeout 1500 ${list:+--suite "$list"} 2>&1 |
			tee "$log/vm-$name.log"
	done
	for f in "$log"/vm-*.log; do
		[ -e "$f" ] || continue
		line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$f" | tail -n 1)
		if [ -z "$line" ]; then
			broken "VM run $(basename "$f" .log) reported no summary"
			continue
		fi
		p=$(echo "$line" | sed 's/^\([0-9]*\) passed.*/\1/')
		f=$(echo "$line" | sed 's/.* \([0-9]*\) failed.*/\1/')
		s=$(echo "$line" | sed -n 's/.* \([0-9]*\) skipped.*/\1/p')
		pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + ${s:-0}))
	done
fi

stage "summary"
[ -n "$stage_fail" ] && echo "test.sh: failed stages:$stage_fail"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
