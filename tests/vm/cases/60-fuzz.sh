#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 60-fuzz: 10^5 ioctl calls of hostile input, then 2.5x10^4 from a 32-bit
# build (compat_ioctl), on a KASAN kernel; a tenth of that elsewhere, at
# least the 10^4 calls the fuzzer needs to require runs of each kind
# (tests/vm/lib/fuzz.sh's calls) (tests/vm/ioctl-fuzz.c: random
# command numbers, mutated START configs with CPU lists, modes and mixes,
# bad pointers and buffers for RESULT and THREADS, ABORTs, real short runs
# of one or two threads in between), each result checked against the
# documented ABI; then normal runs do all they should, and the module
# unloads and loads again (left loaded).  The host's "dmesg clean" test covers the
# guest's dmesg; this case also looks at what was logged during it.
set -u
. /tests/lib/fuzz.sh
fuzz --calls "$(calls 100000)"
# the same fuzzer as a 32-bit program: every call through compat_ioctl
# (its pointers are __u64 in the structs, so compat_ptr_ioctl suffices)
FUZZ_BIN=ioctl-fuzz32 fuzz --calls "$(calls 25000)"

if rmmod lattester; then
	echo "ok: rmmod lattester after the fuzzing"
else
	echo "FAIL: rmmod lattester after the fuzzing"; rc=1
fi
if insmod /lib/modules-extra/lattester.ko && [ -c /dev/lattester ]; then
	echo "ok: insmod again, /dev/lattester is back"
else
	i=0
	while [ ! -c /dev/lattester ] && [ $i -lt 20 ]; do sleep 0.1; i=$((i + 1)); done
	if [ -c /dev/lattester ]; then
		echo "ok: insmod again, /dev/lattester is back"
	else
		echo "FAIL: insmod /lib/modules-extra/lattester.ko"; rc=1
	fi
fi

fuzz_dmesg
exit $rc
