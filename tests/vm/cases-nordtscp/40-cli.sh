#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lattester-ctl on a kernel without rdtscp: plain runs go through (the
# module falls back to lfence; rdtsc, lattester-ctl lets it), one JSON file
# each; 40-cli.check validates them on the host.
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
run "load@rand" --op load
run "store@rand" --op store
run "nt-store@seq-w16" --op nt-store --pattern seq --width 16 --size 256
run "load@chase-chain8" --op load --pattern chase --chain 8
if lattester-ctl info >"$OUT/info.txt" 2>&1; then
	echo "ok: lattester-ctl info"
else
	echo "FAIL: lattester-ctl info"; cat "$OUT/info.txt"; rc=1
fi
ls "$OUT"/*.json | wc -l
exit $rc
