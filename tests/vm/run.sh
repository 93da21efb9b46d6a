#!/usr/bin/env bash
# tests/vm/run.sh - boot a QEMU (TCG) guest once and run test suites in it.
# See tests/vm/README.md and --help.
set -euo pipefail

VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$VM_DIR/../.." && pwd)
CACHE=${SW_VM_CACHE:-$REPO/.cache/vm}

usage() {
    cat <<EOF
Usage: tests/vm/run.sh [OPTIONS]

Boots a QEMU TCG guest of a Debian 12 kernel (x86_64: installed on this
host with apt, several side by side; arm64: downloaded into .cache/vm/),
runs the requested suites (tests/vm/suites/
NAME.sh) in that one boot, prints TAP and a final "N passed, N failed,
N skipped" line. Exits nonzero if a test failed, the guest timed out,
crashed or did not report, or the kernel console shows BUG:/WARNING:/Oops/
Call Trace/soft lockup/general protection/Kernel panic/kernel BUG at/
detected stall/UBSAN:.

Options:
  --arch x86_64|arm64   guest architecture (default x86_64)
  --kernel SPEC         guest kernel: a series, 6.1, 6.12 or 6.12-rt (amd64
                        only), meaning the newest release of it apt-cache
                        offers with headers, or an exact release such as
                        6.12.117+deb12-amd64; installed/downloaded when
                        missing; never replaced by another kernel (error).
                        debug (x86_64): the debug kernel (lockdep, KASAN,
                        ...) scripts/debug-kernel.sh built and cached in
                        .cache/debug-kernel/ (release <version>-swdebug;
                        that release is accepted too); never built here
                        Default: \$SW_VM_KVER, else the series of Debian's
                        default kernel (linux-image-<arch>)
  --suite NAME          suite to run; repeatable or comma-separated
                        (default: every tests/vm/suites/*.sh, smoke first)
  --icount              -icount shift=0: exact, deterministic instruction
                        counts (implies single-threaded TCG; on x86_64 only
                        with --smp 1)
  --smp N               virtual CPUs (default 2)
  --mem M               guest memory, QEMU syntax (default 2G)
  --single-thread       one host thread for all vCPUs (default; safe with
                        kprobes being armed while another vCPU runs)
  --multi-thread        multi-threaded TCG (faster, see README caveats)
  --timeout SEC         host-side limit for the whole boot (default 600)
  --append ARGS         extra kernel command line arguments
  --9p-cache MODE       cache mode of the read-only host root in the guest:
                        loose (default; the host's files must not change
                        during the boot) or none (slower, always current)
  --keep                keep older result directories (default: only the
                        newest run of each architecture is kept)
  --shell               console on this terminal; after the suites (none
                        unless --suite is given) an interactive guest shell;
                        leave it to power off (Ctrl-A X kills QEMU)
  -v, --verbose         copy the guest console to stderr while it runs
  --list                list the suites
  --prepare-only        install/download/build everything, do not boot
  --print-kver          prepare and print the guest kernel release
  --print-kdir          prepare and print the kernel headers directory for
                        module builds for --arch (KDIR=...)
  --print-env           prepare and print SW_KVER, SW_KDIR, SW_KARCH,
                        SW_CROSS_COMPILE, SW_MAKE_ARGS as shell assignments
  --selftest            check the console scanner, the result evaluation
                        and tap.sh on the host (no VM); alias
                        --selftest-scan
  -h, --help            this text

Examples:
  tests/vm/run.sh                                  # all suites, x86_64
  tests/vm/run.sh --suite smoke                    # harness self-check
  tests/vm/run.sh --kernel 6.12-rt --suite smoke   # PREEMPT_RT guest
  tests/vm/run.sh --arch arm64 --kernel 6.12 --print-kdir
  tests/vm/run.sh --arch arm64 --suite smoke --icount
  tests/vm/run.sh --suite stopwatch --multi-thread --timeout 1200
  tests/vm/run.sh --shell                          # poke around in the guest
  make ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- \\
       KDIR="\$(tests/vm/run.sh --arch arm64 --print-kdir)"
  tests/vm/run.sh --selftest

Results of the last run: .cache/vm/runs/<arch>-<release>[-icount]-latest/
(console.log, tap.txt, report.txt, <suite>.log, dmesg.txt, qemu-cmd.txt);
.cache/vm/runs/<arch>-latest points at the newest of an architecture.
EOF
}

log() { printf '[vm] %s\n' "$*" >&2; }
die() {
    printf '[vm] error: %s\n' "$*" >&2
    exit 2
}

# ---------------------------------------------------------------------------
# Architecture table. One function per guest architecture, setting only
# variables; @KVER@ is replaced by the kernel release, @SYSROOT@ by the
# directory the kernel packages live in ("" = this host's /).
#
#   QEMU_PKG QEMU_BIN     Debian package / binary of the emulator
#   QEMU_MACHINE QEMU_CPU machine and CPU arguments
#   CONSOLE               kernel console device
#   DEB_ARCH              Debian architecture of the guest kernel
#   KERNEL_FROM           host: a kernel installed on this host (installed
#                         with apt when missing; several side by side)
#                         debs: Debian packages downloaded and unpacked into
#                         .cache/vm/<arch>-<release>/root (= @SYSROOT@)
#                         (custom: --kernel debug, whatever the table says:
#                         scripts/debug-kernel.sh's root (= @SYSROOT@), the
#                         host's busybox; x86_64 only)
#   KERNEL_IMAGE MODULE_DIR KDIR BUSYBOX   paths below @SYSROOT@
#   SWITCH_ROOT           1: the guest switch_roots into the host root and
#                         runs host binaries; 0: stays in the initramfs with
#                         the host root at /host
#   KARCH CROSS_COMPILE   for building modules (make ARCH=... CROSS_COMPILE=)
#   BOOT_MODULES          what the initramfs needs for the 9p root: these and
#                         everything they depend on in the kernel's
#                         modules.dep (netfs, fscache, ... as that kernel
#                         has them) are loaded, dependencies first; those
#                         built into the kernel are skipped
#   HOST_PKGS             further host packages the harness needs
#   ICOUNT_MAX_SMP        most vCPUs that boot under -icount (0: no limit)
# ---------------------------------------------------------------------------
arch_x86_64() {
    QEMU_PKG=qemu-system-x86
    QEMU_BIN=qemu-system-x86_64
    QEMU_MACHINE="-M pc"
    QEMU_CPU="-cpu max"
    CONSOLE=ttyS0
    DEB_ARCH=amd64
    KERNEL_FROM=host
    KERNEL_IMAGE=@SYSROOT@/boot/vmlinuz-@KVER@
    MODULE_DIR=@SYSROOT@/lib/modules/@KVER@
    KDIR=@SYSROOT@/usr/src/linux-headers-@KVER@
    BUSYBOX=@SYSROOT@/bin/busybox
    SWITCH_ROOT=1
    KARCH=x86
    CROSS_COMPILE=
    BOOT_MODULES="virtio_pci 9pnet_virtio 9p"
    HOST_PKGS="busybox-static cpio"
    ICOUNT_MAX_SMP=1 # under -icount the secondary CPUs never come up
}

arch_arm64() {
    QEMU_PKG=qemu-system-arm
    QEMU_BIN=qemu-system-aarch64
    QEMU_MACHINE="-M virt,gic-version=3"
    QEMU_CPU="-cpu max,pauth-impdef=on" # cheap pointer auth under TCG
    CONSOLE=ttyAMA0
    DEB_ARCH=arm64
    KERNEL_FROM=debs
    KERNEL_IMAGE=@SYSROOT@/boot/vmlinuz-@KVER@
    MODULE_DIR=@SYSROOT@/lib/modules/@KVER@
    KDIR=@SYSROOT@/usr/src/linux-headers-@KVER@
    BUSYBOX=@SYSROOT@/bin/busybox
    SWITCH_ROOT=0
    KARCH=arm64
    CROSS_COMPILE=aarch64-linux-gnu-
    BOOT_MODULES="virtio_mmio virtio_pci 9pnet_virtio 9p"
    HOST_PKGS="cpio kmod"
    ICOUNT_MAX_SMP=0
}

# Console lines that fail a run (fixed strings, case-sensitive).  The
# debug kernel's checks print under BUG:/WARNING: (lockdep's "WARNING:
# possible circular locking dependency", "WARNING: inconsistent lock
# state", "WARNING: suspicious RCU usage"; "BUG: KASAN: ...", "BUG:
# sleeping function called from invalid context", "BUG: using
# smp_processor_id() in preemptible"); BUG_ON() prints "kernel BUG at",
# RCU stalls "detected stall(s)", UBSAN "UBSAN:".
SCAN_PATTERNS=('BUG:' 'WARNING:' 'Oops' 'Call Trace' 'soft lockup'
    'general protection' 'Kernel panic' 'kernel BUG at' 'detected stall'
    'UBSAN:')

# ---------------------------------------------------------------------------
# Host packages
# ---------------------------------------------------------------------------
APT_UPDATED=0
APT_OPTS=(-o DPkg::Lock::Timeout=600 -o APT::Sandbox::User=root -q)

pkg_installed() {
    dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2> /dev/null | grep -q '^ii'
}

apt_update_once() {
    [ "$APT_UPDATED" = 1 ] && return 0
    log "apt-get update"
    DEBIAN_FRONTEND=noninteractive apt-get "${APT_OPTS[@]}" update >&2 ||
        die "apt-get update failed"
    APT_UPDATED=1
}

# ensure_pkgs PKG...: install the packages that are not installed yet.
ensure_pkgs() {
    local p missing=()
    for p in "$@"; do
        pkg_installed "$p" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    [ "$(id -u)" = 0 ] || die "need root to install: ${missing[*]}"
    log "installing ${missing[*]}"
    # the package lists are usually current: update only if that fails
    if [ "$APT_UPDATED" = 0 ] && DEBIAN_FRONTEND=noninteractive apt-get \
        "${APT_OPTS[@]}" install -y --no-install-recommends "${missing[@]}" >&2; then
        return 0
    fi
    apt_update_once
    DEBIAN_FRONTEND=noninteractive apt-get "${APT_OPTS[@]}" install -y \
        --no-install-recommends "${missing[@]}" >&2 ||
        die "apt-get install ${missing[*]} failed"
}

# ---------------------------------------------------------------------------
# Kernel
# ---------------------------------------------------------------------------
subst() {
    local s=${1//@KVER@/$KVER}
    printf '%s' "${s//@SYSROOT@/$SYSROOT}"
}

# The guest kernel is picked by --kernel SPEC (or SW_VM_KVER): a series
# X.Y or X.Y-FLAVOUR (6.1, 6.12, 6.12-rt) resolves to the newest Debian
# linux-image-<release> of that series for DEB_ARCH that apt-cache knows
# with its headers; an exact release (6.12.117+deb12-amd64) is taken as is.
# Without either: the series of Debian's default kernel (the release the
# linux-image-DEB_ARCH meta-package depends on).  Nothing else is ever
# taken instead: a kernel that cannot be had is an error.

# series_regex SERIES: ERE for the linux-image-<release> names of a series
series_regex() {
    local s=$1 flav=
    case $s in *-*) flav=${s#*-}- s=${s%%-*} ;; esac
    printf '^linux-image-%s(\\.[0-9]+)?(-[0-9]+|\\+[a-z0-9]+)-%s%s$' \
        "${s//./\\.}" "$flav" "$DEB_ARCH"
}

is_series() { [[ $1 =~ ^[0-9]+\.[0-9]+(-[a-z0-9]+)?$ ]]; }

# have_kernel_pkgs REL: apt knows linux-image-REL and linux-headers-REL
have_kernel_pkgs() {
    [ -n "$(apt_field "linux-image-$1:$DEB_ARCH" Version)" ] &&
        [ -n "$(apt_field "linux-headers-$1:$DEB_ARCH" Version)" ]
}

# newest_in_series SERIES: newest release of the series apt can provide
newest_in_series() {
    local re n
    re=$(series_regex "$1")
    while IFS= read -r n; do
        n=${n%%:*}
        have_kernel_pkgs "${n#linux-image-}" && { printf '%s\n' "${n#linux-image-}"; return 0; }
    done < <(apt-cache pkgnames "linux-image-${1%%-*}" 2> /dev/null |
        sed 's/:.*//' | grep -E "$re" | sort -u | sort -rV)
    return 1
}

# default_series: X.Y of the release linux-image-DEB_ARCH depends on
default_series() {
    local v
    v=$(apt_dep "linux-image-$DEB_ARCH:$DEB_ARCH" '^linux-image-')
    v=${v#linux-image-}
    [[ $v =~ ^([0-9]+\.[0-9]+) ]] || return 1
    printf '%s\n' "${BASH_REMATCH[1]}"
}

# kernel_ready REL: the kernel can be used without apt (installed on the
# host / unpacked in the cache)
kernel_ready() {
    case $KERNEL_FROM in
    host)
        [ -f "/boot/vmlinuz-$1" ] && [ -f "/lib/modules/$1/modules.dep" ] &&
            [ -f "/usr/src/linux-headers-$1/Makefile" ]
        ;;
    debs) [ -f "$CACHE/$ARCH-$1/complete" ] ;;
    esac
}

