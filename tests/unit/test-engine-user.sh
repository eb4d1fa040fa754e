#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-engine-user.sh - lattester-ctl run --engine user, for real on this
# host: no module, no root.
#  - every op x pattern (seq, rand, stride:4096, hotspot:65536, chase) on
#    dram with --samples 2000 --region 16M: exit 0, and a well-formed JSON
#    (samples as asked, min <= p50 <= ... <= max, the overhead recorded,
#    provenance engine "user", state done, timed_cycles the sum of the raw
#    samples, the sampling phase within wall_ns); chase also with --chain 8;
#  - the same seed gives the kernel engine's address sequence: with every
#    sample an outlier (--threshold 1), the recorded offsets are those of
#    include/lattester/pattern.h, built here into a small program (for
#    chase: the module's Sattolo cycle, walked from slot 0);
#  - --threshold: outlier records, and their count matches the summary;
#  - the table, --hist and --outliers work; an op the CPU lacks (if any)
#    is refused by name; without the module and without --engine, the
#    error names both ways forward; the nmi line and field say the user
#    engine can't see NMIs; percentiles too few samples support are "-";
#  - --hist FILE.hgrm: HdrHistogram's percentile distribution of a real
#    run, read back and checked against its JSON (check-hgrm.py);
#  - a file target on this host's filesystem (no DAX): refused with a
#    clear message (MAP_SYNC not granted), stores too, with or without
#    --force (the real reason first, no "add --force"), named without a
#    '/' too; a region beyond the file's end, a file too small (its path
#    said once) and --hugepages are refused; the file is unchanged.
#    (Device-DAX and DAX files for real: tests/vm/cases-pmem.)
#
#   make -C user && bash tests/unit/test-engine-user.sh
#
# TAP-like lines, then "engine-user: N passed, N failed[, N skipped]".

set -u

TAP_NAME=engine-user
CTL_TEST_PYTHON=1
. "$(dirname "$0")/ctl-test.sh"
export LATTESTER_DEV=/nonexistent

# check JSON SAMPLES [CHAIN]: the JSON document is well formed
check()
{
	python3 - "$@" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
samples = int(sys.argv[2])
chain = int(sys.argv[3]) if len(sys.argv) > 3 else None
res, lat, cfg = d["result"], d["latency"], d["config"]
why = []
if d["provenance"]["engine"] != "user":
    why.append("engine %r" % d["provenance"]["engine"])
if res["state"] != "done":
    why.append("state %r" % res["state"])
if res["samples"] != samples or cfg["samples"] != samples:
    why.append("samples %r of %r" % (res["samples"], samples))
oh = res["overhead_cycles"]
if not (0 < oh["min"] <= oh["median"] <= oh["max"]):
    why.append("overhead %r" % oh)
if res["windows"] < 1 or res["nmi_windows"] != 0:
    why.append("windows %r/%r" % (res["windows"], res["nmi_windows"]))
tc = res["timed_cycles"]
if abs(tc["raw"] - lat["raw_cycles"]["mean"] * samples) > 0.05 * samples + 1 \
        or not tc["corrected"] <= tc["raw"]:
    why.append("timed_cycles %r, raw mean %r" % (tc, lat["raw_cycles"]["mean"]))
if not 0 < res["duration_ns"] <= res["wall_ns"]:
    why.append("duration_ns %r, wall_ns %r" % (res["duration_ns"], res["wall_ns"]))
if chain is not None and cfg["chain"] != chain:
    why.append("chain %r" % cfg["chain"])
keys = ["min", "p50", "p90", "p99", "p99.9", "p99.99", "p99.999",
        "p99.9999", "max"]
for unit in ("cycles", "raw_cycles", "ns"):
    v = [lat[unit][k] for k in keys]
    if v != sorted(v):
        why.append("%s not ordered: %r" % (unit, v))
    if not (lat[unit]["min"] <= lat[unit]["mean"] <= lat[unit]["max"]):
        why.append("%s mean outside [min, max]" % unit)
if lat["raw_cycles"]["min"] <= 0:
    why.append("raw min %r" % lat["raw_cycles"]["min"])
if why:
    print("#  " + "; ".join(why))
    sys.exit(1)
EOF
}

# jget NAME EXPR: a Python expression over the document d of $tmp/NAME.json
jget()
{
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' \
		"$tmp/$1.json" "$2" 2>/dev/null
}

# runjson NAME ARGS...: run --engine user with ARGS into $tmp/NAME.json
runjson()
{
	local name=$1

	shift
	"$ctl" run --engine user --quiet --json "$tmp/$name.json" "$@" \
		>"$tmp/out" 2>"$tmp/err"
}

