#!/bin/sh
# 20-fuzz: the ioctl fuzzer (tests/vm/ioctl-fuzz.c) on 4 CPUs: runs of up to
# every online CPU in every mode, CPU lists checked against the model, with
# CPU 3 offline while the calls go on (so that lists and .cpu name an
# offline CPU: ENODEV) and back online for the checks afterwards.  Fewer
# calls than cases/60-fuzz.  The host's "dmesg clean" test covers the
# guest's dmesg; this case also looks at what was logged during it.
set -u
bad='BUG:|WARNING: CPU|cut here|scheduling while atomic|soft lockup|hard LOCKUP|rcu.*stall|Call Trace|Oops|general protection'
rc=0
dmesg >/tmp/fuzz-dmesg.before

set -- --calls 30000
[ -e /sys/devices/system/cpu/cpu3/online ] && set -- "$@" --offline-cpu 3
start=$(cut -d' ' -f1 /proc/uptime)
ioctl-fuzz "$@" || rc=1
end=$(cut -d' ' -f1 /proc/uptime)
echo "fuzzer took $(echo "$start $end" | awk '{ printf "%.1f", $2 - $1 }') s"

dmesg | grep -v -x -F -f /tmp/fuzz-dmesg.before >/tmp/fuzz-dmesg.new
if grep -E "$bad" /tmp/fuzz-dmesg.new; then
	echo "FAIL: the kernel complained during the fuzzing (above)"; rc=1
else
	echo "ok: nothing bad in dmesg ($(wc -l </tmp/fuzz-dmesg.new) new lines)"
fi
exit $rc
