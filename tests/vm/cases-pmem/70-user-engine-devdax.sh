#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# --engine user on the device-DAX namespace (10-namespaces), mapped at the
# device's alignment:
#   - what a mapping adds (ops_map: a load, store-clwb, nt-store, chase;
#     the host's unit tests run the user engine's whole cross, and
#     30-ops-patterns every op here), stores and chase with --force, by name, the
#     default region, --offset 4K (inside a 2 MiB-aligned window), chase
#     with --chain 8;
#   - the same seed gives the kernel engine's offsets (rand, and chase by
#     masked offsets): both engines with every sample an outlier;
#   - nobody with read access to the device (the physical range unknown);
#   - refused: stores and chase without --force, the pmem block device (a
#     mapping of it is page cache), --hugepages; daxsum shows the refused
#     runs and the loads wrote nothing, and that a forced store did;
#   - the namespace disabled under a run: the run fails, saying why.
# 70-user-engine-devdax.check reads the JSON.  A kernel without device-DAX
# (Debian's PREEMPT_RT) skips.
# vm-kernels: 6.12.*+deb12-amd64
# vm-kernels-why: the user engine is lattester-ctl's own mapping of the device; 30-ops-patterns runs the kernel engine on device-DAX on every kernel
. /tests/lib/pmem.sh
set -u
[ -n "$DEVDAX_NS" ] || { echo "SKIP: no device-DAX in this kernel (see 10-namespaces)"; exit 77; }
dev=$DEVDAX_DEV
U="--engine user"
R="run $U --samples 100 --cpu 0"
echo "align: $(cat /sys/bus/dax/devices/${dev#/dev/}/align 2>/dev/null || echo '?')"

ops_map udax "$dev" --region 16M $U
run_json "udax-byname@load@rand" --target "$DEVDAX_NS" --region 8M $U
run_json "udax-default@load@rand" --target "$dev" $U
run_json "udax-offset@load@seq" --target "$dev" --offset 4K --region 1M \
	--pattern seq $U
run_json "udax-chain@load@chase" --target "$dev" --pattern chase --chain 8 \
	--force --region 4M $U

# same seed, same offsets: --threshold 1 records every sample that took
# longer than the timer's overhead (4 KiB loads, chains of 16 do)
for spec in "rand --size 4K" "chase --chain 16"; do
	set -- $spec
	for eng in kernel user; do
		run_json "same-$eng@load@$1" --target "$dev" --engine "$eng" \
			--pattern "$@" --region 4M --seed 0x5eed --force \
			--threshold 1 --max-outliers 2000
	done
done

# the table
lattester-ctl run $U --quiet --samples 100 --cpu 0 --target "$dev" \
	--region 4M >"$OUT/table.txt" 2>&1 || fail "table run"
cat "$OUT/table.txt"
grep -q "^target: *devdax $dev: $DEVDAX_NS, devdax, region0" "$OUT/table.txt" ||
	fail "table: target line"
grep -q "^phys: *0x" "$OUT/table.txt" || fail "table: phys line"
grep -q "user engine" "$OUT/table.txt" || fail "table: the engine"

# nobody, with read access to the device only: no physical range
chmod 0644 "$dev"
if as-nobody lattester-ctl run $U --quiet --samples 500 --cpu 0 --target "$dev" \
	--region 4M --json - >"$OUT/nobody.json" 2>/tmp/nobody.err; then
	echo "ok: nobody measured $dev"
else
	fail "nobody: loads on $dev"
	cat /tmp/nobody.err
fi
as-nobody lattester-ctl $R --target "$dev" --op store --force --region 4M \
	>/dev/null 2>/tmp/nobody.err
st=$?
[ $st -eq 1 ] && grep -q "cannot open $dev: Permission denied" /tmp/nobody.err &&
	echo "ok: nobody can't store: $(cat /tmp/nobody.err)" ||
	{ fail "nobody: store on a read-only device -> $st"; cat /tmp/nobody.err; }
chmod 0600 "$dev"

# refusals, and what they (didn't) write
daxsum fill "$dev" $((16 << 20)) || fail "daxsum fill"
s0=$(daxsum sum "$dev" $((16 << 20)))
refused 1 "^lattester-ctl run: $dev: store would overwrite 16 MiB of $DEVDAX_NS \(devdax, region0\); add --force to allow it$" \
	$R --target "$dev" --op store --region 16M
refused 1 "$dev: nt-store would overwrite 4 MiB of $DEVDAX_NS" \
	$R --target "$dev" --op nt-store --region 4M
refused 1 "--pattern chase writes its pointers into the target: it would overwrite 8 MiB of $DEVDAX_NS" \
	$R --target "$DEVDAX_NS" --pattern chase --region 8M
refused 1 "$FSDAX_DEV: a block device, whose mapping would be page cache: --engine user measures device-DAX devices and files" \
	$R --target "$FSDAX_DEV"
refused 1 "$FSDAX_NS: $FSDAX_DEV is a block device" $R --target "$FSDAX_NS"
refused 2 "--hugepages is for dram targets" $R --target "$dev" --hugepages
refused 1 "--region 1 GiB exceeds the [0-9.]+ MiB of $DEVDAX_NS" \
	$R --target "$dev" --region 1G
run_json "udax-unforced@load@rand" --target "$dev" --region 16M $U
s1=$(daxsum sum "$dev" $((16 << 20)))
[ "$s1" = "$s0" ] && echo "ok: refused runs and loads left the device as it was ($s0)" ||
	fail "the device changed: $s0 -> $s1"
run_json "udax-forced@store@seq" --target "$dev" --region 16M --op store \
	--pattern seq --force $U
s2=$(daxsum sum "$dev" $((16 << 20)))
[ "$s2" != "$s0" ] && echo "ok: the forced store changed the device ($s2)" ||
	fail "the forced store left the device unchanged: the checksum proves nothing"

# the namespace disabled under a run: its mapping goes (SIGBUS), and the
# run fails saying so instead of dying of a bus error
if bg_run /tmp/midrun.out $U --quiet --cpu 0 --target "$dev" --region 16M \
	--samples 100000000; then
	ndctl disable-namespace "$DEVDAX_NS" || fail "disable-namespace under a run"
	gone_wait /tmp/midrun.out "$DEVDAX_NS disabled"
	ndctl enable-namespace "$DEVDAX_NS" && wait_dev "$dev" ||
		fail "$DEVDAX_NS did not come back"
else
	fail "the run under which $DEVDAX_NS goes did not start"
	cat /tmp/midrun.out
	kill "$bg_pid"
fi
exit $rc
