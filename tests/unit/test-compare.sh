#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-compare.sh - lattester-ctl compare on the fixtures in
# tests/unit/fixtures/compare/ (run --json documents and sweep JSON lines
# with known figures; tsc_khz 2000000, so cycles are twice the ns):
#  - kernel.json against user.json: the whole table, every value and
#    ratio, exactly; no warning;
#  - three runs with --baseline 2: ratios to [2], the warning naming op,
#    fence, size and threshold_cycles, '-' for a missing outlier rate;
#  - units: cycles where no result has tsc_khz, refused where some lack
#    it (unless --unit cycles, with a warning), a warning for cycles of
#    different TSC frequencies (more than 0.1% apart: not for the noise of
#    a calibrated tsc_khz), --unit raw;
#  - percentiles a run's samples can't support (latency.unsupported, or
#    run's rule on result.samples where a document has no such list):
#    '-' and no ratio, null in --json;
#  - sweeps point by point: matched by key without target and engine, a
#    point missing ('-') and one unmatched, a line cut short, a sweep
#    that differs in samples warned about;
#  - --json (schema, values, ratios, differences) and --csv, exactly;
#  - errors: a missing file, not JSON, no schema, another schema version,
#    an outlier file, a sweep CSV file, a run with no sample, a run
#    against a sweep, sweeps with no point in common (exit 1); usage
#    errors (exit 2).
#
#   make -C user && bash tests/unit/test-compare.sh
#
# TAP-like lines, then "compare: N passed, N failed[, N skipped]".

set -u

TAP_NAME=compare
. "$(dirname "$0")/ctl-test.sh"
fix=$top/tests/unit/fixtures/compare

# cmp_run WANT DESCRIPTION ARGS...: compare ARGS (in the fixtures'
# directory), exit status WANT; stdout in $tmp/out, stderr in $tmp/err
cmp_run()
{
	local want=$1 desc=$2 rc

	shift 2
	(cd "$fix" && "$ctl" compare "$@") >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq "$want" ]
	report $? "$desc (exit $rc, want $want)"
}

# same DESCRIPTION: $tmp/out is exactly $tmp/want
same()
{
	if cmp -s "$tmp/want" "$tmp/out"; then
		report 0 "$1"
	else
		report 1 "$1"
		diff "$tmp/want" "$tmp/out" | sed 's/^/#  /' | head -12
	fi
}

# has FILE REGEX DESCRIPTION
has()
{
	grep -qE -- "$2" "$1"
	report $? "$3"
}

# ---- two runs ----
cmp_run 0 "kernel.json user.json" kernel.json user.json
cat >"$tmp/want" <<'EOF'
[1] kernel.json: target dram:0, op load, pattern rand, size 64, cpu 0, engine kernel; kernel 6.1.0-13-amd64 on testhost
[2] user.json: target dram:0, op load, pattern rand, size 64, cpu 0, engine user; kernel 6.1.0-13-amd64 on testhost

ns per access, corrected (raw - overhead); ratios to [1]
                  [1]          [2]   [2]/[1]
min              90.0         45.0     0.500
p50             100.0        150.0     1.500
p90             120.0        180.0     1.500
p99             200.0        500.0     2.500
p99.9           400.0       1200.0     3.000
p99.99         1000.0       5000.0     5.000
max            2000.0      10000.0     5.000
mean            110.5        165.8     1.500
outliers      0.1000%      0.4000%     4.000
EOF
same "kernel against user: the header, every value and ratio"
[ ! -s "$tmp/err" ]
report $? "kernel against user: nothing on stderr"

