#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Issue 27, cross-target interference on CXL: after 30-ram-node onlined
# the ram region as node RAM_NODE, --mode loaded probes DRAM (dram:0) with
# the traffic on the CXL region (--traffic-target cxl:RAM_REGION, which
# resolves to dram:RAM_NODE), and the CXL region with the traffic on
# DRAM, in both engines.  The traffic's memory comes out of the CXL node:
# its free memory falls by the region while a run holds it.
# 36-traffic.check reads the JSON on the host.  6.12 only.
. /tests/lib/cxl.sh
set -u
need_ram_region
node=$RAM_NODE
cp /tmp/cxl.env "$OUT/cxl.env"
L="--mode loaded --cpus 0,1 --samples 2000 --region 4M --mix 2:1"

for e in kernel user; do
	# shellcheck disable=SC2086 # $L: the options
	run_json "traffic-$e-dram-probe" --engine $e $L --target dram:0 \
		--traffic-target "cxl:$RAM_REGION"
	# shellcheck disable=SC2086
	run_json "traffic-$e-cxl-probe" --engine $e $L \
		--target "cxl:$RAM_REGION" --traffic-target dram:0
done

# the traffic's 8 MiB are the CXL node's, the probe's node 0's.  The user
# engine's 4 KiB pages come first from the per-CPU free lists, which
# MemFree does not count (2 MiB of them were seen): half the region is
# the bar; a region on another node moves MemFree here by nothing.
memfree() {
	awk '/MemFree/ {print $4}' /sys/devices/system/node/node$node/meminfo
}
for e in kernel user; do
	f0=$(memfree)
	if ! bg_run /tmp/bg.out --engine $e --quiet --mode loaded --cpus 0,1 \
		--target dram:0 --region 8M --traffic-target "dram:$node" \
		--samples 100000000; then
		fail "$e: the background run did not start: $(cat /tmp/bg.out)"
		kill "$bg_pid" 2>/dev/null
		continue
	fi
	f1=$(memfree)
	kill -INT "$bg_pid"
	wait "$bg_pid"
	if [ $((f0 - f1)) -ge 4096 ]; then
		echo "ok: $e engine: node $node free memory fell by $((f0 - f1)) kB under 8 MiB of traffic"
	else
		fail "$e engine: node $node free memory fell by $((f0 - f1)) kB under 8 MiB of traffic: not on the CXL node?"
	fi
done
exit $rc
