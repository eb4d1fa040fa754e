/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run.h - one run of the module as lattester-ctl does it (runner.c): the
 * options, the checks, the optional calibration pass for a --threshold
 * given as a multiple of the median, the run itself and its report.  Both
 * `run` (cmd-run.c) and every point of `sweep` (cmd-sweep.c) go through
 * run_measure().  The reports of a run are printed by report.h's
 * functions.
 */
#ifndef _LATT_RUN_H
#define _LATT_RUN_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <time.h>

#include <uapi/lattester.h>
#include <lattester/rules.h>
#include "builtin.h"
#include "cxl.h"
#include "dev.h"
#include "map.h"
#include "msr.h"
#include "coreclk.h"
#include "duty.h"
#include "outstats.h"
#include "parse.h"
#include "pmem.h"
#include "stats.h"
#include "threads.h"

#define RUN_DEFAULT_SEED	0x1a77e57e
#define RUN_DEFAULT_SIZE	64
#define RUN_DEFAULT_SAMPLES	100000
#define RUN_DEFAULT_REGION	(1ULL << 30)
#define RUN_DEFAULT_MAX_OUTLIERS 4096
#define RUN_CALIBRATION_SAMPLES	10000	/* the pass that finds the median */

#define RUN_MAX_WARNINGS	8
#define RUN_MAX_REPEAT		1000	/* --repeat */

/* The options of run; sweep has them too (cmd-sweep.c). */
enum run_opt_id {
	OPT_TARGET = 256,
	OPT_CPU,
	OPT_OP,
	OPT_FENCE,
	OPT_PATTERN,
	OPT_SIZE,
	OPT_SAMPLES,
	OPT_REGION,
	OPT_SEED,
	OPT_CHAIN,
	OPT_THRESHOLD,
	OPT_MAX_OUTLIERS,
	OPT_WINDOW_US,
	OPT_WIDTH,
	OPT_WARM,
	OPT_JSON,
	OPT_HIST,
	OPT_QUIET,
	OPT_FORCE,
	OPT_OFFSET,
	OPT_OUTLIERS,
	OPT_ENGINE,
	OPT_HUGEPAGES,
	OPT_NO_EVIDENCE,
	OPT_THREADS,
	OPT_CPUS,
	OPT_MODE,
	OPT_DURATION,
	OPT_MIX,
	OPT_WRITE_OP,
	OPT_DELAY,
	OPT_SPLIT,
	OPT_TIMER,
	OPT_TLB_LOCALITY,
	OPT_HIST_FORMAT,
	OPT_SKIP_BADBLOCKS,
	OPT_ALLOW_UNCHECKED,
	OPT_REPEAT,
	OPT_BATCH,
	OPT_BATCH_PAIRS,
	OPT_TRAFFIC_TARGET,
	OPT_TRAFFIC_REGION,
	OPT_RUN_LAST,		/* sweep's own options follow */
};

/**
 * struct run_target - what was measured, for the reports
 * @spec: the --target as given ("dram" by default)
 * @kind: "dram", "pmem" (a pmem block device), "devdax" or "fsdax-file"
 * @pm: a pmem or devdax target as resolved
 * @offset: --offset: where the region starts in @pm's range
 * @cxl: for a cxl:regionN spec, what the region was when the run began
 *	and what that resolved to (a devdax @pm, or dram:NODE); else
 *	@cxl.region is ""
 */
/*
 * What --skip-badblocks did: @runs runs of known bad blocks (@sectors
 * blocks of 512 bytes) from --offset @from on, and @unmeasured bytes of
 * the target from there left out.  @done is false where nothing moved.
 */
struct run_skip {
	bool done;
	unsigned int runs;
	__u64 sectors, from, unmeasured;
};

struct run_target {
	char spec[PATH_MAX];
	char kind[16];
	struct pmem_target pm;
	__u64 offset;
	struct run_skip skip;	/* --skip-badblocks */
	struct cxl_inv_resolved cxl;
	char unchecked[192];	/* why its known bad blocks went unchecked
				 * (no list), or "" */
};

/**
 * struct run_opts - a run as asked for
 * @cfg: the configuration for START; cfg.threshold is filled from @thr
 *	once the TSC frequency (and for "Nx" the median) is known
 * @target: for messages: "dram:NODE" once resolved, else the spec
 */