cmp_run 0 "--baseline 2, three runs" --baseline 2 kernel.json user.json nt-store.json
cat >"$tmp/want" <<'EOF'
[1] kernel.json: target dram:0, op load, pattern rand, size 64, cpu 0, engine kernel, fence none, threshold_cycles 2000; kernel 6.1.0-13-amd64 on testhost
[2] user.json: target dram:0, op load, pattern rand, size 64, cpu 0, engine user, fence none, threshold_cycles 2000; kernel 6.1.0-13-amd64 on testhost
[3] nt-store.json: target dram:0, op nt-store, pattern rand, size 256, cpu 0, engine kernel, fence sfence, threshold_cycles 0; kernel 6.1.0-13-amd64 on testhost
warning: the runs differ in more than target and engine: op (load, load, nt-store), fence (none, none, sfence), size (64, 64, 256), threshold_cycles (2000, 2000, 0); compared all the same

ns per access, corrected (raw - overhead); ratios to [2]
                  [1]          [2]          [3]   [1]/[2]   [3]/[2]
min              90.0         45.0        180.0     2.000     4.000
p50             100.0        150.0        200.0     0.667     1.333
p90             120.0        180.0        240.0     0.667     1.333
p99             200.0        500.0        400.0     0.400     0.800
p99.9           400.0       1200.0        800.0     0.333     0.667
p99.99         1000.0       5000.0       2000.0     0.200     0.400
max            2000.0      10000.0       4000.0     0.200     0.400
mean            110.5        165.8        221.0     0.667     1.333
outliers      0.1000%      0.4000%            -     0.250         -
EOF
same "--baseline 2: ratios to [2], the differences warned about, '-' for no outlier rate"

cmp_run 0 "--stat p99.999,p99.9999,max --unit cycles" --stat p99.999,p99.9999,max \
	--unit cycles kernel.json user.json
sed -n '4,$p' "$tmp/out" >"$tmp/got" && mv "$tmp/got" "$tmp/out"
cat >"$tmp/want" <<'EOF'
cycles per access, corrected (raw - overhead); ratios to [1]
                  [1]          [2]   [2]/[1]
p99.999             -            -         -
p99.9999            -            -         -
max              4000        20000     5.000
EOF
# the fixtures predate latency.unsupported: run's rule on their 100000
# samples (p99.999 needs 10^6) still leaves those two out
same "--stat and --unit cycles: those rows, in cycles; p99.999 and p99.9999 of 100000 samples '-'"
cmp_run 0 "--unit raw" --unit raw --stat p50 kernel.json user.json
has "$tmp/out" "^raw cycles per sample, the timer overhead included; ratios to \[1\]$" "--unit raw: the title says raw"
has "$tmp/out" "^p50 +220 +320 +1.455$" "--unit raw: raw p50 220 and 320"

# ---- units ----
cmp_run 0 "no tsc_khz anywhere: cycles" --stat p50 nokhz.json nokhz.json
has "$tmp/out" "^cycles per access" "no tsc_khz anywhere: compared in cycles"
has "$tmp/out" "^p50 +200 +200 +1.000$" "no tsc_khz anywhere: the cycles"
cmp_run 1 "one without tsc_khz: refused" kernel.json nokhz.json
has "$tmp/err" "nokhz.json: no TSC frequency \(tsc_khz 0\): its cycles can't be converted to ns; compare every result in cycles with --unit cycles" \
	"one without tsc_khz: said, --unit cycles named"
[ ! -s "$tmp/out" ]
report $? "one without tsc_khz: no table"
cmp_run 0 "one without tsc_khz, --unit cycles" --unit cycles kernel.json nokhz.json
has "$tmp/out" "^warning: nokhz.json has no TSC frequency: its cycles may not be the others'$" \
	"--unit cycles: warned"
cmp_run 1 "--unit ns without tsc_khz" --unit ns nokhz.json nokhz.json
cmp_run 0 "--unit cycles, different TSCs" --unit cycles --stat p50 kernel.json fast.json
has "$tmp/out" "^warning: the results' TSCs run at different frequencies \(2000000 to 3000000 kHz, more than 0.1% apart\): their cycles are not the same unit \(--unit ns converts\)$" \
	"different TSC frequencies: warned"
