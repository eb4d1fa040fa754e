/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run-opts.h - the option rows that run and sweep share, in one wording
 * each (and the few matrix takes too): a sweep gives every point such an
 * option as run takes it.  The rows whose value a sweep lists (--target,
 * --cpu, --threads, --delay, --op, --fence, --pattern, --size, --region),
 * and each command's own, stay in its table (cmd-run.c, cmd-sweep.c,
 * cmd-matrix.c).  runner.c's run_opt() parses them all, for every command.
 */
#ifndef _LATT_RUN_OPTS_H
#define _LATT_RUN_OPTS_H

#include "builtin.h"
#include "run.h"

#define RUN_OPT_ENGINE \
	OPT_ROW("engine", OPT_ENGINE, "user|kernel", \
	  "who takes the samples: kernel, the module (default; root), or user, a thread of this program pinned to --cpu (one per CPU with --threads/--cpus), no module (dram without root, device-DAX, a file on a DAX filesystem; interrupts not kept out)")

/* how the threads of a run share out the work */
#define RUN_OPTS_THREADS \
	OPT_ROW("cpus", OPT_CPUS, "LIST", \
	  "CPUs of the threads, e.g. 0-3,8 or 0..3,8; the first takes the samples of --mode loaded (default: --cpu)"), \
	OPT_ROW("mode", OPT_MODE, "latency|bandwidth|loaded", \
	  "latency: every thread times --samples accesses; bandwidth: every thread streams untimed accesses for --duration and counts bytes; loaded: thread 0 times --samples accesses while the others stream, corrected by its timer overhead calibrated under that traffic (default: latency)"), \
	OPT_ROW("duration", OPT_DURATION, "TIME", \
	  "--mode bandwidth: how long, 1ms..3600s, e.g. 500ms, 2s (default: 1s)"), \
	OPT_ROW("split", OPT_SPLIT, NULL, \
	  "each thread on its own part of --region (region / threads, in whole 4 MiB chunks) instead of all sharing it")

/* where a loaded run's traffic streams */
#define RUN_OPT_TRAFFIC_TARGET \
	OPT_ROW("traffic-target", OPT_TRAFFIC_TARGET, "TARGET", \
	  "--mode loaded: the memory the traffic streams on, any --target (dram:1, /dev/dax1.0, cxl:region0, ...; dram: the node of the second thread's CPU), while thread 0 measures --target: one memory's latency under another's traffic (default: the traffic shares --target's region)"), \
	OPT_ROW("traffic-region", OPT_TRAFFIC_REGION, "BYTES", \
	  "--traffic-target's region, as --region is --target's (default: --region, or the traffic target's default)")

/* run's --mix (sweep's is a list) and the write op of either */
#define RUN_OPT_MIX \
	OPT_ROW("mix", OPT_MIX, "R:W", \
	  "streaming threads: R loads, then W accesses of --write-op, again and again, e.g. 2:1 (default: every access is --op; loaded: loads)")
#define RUN_OPT_WRITE_OP \
	OPT_ROW("write-op", OPT_WRITE_OP, "OP", \
	  "the store op of --mix's writes (default: store)")

/* what is measured, beside the sweep's dimensions */
#define RUN_OPTS_MEASURE \
	OPT_ROW("samples", OPT_SAMPLES, "N", \
	  "samples to take: a count such as 100000, 100k, 1.5M or 1e6 (decimal: k = 10^3, M = 10^6, G = 10^9) (default: " \
	  STR(RUN_DEFAULT_SAMPLES) ")"), \
	OPT_ROW("offset", OPT_OFFSET, "BYTES", \
	  "pmem, device-DAX, files: where the region starts in the target, a multiple of 4096 (default: 0)"), \
	OPT_ROW("force", OPT_FORCE, NULL, \
	  "pmem, device-DAX, files: allow store ops and chase, which overwrite the target's data"), \
	OPT_ROW("skip-badblocks", OPT_SKIP_BADBLOCKS, NULL, \
	  "pmem, device-DAX, files: instead of refusing a region that holds a known bad block, measure the largest stretch from --offset on that holds none (--region bytes at its start, or all of it)"), \
	OPT_ROW("allow-unchecked", OPT_ALLOW_UNCHECKED, NULL, \
	  "pmem, device-DAX: measure with the module a target whose known bad blocks can't be checked (CXL, soft-reserved memory) where a load of poison would be a kernel panic (a CPU without recoverable machine checks, a module without machine-check fixups); without it such a run is refused"), \
	OPT_ROW("seed", OPT_SEED, "S", \
	  "address generator seed (default: " STR(RUN_DEFAULT_SEED) ")"), \
	OPT_ROW("chain", OPT_CHAIN, "K", \
	  "dependent loads per sample, with --pattern chase (default: 1)"), \
	RUN_OPT_TLB_LOCALITY, \
	OPT_ROW("threshold", OPT_THRESHOLD, "T", \
	  "record samples above T as outliers: cycles (2000), a time (500ns, 2us, 1ms) or a multiple of the median (10x: a calibration pass first, each sweep point its own); overhead subtracted, per sample (default: 0, none)"), \
	OPT_ROW("max-outliers", OPT_MAX_OUTLIERS, "N", \
	  "outlier records kept (default: " STR(RUN_DEFAULT_MAX_OUTLIERS) ")"), \
	OPT_ROW("no-evidence", OPT_NO_EVIDENCE, NULL, \
	  "--engine user, --threshold: don't count the interrupts, switches, faults and steal around each window that give each outlier its cause (Documentation/methodology.md, causes): the causes are then unknown")

#define RUN_OPT_TLB_LOCALITY \
	OPT_ROW("tlb-locality", OPT_TLB_LOCALITY, "BYTES", \
	  "--pattern chase: visit every node of a block of BYTES (a power of two, e.g. 4K) in random order before the next block, as multichase's -T: one TLB miss per block, not per load (default: 0, one random cycle over the region)")

/* how each sample is taken */
#define RUN_OPT_WINDOW_US \
	OPT_ROW("window-us", OPT_WINDOW_US, "US", \
	  "interrupt-off window, 10..100000 (default: 0, the module's)")
#define RUN_OPT_WIDTH \
	OPT_ROW("width", OPT_WIDTH, "auto|8|16|32|64", \
	  "access width in bytes (default: auto, the widest)")
#define RUN_OPT_WARM \
	OPT_ROW("warm", OPT_WARM, NULL, \
	  "touch the lines before each sample instead of flushing them")
#define RUN_OPT_TIMER \
	OPT_ROW("timer", OPT_TIMER, "auto|rdtscp|rdtsc", \
	  "the timestamps: rdtscp, or rdtsc for 'lfence; rdtsc' (default: auto, rdtscp where CPUID has it, else rdtsc)")
#define RUN_OPTS_SAMPLE \
	RUN_OPT_WINDOW_US, \
	RUN_OPT_WIDTH, \
	OPT_ROW("hugepages", OPT_HUGEPAGES, NULL, \
	  "--engine user, dram: ask for transparent huge pages for the region (MADV_HUGEPAGE)"), \
	RUN_OPT_WARM, \
	RUN_OPT_TIMER

#endif /* _LATT_RUN_OPTS_H */
