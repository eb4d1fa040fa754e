#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# page_size is the smallest page that maps a byte of the region (ABI 2.4),
# not the first byte's: on the raw namespace (/dev/pmem0, its memremap()),
# a region of 2 MiB from a 2 MiB boundary, where the mapping takes one
# 2 MiB page, against the same 2 MiB and 4 KiB more, whose last page can
# only be 4 KiB: that one must say 4096.  Where the 2 MiB region is
# already mapped with 4 KiB pages there is nothing to tell apart: skipped,
# saying so.
set -u
rc=0
start=$(cat /sys/block/pmem0/device/resource 2>/dev/null)
[ -n "$start" ] || { echo "FAIL: no /sys/block/pmem0/device/resource"; exit 1; }
# an offset into the namespace that puts the region on a 2 MiB boundary
off=$(( (2097152 - start % 2097152) % 2097152 ))
ps() {	# REGION: result.page_size.bytes of a load run of REGION bytes
	lattester-ctl run --quiet --cpu 0 --samples 200 --target /dev/pmem0 \
		--offset $off --region "$1" --json /tmp/ps.json >/tmp/ps.out 2>&1 ||
		{ echo "FAIL: run of $1 bytes at offset $off: $(cat /tmp/ps.out)" >&2; echo 0; return; }
	tr -d ' \n' </tmp/ps.json | grep -o '"page_size":{[^}]*' |
		grep -o '"bytes":[0-9]*' | cut -d: -f2
}
two=$(ps 2097152)
more=$(ps 2101248)
echo "# page_size: 2 MiB region $two, 2 MiB + 4 KiB $more (offset $off, namespace at $start)"
if [ "$two" = 2097152 ]; then
	if [ "$more" = 4096 ]; then
		echo "ok: the region's last 4 KiB page counts: page_size 4096"
	else
		echo "FAIL: 2 MiB + 4 KiB says page_size $more: only the first byte's page was looked at"
		rc=1
	fi
elif [ "$two" = 4096 ]; then
	echo "SKIP: this kernel maps the 2 MiB region with 4 KiB pages: nothing to tell apart"
	exit 77
else
	echo "FAIL: page_size $two for a 2 MiB region"
	rc=1
fi
exit $rc
