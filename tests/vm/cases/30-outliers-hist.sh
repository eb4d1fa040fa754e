#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A low threshold yields outlier records that match the summary; --hist
# writes a histogram whose counts add up to the samples.
set -eu
lattester-ctl run --quiet --samples 3000 --region 16M --threshold 1 \
	--max-outliers 100000 --json "$OUT/low.json" --hist "$OUT/low.hist" \
	>"$OUT/low.txt"
lattester-ctl run --quiet --samples 3000 --region 16M --threshold 1 \
	--max-outliers 10 --json "$OUT/capped.json" >"$OUT/capped.txt"
cat "$OUT/low.txt"
