# SPDX-License-Identifier: GPL-2.0
# lattester - top-level build
#
#   make            build kmod/lattester.ko and user/lattester-ctl
#   make check      install what is missing, build, run every test
#   make check-quick   the inner loop: the host unit tests beside the
#                   default VM suite on the newest generic kernel (nothing
#                   installed: run make check once first)
#   make demo       build, boot a VM with emulated pmem, run a measurement
#   make check-debug   every VM suite and case on a debug kernel (KASAN,
#                   lockdep, DEBUG_ATOMIC_SLEEP, UBSAN, kmemleak, fault
#                   injection) built once from Debian's linux-source-6.1
#                   (tools/debug-kernel, ~8 min from cold, cached)
#   make check-debug-quick   the cases of tests/vm/debug-quick.list on it
#                   (what CI runs)
#   make sparse     the module under sparse (make check does this too)
#   make bench      the tool measures itself (not part of make check): timer
#                   overhead and step, efficiency, chase vs single loads,
#                   memory, the basic table; JSON into build/bench/ (or
#                   BENCH_OUT), a table on stdout; BENCH_REPS (5),
#                   BENCH_ENGINES ("user kernel"): see tools/bench/bench.py
#                   and Documentation/benchmarks.md
#   make install    module into /lib/modules/KVER/extra (+ depmod),
#                   lattester-ctl into $(PREFIX)/bin, its man pages into
#                   $(MANDIR)/man1, its bash completion into
#                   $(BASHCOMPDIR); make uninstall
#   make dkms-install   the module through DKMS for every installed kernel
#                   with headers (DKMS_KERNELS="K ..." for those alone);
#                   make dkms-uninstall
#
# KDIR: the kernel build tree.  Defaults to the running kernel's; where that
# does not exist, the newest installed /usr/src/linux-headers-*-amd64 (not
# an -rt or -cloud flavour).

KVER_RUNNING := $(shell uname -r)
ifeq ($(origin KDIR),undefined)
  ifneq ($(wildcard /lib/modules/$(KVER_RUNNING)/build/Makefile),)
    KDIR := /lib/modules/$(KVER_RUNNING)/build
  else
    KDIR := $(lastword $(shell ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | grep -v -e -rt- -e -cloud- | sort -V))
    ifneq ($(KDIR),)
      $(shell echo "lattester: no build tree for the running kernel $(KVER_RUNNING); using $(KDIR)" >&2)
    endif
  endif
endif

TOP := $(CURDIR)
VERSION := $(shell cat $(TOP)/VERSION)
PREFIX ?= /usr/local
DESTDIR ?=
MANDIR ?= $(PREFIX)/share/man
# bash-completion also looks here (XDG_DATA_DIRS); a Debian package would
# use PREFIX=/usr, so /usr/share/bash-completion/completions
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
# the release of the kernel KDIR builds for (install goes there)
KVER = $(shell $(MAKE) -s -C $(KDIR) kernelrelease 2>/dev/null)
DKMS_SRC = $(DESTDIR)/usr/src/lattester-$(VERSION)

.PHONY: all module user check unit build-check vm demo deps clean sparse \
	install uninstall dkms-install dkms-uninstall kernelrelease-of-kdir \
	check-debug check-debug-quick check-quick bench

all: module user

