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
#  - the streams' duty cycle (layout 7): a new CSV's duty_cycle column
#    follows total_gbps, blank in latency rows;
#  - the outliers' causes (layout 6): a new CSV's header has
#    outliers_explained ... clean_ns_mean right after smi; without
#    --threshold they are blank; with it (2x and --max-outliers 20, 10x)
#    explained + none seen + unexplained are the records kept at every
#    point, the cells are the JSON lines' outlier_summary.causes, the
#    clean mean is at most the mean (a threshold above it), the clean
#    p99.9 at most the p99.9 where outliers are under 0.1% of the samples;
#  - --resume runs nothing more; --resume of that file by a kernel-engine
#    sweep, or of a kernel-engine file by a user sweep, is refused;
#  - --dry-run: the keys say engine=user (and hugepages=1), a kernel
#    sweep's keys have no engine; --hugepages runs; errors: a block device,
#    --hugepages without --engine user, --engine bogus, and without the
#    module and --engine, the hint naming --engine user;
#  - --region LIST (a chase over 4 regions): a row per region, the region
#    in the key, points counted from 1 in the CSV, the JSON lines, the
#    lines on stdout and --dry-run, the engine and page_size columns;
#  - --resume refuses another --samples or --seed, naming them, and adds
#    the points of another --region or of --hugepages; older files (no
#    engine, page_size, points from 0; no region_reused; layouts 4, 5
#    and 6) are continued in their own form;
#  - one region for many points: the rules of the region the user engine
#    keeps (tests/unit/test-keep.c, built here: node, region, pages,
#    target, file, offset, access; the chase cycle; an aborted run keeps
#    nothing); a sweep whose points share their region says
#    region_reused false, then true (JSON lines and CSV), one whose points
#    change region (or NUMA node, where the host has two) false at every
#    change, --no-reuse false everywhere; the rows of a sweep with and
#    without --no-reuse alike in keys, fields and counts; a point that
#    fails leaves no region for the next; chase takes the cycle of the
#    calibration pass (--threshold 10x); --resume with --no-reuse finds
#    every point done (not in the key); --no-reuse in --help;
#  - a sweep whose every point failed leaves no file, and a CSV of a
#    header alone doesn't stop the next sweep;
#  - --max-points (and its default, 10000) refuses a grid before its
#    first point, naming the count; a grid of more than 1000 points warns;
#  - tools/repro-working-set on two regions: base and huge pages, the
#    table, the plot, a rerun that measures nothing, another -n refused;
#    its default regions capped at half the node's free memory.
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
# the columns layout 6 brought, in their order right after smi: the
# outliers' causes and the tail without interference
export V6=outliers_explained,outliers_none_seen,outliers_unexplained,clean_ns_p99.9,clean_ns_p99.99,clean_ns_mean
# and the one layout 7 brought, right after total_gbps: the streams' duty
# cycle (an older layout is a new file's header without them)
export V7=duty_cycle
# and layout 8's: sweep --curves' idle latency after duty_cycle, Mess's
# names of a curve's point before the key
export V8=idle_ns_p50,rd_percentage,pause,bandwidth,latency
# and layout 9's: a loaded run's --traffic-target, after write_op
export V9=traffic_target

# ---- a small grid ----
sweep g --engine user $grid
report $? "sweep --engine user, 8 points, runs"
[ "$(grep -c '^[0-9]/8  ' "$tmp/out")" -eq 8 ]
report $? "one line per point on stdout"
# run's rule in the progress lines: 500 samples support p50, not p99.99
[ "$(grep -cE '  p50 +[0-9.]+ ns  p99 +- ns  p99\.99 +- ns  max +[0-9.]+ ns' "$tmp/out")" -eq 8 ]
report $? "progress lines: p99 and p99.99 of 500 samples '-', as run's table"
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
unsup = {r["key"]: set(r["latency"]["unsupported"]) for r in rows}
for r in crow:
    if r["state"] != "done" or int(r["samples"]) != samples:
        why.append("CSV point %s: %s, %s samples" % (r["point"], r["state"], r["samples"]))
    if not r["key"].endswith(";engine=user"):
        why.append("CSV point %s: key %r" % (r["point"], r["key"]))
    for unit in ("cycles", "ns"):
        # run's rule: the percentiles the samples can't support are
        # blank, exactly those the JSON lists as unsupported
        cells = {s: r["%s_%s" % (unit, s)] for s in stats}
        blank = {s for s in stats if cells[s] == ""}
        if blank != unsup.get(r["key"], set()) or \
           (samples < 1000 and "p99" not in blank):
            why.append("CSV point %s: %s blank %r, JSON unsupported %r" %
                       (r["point"], unit, sorted(blank),
                        sorted(unsup.get(r["key"], set()))))
        v = [float(cells[s]) for s in stats if cells[s] != ""]
        if v != sorted(v):
            why.append("CSV point %s: %s not ordered" % (r["point"], unit))
if sorted(r["key"] for r in crow) != sorted(r["key"] for r in rows):
    why.append("the CSV and JSON lines keys differ")
if why:
    print("#  " + "\n#  ".join(why[:8]))
    sys.exit(1)
PY
report $? "8 rows in each file: done, engine user, ordered percentiles, keys; the CSV's unsupported percentiles blank, as the JSON lists them"

# ---- the outliers' causes: layout 6 ----
# a new file's header: layout 6's columns right after smi, mode after them
python3 - "$tmp/g.csv" <<'PY'
import csv, os, sys
V6 = os.environ["V6"].split(",")
head = next(csv.reader(open(sys.argv[1])))
at = head.index("smi") if "smi" in head else -1
got = head[at + 1:at + 2 + len(V6)]
if at < 0 or got != V6 + ["mode"]:
    sys.exit("#  after smi: %r" % got)
PY
report $? "a new CSV: layout 6's columns, smi then $V6, then mode"
# without --threshold: blank, as smi
python3 - "$tmp/g.csv" <<'PY'
import csv, os, sys
V6 = os.environ["V6"].split(",")
bad = [(r["point"], c, r[c]) for r in csv.DictReader(open(sys.argv[1]))
       for c in V6 + ["smi"] if r[c] != ""]
if bad:
    sys.exit("#  not blank: %r" % bad[:4])
PY
report $? "without --threshold: the causes' columns blank, as smi"
# layout 7's duty_cycle, right after total_gbps: blank where nothing streams
python3 - "$tmp/g.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head = rows[0]
at = head.index("total_gbps") if "total_gbps" in head else -1
if at < 0 or head[at + 1:at + 2] != ["duty_cycle"]:
    sys.exit("#  after total_gbps: %r" % head[at + 1:at + 2])
