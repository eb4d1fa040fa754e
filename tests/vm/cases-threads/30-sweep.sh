#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# sweep with threads and modes on 4 CPUs: bandwidth over --threads 1..4 and
# two ops, bandwidth over sizes, loaded latency over a --delay list, and a
# --resume that runs nothing again.  30-sweep.check reads the files and
# draws them with plot bw-threads, bw-size and loaded on the host.
# vm-kernels: 6.12.*+deb12-amd64
# vm-kernels-why: a sweep is lattester-ctl's loop over the thread runs that 10-threads and 20-cli make on every kernel
set -u
fail() { echo "FAIL: $*"; exit 1; }
bw="--mode bandwidth --threads 1..4 --op load,nt-store --size 4K \
	--pattern seq --duration 20ms --region 64M"
# shellcheck disable=SC2086
lattester-ctl sweep --quiet $bw --out "$OUT/bw.csv" --out "$OUT/bw.jsonl" ||
	fail "bandwidth sweep: exit status $?"
lattester-ctl sweep --quiet --mode bandwidth --threads 2 --op load \
	--size 64..1Mx4 --pattern rand --duration 10ms --region 64M \
	--out "$OUT/bwsize.csv" || fail "size sweep: exit status $?"
lattester-ctl sweep --quiet --mode loaded --cpus 0-3 --pattern chase \
	--chain 4 --samples 500 --delay 0,200,1000 --region 16M \
	--out "$OUT/loaded.csv" || fail "loaded sweep: exit status $?"
before=$(wc -l <"$OUT/bw.csv")
# shellcheck disable=SC2086
lattester-ctl sweep --quiet $bw --out "$OUT/bw.csv" --resume \
	>"$OUT/resume.txt" 2>&1 || fail "resume: exit status $?"
[ "$(wc -l <"$OUT/bw.csv")" -eq "$before" ] || fail "resume added rows"
lattester-ctl sweep --dry-run --mode loaded --cpus 0-3 --delay 0,100 \
	--samples 10 >"$OUT/dry.txt" 2>&1 || fail "dry run"
grep -q "delay=100;" "$OUT/dry.txt" || fail "dry run: no delay in the keys"
echo "ok: sweeps written, resume ran nothing"
