#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 20-fuzz: the ioctl fuzzer (tests/vm/ioctl-fuzz.c) on 4 CPUs: runs of up to
# every online CPU in every mode, CPU lists checked against the model, with
# CPU 3 offline while the calls go on (so that lists and .cpu name an
# offline CPU: ENODEV) and back online for the checks afterwards.  Fewer
# calls than cases/60-fuzz.  The host's "dmesg clean" test covers the
# guest's dmesg; this case also looks at what was logged during it.
set -u
. /tests/lib/fuzz.sh
set -- --calls "$(calls 30000)"
[ -e /sys/devices/system/cpu/cpu3/online ] && set -- "$@" --offline-cpu 3
fuzz "$@"
fuzz_dmesg
exit $rc
