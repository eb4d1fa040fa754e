// SPDX-License-Identifier: GPL-2.0
/*
 * runner.c - one run of the module: check the options, start the run,
 * follow it, fetch its result.  `run` does this once, `sweep` once per
 * point of its grid (run.h).
 *
 * Everything the tool can check (syntax, ranges, the CPU, the NUMA node,
 * the node's free memory, the CPU's features) is checked before START, with
 * a message naming the option; the module checks everything again, and its
 * errors are reported with a hint.  The device stays open until the result
 * is read: closing it would abort the run.
 *
 * A CXL region (cxl:regionN) is first resolved through libcxl (cxl.c) to
 * what it is when the run begins: its device-DAX device, then measured as
 * any other, or the NUMA node its memory was onlined to, measured as
 * dram:NODE; both engines the same way.
 *
 * A pmem or device-DAX target is resolved through libndctl/libdaxctl
 * (pmem.c) to the device that claims it and its physical range.  The tool
 * refuses, before the module is asked, a device with a mounted filesystem
 * (for every op) and, without --force, every op that writes to it.  The
 * claim (a block device opened O_EXCL, or the device-DAX device) is passed
 * to the module, which holds it for the run.  The user engine (--engine
 * user, engine-user.c) takes no block device (its mapping would be page
 * cache) but a device-DAX device or a file on a DAX filesystem, opened
 * read-only unless the run writes, which it maps itself (map.c).
 *
 * A threshold given as a multiple of the median ("10x") needs the median
 * before START: a calibration pass of RUN_CALIBRATION_SAMPLES samples (or
 * --samples, if fewer) with the same configuration and no threshold comes
 * first, on the same open device and claim, and its corrected p50 times
 * the multiple becomes the threshold.  With a threshold, MSR_SMI_COUNT of
 * the measuring CPU is read before and after the run (msr.c).
 *
 * A sweep (struct run_keep, hooks->keep) keeps between its points what a
 * run would otherwise take and give back every time: the open device, on
 * which the module keeps the region (LATT_CFG_REUSE, where it has
 * LATT_FEAT_REUSE), a pmem target's claim while the points share it, and
 * the user engine's region.  Each point's region is still the one its
 * options ask for: the module and engine-user.c take the kept one only
 * if it is that, and free it first if not.  A point that does not end
 * done gives everything back, so that no later point runs on what a
 * failed or aborted one left.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lattester/hist.h>
#include <lattester/pattern.h>
#include <lattester/quantum.h>
#include <lattester/rules.h>
#include "dev.h"
#include "host.h"
#include "log.h"
#include "map.h"
#include "report.h"
#include "run.h"
#include "engine-user.h"

#define POLL_MS			100	/* the longest interval between polls */
#define POLL_FIRST_US		1000	/* the first: short runs end quickly */
#define CLAMP_ALIGN		LATT_CHUNK	/* the module's DRAM chunk */
#define PMEM_ALIGN		LATT_CHUNK	/* the module's chunk, too */

volatile sig_atomic_t run_stops;

static void on_stop(int sig)
{
	if (sig == SIGTERM)
		run_stops = run_stops < 2 ? 2 : run_stops + 1;
	else
		run_stops++;
}

/** run_catch_signals() - count SIGINT/SIGTERM; no SA_RESTART, so a signal
 * cuts the poll's sleep short */
void run_catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

void run_defaults(struct run_opts *o)
{
	struct latt_config *c = &o->cfg;

	memset(o, 0, sizeof(*o));
	c->target = LATT_TARGET_DRAM;
	c->node = LATT_NODE_LOCAL;
	c->op = LATT_OP_LOAD;
	c->fence = LATT_FENCE_DEFAULT;
	c->pattern = LATT_PAT_RAND;
	c->size = RUN_DEFAULT_SIZE;
	c->samples = RUN_DEFAULT_SAMPLES;
	c->region = RUN_DEFAULT_REGION;
	c->seed = RUN_DEFAULT_SEED;
	c->chain = 1;
	/* the process's affinity: taskset -c 1 measures from CPU 1 */
	c->cpu = host_first_cpu();
	c->max_outliers = RUN_DEFAULT_MAX_OUTLIERS;
	c->width = LATT_WIDTH_AUTO;
	o->repeat = 1;
	o->thr = (struct threshold_spec){ THR_OFF, 0, "0" };
	o->spec = (struct target_spec){ TARGET_DRAM, LATT_NODE_LOCAL, NULL };
	snprintf(o->target, sizeof(o->target), "dram");
}

static bool is_pmem(const struct run_opts *o)
{
	return o->spec.kind != TARGET_DRAM;
}

/*
 * A --target as written: dram[:NODE], namespaceX.Y, cxl:regionN, a path
 * with a '/', or the name of an existing file or device without one
 * ("data" for "./data"): a path is what --help promises.  "cxl:" followed
 * by anything but regionN is no file name but a mistake.
 */
static int set_target(struct run_opts *o, const char *v)
{
	int rc = parse_target(v, &o->spec);
	struct stat st;

	if (rc == -EINVAL && strncmp(v, "cxl:", 4) && !stat(v, &st)) {
		o->spec = (struct target_spec){ TARGET_PATH, LATT_NODE_LOCAL, v };
		rc = 0;
	}
	if (rc)
		return rc;
	if (strlen(v) >= sizeof(o->target))
		return -ERANGE;
	o->cfg.node = o->spec.node;
	snprintf(o->target, sizeof(o->target), "%s", v);
	return 0;
}

/* --traffic-target: a --target as set_target() takes it, resolved later */
static int set_traffic(struct run_opts *o, const char *v)
{
	struct target_spec spec;
	int rc = parse_target(v, &spec);
	struct stat st;

	if (rc == -EINVAL && strncmp(v, "cxl:", 4) && !stat(v, &st))
		rc = 0;
	if (!rc && strlen(v) >= sizeof(o->target))
		rc = -ERANGE;
	if (!rc)
		o->traffic = v;
	return rc;
}

/**
 * run_set_option() - one option of run's table into @o
 *
 * @v must outlive @o (a target's name points into it).  Returns 0 or the
 * parser's negative errno.
 */
int run_set_option(struct run_opts *o, int id, const char *v)
{
	struct latt_config *c = &o->cfg;
	int rc;

	switch (id) {
	case OPT_TARGET:	return set_target(o, v);
	case OPT_TRAFFIC_TARGET: return set_traffic(o, v);
	case OPT_TRAFFIC_REGION:
		rc = parse_size(v, &o->traffic_region);
		return rc ? rc : !o->traffic_region ||
			    o->traffic_region > LATT_MAX_REGION ? -ERANGE : 0;
	case OPT_CPU:		o->th.cpu_set = true;
				return parse_u32(v, &c->cpu);
	case OPT_OP:
		/* resolved with the target: run_durable_op() */
		if (!strcmp(v, RUN_OP_DURABLE)) {
			o->durable = true;
			c->op = LATT_OP_STORE;
			return 0;
		}
		return parse_op(v, &c->op);
	case OPT_FENCE:
		/* "default" (a sweep's point without --fence) asks for none */
		o->fence_set = strcmp(v, "default");
		return parse_fence(v, &c->fence);
	case OPT_PATTERN:
		rc = parse_pattern(v, &c->pattern, &c->stride);
		if (!rc && c->pattern == LATT_PAT_CHASE)
			c->stride = o->tlb_locality;
		return rc;
	case OPT_TLB_LOCALITY:
		rc = parse_size(v, &o->tlb_locality);
		if (!rc && c->pattern == LATT_PAT_CHASE)
			c->stride = o->tlb_locality;
		return rc;
	case OPT_SIZE:		return parse_line_size(v, &c->size);
	case OPT_SAMPLES:	o->th.samples_set = true;
				return parse_count(v, &c->samples);
	case OPT_REGION:	o->region_set = true;
				return parse_size(v, &c->region);
	case OPT_OFFSET:	o->offset_set = true;
				return parse_offset(v, &o->tgt.offset);
	case OPT_FORCE:		o->force = true; return 0;
	case OPT_SKIP_BADBLOCKS: o->skip_badblocks = true; return 0;
	case OPT_ALLOW_UNCHECKED: o->allow_unchecked = true; return 0;
	case OPT_SEED:		return parse_u64(v, &c->seed);
	case OPT_REPEAT:
		rc = parse_u32(v, &o->repeat);
		return rc ? rc : o->repeat < 1 || o->repeat > RUN_MAX_REPEAT ?
			    -ERANGE : 0;
	case OPT_CHAIN:		return parse_u32(v, &c->chain);
	case OPT_BATCH:
		rc = parse_u32(v, &c->batch);
		return rc ? rc : c->batch < 1 || c->batch > LATT_MAX_BATCH ?
			    -ERANGE : 0;
	case OPT_BATCH_PAIRS:
		rc = parse_count(v, &o->batch_pairs);
		return rc ? rc : o->batch_pairs < LATT_MIN_BATCH_PAIRS ||
			    o->batch_pairs > LATT_MAX_BATCH_PAIRS ? -ERANGE : 0;
	case OPT_THRESHOLD:	return parse_threshold(v, &o->thr);
	case OPT_MAX_OUTLIERS:	return parse_u32(v, &c->max_outliers);
	case OPT_WINDOW_US:	return parse_u32(v, &c->window_us);
	case OPT_WIDTH:		return parse_width(v, &c->width);
	case OPT_WARM:		c->flags |= LATT_CFG_WARM; return 0;
	case OPT_JSON:		o->json = v; return 0;
	case OPT_HIST:		o->hist = v; return 0;
	case OPT_HIST_FORMAT:
		if (strcmp(v, "gnuplot") && strcmp(v, "hgrm"))
			return -EINVAL;
		o->hist_format = v;
		return 0;
	case OPT_OUTLIERS:	o->outliers = v; return 0;
	case OPT_QUIET:		o->quiet = true; return 0;
	case OPT_HUGEPAGES:	o->hugepages = true; return 0;
	case OPT_NO_EVIDENCE:	o->no_evidence = true; return 0;
	case OPT_TIMER:
		if (!strcmp(v, "rdtsc"))
			c->flags |= LATT_CFG_RDTSC;
		else if (!strcmp(v, "rdtscp") || !strcmp(v, "auto"))
			c->flags &= ~LATT_CFG_RDTSC;
		else
			return -EINVAL;
		o->timer_rdtscp = !strcmp(v, "rdtscp");
		return 0;
	case OPT_ENGINE:
		if (strcmp(v, "user") && strcmp(v, "kernel"))
			return -EINVAL;
		o->engine_set = true;
		o->user_engine = !strcmp(v, "user");
		return 0;
	}
	return threads_set_option(o, id, v);
}

/**
 * run_batch_pairs() - the pairs of --batch K: --batch-pairs, or as many
 * as take about the accesses the samples take (3K a pair), and at least
 * LATT_MIN_BATCH_PAIRS; 0 without --batch
 */
