#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-engine-threads.sh - lattester-ctl run --engine user with several
# threads and the modes, for real on this host (no module, no root):
# pthreads pinned to the CPUs, running core.h's loop and streams.
#  - bandwidth (loads, nt-stores, a --mix, a --delay): every thread
#    streams; the bytes are its whole accesses' (accesses x size), read or
#    written as the op and the mix say (2:1 moves twice as many bytes read
#    as written, within one cycle); the run's bytes are the threads'; the
#    GB/s is bytes over the time and physically possible (above zero,
#    below 4 TB/s: no memory system moves more); the run took about the
#    --duration asked; the series covers it; a --delay of D cycles leaves
#    room for at most one access per D cycles a window; every thread's
#    duty cycle is a share, the run's their mean, below 90% only with the
#    warning; beside a busy loop on its CPU a stream is said disturbed;
#  - latency with 2 threads: each takes --samples, the run's samples and
#    histogram are theirs added up, each has its own calibration;
#    --split gives thread 1 the second half; outlier records shared out;
#  - loaded: thread 0 takes --samples (and its median is an access's, not
#    nothing: a flushed load above 5 ns), thread 1 streams and takes none;
#  - the module's refusals, in its words (rules.h): several threads
#    timing accesses above 256 KiB, a chase with several latency threads;
#    and the user engine's own: --threads keeps inside the process's
#    affinity, --cpus goes beyond it;
#  - sweep --engine user --threads 1,2 --mode bandwidth: a point per
#    thread count, each with its threads' bytes and duty cycle.
# Needs 2 online CPUs; with fewer it says so and skips.
#
#   make -C user && bash tests/unit/test-engine-threads.sh
#
# TAP-like lines, then "engine-threads: N passed, N failed[, N skipped]".

set -u

TAP_NAME=engine-threads
CTL_TEST_PYTHON=1
. "$(dirname "$0")/ctl-test.sh"
export LATTESTER_DEV=/nonexistent

# the CPUs this process may run on (online, and in its affinity)
usable=$(nproc 2>/dev/null || echo 1)
if [ "$usable" -lt 2 ]; then
	skip "one CPU usable here (nproc): the user engine's threads need two"
	finish
fi

