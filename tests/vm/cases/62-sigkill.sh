#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 62-sigkill: SIGKILL of lattester-ctl mid-run stops the run: closing the
# starter's file aborts it, so the state is "aborted" within ~1 s (by the
# time the killed process is reaped, in fact).  Then SIGKILL at random
# moments of a run's life (open, START's allocation, a chase chain being
# built, calibration, sampling) leaves the module idle and unloadable:
# rmmod works, and insmod again (left loaded).
set -u
D=/sys/class/misc/lattester
rc=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; rc=1; }
ms() { awk '{ printf "%d", $1 * 1000 }' /proc/uptime; }
state() { cat $D/state; }
done_samples() { cut -d' ' -f1 $D/progress; }

# wait_running MAX_MS: until a run is taking samples
wait_running() {
	t=$(($(ms) + $1))
	while [ "$(ms)" -lt $t ]; do
		[ "$(state)" = running ] && [ "$(done_samples)" -gt 0 ] && return 0
		sleep 0.05
	done
	return 1
}

lattester-ctl run --quiet --samples 1000000000000 --region 16M \
	>/tmp/kill.txt 2>&1 &
pid=$!
if ! wait_running 10000; then
	bad "the run did not get going (state $(state))"; cat /tmp/kill.txt
	kill -KILL $pid; wait $pid
	exit 1
fi
before=$(done_samples)
t0=$(ms)
kill -KILL $pid 2>/dev/null
while [ "$(state)" = running ] && [ $(($(ms) - t0)) -lt 5000 ]; do
	sleep 0.01
done
t1=$(ms)
wait $pid 2>/dev/null
st=$?
s=$(state)
p=$(cat $D/progress)
echo "killed after $before samples: exit status $st, state '$s' after $((t1 - t0)) ms, progress $p"
[ $st = 137 ] || bad "exit status $st, want 137 (SIGKILL)"
[ "$s" = aborted ] && ok "state aborted after SIGKILL" || bad "state '$s', want aborted"
[ $((t1 - t0)) -le 1000 ] && ok "the run stopped within 1 s ($((t1 - t0)) ms)" ||
	bad "the run took $((t1 - t0)) ms to stop"
set -- $p
[ "$1" -lt "$2" ] && [ "$1" -ge "$before" ] && ok "progress $1 of $2: partial" ||
	bad "progress $p after the kill"
if rmmod lattester; then
	ok "rmmod after the kill"
else
	bad "rmmod after the kill"; grep lattester /proc/modules
fi
insmod /lib/modules-extra/lattester.ko && [ -c /dev/lattester ] &&
	ok "insmod again" || bad "insmod again"

# SIGKILL at random moments: right away, while START allocates 64 MiB,
# while a chase chain of a million nodes is built, during calibration or
# sampling.  What the module was doing at the kill is tallied.
i=0
early=0 starting=0 sampling=0
while [ $i -lt 24 ]; do
	case $((i % 3)) in
	0) args="--samples 1000000000 --region 64M" ;;
	1) args="--samples 1000000000 --region 64M --pattern chase" ;;
	2) args="--samples 1000000000 --region 16M --op nt-store --size 4096" ;;
	esac
	lattester-ctl run --quiet $args >/dev/null 2>&1 &
	pid=$!
	usleep $(( (i * 37 % 24) * 10000 ))	# 0 to 230 ms
	s=$(state)
	p=$(done_samples)
	kill -KILL $pid
	wait $pid 2>/dev/null
	if [ "$s" != running ]; then
		early=$((early + 1))
	elif [ "$p" = 0 ]; then
		starting=$((starting + 1))
	else
		sampling=$((sampling + 1))
	fi
	s=$(state)
	[ "$s" = running ] &&
		bad "round $i ($args): still running after the starter was killed"
	i=$((i + 1))
done
ok "24 kills: $early before START, $starting in chain build/calibration, $sampling while sampling; state $(state)"
if lattester-ctl run --quiet --samples 10000 --region 16M >/dev/null; then
	ok "a normal run works afterwards"
else
	bad "a normal run after the kills failed"
fi
if rmmod lattester && insmod /lib/modules-extra/lattester.ko; then
	ok "rmmod and insmod after the kills"
else
	bad "rmmod/insmod after the kills"
fi
exit $rc
