#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# scripts/test.sh - run every stopwatch test on a fresh Debian 12 machine:
# install what is missing, build, then the VM boots (QEMU TCG: this machine
# need not load modules; arm64 first, each boot as soon as its kernel's
# module is built, x86_64 ones once DKMS installed theirs) with the module
# builds, the DKMS check and the unit tests beside them, the last at the
# lowest priority.  Ends with one "N passed, N failed, N skipped" line
# over everything; exits nonzero if anything failed.
#
# usage: scripts/test.sh [--host-only] [--vm-only] [--suite NAME,...]
#                        [--arch A,...] [--kernels K,...] [--serial]
#   --arch     guest architectures (default x86_64,arm64; arm64 boots twice
#              per kernel: with -icount for the pmu and program suites,
#              which the exact instruction counts need, and without for
#              the rest)
#   --serial   one boot at a time (default with 2+ CPUs: two streams of
#              boots run side by side, one TCG vCPU thread each, each
#              taking the next boot of one queue when its boot ends: the
#              first arm64 kernel's, the x86_64 ones (RT first), the other
#              arm64 kernels'; their logs are printed when both are done)
#   --kernels  guest kernel series (default 6.1,6.12,6.12-rt; 6.12-rt is
#              x86_64 only), exact releases, or debug (x86_64: the kernel
#              of scripts/debug-kernel.sh): see tests/vm/run.sh --kernel
# Each kernel's module is built once, warning-free, into
# build/module/<arch>-<release>/; the DKMS check builds it through dkms
# for the x86_64 kernels.  Each boot's wall time is printed; a boot is
# stopped after SW_VM_BOOT_TIMEOUT seconds (default 1800).
# examples:
#   scripts/test.sh                      # everything
#   scripts/test.sh --host-only          # unit tests only, no VM
#   scripts/test.sh --suite stopwatch    # one VM suite
#   scripts/test.sh --kernels 6.12 --arch x86_64 --suite smoke,stopwatch
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
host=1 vm=1 suites= arches=x86_64,arm64 kernels=6.1,6.12,6.12-rt serial=0
[ "$(nproc)" -ge 2 ] || serial=1
while [ $# -gt 0 ]; do
	case $1 in
	--serial) serial=1; shift ;;
	--host-only) vm=0; shift ;;
	--vm-only) host=0; shift ;;
	--suite) suites=$2; shift 2 ;;
	--arch) arches=$2; shift 2 ;;
	--kernels) kernels=$2; shift 2 ;;
	-h|--help) sed -n '4,34p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "test.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
done

pass=0 fail=0 skip=0 stage_fail=
log=$top/build/test-logs
rm -rf "$log"
mkdir -p "$log"

t_start=$(date +%s)
stage() { printf '\n=== %s (at %ss) ===\n' "$*" "$(($(date +%s) - t_start))"; }
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

# unit_tests [SPLIT]: make check; with SPLIT, host_stages ran its layer,
# version and docs checks into $log/unit.log already (status in $pre_rc):
# only its sanitizer builds and tests (make unit-san) now.
unit_tests() {
	stage "host unit tests"
	if [ -n "${1:-}" ]; then
		[ "$pre_rc" -eq 0 ] && make unit-san >>"$log/unit.log" 2>&1
	else
		make check >"$log/unit.log" 2>&1
	fi
	rc=$?
	grep -E '^\[  (FAILED|ERROR)' "$log/unit.log"
	# Its failed checks, with their diagnostics, for the summary too.
	awk '/^not ok |^\[  (FAILED|ERROR) *\] [a-z]/ { n = 6; print "host unit tests: " $0; next }
		n > 0 && /^#/ { n--; print "host unit tests:   " $0; next }
		{ n = 0 }' "$log/unit.log" | head -n 60 >>"$log/failed-checks"
	count_cmocka "$log/unit.log" "host unit tests"
	[ $rc -eq 0 ] || { tail -20 "$log/unit.log"; [ "$(grep -c 'FAILED' "$log/unit.log")" -gt 0 ] || broken "host unit tests (exit $rc)"; }
}
[ $host -eq 1 ] && [ $vm -eq 0 ] && unit_tests

