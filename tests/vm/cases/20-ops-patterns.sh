#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Every op x pattern on DRAM through lattester-ctl, one JSON file each,
# and (ABI 2.7) runs with batches after their samples: loads, warmed
# store-clwbs, a chase; 20-ops-patterns.check validates them on the host.
# vm-kernels: 6.1.* 6.12.*+deb12-amd64
# vm-kernels-why: the access kernels are the same code on PREEMPT_RT; what it changes (the windows, the kthreads, the locks) 40-abort, 45-irqs-off and 62-sigkill to 66-long-run test there
set -u
rc=0
run() {	# file-stem, lattester-ctl run options...
	stem=$1; shift
	if ! lattester-ctl run --quiet --samples 2000 --region 16M \
		--json "$OUT/$stem.json" "$@" >"$OUT/$stem.txt" 2>&1; then
		echo "FAIL: $stem: lattester-ctl run $*"; cat "$OUT/$stem.txt"
		rc=1
	fi
}
for op in load nt-load store store-clwb store-clflushopt store-clflush nt-store; do
	for pat in seq rand stride:4096 hotspot:65536; do
		run "$op@$(echo "$pat" | tr : -)" --op "$op" --pattern "$pat"
	done
done
run "load@chase" --op load --pattern chase
run "load@chase-chain8" --op load --pattern chase --chain 8
for w in 8 16 32; do
	run "load@rand-w$w" --op load --width "$w"
	run "nt-store@seq-w$w" --op nt-store --pattern seq --width "$w" --size 256
done
run "store-clwb@rand-mfence" --op store-clwb --fence mfence --size 4096
run "load@rand-node1" --op load --target dram:1 --cpu 0
run "load@rand-cpu1" --op load --cpu 1 --warm
run "load@rand-batch8" --op load --batch 8 --batch-pairs 256
run "store-clwb@rand-batch8" --op store-clwb --warm --batch 8 --batch-pairs 256
run "load@chase-batch4" --op load --pattern chase --batch 4 --batch-pairs 256
ls "$OUT"/*.json | wc -l
exit $rc
