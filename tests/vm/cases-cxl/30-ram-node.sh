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

# held_on_node ENGINE: a run's 8 MiB region comes out of the CXL node:
# its free memory drops by that much while the run holds it
memfree() {
	awk '/MemFree/ {print $4}' /sys/devices/system/node/node$node/meminfo
}
held_on_node() {
	local f0 f1
	f0=$(memfree)
	if ! bg_run /tmp/bg.out --engine "$1" --quiet --cpu 0 --target "dram:$node" \
		--region 8M --samples 100000000; then
		fail "$1: the background run on dram:$node did not start"
		cat /tmp/bg.out
		kill "$bg_pid" 2>/dev/null
		return
	fi
	f1=$(memfree)
	kill -INT "$bg_pid"
	wait "$bg_pid"
	if [ $((f0 - f1)) -ge 7000 ]; then
		echo "ok: $1 engine: node $node free memory fell by $((f0 - f1)) kB under an 8 MiB region"
	else
		fail "$1 engine: node $node free memory fell by $((f0 - f1)) kB under an 8 MiB region: not from the CXL node?"
	fi
}
held_on_node kernel
held_on_node user

run_json "node-kernel@load@rand" --target "dram:$node" --region 4M
run_json "node-kernel@store@seq" --target "dram:$node" --region 4M --op store --pattern seq
run_json "node-user@load@rand" --engine user --target "dram:$node" --region 4M
echo "RAM_ONLINE_NODE=$node" >"$OUT/node.env"
exit $rc