ops="load nt-load store store-clwb store-clflushopt store-clflush nt-store movdir64b"
flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null)
lacks()	# op: the CPU flag it needs is missing
{
	case $1 in
	nt-load) f=sse4_1 ;;
	store-clwb) f=clwb ;;
	store-clflushopt) f=clflushopt ;;
	movdir64b) f=movdir64b ;;
	*) return 1 ;;
	esac
	! grep -qw "$f" <<<"$flags"
}

# ---- every op x pattern ----
missing=
for op in $ops; do
	if lacks "$op"; then
		missing=$op
		skip "--op $op: the CPU lacks its instruction"
		continue
	fi
	for pat in seq rand stride:4096 hotspot:65536 chase; do
		name=$op-${pat%%:*}
		if [ "$pat" = chase ] && [ "$op" != load ]; then
			# chase is dependent loads whatever the op: once is enough
			continue
		fi
		runjson "$name" --op "$op" --pattern "$pat" --samples 2000 \
			--region 16M
		rc=$?
		[ $rc -eq 0 ] || sed 's/^/#  /' "$tmp/err"
		report $rc "--op $op --pattern $pat runs"
		[ $rc -eq 0 ] && check "$tmp/$name.json" 2000
		[ $rc -eq 0 ] && report $? "--op $op --pattern $pat: JSON well formed"
	done
done
runjson chain8 --pattern chase --chain 8 --samples 2000 --region 16M
report $? "--pattern chase --chain 8 runs"
check "$tmp/chain8.json" 2000 8
report $? "--pattern chase --chain 8: JSON well formed, chain 8"
runjson warm --warm --samples 2000 --region 16M --size 256 --width 16
report $? "--warm --size 256 --width 16 runs"
check "$tmp/warm.json" 2000
report $? "--warm: JSON well formed"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d["config"]["width"] != 16 or d["config"]["size"] != 256)' "$tmp/warm.json"
report $? "--width 16 --size 256 recorded"
runjson huge --hugepages --samples 2000 --region 16M
report $? "--hugepages runs"

# ---- the table, --hist ----
"$ctl" run --engine user --quiet --samples 1000 --region 16M >"$tmp/out" 2>"$tmp/err"
report $? "the table"
grep -q "^p99 " "$tmp/out" && grep -q "user engine" "$tmp/out"
report $? "the table has percentiles and says the windows are bookkeeping"
"$ctl" run --engine user --quiet --samples 1000 --region 16M --hist "$tmp/h.dat" >/dev/null 2>&1 &&
	[ -s "$tmp/h.dat" ]
report $? "--hist writes a histogram"
"$ctl" run --engine user --quiet --samples 3k --region 16M >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && grep -q "^samples: *3000 of 3000$" "$tmp/out" &&
	grep -qE "^p99 +[0-9]+ +[0-9.]+ +[0-9]+ +\[[0-9.]+, [0-9.]+\]$" "$tmp/out" &&
	grep -qE "^p99.9 +- +- +-$" "$tmp/out" &&
	grep -qE "^p99.99 +- +- +-$" "$tmp/out" &&
	grep -q "^-: 3000 samples are too few for p99.9 (10000 needed) and p99.99 (100000)" "$tmp/out"
report $? "--samples 3k: p99 shown, p99.9 and p99.99 '-', why said"

# ---- --hist FILE.hgrm: HdrHistogram's percentile distribution ----
runjson hgrm --samples 20k --region 16M --hist "$tmp/run.hgrm"
report $? "--hist run.hgrm runs"
python3 "$top/tests/unit/check-hgrm.py" "$tmp/run.hgrm" "$tmp/hgrm.json"
report $? "run.hgrm read back: HdrHistogram's layout, percentiles as the JSON's"

# ---- --threshold: outlier records ----
runjson thr --samples 2000 --region 16M --threshold 100 \
	--outliers "$tmp/out.csv"
report $? "--threshold 100 --outliers runs"
python3 - "$tmp/thr.json" "$tmp/out.csv" <<'EOF'
import csv, json, sys
d = json.load(open(sys.argv[1]))
s, recs = d["outlier_summary"], d["outlier_records"]
rows = list(csv.DictReader(l for l in open(sys.argv[2]) if not l.startswith("#")))
ok = (s["count"] > 0 and s["recorded"] == len(recs) == len(rows) and
      s["count"] == s["recorded"] + s["dropped"] and
      d["result"]["outliers"] == s["count"] and
      all(r["cycles"] > 100 for r in recs))
if not ok:
    print("#  count %r recorded %r records %d rows %d" %
          (s["count"], s["recorded"], len(recs), len(rows)))
sys.exit(not ok)
EOF
report $? "--threshold: outlier records match the counts, all above it"
# no NMI window count (the module's), but each record's window's NMIs
# where the tracepoints count them (issue 26), else unknown
if [ "$(jget thr '"nmi" in d["outlier_summary"]["causes"]["looked_for"]')" = True ]; then
	nmis="{False}|{True}|{False, True}" cell='[01]'
