#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lattester-ctl list, table and JSON, beside what cxl, daxctl, ndctl and
# sysfs say in the same state (after 10-regions, before 30-ram-node: the ram
# region's device-DAX device is still devdax); 25-list.check compares them
# on the host.  Here: the table names each region the rig made and what its
# --target measures now.
. /tests/lib/cxl.sh
set -u
[ -n "${PMEM_REGION:-}" ] || { echo "FAIL: no /tmp/cxl.env (10-regions failed?)"; exit 1; }

lattester-ctl list >"$OUT/list.txt" 2>"$OUT/list.err" ||
	fail "lattester-ctl list: $(cat "$OUT/list.err")"
cat "$OUT/list.txt"
lattester-ctl list --json >"$OUT/list.json" 2>>"$OUT/list.err" ||
	fail "lattester-ctl list --json: $(cat "$OUT/list.err")"
[ -s "$OUT/list.err" ] && fail "list said something on stderr: $(cat "$OUT/list.err")"
cxl list -M >"$OUT/cxl-M.json" || fail "cxl list -M"
cxl list -D -d root >"$OUT/cxl-D.json" || fail "cxl list -D -d root"
cxl list -R >"$OUT/cxl-R.json" || fail "cxl list -R"
daxctl list >"$OUT/daxctl.json" || fail "daxctl list"
ndctl list -R >"$OUT/ndctl-R.json" || fail "ndctl list -R"
ndctl list -N >"$OUT/ndctl-N.json" || fail "ndctl list -N"

# each region as the kernel has it: NAME.resource, NAME.size, NAME.commit
: >"$OUT/sysfs.env"
for r in $CXL/region[0-9]*; do
	[ -e "$r/size" ] || continue
	n=${r##*/}
	echo "$n.resource=$(($(sysval "$r/resource"))) $n.size=$(($(sysval "$r/size"))) $n.commit=$(sysval "$r/commit")" >>"$OUT/sysfs.env"
done
cat "$OUT/sysfs.env"
cp /tmp/cxl.env "$OUT/cxl.env"

grep -qx "CXL regions (--target cxl:regionN)" "$OUT/list.txt" ||
	fail "the table has no CXL regions"
grep -qF "  $PMEM_REGION: pmem, " "$OUT/list.txt" ||
	fail "the table lacks the pmem region $PMEM_REGION"
grep -qxF "    --target cxl:$PMEM_REGION measures $DEVDAX_DEV" "$OUT/list.txt" ||
	fail "the table does not resolve cxl:$PMEM_REGION to $DEVDAX_DEV"
if [ -n "${RAM_REGION:-}" ]; then
	grep -qF "  $RAM_REGION: ram, " "$OUT/list.txt" ||
		fail "the table lacks the ram region $RAM_REGION"
	grep -qxF "    --target cxl:$RAM_REGION measures $RAM_DAX" "$OUT/list.txt" ||
		fail "the table does not resolve cxl:$RAM_REGION to $RAM_DAX"
fi
exit $rc