bad = [r[0] for r in rows[1:] if r[at + 1] != ""]
if bad:
    sys.exit("#  duty_cycle not blank in points %r" % bad[:4])
PY
report $? "a new CSV: duty_cycle after total_gbps (layout 7), blank in latency rows"
# with --threshold: a sweep of many outliers, more than --max-outliers
# keeps, and one of few (10x: under 0.1% of the samples, mostly)
causes="--engine user --op load,store --size 64,128 --samples 20000 --region 16M"
sweep c2 $causes --threshold 2x --max-outliers 20 &&
	sweep c10 $causes --threshold 10x --max-outliers 100000
report $? "sweeps with --threshold 2x --max-outliers 20 and 10x run"
cat >"$tmp/causes.py" <<'PY'
# causes.py CHECK DIR NAME:MAX...: the causes' columns of the sweeps
# DIR/NAME.csv (and .jsonl), --max-outliers MAX; exit 0 passed, 1 failed
# (what is wrong on stdout), 3 no point it applies to
import csv, json, sys
check, d = sys.argv[1], sys.argv[2]
GROUPS = ("explained", "none_seen", "unexplained")
CLEAN = (("p99_9", "clean_ns_p99.9"), ("p99_99", "clean_ns_p99.99"),
         ("mean", "clean_ns_mean"))
why, applied, full = [], 0, 0
for arg in sys.argv[3:]:
    name, most = arg.split(":")
    rows = list(csv.DictReader(open("%s/%s.csv" % (d, name))))
    jl = {j["key"]: j for j in map(json.loads, open("%s/%s.jsonl" % (d, name)))}
    if len(rows) != 4 or sorted(jl) != sorted(r["key"] for r in rows):
        why.append("%s: %d rows, %d JSON lines" % (name, len(rows), len(jl)))
    for r in rows:
        p = "%s point %s" % (name, r["point"])
        n = [int(r["outliers_" + g]) for g in GROUPS]
        outl, dropped = int(r["outliers"]), int(r["outliers_dropped"])
        if check == "sums":
            # every record in one group: the records kept
            rec = min(outl, int(most))
            if sum(n) != rec or outl - dropped != rec:
                why.append("%s: %r, %d outliers, %d dropped, want %d records"
                           % (p, n, outl, dropped, rec))
            applied += rec > 0
            full += outl > int(most)
        elif check == "json":
            cs = jl[r["key"]]["outlier_summary"]["causes"]
            by = {c: v["count"] for c, v in cs["by_cause"].items()}
            unexpl = by.get("unassigned", 0) + by.get("unknown", 0)
            want = [sum(by.values()) - by.get("none seen", 0) - unexpl,
                    by.get("none seen", 0), unexpl]
            if n != want:
                why.append("%s: %r, JSON by_cause %r" % (p, n, by))
            for fig, col in CLEAN:
                t = cs["clean_tail"][fig]
                w = "" if t is None else "%.3f" % t["ns"]
                if r[col] != w:
                    why.append("%s: %s %r, JSON %r" % (p, col, r[col], w))
            applied += 1
        elif check == "p99.9":
            # outliers under 0.1% of the samples: every sample the
            # clean tail leaves out lies above the point's p99.9
            if r["clean_ns_p99.9"] == "" or r["ns_p99.9"] == "" or \
               outl * 1000 > int(r["samples"]):
                continue
            applied += 1
            if float(r["clean_ns_p99.9"]) > 1.01 * float(r["ns_p99.9"]) + 0.01:
                why.append("%s: clean p99.9 %s ns above p99.9 %s ns"
                           % (p, r["clean_ns_p99.9"], r["ns_p99.9"]))
        elif check == "mean":
            # a threshold at or above the mean: what is left out is too
            if int(r["threshold_cycles"]) < float(r["cycles_mean"]):
                continue
            applied += 1
            if r["clean_ns_mean"] == "" or \
               float(r["clean_ns_mean"]) > float(r["ns_mean"]) + 0.002:
                why.append("%s: clean mean %r ns above the mean %s ns"
                           % (p, r["clean_ns_mean"], r["ns_mean"]))
if check == "sums" and not full:
    why.append("no point with more outliers than --max-outliers")
if check == "sums" and not applied:
    why.append("no point with an outlier record")
if why:
    print("#  " + "\n#  ".join(why[:8]))
    sys.exit(1)
sys.exit(0 if applied else 3)
PY
python3 "$tmp/causes.py" sums "$tmp" c2:20 c10:100000
report $? "explained + none seen + unexplained = the records, min(outliers, --max-outliers), at every point"
python3 "$tmp/causes.py" json "$tmp" c2:20 c10:100000
report $? "the causes' columns as the JSON lines' outlier_summary.causes: by_cause, clean_tail"
python3 "$tmp/causes.py" mean "$tmp" c2:20 c10:100000
report $? "clean_ns_mean <= ns_mean where the threshold is above the mean"
python3 "$tmp/causes.py" p99.9 "$tmp" c2:20 c10:100000
rc=$?
if [ "$rc" -eq 3 ]; then
	skip "clean_ns_p99.9: no point with outliers under 0.1% of its samples here"
else
	report "$rc" "clean_ns_p99.9 <= ns_p99.9 (1%: rounding) where outliers are under 0.1% of the samples"
fi

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

# ---- --region LIST: a dimension, in the key ----
ws="--engine user --pattern chase --chain 4 --region 16K,64K..1Mx4 --samples 200"
sweep ws $ws
report $? "--region 16K,64K..1Mx4 (chase): runs"
[ "$(grep -c '^[0-9]/4  load chase 64 B region ' "$tmp/out")" -eq 4 ] &&
	grep -q '^4/4  load chase 64 B region 1 MiB ' "$tmp/out"
report $? "one line per region, counted from 1, each naming its region"
python3 - "$tmp/ws.csv" "$tmp/ws.jsonl" <<'PY'
import csv, json, sys
why = []
rows = list(csv.DictReader(open(sys.argv[1])))
jl = [json.loads(l) for l in open(sys.argv[2])]
regions = [16384, 65536, 262144, 1048576]
if [int(r["region"]) for r in rows] != regions:
    why.append("regions %r" % [r["region"] for r in rows])
