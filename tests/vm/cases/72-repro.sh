#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The experiment scripts (tools/repro-*) end to end with tiny sample
# counts: the numbers mean nothing under emulation, the pipeline does.
# Their data files go to $OUT; the host draws them (72-repro.check).
# vm-kernels: 6.12.*+deb12-amd64
# vm-kernels-why: the experiment scripts: lattester-ctl's, the same on every kernel
set -eu
repro-basic-latency -n 300 -o "$OUT/basic" --no-plot -- --region 16M
repro-size -n 50 -s 64..16Kx4 -o "$OUT/size" --no-plot -- --region 16M
# the script's --threshold 10x needs a median above one timer step, which
# a 256-byte nt-store under TCG may not have: a time is a threshold anyway
repro-tail-hotspot -n 2000 -H 4K..1Mx16 -o "$OUT/hotspot" --no-plot -- \
	--region 16M --threshold 2us
# a second run of a finished experiment resumes: nothing to do
repro-size -n 50 -s 64..16Kx4 -o "$OUT/size" --no-plot -- --region 16M \
	2>"$OUT/size-again.err"
grep -q "0 measured, 0 failed, 10 already in the files" "$OUT/size-again.err"