else
	nmis="{None}" cell=''
fi
grep -q "^# outliers [0-9]* recorded [0-9]* dropped [0-9]* rate [0-9.]* nmi unavailable (user engine)$" "$tmp/out.csv" &&
	[ "$(jget thr 'd["outlier_summary"]["nmi"]')" = None ] &&
	grep -qxE "$nmis" <<<"$(jget thr '{r["nmi"] for r in d["outlier_records"]}')" &&
	! grep -E '^[0-9]+,' "$tmp/out.csv" | grep -qvE "^([^,]*,){7}$cell,[a-z: ]+$"
report $? "--threshold: no NMI window count in the CSV's header nor the summary; each record's nmi $nmis (its window's, where counted)"
"$ctl" run --engine user --quiet --samples 2000 --region 16M --threshold 100 \
	>"$tmp/out" 2>"$tmp/err"
grep -qE "^nmi: *(counted per window \(causes\)|unavailable \(user engine: see causes\))$" "$tmp/out"
report $? "--threshold: the table's nmi line: per window, or unavailable"
runjson thrmax --samples 2000 --region 16M --threshold 1 --max-outliers 10
python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); s = d["outlier_summary"]
sys.exit(not (len(d["outlier_records"]) == 10 and s["dropped"] == s["count"] - 10))' \
	"$tmp/thrmax.json"
report $? "--max-outliers 10: 10 records, the rest counted as dropped"
runjson thrx --samples 2000 --region 16M --threshold 3x
report $? "--threshold 3x (a calibration pass first) runs"

# ---- same seed, same addresses as the module ----
cat >"$tmp/offsets.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <lattester/pattern.h>
int main(int argc, char **argv)
{
	struct latt_pattern p;
	unsigned long n = strtoul(argv[5], NULL, 0), i;

	unsigned long long *next, s, t;

	if (latt_pattern_init(&p, strtoul(argv[1], NULL, 0),
			      strtoull(argv[2], NULL, 0),
			      strtoull(argv[3], NULL, 0), 16ULL << 20,
			      strtoull(argv[4], NULL, 0)))
		return 1;
	if (p.kind != LATT_PAT_CHASE) {
		for (i = 0; i < n; i++)
			printf("%llu\n",
			       (unsigned long long)latt_pattern_next(&p));
		return 0;
	}
	/* kmod/dram.c latt_chase_build(): Sattolo over the slots */
	next = malloc(p.nslots * sizeof(*next));
	if (!next)
		return 1;
	for (s = 0; s < p.nslots; s++)
		next[s] = s;
	for (s = p.nslots - 1; s > 0; s--) {
		unsigned long long j = latt_prng_below(&p.prng, s);

		t = next[s];
		next[s] = next[j];
		next[j] = t;
	}
	for (i = 0, s = 0; i < n; i++, s = next[s])
		printf("%llu\n", (unsigned long long)latt_slot_offset(s, p.size));
	free(next);
	return 0;
}
EOF
if gcc -std=c11 -O2 -Wall -Werror -I"$top/include" -o "$tmp/offsets" \
	"$tmp/offsets.c"; then
	# kind: LATT_PAT_SEQ 1, RAND 2, STRIDE 3, CHASE 4, HOTSPOT 5
	for spec in "rand 2 0" "seq 1 0" "stride:4096 3 4096" \
		    "hotspot:65536 5 65536" "chase 4 0"; do
		set -- $spec
		runjson seed --pattern "$1" --samples 500 --region 16M \
			--size 128 --seed 0x5eed --threshold 1 --max-outliers 500
		"$tmp/offsets" "$2" 128 "$3" 0x5eed 500 >"$tmp/want"
		python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["outlier_records"]:
    print(r["sample"], r["offset"])' "$tmp/seed.json" >"$tmp/got"
		# every recorded sample is at the generator's offset, and
		# (nearly) every sample was recorded
		awk 'NR == FNR { want[NR - 1] = $1; next }
		     { n++; if (want[$1] != $2) bad++ }
		     END { exit !(n >= 450 && !bad) }' "$tmp/want" "$tmp/got"
		report $? "--pattern $1 --seed 0x5eed: the generator's offsets"
	done
else
	report 1 "the pattern.h offsets program builds"
fi

# ---- errors ----
if [ -n "$missing" ]; then
	"$ctl" run --engine user --op "$missing" --samples 10 --region 16M \
		>/dev/null 2>"$tmp/err"
	[ $? -eq 1 ] && grep -q "needs the .* instruction, which this CPU lacks" "$tmp/err"
	report $? "--op $missing: refused, the instruction named"
else
	skip "the CPU has every op's instruction"
fi
"$ctl" run --engine user --target /dev/dax99.0 --samples 10 >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "/dev/dax99.0: No such file or directory" "$tmp/err"
report $? "--engine user on a device-DAX device that isn't there: refused"

