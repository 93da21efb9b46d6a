# SPDX-License-Identifier: GPL-2.0
#
# stopwatch: outer build wrapper.
#
#   make                      stopwatch.ko and the stopwatch program
#   make KDIR=/path/to/kbuild build the module for another kernel
#   make ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- KDIR=...   cross-build
#   make check                host unit tests under ASan/UBSan (no root, no VM)
#   make test                 everything: dependencies, build, host and VM tests
#   make run                  load stopwatch.ko (or boot the VM) and show stats
#   make bench                measure against the peers into bench/results/;
#                             BENCHMARKS.md is made from those files
#   make stress               rmmod under load, trampolines on 100 hot functions,
#                             20 cycles on every kernel with direct calls (~1 h)
#   make stress-debug         every VM suite on a debug kernel (lockdep, KASAN,
#                             ...; built once, long), any splat fails; not CI
#   make install              userspace program, man pages, bash and zsh completion, serve's systemd unit (PREFIX, DESTDIR)
#   make modules_install      the module (INSTALL_MOD_PATH)
#
# V=1 shows the commands; EXTRA_CFLAGS is added to userspace compiles.

KDIR ?= /lib/modules/$(shell uname -r)/build
ARCH ?= $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
CROSS_COMPILE ?=
PREFIX ?= /usr/local
DESTDIR ?=
V ?= 0
BUILD ?= $(CURDIR)/build

ifeq ($(ARCH),arm64)
  HOSTARCH := arm64
else
  HOSTARCH := x86_64
endif
PROGS_OUT := $(BUILD)/progs/$(HOSTARCH)

KMAKE = $(MAKE) -C $(KDIR) M=$(CURDIR) ARCH=$(ARCH) \
	$(if $(CROSS_COMPILE),CROSS_COMPILE=$(CROSS_COMPILE)) V=$(V)

.PHONY: all module modules userspace progs check unit unit-san layers version docs test run bench stress \
	clean install modules_install help

all: module userspace

module modules:
	@test -d "$(KDIR)" || { echo "make: kernel build tree KDIR=$(KDIR) not found; install linux-headers-$$(uname -r) or pass KDIR=" >&2; exit 1; }
	$(KMAKE) modules

userspace:
	$(MAKE) -C userspace OUT=$(BUILD)/userspace V=$(V) \
		$(if $(CROSS_COMPILE),CC=$(CROSS_COMPILE)gcc LDFLAGS=-static)

# Test programs run inside the VM; arm64 ones are static (busybox guest).
progs:
	$(MAKE) -C tests/progs OUT=$(PROGS_OUT) V=$(V) \
		$(if $(CROSS_COMPILE),CC=$(CROSS_COMPILE)gcc STATIC=1)

# Under ASan and UBSan: any report fails the test.  unit-san is the
# unit tests alone (scripts/test.sh runs them at low priority).
check unit: layers version docs
	$(MAKE) unit-san

unit-san:
	$(MAKE) -C tests/unit OUT=$(BUILD)/unit-san SANITIZE=1 V=$(V)
	$(MAKE) -C userspace OUT=$(BUILD)/userspace-san SANITIZE=1 V=$(V) test

# The module's layering, from its objects' symbols (ARCHITECTURE.md).
layers:
	tests/layers/selftest.sh

# README's module parameters: one row each, the test build's said so.
docs:
	tests/docs/params.sh

# One version (VERSION): dkms.conf's literal copy must equal it.  And
# BENCHMARKS.md is what scripts/bench-results.sh makes of bench/results/.
version:
	scripts/version.sh --selftest
	scripts/bench-results.sh --check

test:
	scripts/test.sh

run:
	scripts/run.sh

# Cost side by side with the peers, into bench/results/, and BENCHMARKS.md
# made from them (scripts/bench-results.sh; not a test).
bench:
	scripts/bench.sh

