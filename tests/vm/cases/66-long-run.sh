#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 66-long-run: a run with default settings (64 MiB) past every watchdog a
# run could trip: the samples advance every 2 s, SIGINT ends it (exit 130,
# aborted; 66-long-run.check validates its JSON), and the kernel logged no
# lockup, stall, BUG or WARNING meanwhile.  The watchdogs are made short
# for it, through their runtime knobs: watchdog_thresh 2 s (the hard
# lockup detector at 2 s, the soft lockup one at 4 s) and the RCU stall
# timeout 3 s (its minimum), so a run of 10 s is past each of them by 2.5x
# or more, as 30 s was past Debian's defaults (10, 20 and 21 s).  Where a
# knob can't be written the run lasts 30 s instead.  Both are put back.
set -u
D=/sys/class/misc/lattester
WT=/proc/sys/kernel/watchdog_thresh
RS=/sys/module/rcupdate/parameters/rcu_cpu_stall_timeout
rc=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; rc=1; }
done_samples() { cut -d' ' -f1 $D/progress; }

SECS=30
wt0=$(cat $WT 2>/dev/null)
rs0=$(cat $RS 2>/dev/null)
if [ -n "$wt0" ] && [ -n "$rs0" ] && echo 2 2>/dev/null >$WT &&
	echo 3 2>/dev/null >$RS && [ "$(cat $WT)" = 2 ] && [ "$(cat $RS)" = 3 ]; then
	SECS=10
	echo "watchdogs made short: watchdog_thresh $wt0 -> 2 s, rcu_cpu_stall_timeout $rs0 -> 3 s; a run of ${SECS}s"
else
	echo "watchdogs as they are (watchdog_thresh '$wt0', rcu_cpu_stall_timeout '$rs0' not writable); a run of ${SECS}s"
fi
restore() {
	[ -n "$wt0" ] && echo "$wt0" >$WT 2>/dev/null
	[ -n "$rs0" ] && echo "$rs0" >$RS 2>/dev/null
}

dmesg >/tmp/long-dmesg.before
t0=$(cut -d. -f1 /proc/uptime)
lattester-ctl run --quiet --samples 1000000000000 --region 64M \
	--json "$OUT/long.json" >"$OUT/long.txt" 2>&1 &
pid=$!
prev=0
stalls=0
el=0
while [ $el -lt $SECS ]; do
	sleep 2
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
[ $stalls = 0 ] && ok "samples advanced every 2 s" || bad "no progress in $stalls of the 2 s periods"
[ $el -ge $SECS ] && ok "ran ${el}s" || bad "ran only ${el}s"
[ $st = 130 ] && [ "$s" = aborted ] && ok "SIGINT: exit 130, state aborted" ||
	{ bad "exit status $st, state $s"; cat "$OUT/long.txt"; }

# a watchdog speaks while the stall it sees lasts: the run is over, so
# is anything it could have tripped
restore
dmesg | grep -v -x -F -f /tmp/long-dmesg.before >/tmp/long-dmesg.new
if grep -E 'soft lockup|hard LOCKUP|rcu.*stall|BUG:|WARNING|Call Trace|scheduling while atomic' \
	/tmp/long-dmesg.new; then
	bad "the kernel complained during the long run (above)"
else
	ok "dmesg clean ($(wc -l </tmp/long-dmesg.new) new lines)"
fi
exit $rc
