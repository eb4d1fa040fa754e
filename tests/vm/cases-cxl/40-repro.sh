#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The CXL experiment scripts end to end with tiny counts (the figures mean
# nothing under emulation; the pipeline does).  6.12: the ram region is
# online as memory-only node 1 (30-ram-node), which repro-cxl-latency must
# find by itself, and repro-cxl-bandwidth streams it with 1 and 2 threads.
# 6.1: repro-cxl-latency on the pmem region's devdax namespace.
# 40-repro.check reads the CSVs on the host.
. /tests/lib/cxl.sh
set -u
cd /tmp || exit 1
if [ -n "${RAM_DAX:-}" ]; then
	if repro-cxl-latency -n 100 --no-plot -- --region 4M >/tmp/lat.out 2>&1; then
		cat /tmp/lat.out
		cp -r "/tmp/repro-cxl-latency-dram_$RAM_NODE" "$OUT/latency" ||
			fail "repro-cxl-latency did not name its folder after dram:$RAM_NODE"
	else
		cat /tmp/lat.out
		fail "repro-cxl-latency on the memory-only node"
	fi
	repro-cxl-bandwidth -t 1..2 -d 20ms -o "$OUT/bandwidth" --no-plot \
		"dram:$RAM_NODE" -- --region 4M || fail "repro-cxl-bandwidth dram:$RAM_NODE"
	echo "CXL_TARGET=dram:$RAM_NODE" >"$OUT/repro.env"
else
	repro-cxl-latency -n 100 -o "$OUT/latency" --no-plot "$DEVDAX_DEV" -- \
		--region 4M --force || fail "repro-cxl-latency $DEVDAX_DEV"
	echo "CXL_TARGET=$DEVDAX_DEV" >"$OUT/repro.env"
fi
exit $rc
