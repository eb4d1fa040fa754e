#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-sweep-user.sh - lattester-ctl sweep --engine user, for real on this
# host: no module, no root.
#  - a 2 op x 2 pattern x 2 size grid into CSV and JSON lines: exit 0, 8
#    lines on stdout, 8 rows in each file, every row done, engine "user",
#    the samples asked, min <= p50 <= ... <= max in cycles, ns and raw
#    cycles (JSON) and in the CSV's cycles_* and ns_* columns, every key
#    ending in ";engine=user", the 8 keys distinct;
#  - --resume runs nothing more; --resume of that file by a kernel-engine
#    sweep, or of a kernel-engine file by a user sweep, is refused;
#  - --dry-run: the keys say engine=user (and hugepages=1), a kernel
#    sweep's keys have no engine; --hugepages runs; errors: a block device,
#    --hugepages without --engine user, --engine bogus, and without the
#    module and --engine, the hint naming --engine user.
# Latency values are never compared.
#
#   make -C user && bash tests/unit/test-sweep-user.sh
#
# TAP-like lines, then "sweep-user: N passed, N failed[, N skipped]".

set -u

TAP_NAME=sweep-user
CTL_TEST_PYTHON=1
. "$(dirname "$0")/ctl-test.sh"

export LATTESTER_DEV=/nonexistent

# sweep NAME ARGS...: sweep into $tmp/NAME.csv and $tmp/NAME.jsonl
sweep()
{
	local name=$1

	shift
	"$ctl" sweep --quiet --out "$tmp/$name.csv" --out "$tmp/$name.jsonl" \
		"$@" >"$tmp/out" 2>"$tmp/err"
}

grid="--op load,store --pattern seq,rand --size 64,128 --samples 500 --region 16M"

# ---- a small grid ----
sweep g --engine user $grid
report $? "sweep --engine user, 8 points, runs"
[ "$(grep -c '^[0-9]/8  ' "$tmp/out")" -eq 8 ]
report $? "one line per point on stdout"
grep -q "8 points: 8 measured, 0 failed, 0 already in the files, 0 skipped, 0 not run" "$tmp/err"
report $? "the summary counts 8 measured"
python3 - "$tmp/g.jsonl" "$tmp/g.csv" 500 8 <<'PY'
import csv, json, sys
jl, cs, samples, points = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
stats = ["min", "p50", "p90", "p99", "p99.9", "p99.99", "p99.999",
         "p99.9999", "max"]
why = []
rows = [json.loads(l) for l in open(jl)]
if len(rows) != points:
    why.append("%d JSON lines" % len(rows))
for r in rows:
    p = r["point"]
    if r["schema"] != "lattester-sweep/1":
        why.append("point %d: schema %r" % (p, r["schema"]))
    if r["provenance"]["engine"] != "user":
        why.append("point %d: engine %r" % (p, r["provenance"]["engine"]))
    if r["result"]["state"] != "done" or r["result"]["samples"] != samples:
        why.append("point %d: %r" % (p, r["result"]))
    if not r["key"].endswith(";engine=user"):
        why.append("point %d: key %r" % (p, r["key"]))
    for unit in ("cycles", "ns", "raw_cycles"):
        v = [r["latency"][unit][s] for s in stats]
        if v != sorted(v):
            why.append("point %d: %s not ordered: %r" % (p, unit, v))
        if not v[0] <= r["latency"][unit]["mean"] <= v[-1]:
            why.append("point %d: %s mean outside [min, max]" % (p, unit))
if len({r["key"] for r in rows}) != points:
    why.append("keys not distinct")
crow = list(csv.DictReader(open(cs)))
if len(crow) != points:
    why.append("%d CSV rows" % len(crow))
