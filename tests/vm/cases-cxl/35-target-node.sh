#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# After 30-ram-node onlined the ram region's device-DAX device as system
# RAM (kmem, movable, node RAM_NODE): list says so (system-ram, online,
# movable, the node as daxctl says), and --target cxl:RAM_REGION resolves to
# that node, measured as dram:NODE by both engines.  --offset is refused
# once it resolved (exit 1).  With the memory offlined, the region is
# refused naming 'daxctl online-memory'; then it is onlined again, movable.
# With the window's second ram region onlined too, a run on the first
# warns that the node holds more than the region.
# 35-target-node.check reads the JSON on the host.  6.12 only.
. /tests/lib/cxl.sh
set -u
need_ram_region
d=${RAM_DAX#/dev/}
drv=$(basename "$(readlink /sys/bus/dax/devices/$d/driver 2>/dev/null)" 2>/dev/null)
[ "$drv" = kmem ] || { echo "FAIL: $d is bound to '$drv', not kmem (30-ram-node failed?)"; exit 1; }
cp /tmp/cxl.env "$OUT/cxl.env"

lattester-ctl list >"$OUT/list.txt" || fail "lattester-ctl list"
lattester-ctl list --json >"$OUT/list.json" || fail "lattester-ctl list --json"
daxctl list -d "$d" >"$OUT/daxctl.json" || fail "daxctl list -d $d"
cat "$OUT/list.txt"
grep -qxF "    --target cxl:$RAM_REGION measures dram:$RAM_NODE" "$OUT/list.txt" ||
	fail "the table does not resolve cxl:$RAM_REGION to dram:$RAM_NODE"

run_json "node-kernel@load@rand" --target "cxl:$RAM_REGION" --region 4M
# the node holds this region only: no warning that it holds more
grep -q "holds .* MiB, the region" /tmp/run.out &&
	fail "a warning that node $RAM_NODE holds more than $RAM_REGION: $(cat /tmp/run.out)"
run_json "node-user@load@rand" --engine user --target "cxl:$RAM_REGION" --region 4M
refused_both 1 "^lattester-ctl run: cxl:$RAM_REGION: resolves to dram:$RAM_NODE \(.*\): --offset is for pmem and device-DAX targets" \
	--cpu 0 --target "cxl:$RAM_REGION" --offset 4K

# its memory offline: refused, the fix named; then back online, movable
if daxctl offline-memory "$d" >/dev/null 2>&1; then
	refused_both 1 "^lattester-ctl run: cxl:$RAM_REGION: its dax device $d is in system-ram mode with its memory offline: online it \('daxctl online-memory $d'\)" \
		--cpu 0 --target "cxl:$RAM_REGION"
	lattester-ctl list --json >"$OUT/list-offline.json" ||
		fail "list --json with $d offline"
	daxctl online-memory "$d" >/dev/null 2>&1 || fail "daxctl online-memory $d"
	daxctl list -d "$d" | grep -q '"movable":true' ||
		fail "$d is not back online movable: $(daxctl list -d "$d")"
else
	fail "daxctl offline-memory $d failed (its memory in use?): the offline refusal is untested"
fi

# the window's other ram region online too: the node holds both, and a
# run on one region's node says that its pages may come from the other
d2=${RAM2_DAX#/dev/}
if daxctl reconfigure-device --mode=system-ram "$d2" >/dev/null; then
	lattester-ctl run --cpu 0 --samples 100 --region 4M \
		--target "cxl:$RAM_REGION" >/tmp/two.out 2>&1 ||
		fail "cxl:$RAM_REGION with $d2 online too: $(cat /tmp/two.out)"
	if grep -q "^lattester-ctl run: warning: cxl:$RAM_REGION: node $RAM_NODE holds 512 MiB, the region 256 MiB: a run on dram:$RAM_NODE takes its pages anywhere in the node, not only in this region$" /tmp/two.out; then
		echo "ok: $(grep 'holds 512 MiB' /tmp/two.out)"
	else
		fail "no warning that node $RAM_NODE holds both regions: $(cat /tmp/two.out)"
	fi
else
	fail "daxctl reconfigure-device --mode=system-ram $d2"
fi
exit $rc
