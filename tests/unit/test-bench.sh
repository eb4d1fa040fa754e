#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-bench.sh - make bench's driver (tools/bench/bench.py) still works,
# so that it can't rot between the times someone benchmarks: tiny sizes,
# one repetition, no timing asserted.
#  - the tsc-step helper builds through the Makefile and prints its keys;
#  - bench.py with the user engine: exit 0, the table on stdout, a JSON
#    document with the machine, the settings and every benchmark (timer,
#    efficiency, agreement, memory, table, evidence: its share, ratio,
#    explained share and targets), each figure a median/min/max
#    over the repetitions; the module's memory skipped with a reason; the
#    basic table as a sweep and as a sweep --no-reuse, their ratio, rows
#    alike in keys, fields and counts, every point but the first reusing
#    its region (user engine), none with --no-reuse; bandwidth: at every
#    point of rand, seq x 64, 256, 4096, 65536 B and of --mix 1:1 and 2:1
#    at 64 B the engine's GB/s, the reference loop's (stream-ref, which
#    reads, or reads and writes, for the time asked, seq or rand) and
#    their ratio, each above zero, a verdict each and overall;
#  - the kernel engine without a device: skipped with the reason; with the
#    stand-in for the module (test-cli-fake.so): every benchmark, and the
#    module's memory measured;
#  - BENCH_OUT and BENCH_REPS from the environment; a lattester-ctl that
#    fails makes bench.py fail, with the error in the JSON; a bad option is
#    a usage error.
#
#   make -C user && bash tests/unit/test-bench.sh
#
# TAP-like lines, then "bench: N passed, N failed[, N skipped]".

set -u

TAP_NAME=bench
CTL_TEST_PYTHON=1
. "$(dirname "$0")/ctl-test.sh"
bench=$top/tools/bench/bench.py
unset BENCH_OUT BENCH_REPS BENCH_ENGINES LATTESTER_CTL

# the smallest run of every benchmark
tiny=(--ctl "$ctl" --reps 1 --region 16M --samples 2000 --chain 4
      --mem-samples 1000,5000 --mem-region 16M --table-samples 200
      --table-region 16M --bw-duration 20
      --stream-ref "$top/build/bench/stream-ref")

make -s -C "$top" build/bench/tsc-step build/bench/stream-ref \
	>/dev/null 2>"$tmp/err"
report $? "make builds the helpers (build/bench/tsc-step, stream-ref)"
"$top/build/bench/stream-ref" 0 $((4 << 20)) 4096 20 read >"$tmp/ref" \
	2>"$tmp/err" &&
	awk '$1 == "bytes" { b = $2 } $1 == "ns" { n = $2 } $1 == "gbps" { g = $2 }
	     END { exit !(b >= 4096 && n >= 20000000 && g > 0 &&
			  (g - b / n) ^ 2 < 0.001) }' "$tmp/ref"
report $? "stream-ref reads for the time asked, its GB/s its bytes over its ns"
"$top/build/bench/stream-ref" 0 $((4 << 20)) 64 20 read rand >"$tmp/ref" \
	2>"$tmp/err" &&
	awk '$1 == "bytes" { b = $2 } $1 == "ns" { n = $2 } $1 == "gbps" { g = $2 }
	     END { exit !(b >= 64 && n >= 20000000 && g > 0) }' "$tmp/ref"
report $? "stream-ref ... read rand: random blocks for the time asked"
"$top/build/bench/stream-ref" 0 $((4 << 20)) 64 20 mix:2:1 rand >"$tmp/ref" \
	2>"$tmp/err" &&
	awk '$1 == "bytes" { b = $2 } $1 == "ns" { n = $2 } $1 == "gbps" { g = $2 }
	     END { exit !(b >= 64 && n >= 20000000 && g > 0) }' "$tmp/ref"
report $? "stream-ref ... mix:2:1 rand: reads and writes for the time asked"
for m in mix:1:0 mix:0:0 mix:600:500 mix:1; do
	"$top/build/bench/stream-ref" 0 $((4 << 20)) 64 20 $m >/dev/null 2>&1
	[ $? -eq 2 ] || break
done
report $? "stream-ref: a mix without a write, of over 1000, or without W is a usage error ($m)"
"$top/build/bench/stream-ref" 0 $((4 << 20)) 64 20 read bogus >/dev/null 2>&1
[ $? -eq 2 ]
report $? "stream-ref: a pattern neither seq nor rand is a usage error"
"$top/build/bench/stream-ref" 0 4096 4096 20 copy >/dev/null 2>&1
[ $? -eq 2 ]
report $? "stream-ref: a region too small to copy within is a usage error"
step=$top/build/bench/tsc-step
"$step" 1000 >"$tmp/step" 2>"$tmp/err" &&
	(for k in reads rdtsc_min rdtsc_step rdtsc_zero rdtsc_median rdtscp_min \
		  rdtscp_step rdtscp_zero rdtscp_median; do
		grep -q "^$k [0-9]*$" "$tmp/step" || exit 1
	done)
