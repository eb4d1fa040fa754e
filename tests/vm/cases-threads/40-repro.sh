#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The experiment scripts of many threads (tools/repro-bandwidth-threads,
# -size, -mix, tools/repro-loaded-latency) end to end on 4 CPUs with 10 ms
# points and tiny sample counts: the numbers mean nothing under emulation,
# the pipeline does.  The default thread count (the online CPUs), -t lists,
# -C CPU lists, the --force guard on the NVDIMM, and reruns that resume
# with nothing to do.  The data go to $OUT; 40-repro.check reads the CSVs
# and draws them on the host.
# vm-kernels: 6.12.*+deb12-amd64
# vm-kernels-why: the experiment scripts: lattester-ctl's, the same on every kernel
set -u
. /tests/lib/pmem.sh	# wait_dev
fail() { echo "FAIL: $*"; exit 1; }	# stop at the first, unlike pmem.sh
# NAME SCRIPT ARGS...: a script that must succeed; its stdout in NAME.out,
# its stderr (the sweeps' summaries) in NAME.err
script() {
	name=$1
	shift
	echo "== $name: $*"
	"$@" >"$OUT/$name.out" 2>"$OUT/$name.err"
	rc=$?
	cat "$OUT/$name.out"
	if [ $rc -ne 0 ]; then
		cat "$OUT/$name.err"
		fail "$name: exit status $rc"
	fi
}
r16="--quiet --region 16M"

repro-bandwidth-threads -h >"$OUT/help.txt" || fail "-h: exit status $?"
grep -q "^repro-bandwidth-threads \[-t THREADS\]" "$OUT/help.txt" ||
	fail "-h: no usage line"

# threads 1..4 (the online CPUs) x 3 ops x 2 patterns
# shellcheck disable=SC2086 # the options are words
script threads repro-bandwidth-threads -d 10ms -o "$OUT/threads" \
	--no-plot -- $r16
[ "$(grep -c ": peak .* GB/s at .* threads" "$OUT/threads.out")" -eq 6 ] ||
	fail "threads: not 6 peak lines"
# shellcheck disable=SC2086
script size repro-bandwidth-size -t 1,4 -s 64..16Kx16 -d 10ms \
	-o "$OUT/size" --no-plot -- $r16
# the six default mixes on CPUs 1 and 2 (a key with a comma: quoted)
# shellcheck disable=SC2086
script mix repro-bandwidth-mix -C 1-2 -d 10ms -o "$OUT/mix" -- $r16
[ "$(grep -c "^dram .* 1:0 .* 100%$" "$OUT/mix.out")" -eq 2 ] ||
	fail "mix: not two 1:0 rows at 100%"
# shellcheck disable=SC2086
script loaded repro-loaded-latency -n 200 -t 2,4 -D 0,200,2000 \
	-o "$OUT/loaded" --no-plot -- $r16
[ "$(grep -c " GB/s .* ns .* ns$" "$OUT/loaded.out")" -eq 6 ] ||
	fail "loaded: not 6 rows in the curve"

# the NVDIMM (raw /dev/pmem0, node 1 = CPUs 2 and 3): writes need --force
wait_dev /dev/pmem0 || fail "no /dev/pmem0"
pm="--quiet --region 64M"
# refuse WHAT SCRIPT ARGS...: a script on pmem refused without --force,
# saying so, and no row written
refuse() {
	what=$1
	shift
	if "$@" >"$OUT/refused.txt" 2>&1; then
		cat "$OUT/refused.txt"
		fail "$what on pmem without --force: ran"
	fi
	grep -q -- "--force" "$OUT/refused.txt" ||
		fail "$what on pmem: $(cat "$OUT/refused.txt")"
	! grep -qs "pmem0" "$OUT/$what-refused"/*.csv ||
		fail "$what on pmem without --force: rows written"
	echo "ok: $what on pmem refused without --force"
}
# shellcheck disable=SC2086
refuse threads repro-bandwidth-threads -t 1 -d 10ms \
	-o "$OUT/threads-refused" /dev/pmem0 -- $pm
# shellcheck disable=SC2086
refuse mix repro-bandwidth-mix -M 1:1 -C 2-3 -d 10ms \
	-o "$OUT/mix-refused" /dev/pmem0 -- $pm
# shellcheck disable=SC2086
script pmem-mix repro-bandwidth-mix -M 1:0,1:1 -C 2-3 -d 10ms \
	-o "$OUT/pmem-mix" /dev/pmem0 -- $pm --force

# again: everything is in the files, nothing runs
# shellcheck disable=SC2086
script threads-again repro-bandwidth-threads -d 10ms -o "$OUT/threads" \
	--no-plot -- $r16
grep -q "0 measured, 0 failed, 24 already in the files" \
	"$OUT/threads-again.err" || fail "threads again: $(cat "$OUT/threads-again.err")"
cp "$OUT/mix/bandwidth-mix.txt" "$OUT/mix-table.txt"
# shellcheck disable=SC2086
script mix-again repro-bandwidth-mix -C 1-2 -d 10ms -o "$OUT/mix" -- $r16
[ "$(grep -c "0 measured, 0 failed, 2 already in the files" \
	"$OUT/mix-again.err")" -eq 6 ] || fail "mix again: $(cat "$OUT/mix-again.err")"
cmp -s "$OUT/mix-table.txt" "$OUT/mix/bandwidth-mix.txt" ||
	fail "mix again: another table"
echo "ok: four scripts, the --force guard, two reruns with nothing to do"