# ---- a file not on a DAX filesystem ----
head -c 4194304 /dev/urandom >"$tmp/file"
sum0=$(sha256sum <"$tmp/file")
# refused STATUS REGEX ARGS...: run --engine user ARGS exits STATUS saying REGEX
refused()
{
	local want=$1 re=$2 got

	shift 2
	"$ctl" run --engine user --samples 10 "$@" >/dev/null 2>"$tmp/err"
	got=$?
	[ $got -eq "$want" ] && grep -qE -- "$re" "$tmp/err"
	report $? "$* -> $want: /$re/"
	[ $got -eq "$want" ] || sed 's/^/#  /' "$tmp/err"
}
refused 1 "$tmp/file: not a DAX file: mmap with MAP_SYNC refused .*page cache" \
	--target "$tmp/file"
refused 1 "$tmp/file: not a DAX file" --target "$tmp/file" --op store --force
# the real reason first: not "add --force", then refused again with it
for w in "--op store" "--op store-clwb" "--pattern chase"; do
	refused 1 "^lattester-ctl run: $tmp/file: not a DAX file: mmap with MAP_SYNC refused" \
		--target "$tmp/file" $w
	! grep -q -- "--force" "$tmp/err"
	report $? "$w on a file that isn't DAX: no '--force' asked for"
done
# a file named without a '/' is a path too (--help says a path is taken)
(cd "$tmp" && "$ctl" run --engine user --samples 10 --target file) \
	>/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "^lattester-ctl run: file: not a DAX file" "$tmp/err"
report $? "--target file (no '/', in the current folder): taken as a path"
(cd "$tmp" && "$ctl" run --engine user --samples 10 --target nosuchfile) \
	>/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "^lattester-ctl run: --target: 'nosuchfile': not dram\[:NODE\] or namespaceX.Y, and no file or device of that name exists" "$tmp/err"
report $? "--target nosuchfile: a usage error that says no such file"
head -c 100 /dev/urandom >"$tmp/tiny"
head -c 40 /dev/urandom >"$tmp/tinier"
refused 1 "^lattester-ctl run: $tmp/tiny: the file has only 100 B, less than a page \(4 KiB\), the default --region's unit; give --region, at least --size 64 B$" \
	--target "$tmp/tiny"
[ "$(grep -o "$tmp/tiny" "$tmp/err" | wc -l)" -eq 1 ]
report $? "a file too small: its path said once"
refused 1 "^lattester-ctl run: $tmp/tinier: the file has only 40 B, less than one access of --size 64 B$" \
	--target "$tmp/tinier"
refused 1 "--region 8 MiB exceeds the 4 MiB of $tmp/file" --target "$tmp/file" \
	--region 8M
refused 1 "--offset 4 MiB is beyond the 4 MiB of $tmp/file" \
	--target "$tmp/file" --offset 4M
refused 2 "--hugepages is for dram targets" --target "$tmp/file" --hugepages
refused 1 "not a pmem or device-DAX device \(a directory" --target "$tmp"
"$ctl" run --engine kernel --target "$tmp/file" --samples 10 >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "a regular file.*--engine user" "$tmp/err"
report $? "--engine kernel on a file: refused, --engine user named"
[ "$(sha256sum <"$tmp/file")" = "$sum0" ]
report $? "the file is unchanged by the refused runs"
"$ctl" run --samples 10 --region 16M >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "insmod" "$tmp/err" && grep -q -- "--engine user" "$tmp/err"
report $? "no module, no --engine: insmod and --engine user both named"
"$ctl" run --engine kernel --samples 10 --region 16M >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "insmod" "$tmp/err" && ! grep -q -- "--engine user" "$tmp/err"
report $? "--engine kernel without the module: the insmod hint only"
"$ctl" run --engine bogus >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- "--engine" "$tmp/err"
report $? "--engine bogus: a usage error"
"$ctl" run --hugepages --samples 10 >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- "--engine user" "$tmp/err"
report $? "--hugepages without --engine user: a usage error"
"$ctl" run --engine user --pattern chase --width 16 --samples 10 --region 16M \
	>/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && grep -q -- "chase loads 8-byte pointers: --width must be 8" "$tmp/err"
report $? "chase with --width 16: refused"

# ---- ABI 1.3: the timer, its fallback, the fields, the rule book ----

runjson t13 --samples 2000 --region 16M
[ $? -eq 0 ] && [ "$(jget t13 'd["result"]["timer"]["name"]')" = \
	"$(grep -qw rdtscp <<<"$flags" && echo rdtscp || echo rdtsc)" ]