has "$tmp/out" "^p50 +200 +300 +1.500$" "different TSC frequencies: cycles as recorded"
cmp_run 0 "different TSCs in ns: no warning" --stat p50 kernel.json fast.json
! grep -q warning "$tmp/out"
report $? "different TSCs in ns: no warning"
# one machine, tsc_khz calibrated twice (the user engine without the
# kernel's tsc_freq_khz): 2096008 and 2096010 kHz are one frequency
sed 's/"tsc_khz": 2000000/"tsc_khz": 2096008/' "$fix/kernel.json" >"$tmp/cal1.json"
sed 's/"tsc_khz": 2000000/"tsc_khz": 2096010/' "$fix/user.json" >"$tmp/cal2.json"
sed 's/"tsc_khz": 2000000/"tsc_khz": 2098105/' "$fix/user.json" >"$tmp/cal3.json"
cmp_run 0 "--unit cycles, TSCs 2096008 and 2096010 kHz" --unit cycles \
	--stat p50 "$tmp/cal1.json" "$tmp/cal2.json"
! grep -q "different frequencies" "$tmp/out"
report $? "calibration noise (2 kHz of 2 GHz): no TSC warning"
cmp_run 0 "--unit cycles, TSCs 0.1% apart and a little more" --unit cycles \
	--stat p50 "$tmp/cal1.json" "$tmp/cal3.json"
has "$tmp/out" "^warning: the results' TSCs run at different frequencies \(2096008 to 2098105 kHz, more than 0.1% apart\)" \
	"2096008 and 2098105 kHz (0.1% + 1 kHz apart): warned"

# ---- sweeps ----
cmp_run 0 "two sweeps" sweep-kernel.jsonl sweep-user.jsonl
cat >"$tmp/want" <<'EOF'
[1] sweep-kernel.jsonl: 3 points; target dram:0, op load, pattern rand, cpu 0, engine kernel; kernel 6.1.0-13-amd64 on testhost
[2] sweep-user.jsonl: 3 points; target dram:0, op load, pattern rand, cpu 0, engine user; kernel 6.1.0-13-amd64 on testhost
warning: [2] sweep-user.jsonl: 1 line cut short (not JSON): skipped
warning: [2] sweep-user.jsonl: points without a match: 1 of its own (not shown), 1 of [1] (shown as -)

ns per access, corrected (raw - overhead); ratios to [1]
point     stat              [1]          [2]   [2]/[1]
size=64   p50             100.0        150.0     1.500
          p99             200.0        500.0     2.500
size=128  p50             200.0        600.0     3.000
          p99             400.0       2000.0     5.000
size=256  p50             400.0            -         -
          p99             800.0            -         -
EOF
same "sweeps point by point: matched by size, a point missing, one unmatched, a cut line"
cmp_run 0 "sweeps differing in samples" --stat mean sweep-kernel.jsonl sweep-samples.jsonl
has "$tmp/out" "^warning: the sweeps differ in more than target and engine: samples \(1000, 5000\); compared all the same$" \
	"sweeps: samples differ: warned"
has "$tmp/out" "^size=256 +mean +442.0 +884.0 +2.000$" "sweeps: the third point's mean"
cmp_run 0 "a sweep against itself" --stat p50 sweep-kernel.jsonl sweep-kernel.jsonl
[ "$(grep -c ' 1.000$' "$tmp/out")" -eq 3 ] && ! grep -q warning "$tmp/out"
report $? "a sweep against itself: three ratios of 1, no warning"

# ---- --json, --csv ----
cmp_run 0 "--json" --json --baseline 2 kernel.json user.json nt-store.json
if command -v python3 >/dev/null; then
	python3 - "$tmp/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
p = d["points"]
why = []
want = {
    "schema": "lattester-compare/1", "kind": "run", "unit": "ns",
    "per": "access", "baseline": 2,
}
for k, v in want.items():
    if d.get(k) != v:
        why.append("%s %r" % (k, d.get(k)))
