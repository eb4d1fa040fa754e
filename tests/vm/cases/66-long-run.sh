#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 66-long-run: a run of 30 s with default settings (64 MiB): the samples
# advance every 5 s, SIGINT ends it (exit 130, aborted; 66-long-run.check
# validates its JSON), and the kernel logged no lockup, stall, BUG or
# WARNING meanwhile.  30 s is past every watchdog a run could trip: the
# hard lockup detector (10 s), the soft lockup one (20 s) and the RCU
# stall warning (21 s, Debian's CONFIG_RCU_CPU_STALL_TIMEOUT).
set -u
D=/sys/class/misc/lattester
SECS=30
rc=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; rc=1; }
done_samples() { cut -d' ' -f1 $D/progress; }

dmesg >/tmp/long-dmesg.before
t0=$(cut -d. -f1 /proc/uptime)
lattester-ctl run --quiet --samples 1000000000000 --region 64M \
	--json "$OUT/long.json" >"$OUT/long.txt" 2>&1 &
pid=$!
prev=0
stalls=0
el=0
while [ $el -lt $SECS ]; do
	sleep 5
	el=$(($(cut -d. -f1 /proc/uptime) - t0))
	s=$(cat $D/state)
	p=$(done_samples)
	echo "${el}s: $s, $p samples"
	if [ "$s" != running ]; then
		bad "state $s after ${el}s"
		break
	fi
	[ "$p" -gt "$prev" ] || stalls=$((stalls + 1))
	prev=$p
done
kill -INT $pid
wait $pid
st=$?
el=$(($(cut -d. -f1 /proc/uptime) - t0))
s=$(cat $D/state)
echo "after ${el}s: exit status $st, state $s, progress $(cat $D/progress)" \
	"($((prev / (el > 0 ? el : 1))) samples/s)"
[ $stalls = 0 ] && ok "samples advanced every 5 s" || bad "no progress in $stalls of the 5 s periods"
[ $el -ge $SECS ] && ok "ran ${el}s" || bad "ran only ${el}s"
[ $st = 130 ] && [ "$s" = aborted ] && ok "SIGINT: exit 130, state aborted" ||
	{ bad "exit status $st, state $s"; cat "$OUT/long.txt"; }

dmesg | grep -v -x -F -f /tmp/long-dmesg.before >/tmp/long-dmesg.new
if grep -E 'soft lockup|hard LOCKUP|rcu.*stall|BUG:|WARNING|Call Trace|scheduling while atomic' \
	/tmp/long-dmesg.new; then
	bad "the kernel complained during the long run (above)"
else
	ok "dmesg clean ($(wc -l </tmp/long-dmesg.new) new lines)"
fi
exit $rc
