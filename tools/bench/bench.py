#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tools/bench/bench.py - make bench: lattester measures itself.

Runs `lattester-ctl run` with each engine asked for (--engines, default
"user kernel"; an engine that can't run here is skipped with the reason),
REPS times per benchmark, and writes one JSON document (schema
"lattester-bench/1") and a short table.  Every figure is the median of the
repetitions, with their min and max; ratios are taken within one
repetition, then their median.  Documentation/benchmarks.md says what each
figure is and how to read it.

  timer       the calibrated overhead (median of 1024 empty samples) and
              its spread; the TSC's quantum and read cost (the engine's),
              the core clock, the 95% intervals' widths; the TSC's
              smallest step, from back-to-back reads
              (tools/bench/tsc-step.c) and from the distinct raw values of
              an L1-hit run; the corrected latency of an L1 hit (--warm,
              a 4 KiB region), in cycles and in timer steps
  efficiency  random 64 B loads on a REGION (1 GiB): the share of the
              sampling phase (and of the whole run, and of the process)
              spent inside timed regions; samples per second
  agreement   random single loads vs --pattern chase --chain K on the same
              region and pages (4 KiB pages, and --hugepages for the user
              engine): per-load p50 of both, difference and ratio
  memory      the tool's peak RSS at MEM_SAMPLES lo and hi samples, same
              region; the module's memory (kernel engine: the drop of
              MemFree while it runs, less the tool's RSS; slab before and
              after), skipped for the user engine
  bandwidth   --mode bandwidth --op load at each point of BW_PATTERNS
              (rand, seq) x BW_SIZES (64, 256, 4096, 65536 B) on REGION,
              BW_THREADS threads on the CPUs from --cpu, against a plain
              loop over the same region from the same threads, with the
              same pattern and size (tools/bench/stream-ref.c read: a sum
              of the words, vectorised by the compiler), and --mix R:W of
              BW_MIXES (1:1, 2:1) for each pattern at the smallest size
              against stream-ref mix:R:W, side by side in each
              repetition: GB/s of each, and the engine's over the
              loop's, target at least 0.9 at every point
  evidence    the windows' evidence for the outliers' causes (issue 26):
              the efficiency run with --threshold 10x, with and without
              --no-evidence, in turn in every repetition: the sampling
              phase's time per sample of each and their ratio, the share
              of the sampling spent reading the evidence (counted in the
              run: target at most 2%), and the share of the outliers of 10x
              the median that carry a cause or a quiet window's "none
              seen" (target at least 0.9); the user engine's only
  table       the basic latency table (the ops of tools/repro-basic-latency
              x seq/rand x 64/128/256 B, TABLE_SAMPLES a point) as one
              `sweep`, which keeps the region from point to point, and as
              one `sweep --no-reuse` (every point its own region, as
              before), side by side in every repetition: wall times, their
              ratio, the share of each spent sampling, and whether the two
              sweeps' rows are alike in keys, fields and counts

