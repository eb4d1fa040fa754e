#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The ram region's memory as a NUMA node, the way daxctl onlines it by
# default: kmem, ZONE_MOVABLE.  Both engines measure it as dram:NODE (the
# module allocates there from ZONE_MOVABLE).  6.12 only: 6.1 has no
# dax_cxl, so no ram region.
. /tests/lib/cxl.sh
set -u
need_ram_region
dax=${RAM_DAX#/dev/}
node=$RAM_NODE
# 6.12 onlines hot-added memory itself, and daxctl then refuses ("kernel
# policy will auto-online memory"): let daxctl do it, movable
echo offline >/sys/devices/system/memory/auto_online_blocks
modprobe kmem || { echo "FAIL: modprobe kmem"; exit 1; }
j=$(daxctl reconfigure-device --mode=system-ram "$dax" 2>&1) ||
	{ echo "$j"; echo "FAIL: daxctl reconfigure-device --mode=system-ram $dax"; exit 1; }
echo "$j" >"$OUT/reconfigure.out"
echo "$j" | grep -q '"movable":true' || fail "$dax: not onlined movable: $j"
[ "$(cat /sys/devices/system/node/node$node/meminfo 2>/dev/null | awk '/MemTotal/ {print $4}')" -gt 0 ] 2>/dev/null ||
	fail "node $node has no memory after onlining $dax"
grep -H . /sys/devices/system/node/node$node/meminfo | grep -E 'MemTotal|MemFree'
echo "ok: $dax online as node $node"

# a run's 8 MiB region comes out of the CXL node: its free memory drops
# by that much while the run holds it (cxl.sh's held_on_node)
for e in kernel user; do
	held_on_node "$node" 7000 "$e engine, an 8 MiB region on dram:$node" \
		--engine $e --cpu 0 --target "dram:$node" --region 8M
done

run_json "node-kernel@load@rand" --target "dram:$node" --region 4M
run_json "node-kernel@store@seq" --target "dram:$node" --region 4M --op store --pattern seq
run_json "node-user@load@rand" --engine user --target "dram:$node" --region 4M
echo "RAM_ONLINE_NODE=$node" >"$OUT/node.env"
exit $rc
