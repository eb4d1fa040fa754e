#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Issue 27, cross-target interference on CXL, in both engines:
#   - the CXL pmem region's device-DAX namespace (both kernels): DRAM
#     probed with writing traffic on it (its checksum changes), and it
#     probed with writing traffic on DRAM (its checksum stays);
#   - after 30-ram-node onlined the ram region as node RAM_NODE (6.12):
#     DRAM (dram:0) probed with the traffic on the CXL region
#     (--traffic-target cxl:RAM_REGION, which resolves to dram:RAM_NODE),
#     and the CXL region with the traffic on DRAM; the traffic's memory
#     comes out of the CXL node: its free memory falls by the region while
#     a run holds it.
# 36-traffic.check reads the JSON on the host.
. /tests/lib/cxl.sh
set -u
cp /tmp/cxl.env "$OUT/cxl.env"
L="--mode loaded --cpus 0,1 --samples 2000 --region 4M --mix 2:1"
B=$((4 << 20))
for e in kernel user; do
	# a pattern of its own first: the engines' stores write alike
	daxsum fill "$DEVDAX_DEV" $B || fail "daxsum fill $DEVDAX_DEV"
	s0=$(daxsum sum "$DEVDAX_DEV" $B)
	# shellcheck disable=SC2086 # $L: the options
	run_json "dax-$e-dram-probe" --engine $e $L --target dram:0 \
		--traffic-target "$DEVDAX_DEV" --force
	s1=$(daxsum sum "$DEVDAX_DEV" $B)
	[ "$s1" != "$s0" ] && echo "ok: $e: the traffic's stores changed $DEVDAX_DEV" ||
		fail "$e: writing traffic on $DEVDAX_DEV left it unchanged"
	# shellcheck disable=SC2086
	run_json "dax-$e-dax-probe" --engine $e $L --target "$DEVDAX_DEV" \
		--traffic-target dram:0
	s2=$(daxsum sum "$DEVDAX_DEV" $B)
	[ "$s2" = "$s1" ] && echo "ok: $e: traffic on dram left the probed $DEVDAX_DEV as it was" ||
		fail "$e: traffic on dram changed the probed $DEVDAX_DEV"
done
# a skip here would hide the checks above: ended with their status
if [ -z "${RAM_REGION:-}" ]; then
	echo "note: no CXL ram region on $(uname -r) (no dax_cxl): its node's cases not run"
	exit $rc
fi
node=$RAM_NODE

for e in kernel user; do
	# shellcheck disable=SC2086 # $L: the options
	run_json "traffic-$e-dram-probe" --engine $e $L --target dram:0 \
		--traffic-target "cxl:$RAM_REGION"
	# shellcheck disable=SC2086
	run_json "traffic-$e-cxl-probe" --engine $e $L \
		--target "cxl:$RAM_REGION" --traffic-target dram:0
done

# the traffic's 32 MiB are the CXL node's, the probe's 8 node 0's: half
# the traffic's region is the bar (cxl.sh's held_on_node: the per-CPU
# lists; MemFree moved by 2 to 4 MiB otherwise, runs of 8 MiB saw), the
# probe's would not reach it; a region on another node moves MemFree
# here by nothing
for e in kernel user; do
	held_on_node "$node" 16384 "$e engine, 32 MiB of traffic on dram:$node" \
		--engine $e --mode loaded --cpus 0,1 --target dram:0 \
		--region 8M --traffic-target "dram:$node" --traffic-region 32M
done
exit $rc
