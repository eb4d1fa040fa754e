#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Issue 27, cross-target interference: --mode loaded --traffic-target T,
# thread 0 (CPU 0, node 0) timing --target while thread 1 (CPU 1, node 1)
# streams on T, in both engines (the module's LATT_IOC_START_TRAFFIC, ABI
# 2.9).  What a user relies on: the traffic goes to T, and only there.
# With the device-DAX namespace (10-namespaces) filled and summed
# (daxsum):
#   - DRAM probed, loads of traffic on the device: it is unchanged;
#   - DRAM probed, writing traffic (--mix 0:1) on the device: refused
#     without --force in the same words by both engines, as a probe's
#     stores on it are; with it, the
#     device changed: the stores landed there;
#   - the device probed (loads), writing traffic on dram: no --force
#     asked, and the device is unchanged: none of the traffic's stores
#     reached the probe's target;
#   - a chase probe on dram with writing traffic on the device (the
#     traffic's writes never reach its chain).
# 47-traffic-target.check reads the JSON: the traffic's target, kind and
# node, the stream thread's bytes, the probe's samples.
. /tests/lib/pmem.sh
set -u
[ -n "$DEVDAX_NS" ] || { echo "SKIP: no device-DAX in this kernel (see 10-namespaces)"; exit 77; }
dev=$DEVDAX_DEV
L="--mode loaded --cpus 0,1 --samples 2000 --region 4M --pattern seq"
B=$((16 << 20))

daxsum fill "$dev" $B || fail "daxsum fill"
s0=$(daxsum sum "$dev" $B)
for e in kernel user; do
	# shellcheck disable=SC2086 # $L: the options
	run_json "traffic-$e-dev-loads" --engine $e $L --target dram:0 \
		--traffic-target "$dev"
	s=$(daxsum sum "$dev" $B)
	[ "$s" = "$s0" ] && echo "ok: $e: loads of traffic left $dev as it was" ||
		fail "$e: loads of traffic on $dev changed it: $s0 -> $s"
done
# shellcheck disable=SC2086
refused_e() {
	local e
	for e in kernel user; do
		refused 1 "$1" run --engine $e $L --target dram:0 \
			--traffic-target "$dev" --mix 0:1
	done
}
refused_e "^lattester-ctl run: $dev: --mix 0:1 writes with store: it would overwrite 4 MiB of $DEVDAX_NS \\(devdax, region0\\); add --force to allow it$"
s=$(daxsum sum "$dev" $B)
[ "$s" = "$s0" ] && echo "ok: the refused runs left $dev as it was" ||
	fail "a refused run changed $dev: $s0 -> $s"

for e in kernel user; do
	daxsum fill "$dev" $B || fail "daxsum fill"
	s0=$(daxsum sum "$dev" $B)
	# shellcheck disable=SC2086
	run_json "traffic-$e-dev-writes" --engine $e $L --target dram:0 \
		--traffic-target "$dev" --mix 0:1 --force
	s=$(daxsum sum "$dev" $B)
	[ "$s" != "$s0" ] && echo "ok: $e: the traffic's stores changed $dev" ||
		fail "$e: writing traffic on $dev left it unchanged: its stores went elsewhere"

	# the other way round: the device probed, the stores on dram, which
	# need no --force: they never reach the device
	# shellcheck disable=SC2086
	run_json "traffic-$e-dram-writes" --engine $e $L --target "$dev" \
		--traffic-target dram --mix 0:1
	s2=$(daxsum sum "$dev" $B)
	[ "$s2" = "$s" ] && echo "ok: $e: the traffic's stores on dram left the probed $dev as it was" ||
		fail "$e: traffic on dram changed the probed $dev: $s -> $s2"
done

# a sweep of traffic targets: none, the device (claimed and mapped, kept
# by the sweep), dram (the device's claim let go): a point each
for e in kernel user; do
	if lattester-ctl sweep --quiet --engine $e --mode loaded --cpus 0,1 \
		--samples 1000 --region 4M --target dram:0 \
		--traffic-target "none,$dev,dram" --out "$OUT/sweep-$e.jsonl" \
		>"$OUT/sweep-$e.err" 2>&1; then
		echo "ok: $e: sweep --traffic-target none,$dev,dram"
	else
		fail "$e: sweep --traffic-target none,$dev,dram: $(cat "$OUT/sweep-$e.err")"
	fi
done

# a chase probe under writing traffic elsewhere: its chain stands
for e in kernel user; do
	# shellcheck disable=SC2086
	run_json "chase-$e" --engine $e --mode loaded --cpus 0,1 \
		--samples 2000 --region 4M --pattern chase --target dram:0 \
		--traffic-target "$dev" --mix 1:1 --force
done
refused 2 "--pattern chase with writing traffic would overwrite the chain" \
	run --mode loaded --cpus 0,1 --pattern chase --target dram:0 --mix 1:1

# outside --mode loaded: a usage error, before any device is opened
refused 2 "--traffic-target is for --mode loaded" run --target dram:0 \
	--traffic-target dram:1 --cpu 0
exit $rc