__u32 run_batch_pairs(const struct run_opts *o)
{
	const struct latt_config *c = &o->cfg;
	__u64 n;

	if (!c->batch)
		return 0;
	if (o->batch_pairs)
		return (__u32)o->batch_pairs;
	n = (c->samples + 3ULL * c->batch - 1) / (3ULL * c->batch);
	if (n < LATT_MIN_BATCH_PAIRS)
		n = LATT_MIN_BATCH_PAIRS;
	return n > LATT_MAX_BATCH_PAIRS ? LATT_MAX_BATCH_PAIRS : (__u32)n;
}

/* Why size, stride or hotspot and region don't fit together, or NULL. */
static const char *pattern_problem(const struct latt_config *c)
{
	struct latt_pattern p;

	if (!latt_pattern_init(&p, c->pattern, c->size, c->stride, c->region,
			       c->seed))
		return NULL;
	return latt_pattern_problem(c->pattern, c->stride);
}

static const char *range_problem(char *buf, size_t len, const char *opt,
				 __u64 v, __u64 min, __u64 max)
{
	if (v >= min && v <= max)
		return NULL;
	snprintf(buf, len, "--%s: %llu is out of range %llu..%llu", opt,
		 (unsigned long long)v, (unsigned long long)min,
		 (unsigned long long)max);
	return buf;
}

/**
 * run_args_problem() - why the options can't make a run (a usage error), or
 * NULL; the message is in a static buffer
 */
const char *run_args_problem(const struct run_opts *o)
{
	static char buf[PATH_MAX + 256];
	const struct latt_config *c = &o->cfg;
	struct latt_config copy;
	const char *why;

	/* a pmem target's default region is known once it is resolved */
	bool region_known = !is_pmem(o) || o->region_set;
	/* a CXL region is pmem or dram once resolved: checked again then */
	bool cxl = o->spec.kind == TARGET_CXL;

	if ((why = range_problem(buf, sizeof(buf), "samples", c->samples, 1,
				 LATT_MAX_SAMPLES)) ||
	    (why = range_problem(buf, sizeof(buf), "size", c->size,
				 LATT_MIN_SIZE, LATT_MAX_SIZE)) ||
	    (region_known &&
	     (why = range_problem(buf, sizeof(buf), "region", c->region,
				  c->size, LATT_MAX_REGION))) ||
	    (why = range_problem(buf, sizeof(buf), "chain", c->chain, 1,
				 LATT_MAX_CHAIN)) ||
	    (why = range_problem(buf, sizeof(buf), "max-outliers",
				 c->max_outliers, 0, LATT_MAX_OUTLIERS)) ||
	    (c->window_us &&
	     (why = range_problem(buf, sizeof(buf), "window-us", c->window_us,
				  LATT_MIN_WINDOW_US, LATT_MAX_WINDOW_US))))
		return why;
	if (c->chain > 1 && c->pattern != LATT_PAT_CHASE)
		return "--chain needs --pattern chase";
	if (o->durable && o->fence_set)
		return "--op durable times the target's durable sequence, its fence (sfence) included: leave --fence out";
	copy = *c;
	if (latt_access_rules(&copy, &why))
		return why;	/* the rule book's words (rules.h) */
	if (o->tlb_locality && c->pattern != LATT_PAT_CHASE)
		return "--tlb-locality needs --pattern chase";
	if (c->fence == LATT_FENCE_SFENCE && !op_is_store(c->op)) {
		snprintf(buf, sizeof(buf), "--fence sfence is for store ops; --op %s is a load", latt_name(NAMES_OP, c->op));
		return buf;
	}
	if (o->no_evidence && !o->user_engine)
		return "--no-evidence is for --engine user (the module's windows shut interrupts out and count their NMIs at no cost)";
	if (o->hugepages && !o->user_engine)
		return "--hugepages is for --engine user (the module backs DRAM with 4 MiB blocks of its own)";
	if (o->hugepages && is_pmem(o) && !cxl)
		return "--hugepages is for dram targets (a device-DAX mapping has the device's alignment, a DAX file the pages its filesystem gives)";
	if (o->offset_set && !is_pmem(o)) {
		snprintf(buf, sizeof(buf), "--offset is for pmem and device-DAX targets, not %s", o->target);
		return buf;
	}
	if (o->skip_badblocks && !is_pmem(o)) {
		snprintf(buf, sizeof(buf), "--skip-badblocks is for pmem and device-DAX targets, not %s (DRAM's bad pages are the kernel's to retire)", o->target);
		return buf;
	}
	if (o->allow_unchecked && !is_pmem(o)) {
		snprintf(buf, sizeof(buf), "--allow-unchecked is for pmem and device-DAX targets, not %s", o->target);
		return buf;
	}
	if (o->batch_pairs && !c->batch)
		return "--batch-pairs needs --batch";
	if (o->traffic_region && !o->traffic)
		return "--traffic-region is the region of --traffic-target";
	if (o->traffic && c->mode != LATT_MODE_LOADED) {
		struct latt_traffic t = { .target = LATT_TARGET_DRAM };

		latt_traffic_rules(c, &t, &why);
		return why;	/* the rule book's words */
	}
	why = threads_args_problem(o);
	if (why)
		return why;
	if (!region_known)
		return NULL;	/* checked again once it is (check_rules()) */
	if (c->batch) {
		/* copy: *c with its chain resolved, latt_access_rules()'s */
		copy.batch_pairs = run_batch_pairs(o);
		if (latt_batch_rules(&copy, &why))
			return why;	/* the rule book's words */
	}
	return pattern_problem(c);
}

/*
 * Keep the region to half the node's free memory, in whole 4 MiB chunks,
 * so that the run doesn't push the node into reclaim or the OOM killer.
 * The warning is given once per clamped size (a sweep repeats it).
 */
static int clamp_region(struct run_opts *o, unsigned int node,
			const struct run_keep *k)
{
	static __u64 warned;
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
	/*
	 * the region a sweep keeps on this node is freed before this one is
	 * made (unless it is this one): it is as good as free, and the clamp
	 * must come out as it would have without it
	 */
	if (k && k->held_node == (int)node)
		free += (long long)k->held_bytes;
	half = free > 0 ? (__u64)free / 2 : 0;
	if (c->region <= half)
		return 0;
	half &= ~(CLAMP_ALIGN - 1);
	if (!half) {
		log_err("%s: node %u has only %lld MiB free", o->target, node,
			free >> 20);
		return 1;
	}
	if (warned != half)
		log_warn("region clamped to %llu MiB: node %u has only %lld MiB free", (unsigned long long)(half >> 20), node,
			 free >> 20);
	warned = half;
	c->region = half;
	why = pattern_problem(c);
	if (why) {
		log_err("%s: after the clamp, %s", o->target, why);
		return 1;
	}
	return 0;
}

/*
 * "namespace0.0 (fsdax, region0)", "/mnt/pm/f (a file on namespace0.2,
 * fsdax, region0)": what a pmem run would write to.
 */
static void describe_pmem(char *buf, size_t len, const struct pmem_target *t)
{
	const char *slash = strrchr(t->device, '/');

	if (t->file[0] && t->namespace[0])
		snprintf(buf, len, "%s (a file on %s, %s, %s)", t->file,
			 t->namespace, t->mode, t->region);
	else if (t->file[0])
		snprintf(buf, len, "%s (a file)", t->file);
	else if (t->namespace[0])
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

	log_err("%s%s%s holds a mounted filesystem (%s): refusing (a run claims the whole device; umount it first)", same ? "" : o->target,
		same ? "" : ": ", t->device, t->mount);
}

/*
 * Resolve a pmem, device-DAX or (user engine) fsdax-file target; refuse
 * what the engine can't measure on it.
 */
static int resolve_pmem(struct run_opts *o)
{
	struct pmem_target *t = &o->tgt.pm;
	unsigned int flags = o->spec.kind == TARGET_PATH ? PMEM_RESOLVE_PATH : 0;
	bool same;

	/* the user engine maps devices and files: no physical address needed */
	if (o->user_engine)
		flags |= PMEM_RESOLVE_FILES | PMEM_RESOLVE_NOPHYS;
	if (pmem_resolve(o->spec.name, flags, t))
		return 1;
	if (o->user_engine && t->block) {
		same = !strcmp(o->target, t->device);
		log_err("%s: %s%sa block device, whose mapping would be page cache: --engine user measures device-DAX devices and files on a filesystem mounted with -o dax (or use --engine kernel)", o->target, same ? "" : t->device,
			same ? "" : " is ");
		return 1;
	}
	if (t->mount[0]) {
		refuse_mounted(o, t);
		return 1;
	}
	return 0;
}

/*
 * The region inside the target's @t->size bytes from --offset on, up to
 * @end (@t->size, or the end of the stretch --skip-badblocks chose): the
 * default (all of it, in whole 4 MiB or pages), or --region if it fits;
 * for chase, a power of two.  @what names the target for messages.
 */
static int fit_region(struct run_opts *o, const char *what, __u64 end)
{
	struct latt_config *c = &o->cfg;
	const struct pmem_target *t = &o->tgt.pm;
	__u64 avail, offset = o->tgt.offset;
	char b1[32], b2[64], b3[32];
	const char *why;

	fmt_bytes(b1, sizeof(b1), t->size);
	/* " from --offset 8 MiB on", or nothing */
	b2[0] = '\0';
	if (offset) {
		fmt_bytes(b3, sizeof(b3), offset);
		snprintf(b2, sizeof(b2), " from --offset %s on", b3);
	}
	if (offset >= t->size) {
		fmt_bytes(b3, sizeof(b3), offset);
		log_err("%s: --offset %s is beyond the %s of %s", o->target, b3,
			b1, what);
		return 1;
	}
	avail = (end < t->size ? end : t->size) - offset;
	fmt_bytes(b3, sizeof(b3), avail);
	if (!o->region_set) {
		c->region = avail >= PMEM_ALIGN ? avail & ~(PMEM_ALIGN - 1) :
			    avail & ~(LATT_PAGE - 1);
		if (c->region < c->size) {
			/* a file is named once: it is the --target */
			fmt_bytes(b1, sizeof(b1), c->size);
			log_err("%s: %s has only %s%s, less than %s%s", o->target,
				t->file[0] ? "the file" : what, b3, b2,
				avail >= c->size ? "a page (4 KiB), the default --region's unit; give --region, at least --size " :
				"one access of --size ", b1);
			return 1;
		}
	} else if (c->region > avail) {
		fmt_bytes(b1, sizeof(b1), c->region);
		log_err("%s: --region %s exceeds the %s of %s%s", o->target, b1,
			b3, what, b2);
		return 1;
	}
	/*
	 * chase on pmem keeps masked offsets, not pointers (others may write
	 * the device meanwhile): the module wants a power-of-two region
	 */
	if (c->pattern == LATT_PAT_CHASE && (c->region & (c->region - 1))) {
		if (o->region_set) {
			fmt_bytes(b1, sizeof(b1), c->region);
			log_err("%s: --pattern chase on persistent memory needs a power-of-two --region, not %s", o->target, b1);
			return 1;
		}
		while (c->region & (c->region - 1))
			c->region &= c->region - 1;
	}
	why = pattern_problem(c);
	if (why) {
		fmt_bytes(b1, sizeof(b1), c->region);
		log_err("%s: with the region of %s: %s", o->target, b1, why);
		return 1;
	}
	return 0;
}

