#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Known bad blocks, checked by lattester-ctl itself (libndctl) before the
# module is asked: refused with the byte, the physical address and the
# ndctl commands; avoided with --skip-badblocks; counted by list.  Bad
# blocks go in through /sys/block/pmemN/badblocks, the pmem disk's list
# (nothing is poisoned, but the kernel treats those blocks as if they were);
# they stay until reboot, so they go where 80-badblocks puts its own or
# where no later case measures:
#   FSDAX  sectors 2048-2055 (1 MiB, 4 KiB; 80's too) and 81921 (40 MiB +
#          512, one block): ranges over either are refused, the module never
#          asked (no START, nothing in the kernel log); one beside them
#          runs; --skip-badblocks moves a region that holds one to 40 MiB +
#          4 KiB (the largest stretch from --offset on), keeps --region,
#          leaves a clean region where it is, refuses a --region larger
#          than the stretch; a load run leaves every clean byte of the namespace
#          as it was, a forced store run changes only its own stretch
#          (checksums of the device, O_DIRECT);
#   RAW    sectors 4096-4103 (2 MiB; 80's too): every range refused, beside
#          the bad block or not, --skip-badblocks too (the module can't
#          place a range on a raw namespace's disk, and refuses them all);
#   list   table and JSON, beside ndctl list --media-errors and the disks'
#          own lists: 75-badblocks-tool.check compares them, and the
#          skipped runs' JSON and the refusals' addresses.
# The user engine's part (a DAX file) is 76, device-DAX is 77.
# vm-kernels: 6.12.*+deb12-amd64
# vm-kernels-why: lattester-ctl's own check through libndctl, before the module is asked; 80-badblocks tests the module's refusal on every kernel
. /tests/lib/pmem.sh
set -u
R="run --quiet --samples 1000 --cpu 0"
KiB=1024
MiB=1048576

# the module's refusals of a bad block so far (kmod/pmem.c logs each)
nbb() {
	dmesg | grep -c "known bad block"
}

# bb_refused NAME REGEX ARGS...: lattester-ctl ARGS exits 1 with a message
# matching REGEX, before START, without the module's word in the kernel
# log; the message goes to $OUT/NAME.msg
bb_refused() {
	local name=$1 re=$2 n0 got
	shift 2
	n0=$(nbb)
	lattester-ctl "$@" >/dev/null 2>"$OUT/$name.msg"
	got=$?
	if [ $got -ne 1 ] || ! grep -qE -- "$re" "$OUT/$name.msg"; then
		fail "$name: lattester-ctl $* -> $got '$(cat "$OUT/$name.msg")' (want 1, /$re/)"
	elif grep -q "start failed" "$OUT/$name.msg" || [ "$(nbb)" != "$n0" ]; then
		fail "$name: lattester-ctl $*: the module was asked: $(cat "$OUT/$name.msg")"
	else
		echo "ok: $name: $(cat "$OUT/$name.msg")"
	fi
}

# sums DEV FROM-4K-BLOCK COUNT...: a hash of each (FROM, COUNT) pair of
# 4 KiB blocks of DEV, read with O_DIRECT (the module writes behind the page
# cache), on one line (daxsum: md5sum took 14 of this case's 20 s).  Called
# in $(...): a failure is marked in a file, and sums_ok fails the case (two
# failed sums would otherwise compare equal)
rm -f /tmp/sums.failed
sums() {
	daxsum blocks "$@" || echo "daxsum blocks $*" >>/tmp/sums.failed
}
sums_ok() {
	[ ! -s /tmp/sums.failed ] || fail "$(cat /tmp/sums.failed): failed: the checksums prove nothing"
}

# skip_json NAME ARGS...: run_json, and keep what the tool said
skip_json() {
	local name=$1
	shift
	run_json "$name" "$@"
	cp /tmp/run.out "$OUT/$name.err"
}

