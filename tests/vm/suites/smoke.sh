# tests/vm/suites/smoke.sh - self-test of the VM harness itself.
# Sourced by guest-run.sh with tap.sh loaded; CWD is $SW_REPO.

is "booted the requested kernel" "$(uname -r)" "$SW_KVER"
check "/proc/version names the kernel" grep -q -F "$SW_KVER" /proc/version
check "debugfs is mounted" grep -q ' /sys/kernel/debug debugfs ' /proc/mounts
check "tracefs is mounted" grep -q ' /sys/kernel/tracing tracefs ' /proc/mounts
cmp_ge "at least 2 CPUs online" "$(grep -c '^processor' /proc/cpuinfo)" 2
check "running from the repository top" test -f "$PWD/tests/vm/tap.sh"

probe="$SW_RESULTS/smoke-probe.$$"
echo "smoke $SW_ARCH" > "$probe"
is "results share is writable" "$(cat "$probe" 2> /dev/null)" "smoke $SW_ARCH"
rm -f "$probe"

probe=$(mktemp /tmp/smoke.XXXXXX) && echo x > "$probe"
check "/tmp is writable" test -s "$probe"
rm -f "$probe"

case $SW_ARCH in
x86_64) is "machine type" "$(uname -m)" x86_64 ;;
arm64) is "machine type" "$(uname -m)" aarch64 ;;
*) not_ok "known SW_ARCH ($SW_ARCH)" ;;
esac
