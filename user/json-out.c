// SPDX-License-Identifier: GPL-2.0
/*
 * json-out.c - JSON through json-c: the helpers and the "lattester-run/1"
 * document of a run (schema in Documentation/lattester-ctl-run.md).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "host.h"
#include "json-out.h"
#include "log.h"
#include "parse.h"
#include "report.h"
#include "run.h"

#define RUN_SCHEMA	"lattester-run/1"
#define OUTLIERS_SCHEMA	"lattester-outliers/1"
#define NS_DECIMALS	3
#define MEAN_DECIMALS	1

void latt_json_str(struct json_object *o, const char *key, const char *val)
{
	json_object_object_add(o, key, json_object_new_string(val));
}

void latt_json_u64(struct json_object *o, const char *key, __u64 val)
{
	json_object_object_add(o, key, json_object_new_uint64(val));
}

void latt_json_int(struct json_object *o, const char *key, long long val)
{
	json_object_object_add(o, key, json_object_new_int64(val));
}

/** json_new_fixed() - a double printed with a fixed number of decimals */
struct json_object *json_new_fixed(double val, int decimals)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.*f", decimals, val);
	return json_object_new_double_s(val, buf);
}

static void add_fixed(struct json_object *o, const char *key, double val,
		      int decimals)
{
	json_object_object_add(o, key, json_new_fixed(val, decimals));
}

void latt_json_double(struct json_object *o, const char *key, double val)
{
	add_fixed(o, key, val, NS_DECIMALS);
}

void latt_json_bool(struct json_object *o, const char *key, int val)
{
	json_object_object_add(o, key, json_object_new_boolean(val));
}

/** json_emit() - write @o pretty-printed to @path, or stdout for "-" */
int json_emit(const char *path, struct json_object *o)
{
	const char *text = json_object_to_json_string_ext(o,
		JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
		JSON_C_TO_STRING_NOSLASHESCAPE);
	FILE *f;
	int rc;

	if (!strcmp(path, "-")) {
		puts(text);
		return 0;
	}
	f = fopen(path, "we");
	if (!f)
		return -errno;
	rc = fputs(text, f) < 0 || fputc('\n', f) == EOF ? -errno : 0;
	if (fclose(f) && !rc)
		rc = -errno;
	return rc;
}

