#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lattester-ctl sweep: a small grid into CSV and JSON lines (checked on the
# host by 70-sweep.check); --resume finds every point done; a sweep stopped
# by one Ctrl-C keeps the points it finished, exits 130, and --resume
# completes it without repeating one.
# --threshold 10x needs a median above the timer's step, or the point is
# refused (no multiple of nothing is a threshold): under TCG an access of
# one or two lines can time at one step (26 cycles, seen on the RT
# kernel), so the grid's accesses are 4 and 8 KiB.
# vm-kernels: 6.12.*+deb12-amd64
# vm-kernels-why: a sweep is lattester-ctl's loop over runs that the other cases make on every kernel
set -u
fail() { echo "FAIL: $*"; exit 1; }

lattester-ctl sweep --quiet --op load,nt-store --size 4096,8192 \
	--pattern seq,rand --samples 2000 --region 16M --threshold 10x \
	--out "$OUT/sweep.csv" --out "$OUT/sweep.jsonl" >"$OUT/sweep.txt" 2>&1
rc=$?
cat "$OUT/sweep.txt"
[ $rc -eq 0 ] || fail "sweep exit status $rc"

lattester-ctl sweep --quiet --op load,nt-store --size 4096,8192 \
	--pattern seq,rand --samples 2000 --region 16M --threshold 10x \
	--out "$OUT/sweep.csv" --out "$OUT/sweep.jsonl" --resume \
	>"$OUT/resume.txt" 2>&1
rc=$?
cat "$OUT/resume.txt"
[ $rc -eq 0 ] || fail "resume exit status $rc"
grep -q "0 measured, 0 failed, 8 already in the files" "$OUT/resume.txt" ||
	fail "resume ran points again"

# without --resume an existing file is refused
lattester-ctl sweep --quiet --samples 100 --out "$OUT/sweep.csv" \
	>"$OUT/exists.txt" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "existing --out file: exit status $rc, want 1"
grep -q "exists: add --resume" "$OUT/exists.txt" || fail "no --resume hint"

# Ctrl-C once: the point in progress finishes and is written, then stop.
# 4 points of 10^6 samples (a point lasts past the 1 s before Ctrl-C):
# 16 took 25 of this case's 35 s under the emulator to resume
grid="--op load,nt-store --pattern rand --size 64,4096"
# shellcheck disable=SC2086
lattester-ctl sweep --quiet $grid --samples 1000000 --region 16M \
	--out "$OUT/stopped.csv" >"$OUT/stopped.txt" 2>&1 &
pid=$!
sleep 1
kill -INT $pid
wait $pid
rc=$?
cat "$OUT/stopped.txt"
[ $rc -eq 130 ] || fail "stopped sweep: exit status $rc, want 130"
grep -q "stopping after this point" "$OUT/stopped.txt" || fail "no stop notice"
rows=$(($(wc -l <"$OUT/stopped.csv") - 1))
echo "stopped after $rows of 4 points"
if [ "$rows" -lt 1 ] || [ "$rows" -ge 4 ]; then fail "$rows rows after the stop"; fi
# shellcheck disable=SC2086
lattester-ctl sweep --quiet $grid --samples 1000000 --region 16M \
	--out "$OUT/stopped.csv" --resume >"$OUT/finished.txt" 2>&1
rc=$?
cat "$OUT/finished.txt"
[ $rc -eq 0 ] || fail "resumed sweep: exit status $rc"
exit 0
