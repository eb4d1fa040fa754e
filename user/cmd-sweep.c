// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-sweep.c - lattester-ctl sweep: run a grid of points (target × cpu ×
 * threads × mix × delay × op × fence × pattern × size × region, region varying
 * fastest), each one a run through runner.c like `run`, and append one row
 * per point to CSV and/or JSON lines files.  Points count from 1, on the
 * screen and in the files.
 *
 * A point is written only once it is done: Ctrl-C stops after the current
 * point (a second Ctrl-C, or SIGTERM, aborts it), and what is in the files
 * stays.  Every row carries the point's key (its configuration as asked
 * for); --resume skips the points whose key every output file already
 * holds.  Points the options make impossible (sfence with a load, a
 * hotspot smaller than the access, ...) are skipped and counted; a point
 * whose run fails is reported and the sweep goes on (exit status 1).
 * --engine user runs every point in the user engine (engine-user.c); the
 * key then says so, and a file holds one engine's points.  --resume also
 * refuses a file whose points were measured with other shared options
 * (--samples, --seed, ...), naming them.  More than --max-points points
 * to measure are refused before the first; a sweep in which every point
 * failed removes the files it started.
 *
 * Points that share their region (engine, target, node, region, pages,
 * offset) run on one: the sweep keeps the open device, a pmem target's
 * claim and the user engine's region from one point to the next
 * (struct run_keep, runner.c), and gives them back at its end, after a
 * point that failed or was aborted, or when a point needs another region.
 * Each row says whether its point took a kept region (region_reused).
 * --no-reuse makes every point open, claim and allocate its own, as
 * before: the comparison make bench draws.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>
#include <lattester/core.h>
#include "builtin.h"
#include "csv.h"
#include "dev.h"
#include "grid.h"
#include "host.h"
#include "json-out.h"
#include "log.h"
#include "outfile.h"
#include "parse.h"
#include "report.h"
#include "run.h"
#include "run-opts.h"
#include "sweep-file.h"

#define SWEEP_HELP	(-1)
#define MAX_OUT		2	/* one .csv and one .jsonl */
#define BAR_WIDTH	24
#define MAX_REASONS	8	/* distinct reasons to skip, listed */
#define KEY_LEN		1024
#define DEFAULT_MAX_POINTS 10000	/* --max-points */
#define MANY_POINTS	1000	/* more to measure: a warning */

enum sweep_opt_id {
	OPT_STRIDE = OPT_RUN_LAST,
	OPT_HOTSPOT,
	OPT_OUT,
	OPT_RESUME,
	OPT_DRY_RUN,
	OPT_MAX_POINTS,
	OPT_NO_REUSE,
	OPT_CURVES,
};

/* sweep --curves' grid where the options leave it open (Mess's design) */
#define CURVES_MIXES	"1:0,3:1,1:1,1:3,0:1"
#define CURVES_DELAYS	"0,25,50,100,200,400,800,1600,3200,6400,12800"
#define CURVES_PATTERN	"rand"	/* chase refuses writing traffic */
#define CURVES_MAX_CPUS	32	/* traffic threads and the probe, at most */
#define TRAFFIC_EXPECTED	"a list of targets as --target's (dram[:NODE], device paths, namespaceX.Y, cxl:regionN), or none"

static const struct cmd_opt sweep_options[] = {
	RUN_OPT_ENGINE,
	OPT_ROW("target", OPT_TARGET, "LIST",
	  "targets, as for run: dram[:NODE], /dev/pmemN, /dev/daxX.Y, namespaceX.Y, cxl:regionN (default: dram)"),
	OPT_ROW("cpu", OPT_CPU, "LIST", "CPUs, e.g. 0,2 or 0..3 or 0-3 (default: the first CPU of this process's affinity mask, 0 without taskset)"),
	OPT_ROW("threads", OPT_THREADS, "LIST",
	  "threads per point, e.g. 1..8 or 1,2,4: as run --threads, from the point's --cpu up or the first N of --cpus (default: 1)"),
	RUN_OPTS_THREADS,
	OPT_ROW("mix", OPT_MIX, "LIST",
	  "streaming threads' loads and writes, R:W each, e.g. 1:0,3:1,1:1: R loads then W accesses of --write-op, again and again, a point each (default: every access is --op; loaded: loads)"),
	RUN_OPT_WRITE_OP,
	OPT_ROW("traffic-target", OPT_TRAFFIC_TARGET, "LIST",
	  "--mode loaded: the memories the traffic streams on, a point each, any --target (dram:1, /dev/dax1.0, cxl:region0, ...; dram: the node of the second thread's CPU) or none (the traffic shares --target's region), while thread 0 measures --target: one memory's latency under another's traffic, e.g. none,cxl:region0 (default: none)"),
	OPT_ROW("traffic-region", OPT_TRAFFIC_REGION, "BYTES",
	  "--traffic-target's region, as --region is --target's (default: --region, or the traffic target's default)"),
	OPT_ROW("delay", OPT_DELAY, "LIST",
	  "injection delays in cycles, e.g. 0,50,100..1000+100: the load steps of --mode loaded (default: 0)"),
	OPT_ROW_NAMES("op", OPT_OP, "LIST", "accesses (default: load; durable, as run: the shortest durable store of the target)", NAMES_OP),
	OPT_ROW_NAMES("fence", OPT_FENCE, "LIST", "fences (default: default)",
	  NAMES_FENCE),
	OPT_ROW_NAMES("pattern", OPT_PATTERN, "LIST",
	  "patterns, e.g. seq,rand,stride:256 (default: rand, unless --stride or --hotspot is given)", NAMES_PATTERN),
	OPT_ROW("size", OPT_SIZE, "LIST",
	  "bytes per access: values and ranges A..BxK (times K) or A..B+S (plus S), e.g. 64..4096x2 (default: 64)"),
	OPT_ROW("stride", OPT_STRIDE, "LIST",
	  "add the patterns stride:V for each value, e.g. 64..64Kx4"),
	OPT_ROW("hotspot", OPT_HOTSPOT, "LIST",
	  "add the patterns hotspot:V for each value, e.g. 4K..1Mx4"),
	OPT_ROW("region", OPT_REGION, "LIST",
	  "memory the accesses spread over, as for run: sizes and ranges, e.g. 4K..4Gx2 or 16K,64M, each a point (default: 1GiB)"),
	RUN_OPTS_MEASURE,
	RUN_OPTS_SAMPLE,
	OPT_ROW("repeat", OPT_REPEAT, "N",
	  "measure the whole grid N times (up to 1000), each point's repeats a row of their own with repeat=K in the key (K from 2): plot draws their median with error bars, compare weighs differences against their spread (default: 1)"),
	OPT_ROW("out", OPT_OUT, "FILE",
	  "append one row per point to FILE.csv or FILE.jsonl (JSON lines); give it twice for both"),
	OPT_ROW("resume", OPT_RESUME, NULL,
	  "continue the files: skip the points they already hold (a last row cut short by a crash is taken off and measured again)"),
	OPT_ROW("dry-run", OPT_DRY_RUN, NULL,
	  "list the points (and what --resume would skip), run nothing"),
	OPT_ROW("max-points", OPT_MAX_POINTS, "N",
	  "refuse a sweep of more than N points to measure (default: 10000)"),
	OPT_ROW("no-reuse", OPT_NO_REUSE, NULL,
	  "every point on a region of its own, allocated (or mapped), locked and faulted in afresh, as run does: no region kept between points"),
	OPT_ROW("curves", OPT_CURVES, NULL,
	  "latency-bandwidth curves (Mess's design): --mode loaded, thread 0 the probe timing accesses, the others traffic at each --mix and --delay; defaults --mix " CURVES_MIXES ", --delay " CURVES_DELAYS ", --pattern " CURVES_PATTERN " (probe and traffic; a chase probe takes traffic without writes on its own region, streaming seq), --cpus every CPU this process may use (up to 32; with --cpu, as many --threads from it); each group's idle latency measured first (idle_ns_p50); the CSV carries Mess's rd_percentage, pause, bandwidth and latency (plot curves)"),
	OPT_ROW("quiet", OPT_QUIET, NULL, "no progress bar"),
	OPT_END
};

static const char *const sweep_examples[] = {
	"lattester-ctl sweep --op load,store-clwb,nt-store --size 64..4096x2 --pattern seq,rand --out ops.csv",
	"three ops, seven sizes, two patterns: 42 points",
	"lattester-ctl sweep --target dram:0,dram:1 --samples 1000000 --out numa.csv --out numa.jsonl",
	"local against remote DRAM, into CSV and JSON lines",
	"lattester-ctl sweep --op nt-store --size 256 --hotspot 4K..16Mx4 --threshold 10x --out tail.csv --resume",
	"continue a sweep that was stopped",
	"lattester-ctl sweep --engine user --op load,nt-load --size 64..4096x4 --out user.jsonl",
	"the same access kernels from userspace: no module, no root",
	"lattester-ctl sweep --engine user --pattern chase --chain 16 --region 4K..1Gx2 --out ws.csv",
	"the working-set curve: per-load latency against region size (plot working-set)",
	"lattester-ctl sweep --curves --target dram:0 --traffic-target none,cxl:region0 --out tier.csv",
	"DRAM's latency-bandwidth curves under its own traffic and under a CXL region's, in one file (plot curves: a curve each)",
	NULL
};

/* the LIST options add to their list again; --out takes both formats */
static bool sweep_repeatable(int id)
{
	switch (id) {
	case OPT_TARGET: case OPT_CPU: case OPT_OP: case OPT_FENCE:
	case OPT_PATTERN: case OPT_SIZE: case OPT_STRIDE: case OPT_HOTSPOT:
	case OPT_THREADS: case OPT_DELAY: case OPT_REGION: case OPT_OUT:
	case OPT_MIX: case OPT_TRAFFIC_TARGET:
		return true;
	}
	return false;
}