/* Without --force, refuse what writes to @what (stores, chase, a mix). */
static int refuse_writes(const struct run_opts *o, const char *what)
{
	const struct latt_config *c = &o->cfg;
	char b1[32];

	if (o->force || !run_writes(o))
		return 0;
	fmt_bytes(b1, sizeof(b1), c->region);
	if (op_is_store(c->op))
		log_err("%s: %s would overwrite %s of %s; add --force to allow it", o->target, latt_name(NAMES_OP, c->op), b1, what);
	else if (c->mix_write && !o->traffic)
		log_err("%s: --mix %u:%u writes with %s: it would overwrite %s of %s; add --force to allow it", o->target,
			c->mix_read, c->mix_write,
			latt_name(NAMES_OP, c->write_op ? c->write_op :
				  LATT_OP_STORE), b1, what);
	else
		log_err("%s: --pattern chase writes its pointers into the target: it would overwrite %s of %s; add --force to allow it", o->target, b1, what);
	return 1;
}

/* "1052672 (1028 KiB)": a byte count for --offset, and readable if it can be */
static void fmt_at(char *buf, size_t len, __u64 v)
{
	char b[32];

	fmt_bytes(b, sizeof(b), v);
	if (!v || v % 1024)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else
		snprintf(buf, len, "%llu (%s)", (unsigned long long)v, b);
}

/*
 * The known bad blocks of the target, in its bytes (a file's: through
 * FIEMAP, from those of the namespace under its filesystem).  0, or 1
 * after a message.
 */
static int target_badblocks(const struct run_opts *o, struct pmem_badlist *bl)
{
	const struct pmem_target *t = &o->tgt.pm;
	struct pmem_badlist dev;
	int fd, rc;

	rc = pmem_target_badblocks(t, &dev);
	if (rc) {
		log_err("%s: cannot read the known bad blocks: %s", o->target,
			strerror(-rc));
		return 1;
	}
	if (!t->file[0] || dev.state != PMEM_BB_KNOWN || !dev.nr) {
		*bl = dev;
		return 0;
	}
	/* a file: where do the namespace's bad blocks lie in it? */
	memset(bl, 0, sizeof(*bl));
	fd = open(t->file, O_RDONLY | O_CLOEXEC);
	rc = fd < 0 ? -errno : map_file_bad(fd, 0, t->size, &dev, bl);
	if (fd >= 0)
		close(fd);
	if (rc == -ENOMEM) {
		log_err("out of memory");
	} else if (rc) {
		map_bad_free(bl);
		bl->state = PMEM_BB_UNLOCATED;
		snprintf(bl->why, sizeof(bl->why), "%s has %llu known bad blocks, and where the file lies on it can't be told (FIEMAP: %s)", t->namespace, pmem_bad_sectors(&dev),
			 rc == -ENXIO ? "an extent it can't place" :
			 strerror(-rc));
		rc = 0;
	}
	map_bad_free(&dev);
	return rc ? 1 : 0;
}

/* How to see and clear the bad blocks of @t, for the messages. */
static void bb_hint(char *buf, size_t len, const struct pmem_target *t)
{
	if (t->namespace[0])
		snprintf(buf, len, "'ndctl list --media-errors -n %s' lists them; 'ndctl clear-errors %s' clears them (their data is lost)", t->namespace, t->namespace);
	else
		snprintf(buf, len, "'ndctl list --media-errors' lists them; 'ndctl clear-errors' clears them");
}

/*
 * The kernel engine on a raw namespace: the module can't tell where the
 * range starts on the disk, and refuses any range of a disk with a known
 * bad block (EHWPOISON); no --offset avoids that.
 */
static bool raw_whole_disk(const struct run_opts *o,
			   const struct pmem_badlist *bl)
{
	return !o->user_engine && o->tgt.pm.block &&
	       !strcmp(o->tgt.pm.mode, "raw") && bl->nr;
}

/*
 * --skip-badblocks, for a region that holds a known bad block (or bad
 * blocks that can't be placed): move --offset to the largest stretch from
 * --offset on that holds none (the bad blocks rounded out to pages, or to
 * the device's alignment for a device-DAX mapping), and end the region
 * there: *@end.  0, or 1 after a message.
 */
static int skip_badblocks(struct run_opts *o, const char *what,
			  const struct pmem_badlist *bl, __u64 *end)
{
	const struct pmem_target *t = &o->tgt.pm;
	__u64 align = LATT_PAGE, start, stop, from = o->tgt.offset;
	char b1[64], b2[64], b3[64], hint[2 * PMEM_NAME + 160];
	int fd;

	*end = t->size;
	if (bl->state == PMEM_BB_NOLIST)
		return 0;
	bb_hint(hint, sizeof(hint), t);
	if (bl->state == PMEM_BB_UNLOCATED) {
		log_err("%s: --skip-badblocks: can't avoid bad blocks it can't place: %s: refusing; %s", o->target, bl->why, hint);
		return 1;
	}
	if (raw_whole_disk(o, bl)) {
		log_err("%s: --skip-badblocks: %s, a raw namespace, has %llu known bad blocks, and the module refuses every range of a raw namespace's disk while it has one (it can't tell where the range lies on the disk): refusing; %s; or make it an fsdax or devdax namespace", o->target,
			what, pmem_bad_sectors(bl), hint);
		return 1;
	}
	if (o->user_engine && !t->file[0] && !t->block) {
		fd = open(t->device, O_RDONLY | O_CLOEXEC);
		if (fd >= 0 && map_devdax_align(fd, &align))
			align = LATT_PAGE;
		if (fd >= 0)
			close(fd);
	}
	if (map_clean_stretch(bl, from, t->size, align, &start, &stop)) {
		fmt_at(b1, sizeof(b1), from);
		log_err("%s: --skip-badblocks: no stretch of %s from --offset %s on is free of known bad blocks (in whole %llu-byte blocks): refusing; %s", o->target, what, b1,
			(unsigned long long)align, hint);
		return 1;
	}
	if (o->region_set && stop - start < o->cfg.region) {
		fmt_bytes(b1, sizeof(b1), o->cfg.region);
		fmt_bytes(b2, sizeof(b2), stop - start);
		fmt_at(b3, sizeof(b3), start);
		log_err("%s: --skip-badblocks: the largest stretch of %s free of known bad blocks is %s (at --offset %s), less than --region %s: refusing; %s", o->target, what, b2, b3, b1,
			hint);
		return 1;
	}
	o->tgt.offset = start;
	*end = stop;
	return 0;
}

/*
 * Would the region, as it stands, be refused for bad blocks (that
 * --skip-badblocks may avoid)?
 */
static bool must_skip(const struct run_opts *o, const struct pmem_badlist *bl)
{
	return bl->state == PMEM_BB_UNLOCATED || raw_whole_disk(o, bl) ||
	       (bl->state == PMEM_BB_KNOWN &&
		map_bad_find(bl, o->tgt.offset, o->cfg.region, NULL));
}

/* Say what --skip-badblocks did, once the region is known. */
/* The 512-byte blocks of @bl's runs from byte @from on (a run across
 * @from counts from there). */
static __u64 bad_sectors_from(const struct pmem_badlist *bl, __u64 from)
{
	__u64 n = 0, start;
	unsigned int i;

	for (i = 0; i < bl->nr; i++) {
		const struct pmem_bad *b = &bl->bad[i];

		if (b->offset + b->len <= from)
			continue;
		start = b->offset < from ? from : b->offset;
		n += (b->offset + b->len - start + 511) / 512;
	}
	return n;
}

static void say_skipped(struct run_opts *o, const char *what,
			const struct pmem_badlist *bl, __u64 from)
{
	const struct pmem_target *t = &o->tgt.pm;
	unsigned int n;
	char b1[64], b2[64], b3[64], b4[64];

	map_bad_find(bl, from, t->size - from, &n);
	/* for the reports: JSON target.badblocks_skipped, the warnings */
	o->tgt.skip = (struct run_skip){
		.done = true, .runs = n, .sectors = bad_sectors_from(bl, from),
		.from = from, .unmeasured = t->size - from - o->cfg.region,
	};
	fmt_at(b1, sizeof(b1), from);
	fmt_at(b2, sizeof(b2), o->tgt.offset);
	fmt_bytes(b3, sizeof(b3), o->cfg.region);
	fmt_bytes(b4, sizeof(b4), t->size - from - o->cfg.region);
	log_warn("%s: --skip-badblocks: %u run%s of known bad blocks (%llu blocks of 512 bytes) lie%s in %s from --offset %s on; measuring the largest stretch free of them: --offset %s, --region %s (%s of the target from --offset %s on not measured)", o->target, n, n == 1 ? "" : "s",
		 (unsigned long long)o->tgt.skip.sectors, n == 1 ? "s" : "",
		 what, b1, b2, b3, b4, b1);
}

/*
 * Refuse a region that holds a known bad block (with its place, and how to
 * see and clear it), or bad blocks that can't be placed; warn that a
 * target without a list is not checked.  A load of poison is a machine
 * check: the kernel engine's a panic, the user engine's a SIGBUS.
 */
static int refuse_badblocks(const struct run_opts *o, const char *what,
			    const struct pmem_badlist *bl)
{
	const struct pmem_target *t = &o->tgt.pm;
	const struct latt_config *c = &o->cfg;
	const struct pmem_bad *b;
	char b1[64], b2[64], b3[64], phys[48], more[48];
	char hint[2 * PMEM_NAME + 160];
	unsigned int n;

	bb_hint(hint, sizeof(hint), t);
	if (bl->state == PMEM_BB_NOLIST) {
		log_warn("%s: known bad blocks not checked: %s; a load of poisoned memory stops the run (EHWPOISON)",
			 o->target, bl->why);
		return 0;
	}
	if (bl->state == PMEM_BB_UNLOCATED) {
		log_err("%s: the known bad blocks of %s can't be checked: %s: refusing (a load of poisoned memory is a machine check); %s", o->target, what, bl->why, hint);
		return 1;
	}
	if (raw_whole_disk(o, bl)) {
		b = &bl->bad[0];
		fmt_at(b1, sizeof(b1), b->offset);
		log_err("%s: %s, a raw namespace, has %llu known bad blocks (the first at byte %s), and the module refuses every range of a raw namespace's disk while it has one (it can't tell where the range lies on the disk): refusing; %s", o->target, what, pmem_bad_sectors(bl), b1, hint);
		return 1;
	}
	b = map_bad_find(bl, o->tgt.offset, c->region, &n);
	if (!b)
		return 0;
	fmt_at(b1, sizeof(b1), b->offset);
	fmt_bytes(b2, sizeof(b2), b->len);
	fmt_bytes(b3, sizeof(b3), c->region);
	phys[0] = more[0] = '\0';
	if (b->phys != PMEM_UNKNOWN)
		snprintf(phys, sizeof(phys), ", at physical address 0x%llx",
			 b->phys);
	if (n > 1)
		snprintf(more, sizeof(more), " (and %u more run%s)", n - 1,
			 n == 2 ? "" : "s");
	log_err("%s: a known bad block (media error) at byte %s of %s, %s long%s, lies in the region (%s from --offset %llu)%s: refusing (a load of poisoned memory is a machine check: it stops the run, and it is a kernel panic on a CPU that cannot recover from one, where info lists no mc_recover); %s; or measure beside it: --skip-badblocks, or --offset and --region",
		o->target, b1, what, b2, phys, b3,
		(unsigned long long)o->tgt.offset, more, hint);
	return 1;
}

