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
