#!/bin/sh
# Known bad blocks: a load of poison from kernel mode is a machine check the
# kernel does not survive, so the module refuses a range that holds one
# (EHWPOISON, with ndctl's commands named).  A bad block is injected into
# the fsdax and the raw namespace through /sys/block/pmemN/badblocks (the
# list the kernel keeps; nothing is poisoned for real): on fsdax, where the
# module knows where the range starts on the disk, a range that holds it is
# refused and one beside it runs; on raw, where it doesn't, any range of
# the disk is refused.  Last in the suite: the bad blocks stay.
. /tests/lib/pmem.sh
set -u

# inject DEV SECTOR: one known bad block of 8 sectors at SECTOR
inject() {
	bb=/sys/block/$(basename "$1")/badblocks
	if ! echo "$2 8" >"$bb" 2>/tmp/bb.err; then
		fail "$1: cannot write $bb: $(cat /tmp/bb.err)"
		return 1
	fi
	grep -q "^$2 8" "$bb" || { fail "$1: $bb does not list $2 8"; return 1; }
	echo "ok: $1: bad block at sector $2 listed: $(tr '\n' ' ' <"$bb")"
}

# poisoned DEV ARGS...: the run over DEV is refused by the module for the
# bad block
poisoned() {
	dev=$1
	shift
	msg=$(lattester-ctl run --quiet --cpu 0 --samples 1000 --target "$dev" \
		"$@" 2>&1 >/dev/null)
	got=$?
	if [ $got -eq 1 ] && printf '%s\n' "$msg" | grep -q "start failed: .*bad block.*ndctl clear-errors"; then
		echo "ok: $dev $*: refused: $msg"
	else
		fail "$dev $*: exit $got, '$msg' (want the bad block's refusal)"
	fi
	dmesg | tail -n 5 | grep -q "known bad block" ||
		fail "$dev $*: the kernel log does not name the bad block"
}

if [ -n "$FSDAX_DEV" ] && inject "$FSDAX_DEV" 2048; then
	poisoned "$FSDAX_DEV" --region 16M		# sector 2048 = 1 MiB in
	run_json fsdax-beside --target "$FSDAX_DEV" --offset 64M --region 16M
	[ $rc -eq 0 ] && echo "ok: $FSDAX_DEV --offset 64M: the range beside it runs"
fi
if [ -n "$RAW_DEV" ] && inject "$RAW_DEV" 4096; then
	poisoned "$RAW_DEV" --region 4M			# not over it, but raw
fi
exit $rc
