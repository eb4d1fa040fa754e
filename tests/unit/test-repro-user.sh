#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-repro-user.sh - the latency experiment scripts (tools/repro-basic-
# latency, repro-size, repro-tail-hotspot, repro-cxl-latency) for real on this host with the
# user engine (repro-tail-hotspot's outliers' causes as its CSV says), on a CPU whose CPUID hides rdtscp (LATTESTER_HWCAPS=-rdtscp,
# as some hypervisors do): every point is measured, timed with
# "lfence; rdtsc", and the store ops (default fence, mfence) cost at
# least an eighth of a flushed load of the same size and pattern.  Tiny sample counts, a 16 MiB region, no plots.  Then
# four scripts of many threads (repro-bandwidth-threads, -mix,
# repro-loaded-latency, repro-curves) with the user engine's pinned
# threads: every point done, bytes moved, a mix's bytes in its ratio, less
# traffic with a longer delay, the curves' idle latency and table.  With
# the module: tests/vm/cases-threads.
#
#   make -C user && bash tests/unit/test-repro-user.sh
#
# TAP-like lines, then "repro-user: N passed, N failed".

set -u

TAP_NAME=repro-user
CTL_TEST_PYTHON=1
. "$(dirname "$0")/ctl-test.sh"
export LATTESTER_DEV=/nonexistent LATTESTER_CTL="$ctl" LATTESTER_HWCAPS=-rdtscp
# lfence; rdtsc is refused where LFENCE is not shown to serialize (pick.h)
if ! "$ctl" info 2>/dev/null | grep -q "^  features:.* lfence_serial .*(--engine user)"; then
	skip "this CPU shows no serializing LFENCE (AMD: CPUID 0x80000021 EAX[2], DE_CFG bit 1): lfence; rdtsc, which these runs time with, is refused (test-engine-user checks the refusal)"
	finish
fi

# rows CSV: "POINTS DONE LOW LOADS" of a sweep CSV; LOW: store-op rows whose
# corrected p50 is below an eighth of the flushed load's at the same size
# and pattern (a store the timestamp did not wait for reads ~0), rows
# without such a load not counted.  Not a quarter: a 16 KiB nt-store of
# flushed lines reads nothing and was seen at 781 cycles against a load's
# 2211-2915 on this host, a ratio of 2.8-3.7, built from 39cea64 and after
rows()
{
	python3 - "$1" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
done = sum(r["state"] == "done" for r in rows)
load = {(r["size"], r["pattern"]): float(r["cycles_p50"])
        for r in rows if r["op"] == "load"}
low = sum(r["op"] in ("store", "store-clwb", "store-clflushopt",
                      "store-clflush", "nt-store") and
          (r["size"], r["pattern"]) in load and
          float(r["cycles_p50"]) < load[(r["size"], r["pattern"])] / 8
          for r in rows)
print(len(rows), done, low, len(load))
PY
}

# one SCRIPT NAME POINTS ARGS...: the script runs into $tmp/NAME, its
# DIR/NAME.csv holds POINTS points, every one done
one()
{
	local script=$1 name=$2 points=$3 rn rd rz rl

	shift 3
	"$top/tools/$script" -o "$tmp/$name" --no-plot "$@" \
		>"$tmp/out" 2>"$tmp/err"
	report $? "$script with rdtscp hidden: exit 0"
	read -r rn rd rz rl < <(rows "$tmp/$name/$name.csv" 2>/dev/null)
	[ "${rn:-0}" -eq "$points" ] && [ "${rd:-0}" -eq "$points" ]
	report $? "$script: $points points, all done (rows ${rn:-none}," \
		"done ${rd:-none})"
	[ "${rl:-0}" -eq 0 ] && return	# no loads to compare with
	[ "${rz:-1}" -eq 0 ]
	report $? "$script: no store op below an eighth of the flushed load" \
		"(${rz:-?} rows)"
}

one repro-basic-latency basic-latency 36 -n 300 -- --engine user --region 16M
# the published figures beside the measured ones, and the setup's
# differences: the measured figure is the CSV's own (its median)
python3 - "$tmp/basic-latency/basic-latency.csv" "$tmp/out" <<'PY'
import csv, re, statistics, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["state"] == "done"]
out = open(sys.argv[2]).read()
def p50(op, pat):
    return statistics.median(float(r["ns_p50"]) for r in rows
                             if r["op"] == op and r["pattern"] == pat and r["size"] == "64")
