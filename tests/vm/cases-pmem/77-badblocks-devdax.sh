#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Known bad blocks of device-DAX.  The pmem driver keeps no list for a
# device-DAX namespace: only its region's list (the bus's poison list, from
# address range scrubs and machine checks; /sys/bus/nd/devices/regionN/
# badblocks, read-only) says which of its blocks are bad, and lattester-ctl
# maps that list into the device's range.  Two ways to give this emulated
# NVDIMM's region a bad block at byte 1 MiB of the device are tried:
#   - ndctl inject-error (ACPI NFIT error injection through the ARS DSMs);
#   - a software-injected machine check (mce-inject's debugfs, flags "sw":
#     only the decoders run, nothing is consumed): an uncorrected memory
#     error at that address, which nfit's MCE handler adds to the bus's
#     poison list, and so to the region's badblocks;
# if neither works, SKIP with both reasons.  With one:
#   - the kernel engine and the user engine refuse a region over it, with
#     the byte, the physical address and the ndctl commands, before START
#     or any mapping; the user engine as nobody (no physical ranges) can't
#     place it, and refuses too;
#   - --skip-badblocks: from 1 MiB + 4 KiB (kernel engine: pages) or 2 MiB
#     (user engine: the device's alignment) on;
#   - list counts it on the namespace and the region, as ndctl list
#     --media-errors does (77-badblocks-devdax.check).
# The bad block stays until reboot; 80 doesn't measure device-DAX.
. /tests/lib/pmem.sh
set -u
[ -n "$DEVDAX_NS" ] || { echo "SKIP: no device-DAX in this kernel (see 10-namespaces)"; exit 77; }
dev=$DEVDAX_DEV ns=$DEVDAX_NS
R="run --quiet --samples 1000 --cpu 0"
region=/sys/bus/nd/devices/region0/badblocks
start=$(lattester-ctl list | sed -n "s/^ *$ns .* \(0x[0-9a-f]*\)-0x[0-9a-f]* .*/\1/p")
[ -n "$start" ] || { echo "FAIL: no physical range of $ns in lattester-ctl list"; exit 1; }
addr=$(printf '0x%x' $((start + (1 << 20))))
echo "$ns ($dev) starts at $start; the bad block goes to $addr (byte 1048576)"

# wait_bb: the region's list names a block, within 5 s
wait_bb() {
	local i=0
	while [ ! -s "$region" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -s "$region" ]
}

how=
if ndctl inject-error --block=2048 --count=1 "$ns" >/tmp/inj.out 2>&1 && wait_bb; then
	how="ndctl inject-error"
else
	why1="ndctl inject-error: $(tr '\n' ' ' </tmp/inj.out)"
	echo "note: $why1"
	mci=/sys/kernel/debug/mce-inject
	[ -d /sys/kernel/debug/mce-inject ] ||
		mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
	[ -d $mci ] || modprobe mce-inject 2>/tmp/mce.err
	if [ ! -d $mci ]; then
		why2="no mce-inject (modprobe: $(tr '\n' ' ' </tmp/mce.err); tools/vm/mkinitramfs would have to add the module)"
	else
		# an uncorrected memory read error at $addr, physical address
		# valid (MISC: 64-byte granule, physical mode); bank 4 with
		# extended code 8 is AMD's memory error, MCACOD 0x9f Intel's
		if grep -q AuthenticAMD /proc/cpuinfo; then
			status=0xb400000000080000 bank=4
		else
			status=0xbc0000000000009f bank=1
		fi
		echo sw >$mci/flags && echo 0 >$mci/cpu 2>/dev/null
		echo "$addr" >$mci/addr && echo 0x86 >$mci/misc &&
			echo "$status" >$mci/status && echo "$bank" >$mci/bank 2>/tmp/mce.err
		if wait_bb; then
			how="a machine check from mce-inject ($status, bank $bank)"
		else
			why2="mce-inject: the machine check at $addr reached no list ($(tr '\n' ' ' </tmp/mce.err); $(dmesg | grep -i -e mce -e nfit | tail -n 3 | tr '\n' ' '))"
		fi
	fi
fi
if [ -z "$how" ]; then
	echo "SKIP: no way to give device-DAX a known bad block on this emulated NVDIMM: $why1; $why2"
	exit 77
fi
echo "ok: $how: region0's list: $(tr '\n' ' ' <"$region")"

hint="'ndctl list --media-errors -n $ns' lists them; 'ndctl clear-errors $ns' clears them"
for eng in kernel user; do
	refused 1 "^lattester-ctl run: $dev: a known bad block \(media error\) at byte 1048576 \(1 MiB\) of $ns \(devdax, region0\), [0-9]+ B long, at physical address $addr, lies in the region \(4 MiB from --offset 0\): refusing .*$hint" \
		$R --engine $eng --target "$dev" --region 4M
	refused 1 "^lattester-ctl run: $ns: a known bad block \(media error\) at byte 1048576" \
		$R --engine $eng --target "$ns" --op store --force
	run_json "dax-beside-$eng" --engine $eng --target "$dev" --offset 4M --region 8M
	run_json "dax-skip-$eng" --engine $eng --target "$dev" --skip-badblocks
	cp /tmp/run.out "$OUT/dax-skip-$eng.err"
done
chmod 0644 "$dev"
as-nobody lattester-ctl $R --engine user --target "$dev" --offset 4M --region 4M \
	>/dev/null 2>"$OUT/nobody.msg"
got=$?
[ $got -eq 1 ] && grep -q "the known bad blocks of $ns (devdax, region0) can't be checked: region0 has known bad blocks, but where $ns lies in it is unknown (libndctl can't read the physical ranges: are you root?): refusing" "$OUT/nobody.msg" &&
	echo "ok: nobody can't place them: $(cat "$OUT/nobody.msg")" ||
	fail "nobody: exit $got: $(cat "$OUT/nobody.msg")"
chmod 0600 "$dev"

lattester-ctl list --json >"$OUT/list.json" || fail "lattester-ctl list --json"
lattester-ctl list >"$OUT/list.txt" || fail "lattester-ctl list"
ndctl list -N --media-errors >"$OUT/ndctl-NM.json" || fail "ndctl list -N --media-errors"
ndctl list -R --media-errors >"$OUT/ndctl-RM.json" || fail "ndctl list -R --media-errors"
cp /tmp/pmem.env "$OUT/pmem.env"
echo "$addr" >"$OUT/addr"
cat "/sys/bus/dax/devices/${dev#/dev/}/align" >"$OUT/align" 2>/dev/null ||
	echo 4096 >"$OUT/align"
cat "$OUT/list.txt" "$OUT/ndctl-NM.json"
exit $rc