# resolve_kernel: sets KVER from KSPEC, or dies.
resolve_kernel() {
    local spec=$KSPEC what
    if [ -n "$spec" ] && ! is_series "$spec"; then
        [[ $spec =~ ^[0-9][A-Za-z0-9.+_~-]*-$DEB_ARCH$ ]] ||
            die "--kernel $spec: not a $DEB_ARCH kernel release (e.g. $(
                [ "$DEB_ARCH" = amd64 ] && echo 6.12.117+deb12-amd64 || echo 6.1.0-56-arm64)) nor a series (6.1, 6.12, 6.12-rt)"
        KVER=$spec
        kernel_ready "$KVER" && return 0
        have_kernel_pkgs "$KVER" && return 0
        apt_update_once
        have_kernel_pkgs "$KVER" ||
            die "kernel $KVER ($DEB_ARCH) is neither installed nor installable: apt has no linux-image-$KVER with linux-headers-$KVER"
        return 0
    fi
    if [ -z "$spec" ]; then
        spec=$(default_series) || {
            apt_update_once
            spec=$(default_series)
        } || die "cannot tell Debian's default $DEB_ARCH kernel (linux-image-$DEB_ARCH); pass --kernel"
    fi
    what="$spec ($DEB_ARCH)"
    KVER=$(newest_in_series "$spec") || {
        apt_update_once
        KVER=$(newest_in_series "$spec")
    } || die "no installable kernel for --kernel $what: apt-cache has no package matching $(series_regex "$spec") with its headers"
    log "kernel $what: $KVER"
}