/**
 * run_durable_op() - the shortest store sequence that is durable in
 *	persistence domain @domain (PMEM_PERSIST_*), for --op durable and
 *	the run header
 * @domain: the target region's
 * @features: the CPU's LATT_FEAT_* (a write-back instruction it lacks is
 *	not chosen)
 * @op: out: LATT_OP_STORE (eADR) or a store with a write-back (ADR)
 * @fence: out: LATT_FENCE_SFENCE
 *
 * eADR (cpu_cache): the caches are flushed on power loss, so a store is
 * durable once it is globally visible, which SFENCE waits for (SDM Vol.
 * 2B, SFENCE: every prior store is globally visible before any later
 * one).  ADR (memory_controller): only the memory controller's queues
 * are, so the line must be written back first, CLWB (or CLFLUSHOPT, or
 * CLFLUSH where the CPU has neither), and the write-back ordered by
 * SFENCE (SDM Vol. 2A, CLWB and CLFLUSHOPT: ordered by SFENCE, not by
 * loads and stores), as PMDK's pmem_persist() does.
 *
 * Return: true, or false where no sequence makes a store durable or the
 * domain is not known.
 */
bool run_durable_op(const char *domain, __u64 features, __u32 *op,
		    __u32 *fence)
{
	*fence = LATT_FENCE_SFENCE;
	if (!strcmp(domain, PMEM_PERSIST_CPU_CACHE)) {
		*op = LATT_OP_STORE;
		return true;
	}
	if (strcmp(domain, PMEM_PERSIST_MEM_CTRL))
		return false;
	*op = features & LATT_FEAT_CLWB ? LATT_OP_STORE_CLWB :
	      features & LATT_FEAT_CLFLUSHOPT ? LATT_OP_STORE_CLFLUSHOPT :
	      LATT_OP_STORE_CLFLUSH;
	return true;
}

/*
 * --op durable on target @what in persistence domain @domain: the op and
 * fence (the write-back is settled in durable_flush(), once the CPU's
 * features are known), or 1 after saying why there is no durable store.
 */
static int resolve_durable(struct run_opts *o, const char *what,
			   const char *domain)
{
	__u32 op, fence;

	if (!o->durable)
		return 0;
	if (run_durable_op(domain, LATT_FEAT_CLWB, &op, &fence)) {
		o->cfg.op = op;
		o->cfg.fence = fence;
		return 0;
	}
	if (!strcmp(domain, PMEM_PERSIST_NONE))
		log_err("--op durable: %s: its persistence domain is none: nothing on it survives a power loss, whatever the stores do", what);
	else
		log_err("--op durable: %s: its region reports no persistence domain (%s): whether a store needs a write-back to be durable can't be told here; time the sequence yourself: --op store-clwb --fence sfence (ADR) or --op store --fence sfence (eADR)", what, domain);
	return 1;
}

/* --op durable's write-back, by the CPU's instructions (run_durable_op()) */
static void durable_flush(struct run_opts *o, const struct latt_info *info)
{
	__u32 op, fence;

	if (!o->durable || o->cfg.op == LATT_OP_STORE ||
	    !run_durable_op(PMEM_PERSIST_MEM_CTRL, info->features, &op,
			    &fence) || op == o->cfg.op)
		return;
	log_info("--op durable: this CPU has no clwb: %s", latt_name(NAMES_OP, op));
	o->cfg.op = op;
}

/*
 * Resolve a pmem, device-DAX or fsdax-file target, refuse what must not run
 * on it, and fill the configuration: physical address, region, node,
 * --force.  Known bad blocks are checked here, before the module is asked
 * or anything is mapped, for both engines.
 */
static int check_pmem(struct run_opts *o)
{
	struct latt_config *c = &o->cfg;
	const struct pmem_target *t = &o->tgt.pm;
	char what[2 * PATH_MAX + 3 * PMEM_NAME];
	struct pmem_badlist bl;
	__u64 end, from = o->tgt.offset;
	bool skipped;
	int rc;

	memset(&o->tgt.skip, 0, sizeof(o->tgt.skip));
	o->tgt.unchecked[0] = '\0';
	if (resolve_pmem(o))
		return 1;
	describe_pmem(what, sizeof(what), t);
	if (resolve_durable(o, what, t->persistence))
		return 1;
	if (t->phys_start != PMEM_UNKNOWN && t->phys_start % LATT_PAGE) {
		log_err("%s: %s starts at 0x%llx, not on a page boundary",
			o->target, what, t->phys_start);
		return 1;
	}
	if (target_badblocks(o, &bl))
		return 1;
	rc = fit_region(o, what, t->size);
	/* --skip-badblocks moves only a region that would be refused */
	skipped = !rc && o->skip_badblocks && must_skip(o, &bl);
	if (skipped)
		rc = skip_badblocks(o, what, &bl, &end) ||
		     fit_region(o, what, end);
	/* a file that can't be measured at all says so before --force is
	 * asked for */
	rc = rc ||
	     (o->user_engine && t->file[0] && map_check_dax_file(o->target, t)) ||
	     refuse_badblocks(o, what, &bl) ||
	     refuse_writes(o, what);
	if (!rc && bl.state == PMEM_BB_NOLIST)	/* check_module() asks more */
		snprintf(o->tgt.unchecked, sizeof(o->tgt.unchecked), "%s",
			 bl.why);
	if (!rc && skipped)
		say_skipped(o, what, &bl, from);
	else if (!rc && o->skip_badblocks)
		log_info("%s: --skip-badblocks: no known bad block in the region: nothing skipped", o->target);
	map_bad_free(&bl);
	if (rc)
		return 1;
	snprintf(o->tgt.kind, sizeof(o->tgt.kind), "%s", t->kind);
	c->target = LATT_TARGET_PMEM;
	c->phys_addr = t->phys_start == PMEM_UNKNOWN ? 0 :
		       t->phys_start + o->tgt.offset;
	c->node = t->numa_node >= 0 ? (__u32)t->numa_node : LATT_NODE_LOCAL;
	if (o->force)
		c->flags |= LATT_CFG_FORCE;
	return 0;
}

/*
 * cxl:regionN: what the region is now (cxl.c): its device-DAX device,
 * from here on the target as if given by its path, or the node its memory
 * was onlined to, as if dram:NODE were given.  The options are checked
 * again against that (--offset is for a device, --hugepages for a node),
 * as a usage error would have had them.  o->target stays the spec, for
 * the messages.
 */
static int resolve_cxl(struct run_opts *o)
{
	struct cxl_inv_resolved *x = &o->tgt.cxl;
	long long total, free;
	const char *why;

	if (cxl_inv_resolve(o->target, o->spec.name, x))
		return 1;
	if (x->device[0]) {
		o->spec = (struct target_spec){ TARGET_PATH, LATT_NODE_LOCAL,
						x->device };
	} else {
		o->spec = (struct target_spec){ TARGET_DRAM, (__u32)x->node,
						NULL };
		o->cfg.node = (__u32)x->node;
	}
	log_info("%s: %s: measuring %s", o->target, x->note, x->resolved);
	/*
	 * A node is all the memory on it: one CFMWS window is one node, so
	 * another region of the window (or other hot-added memory) lands
	 * there too, and the run's pages may come from any of it.
	 */
	if (!x->device[0] && x->size && x->size != CXL_UNKNOWN &&
	    !host_node_mem((unsigned int)x->node, &total, &free) &&
	    (unsigned long long)total > x->size + x->size / 16)
		log_warn("%s: node %d holds %lld MiB, the region %llu MiB: a run on dram:%d takes its pages anywhere in the node, not only in this region",
			 o->target, x->node, total >> 20, x->size >> 20,
			 x->node);
	why = run_args_problem(o);
	if (why) {
		log_err("%s: resolves to %s (%s): %s", o->target, x->resolved,
			x->note, why);
		return 1;
	}
	return 0;
}

static int check_host(struct run_opts *o, const struct run_keep *k)
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
	if (o->spec.kind == TARGET_CXL && resolve_cxl(o))
		return 1;
	if (is_pmem(o))
		return check_pmem(o);
	snprintf(o->tgt.kind, sizeof(o->tgt.kind), "dram");
	if (o->durable) {
		log_err("--op durable: %s: DRAM%s keeps nothing across a power loss: no store makes it durable (a persistent memory target: /dev/pmemN, /dev/daxX.Y, namespaceX.Y)",
			o->target, o->tgt.cxl.region[0] ? " (a CXL region onlined as a node)" : "");
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
	if (!o->tgt.cxl.region[0])	/* a CXL region keeps its name */
		snprintf(o->target, sizeof(o->target), "dram:%d", node);
	return clamp_region(o, (unsigned int)node, k);
}

/*
 * A target whose known bad blocks could not be checked (no list: CXL,
 * soft-reserved memory) runs in the module only where a poisoned load is
 * survived: a module whose loads have machine-check fixups (ABI 2.3,
 * LATT_FEAT_MC_SAFE) on a CPU that reports recoverable machine checks
 * (LATT_FEAT_MC_RECOVER).  Anywhere else it would be a kernel panic.  The
 * user engine survives it anyway: a SIGBUS.
 */
