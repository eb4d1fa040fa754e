# SPDX-License-Identifier: GPL-2.0
# Shared by the cxl suite's guest cases (busybox sh): . /tests/lib/cxl.sh
#
# Brings in pmem.sh (rc, fail, wait_dev, jfield, run_json, refused) and
# /tmp/cxl.env, which 10-regions writes:
#   PMEM_REGION  the CXL pmem region (cxl's regionN)
#   FSDAX_DEV    /dev/pmemN of a 128 MiB fsdax namespace on it
#   DEVDAX_DEV   /dev/daxX.Y of a 128 MiB devdax namespace on it
#   PMEM_START, PMEM_SIZE  the pmem region's host physical range
#   RAM_REGION   a 256 MiB CXL ram region (6.12 only; empty on 6.1)
#   RAM_DAX      its device-DAX device, /dev/daxN.0 (empty on 6.1)
#   RAM_NODE     the NUMA node its memory lands on
#   RAM_START, RAM_SIZE    its host physical range
#   RAM2_REGION, RAM2_DAX  a second 256 MiB ram region, the same node's
. /tests/lib/pmem.sh
[ -f /tmp/cxl.env ] && . /tmp/cxl.env

CXL=/sys/bus/cxl/devices

# readback NAME PATH BYTES: write a pattern through a shared mapping of PATH,
# then read it back in another process after the page cache is dropped.
# The first check on every CXL target: a misconfigured emulated topology
# takes every write and reads back zeros.  Returns 1 on a mismatch.
readback() {
	local name=$1 path=$2 bytes=$3 want zero got
	rm -f /tmp/rb.ref
	truncate -s "$bytes" /tmp/rb.ref
	zero=$(daxsum sum /tmp/rb.ref "$bytes")
	daxsum fill /tmp/rb.ref "$bytes" && want=$(daxsum sum /tmp/rb.ref "$bytes")
	rm -f /tmp/rb.ref
	if ! daxsum fill "$path" "$bytes"; then
		fail "$name: cannot write $path"
		return 1
	fi
	sync
	echo 3 >/proc/sys/vm/drop_caches
	got=$(daxsum sum "$path" "$bytes")
	if [ -z "$want" ] || [ "$want" = "$zero" ] || [ "$got" != "$want" ]; then
		fail "$name: $path read back $got after writing $want (zeros: $zero)"
		return 1
	fi
	echo "ok: $name: $bytes bytes written to $path read back intact ($got)"
}

# sysval FILE: a sysfs value, or empty
sysval() {
	cat "$1" 2>/dev/null
}
