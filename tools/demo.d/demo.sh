#!/bin/sh
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
