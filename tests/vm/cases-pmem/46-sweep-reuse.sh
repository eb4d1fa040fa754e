#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Issue 16 on persistent memory, kernel engine: a sweep's points on one
# pmem target share the module's checked mapping and the claim
# (LATT_CFG_REUSE): the first row fresh, the others reused; a point with
# another region gets a fresh one.  At the sweep's end the claim is given
# back: the fsdax disk opens O_EXCL again (a run on it works) and the
# device-DAX device can be measured again.
. /tests/lib/pmem.sh
set -u

# reused_of FILE: the rows' region_reused, in order, one word each
reused_of() {
	grep -o '"region_reused": *[a-z]*' "$1" | sed 's/.*: *//' | tr '\n' ' '
}

# sweep_reused DEV FILE REGIONS WANT: a sweep of 2 ops x 2 patterns over
# REGIONS on DEV into FILE, whose rows' region_reused must be WANT
sweep_reused() {
	if ! lattester-ctl sweep --quiet --cpu 0 --target "$1" --samples 1000 \
		--op load,nt-load --pattern seq,rand --region "$3" \
		--out "$2" >/tmp/sweep-reuse.err 2>&1; then
		fail "$1: sweep --region $3: $(cat /tmp/sweep-reuse.err)"
		return
	fi
	cp "$2" "$OUT/"
	got=$(reused_of "$2")
	[ "$got" = "$4" ] && echo "ok: $1: --region $3: region_reused $got" ||
		fail "$1: --region $3: region_reused '$got', want '$4'"
}

for dev in "$FSDAX_DEV" "$DEVDAX_DEV"; do
	[ -n "$dev" ] || { echo "note: no device-DAX in this kernel: fsdax only"; continue; }
	b=$(basename "$dev")
	# region varies fastest: 4M 8M 4M 8M ... every point a fresh region
	sweep_reused "$dev" "/tmp/sweep-reuse-$b.jsonl" 4M,8M \
		"false false false false false false false false "
	# one region: fresh once, then the module's kept mapping and claim
	sweep_reused "$dev" "/tmp/sweep-reuse-one-$b.jsonl" 4M \
		"false true true true "
	# the claim went with the sweep
	if lattester-ctl run --quiet --samples 1000 --cpu 0 --target "$dev" \
		--region 4M >/tmp/after-sweep.out 2>&1; then
		echo "ok: $dev: measured again after the sweep"
	else
		fail "$dev: after the sweep: $(cat /tmp/after-sweep.out)"
	fi
done
exit $rc