for i, r in enumerate(rows):
    if int(r["point"]) != i + 1:
        why.append("CSV row %d: point %s, want %d" % (i, r["point"], i + 1))
    if ";region=%d;" % regions[i] not in r["key"]:
        why.append("CSV row %d: key %r" % (i, r["key"]))
    if r["engine"] != "user":
        why.append("CSV row %d: engine %r" % (i, r["engine"]))
    if int(r["page_size"]) < 4096 or int(r["page_size"]) & (int(r["page_size"]) - 1):
        why.append("CSV row %d: page_size %r" % (i, r["page_size"]))
    if r["per"] != "load" or r["chain"] != "4":
        why.append("CSV row %d: per %r chain %r" % (i, r["per"], r["chain"]))
for i, d in enumerate(jl):
    if d["point"] != i + 1:
        why.append("JSON row %d: point %r" % (i, d["point"]))
    if d["config"]["region"] != regions[i]:
        why.append("JSON row %d: region %r" % (i, d["config"]["region"]))
    if d["result"]["page_size"]["bytes"] != int(rows[i]["page_size"]):
        why.append("JSON row %d: page size %r, CSV %s" %
                   (i, d["result"]["page_size"], rows[i]["page_size"]))
if why:
    print("#  " + "\n#  ".join(why[:8]))
    sys.exit(1)
PY
report $? "the CSV and JSON lines: a row per region, points from 1, engine and page_size"
"$ctl" sweep --dry-run $ws >"$tmp/out" 2>"$tmp/err"
[ "$(cut -d' ' -f1 "$tmp/out" | tr '\n' ' ')" = "1 2 3 4 " ]
report $? "--dry-run numbers the points from 1 too"

# ---- --resume: the options every point shares must be the file's ----
wc_before=$(wc -l <"$tmp/ws.csv")
sweep ws --engine user --pattern chase --chain 4 --region 16K,64K..1Mx4 --samples 300 --resume
[ $? -eq 1 ] && grep -q "ws.csv holds 4 points measured with other options than this sweep's: --samples 200, not 300" "$tmp/err" &&
	[ "$(wc -l <"$tmp/ws.csv")" -eq "$wc_before" ]
report $? "--resume with another --samples: refused, --samples named, nothing added"
sweep ws $ws --seed 7 --resume
[ $? -eq 1 ] && grep -q -- "--seed 444065150, not 7" "$tmp/err"
report $? "--resume with another --seed: refused, --seed named"
sweep ws $ws --region 4M --resume
[ $? -eq 0 ] && grep -q "5 points: 1 measured, 0 failed, 4 already in the files" "$tmp/err" &&
	[ "$(wc -l <"$tmp/ws.csv")" -eq $((wc_before + 1)) ]
report $? "--resume with another --region (a dimension): its point added"
sweep ws $ws --hugepages --resume
[ $? -eq 0 ] && [ "$(grep -c ';hugepages=1' "$tmp/ws.csv")" -eq 4 ]
report $? "--resume with --hugepages (a column of its own): its points added"

# ---- older files: their columns and their numbering kept ----
python3 - "$tmp/ws.csv" "$tmp/old.csv" "$tmp/ws.jsonl" "$tmp/old.jsonl" <<'PY'
import csv, json, os, sys
later = os.environ["V6"].split(",") + os.environ["V7"].split(",") + \
    os.environ["V8"].split(",") + \
    os.environ["V9"].split(",")
src, dst, jsrc, jdst = sys.argv[1:]
rows = list(csv.reader(open(src)))
head = rows[0]
keep = [i for i, c in enumerate(head)
        if c not in ("engine", "page_size", "region_reused") and
        not c.startswith(("ns_lo_", "ns_hi_")) and c not in later]
with open(dst, "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow([head[i] for i in keep])
    for r in rows[1:4]:			# the first 3 of 4 regions
        r[0] = str(int(r[0]) - 1)		# counted from 0, as then
        w.writerow([r[i] for i in keep])
with open(jdst, "w") as f:
    for line in open(jsrc).readlines()[:3]:
        d = json.loads(line)
        d["point"] -= 1
        f.write(json.dumps(d) + "\n")
PY
"$ctl" sweep --quiet --out "$tmp/old.csv" --out "$tmp/old.jsonl" $ws --resume \
	>"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && python3 - "$tmp/old.csv" "$tmp/old.jsonl" <<'PY'
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1])))
jl = [json.loads(l) for l in open(sys.argv[2])]
assert "engine" not in rows[0] and len(rows) == 5, rows[0]
assert all(len(r) == len(rows[0]) for r in rows), [len(r) for r in rows]
assert [r[0] for r in rows[1:]] == ["0", "1", "2", "3"], [r[0] for r in rows]
assert [d["point"] for d in jl] == [0, 1, 2, 3], [d["point"] for d in jl]
PY
report $? "--resume of files counted from 0, without engine, page_size: continued alike"

# a file from before region_reused (and the intervals): continued in its
# own columns
python3 - "$tmp/ws.csv" "$tmp/v3.csv" <<'PY'
import csv, os, sys
later = os.environ["V6"].split(",") + os.environ["V7"].split(",") + \
    os.environ["V8"].split(",") + \
    os.environ["V9"].split(",")
rows = list(csv.reader(open(sys.argv[1])))
keep = [i for i, c in enumerate(rows[0]) if c != "region_reused" and
        not c.startswith(("ns_lo_", "ns_hi_")) and c not in later]
