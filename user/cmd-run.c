// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-run.c - lattester-ctl run: check the options, start a run in the
 * module, follow it, fetch its result and report it.
 *
 * Everything the tool can check (syntax, ranges, the CPU, the NUMA node,
 * the node's free memory, the CPU's features) is checked before START, with
 * a message naming the option; the module checks everything again, and its
 * errors are reported with a hint.  The device stays open until the result
 * is read: closing it would abort the run.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <lattester/pattern.h>
#include "builtin.h"
#include "host.h"
#include "lib.h"
#include "log.h"
#include "parse.h"
#include "run.h"

#define DEFAULT_SEED		0x1a77e57e
#define DEFAULT_SIZE		64
#define DEFAULT_SAMPLES		100000
#define DEFAULT_REGION		(1ULL << 30)
#define DEFAULT_MAX_OUTLIERS	4096
#define POLL_MS			100
#define CLAMP_ALIGN		(4ULL << 20)	/* the module's DRAM chunk */
#define RUN_HELP		(-1)

#define STR_(x)	#x
#define STR(x)	STR_(x)

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
};

static const struct cmd_opt run_options[] = {
	{ "target", OPT_TARGET, "dram[:NODE]",
	  "memory to measure: DRAM of NUMA node NODE (default: dram, the "
	  "node of --cpu)", -1 },
	{ "cpu", OPT_CPU, "N", "CPU that takes the samples (default: 0)", -1 },
	{ "op", OPT_OP, "OP", "access (default: load)", NAMES_OP },
	{ "fence", OPT_FENCE, "FENCE",
	  "fence inside the timed region (default: the op's own; sfence for "
	  "store ops only)", NAMES_FENCE },
	{ "pattern", OPT_PATTERN, "PATTERN", "addresses (default: rand)",
	  NAMES_PATTERN },
	{ "size", OPT_SIZE, "BYTES",
	  "bytes per access, a multiple of 64 (default: " STR(DEFAULT_SIZE)
	  ")", -1 },
	{ "samples", OPT_SAMPLES, "N",
	  "samples to take (default: " STR(DEFAULT_SAMPLES) ")", -1 },
	{ "region", OPT_REGION, "BYTES",
	  "memory the accesses spread over (default: 1GiB; clamped to half "
	  "the node's free memory)", -1 },
	{ "seed", OPT_SEED, "S",
	  "address generator seed (default: " STR(DEFAULT_SEED) ")", -1 },
	{ "chain", OPT_CHAIN, "K",
	  "dependent loads per sample, with --pattern chase (default: 1)", -1 },
	{ "threshold", OPT_THRESHOLD, "CYCLES",
	  "record samples above CYCLES (overhead subtracted) as outliers "
	  "(default: 0, none)", -1 },
	{ "max-outliers", OPT_MAX_OUTLIERS, "N",
	  "outlier records kept (default: " STR(DEFAULT_MAX_OUTLIERS) ")", -1 },
	{ "window-us", OPT_WINDOW_US, "US",
	  "interrupt-off window, 10..100000 (default: 0, the module's)", -1 },
	{ "width", OPT_WIDTH, "auto|8|16|32|64",
	  "access width in bytes (default: auto, the widest)", -1 },
	{ "warm", OPT_WARM, NULL,
	  "touch the lines before each sample instead of flushing them", -1 },
	{ "json", OPT_JSON, "FILE|-",
	  "write the result as JSON to FILE, or to stdout for -", -1 },
	{ "hist", OPT_HIST, "FILE|-",
	  "write the histogram as columns for gnuplot", -1 },
	{ "quiet", OPT_QUIET, NULL, "no progress line", -1 },
	{ NULL, 0, NULL, NULL, -1 }
};

static const struct cmd_usage run_usage = {
	.cmd = "run",
	.synopsis = "[OPTIONS]",
	.about = "Measure the latency of single memory accesses with the "
		 "lattester module (root only).\n"
		 "BYTES take a binary suffix: K, M, G, T or KiB, MiB, GiB, "
		 "TiB.  The table goes to stdout\n"
		 "unless --json or --hist writes to it.  Exit status: 0 done, "
		 "1 error, 2 usage, 130 interrupted.",
	.opts = run_options,
};

struct run_opts {
	struct latt_config cfg;
	const char *json;
	const char *hist;
	bool quiet;
	char target[32];	/* "dram:NODE" with the node resolved */
};

static volatile sig_atomic_t stop_signal;

