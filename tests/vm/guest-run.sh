#!/bin/sh
# tests/vm/guest-run.sh - runs inside the test VM (POSIX sh).
#
# Started by init.sh (normally as PID 1) with these variables set:
#   SW_ARCH     x86_64 | arm64
#   SW_REPO     repository top directory as seen in the guest
#   SW_RESULTS  writable directory shared with the host (9p)
#   SW_KVER     running kernel release
#   SW_SUITES   comma-separated suite names (tests/vm/suites/NAME.sh)
#   SW_SHELL    1: start an interactive shell on the console afterwards
#   SW_CONSOLE  console tty name (ttyS0, ttyAMA0)
# and exports SW_MODULE (build/module/<arch>-<release>/stopwatch.ko) when
# the module was built for the running kernel.
#
# Writes to $SW_RESULTS: booted (guest uptime when userspace was ready),
# tap.txt (TAP of all suites), NAME.log (each suite's output), dmesg.txt,
# done (written last: the host takes its absence as a failed run).
# When started as PID 1 it runs itself as a child and then powers the
# guest off.

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export SW_ARCH SW_REPO SW_RESULTS SW_KVER
: "${SW_KVER:=$(uname -r)}"
: "${SW_RESULTS:=/run/sw-results}"
export HOME=/tmp/home
export TMPDIR=/tmp
mkdir -p "$HOME"

SW_VM=$SW_REPO/tests/vm

# The module built for this very kernel (scripts/kbuild.sh keeps one per
# kernel in build/module/<arch>-<release>/); lib.sh falls back to
# build/module/<arch>/, the last one built.
if [ -z "${SW_MODULE:-}" ] && [ -f "$SW_REPO/build/module/$SW_ARCH-$SW_KVER/stopwatch.ko" ]; then
    SW_MODULE=$SW_REPO/build/module/$SW_ARCH-$SW_KVER/stopwatch.ko
    export SW_MODULE
fi

# The trampolines' companion, stopwatch_tramp.ko (tramp/abi.h): built
# beside the module where the kernel has ftrace direct calls, and never
# unloaded, so loaded once per boot, before any suite (stopwatch.ko's
# request_module() would look for it in /lib/modules only).
SW_TRAMP_KO=$(dirname "${SW_MODULE:-$SW_REPO/build/module/$SW_ARCH/stopwatch.ko}")/stopwatch_tramp.ko
if [ -f "$SW_TRAMP_KO" ] && [ ! -d /sys/module/stopwatch_tramp ]; then
    insmod "$SW_TRAMP_KO" 2>/tmp/sw-tramp.err ||
        echo "sw-guest: insmod $SW_TRAMP_KO failed: $(cat /tmp/sw-tramp.err)"
fi

# The test and benchmark modules (sw_testmod.ko, sw_bare.ko) built for this
# very kernel: build/kmod/<arch>-<release>/.  build/kmod/<arch>/ holds the
# last ones built, for whichever kernel: boots of other kernels running side
# by side rebuild it.
if [ -z "${SW_KMODDIR:-}" ]; then
    SW_KMODDIR=$SW_REPO/build/kmod/$SW_ARCH-$SW_KVER
    [ -d "$SW_KMODDIR" ] || SW_KMODDIR=$SW_REPO/build/kmod/$SW_ARCH
    export SW_KMODDIR
fi

say() {
    echo "sw-guest: $*"
}

sw_poweroff() {
    say "powering off"
    sync
    umount "$SW_RESULTS" 2> /dev/null
    echo o > /proc/sysrq-trigger
    sleep 10
    poweroff -f 2> /dev/null
    while :; do sleep 60; done
}

# As PID 1, run the rest in a child: whatever happens to it, power off
# (if PID 1 itself ended, the kernel would panic).
if [ "$$" -eq 1 ] && [ -z "${SW_GUEST_CHILD:-}" ]; then
    SW_GUEST_CHILD=1 /bin/sh "$0" "$@"
    rc=$?
    [ "$rc" -eq 0 ] || say "guest-run.sh ended with status $rc"
    sw_poweroff
fi

# TCG takes tens of microseconds to deliver a sample interrupt, which the
# kernel reads as an overloaded machine: it lowers
# kernel.perf_event_max_sample_rate step by step, to a few hundred a second,
# and throttles every sampling event past it.  Counts of samples would then
# measure the emulator.  Keep the default limit and switch the lowering off
# (the limit can only be written while the lowering is on); the sampler
# suite lowers the limit on purpose to test its kthrottled counter.
if [ -w /proc/sys/kernel/perf_cpu_time_max_percent ]; then
    echo 25 > /proc/sys/kernel/perf_cpu_time_max_percent &&
        echo 100000 > /proc/sys/kernel/perf_event_max_sample_rate &&
        echo 0 > /proc/sys/kernel/perf_cpu_time_max_percent ||
        say "could not switch off perf's sample-rate lowering"
fi

cut -d' ' -f1 /proc/uptime > "$SW_RESULTS/booted"
say "userspace ready after $(cat "$SW_RESULTS/booted")s; suites: ${SW_SUITES:-none}"

export SW_TAP_FILE="$SW_RESULTS/tap.txt"
export SW_TAP_STATE=/tmp/sw-tap-state
export SW_TAP_TIMES="$SW_RESULTS/times.raw"
: > "$SW_TAP_FILE"
: > "$SW_TAP_TIMES"
. "$SW_VM/tap.sh"
# TAP only to the results file: the console is scanned for kernel errors.
_tap_emit() {
    printf '%s\n' "$1" >> "$SW_TAP_FILE"
}
tap_init
diag "guest: arch=$SW_ARCH kernel=$SW_KVER cpus=$(grep -c '^processor' /proc/cpuinfo) repo=$SW_REPO"

for suite in $(echo "${SW_SUITES:-}" | tr ',' ' '); do
    file=$SW_VM/suites/$suite.sh
    say "suite $suite: start"
    diag "suite $suite"
    if [ ! -f "$file" ]; then
        not_ok "suite $suite exists ($file)"
        continue
    fi
    start=$(cut -d' ' -f1 /proc/uptime)
    (
        cd "$SW_REPO" || exit 125
        export SW_SUITE="$suite"
        # A suite ends by running off its end (status 0 whatever its last
        # check gave), by "exit N" (N != 0 is a failure) or by a shell error.
        exec sh -c '. "$1"; . "$2"; exit 0' "sw-suite-$suite" "$SW_VM/tap.sh" "$file"
    ) > "$SW_RESULTS/$suite.log" 2>&1 < /dev/null
    rc=$?
    end=$(cut -d' ' -f1 /proc/uptime)
    if [ "$rc" -ne 0 ]; then
        not_ok "suite $suite finished with exit status $rc (see $suite.log)"
    fi
    diag "suite $suite took $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')s"
    say "suite $suite: end (status $rc)"
done

tap_summary
dmesg > "$SW_RESULTS/dmesg.txt" 2>&1
cut -d' ' -f1 /proc/uptime > "$SW_RESULTS/done"
sync

if [ "${SW_SHELL:-0}" = 1 ]; then
    tty=/dev/${SW_CONSOLE:-console}
    [ -c "$tty" ] || tty=/dev/console
    sh=/bin/sh
    [ -x /bin/bash ] && sh=/bin/bash
    say "interactive shell on $tty; leave it (exit / Ctrl-D) to power off"
    cd "$SW_REPO" 2> /dev/null || cd /
    setsid -c "$sh" -i < "$tty" > "$tty" 2>&1 ||
        "$sh" -i < "$tty" > "$tty" 2>&1
fi

exit 0