# bw JSON SIZE WANT...: the bandwidth run's figures; WANT: read, write,
# nt (written by the op), mix2:1, delay:D
bw()
{
	python3 - "$@" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
size = int(sys.argv[2])
want = sys.argv[3:]
res, th = d["result"], d["threads"]
bw = th["bandwidth"]
why = []
if res["state"] != "done":
    why.append("state %r" % res["state"])
if d["provenance"]["engine"] != "user":
    why.append("engine %r" % d["provenance"]["engine"])
ts = th["threads"]
if len(ts) != 2 or [t["role"] for t in ts] != ["stream", "stream"]:
    why.append("threads %r" % [t.get("role") for t in ts])
khz = d["provenance"].get("tsc_khz") or d["config"].get("tsc_khz")
for t in ts:
    moved = t["bytes_read"] + t["bytes_written"]
    # whole accesses, and at most the one under way
    if not (t["accesses"] > 0 and t["accesses"] * size <= moved
            < (t["accesses"] + 1) * size):
        why.append("thread %d: %d accesses, %d bytes" %
                   (t["thread"], t["accesses"], moved))
    if "read" in want and t["bytes_written"]:
        why.append("thread %d wrote %d bytes" % (t["thread"], t["bytes_written"]))
    if "nt" in want and t["bytes_read"]:
        why.append("thread %d read %d bytes" % (t["thread"], t["bytes_read"]))
    if "mix2:1" in want and abs(t["bytes_read"] - 2 * t["bytes_written"]) > 3 * size:
        why.append("thread %d: %d read, %d written, not 2:1" %
                   (t["thread"], t["bytes_read"], t["bytes_written"]))
    for w in want:
        if w.startswith("delay:"):
            delay = int(w[6:])
            cycles = t["duration_ns"] * khz / 1e6
            most = cycles / delay + t["windows"] + 1
            if t["accesses"] > most:
                why.append("thread %d: %d accesses in %.0f cycles with a delay of %d"
                           % (t["thread"], t["accesses"], cycles, delay))
    if t["samples"] != 0:
        why.append("thread %d: samples %r" % (t["thread"], t["samples"]))
if len(set(t["cpu"] for t in ts)) != len(ts):
    why.append("threads share a CPU: %r" % [t["cpu"] for t in ts])
if bw["bytes_read"] != sum(t["bytes_read"] for t in ts) or \
   bw["bytes_written"] != sum(t["bytes_written"] for t in ts):
    why.append("the run's bytes are not the threads'")
gbps = bw["total_gbps"]
# a run of few accesses (a long --delay) rounds to 0.0 GB/s: bytes, then
if not (0 <= gbps < 4000) or not bw["bytes_read"] + bw["bytes_written"]:
    why.append("%r GB/s, %r bytes" % (gbps, bw["bytes_read"] + bw["bytes_written"]))
if abs(bw["bytes_read"] + bw["bytes_written"] - gbps * bw["duration_ns"]) > \
   0.01 * (bw["bytes_read"] + bw["bytes_written"]) + 1e6:
    why.append("GB/s %r is not the bytes over %r ns" % (gbps, bw["duration_ns"]))
asked = th["duration_us"] * 1000
if not (asked <= bw["duration_ns"] < asked + 1e9):
    why.append("took %r ns of %r asked" % (bw["duration_ns"], asked))
series = bw["series"]["gbps"]
if not series or bw["series"]["bin_us"] * len(series) * 1000 < asked:
    why.append("a series of %d bins of %r us" % (len(series), bw["series"]["bin_us"]))
# the duty cycle: each thread's share of the run's time, the run's their
# mean; below 90% only with the warning that says so
duty = [t["duty_cycle"] for t in ts]
if not all(isinstance(x, (int, float)) and 0 < x <= 1 for x in duty) or \
   abs(bw["duty_cycle"] - sum(duty) / len(duty)) > 0.0015:
    why.append("duty cycles %r, the run's %r" % (duty, bw["duty_cycle"]))
disturbed = [w for w in d["warnings"] if w.startswith("streaming disturbed:")]
if bw["duty_cycle"] < 0.9 and not disturbed:
    why.append("duty cycle %r without a warning" % bw["duty_cycle"])
print("; ".join(why) if why else "%.1f GB/s, %d + %d accesses, duty %.0f%%" %
      (gbps, ts[0]["accesses"], ts[1]["accesses"], 100 * bw["duty_cycle"]))
sys.exit(1 if why else 0)
EOF
}

