#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/debug-kernel.sh - build (once) and cache an x86_64 debug kernel
# for the VM harness: Debian's linux-source-6.1 with lockdep, sleep-in-atomic
# and preemption checks, PROVE_RCU and KASAN, everything stopwatch uses,
# and what the guest boots from (virtio, 9p, tmpfs, devtmpfs) built in.
#
# The configuration is x86_64_defconfig + kvm_guest.config + the fragment
# below (merge_config.sh), not Debian's: it builds in a fraction of the
# time.  The result lives in .cache/debug-kernel/<source version>-<hash>/,
# <hash> being that of the fragment (and of this script's build recipe):
#   src/                               the built tree (KDIR for modules)
#   root/boot/vmlinuz-<release>        the kernel image
#   root/lib/modules/<release>/        its modules (build -> src)
#   root/usr/src/linux-headers-<release> -> src
#   release                            <release>, e.g. 6.1.192-swdebug
# A run whose directory is complete does nothing.  tests/vm/run.sh
# --kernel debug boots it.
#
# usage: scripts/debug-kernel.sh [--print-dir|--print-release|--check] [-j N]
#   (no option)      build if needed, print the cache directory
#   --print-dir      print the cache directory if built, else fail (exit 1)
#   --print-release  print the kernel release if built, else fail (exit 1)
#   --check          exit 0 if built, 1 if not
#   -j N             parallel jobs (default: the number of CPUs)
# environment: SW_DEBUG_BTF=1 also builds DEBUG_INFO + DEBUG_INFO_BTF
# (needs pahole, from dwarves; much slower); SW_DEBUG_KERNEL_CACHE
# overrides .cache/debug-kernel.
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${SW_DEBUG_KERNEL_CACHE:-$TOP/.cache/debug-kernel}
SRCPKG=linux-source-6.1
TARBALL=/usr/src/$SRCPKG.tar.xz

log() { printf '[debug-kernel] %s\n' "$*" >&2; }
die() {
    printf '[debug-kernel] error: %s\n' "$*" >&2
    exit 2
}

mode=build
jobs=$(nproc)
while [ $# -gt 0 ]; do
    case $1 in
    --print-dir | --print-release | --check) mode=${1#--}; shift ;;
    -j) jobs=$2; shift 2 ;;
    -j*) jobs=${1#-j}; shift ;;
    -h | --help) sed -n '3,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument: $1 (see --help)" ;;
    esac
done

[ "$(uname -m)" = x86_64 ] || die "builds an x86_64 kernel on an x86_64 host only"