static void add_time(struct json_object *o, const char *key,
		     const struct timespec *ts)
{
	char buf[64];
	struct tm tm;

	gmtime_r(&ts->tv_sec, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	latt_json_str(o, key, buf);
}

/**
 * json_provenance() - what made a document: the tool, the module's ABI and
 * TSC frequency (null when @info is NULL: not known), the command line, the
 * host, the engine, and when it started and ended
 */
struct json_object *json_provenance(const struct cmd_ctx *ctx,
				    const struct latt_info *info,
				    bool user_engine,
				    const struct timespec *start,
				    const struct timespec *end)
{
	struct json_object *o = json_object_new_object();
	struct json_object *argv = json_object_new_array();
	char buf[HOST_STR];
	int i;

	latt_json_str(o, "tool", LATT_PROG);
	latt_json_str(o, "tool_version", LATT_TOOL_VERSION);
	if (info)
		latt_json_u64(o, "abi_version", info->abi_version);
	else
		json_object_object_add(o, "abi_version", NULL);
	for (i = 0; i < ctx->argc; i++)
		json_object_array_add(argv, json_object_new_string(ctx->argv[i]));
	json_object_object_add(o, "command_line", argv);
	host_kernel(buf, sizeof(buf));
	latt_json_str(o, "kernel", buf);
	host_name(buf, sizeof(buf));
	latt_json_str(o, "hostname", buf);
	host_cpu_model(buf, sizeof(buf));
	latt_json_str(o, "cpu_model", buf);
	if (info)
		latt_json_u64(o, "tsc_khz", info->tsc_khz);
	else
		json_object_object_add(o, "tsc_khz", NULL);
	latt_json_str(o, "engine", user_engine ? "user" : "kernel");
	add_time(o, "start", start);
	add_time(o, "end", end);
	return o;
}

struct json_object *json_run_provenance(const struct run_report *r)
{
	return json_provenance(r->ctx, r->info, r->user_engine, &r->start,
			       &r->end);
}

struct json_object *json_run_config(const struct run_report *r)
{
	const struct latt_config *c = &r->res.config;
	struct json_object *o = json_object_new_object();
	char mix[16];

	latt_json_str(o, "target", c->target == LATT_TARGET_PMEM && r->target ?
		      r->target->kind : c->target == LATT_TARGET_PMEM ? "pmem" :
		      "dram");
	latt_json_int(o, "node", c->node == LATT_NODE_LOCAL ? -1LL :
		      (long long)c->node);
	latt_json_u64(o, "cpu", c->cpu);
	latt_json_str(o, "op", latt_name(NAMES_OP, c->op));
	/* --op durable chose op and fence (target.durable_sequence) */
	latt_json_bool(o, "durable", r->durable);
	latt_json_str(o, "fence", latt_name(NAMES_FENCE, c->fence));
	latt_json_str(o, "pattern", latt_name(NAMES_PATTERN, c->pattern));
	latt_json_u64(o, "stride", c->pattern == LATT_PAT_STRIDE ? c->stride : 0);
	latt_json_u64(o, "tlb_locality",
		      c->pattern == LATT_PAT_CHASE ? c->stride : 0);
	latt_json_u64(o, "hotspot",
		      c->pattern == LATT_PAT_HOTSPOT ? c->stride : 0);
	latt_json_u64(o, "size", c->size);
	latt_json_u64(o, "region", c->region);
	latt_json_u64(o, "samples", r->samples_asked);
	latt_json_u64(o, "seed", c->seed);
	latt_json_u64(o, "chain", c->chain ? c->chain : 1);
	latt_json_u64(o, "threshold_cycles", c->threshold);
	latt_json_u64(o, "window_us", c->window_us);
	latt_json_u64(o, "width", r->res.width);
	latt_json_bool(o, "warm", !!(c->flags & LATT_CFG_WARM));
	latt_json_bool(o, "force", !!(c->flags & LATT_CFG_FORCE));
	latt_json_str(o, "mode", mode_name(c->mode));
	latt_json_u64(o, "threads", r->trep.n ? r->trep.n : 1);
	latt_json_bool(o, "split", !!(c->flags & LATT_CFG_SPLIT));
	latt_json_u64(o, "delay_cycles", c->delay);
	snprintf(mix, sizeof(mix), "%u:%u", c->mix_read, c->mix_write);
	latt_json_str(o, "mix", mix);
	latt_json_u64(o, "duration_us", c->duration_us);
	return o;
}

static void add_str_or_null(struct json_object *o, const char *key,
			    const char *val)
{
	if (val && val[0])
		latt_json_str(o, key, val);
	else
		json_object_object_add(o, key, NULL);
}

/*
 * "cxl": a cxl:regionN spec's region as the run found it, and what it was
 * measured as: its device-DAX device ("/dev/dax0.0") or "dram:NODE".  Only
 * for such a spec.
 */
static void add_cxl(struct json_object *o, const struct run_target *t)
{
	const struct cxl_inv_resolved *x = &t->cxl;
	struct json_object *c;

	if (!x->region[0])
		return;
	c = json_object_new_object();
	latt_json_str(c, "region", x->region);
	latt_json_str(c, "mode", x->mode);
	add_str_or_null(c, "dax_device", x->dax);
	latt_json_str(c, "resolved", x->resolved);
	latt_json_str(c, "note", x->note);
	json_object_object_add(o, "cxl", c);
}

/*
 * "persistence_domain" (PMEM_PERSIST_*) and "durable_sequence", the
 * shortest store durable in it ("store-clwb+sfence"), or null
 * (run_durable_op())
 */
static void add_durable(struct json_object *o, const struct run_report *r,
			const char *domain)
{
	char seq[64];
	__u32 op, fence;

	latt_json_str(o, "persistence_domain", domain);
	if (!run_durable_op(domain, r->info ? r->info->features : 0, &op,
			    &fence)) {
		json_object_object_add(o, "durable_sequence", NULL);
		return;
	}
	snprintf(seq, sizeof(seq), "%s+%s", latt_name(NAMES_OP, op),
		 latt_name(NAMES_FENCE, fence));
	latt_json_str(o, "durable_sequence", seq);
}

/* The target in full: what was measured, and for pmem where it lives. */
struct json_object *json_run_target(const struct run_report *r)
{
	const struct latt_config *c = &r->res.config;
	const struct run_target *t = r->target;
	struct json_object *o = json_object_new_object();
	long long node = c->node == LATT_NODE_LOCAL ? -1LL : (long long)c->node;
	bool phys;

	if (c->target != LATT_TARGET_PMEM || !t) {
		latt_json_str(o, "kind", c->target == LATT_TARGET_PMEM ? "pmem" :
			      "dram");
		if (t)
			latt_json_str(o, "spec", t->spec);
		latt_json_int(o, "node", node);
		if (t)
			add_cxl(o, t);
		add_durable(o, r, PMEM_PERSIST_NONE);	/* DRAM */
		return o;
	}
	latt_json_str(o, "kind", t->kind);
	latt_json_str(o, "spec", t->spec);
	add_str_or_null(o, "device", t->pm.device);
	add_str_or_null(o, "namespace", t->pm.namespace);
	add_str_or_null(o, "mode", t->pm.mode);
	add_str_or_null(o, "region", t->pm.region);
	latt_json_int(o, "numa_node", t->pm.numa_node);
	/* null when unknown: a file, or not root (user engine) */
	phys = t->pm.phys_start != PMEM_UNKNOWN;
	json_object_object_add(o, "phys_start", phys ?
		json_object_new_uint64(t->pm.phys_start) : NULL);
	json_object_object_add(o, "phys_size", phys ?
		json_object_new_uint64(t->pm.phys_size) : NULL);
	latt_json_u64(o, "offset", t->offset);
	json_object_object_add(o, "phys_addr", phys ?
		json_object_new_uint64(c->phys_addr) : NULL);
	latt_json_bool(o, "dax_checked", !!(r->res.flags & LATT_RES_DAX));
	add_durable(o, r, t->pm.persistence[0] ? t->pm.persistence :
		    PMEM_PERSIST_UNKNOWN);
	/* --skip-badblocks moved the region: what it left out; else null */
	if (t->skip.done) {
		struct json_object *sk = json_object_new_object();

		latt_json_u64(sk, "runs", t->skip.runs);
		latt_json_u64(sk, "sectors", t->skip.sectors);
		latt_json_u64(sk, "from_offset", t->skip.from);
		latt_json_u64(sk, "bytes_not_measured", t->skip.unmeasured);
		json_object_object_add(o, "badblocks_skipped", sk);
	} else {
		json_object_object_add(o, "badblocks_skipped", NULL);
	}
	if (t->pm.file[0]) {
		latt_json_str(o, "file", t->pm.file);
		latt_json_u64(o, "file_size", t->pm.size);
	}
	add_cxl(o, t);
	return o;
}

/* From START to the result fetched, setup (allocation, pre-fault) too. */
static __u64 wall_ns(const struct run_report *r)
{
	long long ns = (long long)(r->end.tv_sec - r->start.tv_sec) *
		       1000000000LL + (r->end.tv_nsec - r->start.tv_nsec);

	return ns > 0 ? (__u64)ns : 0;
}

/**
 * json_add_quantum() - "quantum_cycles" and "quantum_ns" of a quantum in
 * 1/256 cycle at @khz (null when unknown)
 */
void json_add_quantum(struct json_object *o, __u64 quantum, __u64 khz)
{
	double q = (double)quantum / LATT_QUANTUM_ONE;

	json_object_object_add(o, "quantum_cycles", quantum ?
			       json_new_fixed(q, 3) : NULL);
	json_object_object_add(o, "quantum_ns", quantum && khz ?
			       json_new_fixed(q * 1e6 / (double)khz, 3) :
			       NULL);
}

/*
 * result.core_clock: core cycles per TSC cycle around the run (coreclk.h)
 * and APERF/MPERF over it; the ratios null when unknown
 */
static struct json_object *core_clock(const struct run_report *r)
{
	const struct core_clock *c = &r->core;
	struct json_object *o = json_object_new_object();
	double k = core_clock_ratio(c);

	latt_json_str(o, "method", c->emulated ? "none: emulated CPU" :
		      "dependent adds");
	latt_json_u64(o, "cpu", c->cpu);
	json_object_object_add(o, "before", c->before > 0 ?
			       json_new_fixed(c->before, 4) : NULL);
	json_object_object_add(o, "after", c->after > 0 ?
			       json_new_fixed(c->after, 4) : NULL);
	json_object_object_add(o, "ratio", k > 0 ? json_new_fixed(k, 4) : NULL);
	json_object_object_add(o, "ghz", k > 0 && r->info->tsc_khz ?
			       json_new_fixed(k * (double)r->info->tsc_khz /
					      1e6, 3) : NULL);
	json_object_object_add(o, "drift", k > 0 ?
			       json_new_fixed(core_clock_drift(c), 4) : NULL);
	json_object_object_add(o, "aperf_mperf", c->aperf_ok ?
			       json_new_fixed((double)c->aperf /
					      (double)c->mperf, 4) : NULL);
	add_str_or_null(o, "aperf_mperf_reason", c->aperf_ok ? NULL :
			c->aperf_why);
	return o;
}

/* [lo, hi] of the interval, scaled by @k; null without one */
static struct json_object *batch_interval(const struct latt_batch_est *e,
					  double k)
{
	struct json_object *a;

	if (!e->has_ci || !(k > 0))
		return NULL;
	a = json_object_new_array();
	json_object_array_add(a, json_new_fixed(e->lo * k, 3));
	json_object_array_add(a, json_new_fixed(e->hi * k, 3));
	return a;
}

/* @v x @k to 3 decimals, or null where @k is unknown (0) */
static struct json_object *batch_value(const struct latt_batch_est *e,
				       double v, double k)
{
	return e->ok && k > 0 && !isnan(v) ? json_new_fixed(v * k, 3) : NULL;
}

/*
 * result.batch (--batch): the pairs, and one access's (one load's, in a
 * chase) cost from them in TSC cycles, ns and core cycles, each with its
 * 95% interval (stats.c, latt_batch_estimate())
 */
static struct json_object *batch(const struct run_report *r)
{
	const struct latt_config *c = &r->res.config;
	struct json_object *o = json_object_new_object();
	struct json_object *h = json_object_new_array();
	double ns = latt_ns(1, r->info->tsc_khz);
	double k = core_clock_ratio(&r->core);
	struct latt_batch_est e;

	report_batch(r, &e);
	latt_json_u64(o, "k", c->batch);
	latt_json_u64(o, "pairs", r->batch.pairs);
	latt_json_u64(o, "pairs_asked", c->batch_pairs);
	latt_json_u64(o, "backwards", r->batch.backwards);
	latt_json_u64(o, "kept", e.kept);
	latt_json_u64(o, "clipped", e.clipped);
	latt_json_u64(o, "saturated", e.saturated);
	latt_json_str(o, "per", c->pattern == LATT_PAT_CHASE ? "load" :
		      "access");
	json_object_object_add(o, "cycles", batch_value(&e, e.cycles, 1));
	json_object_object_add(o, "interval_cycles", batch_interval(&e, 1));
	json_object_object_add(o, "ns", batch_value(&e, e.cycles, ns));
	json_object_object_add(o, "interval_ns", batch_interval(&e, ns));
	json_object_object_add(o, "core_cycles", batch_value(&e, e.cycles, k));
	json_object_object_add(o, "interval_core_cycles",
			       batch_interval(&e, k));
	json_object_object_add(o, "median_cycles",
			       batch_value(&e, e.median, 1));
	json_object_object_add(o, "mean_all_cycles",
			       batch_value(&e, e.mean, 1));
	json_object_object_add(o, "sd_cycles", batch_value(&e, e.scale, 1));
	json_object_array_add(h, batch_value(&e, e.half[0], 1));
	json_object_array_add(h, batch_value(&e, e.half[1], 1));
	json_object_object_add(o, "halves_cycles", h);
	return o;
}

/*
 * result.timer: which, its quantum and read cost, and what is known of
 * the TSC
 */
static struct json_object *timer(const struct run_report *r)
{
	struct json_object *o = json_object_new_object();
	__u64 feat = r->info->features;
	int stable = report_tsc_stable(r);

	latt_json_str(o, "name", report_timer_name(r));
	json_add_quantum(o, r->q.quantum, r->info->tsc_khz);
	add_str_or_null(o, "quantum_source", !r->q.quantum ? NULL :
			r->q.assumed ? "assumed" :
			r->q.timer ? "timer" : "samples");
	json_object_object_add(o, "samples_quantum_cycles", r->q.samples ?
			       json_new_fixed((double)r->q.samples /
					      LATT_QUANTUM_ONE, 3) : NULL);
	latt_json_u64(o, "read_cost_cycles", r->res.timer_step);
	latt_json_u64(o, "step_cycles", r->res.timer_step);
	add_str_or_null(o, "clocksource", r->clocksource[0] ?
			r->clocksource : NULL);
	if (stable < 0)
		json_object_object_add(o, "tsc_stable", NULL);
	else
		latt_json_bool(o, "tsc_stable", stable);
	latt_json_bool(o, "constant_tsc", !!(feat & LATT_FEAT_CONSTANT_TSC));
	latt_json_bool(o, "nonstop_tsc", !!(feat & LATT_FEAT_NONSTOP_TSC));
	return o;
}

struct json_object *json_run_result(const struct run_report *r)
{
	const struct latt_result *s = &r->res;
	struct json_object *o = json_object_new_object();
	struct json_object *oh = json_object_new_object();
	struct json_object *tc = json_object_new_object();
	struct json_object *pg = json_object_new_object();
	__u64 cycles = s->tsc_end > s->tsc_start ? s->tsc_end - s->tsc_start : 0;

	latt_json_str(o, "state", latt_name(NAMES_STATE, s->state));
	latt_json_int(o, "error", s->error);
	latt_json_u64(o, "samples", s->count);
	latt_json_u64(oh, "median", s->overhead);
	latt_json_u64(oh, "min", s->overhead_min);
	latt_json_u64(oh, "max", s->overhead_max);
	if (s->overhead_end)
		latt_json_u64(oh, "end_median", s->overhead_end);
	else
		json_object_object_add(oh, "end_median", NULL);
	/* ABI 2.5: a loaded run's median is its calibration under the
	 * traffic, its end_median across its samples; idle_median is before
	 * the start, with no traffic (0 from an older module: unknown) */
	if (s->overhead_idle)
		latt_json_u64(oh, "idle_median", s->overhead_idle);
	else
		json_object_object_add(oh, "idle_median", NULL);
	latt_json_bool(oh, "under_load",
		       s->config.mode == LATT_MODE_LOADED && s->overhead_idle);
	json_object_object_add(o, "overhead_cycles", oh);
	json_object_object_add(o, "timer", timer(r));
	json_object_object_add(o, "core_clock", core_clock(r));
	if (s->config.batch)
		json_object_object_add(o, "batch", batch(r));
	latt_json_u64(o, "backwards", s->backwards);
	latt_json_u64(pg, "bytes", s->page_size);
	latt_json_str(pg, "source", r->page_note);
	json_object_object_add(o, "page_size", pg);
	/* ABI 2.1: the bytes of each physically contiguous block of the
	 * region (the module's chunks); 0: unknown, as from the user engine,
	 * whose region is one virtual mapping */
	latt_json_u64(o, "chunk_size", s->chunk_size);
	latt_json_u64(o, "windows", s->windows);
	latt_json_u64(o, "nmi_windows", s->nmi_windows);
	latt_json_u64(o, "window_cycles_max", s->window_cycles_max);
	latt_json_u64(o, "outliers", s->outliers);
	latt_json_u64(o, "outliers_dropped", s->outliers_dropped);
	latt_json_u64(o, "hist_overflow", s->hist_overflow);
	latt_json_u64(o, "duration_ns",
		      (__u64)(latt_ns((double)cycles, r->info->tsc_khz) + 0.5));
	latt_json_u64(o, "wall_ns", wall_ns(r));
	latt_json_u64(tc, "raw", s->sum);
	latt_json_u64(tc, "corrected", s->sum_corrected);
	json_object_object_add(o, "timed_cycles", tc);
	return o;
}

/* {"min": .., "p50": .., ..., "mean": ..} of one column. */
static struct json_object *stat_column(const double *v, int decimals)
{
	struct json_object *o = json_object_new_object();
	int i;

	for (i = 0; i < NR_STATS; i++) {
		if (decimals || i == STAT_MEAN)
			add_fixed(o, latt_stats[i].name, v[i],
				  decimals ? decimals : MEAN_DECIMALS);
		else
			latt_json_u64(o, latt_stats[i].name, (__u64)v[i]);
	}
	return o;
}

/* {"min": .., "p50": .., ...}: the corrected cycles in core cycles */
static struct json_object *core_column(const struct latt_summary *s,
				       double k)
{
	struct json_object *o = json_object_new_object();
	int i;

	for (i = 0; i < NR_STATS; i++)
		add_fixed(o, latt_stats[i].name, s->cycles[i] * k,
			  MEAN_DECIMALS);
	return o;
}

/* {"min": null, "p50": [lo, hi], ...}: one unit's intervals */
static struct json_object *interval_column(const struct latt_summary *s,
					   bool ns)
{
	struct json_object *o = json_object_new_object(), *a;
	int i;

	for (i = 0; i < NR_STATS; i++) {
		if (!s->has_ci[i]) {
			json_object_object_add(o, latt_stats[i].name, NULL);
			continue;
		}
		a = json_object_new_array();
		json_object_array_add(a, json_new_fixed(ns ? s->ci_ns_lo[i] :
							s->ci_lo[i], ns ?
							NS_DECIMALS :
							MEAN_DECIMALS));
		json_object_array_add(a, json_new_fixed(ns ? s->ci_ns_hi[i] :
							s->ci_hi[i], ns ?
							NS_DECIMALS :
							MEAN_DECIMALS));
		json_object_object_add(o, latt_stats[i].name, a);
	}
	return o;
}

/*
 * latency.intervals: the 95% confidence intervals (latt_summarize_ci()),
 * corrected cycles and ns, null where a figure has none
 */
static struct json_object *intervals(const struct latt_summary *s)
{
	struct json_object *o = json_object_new_object();

	add_fixed(o, "level", LATT_CI_LEVEL, 2);
	add_fixed(o, "quantum_cycles", s->quantum, 3);
	json_object_object_add(o, "cycles", interval_column(s, false));
	json_object_object_add(o, "ns", interval_column(s, true));
	return o;
}

/*
 * The latency figures; "unsupported" names the percentiles the sample
 * count can't support (latt_stat_supported(): the table prints "-" for
 * them), "unsupported_reason" says why, or is null.  Their figures stay
 * numbers, as before: readers that know the field leave them out.
 */
struct json_object *json_run_latency(const struct run_report *r)
{
	struct json_object *o = json_object_new_object();
	struct json_object *un = json_object_new_array();
	char note[512];
	int i;

	latt_json_str(o, "per", r->sum.per_load ? "load" : "access");
	json_object_object_add(o, "cycles", stat_column(r->sum.cycles, 0));
	json_object_object_add(o, "ns", stat_column(r->sum.ns, NS_DECIMALS));
	json_object_object_add(o, "raw_cycles", stat_column(r->sum.raw, 0));
	for (i = 0; i < NR_STATS; i++)
		if (!r->sum.supported[i])
			json_object_array_add(un, json_object_new_string(
				latt_stats[i].name));
	json_object_object_add(o, "unsupported", un);
	json_object_object_add(o, "intervals", intervals(&r->sum));
	json_object_object_add(o, "core_cycles", core_clock_ratio(&r->core) > 0 ?
			       core_column(&r->sum,
					   core_clock_ratio(&r->core)) : NULL);
	if (latt_unsupported_note(note, sizeof(note), &r->sum, false))
		latt_json_str(o, "unsupported_reason", note);
	else
		json_object_object_add(o, "unsupported_reason", NULL);
	return o;
}

static struct json_object *outlier(const struct run_report *r, __u32 i,
				   size_t *at)
{
	const struct latt_outlier *out = &r->outliers[i];
	struct json_object *o = json_object_new_object();
	int nmi = report_outlier_nmi(r, i, at);
	__u64 corr = latt_correct(out->cycles, outlier_overhead(r, out));
	__u64 khz = r->info->tsc_khz;

	latt_json_u64(o, "sample", out->sample);
	latt_json_u64(o, "time_ns", (__u64)(latt_ns((double)out->tsc, khz) + 0.5));
	latt_json_u64(o, "offset", out->offset);
	latt_json_u64(o, "cycles", corr);
	latt_json_double(o, "ns", latt_ns((double)corr, khz));
	latt_json_u64(o, "raw_cycles", out->cycles);
	latt_json_u64(o, "window", out->window);
	/* unknown where no NMI is counted, not "none came" */
	if (nmi < 0)
		json_object_object_add(o, "nmi", NULL);
	else
		latt_json_bool(o, "nmi", nmi);
	latt_json_str(o, "cause", report_outlier_cause(r, i));
	return o;
}

/* outlier_summary.causes: counts and time by cause, what was looked for,
 * the events of windows without records, the tail without interference */
static struct json_object *causes(const struct run_report *r)
{
	static const char *const figs[CLEAN_FIGS] = {
		"p99_9", "p99_99", "mean",
	};
	const struct cause_summary *cs = &r->cause;
	struct json_object *o = json_object_new_object(), *by, *q, *a, *t;
	char buf[512];
	int c, k;

	latt_json_bool(o, "looked", cs->on);
	a = json_object_new_array();
	for (c = 0; (1U << c) & LATT_EVS_ALL; c++)	/* each LATT_EVS_* */
		if (cs->sources & (1U << c)) {
			cause_sources_fmt(buf, sizeof(buf), 1U << c);
			json_object_array_add(a, json_object_new_string(buf));
		}
	json_object_object_add(o, "looked_for", a);
	if (cs->why[0])
		latt_json_str(o, "not_looked_for", cs->why);
	else
		json_object_object_add(o, "not_looked_for", NULL);
	by = json_object_new_object();
	for (c = 0; c < LATT_CAUSE_KINDS; c++) {
		if (!cs->count[c])
			continue;
		t = json_object_new_object();
		latt_json_u64(t, "count", cs->count[c]);
		json_object_object_add(t, "time_share",
				       json_new_fixed(cs->total_cycles ?
						      (double)cs->cycles[c] /
						      (double)cs->total_cycles :
						      0.0, 6));
		json_object_object_add(by, latt_cause_name(c), t);
	}
	json_object_object_add(o, "by_cause", by);
	latt_json_u64(o, "events_left_over", cs->left);
	/* what reading the evidence cost: its cycles, and their share of
	 * the sampling phase (every latency thread's) */
	if (cs->on && r->user_engine) {
		__u64 d = r->res.tsc_end > r->res.tsc_start ?
			  r->res.tsc_end - r->res.tsc_start : 0;
		__u32 i, nlat = 0;

		for (i = 0; i < r->trep.n; i++)
			nlat += r->trep.st[i].role == LATT_ROLE_LATENCY;
		if (!nlat)
			nlat = 1;

		latt_json_u64(o, "evidence_cycles", cs->ev_cycles);
		json_object_object_add(o, "evidence_share",
				       json_new_fixed(d ? (double)cs->ev_cycles /
						      ((double)d * nlat) : 0.0, 6));
	} else {
		json_object_object_add(o, "evidence_cycles", NULL);
		json_object_object_add(o, "evidence_share", NULL);
	}
	q = json_object_new_object();
	latt_json_u64(q, "windows", cs->quiet_windows);
	for (c = 0; c < LATT_CAUSE_EVENTS; c++)
		if (cs->quiet_ev[c])
			latt_json_u64(q, latt_cause_name(c), cs->quiet_ev[c]);
	json_object_object_add(o, "without_outliers", q);
	t = json_object_new_object();
	latt_json_u64(t, "samples", cs->clean_count);
	latt_json_bool(t, "upper_bound", r->res.outliers_dropped != 0);
	for (k = 0; k < CLEAN_FIGS; k++) {
		struct json_object *f;

		if (!cs->clean_count ||
		    (!cs->clean_supported[k] && k != CLEAN_MEAN)) {
			json_object_object_add(t, figs[k], NULL);
			continue;
		}
		f = json_object_new_object();
		latt_json_double(f, "cycles", cs->clean_cycles[k]);
		latt_json_double(f, "ns", cs->clean_ns[k]);
		json_object_object_add(t, figs[k], f);
	}
	json_object_object_add(o, "clean_tail", t);
	return o;
}

static struct json_object *spacing(const struct latt_spacing *s, __u64 khz,
				   bool time)
{
	struct json_object *o = json_object_new_object();

	if (time)
		latt_json_double(o, "ns", latt_ns((double)s->value, khz));
	else
		latt_json_u64(o, "samples", s->value);
	latt_json_u64(o, "count", s->count);
	latt_json_u64(o, "of", s->of);
	return o;
}

static struct json_object *smi(const struct smi_count *s)
{
	struct json_object *o = json_object_new_object();

	latt_json_bool(o, "available", s->ok);
	latt_json_u64(o, "cpu", s->cpu);
	if (s->ok) {
		latt_json_u64(o, "before", s->before);
		latt_json_u64(o, "after", s->after);
		latt_json_u64(o, "delta", s->after - s->before);
	} else {
		latt_json_str(o, "reason", s->why);
	}
	return o;
}

/** json_run_outlier_summary() - the outlier summary, NULL without one */
struct json_object *json_run_outlier_summary(const struct run_report *r)
{
	const struct outlier_summary *s = &r->osum;
	const struct run_threshold *t = &r->thr;
	struct json_object *o, *th;
	__u64 khz = r->info->tsc_khz;
	char rate[32];

	if (!r->res.config.threshold)
		return NULL;
	o = json_object_new_object();
	th = json_object_new_object();
	latt_json_str(th, "spec", t->spec.text);
	latt_json_str(th, "basis", t->spec.kind == THR_MEDIAN ? "median" :
		      t->spec.kind == THR_NS ? "time" : "cycles");
	latt_json_u64(th, "cycles", r->res.config.threshold);
	latt_json_double(th, "ns", latt_ns((double)r->res.config.threshold, khz));
	if (t->spec.kind == THR_MEDIAN) {
		latt_json_u64(th, "calibration_samples", t->calibration);
		latt_json_u64(th, "median_cycles", t->median);
	}
	json_object_object_add(o, "threshold", th);
	latt_json_u64(o, "count", s->count);
	latt_json_u64(o, "recorded", s->recorded);
	latt_json_u64(o, "dropped", s->dropped);
	snprintf(rate, sizeof(rate), "%.9f", s->rate);
	json_object_object_add(o, "rate", json_object_new_double_s(s->rate,
								    rate));
	if (r->user_engine)	/* it sees no NMI: unavailable */
		json_object_object_add(o, "nmi", NULL);
	else
		latt_json_u64(o, "nmi", s->nmi);
	json_object_object_add(o, "spacing_samples",
			       spacing(&s->samples, khz, false));
	json_object_object_add(o, "spacing_time", spacing(&s->cycles, khz, true));
	json_object_object_add(o, "smi", smi(&r->smi));
	json_object_object_add(o, "causes", causes(r));
	return o;
}

static struct json_object *outlier_records(const struct run_report *r)
{
	struct json_object *outs = json_object_new_array();
	size_t at = 0;
	__u32 i;

	for (i = 0; i < r->res.outlier_len; i++)
		json_object_array_add(outs, outlier(r, i, &at));
	return outs;
}

/** json_run_warnings() - the run's warnings (run_warnings()), an array */
struct json_object *json_run_warnings(const struct run_report *r)
{
	struct json_object *a = json_object_new_array();
	int i;

	for (i = 0; i < r->nr_warnings; i++)
		json_object_array_add(a, json_object_new_string(r->warnings[i]));
	return a;
}

/*
 * A run's document: its provenance, target, configuration, result, the
 * latency table (@latency), the outlier summary and records, and the
 * threads of a run that had several or a mode.
 */
static struct json_object *repeats_json(const struct run_report *r,
					size_t n);
static struct json_object *repeat_summary(const struct run_report *r,
					  size_t n);

/* @nrep > 1: run --repeat's "repeats" and "repeat_summary" too */
static int write_doc_n(const char *path, const struct run_report *r,
		       const char *schema, bool latency, size_t nrep)
{
	struct json_object *o = json_object_new_object();
	int rc;

	latt_json_str(o, "schema", schema);
	json_object_object_add(o, "provenance", json_run_provenance(r));
	json_object_object_add(o, "target", json_run_target(r));
	json_object_object_add(o, "config", json_run_config(r));
	json_object_object_add(o, "result", json_run_result(r));
	if (latency)
		json_object_object_add(o, "latency", r->res.count ?
				       json_run_latency(r) : NULL);
	json_object_object_add(o, "outlier_summary",
			       json_run_outlier_summary(r));
	json_object_object_add(o, "outlier_records", outlier_records(r));
	if (r->trep.n)
		json_object_object_add(o, "threads", json_run_threads(r));
	json_object_object_add(o, "warnings", json_run_warnings(r));
	if (nrep > 1) {
		json_object_object_add(o, "repeats", repeats_json(r, nrep));
		json_object_object_add(o, "repeat_summary",
				       repeat_summary(r, nrep));
	}
	rc = json_emit(path, o);
	json_object_put(o);
	return rc;
}

static int write_doc(const char *path, const struct run_report *r,
		     const char *schema, bool latency)
{
	return write_doc_n(path, r, schema, latency, 1);
}

/* Each repeat: its index, seed, result, latency, outlier summary. */
static struct json_object *repeats_json(const struct run_report *r,
					size_t n)
{
	struct json_object *a = json_object_new_array(), *o;
	size_t k;

	for (k = 0; k < n; k++) {
		o = json_object_new_object();
		latt_json_u64(o, "repeat", k + 1);
		latt_json_u64(o, "seed", r[k].res.config.seed);
		json_object_object_add(o, "result", json_run_result(&r[k]));
		json_object_object_add(o, "latency", r[k].res.count ?
				       json_run_latency(&r[k]) : NULL);
		json_object_object_add(o, "outlier_summary",
				       json_run_outlier_summary(&r[k]));
		json_object_object_add(o, "warnings",
				       json_run_warnings(&r[k]));
		json_object_array_add(a, o);
	}
	return a;
}

/* Per statistic, over the repeats that support it: n, median, min, max
 * in corrected ns (or cycles where the TSC frequency is unknown). */
static struct json_object *repeat_summary(const struct run_report *r,
					  size_t n)
{
	struct json_object *o = json_object_new_object();
	struct json_object *st = json_object_new_object(), *s;
	struct latt_spread sp;
	int i;

	latt_json_u64(o, "count", n);
	latt_json_str(o, "unit", report_repeat_ns(r) ? "ns" : "cycles");
	for (i = 0; i < NR_STATS; i++) {
		if (report_repeat_spread(r, n, i, &sp)) {
			json_object_object_add(st, latt_stats[i].name, NULL);
			continue;
		}
		s = json_object_new_object();
		latt_json_u64(s, "n", sp.n);
		add_fixed(s, "median", sp.median, NS_DECIMALS);
		add_fixed(s, "min", sp.min, NS_DECIMALS);
		add_fixed(s, "max", sp.max, NS_DECIMALS);
		json_object_object_add(st, latt_stats[i].name, s);
	}
	json_object_object_add(o, "stats", st);
	return o;
}

/**
 * report_write_json_repeats() - run --repeat: repeat 1's document, with
 * "repeats" (every repeat, the first again) and "repeat_summary"
 */
int report_write_json_repeats(const char *path, const struct run_report *r,
			      size_t n)
{
	return write_doc_n(path, r, RUN_SCHEMA, true, n);
}

/**
 * report_write_outliers_json() - "lattester-outliers/1": the run's
 * provenance, target, configuration, outlier summary and every record
 */
int report_write_outliers_json(const char *path, const struct run_report *r)
{
	return write_doc(path, r, OUTLIERS_SCHEMA, false);
}

/** report_write_json() - the run as a "lattester-run/1" document */
int report_write_json(const char *path, const struct run_report *r)
{
	return write_doc(path, r, RUN_SCHEMA, true);
}
