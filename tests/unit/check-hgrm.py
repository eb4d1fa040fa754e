#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# check-hgrm.py HGRM JSON - read back a `run --hist FILE.hgrm` file and
# check it against the same run's `--json` document: the layout of
# HdrHistogram's outputPercentileDistribution() (Java: a header
# "Value Percentile TotalCount 1/(1-Percentile)" and an empty line, rows
# "%12.3f %2.12f %10d %14.2f", the 100% row without the last column, the
# Mean/StdDeviation, Max/Total count, Buckets/SubBuckets footer), the
# reporting levels of its PercentileIterator (5 ticks per half distance),
# and the figures: p50 and p90 (reporting levels of their own) and the max
# equal the JSON's ns, every other percentile of the JSON lies between the
# rows around its rank, the mean and the count are the JSON's.
#
# Used by test-cli-usage.sh (the fake module: known figures) and
# test-engine-user.sh (a real run).  Prints "#  why" lines and exits 1 on a
# problem, 0 when the file agrees.
import json
import math
import re
import sys

TICKS = 5       # percentileTicksPerHalfDistance
EPS = 0.0015    # both files round ns to 3 decimals

why = []
lines = open(sys.argv[1]).read().split("\n")
doc = json.load(open(sys.argv[2]))
lat = doc["latency"]["ns"]
n = doc["result"]["samples"]

if lines[0] != "%12s %14s %10s %14s" % ("Value", "Percentile", "TotalCount",
                                        "1/(1-Percentile)"):
    why.append("header %r" % lines[0])
if lines[1] != "":
    why.append("no empty line after the header: %r" % lines[1])
rows = []
i = 2
row_re = re.compile(r"^ *(\d+\.\d{3}) (\d\.\d{12}) +(\d+)(?: +(\d+\.\d{2}))?$")
while i < len(lines) and not lines[i].startswith("#["):
    m = row_re.match(lines[i])
    if not m:
        why.append("row %d malformed: %r" % (i + 1, lines[i]))
        break
    v, p, c, inv = m.groups()
    rows.append((float(v), float(p), int(c), inv))
    if len("%12.3f" % float(v)) == 12 and not lines[i].startswith(
            "%12.3f %2.12f %10d" % (float(v), float(p), int(c))):
        why.append("row %d not in the Java layout: %r" % (i + 1, lines[i]))
    i += 1
foot = lines[i:i + 3]
fre = [r"^#\[Mean    = +(\d+\.\d{3}), StdDeviation   = +(\d+\.\d{3})\]$",
       r"^#\[Max     = +(\d+\.\d{3}), Total count    = +(\d+)\]$",
       r"^#\[Buckets = +(\d+), SubBuckets     = +(\d+)\]$"]
fm = [re.match(r, l) if l else None for r, l in zip(fre, foot)]
if len(foot) < 3 or not all(fm):
    why.append("footer %r" % foot)
if not rows:
    why.append("no rows")

if rows and not why:
    # the last row: 100%, the count, no 1/(1-Percentile)
    v, p, c, inv = rows[-1]
    if p != 1.0 or c != n or inv is not None:
        why.append("last row %r: want 1.0, %d samples, 3 columns" % (rows[-1], n))
    # the others: 1/(1-p), the reporting levels, all non-decreasing
    level = 0.0
    for k, (v, p, c, inv) in enumerate(rows[:-1]):
        if inv is None or abs(float(inv) - 1 / (1 - p)) > 0.006:
            why.append("row %d: 1/(1-Percentile) %r for %r" % (k, inv, p))
        if abs(p - level / 100) > 1e-12:
            why.append("row %d: percentile %r, want the level %r" % (k, p, level / 100))
            break
        # PercentileIterator.incrementIterationLevel()
        x, ticks = 100 / (100 - level), 2 * TICKS
        while x >= 2:
            x /= 2
            ticks *= 2
        level += 100 / ticks
    for a, b in zip(rows, rows[1:]):
        if b[0] < a[0] - 1e-9 or b[1] < a[1] or b[2] < a[2]:
            why.append("rows not ordered: %r then %r" % (a, b))
            break
    # the figures against the JSON
    at = {p: v for v, p, c, inv in rows}
    for key, q in (("p50", 0.5), ("p90", 0.9)):
        if q not in at or abs(at[q] - lat[key]) > EPS:
            why.append("%s: %r at %r, JSON %r" % (key, at.get(q), q, lat[key]))
    if abs(rows[-1][0] - lat["max"]) > EPS:
        why.append("max: %r, JSON %r" % (rows[-1][0], lat["max"]))
    for key, q in (("p99", 0.99), ("p99.9", 0.999), ("p99.99", 0.9999)):
        rank = max(1, math.ceil(q * n - 1e-9))
        after = next(k for k, r in enumerate(rows) if r[2] >= rank)
        lo = rows[after - 1][0] if after else rows[0][0]
        if not lo - EPS <= lat[key] <= rows[after][0] + EPS:
            why.append("%s %r not between the rows around rank %d: %r, %r"
                       % (key, lat[key], rank, lo, rows[after][0]))
    mean, _ = (float(x) for x in fm[0].groups())
    mx, count = float(fm[1].group(1)), int(fm[1].group(2))
    if abs(mean - lat["mean"]) > EPS or abs(mx - lat["max"]) > EPS or count != n:
        why.append("footer mean %r max %r count %r; JSON %r %r %r" %
                   (mean, mx, count, lat["mean"], lat["max"], n))
    if fm[2].groups() != ("33", "256"):
        why.append("buckets %r" % (fm[2].groups(),))
    if not any(l.startswith("# Value: ns per ") and "scaling ratio" in l
               for l in lines[i + 3:]):
        why.append("no line stating the unit and the scaling ratio")

for w in why:
    print("#  " + w)
sys.exit(1 if why else 0)
