#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lattester-ctl run with threads and modes on 4 CPUs (2 per node): latency
# on 4 threads, bandwidth on DRAM and on the NVDIMM (raw /dev/pmem0, node
# 1), a read/write mix on split parts, loaded latency with chase and a
# delay, an abort by SIGINT, and the option errors; the mix and the loaded
# run again with --engine user (pthreads).  20-cli.check reads the JSON.
set -u
. /tests/lib/pmem.sh	# wait_dev
fail() { echo "FAIL: $*"; exit 1; }	# stop at the first, unlike pmem.sh
run() {	# NAME ARGS...: a run that must succeed, JSON and table kept
	name=$1
	shift
	echo "== $name: $*"
	lattester-ctl run --quiet --json "$OUT/$name.json" "$@" ||
		fail "$name: exit status $?"
	lattester-ctl run --quiet "$@" >"$OUT/$name.txt" 2>&1 ||
		fail "$name (table): exit status $?"
}
refuse() {	# STATUS WORDS ARGS...: a run refused with STATUS, saying WORDS
	want=$1 words=$2
	shift 2
	lattester-ctl run --quiet "$@" >"$OUT/err.txt" 2>&1
	rc=$?
	cat "$OUT/err.txt"
	[ "$rc" -eq "$want" ] || fail "$*: exit status $rc, want $want"
	grep -q -- "$words" "$OUT/err.txt" || fail "$*: no '$words' in the error"
	echo "ok: refused ($rc): $*"
}

wait_dev /dev/pmem0 || fail "no /dev/pmem0"

run lat4 --threads 4 --samples 2000 --region 16M
grep -q "^threads: 4, mode latency" "$OUT/lat4.txt" || fail "lat4: no thread table"
run bw --mode bandwidth --cpus 3,1 --op load --size 256 --pattern seq \
	--duration 50ms --region 16M
grep -q "GB/s in all" "$OUT/bw.txt" || fail "bw: no total line"
run mix --mode bandwidth --threads 4 --split --mix 2:1 --write-op nt-store \
	--region 64M --duration 20ms --pattern rand
run loaded --mode loaded --cpus 0-3 --pattern chase --chain 4 \
	--samples 2000 --delay 100 --region 16M
run pmem-bw --target /dev/pmem0 --mode bandwidth --cpus 2,3 --region 64M \
	--duration 20ms --size 4K --pattern seq
run pmem-loaded --target /dev/pmem0 --mode loaded --cpus 2,3,0 \
	--samples 1000 --region 64M
refuse 1 "--force" --target /dev/pmem0 --mode bandwidth --threads 2 \
	--mix 1:1 --region 64M --duration 10ms
run pmem-mix --target /dev/pmem0 --mode bandwidth --threads 2 --mix 1:1 \
	--write-op store-clwb --force --region 64M --duration 10ms
# the user engine's pinned pthreads, on the same guest: the same shapes
run user-mix --engine user --mode bandwidth --threads 4 --split --mix 2:1 \
	--write-op nt-store --region 64M --duration 20ms --pattern rand
run user-loaded --engine user --mode loaded --cpus 0-3 --pattern chase \
	--chain 4 --samples 2000 --delay 100 --region 16M

refuse 1 "only 4 CPUs online" --threads 5
refuse 2 "listed twice" --cpus 0,0
refuse 1 "CPU 9 not online" --cpus 0,9
refuse 2 "at least 2 threads" --mode loaded --threads 1
refuse 2 "smaller than --size" --split --threads 2 --region 64 --size 64
refuse 2 "not --samples" --mode bandwidth --samples 10
refuse 2 "shape the traffic" --mix 1:1
refuse 2 "one chain" --threads 2 --pattern chase
refuse 2 "--duration" --duration 5x --mode bandwidth

# SIGINT: every thread stops, the partial result is written
lattester-ctl run --quiet --mode bandwidth --threads 4 --duration 600s \
	--region 16M --json "$OUT/abort.json" >"$OUT/abort.txt" 2>&1 &
pid=$!
# until the run has passed its common start (progress: microseconds)
i=0
until [ "$(cat /sys/class/misc/lattester/state)" = running ] &&
	[ "$(cut -d' ' -f1 /sys/class/misc/lattester/progress)" -gt 0 ]; do
	kill -0 $pid 2>/dev/null || { cat "$OUT/abort.txt"; fail "abort: the run ended before it began"; }
	[ $i -lt 300 ] || fail "abort: the run never got going"
	sleep 0.1
	i=$((i + 1))
done
kill -INT $pid
wait $pid
rc=$?
cat "$OUT/abort.txt"
[ "$rc" -eq 130 ] || fail "abort: exit status $rc, want 130"
[ "$(cat /sys/class/misc/lattester/state)" = aborted ] || fail "abort: state"
echo "ok: SIGINT stopped the bandwidth run"
