# lattester - top-level build
#
#   make            build kmod/lattester.ko and user/lattester-ctl
#   make check      install what is missing, build, run every test
#   make demo       build, boot a VM with emulated pmem, run a measurement
#   make sparse     the module under sparse (make check does this too)
#
# KDIR: the kernel build tree.  Defaults to the running kernel's; where that
# does not exist, the newest installed /usr/src/linux-headers-*.

KVER_RUNNING := $(shell uname -r)
ifeq ($(origin KDIR),undefined)
  ifneq ($(wildcard /lib/modules/$(KVER_RUNNING)/build/Makefile),)
    KDIR := /lib/modules/$(KVER_RUNNING)/build
  else
    KDIR := $(lastword $(shell ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V))
    ifneq ($(KDIR),)
      $(info lattester: no build tree for the running kernel $(KVER_RUNNING); using $(KDIR))
    endif
  endif
endif

TOP := $(CURDIR)

.PHONY: all module user check unit build-check vm demo deps clean sparse

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

demo: deps
	$(MAKE) all
	./tools/demo

clean:
	$(MAKE) -C user clean
	-test -n "$(KDIR)" && $(MAKE) -C $(KDIR) M=$(TOP)/kmod clean
	rm -rf build