prepare_kernel_host() {
    SYSROOT=
    resolve_kernel
    if ! kernel_ready "$KVER"; then
        log "installing kernel $KVER (image, modules, headers) on the host"
        ensure_pkgs "linux-image-$KVER" "linux-headers-$KVER"
        kernel_ready "$KVER" ||
            die "kernel $KVER: /boot/vmlinuz-$KVER, /lib/modules/$KVER or /usr/src/linux-headers-$KVER missing after installing it"
    fi
}

apt_field() { # PKG FIELD
    apt-cache show "$1" 2> /dev/null | awk -v f="$2:" '$1 == f { print $2; exit }'
}

apt_dep() { # PKG REGEX: first dependency whose name matches
    apt-cache depends "$1" 2> /dev/null | awk -v re="$2" '
        $1 ~ /^\|?Depends:$/ { n = $2; gsub(/[<>]/, "", n); sub(/:.*/, "", n)
            if (n ~ re) { print n; exit } }'
}

# Download and unpack the guest kernel, headers, kbuild and busybox into
# .cache/vm/<arch>-<release>/root, one directory per release.
prepare_kernel_debs() {
    local dir hostarch v hv kb common deb
    if ! dpkg --print-foreign-architectures | grep -qx "$DEB_ARCH"; then
        [ "$(id -u)" = 0 ] || die "need root to add the $DEB_ARCH architecture"
        log "dpkg --add-architecture $DEB_ARCH"
        dpkg --add-architecture "$DEB_ARCH"
        APT_UPDATED=0
        apt_update_once
    fi
    resolve_kernel
    v=$KVER
    dir=$CACHE/$ARCH-$v
    SYSROOT=$dir/root
    kernel_ready "$v" && return 0
    [ "$(id -u)" = 0 ] || die "need root to download the $DEB_ARCH kernel"
    hv=$(apt_field "linux-headers-$v:$DEB_ARCH" Version)
    kb=$(apt_dep "linux-headers-$v:$DEB_ARCH" '^linux-kbuild-')
    common=$(apt_dep "linux-headers-$v:$DEB_ARCH" '^linux-headers-.*-common')
    [ -n "$hv" ] && [ -n "$kb" ] && [ -n "$common" ] ||
        die "cannot resolve linux-headers-$v:$DEB_ARCH and its kbuild/common packages"
    hostarch=$(dpkg --print-architecture)
    log "downloading the $DEB_ARCH kernel $v ($hv)"
    rm -rf "$dir/debs" "$dir/root.new" "$dir/complete"
    mkdir -p "$dir/debs" "$dir/root.new"
    (cd "$dir/debs" && apt-get "${APT_OPTS[@]}" download \
        "linux-image-$v:$DEB_ARCH" "linux-headers-$v:$DEB_ARCH" "$common" \
        "$kb:$hostarch=$hv" "busybox-static:$DEB_ARCH") >&2 ||
        die "downloading the $DEB_ARCH kernel packages failed"
    for deb in "$dir"/debs/*.deb; do
        dpkg-deb -x "$deb" "$dir/root.new" || die "cannot unpack $deb"
    done
    depmod -b "$dir/root.new" "$v" || die "depmod for $v failed"
    # The headers' Makefile includes the common part by absolute path.
    sed -i "s|^include /usr/src/|include $SYSROOT/usr/src/|" \
        "$dir/root.new/usr/src/linux-headers-$v/Makefile"
    rm -rf "$SYSROOT" "$dir/debs"
    mv "$dir/root.new" "$SYSROOT"
    printf '%s\n' "$v" > "$dir/complete"
}

# is_debug_spec SPEC: the debug kernel of scripts/debug-kernel.sh
is_debug_spec() { [ "$1" = debug ] || [[ $1 == *-swdebug ]]; }

# The debug kernel: built by scripts/debug-kernel.sh (never here: it takes
# long), booted from its cache directory; /lib/modules in the guest is
# that directory's (init.sh binds it over the host's).
prepare_kernel_custom() {
    local dir
    dir=$("$REPO/scripts/debug-kernel.sh" --print-dir) ||
        die "--kernel $KSPEC: no debug kernel built for this source and configuration: run scripts/debug-kernel.sh (or make stress-debug) first"
    dir=$(readlink -f "$dir")
    KVER=$(cat "$dir/release")
    [ "$KSPEC" = debug ] || [ "$KSPEC" = "$KVER" ] ||
        die "--kernel $KSPEC: the debug kernel built is $KVER"
    SYSROOT=$dir/root
    BUSYBOX=/bin/busybox
    ensure_pkgs busybox-static
    # 4-level paging.  QEMU's "-cpu max" has LA57, so this kernel (like
    # Debian's, X86_5LEVEL=y) runs with 5-level paging; then
    # pgtable_l5_enabled() is cpu_feature_enabled(X86_FEATURE_LA57), and
    # identify_cpu() clears boot_cpu_data's capabilities with interrupts
    # on, before the alternatives are patched.  An interrupt in that
    # window (the boot CPU's cpu_detect()) sees a 47-bit address space,
    # and KASAN's addr_has_metadata() takes the 5-level direct map's
    # irq_desc lock for a wild access: "BUG: KASAN: wild-memory-access in
    # do_raw_spin_lock" from handle_edge_irq at 0.003 s, the kernel's
    # own, before any module.  no5lvl keeps LA57 off from the start.
    KERNEL_APPEND=no5lvl
    log "kernel debug: $KVER ($dir)"
}

prepare_kernel() {
    case $KERNEL_FROM in
    host) prepare_kernel_host ;;
    debs) prepare_kernel_debs ;;
    custom) prepare_kernel_custom ;;
    *) die "bad KERNEL_FROM=$KERNEL_FROM" ;;
    esac
    KERNEL_IMAGE=$(subst "$KERNEL_IMAGE")
    MODULE_DIR=$(subst "$MODULE_DIR")
    KDIR=$(subst "$KDIR")
    BUSYBOX=$(subst "$BUSYBOX")
    [ -r "$KERNEL_IMAGE" ] || die "kernel image $KERNEL_IMAGE missing"
    [ -f "$MODULE_DIR/modules.dep" ] || die "$MODULE_DIR/modules.dep missing"
    [ -x "$BUSYBOX" ] || die "busybox $BUSYBOX missing"
}

# ---------------------------------------------------------------------------
# Initramfs
# ---------------------------------------------------------------------------
# mod_key PATH|NAME: sets MK to the module name, '-' spelled '_'.
mod_key() {
    MK=${1##*/}
    MK=${MK%%.ko*}
    MK=${MK//-/_}
}

