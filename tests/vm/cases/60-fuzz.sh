#!/bin/sh
# 60-fuzz: 10^5 ioctl calls of hostile input (tests/vm/ioctl-fuzz.c: random
# command numbers, mutated START configs with CPU lists, modes and mixes,
# bad pointers and buffers for RESULT and THREADS, ABORTs, real short runs
# of one or two threads in between), each result checked against the
# documented ABI; then normal runs do all they should, and the module
# unloads and loads again (left loaded).  The host's "dmesg clean" test covers the
# guest's dmesg; this case also looks at what was logged during it.
set -u
bad='BUG:|WARNING: CPU|cut here|scheduling while atomic|soft lockup|hard LOCKUP|rcu.*stall|Call Trace|Oops|general protection'
rc=0
dmesg >/tmp/fuzz-dmesg.before

set -- --calls 100000
start=$(cut -d' ' -f1 /proc/uptime)
ioctl-fuzz "$@" || rc=1
end=$(cut -d' ' -f1 /proc/uptime)
echo "fuzzer took $(echo "$start $end" | awk '{ printf "%.1f", $2 - $1 }') s"

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

dmesg | grep -v -x -F -f /tmp/fuzz-dmesg.before >/tmp/fuzz-dmesg.new
if grep -E "$bad" /tmp/fuzz-dmesg.new; then
	echo "FAIL: the kernel complained during the fuzzing (above)"; rc=1
else
	echo "ok: nothing bad in dmesg ($(wc -l </tmp/fuzz-dmesg.new) new lines)"
fi
exit $rc
