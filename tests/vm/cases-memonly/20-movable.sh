#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A memory-only node onlined as ZONE_MOVABLE, as daxctl onlines CXL memory
# by default: its memory blocks are taken offline and brought back with
# online_movable (those the kernel can offline); then dram:1 must be
# measurable over more than the node holds outside ZONE_MOVABLE (the module
# falls back to __GFP_MOVABLE chunks; before, it answered ENOMEM).
set -u
rc=0
node=/sys/devices/system/node/node1
for b in "$node"/memory*; do
	[ "$(cat "$b/state")" = online ] && echo offline >"$b/state" 2>/dev/null
done
for b in "$node"/memory*; do
	[ "$(cat "$b/state")" = offline ] && echo online_movable >"$b/state" 2>/dev/null
done
# what is left of node 1's zones: pages present in Movable, and in the
# others (DMA32 below 4 GiB, Normal above)
grep -A4 "^Node 1, zone" /proc/zoneinfo | grep -E "^Node|present"
movable=$(awk '/^Node 1, zone/ { z = $4 } /^Node [^1]/ { z = "" }
	z == "Movable" && $1 == "present" { n += $2 } END { print n + 0 }' /proc/zoneinfo)
normal=$(awk '/^Node 1, zone/ { z = $4 } /^Node [^1]/ { z = "" }
	z != "" && z != "Movable" && $1 == "present" { n += $2 } END { print n + 0 }' /proc/zoneinfo)
echo "node 1: ${normal} pages present outside ZONE_MOVABLE, ${movable} in it"
if [ "${movable:-0}" -eq 0 ]; then
	echo "FAIL: no block of node 1 could be onlined movable"
	exit 1
fi
# a region beyond what node 1 holds outside ZONE_MOVABLE (blocks the
# kernel can't offline stay in DMA32/Normal): it needs the movable pages
region=$(( (normal * 4 / 1024 + 128) / 4 * 4 ))
free=$(awk '/MemFree/ { print int($4 / 1024) }' "$node/meminfo")
echo "node 1: ${free} MiB free; the run asks ${region} MiB"
if [ $((region * 2)) -gt "$free" ]; then
	echo "SKIP: node 1 has too little memory outside ZONE_MOVABLE offlined for a region beyond it (lattester-ctl keeps to half the free memory)"
	exit 77
fi
if lattester-ctl run --quiet --target dram:1 --cpu 0 --samples 2000 \
	--region "${region}M" --json "$OUT/movable.json" >/tmp/mov.out 2>&1; then
	echo "ok: dram:1 measured over ${region} MiB, more than it holds outside ZONE_MOVABLE"
else
	echo "FAIL: dram:1 over ${region} MiB, beyond its memory outside ZONE_MOVABLE: $(cat /tmp/mov.out)"
	rc=1
fi
exit $rc
