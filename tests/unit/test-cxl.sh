#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-cxl.sh - lattester-ctl's CXL side on a host without CXL (no
# /sys/bus/cxl), no module, no root; the regions themselves are tested in
# the VM (tests/vm/cases-cxl/) and their states in test-cxl.c:
#  - list says "CXL: none" and exits 0; list --json is valid JSON with
#    "cxl": {"libcxl": true, "memdevs": [], "root_decoders": [],
#    "regions": []} beside the rest of lattester-list/1;
#  - run --target cxl:region0 fails, exit 1, with "no such CXL region",
#    the same words for the kernel engine (no module, and the module's
#    stand-in test-cli-fake.so: refused before START) and the user engine,
#    and in a sweep; options that depend on what the region resolves to
#    (--offset, --hugepages) wait for it;
#  - malformed cxl: targets (cxl:, cxl:regionX, cxl:foo) are usage
#    errors, exit 2, saying what a CXL target is, for both engines; a file
#    named cxl:foo is no target;
#  - --help of run and list name cxl:regionN;
#  - a lattester-ctl built without libcxl (LIBCXL=no, in a copy of the
#    tree): list says so in one line, its JSON has "libcxl": false, and
#    cxl:region0 is refused, exit 1, saying it was built without libcxl.
#
#   make -C user && bash tests/unit/test-cxl.sh
#   (CXL_TEST_NO_BUILD=1 skips the build without libcxl)
#
# TAP-like lines, then "cxl-ctl: N passed, N failed[, N skipped]".

set -u

TAP_NAME=cxl-ctl
CTL_TEST_PYTHON=1
. "$(dirname "$0")/ctl-test.sh"

# jcheck FILE PYTHON-EXPRESSION DESCRIPTION: the expression over d, the
# parsed JSON of FILE, is true
jcheck()
{
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 1)' "$1" "$2" 2>>"$tmp/err"
	report $? "$3"
}

export LATTESTER_DEV=/nonexistent
fake=$top/user/test-cli-fake.so
no_region="^lattester-ctl (run|sweep): cxl:region0: no such CXL region"

# ---- list ----
if [ -e /sys/bus/cxl ]; then
	skip "list without CXL: this host has /sys/bus/cxl"
else
	expect 0 "list (no CXL here)" "$ctl" list
	has "$tmp/out" "^CXL: none$" "list: 'CXL: none'"
	[ ! -s "$tmp/err" ]
	report $? "list: nothing on stderr (libcxl quiet without CXL)"
	expect 0 "list --json (no CXL here)" "$ctl" list --json
	cp "$tmp/out" "$tmp/list.json"
	jcheck "$tmp/list.json" 'd["schema"] == "lattester-list/1" and d["cxl"] == {"libcxl": True, "memdevs": [], "root_decoders": [], "regions": []}' \
		"list --json: valid, lattester-list/1, empty cxl lists"
	jcheck "$tmp/list.json" 'set(d) == {"schema", "numa_nodes", "regions", "dax_devices", "cxl"}' \
		"list --json: the cxl block beside the others"
fi

# ---- run --target cxl:region0: no such region, both engines ----
if ls /sys/bus/cxl/devices/region0 >/dev/null 2>&1; then
	skip "cxl:region0 refusals: this host has a CXL region0"
