#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# memmap=256M!1G gives a legacy e820 pmem range: nd_e820 shows it as one
# namespace with /dev/pmem0 (ndctl calls it fsdax, "map":"mem": no pfn info
# block, the data starts at the namespace's start).  list sees it; each op
# runs on it once, the patterns in turn, and chase (stores and chase with
# --force; cases-pmem/30 runs the whole cross on an fsdax namespace);
# 10-e820.check reads the JSON.  Its persistence domain is unknown: --op
# durable is refused, naming it.
. /tests/lib/pmem.sh
set -u
wait_dev /dev/pmem0 || { echo "FAIL: no /dev/pmem0 (is nd_e820 loaded?)"; exit 1; }
grep -i "persistent" /proc/iomem
lattester-ctl list | tee "$OUT/list.txt" || fail "lattester-ctl list"
lattester-ctl list --json >"$OUT/list.json" || fail "lattester-ctl list --json"
ndctl list -RN >"$OUT/ndctl-RN.json" || fail "ndctl list -RN"
cat "$OUT/ndctl-RN.json"
ns=$(jfield dev "$(ndctl list -N)")
echo "e820 namespace: $ns"
echo "E820_NS=$ns" >"$OUT/pmem.env"
ops_each e820 /dev/pmem0 --region 16M
# nd_e820 reports no persistence domain (the kernel's sysfs line is
# empty): --op durable can't tell the durable sequence, and says so
durable unknown - /dev/pmem0 --force --region 16M
run_json "e820-default@load@rand" --target /dev/pmem0
run_json "e820-byname@load@seq" --target "$ns" --pattern seq --region 4M
refused 1 "/dev/pmem0: store-clwb would overwrite 16 MiB of $ns \(fsdax, region[0-9]+\); add --force" \
	run --samples 10 --target /dev/pmem0 --op store-clwb --region 16M
ls "$OUT"/*.json | wc -l
exit $rc