report $? "tsc-step prints every key"

# check JSON ENGINE WANT: the document is well formed; WANT "all" (every
# benchmark), "module" (every benchmark and the module's memory measured),
# "skipped" (the engine skipped with a reason) or "error" (every benchmark
# has its error)
check()
{
	python3 - "$@" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
engine, want = sys.argv[2], sys.argv[3]
names = ["timer", "efficiency", "agreement", "memory", "bandwidth", "table",
         "evidence"]
why = []
if d.get("schema") != "lattester-bench/1":
    why.append("schema %r" % d.get("schema"))
reps = d["settings"]["reps"]
e = d["engines"][engine]

def figures(where, figs):
    if not figs:
        why.append("%s: no figures" % where)
    for k, f in figs.items():
        if set(f) != {"median", "min", "max", "unit", "reps"}:
            why.append("%s.%s: keys %r" % (where, k, sorted(f)))
        elif f["median"] is not None and not f["min"] <= f["median"] <= f["max"]:
            why.append("%s.%s: median outside [min, max]" % (where, k))

if want == "skipped":
    if not e.get("skipped"):
        why.append("not skipped: %r" % sorted(e))
elif want == "error":
    for b in names:
        if not e["benchmarks"][b].get("error"):
            why.append("%s: no error" % b)
else:
    m = e["machine"]
    for k in ("cpu_model", "kernel", "cores", "tsc_khz"):
        if not m.get(k):
            why.append("machine.%s missing" % k)
    if sorted(e["benchmarks"]) != sorted(names):
        why.append("benchmarks %r" % sorted(e["benchmarks"]))
    for b in names:
        x = e["benchmarks"].get(b, {"error": "missing"})
        if "error" in x:
            why.append("%s: %s" % (b, x["error"]))
            continue
        if b == "evidence" and engine != "user":
            if not x.get("skipped"):
                why.append("evidence: the kernel engine's not skipped")
            continue
        if b == "agreement":
            for pages in ("4k", "huge") if engine == "user" else ("4k",):
                figures("agreement." + pages, x[pages]["figures"])
        elif b == "bandwidth":
            for k, p in x.get("points", {}).items():
                figures("bandwidth." + k, p.get("figures"))
        else:
            figures(b, x.get("figures"))
        for f in list(x.get("figures", {}).values()) + [
                f for p in x.get("points", {}).values()
                for f in p.get("figures", {}).values()]:
            if b != "table" and len(f["reps"]) != reps:
                why.append("%s: %d reps of %d" % (b, len(f["reps"]), reps))
    t = e["benchmarks"].get("table", {})
    if "error" not in t:
        f = t.get("figures", {})
        for k in ("table_s", "no_reuse_table_s", "speedup", "reused_points",
                  "no_reuse_reused_points", "sampling_share",
                  "no_reuse_sampling_share"):
            if k not in f:
                why.append("table.%s missing" % k)
        if t.get("alike") is not True:
            why.append("table: the sweeps differ: %r" % t.get("differences"))
        if f.get("no_reuse_reused_points", {}).get("median") != 0:
            why.append("table: --no-reuse reused a region")
        if engine == "user" and f.get("reused_points", {}).get("median") != \
           t["config"]["points"] - 1:
            why.append("table: %r points reused, of %d" % (
                f.get("reused_points", {}).get("median"), t["config"]["points"]))
    bw = e["benchmarks"].get("bandwidth", {})
    if "error" not in bw:
        pts = bw.get("points", {})
        want_pts = ["%s_%d" % (p, s) for p in ("rand", "seq")
                    for s in (64, 256, 4096, 65536)] + \
                   ["%s_64_mix%s" % (p, m) for p in ("rand", "seq")
                    for m in ("1:1", "2:1")]
        if sorted(pts) != sorted(want_pts):
            why.append("bandwidth: points %r" % sorted(pts))
        for pk, p in pts.items():
            f = p.get("figures", {})
            # the stand-in module moves no bytes: its GB/s is 0
            for k in ("engine_gbps", "loop_gbps", "engine_over_loop"):
                if k not in f or (engine == "user" and
                                  not (f[k]["median"] or 0) > 0):
                    why.append("bandwidth.%s.%s: %r" % (pk, k, f.get(k)))
            if not isinstance(p.get("met"), bool):
                why.append("bandwidth.%s: no verdict" % pk)
        t = bw.get("target", {})
        if t.get("engine_over_loop") != 0.9 or "met" not in t or \
           t["met"] != all(p.get("met") for p in pts.values()):
            why.append("bandwidth: target %r" % t)
    ev = e["benchmarks"].get("evidence", {})
    if engine == "user" and "error" not in ev:
        f = ev.get("figures", {})
        for k in ("evidence_share", "cost", "outliers", "explained"):
            if k not in f:
                why.append("evidence.%s missing" % k)
        if not {"cost_met", "explained_met"} <= set(ev.get("target", {})):
            why.append("evidence: no targets")
    mod = e["benchmarks"].get("memory", {}).get("module", {})
    if want == "module":
        figures("memory.module", mod.get("figures"))
    elif not mod.get("skipped"):
        why.append("the module's memory is not skipped")
if why:
    print("#  " + "; ".join(why[:5]))
    sys.exit(1)
EOF
}

