#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# SIGINT mid-run: the run is aborted, what was measured is still printed
# and written, the exit status is 130, and the module is idle again.
set -u
lattester-ctl run --quiet --samples 1000000000 --region 16M \
	--json "$OUT/aborted.json" >"$OUT/aborted.txt" 2>&1 &
pid=$!
sleep 2
kill -INT $pid
wait $pid
rc=$?
cat "$OUT/aborted.txt"
state=$(cat /sys/class/misc/lattester/state)
echo "exit status $rc, module state $state"
[ "$rc" -eq 130 ] || { echo "FAIL: exit status $rc, want 130"; exit 1; }
[ "$state" = aborted ] || { echo "FAIL: state $state"; exit 1; }
grep -qi aborted "$OUT/aborted.txt" || { echo "FAIL: table does not say aborted"; exit 1; }