# The VM boots of one kernel: ARCH EXTRA-OPTIONS SUITES.  arm64 boots
# twice: -icount (exact instruction counts; QEMU counts instructions only
# then) for the pmu, program and pfm suites, since it
# makes the load-heavy suites several times slower.
vm_runs() {
	echo "x86_64 - ${suites:-all}"
	echo "arm64 --icount ${suites:-pmu,program,pfm,paths,uprobe,span,trace}"
	[ -n "$suites" ] || echo "arm64 - smoke,stopwatch,sampler,pmu,probelang,time,paths,uprobe,span,tramp,tramplife,combo,keyrows,unwind,lockdown"
}

# Which arch/kernel pairs: 6.12-rt (any *-rt) is an amd64 flavour only.
matrix() {
	for k in $(echo "$kernels" | tr ',' ' '); do
		for a in $(echo "$arches" | tr ',' ' '); do
			case $a in amd64|x86) a=x86_64 ;; aarch64) a=arm64 ;; esac
			case $a:$k in arm64:*-rt|arm64:*-rt-*) continue ;; esac
			echo "$a $k"
		done
	done
}

# Resolve and prepare each kernel (installs/downloads it): writes "ARCH
# SPEC KVER" lines to $log/kernels for the boots, and the build
# environment of each to $log/env-ARCH-KVER.
: >"$log/kernels"
resolve_kernels() {
	stage "kernels (${kernels} on ${arches})"
	matrix | while read -r arch k; do
		env=$(tests/vm/run.sh --arch "$arch" --kernel "$k" --print-env 2>"$log/resolve-$arch-$k.log") || {
			cat "$log/resolve-$arch-$k.log"
			echo "0 passed, 1 failed" >"$log/vm-$arch-$k-resolve.log"
			echo "test.sh: VM $arch $k: kernel not available"
			continue
		}
		eval "$env"
		echo "$env" >"$log/env-$arch-$SW_KVER"
		echo "$arch $k $SW_KVER" >>"$log/kernels"
	done
}

# kernel_order: "ARCH SPEC KVER" of each resolved kernel, in the order
# of the boot queue's first boot of each ($log/queue; the matrix's order
# without it).
kernel_order() {
	if [ -s "$log/queue" ]; then
		awk '!seen[$1 " " $3]++ { print $1, $2, $3 }' "$log/queue"
	else
		cat "$log/kernels"
	fi
}

# Build the module for each resolved kernel, in the order the boots need
# them (kernel_order), and the arm64 test programs
# after the first arm64 module; $log/built-ARCH-KVER marks a kernel done
# (built or failed) for its boots (built_wait), $log/built-all the end.
# With two streams this runs beside the first boots, which start as soon
# as their kernel is built.  A boot's prepare builds only its own kernel's
# trees, after this build of that kernel; make check's layer check builds
# the host's x86_64 one: the x86_64 builds take the prepares' lock
# (tests/vm/prepare.sh, scripts/layers.sh), the arm64 ones need not and
# do not hold up the first boots' prepares.
build_kernels() {
	progs_arm64=
	kernel_order | while read -r arch k kver; do
		. "$log/env-$arch-$kver"
		t0=$(date +%s)
		(
		if [ "$arch" = x86_64 ]; then
			mkdir -p build
			exec 9>build/.prepare.lock
			flock 9
		fi
		# A failed build is one failure; the kernel is booted all the same
		# (its module suites fail or skip on their own).
		if ! scripts/kbuild.sh --arch "$arch" --kdir "$SW_KDIR" >"$log/kbuild-$arch-$SW_KVER.log" 2>&1; then
			tail -n 30 "$log/kbuild-$arch-$SW_KVER.log"
			echo "test.sh: VM $arch $k: module build for $SW_KVER failed"
			echo "0 passed, 1 failed" >"$log/vm-$arch-$k-build.log"
		elif grep -E 'warning:|error:' "$log/kbuild-$arch-$SW_KVER.log"; then
			echo "test.sh: VM $arch $k: module build for $SW_KVER has warnings"
			echo "0 passed, 1 failed" >"$log/vm-$arch-$k-build.log"
		fi
		echo "test.sh: module for $arch $SW_KVER: kbuild took $(($(date +%s) - t0))s"
		if [ "$arch" = arm64 ] && [ -z "$progs_arm64" ]; then
			make progs ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- >"$log/progs-arm64.log" 2>&1 || {
				tail -n 20 "$log/progs-arm64.log"
				echo "0 passed, 1 failed" >"$log/vm-arm64-progs.log"
			}
		fi
		)
		[ "$arch" = arm64 ] && progs_arm64=1
		: >"$log/built-$arch-$kver"
	done
}
built_wait() {
	while [ ! -e "$log/built-$1-$2" ] && [ ! -e "$log/built-all" ]; do sleep 2; done
}