why = []
for label, pub, want in (("random load, Optane DC PMM", "305", p50("load", "rand")),
                         ("random load, DRAM", "81", p50("load", "rand")),
                         ("sequential load, Optane DC PMM", "169", p50("load", "seq"))):
    m = re.search(r"basic-latency: +%s +published %s +measured ([0-9.]+) +\[Izraelevitz et al\. 2019, §3\.1\]" %
                  (re.escape(label), pub), out)
    if not m or abs(float(m.group(1)) - want) > 0.051:
        why.append("%s: %s, want measured %.1f" % (label, m and m.group(0), want))
if not re.search(r"clwb, clflushopt cheaper than clflush +published yes +measured (yes|no) \(random: clwb [0-9.]+", out):
    why.append("no clwb/clflush line")
if not re.search(r"setup, here: target dram \(DRAM, not Optane DC PMM\); engine user \(a pinned thread, interrupts on", out):
    why.append("no setup line naming the target and the user engine")
if "setup, published: Optane DC PMMs and DDR4 DRAM on a two-socket Cascade Lake server" not in out:
    why.append("no published setup line")
if why:
    print("#  " + "; ".join(why))
    sys.exit(1)
PY
report $? "repro-basic-latency: the published figures (305, 81, 169 ns) beside the CSV's medians, and the setup's differences"
one repro-size size 10 -n 100 -s 64..16Kx4 -- --engine user --region 16M
# nt-store only: no loads for the eighth check to compare with; rand
# beside the 3 hotspots, the baseline; --threshold 2x (not the script's
# 10x) and 20000 samples a point: outlier records at every point, for the
# causes' lines (at 2000 the AMD guest's tight nt-store tail, p50 100 ns
# and p99 110, once gave none in all four points: 3 to 16 in others)
one repro-tail-hotspot tail-hotspot 4 -n 20000 -H 4K..1Mx16 -- --engine user \
	--region 16M --threshold 2x
grep -qE "^tail-hotspot: +share of accesses that are outliers +published 0\.006% +measured [0-9.]+% \(4096 B\) to [0-9.]+% \(1048576 B\)" "$tmp/out" &&
	grep -qE "^tail-hotspot: +worst outlier over the common case +published ~100x +measured [0-9]+x" "$tmp/out" &&
	grep -qE "^tail-hotspot: +more outliers in a smaller hotspot +published yes +measured (yes|no) \(4096 B: " "$tmp/out" &&
	grep -qE "^rand, the whole region: +[0-9]+ outliers" "$tmp/out" &&
	grep -q "^tail-hotspot: setup, here: target dram" "$tmp/out"
report $? "repro-tail-hotspot: the published tail figures beside the measured ones"
# each point's causes and its p99.9 without interference, as its row
# says; the sum over the points
python3 - "$tmp/tail-hotspot/tail-hotspot.csv" "$tmp/out" <<'PY'
import csv, re, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["state"] == "done"]
out = open(sys.argv[2]).read()
ns = lambda v: "-" if v == "" else "%.1f" % float(v)
why, tot = [], [0, 0, 0]
for r in rows:
    head = ("rand, the whole region: " if r["hotspot"] == "0" else
            "hotspot %10d B: " % int(r["hotspot"]))
    k = [int(r["outliers_" + g]) for g in ("explained", "none_seen", "unexplained")]
    tot = [a + b for a, b in zip(tot, k)]
    n = sum(k)
    pct = ["%.1f" % (100.0 * v / n if n else 0) for v in k]
    causes = ("    causes of the %d recorded: interference %d (%s%%), none seen (the memory) %d (%s%%), unexplained %d (%s%%)"
              % (n, k[0], pct[0], k[1], pct[1], k[2], pct[2]) if n else
              "    causes: no outlier recorded")
    tail = "    p99.9 %s ns, without interference %s ns" % (ns(r["ns_p99.9"]), ns(r["clean_ns_p99.9"]))
    if not re.search(re.escape(head) + r".*\n" + re.escape(causes) + r"\n" + re.escape(tail) + r"\n", out):
        why.append("point %s: no %r then %r" % (r["point"], causes, tail))
n = sum(tot)
if n and "all points: causes of the %d recorded: interference %d " % (n, tot[0]) not in out:
    why.append("no line of all points' %d records" % n)
if len(rows) != 4:
    why.append("%d rows" % len(rows))
if not n:
    why.append("no outlier recorded: nothing to check")
if why:
    print("#  " + "\n#  ".join(why[:6]))
    sys.exit(1)
PY
report $? "repro-tail-hotspot: each point's causes (interference, none seen, unexplained) and p99.9 without interference, as its CSV row; their sum"
# the CXL latency table, its CXL target named (this host has no
# memory-only node): local DRAM only, so the target is the local node
# 5 ops with rand and load with chase, and movdir64b where the CPU has it
cxl_points=6
grep -qw movdir64b /proc/cpuinfo && cxl_points=7
one repro-cxl-latency cxl-latency $cxl_points -n 300 dram:0 -- --engine user \
	--region 16M
