#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lattester-ctl list, table and JSON, beside what ndctl and daxctl say in the
# same state; 20-list.check compares them on the host.
. /tests/lib/pmem.sh
lattester-ctl list | tee "$OUT/list.txt" || fail "lattester-ctl list"
lattester-ctl list --json >"$OUT/list.json" || fail "lattester-ctl list --json"
ndctl list -N >"$OUT/ndctl-N.json" || fail "ndctl list -N"
ndctl list -Ni >"$OUT/ndctl-Ni.json" || fail "ndctl list -Ni"
ndctl list -R >"$OUT/ndctl-R.json" || fail "ndctl list -R"
daxctl list >"$OUT/daxctl.json" || fail "daxctl list"
cp /tmp/pmem.env "$OUT/pmem.env"
grep -q "$FSDAX_NS" "$OUT/list.txt" || fail "the table lacks $FSDAX_NS"
grep -q "^  node" "$OUT/list.txt" || fail "the table lacks the NUMA nodes"
exit $rc
