#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Issue 24 item 6, on the debug kernel (Debian's have no fault injection:
# skipped there, saying so): allocation failures injected into the module's work at
# 5 % (failslab and fail_page_alloc, sleeping allocations too, only in
# tasks marked make-it-fail): tests/vm/faults.c marks itself around each
# ioctl of 400 rounds of START (DRAM, one or two threads, every mode,
# chase, REUSE), STATUS, ABORT, RESULT, THREADS and reopens, and wants
# every answer documented (ENOMEM wherever an allocation can fail), then a
# plain run to work once nothing fails.  Counted: calls, ENOMEMs, injected
# failures.  The host checks the rest: dmesg (no oops, no warning: no
# allocation the user sizes warns when it fails, the user gets ENOMEM),
# kmemleak (no leak) after the cases, 99-rmmod.  (Not lattester-ctl marked
# whole: a page fault of its own that fails kills it with SIGSEGV, which
# says nothing of the tool.)
set -u
rc=0
D=/sys/kernel/debug
[ -d $D ] && [ -e $D/kmemleak ] || mount -t debugfs none $D 2>/dev/null
for a in failslab fail_page_alloc; do
	[ -d $D/$a ] || { echo "SKIP: this kernel has no $a (FAULT_INJECTION_DEBUG_FS): the debug kernel's case, make check-debug-quick"; exit 77; }
done
TIMES=1000000
arm() {
	echo Y >$D/$1/task-filter &&
		echo N >$D/$1/ignore-gfp-wait &&
		echo 1 >$D/$1/interval &&
		echo $TIMES >$D/$1/times &&
		echo 0 >$D/$1/verbose &&
		echo "$2" >$D/$1/probability ||
		{ echo "FAIL: cannot arm $D/$1"; exit 1; }
}
arm failslab 5
arm fail_page_alloc 5
echo N >$D/fail_page_alloc/ignore-gfp-highmem
echo 0 >$D/fail_page_alloc/min-order

/usr/libexec/lattester/faults 400 0x5eed || rc=1

slab=$((TIMES - $(cat $D/failslab/times)))
page=$((TIMES - $(cat $D/fail_page_alloc/times)))
echo 0 >$D/failslab/probability
echo 0 >$D/fail_page_alloc/probability
echo "# injected: failslab $slab, fail_page_alloc $page"
if [ $((slab + page)) -eq 0 ]; then
	echo "FAIL: no failure was injected: nothing was tested"
	rc=1
fi
# the module works with nothing failing
if lattester-ctl run --quiet --cpu 0 --samples 1000 --region 16M >/tmp/after.out 2>&1; then
	echo "ok: a run after the faults measures"
else
	echo "FAIL: a run after the faults: $(cat /tmp/after.out)"
	rc=1
fi
exit $rc