report $? "timer: rdtscp where /proc/cpuinfo shows it, else rdtsc"
[ "$(jget t13 'int(d["result"]["timer"]["step_cycles"] > 0 and
	d["result"]["overhead_cycles"]["end_median"] > 0 and
	d["result"]["backwards"] == 0 and
	d["result"]["page_size"]["bytes"] in (4096, 2 << 20) and
	isinstance(d["warnings"], list))')" = 1 ]
report $? "JSON: timer step, overhead after the samples, no backwards" \
	"samples, a page size, a warnings list"
# the 95% intervals: every percentile the samples support and the mean
# have one, holding its figure, in cycles and ns; min and max none
python3 - "$tmp/t13.json" <<'PY'
import sys, json
d = json.load(open(sys.argv[1]))
lat = d["latency"]
iv = lat["intervals"]
assert iv["level"] == 0.95 and iv["quantum_cycles"] >= 1, iv
for unit in ("cycles", "ns"):
    for k, v in lat[unit].items():
        ab = iv[unit][k]
        if k in ("min", "max") or k in lat["unsupported"]:
            assert ab is None, (unit, k, ab)
        else:
            assert ab[0] <= v <= ab[1] and ab[0] < ab[1], (unit, k, ab, v)
PY
report $? "JSON: latency.intervals hold each figure (cycles and ns), none for min, max and unsupported percentiles"
# the core clock around the run: two ratios, their mean, the figures in
# core cycles that mean times the cycles; APERF/MPERF or why not
python3 - "$tmp/t13.json" <<'PY'
import sys, json
d = json.load(open(sys.argv[1]))
c = d["result"]["core_clock"]
k = c["ratio"]
assert c["method"] == "dependent adds" and c["before"] > 0 and c["after"] > 0, c
assert abs(k - (c["before"] + c["after"]) / 2) < 1e-3, c
assert abs(c["ghz"] - k * d["provenance"]["tsc_khz"] / 1e6) < 2e-3, c
assert (c["aperf_mperf"] is None) != (c["aperf_mperf_reason"] is None), c
cy, cc = d["latency"]["cycles"], d["latency"]["core_cycles"]
for s in cy:
    # both printed to 0.1 (the mean) and k to 10^-4
    assert abs(cc[s] - cy[s] * k) <= 0.2 + 1e-4 * cy[s], (s, cc[s], cy[s], k)
PY
report $? "JSON: result.core_clock (before, after, their mean, GHz; APERF/MPERF or why not) and latency.core_cycles = cycles x ratio"
"$ctl" run --engine user --cpu 0 --samples 2000 --region 16M 2>/dev/null |
	grep -q "^core: .* core cycles per TSC cycle .* (dependent adds on CPU 0); APERF/MPERF "
report $? "the table's core: line"
# lfence_serial: LFENCE shown to serialize, so lfence; rdtsc may time
lfs=0
"$ctl" info 2>/dev/null | grep -q "^  features:.* lfence_serial .*(--engine user)" && lfs=1
LATTESTER_HWCAPS=-rdtscp runjson hidden --op store-clwb --samples 2000 \
	--region 16M
rc=$?
if [ $lfs = 0 ]; then
	skip "store-clwb with rdtscp hidden: this CPU shows no serializing LFENCE, so lfence; rdtsc is refused (checked below)"
elif grep -qw clwb <<<"$flags"; then
	[ $rc -eq 0 ] && [ "$(jget hidden 'd["result"]["timer"]["name"]')" = rdtsc ] &&
		[ "$(jget hidden 'd["result"]["state"]')" = done ]
	report $? "CPUID without rdtscp (LATTESTER_HWCAPS=-rdtscp): store-clwb" \
		"runs, timed with lfence; rdtsc"
else
	skip "store-clwb with rdtscp hidden: the CPU has no clwb"
fi
# lfence; rdtsc only where LFENCE serializes (pick.h): refused without it,
# in the rule book's words
LATTESTER_HWCAPS=-rdtscp,-lfence_serial "$ctl" run --engine user --samples 10 \
	--region 16M >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && grep -q -- "^lattester-ctl run: dram:[0-9]*: the timer lfence; rdtsc, which this run would use (no rdtscp, or --timer rdtsc), reads the TSC after the access only where LFENCE waits for it: this CPU lacks a serializing lfence" "$tmp/err"
report $? "lfence; rdtsc where LFENCE is not shown to serialize: refused, said why"
LATTESTER_HWCAPS=-lfence_serial "$ctl" run --engine user --timer rdtsc --samples 10 \
	--region 16M >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && grep -q -- "lacks a serializing lfence" "$tmp/err"
