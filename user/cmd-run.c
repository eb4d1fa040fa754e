// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-run.c - lattester-ctl run: parse the options, measure once
 * (runner.c), report: the table, and the JSON, histogram and outlier files.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lattester/core.h>
#include "builtin.h"
#include "log.h"
#include "outfile.h"
#include "parse.h"
#include "report.h"
#include "run.h"
#include "run-opts.h"

#define RUN_HELP		(-1)

static const struct cmd_opt run_options[] = {
	RUN_OPT_ENGINE,
	OPT_ROW("target", OPT_TARGET, "TARGET",
	  "memory to measure: dram[:NODE] (DRAM of NUMA node NODE; default: dram, the node of --cpu), /dev/pmemN, /dev/daxX.Y, namespaceX.Y, or cxl:regionN, a CXL region as it is when the run begins: its device-DAX device or the node its memory was onlined to (see 'lattester-ctl list'); with --engine user also the path of a file on a DAX filesystem (ext4/xfs -o dax)"),
	OPT_ROW("cpu", OPT_CPU, "N", "CPU that takes the samples (default: the first CPU of this process's affinity mask: 0, or taskset's)"),
	OPT_ROW("threads", OPT_THREADS, "N",
	  "threads, one per CPU (kthreads; --engine user: pthreads): the first N of --cpus, or N online CPUs from --cpu up (default: 1)"),
	RUN_OPTS_THREADS,
	RUN_OPT_MIX,
	RUN_OPT_WRITE_OP,
	RUN_OPT_TRAFFIC_TARGET,
	OPT_ROW("delay", OPT_DELAY, "CYCLES",
	  "streaming threads wait CYCLES TSC cycles (up to 1048576) after each access: the injection delay that steps the load of --mode loaded (default: 0)"),
	OPT_ROW_NAMES("op", OPT_OP, "OP", "access (default: load; movdir64b: one 64-byte direct store a line, where CPUID has MOVDIR64B; durable, on persistent memory: the shortest store sequence durable in the target's persistence domain, store + sfence on eADR, store-clwb + sfence on ADR, refused where the domain is none or unknown)", NAMES_OP),
	OPT_ROW_NAMES("fence", OPT_FENCE, "FENCE",
	  "fence inside the timed region, before the second timestamp (default: none after loads, mfence after store ops, which times them to completion; sfence and none: their issue only)",
	  NAMES_FENCE),
	OPT_ROW_NAMES("pattern", OPT_PATTERN, "PATTERN", "addresses (default: rand)",
	  NAMES_PATTERN),
	OPT_ROW("size", OPT_SIZE, "BYTES",
	  "bytes per access, a multiple of 64 (default: "
	  STR(RUN_DEFAULT_SIZE) ")"),
	OPT_ROW("region", OPT_REGION, "BYTES",
	  "memory the accesses spread over (default: 1GiB, clamped to half the node's free memory; pmem: the whole range after --offset; a file: all of it after --offset, never more)"),
	RUN_OPTS_MEASURE,
	OPT_ROW("outliers", OPT_OUTLIERS, "FILE",
	  "write every outlier record to FILE.csv or FILE.json (needs --threshold)"),
	RUN_OPTS_SAMPLE,
	OPT_ROW("batch", OPT_BATCH, "K",
	  "after the samples, time pairs of batches of K and 2K accesses (K up to 1024), each access prepared and fenced as a sample's, and report one access's cost as their difference over K with a 95% interval: free of the timer's overhead and finer than its quantum (the samples give the tail; Documentation/methodology.md). Latency mode, one thread; --pattern rand, hotspot or chase (for an L1 or L2 hit: chase); flushed, 128 x K blocks to draw from; --warm, K up to 16"),
	OPT_ROW("batch-pairs", OPT_BATCH_PAIRS, "N",
	  "--batch: the pairs to time, 256 to 2^20 (default: as many as take about the samples' accesses, samples / 3K, at least 256)"),
	OPT_ROW("repeat", OPT_REPEAT, "N",
	  "run N times (up to 1000), each repeat with a seed of its own: the table gives each statistic's median over the repeats, least, largest and spread, the JSON every repeat; compare weighs differences against the spread (default: 1)"),
	OPT_ROW("json", OPT_JSON, "FILE|-",
	  "write the result as JSON to FILE, or to stdout for -"),
	OPT_ROW("hist", OPT_HIST, "FILE|-",
	  "write the histogram to FILE, or to stdout for -: columns for gnuplot, or for a name ending in .hgrm HdrHistogram's percentile distribution (see --hist-format)"),
	OPT_ROW("hist-format", OPT_HIST_FORMAT, "gnuplot|hgrm",
	  "--hist's format: gnuplot columns of the raw-cycle buckets, or hgrm, HdrHistogram's percentile distribution (.hgrm) in ns, corrected (default: hgrm for a name ending in .hgrm, else gnuplot)"),
	OPT_ROW("quiet", OPT_QUIET, NULL, "no progress line"),
	OPT_END
};

