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
 *
 * A pmem or device-DAX target is resolved through libndctl/libdaxctl
 * (pmem.c) to the device that claims it and its physical range.  The tool
 * refuses, before the module is asked, a device with a mounted filesystem
 * (for every op) and, without --force, every op that writes to it.  The
 * claim (a block device opened O_EXCL, or the device-DAX device) is passed
 * to the module, which holds it for the run.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
#define POLL_MS			100	/* the longest interval between polls */
#define POLL_FIRST_US		1000	/* the first: short runs end quickly */
#define CLAMP_ALIGN		(4ULL << 20)	/* the module's DRAM chunk */
#define PMEM_ALIGN		(4ULL << 20)	/* the module's chunk, too */
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
	OPT_FORCE,
	OPT_OFFSET,
};

static const struct cmd_opt run_options[] = {
	{ "target", OPT_TARGET, "TARGET",
	  "memory to measure: dram[:NODE] (DRAM of NUMA node NODE; default: "
	  "dram, the node of --cpu), /dev/pmemN, /dev/daxX.Y or namespaceX.Y "
	  "(see 'lattester-ctl list')", -1 },
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
	  "memory the accesses spread over (default: 1GiB, clamped to half "
	  "the node's free memory; pmem: the whole range after --offset)", -1 },
	{ "offset", OPT_OFFSET, "BYTES",
	  "pmem: where the region starts in the target's range, a multiple "
	  "of 4096 (default: 0)", -1 },
	{ "force", OPT_FORCE, NULL,
	  "pmem: allow store ops and chase, which overwrite the target's "
	  "data", -1 },
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
	bool force;
	bool region_set;	/* --region given */
	bool offset_set;	/* --offset given */
	struct target_spec spec;
	struct run_target tgt;	/* resolved */
	char target[PATH_MAX];	/* for messages: "dram:NODE" or the spec */
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
	o->spec = (struct target_spec){ TARGET_DRAM, LATT_NODE_LOCAL, NULL };
	snprintf(o->target, sizeof(o->target), "dram");
}

static bool is_pmem(const struct run_opts *o)
{
	return o->spec.kind != TARGET_DRAM;
}

static int set_target(struct run_opts *o, const char *v)
{
	int rc = parse_target(v, &o->spec);

	if (rc)
		return rc;
	if (strlen(v) >= sizeof(o->target))
		return -ERANGE;
	o->cfg.node = o->spec.node;
	snprintf(o->target, sizeof(o->target), "%s", v);
	return 0;
}

