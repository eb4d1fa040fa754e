#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build the suite's CXL targets and name them in /tmp/cxl.env (see
# /tests/lib/cxl.sh), each checked first by writing a pattern and reading it
# back:
#   6.12: two 256 MiB ram regions from the device's volatile half, through
#         sysfs (ndctl 76's cxl tool can't create one); dax_cxl gives each
#         a device-DAX device, left in devdax mode (kmem is not loaded)
#   both: a 512 MiB pmem region (cxl create-region), carved into a 128 MiB
#         fsdax and a 128 MiB devdax namespace
# The ram region comes first: an endpoint's decoders take device addresses
# in increasing order, and the volatile half comes first.
. /tests/lib/cxl.sh
set -u

[ -d $CXL/mem0 ] || { echo "FAIL: no CXL memdev (cxl_pci/cxl_mem not loaded?)"; ls $CXL; exit 1; }
: >/tmp/cxl.env

# --- ram regions (6.12) -----------------------------------------------------------
rd=$CXL/decoder0.0
# mkram SIZE: a committed ram region of SIZE bytes, its dax device bound to
# device_dax and checked; sets name, R, dax, node
mkram() {
	name=$(cat $rd/create_ram_region)
	echo "$name" >$rd/create_ram_region || { echo "FAIL: create_ram_region $name"; exit 1; }
	R=$CXL/$name
	cat $rd/interleave_granularity >$R/interleave_granularity
	echo 1 >$R/interleave_ways
	echo "$1" >$R/size || { echo "FAIL: $name: size"; exit 1; }
	ep=
	for d in $CXL/decoder2.*; do
		[ $(($(cat $d/dpa_size))) -eq 0 ] && { ep=$(basename $d); break; }
	done
	[ -n "$ep" ] || { echo "FAIL: no free endpoint decoder"; exit 1; }
	echo ram >$CXL/$ep/mode && echo "$1" >$CXL/$ep/dpa_size &&
		echo $ep >$R/target0 && echo 1 >$R/commit &&
		echo $name >/sys/bus/cxl/drivers/cxl_region/bind ||
		{ echo "FAIL: $name: commit through $ep"; exit 1; }
	echo "ok: ram region $name: $(sysval $R/resource) +$(sysval $R/size) through $ep"
	i=0
	while [ $i -lt 50 ]; do
		dax=$(ls -d $R/dax_region*/dax*.* 2>/dev/null | head -n1)
		[ -n "$dax" ] && break
		sleep 0.1
		i=$((i + 1))
	done
	[ -n "$dax" ] || { echo "FAIL: $name has no dax device (dax_cxl?)"; ls $R; exit 1; }
	dax=$(basename "$dax")
	wait_dev /dev/$dax || { echo "FAIL: /dev/$dax did not appear"; exit 1; }
	# dax_cxl leaves the device to kmem, which is not loaded: bind it to
	# device_dax
	if [ ! -e /sys/bus/dax/devices/$dax/driver ]; then
		daxctl reconfigure-device -m devdax "$dax" >/dev/null ||
			{ echo "FAIL: daxctl reconfigure-device -m devdax $dax"; exit 1; }
	fi
	echo "ok: $dax: driver $(basename "$(readlink /sys/bus/dax/devices/$dax/driver)")"
	node=$(sysval /sys/bus/dax/devices/$dax/target_node)
	readback "ram region $name" /dev/$dax $((4 << 20)) || exit 1
}
if [ -e $rd/create_ram_region ]; then
	# two of 256 MiB: one window is one node, so once both are online
	# the node holds more than either (35-target-node)
	mkram 0x10000000
	daxctl list -d "$dax" >"$OUT/ram-dax.json"
	echo "RAM_REGION=$name RAM_DAX=/dev/$dax RAM_NODE=$node RAM_START=$(($(sysval $R/resource))) RAM_SIZE=$(($(sysval $R/size)))" >>/tmp/cxl.env
	mkram 0x10000000
	echo "RAM2_REGION=$name RAM2_DAX=/dev/$dax" >>/tmp/cxl.env
else
	echo "note: $(uname -r) has no create_ram_region: no ram region"
	echo "RAM_REGION= RAM_DAX= RAM_NODE= RAM2_REGION= RAM2_DAX=" >>/tmp/cxl.env
fi

# --- pmem region (both) ----------------------------------------------------------
# 6.1's cxl_pmem oopsed once in make check under load (a NULL pointer in
# release_mappings(), on cxl_pmem_region_probe()'s error path), the region
# probing before, it seems, the memdev's nvdimm was bound to cxl_nvdimm;
# not reproduced.  Waiting for that binding rules the race out (it is
# there at once in the runs seen since)
i=0
while [ $i -lt 50 ] && [ ! -e $CXL/pmem0/driver ]; do
	sleep 0.1
	i=$((i + 1))
done
if [ -e $CXL/pmem0/driver ]; then
	echo "ok: pmem0 bound to $(basename "$(readlink $CXL/pmem0/driver)") (after $i waits of 0.1 s)"
else
	echo "note: no $CXL/pmem0/driver after 5 s: creating the pmem region all the same"
fi
j=$(cxl create-region -m -d decoder0.0 -t pmem -w 1 mem0 2>&1) || { echo "$j"; echo "FAIL: cxl create-region -t pmem"; exit 1; }
echo "$j" >"$OUT/pmem-region.json"
preg=$(jfield region "$j")
[ -d $CXL/$preg ] || { echo "$j"; echo "FAIL: no $CXL/$preg after create-region"; exit 1; }
echo "ok: pmem region $preg: $(sysval $CXL/$preg/resource) +$(sysval $CXL/$preg/size)"
# its libnvdimm region
i=0
while [ $i -lt 50 ]; do
	ndr=$(ndctl list -R 2>/dev/null | grep -o '"dev":"region[0-9]*"' | head -n1 | cut -d'"' -f4)
	[ -n "$ndr" ] && break
	sleep 0.1
	i=$((i + 1))
done
[ -n "$ndr" ] || { echo "FAIL: $preg has no nvdimm region"; exit 1; }
mkns() {
	j=$(ndctl create-namespace -r "$ndr" -m "$1" -s 128M 2>&1) || { echo "$j"; echo "FAIL: create-namespace -m $1 on $ndr"; exit 1; }
	echo "$j" >"$OUT/ns-$1.json"
	case $1 in
	devdax) dev=/dev/$(jfield chardev "$j") ;;
	*) dev=/dev/$(jfield blockdev "$j") ;;
	esac
	wait_dev "$dev" || { echo "FAIL: $dev did not appear"; exit 1; }
	echo "ok: $1 namespace $(jfield dev "$j") at $dev"
}
mkns fsdax
fsdax=$dev
mkns devdax
devdax=$dev
echo "PMEM_REGION=$preg FSDAX_DEV=$fsdax DEVDAX_DEV=$devdax PMEM_START=$(($(sysval $CXL/$preg/resource))) PMEM_SIZE=$(($(sysval $CXL/$preg/size)))" >>/tmp/cxl.env
readback "fsdax on $preg" "$fsdax" $((4 << 20))
readback "devdax on $preg" "$devdax" $((4 << 20))
cat /tmp/cxl.env
cp /tmp/cxl.env "$OUT/cxl.env"
exit $rc
