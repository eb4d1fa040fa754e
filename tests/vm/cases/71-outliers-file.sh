#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# run --outliers: every record to CSV and to JSON, with counts matching the
# summary (71-outliers-file.check); the threshold as cycles, as a time and
# as a multiple of the median (with its calibration pass); the SMI count
# either read or said to be unavailable.
# vm-kernels: 6.12.*+deb12-amd64
# vm-kernels-why: lattester-ctl's outlier files: the same on every kernel
set -eu
common="--quiet --samples 3000 --region 16M --max-outliers 100000"
# shellcheck disable=SC2086
{
lattester-ctl run $common --threshold 1 --outliers "$OUT/low.csv" \
	--json "$OUT/low.json" >"$OUT/low.txt"
lattester-ctl run $common --threshold 1 --outliers "$OUT/low-out.json" \
	>/dev/null
# 4 KiB: a median of one timer step is no basis for a multiple (refused),
# and under TCG a 64-byte access can time at one step
lattester-ctl run $common --threshold 2x --size 4096 \
	--outliers "$OUT/median.csv" --json "$OUT/median.json" >"$OUT/median.txt"
lattester-ctl run $common --threshold 100ns --json "$OUT/time.json" \
	>"$OUT/time.txt"
}
cat "$OUT/low.txt" "$OUT/median.txt"
grep -q "^outliers: .* above 1 cycles" "$OUT/low.txt"
grep -q "^smi: " "$OUT/low.txt"
grep -q "^spacing: " "$OUT/low.txt"
grep -q "threshold 2x the median of [0-9]* cycles, from a 3000-sample calibration pass" \
	"$OUT/median.txt"
# the file needs a threshold, and a known extension
if lattester-ctl run --samples 100 --outliers "$OUT/x.csv" 2>/dev/null; then
	echo "FAIL: --outliers without --threshold accepted"; exit 1
fi
if lattester-ctl run --samples 100 --threshold 1 --outliers "$OUT/x.txt" 2>/dev/null; then
	echo "FAIL: --outliers x.txt accepted"; exit 1
fi