static int set_option(struct run_opts *o, int id, const char *v)
{
	struct latt_config *c = &o->cfg;

	switch (id) {
	case OPT_TARGET:	return set_target(o, v);
	case OPT_CPU:		return parse_u32(v, &c->cpu);
	case OPT_OP:		return parse_op(v, &c->op);
	case OPT_FENCE:		return parse_fence(v, &c->fence);
	case OPT_PATTERN:	return parse_pattern(v, &c->pattern, &c->stride);
	case OPT_SIZE:		return parse_line_size(v, &c->size);
	case OPT_SAMPLES:	return parse_u64(v, &c->samples);
	case OPT_REGION:	o->region_set = true;
				return parse_size(v, &c->region);
	case OPT_OFFSET:	o->offset_set = true;
				return parse_offset(v, &o->tgt.offset);
	case OPT_FORCE:		o->force = true; return 0;
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
	if (id == OPT_TARGET)
		return cmd_usage_error(&run_usage, "--target: '%s': %s (expected "
				       "dram[:NODE], a device path such as "
				       "/dev/pmem0 or /dev/dax0.0, or "
				       "namespaceX.Y)", v, parse_strerror(rc));
	if (id == OPT_OFFSET && rc == -EDOM)
		return cmd_usage_error(&run_usage, "--offset: '%s': not a "
				       "multiple of 4096 bytes (a page)", v);
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

	/* a pmem target's default region is known once it is resolved */
	bool region_known = !is_pmem(o) || o->region_set;

	if (check_range("samples", c->samples, 1, LATT_MAX_SAMPLES) ||
	    check_range("size", c->size, LATT_MIN_SIZE, LATT_MAX_SIZE) ||
	    (region_known &&
	     check_range("region", c->region, c->size, LATT_MAX_REGION)) ||
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
	if (o->offset_set && !is_pmem(o))
		return cmd_usage_error(&run_usage, "--offset is for pmem and "
				       "device-DAX targets, not %s", o->target);
	if (!region_known)
		return 0;
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

/* "namespace0.0 (fsdax, region0)": what a pmem run would write to. */
static void describe_pmem(char *buf, size_t len, const struct pmem_target *t)
{
	const char *slash = strrchr(t->device, '/');

	if (t->namespace[0])
		snprintf(buf, len, "%s (%s, %s)", t->namespace, t->mode,
			 t->region);
	else
		snprintf(buf, len, "%s (%s, %s)", slash ? slash + 1 : t->device,
			 t->mode, t->region);
}

/* Say that @t holds a mounted filesystem, prefixed by the spec if it differs. */
static void refuse_mounted(const struct run_opts *o, const struct pmem_target *t)
{
	bool same = !strcmp(o->target, t->device);

	log_err("%s%s%s holds a mounted filesystem (%s): refusing (a run "
		"claims the whole device; umount it first)", same ? "" : o->target,
		same ? "" : ": ", t->device, t->mount);
}

/*
 * Resolve a pmem or device-DAX target, refuse what must not run on it, and
 * fill the configuration: physical address, region, node, --force.
 */
static int check_pmem(struct run_opts *o)
{
	struct latt_config *c = &o->cfg;
	struct pmem_target *t = &o->tgt.pm;
	__u64 avail, offset = o->tgt.offset;
	char what[PATH_MAX + 3 * PMEM_NAME], b1[32], b2[64], b3[32];
	const char *why;

	if (pmem_resolve(o->spec.name, o->spec.kind == TARGET_PATH, t))
		return 1;
	if (t->mount[0]) {
		refuse_mounted(o, t);
		return 1;
	}
	describe_pmem(what, sizeof(what), t);
	fmt_bytes(b1, sizeof(b1), t->phys_size);
	/* " from --offset 8 MiB on", or nothing */
	b2[0] = '\0';
	if (offset) {
		fmt_bytes(b3, sizeof(b3), offset);
		snprintf(b2, sizeof(b2), " from --offset %s on", b3);
	}
	if (t->phys_start % LATT_PAGE) {
		log_err("%s: %s starts at 0x%llx, not on a page boundary",
			o->target, what, t->phys_start);
		return 1;
	}
	if (offset >= t->phys_size) {
		fmt_bytes(b3, sizeof(b3), offset);
		log_err("%s: --offset %s is beyond the %s of %s", o->target, b3,
			b1, what);
		return 1;
	}
	avail = t->phys_size - offset;
	fmt_bytes(b3, sizeof(b3), avail);
	if (!o->region_set) {
		c->region = avail >= PMEM_ALIGN ? avail & ~(PMEM_ALIGN - 1) :
			    avail & ~(LATT_PAGE - 1);
		if (c->region < c->size) {
			fmt_bytes(b1, sizeof(b1), c->size);
			log_err("%s: %s has only %s%s, less than one access of "
				"--size %s", o->target, what, b3, b2, b1);
			return 1;
		}
	} else if (c->region > avail) {
		fmt_bytes(b1, sizeof(b1), c->region);
		log_err("%s: --region %s exceeds the %s of %s%s", o->target, b1,
			b3, what, b2);
		return 1;
	}
	why = pattern_problem(c);
	if (why) {
		fmt_bytes(b1, sizeof(b1), c->region);
		log_err("%s: with the region of %s: %s", o->target, b1, why);
		return 1;
	}
	if (!o->force && (op_is_store(c->op) || c->pattern == LATT_PAT_CHASE)) {
		fmt_bytes(b1, sizeof(b1), c->region);
		if (op_is_store(c->op))
			log_err("%s: %s would overwrite %s of %s; add --force to "
				"allow it", o->target, latt_name(NAMES_OP, c->op),
				b1, what);
		else
			log_err("%s: --pattern chase writes its pointers into the "
				"target: it would overwrite %s of %s; add --force "
				"to allow it", o->target, b1, what);
		return 1;
	}
	snprintf(o->tgt.kind, sizeof(o->tgt.kind), "%s", t->kind);
	c->target = LATT_TARGET_PMEM;
	c->phys_addr = t->phys_start + offset;
	c->node = t->numa_node >= 0 ? (__u32)t->numa_node : LATT_NODE_LOCAL;
	if (o->force)
		c->flags |= LATT_CFG_FORCE;
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
	snprintf(o->tgt.spec, sizeof(o->tgt.spec), "%s", o->target);
	if (is_pmem(o))
		return check_pmem(o);
	snprintf(o->tgt.kind, sizeof(o->tgt.kind), "dram");
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
	if (c->target == LATT_TARGET_PMEM &&
	    ((in->abi_version & 0xffff) < 1 || !(in->features & LATT_FEAT_PMEM))) {
		log_err("%s: this lattester module (ABI %u.%u) cannot measure "
			"persistent memory: it needs ABI 1.1 with the pmem "
			"feature", o->target, in->abi_version >> 16,
			in->abi_version & 0xffff);
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

/*
 * Poll STATUS until the run stops; on SIGINT/SIGTERM, ABORT it.  The
 * interval starts at 1 ms and doubles up to POLL_MS, so that a short run
 * doesn't wait 100 ms for nothing.
 */
static int wait_run(struct latt_dev *d, bool progress)
{
	long us = POLL_FIRST_US;
	struct timespec poll;
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
		poll = (struct timespec){ us / 1000000, (us % 1000000) * 1000 };
		nanosleep(&poll, NULL);
		us = us * 2 > POLL_MS * 1000L ? POLL_MS * 1000L : us * 2;
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

/*
 * Open the device that claims a pmem target: a block device O_EXCL (so that
 * nothing mounts it during the run), a device-DAX device plainly.  Returns
 * the descriptor (never 0: 0 means "no fd" to the module) or -1.
 */
static int claim_pmem(const struct run_opts *o)
{
	const struct pmem_target *t = &o->tgt.pm;
	struct pmem_target again = *t;
	struct stat st;
	int fd, err, fd2;

	fd = open(t->device, O_RDWR | O_CLOEXEC | (t->block ? O_EXCL : 0));
	if (fd < 0) {
		err = errno;
		if (err == EBUSY && t->block && !stat(t->device, &st) &&
		    pmem_mount_of(st.st_rdev, again.mount,
				  sizeof(again.mount)) > 0)
			refuse_mounted(o, &again);
		else if (err == EBUSY)
			log_err("%s: %s is in use (mounted, or claimed by "
				"another program): refusing", o->target,
				t->device);
		else
			log_err("%s: cannot open %s: %s", o->target, t->device,
				strerror(err));
		return -1;
	}
	if (fd == 0) {
		fd2 = fcntl(fd, F_DUPFD_CLOEXEC, 3);
		close(fd);
		if (fd2 < 0)
			log_err("%s: %s: %s", o->target, t->device,
				strerror(errno));
		fd = fd2;
	}
	return fd;
}

static int report_start_error(const struct run_opts *o, int rc)
{
	const char *hint = latt_start_hint(rc);
	const struct latt_config *c = &o->cfg;
	char pmem_hint[256];

	if (c->target == LATT_TARGET_PMEM && rc == -EINVAL) {
		snprintf(pmem_hint, sizeof(pmem_hint), "the module rejected the "
			 "configuration or the physical range 0x%llx-0x%llx",
			 (unsigned long long)c->phys_addr,
			 (unsigned long long)(c->phys_addr + c->region - 1));
		hint = pmem_hint;
	} else if (c->target == LATT_TARGET_PMEM && rc == -EPERM) {
		hint = "the module wants --force for this op on pmem";
	} else if (c->target == LATT_TARGET_PMEM && rc == -EBUSY) {
		hint = "another run is in progress, or the device is claimed";
	}

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
	if (!rc && o.cfg.target == LATT_TARGET_PMEM) {
		o.cfg.fd = claim_pmem(&o);
		if (o.cfg.fd < 0) {
			o.cfg.fd = 0;
			rc = 1;
		}
	}
	if (!rc)
		rc = measure(&dev, &o, &r);
	latt_dev_close(&dev);
	if (o.cfg.fd > 0)
		close(o.cfg.fd);
	if (!rc) {
		r.info = &dev.info;
		r.target = &o.tgt;
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