# Sets MOD_ORDER: paths (relative to MODULE_DIR) of BOOT_MODULES and their
# dependencies, each after what it depends on; built-in ones left out.
resolve_modules() {
    local line path name
    declare -gA MOD_PATH=() MOD_DEPS=() MOD_BUILTIN=() MOD_SEEN=()
    MOD_ORDER=()
    while IFS= read -r line; do
        path=${line%%:*}
        mod_key "$path"
        MOD_PATH[$MK]=$path
        MOD_DEPS[$MK]=${line#*:}
    done < "$MODULE_DIR/modules.dep"
    if [ -f "$MODULE_DIR/modules.builtin" ]; then
        while IFS= read -r line; do
            mod_key "$line"
            MOD_BUILTIN[$MK]=1
        done < "$MODULE_DIR/modules.builtin"
    fi
    for name in $BOOT_MODULES; do
        mod_key "$name"
        visit_module "$MK"
    done
}

visit_module() {
    local name=$1 dep
    [ -n "${MOD_SEEN[$name]:-}" ] && return 0
    MOD_SEEN[$name]=1
    [ -n "${MOD_BUILTIN[$name]:-}" ] && return 0
    [ -n "${MOD_PATH[$name]:-}" ] ||
        die "kernel $KVER: boot module $name neither in modules.dep nor built in"
    for dep in ${MOD_DEPS[$name]}; do
        mod_key "$dep"
        visit_module "$MK"
    done
    MOD_ORDER+=("${MOD_PATH[$name]}")
}

uncompress_module() { # SRC DEST
    case $1 in
    *.ko) cp "$1" "$2" ;;
    *.ko.xz) ensure_pkgs xz-utils && xz -dc "$1" > "$2" ;;
    *.ko.zst) ensure_pkgs zstd && zstd -qdc "$1" > "$2" ;;
    *.ko.gz) gzip -dc "$1" > "$2" ;;
    *) die "unknown module format: $1" ;;
    esac
}

build_initramfs() {
    local dir=$KCACHE st m key
    INITRD=$dir/initramfs.cpio
    resolve_modules
    key=$({
        printf '%s %s\n' "$ARCH" "$KVER"
        sha256sum "$VM_DIR/init.sh" "$BUSYBOX"
        for m in "${MOD_ORDER[@]}"; do
            stat -c '%n %s %Y' "$MODULE_DIR/$m"
        done
    } | sha256sum | cut -d' ' -f1)
    if [ -f "$INITRD" ] && [ "$(cat "$INITRD.key" 2> /dev/null)" = "$key" ]; then
        return 0
    fi
    log "building the $ARCH initramfs (${#MOD_ORDER[@]} modules)"
    st=$dir/initramfs.d
    rm -rf "$st"
    mkdir -p "$st"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,tmp,run,newroot,host,lib/modules/sw}
    install -m 755 "$BUSYBOX" "$st/bin/busybox"
    install -m 755 "$VM_DIR/init.sh" "$st/init"
    for m in "${MOD_ORDER[@]}"; do
        local base
        base=$(basename "$m")
        base=${base%%.ko*}.ko
        uncompress_module "$MODULE_DIR/$m" "$st/lib/modules/sw/$base" ||
            die "cannot copy module $m"
        printf '%s\n' "$base" >> "$st/lib/modules/sw/load.list"
    done
    mknod -m 600 "$st/dev/console" c 5 1 2> /dev/null || true
    mknod -m 666 "$st/dev/null" c 1 3 2> /dev/null || true
    (cd "$st" && find . -print0 | LC_ALL=C sort -z |
        cpio --null -o -H newc -R 0:0 --quiet) > "$INITRD.tmp" ||
        die "cpio failed"
    mv "$INITRD.tmp" "$INITRD"
    printf '%s\n' "$key" > "$INITRD.key"
}

