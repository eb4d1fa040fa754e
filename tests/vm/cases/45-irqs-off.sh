#!/bin/sh
# Interrupts really are off inside a window: with 100 ms windows the
# measuring CPU takes about one local timer interrupt per window, where
# the same time with 1 ms windows takes one per tick (~500 in the 2 s at
# HZ=250, ~2000 at HZ=1000).  Both counts also take in the ticks of the
# tool's start and end (up to ~200 ms), so the test compares the two runs
# rather than counting against HZ, which the guest can't read: with
# interrupts on in the windows (a build with preempt_disable() in place of
# local_irq_save()) the two counts come out alike (540 against 514).
# Also: rmmod is refused while a run holds the device, and the run goes on.
set -u
loc() {	# local timer interrupts of CPU 0
	awk '$1 == "LOC:" { print $2 }' /proc/interrupts
}
measure() {	# window_us -> prints "interrupts windows"
	before=$(loc)
	lattester-ctl run --quiet --cpu 0 --samples 1000000000 --region 16M \
		--window-us "$1" --json "$OUT/w$1.json" >/dev/null 2>&1 &
	pid=$!
	sleep 2
	[ "$1" = 100000 ] && try_rmmod >&2
	kill -INT $pid
	wait $pid
	after=$(loc)
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