# The fragment: what the checks need, what stopwatch needs, what the guest
# boots from.  Everything the guest needs before its root is mounted is
# built in (=y): the harness's initramfs then finds nothing to load.
fragment() {
    cat <<'EOF'
CONFIG_LOCALVERSION="-swdebug"
# CONFIG_LOCALVERSION_AUTO is not set
# CONFIG_WERROR is not set
# --- the checks ---
CONFIG_DEBUG_KERNEL=y
CONFIG_PREEMPT=y
CONFIG_DEBUG_PREEMPT=y
CONFIG_PROVE_LOCKING=y
CONFIG_PROVE_RCU=y
CONFIG_DEBUG_ATOMIC_SLEEP=y
CONFIG_DEBUG_LIST=y
CONFIG_LOCKDEP_BITS=16
CONFIG_LOCKDEP_CHAINS_BITS=17
CONFIG_LOCKDEP_STACK_TRACE_BITS=20
CONFIG_KASAN=y
CONFIG_KASAN_GENERIC=y
CONFIG_KASAN_INLINE=y
CONFIG_KASAN_VMALLOC=y
CONFIG_SOFTLOCKUP_DETECTOR=y
CONFIG_DETECT_HUNG_TASK=y
CONFIG_RCU_CPU_STALL_TIMEOUT=60
# CONFIG_PANIC_ON_OOPS is not set
CONFIG_IKCONFIG=y
CONFIG_IKCONFIG_PROC=y
# --- stopwatch ---
CONFIG_MODULES=y
CONFIG_MODULE_UNLOAD=y
# CONFIG_MODULE_SIG is not set
CONFIG_KALLSYMS=y
CONFIG_KALLSYMS_ALL=y
CONFIG_KPROBES=y
CONFIG_KRETPROBES=y
CONFIG_KPROBE_EVENTS=y
CONFIG_UPROBES=y
CONFIG_UPROBE_EVENTS=y
CONFIG_FTRACE=y
CONFIG_FUNCTION_TRACER=y
CONFIG_FUNCTION_GRAPH_TRACER=y
CONFIG_DYNAMIC_FTRACE=y
CONFIG_DYNAMIC_FTRACE_WITH_REGS=y
CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS=y
CONFIG_FPROBE=y
CONFIG_PERF_EVENTS=y
CONFIG_BPF=y
CONFIG_BPF_SYSCALL=y
CONFIG_BPF_JIT=y
CONFIG_BPF_EVENTS=y
CONFIG_RELAY=y
CONFIG_DEBUG_FS=y
CONFIG_TRACEPOINTS=y
CONFIG_CGROUPS=y
CONFIG_CGROUP_PERF=y
CONFIG_CGROUP_BPF=y
CONFIG_HOTPLUG_CPU=y
CONFIG_SECURITY=y
CONFIG_SECURITYFS=y
CONFIG_SECURITY_LOCKDOWN_LSM=y
CONFIG_LOCK_DOWN_KERNEL_FORCE_NONE=y
CONFIG_SCHEDSTATS=y
# --- the guest: virtio, 9p root, tmpfs, devtmpfs, initramfs ---
CONFIG_PCI=y
CONFIG_VIRTIO=y
CONFIG_VIRTIO_PCI=y
CONFIG_VIRTIO_MMIO=y
CONFIG_NET=y
CONFIG_NET_9P=y
CONFIG_NET_9P_VIRTIO=y
CONFIG_9P_FS=y
CONFIG_9P_FS_POSIX_ACL=y
CONFIG_TMPFS=y
CONFIG_TMPFS_POSIX_ACL=y
CONFIG_DEVTMPFS=y
CONFIG_BLK_DEV_INITRD=y
CONFIG_RD_GZIP=y
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y
CONFIG_UNIX=y
# --- what the guest never uses, off to build faster ---
# CONFIG_DRM is not set
# CONFIG_AGP is not set
# CONFIG_SOUND is not set
# CONFIG_USB_SUPPORT is not set
# CONFIG_WIRELESS is not set
# CONFIG_WLAN is not set
# CONFIG_CFG80211 is not set
# CONFIG_RFKILL is not set
# CONFIG_ETHERNET is not set
# CONFIG_NETFILTER is not set
# CONFIG_NFS_FS is not set
# CONFIG_PCCARD is not set
# CONFIG_MD is not set
# CONFIG_HID is not set
# CONFIG_SECURITY_SELINUX is not set
# CONFIG_ATA is not set
EOF
    if [ "${SW_DEBUG_BTF:-0}" = 1 ]; then
        cat <<'EOF'
# CONFIG_DEBUG_INFO_NONE is not set
CONFIG_DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT=y
CONFIG_DEBUG_INFO_BTF=y
CONFIG_DEBUG_INFO_BTF_MODULES=y
EOF
    else
        echo 'CONFIG_DEBUG_INFO_NONE=y'
    fi
}

# The recipe's version: bump when the build steps change what comes out.
RECIPE=1

srcver() {
    dpkg-query -W -f='${Version}' "$SRCPKG" 2> /dev/null || true
}

key() {
    local v h
    v=$(srcver)
    [ -n "$v" ] || return 1
    h=$( { fragment; echo "recipe=$RECIPE"; } | sha256sum | cut -c1-12)
    printf '%s-%s\n' "$v" "$h"
}

# built DIR: complete, and its tree still usable as KDIR for modules (the
# generated headers, Module.symvers and the build rules are there).
built() {
    [ -f "$1/complete" ] && [ -f "$1/release" ] &&
        [ -f "$1/src/include/generated/utsrelease.h" ] &&
        [ -f "$1/src/Module.symvers" ] && [ -f "$1/src/scripts/Makefile.build" ]
}
damaged() { [ -f "$1/complete" ] && ! built "$1"; }

if [ "$mode" != build ]; then
    k=$(key) || { log "$SRCPKG is not installed"; exit 1; }
    dir=$CACHE/$k
    if damaged "$dir"; then
        [ "$mode" = check ] || log "the debug kernel in $dir is damaged (its src/ tree lacks what module builds need): run scripts/debug-kernel.sh to rebuild it"
        exit 1
    elif ! built "$dir"; then
        [ "$mode" = check ] || log "no debug kernel in $dir: run scripts/debug-kernel.sh (or make stress-debug)"
        exit 1
    fi
    case $mode in
    print-dir) printf '%s\n' "$dir" ;;
    print-release) cat "$dir/release" ;;
    esac
    exit 0