with open(sys.argv[2], "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    for r in rows[:4]:
        w.writerow([r[i] for i in keep])
PY
"$ctl" sweep --quiet --out "$tmp/v3.csv" $ws --resume >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && python3 - "$tmp/v3.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
assert "region_reused" not in rows[0] and "page_size" in rows[0], rows[0]
assert len(rows) == 5 and all(len(r) == len(rows[0]) for r in rows), rows
assert [r[0] for r in rows[1:]] == ["1", "2", "3", "4"], [r[0] for r in rows]
PY
report $? "--resume of a file without region_reused: continued in its columns"

# a file of layout 4 (before the intervals): continued without them
python3 - "$tmp/ws.csv" "$tmp/v4.csv" <<'PY'
import csv, os, sys
later = os.environ["V6"].split(",") + os.environ["V7"].split(",") + \
    os.environ["V8"].split(",") + \
    os.environ["V9"].split(",")
rows = list(csv.reader(open(sys.argv[1])))
keep = [i for i, c in enumerate(rows[0])
        if not c.startswith(("ns_lo_", "ns_hi_")) and c not in later]
with open(sys.argv[2], "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    for r in rows[:4]:
        w.writerow([r[i] for i in keep])
PY
"$ctl" sweep --quiet --out "$tmp/v4.csv" $ws --resume >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && python3 - "$tmp/v4.csv" "$tmp/ws.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
new = list(csv.DictReader(open(sys.argv[2])))
assert "region_reused" in rows[0] and "ns_lo_p50" not in rows[0], rows[0]
assert len(rows) == 5 and all(len(r) == len(rows[0]) for r in rows), rows
# a new file has them: p50 inside its interval
assert all(float(r["ns_lo_p50"]) <= float(r["ns_p50"]) <= float(r["ns_hi_p50"])
           for r in new), new
PY
report $? "--resume of a layout-4 file: continued without the intervals; a new file's p50 lies in its ns_lo_p50..ns_hi_p50"

# a file of layout 5 (before the causes), of a sweep with --threshold:
# continued in layout 5's columns, its new row's cells in their places
python3 - "$tmp/c10.csv" "$tmp/v5.csv" <<'PY'
import csv, os, sys
later = os.environ["V6"].split(",") + os.environ["V7"].split(",") + \
    os.environ["V8"].split(",") + \
    os.environ["V9"].split(",")
rows = list(csv.reader(open(sys.argv[1])))
keep = [i for i, c in enumerate(rows[0]) if c not in later]
with open(sys.argv[2], "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    for r in rows[:4]:			# the first 3 of 4 points
        w.writerow([r[i] for i in keep])
PY
head -1 "$tmp/v5.csv" >"$tmp/v5.head"
"$ctl" sweep --quiet --out "$tmp/v5.csv" $causes --threshold 10x \
	--max-outliers 100000 --resume >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && grep -q "4 points: 1 measured, 0 failed, 3 already in the files" "$tmp/err" &&
	cmp -s <(head -1 "$tmp/v5.csv") "$tmp/v5.head" &&
	python3 - "$tmp/v5.csv" <<'PY'
import csv, os, sys
later = os.environ["V6"].split(",") + os.environ["V7"].split(",") + \
    os.environ["V8"].split(",") + \
    os.environ["V9"].split(",")
rows = list(csv.reader(open(sys.argv[1])))
head = rows[0]
assert not set(later) & set(head), head
assert head[head.index("smi") + 1] == "mode", head
assert len(rows) == 5 and all(len(r) == len(head) for r in rows), \
    [len(r) for r in rows]
new = dict(zip(head, rows[4]))
assert new["point"] == "4" and new["mode"] == "latency" and \
    new["threads"] == "1" and new["state"] == "done", new
assert new["smi"] == "" or new["smi"].isdigit(), new["smi"]
assert 0 < float(new["ns_min"]) <= float(new["ns_p50"]) <= float(new["ns_max"]), new
PY
report $? "--resume of a layout-5 file with --threshold: continued in layout 5's columns, its header kept, the new row in place"

# a file of layout 6 (before the duty cycle): continued without it
python3 - "$tmp/ws.csv" "$tmp/v6.csv" <<'PY'
import csv, os, sys
later = os.environ["V7"].split(",") + os.environ["V8"].split(",") + \
    os.environ["V9"].split(",")
rows = list(csv.reader(open(sys.argv[1])))
keep = [i for i, c in enumerate(rows[0]) if c not in later]
with open(sys.argv[2], "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    for r in rows[:4]:
        w.writerow([r[i] for i in keep])
PY
head -1 "$tmp/v6.csv" >"$tmp/v6.head"
"$ctl" sweep --quiet --out "$tmp/v6.csv" $ws --resume >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && cmp -s <(head -1 "$tmp/v6.csv") "$tmp/v6.head" &&
	python3 - "$tmp/v6.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
assert "duty_cycle" not in rows[0] and "clean_ns_mean" in rows[0], rows[0]
assert len(rows) > 4 and all(len(r) == len(rows[0]) for r in rows), \
    [len(r) for r in rows]
PY
report $? "--resume of a layout-6 file: continued without duty_cycle, its header kept"

# ---- one region for many points ----
# $CC as tests/unit/run takes it (words allowed: unquoted)
keep_bin=$tmp/test-keep
if ${CC:-cc} -std=c11 -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE \
	-I"$top/include" -I"$top/user" -o "$keep_bin" \
	"$top/tests/unit/test-keep.c" \
	"$top/user/log.c" "$top/user/host.c" "$top/user/map.c" \
	"$top/user/parse.c" "$top/user/msr.c" "$top/user/evidence.c" \
	-lnuma -pthread 2>"$tmp/err"; then
	"$keep_bin" "$tmp" >"$tmp/keep.out" 2>"$tmp/err"
	echo "rc $?" >>"$tmp/keep.out"
	while IFS= read -r line; do
		case $line in
		"ok "*" - # SKIP"*) skip "kept region: ${line#*# SKIP }" ;;
		"ok "*) report 0 "kept region: ${line#ok * - }" ;;
		"not ok "*) report 1 "kept region: ${line#not ok * - }" ;;
		"rc 0"|"1.."*|keep:*) ;;
		*) report 1 "test-keep: $line" ;;
		esac
	done <"$tmp/keep.out"
else
	report 1 "tests/unit/test-keep.c builds"
fi

# reused LIST FILE.jsonl FILE.csv: the rows' region_reused, in order, in
# both files ("0 1 1 1")
reused()
{
	python3 - "$@" <<'PY'
import csv, json, sys
want = sys.argv[1].split()
jl = [json.loads(l) for l in open(sys.argv[2])]
got = [str(int(d["result"]["region_reused"])) for d in jl]
if any(type(d["result"]["region_reused"]) is not bool for d in jl):
    print("#  not a JSON boolean")
    sys.exit(1)
if got != want:
    print("#  JSON lines: %s, want %s" % (" ".join(got), " ".join(want)))
    sys.exit(1)
if len(sys.argv) > 3:
    rows = list(csv.DictReader(open(sys.argv[3])))
    got = [r["region_reused"] for r in rows]
    if got != want:
        print("#  CSV: %s, want %s" % (" ".join(got), " ".join(want)))
        sys.exit(1)
PY
}

