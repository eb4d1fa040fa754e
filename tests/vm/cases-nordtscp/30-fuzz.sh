#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 30-fuzz: the ioctl fuzzer (tests/vm/ioctl-fuzz.c) where the CPU lacks
# rdtscp: its model predicts no EOPNOTSUPP for that (ABI 1.3) and every
# result's LATT_RES_TIMER_RDTSC.  Fewer calls than cases/60-fuzz.
set -u
. /tests/lib/fuzz.sh
fuzz --calls "$(calls 25000)"
fuzz_dmesg
exit $rc