F=$FSDAX_DEV
W="--skip-badblocks"
if inject "$F" 2048 8 && inject "$F" 81921 1; then
	size=$(blockdev --getsize64 "$F")
	blocks=$((size / 4096))
	echo "$F: $size bytes ($blocks blocks of 4 KiB)"
	hint="'ndctl list --media-errors -n $FSDAX_NS' lists them; 'ndctl clear-errors $FSDAX_NS' clears them"
	bb_refused fsdax-first "^lattester-ctl run: $F: a known bad block \(media error\) at byte 1048576 \(1 MiB\) of $FSDAX_NS \(fsdax, region0\), 4 KiB long, at physical address 0x[0-9a-f]+, lies in the region \(16 MiB from --offset 0\): refusing .*machine check.*$hint" \
		$R --target "$F" --region 16M
	bb_refused fsdax-second "$F: a known bad block \(media error\) at byte 41943552 of $FSDAX_NS \(fsdax, region0\), 512 B long, at physical address 0x[0-9a-f]+, lies in the region \(16 MiB from --offset 33554432\): .*$hint.*; or measure beside it: --skip-badblocks, or --offset and --region$" \
		$R --target "$F" --offset 32M --region 16M
	bb_refused fsdax-byname "$FSDAX_NS: a known bad block \(media error\) at byte 1048576 .*\(124 MiB from --offset 0\) \(and 1 more run\): refusing" \
		$R --target "$FSDAX_NS" --pattern seq
	bb_refused fsdax-store "$F: a known bad block \(media error\) at byte 1048576" \
		$R --target "$F" --op store --force --region 4M
	run_json fsdax-beside --target "$F" --offset 4M --region 16M
	[ $rc -eq 0 ] && echo "ok: $F --offset 4M --region 16M: beside them, measured"

	# the clean pieces: [0, 1M), [1M + 4K, 40M), [40M + 4K, end)
	clean="0 256 257 $((10240 - 257)) 10241 $((blocks - 10241))"
	s0=$(sums "$F" $clean)
	skip_json skip-default --target "$F" $W
	grep -q "warning: $F: --skip-badblocks: 2 runs of known bad blocks (9 blocks of 512 bytes) lie in $FSDAX_NS (fsdax, region0) from --offset 0 on; measuring the largest stretch free of them: --offset 41947136 (40964 KiB), --region [0-9]* MiB" \
		"$OUT/skip-default.err" && echo "ok: --skip-badblocks: said: $(cat "$OUT/skip-default.err")" ||
		fail "--skip-badblocks did not say what it skipped: $(cat "$OUT/skip-default.err")"
	skip_json skip-region --target "$F" $W --region 16M --pattern seq
	# a sweep moves every point the same way (75.check reads the rows)
	if lattester-ctl sweep --quiet --cpu 0 --target "$F" $W --region 16M \
		--op load,nt-load --samples 2000 --out "$OUT/skip-sweep.jsonl" \
		>"$OUT/skip-sweep.err" 2>&1; then
		echo "ok: sweep --skip-badblocks"
	else
		fail "sweep --skip-badblocks: $(cat "$OUT/skip-sweep.err")"
	fi
	skip_json skip-from --target "$F" $W --offset 32M --region 16M --op nt-load
	skip_json skip-clean --target "$F" $W --offset 2M --region 8M
	# (the run's own warnings, a timer's under TCG say, are not this)
	grep -q "warning: .*--skip-badblocks" "$OUT/skip-clean.err" &&
		fail "--skip-badblocks moved a clean region: $(cat "$OUT/skip-clean.err")"
	skip_json skip-beside --target "$F" $W --offset 64M --region 16M
	s1=$(sums "$F" $clean)
	sums_ok
	[ "$s1" = "$s0" ] && echo "ok: the read-only runs left every clean byte of $F as it was" ||
		fail "the read-only runs changed $F: $s0 -> $s1"
	bb_refused skip-too-big "$F: --skip-badblocks: the largest stretch of $FSDAX_NS \(fsdax, region0\) free of known bad blocks is [0-9.]+ [KM]iB \(at --offset 41947136 \(40964 KiB\)\), less than --region 100 MiB: refusing" \
		$R --target "$F" $W --region 100M

	# chase writes its links: with --force
	skip_json skip-chase --target "$F" $W --pattern chase --force --region 16M
	# a forced store run with --skip-badblocks writes its stretch only:
	# [40M + 4K, 56M + 4K); what is before and after it stays
	out="0 256 257 $((10240 - 257)) $((14337)) $((blocks - 14337))"
	in="10241 4096"
	o0=$(sums "$F" $out)
	i0=$(sums "$F" $in)
	skip_json skip-store --target "$F" $W --region 16M --op nt-store \
		--pattern seq --force --samples 8192 --size 2048
	o1=$(sums "$F" $out)
	i1=$(sums "$F" $in)
	sums_ok
	[ "$o1" = "$o0" ] && echo "ok: the forced stores left $F outside their stretch as it was" ||
		fail "the forced stores wrote outside their stretch: $o0 -> $o1"
	[ "$i1" != "$i0" ] && echo "ok: the forced stores changed their stretch" ||
		fail "the forced stores left their stretch unchanged: the checksums prove nothing"
fi

if [ -n "$RAW_DEV" ] && inject "$RAW_DEV" 4096 8; then
	rawmsg="$RAW_NS \(raw, region0\), a raw namespace, has 8 known bad blocks \(the first at byte 2097152 \(2 MiB\)\), and the module refuses every range of a raw namespace's disk while it has one .*'ndctl clear-errors $RAW_NS' clears them"
	bb_refused raw-over "^lattester-ctl run: $RAW_NS: $rawmsg" \
		$R --target "$RAW_NS" --region 4M
	bb_refused raw-beside "^lattester-ctl run: $RAW_DEV: $rawmsg" \
		$R --target "$RAW_DEV" --offset 8M --region 4M
	bb_refused raw-skip "^lattester-ctl run: $RAW_NS: --skip-badblocks: $RAW_NS \(raw, region0\), a raw namespace, has 8 known bad blocks, and the module refuses" \
		$R --target "$RAW_NS" $W
fi

# list, beside ndctl's view and the disks' own lists
lattester-ctl list >"$OUT/list.txt" 2>&1 || fail "lattester-ctl list"
lattester-ctl list --json >"$OUT/list.json" || fail "lattester-ctl list --json"
ndctl list -N --media-errors >"$OUT/ndctl-NM.json" || fail "ndctl list -N --media-errors"
ndctl list -R --media-errors >"$OUT/ndctl-RM.json" || fail "ndctl list -R --media-errors"
for d in /sys/block/pmem*; do
	[ -f "$d/badblocks" ] && cp "$d/badblocks" "$OUT/disk-$(basename "$d").bb"
done
cp /tmp/pmem.env "$OUT/pmem.env"
cat "$OUT/list.txt"
echo "ndctl list -N --media-errors:"
cat "$OUT/ndctl-NM.json"
grep -qE "^    $FSDAX_NS +fsdax .* 9$" "$OUT/list.txt" ||
	fail "list: the table does not count 9 bad blocks for $FSDAX_NS"
[ -z "$RAW_NS" ] || grep -qE "^    $RAW_NS +raw .* 8$" "$OUT/list.txt" ||
	fail "list: the table does not count 8 bad blocks for $RAW_NS"
grep -q "^  region0: .*, 0 badblocks, persistence domain " "$OUT/list.txt" ||
	fail "list: region0's count (the disks' lists are not the region's)"
exit $rc