# ---- the user engine, and the kernel engine without a device ----
LATTESTER_DEV=/nonexistent "$bench" "${tiny[@]}" --out "$tmp/b.json" \
	>"$tmp/out" 2>"$tmp/err"
report $? "bench.py (user and kernel engines, tiny sizes) exits 0"
check "$tmp/b.json" user all
report $? "the JSON has the machine and every benchmark, median/min/max each"
check "$tmp/b.json" kernel skipped && grep -q /nonexistent "$tmp/b.json"
report $? "no device: the kernel engine is skipped, the device named"
grep -q "^engine user on .* cores), kernel .*, tsc_khz [0-9]" "$tmp/out" &&
	(for b in timer efficiency agreement memory bandwidth table evidence; do
		grep -q "^  $b " "$tmp/out" || exit 1
	done) &&
	grep -q "^  table  *the same, sweep --no-reuse  *[0-9.]* s" "$tmp/out" &&
	grep -q "^  table  *--no-reuse / reuse  *[0-9.]*  " "$tmp/out" &&
	grep -q "rows alike in keys, fields and counts: yes" "$tmp/out" &&
	grep -q "^  bandwidth  rand 64 B, lattester / the loop  *[0-9.]*  " \
		"$tmp/out" &&
	grep -q "^  bandwidth  seq 65536 B loads, [0-9]* threads, lattester" \
		"$tmp/out" &&
	grep -q "^  bandwidth  target: >= 0.9x the loop, seq: 64 B \(NOT \)*met, " \
		"$tmp/out" &&
	grep -q "^  bandwidth  rand 64 B --mix 2:1, lattester / the loop  *[0-9.]*  " \
		"$tmp/out" &&
	grep -q "^  bandwidth  target: >= 0.9x the loop, rand: .*, 64 B --mix 1:1 \(NOT \)*met, " \
		"$tmp/out" &&
	grep -q "^  bandwidth  target: >= 0.9x the loop at every point: " \
		"$tmp/out" &&
	grep -q "^engine kernel: skipped: no /nonexistent" "$tmp/out" &&
	grep -q "module memory: skipped: " "$tmp/out"
report $? "the table: the machine, every benchmark, the skips with reasons"

# ---- the kernel engine, against the stand-in for the module ----
if make -s -C "$top/user" test-cli-fake.so >/dev/null 2>"$tmp/err"; then
	# ABI 1.0's features and threads (bit 13), for --mode bandwidth
	LATTESTER_DEV=/dev/null LD_PRELOAD=$top/user/test-cli-fake.so \
		FAKE_FEATURES=$(((1 << 12) - 1 | 1 << 13)) \
		"$bench" "${tiny[@]}" --engines kernel --out "$tmp/k.json" \
		>"$tmp/out" 2>"$tmp/err"
	report $? "bench.py --engines kernel (the stand-in module) exits 0"
	check "$tmp/k.json" kernel module
	report $? "kernel engine: every benchmark, the module's memory measured"
else
	report 1 "test-cli-fake.so builds"
fi

# ---- the environment, failures, usage ----
BENCH_OUT=$tmp/env.json BENCH_REPS=2 "$bench" --ctl "$ctl" --engines user \
	--only timer \
	>/dev/null 2>"$tmp/err" &&
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
sys.exit(d["settings"]["reps"] != 2 or
         list(d["engines"]["user"]["benchmarks"]) != ["timer"])' "$tmp/env.json"
report $? "BENCH_OUT and BENCH_REPS are taken; --only timer runs only it"
printf '#!/bin/sh\necho "lattester-ctl run: it broke" >&2\nexit 1\n' >"$tmp/ctl"
chmod +x "$tmp/ctl"
"$bench" "${tiny[@]}" --engines user --ctl "$tmp/ctl" --out "$tmp/f.json" \
	>"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && check "$tmp/f.json" user error && grep -q "it broke" "$tmp/err"
report $? "a failing lattester-ctl: exit 1, each benchmark's error kept"
"$bench" --engines bogus >/dev/null 2>&1
[ $? -eq 2 ]
report $? "--engines bogus: a usage error"

finish