Options override the environment (BENCH_OUT, BENCH_REPS, BENCH_ENGINES,
BENCH_CPU, BENCH_REGION, BENCH_SAMPLES, BENCH_CHAIN, BENCH_MEM_SAMPLES,
BENCH_MEM_REGION, BENCH_TABLE_SAMPLES, BENCH_TABLE_REGION,
BENCH_TABLE_REPS, BENCH_BW_THREADS, BENCH_BW_PATTERNS, BENCH_BW_SIZES,
BENCH_BW_MIXES, BENCH_BW_DURATION); see
--help.  Exit status 0, or 1 if a benchmark failed
(its error is in the JSON and on stderr).
"""

import argparse
import datetime
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

SCHEMA = "lattester-bench/1"
TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TABLE_OPS = ["load", "nt-load", "store-clwb", "store-clflushopt",
             "store-clflush", "nt-store"]    # tools/repro-basic-latency's
TABLE_PATTERNS = ["seq", "rand"]
TABLE_SIZES = [64, 128, 256]
L1_REGION = 4096
EFFICIENCY_TARGET = 0.5                   # of the sampling phase
MEM_GROWTH_LIMIT = 1.05                   # hi/lo RSS above this: it grows
MEMINFO_POLL_S = 0.01
BENCHMARKS = ["timer", "efficiency", "agreement", "memory", "bandwidth",
              "table", "evidence"]
EVIDENCE_COST_TARGET = 1.02               # with / without, at most
EVIDENCE_EXPLAINED_TARGET = 0.9           # of the outliers, at least
UNEXPLAINED = ("unassigned", "unknown")
BW_TARGET = 0.9                           # the engine's GB/s / the loop's
BW_PATTERNS = ["rand", "seq"]             # the grid of the bandwidth benchmark
BW_SIZES = [64, 256, 4096, 65536]
BW_MIXES = ["1:1", "2:1"]                 # --mix points, at the smallest size
TABLE_TARGET = 0.5                        # reuse / --no-reuse, at most
TABLE_MODES = [("reuse", []), ("no_reuse", ["--no-reuse"])]


class BenchError(Exception):
    """A run that should have worked did not."""


def env(name, default):
    return os.environ.get(name) or default


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="bench.py", description="lattester measures itself (make bench)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("--ctl", default=env("LATTESTER_CTL",
                                        os.path.join(TOP, "user/lattester-ctl")),
                   help="lattester-ctl to run (default: the one built here)")
    p.add_argument("--tsc-step", default=os.path.join(TOP, "build/bench/tsc-step"),
                   help="the back-to-back TSC reader (make bench builds it)")
    p.add_argument("--out", default=env("BENCH_OUT", None),
                   help="JSON file (default build/bench/bench-DATE.json)")
    p.add_argument("--reps", type=int, default=int(env("BENCH_REPS", 5)),
                   help="repetitions of each benchmark (default 5)")
    p.add_argument("--engines", default=env("BENCH_ENGINES", "user kernel"),
                   help="engines, space or comma separated (default 'user kernel')")
    p.add_argument("--cpu", type=int, default=int(env("BENCH_CPU", 0)))
    p.add_argument("--region", default=env("BENCH_REGION", "1G"),
                   help="region of efficiency and agreement (default 1G)")
    p.add_argument("--samples", type=int, default=int(env("BENCH_SAMPLES", 1000000)),
                   help="samples of the efficiency run (default 10^6); "
                        "L1 and random runs of agreement take a tenth")
    p.add_argument("--chain", type=int, default=int(env("BENCH_CHAIN", 64)),
                   help="dependent loads per chase sample (default 64)")
    p.add_argument("--mem-samples", default=env("BENCH_MEM_SAMPLES", "1000000,10000000"),
                   help="LO,HI samples of the memory benchmark (default "
                        "10^6,10^7; 10^8 takes ~12 s a run on a 2.6 GHz VM)")
    p.add_argument("--mem-region", default=env("BENCH_MEM_REGION", "64M"))
    p.add_argument("--table-samples", type=int,
                   default=int(env("BENCH_TABLE_SAMPLES", 100000)))
    p.add_argument("--table-region", default=env("BENCH_TABLE_REGION", None),
                   help="region of the table's points (default: lattester-ctl's, 1 GiB)")
    p.add_argument("--table-reps", type=int, default=int(env("BENCH_TABLE_REPS", 3)),
                   help="repetitions of the table, at most --reps (default 3)")
    p.add_argument("--stream-ref",
                   default=os.path.join(TOP, "build/bench/stream-ref"),
                   help="the reference bandwidth loop (make bench builds it)")
    p.add_argument("--bw-threads", type=int,
                   default=int(env("BENCH_BW_THREADS", 0)),
                   help="threads of the bandwidth benchmark (default: the "
                        "CPUs this process may use, at most 8)")
    p.add_argument("--bw-patterns", default=env("BENCH_BW_PATTERNS",
                                                ",".join(BW_PATTERNS)),
                   help="patterns of the bandwidth benchmark, comma separated "
                        "(default %s)" % ",".join(BW_PATTERNS))
    p.add_argument("--bw-sizes", "--bw-size", dest="bw_sizes",
                   default=env("BENCH_BW_SIZES", env("BENCH_BW_SIZE", ",".join(
                       str(x) for x in BW_SIZES))),
                   help="bytes per access of the bandwidth benchmark, comma "
                        "separated (default %s)" % ",".join(str(x) for x in BW_SIZES))
    p.add_argument("--bw-mixes", default=env("BENCH_BW_MIXES",
                                              ",".join(BW_MIXES)),
                   help="--mix R:W points of the bandwidth benchmark, each "
                        "pattern at the smallest size, comma separated; "
                        "'none' for none (default %s)" % ",".join(BW_MIXES))
    p.add_argument("--bw-duration", type=int,
                   default=int(env("BENCH_BW_DURATION", 500)),
                   help="ms per bandwidth run: %d points x 2 runs x --reps "
                        "(default 500)" % (len(BW_PATTERNS) *
                                           (len(BW_SIZES) + len(BW_MIXES))))
    p.add_argument("--only", default="",
                   help="comma-separated benchmarks to run (default: all)")
    a = p.parse_args(argv)
    a.engines = [e for e in a.engines.replace(",", " ").split() if e]
    a.only = [b for b in a.only.split(",") if b] or BENCHMARKS
    lo_hi = a.mem_samples.split(",")
    a.bw_patterns = [x for x in a.bw_patterns.split(",") if x]
    a.bw_sizes = [x for x in a.bw_sizes.split(",") if x]
    a.bw_mixes = [x for x in a.bw_mixes.split(",") if x and x != "none"]
    bad = [e for e in a.engines if e not in ("user", "kernel")]
    bad += [b for b in a.only if b not in BENCHMARKS]
    bad += [x for x in a.bw_patterns if x not in ("seq", "rand")]
    bad += [x for x in a.bw_sizes if not valid_bytes(x)]
    bad += [x for x in a.bw_mixes if not valid_mix(x)]
    bad += ["--bw-patterns"] if not a.bw_patterns else []
    bad += ["--bw-sizes"] if not a.bw_sizes else []
    if bad or a.reps < 1 or a.table_reps < 1 or len(lo_hi) != 2 or a.samples < 10:
        p.error("bad value: %s" % (", ".join(bad) or "--reps, --table-reps, "
                                   "--samples or --mem-samples"))
    a.mem_samples = [int(v) for v in lo_hi]
    a.bw_sizes = [region_bytes(x) for x in a.bw_sizes]
    if not a.bw_threads:
        a.bw_threads = min(8, len(os.sched_getaffinity(0)))
    a.table_reps = min(a.table_reps, a.reps)
    return a


def median_summary(values, unit):
    """{median, min, max, unit, reps}; None values (not measured) are left out."""
    vs = [v for v in values if v is not None]
    if not vs:
        return {"median": None, "min": None, "max": None, "unit": unit, "reps": values}
    return {"median": statistics.median(vs), "min": min(vs), "max": max(vs),
            "unit": unit, "reps": values}


def ratio(a, b):
    return a / b if a is not None and b else None


class Runner:
    """Runs lattester-ctl and the helper; keeps the scratch files."""

    def __init__(self, args, engine, tmp):
        self.a = args
        self.engine = engine
        self.tmp = tmp
        self.n = 0
        self.provenance = None

    def spawn(self, cmd, err, poll_meminfo=False):
        """Run @cmd, stdout to /dev/null, stderr to @err: wall time, exit
        status, rusage, stderr, and MemFree before and at its lowest."""
        before = meminfo() if poll_meminfo else None
        low = None
        t0 = time.monotonic()
        pid = os.posix_spawn(cmd[0], cmd, os.environ, file_actions=[
            (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
            (os.POSIX_SPAWN_OPEN, 2, err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)])
        while True:
            got, status, ru = os.wait4(pid, os.WNOHANG if poll_meminfo else 0)
            if got:
                break
            free = meminfo().get("MemFree")
            low = free if low is None or free < low else low
            time.sleep(MEMINFO_POLL_S)
        wall = time.monotonic() - t0
        rc = os.waitstatus_to_exitcode(status)
        with open(err) as f:
            stderr = f.read()
        return wall, rc, ru, stderr, before, low

    def run(self, opts, hist=False, poll_meminfo=False):
        """One `lattester-ctl run`: its JSON, process wall time, peak RSS."""
        self.n += 1
        base = os.path.join(self.tmp, "%s-%d" % (self.engine, self.n))
        cmd = [self.a.ctl, "run", "--engine", self.engine, "--cpu",
               str(self.a.cpu), "--quiet", "--json", base + ".json"] + opts
        if hist:
            cmd += ["--hist", base + ".hist"]
        wall, rc, ru, stderr, before, low = self.spawn(cmd, base + ".err",
                                                       poll_meminfo)
        if rc:
            raise BenchError("%s: exit %d: %s" % (" ".join(cmd), rc,
                                                  stderr.strip() or "(no message)"))
        with open(base + ".json") as f:
            doc = json.load(f)
        if self.provenance is None:
            self.provenance = doc["provenance"]
        r = {"doc": doc, "wall_s": wall, "maxrss_kib": ru.ru_maxrss,
             "stderr": stderr}
        if hist:
            r["hist"] = read_hist(base + ".hist")
        if poll_meminfo:
            r["meminfo_before"], r["meminfo_after"] = before, meminfo()
            r["memfree_low"] = low
        return r

    def sweep(self, opts):
        """One `lattester-ctl sweep` into JSON lines: its rows, wall time."""
        self.n += 1
        base = os.path.join(self.tmp, "%s-%d" % (self.engine, self.n))
        cmd = [self.a.ctl, "sweep", "--engine", self.engine, "--cpu",
               str(self.a.cpu), "--quiet", "--out", base + ".jsonl"] + opts
        wall, rc, _, stderr, _, _ = self.spawn(cmd, base + ".err")
        if rc:
            raise BenchError("%s: exit %d: %s" % (" ".join(cmd), rc,
                                                  stderr.strip() or "(no message)"))
        with open(base + ".jsonl") as f:
            rows = [json.loads(line) for line in f if line.strip()]
        if rows and self.provenance is None:
            self.provenance = rows[0]["provenance"]
        return {"rows": rows, "wall_s": wall, "stderr": stderr}

    def tsc_step(self):
        """The helper's key/value lines as ints, or None if it isn't built."""
        if not os.access(self.a.tsc_step, os.X_OK):
            return None
        cpu = self.a.cpu
        out = subprocess.run([self.a.tsc_step], check=True, capture_output=True,
                             text=True, preexec_fn=lambda: os.sched_setaffinity(0, {cpu}))
        return {k: int(v) for k, v in (line.split() for line in out.stdout.splitlines())}


def meminfo():
    """/proc/meminfo in KiB."""
    m = {}
    with open("/proc/meminfo") as f:
        for line in f:
            k, v = line.split(":", 1)
            m[k] = int(v.split()[0])
    return m


def read_hist(path):
    """{raw cycles: count} of the exact buckets (lo == hi) of a --hist file."""
    h = {}
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            lo, hi, count = (int(x) for x in line.split()[:3])
            if lo == hi and count:
                h[lo] = count
    return h


def hist_step(h):
    """gcd of the gaps between distinct exact raw values; None for fewer than 2."""
    v = sorted(h)
    g = 0
    for a, b in zip(v, v[1:]):
        g = math.gcd(g, b - a)
    return g or None


def result(r):
    return r["doc"]["result"]


def lat(r, key="p50", unit="cycles"):
    return r["doc"]["latency"][unit][key]


def khz(r):
    return r["doc"]["provenance"]["tsc_khz"]


# ---- the benchmarks: each returns {"config", "figures", ...} ----

def bench_timer(run, a):
    l1 = ["--op", "load", "--pattern", "seq", "--size", "64", "--region",
          str(L1_REGION), "--warm", "--samples", str(max(a.samples // 10, 1))]
    f = {k: [] for k in ("overhead_median", "overhead_min", "overhead_max",
                         "overhead_spread", "rdtscp_step", "rdtscp_min",
                         "rdtsc_step", "rdtsc_min", "hist_step", "l1_p50",
                         "l1_mean", "l1_p50_steps", "quantum",
                         "read_cost", "l1_p50_quanta", "l1_p50_core",
                         "core_ratio", "l1_p50_ci_width",
                         "l1_mean_ci_width", "l1_chase_batch_core",
                         "l1_chase_batch_ci_width")}
    # --batch: an L1-resident chase's load-to-use, below the quantum
    chase = ["--pattern", "chase", "--region", str(L1_REGION), "--batch",
             "64", "--samples", str(max(a.samples // 10, 1))]
    helper = None
    for _ in range(a.reps):
        r = run.run(l1, hist=True)
        oh = result(r)["overhead_cycles"]
        f["overhead_median"].append(oh["median"])
        f["overhead_min"].append(oh["min"])
        f["overhead_max"].append(oh["max"])
        f["overhead_spread"].append(oh["max"] - oh["min"])
        helper = run.tsc_step()
        for k in ("rdtscp_step", "rdtscp_min", "rdtsc_step", "rdtsc_min"):
            f[k].append(helper[k] if helper else None)
        hs = hist_step(r["hist"])
        f["hist_step"].append(hs)
        f["l1_p50"].append(lat(r))
        f["l1_mean"].append(lat(r, "mean"))
        step = helper["rdtscp_step"] if helper else hs
        f["l1_p50_steps"].append(ratio(lat(r), step))
        # issue 25: the quantum told apart from the read cost, the L1 hit
        # in core cycles, the 95% intervals' widths
        t = result(r)["timer"]
        f["quantum"].append(t.get("quantum_cycles"))
        f["read_cost"].append(t.get("read_cost_cycles"))
        f["l1_p50_quanta"].append(ratio(lat(r), t.get("quantum_cycles")))
        core = r["doc"]["latency"].get("core_cycles") or {}
        f["l1_p50_core"].append(core.get("p50"))
        f["core_ratio"].append(
            (result(r).get("core_clock") or {}).get("ratio"))
        ci = r["doc"]["latency"].get("intervals", {}).get("cycles", {})
        for k, key in (("l1_p50_ci_width", "p50"),
                       ("l1_mean_ci_width", "mean")):
            iv = ci.get(key)
            f[k].append(iv[1] - iv[0] if iv else None)
        try:
            b = result(run.run(chase)).get("batch") or {}
        except BenchError as e:  # only a module without the feature
            if "'batch' feature" not in str(e):
                raise
            b = {}
        f["l1_chase_batch_core"].append(b.get("core_cycles"))
        iv = b.get("interval_cycles")
        f["l1_chase_batch_ci_width"].append(iv[1] - iv[0] if iv else None)
    units = {"l1_p50_steps": "timer steps", "l1_mean": "cycles",
             "l1_p50_quanta": "ratio", "core_ratio": "ratio",
             "l1_p50_core": "core cycles",
             "l1_chase_batch_core": "core cycles"}
    out = {"config": {"run": l1, "batch": chase}, "figures": {
        k: median_summary(v, units.get(k, "cycles")) for k, v in f.items()}}
    steps = out["figures"]["l1_p50_steps"]["median"]
    out["l1_within_one_step"] = steps is not None and steps <= 1
    quanta = out["figures"]["l1_p50_quanta"]["median"]
    out["l1_within_one_quantum"] = quanta is not None and quanta <= 1
    if helper is None:
        out["tsc_step_helper"] = {"skipped": "%s is not built (make bench builds it)"
                                  % a.tsc_step}
    return out


def efficiency_figures(r):
    res, k = result(r), khz(r)
    sampling = res["duration_ns"] / 1e9
    run_s = res["wall_ns"] / 1e9
    timed = res["timed_cycles"]["raw"] / (k * 1e3)
    timed_corr = res["timed_cycles"]["corrected"] / (k * 1e3)
    n = res["samples"]
    return {
        "timed_share_sampling": ratio(timed, sampling),
        "timed_share_sampling_corrected": ratio(timed_corr, sampling),
        "timed_share_run": ratio(timed, run_s),
        "timed_share_process": ratio(timed, r["wall_s"]),
        "samples_per_s_sampling": ratio(n, sampling),
        "samples_per_s_process": ratio(n, r["wall_s"]),
        "sampling_s": sampling,
        "setup_s": run_s - sampling,
        "startup_s": r["wall_s"] - run_s,
        "process_s": r["wall_s"],
    }


EFFICIENCY_UNITS = {"samples_per_s_sampling": "samples/s",
                    "samples_per_s_process": "samples/s"}


def bench_efficiency(run, a):
    opts = ["--op", "load", "--pattern", "rand", "--size", "64", "--region",
            a.region, "--samples", str(a.samples)]
    reps = [efficiency_figures(run.run(opts)) for _ in range(a.reps)]
    figs = {k: median_summary([x[k] for x in reps], EFFICIENCY_UNITS.get(
        k, "s" if k.endswith("_s") else "fraction")) for k in reps[0]}
    share = figs["timed_share_sampling"]["median"]
    return {"config": {"run": opts}, "figures": figs,
            "target": {"timed_share_sampling": EFFICIENCY_TARGET,
                       "met": share is not None and share >= EFFICIENCY_TARGET}}


def evidence_figures(on, off):
    """One repetition's pair: the cost, and the outliers explained."""
    def per_sample(r):
        res = result(r)
        return res["duration_ns"] / res["samples"] if res["samples"] else None
    rec = on["doc"]["outlier_records"]
    by = on["doc"]["outlier_summary"]["causes"]["by_cause"]
    unexplained = sum(by.get(k, {}).get("count", 0) for k in UNEXPLAINED)
    causes = on["doc"]["outlier_summary"]["causes"]
    return {"evidence_share": causes.get("evidence_share"),
            "ns_per_sample_on": per_sample(on),
            "ns_per_sample_off": per_sample(off),
            "cost": ratio(per_sample(on), per_sample(off)),
            "outliers": len(rec),
            "explained": ratio(len(rec) - unexplained, len(rec)),
            "none_seen": ratio(by.get("none seen", {}).get("count", 0),
                               len(rec))}