static const char *const run_examples[] = {
	"lattester-ctl run --target dram:1 --cpu 0 --samples 1000000 --json run.json",
	"loads from node 1's DRAM, measured from CPU 0, saved as JSON",
	"lattester-ctl run --pattern chase --chain 64 --region 4G --hist chase.dat",
	"dependent loads over 4 GiB, with a histogram for plot hist",
	"lattester-ctl run --op store-clwb --size 256 --threshold 2000",
	"flushed stores timed to completion (mfence), outliers above 2000 cycles",
	"lattester-ctl run --target namespace0.1 --op nt-store --size 256 --force --offset 1G --region 64M",
	"non-temporal stores to a pmem namespace, overwriting its data",
	"lattester-ctl run --target cxl:region0 --cpu 0 --pattern chase --chain 16 --force",
	"dependent loads from a CXL region: its device-DAX device, or its node",
	"lattester-ctl run --mode bandwidth --cpus 0-7 --op nt-store --size 4K --pattern seq --duration 2s",
	"non-temporal store bandwidth of 8 threads on one shared region",
	"lattester-ctl run --mode loaded --cpus 0-7 --pattern chase --delay 200 --json loaded.json",
	"loaded latency: CPU 0 chases while 7 threads stream loads",
	"lattester-ctl run --mode loaded --cpus 0-7 --target dram:0 --traffic-target cxl:region0 --mix 0:1",
	"node 0's DRAM latency while 7 threads write to a CXL region (CXL tiering's interference)",
	"lattester-ctl run --pattern chase --region 16K --batch 64",
	"an L1-resident chase: the batches give its load-to-use latency below the timer's resolution",
	"lattester-ctl run --engine user --target /dev/dax0.0 --op store-clwb --force --region 64M",
	"flushed stores to a device-DAX device, mapped by this program",
	"lattester-ctl run --engine user --target /mnt/pmem/data --pattern chase --force",
	"dependent loads through a file on a DAX filesystem (MAP_SYNC)",
	NULL
};

