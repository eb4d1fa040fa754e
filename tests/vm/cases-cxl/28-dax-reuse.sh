#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A device-DAX region the module keeps between runs (LATT_CFG_REUSE, as a
# sweep's points do) is taken again only while the device still owns the
# range (issue 24 item 3).  The second ram region's dynamic device-DAX
# device (dax-reuse.c does the runs, /tmp/dax-step the daxctl steps):
#   1. on 16 MiB of it: a load run kept; the device unbound, shrunk to
#      half, bound again, and a second device made on the freed half and
#      filled; the next point, a store run with FORCE over the kept region,
#      is refused with EINVAL, and the second device's bytes are unchanged;
#   2. the device whole again (256 MiB), a load run kept; shrunk to half,
#      the freed half (whole memory blocks) a second device onlined as
#      System RAM: the next point is refused (EBUSY, or EINVAL).
# Ends with the device as it was (devdax, whole) for 30-ram-node and
# 35-target-node.  6.12 only (6.1 has no ram region).
. /tests/lib/cxl.sh
set -u
[ -n "${PMEM_REGION:-}" ] || { echo "FAIL: no /tmp/cxl.env (10-regions failed?)"; exit 1; }
[ -n "${RAM2_DAX:-}" ] || { echo "SKIP: $(uname -r) has no CXL ram region (no dynamic device-DAX device)"; exit 77; }
d=${RAM2_DAX#/dev/}
reg=${d#dax}
reg=${reg%%.*}
full=$(($(sysval /sys/bus/dax/devices/$d/size)))
# round 1 on 16 MiB: every byte of the second device is summed (TCG)
size=$((16 << 20))
half=$((size / 2))
# resize DEV BYTES (a disabled device stays disabled through
# reconfigure-device -s)
resize() {
	daxctl disable-device "$1" >/dev/null && daxctl reconfigure-device -s "$2" "$1" >/dev/null &&
		daxctl enable-device "$1" >/dev/null
}
resize $d $size || { echo "FAIL: cannot shrink $d to $size bytes for the test"; exit 1; }
# A kernel bug this case drives into, the module no part of it: a dynamic
# device-DAX device held open (as lattester-ctl and a kept region hold it)
# through its unbind, resize and rebind gets "refcount_t: underflow" at a
# later unbind, on 6.12.118 with no lattester ioctl at all (the case with
# its runs left out).  The host's dmesg check leaves that block out,
# never one that names lattester (tests/vm/dmesg-allow.py).
printf '%s\t%s\n' '(?s)refcount_t: underflow; use-after-free.*Comm: daxctl.*device_release_driver_internal.*unbind_store' \
	'6.12 dax bus: a device-DAX device held open through unbind, resize and rebind warns at a later unbind, with no lattester ioctl too' \
	>"$OUT/dmesg-allow"

# the steps dax-reuse runs between its points; the second device's name
# in /tmp/dax2.  mk2 BYTES: the first device shrunk by BYTES, and a second
# device of BYTES on the freed ones
cat >/tmp/dax-step <<EOF
#!/bin/sh
set -u
mk2() {
	now=\$((\$(cat /sys/bus/dax/devices/$d/size)))
	daxctl disable-device $d >/dev/null &&
		daxctl reconfigure-device -s \$((now - \$1)) $d >/dev/null &&
		daxctl enable-device $d >/dev/null ||
		{ echo "step: cannot shrink $d"; exit 1; }
	j=\$(daxctl create-device -r $reg -s \$1) || { echo "step: create-device: \$j"; exit 1; }
	n=\$(printf '%s\n' "\$j" | grep -o '"chardev":"[^"]*"' | cut -d'"' -f4)
	[ -n "\$n" ] || { echo "step: no new device in: \$j"; exit 1; }
	echo "\$n" >/tmp/dax2
	i=0
	while [ ! -c /dev/\$n ] && [ \$i -lt 50 ]; do sleep 0.1; i=\$((i + 1)); done
	echo "step: $d shrunk to \$((now - \$1)) at \$(cat /sys/bus/dax/devices/$d/resource), \$n at \$(cat /sys/bus/dax/devices/\$n/resource)"
}
case \$1 in
shrink)
	mk2 $half
	n=\$(cat /tmp/dax2)
	daxsum fill /dev/\$n $half && daxsum sum /dev/\$n $half >/tmp/dax2.sum ||
		{ echo "step: cannot fill /dev/\$n"; exit 1; }
	;;
same)
	n=\$(cat /tmp/dax2)
	got=\$(daxsum sum /dev/\$n $half)
	echo "step: /dev/\$n sum \$got, before \$(cat /tmp/dax2.sum)"
	[ "\$got" = "\$(cat /tmp/dax2.sum)" ]
	;;
regrow)
	n=\$(cat /tmp/dax2)
	daxctl disable-device \$n >/dev/null && daxctl destroy-device \$n >/dev/null &&
		daxctl disable-device $d >/dev/null &&
		daxctl reconfigure-device -s $full $d >/dev/null &&
		daxctl enable-device $d >/dev/null || exit 1
	echo "step: $d whole again, $full bytes"
	;;
online)
	# kmem takes whole memory blocks: half of the whole device
	mk2 $((full / 2))
	n=\$(cat /tmp/dax2)
	# as 30-ram-node: daxctl onlines it (6.12 would, and daxctl refuses)
	echo offline >/sys/devices/system/memory/auto_online_blocks
	modprobe kmem || { echo "step: modprobe kmem"; exit 1; }
	daxctl reconfigure-device -m system-ram \$n >/dev/null ||
		{ echo "step: cannot online \$n"; exit 1; }
	echo "step: \$n onlined: \$(daxctl list -d \$n | tr -d '\n ')"
	;;
*) exit 2 ;;
esac
EOF
chmod +x /tmp/dax-step
/usr/libexec/lattester/dax-reuse "$RAM2_DAX" /tmp/dax-step || rc=1

# back as it was: the second device offline and destroyed, the first whole
n=$(cat /tmp/dax2 2>/dev/null)
if [ -n "$n" ] && [ -e /sys/bus/dax/devices/$n ]; then
	if daxctl list -d "$n" | grep -q '"mode":"system-ram"'; then
		daxctl reconfigure-device -f -m devdax "$n" >/dev/null ||
			fail "cannot take $n's memory offline again"
	fi
	daxctl disable-device "$n" >/dev/null 2>&1
	daxctl destroy-device "$n" >/dev/null 2>&1 || fail "cannot destroy $n"
fi
if [ "$(($(sysval /sys/bus/dax/devices/$d/size)))" -ne "$full" ]; then
	resize "$d" "$full" || fail "cannot give $d its $full bytes back"
fi
[ -e /sys/bus/dax/devices/$d/driver ] || daxctl enable-device "$d" >/dev/null ||
	fail "cannot enable $d again"
echo "# $d: $(daxctl list -d "$d" | tr -d '\n ')"
exit $rc
