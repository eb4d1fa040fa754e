#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# --engine user on files of ext4 mounted with -o dax on the DAXFS fsdax
# namespace (10-namespaces), mapped with MAP_SYNC:
#   - what a mapping adds (ops_map: a load, store-clwb, nt-store, chase)
#     on a 16 MiB file of random data (stores and chase with --force), --offset, the default
#     region, chase with --chain 8;
#   - refused, with the file's checksum unchanged: stores and chase without
#     --force; loads leave it unchanged too;
#   - refused: a file smaller than --region, --offset beyond it, a sparse
#     file, a hole in the middle, a fallocated (unwritten) file (DAX maps
#     those to the zero page), a file on the same filesystem mounted with
#     -o dax=never and one on the guest's tmpfs (no MAP_SYNC: page cache),
#     the block device under the mount, and the kernel engine on a file;
#   - a file truncated under a run: the run fails, saying why.
# 71-user-engine-fsdax-file.check reads the JSON.
# vm-kernels: 6.12.*+deb12-amd64
# vm-kernels-why: the user engine is lattester-ctl's own MAP_SYNC mapping of the file, the same on every kernel line
. /tests/lib/pmem.sh
set -u
command -v mkfs.ext4 >/dev/null || { echo "SKIP: no mkfs.ext4 in the guest"; exit 77; }
dev=$DAXFS_DEV ns=$DAXFS_NS mnt=/mnt/udax
U="--engine user"
R="run $U --samples 100 --cpu 0"
mkdir -p "$mnt"
mkfs.ext4 -q -F -b 4096 "$dev" || { echo "FAIL: mkfs.ext4 $dev"; exit 1; }
if ! mount -t ext4 -o dax "$dev" "$mnt"; then
	dmesg | tail -n 3
	echo "SKIP: ext4 -o dax does not mount on $dev with this kernel"
	exit 77
fi
grep " $mnt " /proc/self/mountinfo
sum() { md5sum "$1" | cut -d' ' -f1; }

dd if=/dev/urandom of="$mnt/data" bs=1M count=16 2>/dev/null
dd if=/dev/urandom of="$mnt/keep" bs=1M count=8 2>/dev/null
dd if=/dev/urandom of="$mnt/small" bs=1M count=4 2>/dev/null
truncate -s 8M "$mnt/sparse"
dd if=/dev/urandom of="$mnt/holey" bs=1M count=2 2>/dev/null
dd if=/dev/urandom of="$mnt/holey" bs=1M count=2 seek=6 conv=notrunc 2>/dev/null
fallocate -l 8M "$mnt/unwritten" 2>/dev/null || echo "note: no fallocate here"
sync
k0=$(sum "$mnt/keep")
d0=$(sum "$mnt/data")

# writes refused without --force, loads write nothing
refused 1 "^lattester-ctl run: $mnt/keep: store-clwb would overwrite 8 MiB of $mnt/keep \(a file on $ns, fsdax, region0\); add --force to allow it$" \
	$R --target "$mnt/keep" --op store-clwb
refused 1 "$mnt/keep: nt-store would overwrite 4 MiB" \
	$R --target "$mnt/keep" --op nt-store --region 4M
refused 1 "--pattern chase writes its pointers into the target: it would overwrite 8 MiB of $mnt/keep" \
	$R --target "$mnt/keep" --pattern chase
for pat in seq rand; do
	run_json "ufile-keep@load@$pat" --target "$mnt/keep" --pattern "$pat" $U
done
run_json "ufile-keep@nt-load@rand" --target "$mnt/keep" --op nt-load $U
k1=$(sum "$mnt/keep")
[ "$k1" = "$k0" ] && echo "ok: refused runs and loads left $mnt/keep as it was" ||
	fail "$mnt/keep changed: $k0 -> $k1"

# the ops a mapping adds, then the checksum sees the writes
ops_map ufile "$mnt/data" --region 8M $U
run_json "ufile-offset@store-clwb@rand" --target "$mnt/data" --offset 8M \
	--region 4M --op store-clwb --force $U