EVIDENCE_UNITS = {"ns_per_sample_on": "ns", "ns_per_sample_off": "ns",
                  "cost": "ratio", "outliers": "count"}


def bench_evidence(run, a):
    if run.engine != "user":
        return {"skipped": "the module's windows keep interrupts out and count NMIs at no cost (--no-evidence is the user engine's)"}
    opts = ["--op", "load", "--pattern", "rand", "--size", "64", "--region",
            a.region, "--samples", str(a.samples), "--threshold", "10x"]
    reps = []
    for i in range(a.reps):
        # in turn, the first of each pair alternating
        if i % 2:
            off = run.run(opts + ["--no-evidence"])
            on = run.run(opts)
        else:
            on = run.run(opts)
            off = run.run(opts + ["--no-evidence"])
        reps.append(evidence_figures(on, off))
    figs = {k: median_summary([x[k] for x in reps],
                              EVIDENCE_UNITS.get(k, "fraction"))
            for k in reps[0]}
    # the target on the reading's own share (measured in the run, free
    # of the host's drift between runs); the A/B ratio shows the rest
    cost = figs["evidence_share"]["median"]
    cost = None if cost is None else 1 + cost
    expl = figs["explained"]["median"]
    return {"config": {"run": opts}, "figures": figs,
            "target": {"cost": EVIDENCE_COST_TARGET,
                       "explained": EVIDENCE_EXPLAINED_TARGET,
                       "cost_met": cost is not None and
                       cost <= EVIDENCE_COST_TARGET,
                       "explained_met": expl is not None and
                       expl >= EVIDENCE_EXPLAINED_TARGET}}