# OP SIZE WANT[,WANT] [OPTIONS...]
for spec in "load 4096 read" "nt-store 4096 nt" "load 256 mix2:1 --mix 2:1" \
	"load 64 read,delay:200000 --delay 200000"; do
	set -- $spec
	op=$1 size=$2 wants=${3//,/ }
	shift 3
	extra=("$@")
	run "$ctl" run --engine user --threads 2 --mode bandwidth \
		--duration 50ms --region 16M --op "$op" --size "$size" \
		--pattern seq "${extra[@]}" --json "$tmp/bw.json"
	report $rc "bandwidth, --op $op --size $size ${extra[*]}: exit 0"
	why=$(bw "$tmp/bw.json" "$size" $wants 2>&1)
	report $? "bandwidth, --op $op --size $size ${extra[*]}: $why"
done

# lat JSON SAMPLES WANT: a run of timing threads; WANT: latency2,
# split, loaded
lat()
{
	python3 - "$@" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
want = sys.argv[3]
res, lat, th = d["result"], d["latency"], d["threads"]
ts = th["threads"]
why = []
if res["state"] != "done":
    why.append("state %r" % res["state"])
if len(ts) != 2:
    why.append("%d threads" % len(ts))
if want in ("latency2", "split"):
    if [t["role"] for t in ts] != ["latency", "latency"]:
        why.append("roles %r" % [t["role"] for t in ts])
    if [t["samples"] for t in ts] != [n, n] or res["samples"] != 2 * n:
        why.append("samples %r, %r in all" % ([t["samples"] for t in ts], res["samples"]))
    if any(t["overhead_cycles"] <= 0 for t in ts):
        why.append("overheads %r" % [t["overhead_cycles"] for t in ts])
if want == "split":
    if ts[1]["part_offset"] != ts[0]["part_bytes"] or ts[0]["part_offset"] != 0 \
       or ts[0]["part_bytes"] != 8 << 20:
        why.append("parts %r" % [(t["part_offset"], t["part_bytes"]) for t in ts])
if want == "loaded":
    if [t["role"] for t in ts] != ["latency", "stream"]:
        why.append("roles %r" % [t["role"] for t in ts])
    if ts[0]["samples"] != n or res["samples"] != n or ts[1]["samples"]:
        why.append("samples %r" % [t["samples"] for t in ts])
    if ts[1]["accesses"] <= 0 or ts[1]["bytes_read"] < 64 * ts[1]["accesses"]:
        why.append("traffic %r accesses" % ts[1]["accesses"])
# ABI 2.5: the overhead that corrects is the one calibrated under the
# same conditions as the samples: idle before the start, or (loaded) under
# the traffic, with the one across the samples beside it
oh = res["overhead_cycles"]
if want == "loaded":
    if oh["under_load"] is not True or not oh["idle_median"] or \
       not oh["end_median"] or ts[0]["overhead_idle_cycles"] != oh["idle_median"] \
       or ts[1]["overhead_idle_cycles"] is not None:
        why.append("loaded overheads %r, threads' idle %r" %
                   (oh, [t["overhead_idle_cycles"] for t in ts]))
else:
    if oh["under_load"] is not False or oh["idle_median"] != oh["median"] or \
       any(t["overhead_idle_cycles"] != t["overhead_cycles"] for t in ts):
        why.append("idle overheads %r, threads' %r" %
                   (oh, [(t["overhead_cycles"], t["overhead_idle_cycles"]) for t in ts]))
if not 0 < oh["median"] < 100000 or not 0 < oh["idle_median"] < 100000:
    why.append("overheads %r: no timer read costs that" % oh)
# what was subtracted is that overhead: raw - corrected at the minimum
# (the exact one; percentiles may floor at 0)
if lat["raw_cycles"]["min"] - lat["cycles"]["min"] != oh["median"] and \
   lat["cycles"]["min"] != 0 and want == "loaded":
    why.append("min raw %r - corrected %r is not the overhead %r" %
               (lat["raw_cycles"]["min"], lat["cycles"]["min"], oh["median"]))
p50 = lat["ns"]["p50"]
if not p50 or p50 < 5:
    why.append("p50 %r ns: a flushed load costs more than an L1 hit" % p50)
print("; ".join(why) if why else "p50 %.1f ns" % p50)
sys.exit(1 if why else 0)
EOF
}

run "$ctl" run --engine user --threads 2 --samples 3000 --region 16M \
	--json "$tmp/lat.json"
report $rc "latency, 2 threads: exit 0"
why=$(lat "$tmp/lat.json" 3000 latency2 2>&1)
report $? "latency, 2 threads: each takes its samples ($why)"
run "$ctl" run --engine user --threads 2 --split --samples 3000 \
	--region 16M --threshold 1 --max-outliers 10 --json "$tmp/split.json"
report $rc "latency, 2 threads, --split: exit 0"
why=$(lat "$tmp/split.json" 3000 split 2>&1)
report $? "latency, --split: thread 1 on the second half ($why)"
python3 - "$tmp/split.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
recs = d["outlier_records"]
half = d["threads"]["threads"][0]["part_bytes"]
# thread 0's records, then thread 1's (RESULT's order): 5 in each part
ok = len(recs) == 10 and all(r["offset"] < half for r in recs[:5]) and \
    all(half <= r["offset"] < 2 * half for r in recs[5:])
print("# records %r" % [r["offset"] >= half for r in recs])
sys.exit(0 if ok else 1)
EOF
report $? "--max-outliers 10 over 2 threads: 5 each, thread by thread, each in its part"
# a share larger than the samples: thread 0 leaves room, and the records
# still close up, thread by thread
run "$ctl" run --engine user --threads 2 --split --samples 3000 \
	--region 16M --threshold 1 --max-outliers 100000 --json "$tmp/gap.json"
python3 - "$tmp/gap.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
recs = d["outlier_records"]
half = d["threads"]["threads"][0]["part_bytes"]
n0 = sum(r["offset"] < half for r in recs)
ok = len(recs) == 6000 and all(r["offset"] < half for r in recs[:3000]) and \
    all(half <= r["offset"] < 2 * half for r in recs[3000:]) and \
    [r["sample"] for r in recs[:3]] == [0, 1, 2] and \
    [r["sample"] for r in recs[3000:3003]] == [0, 1, 2]
print("# %d records, %d in part 0" % (len(recs), n0))
sys.exit(0 if ok else 1)
EOF
report $? "records of 2 threads below their share: 3000 + 3000, closed up in thread order"

# a competing busy loop on the streaming thread's CPU (issue 27): the
# scheduler shares the CPU between them, the stream's windows stretch by
# the slices it loses; the run says so, in the table and the JSON, and
# its duty cycle is that of a shared CPU
if command -v taskset >/dev/null; then
	cpu=$(taskset -pc $$ | sed 's/.*: //; s/[-,].*//')
	taskset -c "$cpu" sh -c 'while :; do :; done' &
	busy=$!
	sleep 0.2
	run "$ctl" run --engine user --cpu "$cpu" --mode bandwidth \
		--duration 200ms --region 16M --json "$tmp/busy.json"
	kill "$busy"
	wait "$busy" 2>/dev/null
	python3 - "$tmp/busy.json" "$tmp/out" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
table = open(sys.argv[2]).read()
duty = d["threads"]["bandwidth"]["duty_cycle"]
w = [w for w in d["warnings"] if w.startswith("streaming disturbed:")]
ok = len(w) == 1 and ("warning:    " + w[0]) in table.splitlines() and \
    duty < 0.9 and "(duty cycle)" in w[0]
print("# duty %r, %r" % (duty, w))
sys.exit(0 if ok else 1)
EOF
	report $? "bandwidth beside a busy loop on its CPU: disturbed, said in the table and the JSON, duty cycle below 90%"
else
	skip "taskset missing: no busy loop beside a stream"
fi

# a Ctrl-C during a bandwidth run: its time streamed, not "0 of 0 samples"
interrupt 0.5 "$ctl" run --engine user --threads 2 --mode bandwidth \
	--duration 5s --region 16M
[ $rc -eq 130 ] &&
	grep -qE "interrupted: run aborted, [0-9.]+ of 5\.000 s streamed$" "$tmp/err" &&
	! grep -q "of 0 samples" "$tmp/err"
report $? "bandwidth, Ctrl-C: exit 130 (got $rc), the seconds streamed said"

run "$ctl" run --engine user --mode loaded --threads 2 --samples 3000 \
	--region 16M --json "$tmp/loaded.json"
report $rc "loaded: exit 0"
why=$(lat "$tmp/loaded.json" 3000 loaded 2>&1)
report $? "loaded: thread 0 measures, thread 1 streams ($why)"

# the same JSON as the kernel engine's: against the stand-in for the
# module (test-cli-fake.so, with the threads feature), the same keys in
# the same places, thread by thread
if make -s -C "$top/user" test-cli-fake.so >/dev/null 2>"$tmp/err"; then
	LATTESTER_DEV=/dev/null LD_PRELOAD=$top/user/test-cli-fake.so \
		FAKE_FEATURES=$(((1 << 12) - 1 | 1 << 13)) "$ctl" run \
		--mode loaded --threads 2 --samples 3000 --region 16M \
		--json "$tmp/kloaded.json" >/dev/null 2>"$tmp/err"
	report $? "loaded, the kernel engine against the stand-in: exit 0"
	python3 - "$tmp/kloaded.json" "$tmp/loaded.json" <<'EOF'
import json, sys
k, u = (json.load(open(p)) for p in sys.argv[1:3])
def shape(v, at=""):
    if isinstance(v, dict):
        return {at + "." + key: None for key in v} | \
            {x: None for key in v for x in shape(v[key], at + "." + key)}
    if isinstance(v, list) and v and isinstance(v[0], dict):
        return {x: None for i, e in enumerate(v) for x in shape(e, at + "[]")}
    return {}
ks, us = shape(k["threads"]), shape(u["threads"])
sk, su = set(shape(k)), set(shape(u))
diff = sorted((sk ^ su))
print("# differ: %r" % diff[:6])
sys.exit(0 if ks == us and not diff else 1)
EOF
	report $? "loaded: the user engine's JSON has the kernel engine's keys, threads block and all"
else
	report 1 "test-cli-fake.so builds"
fi

# --traffic-target: the probe on one region of node 0, the traffic on a
# second one (this host has one node), in both engines (the kernel's
# against the stand-in, with LATT_FEAT_TRAFFIC): the traffic's target
# named, its part the traffic's region (16 MiB where the probe's is 4),
# its bytes its accesses' at 2:1, a probe's median an access's
traffic_check()
{
	python3 - "$@" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
eng = sys.argv[2]
th = d["threads"]
tt = th.get("traffic_target") or {}
why = []
if d["result"]["state"] != "done":
    why.append("state %r" % d["result"]["state"])
if (tt.get("spec"), tt.get("kind"), tt.get("node"), tt.get("region")) != \
        ("dram:0", "dram", 0, 16 << 20):
    why.append("traffic_target %r" % tt)
p, s = th["threads"]
if (p["role"], p["target"], p["part_bytes"], p["bytes_read"]) != \
        ("latency", "dram:0", 4 << 20, 0):
    why.append("probe %r" % {k: p[k] for k in ("role", "target", "part_bytes", "bytes_read")})
if (s["role"], s["target"], s["part_bytes"]) != ("stream", "dram:0", 16 << 20):
    why.append("traffic %r" % {k: s[k] for k in ("role", "target", "part_bytes")})
if th["bandwidth"]["target"] != "dram:0":
    why.append("bandwidth.target %r" % th["bandwidth"]["target"])
if eng == "user":
    a, rd, wr = s["accesses"], s["bytes_read"], s["bytes_written"]
    # R:W 2:1 of 64 B: two reads a write, to within a cycle
    if a < 3 or rd + wr != 64 * a or abs(rd - 2 * wr) > 3 * 64:
        why.append("traffic bytes %d/%d for %d accesses" % (rd, wr, a))
    p50 = d["latency"]["ns"]["p50"]
    if not 5 < p50 < 100000:
        why.append("probe p50 %r ns" % p50)
print("# " + ("; ".join(why) or "%s: %r" % (eng, tt)))
sys.exit(1 if why else 0)
EOF
}
T="--mode loaded --threads 2 --samples 3000 --target dram:0 --region 4M
	--traffic-target dram:0 --traffic-region 16M --mix 2:1"
# shellcheck disable=SC2086 # $T: the options
run "$ctl" run --engine user $T --json "$tmp/traffic.json"
report $rc "--traffic-target dram:0: exit 0"
traffic_check "$tmp/traffic.json" user
report $? "--traffic-target: thread 1 streams 2:1 on the traffic's own 16 MiB, thread 0 times its 4 MiB"
if make -s -C "$top/user" test-cli-fake.so >/dev/null 2>"$tmp/err"; then
	# shellcheck disable=SC2086
	LATTESTER_DEV=/dev/null LD_PRELOAD=$top/user/test-cli-fake.so \
		FAKE_FEATURES=$(((1 << 12) - 1 | 1 << 13 | 1 << 24)) "$ctl" run \
		$T --json "$tmp/ktraffic.json" >/dev/null 2>"$tmp/err"
	report $? "--traffic-target, the kernel engine against the stand-in: exit 0"
	traffic_check "$tmp/ktraffic.json" kernel
	report $? "... START_TRAFFIC took the traffic's 16 MiB, named as the user engine names it"
	# shellcheck disable=SC2086
	LATTESTER_DEV=/dev/null LD_PRELOAD=$top/user/test-cli-fake.so \
		FAKE_FEATURES=$(((1 << 12) - 1 | 1 << 13)) FAKE_ABI=0x20008 \
		"$ctl" run $T >/dev/null 2>"$tmp/err"
	[ $? -eq 1 ] && grep -q "this lattester module (ABI 2.8) lacks the 'traffic' feature: --traffic-target needs the module's LATT_IOC_START_TRAFFIC (ABI 2.9)" "$tmp/err"
	report $? "--traffic-target with a module of ABI 2.8: refused, saying what it lacks"
fi
for m in latency bandwidth; do
	expect 2 "--traffic-target with --mode $m: refused" "$ctl" run \
		--engine user --mode $m --threads 2 --traffic-target dram:0
	has "$tmp/err" "^lattester-ctl run: --traffic-target is for --mode loaded: thread 0 measures --target while the others stream on the traffic target$" \
		"... in the rule book's words"
done
# a chase probe under writing traffic: refused on its own region (the
# writes would break its chain), run with the traffic on another, the
# chain whole: every sample a load of it (the run would stop, or its
# samples stray, on a broken chain)
expect 2 "chase probe, writing traffic on its region: refused" "$ctl" run \
	--engine user --mode loaded --threads 2 --pattern chase --mix 1:1
run "$ctl" run --engine user --mode loaded --threads 2 --samples 3000 \
	--pattern chase --target dram:0 --region 4M --traffic-target dram:0 \
	--mix 1:1 --split --json "$tmp/tchase.json"
report $rc "chase probe, writing traffic on a --traffic-target: runs"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); t = d["threads"]["threads"]
sys.exit(not (d["result"]["state"] == "done" and d["result"]["samples"] == 3000
              and t[1]["bytes_written"] > 0 and t[1]["bytes_written"] == t[1]["bytes_read"]))' \
	"$tmp/tchase.json"
