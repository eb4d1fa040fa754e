#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# --target cxl:regionN, both engines, while the ram region's device-DAX
# device is devdax (after 10-regions, before 30-ram-node): each region
# resolves to its device-DAX device and is measured in place (loads: nothing
# written); --offset applies to what it resolved to.  Refused in both
# engines, in the same words and before START: no such region (exit 1), a
# malformed one (exit 2), and the ram region while its dax device has no
# driver (the fix named), which is then given back.  26-target.check reads
# the JSON on the host.
. /tests/lib/cxl.sh
set -u
[ -n "${PMEM_REGION:-}" ] || { echo "FAIL: no /tmp/cxl.env (10-regions failed?)"; exit 1; }
cp /tmp/cxl.env "$OUT/cxl.env"

run_json "pmem-kernel@load@rand" --target "cxl:$PMEM_REGION" --region 4M
run_json "pmem-user@load@rand" --engine user --target "cxl:$PMEM_REGION" --region 4M
run_json "pmem-offset@load@seq" --target "cxl:$PMEM_REGION" --offset 4M \
	--region 4M --pattern seq
if [ -n "${RAM_REGION:-}" ]; then
	run_json "ram-kernel@load@rand" --target "cxl:$RAM_REGION" --region 4M $(unchecked_flag)
	run_json "ram-user@load@rand" --engine user --target "cxl:$RAM_REGION" --region 4M
fi

# the refusals' words, the same for both engines
refused_both 1 "^lattester-ctl run: cxl:region99: no such CXL region \(there are .*$PMEM_REGION" \
	--cpu 0 --target cxl:region99
refused_both 2 "--target: 'cxl:foo': not a CXL region: expected cxl:regionN" \
	--cpu 0 --target cxl:foo

# the ram region's dax device without a driver: refused with the fix
if [ -n "${RAM_REGION:-}" ]; then
	d=${RAM_DAX#/dev/}
	if daxctl disable-device "$d" >/dev/null 2>&1; then
		refused_both 1 "^lattester-ctl run: cxl:$RAM_REGION: its dax device $d is disabled, no driver has it: bind it \('daxctl reconfigure-device --mode=devdax $d'" \
			--cpu 0 --target "cxl:$RAM_REGION"
		lattester-ctl list --json >"$OUT/list-disabled.json" ||
			fail "list --json with $d disabled"
		daxctl enable-device "$d" >/dev/null 2>&1 ||
			daxctl reconfigure-device -m devdax "$d" >/dev/null 2>&1 ||
			fail "could not give $d its driver back"
		wait_dev "$RAM_DAX" || fail "$RAM_DAX did not come back"
		[ "$(basename "$(readlink /sys/bus/dax/devices/$d/driver)")" = device_dax ] ||
			fail "$d is not bound to device_dax after the case"
	else
		fail "daxctl disable-device $d failed: the driverless refusal is untested"
	fi
fi
exit $rc
