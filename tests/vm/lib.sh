# SPDX-License-Identifier: GPL-2.0
# tests/vm/lib.sh - what the stopwatch suites share (POSIX sh; sourced
# after tap.sh).  Paths the suites use and the helpers every one of them
# needs; a suite may redefine any of them after sourcing this.
#
#   D, MOD, P, TMP         debugfs dir, stopwatch.ko, test programs, scratch
#   SW                     the stopwatch program of this architecture
#                          (SW_BIN overrides it)
#   T, TMOD                sw_testmod's debugfs dir and module file
#   loaded / unload        is stopwatch.ko loaded / rmmod it if so
#   load [PARAMS]          finit_module: prints ok or the errno's name
#   ctl FILE TEXT          one write(2) to $D/FILE: prints ok or the errno name
#   col PROBE COLUMN [F]   a probe's value in a column picked by header name
#   ksym REGEX             first kernel text symbol matching REGEX
#   kprobes_list           the kernel's list of registered kprobes
#   hw_pmu                 whether this machine has a hardware PMU perf can use

D=/sys/kernel/debug/stopwatch
MOD=${SW_MODULE:-$SW_REPO/build/module/$SW_ARCH/stopwatch.ko}
P=${SW_PROGS:-$SW_REPO/build/progs/$SW_ARCH}
TMP=${TMPDIR:-/tmp}/sw-${SW_SUITE:-suite}.$$
mkdir -p "$TMP"
if [ -n "${SW_BIN:-}" ]; then
	SW=$SW_BIN
elif [ "$SW_ARCH" = arm64 ]; then
	SW=$SW_REPO/build/userspace-arm64/stopwatch
else
	SW=$SW_REPO/build/userspace/stopwatch
fi
T=/sys/kernel/debug/sw_testmod
TMOD=${SW_KMODDIR:-$SW_REPO/build/kmod/$SW_ARCH}/sw_testmod.ko

loaded() { [ -d /sys/module/stopwatch ]; }

unload() {
	if loaded; then
		rmmod stopwatch 2>"$TMP/rmmod.err" ||
			diag "rmmod: $(cat "$TMP/rmmod.err")"
	fi
}

# SW_LOAD_EXTRA: parameters a suite adds to every load (cost_sample=0
# where exact per-call instruction counts must not depend on which
# handler runs the cost sampler timed).
#
# The boot's first load that calibrates (no calibrate= or calibration=
# given) leaves the calibration it measured in $SW_CALIB; every later
# load without either is handed it (calibration=), as the stopwatch
# program does: measuring takes up to a second a load under TCG.
SW_CALIB=/tmp/sw-calibration
load() {
	set -- "$*${SW_LOAD_EXTRA:+ $SW_LOAD_EXTRA}"
	case " $1 " in
	*" calibrate="* | *" calibration="*) "$P/modload" "$MOD" "$1"; return ;;
	esac
	if [ -s "$SW_CALIB" ]; then
		"$P/modload" "$MOD" "$1 calibration=$(cat "$SW_CALIB")"
		return
	fi
	set -- "$("$P/modload" "$MOD" "$1")"
	if [ "$1" = ok ]; then
		grep -E '=[1-9][0-9]*/' /sys/module/stopwatch/parameters/calibration \
			>"$SW_CALIB" 2>/dev/null || rm -f "$SW_CALIB"
	fi
	echo "$1"
}

ctl() { "$P/swwrite" "$D/$1" "$2"; }

col() {
	awk -v p="$1" -v c="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
		$1 == p && k { print $k; found = 1 }
		END { if (!found) print "absent" }' "${3:-$D/stats}"
}

ksym() {
	awk -v re="$1" '$2 ~ /^[tT]$/ && $3 ~ re && NF == 3 { print $3; exit }' \
		/proc/kallsyms
}

# stats_format: the statistics layout this tree's module prints, from
# its one definition (include/stopwatch/files.h), "MAJOR.MINOR".
stats_format() {
	awk '$1 == "#define" && $2 == "SW_STATS_FORMAT_MAJOR" { M = $3 }
		$1 == "#define" && $2 == "SW_STATS_FORMAT_MINOR" { m = $3 }
		END { print M "." m }' "$SW_REPO/include/stopwatch/files.h"
}

# long_run: whether this boot is a long run (sw_long=1 on its command line).
long_run() { [ "$(cmdarg sw_long)" = 1 ]; }

# once_per_arch: true on each arch's first kernel of the matrix (6.1) or
# in a long run (sw_long=1).  For checks of the program's own logic on a
# recording the module made, where the kernel cannot change the answer:
# the recording itself is checked on every kernel, its reading once.
once_per_arch() {
	case $(uname -r) in 6.1.*) return 0 ;; esac
	long_run
}

# rounds N LONG: how many rounds a repeated check runs: N, or LONG in a
# long run (sw_long=1).  Each round of a load / rmmod cycle costs a TCG
# guest seconds; the first rounds find what a round can find, the long
# run keeps the count that makes a rarer race likelier.
rounds() {
	if long_run; then echo "$2"; else echo "$1"; fi
}

kprobes_list() { cat /sys/kernel/debug/kprobes/list 2>/dev/null; }

hw_pmu() {
	for d in /sys/bus/event_source/devices/*; do
		case ${d##*/} in
		cpu | cpu_core | cpu_atom | armv8* | arm_cortex* | arm_neoverse*)
			return 0 ;;
		esac
	done
	return 1
}
