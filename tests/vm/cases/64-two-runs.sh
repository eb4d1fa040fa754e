#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 64-two-runs: two lattester-ctl runs started together: exactly one gets
# "busy" (exit status 1, a message that says so), the other completes.
# Three rounds: 16 MiB, 64 MiB (a longer allocation inside START), and the
# two on different CPUs.
set -u
# samples: about 2 s of a run under TCG, where the other START comes
# within a few tenths (it was 5x10^6, 6 s a round: 18 s of make check a
# kernel)
N=1500000
rc=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; rc=1; }

round() {	# name, options for both, extra options for the second
	name=$1 opts=$2 opts2=$3
	lattester-ctl run --quiet --samples $N $opts >/tmp/two-a 2>&1 &
	a=$!
	lattester-ctl run --quiet --samples $N $opts $opts2 >/tmp/two-b 2>&1 &
	b=$!
	wait $a
	ra=$?
	wait $b
	rb=$?
	if [ $ra = 0 ] && [ $rb = 1 ]; then
		win=/tmp/two-a lose=/tmp/two-b
	elif [ $ra = 1 ] && [ $rb = 0 ]; then
		win=/tmp/two-b lose=/tmp/two-a
	else
		bad "$name: exit statuses $ra and $rb, want one 0 and one 1"
		cat /tmp/two-a /tmp/two-b
		return
	fi
	if ! grep -qi busy $lose; then
		bad "$name: the refused run does not say busy: $(cat $lose)"
	elif ! grep -q "samples" $win; then
		bad "$name: the run that went through printed no table"
		cat $win
	elif [ "$(cat /sys/class/misc/lattester/progress)" != "$N $N" ]; then
		bad "$name: progress $(cat /sys/class/misc/lattester/progress), want $N $N"
	else
		ok "$name: one completed, the other: $(head -n1 $lose)"
	fi
}
round "16 MiB" "--region 16M" ""
round "64 MiB" "--region 64M" ""
round "CPU 0 and CPU 1" "--region 16M" "--cpu 1"
[ "$(cat /sys/class/misc/lattester/state)" = done ] || bad "state $(cat /sys/class/misc/lattester/state)"
exit $rc