if [f["path"] for f in d["files"]] != ["kernel.json", "user.json", "nt-store.json"]:
    why.append("files %r" % [f["path"] for f in d["files"]])
if d["files"][1]["fields"].get("engine") != "user" or d["files"][0]["kernel"] != "6.1.0-13-amd64":
    why.append("file fields %r" % d["files"][1])
diffs = {x["field"]: (x["values"], x["warned"]) for x in d["differences"]}
if diffs != {"engine": (["kernel", "user", "kernel"], False),
             "op": (["load", "load", "nt-store"], True),
             "fence": (["none", "none", "sfence"], True),
             "size": (["64", "64", "256"], True),
             "threshold_cycles": (["2000", "2000", "0"], True)}:
    why.append("differences %r" % diffs)
if len(d["warnings"]) != 1 or "op (load, load, nt-store)" not in d["warnings"][0]:
    why.append("warnings %r" % d["warnings"])
if len(p) != 1 or p[0]["label"] != "":
    why.append("points %r" % p)
s = p[0]["stats"]
if list(s) != ["min", "p50", "p90", "p99", "p99.9", "p99.99", "max", "mean", "outliers"]:
    why.append("stats %r" % list(s))
if s["p50"]["ratios"] != [0.666667, 1, 1.333333]:
    why.append("p50 ratios %r" % s["p50"]["ratios"])
if s["p50"]["values"] != [100, 150, 200] or s["mean"]["values"] != [110.5, 165.75, 221]:
    why.append("values %r %r" % (s["p50"], s["mean"]))
if s["outliers"] != {"values": [0.001, 0.004, None], "ratios": [0.25, 1, None]}:
    why.append("outliers %r" % s["outliers"])
if why:
    print("#  " + "\n#  ".join(why))
    sys.exit(1)
PY
	report $? "--json: schema, files, differences, warnings, values and ratios"
else
	skip "--json: no python3"
fi
cmp_run 0 "--csv" --csv --stat p50,mean,outliers kernel.json user.json nt-store.json
cat >"$tmp/want" <<'EOF'
label,stat,value_1,value_2,value_3,ratio_1,ratio_2,ratio_3
,p50,100.000,150.000,200.000,1.000000,1.500000,2.000000
,mean,110.500,165.750,221.000,1.000000,1.500000,2.000000
,outliers,0.001000000,0.004000000,,1.000000,4.000000,
EOF
same "--csv: the rows, exactly"
has "$tmp/err" "warning: the runs differ in more than target and engine" "--csv: the warning on stderr"
cmp_run 0 "--csv of sweeps" --csv --stat p50 sweep-kernel.jsonl sweep-user.jsonl
cat >"$tmp/want" <<'EOF'
label,stat,value_1,value_2,ratio_1,ratio_2
size=64,p50,100.000,150.000,1.000000,1.500000
size=128,p50,200.000,600.000,1.000000,3.000000
size=256,p50,400.000,,1.000000,
EOF
same "--csv of sweeps: a row per point, an empty cell where there is no match"

# ---- refused ----
cmp_run 1 "a missing file" kernel.json nosuch.json
has "$tmp/err" "^lattester-ctl compare: nosuch.json: No such file or directory$" "missing file named"
echo 'not json' >"$tmp/bad.txt"
cmp_run 1 "not JSON" kernel.json "$tmp/bad.txt"
has "$tmp/err" "bad.txt: not a lattester result \(not JSON" "not JSON: said"
echo '{"latency": {}}' >"$tmp/noschema.json"
cmp_run 1 "no schema" kernel.json "$tmp/noschema.json"
has "$tmp/err" "noschema.json: not a lattester result \(no \"schema\"\)" "no schema: said"
sed 's|"lattester-run/1"|"lattester-run/2"|' "$fix/kernel.json" >"$tmp/v2.json"
cmp_run 1 "another schema version" kernel.json "$tmp/v2.json"
has "$tmp/err" "v2.json: lattester-run/2: this lattester-ctl reads lattester-run/1" \
	"another schema version: both versions named"
