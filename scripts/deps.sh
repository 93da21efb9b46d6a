#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# scripts/deps.sh - install the Debian packages stopwatch needs to build and
# test, skipping those already installed.  Needs root (or sudo) and apt.
#
# usage: scripts/deps.sh [build|test|all]   (default: all)
#   build  compiler, kernel headers, host test framework
#   test   build + what the VM suites and peers need (QEMU, busybox, kernel
#          image, cross compiler, perf, bpftrace, bcc and its libbpf-tools,
#          python3, dkms; protoc, Chromium and speedscope for the timeline
#          exports' checks;
#          the 6.12 and 6.12-rt kernels come from tests/vm/run.sh --kernel)
set -eu

want=${1:-all}
pkgs="build-essential make gcc libcmocka-dev linux-headers-amd64 kmod pkg-config"
pkgs="$pkgs libelf-dev libdw-dev zlib1g-dev libprotobuf-c-dev protobuf-c-compiler libbpf-dev"
# stopwatch serve's HTTP
pkgs="$pkgs libmicrohttpd-dev"
# vendor event names (stopwatch events list/resolve); C++ and Rust names
pkgs="$pkgs libpfm4-dev libiberty-dev"
# pahole: 6.12's module build makes BTF for the module and stops without it
pkgs="$pkgs dwarves"
case $want in
build) ;;
test|all)
	pkgs="$pkgs linux-image-amd64 busybox-static qemu-system-x86 qemu-system-arm"
	pkgs="$pkgs cpio xz-utils zstd gcc-aarch64-linux-gnu libc6-dev-arm64-cross"
	pkgs="$pkgs python3 linux-perf bpftrace bpfcc-tools libbpf-tools golang-go dkms"
	# serve's tests: a client, and an OpenMetrics parser
	pkgs="$pkgs curl python3-prometheus-client"
	# script --perfetto/--chrome's checks: protoc decodes the Perfetto
	# trace, speedscope (npm, below) shows the Chrome one in Chromium
	pkgs="$pkgs protobuf-compiler chromium"
	# (a machine with its own node, e.g. NodeSource's, keeps it)
	command -v npm >/dev/null 2>&1 || pkgs="$pkgs nodejs npm"
	# the stopwatch program for the arm64 guest: static, from multiarch libraries
	pkgs="$pkgs libelf-dev:arm64 libdw-dev:arm64 zlib1g-dev:arm64 libprotobuf-c-dev:arm64 libbpf-dev:arm64"
	pkgs="$pkgs libpfm4-dev:arm64 libiberty-dev:arm64"
	# serve, in a dynamic arm64 build (the static one goes without: SERVE=0)
	pkgs="$pkgs libmicrohttpd-dev:arm64"
	pkgs="$pkgs liblzma-dev:arm64 libbz2-dev:arm64 libzstd-dev:arm64"
	;;
*) echo "deps.sh: unknown set '$want' (build, test or all)" >&2; exit 2 ;;
esac

# promtool (to check the Prometheus output) and the server (the program
# suite's long run scrapes stopwatch serve with it) come from Debian's
# prometheus package, a server with a service: only the two binaries are
# extracted, into .cache/tools/ (the tests look there, or at $PROMTOOL).
fetch_promtool() {
	top=$(cd "$(dirname "$0")/.." && pwd)
	[ -x "$top/.cache/tools/promtool" ] && [ -x "$top/.cache/tools/prometheus" ] &&
		return 0
	tmp=$(mktemp -d)
	# A fresh machine may need the package lists first.
	(cd "$tmp" && apt-get download prometheus >/dev/null 2>&1) ||
		{ apt-get update -qq >/dev/null 2>&1 &&
		  (cd "$tmp" && apt-get download prometheus >/dev/null 2>&1); }
	if ls "$tmp"/prometheus_*.deb >/dev/null 2>&1 &&
	   mkdir -p "$top/.cache/tools" &&
	   dpkg-deb --fsys-tarfile "$tmp"/prometheus_*.deb |
	   tar -xO ./usr/bin/promtool >"$top/.cache/tools/promtool.tmp" &&
	   dpkg-deb --fsys-tarfile "$tmp"/prometheus_*.deb |
	   tar -xO ./usr/bin/prometheus >"$top/.cache/tools/prometheus.tmp"; then
		chmod 755 "$top/.cache/tools/promtool.tmp" "$top/.cache/tools/prometheus.tmp"
		mv "$top/.cache/tools/promtool.tmp" "$top/.cache/tools/promtool"
		mv "$top/.cache/tools/prometheus.tmp" "$top/.cache/tools/prometheus"
	else
		rm -f "$top/.cache/tools/promtool.tmp" "$top/.cache/tools/prometheus.tmp"
		echo "deps.sh: could not fetch promtool (apt-get download prometheus); its checks will be skipped" >&2
	fi
	rm -rf "$tmp"
}
# speedscope (a flame graph viewer that opens Chrome's JSON traces), from
# npm into .cache/tools/speedscope/ (cli.sh opens its page in headless
# Chromium); a pinned version, fetched once.
SPEEDSCOPE_VERSION=1.25.0
fetch_speedscope() {
	top=$(cd "$(dirname "$0")/.." && pwd)
	d=$top/.cache/tools/speedscope
	grep -qs "\"version\": \"$SPEEDSCOPE_VERSION\"" \
		"$d/node_modules/speedscope/package.json" && return 0
	command -v npm >/dev/null 2>&1 || {
		echo "deps.sh: no npm: speedscope not fetched; its check will be skipped" >&2
		return 0
	}
	mkdir -p "$d"
	npm install --silent --no-audit --no-fund --prefix "$d" \
		"speedscope@$SPEEDSCOPE_VERSION" >/dev/null 2>&1 ||
		echo "deps.sh: npm install speedscope failed; its check will be skipped" >&2
}
case $want in
test|all) fetch_promtool ;;
esac

missing=
for p in $pkgs; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done
# npm's speedscope needs npm, which the packages bring
fetch_after() {
	case $want in
	test|all) fetch_speedscope ;;
	esac
}
if [ -z "$missing" ]; then
	fetch_after
	exit 0
fi

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "deps.sh: installing$missing"
export DEBIAN_FRONTEND=noninteractive
case $missing in
*:arm64*)
	dpkg --print-foreign-architectures | grep -qx arm64 ||
		$SUDO dpkg --add-architecture arm64 ;;
esac
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fetch_after