static int refuse_unchecked(const struct run_opts *o,
			    const struct latt_info *in)
{
	const char *why;

	if (!o->tgt.unchecked[0] || o->user_engine)
		return 0;
	if (!(in->features & LATT_FEAT_MC_SAFE))
		why = "this lattester module (ABI before 2.3) has no machine-check fixups on its loads";
	else if (!(in->features & LATT_FEAT_MC_RECOVER))
		why = "this CPU reports no machine checks the kernel can recover from (Intel MCG_CAP.SER_P, AMD SUCCOR)";
	else
		return 0;
	if (o->allow_unchecked) {
		log_warn("%s: --allow-unchecked: a load of poisoned memory in it would be a kernel panic: %s",
			 o->target, why);
		return 0;
	}
	log_err("%s: its known bad blocks can't be checked (%s), and %s: a load of poisoned memory would be a kernel panic: refusing; --engine user measures it (a poisoned load is a SIGBUS there, and the run stops), or --allow-unchecked if the memory is known to be sound",
		o->target, o->tgt.unchecked, why);
	return 1;
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
	__u64 missing = (op_features(c->op) | op_features(c->write_op)) &
			~in->features;
	size_t i;

	if (in->abi_version >> 16 == 1 && LATT_ABI_MAJOR == 2) {
		log_err("this lattester module speaks ABI %u.%u (ioctl magic %#x); lattester-ctl speaks %d.%d (%#x): load the module of this release (make install, or make dkms-install)",
			in->abi_version >> 16, in->abi_version & 0xffff,
			LATT_IOC_MAGIC_V1, LATT_ABI_MAJOR, LATT_ABI_MINOR,
			LATT_IOC_MAGIC);
		return 1;
	}
	if (!latt_abi_compatible(in)) {
		log_err("module ABI %u.%u (%u buckets) does not match the tool's %d.%d (%u buckets): rebuild one of them",
			in->abi_version >> 16, in->abi_version & 0xffff,
			in->hist_buckets, LATT_ABI_MAJOR, LATT_ABI_MINOR,
			LATT_HIST_BUCKETS);
		return 1;
	}
	/* a module of this major always has it; the bits say so (ABI 1.1+) */
	if (c->target == LATT_TARGET_PMEM && !(in->features & LATT_FEAT_PMEM)) {
		log_err("%s: this lattester module (ABI %u.%u) cannot measure persistent memory: it needs the module's 'pmem' feature", o->target, in->abi_version >> 16,
			in->abi_version & 0xffff);
		return 1;
	}
	if (refuse_unchecked(o, in))
		return 1;
	if (threads_used(c) && !(in->features & LATT_FEAT_THREADS)) {
		log_err("this lattester module (ABI %u.%u) runs one thread in latency mode: --threads, --cpus, --mode and --split need the module's 'threads' feature",
			in->abi_version >> 16, in->abi_version & 0xffff);
		return 1;
	}
	if (o->traffic && !(in->features & LATT_FEAT_TRAFFIC)) {
		log_err("this lattester module (ABI %u.%u) lacks the 'traffic' feature: --traffic-target needs the module's LATT_IOC_START_TRAFFIC (ABI 2.9): load the module of this release, or --engine user",
			in->abi_version >> 16, in->abi_version & 0xffff);
		return 1;
	}
	if (c->batch && !(in->features & LATT_FEAT_BATCH)) {
		log_err("this lattester module (ABI %u.%u) lacks the 'batch' feature: --batch needs the module's LATT_IOC_BATCH (ABI 2.7): load the module of this release, or --engine user",
			in->abi_version >> 16, in->abi_version & 0xffff);
		return 1;
	}
	/* a module before ABI 2.2 has no movdir64b, whatever the CPU has */
	if ((c->op == LATT_OP_MOVDIR64B || c->write_op == LATT_OP_MOVDIR64B) &&
	    in->abi_version < ((2U << 16) | 2)) {
		log_err("this lattester module (ABI %u.%u) has no --op movdir64b (ABI 2.2): load the module of this release",
			in->abi_version >> 16, in->abi_version & 0xffff);
		return 1;
	}
	if (missing) {
		bool op = op_features(c->op) & missing;

		log_err("%s %s needs the %s instruction, which this CPU lacks",
			op ? "--op" : "--write-op",
			latt_name(NAMES_OP, op ? c->op : c->write_op),
			latt_name(NAMES_FEATURE, __builtin_ctzll(missing)));
		return 1;
	}
	/* an op of its own width needs no vector width (rules.h's check) */
	if (c->width && !latt_op_width(c->op) && !(in->widths & c->width)) {
		log_err("--width %u: not usable on this CPU", c->width);
		return 1;
	}
	if (o->timer_rdtscp && !(in->features & LATT_FEAT_RDTSCP)) {
		log_err("--timer rdtscp: this CPU lacks rdtscp (or its CPUID hides it); --timer auto times with lfence; rdtsc");
		return 1;
	}
	if (((c->flags & LATT_CFG_RDTSC) || !(in->features & LATT_FEAT_RDTSCP)) &&
	    !(in->features & LATT_FEAT_TIMER_RDTSC)) {
		log_err("this lattester module (ABI %u.%u) times only with rdtscp, which %s: it needs the module's 'timer_rdtsc' feature",
			in->abi_version >> 16, in->abi_version & 0xffff,
			(c->flags & LATT_CFG_RDTSC) ? "--timer rdtsc avoids" :
			"this CPU lacks (or its CPUID hides)");
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

/* What START_TRAFFIC (or the user engine) gets of a resolved traffic @t */
static void traffic_of(const struct run_opts *t, struct latt_traffic *tr)
{
	const struct latt_config *c = &t->cfg;

	*tr = (struct latt_traffic){
		.target = c->target,
		.node = c->node,
		.region = c->region,
		.phys_addr = c->phys_addr,
		.fd = c->fd,
		.map_addr = c->map_addr,
	};
}

/*
 * rules.h's checks, the same for both engines and in the same words (the
 * module makes them again at START, and answers with an errno); with a
 * --traffic-target @t, its own too.
 */
static int check_rules(const struct run_opts *o, const struct run_opts *t,
		       const struct latt_info *in)
{
	/* what the probe's target sees: a traffic target takes the rest */
	const char *lacks, *why = engine_rules(&o->cfg, t != NULL, in, &lacks);
	struct latt_traffic tr;

	if (!why && t) {
		traffic_of(t, &tr);
		if (latt_traffic_rules(&o->cfg, &tr, &why)) {
			log_err("%s: --traffic-target %s: %s", o->target,
				t->target, why);
			return 1;
		}
	}
	if (!why)
		return 0;
	if (lacks)
		log_err("%s: %s: this CPU lacks %s", o->target, why, lacks);
	else
		log_err("%s: %s", o->target, why);
	return 1;
}

/*
 * Poll STATUS until the run stops; once run_stops reaches @h->abort_at,
 * ABORT it.  The interval starts at 1 ms and doubles up to POLL_MS, so that
 * a short run doesn't wait 100 ms for nothing; and it is no longer than
 * what the samples left take at the rate so far, so that the poll after
 * the end comes soon after it: the doubling alone oversleeps the end of a
 * run by up to its length, the longest part of a sweep's point that
 * reuses its region.  *aborted says whether this side aborted it; *last is
 * the last STATUS (a poisoned load's place, ABI 2.3).
 */
static int wait_run(struct latt_dev *d, const struct run_hooks *h,
		    bool *aborted, struct latt_status *last)
{
	long us = POLL_FIRST_US, nap;
	struct timespec poll, t0, now;
	struct latt_status st;
	double left;
	int rc;

	*aborted = false;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		rc = latt_dev_status(d, &st);
		if (rc || st.state != LATT_STATE_RUNNING)
			break;
		if (run_stops >= h->abort_at && !*aborted) {
			rc = latt_dev_abort(d);
			*aborted = !rc;
			log_dbg("abort: %s", rc ? strerror(-rc) : "sent");
		}
		if (h->progress)
			h->progress(h->arg, &st);
		nap = us;
		if (st.samples_done && st.samples_total > st.samples_done) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			/* the time so far, then the time the rest takes */
			left = (double)(now.tv_sec - t0.tv_sec) * 1e6 +
			       (double)(now.tv_nsec - t0.tv_nsec) / 1e3;
			left *= (double)(st.samples_total - st.samples_done) /
				(double)st.samples_done;
			if (left < (double)nap)
				nap = left > POLL_FIRST_US ? (long)left :
				      POLL_FIRST_US;
		}
		poll = (struct timespec){ nap / 1000000,
					  (nap % 1000000) * 1000 };
		nanosleep(&poll, NULL);
		us = us * 2 > POLL_MS * 1000L ? POLL_MS * 1000L : us * 2;
	}
	*last = st;
	return rc;
}

static int run_alloc(const struct run_opts *o, struct run_report *r)
{
	__u32 nout = o->thr.kind != THR_OFF ? o->cfg.max_outliers : 0;

	__u32 npairs = o->cfg.batch ? o->cfg.batch_pairs : 0;

	r->hist = calloc(LATT_HIST_BUCKETS, sizeof(*r->hist));
	r->outliers = nout ? calloc(nout, sizeof(*r->outliers)) : NULL;
	r->batch_pairs = npairs ? calloc(npairs, sizeof(*r->batch_pairs)) :
			 NULL;
	if (!r->hist || (nout && !r->outliers) ||
	    (npairs && !r->batch_pairs)) {
		log_err("out of memory");
		return 1;
	}
	return 0;
}

/*
 * Open the device that claims a pmem target: a block device O_EXCL (so that
 * nothing mounts it during the run), a device-DAX device plainly; for the
 * user engine, the device or file to map, read-only unless the run writes.
 * Never O_CREAT or O_TRUNC.  Returns the descriptor (never 0: 0 means "no
 * fd" to the module) or -1.
 */
static int claim_pmem(const struct run_opts *o)
{
	const struct pmem_target *t = &o->tgt.pm;
	const char *path = t->file[0] ? t->file : t->device;
	bool rdonly = o->user_engine && !run_writes(o);
	struct pmem_target again = *t;
	struct stat st;
	int fd, err, fd2;

	fd = open(path, (rdonly ? O_RDONLY : O_RDWR) | O_CLOEXEC |
		  (t->block ? O_EXCL : 0));
	if (fd < 0) {
		err = errno;
		if (err == EBUSY && t->block && !stat(t->device, &st) &&
		    pmem_mount_of(st.st_rdev, again.mount,
				  sizeof(again.mount)) > 0)
			refuse_mounted(o, &again);
		else if (err == EBUSY)
			log_err("%s: %s is in use (mounted, or claimed by another program): refusing", o->target,
				t->device);
		else
			log_err("%s: cannot open %s: %s", o->target, path,
				strerror(err));
		return -1;
	}
	if (fd == 0) {
		fd2 = fcntl(fd, F_DUPFD_CLOEXEC, 3);
		close(fd);
		if (fd2 < 0)
			log_err("%s: %s: %s", o->target, path,
				strerror(errno));
		fd = fd2;
	}
	return fd;
}

/* Close the claim a sweep kept (run_keep), and its mapping first. */
static void claim_release(struct run_keep *k)
{
	map_release(&k->dax);
	if (k->claim_fd > 0)
		close(k->claim_fd);
	k->claim_fd = 0;
	k->claim_path[0] = '\0';
}

/*
 * A pmem target's claim for this run: claim_pmem()'s own; or, in a sweep
 * (@k), the one the previous point left, when it is open on the same
 * device or file, alike: the region the module keeps on its open file
 * holds that very claim, which a second open with O_EXCL would not get.
 * Another target's claim is closed first.  The descriptor, or -1.
 */