sed '1s|"lattester-sweep/1"|"lattester-sweep/7"|' "$fix/sweep-kernel.jsonl" >"$tmp/v7.jsonl"
cmp_run 1 "another sweep schema version" sweep-kernel.jsonl "$tmp/v7.jsonl"
has "$tmp/err" "v7.jsonl:1: lattester-sweep/7: this lattester-ctl reads lattester-sweep/1" \
	"another sweep schema version: the line named"
sed 's|"lattester-run/1"|"lattester-outliers/1"|' "$fix/kernel.json" >"$tmp/o.json"
cmp_run 1 "an outlier file" kernel.json "$tmp/o.json"
has "$tmp/err" "o.json: an outlier file \(run --outliers\), not a result" "outlier file: said"
sed 's|"lattester-run/1"|"lattester-list/1"|' "$fix/kernel.json" >"$tmp/l.json"
cmp_run 1 "a list --json file" kernel.json "$tmp/l.json"
has "$tmp/err" "l.json: a lattester-list/1 document, not a result of run or sweep" "list file: said"
printf 'point,target,target_kind\n0,dram,dram\n' >"$tmp/s.csv"
cmp_run 1 "a sweep CSV file" sweep-kernel.jsonl "$tmp/s.csv"
has "$tmp/err" "s.csv: a sweep CSV file: compare reads sweep's JSON lines" "sweep CSV: the .jsonl named"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["latency"]=None; print(json.dumps(d))' \
	"$fix/kernel.json" >"$tmp/empty.json" 2>/dev/null ||
	sed 's|"latency": {|"latency": null, "x": {|' "$fix/kernel.json" >"$tmp/empty.json"
cmp_run 1 "a run with no sample" kernel.json "$tmp/empty.json"
has "$tmp/err" "empty.json: the run took no sample" "no sample: said"
# a bandwidth run: refused by name; threads that differ: warned about
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["latency"]=None; d["config"]["mode"]="bandwidth"; print(json.dumps(d))' \
	"$fix/kernel.json" >"$tmp/bw.json"
cmp_run 1 "a bandwidth run" kernel.json "$tmp/bw.json"
has "$tmp/err" "bw.json: a --mode bandwidth run times no single access" \
	"bandwidth run: said"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["config"]["threads"]=8; d["config"]["mode"]="loaded"; print(json.dumps(d))' \
	"$fix/kernel.json" >"$tmp/t8.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["config"]["threads"]=1; d["config"]["mode"]="latency"; print(json.dumps(d))' \
	"$fix/kernel.json" >"$tmp/t1.json"
cmp_run 0 "one thread against eight, loaded" "$tmp/t1.json" "$tmp/t8.json"
has "$tmp/out" "differ in more than target and engine: mode \(latency, loaded\), threads \(1, 8\)" \
	"threads and mode: warned about"
# the same loaded run with the traffic on another memory: what the
# results compare, as the target is, no warning; named in the header
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["threads"]={"traffic_target": {"spec": "cxl:region0", "kind": "dram", "node": 2, "region": 1<<30}}; print(json.dumps(d))' \
	"$tmp/t8.json" >"$tmp/t8x.json"
cmp_run 0 "loaded, traffic on the target against traffic on cxl:region0" \
	"$tmp/t8.json" "$tmp/t8x.json"
! grep -q "differ in more than" "$tmp/out" &&
	grep -q "traffic_target cxl:region0" "$tmp/out"
report $? "traffic_target: compared, as the target is, named in the header"
# a loaded run whose traffic lost its CPUs (duty cycle 0.45): a warning;
# at 0.95, none (run's own rule: below 0.9 is disturbed)
for d in 0.45 0.95; do
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["threads"]={"bandwidth": {"duty_cycle": float(sys.argv[2])}}; print(json.dumps(d))' \
		"$tmp/t8.json" "$d" >"$tmp/t8d$d.json"
