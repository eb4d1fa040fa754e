#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 65-open-close: while a run goes, other files of /dev/lattester are opened
# and closed thousands of times (two shell loops, 2 x 1500, and
# lattester-ctl info, which also asks GET_INFO): the run goes on, since only
# the final close of the starter's file aborts; then SIGINT ends it (exit
# 130, aborted) and the module still works.
set -u
D=/sys/class/misc/lattester
rc=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; rc=1; }
done_samples() { cut -d' ' -f1 $D/progress; }

lattester-ctl run --quiet --samples 1000000000000 --region 16M \
	--json "$OUT/run.json" >"$OUT/run.txt" 2>&1 &
pid=$!
i=0
while [ "$(cat $D/state)" != running ] || [ "$(done_samples)" -eq 0 ]; do
	i=$((i + 1))
	[ $i -gt 200 ] && { bad "the run did not get going"; break; }
	sleep 0.05
done
p0=$(done_samples)

loop() {	# open and close N times; exit status: failures
	f=0
	j=0
	while [ $j -lt $1 ]; do
		exec 3<>/dev/lattester || f=$((f + 1))
		exec 3>&-
		j=$((j + 1))
	done
	exit $f
}
loop 1500 &
l1=$!
loop 1500 &
l2=$!
info_fail=0
k=0
while [ $k -lt 20 ]; do
	lattester-ctl info >/dev/null 2>&1 || info_fail=$((info_fail + 1))
	k=$((k + 1))
done
wait $l1
f1=$?
wait $l2
f2=$?
[ $f1 = 0 ] && [ $f2 = 0 ] && [ $info_fail = 0 ] &&
	ok "3000 opens and closes and 20 lattester-ctl info during the run" ||
	bad "failed opens: $f1 + $f2, failed info: $info_fail"

s=$(cat $D/state)
p1=$(done_samples)
sleep 0.3
p2=$(done_samples)
echo "state $s; samples $p0 before the loops, $p1 after, $p2 0.3 s later"
[ "$s" = running ] && [ "$p2" -gt "$p1" ] && [ "$p1" -gt "$p0" ] &&
	ok "the run went on and still advances" || bad "the run did not survive the opens and closes"

kill -INT $pid
wait $pid
st=$?
s=$(cat $D/state)
[ $st = 130 ] && [ "$s" = aborted ] && ok "SIGINT: exit 130, state aborted" ||
	{ bad "SIGINT: exit $st, state $s"; cat "$OUT/run.txt"; }
if lattester-ctl run --quiet --samples 10000 --region 16M >/dev/null; then
	ok "a normal run works afterwards"
else
	bad "a normal run afterwards failed"
fi
exit $rc