static int claim(const struct run_opts *o, struct run_keep *k)
{
	const struct pmem_target *t = &o->tgt.pm;
	const char *path = t->file[0] ? t->file : t->device;
	bool rdonly = o->user_engine && !run_writes(o);
	int fd;

	if (!k)
		return claim_pmem(o);
	if (k->claim_fd > 0 && k->claim_rdonly == rdonly &&
	    !strcmp(k->claim_path, path))
		return k->claim_fd;
	claim_release(k);
	fd = claim_pmem(o);
	if (fd > 0) {
		k->claim_fd = fd;
		k->claim_rdonly = rdonly;
		snprintf(k->claim_path, sizeof(k->claim_path), "%s", path);
	}
	return fd;
}

/*
 * A device-DAX target for a module that checks the range through the
 * caller's own mapping of the claimed device (LATT_FEAT_DAX_MAP, ABI 2.1):
 * the region mapped (map.c; nothing touched, the module's pin faults it
 * in), its address in cfg.map_addr.  In a sweep (@k) the mapping stays
 * with the claim while the points share offset, region and access, since
 * the module takes the region it kept only for the same map_addr; else
 * it is @own, released after the run.  0, or 1 after a message.
 */
static int dax_map(struct run_opts *o, struct run_keep *k,
		   struct map_region *own)
{
	struct latt_config *c = &o->cfg;
	bool writes = run_writes(o);
	struct map_region *m = k ? &k->dax : own;

	if (k && k->dax.map && k->dax_offset == o->tgt.offset &&
	    k->dax_len == c->region && k->dax_writes == writes) {
		c->map_addr = (__u64)(uintptr_t)k->dax.base;
		return 0;
	}
	map_release(m);
	if (map_devdax_for_module(o->target, &o->tgt.pm, c->fd, o->tgt.offset,
				  c->region, writes, m))
		return 1;
	if (k) {
		k->dax_offset = o->tgt.offset;
		k->dax_len = c->region;
		k->dax_writes = writes;
	}
	c->map_addr = (__u64)(uintptr_t)m->base;
	return 0;
}

/** run_keep_init() - a sweep's run_keep before its first point: nothing */
void run_keep_init(struct run_keep *k)
{
	memset(k, 0, sizeof(*k));
	k->dev.fd = -1;
	k->held_node = -1;
}

/**
 * run_keep_release() - give back what a sweep kept: the device (the module
 * frees the region it kept on it), then the claim, the user engine's region
 */
void run_keep_release(struct run_keep *k)
{
	latt_dev_close(&k->dev);
	claim_release(k);
	user_keep_free(&k->user);
	k->held_node = -1;
	k->held_bytes = 0;
	if (k->traffic) {
		run_keep_release(k->traffic);
		free(k->traffic);
		k->traffic = NULL;
	}
}

/*
 * The module's evidence of the run's outlier windows (ABI 2.8) into
 * r->wev and r->cause; 0, or 1 after a message.  All of it: the module
 * keeps at most one a record, and the records were all fetched.
 */
static int fetch_windows(const struct run_opts *o, struct latt_dev *d,
			 struct run_report *r)
{
	struct cause_summary *cs = &r->cause;
	struct latt_windows w = { 0 };
	size_t room = r->res.outlier_len;
	int rc;

	free(r->wev);
	r->wev = room ? calloc(room, sizeof(*r->wev)) : NULL;
	r->nr_wev = 0;
	if (room && !r->wev) {
		log_err("out of memory");
		return 1;
	}
	w.wev_ptr = (__u64)(uintptr_t)r->wev;
	w.len = (__u32)room;
	rc = latt_dev_windows(d, &w);
	/* and of this run: another opener may have started one since */
	if (!rc && (w.kept != w.len || w.len > room))
		rc = -EPROTO;
	if (rc) {
		log_err("%s: windows failed: %s", o->target, strerror(-rc));
		return 1;
	}
	r->nr_wev = w.len;
	free(cs->of);
	memset(cs, 0, sizeof(*cs));
	cs->on = true;
	cs->sources = w.sources;
	cs->quiet_windows = w.quiet_windows;
	memcpy(cs->quiet_ev, w.quiet_ev, sizeof(cs->quiet_ev));
	return 0;
}

static int report_start_error(const struct run_opts *o,
			      const struct latt_config *c, int rc)
{
	const char *hint = latt_start_hint(rc);
	char pmem_hint[256];

	if (c->target == LATT_TARGET_PMEM && rc == -EINVAL) {
		snprintf(pmem_hint, sizeof(pmem_hint), "the module rejected the configuration or the physical range 0x%llx-0x%llx",
			 (unsigned long long)c->phys_addr,
			 (unsigned long long)(c->phys_addr + c->region - 1));
		hint = pmem_hint;
	} else if (c->target == LATT_TARGET_PMEM && rc == -EPERM) {
		hint = "the module wants --force for this op on pmem";
	} else if (c->target == LATT_TARGET_PMEM && rc == -EBUSY) {
		hint = "another run is in progress, or the device is claimed";
	}

	if (rc == -EINTR && run_stops) {
		log_err("%s: interrupted before the run started", o->target);
		return EXIT_INTERRUPTED;
	}
	log_err("%s: start failed: %s%s%s%s", o->target, strerror(-rc),
		hint ? " (" : "", hint ? hint : "", hint ? ")" : "");
	return 1;
}

/* START @c, wait, fetch into @r; 0, 1 or EXIT_INTERRUPTED.  @d NULL: the
 * user engine instead of the module. */
static int measure(struct latt_dev *d, const struct run_opts *o,
		   const struct latt_config *c, struct run_report *r,
		   const struct run_hooks *h)
{
	__u32 nout = r->outliers && c->threshold ? c->max_outliers : 0;
	struct latt_config run = *c;
	struct latt_status st;
	bool aborted;
	int rc;

	if (!d)
		return user_engine_measure(o, c, r, h,
					   h->keep ? &h->keep->user : NULL,
					   h->keep && h->keep->traffic ?
					   &h->keep->traffic->user : NULL);
	/* in a sweep the module keeps the region on the open device, and
	 * the next START takes it if it asks for the same; an older module
	 * knows no such flag */
	if (h->keep && (d->info.features & LATT_FEAT_REUSE))
		run.flags |= LATT_CFG_REUSE;
	clock_gettime(CLOCK_REALTIME, &r->start);
	if (o->traffic_run) {
		struct latt_traffic tr;

		traffic_of(o->traffic_run, &tr);
		rc = latt_dev_start_traffic(d, &run, &tr);
	} else {
		rc = latt_dev_start(d, &run);
	}
	if (rc)
		return report_start_error(o, c, rc);
	log_info("%s: started, seed 0x%llx, threshold %llu cycles", o->target,
		 (unsigned long long)c->seed, (unsigned long long)c->threshold);
	rc = wait_run(d, h, &aborted, &st);
	if (rc) {
		log_err("%s: status failed: %s", o->target, strerror(-rc));
		return 1;
	}
	r->poison_offset = st.error == -EHWPOISON ? st.poison_offset :
			   LATT_POISON_UNKNOWN;
	rc = latt_dev_result(d, &r->res, r->hist, LATT_HIST_BUCKETS,
			     r->outliers, nout);
	clock_gettime(CLOCK_REALTIME, &r->end);
	if (rc) {
		log_err("%s: result failed: %s", o->target, strerror(-rc));
		return 1;
	}
	r->interrupted = aborted;
	if (c->batch) {
		r->batch = (struct latt_batch){
			.pairs_ptr = (__u64)(uintptr_t)r->batch_pairs,
			.len = c->batch_pairs,
		};
		rc = latt_dev_batch(d, &r->batch);
		/* and of this run: another opener may have started one */
		if (!rc && (r->batch.batch != c->batch ||
			    r->batch.len > c->batch_pairs ||
			    r->batch.pairs != r->batch.len))
			rc = -EPROTO;
		if (rc) {
			log_err("%s: batch failed: %s", o->target,
				strerror(-rc));
			return 1;
		}
	}
	if (c->threshold && (d->info.features & LATT_FEAT_WINDOWS) &&
	    fetch_windows(o, d, r))
		return 1;
	threads_free(&r->trep);
	return threads_used(c) ? threads_fetch(d, r) : 0;
}

/*
 * The quantum of @r (struct run_quantum): the engine's, and its samples'
 * from one timing thread's histogram of raw samples (several threads'
 * merged histogram moves each by its overhead, off the quantum).
 */
static void run_quantum(struct run_report *r)
{
	static __u64 d[LATT_Q_MAX_N];
	struct run_quantum *q = &r->q;
	const __u64 *h = r->hist;
	struct latt_quantum found;
	__u32 i, n, lat = 0, vals = 1;

	memset(q, 0, sizeof(*q));
	q->timer = r->info->timer_quantum;
	for (i = 0; r->trep.st && i < r->trep.n; i++) {
		if (r->trep.st[i].role != LATT_ROLE_LATENCY)
			continue;
		if (!lat++ && r->trep.hist)
			h = r->trep.hist + (size_t)i * LATT_HIST_BUCKETS;
	}
	if (lat > 1 && !r->trep.hist)
		h = NULL;
	n = h && r->res.count ? latt_quantum_hist(d, h) : 0;
	/* three values at least: one is its own quantum, two are a
	 * difference and its divisors */
	for (i = 1; i < n; i++)
		vals += d[i] != d[i - 1];
	/* a spacing found, not one tick by default */
	if (n && vals >= 3 && latt_quantum_find(&found, d, n) == 0) {
		q->samples = found.quantum;
		q->used = found.used;
	}
	q->quantum = q->timer ? q->timer : q->samples;
	if (!q->quantum) {
		/* a module before ABI 2.6 and samples that pin none down:
		 * a TSC is read in whole cycles, so one is the least */
		q->quantum = LATT_Q_ONE;
		q->assumed = true;
	}
	q->finer = q->timer && q->samples &&
		   (double)q->samples < 0.98 * (double)q->timer;
}

/*
 * The threshold in cycles: a time needs tsc_khz, a multiple of the median
 * needs a calibration pass first (same configuration, no threshold).
 */
static int resolve_threshold(struct latt_dev *d, struct run_opts *o,
			     struct run_report *r, const struct run_hooks *h)
{
	struct run_threshold *t = &r->thr;
	struct latt_config cal = o->cfg;
	__u64 raw;
	int rc;