done
cmp_run 0 "loaded, duty cycle 0.45" "$tmp/t8.json" "$tmp/t8d0.45.json"
grep -q "^warning: \[2\] $tmp/t8d0.45.json: its traffic streamed 45% of the run (duty cycle; below 90% the run was disturbed): its latency is under less load than asked$" "$tmp/out"
report $? "duty cycle 0.45: warned of, the share named"
cmp_run 0 "loaded, duty cycle 0.95" "$tmp/t8.json" "$tmp/t8d0.95.json"
! grep -q "disturbed" "$tmp/out" "$tmp/err"
report $? "duty cycle 0.95: no warning"
# (the fixture's last line is cut short, on purpose: kept as it is)
python3 - "$fix/sweep-user.jsonl" "$tmp/sd.jsonl" <<'PY'
import json, sys
lines = open(sys.argv[1]).readlines()
r = json.loads(lines[0])
r.setdefault("threads", {}).setdefault("bandwidth", {})["duty_cycle"] = 0.28
lines[0] = json.dumps(r) + "\n"
open(sys.argv[2], "w").write("".join(lines))
PY
cmp_run 0 "a sweep with one disturbed point" sweep-user.jsonl "$tmp/sd.jsonl"
grep -q "sd.jsonl: 1 of 3 points' traffic streamed less than 90% of the run (duty cycle; the least 28%): disturbed" "$tmp/out" "$tmp/err"
report $? "a sweep: the disturbed points counted, the least duty cycle named"
: >"$tmp/zero.json"
cmp_run 1 "an empty file" kernel.json "$tmp/zero.json"
has "$tmp/err" "zero.json: empty" "empty file: said"
cmp_run 1 "a run against a sweep" kernel.json sweep-kernel.jsonl
has "$tmp/err" "kernel.json is a run and sweep-kernel.jsonl a sweep" "run against sweep: said"
sed 's/size=\([0-9]*\);/size=9\1;/' "$fix/sweep-user.jsonl" >"$tmp/other.jsonl"
cmp_run 1 "sweeps with no point in common" sweep-kernel.jsonl "$tmp/other.jsonl"
has "$tmp/err" "other.jsonl: no point matches one of sweep-kernel.jsonl" "no common point: said"
sed 's|"state": "done"|"state": "aborted"|' "$fix/user.json" >"$tmp/aborted.json"
cmp_run 0 "an aborted run: compared" --stat p50 kernel.json "$tmp/aborted.json"
has "$tmp/out" "^warning: \[2\] .*aborted.json: the run ended aborted: its figures are of the samples taken$" \
	"an aborted run: warned"

# ---- percentiles the samples can't support ----
# run's JSON names them in latency.unsupported (run's table prints "-"):
# compare shows "-" and no ratio, null in --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1]));
d["latency"]["unsupported"]=["p99.99","p99.999","p99.9999"]; print(json.dumps(d))' \
	"$fix/user.json" >"$tmp/few.json"
cmp_run 0 "a run with unsupported percentiles" kernel.json "$tmp/few.json"
has "$tmp/out" "^p99.9 +400.0 +1200.0 +3.000$" "supported percentiles compared as before"
has "$tmp/out" "^p99.99 +1000.0 +- +-$" "unsupported p99.99: '-', no ratio"
has "$tmp/out" "^max +2000.0 +10000.0 +5.000$" "max still compared"
# a figure written as null (as a reader may expect one day): '-' too
python3 -c 'import json,sys; d=json.load(open(sys.argv[1]));
d["latency"]["ns"]["p99.9"]=None; print(json.dumps(d))' "$fix/user.json" >"$tmp/null.json"
cmp_run 0 "a run with a null percentile" --stat p99,p99.9 kernel.json "$tmp/null.json"
has "$tmp/out" "^p99.9 +400.0 +- +-$" "a null percentile: '-', no ratio"
cmp_run 0 "--json with unsupported percentiles" --json --stat p99.99 kernel.json "$tmp/few.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
s=d["points"][0]["stats"]["p99.99"]
sys.exit(not (s["values"] == [1000, None] and s["ratios"][1] is None))' "$tmp/out"
report $? "--json: the unsupported figure and its ratio are null"

