#!/bin/busybox sh
# tests/vm/init.sh - /init of the test VM's busybox initramfs.
#
# Loads the modules listed in /lib/modules/sw/load.list (virtio + 9p),
# mounts the host's root file system (9p tag "hostroot", read-only) and the
# results share (9p tag "results"), then starts tests/vm/guest-run.sh from
# the repository on the host root, either
#   sw_switch=1: after switch_root into the host root (host binaries run), or
#   sw_switch=0: staying in the initramfs, host root mounted at /host.
#
# Parameters, from the kernel command line:
#   sw_repo=PATH     repository top directory on the host
#   sw_suites=A,B    suites to run
#   sw_arch=ARCH     architecture name given to the suites
#   sw_switch=0|1    see above
#   sw_moddir=PATH   host path of the guest's /lib/modules (sw_switch=0, or
#                    a kernel not installed on the host: the debug kernel)
#   sw_shell=0|1     interactive shell after the suites
#   sw_9pcache=MODE  cache= option for the read-only host root (e.g. loose)
#   console=TTY      console device (the last one given)

/bin/busybox mkdir -p /bin /sbin /usr/bin /usr/sbin /proc /sys /dev /tmp /run
/bin/busybox --install -s
export PATH=/sbin:/bin:/usr/sbin:/usr/bin

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev

say() {
    echo "sw-init: $*"
}

die() {
    say "FATAL: $*"
    say "powering off"
    sync
    echo o > /proc/sysrq-trigger
    sleep 10
    poweroff -f
    while :; do sleep 60; done
}

sw_repo= sw_suites= sw_arch=unknown sw_switch=1 sw_moddir= sw_shell=0
sw_console=console sw_9pcache=
for arg in $(cat /proc/cmdline); do
    case $arg in
    sw_repo=*) sw_repo=${arg#*=} ;;
    sw_suites=*) sw_suites=${arg#*=} ;;
    sw_arch=*) sw_arch=${arg#*=} ;;
    sw_switch=*) sw_switch=${arg#*=} ;;
    sw_moddir=*) sw_moddir=${arg#*=} ;;
    sw_shell=*) sw_shell=${arg#*=} ;;
    sw_9pcache=*) sw_9pcache=${arg#*=} ;;
    console=*) sw_console=${arg#*=}; sw_console=${sw_console%%,*} ;;
    esac
done
[ -n "$sw_repo" ] || die "no sw_repo= on the kernel command line"

say "loading modules"
if [ -f /lib/modules/sw/load.list ]; then
    while read -r mod; do
        [ -n "$mod" ] || continue
        insmod "/lib/modules/sw/$mod" || say "insmod $mod failed"
    done < /lib/modules/sw/load.list
fi

# mount9p TAG DIR [OPTIONS]; retried while the virtio device settles.
mount9p() {
    opts=trans=virtio,version=9p2000.L,msize=262144${3:+,$3}
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        mount -t 9p -o "$opts" "$1" "$2" && return 0
        sleep 0.5
    done
    return 1
}

# mount_sys ROOT: the pseudo file systems tests use, below ROOT/sys and /dev.
mount_sys() {
    mount -t debugfs debugfs "$1/sys/kernel/debug" 2> /dev/null ||
        say "debugfs not mounted"
    mount -t tracefs tracefs "$1/sys/kernel/tracing" 2> /dev/null ||
        say "tracefs not mounted"
    mount -t bpf bpf "$1/sys/fs/bpf" 2> /dev/null
    mount -t cgroup2 cgroup2 "$1/sys/fs/cgroup" 2> /dev/null
    mkdir -p "$1/dev/pts" "$1/dev/shm"
    mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts "$1/dev/pts"
    mount -t tmpfs -o mode=1777 tmpfs "$1/dev/shm"
}

if [ "$sw_switch" = 1 ]; then
    root=/newroot
    mkdir -p "$root"
    mount9p hostroot "$root" "ro${sw_9pcache:+,cache=$sw_9pcache}" || die "cannot mount the host root (9p tag hostroot)"
    # The host root is read-only: give the usual writable places tmpfs.
    # A repository inside one of them (a clone in /tmp, say) would be
    # hidden by it: hold the repository aside and put it back on top.
    hold=
    for d in tmp run var/tmp var/log mnt; do
        case "$sw_repo/" in "/$d/"*) hold=/sw-repo-hold ;; esac
    done
    if [ -n "$hold" ]; then
        mkdir -p "$hold"
        mount -o bind "$root$sw_repo" "$hold" || die "cannot hold $sw_repo aside"
    fi
    for d in tmp run var/tmp var/log mnt; do
        if [ -d "$root/$d" ]; then
            mount -t tmpfs -o mode=1777 tmpfs "$root/$d" || say "no tmpfs on /$d"
        fi
    done
    if [ -n "$hold" ]; then
        mkdir -p "$root$sw_repo" && mount -o move "$hold" "$root$sw_repo" ||
            die "cannot put $sw_repo back over the tmpfs"
    fi
    mount -o move /proc "$root/proc"
    mount -o move /sys "$root/sys"
    mount -o move /dev "$root/dev"
    mount_sys "$root"
    # A kernel that is not installed on the host (the debug kernel) brings
    # its own /lib/modules.
    if [ -n "$sw_moddir" ] && [ -d "$root$sw_moddir" ]; then
        mount -o bind "$root$sw_moddir" "$root/lib/modules" ||
            say "cannot bind $sw_moddir over /lib/modules"
    fi
    results=/run/sw-results
    mkdir -p "$root$results"
    mount9p results "$root$results" || die "cannot mount the results share"
    repo=$sw_repo
    [ -f "$root$repo/tests/vm/guest-run.sh" ] ||
        die "$repo/tests/vm/guest-run.sh not found on the host root"
    export SW_ARCH="$sw_arch" SW_REPO="$repo" SW_RESULTS="$results"
    export SW_KVER="$(uname -r)" SW_SUITES="$sw_suites" SW_SHELL="$sw_shell"
    export SW_CONSOLE="$sw_console"
    say "switching root to the host file system"
    exec switch_root "$root" /bin/sh "$repo/tests/vm/guest-run.sh"
    die "switch_root failed"
fi

mkdir -p /host /tmp /run /var/tmp /mnt
mount -t tmpfs -o mode=1777 tmpfs /tmp
mount -t tmpfs -o mode=755 tmpfs /run
mount9p hostroot /host "ro${sw_9pcache:+,cache=$sw_9pcache}" || die "cannot mount the host root (9p tag hostroot)"
mount_sys ""
if [ -n "$sw_moddir" ] && [ -d "/host$sw_moddir" ]; then
    mkdir -p /lib/modules
    mount -o bind "/host$sw_moddir" /lib/modules
fi
results=/run/sw-results
mkdir -p "$results"
mount9p results "$results" || die "cannot mount the results share"
repo=/host$sw_repo
[ -f "$repo/tests/vm/guest-run.sh" ] ||
    die "$repo/tests/vm/guest-run.sh not found on the host root"
export SW_ARCH="$sw_arch" SW_REPO="$repo" SW_RESULTS="$results"
export SW_KVER="$(uname -r)" SW_SUITES="$sw_suites" SW_SHELL="$sw_shell"
export SW_CONSOLE="$sw_console"
exec /bin/sh "$repo/tests/vm/guest-run.sh"
die "cannot start guest-run.sh"
