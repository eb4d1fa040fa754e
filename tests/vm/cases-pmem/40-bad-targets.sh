#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Bad targets and unforced writes: each a clear message and exit 1 (2 for a
# usage error), refused before the module's START.
. /tests/lib/pmem.sh
set -u
R="run --samples 100 --cpu 0"

# not pmem at all
refused 1 "/dev/null: not a device-DAX device" $R --target /dev/null
refused 1 "/etc/passwd: not a pmem or device-DAX device \(a regular file" \
	$R --target /etc/passwd
refused 1 "/tmp: not a pmem or device-DAX device \(a directory" $R --target /tmp
refused 1 "/dev/lattester: not a device-DAX device" $R --target /dev/lattester
refused 1 "/dev/pmem99: No such file or directory" $R --target /dev/pmem99
refused 2 "--target: 'pmem0': not dram\[:NODE\] or namespaceX.Y, and no file or device of that name exists" $R --target pmem0
# namespaces that don't exist, are disabled, or are BTT
refused 1 "namespace0.99: no such namespace" $R --target namespace0.99
refused 1 "namespace7.0: no such namespace" $R --target namespace7.0
refused 1 "$OFF_NS: $OFF_NS is disabled" $R --target "$OFF_NS"
refused 1 "No such file or directory" $R --target "$OFF_DEV"
refused 1 "$SECTOR_NS is in sector mode \(BTT\)" $R --target "$SECTOR_NS"
refused 1 "$SECTOR_DEV: $SECTOR_NS is in sector mode \(BTT\)" $R --target "$SECTOR_DEV"
# regions that don't fit
size=$(lattester-ctl list --json | tr -d ' \n' |
	grep -o "\"name\":\"$RAW_NS\"[^}]*" | grep -o '"phys_size":[0-9]*' | cut -d: -f2)
echo "$RAW_NS: phys_size $size"
[ -n "$size" ] || fail "no phys_size for $RAW_NS in list --json"
refused 1 "has only 4 KiB from --offset .* less than one access of --size 8 KiB" \
	$R --target "$RAW_NS" --offset $((size - 4096)) --size 8K
refused 1 "--region 1 GiB exceeds the 32 MiB of $RAW_NS \(raw, region0\)" \
	$R --target "$RAW_NS" --region 1G
refused 1 "--offset 32 MiB is beyond the 32 MiB of $RAW_NS" \
	$R --target "$RAW_NS" --offset 32M
refused 1 "stride must be smaller" \
	$R --target "$RAW_NS" --offset 28M --pattern stride:8M
refused 2 "--offset: '100': not a multiple of 4096" $R --target "$RAW_NS" --offset 100
refused 2 "--offset is for pmem" $R --target dram --offset 4K
# writes without --force, named with what they would destroy
refused 1 "^lattester-ctl run: $FSDAX_DEV: store-clwb would overwrite 16 MiB of $FSDAX_NS \(fsdax, region0\); add --force to allow it$" \
	$R --target "$FSDAX_DEV" --op store-clwb --region 16M
[ -n "$DEVDAX_NS" ] &&
	refused 1 "$DEVDAX_DEV: nt-store would overwrite 4 MiB of $DEVDAX_NS \(devdax, region0\); add --force" \
		$R --target "$DEVDAX_DEV" --op nt-store --region 4M
refused 1 "$RAW_NS: store would overwrite 32 MiB of $RAW_NS \(raw, region0\); add --force" \
	$R --target "$RAW_NS" --op store
refused 1 "--pattern chase writes its pointers into the target: it would overwrite 8 MiB of $FSDAX_NS" \
	$R --target "$FSDAX_DEV" --pattern chase --region 8M
for op in store store-clflushopt store-clflush; do
	refused 1 "$op would overwrite" $R --target "${DEVDAX_DEV:-$RAW_NS}" --op "$op"
done
exit $rc