def bench_agreement(run, a):
    common = ["--op", "load", "--size", "64", "--region", a.region]
    pages = [("4k", [])]
    if run.engine == "user":
        pages.append(("huge", ["--hugepages"]))
    out = {"config": {"chain": a.chain, "rand_samples": max(a.samples // 10, 1),
                      "chase_samples": max(a.samples // 100, 1),
                      "region": a.region}}
    for name, extra in pages:
        f = {k: [] for k in ("rand_p50", "chase_p50", "diff", "ratio",
                             "diff_overheads", "overhead")}
        for _ in range(a.reps):
            rnd = run.run(common + extra + ["--pattern", "rand", "--samples",
                                            str(out["config"]["rand_samples"])])
            chs = run.run(common + extra + ["--pattern", "chase", "--chain",
                                            str(a.chain), "--samples",
                                            str(out["config"]["chase_samples"])])
            x, y = lat(rnd), lat(chs)
            oh = result(rnd)["overhead_cycles"]["median"]
            f["rand_p50"].append(x)
            f["chase_p50"].append(y)
            f["diff"].append(y - x)
            f["ratio"].append(ratio(y, x))
            f["diff_overheads"].append(ratio(y - x, oh))
            f["overhead"].append(oh)
        out[name] = {"pages": "--hugepages (MADV_HUGEPAGE)" if extra else
                     "the default pages (4 KiB unless THP is 'always'; the "
                     "module: its direct map)",
                     "figures": {k: median_summary(v, {
                         "ratio": "ratio", "diff_overheads": "overheads"}.get(k, "cycles"))
                         for k, v in f.items()}}
    return out


def bench_memory(run, a):
    lo, hi = a.mem_samples
    opts = ["--op", "load", "--pattern", "seq", "--warm", "--region", a.mem_region]
    f = {k: [] for k in ("rss_lo", "rss_hi", "rss_ratio", "rss_growth")}
    mod = {k: [] for k in ("module_peak", "slab_delta")}
    for _ in range(a.reps):
        rl = run.run(opts + ["--samples", str(lo)], poll_meminfo=True)
        rh = run.run(opts + ["--samples", str(hi)], poll_meminfo=True)
        f["rss_lo"].append(rl["maxrss_kib"])
        f["rss_hi"].append(rh["maxrss_kib"])
        f["rss_ratio"].append(ratio(rh["maxrss_kib"], rl["maxrss_kib"]))
        f["rss_growth"].append(rh["maxrss_kib"] - rl["maxrss_kib"])
        for r in (rl, rh):
            b, e = r["meminfo_before"], r["meminfo_after"]
            low = r["memfree_low"] if r["memfree_low"] is not None else e["MemFree"]
            mod["module_peak"].append(max(b["MemFree"] - low - r["maxrss_kib"], 0))
            mod["slab_delta"].append(e.get("Slab", 0) - b.get("Slab", 0))
    out = {"config": {"run": opts, "samples": [lo, hi]}, "figures": {
        k: median_summary(v, "ratio" if k == "rss_ratio" else "KiB")
        for k, v in f.items()}}
    rr = out["figures"]["rss_ratio"]["median"]
    out["constant"] = rr is not None and rr <= MEM_GROWTH_LIMIT
    if run.engine == "user":
        out["module"] = {"skipped": "the user engine loads no module: its "
                         "memory is the process's RSS above"}
    else:
        out["module"] = {
            "method": "MemFree before the run minus its lowest value while "
                      "it ran (polled every %g s), less the tool's peak RSS; "
                      "Slab after minus before; noisy on a busy machine"
                      % MEMINFO_POLL_S,
            "figures": {k: median_summary(v, "KiB") for k, v in mod.items()}}
    return out


def table_ops(run, a):
    """The table's ops this CPU has: {op: why} for the others."""
    skipped = {}
    for op in TABLE_OPS:
        try:
            run.run(["--op", op, "--samples", "10", "--region", "64K"])
        except BenchError as e:
            if "which this CPU lacks" not in str(e):
                raise
            skipped[op] = "the CPU lacks its instruction"
    return [op for op in TABLE_OPS if op not in skipped], skipped


def row_shape(o, pre=""):
    """The paths of a JSON row's fields with their types (ints and floats
    alike: 0 is printed as an int; null alike too: a figure one run may
    lack, as the spacing of its own samples), not their values."""
    if isinstance(o, dict):
        out = {pre}
        for k, v in o.items():
            out |= row_shape(v, pre + "." + k)
        return out
    t = "number" if o is None or (isinstance(o, (int, float)) and
                                  not isinstance(o, bool)) \
        else type(o).__name__
    return {pre + ":" + t}


def rows_alike(a, b):
    """Why two sweeps' rows differ in keys, fields or counts; [] if not."""
    why = []
    if [r["key"] for r in a] != [r["key"] for r in b]:
        why.append("the points' keys differ")
    for x, y in zip(a, b):
        for block in ("config", "target", "result", "latency",
                      "outlier_summary"):
            if row_shape(x.get(block)) != row_shape(y.get(block)):
                why.append("point %s: the fields of %s differ" % (x["point"], block))
        if x["config"] != y["config"]:
            why.append("point %s: config differs" % x["point"])
        # counts that do not depend on timing (backwards and overflows
        # do: a hypervisor's TSC, a preempted sample)
        for k in ("state", "samples"):
            if x["result"][k] != y["result"][k]:
                why.append("point %s: result.%s %r, %r" % (
                    x["point"], k, x["result"][k], y["result"][k]))
    if len(a) != len(b):
        why.append("%d and %d rows" % (len(a), len(b)))
    return why


def table_figures(sw, points):
    """A sweep's wall time and how it splits: sampling (the runs' timed
    phases), setup (the rest of each run: its region, calibration, ...) and
    the rest of the process (start, checks between points, exit)."""
    rows = sw["rows"]
    total = sw["wall_s"]
    sampling = sum(r["result"]["duration_ns"] for r in rows) / 1e9
    setup = sum(r["result"]["wall_ns"] - r["result"]["duration_ns"]
                for r in rows) / 1e9
    return {"table_s": total, "point_s": ratio(total, points),
            "sampling_share": ratio(sampling, total),
            "setup_share": ratio(setup, total),
            "startup_share": ratio(total - sampling - setup, total),
            "reused_points": sum(1 for r in rows
                                 if r["result"].get("region_reused"))}


def bw_cpus(a):
    """The bandwidth benchmark's CPUs: --bw-threads of those this process
    may use, from --cpu on (wrapping)."""
    mine = sorted(os.sched_getaffinity(0))
    if a.cpu not in mine:
        raise BenchError("--cpu %d is not among this process's CPUs %r"
                         % (a.cpu, mine))
    at = mine.index(a.cpu)
    return [mine[(at + i) % len(mine)] for i in range(min(a.bw_threads,
                                                          len(mine)))]


def region_bytes(text):
    """lattester-ctl's BYTES (K, M, G, T: binary) as an int."""
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
    t = text.strip().upper().replace("IB", "")
    if t.endswith("B"):     # 64B
        t = t[:-1]
    return int(t[:-1]) * mult[t[-1]] if t[-1:] in mult else int(t)


def valid_bytes(text):
    try:
        return region_bytes(text) > 0
    except (ValueError, KeyError, IndexError):
        return False


def stream_ref(a, cpus, pattern, size, kernel="read"):
    """The reference loop's GB/s."""
    if not os.access(a.stream_ref, os.X_OK):
        raise BenchError("%s is not built (make build/bench/stream-ref)"
                         % a.stream_ref)
    out = subprocess.run([a.stream_ref, ",".join(str(c) for c in cpus),
                          str(region_bytes(a.region)),
                          str(size),
                          str(a.bw_duration), kernel, pattern],
                         capture_output=True, text=True)
    if out.returncode:
        raise BenchError("%s: exit %d: %s" % (a.stream_ref, out.returncode,
                                              out.stderr.strip()))
    kv = dict(line.split() for line in out.stdout.splitlines())
    return float(kv["gbps"])


def valid_mix(text):
    """R:W of --mix, with a write: 1:1, 2:1, 0:1."""
    m = re.fullmatch(r"([0-9]+):([0-9]+)", text)
    return bool(m) and int(m.group(2)) > 0 and \
        int(m.group(1)) + int(m.group(2)) <= 1000


def bw_key(pattern, size, mix=None):
    """A point's key: rand_64, or with a mix rand_64_mix2:1."""
    return "%s_%s" % (pattern, size) + ("_mix" + mix if mix else "")


def bw_what(x, loads=True):
    """A point's words: rand 64 B loads (without loads=: rand 64 B),
    rand 64 B --mix 2:1."""
    return "%s %d B" % (x["pattern"], x["size"]) + (
        " --mix " + x["mix"] if x.get("mix") else " loads" if loads else "")


def bench_bandwidth(run, a):
    cpus = bw_cpus(a)
    # one thread is --cpu's, as run takes it; more are a list
    threads = ["--cpus", ",".join(str(c) for c in cpus)] if len(cpus) > 1 else []
    # loads at every size; each --mix (its loads and stores, read and
    # written bytes both counted) at the smallest, where the streams' own
    # work weighs most
    grid = [(p, sz, None) for p in a.bw_patterns for sz in a.bw_sizes]
    grid += [(p, min(a.bw_sizes), m) for p in a.bw_patterns
             for m in a.bw_mixes]
    f = {bw_key(p, sz, m): {} for p, sz, m in grid}
    for rep in range(a.reps):
        # the points in turn, so that each one's repetitions are spread
        # over the run; within a point the two side by side, in turn
        # first: the machine's drift
        for p, sz, m in grid:
            got = {}
            for which in ("engine", "loop") if rep % 2 == 0 else ("loop", "engine"):
                if which == "engine":
                    d = run.run(["--mode", "bandwidth", "--op", "load",
                                 "--pattern", p, "--size", str(sz),
                                 "--region", a.region,
                                 "--duration", "%dms" % a.bw_duration] +
                                (["--mix", m] if m else []) +
                                threads)["doc"]
                    got[which] = d["threads"]["bandwidth"][
                        "total_gbps" if m else "read_gbps"]
                else:
                    got[which] = stream_ref(a, cpus, p, sz,
                                            "mix:" + m if m else "read")
            x = f[bw_key(p, sz, m)]
            x.setdefault("engine_gbps", []).append(got["engine"])
            x.setdefault("loop_gbps", []).append(got["loop"])
            x.setdefault("engine_over_loop", []).append(
                ratio(got["engine"], got["loop"]))
    units = {"engine_over_loop": "ratio"}
    out = {"config": {"threads": len(cpus), "cpus": cpus,
                      "patterns": a.bw_patterns,
                      "sizes": a.bw_sizes, "mixes": a.bw_mixes,
                      "points": len(grid), "region": a.region,
                      "duration_ms": a.bw_duration, "reps": a.reps,
                      "how": "at each point, lattester-ctl run --mode "
                             "bandwidth --op load --pattern P --size S, and "
                             "tools/bench/stream-ref.c read P (a vectorised "
                             "sum of each block; rand: blocks drawn with "
                             "SplitMix64) on the same CPUs and region size, "
                             "side by side in each repetition (in turn "
                             "first); ratio within a repetition; each "
                             "--mix R:W at the smallest size against "
                             "stream-ref mix:R:W (R blocks summed, W "
                             "stored), total GB/s"},
           "points": {}}
    for p, sz, m in grid:
        k = bw_key(p, sz, m)
        figs = {n: median_summary(v, units.get(n, "GB/s"))
                for n, v in f[k].items()}
        r = figs["engine_over_loop"]["median"]
        out["points"][k] = {"pattern": p, "size": sz, "mix": m,
                            "figures": figs,
                            "met": r is not None and r >= BW_TARGET}
    not_met = [k for k, x in out["points"].items() if not x["met"]]
    out["target"] = {"engine_over_loop": BW_TARGET, "at": "every point",
                     "met": not not_met, "not_met": not_met}
    return out


def bench_table(run, a):
    ops, skipped = table_ops(run, a)
    if not ops:
        raise BenchError("the CPU has none of the table's ops")
    grid = ["--op", ",".join(ops), "--pattern", ",".join(TABLE_PATTERNS),
            "--size", ",".join(str(x) for x in TABLE_SIZES), "--samples",
            str(a.table_samples)]
    if a.table_region:
        grid += ["--region", a.table_region]
    f = {}
    points = len(ops) * len(TABLE_PATTERNS) * len(TABLE_SIZES)
    alike, why, p50 = True, [], []
    for rep in range(a.table_reps):
        got = {}
        # the two side by side, in turn first: the machine's drift
        for mode, extra in (TABLE_MODES if rep % 2 == 0 else TABLE_MODES[::-1]):
            got[mode] = run.sweep(grid + extra)
            for k, v in table_figures(got[mode], points).items():
                f.setdefault(k if mode == "reuse" else mode + "_" + k, []).append(v)
        f.setdefault("speedup", []).append(
            ratio(got["no_reuse"]["wall_s"], got["reuse"]["wall_s"]))
        w = rows_alike(got["reuse"]["rows"], got["no_reuse"]["rows"])
        alike = alike and not w
        why += w
        # the figures themselves, for the eye only: noise moves them
        rs = [ratio(x["latency"]["cycles"]["p50"], y["latency"]["cycles"]["p50"])
              for x, y in zip(got["reuse"]["rows"], got["no_reuse"]["rows"])
              if x.get("latency") and y.get("latency")]
        rs = [r for r in rs if r is not None]
        p50.append(statistics.median(rs) if rs else None)
    f["p50_ratio"] = p50
    units = {"speedup": "ratio", "p50_ratio": "ratio",
             "reused_points": "points", "no_reuse_reused_points": "points"}
    out = {"config": {"ops": ops, "patterns": TABLE_PATTERNS,
                      "sizes": TABLE_SIZES, "samples": a.table_samples,
                      "region": a.table_region or "lattester-ctl's default",
                      "points": points, "reps": a.table_reps,
                      "how": "one `lattester-ctl sweep` of the table and one "
                             "`sweep --no-reuse`, side by side in each "
                             "repetition (in turn first); process wall time"},
           "figures": {k: median_summary(v, units.get(
               k, "s" if k.endswith("_s") else "fraction")) for k, v in f.items()},
           "alike": alike, "differences": why[:8]}
    sp = out["figures"]["speedup"]["median"]
    out["target"] = {"reuse_over_no_reuse": TABLE_TARGET,
                     "met": sp is not None and 1 / sp <= TABLE_TARGET}
    if skipped:
        out["skipped_ops"] = skipped
    return out


BENCH_FNS = {"timer": bench_timer, "efficiency": bench_efficiency,
             "agreement": bench_agreement, "memory": bench_memory,
             "bandwidth": bench_bandwidth, "table": bench_table,
             "evidence": bench_evidence}


def engine_problem(engine):
    """Why @engine can't run here, or None."""
    if engine == "user":
        return None
    dev = os.environ.get("LATTESTER_DEV") or "/dev/lattester"
    if not os.path.exists(dev):
        return "no %s: the module is not loaded (sudo insmod kmod/lattester.ko)" % dev
    if not os.access(dev, os.R_OK | os.W_OK):
        return "cannot open %s: root (CAP_SYS_ADMIN) is needed" % dev
    return None


def machine(prov):
    return {"cpu_model": prov["cpu_model"], "kernel": prov["kernel"],
            "hostname": prov["hostname"], "cores": os.cpu_count(),
            "tsc_khz": prov["tsc_khz"]}


def run_engine(a, engine, tmp):
    why = engine_problem(engine)
    if why:
        return {"skipped": why}, True
    run = Runner(a, engine, tmp)
    out = {"benchmarks": {}, "loadavg_before": list(os.getloadavg())}
    ok = True
    for b in a.only:
        t0 = time.monotonic()
        try:
            out["benchmarks"][b] = BENCH_FNS[b](run, a)
        except (BenchError, OSError, subprocess.CalledProcessError, KeyError,
                ValueError) as e:
            print("bench: %s: %s: %s" % (engine, b, e), file=sys.stderr)
            out["benchmarks"][b] = {"error": str(e)}
            ok = False
        out["benchmarks"][b]["bench_s"] = time.monotonic() - t0
    out["loadavg_after"] = list(os.getloadavg())
    if run.provenance:
        out["machine"] = machine(run.provenance)
    return out, ok


# ---- the table on stdout ----

def fmt(v, unit, bare=False):
    if v is None:
        return "-"
    if unit == "fraction":
        return "%.1f%%" % (100 * v)
    if unit == "samples/s":
        return "%.3g" % v + ("" if bare else "/s")
    if unit == "s":
        return "%.3f" % v + ("" if bare else " s")
    if unit in ("ratio", "timer steps", "overheads"):
        return "%.3f" % v if unit == "ratio" and abs(v - 1) < 0.05 else "%.2f" % v
    if unit == "ns":
        return "%.1f" % v + ("" if bare else " ns")
    if unit == "core cycles":
        return "%.1f" % v + ("" if bare else " core")
    if unit == "points":
        return "%g" % v
    if unit == "GB/s":
        return "%.2f" % v + ("" if bare else " GB/s")
    if unit == "KiB":
        return "%.0f" % v + ("" if bare else " KiB")
    return "%g" % v + ("" if bare or unit != "cycles" else " cyc")


ROWS = {  # benchmark: [(path to the figure, label)]
    "timer": [
        ("overhead_median", "overhead, median of 1024 empty samples"),
        ("overhead_spread", "overhead max - min (spread)"),
        ("rdtscp_step", "TSC step seen by back-to-back rdtscp"),
        ("rdtsc_step", "TSC step seen by back-to-back rdtsc"),
        ("hist_step", "TSC step in the L1 run's raw values"),
        ("l1_p50", "L1 hit, corrected p50"),
        ("l1_mean", "L1 hit, corrected mean"),
        ("l1_p50_steps", "L1 hit p50 in timer steps"),
        ("quantum", "TSC quantum (the engine's)"),
        ("read_cost", "timer read cost"),
        ("l1_p50_quanta", "L1 hit p50 in quanta"),
        ("core_ratio", "core cycles per TSC cycle"),
        ("l1_p50_core", "L1 hit, corrected p50, core cycles"),
        ("l1_p50_ci_width", "L1 hit p50's 95%% interval, width"),
        ("l1_mean_ci_width", "L1 hit mean's 95%% interval, width"),
        ("l1_chase_batch_core", "L1 chase, --batch 64, core cycles a load"),
        ("l1_chase_batch_ci_width", "... its 95%% interval, width")],
    "efficiency": [
        ("timed_share_sampling", "timed share of the sampling phase"),
        ("timed_share_run", "timed share of the run (with setup)"),
        ("timed_share_process", "timed share of the whole process"),
        ("samples_per_s_sampling", "samples/s while sampling"),
        ("samples_per_s_process", "samples/s of the whole process"),
        ("setup_s", "setup: alloc, pre-fault, calibration, free"),
        ("startup_s", "process start and exit outside the run")],
    "agreement": [
        ("4k.rand_p50", "rand load p50 (default pages)"),
        ("4k.chase_p50", "chase p50 per load (default pages)"),
        ("4k.ratio", "chase / rand (default pages)"),
        ("huge.rand_p50", "rand load p50 (--hugepages)"),
        ("huge.chase_p50", "chase p50 per load (--hugepages)"),
        ("huge.ratio", "chase / rand (--hugepages)"),
        ("huge.diff_overheads", "chase - rand in overheads (--hugepages)")],
    "memory": [
        ("rss_lo", "peak RSS, %(lo)d samples"),
        ("rss_hi", "peak RSS, %(hi)d samples"),
        ("rss_ratio", "peak RSS ratio, %(hi)d / %(lo)d samples"),
        ("module.module_peak", "module: MemFree drop less the tool's RSS"),
        ("module.slab_delta", "module: Slab after - before")],
    "bandwidth": lambda b: [  # a point's three rows, each point in turn
        row for k, x in b["points"].items() for row in (
            ("points.%s.engine_gbps" % k, "%s, %%(threads)d threads, "
             "lattester" % bw_what(x)),
            ("points.%s.loop_gbps" % k, "%s, the same from a plain loop"
             % bw_what(x, loads=False)),
            ("points.%s.engine_over_loop" % k, "%s, lattester / the loop"
             % bw_what(x, loads=False)))],
    "evidence": [
        ("evidence_share", "share of the sampling spent reading it"),
        ("ns_per_sample_on", "sampling time a sample, evidence on"),
        ("ns_per_sample_off", "the same, --no-evidence"),
        ("cost", "on / off"),
        ("outliers", "outliers of 10x the median"),
        ("explained", "of them with a cause, or none seen"),
        ("none_seen", "of them none seen (a quiet window)")],
    "table": [
        ("table_s", "basic latency table, %(points)d points, sweep"),
        ("no_reuse_table_s", "the same, sweep --no-reuse"),
        ("speedup", "--no-reuse / reuse"),
        ("point_s", "per point (reuse)"),
        ("no_reuse_point_s", "per point (--no-reuse)"),
        ("sampling_share", "share spent sampling (reuse)"),
        ("no_reuse_sampling_share", "share spent sampling (--no-reuse)"),
        ("setup_share", "share in the runs' setup (reuse)"),
        ("no_reuse_setup_share", "share in the runs' setup (--no-reuse)"),
        ("startup_share", "share outside the runs (reuse)"),
        ("reused_points", "points that reused their region"),
        ("p50_ratio", "p50 reuse / --no-reuse, median of points")],
}


def figure(b, path):
    node = b
    parts = path.split(".")
    for p in parts[:-1]:
        node = node.get(p, {})
    return node.get("figures", {}).get(parts[-1])


def verdicts(name, b, s):
    """The lines under a benchmark's figures: targets, skips."""
    if name == "timer":
        yield "L1 hit within one timer step of zero: %s" % (
            "yes" if b["l1_within_one_step"] else "no")
        yield "L1 hit within one timer quantum of zero: %s" % (
            "yes" if b.get("l1_within_one_quantum") else "no")
        if "tsc_step_helper" in b:
            yield "tsc-step: skipped: " + b["tsc_step_helper"]["skipped"]
    elif name == "efficiency":
        yield "target: >= %d%% of the sampling phase timed: %s" % (
            100 * b["target"]["timed_share_sampling"],
            "met" if b["target"]["met"] else "NOT met")
    elif name == "table":
        yield "the two sweeps' rows alike in keys, fields and counts: %s" % (
            "yes" if b["alike"] else "NO: " + "; ".join(b["differences"][:3]))
        yield "target: reuse in <= %d%% of the --no-reuse time: %s" % (
            100 * b["target"]["reuse_over_no_reuse"],
            "met" if b["target"]["met"] else "NOT met")
    elif name == "evidence" and "skipped" in b:
        yield "skipped: " + b["skipped"]
    elif name == "evidence":
        yield "target: evidence costs at most %d%% of the sampling time: %s" % (
            round(100 * (b["target"]["cost"] - 1)),
            "met" if b["target"]["cost_met"] else "NOT met")
        yield "target: >= %d%% of the outliers explained: %s" % (
            100 * b["target"]["explained"],
            "met" if b["target"]["explained_met"] else "NOT met")
    elif name == "bandwidth":
        t = b["target"]
        for p in b["config"]["patterns"]:
            yield "target: >= %gx the loop, %s: %s" % (
                t["engine_over_loop"], p, ", ".join(
                    "%d B%s %s" % (x["size"],
                                   " --mix " + x["mix"] if x.get("mix") else "",
                                   "met" if x["met"] else "NOT met")
                    for x in b["points"].values() if x["pattern"] == p))
        yield "target: >= %gx the loop at every point: %s (%d of %d met)" % (
            t["engine_over_loop"], "met" if t["met"] else "NOT met",
            len(b["points"]) - len(t["not_met"]), len(b["points"]))
    elif name == "memory":
        yield "peak RSS independent of the sample count: %s" % (
            "yes" if b["constant"] else "NO")
        if "skipped" in b["module"]:
            yield "module memory: skipped: " + b["module"]["skipped"]
    for op, why in b.get("skipped_ops", {}).items():
        yield "--op %s: skipped: %s" % (op, why)


def print_table(doc, f=sys.stdout):
    s = doc["settings"]
    for engine, e in doc["engines"].items():
        if "skipped" in e:
            print("engine %s: skipped: %s" % (engine, e["skipped"]), file=f)
            continue
        m = e.get("machine", {})
        print("engine %s on %s (%s cores), kernel %s, tsc_khz %s, %s: "
              "median of %d reps (table: %d) [min..max]" % (
                  engine, m.get("cpu_model"), m.get("cores"), m.get("kernel"),
                  m.get("tsc_khz"), doc["date"], s["reps"], s["table_reps"]),
              file=f)
        print("  load average (1 min) %.2f before, %.2f after: the other "
              "tasks on the machine" % (e["loadavg_before"][0],
                                        e["loadavg_after"][0]), file=f)
        for name, b in e["benchmarks"].items():
            if "error" in b:
                print("  %-10s failed: %s" % (name, b["error"].splitlines()[0]),
                      file=f)
                continue
            names = {"lo": s["mem_samples"][0], "hi": s["mem_samples"][1],
                     "points": b.get("config", {}).get("points", 0),
                     "threads": b.get("config", {}).get("threads", 0)}
            rows = ROWS[name](b) if callable(ROWS[name]) else ROWS[name]
            for path, label in rows:
                fig = figure(b, path)
                if fig is None:
                    continue
                print("  %-10s %-44s %12s  [%s..%s]" % (
                    name, label % names, fmt(fig["median"], fig["unit"]),
                    fmt(fig["min"], fig["unit"], True),
                    fmt(fig["max"], fig["unit"], True)), file=f)
            for line in verdicts(name, b, s):
                print("  %-10s %s" % (name, line), file=f)


def main(argv):
    a = parse_args(argv)
    if not os.access(a.ctl, os.X_OK):
        print("bench: %s is not built (make -C user)" % a.ctl, file=sys.stderr)
        return 1
    now = datetime.datetime.now(datetime.timezone.utc)
    out = a.out or os.path.join(TOP, "build/bench",
                                "bench-%s.json" % now.strftime("%Y%m%d-%H%M%S"))
    doc = {"schema": SCHEMA, "date": now.strftime("%Y-%m-%dT%H:%M:%SZ"),
           "settings": {"reps": a.reps, "table_reps": a.table_reps,
                        "engines": a.engines, "cpu": a.cpu, "region": a.region,
                        "samples": a.samples, "chain": a.chain,
                        "mem_samples": a.mem_samples, "mem_region": a.mem_region,
                        "table_samples": a.table_samples,
                        "table_region": a.table_region,
                        "bw_threads": a.bw_threads,
                        "bw_patterns": a.bw_patterns, "bw_sizes": a.bw_sizes,
                        "bw_mixes": a.bw_mixes,
                        "bw_duration_ms": a.bw_duration, "benchmarks": a.only},
           "engines": {}}
    ok = True
    tmp = tempfile.mkdtemp(prefix="lattester-bench.")
    try:
        for engine in a.engines:
            doc["engines"][engine], good = run_engine(a, engine, tmp)
            ok = ok and good
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    doc["machine"] = next((e["machine"] for e in doc["engines"].values()
                           if "machine" in e), None)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print_table(doc)
    print("written: %s" % out)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