same="--engine user --op load,store --pattern seq,rand --size 64 --samples 500 --region 16M"
sweep rr $same
[ $? -eq 0 ] && reused "0 1 1 1" "$tmp/rr.jsonl" "$tmp/rr.csv"
report $? "points that share their region: the first fresh, the rest reuse it"
sweep rn $same --no-reuse
[ $? -eq 0 ] && reused "0 0 0 0" "$tmp/rn.jsonl" "$tmp/rn.csv"
report $? "--no-reuse: every point on a fresh region"
python3 - "$tmp/rr.jsonl" "$tmp/rn.jsonl" "$tmp/rr.csv" "$tmp/rn.csv" <<'PY'
import csv, json, sys
# the two sweeps' rows: the same points, fields and counts (not values)
def paths(o, pre=""):
    if isinstance(o, dict):
        return {p for k, v in o.items() for p in paths(v, pre + "." + k)} | {pre}
    # ints and floats alike, and null (a figure one run may lack, as
    # the spacing of its own samples)
    return {pre + ":" + ("float" if o is None else
                         type(o).__name__.replace("int", "float"))}
why = []
a = [json.loads(l) for l in open(sys.argv[1])]
b = [json.loads(l) for l in open(sys.argv[2])]
if [d["key"] for d in a] != [d["key"] for d in b]:
    why.append("keys differ")
for x, y in zip(a, b):
    for k in ("provenance", "result", "latency", "config", "target"):
        px, py = paths(x[k]), paths(y[k])
        if k == "provenance":
            px = {p for p in px if not p.startswith(".command_line")}
            py = {p for p in py if not p.startswith(".command_line")}
        if px != py:
            why.append("point %d: %s fields differ: %s" %
                       (x["point"], k, sorted(px ^ py)[:4]))
    if x["config"] != y["config"] or x["target"] != y["target"]:
        why.append("point %d: config or target differ" % x["point"])
    # the counts that do not depend on timing (windows, backwards and
    # the pages THP gave a region may)
    for k in ("state", "samples"):
        if x["result"][k] != y["result"][k]:
            why.append("point %d: result.%s %r, %r" %
                       (x["point"], k, x["result"][k], y["result"][k]))
    if x["latency"]["per"] != y["latency"]["per"]:
        why.append("point %d: per differs" % x["point"])
ca = list(csv.DictReader(open(sys.argv[3])))
cb = list(csv.DictReader(open(sys.argv[4])))
if [r["key"] for r in ca] != [r["key"] for r in cb] or \
   [r["samples"] for r in ca] != [r["samples"] for r in cb] or \
   (ca and list(ca[0]) != list(cb[0])):
    why.append("the CSV files differ in keys, columns or samples")
if not a or len(a) != len(b):
    why.append("%d and %d rows" % (len(a), len(b)))
if why:
    print("#  " + "\n#  ".join(why[:8]))
    sys.exit(1)
PY
report $? "with and without --no-reuse: the same keys, fields and counts"
sweep rx --engine user --op load,store --pattern seq --size 64 --samples 500 --region 16M,32M
[ $? -eq 0 ] && reused "0 0 0 0" "$tmp/rx.jsonl" "$tmp/rx.csv"
report $? "points that change the region: a fresh one at every change"
node0=$(ls -d /sys/devices/system/cpu/cpu0/node* 2>/dev/null | sed -n 's/.*node//p' | head -1)
sweep rd --engine user --target "dram,dram:${node0:-0}" --pattern seq,rand \
	--samples 500 --region 16M
[ $? -eq 0 ] && reused "0 1 1 1" "$tmp/rd.jsonl" "$tmp/rd.csv"
report $? "dram (CPU 0's node) and dram:N of that node: one region"
other=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | sed 's/.*node//' |
	while read -r nd; do
		grep -q "MemFree: *[1-9][0-9]\{5,\} kB" \
			/sys/devices/system/node/node$nd/meminfo 2>/dev/null &&
			echo "$nd"
	done | head -2 | tr '\n' ' ')
if [ "$(wc -w <<<"$other")" -ge 2 ]; then
	set -- $other
	sweep rm --engine user --target "dram:$1,dram:$2" --pattern seq,rand \
		--samples 500 --region 16M
	[ $? -eq 0 ] && reused "0 1 0 1" "$tmp/rm.jsonl" "$tmp/rm.csv"
	report $? "dram:$1 then dram:$2: a fresh region for the other node"
	set --
else
	skip "a point on another NUMA node: this host has one node with memory"
fi
# a point that fails (chase with --width 16) between two that would share
sweep rf --engine user --pattern seq,chase,rand --width 16 --samples 500 --region 16M
[ $? -eq 1 ] && grep -q "3 points: 2 measured, 1 failed" "$tmp/err" &&
	reused "0 0" "$tmp/rf.jsonl" "$tmp/rf.csv"
report $? "a point that fails gives the region back: the next makes its own"
sweep rg --engine user --pattern seq,rand --width 16 --samples 500 --region 16M
[ $? -eq 0 ] && reused "0 1" "$tmp/rg.jsonl" "$tmp/rg.csv"
report $? "(without the failing point between them, the second reuses it)"
LATTESTER_LOG=info "$ctl" sweep --quiet --out "$tmp/rc.jsonl" --engine user \
	--pattern chase --chain 4 --size 64,128 --threshold 10x --samples 500 \
	--region 16M >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && reused "0 1" "$tmp/rc.jsonl" &&
	[ "$(grep -c 'the region of the previous run, as it is' "$tmp/err")" -eq 3 ] &&
	[ "$(grep -c 'its chase cycle too' "$tmp/err")" -eq 2 ]
report $? "chase, --threshold 10x: each run after its calibration pass takes its cycle"
sweep rr $same --no-reuse --resume
[ $? -eq 0 ] && grep -q "4 points: 0 measured, 0 failed, 4 already in the files" "$tmp/err"
report $? "--resume with --no-reuse: the same keys, nothing run again"
"$ctl" sweep --help >"$tmp/out" 2>&1 && grep -q -- "--no-reuse" "$tmp/out"
report $? "--no-reuse in sweep --help"

# ---- a sweep whose every point failed leaves no file ----
sweep f --engine user --pattern chase --width 16 --size 64,128 --samples 100 --region 16M
[ $? -eq 1 ] && grep -q "2 points: 0 measured, 2 failed" "$tmp/err" &&
	[ ! -e "$tmp/f.csv" ] && [ ! -e "$tmp/f.jsonl" ] &&
	grep -q "f.csv: no point written: removed" "$tmp/err"
report $? "every point failed: exit 1, no file left, said"
sweep f --engine user --size 64 --samples 100 --region 16M
report $? "so the next try needs no --resume"
head -1 "$tmp/f.csv" >"$tmp/h.csv"
"$ctl" sweep --quiet --engine user --size 64 --samples 100 --region 16M \
	--out "$tmp/h.csv" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && [ "$(wc -l <"$tmp/h.csv")" -eq 2 ]