else
	expect 1 "run --target cxl:region0 (kernel engine, no module)" \
		"$ctl" run --target cxl:region0
	has "$tmp/err" "$no_region" "kernel engine: no such CXL region"
	hasnt "$tmp/err" "module not loaded" "kernel engine: refused before the module is asked"
	cp "$tmp/err" "$tmp/kernel.err"
	expect 1 "run --engine user --target cxl:region0" \
		"$ctl" run --engine user --target cxl:region0
	has "$tmp/err" "$no_region" "user engine: no such CXL region"
	cmp -s "$tmp/err" "$tmp/kernel.err"
	report $? "both engines refuse in the same words"
	if [ -f "$fake" ] || make -s -C "$top/user" test-cli-fake.so >/dev/null 2>&1; then
		run env LATTESTER_DEV=/dev/null LD_PRELOAD="$fake" "$ctl" run \
			--target cxl:region0 --samples 1000
		[ "$rc" -eq 1 ] && cmp -s "$tmp/err" "$tmp/kernel.err"
		report $? "with the module's stand-in: the same refusal, exit 1 (exit $rc)"
	else
		report 1 "test-cli-fake.so builds"
	fi
	expect 1 "run --target cxl:region0 --offset 4K (checked once resolved)" \
		"$ctl" run --target cxl:region0 --offset 4K
	has "$tmp/err" "$no_region" "--offset with cxl: not a usage error, the region is looked for"
	expect 1 "run --engine user --hugepages --target cxl:region0" \
		"$ctl" run --engine user --hugepages --target cxl:region0
	has "$tmp/err" "$no_region" "--hugepages with cxl: not a usage error, the region is looked for"
	expect 1 "sweep --engine user --target cxl:region0" \
		"$ctl" sweep --engine user --target cxl:region0 --samples 1000 \
		--out "$tmp/s.csv"
	has "$tmp/err" "$no_region" "sweep: the point says no such CXL region"
	# --force is a question for what the region becomes (a node needs
	# none): a store sweep goes on to each point, not refused up front
	rm -f "$tmp/s.csv"
	expect 1 "sweep --engine user --target cxl:region0 --op store, no --force" \
		"$ctl" sweep --engine user --target cxl:region0 --op store \
		--samples 1000 --out "$tmp/s.csv"
	has "$tmp/err" "$no_region" "store sweep on cxl: the point looks for the region"
	hasnt "$tmp/err" "add --force" "store sweep on cxl: not refused for --force up front"
fi

# ---- malformed cxl: targets ----
for t in cxl: cxl:regionX cxl:foo cxl:region cxl:region-1; do
	for e in kernel user; do
		expect 2 "run --engine $e --target $t" "$ctl" run --engine "$e" \
			--target "$t"
		has "$tmp/err" "--target: '$t': not a CXL region: expected cxl:regionN" \
			"--engine $e --target $t: what a CXL target is"
	done
done
mkdir -p "$tmp/cwd" && touch "$tmp/cwd/cxl:foo"
(cd "$tmp/cwd" && "$ctl" run --engine user --target cxl:foo) >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "not a CXL region" "$tmp/err"
report $? "a file named cxl:foo is not taken for a path (exit $rc)"
expect 2 "sweep --target dram,cxl:foo" "$ctl" sweep --dry-run \
	--target dram,cxl:foo --out "$tmp/s.csv"
has "$tmp/err" "cxl:regionN" "sweep: the expected forms name cxl:regionN"

# ---- --help ----
expect 0 "run --help" "$ctl" run --help
has "$tmp/out" "cxl:regionN, a CXL region as it is when the run begins" \
	"run --help: --target names cxl:regionN"
expect 0 "list --help" "$ctl" list --help
has "$tmp/out" "CXL regions \(cxl:regionN\)" "list --help: CXL regions"

# ---- built without libcxl ----
if [ "${CXL_TEST_NO_BUILD:-0}" = 1 ]; then
	skip "the build without libcxl (CXL_TEST_NO_BUILD=1)"
else
	mkdir -p "$tmp/tree"
	cp -r "$top/user" "$top/include" "$top/plots" "$top/VERSION" "$tmp/tree/"
	rm -rf "$tmp/tree/user/lattester-ctl" "$tmp/tree/build"
	nocxl=$tmp/tree/user/lattester-ctl
	make -s -C "$tmp/tree/user" -j"$(nproc 2>/dev/null || echo 2)" \
		LIBCXL=no lattester-ctl >"$tmp/build.log" 2>&1
	report $? "builds with LIBCXL=no"
	if [ -x "$nocxl" ]; then
		! nm -D "$nocxl" 2>/dev/null | grep -q ' cxl_new'
		report $? "LIBCXL=no: not linked with libcxl"
		expect 0 "LIBCXL=no: list" "$nocxl" list
		has "$tmp/out" "^CXL: not listed: this lattester-ctl was built without libcxl \(libcxl-dev\)$" \
			"LIBCXL=no: list says it in one line"
		expect 0 "LIBCXL=no: list --json" "$nocxl" list --json
		jcheck "$tmp/out" 'd["cxl"] == {"libcxl": False, "memdevs": None, "root_decoders": None, "regions": None}' \
			"LIBCXL=no: list --json: libcxl false, null lists"
		for e in kernel user; do
			expect 1 "LIBCXL=no: run --engine $e --target cxl:region0" \
				"$nocxl" run --engine "$e" --target cxl:region0
			has "$tmp/err" "^lattester-ctl run: cxl:region0: this lattester-ctl was built without libcxl \(libcxl-dev\), so it can't resolve CXL regions" \
				"LIBCXL=no, --engine $e: refused, saying why"
		done
	fi
fi

finish