report $? "... its 3000 samples done, the traffic 1:1"
expect 2 "--traffic-region without --traffic-target: refused" "$ctl" run \
	--engine user --mode loaded --threads 2 --traffic-region 16M
expect 1 "--traffic-target dram:99: refused" "$ctl" run --engine user \
	--mode loaded --threads 2 --traffic-target dram:99
has "$tmp/err" "dram:99: no such NUMA node" "... naming the node"

# the module's refusals, in its words, before anything is measured
expect 1 "--engine user --threads 2 --size 512K: refused" "$ctl" run \
	--engine user --threads 2 --size 512K --region 16M
has "$tmp/err" "above 256 KiB is for one thread" \
	"... in rules.h's words, as the module refuses it"
expect 2 "--engine user --threads 2 --pattern chase: refused" "$ctl" run \
	--engine user --threads 2 --pattern chase --region 16M
has "$tmp/err" "chase is one chain" "... in the same words as the module"

# a process given CPU 0 alone (taskset): --threads 2 keeps inside it and
# finds no second CPU, saying so; --cpus names CPUs beyond it, and the
# kernel lets a taskset mask widen (a cgroup's cpuset would not: the
# thread would fail, naming its CPU)
if command -v taskset >/dev/null; then
	expect 1 "taskset -c 0, --engine user --threads 2: refused" \
		taskset -c 0 "$ctl" run --engine user --threads 2 --region 16M
	has "$tmp/err" "--cpu 0 and only 0 more of the online CPUs .* in this process's affinity" \
		"... saying the affinity holds no second CPU"
	expect 0 "taskset -c 0, --engine user --cpus 0,1: runs on both" \
		taskset -c 0 "$ctl" run --engine user --cpus 0,1 --region 16M \
		--samples 1000 --json "$tmp/ts.json"
	python3 -c 'import json, sys
sys.exit([t["cpu"] for t in json.load(open(sys.argv[1]))["threads"]["threads"]] != [0, 1])' \
		"$tmp/ts.json"
	report $? "... thread 1 on CPU 1, as --cpus names it"
else
	skip "taskset missing: the affinity's limits are not tried"
fi

# a sweep over thread counts
run "$ctl" sweep --engine user --threads 1,2 --mode bandwidth \
	--duration 20ms --region 16M --size 4096 --pattern seq \
	--out "$tmp/sweep.csv"
report $rc "sweep --engine user --threads 1,2 --mode bandwidth: exit 0"
python3 - "$tmp/sweep.csv" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
ok = len(rows) == 2 and [r["threads"] for r in rows] == ["1", "2"] and \
    all(r["state"] == "done" and r["engine"] == "user" and
        float(r["read_gbps"]) > 0 and int(r["bytes_read"]) > 0 and
        0 < float(r["duty_cycle"]) <= 1 for r in rows)
print("# %r" % [(r.get("threads"), r.get("read_gbps"), r.get("duty_cycle"))
                for r in rows])
sys.exit(0 if ok else 1)
EOF
report $? "sweep: a point per thread count, each with its bytes, GB/s and duty cycle"

finish