const struct cmd_usage sweep_usage = {
	.cmd = "sweep",
	.synopsis = "[GRID OPTIONS] [RUN OPTIONS] --out FILE.csv|FILE.jsonl",
	.about = "Run a grid of measurements, one run per point (root only; with --engine user,\n"
		 "neither the module nor root): every combination of the LIST options, region\n"
		 "and size varying fastest.  One line per point on stdout, one row per point in each\n"
		 "--out file; Ctrl-C stops after the current point (twice: at once).\n"
		 "Exit status: 0 done, 1 error or a failed point, 2 usage, 130 interrupted.",
	.opts = sweep_options,
	.repeatable = sweep_repeatable,
	.description =
		"sweep measures every combination of the values given to the LIST options, one run per point, exactly as run would with the same options, and appends one row per point to each --out file.  The dimensions, outermost first: target, CPU, threads, mix, delay, op, fence, pattern, size, region.  --stride V and --hotspot V add the patterns stride:V and hotspot:V.  Points count from 1, in the files as on the screen.  A sweep of more than --max-points points to measure (default 10000) is refused.\n\n"
		"With --mode bandwidth every row carries read, write and total GB/s; with --mode loaded the latency of thread 0 and the bandwidth of the others, so that a --delay list gives the curve of latency against bandwidth (plot loaded), and --mix and --delay lists a family of them; --curves sets such a grid up, the probe's idle latency measured first (plot curves).\n\n"
		"Lists are comma-separated; numbers and sizes also take ranges: A..BxK (A, A*K, ... up to B), A..B+S (A, A+S, ... up to B) and, for --cpu, A..B.  Points that can't run by run's rules are skipped and counted on stderr.  --resume skips the points the files already hold (a point is its key: every option's value), and refuses a file whose points were measured with other options than the grid's (--samples, --seed, ...), naming them; a last line cut short by a crash is taken off and its point measured again, and any other line that is no whole row refuses the file.  A sweep in which every point failed leaves no file.\n\n"
		"--engine user measures every point from a thread of lattester-ctl pinned to the point's CPU (a pthread per CPU for a point of several threads), as run --engine user does: DRAM, device-DAX and files on a DAX filesystem, no module, interrupts not kept out.  The engine is part of every point's key (engine=user), and --resume refuses a file that holds the other engine's points.\n\n"
		"Points that share their region (engine, target, node, region, page size, offset) are measured on one: the region the first of them allocated (or mapped), locked and faulted in stays for the next, with the device and a pmem target's claim; the samples flush their lines as always, so the figures mean what they meant.  A point that needs another region frees it first; a point that fails or is aborted gives everything back; the sweep's end frees it.  Each row says whether its point took a kept region (region_reused).  The kernel engine keeps it in the module where the module can (ABI 2.1, feature reuse).  --no-reuse measures every point on a region of its own, as before.",
	.examples = sweep_examples,
	.see_also = "Documentation/reproducing.md in lattester's sources",
};

/*
 * @rows: what the file already holds (--resume), its keys and layout;
 * @base: what its "point" counts from; @fresh: this sweep made it (or
 * found it without a row), so it goes again if no row is written
 */
struct sweep_out {
	const char *path;
	enum sweep_format fmt;
	FILE *f;
	struct sweep_file_rows rows;
	unsigned int base;
	bool fresh;
	size_t written;
};

/*
 * sweep --curves: the probe's latency with no traffic (a latency run of
 * one thread on the probe's CPU), once for each group of points that
 * differ in their traffic alone (threads, mix, delay), measured before
 * the group's first point
 */
struct sweep_idle {
	char group[KEY_LEN];
	struct latt_summary sum;
	bool ok;
};

#define MAX_IDLE	256	/* groups remembered; then measured again */

struct sweep {
	struct run_opts base;		/* the options every point shares */
	struct sweep_grid grid;
	struct sweep_out out[MAX_OUT];
	int nout;
	bool resume, dry_run, quiet;
	bool no_reuse;			/* --no-reuse */
	bool curves;			/* --curves */
	struct sweep_idle *idle;	/* --curves: MAX_IDLE of them */
	size_t nidle;
	struct run_keep keep;		/* kept from point to point */
	__u64 max_points;
	char fixed_tail[512];		/* every key's fields from offset on */
	const struct cmd_ctx *ctx;
	/* progress */
	bool bar;
	size_t total, to_run, ran, skipped, done, measured;
	struct timespec t0;
	double point_frac;
	const char *point_desc;
	bool told_stop;
};

static int bad_value(const char *opt, const char *v, int rc,
		     const char *expected)
{
	return cmd_usage_error(&sweep_usage, "--%s: '%s': %s (expected %s)",
			       opt, v, parse_strerror(rc), expected);
}

/* Check every item of a list option with run's parser for it. */
static int check_items(int id, const char *opt, const struct str_list *l,
		       size_t from, const char *expected)
{
	struct run_opts o;
	size_t i;
	int rc;

	for (i = from; i < l->n; i++) {
		/* --traffic-target none: the traffic shares the target */
		if (id == OPT_TRAFFIC_TARGET && !strcmp(l->v[i], "none"))
			continue;
		run_defaults(&o);
		rc = run_set_option(&o, id, l->v[i]);
		if (rc)
			return bad_value(opt, l->v[i], rc, expected);
	}
	return 0;
}

/* A list of numbers in [min, max] for --threads or --delay. */
static int add_numbers(struct u64_list *l, const char *opt, const char *v,
		       __u64 min, __u64 max)
{
	int rc = parse_u64_list(v, LIST_NUMBERS, l);
	size_t i;

	for (i = 0; !rc && i < l->n; i++)
		if (l->v[i] < min || l->v[i] > max)
			rc = -ERANGE;
	return rc ? bad_value(opt, v, rc, "numbers and ranges such as 1,2,4 or 1..8 or 0..1000+100") : 0;
}

/*
 * A --mix list: R:W items, each as run's --mix.  The first stands for
 * all in the checks of the base (run_args_problem()), as --region's.
 */
static int add_mixes(struct sweep *s, const char *v)
{
	struct str_list items = { 0 };
	__u16 r, w;
	size_t i;
	int rc;

	rc = parse_str_list(v, &items);
	for (i = 0; !rc && i < items.n; i++) {
		rc = parse_mix(items.v[i], &r, &w);
		if (!rc)
			rc = u64_list_add(&s->grid.mixes, grid_mix(r, w));
		if (!rc && s->grid.mixes.n == 1) {
			s->base.cfg.mix_read = r;
			s->base.cfg.mix_write = w;
		}
	}
	str_list_free(&items);
	return rc ? bad_value("mix", v, rc, "R:W items such as 1:0,3:1,1:1, each 0..65535, not both 0") : 0;
}

static int add_list(struct sweep *s, int id, const char *v)
{
	struct sweep_grid *g = &s->grid;
	struct u64_list vals = { 0 };
	struct str_list *l;
	size_t from, i;
	const char *opt, *expected;
	int rc;

	switch (id) {
	case OPT_TARGET: l = &g->targets; opt = "target";
		expected = "a list of dram[:NODE], device paths, namespaceX.Y or cxl:regionN";
		break;
	case OPT_TRAFFIC_TARGET:
		l = &g->traffics;
		from = l->n;
		rc = parse_str_list(v, l);
		if (rc)
			return bad_value("traffic-target", v, rc, TRAFFIC_EXPECTED);
		rc = check_items(id, "traffic-target", l, from,
				 TRAFFIC_EXPECTED);
		/* one stands for all in the checks of the base, as --mix's */
		s->base.traffic = !rc && l->n == 1 &&
				  strcmp(l->v[0], "none") ? l->v[0] : NULL;
		return rc;
	case OPT_OP: l = &g->ops; opt = "op";
		expected = latt_name_list(NAMES_OP); break;
	case OPT_FENCE: l = &g->fences; opt = "fence";
		expected = latt_name_list(NAMES_FENCE); break;
	case OPT_PATTERN: l = &g->patterns; opt = "pattern";
		expected = latt_name_list(NAMES_PATTERN); break;
	case OPT_THREADS:
	case OPT_DELAY:
		return add_numbers(id == OPT_THREADS ? &g->threads : &g->delays,
				   id == OPT_THREADS ? "threads" : "delay", v,
				   id == OPT_THREADS ? 1 : 0,
				   id == OPT_THREADS ? LATT_MAX_THREADS :
				   LATT_MAX_DELAY);
	case OPT_CPU:
		rc = parse_u64_list(v, LIST_NUMBERS, &g->cpus);
		for (i = 0; !rc && i < g->cpus.n; i++)
			if (g->cpus.v[i] > 0xffffffffULL)
				rc = -ERANGE;
		return rc ? bad_value("cpu", v, rc, "CPU numbers and ranges such as 0,2 or 0..3") : 0;
	case OPT_SIZE:
		rc = parse_u64_list(v, LIST_SIZES, &g->sizes);
		for (i = 0; !rc && i < g->sizes.n; i++)
			if (!g->sizes.v[i] || g->sizes.v[i] % LATT_LINE)
				rc = -EDOM;
		return rc ? bad_value("size", v, rc, "sizes and ranges such as 64,256 or 64..4096x2 or 64..512+64") : 0;
	case OPT_REGION:
		rc = parse_u64_list(v, LIST_SIZES, &g->regions);
		for (i = 0; !rc && i < g->regions.n; i++)
			if (!g->regions.v[i])
				rc = -ERANGE;
		if (rc)
			return bad_value("region", v, rc, "sizes and ranges such as 1G or 16K,64M or 4K..4Gx2");
		/* the first value stands for all in the checks of the base */
		s->base.region_set = true;
		s->base.cfg.region = g->regions.v[0];
		return 0;
	case OPT_MIX:
		return add_mixes(s, v);
	case OPT_STRIDE:
	case OPT_HOTSPOT:
		opt = id == OPT_STRIDE ? "stride" : "hotspot";
		rc = parse_u64_list(v, LIST_SIZES, &vals);
		for (i = 0; !rc && i < vals.n; i++)
			if (!vals.v[i] || vals.v[i] % LATT_LINE)
				rc = -EDOM;
		if (!rc)
			rc = grid_add_pattern_values(g, opt, &vals);
		u64_list_free(&vals);
		return rc ? bad_value(opt, v, rc, "sizes and ranges such as 4K..1Mx4") : 0;
	default:
		return -EINVAL;
	}
	from = l->n;
	rc = parse_str_list(v, l);
	if (rc)
		return bad_value(opt, v, rc, expected);
	return check_items(id, opt, l, from, expected);
}

