#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The mounted-filesystem guard.  ext4 goes on an fsdax namespace and is
# mounted with -o dax; while it is mounted every run is refused, loads too
# and --force or not (the run claims the device with O_EXCL, which a mounted
# device can't give).  After umount, a store needs --force.  Checksums of
# the file and of the whole device show that the refused runs wrote nothing.
#   1. mkfs.ext4, mount -o dax (rw), write a file: refused runs; the file
#      checksum is unchanged; umount -> device checksum D0
#   2. mount -o dax,ro (a read-only mount writes nothing): refused runs;
#      umount -> D1 == D0
#   3. unmounted: store without --force refused -> D2 == D0; with --force
#      it runs, and so does chase -> D3 != D0 (the checksum sees writes)
. /tests/lib/pmem.sh
set -u
command -v mkfs.ext4 >/dev/null || { echo "SKIP: no mkfs.ext4 in the guest"; exit 77; }
dev=$GUARD_DEV ns=$GUARD_NS mnt=/mnt/pm
R="run --samples 200 --cpu 0 --region 8M"
mkdir -p "$mnt"

mkfs.ext4 -q -F -b 4096 "$dev" || { echo "FAIL: mkfs.ext4 $dev"; exit 1; }
mount -t ext4 -o dax "$dev" "$mnt" || { echo "FAIL: mount -o dax $dev"; exit 1; }
grep " $mnt " /proc/self/mountinfo
dd if=/dev/urandom of="$mnt/data" bs=1M count=4 2>/dev/null
sync
f0=$(md5sum "$mnt/data" | cut -d' ' -f1)
echo "file $f0"

lattester-ctl list --json >"$OUT/list-mounted.json"
lattester-ctl list | grep "mounted on $mnt" || fail "list does not show the mount"

mounted="holds a mounted filesystem \($mnt\): refusing"
refused 1 "^lattester-ctl run: $dev $mounted" $R --target "$dev" --op store-clwb
refused 1 "^lattester-ctl run: $dev $mounted" $R --target "$dev" --op store-clwb --force
refused 1 "^lattester-ctl run: $dev $mounted" $R --target "$dev" --op nt-store --force
refused 1 "^lattester-ctl run: $dev $mounted" $R --target "$dev" --op load
refused 1 "^lattester-ctl run: $dev $mounted" $R --target "$dev" --pattern chase --force
refused 1 "^lattester-ctl run: $ns: $dev $mounted" $R --target "$ns" --op store --force
refused 1 "^lattester-ctl run: $ns: $dev $mounted" $R --target "$ns" --op load
f1=$(md5sum "$mnt/data" | cut -d' ' -f1)
[ "$f1" = "$f0" ] || fail "the file changed while mounted: $f0 -> $f1"
umount "$mnt" || { echo "FAIL: umount"; exit 1; }
d0=$(md5sum "$dev" | cut -d' ' -f1)
echo "device after umount: $d0"

mount -t ext4 -o dax,ro "$dev" "$mnt" || { echo "FAIL: mount -o dax,ro $dev"; exit 1; }
refused 1 "^lattester-ctl run: $dev $mounted" $R --target "$dev" --op store --force
refused 1 "^lattester-ctl run: $dev $mounted" $R --target "$dev" --op load
f2=$(md5sum "$mnt/data" | cut -d' ' -f1)
[ "$f2" = "$f0" ] || fail "the file changed: $f0 -> $f2"
umount "$mnt" || { echo "FAIL: umount (ro)"; exit 1; }
d1=$(md5sum "$dev" | cut -d' ' -f1)
[ "$d1" = "$d0" ] && echo "ok: device unchanged by the ro mount and the refused runs" ||
	fail "device changed across the ro mount: $d0 -> $d1"

refused 1 "^lattester-ctl run: $dev: store would overwrite 8 MiB of $ns \(fsdax, region0\); add --force to allow it$" \
	$R --target "$dev" --op store
d2=$(md5sum "$dev" | cut -d' ' -f1)
[ "$d2" = "$d0" ] && echo "ok: device unchanged by the unforced store" ||
	fail "device changed by a refused run: $d0 -> $d2"
run_json "guard-forced@store@rand" --target "$dev" --op store --force --region 8M
run_json "guard-forced@load@chase" --target "$dev" --pattern chase --force --region 8M
d3=$(md5sum "$dev" | cut -d' ' -f1)
[ "$d3" != "$d0" ] && echo "ok: the forced runs changed the device ($d3)" ||
	fail "the forced runs left the device unchanged: the checksum proves nothing"
echo "$d0 $d1 $d2 $d3" >"$OUT/checksums"
exit $rc