struct run_opts {
	struct latt_config cfg;
	__u64 batch_pairs;	/* --batch-pairs, 0: run_batch_pairs()'s */
	struct threshold_spec thr;
	const char *json;
	const char *hist;
	const char *hist_format;	/* --hist-format: "gnuplot", "hgrm" */
	const char *outliers;
	bool quiet;
	bool force;
	bool region_set;	/* --region given */
	bool offset_set;	/* --offset given */
	bool user_engine;	/* --engine user */
	bool engine_set;	/* --engine given */
	bool hugepages;		/* --hugepages (user engine) */
	bool no_evidence;	/* --no-evidence (user engine) */
	bool timer_rdtscp;	/* --timer rdtscp: never the fallback */
	bool skip_badblocks;	/* --skip-badblocks (pmem) */
	bool durable;		/* --op durable: the op and fence are the
				 * target's shortest durable store sequence
				 * (run_durable_op()) */
	bool fence_set;		/* --fence given */
	bool allow_unchecked;	/* --allow-unchecked (pmem) */
	__u64 tlb_locality;	/* --tlb-locality: chase's stride */
	__u32 repeat;		/* --repeat: runs of the one configuration */
	struct thread_opts th;	/* --threads, --cpus, --mode, ... */
	struct target_spec spec;
	struct run_target tgt;	/* resolved */
	char target[PATH_MAX];
	const char *traffic;	/* --traffic-target as given, or NULL */
	__u64 traffic_region;	/* --traffic-region, 0: --region's rule */
	const struct run_opts *traffic_run;	/* while a run is measured:
						 * the traffic's target,
						 * resolved (runner.c) */
};

/**
 * struct run_traffic - a loaded run's --traffic-target as resolved, for
 *	the reports
 * @name: what the traffic streamed on, as a --target names it once
 *	resolved ("dram:1", "/dev/dax1.0", "cxl:region0"); "" without one
 * @kind: as struct run_target's
 * @node: its NUMA node (DRAM), or -1
 * @region: its bytes
 */
struct run_traffic {
	char name[PATH_MAX];
	char kind[16];
	int node;
	__u64 region;
};

/**
 * struct run_threshold - how the threshold was found, for the reports
 * @calibration: samples of the calibration pass ("Nx" only), else 0
 * @median: its corrected p50 in cycles per sample
 */
struct run_threshold {
	struct threshold_spec spec;
	__u64 cycles;
	__u64 calibration;
	__u64 median;
};

/**
 * struct run_quantum - the timer's quantum as a run reports it (quantum.h)
 * @quantum: what the figures are read against, 1/256 cycle: @timer, or
 *	@samples where the engine did not say, or one cycle where neither
 *	knows (@assumed: nothing finer exists)
 * @timer: the engine's (struct latt_info.timer_quantum), 0 = unknown
 * @samples: the spacing of the run's own raw samples below
 *	LATT_HIST_EXACT cycles (one timing thread's), 0 = none found (fewer
 *	than three values there)
 * @used: the samples @samples was found from
 * @finer: @samples is finer than @timer (by more than 2%): the TSC is
 *	not the one the engine measured, or moved otherwise
 */
struct run_quantum {
	__u64 quantum;
	__u64 timer;
	__u64 samples;
	__u32 used;
	bool finer;
	bool assumed;
};

struct run_report {
	const struct cmd_ctx *ctx;	/* the command line */
	const struct latt_info *info;
	const struct run_target *target;
	__u64 samples_asked;
	struct latt_result res;		/* as run, defaults resolved */
	__u64 *hist;			/* LATT_HIST_BUCKETS raw-cycle counts */
	struct latt_outlier *outliers;	/* res.outlier_len records */
	struct latt_summary sum;
	struct timespec start, end;	/* CLOCK_REALTIME around the run */
	bool interrupted;		/* SIGINT/SIGTERM aborted it */
	bool user_engine;		/* measured by --engine user */
	__u64 poison_offset;		/* -EHWPOISON: the poisoned line's
					 * byte of the region (ABI 2.3's
					 * latt_status.poison_offset) */
	bool durable;			/* --op durable chose op and fence */
	bool region_reused;		/* the point's first run took the
					 * region an earlier point left
					 * (struct run_keep) */
	struct latt_info info_copy;	/* what @info points to */
	struct run_threshold thr;
	struct outlier_summary osum;	/* with a threshold */
	struct cause_summary cause;	/* with a threshold: the records'
					 * causes (outstats.h) */
	struct latt_wev *wev;		/* the user engine's evidence of the
					 * windows that hold records */
	size_t nr_wev;
	struct smi_count smi;		/* with a threshold */
	struct thread_report trep;	/* threads or a mode (ABI 1.2) */
	struct run_duty duty;		/* a streaming run's duty cycle, and
					 * whether it was disturbed (duty.h) */
	struct run_traffic traffic;	/* --traffic-target (name "": none) */
	char page_note[64];		/* how res.page_size was found */
	char clocksource[32];		/* the kernel's, at the run's end */
	struct run_quantum q;		/* the timer's quantum */
	struct core_clock core;		/* core cycles per TSC cycle */
	struct latt_batch batch;	/* --batch: K, pairs (batch 0: none) */
	struct latt_batch_pair *batch_pairs;	/* batch.len of them */
	char warnings[RUN_MAX_WARNINGS][320]; /* run_warnings()'s */
	int nr_warnings;
};

