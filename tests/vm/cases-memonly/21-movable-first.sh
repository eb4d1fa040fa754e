#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A node with both zones, ZONE_MOVABLE holding most of its free pages (20
# left node 1 so, as daxctl leaves a CXL node whose memory it onlined
# movable): the module takes a DRAM region's chunks from ZONE_MOVABLE
# first and spares the kernel's zones, which the kernel's own allocations
# need (kmod/dram.c, LATT_ZONES_MOVABLE_FIRST).  Seen from outside, while
# a run holds its region: node 1's free pages in ZONE_MOVABLE fall by the
# region, those of its other zones by far less.  Before, the kernel's zones
# went first (and reclaimed) until they ran dry.
set -u
rc=0
# free pages of node 1: in ZONE_MOVABLE (movable) or in its other zones
zfree() {
	awk -v want="$1" '/^Node 1, zone/ { z = $4 } /^Node [^1]/ { z = "" }
		z != "" && $1 == "pages" && $2 == "free" {
			if ((want == "movable") == (z == "Movable")) n += $3 }
		END { print n + 0 }' /proc/zoneinfo
}
m0=$(zfree movable)
k0=$(zfree kernel)
echo "node 1 before: ${m0} free pages in ZONE_MOVABLE, ${k0} in its other zones"
region=64	# MiB: 16384 pages
if [ "$m0" -le "$k0" ]; then
	echo "FAIL: node 1's free pages are not mostly in ZONE_MOVABLE (20-movable onlines them so)"
	exit 1
fi
if [ "$k0" -lt $((region * 256 * 2)) ]; then
	# the kernel's zones could not hold the region: taking it from
	# ZONE_MOVABLE would show nothing of the order
	echo "SKIP: node 1 has ${k0} free pages outside ZONE_MOVABLE, fewer than twice the ${region} MiB region: the order of the zones can't be told apart"
	exit 77
fi
lattester-ctl run --quiet --target dram:1 --cpu 0 --samples 1000000000 \
	--region "${region}M" >/tmp/first.out 2>&1 &
pid=$!
i=0
while [ "$(cat /sys/class/misc/lattester/state 2>/dev/null)" != running ] &&
      [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
m1=$(zfree movable)
k1=$(zfree kernel)
kill -INT $pid
wait $pid
echo "node 1 during the run: ${m1} free pages in ZONE_MOVABLE, ${k1} in its other zones; lattester-ctl: $(tail -n 3 /tmp/first.out | tr '\n' ' ')"
want=$((region * 256))
if [ $((m0 - m1)) -ge $((want * 9 / 10)) ] &&
   [ $((k0 - k1)) -lt $((want / 4)) ]; then
	echo "ok: the ${region} MiB region came from ZONE_MOVABLE ($((m0 - m1)) pages), the other zones gave $((k0 - k1))"
else
	echo "FAIL: the ${region} MiB region ($want pages): ZONE_MOVABLE gave $((m0 - m1)) pages, the other zones $((k0 - k1)): not ZONE_MOVABLE first"
	rc=1
fi
exit $rc
