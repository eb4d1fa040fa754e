#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# eADR: list says cpu_cache, and --op durable times a plain store with
# sfence, no write-back (the kernel engine on a raw namespace; the user
# engine on device-DAX where the kernel has it).
. /tests/lib/pmem.sh
set -u
ndctl disable-region all && ndctl init-labels -f all && ndctl enable-region all ||
	{ echo "FAIL: cannot reinitialize the labels"; exit 1; }
j=$(ndctl create-namespace -r region0 -m raw -s 32M) ||
	{ echo "FAIL: create-namespace -m raw: $j"; exit 1; }
raw=/dev/$(jfield blockdev "$j")
wait_dev "$raw" || { echo "FAIL: $raw did not appear"; exit 1; }
durable cpu_cache store "$raw" --force --region 1M
if [ -d /sys/bus/dax/drivers/device_dax ] &&
   j=$(ndctl create-namespace -r region0 -m devdax -s 32M 2>&1); then
	dax=/dev/$(jfield chardev "$j")
	wait_dev "$dax" && durable cpu_cache store "$dax" --force \
		--region 2M --engine user
else
	echo "note: no device-DAX namespace: the user engine's part left out"
fi
exit $rc