# ---- repeats (sweep --repeat): the median, and the verdict on the spread
# reps FILE FACTOR...: sweep-kernel.jsonl's points, repeat K (from 1) with
# its ns figures times the K-th FACTOR (repeat=K in the key from K 2)
reps()
{
	python3 - "$fix/sweep-kernel.jsonl" "$@" <<'PY'
import json, sys
src, out, factors = sys.argv[1], sys.argv[2], [float(f) for f in sys.argv[3:]]
rows = [json.loads(l) for l in open(src) if l.strip()]
with open(out, "w") as o:
    for k, f in enumerate(factors, 1):
        for r in rows:
            r = json.loads(json.dumps(r))
            for s, v in r["latency"]["ns"].items():
                if v is not None:
                    r["latency"]["ns"][s] = v * f
            if k > 1:
                parts = r["key"].split(";")
                parts.insert(6, "repeat=%d" % k)
                r["key"] = ";".join(parts)
            o.write(json.dumps(r) + "\n")
PY
}
reps "$tmp/r5.jsonl" 1 0.98 1.01 0.99 1.02
reps "$tmp/r5same.jsonl" 0.985 1.0 1.015 0.995 1.005
reps "$tmp/r5up.jsonl" 1.10 1.08 1.11 1.09 1.12
reps "$tmp/r3.jsonl" 1 0.98 1.02
reps "$tmp/r3up.jsonl" 1.10 1.08 1.12
# the figures of sweep-kernel.jsonl's first point (size 64)
p50=$(python3 -c 'import json,sys; print("%.1f" % json.loads(open(sys.argv[1]).readline())["latency"]["ns"]["p50"])' "$fix/sweep-kernel.jsonl")
cmp_run 0 "repeats of one distribution" --stat p50 "$tmp/r5.jsonl" "$tmp/r5same.jsonl"
has "$tmp/out" "3 points measured 5 times: their median" "the header says how many times"
has "$tmp/out" "^size=64 +p50 +$p50 +$p50 +1.000 +within$" "the median of 5 repeats ($p50), within the spread"
cmp_run 0 "repeats 10% up" --stat p50 "$tmp/r5.jsonl" "$tmp/r5up.jsonl"
[ "$(grep -c ' beyond$' "$tmp/out")" -eq 3 ] && ! grep -q ' within$' "$tmp/out"
report $? "5 and 5 repeats, ranges apart (chance 0.008): beyond, at every point"
cmp_run 0 "3 and 3 repeats 10% up" --stat p50 "$tmp/r3.jsonl" "$tmp/r3up.jsonl"
[ "$(grep -c ' few$' "$tmp/out")" -eq 3 ]
report $? "3 and 3 repeats, ranges apart (chance 0.1): few, not beyond"
cmp_run 0 "a sweep without repeats against repeats" --stat p50 "$tmp/r5.jsonl" sweep-kernel.jsonl
has "$tmp/out" "^size=64 +p50 +$p50 +$p50 +1.000 +within$" "a single run inside the repeats' range: within"
cmp_run 0 "two sweeps without repeats" --stat p50 sweep-kernel.jsonl sweep-kernel.jsonl
! grep -q 'vs\[1\]' "$tmp/out"
report $? "no repeats anywhere: no verdict column"
cmp_run 0 "--json of repeats" --json --stat p50 "$tmp/r5.jsonl" "$tmp/r5up.jsonl"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
s=d["points"][0]["stats"]["p50"]
a, b = s["spreads"]
ok = (s["apart"] == [None, "beyond"] and abs(s["chance"][1] - 2/252) < 1e-6
      and a["n"] == 5 and b["n"] == 5 and abs(a["min"] / a["median"] - 0.98) < 1e-3
      and abs(b["max"] / a["median"] - 1.12) < 1e-3 and d["files"][0]["most_repeats"] == 5)