module:
	@test -n "$(KDIR)" || { echo "lattester: no kernel headers found: install linux-headers-amd64 or set KDIR" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(TOP)/kmod LATT_TOP=$(TOP) W=1 modules

sparse:
	$(MAKE) -C $(KDIR) M=$(TOP)/kmod LATT_TOP=$(TOP) C=2 modules

user:
	$(MAKE) -C user

deps:
	./tools/deps.sh

unit: user
	./tests/unit/run

build-check:
	./tests/build/run

vm: user
	./tests/vm/run

check: deps
	$(MAKE) all
	./tests/run-all

# check-quick: the VM suite boots beside the unit tests (as make check
# runs them: a guest leaves part of a CPU idle), its output after theirs
check-quick: all
	@mkdir -p build; \
	LATT_KERNELS="$$(./tools/vm/kernels | grep -v -e '-rt-' | tail -n 1)" \
		./tests/vm/run --cases tests/vm/cases >build/quick-vm.log 2>&1 & \
	vm=$$!; ./tests/unit/run; unit=$$?; wait $$vm; vmrc=$$?; \
	cat build/quick-vm.log; \
	test $$unit -eq 0 && test $$vmrc -eq 0

# check-debug-quick: the cases of tests/vm/debug-quick.list alone
check-debug check-debug-quick: deps
	$(MAKE) all
	@tree=$$(./tools/debug-kernel) && \
	kver=$$(cat $$tree/include/config/kernel.release) && \
	echo "$@: $$kver from $$tree" && \
	LATT_KERNEL_TREE=$$tree LATT_KERNELS=$$kver \
	LATT_CASE_TIMEOUT=$${LATT_CASE_TIMEOUT:-900} \
	LATT_VM_TIMEOUT=$${LATT_VM_TIMEOUT:-2400} ./tests/vm/run \
		$(if $(filter check-debug-quick,$@),--case-list tests/vm/debug-quick.list)

# BENCH_* in the environment or on the command line reach bench.py
bench: user build/bench/tsc-step build/bench/stream-ref
	./tools/bench/bench.py --tsc-step build/bench/tsc-step \
		--stream-ref build/bench/stream-ref

build/bench/tsc-step: tools/bench/tsc-step.c include/lattester/access.h \
		include/uapi/lattester.h
	mkdir -p build/bench
	$(CC) -std=c11 -O2 -g -Wall -Wextra -Werror -Iinclude -o $@ $<

# -O3 -march=native: the loop vectorised at this CPU's widest, as a STREAM
# build would be (it runs where it is built); a mix's stores inline, not
# turned into a memset() call a block, which halved their rate on the AMD
# guest (-fno-tree-loop-distribute-patterns)
build/bench/stream-ref: tools/bench/stream-ref.c
	mkdir -p build/bench
	$(CC) -std=c11 -O3 -march=native -fno-tree-loop-distribute-patterns \
		-g -Wall -Wextra -Werror -pthread -o $@ $<

demo: deps
	$(MAKE) all
	./tools/demo

install: all
	@kver="$(KVER)"; test -n "$$kver" || { echo "lattester: cannot tell KDIR's kernel release" >&2; exit 1; }; \
	install -D -m 0644 kmod/lattester.ko $(DESTDIR)/lib/modules/$$kver/extra/lattester.ko && \
	if [ -z "$(DESTDIR)" ]; then depmod -a $$kver; fi
	install -D -m 0755 user/lattester-ctl $(DESTDIR)$(PREFIX)/bin/lattester-ctl
	install -d $(DESTDIR)$(MANDIR)/man1
	install -m 0644 build/man/*.1 $(DESTDIR)$(MANDIR)/man1/
	install -D -m 0644 build/completion/lattester-ctl \
		$(DESTDIR)$(BASHCOMPDIR)/lattester-ctl

uninstall:
	@kver="$(KVER)"; rm -f $(DESTDIR)/lib/modules/$$kver/extra/lattester.ko; \
	if [ -z "$(DESTDIR)" ] && [ -n "$$kver" ]; then depmod -a $$kver; fi
	rm -f $(DESTDIR)$(PREFIX)/bin/lattester-ctl
	rm -f $(DESTDIR)$(MANDIR)/man1/lattester-ctl.1 \
		$(DESTDIR)$(MANDIR)/man1/lattester-ctl-*.1
	rm -f $(DESTDIR)$(BASHCOMPDIR)/lattester-ctl

# DKMS rebuilds the module for each kernel the system installs later.
dkms-install:
	@command -v dkms >/dev/null || { echo "lattester: dkms is not installed (apt-get install dkms)" >&2; exit 1; }
	rm -rf $(DKMS_SRC)
	mkdir -p $(DKMS_SRC)/kmod $(DKMS_SRC)/include
	cp kmod/*.c kmod/*.h kmod/Kbuild $(DKMS_SRC)/kmod/
	cp -r include/uapi include/lattester $(DKMS_SRC)/include/
	sed 's/@VERSION@/$(VERSION)/' dkms.conf.in >$(DKMS_SRC)/dkms.conf
	dkms add -m lattester -v $(VERSION)
	@set -e; for k in $(or $(DKMS_KERNELS),$$(ls /lib/modules)); do \
		if [ -e /lib/modules/$$k/build/Makefile ]; then \
			dkms build -m lattester -v $(VERSION) -k $$k && \
			dkms install -m lattester -v $(VERSION) -k $$k; \
		fi; \
	done

dkms-uninstall:
	-dkms remove -m lattester -v $(VERSION) --all
	rm -rf $(DKMS_SRC)

# for scripts: the kernel release make install would install for
kernelrelease-of-kdir:
	@echo $(KVER)

clean:
	$(MAKE) -C user clean
	-test -n "$(KDIR)" && $(MAKE) -C $(KDIR) M=$(TOP)/kmod clean
	rm -rf build