report $? "a CSV of a header alone (an interrupted first point) is no finished sweep"

# ---- --max-points, and a warning for a big grid ----
# (timeout: a broken guard would run them all)
timeout 20 "$ctl" sweep --engine user --size 64,128,192,256 --samples 100 \
	--region 1M --max-points 3 --out "$tmp/m.csv" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q -- "4 points to measure, more than --max-points 3" "$tmp/err" &&
	[ ! -e "$tmp/m.csv" ] && [ ! -s "$tmp/out" ]
report $? "--max-points 3 of 4 points: refused before the first, the count and option named"
timeout 20 "$ctl" sweep --engine user --size 64..640064+64 --samples 100 \
	--region 1M --out "$tmp/m.csv" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q -- "10001 points to measure, more than --max-points 10000" "$tmp/err" &&
	[ ! -e "$tmp/m.csv" ]
report $? "10001 points: refused by the default --max-points 10000"
"$ctl" sweep --dry-run --engine user --size 64..64064+64 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && grep -q "warning: 1001 points to measure, 100000 samples each: a long sweep" "$tmp/err"
report $? "1001 points: a warning"
"$ctl" sweep --dry-run --engine user --size 64..64000+64 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && ! grep -q "points to measure" "$tmp/err"
report $? "1000 points: no warning"
"$ctl" sweep --engine user --max-points 0 --out "$tmp/m.csv" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- "--max-points: '0'" "$tmp/err"
report $? "--max-points 0: a usage error"

# ---- tools/repro-working-set ----
repro=$top/tools/repro-working-set
LATTESTER_CTL=$ctl "$repro" -n 100 -R 16K,256K -o "$tmp/rws" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && [ "$(grep -c ',done,' "$tmp/rws/working-set.csv")" -eq 4 ] &&
	[ "$(grep -c ';hugepages=1' "$tmp/rws/working-set.csv")" -eq 2 ] &&
	grep -q 'huge p50 (ns)' "$tmp/out" && grep -qE '^ +256 KiB +[0-9.]+ +- +[0-9.]+ +-$' "$tmp/out"
report $? "repro-working-set -R 16K,256K: base and huge pages, 4 points, the table (p99 of 100 samples '-')"
if command -v gnuplot >/dev/null; then
	[ -s "$tmp/rws/working-set.png" ] && grep -q "wrote $tmp/rws/working-set.png" "$tmp/out"
	report $? "repro-working-set: working-set.png drawn"
else
	skip "repro-working-set's plot: no gnuplot (apt-get install gnuplot-nox)"
fi
LATTESTER_CTL=$ctl "$repro" -n 100 -R 16K,256K -o "$tmp/rws" --no-plot >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && [ "$(grep -c 'already in the files' "$tmp/err")" -eq 2 ] &&
	[ "$(grep -c ',done,' "$tmp/rws/working-set.csv")" -eq 4 ]
report $? "repro-working-set again: resumes, nothing measured twice"
LATTESTER_CTL=$ctl "$repro" -n 200 -R 16K,256K -o "$tmp/rws" --no-plot >"$tmp/out" 2>"$tmp/err"
[ $? -ne 0 ] && grep -q -- "--samples 100, not 200" "$tmp/err"
report $? "repro-working-set -n 200 into the -n 100 directory: refused, --samples named"
# the default regions, 4K to 4G, capped at half the node's free memory
node=$(ls -d /sys/devices/system/cpu/cpu0/node* 2>/dev/null | sed -n 's/.*node//p' | head -1)
half=$(awk '/MemFree:/ { printf "%.0f\n", $(NF - 1) * 1024 / 2 }' \
	/sys/devices/system/node/node"${node:-0}"/meminfo 2>/dev/null)
LATTESTER_CTL=$ctl "$repro" -o "$tmp/rwd" -- --dry-run >"$tmp/out" 2>"$tmp/err"
top_region=$(sed -n 's/.*;region=\([0-9]*\);.*/\1/p' "$tmp/out" | sort -n | tail -1)
[ -n "$half" ] && [ -n "$top_region" ] &&
	[ "$top_region" -le "$half" ] && [ "$top_region" -le 4294967296 ] &&
	[ $((top_region & (top_region - 1))) -eq 0 ] &&
	{ [ "$top_region" -eq 4294967296 ] || [ $((top_region * 2)) -gt "$half" ]; } &&
	[ "$(grep -c ';region=4096;' "$tmp/out")" -eq 2 ] && [ ! -e "$tmp/rwd/working-set.csv" ]
report $? "repro-working-set: 4K up to $top_region B, the most within half the node's free memory ($half B)"

# ---- a Ctrl-C during the last point: it is finished, the status 130 ----
rm -f "$tmp/int.csv"
interrupt 1 "$ctl" sweep --engine user --quiet --samples 10000000 \
	--region 16M --out "$tmp/int.csv"
[ $rc -eq 130 ] && [ "$(wc -l <"$tmp/int.csv")" -eq 2 ] &&
	grep -q "1 points: 1 measured" "$tmp/err"
report $? "a Ctrl-C during a sweep's last point: the point finished and written, exit 130 (got $rc)"

# ---- files a sweep must not take for its own ----
# a file of one line without its newline that is no sweep header: not
# a cut-short sweep to take over, but someone's file (refused, untouched)
printf 'precious data, no newline' >"$tmp/precious.csv"
"$ctl" sweep --engine user --quiet --samples 100 --region 16M \
	--out "$tmp/precious.csv" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && [ "$(cat "$tmp/precious.csv")" = "precious data, no newline" ]
report $? "a one-line file without newline that is no sweep header: refused, untouched"
printf 'precious data, no newline' >"$tmp/precious.jsonl"
"$ctl" sweep --engine user --quiet --samples 100 --region 16M --resume \
	--out "$tmp/precious.jsonl" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && [ "$(cat "$tmp/precious.jsonl")" = "precious data, no newline" ] &&
	grep -q "not a lattester-ctl sweep JSON lines file" "$tmp/err"
report $? "--resume of a JSON lines file whose one line is no JSON object: refused, untouched"
# an output that is a device (here a node of /dev/null's numbers): a
# sweep whose every point failed removes the file it started, never this
if [ "$(id -u)" = 0 ] && mknod "$tmp/null.csv" c 1 3 2>/dev/null; then
	"$ctl" sweep --engine user --op durable --samples 100 --region 16M \
		--out "$tmp/null.csv" >"$tmp/out" 2>"$tmp/err"
	[ $? -eq 1 ] && [ -c "$tmp/null.csv" ] && grep -q "1 failed" "$tmp/err"
	report $? "every point failed, the output a device: the device stays"