/*
 * Ctrl-C: every SIGINT adds 1 to run_stops, SIGTERM makes it at least 2.
 * A run is aborted once run_stops reaches run_hooks.abort_at.
 */
extern volatile sig_atomic_t run_stops;
void run_catch_signals(void);

struct user_keep;

/**
 * struct run_keep - what a sweep keeps from one point to the next, so that
 *	points that share a region don't allocate, lock and fault it in
 *	again (runner.c): run_keep_init() before the first, run_keep_release()
 *	after the last (or when a point fails)
 * @dev: the kernel engine's /dev/lattester, open across the points (fd -1:
 *	not open); START takes LATT_CFG_REUSE where the module has
 *	LATT_FEAT_REUSE, and the module keeps the region on this file
 * @claim_fd: a pmem target's claim (0: none), kept while the points share
 *	the target: the module's kept region holds it per open file
 * @claim_path, @claim_rdonly: what @claim_fd is open on, and how
 * @dax: a device-DAX claim's mapping for the module (latt_config.map_addr,
 *	LATT_FEAT_DAX_MAP), kept with the claim: the module takes its kept
 *	region only for the same map_addr
 * @dax_offset, @dax_len, @dax_writes: what @dax maps, and how
 * @user: the user engine's region (engine-user.c), or NULL
 * @held_node, @held_bytes: DRAM the kept region holds on a node (-1: none),
 *	which the node's free memory no longer shows: the clamp of the next
 *	point's region counts it as free
 * @traffic: the same for a --traffic-target's claim, mapping and user
 *	engine region (its own @dev is never opened), or NULL before the
 *	first point with one
 */
struct run_keep {
	struct latt_dev dev;
	int claim_fd;
	char claim_path[PATH_MAX];
	bool claim_rdonly;
	struct map_region dax;
	__u64 dax_offset, dax_len;
	bool dax_writes;
	struct user_keep *user;
	int held_node;
	__u64 held_bytes;
	struct run_keep *traffic;
};

void run_keep_init(struct run_keep *k);
void run_keep_release(struct run_keep *k);

/**
 * struct run_hooks - how run_measure() behaves inside a command
 * @abort_at: run_stops at which the run is aborted (run: 1, sweep: 2)
 * @progress: called at every poll while a run goes (NULL: none)
 * @engine_hint: without the module and --engine, suggest --engine user
 * @keep: a sweep's device, claim and region kept between its points; NULL
 *	(run, matrix, sweep --no-reuse): every run opens, claims, allocates
 *	and frees its own
 */
struct run_hooks {
	int abort_at;
	void (*progress)(void *arg, const struct latt_status *st);
	void *arg;
	bool engine_hint;	/* the command has --engine: name it when
				 * the module is missing */
	struct run_keep *keep;
};

/*
 * The run writes to its target: a store op, chase (its links), or a
 * --mix's writes, unless they go to a --traffic-target (rules.h's
 * latt_target_writes(), the module's rule too).
 */
static inline bool run_writes(const struct run_opts *o)
{
	return latt_target_writes(&o->cfg, o->traffic != NULL);
}

void run_defaults(struct run_opts *o);
int run_set_option(struct run_opts *o, int id, const char *v);
/* --op durable: the target's shortest durable store sequence */
#define RUN_OP_DURABLE	"durable"
bool run_durable_op(const char *domain, __u64 features, __u32 *op,
		    __u32 *fence);
const char *run_args_problem(const struct run_opts *o);
__u32 run_batch_pairs(const struct run_opts *o);
void run_open_failed(int rc, bool hint);
int run_measure(struct run_opts *o, struct run_report *r,
		const struct run_hooks *h);
int run_exit_status(const struct run_opts *o, const struct run_report *r);
void run_report_free(struct run_report *r);

#endif /* _LATT_RUN_H */
