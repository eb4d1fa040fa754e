#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Every op with two patterns on an fsdax block device (half the cross:
# cases/20-ops-patterns runs it whole on DRAM, and the code is the same;
# whole, it took 45 s of make check on 6.12), and each op once (the
# patterns in turn) and chase on a device-DAX device and a raw namespace
# (by name): the op and pattern code is the same on every target, the
# mapping is the target's.  From CPU 0 while the NVDIMM is on node 1;
# stores and chase with --force.  Plus the defaults (whole range), --offset and a
# load without --force.  30-ops-patterns.check reads the JSON.  (No devdax
# where the kernel has no device-DAX: see 10-namespaces.)
. /tests/lib/pmem.sh
set -u
ops_half fsdax "$FSDAX_DEV" --region 16M
[ -n "$DEVDAX_NS" ] && ops_each devdax "$DEVDAX_DEV" --region 16M
ops_each raw "$RAW_NS" --region 16M
# default region: the whole usable range (rounded down to 4 MiB)
run_json "fsdax-default@load@rand" --target "$FSDAX_DEV"
[ -n "$DEVDAX_NS" ] && run_json "devdax-default@load@rand" --target "$DEVDAX_DEV"
run_json "raw-default@load@seq" --target "$RAW_DEV" --pattern seq
# by name, the fsdax namespace resolves to its block device
run_json "fsdax-byname@load@rand" --target "$FSDAX_NS" --region 8M
# --offset: the region starts 8 MiB into the range
run_json "fsdax-offset@nt-store@seq" --target "$FSDAX_DEV" --offset 8M \
	--region 4M --op nt-store --pattern seq --force
[ -n "$DEVDAX_NS" ] && run_json "devdax-offset@load@rand" \
	--target "$DEVDAX_DEV" --offset 4K --region 1M
[ -n "$DEVDAX_NS" ] || echo "note: no device-DAX on this kernel: devdax not measured"
# the table shows the target in full
lattester-ctl run --quiet --samples 100 --cpu 0 --target "$FSDAX_DEV" \
	--region 4M >"$OUT/table.txt" 2>&1 || fail "table run"
cat "$OUT/table.txt"
grep -q "^target: .*pmem $FSDAX_DEV: $FSDAX_NS, fsdax, region0" "$OUT/table.txt" ||
	fail "table: target line"
grep -q "^phys: .*0x" "$OUT/table.txt" || fail "table: phys line"
ls "$OUT"/*.json | wc -l
exit $rc
