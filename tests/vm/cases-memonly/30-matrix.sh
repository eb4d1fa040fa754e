#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lattester-ctl matrix with the module on a node with a CPU (0) and a
# memory-only node (1): one row, node 0 from its CPU 0, and two columns, 0
# and 1 (a column only: no CPU); both cells measured by the kernel engine.
# Then --csv, and a column that doesn't exist: its cell '-' with run's
# reason, the others measured, exit 1.  30-matrix.check reads the JSON and
# the CSV on the host.  Under TCG the values are emulator time: only the
# shape and the path are checked, never a latency.
set -u
fail() { echo "FAIL: $*"; exit 1; }
tab=$(printf '\t')
small="--quiet --samples 2000 --region 16M"

# shellcheck disable=SC2086
lattester-ctl matrix $small --json "$OUT/matrix.json" >"$OUT/matrix.txt" \
	2>"$OUT/matrix.err" || fail "matrix: exit $?: $(cat "$OUT/matrix.err")"
cat "$OUT/matrix.txt"
[ "$(sed -n 2p "$OUT/matrix.txt")" = "$tab${tab}Numa node" ] ||
	fail "line 2 is not MLC's 'Numa node' header"
[ "$(sed -n 3p "$OUT/matrix.txt")" = "Numa node$tab     0$tab     1" ] ||
	fail "the columns are not nodes 0 and 1"
# one row: node 0, two values (awk: busybox grep has no -P)
awk -F"$tab" 'NR > 3 && /^ *[0-9]+\t/ { n++;
	if ($1 + 0 != 0 || NF != 3 || $2 !~ /^ *[0-9]+\.[0-9]$/ || $3 !~ /^ *[0-9]+\.[0-9]$/) bad = 1 }
	END { exit !(n == 1 && !bad) }' "$OUT/matrix.txt" ||
	fail "not one row, node 0, with a value in both columns"
grep -qx "rows: node 0 from CPU 0; memory only (no CPU): node 1" "$OUT/matrix.txt" ||
	fail "the rows line doesn't say CPU 0, node 1 memory only"
! grep -q -e '^failed' -e '^interrupted' "$OUT/matrix.txt" || fail "a cell failed"

# shellcheck disable=SC2086
lattester-ctl matrix $small --pattern rand --stat p90 --csv >"$OUT/matrix.csv" \
	2>"$OUT/csv.err" || fail "matrix --csv: exit $?: $(cat "$OUT/csv.err")"

# shellcheck disable=SC2086
lattester-ctl matrix $small --nodes 0,1,7 >"$OUT/fail.txt" 2>"$OUT/fail.err"
rc=$?
cat "$OUT/fail.txt"
[ $rc -eq 1 ] || fail "a column that doesn't exist: exit $rc, want 1"
grep -q "^  node 0 (CPU 0) -> node 7: dram:7: no such NUMA node" "$OUT/fail.txt" ||
	fail "the failed cell's reason is not listed"
awk -F"$tab" 'NR > 3 && /^ *0\t/ { ok = NF == 4 && $2 ~ /[0-9]\.[0-9]$/ &&
	$3 ~ /[0-9]\.[0-9]$/ && $4 ~ /^ *-$/ } END { exit !ok }' "$OUT/fail.txt" ||
	fail "the row is not: two values and '-'"
echo "ok: matrix 1x2 measured by the module, --csv written, a failed cell '-'"