report $? "--timer rdtsc where LFENCE is not shown to serialize: refused"
if [ $lfs = 1 ]; then
	runjson forced --timer rdtsc --samples 2000 --region 16M
	[ $? -eq 0 ] && [ "$(jget forced 'd["result"]["timer"]["name"]')" = rdtsc ]
	report $? "--timer rdtsc: timed with lfence; rdtsc"
	"$ctl" compare "$tmp/t13.json" "$tmp/forced.json" >"$tmp/out" 2>&1
	if [ "$(jget t13 'd["result"]["timer"]["name"]')" = rdtscp ]; then
		grep -q "^warning: the runs differ .*: timer (rdtscp, rdtsc)" "$tmp/out"
		report $? "compare: runs of two timers, said"
	else
		! grep -q "^warning: .*timer" "$tmp/out"
		report $? "compare: both runs timed with rdtsc (no rdtscp): no warning"
	fi
else
	skip "--timer rdtsc and compare of two timers: this CPU shows no serializing LFENCE (checked above: refused)"
fi
LATTESTER_HWCAPS=-rdtscp "$ctl" run --engine user --timer rdtscp --samples 10 \
	--region 16M >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && grep -q -- "--timer rdtscp: this CPU lacks rdtscp" "$tmp/err"
report $? "--timer rdtscp on a CPU without it: refused, named"
"$ctl" run --engine user --timer bogus >/dev/null 2>"$tmp/err"
[ $? -eq 2 ]
report $? "--timer bogus: a usage error"
# an L1 hit corrects to ~0 (a few cycles where the TSC ticks finely):
# said when within one timer quantum of zero, and no multiple of it is
# then a threshold; the quantum is the engine's (issue 25), the samples'
# spacing agrees with it
runjson l1 --warm --region 4K --samples 5000
l1=$(python3 - "$tmp/l1.json" <<'PY' 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
t = d["result"]["timer"]
q, s = t["quantum_cycles"], t["samples_quantum_cycles"]
p = d["latency"]["cycles"]["p50"]
w = any("within one timer quantum" in w for w in d["warnings"])
# the samples' spacing: none where they take fewer than three values
ok = (q is not None and q >= 1 and w == (p <= q) and
      t["quantum_source"] == "timer" and
      (s is None or (round(s / q) >= 1 and
                     abs(s / q - round(s / q)) <= 0.02 * s / q)))
print(int(ok), int(p <= q), q, p)
PY
)
[ "${l1%% *}" = 1 ]
report $? "an L1 hit: a warning exactly when its p50 is within one timer quantum of zero; the samples' spacing, if any, a multiple of the quantum (ok, within, quantum, p50: $l1)"
# (the threshold's own calibration pass: its median, not l1's)
runjson thr --warm --region 4K --samples 5000 --threshold 10x
rc=$?
if [ $rc -eq 1 ]; then
	m=$(sed -n 's/.*the median (\([0-9]*\) cycles, corrected) is within one timer quantum (\([0-9.]*\) cycles) of zero.*/\1 \2/p' "$tmp/err")
	[ -n "$m" ] && awk -v m="${m% *}" -v q="${m#* }" 'BEGIN { exit !(m <= q) }'
	report $? "--threshold 10x of a median within one timer quantum: refused ($m)"
else
	thr=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
print(d["outlier_summary"]["threshold"]["median_cycles"], d["result"]["timer"]["quantum_cycles"])' "$tmp/thr.json" 2>&1)
	[ $rc -eq 0 ] && awk -v m="${thr% *}" -v q="${thr#* }" 'BEGIN { exit !(m > q) }'
	report $? "--threshold 10x of a median above one timer quantum: taken ($thr)"
fi
# the rule book: what the module refuses, the user engine refuses alike,
# as a usage error (a sweep skips such points)
for bad in "--op store" "--warm" "--fence mfence"; do
	"$ctl" run --engine user --pattern chase $bad --samples 10 --region 1M \
		>/dev/null 2>"$tmp/err"
	[ $? -eq 2 ] && grep -q -- "--pattern chase" "$tmp/err"
	report $? "chase with $bad: refused by the rule book"
done
"$ctl" sweep --engine user --pattern rand,chase --op load,store --samples 10 \
	--region 1M --dry-run >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && [ "$(grep -c '^[0-9]* skip .*pattern=chase.*# --pattern chase times dependent loads' "$tmp/out")" = 1 ] &&
	[ "$(grep -c '^[0-9]* run ' "$tmp/out")" = 3 ]
report $? "sweep: the chase point with a store op skipped with the rule's words"

# ---- known bad blocks (the pmem ones in the VM: cases-pmem/75-*) ----

"$ctl" run --engine user --skip-badblocks --samples 10 --region 1M \
	>/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- "--skip-badblocks is for pmem and device-DAX targets, not dram" "$tmp/err"
report $? "--skip-badblocks on dram: a usage error"
# a file on no pmem namespace has no bad-block list: not DAX, refused for
# that, with --skip-badblocks as without, and not one word of bad blocks
refused 1 "^lattester-ctl run: $tmp/file: not a DAX file: mmap with MAP_SYNC refused" \
	--target "$tmp/file" --skip-badblocks