sys.exit(not ok)' "$tmp/out"
report $? "--json: spreads (n, median, min, max), apart and chance per result"
cmp_run 0 "--csv of repeats" --csv --stat p50 "$tmp/r5.jsonl" "$tmp/r5up.jsonl"
head -1 "$tmp/out" | grep -qx "label,stat,value_1,value_2,ratio_1,ratio_2,apart_1,apart_2" &&
	grep -q "^size=64,p50,.*,,beyond$" "$tmp/out"
report $? "--csv: apart_N columns"

# ---- single runs: the verdict on their 95% intervals ----
python3 - "$fix/kernel.json" "$tmp" <<'PY'
import json, sys
base = json.load(open(sys.argv[1]))
for name, p50, lo, hi in (("i1", 100.0, 98.0, 102.0),
                          ("i2", 101.0, 99.0, 103.0),
                          ("i3", 110.0, 108.0, 112.0)):
    d = json.loads(json.dumps(base))
    d["latency"]["ns"]["p50"] = p50
    d["latency"]["cycles"]["p50"] = 2 * p50
    ns = {k: None for k in d["latency"]["ns"]}
    cy = dict(ns)
    ns["p50"], cy["p50"] = [lo, hi], [2 * lo, 2 * hi]
    d["latency"]["intervals"] = {"level": 0.95, "quantum_cycles": 1.0,
                                 "cycles": cy, "ns": ns}
    json.dump(d, open("%s/%s.json" % (sys.argv[2], name), "w"))
PY
cmp_run 0 "single runs with intervals" --stat p50 "$tmp/i1.json" "$tmp/i2.json" "$tmp/i3.json"
has "$tmp/out" "^\[N\]vs\[1\]: beyond, the two runs' 95% intervals apart; within, they overlap$" \
	"intervals: the verdict said to be theirs"
has "$tmp/out" "^p50 +100.0 +101.0 +110.0 +1.010 +1.100 +within +beyond$" \
	"intervals overlapping (98-102, 99-103): within; apart (108-112): beyond"
cmp_run 0 "--json of intervals" --json --stat p50 "$tmp/i1.json" "$tmp/i3.json"
python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))["points"][0]["stats"]["p50"]
sys.exit(not (s["apart"] == [None, "beyond"] and s["by"] == [None, "intervals"]
              and s["chance"] == [None, None]))' "$tmp/out"
report $? "--json: apart beyond, by intervals, no chance"
cmp_run 0 "--unit raw: no intervals" --unit raw --stat p50 "$tmp/i1.json" "$tmp/i3.json"
! grep -q "beyond\|within" "$tmp/out"
report $? "--unit raw (no intervals there): no verdict"
cmp_run 0 "runs from before the intervals" --stat p50 kernel.json user.json
! grep -q "beyond\|within\|vs\[" "$tmp/out"
report $? "documents without intervals: no verdict column"

# ---- usage ----
cmp_run 2 "one file" kernel.json
has "$tmp/err" "two results or more are compared" "one file: said"
cmp_run 2 "no file"
cmp_run 2 "--json --csv" --json --csv kernel.json user.json
cmp_run 2 "--baseline 3 of 2" --baseline 3 kernel.json user.json
has "$tmp/err" "--baseline 3: there are 2 files" "--baseline beyond the files: said"
cmp_run 2 "--baseline 0" --baseline 0 kernel.json user.json
cmp_run 2 "--unit bogus" --unit bogus kernel.json user.json
cmp_run 2 "--stat p42" --stat p42 kernel.json user.json
cmp_run 2 "--bogus" --bogus kernel.json user.json
cmp_run 0 "options after the files" kernel.json user.json --stat p50
[ "$(grep -c '^p50 ' "$tmp/out")" -eq 1 ] && ! grep -q '^p90 ' "$tmp/out"
report $? "options after the files: one row"

finish
