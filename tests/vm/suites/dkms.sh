# SPDX-License-Identifier: GPL-2.0
# tests/vm/suites/dkms.sh - the module built and installed through DKMS on
# the host (dkms.conf, make dkms-install; scripts/test.sh does it for every
# x86_64 kernel of the matrix) loads in the guest running that kernel.
# x86_64 only (the guest runs on the host root, where dkms installed it);
# skipped, with the reason, when there is no DKMS build for the kernel.

. "$SW_REPO/tests/vm/tap.sh"
. "$SW_REPO/tests/vm/lib.sh"

[ "$SW_ARCH" = x86_64 ] ||
	skip_all "DKMS builds are for the host's x86_64 kernels; the $SW_ARCH guest has none"

KO=
for f in /lib/modules/"$SW_KVER"/updates/dkms/stopwatch.ko* \
	/lib/modules/"$SW_KVER"/extra/stopwatch.ko*; do
	[ -f "$f" ] && { KO=$f; break; }
done
[ -n "$KO" ] ||
	skip_all "no DKMS build of stopwatch for $SW_KVER (on the host: make dkms-install DKMS_KERNEL=$SW_KVER)"
diag "DKMS module: $KO"
VER=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$SW_REPO/dkms.conf")

unload
is "DKMS module's vermagic is the running kernel" \
	"$(modinfo -F vermagic "$KO" | cut -d' ' -f1)" "$SW_KVER"
is "DKMS module's version is dkms.conf's" "$(modinfo -F version "$KO")" "$VER"
if check "insmod the DKMS-built module" insmod "$KO"; then
	is "debugfs version names it" "$(head -n 1 "$D/version" 2>/dev/null)" "stopwatch $VER"
	check "it times a probe" sh -c "echo +vfs_read > $D/probes && cat /proc/version > /dev/null && grep -q '^vfs_read ' $D/stats"
	check "rmmod stopwatch" rmmod stopwatch
else
	skip "not loaded"
fi
check "modprobe finds it (dkms ran depmod)" modprobe stopwatch
# The trampolines' companion: installed beside it (this boot loaded the
# build directory's at start, and it is never unloaded).
if grep -qs '^CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS=y' "/boot/config-$SW_KVER"; then
	is "modprobe finds stopwatch_tramp in DKMS's directory" \
		"$(modinfo -n stopwatch_tramp 2>/dev/null | sed 's|.*/updates/dkms/|updates/dkms/|; s|\.ko.*|.ko|')" \
		updates/dkms/stopwatch_tramp.ko
else
	skip "no ftrace direct calls in $SW_KVER: no stopwatch_tramp"
fi
unload
