#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 63-rmmod-midrun: rmmod while lattester-ctl runs is refused (the open file
# holds the module), the run goes on and completes with every sample;
# afterwards rmmod works (insmod again, left loaded).  63-rmmod-midrun.check
# validates the run's JSON on the host.
set -u
D=/sys/class/misc/lattester
N=10000000
rc=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; rc=1; }
done_samples() { cut -d' ' -f1 $D/progress; }

lattester-ctl run --quiet --samples $N --region 16M --json "$OUT/run.json" \
	>"$OUT/run.txt" 2>&1 &
pid=$!
i=0
while [ "$(done_samples)" -eq 0 ] || [ "$(cat $D/state)" != running ]; do
	i=$((i + 1))
	[ $i -gt 200 ] && break
	sleep 0.05
done
tries=0
refused=0
while [ $tries -lt 3 ]; do
	before=$(done_samples)
	if rmmod lattester 2>"$OUT/rmmod.err"; then
		bad "rmmod succeeded during a run"
		break
	fi
	refused=$((refused + 1))
	s=$(cat $D/state)
	sleep 0.2
	after=$(done_samples)
	if [ "$s" != running ] && [ $tries = 0 ]; then
		bad "state '$s' right after the refused rmmod (the run ended too early?)"
	fi
	echo "rmmod refused ($(cat "$OUT/rmmod.err")); state $s, samples $before -> $after"
	[ "$s" = running ] && [ "$after" -le "$before" ] &&
		bad "the run stopped advancing after rmmod"
	tries=$((tries + 1))
done
[ $refused = 3 ] && ok "rmmod refused 3 times while the run went on"
set -- $(grep '^lattester ' /proc/modules) 0 0 0
if [ "$1" = lattester ] && [ "$3" -ge 1 ]; then
	ok "lattester still loaded, in use by $3 (the run's open file)"
else
	bad "lattester gone from /proc/modules, or not in use: $*"
fi
wait $pid
st=$?
echo "lattester-ctl exit status $st, state $(cat $D/state), progress $(cat $D/progress)"
[ $st = 0 ] && ok "the run completed (exit 0)" || { bad "exit status $st"; cat "$OUT/run.txt"; }
[ "$(cat $D/state)" = done ] && [ "$(cat $D/progress)" = "$N $N" ] &&
	ok "state done, $N of $N samples" || bad "state $(cat $D/state), progress $(cat $D/progress)"
if rmmod lattester; then
	ok "rmmod after the run"
else
	bad "rmmod after the run"
fi
insmod /lib/modules-extra/lattester.ko && [ -c /dev/lattester ] &&
	ok "insmod again" || bad "insmod again"
exit $rc