# DKMS: add the source tree to dkms, build and install the module through
# dkms for every x86_64 kernel of the matrix (their headers are installed
# by now); the x86_64 boots load it (tests/vm/suites/dkms.sh).  One check
# per step, ending with a "N passed, N failed" line.
dkms_check() {
	dp=0 df=0
	dok() { dp=$((dp + 1)); echo "ok - dkms: $*"; }
	dnok() { df=$((df + 1)); echo "not ok - dkms: $*"; }
	ver=$(sed -n 's/^PACKAGE_VERSION="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' dkms.conf)
	# The certificate DKMS signs with (README: Secure Boot): its machine
	# owner key unless framework.conf names another.
	mok=$(sed -n 's/^mok_certificate="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' \
		/etc/dkms/framework.conf /etc/dkms/framework.conf.d/*.conf 2>/dev/null | tail -n 1)
	mok=${mok:-/var/lib/dkms/mok.pub}
	# dsig KO KVER: KO carries a module signature by $mok's key (signer
	# and key id as modinfo reads them) that verifies with $mok (openssl
	# over the module's bytes: what the kernel checks at load).
	dsig() {
		st=$(mktemp -d)
		case $1 in
		*.xz) xz -dc "$1" ;; *.zst) zstd -qdc "$1" ;; *.gz) gzip -dc "$1" ;; *) cat "$1" ;;
		esac >"$st/m.ko"
		cn=$(openssl x509 -inform DER -in "$mok" -noout -subject -nameopt sep_multiline 2>/dev/null |
			sed -n 's/^ *CN=//p')
		serial=$(openssl x509 -inform DER -in "$mok" -noout -serial 2>/dev/null |
			sed 's/^serial=0*//')
		signer=$(modinfo -F signer "$st/m.ko" 2>/dev/null)
		key=$(modinfo -F sig_key "$st/m.ko" 2>/dev/null | tr -d ':' | sed 's/^0*//')
		if [ -n "$signer" ] && [ "$signer" = "$cn" ] && [ "$key" = "$serial" ]; then
			dok "${1##*/} for $2 is signed by $mok's key ('$signer', key $key)"
		else
			dnok "${1##*/} for $2 is signed by $mok's key (signer '$signer' key '$key'; $mok: '$cn' key '$serial')"
		fi
		size=$(stat -c %s "$st/m.ko")
		siglen=$(tail -c 32 "$st/m.ko" | od -An -tu1 -N4 |
			awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')
		if [ "$(tail -c 28 "$st/m.ko" | tr -d "\\0")" = "~Module signature appended~" ] &&
			tail -c $((40 + siglen)) "$st/m.ko" | head -c "$siglen" >"$st/sig" &&
			head -c $((size - 40 - siglen)) "$st/m.ko" >"$st/payload" &&
			openssl x509 -inform DER -in "$mok" -out "$st/mok.pem" &&
			openssl cms -verify -binary -inform DER -in "$st/sig" \
				-content "$st/payload" -certfile "$st/mok.pem" -nointern \
				-noverify -out /dev/null >"$st/err" 2>&1; then
			dok "${1##*/} for $2: its signature verifies with $mok"
		else
			cat "$st/err" 2>/dev/null
			dnok "${1##*/} for $2: its signature verifies with $mok"
		fi
		rm -rf "$st"
	}
	if make dkms-add >"$log/dkms-add.log" 2>&1; then
		dok "make dkms-add (stopwatch/$ver in /usr/src)"
	else
		tail -n 20 "$log/dkms-add.log"; dnok "make dkms-add"
	fi
	# Not in a pipe: dkms_kernel counts in this shell.
	kernel_order >"$log/dkms-order"
	while read -r arch k kver; do
		[ "$arch" = x86_64 ] || continue
		dkms_kernel "$kver"
		: >"$log/dkms-$kver.done"
	done <"$log/dkms-order"
	n=$(grep -c '^x86_64 ' "$log/kernels")
	[ $n -gt 0 ] || echo "# dkms: no x86_64 kernel in the matrix: only the dkms add checked"
	echo "$dp passed, $df failed, 0 skipped"
}

# dkms_kernel KVER: dkms build and install for KVER, its checks.
dkms_kernel() {
	kver=$1
	if make dkms-install DKMS_KERNEL="$kver" >"$log/dkms-$kver.log" 2>&1; then
		dok "dkms build and install for $kver"
	else
		tail -n 30 "$log/dkms-$kver.log"
		mk=/var/lib/dkms/stopwatch/$ver/build/make.log
		[ -f "$mk" ] && tail -n 30 "$mk"
		dnok "dkms build and install for $kver"
		return
	fi
	mk=/var/lib/dkms/stopwatch/$ver/$kver/x86_64/log/make.log
	[ -f "$mk" ] || mk=/var/lib/dkms/stopwatch/$ver/build/make.log
	if [ -f "$mk" ] && grep -E 'warning:|error:' "$mk"; then
		dnok "dkms build for $kver is warning-free"
	else
		dok "dkms build for $kver is warning-free"
	fi
	ko=$(ls /lib/modules/"$kver"/updates/dkms/stopwatch.ko* /lib/modules/"$kver"/extra/stopwatch.ko* 2>/dev/null | head -n 1)
	if [ -n "$ko" ] && [ "$(modinfo -F vermagic "$ko" | cut -d' ' -f1)" = "$kver" ]; then
		dok "dkms installed $ko for $kver"
		dsig "$ko" "$kver"
	else
		dnok "dkms installed stopwatch.ko for $kver (found '${ko:-nothing}')"
	fi
	# The trampolines' companion, where the kernel has direct calls.
	if grep -qs '^CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS=y' /lib/modules/"$kver"/build/.config; then
		ko=$(ls /lib/modules/"$kver"/updates/dkms/stopwatch_tramp.ko* 2>/dev/null | head -n 1)
		if [ -n "$ko" ] && [ "$(modinfo -F vermagic "$ko" | cut -d' ' -f1)" = "$kver" ]; then
			dok "dkms installed $ko for $kver"
			dsig "$ko" "$kver"
		else
			dnok "dkms installed stopwatch_tramp.ko for $kver (found '${ko:-nothing}')"
		fi
	fi
}

# The host stages beside the boots: the DKMS check, which installs the
# module the x86_64 boots load (dkms suite; $log/dkms-KVER.done marks each
# kernel's, host_wait), then the unit tests.  With two streams they run
# beside the streams' boots, and the unit tests at the lowest priority
# (host_stages NICE): they take the time the guests leave (a guest waiting
# in a test leaves its core idle).  The DKMS check keeps the boots'
# priority: at the lowest it ended after the RT boot was due, which then
# waited for it.  make check's layer, version and docs checks run first at
# normal priority: the layer check takes the prepares' lock
# (scripts/layers.sh: make check beside the boots builds nothing a boot's
# prepare builds unlocked), which a starved holder would keep from the
# boots.
# host_stages [NICE]: the calling shell at niceness NICE after the DKMS
# check.
host_stages() {
	if [ $host -eq 1 ] && [ -n "${1:-}" ]; then
		make layers version docs >"$log/unit.log" 2>&1
		pre_rc=$?
	fi
	if [ $host -eq 1 ]; then
		stage "DKMS"
		dkms_check >"$log/dkms.log" 2>&1
	fi
	: >"$log/dkms.done"
	[ -n "${1:-}" ] && renice -n "$1" -p $$ >/dev/null
	if [ $host -eq 1 ]; then
		cat "$log/dkms.log"
		count_cmocka "$log/dkms.log" "DKMS"
		unit_tests "${1:-}"
	fi
}
host_wait() {
	while [ ! -e "$log/dkms.done" ] && [ ! -e "$log/dkms-$1.done" ]; do sleep 2; done
}

if [ $vm -eq 1 ]; then
	resolve_kernels
	# rank ARCH SPEC EXTRA: where a boot stands in the queue the streams
	# take their boots from (each takes the next when its boot ends; the
	# "boot times" stage prints what each took).  First the arm64 boots of
	# the matrix's first kernel (their module builds first, and they need
	# no DKMS), then the x86_64 ones, the RT kernel (the longest) first,
	# then the other arm64 kernels' (the -icount ones, the shortest, last):
	# the longest early, the short ones to even out the streams' ends.
	arm64_first=$(awk '$1 == "arm64" { print $2; exit }' "$log/kernels")
	rank() {
		case $1:$2:$3 in
		arm64:"$arm64_first":-) echo 1 ;;
		arm64:"$arm64_first":*) echo 2 ;;
		x86_64:*-rt:*|x86_64:*-rt-*:*) echo 3 ;;
		x86_64:*) echo 4 ;;
		arm64:*:-) echo 5 ;;
		*) echo 6 ;;
		esac
	}
	# Suites run on the matrix's last x86_64 kernel only (6.12-rt by
	# default), when every suite is asked
	# for: userspace tests the program end to end against perf (x86_64
	# only); what the kernel can change of its answer, the sampler,
	# program and time suites check on every kernel.
	once_suites=userspace
	# runs: every boot, "ARCH SPEC KVER EXTRA LIST" (EXTRA, LIST: - for none).
	runs() {
		x86_last=$(awk '$1 == "x86_64" { k = $2 } END { print k }' "$log/kernels")
		while read -r karch k kver; do
			vm_runs | while read -r arch extra list; do
				[ "$arch" = "$karch" ] || continue
				if [ "$list" = all ] && [ "$arch" = x86_64 ] && [ "$k" != "$x86_last" ]; then
					list=$(tests/vm/run.sh --list |
						grep -vxF "$(echo "$once_suites" | tr ',' '\n')" | paste -sd, -)
				fi
				echo "$karch $k $kver $extra $list"
			done
		done <"$log/kernels"
	}
	# queue: runs() in rank order (stable: the matrix's order within one).
	queue() {
		runs | while read -r arch k kver extra list; do
			echo "$(rank "$arch" "$k" "$extra") $arch $k $kver $extra $list"
		done | sort -s -n -k1,1 | cut -d' ' -f2-
	}
	# A hung guest is stopped after this many seconds.  The slowest boot
	# (6.12-rt, every suite) runs about 1,300 s under TCG: room for a
	# slower machine, and the worst case still fits CI's 90 minutes.
	boot_timeout=${SW_VM_BOOT_TIMEOUT:-1800}
	# boots STREAM: boot after boot from $log/queue, each the next one no
	# stream has claimed (mkdir is the claim: atomic), until none is left;
	# TAP to $log/vm-<name>.log, and to stdout if STREAM is "".  Each
	# boot's log name is added to $log/boots-STREAM.
	boots() {
		i=0
		while read -r arch k kver extra list; do
			i=$((i + 1))
			mkdir "$log/claim-$i" 2>/dev/null || continue
			built_wait "$arch" "$kver"
			[ "$arch" = arm64 ] || host_wait "$kver"
			[ "$extra" = - ] && extra=
			[ "$list" = all ] && list=
			name=$arch-$k${extra:+-icount}
			echo "vm-$name.log" >>"$log/boots-${1:-all}"
			head="VM suites ($arch $k = $kver${extra:+ $extra}${list:+: $list})"
			t0=$(date +%s)
			if [ -z "$1" ]; then
				stage "$head"
				tests/vm/run.sh --arch "$arch" --kernel "$kver" $extra \
					--timeout "$boot_timeout" ${list:+--suite "$list"} </dev/null 2>&1 |
					tee "$log/vm-$name.log"
			else
				printf '\n=== %s (stream %s, at %ss) ===\n' "$head" "$1" \
					"$((t0 - t_start))" >"$log/vm-$name.log"
				tests/vm/run.sh --arch "$arch" --kernel "$kver" $extra \
					--timeout "$boot_timeout" ${list:+--suite "$list"} </dev/null \
					>>"$log/vm-$name.log" 2>&1
			fi
			echo "test.sh: boot $arch $k${extra:+ icount} ($kver): $(($(date +%s) - t0))s (stream ${1:-1}, from $((t0 - t_start))s)" |
				tee -a "$log/timings-$arch"
		done <"$log/queue"
	}
	queue >"$log/queue"
	if [ "$serial" = 1 ] || [ "$(wc -l <"$log/queue")" -lt 2 ]; then
		stage "module builds"
		(build_kernels)
		: >"$log/built-all"
		host_stages
		: >"$log/boots-all"
		boots ""
	else
		stage "VM suites: two streams side by side, beside the module builds"
		{ (build_kernels); : >"$log/built-all"; } >"$log/builds.log" 2>&1 &
		for l in 1 2; do
			: >"$log/boots-$l"
			boots "$l" >"$log/stream-$l.log" 2>&1 &
		done
		host_stages 19
		wait
		cat "$log/builds.log"
		for l in 1 2; do
			cat "$log/stream-$l.log"
			while read -r f; do
				cat "$log/$f" 2>/dev/null
			done <"$log/boots-$l"
		done
	fi
	cat "$log"/timings-* >"$log/timings" 2>/dev/null
	for f in "$log"/vm-*.log; do
		[ -e "$f" ] || continue
		name=$(basename "$f" .log); name=${name#vm-}
		what="VM $(echo "$name" | sed 's/-/ /')"
		line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$f" | tail -n 1)
		if [ -z "$line" ]; then
			broken "$what reported no summary"
			continue
		fi
		p=$(echo "$line" | sed 's/^\([0-9]*\) passed.*/\1/')
		f=$(echo "$line" | sed 's/.* \([0-9]*\) failed.*/\1/')
		s=$(echo "$line" | sed -n 's/.* \([0-9]*\) skipped.*/\1/p')
		pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + ${s:-0}))
		[ "$f" -eq 0 ] || { echo "test.sh: $what: $f failed"; stage_fail="$stage_fail $what"; }
		# The failed checks again, each with the diagnostics after it,
		# for the summary: the tail of a long log is often all one sees.
		[ "$f" -eq 0 ] || awk -v w="$what" '
			/^not ok / { n = 6; print w ": " $0; next }
			n > 0 && /^#/ { n--; print w ":   " $0; next }
			{ n = 0 }' "$log/vm-$name.log" | head -n 60 >>"$log/failed-checks"
	done
	[ -f "$log/timings" ] && { stage "boot times"; cat "$log/timings"; }
fi

stage "summary"
[ -n "$stage_fail" ] && echo "test.sh: failed stages:$stage_fail"
[ -s "$log/failed-checks" ] && { echo "test.sh: the failed checks:"; cat "$log/failed-checks"; }
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
