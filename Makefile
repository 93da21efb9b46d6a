# SPDX-License-Identifier: GPL-2.0
#
# stopwatch: outer build wrapper.
#
#   make                      stopwatch.ko and the stopwatch program
#   make KDIR=/path/to/kbuild build the module for another kernel
#   make ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- KDIR=...   cross-build
#   make check                host unit tests (no root, no VM)
#   make test                 everything: dependencies, build, host and VM tests
#   make run                  load stopwatch.ko (or boot the VM) and show stats
#   make bench                measure against the peers; writes BENCHMARKS.md
#   make install              userspace program and man pages (PREFIX, DESTDIR)
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

.PHONY: all module modules userspace progs check unit test run bench \
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

check unit:
	$(MAKE) -C tests/unit OUT=$(BUILD)/unit V=$(V)
	$(MAKE) -C userspace OUT=$(BUILD)/userspace V=$(V) test

test:
	scripts/test.sh

run:
	scripts/run.sh

# Cost side by side with the peers, written to BENCHMARKS.md (not a test).
bench:
	scripts/bench.sh

install:
	$(MAKE) -C userspace OUT=$(BUILD)/userspace PREFIX=$(PREFIX) \
		DESTDIR=$(DESTDIR) install

modules_install:
	$(KMAKE) modules_install

clean:
	-$(KMAKE) clean
	rm -rf $(BUILD)

help:
	@sed -n '3,16p' Makefile | sed 's/^# \{0,1\}//'