grep -qE '^load +chase +[0-9.]+ +1\.00x pg +4K' "$tmp/out"
report $? "repro-cxl-latency: the table gives load chase against local DRAM (1.00x) and its page size"
if ! ls -d /sys/devices/system/node/node* | while read -r d; do
	[ -z "$(tr -d '\n' <"$d/cpulist")" ] && exit 1; :; done; then
	skip "repro-cxl-latency without a target: this host has a memory-only node"
else
	"$top/tools/repro-cxl-latency" -o "$tmp/none" --no-plot >"$tmp/out" 2>"$tmp/err"
	[ $? -eq 1 ] && grep -q "no NUMA node with memory and no CPU here: name the CXL memory" "$tmp/err"
	report $? "repro-cxl-latency without a target and no memory-only node: exit 1, saying so"
fi

# The scripts of many threads, with the user engine's pinned threads:
# every point done, and the figures as physics wants them
# bwcsv CSV: "POINTS DONE ZERO" (ZERO: done points without bytes moved)
bwcsv()
{
	python3 - "$1" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
done = [r for r in rows if r["state"] == "done"]
zero = sum(float(r["total_gbps"]) <= 0 for r in done)
print(len(rows), len(done), zero)
PY
}
if [ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ]; then
	skip "the scripts of many threads: one CPU online here"
else
	"$top/tools/repro-bandwidth-threads" -t 1,2 -d 20ms -s 256 \
		-o "$tmp/bwt" --no-plot -- --engine user --region 16M \
		>"$tmp/out" 2>"$tmp/err"
	report $? "repro-bandwidth-threads -t 1,2 --engine user: exit 0"
	read -r n d z < <(bwcsv "$tmp/bwt/bandwidth-threads.csv" 2>/dev/null)
	[ "${n:-0}" -eq 12 ] && [ "${d:-0}" -eq 12 ] && [ "${z:-1}" -eq 0 ]
	report $? "repro-bandwidth-threads: 12 points, all done, each moved bytes (rows ${n:-none}, done ${d:-none}, none moved ${z:-?})"
	"$top/tools/repro-bandwidth-mix" -M 1:0,1:1 -t 2 -d 20ms \
		-o "$tmp/bwm" -- --engine user --region 16M \
		>"$tmp/out" 2>"$tmp/err"
	report $? "repro-bandwidth-mix -M 1:0,1:1 --engine user: exit 0"
	python3 - "$tmp/bwm/bandwidth-mix.csv" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["state"] == "done"]
# 1:1 writes as many bytes as it reads (within an access a thread); 1:0 none
mix = lambda r: r["mix_read"] + ":" + r["mix_write"]
ok = len(rows) == 4 and all(
    (mix(r) == "1:0" and int(r["bytes_written"]) == 0) or
    (mix(r) == "1:1" and abs(int(r["bytes_read"]) - int(r["bytes_written"]))
     <= 2 * int(r["size"])) for r in rows)
print("# %r" % [(mix(r), r["bytes_read"], r["bytes_written"]) for r in rows])
sys.exit(0 if ok else 1)
PY
	report $? "repro-bandwidth-mix: 1:0 writes nothing, 1:1 as much as it reads"
	"$top/tools/repro-loaded-latency" -n 1000 -t 2 -D 0,12800 \
		-o "$tmp/ll" --no-plot -- --engine user --region 16M \
		>"$tmp/out" 2>"$tmp/err"
	report $? "repro-loaded-latency -t 2 --engine user: exit 0"
	python3 - "$tmp/ll/loaded-latency.csv" <<'PY'
import csv, sys
rows = {r["delay"]: r for r in csv.DictReader(open(sys.argv[1]))
        if r["state"] == "done"}
# a delay of 12800 cycles after every access leaves less traffic than
# none: bytes over the run's time, not total_gbps's three decimals (on a
# loaded host the delayed traffic once read 0.000 GB/s there, the thread
# given almost no time in a run of 1000 samples)
rate = lambda r: (int(r["bytes_read"]) + int(r["bytes_written"])) / \
    max(int(r["duration_ns"]), 1)
ok = set(rows) == {"0", "12800"} and \
    rate(rows["0"]) > rate(rows["12800"]) >= 0 and \
    all(float(r["ns_p50"]) > 5 for r in rows.values())
