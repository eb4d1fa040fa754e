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

for dev in "$FSDAX_DEV" "$DEVDAX_DEV"; do
	[ -n "$dev" ] || { echo "note: no device-DAX in this kernel: fsdax only"; continue; }
	j=/tmp/sweep-reuse-$(basename "$dev").jsonl
	j2=/tmp/sweep-reuse-one-$(basename "$dev").jsonl
	if ! lattester-ctl sweep --quiet --cpu 0 --target "$dev" --samples 1000 \
		--op load,nt-load --pattern seq,rand --region 4M,8M \
		--out "$j" >/tmp/sweep-reuse.err 2>&1; then
		fail "$dev: sweep: $(cat /tmp/sweep-reuse.err)"
		continue
	fi
	cp "$j" "$OUT/"
	# region varies fastest: 4M 8M 4M 8M ... every point a fresh region
	got=$(reused_of "$j")
	want="false false false false false false false false "
	[ "$got" = "$want" ] && echo "ok: $dev: regions alternating: all fresh" ||
		fail "$dev: region alternating: region_reused '$got', want '$want'"
	if ! lattester-ctl sweep --quiet --cpu 0 --target "$dev" --samples 1000 \
		--op load,nt-load --pattern seq,rand --region 4M \
		--out "$j2" >/tmp/sweep-reuse.err 2>&1; then
		fail "$dev: sweep: $(cat /tmp/sweep-reuse.err)"
		continue
	fi
	cp "$j2" "$OUT/"
	got=$(reused_of "$j2")
	want="false true true true "
	[ "$got" = "$want" ] && echo "ok: $dev: one region: the first fresh, then reused" ||
		fail "$dev: one region: region_reused '$got', want '$want'"
	# the claim went with the sweep
	if lattester-ctl run --quiet --samples 1000 --cpu 0 --target "$dev" \
		--region 4M >/tmp/after-sweep.out 2>&1; then
		echo "ok: $dev: measured again after the sweep"
	else
		fail "$dev: after the sweep: $(cat /tmp/after-sweep.out)"
	fi
done
exit $rc