	t->spec = o->thr;
	if (o->thr.kind != THR_MEDIAN) {
		t->cycles = threshold_cycles(&o->thr, r->info->tsc_khz, 0);
		o->cfg.threshold = t->cycles;
		return 0;
	}
	cal.samples = o->cfg.samples < RUN_CALIBRATION_SAMPLES ?
		      o->cfg.samples : RUN_CALIBRATION_SAMPLES;
	cal.threshold = 0;
	cal.batch = cal.batch_pairs = 0;	/* its median only */
	log_info("%s: calibration pass of %llu samples for --threshold %s",
		 o->target, (unsigned long long)cal.samples, o->thr.text);
	rc = measure(d, o, &cal, r, h);
	if (rc)
		return rc;
	if (r->interrupted) {
		log_err("%s: interrupted during the calibration pass",
			o->target);
		return EXIT_INTERRUPTED;
	}
	if (r->res.state != LATT_STATE_DONE || !r->res.count) {
		log_err("%s: the calibration pass ended %s%s%s", o->target,
			latt_name(NAMES_STATE, r->res.state),
			r->res.error ? ": " : "",
			r->res.error ? strerror(-r->res.error) : "");
		return 1;
	}
	raw = latt_hist_percentile(r->hist, r->res.count, r->res.min,
				   r->res.max, 500000);
	t->calibration = r->res.count;
	/* the point's region is the calibration pass's: it says whether an
	 * earlier point's was taken, the run after it always takes it */
	r->region_reused = !!(r->res.flags & LATT_RES_REUSED);
	t->median = latt_correct(raw, r->res.overhead);
	run_quantum(r);
	if (report_quantum(r) > 0 && t->median <= report_quantum(r)) {
		log_err("%s: --threshold %s: the median (%llu cycles, corrected) is within one timer quantum (%.2f cycles) of zero: a multiple of it is no threshold; give cycles or a time, or give the samples more to time%s", o->target,
			o->thr.text, (unsigned long long)t->median,
			report_quantum(r),
			op_is_store(o->cfg.op) &&
			r->res.config.fence != LATT_FENCE_MFENCE ?
			" (--fence mfence times stores to completion)" : "");
		return 1;
	}
	t->cycles = threshold_cycles(&o->thr, r->info->tsc_khz, t->median);
	o->cfg.threshold = t->cycles;
	log_info("%s: median %llu cycles, threshold %llu cycles", o->target,
		 (unsigned long long)t->median, (unsigned long long)t->cycles);
	return 0;
}

/**
 * run_open_failed() - say why the device did not open (latt_dev_open()'s
 * @rc); with @hint, and where the module is missing or not allowed, name
 * --engine user as the other way
 */
void run_open_failed(int rc, bool hint)
{
	log_err("%s: %s", latt_dev_path(), latt_open_strerror(rc));
	if (hint && (rc == -ENOENT || rc == -ENXIO || rc == -ENODEV ||
		     rc == -EACCES || rc == -EPERM))
		log_err("or measure without the module, from userspace: add '--engine user' (dram without root, device-DAX, files on a DAX filesystem; interrupts are not kept out)");
}

