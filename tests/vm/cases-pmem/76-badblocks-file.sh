#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Known bad blocks under a file of a DAX filesystem, for --engine user:
# ext4 -o dax on the DAXFS namespace (made afresh), a 16 MiB file whose
# 4 KiB blocks say their number ("LATTBLK-001000"); the disk block under
# file block 1000 is found by reading the disk for that number (not through
# lattester-ctl, which finds it with FIEMAP) and made bad through
# /sys/block/pmemN/badblocks:
#   - a run over it is refused at byte 4096000 of the file, with the
#     physical address and the ndctl commands, before anything is mapped;
#     a store run too, --force or not;
#   - --skip-badblocks measures from block 1001 on (the largest stretch);
#     a region beside it runs, and a clean region stays where it is;
#   - with lattester-ctl's check blinded (an empty file bind-mounted over
#     the disk's list), the pre-fault reaches the bad page, which DAX
#     refuses to map: SIGBUS in the pre-fault, and the run fails cleanly
#     with the byte and the reason, instead of the tool dying of a bus
#     error (the guard of engine-user.c/map.c);
#   - list counts the 8 blocks on the namespace.
# 76-badblocks-file.check reads the JSON.  The bad block stays until
# reboot; no later case uses DAXFS.
. /tests/lib/pmem.sh
set -u
command -v mkfs.ext4 >/dev/null || { echo "SKIP: no mkfs.ext4 in the guest"; exit 77; }
dev=$DAXFS_DEV ns=$DAXFS_NS mnt=/mnt/bbfs
disk=$(basename "$dev")
U="--engine user"
R="run $U --quiet --samples 1000 --cpu 0"
mkdir -p "$mnt"
mkfs.ext4 -q -F -b 4096 "$dev" || { echo "FAIL: mkfs.ext4 $dev"; exit 1; }
if ! mount -t ext4 -o dax "$dev" "$mnt"; then
	dmesg | tail -n 3
	echo "SKIP: ext4 -o dax does not mount on $dev with this kernel"
	exit 77
fi
f=$mnt/marked
awk 'BEGIN { pad = ""; for (j = 0; j < 4082; j++) pad = pad "\n";
	for (i = 0; i < 4096; i++) printf "LATTBLK-%06d%s", i, pad }' >"$f"
sync
[ "$(stat -c %s "$f")" = $((16 << 20)) ] || { echo "FAIL: $f: $(stat -c %s "$f") bytes"; exit 1; }
# where block 1000 of the file lies on the disk: read the disk for it
dd if="$dev" iflag=direct bs=1M 2>/dev/null | strings -t d -n 14 |
	awk '$2 == "LATTBLK-001000" { print $1 }' >/tmp/at
at=$(head -n1 /tmp/at)
if [ "$(wc -l </tmp/at)" != 1 ] || [ $((at % 4096)) != 0 ]; then
	echo "FAIL: block 1000 of $f found on $dev at: $(cat /tmp/at)"
	exit 1
fi
echo "ok: block 1000 of $f is at byte $at of $dev"
# the namespace's usable range, from list's table
start=$(lattester-ctl list | sed -n "s/^ *$ns .* \(0x[0-9a-f]*\)-0x[0-9a-f]* .*/\1/p")
[ -n "$start" ] || { echo "FAIL: no physical range of $ns in lattester-ctl list"; exit 1; }
phys=$(printf '0x%x' $((start + at)))
echo "$((at / 512)) 8" >/sys/block/$disk/badblocks &&
	grep -q "^$((at / 512)) 8\$" /sys/block/$disk/badblocks ||
	{ echo "FAIL: cannot make sector $((at / 512)) of $disk bad"; exit 1; }
echo "ok: sectors $((at / 512))+8 of $disk known bad: byte 4096000 of $f, at $phys"

hint="'ndctl list --media-errors -n $ns' lists them; 'ndctl clear-errors $ns' clears them"
refused 1 "^lattester-ctl run: $f: a known bad block \(media error\) at byte 4096000 \(4000 KiB\) of $f \(a file on $ns, fsdax, region0\), 4 KiB long, at physical address $phys, lies in the region \(16 MiB from --offset 0\): refusing .*$hint" \
	$R --target "$f"
refused 1 "^lattester-ctl run: $f: a known bad block \(media error\) at byte 4096000" \
	$R --target "$f" --op store-clwb --force --offset 2M --region 4M
refused 1 "^lattester-ctl run: $f: a known bad block \(media error\) at byte 4096000" \
	$R --target "$f" --op nt-store --region 8M
run_json ufile-skip --target "$f" --skip-badblocks $U
cp /tmp/run.out "$OUT/ufile-skip.err"
grep -q "warning: $f: --skip-badblocks: 1 run of known bad blocks (8 blocks of 512 bytes) lies in $f .* --offset 4100096 (4004 KiB), --region 12 MiB" \
	"$OUT/ufile-skip.err" && echo "ok: said: $(cat "$OUT/ufile-skip.err")" ||
	fail "--skip-badblocks did not say what it did: $(cat "$OUT/ufile-skip.err")"
run_json ufile-skip-region --target "$f" --skip-badblocks --region 4M \
	--pattern seq $U
run_json ufile-clean --target "$f" --skip-badblocks --offset 2M --region 1M $U
run_json ufile-beside --target "$f" --offset 8M --region 4M $U

# the check blinded: the pre-fault meets the page DAX won't map
: >/tmp/nobb
if mount --bind /tmp/nobb /sys/block/$disk/badblocks; then
	[ -s /sys/block/$disk/badblocks ] && fail "the bind mount did not hide the list"
	run_json ufile-blind-beside --target "$f" --region 2M $U
	lattester-ctl $R --target "$f" --region 8M >/dev/null 2>"$OUT/prefault.msg"
	got=$?
	# 6.1's DAX fault answers SIGBUS (BUS_ADRERR), 6.12's a poison one
	# (VM_FAULT_HWPOISON: BUS_MCEERR_AR)
	if [ $got -eq 1 ] && grep -qE "^lattester-ctl run: $f: (SIGBUS at byte 4096000 of the region while pre-faulting it: the kernel would not map that page \(a known bad block there, the file truncated, or the device disabled\)|a media error \(poisoned memory\) at byte 4096000 of the region while pre-faulting it): nothing was measured" "$OUT/prefault.msg"; then
		echo "ok: the pre-fault's SIGBUS failed the run cleanly: $(cat "$OUT/prefault.msg")"
	else
		fail "pre-fault over a page DAX won't map: exit $got (135: killed by SIGBUS): $(cat "$OUT/prefault.msg")"
	fi
	umount /sys/block/$disk/badblocks || fail "umount the bind mount"
else
	fail "cannot bind-mount an empty list over /sys/block/$disk/badblocks"
fi
grep -q "^$((at / 512)) 8\$" /sys/block/$disk/badblocks ||
	fail "the list is not back after the bind mount"

lattester-ctl list >"$OUT/list.txt" 2>&1
grep -qE "^    $ns +fsdax .* 8  " "$OUT/list.txt" &&
	echo "ok: list counts 8 bad blocks on $ns: $(grep "^    $ns " "$OUT/list.txt")" ||
	{ fail "list: $ns's count"; cat "$OUT/list.txt"; }
umount "$mnt" || fail "umount $mnt"
exit $rc