else
	skip "a device as --out: no mknod here (not root)"
fi
# --op durable in a sweep's list is a point (run refuses it on DRAM)
"$ctl" sweep --engine user --op durable,load --samples 100 --region 16M \
	--dry-run >"$tmp/out" 2>"$tmp/err"
grep -q ';op=durable;' "$tmp/out" && ! grep -q 'leave --fence out' "$tmp/err"
report $? "sweep --op durable,load: a point of each, no --fence asked for"

# ---- --resume after a sweep stopped mid-write ----
# What a user relies on: a file that lost the end of its last row (a
# crash, a full disk) resumes into a file every row of which reads, each
# point once.  Cut both formats at several offsets into the last row.
rg="--engine user --size 64,128,256 --samples 300 --region 16M"
sweep whole $rg
report $? "a 3-point sweep for the cut-short files"
ok=1
for cut in 1 7 200 last; do
	for ext in csv jsonl; do
		size=$(stat -c %s "$tmp/whole.$ext")
		lastlen=$(tail -n 1 "$tmp/whole.$ext" | wc -c)
		# bytes to keep: up to the last row, then part of it (never
		# its newline)
		if [ "$cut" = last ]; then keep=$((size - 1)); else
			keep=$((size - lastlen + cut)); fi
		head -c "$keep" "$tmp/whole.$ext" >"$tmp/cut.$ext"
	done
	sweep cut $rg --resume
	rc=$?
	python3 - "$tmp/cut.csv" "$tmp/cut.jsonl" "$tmp/whole.jsonl" <<'PY'
import csv, json, sys
c, j, w = sys.argv[1:4]
want = sorted(json.loads(l)["key"] for l in open(w))
rows = list(csv.reader(open(c)))
jrows = [json.loads(l) for l in open(j)]        # every line reads
why = []
if len({len(r) for r in rows}) != 1:
    why.append("CSV rows of %r fields" % sorted({len(r) for r in rows}))
if sorted(r[-1] for r in rows[1:]) != want:
    why.append("CSV keys %r" % [r[-1][:30] for r in rows[1:]])
if sorted(r["key"] for r in jrows) != want:
    why.append("JSON keys %d of %d" % (len(jrows), len(want)))
print("\n".join(why))
sys.exit(1 if why else 0)
PY
	py=$?
	if [ $rc -ne 0 ] || [ $py -ne 0 ] ||
	   ! grep -q "cut.csv: its last line was cut short" "$tmp/err" ||
	   ! grep -q "cut.jsonl: its last line was cut short" "$tmp/err" ||
	   ! grep -q "3 points: 1 measured, 0 failed, 2 already" "$tmp/err"; then
		ok=0
		echo "# cut at $cut: exit $rc, $(tail -n 3 "$tmp/err")"
	fi
done
report $((1 - ok)) "--resume of files cut 1, 7, 200 bytes into their last row and just before its newline: that row taken off and measured again, every line whole, each point once"
# a line in the middle that is no whole row: refused, the file untouched
head -n 2 "$tmp/whole.csv" >"$tmp/mid.csv"
tail -n 2 "$tmp/whole.csv" | head -n 1 | cut -d, -f1-20 >>"$tmp/mid.csv"
tail -n 1 "$tmp/whole.csv" >>"$tmp/mid.csv"
cp "$tmp/mid.csv" "$tmp/mid.before"
"$ctl" sweep --quiet --out "$tmp/mid.csv" $rg --resume >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "line 3 holds 20 fields where the header has" "$tmp/err" &&
	grep -q "remove that line, or start a new --out file" "$tmp/err" &&
	cmp -s "$tmp/mid.csv" "$tmp/mid.before"
report $? "--resume of a CSV with a short row in its middle: refused, the line and the fix named, the file as it was"
{ head -n 1 "$tmp/whole.jsonl"; echo '{"key": "x'; tail -n 1 "$tmp/whole.jsonl"; } >"$tmp/mid.jsonl"
"$ctl" sweep --quiet --out "$tmp/mid.jsonl" $rg --resume >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "line 2 is not a whole JSON object" "$tmp/err"
report $? "--resume of JSON lines with a broken line in the middle: refused, the line named"

# ---- --mix lists and --curves ----
"$ctl" sweep --dry-run --engine user --curves >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && [ "$(grep -c ' run ' "$tmp/out")" -eq 55 ] &&
	grep -q ';mix=3:1;' "$tmp/out" && grep -q '^55 run .*delay=12800' "$tmp/out" &&
	grep -q 'mode=loaded' "$tmp/out" && grep -q 'pattern=rand' "$tmp/out"
report $? "--curves --dry-run: 5 mixes x 11 delays, loaded, rand, the last 0:1 at 12800 cycles"
if [ "$(python3 -c 'import os; print(len(os.sched_getaffinity(0)))')" -lt 2 ]; then
	skip "--curves: one CPU here, no traffic thread beside the probe"
else
	sweep cv --engine user --curves --mix 1:0,1:1 --delay 0,12800 \
		--samples 2000 --region 64M
	rc=$?
	[ $rc -eq 0 ] && [ "$(grep -c '^ *idle: the probe alone' "$tmp/out")" -eq 1 ] &&
		[ "$(grep -c '^[0-9]/4  ' "$tmp/out")" -eq 4 ]
	report $? "--curves with a --mix list of 2 and 2 delays: one idle run, then 4 points (rc $rc)"
	python3 - "$tmp/cv.csv" "$tmp/cv.jsonl" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
jl = [json.loads(l) for l in open(sys.argv[2])]
assert len(rows) == 4 and len(jl) == 4, (len(rows), len(jl))
idle = {r["idle_ns_p50"] for r in rows}
assert len(idle) == 1 and float(idle.pop()) > 0, "one idle p50 for the group"
for r, j in zip(rows, jl):
    mix = "%s:%s" % (r["mix_read"], r["mix_write"])
    assert r["mode"] == "loaded" and ";mix=%s;" % mix in r["key"], r["key"]
    want = 100.0 * int(r["mix_read"]) / (int(r["mix_read"]) + int(r["mix_write"]))
    assert float(r["rd_percentage"]) == want, (r["rd_percentage"], want)
    assert r["pause"] == r["delay"], (r["pause"], r["delay"])
    assert r["bandwidth"] == r["total_gbps"], (r["bandwidth"], r["total_gbps"])
    assert abs(float(r["latency"]) - float(r["ns_mean"])) < 0.002, \
        (r["latency"], r["ns_mean"])
    c = j["curve"]
    assert c["rd_percentage"] == want and c["pause"] == int(r["delay"]), c
    assert abs(c["idle"]["p50"] - float(r["idle_ns_p50"])) < 0.002, c
    if r["mix_write"] != "0":
        assert float(r["write_gbps"]) > 0, "writes at %s" % mix