const struct cmd_usage run_usage = {
	.cmd = "run",
	.synopsis = "[OPTIONS]",
	.about = "Measure the latency of single memory accesses with the lattester module (root only), or from userspace with --engine user.\n"
		 "BYTES take a binary suffix: K, M, G, T or KiB, MiB, GiB, TiB (K = 1024; KB, MB, GB\n"
		 "are refused).  Counts (--samples) take decimal ones: 1k = 1000, 1M = 10^6, 1G = 10^9, or 1e6.\n"
		 "The table goes to stdout unless --json or --hist writes to it; the output files are checked\n"
		 "before anything is measured.  Exit status: 0 done, 1 error, 2 usage, 130 interrupted.",
	.opts = run_options,
	.description =
		"run asks the lattester kernel module (/dev/lattester) to time --samples single accesses of --size bytes to the target's memory from a kernel thread bound to --cpu, with interrupts off only inside bounded windows, then prints the latency percentiles in corrected cycles, nanoseconds and raw cycles, each percentile and the mean with a 95% confidence interval (the order statistics that bracket it, widened by the TSC's quantum: Documentation/methodology.md), the timer's quantum and read cost, and the core clock of --cpu (core cycles per TSC cycle, from dependent adds timed right before and after the run) with the figures in core cycles.  Every value is checked before the module is asked, and the module checks again.\n\n"
		"DRAM targets (dram[:NODE]) are pages the module allocates: nothing of yours is touched.  Persistent memory (/dev/pmemN, /dev/daxX.Y, namespaceX.Y) is measured in place: a device holding a mounted filesystem is refused, and ops that write (the store ops, --pattern chase) need --force.  A CXL region (cxl:regionN) is what it is when the run begins: its device-DAX device, measured in place, or, onlined as system RAM, its NUMA node, measured as dram:NODE; a region that is neither (not committed, no dax device, memory offline) is refused, naming the fix.\n\n"
		"--engine user measures from a thread of this program instead, without the module: DRAM from libnuma, a device-DAX device mapped at its alignment, or an existing file on a DAX filesystem mapped with MAP_SYNC (a file that isn't DAX, or has holes, is refused: its pages would be DRAM).  Its mapping is locked and pre-faulted; writes need --force as on the module's targets, and files are never created, extended or truncated.  If the device or file goes away under a run (SIGBUS), the run fails saying so.\n\n"
		"Cycles are corrected by the calibrated timer overhead; with --pattern chase and --chain K they are per load.  SIGINT or SIGTERM aborts the run, prints the partial result and exits 130.  --threshold records outliers (time, offset, whether an NMI hit their window) for --outliers and the summary.\n\n"
		"With --threads or --cpus the module runs one kthread per CPU (--engine user: one pthread per CPU, interrupts on), pinned, all starting at one TSC time and stopping together, each with interrupts off only in its own windows.  In latency mode every thread takes --samples samples and the table merges them; the per-thread figures follow it.  --mode bandwidth streams the op without timing single accesses (no flush, one fence a window) and reports GB/s per thread and in all, with a time series in the JSON; --mode loaded is Intel MLC's loaded latency: step --delay (with sweep) for the curve of latency against bandwidth; thread 0's samples are corrected by its timer overhead calibrated under the traffic, the idle one shown beside it.  Several timing threads: each sample is corrected by its own thread's overhead.",
	.examples = run_examples,
};

static int bad_value(int id, const char *v, int rc)
{
	const struct cmd_opt *opt = run_options;

	while (opt->name && opt->id != id)
		opt++;
	if (id == OPT_TARGET && rc == -EINVAL && !strncmp(v, "cxl:", 4))
		return cmd_usage_error(&run_usage, "--target: '%s': not a CXL region: expected cxl:regionN, N its number (see 'lattester-ctl list')", v);
	if (id == OPT_TARGET && rc == -EINVAL)
		return cmd_usage_error(&run_usage, "--target: '%s': not dram[:NODE] or namespaceX.Y, and no file or device of that name exists (expected dram[:NODE], a device path such as /dev/pmem0 or /dev/dax0.0, namespaceX.Y, cxl:regionN, or with --engine user a file's path)", v);
	if (id == OPT_TARGET)
		return cmd_usage_error(&run_usage, "--target: '%s': %s (expected dram[:NODE], a device path such as /dev/pmem0 or /dev/dax0.0, namespaceX.Y, cxl:regionN, or with --engine user a file's path)", v, parse_strerror(rc));
	if (id == OPT_SAMPLES)
		return cmd_usage_error(&run_usage, "--samples: '%s': %s (expected a count such as 100000, 100k, 1.5M, 1e6 or 0x186a0; k, M and G are decimal: 1M = 1000000)", v,
				       parse_strerror(rc));
	if (id == OPT_OFFSET && rc == -EDOM)
		return cmd_usage_error(&run_usage, "--offset: '%s': not a multiple of 4096 bytes (a page)", v);
	if (id == OPT_THRESHOLD)
		return cmd_usage_error(&run_usage, "--threshold: '%s': %s (expected cycles such as 2000, a time such as 500ns, 2us or 1ms, or a multiple of the median such as 10x)",
				       v, parse_strerror(rc));
	return cmd_usage_error(&run_usage, "--%s: '%s': %s (expected %s)",
			       opt->name, v, parse_strerror(rc),
			       opt->names >= 0 ? latt_name_list(opt->names) :
			       opt->arg);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && !strcmp(s + n - m, suffix);
}

