#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Known bad blocks: a load of poison from kernel mode is a machine check the
# kernel does not survive, so the module refuses a range that holds one
# (EHWPOISON, with ndctl's commands named).  A bad block is injected into
# the fsdax and the raw namespace through /sys/block/pmemN/badblocks (the
# list the kernel keeps; nothing is poisoned for real; 75 put the same ones
# there already): a range that holds it is refused, on fsdax (where DAX
# says where the range starts on the disk) and on raw (the namespace's own
# range), and on fsdax one beside it runs.  lattester-ctl
# refuses such a range itself before it asks the module (75 tests how), so
# the module's refusal is tested with the tool's check blinded: an empty
# file bind-mounted over the disk's list, which libndctl then reads (the
# module reads the kernel's own).  A region the module keeps between runs
# is checked again (reuse-pmem.c).  Last in the suite: the bad blocks stay.
. /tests/lib/pmem.sh
set -u

# poisoned DEV ARGS...: the run over DEV is refused for the bad block by
# lattester-ctl, before START; and with the tool blinded, by the module
poisoned() {
	dev=$1
	shift
	bb=/sys/block/$(basename "$dev")/badblocks
	msg=$(lattester-ctl run --quiet --cpu 0 --samples 1000 --target "$dev" \
		"$@" 2>&1 >/dev/null)
	got=$?
	if [ $got -eq 1 ] && printf '%s\n' "$msg" | grep -q "bad block.*ndctl clear-errors" &&
		! printf '%s\n' "$msg" | grep -q "start failed"; then
		echo "ok: $dev $*: refused by lattester-ctl: $msg"
	else
		fail "$dev $*: exit $got, '$msg' (want lattester-ctl's refusal)"
	fi
	: >/tmp/nobb
	mount --bind /tmp/nobb "$bb" || { fail "$dev: cannot blind the tool"; return; }
	msg=$(lattester-ctl run --quiet --cpu 0 --samples 1000 --target "$dev" \
		"$@" 2>&1 >/dev/null)
	got=$?
	umount "$bb" || fail "$dev: umount $bb"
	if [ $got -eq 1 ] && printf '%s\n' "$msg" | grep -q "start failed: .*bad block.*ndctl clear-errors"; then
		echo "ok: $dev $*: blinded, refused by the module: $msg"
	else
		fail "$dev $*: exit $got, '$msg' (want the bad block's refusal)"
	fi
	dmesg | tail -n 5 | grep -q "known bad block" ||
		fail "$dev $*: the kernel log does not name the bad block"
}

if [ -n "$FSDAX_DEV" ] && inject "$FSDAX_DEV" 2048 8; then
	poisoned "$FSDAX_DEV" --region 16M		# sector 2048 = 1 MiB in
	run_json fsdax-beside --target "$FSDAX_DEV" --offset 64M --region 16M
	[ $rc -eq 0 ] && echo "ok: $FSDAX_DEV --offset 64M: the range beside it runs"
	# a region kept for the next run (LATT_CFG_REUSE) is checked again:
	# a bad block listed meanwhile at 65 MiB (sector 133120) refuses it
	phys=$(grep -o '"phys_addr": *[0-9]*' "$OUT/fsdax-beside.json" | head -n1 |
		sed 's/.*: *//')
	if [ -n "$phys" ]; then
		/usr/libexec/lattester/reuse-pmem "$FSDAX_DEV" "$phys" $((16 << 20)) 133120 ||
			fail "reuse-pmem"
	else
		fail "no phys_addr in fsdax-beside.json"
	fi
fi
if [ -n "$RAW_DEV" ] && inject "$RAW_DEV" 4096 8; then
	poisoned "$RAW_DEV" --region 4M			# sector 4096 = 2 MiB in
fi
exit $rc
