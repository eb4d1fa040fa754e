#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A machine check raised at one of the module's own loads, in the middle of
# a kernel-engine run, is recovered: the run fails with EHWPOISON and names
# the line, the kernel does not panic, and the module goes on working.
#
# The host (tools/vm/mce-inject, from QEMU's monitor) stops the guest until
# CPU 1 is about to execute a load that has an MCE-safe exception entry,
# works out that load's physical address and raises there an uncorrected,
# action-required data-load error (MCi_STATUS 0xbd80000000000134, MCG_STATUS
# RIPV|EIPV|MCIP) before the load executes.  Checked here, each against the
# host's record of what it injected (/mnt/out/mce/done):
#   - lattester-ctl exits 1 with the poison message, and its byte is the
#     injected address less the namespace's start;
#   - the module's log line gives the same physical address;
#   - the CPU took the machine check (/proc/interrupts MCE) and the kernel
#     graded it recoverable (no panic: the case runs on);
#   - the kernel's NFIT handler listed the line as a bad block of the
#     namespace, and lattester-ctl now refuses the namespace for it;
#   - a run on DRAM after it measures.
# The premise: the module's GET_INFO says mc_recover (Intel SER_P).
. /tests/lib/pmem.sh
set -u
D=/mnt/out/mce
dev=/dev/pmem0
cpu=1

wait_dev $dev || { echo "FAIL: no $dev"; exit 1; }
vendor=$(grep -m1 '^vendor_id' /proc/cpuinfo | sed 's/.*: *//')
model=$(grep -m1 '^model[[:space:]]*:' /proc/cpuinfo | sed 's/.*: *//')
echo "# CPU: $vendor, family $(grep -m1 '^cpu family' /proc/cpuinfo | sed 's/.*: *//') model $model"
if ! lattester-ctl info 2>&1 | grep -q 'mc_recover'; then
	echo "FAIL: the module does not report mc_recover on this $vendor CPU (the suite's premise)"
	lattester-ctl info 2>&1
	exit 1
fi
start=$(cat /sys/block/pmem0/device/resource)
mce0=$(awk '$1 == "MCE:" { print $2 + $3 }' /proc/interrupts)

mkdir -p $D
cp /lib/modules-extra/lattester.ko $D/
{
	echo "cpu $cpu"
	echo "ko lattester.ko"
	for f in /sys/module/lattester/sections/.* /sys/module/lattester/sections/*; do
		[ -f "$f" ] && echo "section $(basename "$f") $(cat "$f")"
	done
} >$D/request.tmp
mv $D/request.tmp $D/request

# A long chase run on CPU 1 (4096 dependent loads a sample: the loop's load
# heads a translation block, so a stop lands there); the machine check ends
# it.  The timeout only bounds a helper that never injects.
timeout 240 lattester-ctl run --cpu $cpu --target $dev --force --pattern chase \
	--chain 4096 --region 16M --samples 1000000000 >/tmp/run.out 2>&1
st=$?
cat /tmp/run.out

i=0
while [ ! -f $D/done ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -f $D/done ] || { echo "FAIL: the host helper gave no answer ($D/done)"; exit 1; }
cat $D/done
. $D/done
if [ "$ok" != 1 ]; then
	echo "FAIL: nothing injected: $why"
	exit 1
fi
echo "ok: injected at $where ($insn) after $tries stops: va $va, gpa $gpa"

# the run: exit 1, the poison message, the injected line's byte
want=$((gpa - start))
if [ $st -ne 1 ]; then
	fail "lattester-ctl exited $st (want 1: the run failed)"
fi
if ! grep -q "run failed: a load at byte $want[ ,].*consumed poisoned memory" /tmp/run.out; then
	fail "lattester-ctl did not name byte $want (gpa $gpa - namespace start $start)"
else
	echo "ok: lattester-ctl: exit 1, poison at byte $want of the region"
fi
# the module's log: the same physical address
if dmesg | grep -q "lattester: CPU $cpu: a load at byte $want of the region (physical address $(printf '%#x' "$gpa")) consumed poison"; then
	echo "ok: the module logged byte $want, physical address $gpa"
else
	fail "the module's log does not name byte $want at $gpa"
	dmesg | grep -i 'lattester\|mce\|machine check' | tail -n 10
fi
# a machine check was taken and recovered
mce1=$(awk '$1 == "MCE:" { print $2 + $3 }' /proc/interrupts)
if [ "$mce1" -gt "$mce0" ]; then
	echo "ok: machine check exceptions $mce0 -> $mce1, recovered"
else
	fail "no machine check exception counted ($mce0 -> $mce1)"
fi
dmesg | grep -i -m4 'mce:\|machine check' || true

# the kernel listed the line as a bad block (ACPI NFIT's MCE notifier): the
# next run over it is refused, one beside it measures
sector=$((want / 512))
i=0
while ! grep -q "^$sector 1\$" /sys/block/pmem0/badblocks && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
if grep -q "^$sector 1\$" /sys/block/pmem0/badblocks; then
	echo "ok: /sys/block/pmem0/badblocks lists sector $sector"
	msg=$(lattester-ctl run --quiet --cpu $cpu --samples 1000 --target $dev \
		--region 16M 2>&1 >/dev/null)
	got=$?
	if [ $got -eq 1 ] && printf '%s\n' "$msg" | grep -q "bad block"; then
		echo "ok: the range is refused now: $msg"
	else
		fail "a run over the bad block: exit $got, '$msg' (want the bad block's refusal)"
	fi
else
	fail "the bad block of sector $sector was not listed: $(tr '\n' ' ' </sys/block/pmem0/badblocks)"
fi
# and the module measures on (DRAM: a raw namespace with a bad block is
# refused whole)
if lattester-ctl run --quiet --cpu $cpu --samples 1000 --target dram --region 16M \
	--pattern chase >/tmp/after.out 2>&1; then
	echo "ok: a chase run on DRAM after it measures"
else
	fail "a DRAM run after the machine check failed"
	cat /tmp/after.out
fi
exit $rc