/* The --hist file is HdrHistogram's .hgrm text, not gnuplot columns. */
static bool hist_hgrm(const struct run_opts *o)
{
	if (o->hist_format)
		return !strcmp(o->hist_format, "hgrm");
	return o->hist && ends_with(o->hist, ".hgrm");
}

static int check_args(const struct run_opts *o)
{
	const char *why = run_args_problem(o);
	const char *out[] = { o->json, o->hist, o->outliers };
	static const char *const opt[] = { "--json", "--hist", "--outliers" };
	size_t i, j;

	if (o->repeat > 1 && o->cfg.mode == LATT_MODE_BANDWIDTH)
		return cmd_usage_error(&run_usage, "--repeat compares latency figures: repeat a --mode bandwidth run with sweep --repeat");
	if (o->repeat > 1 && (o->hist || o->outliers))
		return cmd_usage_error(&run_usage, "--repeat: %s writes one run's samples: give it to a run without --repeat", o->hist ? "--hist" : "--outliers");
	if (why)
		return cmd_usage_error(&run_usage, "%s", why);
	if (o->json && o->hist && !strcmp(o->json, "-") && !strcmp(o->hist, "-"))
		return cmd_usage_error(&run_usage,
				       "--json - and --hist - both want stdout");
	for (i = 0; i < 3; i++)
		for (j = i + 1; j < 3; j++)
			if (out[i] && out[j] && !strcmp(out[i], out[j]) &&
			    strcmp(out[i], "-"))
				return cmd_usage_error(&run_usage, "%s and %s both write '%s'",
						       opt[i], opt[j], out[i]);
	if (o->hist_format && !o->hist)
		return cmd_usage_error(&run_usage, "--hist-format needs --hist (the file it formats)");
	if (o->outliers && !ends_with(o->outliers, ".csv") &&
	    !ends_with(o->outliers, ".json"))
		return cmd_usage_error(&run_usage, "--outliers: '%s': the name must end in .csv or .json", o->outliers);
	if (o->outliers && o->thr.kind == THR_OFF)
		return cmd_usage_error(&run_usage, "--outliers needs --threshold (which samples are outliers)");
	return 0;
}

/* Returns 0, RUN_HELP after --help, or EXIT_USAGE. */
static int run_parse(int argc, char **argv, struct run_opts *o)
{
	int id, rc;

	run_defaults(o);
	optind = 0;
	while ((id = cmd_getopt(argc, argv, &run_usage)) != -1) {
		if (id == OPT_BAD)
			return EXIT_USAGE;
		if (id == OPT_HELP) {
			cmd_print_usage(stdout, &run_usage);
			return RUN_HELP;
		}
		rc = run_set_option(o, id, optarg);
		if (rc)
			return bad_value(id, optarg, rc);
	}
	return check_args(o);
}

static __u32 cur_repeat;	/* the repeat measured, from 1 */

static void show_progress(void *arg, const struct latt_status *st)
{
	const struct run_opts *o = arg;
	double pct = st->samples_total ?
		     100.0 * (double)st->samples_done / (double)st->samples_total :
		     0.0;

	if (o->cfg.mode == LATT_MODE_BANDWIDTH)
		fprintf(stderr, "\r%s run: %.1f/%.1f s (%.1f%%)", LATT_PROG,
			(double)st->samples_done / 1e6,
			(double)st->samples_total / 1e6, pct);
	else if (o->repeat > 1)
		fprintf(stderr, "\r%s run: repeat %u/%u: %llu/%llu samples (%.1f%%)",
			LATT_PROG, cur_repeat, o->repeat,
			(unsigned long long)st->samples_done,
			(unsigned long long)st->samples_total, pct);
	else
		fprintf(stderr, "\r%s run: %llu/%llu samples (%.1f%%)",
			LATT_PROG, (unsigned long long)st->samples_done,
			(unsigned long long)st->samples_total, pct);
}

