#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A memory-only NUMA node (no CPUs: a CXL expander in system-RAM mode) is
# just another dram: target, measured from a CPU of another node.
set -eu
cpus=$(cat /sys/devices/system/node/node1/cpulist)
echo "node1 cpulist: '$cpus'"
[ -z "$cpus" ] || { echo "FAIL: node 1 has CPUs: the topology is not memory-only"; exit 1; }
lattester-ctl info | tee "$OUT/info.txt"
lattester-ctl run --quiet --target dram:1 --cpu 0 --samples 2000 --region 16M \
	--json "$OUT/remote.json"
lattester-ctl run --quiet --target dram:1 --cpu 0 --samples 2000 --region 16M \
	--pattern chase --chain 4 --json "$OUT/chase.json"