# ---------------------------------------------------------------------------
# Suites: tests/vm/suites/NAME.sh (guest), optional NAME.deps (Debian
# packages for the host, "ARCH: pkg" lines for one architecture only) and
# NAME.prepare (bash, run on the host before the boot, e.g. to build).
# ---------------------------------------------------------------------------
# smoke first; lockdown last (kernel lockdown cannot be lowered in a boot).
all_suites() {
    local f n
    [ -f "$VM_DIR/suites/smoke.sh" ] && echo smoke
    for f in "$VM_DIR"/suites/*.sh; do
        [ -f "$f" ] || continue
        n=$(basename "$f" .sh)
        [ "$n" = smoke ] || [ "$n" = lockdown ] || echo "$n"
    done
    [ -f "$VM_DIR/suites/lockdown.sh" ] && echo lockdown
}

suite_deps() {
    local f=$VM_DIR/suites/$1.deps line
    [ -f "$f" ] || return 0
    while IFS= read -r line || [ -n "$line" ]; do
        line=${line%%#*}
        case $line in
        *:*)
            [ "${line%%:*}" = "$ARCH" ] || continue
            line=${line#*:}
            ;;
        esac
        for line in $line; do
            printf '%s\n' "$line"
        done
    done < "$f"
}

make_env() {
    SW_MAKE_ARGS="KDIR=$KDIR"
    [ "$ARCH" = "$(host_arch_name)" ] ||
        SW_MAKE_ARGS="ARCH=$KARCH CROSS_COMPILE=$CROSS_COMPILE KDIR=$KDIR"
}

host_arch_name() {
    case $(uname -m) in
    aarch64) echo arm64 ;;
    *) uname -m ;;
    esac
}

# ---------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------
# scan_log FILE: print "LINE: text" for each line matching SCAN_PATTERNS.
scan_log() {
    local args=() p
    for p in "${SCAN_PATTERNS[@]}"; do
        args+=(-e "$p")
    done
    [ -f "$1" ] || return 1
    tr -d '\r' < "$1" | grep -a -n -F "${args[@]}"
}

out() { # a line of the host's TAP: stdout and report.txt
    printf '%s\n' "$1"
    [ -n "${REPORT:-}" ] && printf '%s\n' "$1" >> "$REPORT"
    return 0
}

# Print guest TAP lines from $RUN/tap.txt not printed yet (complete lines).
TAP_PRINTED=0
stream_tap() {
    local f=$RUN/tap.txt line n=0
    [ -f "$f" ] || return 0
    while IFS= read -r line; do
        n=$((n + 1))
        [ "$n" -le "$TAP_PRINTED" ] && continue
        case $line in
        1..[0-9]*) ;;
        *) out "$line" ;;
        esac
        TAP_PRINTED=$n
    done < "$f"
}

# report: rest of the guest TAP, the host's own checks, plan and summary.
# Uses RUN, TIMED_OUT, QEMU_RC, HOST_FAILS (descriptions), BOOT_INFO.
# Returns 0 if everything passed.
report() {
    local pass fail skip n matches src desc
    stream_tap
    read -r pass fail skip < <(awk '
        /^ok / { if ($0 ~ /#[ \t]*[Ss][Kk][Ii][Pp]/) s++; else p++ }
        /^not ok / { f++ }
        END { print p + 0, f + 0, s + 0 }' "$RUN/tap.txt" 2> /dev/null || echo 0 0 0)
    n=$((pass + fail + skip))
    host_result() { # pass|fail DESC
        n=$((n + 1))
        if [ "$1" = pass ]; then
            pass=$((pass + 1))
            out "ok $n - host: $2"
        else
            fail=$((fail + 1))
            out "not ok $n - host: $2"
        fi
    }
    for desc in "${HOST_FAILS[@]}"; do
        host_result fail "$desc"
    done
    if [ "${TIMED_OUT:-0}" = 1 ]; then
        host_result fail "guest finished within ${TIMEOUT}s (timed out; killed QEMU)"
    elif [ ! -f "$RUN/done" ]; then
        host_result fail "guest finished and reported (no done marker; QEMU exit ${QEMU_RC:-?}: crash or early power off)"
    else
        host_result pass "guest finished and reported"
    fi
    if [ ! -f "$RUN/done" ] && [ -f "$RUN/console.log" ]; then
        out "# last console lines:"
        tr -d '\r' < "$RUN/console.log" | tail -n 25 | sed 's/^/#   /' |
            while IFS= read -r line; do out "$line"; done
    fi
    matches= src=
    for src in console.log dmesg.txt; do
        matches=$(scan_log "$RUN/$src" || true)
        [ -n "$matches" ] && break
    done
    if [ -n "$matches" ]; then
        host_result fail "kernel log free of BUG/WARNING/Oops/Call Trace/lockup/GPF/panic ($src)"
        printf '%s\n' "$matches" | head -n 40 | while IFS= read -r line; do
            out "#   $src:$line"
        done
    else
        host_result pass "kernel log free of BUG/WARNING/Oops/Call Trace/lockup/GPF/panic"
    fi
    [ -n "${BOOT_INFO:-}" ] && out "# $BOOT_INFO"
    out "1..$n"
    out "$pass passed, $fail failed, $skip skipped"
    [ "$fail" -eq 0 ]
}

# ---------------------------------------------------------------------------
# Boot
# ---------------------------------------------------------------------------
now_ms() { date +%s%3N; }
secs() { awk -v ms="$1" 'BEGIN { printf "%.1f", ms / 1000 }'; }

QPID= TAILPID=
cleanup() {
    [ -n "$TAILPID" ] && kill "$TAILPID" 2> /dev/null
    if [ -n "$QPID" ] && kill -0 "$QPID" 2> /dev/null; then
        kill -TERM "$QPID" 2> /dev/null
        sleep 1
        kill -KILL "$QPID" 2> /dev/null
    fi
    return 0
}

boot() {
    local cmdline console_tmp t0 t_boot='' elapsed i
    local -a q
    mkdir -p "$CACHE/runs"
    local tag=$ARCH-$KVER
    [ "$ICOUNT" = 1 ] && tag+=-icount
    RUN=$CACHE/runs/$tag-$(date +%Y%m%d-%H%M%S)-$$
    mkdir -p "$RUN"
    REPORT=$RUN/report.txt
    : > "$REPORT"
    ln -sfn "$(basename "$RUN")" "$CACHE/runs/$tag-latest"
    ln -sfn "$(basename "$RUN")" "$CACHE/runs/$ARCH-latest"
    if [ "$KEEP" != 1 ]; then
        # older runs of this arch, kernel and mode, unless their run.sh
        # (-PID suffix) still runs
        for i in "$CACHE/runs/$tag"-*; do
            [[ ${i#"$CACHE/runs/$tag"-} =~ ^[0-9]{8}-[0-9]{6}-[0-9]+$ ]] || continue
            [ -d "$i" ] && [ ! -L "$i" ] && [ "$i" != "$RUN" ] || continue
            kill -0 "${i##*-}" 2> /dev/null && continue
            rm -rf "$i" "$CACHE/runs/.${i##*/}.console"
        done
        for i in "$CACHE/runs/.$tag"-*.console; do
            [ -f "$i" ] || continue
            i=${i%.console}
            [[ ${i#"$CACHE/runs/.$tag"-} =~ ^[0-9]{8}-[0-9]{6}-[0-9]+$ ]] || continue
            kill -0 "${i##*-}" 2> /dev/null || rm -f "$i.console"
        done
    fi
    console_tmp=$CACHE/runs/.$(basename "$RUN").console

    cmdline="console=$CONSOLE panic=-1 sw_repo=$REPO sw_arch=$ARCH"
    cmdline+=" sw_suites=$(IFS=,; echo "${SUITES[*]}") sw_switch=$SWITCH_ROOT"
    cmdline+=" sw_shell=$SHELL_MODE sw_9pcache=$NINEP_CACHE"
    # Expedited RCU grace periods: every synchronize_rcu() (a kprobe's or
    # a module's removal, the module's own removal paths) ends by IPIs
    # instead of waiting for each vCPU's quiescent state, which TCG's one
    # thread running both vCPUs in turn makes slow.  RCU guarantees the
    # same; PREEMPT_RT kernels turn it off after boot (their default
    # rcu_normal_after_boot), so the RT boot keeps normal grace periods.
    # --append rcupdate.rcu_expedited=0 for normal ones everywhere.
    cmdline+=" rcupdate.rcu_expedited=1"
    [ "$SWITCH_ROOT" = 1 ] && [ "$KERNEL_FROM" != custom ] ||
        cmdline+=" sw_moddir=$SYSROOT/lib/modules"
    # Suites may need to know: some QEMU behaviour differs under -icount.
    [ "$ICOUNT" = 1 ] && cmdline+=" sw_icount=1"
    [ -n "$KERNEL_APPEND" ] && cmdline+=" $KERNEL_APPEND"
    [ -n "$APPEND" ] && cmdline+=" $APPEND"

    # shellcheck disable=SC2206
    q=("$QEMU_BIN" $QEMU_MACHINE $QEMU_CPU -accel "tcg,thread=$THREAD"
        -smp "$SMP" -m "$MEM" -nodefaults -no-user-config -display none
        -no-reboot -kernel "$KERNEL_IMAGE" -initrd "$INITRD" -append "$cmdline"
        -virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap"
        -virtfs "local,path=$RUN,mount_tag=results,security_model=none")
    [ "$ICOUNT" = 1 ] && q+=(-icount shift=0)
    if [ "$SHELL_MODE" = 1 ]; then
        q+=(-chardev "stdio,id=con0,mux=on,signal=off,logfile=$console_tmp"
            -serial chardev:con0 -mon chardev=con0,mode=readline)
    else
        q+=(-serial "file:$console_tmp")
    fi
    printf '%q ' "${q[@]}" > "$RUN/qemu-cmd.txt"
    echo >> "$RUN/qemu-cmd.txt"

    log "booting $ARCH $KVER (tcg thread=$THREAD, smp $SMP, mem $MEM$([ "$ICOUNT" = 1 ] && echo ", icount")), suites: ${SUITES[*]}"
    log "results: $RUN"
    t0=$(now_ms)
    TIMED_OUT=0
    if [ "$SHELL_MODE" = 1 ]; then
        log "console on this terminal; Ctrl-A X quits QEMU"
        set +e
        if [ "$TIMEOUT_SET" = 1 ]; then
            timeout -k 5 "$TIMEOUT" "${q[@]}" 2> "$RUN/qemu.log"
        else
            "${q[@]}" 2> "$RUN/qemu.log"
        fi
        QEMU_RC=$?
        set -e
        [ "$QEMU_RC" = 124 ] && TIMED_OUT=1
    else
        : > "$console_tmp"
        "${q[@]}" < /dev/null > "$RUN/qemu.log" 2>&1 &
        QPID=$!
        if [ "$VERBOSE" = 1 ]; then
            tail -n +1 -f "$console_tmp" >&2 &
            TAILPID=$!
        fi
        while kill -0 "$QPID" 2> /dev/null; do
            elapsed=$(($(now_ms) - t0))
            if [ -z "$t_boot" ] && [ -s "$RUN/booted" ]; then
                t_boot=$elapsed
                log "guest userspace up after $(secs "$t_boot")s"
            fi
            stream_tap
            if [ "$elapsed" -ge $((TIMEOUT * 1000)) ]; then
                log "timeout after ${TIMEOUT}s: killing QEMU"
                TIMED_OUT=1
                kill -TERM "$QPID" 2> /dev/null || true
                for i in 1 2 3 4 5 6 7 8 9 10; do
                    kill -0 "$QPID" 2> /dev/null || break
                    sleep 0.5
                done
                kill -KILL "$QPID" 2> /dev/null || true
                break
            fi
            sleep 0.25
        done
        set +e
        wait "$QPID"
        QEMU_RC=$?
        set -e
        QPID=
        if [ -n "$TAILPID" ]; then
            sleep 0.3
            kill "$TAILPID" 2> /dev/null || true
            wait "$TAILPID" 2> /dev/null || true
            TAILPID=
        fi
    fi
    elapsed=$(($(now_ms) - t0))
    mv "$console_tmp" "$RUN/console.log" 2> /dev/null || true
    if [ -n "$t_boot" ]; then
        BOOT_INFO="timing: userspace up after $(secs "$t_boot")s (guest uptime $(cat "$RUN/booted")s), total $(secs "$elapsed")s, $ARCH $KVER tcg thread=$THREAD"
    else
        BOOT_INFO="timing: total $(secs "$elapsed")s, $ARCH $KVER tcg thread=$THREAD"
    fi
    [ "$ICOUNT" = 1 ] && BOOT_INFO+=" icount"
    log "qemu exited with status $QEMU_RC after $(secs "$elapsed")s"
    times_table
    if [ -s "$RUN/qemu.log" ]; then
        sed 's/^/[vm] qemu: /' "$RUN/qemu.log" | head -n 20 >&2
    fi
}

# times.txt: the seconds each guest test took (since the result before
# it), the slowest first, from the guest's times.raw ("UPTIME N" a line).
times_table() {
    [ -s "$RUN/times.raw" ] || return 0
    awk 'FNR == NR {
            if (match($0, /^(not )?ok [0-9]+ - /)) {
                split($0, w, " ")
                n = ($1 == "not") ? w[3] : w[2]
                d[n] = substr($0, RLENGTH + 1)
            }
            next
        }
        { if (prev != "") printf "%.2f %s %s\n", $1 - prev, $2, d[$2]; prev = $1 }' \
        "$RUN/tap.txt" "$RUN/times.raw" | sort -rn > "$RUN/times.txt" || true
}

# ---------------------------------------------------------------------------
# Self-test (no VM)
# ---------------------------------------------------------------------------
selftest() {
    local tmp n=0 pass=0 fail=0 o rc sh_name sh_cmd
    tmp=$(mktemp -d)
    # shellcheck disable=SC2064
    trap "rm -rf '$tmp'" EXIT
    t() { # DESC CMD...
        local d=$1
        shift
        n=$((n + 1))
        if "$@"; then
            pass=$((pass + 1))
            echo "ok $n - $d"
        else
            fail=$((fail + 1))
            echo "not ok $n - $d"
        fi
    }
    # fake console logs
    {
        printf '[    0.000000] Linux version 6.1.0 (debian-kernel@lists.debian.org)\r\n'
        printf '[    0.5] Warning: unable to open an initial console.\r\n'
        printf '[    1.0] rcu: Hierarchical SRCU implementation.\r\n'
        printf 'sw-guest: suite smoke: end (status 0)\r\n'
    } > "$tmp/clean.log"
    cp "$tmp/clean.log" "$tmp/warn.log"
    printf '[   12.345678] WARNING: CPU: 1 PID: 42 at kernel/kprobes.c:1 f+0x1/0x2\r\n' \
        >> "$tmp/warn.log"
    printf '[   12.4] more\r\n' >> "$tmp/warn.log"
    t "scanner: clean console has no match" eval '! scan_log "$tmp/clean.log" > /dev/null'
    o=$(scan_log "$tmp/warn.log" || true)
    t "scanner: WARNING: line caught with its line number" \
        eval '[ "$o" = "5:[   12.345678] WARNING: CPU: 1 PID: 42 at kernel/kprobes.c:1 f+0x1/0x2" ]'
    local p
    for p in 'BUG: KASAN: slab-out-of-bounds in sw_fn+0x1/0x2 [stopwatch]' \
        'WARNING: possible circular locking dependency detected' \
        'WARNING: inconsistent lock state' 'WARNING: suspicious RCU usage' \
        'BUG: sleeping function called from invalid context at mm/slab.h:1' \
        'BUG: using smp_processor_id() in preemptible [00000000] code: sh/1' \
        'kernel BUG at mm/slub.c:1!' \
        'rcu: INFO: rcu_preempt self-detected stall on CPU' \
        'rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:'; do
        { cat "$tmp/clean.log"; printf '[ 3.0] %s\n' "$p"; } > "$tmp/p.log"
        t "scanner: debug kernel's '$p' caught" eval 'scan_log "$tmp/p.log" > /dev/null'
    done
    for p in "${SCAN_PATTERNS[@]}"; do
        { cat "$tmp/clean.log"; printf '[ 3.0] xx %s yy\n' "$p"; } > "$tmp/p.log"
        t "scanner: '$p' caught" eval 'scan_log "$tmp/p.log" > /dev/null'
    done

    # report(): fake runs
    fake_run() { # NAME CONSOLE DONE(0/1)
        mkdir -p "$tmp/$1"
        printf 'ok 1 - smoke: a\n# diag\nok 2 - smoke: b # SKIP no\nok 3 - smoke: c\n' \
            > "$tmp/$1/tap.txt"
        cp "$2" "$tmp/$1/console.log"
        [ "$3" = 1 ] && echo 1.0 > "$tmp/$1/done"
        return 0
    }
    run_report() { # NAME -> prints report, sets rc
        (RUN=$tmp/$1 REPORT= TIMED_OUT=0 QEMU_RC=0 HOST_FAILS=() TAP_PRINTED=0 \
            BOOT_INFO= TIMEOUT=1
        report)
    }
    fake_run clean "$tmp/clean.log" 1
    o=$(run_report clean) && rc=0 || rc=$?
    t "report: clean run exits 0" [ "$rc" = 0 ]
    t "report: clean run summary" [ "$(tail -n 1 <<< "$o")" = "4 passed, 0 failed, 1 skipped" ]
    fake_run warn "$tmp/warn.log" 1
    o=$(run_report warn) && rc=0 || rc=$?
    t "report: WARNING in console fails the run" [ "$rc" != 0 ]
    t "report: WARNING run summary counts it" \
        [ "$(tail -n 1 <<< "$o")" = "3 passed, 1 failed, 1 skipped" ]
    t "report: names the console line" grep -q '^#   console.log:5:.*WARNING: CPU: 1' <<< "$o"
    fake_run nodone "$tmp/clean.log" 0
    o=$(run_report nodone) && rc=0 || rc=$?
    t "report: missing done marker fails the run" [ "$rc" != 0 ]
    t "report: missing done marker summary" \
        [ "$(tail -n 1 <<< "$o")" = "3 passed, 1 failed, 1 skipped" ]

    # tap.sh under the shells at hand
    cat > "$tmp/s1.sh" <<'EOF'
ok "first"
not_ok "second # hash"
skip "no reason"
check "true passes" true
check "false fails" sh -c 'echo some output; exit 3'
is "strings equal" abc abc
is "strings differ" abc abd
cmp_ge "3 >= 2" 3 2
cmp_le "3 <= 2" 3 2
cmp_ge "1.5 >= 1.25" 1.5 1.25
cmp_lt "big ints" 123456789012 123456789013
cmp_eq "not a number" x 1
EOF
    printf 'ok "from the second process"\nskip_all "rest skipped"\nnot_ok "never"\n' \
        > "$tmp/s2.sh"
    cat > "$tmp/expected" <<'EOF'
ok 1 - s1: first
not ok 2 - s1: second \# hash
ok 3 - s1: skipped # SKIP no reason
ok 4 - s1: true passes
not ok 5 - s1: false fails
#   command: sh -c echo some output; exit 3
#   exit status: 3
#   output (last 20 lines):
#     some output
ok 6 - s1: strings equal
not ok 7 - s1: strings differ
#        got: 'abc'
#   expected: 'abd'
ok 8 - s1: 3 >= 2
not ok 9 - s1: 3 <= 2
#   expected 3 <= 2
ok 10 - s1: 1.5 >= 1.25
ok 11 - s1: big ints
not ok 12 - s1: not a number
#   not numbers: 'x' eq '1'
ok 13 - s2: from the second process
ok 14 - s2: all tests # SKIP rest skipped
# guest totals: 14 tests, pass=7 fail=5 skip=2
EOF
    for sh_name in dash bash busybox; do
        case $sh_name in
        busybox) sh_cmd="busybox sh" ;;
        *) sh_cmd=$sh_name ;;
        esac
        command -v "$sh_name" > /dev/null || continue
        rm -f "$tmp/tap.txt" "$tmp/state" "$tmp/times.raw"
        (
            export SW_TAP_FILE=$tmp/tap.txt SW_TAP_STATE=$tmp/state
            export SW_TAP_TIMES=$tmp/times.raw
            $sh_cmd -c '. "$1"; tap_init' x "$VM_DIR/tap.sh"
            for s in s1 s2; do
                SW_SUITE=$s $sh_cmd -c '. "$1"; . "$2"' x "$VM_DIR/tap.sh" \
                    "$tmp/$s.sh" > /dev/null 2>&1 || true
            done
            $sh_cmd -c '. "$1"; tap_summary' x "$VM_DIR/tap.sh" > /dev/null
        )
        t "tap.sh under $sh_name gives the expected TAP" \
            diff -u "$tmp/expected" "$tmp/tap.txt"
        RUN=$tmp times_table
        t "tap.sh under $sh_name: times.txt has the 13 tests after the first" \
            sh -c '[ "$(wc -l < "$1")" = 13 ] && grep -q "^[0-9.]* 5 s1: false fails$" "$1"' x \
            "$tmp/times.txt"
    done
    echo "1..$n"
    echo "$pass passed, $fail failed, 0 skipped"
    [ "$fail" -eq 0 ]
}

# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------
ARCH=x86_64 SUITES=() ICOUNT=0 SMP=2 MEM=2G THREAD=single TIMEOUT=600
TIMEOUT_SET=0 KEEP=0 SHELL_MODE=0 VERBOSE=0 APPEND='' KERNEL_APPEND='' ACTION=run
NINEP_CACHE=loose KSPEC=${SW_VM_KVER:-}
HOST_FAILS=()

while [ $# -gt 0 ]; do
    case $1 in
    --arch) ARCH=${2:?--arch needs a value}; shift ;;
    --arch=*) ARCH=${1#*=} ;;
    --kernel) KSPEC=${2:?--kernel needs a value}; shift ;;
    --kernel=*) KSPEC=${1#*=} ;;
    --suite) SUITES+=(${2//,/ }); shift ;;
    --suite=*) v=${1#*=}; SUITES+=(${v//,/ }) ;;
    --icount) ICOUNT=1 ;;
    --smp) SMP=${2:?}; shift ;;
    --mem) MEM=${2:?}; shift ;;
    --single-thread) THREAD=single ;;
    --multi-thread) THREAD=multi ;;
    --timeout) TIMEOUT=${2:?}; TIMEOUT_SET=1; shift ;;
    --append) APPEND=${2?}; shift ;;
    --9p-cache) NINEP_CACHE=${2:?}; shift ;;
    --keep) KEEP=1 ;;
    --shell) SHELL_MODE=1 ;;
    -v | --verbose) VERBOSE=1 ;;
    --list) ACTION=list ;;
    --prepare-only) ACTION=prepare ;;
    --print-kver) ACTION=kver ;;
    --print-kdir) ACTION=kdir ;;
    --print-env) ACTION=env ;;
    --selftest | --selftest-scan) ACTION=selftest ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument: $1" ;;
    esac
    shift