! grep -qi "bad block" "$tmp/err"
report $? "--skip-badblocks on a file that isn't DAX: no bad-block noise"
[ "$(sha256sum <"$tmp/file")" = "$sum0" ]
report $? "the file is unchanged"

# ---- the process's affinity is the default CPU (taskset) ----
# What a user relies on: "taskset -c N lattester-ctl ..." measures from
# CPU N, in every command, without --cpu.
last=$(python3 -c 'import os; print(max(os.sched_getaffinity(0)))')
if [ "$last" -gt 0 ] && command -v taskset >/dev/null; then
	taskset -c "$last" "$ctl" run --engine user --quiet --samples 1000 \
		--region 16M --json "$tmp/aff.json" >"$tmp/out" 2>"$tmp/err"
	[ $? -eq 0 ] && [ "$(jget aff 'd["config"]["cpu"]')" = "$last" ]
	report $? "taskset -c $last run: measured from CPU $last (config.cpu $(jget aff 'd["config"]["cpu"]'))"
	taskset -c "$last" "$ctl" sweep --engine user --samples 100 \
		--region 16M --dry-run --out "$tmp/aff.csv" >"$tmp/out" 2>"$tmp/err"
	grep -q ";cpu=$last;" "$tmp/out" && ! grep -q ";cpu=0;" "$tmp/out"
	report $? "taskset -c $last sweep: its points on CPU $last"
	taskset -c "$last" "$ctl" matrix --engine user --samples 1000 \
		--region 16M --json "$tmp/aff-m.json" >"$tmp/out" 2>"$tmp/err"
	[ $? -eq 0 ] && [ "$(jget aff-m '[r["cpu"] for r in d["rows"]]')" = "[$last]" ]
	report $? "taskset -c $last matrix: its row from CPU $last ($(jget aff-m 'd["rows"]'))"
	"$ctl" run --engine user --quiet --samples 1000 --region 16M \
		--json "$tmp/aff0.json" >"$tmp/out" 2>"$tmp/err"
	[ "$(jget aff0 'd["config"]["cpu"]')" = \
	  "$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')" ]
	report $? "run without taskset: the first CPU of the mask"
else
	skip "taskset: one CPU in this process's affinity, nothing to move to"
fi

# ---- run --repeat: every repeat, the median and range, a seed each ----
runjson rep --repeat 3 --samples 2000 --region 16M --seed 7
rc=$?
[ $rc -eq 0 ] && python3 - "$tmp/rep.json" >"$tmp/why" 2>&1 <<'EOF'
import json, statistics, sys
d = json.load(open(sys.argv[1]))
reps, summ = d["repeats"], d["repeat_summary"]
why = []
if len(reps) != 3 or [r["repeat"] for r in reps] != [1, 2, 3]:
    why.append("repeats %r" % [r.get("repeat") for r in reps])
seeds = [r["seed"] for r in reps]
if seeds[0] != 7 or len(set(seeds)) != 3:
    why.append("seeds %r: want 7, then two others" % seeds)
if reps[0]["latency"]["ns"]["p50"] != d["latency"]["ns"]["p50"]:
    why.append("the document is not repeat 1's")
for stat in ("min", "p50", "p99", "mean"):
    v = [r["latency"]["ns"][stat] for r in reps]
    s = summ["stats"][stat]
    if abs(s["median"] - statistics.median(v)) > 0.002 or \
            abs(s["min"] - min(v)) > 0.002 or abs(s["max"] - max(v)) > 0.002:
        why.append("%s: %r, repeats %r" % (stat, s, v))
if summ["stats"]["p99.99"] is not None:
    why.append("p99.99 of 2000 samples summarised")
if why:
    print("#  " + "; ".join(why))
    sys.exit(1)
EOF
report $? "run --repeat 3: every repeat, a seed each (--seed first), median, min and max of each statistic (exit $rc)"
[ $rc -eq 0 ] || cat "$tmp/why" "$tmp/err"
"$ctl" run --engine user --quiet --repeat 3 --samples 2000 --region 16M --seed 7 >"$tmp/rep.txt" 2>&1
p50=$(jget rep 'd["repeat_summary"]["stats"]["p50"]["median"]')
grep -qE "^p50 +[0-9.]+ " "$tmp/rep.txt" &&
	grep -q "over 3 repeats of 2000 samples" "$tmp/rep.txt" &&
	grep -qE "^p99.99 +- +- +- +-" "$tmp/rep.txt"
report $? "run --repeat 3: the table of the repeats (median $p50 ns here)"
# 4 KiB loads take far longer than 64 B ones: compare says so, beyond the
# spread of 5 repeats each
runjson rep64 --repeat 5 --samples 1000 --region 16M &&
	runjson rep4k --repeat 5 --samples 1000 --region 16M --size 4096 &&
	"$ctl" compare --stat p50 "$tmp/rep64.json" "$tmp/rep4k.json" >"$tmp/cmp" 2>&1 &&
	grep -qE "^p50 .* beyond$" "$tmp/cmp" && grep -q "1 point measured 5 times" "$tmp/cmp"