static void run_defaults(struct run_opts *o)
{
	struct latt_config *c = &o->cfg;

	memset(o, 0, sizeof(*o));
	c->target = LATT_TARGET_DRAM;
	c->node = LATT_NODE_LOCAL;
	c->op = LATT_OP_LOAD;
	c->fence = LATT_FENCE_DEFAULT;
	c->pattern = LATT_PAT_RAND;
	c->size = DEFAULT_SIZE;
	c->samples = DEFAULT_SAMPLES;
	c->region = DEFAULT_REGION;
	c->seed = DEFAULT_SEED;
	c->chain = 1;
	c->max_outliers = DEFAULT_MAX_OUTLIERS;
	c->width = LATT_WIDTH_AUTO;
	snprintf(o->target, sizeof(o->target), "dram");
}

static int set_option(struct run_opts *o, int id, const char *v)
{
	struct latt_config *c = &o->cfg;

	switch (id) {
	case OPT_TARGET:	return parse_target(v, &c->target, &c->node);
	case OPT_CPU:		return parse_u32(v, &c->cpu);
	case OPT_OP:		return parse_op(v, &c->op);
	case OPT_FENCE:		return parse_fence(v, &c->fence);
	case OPT_PATTERN:	return parse_pattern(v, &c->pattern, &c->stride);
	case OPT_SIZE:		return parse_line_size(v, &c->size);
	case OPT_SAMPLES:	return parse_u64(v, &c->samples);
	case OPT_REGION:	return parse_size(v, &c->region);
	case OPT_SEED:		return parse_u64(v, &c->seed);
	case OPT_CHAIN:		return parse_u32(v, &c->chain);
	case OPT_THRESHOLD:	return parse_u64(v, &c->threshold);
	case OPT_MAX_OUTLIERS:	return parse_u32(v, &c->max_outliers);
	case OPT_WINDOW_US:	return parse_u32(v, &c->window_us);
	case OPT_WIDTH:		return parse_width(v, &c->width);
	case OPT_WARM:		c->flags |= LATT_CFG_WARM; return 0;
	case OPT_JSON:		o->json = v; return 0;
	case OPT_HIST:		o->hist = v; return 0;
	case OPT_QUIET:		o->quiet = true; return 0;
	}
	return -EINVAL;
}

static int bad_value(int id, const char *v, int rc)
{
	const struct cmd_opt *opt = run_options;

	while (opt->name && opt->id != id)
		opt++;
	return cmd_usage_error(&run_usage, "--%s: '%s': %s (expected %s)",
			       opt->name, v, parse_strerror(rc),
			       opt->names >= 0 ? latt_name_list(opt->names) :
			       opt->arg);
}

static int check_range(const char *opt, __u64 v, __u64 min, __u64 max)
{
	if (v >= min && v <= max)
		return 0;
	return cmd_usage_error(&run_usage, "--%s: %llu is out of range "
			       "%llu..%llu", opt, (unsigned long long)v,
			       (unsigned long long)min, (unsigned long long)max);
}

/* Why size, stride or hotspot and region don't fit together, or NULL. */
static const char *pattern_problem(const struct latt_config *c)
{
	struct latt_pattern p;

	if (!latt_pattern_init(&p, c->pattern, c->size, c->stride, c->region,
			       c->seed))
		return NULL;
	switch (c->pattern) {
	case LATT_PAT_STRIDE:
		return "the stride must be smaller than --region";
	case LATT_PAT_HOTSPOT:
		return "the hotspot must be at least --size and at most --region";
	default:
		return "--region must hold at least one access of --size bytes";
	}
}

static int check_args(const struct run_opts *o)
{
	const struct latt_config *c = &o->cfg;
	const char *why;

	if (check_range("samples", c->samples, 1, LATT_MAX_SAMPLES) ||
	    check_range("size", c->size, LATT_MIN_SIZE, LATT_MAX_SIZE) ||
	    check_range("region", c->region, c->size, LATT_MAX_REGION) ||
	    check_range("chain", c->chain, 1, LATT_MAX_CHAIN) ||
	    check_range("max-outliers", c->max_outliers, 0, LATT_MAX_OUTLIERS) ||
	    (c->window_us && check_range("window-us", c->window_us,
					 LATT_MIN_WINDOW_US,
					 LATT_MAX_WINDOW_US)))
		return EXIT_USAGE;
	if (c->chain > 1 && c->pattern != LATT_PAT_CHASE)
		return cmd_usage_error(&run_usage,
				       "--chain needs --pattern chase");
	if (c->fence == LATT_FENCE_SFENCE && !op_is_store(c->op))
		return cmd_usage_error(&run_usage, "--fence sfence is for store "
				       "ops; --op %s is a load",
				       latt_name(NAMES_OP, c->op));
	if (o->json && o->hist && !strcmp(o->json, "-") && !strcmp(o->hist, "-"))
		return cmd_usage_error(&run_usage,
				       "--json - and --hist - both want stdout");
	why = pattern_problem(c);
	if (why)
		return cmd_usage_error(&run_usage, "%s", why);
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
		rc = set_option(o, id, optarg);
		if (rc)
			return bad_value(id, optarg, rc);
	}
	return check_args(o);
}

