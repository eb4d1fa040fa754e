#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Issue 12 item 2: a device-DAX range is taken only where the claimed device
# itself maps it.  The module is handed the devdax fd with another
# namespace's range (the fsdax one, which a filesystem could be on), its own
# range off by a page, its namespace's metadata, and mappings that are not
# the device's: each EINVAL; a map_addr with nothing mapped there:
# EFAULT; its own range runs.  Then lattester-ctl's own
# run over the device, which passes the mapping for it.
. /tests/lib/pmem.sh
set -u
[ -n "$DEVDAX_NS" ] || { echo "SKIP: no device-DAX in this kernel (see 10-namespaces)"; exit 77; }
other=$(cat /sys/bus/nd/devices/"$FSDAX_NS"/resource)
/usr/libexec/lattester/dax-tie "$DEVDAX_DEV" "$other" || rc=1
if lattester-ctl run --quiet --cpu 0 --samples 1000 --region 4M \
	--target "$DEVDAX_DEV" --json "$OUT/dax-tie-run.json" >"$OUT/dax-tie-run.txt" 2>&1; then
	echo "ok: lattester-ctl run over $DEVDAX_DEV"
else
	fail "lattester-ctl run over $DEVDAX_DEV"; cat "$OUT/dax-tie-run.txt"
fi
exit $rc