for r in crow:
    if r["state"] != "done" or int(r["samples"]) != samples:
        why.append("CSV point %s: %s, %s samples" % (r["point"], r["state"], r["samples"]))
    if not r["key"].endswith(";engine=user"):
        why.append("CSV point %s: key %r" % (r["point"], r["key"]))
    for unit in ("cycles", "ns"):
        v = [float(r["%s_%s" % (unit, s)]) for s in stats]
        if v != sorted(v):
            why.append("CSV point %s: %s not ordered" % (r["point"], unit))
if sorted(r["key"] for r in crow) != sorted(r["key"] for r in rows):
    why.append("the CSV and JSON lines keys differ")
if why:
    print("#  " + "\n#  ".join(why[:8]))
    sys.exit(1)
PY
report $? "8 rows in each file: done, engine user, ordered percentiles, keys"

# ---- resume ----
sweep g --engine user $grid --resume
report $? "--resume of a finished user sweep"
grep -q "8 points: 0 measured, 0 failed, 8 already in the files" "$tmp/err"
report $? "--resume: nothing run again"
[ "$(wc -l <"$tmp/g.csv")" -eq 9 ] && [ "$(wc -l <"$tmp/g.jsonl")" -eq 8 ]
report $? "--resume: no row added"
sweep g $grid --resume
[ $? -eq 1 ] && grep -q "holds points of the user engine, and this sweep is --engine kernel" "$tmp/err"
report $? "--resume of a user file by a kernel sweep: refused"
printf '{"key": "target=dram;cpu=0;op=load;fence=default;pattern=seq;size=64;samples=500"}\n' \
	>"$tmp/k.jsonl"
"$ctl" sweep --quiet --engine user --size 64 --samples 100 --region 16M \
	--out "$tmp/k.jsonl" --resume >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "holds points of the kernel engine, and this sweep is --engine user" "$tmp/err"
report $? "--resume of a kernel file by a user sweep: refused"

# ---- keys ----
"$ctl" sweep --dry-run --engine user --hugepages --size 64,128 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && [ "$(grep -c ';engine=user;hugepages=1$' "$tmp/out")" -eq 2 ]
report $? "--dry-run: the keys say engine=user;hugepages=1"
"$ctl" sweep --dry-run --size 64,128 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && [ "$(grep -c 'force=0$' "$tmp/out")" -eq 2 ] && ! grep -q engine "$tmp/out"
report $? "--dry-run: a kernel sweep's keys have no engine"
sweep h --engine user --hugepages --size 64 --samples 500 --region 16M
report $? "--hugepages runs"

# ---- errors ----
# a block device stands for a pmem one (the tool only stat()s it)
blk=$(find /dev -maxdepth 1 -type b -print -quit 2>/dev/null)
if [ -n "$blk" ]; then
	"$ctl" sweep --engine user --target "dram,$blk" --out "$tmp/e.csv" \
		>"$tmp/out" 2>"$tmp/err"
	[ $? -eq 1 ] && grep -q "$blk: --engine user maps device-DAX" "$tmp/err" &&
		[ ! -s "$tmp/e.csv" ]
	report $? "--engine user with a block device: refused before the first point"
else
	skip "--engine user with a block device: none on this host"
fi
"$ctl" sweep --hugepages --out "$tmp/e.csv" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- "--hugepages is for --engine user" "$tmp/err"
report $? "--hugepages without --engine user: a usage error"
"$ctl" sweep --engine bogus --out "$tmp/e.csv" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- "--engine: 'bogus'" "$tmp/err"
report $? "--engine bogus: a usage error"
"$ctl" sweep --samples 10 --out "$tmp/e.csv" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q insmod "$tmp/err" && grep -q -- "--engine user" "$tmp/err"
report $? "no module, no --engine: insmod and --engine user both named"
"$ctl" sweep --engine kernel --samples 10 --out "$tmp/e.csv" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q insmod "$tmp/err" && ! grep -q -- "--engine user" "$tmp/err"
report $? "--engine kernel without the module: the insmod hint only"

finish