print("# mixes %s" % sorted({(r["mix_read"], r["mix_write"]) for r in rows}))
PY
	report $? "--curves: a row per mix and delay, the group's idle p50 in each, Mess's rd_percentage, pause, bandwidth and latency beside ours, the JSON lines' curve alike"
	"$ctl" sweep --quiet --engine user --curves --mix 1:0,1:1 --delay 0,12800 \
		--samples 2000 --region 64M --out "$tmp/cv.csv" --resume \
		>"$tmp/out" 2>"$tmp/err"
	[ $? -eq 0 ] && ! grep -q 'idle' "$tmp/out" &&
		grep -q "4 points: 0 measured, 0 failed, 4 already in the files" "$tmp/err"
	report $? "--curves --resume of a finished sweep: no idle run, nothing measured"
	# a --traffic-target list: a point each, the traffic on its own
	# region of the node or sharing the probe's; one idle run for all
	sweep tl --engine user --curves --mix 1:0 --delay 0,12800 \
		--traffic-target none,dram:0 --traffic-region 32M \
		--samples 2000 --region 16M
	rc=$?
	[ $rc -eq 0 ] && [ "$(grep -c '^ *idle: the probe alone' "$tmp/out")" -eq 1 ]
	report $? "--curves --traffic-target none,dram:0: one idle run for both (rc $rc)"
	python3 - "$tmp/tl.csv" "$tmp/tl.jsonl" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
jl = [json.loads(l) for l in open(sys.argv[2])]
assert len(rows) == 4 and len(jl) == 4, (len(rows), len(jl))
assert [(r["traffic_target"], r["delay"]) for r in rows] == \
    [("", "0"), ("", "12800"), ("dram:0", "0"), ("dram:0", "12800")], \
    [(r["traffic_target"], r["delay"]) for r in rows]
assert len({r["idle_ns_p50"] for r in rows}) == 1, "one idle p50"
for r, j in zip(rows, jl):
    assert r["state"] == "done", r["state"]
    on = r["traffic_target"]
    assert (";traffic_target=dram:0;" in r["key"] + ";") == (on != ""), r["key"]
    assert (";traffic_region=" in r["key"]) == (on != ""), r["key"]
    probe, stream = j["threads"]["threads"]
    # what a user relies on: the traffic streams where it was sent, on a
    # region of its own (32 MiB) or on the probe's (16 MiB), and moves bytes
    assert probe["part_bytes"] == 16 << 20, probe["part_bytes"]
    assert stream["part_bytes"] == (32 << 20 if on else 16 << 20), \
        (on, stream["part_bytes"])
    tt = j["threads"].get("traffic_target")
    assert (tt or {}).get("region") == (32 << 20 if on else None), tt
    assert int(r["bytes_read"]) > 0, r["bytes_read"]
print("# %r" % [(r["traffic_target"], r["delay"], r["total_gbps"]) for r in rows])
PY
	report $? "--traffic-target none,dram:0: the traffic on its own 32 MiB at dram:0's points, on the probe's 16 MiB at none's, keyed and written per point"
	"$ctl" sweep --dry-run --engine user --mode loaded --threads 2 \
		--traffic-target dram:0 >"$tmp/out" 2>"$tmp/err" &&
		[ "$(grep -c ';traffic_target=dram:0$' "$tmp/out")" -eq 1 ]
	report $? "--traffic-target of one: the key as before the list, traffic_target last"
fi
for v in "none,bogus:x" "dram:0,"; do
	"$ctl" sweep --dry-run --engine user --mode loaded --threads 2 \
		--traffic-target "$v" >"$tmp/out" 2>"$tmp/err"
	[ $? -eq 2 ] && grep -q "^lattester-ctl sweep: --traffic-target: '.*': invalid value (expected a list of targets as --target's .*, or none)$" "$tmp/err" ||
		break
done
report $? "--traffic-target $v: a usage error naming what a list holds"
"$ctl" sweep --dry-run --engine user --mode loaded --threads 2 \
	--traffic-target none --traffic-region 8M >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "^lattester-ctl sweep: --traffic-region is the region of --traffic-target$" "$tmp/err"
report $? "--traffic-target none with --traffic-region: refused in run's words"
sweep mx --engine user --mode bandwidth --mix 2:1,0:1 --duration 20ms \
	--size 64 --region 16M
python3 - "$tmp/mx.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [(r["mix_read"], r["mix_write"]) for r in rows] == [("2", "1"), ("0", "1")], rows
assert all(r["idle_ns_p50"] == "" and r["latency"] == "" for r in rows), rows
assert rows[1]["rd_percentage"] == "0" and float(rows[1]["bytes_read"]) == 0, rows[1]
b = [int(rows[0]["bytes_read"]), int(rows[0]["bytes_written"])]
assert b[1] > 0 and abs(b[0] - 2 * b[1]) <= 64 * 64 * 2, b
PY
report $? "sweep --mix 2:1,0:1 in bandwidth mode: a point each, its reads twice its writes (within a batch), no idle latency without --curves"
ncpu=$(python3 -c 'import os; print(min(len(os.sched_getaffinity(0)), 32))')
if [ "$ncpu" -lt 2 ]; then
	skip "--curves --cpu 0: one CPU here, no thread count to set"
else
	"$ctl" sweep --dry-run --engine user --curves --cpu 0 >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 0 ] && [ "$(grep -c ";threads=$ncpu;" "$tmp/out")" -eq 55 ]
	report $? "--curves --cpu 0: as many threads as CPUs ($ncpu) from CPU 0, not --cpus (rc $rc)"
fi
"$ctl" sweep --curves --mode bandwidth --dry-run >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- "--curves is --mode loaded" "$tmp/err"
report $? "--curves --mode bandwidth: a usage error"
"$ctl" sweep --dry-run --mix 1:0,0:0 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- "--mix: '1:0,0:0'" "$tmp/err"
report $? "--mix 1:0,0:0: a usage error, the list named"

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