run_json "ufile-default@load@rand" --target "$mnt/data" $U
run_json "ufile-chain@load@chase" --target "$mnt/data" --pattern chase \
	--chain 8 --region 4M --force $U
d1=$(sum "$mnt/data")
[ "$d1" != "$d0" ] && echo "ok: the forced runs changed $mnt/data" ||
	fail "the forced runs left $mnt/data unchanged: the checksum proves nothing"
[ "$(stat -c %s "$mnt/data")" = $((16 << 20)) ] ||
	fail "$mnt/data changed its size: $(stat -c %s "$mnt/data")"

# the table
lattester-ctl run $U --quiet --samples 100 --cpu 0 --target "$mnt/data" \
	--region 4M >"$OUT/table.txt" 2>&1 || fail "table run"
cat "$OUT/table.txt"
grep -q "^target: *fsdax-file $mnt/data: $ns, fsdax, region0" "$OUT/table.txt" ||
	fail "table: target line"
grep -q "^offset: *0 of 16 MiB (in the file, mapped with MAP_SYNC)" "$OUT/table.txt" ||
	fail "table: offset line"

# files that are not (all) persistent memory, or too small
refused 1 "$mnt/small: --region 8 MiB exceeds the 4 MiB of $mnt/small" \
	$R --target "$mnt/small" --region 8M
refused 1 "$mnt/small: --offset 4 MiB is beyond the 4 MiB of $mnt/small" \
	$R --target "$mnt/small" --offset 4M
zero="which DAX maps to the shared zero page, DRAM, not to persistent memory; refusing"
refused 1 "$mnt/sparse: no data at byte 0: a hole or an unwritten \(fallocated\) extent, $zero" \
	$R --target "$mnt/sparse"
refused 1 "$mnt/sparse: no data at byte 0" $R --target "$mnt/sparse" \
	--op store --force
refused 1 "$mnt/holey: no data at byte 2097152" $R --target "$mnt/holey"
run_json "ufile-holey@load@rand" --target "$mnt/holey" --region 2M $U
[ -f "$mnt/unwritten" ] &&
	refused 1 "$mnt/unwritten: no data at byte 0" $R --target "$mnt/unwritten"
[ "$(stat -c %s "$mnt/sparse")" = $((8 << 20)) ] || fail "$mnt/sparse changed its size"
head -c 4194304 /dev/urandom >/tmp/plain
refused 1 "/tmp/plain: not a DAX file: mmap with MAP_SYNC refused \(Operation not supported\): its pages would be page cache" \
	$R --target /tmp/plain --region 4M
refused 1 "$dev: a block device, whose mapping would be page cache" \
	$R --target "$dev"
refused 1 "$mnt/keep: not a pmem or device-DAX device \(a regular file; .*'run --engine user'" \
	run --engine kernel --samples 100 --cpu 0 --target "$mnt/keep"

# the file truncated under a run: the pages beyond its new end go (SIGBUS),
# and the run fails saying so instead of dying of a bus error
dd if=/dev/urandom of="$mnt/trunc" bs=1M count=8 2>/dev/null
if bg_run /tmp/trunc.out $U --quiet --cpu 0 --target "$mnt/trunc" \
	--samples 100000000; then
	truncate -s 4096 "$mnt/trunc" || fail "truncate under a run"
	gone_wait /tmp/trunc.out "$mnt/trunc truncated"
else
	fail "the run under which $mnt/trunc shrinks did not start"
	cat /tmp/trunc.out
	kill "$bg_pid"
fi

umount "$mnt" || { echo "FAIL: umount $mnt"; exit 1; }
if mount -t ext4 -o dax=never "$dev" "$mnt" 2>/dev/null; then
	refused 1 "$mnt/keep: not a DAX file: mmap with MAP_SYNC refused" \
		$R --target "$mnt/keep"
	k2=$(sum "$mnt/keep")
	[ "$k2" = "$k0" ] || fail "$mnt/keep changed: $k0 -> $k2"
	umount "$mnt"
else
	echo "note: no -o dax=never here"
fi
exit $rc