static int add_out(struct sweep *s, const char *path)
{
	struct sweep_out *o;
	enum sweep_format fmt;
	int i;

	if (sweep_format_of(path, &fmt))
		return cmd_usage_error(&sweep_usage, "--out: '%s': the name must end in .csv or .jsonl", path);
	for (i = 0; i < s->nout; i++)
		if (s->out[i].fmt == fmt)
			return cmd_usage_error(&sweep_usage, "--out: one .csv and one .jsonl file at most");
	o = &s->out[s->nout++];
	o->path = path;
	o->fmt = fmt;
	return 0;
}

static int set_option(struct sweep *s, int id, const char *v)
{
	const struct cmd_opt *opt = sweep_options;
	int rc;

	switch (id) {
	case OPT_TARGET: case OPT_CPU: case OPT_OP: case OPT_FENCE:
	case OPT_PATTERN: case OPT_SIZE: case OPT_STRIDE: case OPT_HOTSPOT:
	case OPT_THREADS: case OPT_DELAY: case OPT_REGION: case OPT_MIX:
	case OPT_TRAFFIC_TARGET:
		return add_list(s, id, v);
	case OPT_MAX_POINTS:
		rc = parse_u64(v, &s->max_points);
		if (!rc && (!s->max_points || s->max_points > GRID_MAX_POINTS))
			rc = -ERANGE;
		return rc ? bad_value("max-points", v, rc, "a number of points, 1 to 1000000") : 0;
	case OPT_OUT:
		return add_out(s, v);
	case OPT_RESUME:
		s->resume = true;
		return 0;
	case OPT_DRY_RUN:
		s->dry_run = true;
		return 0;
	case OPT_NO_REUSE:
		s->no_reuse = true;
		return 0;
	case OPT_CURVES:
		s->curves = true;
		return 0;
	case OPT_QUIET:
		s->quiet = true;
		return 0;
	}
	rc = run_set_option(&s->base, id, v);
	if (!rc)
		return 0;
	while (opt->name && opt->id != id)
		opt++;
	if (id == OPT_THRESHOLD)
		return bad_value("threshold", v, rc, "cycles such as 2000, a time such as 500ns or 2us, or a multiple of the median such as 10x");
	return bad_value(opt->name, v, rc, opt->arg);
}

/*
 * --curves: loaded mode, and the grid's traffic where the options leave
 * it open: the mixes and delays of CURVES_*, rand, every CPU of
 * the affinity mask (up to CURVES_MAX_CPUS) as the threads.
 */
