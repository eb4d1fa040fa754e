#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The demo, inside the VM: what lattester-ctl shows on a machine with two
# NUMA nodes and an emulated NVDIMM.  Under QEMU's software emulation the
# figures are emulator artifacts; the point is the path, not the numbers.
set -eu
show() {
	echo
	echo "\$ $*"
	"$@"
}
show lattester-ctl info
common="--region 64M --samples 20000"
# shellcheck disable=SC2086
{
show lattester-ctl run --op load --pattern rand $common
show lattester-ctl run --target dram:1 --cpu 0 --op load --pattern rand $common
show lattester-ctl run --op store-clwb --size 256 --pattern seq $common
show lattester-ctl run --op nt-store --size 256 --pattern hotspot:4096 \
	--threshold 2000 $common
show lattester-ctl run --op load --pattern chase --chain 16 $common
}
echo
echo "What can be measured: NUMA nodes, the emulated NVDIMM's namespace:"
show lattester-ctl list
# shellcheck disable=SC2086
{
show lattester-ctl run --target /dev/pmem0 --cpu 0 --op load --pattern rand $common
show lattester-ctl run --target /dev/pmem0 --cpu 0 --op store-clwb --size 256 \
	--pattern seq --force $common
}
echo
echo "Data for the plots (tools/demo draws them on the host): a run's"
echo "histogram and outliers, and two small sweeps."
show lattester-ctl run --quiet --op nt-store --size 256 --pattern hotspot:4096 \
	--threshold 5x --region 64M --samples 50000 --hist "$OUT/hotspot.hist" \
	--outliers "$OUT/hotspot-outliers.csv"
show lattester-ctl sweep --quiet --op load,nt-store --pattern rand \
	--size 64..64Kx4 --samples 2000 --region 64M --out "$OUT/size.csv"
show lattester-ctl sweep --quiet --op load,nt-load,store-clwb,nt-store \
	--pattern seq,rand --size 64,256 --samples 2000 --region 64M \
	--out "$OUT/basic.csv"
