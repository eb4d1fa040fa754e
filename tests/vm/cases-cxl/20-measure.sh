#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Measure every CXL target 10-regions made, with both engines, and check the
# data a load run must leave alone is intact:
#   fsdax and devdax namespaces of the pmem region: kernel engine, load and
#     store-clwb (forced); the devdax one with --engine user too
#   the ram region's device-DAX device (6.12): kernel engine load and
#     nt-store (the module accepts a range under the CXL window for a
#     device-DAX claim, tied to the device page by page), --engine user load
# 20-measure.check reads the JSON on the host.
. /tests/lib/cxl.sh
set -u
[ -n "${PMEM_REGION:-}" ] || { echo "FAIL: no /tmp/cxl.env (10-regions failed?)"; exit 1; }

# unchanged NAME PATH: the first 4 MiB hash as after the last readback/run
sum0() {
	daxsum sum "$1" $((4 << 20))
}

for t in fsdax:$FSDAX_DEV devdax:$DEVDAX_DEV ram:${RAM_DAX:-}; do
	name=${t%%:*} dev=${t#*:}
	if [ -z "$dev" ]; then
		echo "note: no $name target on $(uname -r) (no ram region: 6.1 has no dax_cxl)"
		continue
	fi
	s0=$(sum0 "$dev")
	unchk=
	if [ "$name" = ram ]; then
		# no poison list: where a poisoned load would be a panic (this
		# VM's CPU reports no recoverable machine checks unless info
		# lists mc_recover) the kernel engine refuses it, unless told
		if lattester-ctl info 2>/dev/null | grep -q mc_recover; then
			echo "ok: ram: the CPU recovers machine checks: no refusal expected"
		else
			refused 1 "can't be checked .*CXL $RAM_REGION.*this CPU reports no machine checks the kernel can recover from.*refusing.*--allow-unchecked" \
				run --target "$dev" --region 4M --op load --samples 2000
			unchk=--allow-unchecked
		fi
	fi
	run_json "$name@load@rand" --target "$dev" --region 4M --op load --pattern rand $unchk
	s1=$(sum0 "$dev")
	[ "$s0" = "$s1" ] && echo "ok: $name: a load run left $dev as it was" ||
		fail "$name: a load run changed $dev ($s0 -> $s1)"
	if [ "$name" = ram ]; then
		grep -q "known bad blocks not checked: it is CXL $RAM_REGION's memory, whose poison list lattester-ctl does not read" /tmp/run.out &&
			echo "ok: ram: the warning names CXL $RAM_REGION's poison list" ||
			fail "ram: no warning naming CXL $RAM_REGION: $(cat /tmp/run.out)"
	fi
	case $name in
	ram) run_json "$name@nt-store@seq" --target "$dev" --region 4M --op nt-store --pattern seq --force $unchk ;;
	*) run_json "$name@store-clwb@rand" --target "$dev" --region 4M --op store-clwb --pattern rand --force ;;
	esac
	[ "$name" = fsdax ] || run_json "$name-user@load@rand" --engine user --target "$dev" --region 4M
done
ls "$OUT"
exit $rc