# STRESS_CYCLES=N, STRESS_KERNELS="ARCH:KERNEL ..." to change them.
STRESS_CYCLES ?= 20
STRESS_KERNELS ?= x86_64:6.1 x86_64:6.12 x86_64:6.12-rt arm64:6.12
stress:
	@set -e; for ak in $(STRESS_KERNELS); do \
		tests/vm/run.sh --arch $${ak%%:*} --kernel $${ak#*:} --suite trampstress \
			--append sw_stress=$(STRESS_CYCLES) --timeout 3600; \
	done

# The debug kernel: Debian's 6.1 sources with lockdep, KASAN,
# DEBUG_ATOMIC_SLEEP, DEBUG_PREEMPT, PROVE_RCU (scripts/debug-kernel.sh:
# built once and cached in .cache/debug-kernel/), the module built against
# it, then every x86_64 VM suite on it; the console scan fails the run on
# any splat.  STRESS_DEBUG_SUITES=a,b for fewer suites,
# STRESS_DEBUG_TIMEOUT=SEC for the boot's limit.
STRESS_DEBUG_SUITES ?=
STRESS_DEBUG_TIMEOUT ?= 7200
.PHONY: stress-debug
stress-debug:
	scripts/debug-kernel.sh > /dev/null
	SW_VM_BOOT_TIMEOUT=$(STRESS_DEBUG_TIMEOUT) scripts/test.sh --vm-only \
		--arch x86_64 --kernels debug \
		$(if $(STRESS_DEBUG_SUITES),--suite $(STRESS_DEBUG_SUITES))

# Outside DKMS the modules are installed unsigned (Debian's headers hold no
# signing key): both targets say how to sign them for Secure Boot.
SIGN_NOTE = echo "make: the modules are not signed outside DKMS; under Secure Boot (kernel lockdown)"; \
	echo "  only signed ones load. Use 'make dkms-install' (DKMS signs them with /var/lib/dkms/mok.key)"; \
	echo "  and enroll its key once: mokutil --import /var/lib/dkms/mok.pub, reboot, confirm in the MOK"; \
	echo "  manager; or sign stopwatch.ko and stopwatch_tramp.ko with an enrolled key:"; \
	echo "  /usr/lib/linux-kbuild-<version>/scripts/sign-file sha256 KEY.priv KEY.der stopwatch.ko"; \
	echo "  (README: Secure Boot)"

install:
	$(MAKE) -C userspace OUT=$(BUILD)/userspace PREFIX=$(PREFIX) \
		DESTDIR=$(DESTDIR) install
	@$(SIGN_NOTE)

modules_install:
	$(KMAKE) modules_install
	@$(SIGN_NOTE)

# DKMS (dkms.conf), as root:
#   make dkms-install [DKMS_KERNEL=<release>]   add, build and install the
#       module for that kernel (default: the running one); rerun to rebuild
#   make dkms-add       copy the kernel sources to /usr/src/stopwatch-<ver>
#                       and register them with dkms (dkms-install does it)
#   make dkms-remove    every kernel's build and the copy in /usr/src
# dkms runs without MAKEFLAGS: nothing of this make leaks into its kbuild.
DKMS_VERSION = $(shell cat $(CURDIR)/VERSION)
DKMS_SRC = /usr/src/stopwatch-$(DKMS_VERSION)
DKMS_KERNEL ?= $(shell uname -r)
# the module's sources: every top-level folder but the userspace/test ones
DKMS_DIRS = $(filter-out userspace tests bench build scripts docs,$(patsubst %/,%,$(wildcard */)))
DKMS = env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS dkms
.PHONY: dkms dkms-add dkms-install dkms-remove

dkms: dkms-install

dkms-add:
	@test -n "$(DKMS_VERSION)" || { echo "make: no version in VERSION" >&2; exit 1; }
	@command -v dkms >/dev/null || { echo "make: dkms is not installed (apt-get install dkms)" >&2; exit 1; }
	rm -rf $(DKMS_SRC).new
	mkdir -p $(DKMS_SRC).new
	cp -p dkms.conf Kbuild VERSION $(DKMS_SRC).new/
	find $(DKMS_DIRS) -type f -name '*.[chS]' 2>/dev/null | \
		cpio -pdm --quiet $(DKMS_SRC).new
	rm -rf $(DKMS_SRC)
	mv $(DKMS_SRC).new $(DKMS_SRC)
	@if $(DKMS) status -m stopwatch -v $(DKMS_VERSION) | grep -q stopwatch; then \
		echo "dkms: stopwatch/$(DKMS_VERSION) already added (sources refreshed)"; \
	else \
		echo "$(DKMS) add -m stopwatch -v $(DKMS_VERSION)"; \
		$(DKMS) add -m stopwatch -v $(DKMS_VERSION); \
	fi

dkms-install: dkms-add
	@test -d /lib/modules/$(DKMS_KERNEL)/build || { echo "make: no headers for $(DKMS_KERNEL) (/lib/modules/$(DKMS_KERNEL)/build); install linux-headers-$(DKMS_KERNEL) or pass DKMS_KERNEL=" >&2; exit 1; }
	@# dkms builds a version only once per kernel: undo an earlier build
	@# of this version (a reinstall after the sources changed) first.
	-@$(DKMS) unbuild -m stopwatch -v $(DKMS_VERSION) -k $(DKMS_KERNEL) >/dev/null 2>&1
	$(DKMS) build --force -m stopwatch -v $(DKMS_VERSION) -k $(DKMS_KERNEL)
	$(DKMS) install --force -m stopwatch -v $(DKMS_VERSION) -k $(DKMS_KERNEL)

dkms-remove:
	-$(DKMS) remove -m stopwatch -v $(DKMS_VERSION) --all
	rm -rf $(DKMS_SRC)

clean:
	-$(KMAKE) clean
	rm -rf $(BUILD)

help:
	@sed -n '3,18p' Makefile | sed 's/^# \{0,1\}//'
