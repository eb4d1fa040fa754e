#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Interrupts really are off inside a window: with 100 ms windows the
# measuring CPU takes about one local timer interrupt per window, where
# the same time with 1 ms windows takes one per tick (~250 a second at
# HZ=250, ~1000 at HZ=1000).  The interrupts are counted over one second
# in the middle of the sampling (the run going, progress moving), not
# over the tool's start and end, whose ticks (up to ~200 ms, more on a
# slow or busy host) would blur the two counts together; the test compares
# the two runs rather than counting against HZ, which the guest can't
# read: with interrupts on in the windows (a build with preempt_disable()
# in place of local_irq_save()) the two counts come out alike.
# Also: rmmod is refused while a run holds the device, and the run goes on.
set -u
D=/sys/class/misc/lattester
loc() {	# local timer interrupts of CPU 0
	awk '$1 == "LOC:" { print $2 }' /proc/interrupts
}
ms() { awk '{ printf "%d", $1 * 1000 }' /proc/uptime; }
# wait_sampling: until the run is taking samples (at most 20 s)
wait_sampling() {
	t=$(($(ms) + 20000))
	while [ "$(ms)" -lt $t ]; do
		[ "$(cat $D/state)" = running ] &&
			[ "$(cut -d' ' -f1 $D/progress)" -gt 0 ] && return 0
		sleep 0.05
	done
	return 1
}
measure() {	# window_us -> prints "interrupts windows"
	lattester-ctl run --quiet --cpu 0 --samples 1000000000 --region 16M \
		--window-us "$1" --json "$OUT/w$1.json" >/dev/null 2>&1 &
	pid=$!
	wait_sampling || echo "the run with $1 us windows did not get going" >&2
	before=$(loc)
	sleep 1
	after=$(loc)
	[ "$1" = 100000 ] && try_rmmod >&2
	kill -INT $pid
	wait $pid
	windows=$(awk -F: '/"windows"/ { gsub(/[ ,]/, "", $2); print $2; exit }' \
		"$OUT/w$1.json")
	echo "$((after - before)) $windows"
}
try_rmmod() {
	if rmmod lattester 2>/dev/null; then
		echo "FAIL: rmmod succeeded during a run"; echo 1 >"$OUT/rmmod"
	elif [ "$(cat /sys/class/misc/lattester/state)" != running ]; then
		echo "FAIL: the run did not survive the rmmod attempt"; echo 1 >"$OUT/rmmod"
	else
		echo "rmmod refused during a run; the run goes on"
	fi
}
set -- $(measure 100000); long_irq=$1 long_win=$2
set -- $(measure 1000); short_irq=$1 short_win=$2
echo "100 ms windows: $long_win windows, $long_irq timer interrupts"
echo "1 ms windows:   $short_win windows, $short_irq timer interrupts"
rc=0
[ -e "$OUT/rmmod" ] && rc=1
if [ "${long_win:-0}" -lt 5 ] || [ "${short_win:-0}" -lt 100 ]; then
	echo "FAIL: too few windows to judge"; rc=1
elif [ "$short_irq" -lt $((3 * long_irq)) ]; then
	echo "FAIL: 100 ms windows took a third or more of the timer interrupts" \
		"that 1 ms windows took: interrupts were on"; rc=1
fi
exit $rc