print("# %r" % {k: (rate(r), r["ns_p50"]) for k, r in rows.items()})
sys.exit(0 if ok else 1)
PY
	report $? "repro-loaded-latency: traffic falls as the delay grows; the chase times real loads"
	# a family of 2 ratios x 2 delays, short: its idle run and 4 points
	"$top/tools/repro-curves" -n 1000 -t 2 -M 1:0,1:1 -D 0,12800 \
		-o "$tmp/rc" --no-plot -- --engine user --region 16M \
		>"$tmp/out" 2>"$tmp/err"
	report $? "repro-curves -t 2 -M 1:0,1:1 -D 0,12800 --engine user: exit 0"
	python3 - "$tmp/rc/curves.csv" "$tmp/out" <<'PY'
import csv, re, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["state"] == "done"]
out = open(sys.argv[2]).read()
why = []
pts = {(r["mix_read"] + ":" + r["mix_write"], r["delay"]): r for r in rows}
if len(rows) != 4 or set(pts) != {("1:0", "0"), ("1:0", "12800"),
                                  ("1:1", "0"), ("1:1", "12800")}:
    why.append("points %r" % sorted(pts))
# one idle run for the group: the same idle p50 in every row
idle = {r["idle_ns_p50"] for r in rows}
if len(idle) != 1 or not all(float(v) > 5 for v in idle):
    why.append("idle p50 %r" % idle)
# Mess's columns: the configured load share and the delay
for (mix, delay), r in pts.items():
    if r["rd_percentage"] != {"1:0": "100", "1:1": "50"}[mix] or \
            r["pause"] != delay or r["mode"] != "loaded":
        why.append("%s %s: rd_percentage %s, pause %s" %
                   (mix, delay, r["rd_percentage"], r["pause"]))
# the delay holds the traffic back: after 12800 cycles a streaming thread
# makes at most one 64 B access, so no more than that bound (bytes over
# the run's time), while without a delay it makes more.  A bound, not a
# comparison of the two runs: on a busy host the undelayed traffic once
# lost its CPU for 46 ms of a 50 ms run and moved less than the delayed.
rate = lambda r: (int(r["bytes_read"]) + int(r["bytes_written"])) / \
    max(int(r["duration_ns"]), 1)
for mix in ("1:0", "1:1"):
    r0, r1 = pts[(mix, "0")], pts[(mix, "12800")]
    bound = (int(r1["threads"]) - 1) * 64 * int(r1["tsc_khz"]) * 1e3 / \
        12800 / 1e9 * 1.05
    if not rate(r1) <= bound < rate(r0):
        why.append("%s: traffic %.4f GB/s at delay 12800, %.4f at 0; a thread's bound at 12800 %.4f"
                   % (mix, rate(r1), rate(r0), bound))
# the table: a line per point, its ratio, delay, p50 and idle p50
for (mix, delay), r in pts.items():
    ratio = {"1:0": "100% reads", "1:1": "50% reads"}[mix]
    want = r"^dram +the target +%s +2 +%s +[0-9.]+ GB/s +%.1f ns +\S+ ns +%.1f ns$" % (
        re.escape(ratio), delay, float(r["ns_p50"]), float(r["idle_ns_p50"]))
    if not re.search(want, out, re.M):
        why.append("no table line %r" % want)
if "curves: not plotting (--no-plot): " not in out:
    why.append("no --no-plot line")
if why:
    print("#  " + "\n#  ".join(why[:6]))
    sys.exit(1)
PY
	report $? "repro-curves: 2 ratios x 2 delays done, one idle p50 in every row, Mess's columns, the traffic within a delay's bound at 12800 and beyond it at 0, the table"
	# the traffic on another region (here of the same node): the table
	# names it, as the CSV does
	"$top/tools/repro-curves" -n 1000 -t 2 -M 1:0 -D 12800 \
		-o "$tmp/rt" --no-plot -- --engine user --region 16M \
		--traffic-target dram:0 >"$tmp/out" 2>"$tmp/err" &&
		python3 - "$tmp/rt/curves.csv" "$tmp/out" <<'PY'
import csv, re, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["state"] == "done"]
out = open(sys.argv[2]).read()
ok = len(rows) == 1 and rows[0]["traffic_target"] == "dram:0" and \
    re.search(r"^dram +dram:0 +100% reads +2 +12800 ", out, re.M)
if not ok:
    print("# rows %r" % [r.get("traffic_target") for r in rows])
    print("#  " + "\n#  ".join(out.splitlines()[:4]))
sys.exit(0 if ok else 1)
PY
	report $? "repro-curves -- --traffic-target dram:0: the point done, the CSV's traffic_target and the table's 'traffic on' column name it"
fi

# the user engine's JSON names the timer it used
"$ctl" run --engine user --samples 1000 --region 16M --json - 2>"$tmp/err" |
	python3 -c 'import json, sys; sys.exit(json.load(sys.stdin)["result"]["timer"]["name"] != "rdtsc")'
report $? "with rdtscp hidden, a run reports the timer rdtsc"

finish