/*
 * Keep the region to half the node's free memory, in whole 4 MiB chunks,
 * so that the run doesn't push the node into reclaim or the OOM killer.
 */
static int clamp_region(struct run_opts *o, unsigned int node)
{
	struct latt_config *c = &o->cfg;
	long long size, free;
	__u64 half;
	const char *why;

	if (host_node_mem(node, &size, &free)) {
		log_dbg("node %u: free memory unknown, region not checked", node);
		return 0;
	}
	if (size <= 0) {
		log_err("%s: node %u has no memory", o->target, node);
		return 1;
	}
	half = free > 0 ? (__u64)free / 2 : 0;
	if (c->region <= half)
		return 0;
	half &= ~(CLAMP_ALIGN - 1);
	if (!half) {
		log_err("%s: node %u has only %lld MiB free", o->target, node,
			free >> 20);
		return 1;
	}
	log_warn("region clamped to %llu MiB: node %u has only %lld MiB free",
		 (unsigned long long)(half >> 20), node, free >> 20);
	c->region = half;
	why = pattern_problem(c);
	if (why) {
		log_err("%s: after the clamp, %s", o->target, why);
		return 1;
	}
	return 0;
}

static int check_host(struct run_opts *o)
{
	struct latt_config *c = &o->cfg;
	char online[HOST_STR];
	int node;

	if (!host_cpu_online(c->cpu)) {
		host_cpus_online(online, sizeof(online));
		log_err("--cpu %u: CPU not online (online: %s)", c->cpu, online);
		return 1;
	}
	if (c->node != LATT_NODE_LOCAL && !host_node_exists(c->node)) {
		log_err("dram:%u: no such NUMA node (highest node: %d)",
			c->node, host_max_node());
		return 1;
	}
	node = c->node == LATT_NODE_LOCAL ? host_node_of_cpu(c->cpu) :
	       (int)c->node;
	if (node < 0) {
		log_dbg("cpu %u: node unknown, region not checked", c->cpu);
		return 0;
	}
	snprintf(o->target, sizeof(o->target), "dram:%d", node);
	return clamp_region(o, (unsigned int)node);
}

static int check_module(const struct run_opts *o, const struct latt_info *in)
{
	const struct latt_config *c = &o->cfg;
	const struct {
		const char *opt;
		__u64 val, max;
	} lim[] = {
		{ "cpu",	  c->cpu,	   in->nr_cpu_ids - 1ULL },
		{ "size",	  c->size,	   in->max_size },
		{ "region",	  c->region,	   in->max_region },
		{ "chain",	  c->chain,	   in->max_chain },
		{ "max-outliers", c->max_outliers, in->max_outliers },
	};
	__u64 missing = op_features(c->op) & ~in->features;
	size_t i;

	if (!latt_abi_compatible(in)) {
		log_err("module ABI %u.%u (%u buckets) does not match the tool's "
			"%d.%d (%u buckets): rebuild one of them",
			in->abi_version >> 16, in->abi_version & 0xffff,
			in->hist_buckets, LATT_ABI_MAJOR, LATT_ABI_MINOR,
			LATT_HIST_BUCKETS);
		return 1;
	}
	if (missing) {
		log_err("--op %s needs the %s instruction, which this CPU lacks",
			latt_name(NAMES_OP, c->op),
			latt_name(NAMES_FEATURE, __builtin_ctzll(missing)));
		return 1;
	}
	if (c->width && !(in->widths & c->width)) {
		log_err("--width %u: not usable on this CPU", c->width);
		return 1;
	}
	for (i = 0; i < sizeof(lim) / sizeof(lim[0]); i++) {
		if (lim[i].val > lim[i].max) {
			log_err("--%s %llu: above the module's limit %llu",
				lim[i].opt, (unsigned long long)lim[i].val,
				(unsigned long long)lim[i].max);
			return 1;
		}
	}
	return 0;
}

static void on_stop(int sig)
{
	stop_signal = sig;
}

/* No SA_RESTART: a signal cuts the poll's sleep short. */
static void catch_stop_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static void show_progress(const struct latt_status *st)
{
	double pct = st->samples_total ?
		     100.0 * (double)st->samples_done / (double)st->samples_total :
		     0.0;

	fprintf(stderr, "\r%s run: %llu/%llu samples (%.1f%%)", LATT_PROG,
		(unsigned long long)st->samples_done,
		(unsigned long long)st->samples_total, pct);
}