done

case $ARCH in
x86_64 | amd64 | x86) ARCH=x86_64 ;;
arm64 | aarch64) ARCH=arm64 ;;
*) die "unsupported --arch $ARCH (x86_64, arm64)" ;;
esac
"arch_$ARCH"
if is_debug_spec "${KSPEC:-}"; then
    [ "$ARCH" = x86_64 ] || die "--kernel $KSPEC: the debug kernel is x86_64 only"
    KERNEL_FROM=custom
fi

case $ACTION in
selftest) selftest; exit ;;
list) all_suites; exit 0 ;;
esac

[[ $SMP =~ ^[0-9]+$ ]] && [ "$SMP" -ge 1 ] || die "bad --smp $SMP"
[[ $TIMEOUT =~ ^[0-9]+$ ]] && [ "$TIMEOUT" -ge 1 ] || die "bad --timeout $TIMEOUT"
[[ $NINEP_CACHE =~ ^(loose|none|mmap)$ ]] || die "bad --9p-cache $NINEP_CACHE"
[ "$ICOUNT" = 1 ] && [ "$THREAD" = multi ] && die "--icount needs single-threaded TCG"
if [ "$ICOUNT" = 1 ] && [ "$ICOUNT_MAX_SMP" -gt 0 ] && [ "$SMP" -gt "$ICOUNT_MAX_SMP" ]; then
    die "$ARCH guests do not boot more than $ICOUNT_MAX_SMP vCPU(s) under --icount: add --smp $ICOUNT_MAX_SMP"