static int curves_defaults(struct sweep *s)
{
	struct sweep_grid *g = &s->grid;
	char cpus[CURVES_MAX_CPUS * 6] = "";
	cpu_set_t set;
	size_t n = 0;
	int cpu, k = 0, rc = 0;

	if (s->base.cfg.mode == LATT_MODE_BANDWIDTH)
		return cmd_usage_error(&sweep_usage, "--curves is --mode loaded: a probe times its accesses beside the traffic");
	s->base.cfg.mode = LATT_MODE_LOADED;
	s->curves = true;
	if (!g->mixes.n && !s->base.cfg.mix_read && !s->base.cfg.mix_write)
		rc = add_mixes(s, CURVES_MIXES);
	if (!rc && !g->delays.n)
		rc = add_list(s, OPT_DELAY, CURVES_DELAYS);
	if (!rc && !g->patterns.n)
		rc = str_list_add(&g->patterns, CURVES_PATTERN) ? 1 : 0;
	if (rc)
		return rc;
	if (s->base.th.ncpus || g->threads.n || s->base.th.n ||
	    sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (cpu = 0; cpu < CPU_SETSIZE && k < CURVES_MAX_CPUS; cpu++) {
		if (!CPU_ISSET(cpu, &set))
			continue;
		n += (size_t)snprintf(cpus + n, sizeof(cpus) - n, "%s%d",
				      k++ ? "," : "", cpu);
	}
	if (k < 2)	/* loaded mode's rule refuses it, with its reason */
		return 0;
	if (g->cpus.n) {
		/* a --cpu list: as many threads, from each point's CPU up */
		snprintf(cpus, sizeof(cpus), "%d", k);
		return add_list(s, OPT_THREADS, cpus);
	}
	return run_set_option(&s->base, OPT_CPUS, cpus) ? 1 : 0;
}

static int defaults(struct sweep *s)
{
	struct sweep_grid *g = &s->grid;
	int rc = 0;

	if (!g->targets.n)
		rc = str_list_add(&g->targets, "dram");
	if (!rc && !g->cpus.n) {
		/* the process's affinity, as run's --cpu */
		char first[16];

		snprintf(first, sizeof(first), "%u", host_first_cpu());
		rc = parse_u64_list(first, LIST_NUMBERS, &g->cpus);
	}
	if (!rc && !g->ops.n)
		rc = str_list_add(&g->ops, "load");
	if (!rc && !g->fences.n)
		rc = str_list_add(&g->fences, "default");
	if (!rc && !g->patterns.n)
		rc = str_list_add(&g->patterns, "rand");
	if (!rc && !g->sizes.n)
		rc = parse_u64_list("64", LIST_SIZES, &g->sizes);
	g->repeats = s->base.repeat;
	if (rc) {
		log_err("out of memory");
		return 1;
	}
	return 0;
}

/* a point's --traffic-target: NULL for none in the list, or none given */
static const char *point_traffic(const struct grid_point *p)
{
	return p->traffic && strcmp(p->traffic, "none") ? p->traffic : NULL;
}

/*
 * The options every point shares, after the point's samples and region
 * (point_key()): key_defs[] from KEY_OFFSET on.  The user engine adds
 * engine=user (and hugepages=1): a kernel point's key is what it was
 * before sweep had --engine, so older files still resume.  The thread
 * fields are in the keys of sweeps that use threads only.
 */
static void fixed_key(const struct sweep *s, const struct grid_point *p,
		      char *t, size_t len)
{
	const struct run_opts *o = &s->base;
	const struct latt_config *c = &o->cfg;
	/* a --traffic-target list's is the point's ("none": none) */
	const char *traffic = p && p->traffic ? point_traffic(p) : o->traffic;
	size_t n = 0;

	t[0] = '\0';
	key_put(t, len, &n, KEY_OFFSET, "%llu",
		(unsigned long long)o->tgt.offset);
	key_put(t, len, &n, KEY_SEED, "%llu", (unsigned long long)c->seed);
	key_put(t, len, &n, KEY_CHAIN, "%u", c->chain);
	key_put(t, len, &n, KEY_THRESHOLD, "%s", o->thr.text);
	key_put(t, len, &n, KEY_MAX_OUTLIERS, "%u", c->max_outliers);
	key_put(t, len, &n, KEY_WINDOW_US, "%u", c->window_us);
	key_put(t, len, &n, KEY_WIDTH, "%u", c->width);
	key_put(t, len, &n, KEY_WARM, "%d", !!(c->flags & LATT_CFG_WARM));
	key_put(t, len, &n, KEY_FORCE, "%d", o->force);
	if (o->tlb_locality)
		key_put(t, len, &n, KEY_TLB_LOCALITY, "%llu",
			(unsigned long long)o->tlb_locality);
	if (o->skip_badblocks)
		key_put(t, len, &n, KEY_SKIP_BADBLOCKS, "1");
	if (c->flags & LATT_CFG_RDTSC || o->timer_rdtscp)
		key_put(t, len, &n, KEY_TIMER, "%s",
			o->timer_rdtscp ? "rdtscp" : "rdtsc");
	if (o->user_engine) {
		key_put(t, len, &n, KEY_ENGINE, "user");
		if (o->hugepages)
			key_put(t, len, &n, KEY_HUGEPAGES, "1");
	}
	if (!threads_used(c) && !o->th.ncpus && !s->grid.threads.n &&
	    !s->grid.delays.n && !s->grid.mixes.n)
		return;
	key_put(t, len, &n, KEY_MODE, "%s", mode_name(c->mode));
	key_put(t, len, &n, KEY_CPUS, "%s", o->th.cpus_text);
	key_put(t, len, &n, KEY_DURATION_US, "%llu",
		(unsigned long long)(o->th.duration_set ? o->th.duration_us :
				     0));
	/* a --mix list's is the point's */
	key_put(t, len, &n, KEY_MIX, "%u:%u",
		p && p->mixed ? p->mix_read : c->mix_read,
		p && p->mixed ? p->mix_write : c->mix_write);
	key_put(t, len, &n, KEY_WRITE_OP, "%s",
		latt_name(NAMES_OP, c->write_op ? c->write_op : LATT_OP_STORE));
	key_put(t, len, &n, KEY_SPLIT, "%d", !!(c->flags & LATT_CFG_SPLIT));
	if (traffic)
		key_put(t, len, &n, KEY_TRAFFIC_TARGET, "%s", traffic);
	if (traffic && o->traffic_region)
		key_put(t, len, &n, KEY_TRAFFIC_REGION, "%llu",
			(unsigned long long)o->traffic_region);
}

/* The key of point @p: its grid values, then the options all share. */
static void point_key(char *buf, size_t len, const struct sweep *s,
		      const struct grid_point *p)
{
	char fixed[sizeof(s->fixed_tail) + 64], mine[sizeof(s->fixed_tail)];
	const char *tail = s->fixed_tail;
	size_t n = 0;

	/* the point's own --mix, --traffic-target */
	if (s->grid.mixes.n || s->grid.traffics.n > 1) {
		fixed_key(s, p, mine, sizeof(mine));
		tail = mine;
	}
	fixed[0] = '\0';
	key_put(fixed, sizeof(fixed), &n, KEY_SAMPLES, "%llu",
		(unsigned long long)s->base.cfg.samples);
	if (p->region || s->base.region_set)
		key_put(fixed, sizeof(fixed), &n, KEY_REGION, "%llu",
			(unsigned long long)(p->region ? p->region :
					     s->base.cfg.region));
	else
		key_put(fixed, sizeof(fixed), &n, KEY_REGION, "default");
	if (n + 1 < sizeof(fixed))
		snprintf(fixed + n, sizeof(fixed) - n, ";%s", tail);
	grid_point_key(buf, len, p, fixed);
}

/* a --traffic-target list that names a target, not only none */
static bool traffic_somewhere(const struct sweep_grid *g)
{
	size_t i;

	for (i = 0; i < g->traffics.n; i++)
		if (strcmp(g->traffics.v[i], "none"))
			return true;
	return false;
}

static int sweep_parse(int argc, char **argv, struct sweep *s)
{
	const char *why;
	int id, rc;

	run_defaults(&s->base);
	s->max_points = DEFAULT_MAX_POINTS;
	optind = 0;
	while ((id = cmd_getopt(argc, argv, &sweep_usage)) != -1) {
		if (id == OPT_BAD)
			return EXIT_USAGE;
		if (id == OPT_HELP) {
			cmd_print_usage(stdout, &sweep_usage);
			return SWEEP_HELP;
		}
		rc = set_option(s, id, optarg);
		if (rc)
			return rc;
	}
	if (!s->nout && !s->dry_run)
		return cmd_usage_error(&sweep_usage, "--out FILE.csv or --out FILE.jsonl is needed (or --dry-run)");
	if (s->curves) {
		rc = curves_defaults(s);
		if (rc)
			return rc;
	}
	if (s->base.th.ncpus && s->grid.cpus.n)
		return cmd_usage_error(&sweep_usage, "--cpus names every point's CPUs: no --cpu list with it");
	if (s->base.traffic_region && !traffic_somewhere(&s->grid))
		return cmd_usage_error(&sweep_usage, "--traffic-region is the region of --traffic-target");
	if (defaults(s))
		return 1;
	/* what no point can change: checked once, on the defaults' point */
	why = run_args_problem(&s->base);
	/* the ranges only: "--chain needs --pattern chase" is a point's */
	if (why && (strstr(why, "--samples: ") || strstr(why, "--chain: ") ||
		    strstr(why, "--max-outliers: ") ||
		    strstr(why, "--window-us: ")))
		return cmd_usage_error(&sweep_usage, "%s", why);
	if (s->base.hugepages && !s->base.user_engine)
		return cmd_usage_error(&sweep_usage, "--hugepages is for --engine user");

	if (grid_size(&s->grid) > GRID_MAX_POINTS)
		return cmd_usage_error(&sweep_usage, "the grid has more than %d points", GRID_MAX_POINTS);
	fixed_key(s, NULL, s->fixed_tail, sizeof(s->fixed_tail));
	return 0;
}

/* @o: the base options with the point's values; its reason or NULL. */
static const char *point_opts(const struct sweep *s,
			      const struct grid_point *p, struct run_opts *o)
{
	char num[32];

	*o = s->base;
	snprintf(num, sizeof(num), "%u", o->th.ncpus ? o->th.cpus[0] : p->cpu);
	if (s->grid.threads.n)
		o->th.n = p->threads;
	if (s->grid.delays.n)
		o->cfg.delay = p->delay;
	if (p->mixed) {
		o->cfg.mix_read = p->mix_read;
		o->cfg.mix_write = p->mix_write;
	}
	/* checked while parsing; "none": the traffic shares the target */
	if (p->traffic) {
		o->traffic = point_traffic(p);
		if (!o->traffic)
			o->traffic_region = 0;
	}
	if (run_set_option(o, OPT_TARGET, p->target) ||
	    (!o->th.ncpus && run_set_option(o, OPT_CPU, num)) ||
	    run_set_option(o, OPT_OP, p->op) ||
	    run_set_option(o, OPT_FENCE, p->fence) ||
	    run_set_option(o, OPT_PATTERN, p->pattern))
		return "invalid value";	/* checked while parsing */
	o->cfg.size = p->size;
	o->cfg.seed = latt_repeat_seed(o->cfg.seed, p->repeat);
	if (p->region) {
		o->cfg.region = p->region;
		o->region_set = true;
	}
	return run_args_problem(o);
}

/* "load, rand, 64 B" and the values that vary in the grid besides. */
static void describe(char *buf, size_t len, const struct sweep *s,
		     const struct grid_point *p)
{
	const struct sweep_grid *g = &s->grid;
	char size[32];
	int n;

	fmt_bytes(size, sizeof(size), p->size);
	n = snprintf(buf, len, "%s %s %s", p->op, p->pattern, size);
	if (n > 0 && (size_t)n < len && g->regions.n > 1) {
		fmt_bytes(size, sizeof(size), p->region);
		n += snprintf(buf + n, len - n, " region %s", size);
	}
	if (n > 0 && (size_t)n < len && g->fences.n > 1)
		n += snprintf(buf + n, len - n, " fence %s", p->fence);
	if (n > 0 && (size_t)n < len && g->cpus.n > 1)
		n += snprintf(buf + n, len - n, " cpu %u", p->cpu);
	if (n > 0 && (size_t)n < len && g->threads.n)
		n += snprintf(buf + n, len - n, " x%u", p->threads);
	if (n > 0 && (size_t)n < len && g->mixes.n)
		n += snprintf(buf + n, len - n, " mix %u:%u", p->mix_read,
			      p->mix_write);
	if (n > 0 && (size_t)n < len && g->delays.n)
		n += snprintf(buf + n, len - n, " delay %llu",
			      (unsigned long long)p->delay);
	if (n > 0 && (size_t)n < len && g->targets.n > 1)
		n += snprintf(buf + n, len - n, " %s", p->target);
	if (n > 0 && (size_t)n < len && g->traffics.n > 1)
		n += snprintf(buf + n, len - n, " traffic on %s",
			      point_traffic(p) ? p->traffic : "the target");
	if (n > 0 && (size_t)n < len && g->repeats > 1)
		snprintf(buf + n, len - n, " repeat %u/%u", p->repeat,
			 g->repeats);
}

/* ---- progress ---- */

static double since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) +
	       (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

static void fmt_eta(char *buf, size_t len, double secs)
{
	unsigned long s = (unsigned long)(secs + 0.5);

	if (s >= 3600)
		snprintf(buf, len, "%luh%02lum", s / 3600, s / 60 % 60);
	else if (s >= 60)
		snprintf(buf, len, "%lum%02lus", s / 60, s % 60);
	else
		snprintf(buf, len, "%lus", s);
}

static void draw_bar(struct sweep *s)
{
	double frac = s->to_run ? ((double)s->ran + s->point_frac) /
				  (double)s->to_run : 1.0;
	double el = since(&s->t0);
	char bar[BAR_WIDTH + 1], eta[32];
	int i, fill = (int)(frac * BAR_WIDTH);

	for (i = 0; i < BAR_WIDTH; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[BAR_WIDTH] = '\0';
	if (frac > 0.001)
		fmt_eta(eta, sizeof(eta), el * (1 - frac) / frac);
	else
		snprintf(eta, sizeof(eta), "?");
	fprintf(stderr, "\r\033[K[%s] %zu/%zu points %3.0f%% ETA %s  %s", bar,
		s->ran, s->to_run, 100 * frac, eta,
		s->point_desc ? s->point_desc : "");
}

static void clear_bar(const struct sweep *s)
{
	if (s->bar)
		fputs("\r\033[K", stderr);
}

static void tell_stop(struct sweep *s)
{
	if (run_stops < 1 || s->told_stop || run_stops >= 2)
		return;
	s->told_stop = true;
	clear_bar(s);
	log_warn("stopping after this point (Ctrl-C again aborts it); what is written stays");
}

static void on_progress(void *arg, const struct latt_status *st)
{
	struct sweep *s = arg;

	tell_stop(s);
	if (!s->bar)
		return;
	s->point_frac = st->samples_total ? (double)st->samples_done /
					    (double)st->samples_total : 0;
	draw_bar(s);
}

/* ---- rows ---- */

static const char *fmt_u64(char *buf, size_t len, __u64 v)
{
	snprintf(buf, len, "%llu", (unsigned long long)v);
	return buf;
}

static const char *fmt_double(char *buf, size_t len, const char *fmt,
			      double v)
{
	snprintf(buf, len, fmt, v);
	return buf;
}

static const char *fmt_time(char *buf, size_t len, const struct timespec *ts)
{
	struct tm tm;

	gmtime_r(&ts->tv_sec, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
}

/*
 * What a CSV row is made of: the point, its run, its file, and what of
 * the run is worked out once a row.
 */
struct sweep_row {
	const struct sweep_out *out;
	const struct grid_point *p;
	const struct run_report *r;
	const char *key;
	struct run_bandwidth bw;
	__u64 duration_ns;
	const struct sweep_idle *idle;	/* --curves: the probe alone */
};

/* the traffic's share of loads, percent (Mess's rd_percentage) */
static double rd_percentage(const struct latt_config *c)
{
	if (c->mix_read || c->mix_write)
		return 100.0 * c->mix_read / (c->mix_read + c->mix_write);
	/* without a mix: the op itself in bandwidth mode, else loads */
	return c->mode == LATT_MODE_BANDWIDTH && latt_rule_is_store(c->op) ?
	       0 : 100;
}

/*
 * The outlier records of @cs in the group of column @col: those whose
 * cause interferes (an event, or after one), those with none seen (the
 * memory's own), or the unexplained (unassigned, unknown).
 */
static __u64 cause_group(const struct cause_summary *cs, enum sweep_col col)
{
	__u64 n = 0;
	int c;

	for (c = 0; c < LATT_CAUSE_KINDS; c++)
		if (col == SWEEP_COL_OUTLIERS_EXPLAINED ? cause_interferes(c) :
		    col == SWEEP_COL_OUTLIERS_NONE_SEEN ?
		    c == LATT_CAUSE_NONE :
		    c == LATT_CAUSE_UNASSIGNED || c == LATT_CAUSE_UNKNOWN)
			n += cs->count[c];
	return n;
}

/* The figure of the tail without interference of column @col. */
static int clean_fig(enum sweep_col col)
{
	return col == SWEEP_COL_CLEAN_NS_P999 ? CLEAN_P999 :
	       col == SWEEP_COL_CLEAN_NS_P9999 ? CLEAN_P9999 : CLEAN_MEAN;
}

/*
 * Column @col of @w's row (@stat: which statistic, for SWEEP_COL_CYCLES,
 * SWEEP_COL_NS and its intervals), in @buf or a constant.
 */
static const char *row_value(const struct sweep_row *w, enum sweep_col col,
			     int stat, char *buf, size_t len)
{
	const struct run_report *r = w->r;
	const struct latt_result *s = &r->res;
	const struct latt_config *c = &s->config;
	const struct outlier_summary *o = &r->osum;
	const struct cause_summary *cs = &r->cause;
	__u64 khz = r->info->tsc_khz;
	int k;

	switch (col) {
	case SWEEP_COL_POINT:
		return fmt_u64(buf, len, w->p->index + w->out->base);
	case SWEEP_COL_TARGET:
		return w->p->target;
	case SWEEP_COL_TARGET_KIND:
		return r->target->kind;
	case SWEEP_COL_ENGINE:
		return r->user_engine ? "user" : "kernel";
	case SWEEP_COL_NODE:
		snprintf(buf, len, "%lld", c->node == LATT_NODE_LOCAL ? -1LL :
			 (long long)c->node);
		return buf;
	case SWEEP_COL_CPU:
		return fmt_u64(buf, len, c->cpu);
	case SWEEP_COL_OP:
		return latt_name(NAMES_OP, c->op);
	case SWEEP_COL_FENCE:
		return latt_name(NAMES_FENCE, c->fence);
	case SWEEP_COL_PATTERN:
		return latt_name(NAMES_PATTERN, c->pattern);
	case SWEEP_COL_STRIDE:
		return fmt_u64(buf, len, c->pattern == LATT_PAT_STRIDE ?
			       c->stride : 0);
	case SWEEP_COL_HOTSPOT:
		return fmt_u64(buf, len, c->pattern == LATT_PAT_HOTSPOT ?
			       c->stride : 0);
	case SWEEP_COL_SIZE:
		return fmt_u64(buf, len, c->size);
	case SWEEP_COL_REGION:
		return fmt_u64(buf, len, c->region);
	case SWEEP_COL_PAGE_SIZE:
		return fmt_u64(buf, len, s->page_size);
	case SWEEP_COL_REGION_REUSED:
		return fmt_u64(buf, len, r->region_reused);
	case SWEEP_COL_CHAIN:
		return fmt_u64(buf, len, c->chain ? c->chain : 1);
	case SWEEP_COL_WIDTH:
		return fmt_u64(buf, len, s->width);
	case SWEEP_COL_WARM:
		return fmt_u64(buf, len, !!(c->flags & LATT_CFG_WARM));
	case SWEEP_COL_SAMPLES_ASKED:
		return fmt_u64(buf, len, r->samples_asked);
	case SWEEP_COL_SEED:
		return fmt_u64(buf, len, c->seed);
	case SWEEP_COL_WINDOW_US:
		return fmt_u64(buf, len, c->window_us);
	case SWEEP_COL_THRESHOLD:
		return r->thr.spec.text;
	case SWEEP_COL_THRESHOLD_CYCLES:
		return fmt_u64(buf, len, c->threshold);
	case SWEEP_COL_TSC_KHZ:
		return fmt_u64(buf, len, khz);
	case SWEEP_COL_START:
		return fmt_time(buf, len, &r->start);
	case SWEEP_COL_STATE:
		return latt_name(NAMES_STATE, s->state);
	case SWEEP_COL_SAMPLES:
		return fmt_u64(buf, len, s->count);
	case SWEEP_COL_PER:
		return r->sum.per_load ? "load" : "access";
	case SWEEP_COL_OVERHEAD_CYCLES:
		return fmt_u64(buf, len, s->overhead);
	case SWEEP_COL_WINDOWS:
		return fmt_u64(buf, len, s->windows);
	case SWEEP_COL_NMI_WINDOWS:
		return fmt_u64(buf, len, s->nmi_windows);
	case SWEEP_COL_DURATION_NS:
		return fmt_u64(buf, len, w->duration_ns);
	case SWEEP_COL_OUTLIERS:
		return fmt_u64(buf, len, s->outliers);
	case SWEEP_COL_OUTLIERS_DROPPED:
		return fmt_u64(buf, len, s->outliers_dropped);
	case SWEEP_COL_OUTLIER_RATE:
		return fmt_double(buf, len, "%.9f", s->count ?
				  (double)s->outliers / (double)s->count : 0.0);
	case SWEEP_COL_OUTLIERS_NMI:
		return fmt_u64(buf, len, o->nmi);
	case SWEEP_COL_SPACING_SAMPLES:
		return fmt_u64(buf, len, o->samples.value);
	case SWEEP_COL_SPACING_NS:
		return fmt_double(buf, len, "%.3f",
				  latt_ns((double)o->cycles.value, khz));
	case SWEEP_COL_SMI:
		return c->threshold && r->smi.ok ?
		       fmt_u64(buf, len, r->smi.after - r->smi.before) : "";
	case SWEEP_COL_OUTLIERS_EXPLAINED:
	case SWEEP_COL_OUTLIERS_NONE_SEEN:
	case SWEEP_COL_OUTLIERS_UNEXPLAINED:
		return c->threshold ? fmt_u64(buf, len, cause_group(cs, col)) :
		       "";
	case SWEEP_COL_CLEAN_NS_P999:
	case SWEEP_COL_CLEAN_NS_P9999:
	case SWEEP_COL_CLEAN_NS_MEAN:
		/* as run's clean tail: a percentile its samples can't
		 * support is blank, the mean is there with any sample */
		k = clean_fig(col);
		if (!c->threshold || !cs->clean_count ||
		    !cs->clean_supported[k])
			return "";
		return fmt_double(buf, len, "%.3f", cs->clean_ns[k]);
	case SWEEP_COL_MODE:
		return mode_name(c->mode);
	case SWEEP_COL_THREADS:
		return fmt_u64(buf, len, r->trep.n ? r->trep.n : 1);
	case SWEEP_COL_DELAY:
		return fmt_u64(buf, len, c->delay);
	case SWEEP_COL_MIX_READ:
		return fmt_u64(buf, len, c->mix_read);
	case SWEEP_COL_MIX_WRITE:
		return fmt_u64(buf, len, c->mix_write);
	case SWEEP_COL_WRITE_OP:
		return c->mix_write ? latt_name(NAMES_OP, c->write_op ?
				c->write_op : LATT_OP_STORE) : "";
	case SWEEP_COL_TRAFFIC_TARGET:
		/* --traffic-target as resolved; blank: the run's target */
		return r->traffic.name;
	case SWEEP_COL_BYTES_READ:
		return fmt_u64(buf, len, w->bw.bytes_read);
	case SWEEP_COL_BYTES_WRITTEN:
		return fmt_u64(buf, len, w->bw.bytes_written);
	case SWEEP_COL_READ_GBPS:
		return fmt_double(buf, len, "%.3f", w->bw.read_gbps);
	case SWEEP_COL_WRITE_GBPS:
		return fmt_double(buf, len, "%.3f", w->bw.write_gbps);
	case SWEEP_COL_TOTAL_GBPS:
		return fmt_double(buf, len, "%.3f", w->bw.read_gbps +
				  w->bw.write_gbps);
	case SWEEP_COL_DUTY_CYCLE:
		/* the streams' share of the run's time: blank without */
		return r->duty.known ? fmt_double(buf, len, "%.3f",
						  r->duty.share) : "";
	case SWEEP_COL_CYCLES:
		/* a percentile the samples can't support: blank, as run's
		 * table prints "-" (latt_stat_supported()) */
		if (!r->sum.supported[stat])
			return "";
		return fmt_double(buf, len, stat == STAT_MEAN ? "%.1f" : "%.0f",
				  r->sum.cycles[stat]);
	case SWEEP_COL_NS:
		if (!r->sum.supported[stat])
			return "";
		return fmt_double(buf, len, "%.3f", r->sum.ns[stat]);
	case SWEEP_COL_NS_LO:
	case SWEEP_COL_NS_HI:
		/* the 95% interval: blank where there is none */
		if (!r->sum.has_ci[stat])
			return "";
		return fmt_double(buf, len, "%.3f", col == SWEEP_COL_NS_LO ?
				  r->sum.ci_ns_lo[stat] : r->sum.ci_ns_hi[stat]);
	case SWEEP_COL_IDLE_NS_P50:
		return w->idle && w->idle->ok &&
		       w->idle->sum.supported[STAT_P50] ?
		       fmt_double(buf, len, "%.3f", w->idle->sum.ns[STAT_P50]) :
		       "";
	case SWEEP_COL_RD_PERCENTAGE:
		return c->mode == LATT_MODE_LATENCY ? "" :
		       fmt_double(buf, len, "%.4g", rd_percentage(c));
	case SWEEP_COL_PAUSE:
		return c->mode == LATT_MODE_LATENCY ? "" :
		       fmt_u64(buf, len, c->delay);
	case SWEEP_COL_BANDWIDTH:
		return c->mode == LATT_MODE_LATENCY ? "" :
		       fmt_double(buf, len, "%.3f", w->bw.read_gbps +
				  w->bw.write_gbps);
	case SWEEP_COL_LATENCY:
		/* Mess's latency is the probe's mean */
		return c->mode != LATT_MODE_LOADED ||
		       !r->sum.supported[STAT_MEAN] ? "" :
		       fmt_double(buf, len, "%.3f", r->sum.ns[STAT_MEAN]);
	case SWEEP_COL_KEY:
		return w->key;
	}
	return "";
}

/* A row of the columns of the file's layout (sweep-file.c), in order. */
static void write_csv_row(const struct sweep_out *out,
			  const struct grid_point *p,
			  const struct run_report *r, const char *key,
			  const struct sweep_idle *idle)
{
	const struct latt_result *res = &r->res;
	__u64 dur = res->tsc_end > res->tsc_start ?
		    res->tsc_end - res->tsc_start : 0;
	struct sweep_row w = { .out = out, .p = p, .r = r, .key = key,
			       .idle = idle };
	char buf[64];
	int col, s;

	run_bandwidth(r, &w.bw);
	w.duration_ns = (__u64)(latt_ns((double)dur, r->info->tsc_khz) + 0.5);
	for (col = 0; col < NR_SWEEP_COLS; col++) {
		if (!sweep_csv_has(out->rows.layout, col))
			continue;
		for (s = 0; s < sweep_col_count(col); s++)
			csv_put(out->f, row_value(&w, col, s, buf, sizeof(buf)),
				col == NR_SWEEP_COLS - 1);
	}
}

/*
 * A loaded (or bandwidth) row's point of a curve under Mess's names, and
 * the idle latency of a --curves sweep: JSON lines' "curve".
 */
static struct json_object *json_curve(const struct run_report *r,
				      const struct sweep_idle *idle)
{
	const struct latt_config *c = &r->res.config;
	struct json_object *o = json_object_new_object(), *i;
	struct run_bandwidth b;
	int k;

	run_bandwidth(r, &b);
	latt_json_double(o, "rd_percentage", rd_percentage(c));
	latt_json_u64(o, "pause", c->delay);
	latt_json_double(o, "bandwidth", b.read_gbps + b.write_gbps);
	json_object_object_add(o, "latency",
			       c->mode == LATT_MODE_LOADED &&
			       r->sum.supported[STAT_MEAN] ?
			       json_object_new_double(r->sum.ns[STAT_MEAN]) :
			       NULL);
	if (!idle || !idle->ok) {
		json_object_object_add(o, "idle", NULL);
		return o;
	}
	i = json_object_new_object();
	for (k = 0; k < NR_STATS; k++)
		if (idle->sum.supported[k])
			latt_json_double(i, latt_stats[k].name,
					 idle->sum.ns[k]);
	json_object_object_add(o, "idle", i);
	return o;
}

static void write_jsonl_row(const struct sweep_out *out,
			    const struct grid_point *p,
			    const struct run_report *r, const char *key,
			    const struct sweep_idle *idle)
{
	struct json_object *o = json_object_new_object(), *res;
	FILE *f = out->f;

	latt_json_str(o, "schema", SWEEP_SCHEMA);
	latt_json_u64(o, SWEEP_POINT, p->index + out->base);
	latt_json_str(o, SWEEP_KEY, key);
	json_object_object_add(o, "provenance", json_run_provenance(r));
	json_object_object_add(o, "target", json_run_target(r));
	json_object_object_add(o, "config", json_run_config(r));
	res = json_run_result(r);
	/* a sweep's own: run's document has no point before it */
	latt_json_bool(res, SWEEP_REGION_REUSED, r->region_reused);
	json_object_object_add(o, "result", res);
	json_object_object_add(o, "latency", r->res.count ?
			       json_run_latency(r) : NULL);
	json_object_object_add(o, "outlier_summary",
			       json_run_outlier_summary(r));
	if (r->trep.n)
		json_object_object_add(o, "threads", json_run_threads(r));
	if (r->res.config.mode != LATT_MODE_LATENCY)
		json_object_object_add(o, "curve", json_curve(r, idle));
	json_object_object_add(o, "warnings", json_run_warnings(r));
	fputs(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
					     JSON_C_TO_STRING_NOSLASHESCAPE), f);
	fputc('\n', f);
	json_object_put(o);
}

static int write_rows(struct sweep *s, const struct grid_point *p,
		      const struct run_report *r, const char *key,
		      const struct sweep_idle *idle)
{
	struct sweep_out *o;
	int i, rc = 0;

	for (i = 0; i < s->nout; i++) {
		o = &s->out[i];
		if (key_set_has(&o->rows.keys, key))
			continue;
		if (o->fmt == SWEEP_CSV)
			write_csv_row(o, p, r, key, idle);
		else
			write_jsonl_row(o, p, r, key, idle);
		o->written++;
		if (fflush(o->f) || ferror(o->f)) {
			log_err("%s: %s", o->path, strerror(errno));
			rc = 1;
		}
	}
	return rc;
}

/* ---- files ---- */

/* Was the point of @key measured by the user engine? */
static bool key_is_user(const char *key)
{
	char v[16];

	return !strcmp(key_value(key, key_defs[KEY_ENGINE].name, v,
				 sizeof(v)), "user");
}

/* A file holds one engine's points: --resume with the other is refused. */
static int check_engine(const struct sweep *s, const struct sweep_out *o)
{
	size_t i;

	for (i = 0; i < o->rows.keys.n; i++) {
		if (key_is_user(o->rows.keys.v[i]) == s->base.user_engine)
			continue;
		log_err("%s holds points of the %s engine, and this sweep is --engine %s: one file, one engine (give another --out)",
			o->path, s->base.user_engine ? "kernel" : "user",
			s->base.user_engine ? "user" : "kernel");
		return 1;
	}
	return 0;
}

/* "--samples 1000, not 500" or "--force, not no --force": one difference. */
static int say_field(char *buf, size_t len, const char *name,
		     const char *theirs, const char *ours)
{
	const struct key_def *d = key_def_of(name);
	const char *opt = d && d->option ? d->option : name;

	if (d && d->flags & KEY_FLAG)
		return snprintf(buf, len, "%s%s, not %s%s",
				strcmp(theirs, "0") ? "" : "no ", opt,
				strcmp(ours, "0") ? "" : "no ", opt);
	return snprintf(buf, len, "%s %s, not %s", opt,
			*theirs ? theirs : "(none)", *ours ? ours : "(none)");
}

struct differing {
	char *buf;
	size_t len, n;
	int diff;
};

/*
 * One field in which two keys differ, said, unless the points of one file
 * may differ in it: the grid's dimensions and the KEY_FREE fields (rows
 * tell those apart in columns of their own that the plots split series by,
 * or tools/repro-bandwidth-mix varies them sweep by sweep; engine has its
 * own check, check_engine()).
 */
static int say_differing(void *ctx, const char *name, const char *theirs,
			 const char *ours)
{
	const struct key_def *d = key_def_of(name);
	struct differing *df = ctx;

	if (d && d->flags & (KEY_GRID | KEY_FREE))
		return 0;
	if (df->diff++ && df->n < df->len)
		df->n += snprintf(df->buf + df->n, df->len - df->n, "; ");
	if (df->n < df->len)
		df->n += say_field(df->buf + df->n, df->len - df->n, name,
				   theirs, ours);
	return 0;
}

/*
 * The fields of @theirs that differ from @ours, but the grid's and the
 * free ones, said into @buf; how many.
 */
static int differing_fields(const char *theirs, const char *ours, char *buf,
			    size_t len)
{
	struct differing df = { .buf = buf, .len = len };

	buf[0] = '\0';
	key_diff(theirs, ours, say_differing, &df);
	return df.diff;
}

/*
 * The points of a file were measured with the options every point of this
 * sweep shares: a row measured otherwise (another --samples, --seed, ...)
 * would be drawn and compared beside this sweep's as the same point.
 */
static int check_fixed(const struct sweep *s, const struct sweep_out *o)
{
	struct grid_point p;
	char ours[KEY_LEN], why[1024];
	size_t i, bad = 0, first = 0;

	if (!o->rows.keys.n || !grid_size(&s->grid))
		return 0;
	grid_point(&s->grid, 0, &p);
	point_key(ours, sizeof(ours), s, &p);
	for (i = 0; i < o->rows.keys.n; i++) {
		if (differing_fields(o->rows.keys.v[i], ours, why,
				     sizeof(why)) && !bad++)
			first = i;
	}
	if (!bad)
		return 0;
	differing_fields(o->rows.keys.v[first], ours, why, sizeof(why));
	log_err("%s holds %zu point%s measured with other options than this sweep's: %s.  Give the file's options, or another --out",
		o->path, bad, bad == 1 ? "" : "s", why);
	return 1;
}

static int load_keys(struct sweep *s)
{
	struct sweep_out *o;
	char why[256];
	int i, rc;

	for (i = 0; i < s->nout; i++) {
		o = &s->out[i];
		o->base = SWEEP_POINT_BASE;
		if (!s->dry_run && out_check("--out", o->path, OUT_MEASURED))
			return 1;
		rc = sweep_load_file(o->path, o->fmt, &o->rows, why,
				     sizeof(why));
		if (!s->resume && (rc || o->rows.rows)) {
			/* a file without a row is no finished sweep */
			log_err("%s exists: add --resume to continue it, or remove it", o->path);
			return 1;
		}
		if (rc) {
			log_err("%s: %s", o->path, why);
			return 1;
		}
		o->fresh = !o->rows.rows;
		if (o->fresh) {
			/* what it holds is no row: start it anew */
			sweep_file_rows_free(&o->rows);
			o->rows.layout = SWEEP_CSV_LAYOUT;
			continue;
		}
		if (o->fmt == SWEEP_CSV && o->rows.layout < SWEEP_CSV_V3)
			o->base = 0;	/* its "point" counts from 0 */
		if (check_engine(s, o) || check_fixed(s, o))
			return 1;
		if (o->rows.cut)
			log_warn("%s: its last line was cut short (%zu bytes after row %zu, a sweep stopped mid-write): %s",
				 o->path, o->rows.cut, o->rows.rows,
				 s->dry_run ? "--resume takes it off and measures that point again" :
				 "taken off; that point is measured again");
	}
	return 0;
}

/*
 * A JSON lines file written before points counted from 1: its rows'
 * "point" is the grid index of their key.  Called with each point's key.
 */
static void learn_base(struct sweep *s, size_t index, const char *key)
{
	struct sweep_out *o;
	size_t j;
	int i;

	for (i = 0; i < s->nout; i++) {
		o = &s->out[i];
		if (o->fmt != SWEEP_JSONL)
			continue;
		for (j = 0; j < o->rows.nsample; j++) {
			if (strcmp(o->rows.sample_key[j], key))
				continue;
			if (o->rows.sample_point[j] == index)
				o->base = 0;
			else if (o->rows.sample_point[j] == index + 1)
				o->base = 1;
		}
	}
}

static int open_outputs(struct sweep *s)
{
	struct sweep_out *o;
	int i;

	for (i = 0; i < s->nout; i++) {
		o = &s->out[i];
		/* a row cut short: off, so that the next one starts a line */
		if (!o->fresh && o->rows.cut &&
		    truncate(o->path, (off_t)o->rows.complete)) {
			log_err("%s: cannot take off its cut-short last line: %s",
				o->path, strerror(errno));
			return 1;
		}
		o->f = fopen(o->path, o->fresh ? "we" : "ae");
		if (!o->f) {
			log_err("%s: %s", o->path, strerror(errno));
			return 1;
		}
		if (o->fresh && o->fmt == SWEEP_CSV)
			sweep_csv_header(o->f);
		if (fflush(o->f)) {
			log_err("%s: %s", o->path, strerror(errno));
			return 1;
		}
	}
	return 0;
}

static bool regular_file(const char *path)
{
	struct stat st;

	return !lstat(path, &st) && S_ISREG(st.st_mode);
}

/*
 * Close the files; @drop_empty: a file this sweep started and wrote no row
 * to goes again (every point failed), so that it doesn't stand in the way
 * of the next try.
 */
static int close_outputs(struct sweep *s, bool drop_empty)
{
	struct sweep_out *o;
	int i, rc = 0;

	for (i = 0; i < s->nout; i++) {
		o = &s->out[i];
		if (o->f && fclose(o->f)) {
			log_err("%s: %s", o->path, strerror(errno));
			rc = 1;
		} else if (o->f && drop_empty && o->fresh && !o->written &&
			   regular_file(o->path)) {
			/* never a device: /dev/null is an output too */
			if (unlink(o->path))
				log_warn("%s: %s", o->path, strerror(errno));
			else
				fprintf(stderr, "%s sweep: %s: no point written: removed\n", LATT_PROG,
					o->path);
		}
		o->f = NULL;
		sweep_file_rows_free(&o->rows);
	}
	return rc;
}

static bool point_done(struct sweep *s, const char *key)
{
	int i;

	if (!s->nout)
		return false;
	for (i = 0; i < s->nout; i++)
		if (!key_set_has(&s->out[i].rows.keys, key))
			return false;
	return true;
}

/* ---- checks before the first point ---- */

static int check_grid_host(struct sweep *s)
{
	const struct sweep_grid *g = &s->grid;
	struct target_spec t;
	bool writes = false;
	char online[HOST_STR];
	size_t i, j;
	__u32 op, pat;
	__u64 arg;

	for (i = 0; i < g->cpus.n; i++) {
		if (!host_cpu_online((unsigned int)g->cpus.v[i])) {
			host_cpus_online(online, sizeof(online));
			log_err("--cpu %llu: CPU not online (online: %s)",
				(unsigned long long)g->cpus.v[i], online);
			return 1;
		}
	}
	for (i = 0; i < g->targets.n && s->base.user_engine; i++) {
		struct stat st;

		/* what run --engine user refuses at once, before any point */
		if (!parse_target(g->targets.v[i], &t) &&
		    t.kind == TARGET_PATH && !stat(t.name, &st) &&
		    S_ISBLK(st.st_mode)) {
			log_err("%s: --engine user maps device-DAX devices and files on a DAX filesystem, not pmem block devices (--engine kernel)", g->targets.v[i]);
			return 1;
		}
	}
	for (i = 0; i < g->ops.n; i++)
		if (!parse_op(g->ops.v[i], &op) && op_is_store(op))
			writes = true;
	for (j = 0; j < g->patterns.n; j++)
		if (!parse_pattern(g->patterns.v[j], &pat, &arg) &&
		    pat == LATT_PAT_CHASE)
			writes = true;
	if (s->base.cfg.mix_write)
		writes = true;
	for (i = 0; i < g->targets.n && writes && !s->base.force; i++) {
		/* a CXL region is checked per point: it may resolve to a node */
		if (!parse_target(g->targets.v[i], &t) &&
		    t.kind != TARGET_DRAM && t.kind != TARGET_CXL) {
			log_err("%s: the sweep has store ops, chase or a --mix with writes, which overwrite the target's data; add --force to allow it", g->targets.v[i]);
			return 1;
		}
	}
	return 0;
}

static int check_module_present(const struct sweep *s)
{
	struct latt_dev d;
	int rc;

	if (s->base.user_engine)
		return 0;
	rc = latt_dev_open(&d);
	if (rc) {
		run_open_failed(rc, !s->base.engine_set);
		return 1;
	}
	latt_dev_close(&d);
	return 0;
}

/* ---- the sweep ---- */

struct reasons {
	const char *why[MAX_REASONS];
	size_t count[MAX_REASONS];
	size_t n, other;
};

static void count_reason(struct reasons *rs, const char *why)
{
	size_t i;

	for (i = 0; i < rs->n; i++) {
		if (!strcmp(rs->why[i], why)) {
			rs->count[i]++;
			return;
		}
	}
	if (rs->n == MAX_REASONS) {
		rs->other++;
		return;
	}
	rs->why[rs->n] = strdup(why);
	if (rs->why[rs->n])
		rs->count[rs->n++] = 1;
}

/* "  p99.99  1234.5 ns" of a progress line; "-" where unsupported */
static void print_ns(const struct latt_summary *m, enum latt_stat i)
{
	if (m->supported[i])
		printf("  %s %10.1f ns", latt_stats[i].name, m->ns[i]);
	else
		printf("  %s %10s ns", latt_stats[i].name, "-");
}

static void print_point(const struct sweep *s, const struct grid_point *p,
			const char *desc, const struct run_report *r)
{
	const struct latt_summary *m = &r->sum;
	const int w = (int)snprintf(NULL, 0, "%zu", s->total);
	struct run_bandwidth b;

	run_bandwidth(r, &b);
	if (r->res.config.mode == LATT_MODE_BANDWIDTH) {
		printf("%*zu/%zu  %-36s  read %8.2f GB/s  write %8.2f GB/s  total %8.2f GB/s\n", w, p->index + 1, s->total, desc,
		       b.read_gbps, b.write_gbps, b.read_gbps + b.write_gbps);
		fflush(stdout);
		return;
	}
	printf("%*zu/%zu  %-36s", w, p->index + 1, s->total, desc);
	print_ns(m, STAT_P50);
	print_ns(m, STAT_P99);
	print_ns(m, STAT_P9999);
	print_ns(m, STAT_MAX);
	if (r->res.config.mode == LATT_MODE_LOADED)
		printf("  traffic %.2f GB/s", b.read_gbps + b.write_gbps);
	if (r->res.config.threshold)
		printf("  outliers %llu", (unsigned long long)r->res.outliers);
	putchar('\n');
	fflush(stdout);
}

/*
 * One run of the sweep's, @desc on the progress bar meanwhile: the
 * region, device and claim kept from point to point (unless --no-reuse).
 */
static int sweep_measure(struct sweep *s, struct run_opts *o,
			 struct run_report *r, const char *desc)
{
	struct run_hooks h = { .abort_at = 2, .progress = on_progress,
			       .arg = s, .engine_hint = true,
			       .keep = s->no_reuse ? NULL : &s->keep };
	int rc;

	s->point_frac = 0;
	s->point_desc = desc;
	if (s->bar)
		draw_bar(s);
	rc = run_measure(o, r, &h);
	clear_bar(s);
	return rc;
}

/*
 * --curves: the idle latency of @p's group, the points that differ in
 * their traffic alone: measured now, before the group's first point, as a
 * latency run of one thread on the probe's CPU (on the kept region), or
 * remembered.  NULL in another sweep and for a latency point.  With
 * --resume a group is measured again in each sweep that runs a point of
 * it: its rows carry the idle latency of their own sweep.
 */
static const struct sweep_idle *idle_of(struct sweep *s,
					const struct grid_point *p,
					const char *desc)
{
	struct run_report r = { .ctx = s->ctx };
	struct grid_point q = *p;
	struct sweep_idle *id;
	struct run_opts o;
	char group[KEY_LEN], cpu[16];
	size_t i;
	int rc;

	if (!s->curves || s->base.cfg.mode == LATT_MODE_LATENCY)
		return NULL;
	q.threads = 1;
	q.delay = 0;
	q.mixed = false;
	q.traffic = NULL;	/* one idle run for every traffic target */
	point_key(group, sizeof(group), s, &q);
	for (i = 0; i < s->nidle; i++)
		if (!strcmp(s->idle[i].group, group))
			return &s->idle[i];
	/* full: the last slot goes to the newest group */
	id = &s->idle[s->nidle < MAX_IDLE ? s->nidle++ : MAX_IDLE - 1];
	snprintf(id->group, sizeof(id->group), "%s", group);
	id->ok = false;
	if (point_opts(s, p, &o))
		return id;
	snprintf(cpu, sizeof(cpu), "%u", o.th.ncpus ? o.th.cpus[0] : p->cpu);
	o.cfg.mode = LATT_MODE_LATENCY;
	o.th.n = 1;
	o.th.ncpus = 0;
	o.th.cpus_text[0] = '\0';
	o.cfg.delay = 0;
	o.cfg.mix_read = 0;
	o.cfg.mix_write = 0;
	o.traffic = NULL;	/* no traffic: none on its target either */
	o.traffic_region = 0;
	if (run_set_option(&o, OPT_CPU, cpu) || run_args_problem(&o)) {
		log_warn("point %zu (%s): no idle run can be made of it: its rows carry no idle latency",
			 p->index + 1, desc);
		return id;
	}
	rc = sweep_measure(s, &o, &r, "idle: the probe alone");
	if (!rc && !r.interrupted && r.res.state == LATT_STATE_DONE) {
		id->sum = r.sum;
		id->ok = true;
		snprintf(group, sizeof(group), "idle: the probe alone, cpu %s",
			 cpu);
		printf("%*s  %-36s",
		       2 * (int)snprintf(NULL, 0, "%zu", s->total) + 1, "",
		       group);
		print_ns(&r.sum, STAT_P50);
		print_ns(&r.sum, STAT_P99);
		putchar('\n');
		fflush(stdout);
	} else {
		log_warn("point %zu (%s): the idle run failed: its rows carry no idle latency",
			 p->index + 1, desc);
	}
	run_report_free(&r);
	return id;
}

/* Run one point; 0 written, 1 failed, EXIT_INTERRUPTED aborted. */
static int run_point(struct sweep *s, const struct grid_point *p,
		     struct run_opts *o, const char *key, const char *desc)
{
	struct run_report r = { .ctx = s->ctx };
	const struct sweep_idle *idle = idle_of(s, p, desc);
	int rc;

	if (run_stops)
		return EXIT_INTERRUPTED;
	rc = sweep_measure(s, o, &r, desc);
	if (!rc && r.interrupted) {
		log_warn("point %zu (%s): aborted, not written", p->index + 1,
			 desc);
		rc = EXIT_INTERRUPTED;
	} else if (!rc && r.res.state != LATT_STATE_DONE) {
		rc = run_exit_status(o, &r);
		log_err("point %zu (%s): not written", p->index + 1, desc);
		rc = 1;
	} else if (!rc) {
		print_point(s, p, desc, &r);
		for (int i = 0; i < r.nr_warnings; i++)
			log_warn("point %zu (%s): %s", p->index + 1, desc,
				 r.warnings[i]);
		rc = write_rows(s, p, &r, key, idle);
	} else if (rc != EXIT_INTERRUPTED) {
		log_err("point %zu (%s): failed, not written", p->index + 1,
			desc);
	}
	run_report_free(&r);
	return rc;
}

/*
 * First count what will run, for the guard, the bar and the summary: the
 * points skipped by run's rules (said per reason), those the files hold,
 * the rest.  --dry-run lists them.
 */
static int plan_grid(struct sweep *s)
{
	struct reasons rs = { 0 };
	struct grid_point p;
	struct run_opts o;
	char key[KEY_LEN];
	const char *why;
	size_t i;

	s->total = grid_size(&s->grid);
	for (i = 0; i < s->total; i++) {
		grid_point(&s->grid, i, &p);
		point_key(key, sizeof(key), s, &p);
		learn_base(s, i, key);
		why = point_opts(s, &p, &o);
		if (why) {
			count_reason(&rs, why);
			s->skipped++;
		} else if (point_done(s, key)) {
			s->done++;
		} else {
			s->to_run++;
		}
		if (s->dry_run) {
			printf("%zu %s %s%s%s\n", i + 1, why ? "skip" :
			       point_done(s, key) ? "done" : "run", key,
			       why ? " # " : "", why ? why : "");
		}
	}
	for (i = 0; i < rs.n; i++) {
		log_warn("%zu point%s skipped: %s", rs.count[i],
			 rs.count[i] == 1 ? "" : "s", rs.why[i]);
		free((void *)rs.why[i]);
	}
	if (rs.other)
		log_warn("%zu more points skipped for other reasons", rs.other);
	if (s->skipped == s->total) {
		log_err("no point of the grid can run");
		return 1;
	}
	if (s->done)
		log_info("%zu points already in the files: skipped", s->done);
	if (s->to_run > s->max_points && !s->dry_run) {
		log_err("%zu points to measure, more than --max-points %llu: narrow the lists, or give --max-points %zu (--dry-run lists them)", s->to_run,
			(unsigned long long)s->max_points, s->to_run);
		return 1;
	}
	if (s->to_run > MANY_POINTS)
		log_warn("%zu points to measure, %llu samples each: a long sweep (Ctrl-C stops after a point, --resume continues)", s->to_run,
			 (unsigned long long)s->base.cfg.samples);
	return 0;
}

static int run_grid(struct sweep *s)
{
	struct grid_point p;
	struct run_opts o;
	char key[KEY_LEN], desc[160];
	size_t i, failed = 0, measured = 0;
	int rc, status = 0;

	clock_gettime(CLOCK_MONOTONIC, &s->t0);
	run_keep_init(&s->keep);
	for (i = 0; i < s->total; i++) {
		if (run_stops) {
			tell_stop(s);
			status = EXIT_INTERRUPTED;
			break;
		}
		grid_point(&s->grid, i, &p);
		point_key(key, sizeof(key), s, &p);
		if (point_opts(s, &p, &o) || point_done(s, key))
			continue;
		describe(desc, sizeof(desc), s, &p);
		rc = run_point(s, &p, &o, key, desc);
		s->ran++;
		if (rc == EXIT_INTERRUPTED) {
			status = EXIT_INTERRUPTED;
			break;
		}
		if (rc) {
			failed++;
			status = status ? status : 1;
		} else {
			measured++;
		}
	}
	/* the last point's region, device and claim; a break above too */
	run_keep_release(&s->keep);
	/* a Ctrl-C is said in the status, even one during the last point,
	 * which stopped nothing: the shell's convention for SIGINT */
	if (run_stops && !status)
		status = EXIT_INTERRUPTED;
	s->measured = measured;
	fprintf(stderr, "%s sweep: %zu points: %zu measured, %zu failed, %zu already in the files, %zu skipped, %zu not run\n", LATT_PROG,
		s->total, measured, failed, s->done, s->skipped,
		s->to_run - measured - failed);
	return status;
}

int cmd_sweep(int argc, char **argv, const struct cmd_ctx *ctx)
{
	struct sweep *s = calloc(1, sizeof(*s));
	int rc;

	if (!s) {
		log_err("out of memory");
		return 1;
	}
	s->ctx = ctx;
	rc = sweep_parse(argc, argv, s);
	if (rc) {
		rc = rc == SWEEP_HELP ? 0 : rc;
		goto out;
	}
	s->bar = !s->quiet && !s->dry_run && isatty(STDERR_FILENO);
	if (s->curves) {
		s->idle = calloc(MAX_IDLE, sizeof(*s->idle));
		if (!s->idle) {
			log_err("out of memory");
			rc = 1;
			goto out;
		}
	}
	run_catch_signals();
	rc = load_keys(s);
	if (!rc)
		rc = plan_grid(s);
	if (!rc && !s->dry_run)
		rc = check_grid_host(s);
	if (!rc && !s->dry_run)
		rc = check_module_present(s);
	if (!rc && !s->dry_run)
		rc = open_outputs(s);
	if (!rc && !s->dry_run)
		rc = run_grid(s);
	/* every point that ran failed: no file of this sweep's stays */
	if (close_outputs(s, rc == 1 && !s->measured) && !rc)
		rc = 1;
out:
	grid_free(&s->grid);
	free(s->idle);
	free(s);
	return rc;
}