static void warn_add(struct run_report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn_add(struct run_report *r, const char *fmt, ...)
{
	va_list ap;

	if (r->nr_warnings >= RUN_MAX_WARNINGS)
		return;
	va_start(ap, fmt);
	vsnprintf(r->warnings[r->nr_warnings++], sizeof(r->warnings[0]), fmt,
		  ap);
	va_end(ap);
}

/*
 * What the figures of @r can't show by themselves, said in the table and
 * the JSON: a median that can't be told from zero, a timer overhead that
 * drifted during the run, samples whose TSC went backwards, threads on a
 * TSC the kernel does not trust, streaming threads held off their CPUs
 * (@r->duty, duty_of()).
 */
static void run_warnings(struct run_report *r)
{
	const struct latt_result *s = &r->res;
	const struct latt_config *c = &s->config;
	const __u64 step = s->timer_step;
	const double q = report_quantum(r);
	double p50 = r->sum.cycles[STAT_P50] * (r->sum.per_load ? r->sum.chain : 1);
	__u64 end = s->overhead_end, drift;
	char why[sizeof(r->warnings[0])];

	r->nr_warnings = 0;
	if (s->count && q > 0 && c->mode != LATT_MODE_BANDWIDTH &&
	    p50 <= q) {
		if (op_is_store(c->op) && c->fence != LATT_FENCE_MFENCE)
			warn_add(r, "the corrected p50 (%.0f cycles) is within one timer quantum (%.2f cycles) of zero: with --fence %s the second timestamp does not wait for the stores; --fence mfence times them to completion", p50, q,
				 latt_name(NAMES_FENCE, c->fence));
		else
			warn_add(r, "the corrected p50 (%.0f cycles) is within one timer quantum (%.2f cycles) of zero: it can't be told from nothing; time more per sample (--chain with chase, a larger --size)", p50,
				 q);
	}
	if (r->q.finer)
		warn_add(r, "the run's samples are spaced %.2f cycles apart, finer than the timer's quantum (%.2f cycles, found when the engine started): the TSC moved otherwise during the run (another host?); the resolution stated is the coarser one", (double)r->q.samples / LATT_Q_ONE,
			 (double)r->q.timer / LATT_Q_ONE);
	/*
	 * Each reading is the true time rounded to a tick, so two reads a
	 * quantum apart may differ by a tick less (24 at a quantum of
	 * 24.45); anything below that is a timer moved otherwise: QEMU's TCG
	 * answering rdtscp from the host's plain rdtsc read steps of 1
	 * beside a quantum of 26
	 */
	if (step && q > 0 && (double)step + 1 < q)
		warn_add(r, "two reads of the timer differed by %llu cycles, less than its quantum (%.2f cycles): the TSC moved otherwise (a hypervisor or an emulator setting it); the resolution stated is the quantum", (unsigned long long)step, q);
	drift = end > s->overhead ? end - s->overhead : s->overhead - end;
	if (end && step && drift > step)
		warn_add(r, "the timer's overhead drifted from %llu to %llu cycles during the run, more than one read of the timer costs (%llu): the CPU's clock or the platform changed; repeat the run", (unsigned long long)s->overhead,
			 (unsigned long long)end, (unsigned long long)step);
	if (core_clock_drift(&r->core) > CORE_DRIFT_MAX)
		warn_add(r, "the core clock moved from %.3f to %.3f core cycles per TSC cycle during the run (%.1f%%): frequency scaling or turbo; the figures in core cycles take their mean; fix the frequency (the performance governor, turbo off) for stable ones",
			 r->core.before, r->core.after,
			 100 * core_clock_drift(&r->core));
	if (s->backwards)
		warn_add(r, "%llu samples read a second timestamp below the first (the TSC went backwards: a hypervisor?); they are left out of the figures",
			 (unsigned long long)s->backwards);
	if (r->trep.n > 1 && report_tsc_stable(r) == 0)
		warn_add(r, "the kernel does not trust the TSC (clocksource %s): the threads' common start and deadlines assume synchronised TSCs", r->clocksource[0] ?
			 r->clocksource : "unknown");
	/* both engines' records, read alike (duty.c): the same sentence */
	if (duty_warning(&r->duty, r->info->tsc_khz, why, sizeof(why)))
		warn_add(r, "%s", why);
}

/* The NUMA node of a DRAM target (its CPU's for "local"), or -1. */
static int dram_node(const struct run_opts *o)
{
	const struct latt_config *c = &o->cfg;

	if (c->target != LATT_TARGET_DRAM)
		return -1;
	return c->node == LATT_NODE_LOCAL ? host_node_of_cpu(c->cpu) :
	       (int)c->node;
}

/*
 * Each record's cause (outstats.c, lattester/cause.h): from the user
 * engine's window evidence, or the module's NMI flags, whose windows keep
 * interrupts, switches and faults out; then the tail without them.
 */
static int run_causes(struct run_report *r)
{
	struct cause_summary *cs = &r->cause;
	size_t i, n = r->res.outlier_len;
	__u64 *corr;
	int rc;

	if (!r->user_engine && !(r->info->features & LATT_FEAT_WINDOWS)) {
		free(cs->of);
		memset(cs, 0, sizeof(*cs));
		cs->from_flags = true;
		cs->on = !!(r->info->features & LATT_FEAT_NMI_COUNT);
		cs->sources = LATT_EVS_NMI | LATT_EVS_IRQ_OFF;
		snprintf(cs->why, sizeof(cs->why), "%s", cs->on ?
			 "SMIs, steal and gaps not looked for: the module predates ABI 2.8 (LATT_FEAT_WINDOWS)" :
			 "the module counts no NMIs (no LATT_FEAT_NMI_COUNT): windows not looked at");
	} else if (!r->user_engine) {
		cs->why[0] = '\0';
		if (!(cs->sources & LATT_EVS_SMI))
			snprintf(cs->why, sizeof(cs->why), "%s",
				 "SMIs not counted: MSR_SMI_COUNT is Intel's, and did not read here");
		if (!(cs->sources & LATT_EVS_STEAL))
			snprintf(cs->why + strlen(cs->why),
				 sizeof(cs->why) - strlen(cs->why), "%s%s",
				 cs->why[0] ? "; " : "",
				 "steal not looked for: no KVM steal-time record on the CPU (not a KVM guest, or steal time off)");
	} else if (!cs->on) {
		snprintf(cs->why, sizeof(cs->why), "%s",
			 "--no-evidence: windows not looked at");
	}
	corr = calloc(n ? n : 1, sizeof(*corr));
	if (!corr)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		corr[i] = latt_correct(r->outliers[i].cycles,
				       outlier_overhead(r, &r->outliers[i]));
	rc = outlier_causes(cs, r->outliers, corr, n, r->wev, r->nr_wev);
	if (!rc && r->res.count)
		rc = cause_clean_tail(cs, &r->res, r->hist, r->outliers, corr,
				      n, r->info->tsc_khz);
	free(corr);
	return rc;
}

/*
 * A point of a sweep ended done: what it leaves on a DRAM node (the user
 * engine's region, or the module's where it kept it), for the clamp of
 * the next point's region.
 */
static void keep_held(struct run_keep *k, const struct run_opts *o,
		      const struct latt_info *in)
{
	bool held = o->user_engine || (in->features & LATT_FEAT_REUSE);

	k->held_node = held ? dram_node(o) : -1;
	k->held_bytes = k->held_node >= 0 ? o->cfg.region : 0;
}

/*
 * --traffic-target: the traffic's memory, resolved as a --target is
 * (check_host(): a node, a pmem or device-DAX device, a file, a CXL
 * region) into @t, a copy of @o whose target is the traffic's.  Its op is
 * a load and its pattern the traffic's (seq for a chase), so that its
 * checks (--force, the claim's and the mapping's access) see the
 * traffic's writes only, a --mix's; "dram" is the node of thread 1's CPU.
 * --offset, --skip-badblocks and --op durable are the probe's.  0, or 1
 * after a message.
 */
static int traffic_resolve(const struct run_opts *o, struct run_opts *t,
			   const struct run_keep *k)
{
	struct latt_config *c = &t->cfg;

	*t = *o;
	t->traffic = NULL;
	memset(&t->tgt, 0, sizeof(t->tgt));
	t->offset_set = t->skip_badblocks = t->durable = false;
	t->fence_set = false;
	t->tlb_locality = 0;
	t->batch_pairs = 0;
	c->op = LATT_OP_LOAD;
	c->fence = LATT_FENCE_DEFAULT;
	c->chain = 1;
	c->batch = 0;
	if (c->pattern == LATT_PAT_CHASE) {
		c->pattern = LATT_PAT_SEQ;
		c->stride = 0;
	}
	c->target = LATT_TARGET_DRAM;
	c->fd = 0;
	c->phys_addr = 0;
	c->map_addr = 0;
	if (o->traffic_region) {
		c->region = o->traffic_region;
		t->region_set = true;
	} else if (!o->region_set) {
		c->region = RUN_DEFAULT_REGION;
	}
	c->cpu = c->nr_threads > 1 ? o->th.list[1] : c->cpu;
	t->th.cpu_set = false;	/* --cpu is the probe's, not this @c->cpu */
	if (set_target(t, o->traffic)) {	/* parsed before: never */
		log_err("--traffic-target %s: not a target", o->traffic);
		return 1;
	}
	return check_host(t, k);
}

/* What the report says of the traffic @t streamed on. */
static void traffic_report(struct run_report *r, const struct run_opts *t)
{
	snprintf(r->traffic.name, sizeof(r->traffic.name), "%s", t->target);
	snprintf(r->traffic.kind, sizeof(r->traffic.kind), "%s", t->tgt.kind);
	r->traffic.node = dram_node(t);
	r->traffic.region = t->cfg.region;
}

/*
 * A --traffic-target's claim (pmem) and mapping (device-DAX, the module),
 * as the probe's: kept in @k->traffic in a sweep, else in @own and @dax,
 * released after the run.  0, or 1 after a message.
 */
static int traffic_claim(struct run_opts *t, struct run_keep *k,
			 const struct latt_dev *d, const struct latt_info *in,
			 struct map_region *dax)
{
	struct run_keep *tk = k ? k->traffic : NULL;

	if (refuse_unchecked(t, in))
		return 1;
	if (t->cfg.target == LATT_TARGET_PMEM) {
		t->cfg.fd = claim(t, tk);
		if (t->cfg.fd < 0) {
			t->cfg.fd = 0;
			return 1;
		}
	} else if (tk) {
		claim_release(tk);
	}
	if (d && !strcmp(t->tgt.kind, "devdax") &&
	    (in->features & LATT_FEAT_DAX_MAP))
		return dax_map(t, tk, dax);
	return 0;
}

static int measure_point(struct run_opts *o, struct run_report *r,
			 const struct run_hooks *h)
{
	struct latt_dev dev = { .fd = -1 }, *d = &dev;
	struct run_keep *k = h->keep;
	struct map_region dax = { 0 }, tdax = { 0 };
	struct run_opts *t = NULL;
	int rc;

	rc = threads_resolve(o);
	if (!rc && o->traffic) {
		if (k && !k->traffic) {
			k->traffic = malloc(sizeof(*k->traffic));
			if (k->traffic)
				run_keep_init(k->traffic);
		}
		t = malloc(sizeof(*t));
		if (!t || (k && !k->traffic)) {
			log_err("out of memory");
			free(t);
			return 1;
		}
		rc = traffic_resolve(o, t, k ? k->traffic : NULL);
	}
	if (!rc)
		rc = check_host(o, k);
	if (rc) {
		free(t);
		return rc;
	}
	if (t) {
		traffic_report(r, t);
		/* the traffic's writes on pmem: --force is the run's */
		o->cfg.flags |= t->cfg.flags & LATT_CFG_FORCE;
	}
	o->cfg.batch_pairs = run_batch_pairs(o);
	if (o->user_engine) {
		d = NULL;
		user_engine_info(&r->info_copy);
	} else {
		if (k)
			d = &k->dev;	/* open from an earlier point? */
		if (d->fd < 0) {
			rc = latt_dev_open(d);
			if (rc) {
				run_open_failed(rc, h->engine_hint &&
						!o->engine_set);
				free(t);
				return 1;
			}
		}
		r->info_copy = d->info;
	}
	r->user_engine = o->user_engine;
	r->info = &r->info_copy;
	r->target = &o->tgt;
	r->durable = o->durable;
	durable_flush(o, r->info);
	rc = check_module(o, r->info);
	if (!rc)
		rc = check_rules(o, t, r->info);
	if (!rc)
		rc = run_alloc(o, r);
	if (!rc && o->cfg.target == LATT_TARGET_PMEM) {
		o->cfg.fd = claim(o, k);
		if (o->cfg.fd < 0) {
			o->cfg.fd = 0;
			rc = 1;
		}
	} else if (!rc && k) {
		claim_release(k);	/* no pmem target any more */
	}
	if (!rc && d && !strcmp(o->tgt.kind, "devdax") &&
	    (r->info->features & LATT_FEAT_DAX_MAP))
		rc = dax_map(o, k, &dax);
	if (!rc && t)
		rc = traffic_claim(t, k, d, r->info, &tdax);
	else if (!rc && k && k->traffic)	/* no traffic target any more */
		run_keep_release(k->traffic);
	o->traffic_run = t;
	if (!rc)
		rc = resolve_threshold(d, o, r, h);
	if (!rc && o->cfg.threshold)
		smi_begin(&r->smi, o->cfg.cpu);
	if (!rc)
		core_clock_begin(&r->core, o->cfg.cpu);
	if (!rc)
		rc = measure(d, o, &o->cfg, r, h);
	if (!rc)
		core_clock_end(&r->core);
	if (!rc && o->cfg.threshold)
		smi_end(&r->smi);
	if (!rc && !r->thr.calibration)
		r->region_reused = !!(r->res.flags & LATT_RES_REUSED);
	if (!k) {		/* a sweep's stay for its next point */
		if (d)
			latt_dev_close(d);
		map_release(&dax);
		if (o->cfg.fd > 0)
			close(o->cfg.fd);
		map_release(&tdax);
		if (t && t->cfg.fd > 0)
			close(t->cfg.fd);
	} else if (!rc) {
		keep_held(k, o, r->info);
		/* the module never keeps a traffic region */
		if (t && o->user_engine)
			keep_held(k->traffic, t, r->info);
	}
	o->cfg.fd = 0;
	o->cfg.map_addr = 0;
	o->traffic_run = NULL;
	free(t);
	if (rc)
		return rc;
	r->samples_asked = o->cfg.samples;
	latt_summarize(&r->sum, &r->res, r->hist, r->info->tsc_khz);
	snprintf(r->clocksource, sizeof(r->clocksource), "%s",
		 user_clocksource());
	if (!r->user_engine)
		snprintf(r->page_note, sizeof(r->page_note), "%s",
			 !r->res.page_size ? "unknown" :
			 o->cfg.target == LATT_TARGET_PMEM ?
			 "the module's memremap" : "the kernel's direct map");
	run_quantum(r);
	latt_summarize_ci(&r->sum, &r->res, r->hist, report_quantum(r),
			  r->info->tsc_khz);
	duty_of(&r->duty, &r->res, r->trep.st, r->trep.n, r->info->tsc_khz,
		r->info->window_us);
	run_warnings(r);
	if (o->cfg.threshold &&
	    outlier_summarize(&r->osum, r->outliers, r->res.outlier_len,
			      r->res.outliers, r->res.outliers_dropped,
			      r->res.count)) {
		log_err("out of memory");
		return 1;
	}
	if (o->cfg.threshold && run_causes(r)) {
		log_err("out of memory");
		return 1;
	}
	return 0;
}

/**
 * run_measure() - check @o, run it in the module, fetch the result into @r
 *
 * Returns 0 when a result was fetched (whatever its state: see
 * run_exit_status()), else the exit status: 1 after an error (said on
 * stderr), EXIT_INTERRUPTED if stopped before the run began.  @r is to be
 * released with run_report_free() either way.  In a sweep (@h->keep), a
 * point that did not end done gives back what the sweep kept: what a
 * failed or aborted run left is no region for the next point.
 */
int run_measure(struct run_opts *o, struct run_report *r,
		const struct run_hooks *h)
{
	int rc = measure_point(o, r, h);

	if (h->keep && (rc || r->interrupted ||
			r->res.state != LATT_STATE_DONE))
		run_keep_release(h->keep);
	return rc;
}

/*
 * A run that a poisoned load ended, in both engines' words: the module's
 * fixup (a machine check the kernel recovered from) or the user engine's
 * SIGBUS (BUS_MCEERR_AR) both stop it at the line, offset r->poison_offset
 * of the region.
 */
static void report_poison(const struct run_opts *o,
			  const struct run_report *r)
{
	char at[64], b[64], tgt[96] = "";

	if (r->poison_offset == LATT_POISON_UNKNOWN) {
		log_err("%s: run failed: poisoned memory (a media error) in the region, at a place not known: 'ndctl list --media-errors' lists the known ones; see dmesg", o->target);
		return;
	}
	fmt_at(at, sizeof(at), r->poison_offset);
	if (o->tgt.offset) {
		fmt_at(b, sizeof(b), r->poison_offset + o->tgt.offset);
		snprintf(tgt, sizeof(tgt), " (byte %s of the target)", b);
	}
	log_err("%s: run failed: a load at byte %s of the region%s consumed poisoned memory (a media error: a machine check, recovered): nothing more was measured; 'ndctl list --media-errors' lists the known bad blocks, or measure beside it with --offset and --region",
		o->target, at, tgt);
}

/** run_exit_status() - the exit status a fetched result earns */
int run_exit_status(const struct run_opts *o, const struct run_report *r)
{
	const struct latt_result *s = &r->res;

	if (r->interrupted && s->config.mode == LATT_MODE_BANDWIDTH) {
		/* a bandwidth run counts time streamed, not samples */
		log_warn("%s: interrupted: run %s, %.3f of %.3f s streamed",
			 o->target, latt_name(NAMES_STATE, s->state),
			 s->tsc_end > s->tsc_start && r->info->tsc_khz ?
			 (double)(s->tsc_end - s->tsc_start) /
			 ((double)r->info->tsc_khz * 1e3) : 0.0,
			 (double)s->config.duration_us / 1e6);
		return EXIT_INTERRUPTED;
	}
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
		if (s->error == -EHWPOISON) {
			report_poison(o, r);
			return 1;
		}
		log_err("%s: run failed: %s%s", o->target, strerror(-s->error),
			s->error == -ETIME ? " (interrupts stayed off past the module's ceiling, 10 windows and at least 1 s: see dmesg; a smaller --size or a larger --window-us)" : "");
		return 1;
	default:
		log_err("%s: run ended %s", o->target,
			latt_name(NAMES_STATE, s->state));
		return 1;
	}
}

void run_report_free(struct run_report *r)
{
	threads_free(&r->trep);
	free(r->hist);
	free(r->outliers);
	free(r->batch_pairs);
	free(r->wev);
	free(r->cause.of);
	r->wev = NULL;
	r->cause.of = NULL;
	r->hist = NULL;
	r->outliers = NULL;
	r->batch_pairs = NULL;
}