fi
[[ $REPO =~ ^[A-Za-z0-9/._+-]+$ ]] ||
    die "repository path '$REPO' has characters the kernel command line cannot carry"
[ "$(uname -m)" = x86_64 ] || die "the harness runs on x86_64 Debian hosts"
command -v dpkg-query > /dev/null || die "the harness needs a Debian host (dpkg/apt)"

if [ ${#SUITES[@]} -eq 0 ] && [ "$SHELL_MODE" = 0 ]; then
    mapfile -t SUITES < <(all_suites)
fi
for s in "${SUITES[@]}"; do
    [[ $s =~ ^[A-Za-z0-9_.-]+$ ]] || die "bad suite name '$s'"
    [ -f "$VM_DIR/suites/$s.sh" ] || die "no suite $s (tests/vm/suites/$s.sh); see --list"
done
# lockdown last, whatever order the list gives: the lockdown it raises
# cannot be lowered in a boot, and every later suite would be refused.
if [[ " ${SUITES[*]} " == *" lockdown "* ]]; then
    RUN_SUITES=()
    for s in "${SUITES[@]}"; do [ "$s" = lockdown ] || RUN_SUITES+=("$s"); done
    SUITES=("${RUN_SUITES[@]}" lockdown)
fi

mkdir -p "$CACHE/$ARCH"
exec 9> "$CACHE/$ARCH/lock"
flock 9

# shellcheck disable=SC2086
ensure_pkgs "$QEMU_PKG" $HOST_PKGS
prepare_kernel
KCACHE=$CACHE/$ARCH-$KVER
mkdir -p "$KCACHE"
make_env
case $ACTION in
kver) echo "$KVER"; exit 0 ;;
kdir | env)
    [ -n "$CROSS_COMPILE" ] && ensure_pkgs "gcc-${CROSS_COMPILE%-}" make
    [ -f "$KDIR/Makefile" ] || die "no headers at $KDIR"
    if [ "$ACTION" = kdir ]; then
        echo "$KDIR"
    else
        printf 'SW_KVER=%q\nSW_KDIR=%q\nSW_KARCH=%q\nSW_CROSS_COMPILE=%q\nSW_MAKE_ARGS=%q\n' \
            "$KVER" "$KDIR" "$KARCH" "$CROSS_COMPILE" "$SW_MAKE_ARGS"
    fi
    exit 0
    ;;
esac

deps=()
for s in "${SUITES[@]}"; do
    mapfile -t -O ${#deps[@]} deps < <(suite_deps "$s")
done
[ -n "$CROSS_COMPILE" ] && deps+=("gcc-${CROSS_COMPILE%-}" make)
[ ${#deps[@]} -gt 0 ] && ensure_pkgs "${deps[@]}"
build_initramfs
flock -u 9

[ "$ACTION" = prepare ] && {
    log "prepared: kernel $KVER, initramfs $INITRD, KDIR $KDIR"
    exit 0
}

trap cleanup EXIT
trap 'exit 130' INT TERM

# Host-side preparation hooks; a failing one drops its suite.  They share
# a directory for this boot (tests/vm/prepare.sh's once): what one built,
# the next does not build again.
RUN_SUITES=()
prep_logs=()
PREP_DONE=$(mktemp -d "$KCACHE/prepare-done.XXXXXX")
for s in "${SUITES[@]}"; do
    f=$VM_DIR/suites/$s.prepare
    if [ -f "$f" ]; then
        log "prepare $s"
        if ! (cd "$REPO" && SW_ARCH=$ARCH SW_REPO=$REPO SW_KVER=$KVER SW_KDIR=$KDIR \
            SW_KARCH=$KARCH SW_CROSS_COMPILE=$CROSS_COMPILE SW_MAKE_ARGS=$SW_MAKE_ARGS \
            SW_CACHE=$CACHE SW_PREPARE_DONE=$PREP_DONE bash "$f") > "$KCACHE/prepare-$s.log" 2>&1; then
            HOST_FAILS+=("prepare $s (suite not run; see prepare-$s.log)")
            tail -n 20 "$KCACHE/prepare-$s.log" | sed 's/^/[vm] prepare: /' >&2
            prep_logs+=("prepare-$s.log")
            continue
        fi
        prep_logs+=("prepare-$s.log")
    fi
    RUN_SUITES+=("$s")
done
rm -rf "$PREP_DONE"
SUITES=("${RUN_SUITES[@]}")

boot
for l in "${prep_logs[@]}"; do
    cp "$KCACHE/$l" "$RUN/" 2> /dev/null || true
done
if report; then
    exit 0
fi
exit 1