/* Poll STATUS until the run stops; on SIGINT/SIGTERM, ABORT it. */
static int wait_run(struct latt_dev *d, bool progress)
{
	const struct timespec poll = { 0, POLL_MS * 1000000L };
	struct latt_status st;
	bool aborted = false;
	int rc;

	for (;;) {
		rc = latt_dev_status(d, &st);
		if (rc || st.state != LATT_STATE_RUNNING)
			break;
		if (stop_signal && !aborted) {
			rc = latt_dev_abort(d);
			aborted = !rc;
			log_dbg("abort: %s", rc ? strerror(-rc) : "sent");
		}
		if (progress)
			show_progress(&st);
		nanosleep(&poll, NULL);
	}
	if (progress)
		fputs("\r\033[K", stderr);
	return rc;
}

static int run_alloc(const struct run_opts *o, struct run_report *r)
{
	__u32 nout = o->cfg.threshold ? o->cfg.max_outliers : 0;

	r->hist = calloc(LATT_HIST_BUCKETS, sizeof(*r->hist));
	r->outliers = nout ? calloc(nout, sizeof(*r->outliers)) : NULL;
	if (!r->hist || (nout && !r->outliers)) {
		log_err("out of memory");
		return 1;
	}
	return 0;
}

static int report_start_error(const struct run_opts *o, int rc)
{
	const char *hint = latt_start_hint(rc);

	if (rc == -EINTR && stop_signal) {
		log_err("%s: interrupted before the run started", o->target);
		return EXIT_INTERRUPTED;
	}
	log_err("%s: start failed: %s%s%s%s", o->target, strerror(-rc),
		hint ? " (" : "", hint ? hint : "", hint ? ")" : "");
	return 1;
}

static int measure(struct latt_dev *d, const struct run_opts *o,
		   struct run_report *r)
{
	__u32 nout = r->outliers ? o->cfg.max_outliers : 0;
	int rc;

	catch_stop_signals();
	clock_gettime(CLOCK_REALTIME, &r->start);
	rc = latt_dev_start(d, &o->cfg);
	if (rc)
		return report_start_error(o, rc);
	log_info("%s: started, seed 0x%llx", o->target,
		 (unsigned long long)o->cfg.seed);
	rc = wait_run(d, !o->quiet && isatty(STDERR_FILENO));
	if (rc) {
		log_err("%s: status failed: %s", o->target, strerror(-rc));
		return 1;
	}
	rc = latt_dev_result(d, &r->res, r->hist, LATT_HIST_BUCKETS,
			     r->outliers, nout);
	clock_gettime(CLOCK_REALTIME, &r->end);
	if (rc) {
		log_err("%s: result failed: %s", o->target, strerror(-rc));
		return 1;
	}
	r->interrupted = stop_signal != 0;
	return 0;
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
	if (o->hist && (err = report_write_hist(o->hist, r))) {
		log_err("%s: %s", o->hist, strerror(-err));
		rc = 1;
	}
	if (o->json && (err = report_write_json(o->json, r))) {
		log_err("%s: %s", o->json, strerror(-err));
		rc = 1;
	}
	return rc;
}

/* The exit status a finished run earns. */
static int run_exit_status(const struct run_opts *o, const struct run_report *r)
{
	const struct latt_result *s = &r->res;

	if (r->interrupted) {
		log_warn("%s: interrupted: run %s, %llu of %llu samples",
			 o->target, latt_name(NAMES_STATE, s->state),
			 (unsigned long long)s->count,
			 (unsigned long long)r->samples_asked);
		return EXIT_INTERRUPTED;
	}
	switch (s->state) {
	case LATT_STATE_DONE:
		return 0;
	case LATT_STATE_FAILED:
		log_err("%s: run failed: %s", o->target, strerror(-s->error));
		return 1;
	default:
		log_err("%s: run ended %s", o->target,
			latt_name(NAMES_STATE, s->state));
		return 1;
	}
}

int cmd_run(int argc, char **argv, const struct cmd_ctx *ctx)
{
	struct run_report r = { .ctx = ctx };
	struct run_opts o;
	struct latt_dev dev;
	int rc, out;

	rc = run_parse(argc, argv, &o);
	if (rc)
		return rc == RUN_HELP ? 0 : rc;
	rc = check_host(&o);
	if (rc)
		return rc;
	rc = latt_dev_open(&dev);
	if (rc) {
		log_err("%s: %s", latt_dev_path(), latt_open_strerror(rc));
		return 1;
	}
	rc = check_module(&o, &dev.info);
	if (!rc)
		rc = run_alloc(&o, &r);
	if (!rc)
		rc = measure(&dev, &o, &r);
	latt_dev_close(&dev);
	if (!rc) {
		r.info = &dev.info;
		r.samples_asked = o.cfg.samples;
		latt_summarize(&r.sum, &r.res, r.hist, dev.info.tsc_khz);
		out = write_outputs(&o, &r);
		rc = run_exit_status(&o, &r);
		if (out && !rc)
			rc = out;
	}
	free(r.hist);
	free(r.outliers);
	return rc;
}
