#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 00-boot: the VM rig itself works: lattester.ko is loaded, its device node
# and sysfs attributes are there, and the emulated NVDIMM shows up as an
# ndctl namespace with a /dev/pmem0 block device.
# Guest case (busybox sh): OUT is this case's output directory.

fail=0
pass() { echo "ok: $*"; }
bad() {
	echo "FAIL: $*"
	fail=1
}

if grep -q '^lattester ' /proc/modules; then
	pass "lattester is in /proc/modules"
else
	bad "lattester is not in /proc/modules"
fi

if [ -c /dev/lattester ]; then
	pass "/dev/lattester is a character device"
else
	bad "/dev/lattester missing"
fi

if v=$(cat /sys/class/misc/lattester/abi_version) && [ -n "$v" ]; then
	pass "abi_version = $v"
else
	bad "/sys/class/misc/lattester/abi_version not readable"
fi

# Namespaces: the NVDIMM's label area is blank, so the kernel offers the whole
# region as one raw namespace.
if ndctl list -R -N >"$OUT/ndctl-list.json" 2>"$OUT/ndctl-list.err"; then
	cat "$OUT/ndctl-list.json"
	if grep -q '"dev":"namespace[0-9]' "$OUT/ndctl-list.json"; then
		pass "ndctl lists a namespace"
	else
		bad "ndctl list shows no namespace"
	fi
else
	cat "$OUT/ndctl-list.err"
	bad "ndctl list failed"
fi

# /dev/pmem0 can appear after modprobe has returned.
i=0
while [ ! -b /dev/pmem0 ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
if [ -b /dev/pmem0 ]; then
	pass "/dev/pmem0 is a block device ($(cat /sys/block/pmem0/size) sectors)"
else
	bad "/dev/pmem0 did not appear within 5 s"
fi

echo "info: kernel $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPUs," \
	"nodes: $(cat /sys/devices/system/node/online)"
exit $fail