static bool writes_stdout(const char *path)
{
	return path && !strcmp(path, "-");
}


static int write_outputs(const struct run_opts *o, const struct run_report *r)
{
	int rc = 0, err;

	if (!writes_stdout(o->json) && !writes_stdout(o->hist))
		report_print(stdout, r);
	if (o->hist && (err = hist_hgrm(o) ? report_write_hgrm(o->hist, r) :
			      report_write_hist(o->hist, r))) {
		log_err("%s: %s", o->hist, strerror(-err));
		rc = 1;
	}
	if (o->json && (err = report_write_json(o->json, r))) {
		log_err("%s: %s", o->json, strerror(-err));
		rc = 1;
	}
	if (o->outliers) {
		err = ends_with(o->outliers, ".json") ?
		      report_write_outliers_json(o->outliers, r) :
		      report_write_outliers_csv(o->outliers, r);
		if (err) {
			log_err("%s: %s", o->outliers, strerror(-err));
			rc = 1;
		}
	}
	return rc;
}

/*
 * run --repeat N: N runs of one configuration, repeat K with
 * latt_repeat_seed(); stops at the first that fails or is interrupted
 * (said, and left out: its figures are of part of its samples), and
 * reports the repeats that finished.
 */
static int run_repeats(struct run_opts *o, const struct cmd_ctx *ctx,
		       struct run_hooks *h, bool progress)
{
	struct run_report *r = calloc(o->repeat, sizeof(*r));
	const __u64 seed = o->cfg.seed;
	size_t n = 0, k;
	int rc = 0, out = 0, err, st;

	if (!r) {
		log_err("out of memory");
		return 1;
	}
	for (cur_repeat = 1; cur_repeat <= o->repeat; cur_repeat++) {
		r[n].ctx = ctx;
		o->cfg.seed = latt_repeat_seed(seed, cur_repeat);
		rc = run_measure(o, &r[n], h);
		if (rc)
			break;
		st = run_exit_status(o, &r[n]);
		if (st) {
			log_warn("repeat %u of %u did not finish: left out of the repeats",
				 cur_repeat, o->repeat);
			run_report_free(&r[n]);
			memset(&r[n], 0, sizeof(r[n]));
			rc = st;
			break;
		}
		n++;
	}
	o->cfg.seed = seed;
	if (progress)
		fputs("\r\033[K", stderr);
	if (n) {
		if (!writes_stdout(o->json))
			report_print_repeats(stdout, r, n);
		if (o->json && (err = report_write_json_repeats(o->json, r, n))) {
			log_err("%s: %s", o->json, strerror(-err));
			out = 1;
		}
		if (n < o->repeat)
			log_warn("%zu of %u repeats measured", n, o->repeat);
		if (out && !rc)
			rc = out;
	}
	for (k = 0; k < o->repeat; k++)
		run_report_free(&r[k]);
	free(r);
	return rc;
}

int cmd_run(int argc, char **argv, const struct cmd_ctx *ctx)
{
	struct run_report r = { .ctx = ctx };
	struct run_hooks h = { .abort_at = 1, .engine_hint = true };
	struct run_opts o;
	bool progress;
	int rc, out;

	rc = run_parse(argc, argv, &o);
	if (rc)
		return rc == RUN_HELP ? 0 : rc;
	if (out_check("--json", o.json, OUT_MEASURED) ||
	    out_check("--hist", o.hist, OUT_MEASURED) ||
	    out_check("--outliers", o.outliers, OUT_MEASURED))
		return 1;
	progress = !o.quiet && isatty(STDERR_FILENO);
	if (progress) {
		h.progress = show_progress;
		h.arg = &o;
	}
	run_catch_signals();
	if (o.repeat > 1)
		return run_repeats(&o, ctx, &h, progress);
	rc = run_measure(&o, &r, &h);
	if (progress)
		fputs("\r\033[K", stderr);
	if (!rc) {
		out = write_outputs(&o, &r);
		rc = run_exit_status(&o, &r);
		if (out && !rc)
			rc = out;
	}
	run_report_free(&r);
	return rc;
}
