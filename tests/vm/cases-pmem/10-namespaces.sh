#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Carve the NVDIMM's region into namespaces of every mode, side by side, and
# name them in /tmp/pmem.env for the later cases:
#   FSDAX   128 MiB fsdax   (/dev/pmemN)     measured
#   DEVDAX   64 MiB devdax  (/dev/daxX.Y)    measured
#   RAW      32 MiB raw     (/dev/pmemN.M)   measured by name
#   SECTOR   32 MiB sector  (BTT)            refused
#   OFF      32 MiB fsdax, then disabled     refused
#   GUARD    64 MiB fsdax   ext4 goes on it (50-guard)
#   DAXFS    64 MiB fsdax   ext4 -o dax, files for --engine user (71)
# A kernel without device-DAX (Debian's PREEMPT_RT: DEV_DAX needs THP) gets
# no DEVDAX (DEVDAX_NS empty; the cases skip what needs it).
. /tests/lib/pmem.sh
set -u

ndctl disable-region all && ndctl init-labels -f all && ndctl enable-region all ||
	{ echo "FAIL: cannot reinitialize the labels"; exit 1; }

: >/tmp/pmem.env
# mk VAR MODE SIZE: create a namespace, record VAR_NS and VAR_DEV
mk() {
	var=$1 mode=$2 size=$3
	if ! j=$(ndctl create-namespace -r region0 -m "$mode" -s "$size" 2>&1); then
		echo "$j"
		if [ "$mode" = devdax ] && [ ! -d /sys/bus/dax/drivers/device_dax ]; then
			echo "note: no device_dax driver in this kernel: no devdax namespace"
			# the failed attempt can leave its namespace behind
			left=$(echo "$j" | grep -o 'namespace[0-9]*\.[0-9]*' | head -n1)
			[ -n "$left" ] && ndctl destroy-namespace -f "$left" >/dev/null 2>&1
			echo "${var}_NS= ${var}_DEV=" >>/tmp/pmem.env
			return 0
		fi
		echo "FAIL: create-namespace -m $mode -s $size"
		exit 1
	fi
	echo "$j" >"$OUT/create-$var.json"
	ns=$(jfield dev "$j")
	case $mode in
	devdax) dev=/dev/$(jfield chardev "$j") ;;
	*) dev=/dev/$(jfield blockdev "$j") ;;
	esac
	wait_dev "$dev" || { echo "FAIL: $dev ($ns) did not appear"; exit 1; }
	echo "${var}_NS=$ns ${var}_DEV=$dev" >>/tmp/pmem.env
	echo "ok: $var: $ns ($mode, $size) at $dev"
}

mk FSDAX fsdax 128M
mk DEVDAX devdax 64M
mk RAW raw 32M
mk SECTOR sector 32M
mk OFF fsdax 32M
mk GUARD fsdax 64M
mk DAXFS fsdax 64M
. /tmp/pmem.env
ndctl disable-namespace "$OFF_NS" || { echo "FAIL: disable-namespace $OFF_NS"; exit 1; }
echo "ok: $OFF_NS disabled"
cat /tmp/pmem.env
cp /tmp/pmem.env "$OUT/pmem.env"
ndctl list -RNi
exit 0