report $? "compare of two run --repeat 5 files: 4 KiB loads beyond the spread of 64 B ones"
refused 2 "--repeat: '0': " --repeat 0
refused 2 "--repeat: '1001': " --repeat 1001
refused 2 "^lattester-ctl run: --repeat: --hist writes one run's samples: give it to a run without --repeat" \
	--repeat 2 --hist "$tmp/h.dat"
refused 2 "^lattester-ctl run: --repeat compares latency figures: repeat a --mode bandwidth run with sweep --repeat" \
	--repeat 2 --mode bandwidth

# ---- a cause for each outlier (issue 26, methodology.md 8.1) ----
# the tracepoints need tracefs; mounted here where it is not (root)
if ! [ -r /sys/kernel/tracing/events/irq/irq_handler_entry/id ] &&
	[ "$(id -u)" = 0 ]; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
fi
runjson cz --region 64M --samples 100000 --threshold 10x \
	--outliers "$tmp/cz.csv"
rc=$?
python3 - "$tmp/cz.json" "$tmp/cz.csv" <<'EOF' >"$tmp/why" 2>&1
import csv, json, sys
d = json.load(open(sys.argv[1]))
c = d["outlier_summary"]["causes"]
names = {"smi", "steal", "nmi", "preempted", "irq:timer", "irq:device",
         "irq:ipi", "irq:resched", "irq:work", "softirq", "fault", "gap",
         "after", "unassigned", "none seen", "unknown"}
rec = d["outlier_records"]
why = []
if not rec:
    why.append("no record")
if any(r["cause"] not in names for r in rec):
    why.append("a cause not among the names")
by = c["by_cause"]
if sum(v["count"] for v in by.values()) != len(rec):
    why.append("the counts by cause add up to %d, not %d records" %
               (sum(v["count"] for v in by.values()), len(rec)))
for k, v in by.items():
    if v["count"] != sum(r["cause"] == k for r in rec):
        why.append("%s: %d counted, %d records" %
                   (k, v["count"], sum(r["cause"] == k for r in rec)))
if by and abs(sum(v["time_share"] for v in by.values()) - 1) > 1e-4:
    why.append("the time shares add up to %r" %
               sum(v["time_share"] for v in by.values()))
if not c["looked"] or "switches" not in c["looked_for"] or \
        "gaps" not in c["looked_for"]:
    why.append("looked for %r" % c["looked_for"])
rows = [r for r in csv.DictReader(l for l in open(sys.argv[2])
                                  if not l.startswith("#"))]
if [r["cause"] for r in rows] != [r["cause"] for r in rec]:
    why.append("the CSV's causes are not the JSON's")
# the tail without interference: no more samples than the run, no
# higher a p99.9 than the run's own
t = c["clean_tail"]
n = d["result"]["samples"]
if not (n - len(rec) <= t["samples"] <= n):
    why.append("clean tail of %r samples, the run %r" % (t["samples"], n))
if t["p99_9"]["ns"] > d["latency"]["ns"]["p99.9"] * 1.01 + 1:
    why.append("clean p99.9 %r above the run's %r" %
               (t["p99_9"]["ns"], d["latency"]["ns"]["p99.9"]))
print("; ".join(why) if why else "%d records: %s" % (len(rec), ", ".join(
    "%s %d" % (k, v["count"]) for k, v in by.items())))
sys.exit(1 if why else 0)
EOF
r=$?
[ $rc -eq 0 ] && [ $r -eq 0 ]
report $? "causes: every record one of the names, the counts and time shares adding up, the CSV's as the JSON's, a clean tail within the run's ($(cat "$tmp/why"))"
if grep -q '"interrupts"' "$tmp/cz.json"; then
	grep -q '"nmi"' "$tmp/cz.json"
	report $? "causes: the tracepoints counted (interrupts, NMIs)"
else
	skip "causes: interrupts not counted here ($(jget cz 'd["outlier_summary"]["causes"]["not_looked_for"]'))"
fi
runjson cz0 --region 64M --samples 20000 --threshold 1x --no-evidence
python3 - "$tmp/cz0.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["outlier_summary"]["causes"]
rec = d["outlier_records"]
sys.exit(not (rec and not c["looked"] and
              all(r["cause"] == "unknown" for r in rec)))
EOF
report $? "--no-evidence: nothing looked at, every record unknown"
"$ctl" run --engine kernel --no-evidence --threshold 10x >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] &&
	grep -q "^lattester-ctl run: --no-evidence is for --engine user" "$tmp/err"
report $? "--engine kernel --no-evidence: a usage error, said"

finish