fi

# --- build ---
if [ ! -f "$TARBALL" ] || [ -z "$(srcver)" ]; then
    [ "$(id -u)" = 0 ] || die "need root to install $SRCPKG"
    log "installing $SRCPKG"
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 -q install -y \
        --no-install-recommends "$SRCPKG" >&2 || die "apt-get install $SRCPKG failed"
fi
for t in gcc make flex bison bc perl xz; do
    command -v "$t" > /dev/null || die "$t is missing (Debian: build-essential flex bison bc xz-utils)"
done
[ -f /usr/include/libelf.h ] || die "libelf headers missing (Debian: libelf-dev)"
[ -f /usr/include/openssl/ssl.h ] || die "OpenSSL headers missing (Debian: libssl-dev)"
if [ "${SW_DEBUG_BTF:-0}" = 1 ]; then
    command -v pahole > /dev/null || die "SW_DEBUG_BTF=1 needs pahole (Debian: dwarves)"
fi

k=$(key)
dir=$CACHE/$k
mkdir -p "$CACHE"
exec 9> "$CACHE/.lock-$k"
if ! flock -n 9; then
    log "another build of $k is running; waiting for it"
    flock 9
fi
if built "$dir"; then
    log "cached: $dir ($(cat "$dir/release"))"
    printf '%s\n' "$dir"
    exit 0
fi
if damaged "$dir"; then
    log "$dir is damaged (its src/ tree lacks what module builds need): building it again"
    rm -rf "$dir"
fi

src=$dir/src
if [ ! -f "$src/.unpacked" ]; then
    rm -rf "$dir"
    mkdir -p "$dir"
    log "unpacking $TARBALL ($(srcver))"
    tar -xJf "$TARBALL" -C "$dir"
    mv "$dir/$SRCPKG" "$src"
    touch "$src/.unpacked"
fi
fragment > "$dir/fragment.config"

mk() { nice -n 19 make -C "$src" ARCH=x86_64 -j"$jobs" "$@"; }

log "configuring: x86_64_defconfig + kvm_guest.config + fragment ($dir/fragment.config)"
mk x86_64_defconfig > "$dir/config.log" 2>&1
(cd "$src" && ARCH=x86_64 scripts/kconfig/merge_config.sh -m .config \
    kernel/configs/kvm_guest.config "$dir/fragment.config") >> "$dir/config.log" 2>&1 ||
    die "merge_config.sh failed, see $dir/config.log"
mk olddefconfig >> "$dir/config.log" 2>&1
# Every =y/=m the fragment asks for must have stuck (a dependency missing
# silently drops a symbol).
missing=
while IFS= read -r line; do
    case $line in CONFIG_*=*) ;; *) continue ;; esac
    grep -qxF "$line" "$src/.config" || missing="$missing ${line%%=*}"
done < "$dir/fragment.config"
[ -z "$missing" ] || die "not in the final .config:$missing (see $dir/config.log)"

log "building with -j$jobs under nice 19 (log: $dir/build.log); this takes long"
start=$(date +%s)
mk bzImage modules > "$dir/build.log" 2>&1 || {
    tail -30 "$dir/build.log" >&2
    die "kernel build failed, see $dir/build.log"
}
rel=$(cat "$src/include/config/kernel.release")
log "built $rel in $(($(date +%s) - start)) s"

root=$dir/root
rm -rf "$root"
mkdir -p "$root/boot" "$root/usr/src"
mk INSTALL_MOD_PATH="$root" INSTALL_MOD_STRIP=1 modules_install >> "$dir/build.log" 2>&1 ||
    die "modules_install failed, see $dir/build.log"
cp "$src/arch/x86/boot/bzImage" "$root/boot/vmlinuz-$rel"
cp "$src/.config" "$root/boot/config-$rel"
cp "$src/System.map" "$root/boot/System.map-$rel"
rm -f "$root/lib/modules/$rel/build" "$root/lib/modules/$rel/source"
ln -s ../../../../src "$root/lib/modules/$rel/build"
ln -s ../../../src "$root/usr/src/linux-headers-$rel"
echo "$rel" > "$dir/release"
touch "$dir/complete"
ln -sfn "$k" "$CACHE/latest"
log "ready: $rel in $dir"
printf '%s\n' "$dir"
