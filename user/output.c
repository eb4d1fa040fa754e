// SPDX-License-Identifier: GPL-2.0
/*
 * output.c - a run as text: the header and latency table on stdout, and the
 * histogram file for gnuplot.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include <lattester/hist.h>
#include <lattester/pattern.h>	/* LATT_CHUNK */
#include "parse.h"
#include "report.h"
#include "run.h"

/** fmt_bytes() - "64 B", "4 KiB", "1 GiB": the largest exact binary unit */
void fmt_bytes(char *buf, size_t len, __u64 bytes)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned int u = 0;

	while (u + 1 < sizeof(units) / sizeof(units[0]) && bytes &&
	       !(bytes & 1023)) {
		bytes >>= 10;
		u++;
	}
	snprintf(buf, len, "%llu %s", (unsigned long long)bytes, units[u]);
}

/** fmt_size() - exact ("62 MiB") where that reads well, else "511.9 MiB" */
void fmt_size(char *buf, size_t len, __u64 bytes)
{
	if (bytes >= (1ULL << 20) && bytes % (1ULL << 20))
		snprintf(buf, len, "%.1f MiB", (double)bytes / (1 << 20));
	else
		fmt_bytes(buf, len, bytes);
}

/**
 * fmt_target() - "dram:NODE" ("dram" for the CPU's node), or for pmem,
 * devdax and fsdax-file "KIND DEVICE|FILE: NAMESPACE, MODE, REGION"
 */
void fmt_target(char *buf, size_t len, const struct run_report *r)
{
	const struct latt_config *cfg = &r->res.config;
	const struct pmem_target *t = r->target ? &r->target->pm : NULL;
	const char *dev = t && t->file[0] ? t->file : t ? t->device : "";

	if (cfg->target == LATT_TARGET_PMEM && t && t->namespace[0])
		snprintf(buf, len, "%s %s: %s, %s, %s", t->kind, dev,
			 t->namespace, t->mode, t->region);
	else if (cfg->target == LATT_TARGET_PMEM && t)
		snprintf(buf, len, "%s %s: %s", t->kind, dev,
			 t->region[0] ? t->region : "no pmem namespace known");
	else if (cfg->target == LATT_TARGET_PMEM)
		snprintf(buf, len, "pmem 0x%llx", (unsigned long long)cfg->phys_addr);
	else if (cfg->node == LATT_NODE_LOCAL)
		snprintf(buf, len, "dram");
	else
		snprintf(buf, len, "dram:%u", cfg->node);
}

static void line(FILE *f, const char *label, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void line(FILE *f, const char *label, const char *fmt, ...)
{
	va_list ap;

	fprintf(f, "%-11s ", label);	/* "" continues the line above */
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
}

/** fmt_pattern() - "rand", "stride:4 KiB", "chase, 16 dependent loads..." */
void fmt_pattern(char *buf, size_t len, const struct latt_config *c)
{
	const char *name = latt_name(NAMES_PATTERN, c->pattern);
	char bytes[32];

	fmt_bytes(bytes, sizeof(bytes), c->stride);
	if (c->pattern == LATT_PAT_STRIDE || c->pattern == LATT_PAT_HOTSPOT)
		snprintf(buf, len, "%s:%s", name, bytes);
	else if (c->pattern == LATT_PAT_CHASE && c->stride)
		snprintf(buf, len, "%s, %u dependent load%s per sample, in blocks of %s", name, c->chain, c->chain > 1 ? "s" : "",
			 bytes);
	else if (c->pattern == LATT_PAT_CHASE && c->chain > 1)
		snprintf(buf, len, "%s, %u dependent loads per sample", name,
			 c->chain);
	else
		snprintf(buf, len, "%s", name);
}

static void print_pattern(FILE *f, const struct latt_config *c)
{
	char buf[96];

	fmt_pattern(buf, sizeof(buf), c);
	line(f, "pattern:", "%s", buf);
}

/* "1.5 us", "820.0 ns", "12.0 ms": a time for a reader */
static void fmt_time(char *buf, size_t len, double ns)
{
	if (ns >= 1e6)
		snprintf(buf, len, "%.1f ms", ns / 1e6);
	else if (ns >= 1e3)
		snprintf(buf, len, "%.1f us", ns / 1e3);
	else
		snprintf(buf, len, "%.1f ns", ns);
}

/* How the threshold was found: "10x the median ...", "--threshold 2us", "". */
static void fmt_threshold_origin(char *buf, size_t len,
				 const struct run_report *r)
{
	const struct run_threshold *t = &r->thr;

	buf[0] = '\0';
	if (t->spec.kind == THR_MEDIAN)
		snprintf(buf, len, "threshold %s the median of %llu cycles, from a %llu-sample calibration pass", t->spec.text,
			 (unsigned long long)t->median,
			 (unsigned long long)t->calibration);
	else if (t->spec.kind == THR_NS)
		snprintf(buf, len, "threshold --threshold %s", t->spec.text);
}

/* The records' causes (outstats.h), what was looked for, the clean tail. */
static void print_causes(FILE *f, const struct run_report *r)
{
	const struct cause_summary *cs = &r->cause;
	const struct latt_summary *sm = &r->sum;
	const char *unit = sm->per_load ? " a load" : "";
	char buf[1024], t[CLEAN_FIGS][32];
	int k;

	cause_counts_fmt(buf, sizeof(buf), cs);
	line(f, "causes:", "%s", buf);
	cause_sources_fmt(buf, sizeof(buf), cs->sources);
	line(f, "looked for:", "%s", cs->on ? buf : "nothing");
	if (cs->why[0])
		line(f, "", "not: %s", cs->why);
	if (cs->left)
		line(f, "", "%llu events in windows of outliers had no outlier left to explain",
		     (unsigned long long)cs->left);
	if (cs->on && !cs->from_flags) {
		cause_quiet_fmt(buf, sizeof(buf), cs);
		line(f, "no outlier:", "%s held events but no outlier record",
		     buf);
	}
	if (!cs->clean_count)
		return;
	for (k = 0; k < CLEAN_FIGS; k++)
		if (cs->clean_supported[k] || k == CLEAN_MEAN)
			fmt_time(t[k], sizeof(t[k]), cs->clean_ns[k]);
		else
			snprintf(t[k], sizeof(t[k]), "-");
	line(f, "clean tail:", "p99.9 %s, p99.99 %s, mean %s%s over the %llu samples whose cause is no event%s",
	     t[CLEAN_P999], t[CLEAN_P9999], t[CLEAN_MEAN], unit,
	     (unsigned long long)cs->clean_count,
	     r->res.outliers_dropped ? " (an upper bound: outliers not recorded stay in)" : "");
}

static void print_outliers(FILE *f, const struct run_report *r)
{
	const struct latt_result *s = &r->res;
	const struct outlier_summary *o = &r->osum;
	__u64 khz = r->info->tsc_khz;
	char origin[160], t1[32];

	fmt_threshold_origin(origin, sizeof(origin), r);
	line(f, "outliers:", "%llu above %llu cycles (%.1f ns), %llu dropped; rate %.4f%% of samples", (unsigned long long)s->outliers,
	     (unsigned long long)s->config.threshold,
	     latt_ns((double)s->config.threshold, khz),
	     (unsigned long long)s->outliers_dropped, 100.0 * o->rate);
	if (origin[0])
		line(f, "", "%s", origin);
	if (r->user_engine)	/* NMIs are a cause among others */
		line(f, "nmi:", "%s", r->cause.sources & LATT_EVS_NMI ?
		     "counted per window (causes)" :
		     "unavailable (user engine: see causes)");
	else
		line(f, "nmi:", "%llu of %llu recorded outliers in windows with an NMI", (unsigned long long)o->nmi,
		     (unsigned long long)o->recorded);
	print_causes(f, r);
	if (o->samples.of) {
		fmt_time(t1, sizeof(t1), latt_ns((double)o->cycles.value, khz));
		line(f, "spacing:", "most often %llu samples (%llu of %llu gaps), %s (%llu of %llu)", (unsigned long long)o->samples.value,
		     (unsigned long long)o->samples.count,
		     (unsigned long long)o->samples.of, t1,
		     (unsigned long long)o->cycles.count,
		     (unsigned long long)o->cycles.of);
	} else {
		line(f, "spacing:", "none (fewer than 2 records)");
	}
	if (r->smi.ok)
		line(f, "smi:", "%llu during the run (MSR_SMI_COUNT of cpu %u: %llu -> %llu)",
		     (unsigned long long)(r->smi.after - r->smi.before),
		     r->smi.cpu, (unsigned long long)r->smi.before,
		     (unsigned long long)r->smi.after);
	else
		line(f, "smi:", "unavailable (%s)", r->smi.why);
}

/* The measured range of a pmem target: physical, or in the file or device. */
static void print_range(FILE *f, const struct run_report *r)
{
	const struct latt_config *c = &r->res.config;
	const struct pmem_target *t = &r->target->pm;
	char range[32];

	if (t->phys_start == PMEM_UNKNOWN) {
		fmt_size(range, sizeof(range), t->size);
		line(f, "offset:", "%llu of %s (%s)",
		     (unsigned long long)r->target->offset, range,
		     t->file[0] ? "in the file, mapped with MAP_SYNC" :
		     "physical range unknown: not root");
		return;
	}
	fmt_size(range, sizeof(range), t->phys_size);
	line(f, "phys:", "0x%llx-0x%llx, offset %llu of 0x%llx + %s%s",
	     (unsigned long long)c->phys_addr,
	     (unsigned long long)(c->phys_addr + c->region - 1),
	     (unsigned long long)r->target->offset, t->phys_start, range,
	     r->res.flags & LATT_RES_DAX ? ", DAX range checked" : "");
}

/** report_timer_name() - "rdtscp" or "rdtsc" (lfence; rdtsc) */
const char *report_timer_name(const struct run_report *r)
{
	return r->res.flags & LATT_RES_TIMER_RDTSC ? "rdtsc" : "rdtscp";
}

/*
 * report_tsc_stable() - whether the kernel trusted the TSC: 1, 0, or -1
 * when nobody said (a module before ABI 1.3)
 */
int report_tsc_stable(const struct run_report *r)
{
	if (!r->user_engine && !(r->info->features & LATT_FEAT_TIMER_RDTSC))
		return -1;
	return !(r->res.flags & LATT_RES_TSC_UNSTABLE);
}

/**
 * report_quantum() - the timer's quantum of @r in cycles (struct
 * run_quantum): what a single sample can tell apart; 0 when unknown
 */
double report_quantum(const struct run_report *r)
{
	return (double)r->q.quantum / LATT_QUANTUM_ONE;
}

/**
 * report_quantum_agree() - whether the spacing of @r's own samples is
 * the engine's quantum, within 2%
 */
bool report_quantum_agree(const struct run_report *r)
{
	double a = (double)r->q.samples, b = (double)r->q.timer;

	return a && b && a >= 0.98 * b && a <= 1.02 * b;
}

/**
 * fmt_quantum() - "quantum Q cycles (N ns@note), read cost C cycles": a
 * quantum in 1/256 cycle and a read cost in cycles (0: unknown, left out)
 * at @khz; @note: "" or "; ..."
 */
void fmt_quantum(char *buf, size_t len, __u64 quantum, __u64 read_cost,
		 __u64 khz, const char *note)
{
	double q = (double)quantum / LATT_QUANTUM_ONE;
	double ns = khz ? q * 1e6 / (double)khz : 0;
	int n = 0;

	buf[0] = 0;
	if (quantum && khz)
		n = snprintf(buf, len, "quantum %.*f cycles (%.*f ns%s)",
			     q < 10 ? 3 : 2, q, ns < 1 ? 3 : 2, ns, note);
	else if (quantum)
		n = snprintf(buf, len, "quantum %.2f cycles%s%s%s", q,
			     note[0] ? " (" : "", note[0] ? note + 2 : "",
			     note[0] ? ")" : "");
	if (read_cost && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - n, "%sread cost %llu cycles",
			 n ? ", " : "", (unsigned long long)read_cost);
}

/*
 * "core:": core cycles per TSC cycle on the run's CPU before and after
 * the run (coreclk.h), the clock it makes, and APERF/MPERF over the run
 */
static void print_core(FILE *f, const struct run_report *r)
{
	const struct core_clock *c = &r->core;
	double k = core_clock_ratio(c), khz = (double)r->info->tsc_khz;
	char ap[200];

	if (c->aperf_ok)
		snprintf(ap, sizeof(ap), "APERF/MPERF %.3f over the run",
			 (double)c->aperf / (double)c->mperf);
	else
		snprintf(ap, sizeof(ap), "APERF/MPERF unavailable: %s",
			 c->aperf_why);
	if (c->emulated) {
		line(f, "core:", "not measured: the CPU is emulated (QEMU TCG), no core's clock");
		return;
	}
	if (!c->ok) {
		line(f, "core:", "unknown (the calibration on CPU %u failed); %s",
		     c->cpu, ap);
		return;
	}
	line(f, "core:", "%.3f core cycles per TSC cycle (%.2f GHz), %.3f before the run and %.3f after (dependent adds on CPU %u); %s",
	     k, k * khz / 1e6, c->before, c->after, c->cpu, ap);
}

static void print_timer(FILE *f, const struct run_report *r)
{
	const struct latt_result *s = &r->res;
	__u64 feat = r->info->features;
	int stable = report_tsc_stable(r);
	char step[160] = "", qt[96];

	fmt_quantum(qt, sizeof(qt), r->q.quantum, s->timer_step,
		    r->info->tsc_khz, !r->q.quantum ? "" :
		    r->q.assumed ? "; assumed: the module doesn't say, the samples don't show" :
		    !r->q.timer ? "; the run's samples'" :
		    r->q.finer ? "; the run's samples: FINER" :
		    report_quantum_agree(r) ? "; the run's samples agree" : "");
	if (qt[0])
		snprintf(step, sizeof(step), ", %s", qt);
	line(f, "timer:", "%s%s%s; TSC %s%s%s, %s (clocksource %s)",
	     s->flags & LATT_RES_TIMER_RDTSC ? "lfence; rdtsc" : "rdtscp",
	     s->flags & LATT_RES_TIMER_RDTSC && !(feat & LATT_FEAT_RDTSCP) ?
	     " (CPUID shows no rdtscp)" : "", step,
	     feat & LATT_FEAT_CONSTANT_TSC ? "constant" : "not constant",
	     feat & LATT_FEAT_NONSTOP_TSC ? ", nonstop" : "",
	     "", stable < 0 ? "stability unknown" :
	     stable ? "trusted by the kernel" : "NOT trusted by the kernel",
	     r->clocksource[0] ? r->clocksource : "unknown");
}

/*
 * "durable:": the target's persistence domain and the shortest store
 * sequence durable in it (run_durable_op()), and whether this run times
 * that sequence.
 */
static void print_durable(FILE *f, const struct run_report *r)
{
	const struct latt_config *c = &r->res.config;
	const char *d = r->target->pm.persistence[0] ?
			r->target->pm.persistence : PMEM_PERSIST_UNKNOWN;
	__u32 op, fence;

	if (!run_durable_op(d, r->info->features, &op, &fence)) {
		line(f, "durable:", "%s: %s", d,
		     strcmp(d, PMEM_PERSIST_NONE) ?
		     "the region reports no persistence domain: which store sequence is durable can't be told" :
		     "nothing survives a power loss");
		return;
	}
	line(f, "durable:", "%s (%s): %s + %s is the shortest durable store; %s",
	     d, op == LATT_OP_STORE ? "eADR" : "ADR",
	     latt_name(NAMES_OP, op), latt_name(NAMES_FENCE, fence),
	     c->op == op && c->fence == fence ?
	     (r->durable ? "this run times it (--op durable)" :
	      "this run times it") : "not what this run times");
}

static void print_header(FILE *f, const struct run_report *r)
{
	const struct latt_result *s = &r->res;
	const struct latt_config *c = &s->config;
	char target[PATH_MAX + 3 * PMEM_NAME], size[32], region[32];
	int i;

	fmt_target(target, sizeof(target), r);
	fmt_bytes(size, sizeof(size), c->size);
	fmt_bytes(region, sizeof(region), c->region);
	line(f, "target:", "%s", target);
	if (r->target && r->target->cxl.region[0])
		line(f, "cxl:", "%s, %s: measured as %s", r->target->spec,
		     r->target->cxl.note, r->target->cxl.resolved);
	if (c->target == LATT_TARGET_PMEM && r->target)
		print_range(f, r);
	if (c->node == LATT_NODE_LOCAL)
		line(f, "node:", "local");
	else
		line(f, "node:", "%u", c->node);
	line(f, "cpu:", "%u", c->cpu);
	line(f, "op:", "%s", latt_name(NAMES_OP, c->op));
	line(f, "fence:", "%s", latt_name(NAMES_FENCE, c->fence));
	if (c->target == LATT_TARGET_PMEM && r->target)
		print_durable(f, r);
	print_pattern(f, c);
	line(f, "size:", "%s", size);
	line(f, "region:", "%s", region);
	if (c->mode == LATT_MODE_BANDWIDTH)
		line(f, "duration:", "%.3f s asked (--mode bandwidth)",
		     (double)c->duration_us / 1e6);
	else
		line(f, "samples:", "%llu of %llu", (unsigned long long)s->count,
		     (unsigned long long)r->samples_asked);
	line(f, "seed:", "0x%llx", (unsigned long long)c->seed);
	line(f, "state:", "%s%s", latt_name(NAMES_STATE, s->state),
	     r->interrupted ? " (interrupted)" : "");
	line(f, "tsc_khz:", "%llu", (unsigned long long)r->info->tsc_khz);
	print_timer(f, r);
	print_core(f, r);
	if (c->mode == LATT_MODE_LOADED) {
		char idle[24] = "unknown", end[24] = "unknown";

		/* 0: unknown (a module before ABI 2.5, a run stopped) */
		if (s->overhead_idle)
			snprintf(idle, sizeof(idle), "%llu",
				 (unsigned long long)s->overhead_idle);
		if (s->overhead_end)
			snprintf(end, sizeof(end), "%llu",
				 (unsigned long long)s->overhead_end);
		line(f, "overhead:", "%llu cycles median under the traffic, min %llu, max %llu; idle %s; %s across the samples", (unsigned long long)s->overhead,
		     (unsigned long long)s->overhead_min,
		     (unsigned long long)s->overhead_max, idle, end);
	}
	if (c->mode != LATT_MODE_LOADED && s->overhead_end)
		line(f, "overhead:", "%llu cycles median, min %llu, max %llu; %llu after the samples", (unsigned long long)s->overhead,
		     (unsigned long long)s->overhead_min,
		     (unsigned long long)s->overhead_max,
		     (unsigned long long)s->overhead_end);
	else if (c->mode != LATT_MODE_LOADED)
		line(f, "overhead:", "%llu cycles median, min %llu, max %llu",
		     (unsigned long long)s->overhead,
		     (unsigned long long)s->overhead_min,
		     (unsigned long long)s->overhead_max);
	if (r->user_engine)
		line(f, "windows:", "%llu of %u us, longest %.1f us (user engine: bookkeeping only, interrupts not kept out)",
		     (unsigned long long)s->windows, c->window_us,
		     latt_ns((double)s->window_cycles_max, r->info->tsc_khz) /
		     1000);
	else
		line(f, "windows:", "%llu of %u us, %llu with an NMI, longest %.1f us", (unsigned long long)s->windows, c->window_us,
		     (unsigned long long)s->nmi_windows,
		     latt_ns((double)s->window_cycles_max, r->info->tsc_khz) /
		     1000);
	if (c->threshold)
		print_outliers(f, r);
	else
		line(f, "outliers:", "off (no --threshold)");
	if (s->hist_overflow)
		line(f, "overflow:", "%llu samples above 2^%d cycles",
		     (unsigned long long)s->hist_overflow, LATT_HIST_MAX_BITS);
	if (s->backwards)
		line(f, "backwards:", "%llu samples with t1 < t0, left out",
		     (unsigned long long)s->backwards);
	line(f, "width:", "%u B%s", s->width,
	     s->flags & LATT_RES_VECTOR ? " (vector)" : "");
	if (s->page_size) {
		fmt_bytes(size, sizeof(size), s->page_size);
		line(f, "pages:", "%s (%s)", size, r->page_note);
	} else {
		line(f, "pages:", "unknown");
	}
	/* ABI 2.1: said only when it is not the 4 MiB every access expects */
	if (s->chunk_size && s->chunk_size != LATT_CHUNK) {
		fmt_bytes(size, sizeof(size), s->chunk_size);
		line(f, "chunks:", "%s (the node had no free 4 MiB blocks; no access crosses one)", size);
	}
	for (i = 0; i < r->nr_warnings; i++)
		line(f, "warning:", "%s", r->warnings[i]);
}

static void print_table(FILE *f, const struct run_report *r)
{
	const struct latt_summary *sum = &r->sum;
	char note[512], ci[64];
	int i;

	fprintf(f, "\nlatency per %s: cycles and ns corrected (raw - overhead)",
		sum->per_load ? "load" : "access");
	if (sum->per_load)
		fprintf(f, " / %u; raw cycles per sample", sum->chain);
	fprintf(f, "\n%-8s %12s %12s %12s   %s\n", "", "cycles", "ns",
		"raw cycles", "95% interval, ns");
	for (i = 0; i < NR_STATS; i++) {
		if (!latt_stats[i].in_table)
			continue;
		ci[0] = 0;
		if (sum->has_ci[i])
			snprintf(ci, sizeof(ci), "   [%.1f, %.1f]",
				 sum->ci_ns_lo[i], sum->ci_ns_hi[i]);
		if (i == STAT_MEAN)
			fprintf(f, "%-8s %12.1f %12.1f %12.1f%s\n",
				latt_stats[i].name, sum->cycles[i],
				sum->ns[i], sum->raw[i], ci);
		else if (!sum->supported[i])
			fprintf(f, "%-8s %12s %12s %12s\n", latt_stats[i].name,
				"-", "-", "-");
		else
			fprintf(f, "%-8s %12.0f %12.1f %12.0f%s\n",
				latt_stats[i].name, sum->cycles[i],
				sum->ns[i], sum->raw[i], ci);
	}
	if (latt_unsupported_note(note, sizeof(note), sum, true))
		fprintf(f, "-: %s\n", note);
	if (core_clock_ratio(&r->core) > 0) {
		fprintf(f, "core cycles (x %.3f):", core_clock_ratio(&r->core));
		for (i = STAT_P50; i < NR_STATS; i++)
			if (latt_stats[i].in_table && i != STAT_MAX &&
			    sum->supported[i])
				fprintf(f, " %s %.1f", latt_stats[i].name,
					sum->cycles[i] *
					core_clock_ratio(&r->core));
		fputc('\n', f);
	}
	if (!sum->has_ci[STAT_P50] && !sum->has_ci[STAT_MEAN])
		return;
	fprintf(f, "95%% intervals: percentiles from the order statistics, widened by the timer's quantum (%.2f cycles a sample) each side; the mean's from the samples' spread; both take the samples as independent (methodology.md §7)\n",
		sum->quantum);
}

/**
 * report_batch() - @r's --batch estimate (stats.c, latt_batch_estimate()),
 * the timer's quantum the least spread of a difference
 *
 * Return: 0, or -EINVAL for a run without pairs.
 */
int report_batch(const struct run_report *r, struct latt_batch_est *e)
{
	const struct latt_config *c = &r->res.config;

	memset(e, 0, sizeof(*e));
	if (!c->batch || !r->batch_pairs)
		return -EINVAL;
	return latt_batch_estimate(r->batch_pairs, r->batch.pairs, c->batch,
				   latt_chain(c), report_quantum(r), e);
}

/* a figure of the batch estimate and its interval, scaled by @k */
static void batch_figure(FILE *f, const char *unit,
			 const struct latt_batch_est *e, double k)
{
	if (!(k > 0))
		return;
	fprintf(f, "  %.2f %s", e->cycles * k, unit);
	if (e->has_ci)
		fprintf(f, " [%.2f, %.2f]", e->lo * k, e->hi * k);
}

/*
 * --batch: one access's cost from the pairs of batches, in ns, TSC and
 * core cycles, with the 95% intervals
 */
static void print_batch(FILE *f, const struct run_report *r)
{
	const struct latt_config *c = &r->res.config;
	const bool chase = c->pattern == LATT_PAT_CHASE;
	const __u32 per = c->batch * latt_chain(c);
	struct latt_batch_est e;

	if (!c->batch)
		return;
	fprintf(f, "\nbatches of %u and %u %s: %llu of %u pairs",
		per, 2 * per, chase ? "loads" : "accesses",
		(unsigned long long)r->batch.pairs, c->batch_pairs);
	if (r->batch.backwards)
		fprintf(f, " (%llu left out: the TSC went backwards)",
			(unsigned long long)r->batch.backwards);
	if (report_batch(r, &e)) {
		fprintf(f, "; no estimate\n");
		return;
	}
	fprintf(f, ", %llu beyond %g robust sd of the median left out",
		(unsigned long long)e.clipped, LATT_BATCH_CLIP);
	if (e.saturated)
		fprintf(f, ", %llu of 2^32 cycles or more",
			(unsigned long long)e.saturated);
	fputc('\n', f);
	fprintf(f, "per %s, (T(2K) - T(K)) / K:", chase ? "load" : "access");
	batch_figure(f, "ns", &e, latt_ns(1, r->info->tsc_khz));
	batch_figure(f, "cycles", &e, 1);
	batch_figure(f, "core cycles", &e, core_clock_ratio(&r->core));
	if (e.has_ci)
		fprintf(f, "\n95%% interval of the kept pairs' mean, from their spread, the pairs taken as independent");
	else
		fprintf(f, "\nno interval (fewer than %d pairs kept)",
			LATT_BATCH_MIN_CI);
	if (!isnan(e.half[0]) && !isnan(e.half[1]))
		fprintf(f, "; the run's halves: %.2f and %.2f cycles",
			e.half[0], e.half[1]);
	fprintf(f, " (methodology.md §7.1)\n");
	if (!chase)
		fprintf(f, "each access with its fence, an lfence and the loop: a chase's loads need neither (an L1 or L2 hit: --pattern chase)\n");
}

/** report_print() - the header, and the table if there were samples */
void report_print(FILE *f, const struct run_report *r)
{
	print_header(f, r);
	if (r->res.count)
		print_table(f, r);
	print_batch(f, r);
	threads_print(f, r);
}

/* Repeat columns shown in the text (all are in the JSON). */
#define REPEAT_COLUMNS	8

/** report_repeat_ns() - repeats are summed up in ns: the TSC rate is known */
bool report_repeat_ns(const struct run_report *r)
{
	return r->info->tsc_khz != 0;
}

/**
 * report_repeat_figure() - one repeat's figure of statistic @stat, in ns
 * (@ns) or corrected cycles; false where it has none (no samples, or too
 * few for the percentile)
 */
bool report_repeat_figure(const struct run_report *r, bool ns, int stat,
			  double *v)
{
	if (!r->res.count || !r->sum.supported[stat])
		return false;
	*v = ns ? r->sum.ns[stat] : r->sum.cycles[stat];
	return true;
}

/**
 * report_repeat_spread() - statistic @stat over the @n repeats @r that
 * have it (report_repeat_figure()), in report_repeat_ns()'s unit: 0, or
 * -EINVAL where none has it
 */
int report_repeat_spread(const struct run_report *r, size_t n, int stat,
			 struct latt_spread *s)
{
	double v[RUN_MAX_REPEAT];
	bool ns = report_repeat_ns(r);
	size_t k, m = 0;

	for (k = 0; k < n && m < RUN_MAX_REPEAT; k++)
		m += report_repeat_figure(&r[k], ns, stat, &v[m]);
	return latt_spread_of(s, v, m);
}

/**
 * report_print_repeats() - run --repeat: the first repeat's header, then
 * a row per statistic: the median over the repeats, the least and the
 * largest, the spread ((max - min) / median), and each repeat's figure
 * (the first REPEAT_COLUMNS)
 * @f: where to
 * @r: the repeats' reports
 * @n: how many
 */
void report_print_repeats(FILE *f, const struct run_report *r, size_t n)
{
	struct latt_spread s;
	char head[16], note[512];
	size_t k, shown = n < REPEAT_COLUMNS ? n : REPEAT_COLUMNS;
	bool ns = report_repeat_ns(r);
	double v;
	int i;

	print_header(f, &r[0]);
	fprintf(f, "\nlatency per %s over %zu repeats of %llu samples: %s corrected (raw - overhead), each repeat its own seed\n",
		r[0].sum.per_load ? "load" : "access", n,
		(unsigned long long)r[0].samples_asked, ns ? "ns" : "cycles");
	fprintf(f, "%-8s %10s %10s %10s %7s", "", "median", "min", "max",
		"spread");
	for (k = 0; k < shown; k++) {
		snprintf(head, sizeof(head), "#%zu", k + 1);
		fprintf(f, " %9s", head);
	}
	fputc('\n', f);
	for (i = 0; i < NR_STATS; i++) {
		if (!latt_stats[i].in_table)
			continue;
		fprintf(f, "%-8s", latt_stats[i].name);
		if (report_repeat_spread(r, n, i, &s)) {
			fprintf(f, " %10s %10s %10s %7s", "-", "-", "-", "-");
		} else {
			fprintf(f, " %10.1f %10.1f %10.1f", s.median, s.min,
				s.max);
			if (s.median > 0)
				fprintf(f, " %6.1f%%",
					100 * (s.max - s.min) / s.median);
			else
				fprintf(f, " %7s", "-");
		}
		for (k = 0; k < shown; k++) {
			if (report_repeat_figure(&r[k], ns, i, &v))
				fprintf(f, " %9.1f", v);
			else
				fprintf(f, " %9s", "-");
		}
		fputc('\n', f);
	}
	if (shown < n)
		fprintf(f, "(repeats %zu to %zu: in the JSON)\n", shown + 1, n);
	fprintf(f, "spread: (max - min) / median over the repeats; compare tells two runs' repeats apart\n");
	if (latt_unsupported_note(note, sizeof(note), &r[0].sum, true))
		fprintf(f, "-: %s\n", note);
	for (k = 1; k < n; k++)
		for (i = 0; i < r[k].nr_warnings; i++)
			fprintf(f, "warning: repeat %zu: %s\n", k + 1,
				r[k].warnings[i]);
}

/* The end of a written file: 0, or what went wrong; stdout stays open. */
static int out_close(FILE *f)
{
	int rc;

	if (f == stdout)
		return 0;
	rc = ferror(f) ? -EIO : 0;
	if (fclose(f) && !rc)
		rc = -errno;
	return rc;
}

static void hist_rows(FILE *f, const struct run_report *r)
{
	const struct latt_result *s = &r->res;
	__u64 seen = 0, lo, hi;
	__u32 i;

	for (i = 0; i < LATT_HIST_BUCKETS; i++) {
		if (!r->hist[i])
			continue;
		lo = latt_hist_lo(i);
		hi = i + 1 < LATT_HIST_BUCKETS ? latt_hist_hi(i) : s->max;
		if (hi < lo)
			hi = lo;
		seen += r->hist[i];
		fprintf(f, "%llu %llu %llu %.3f %.9f\n",
			(unsigned long long)lo, (unsigned long long)hi,
			(unsigned long long)r->hist[i],
			latt_ns((double)latt_correct(lo + (hi - lo) / 2,
						     s->overhead) /
				r->sum.chain, r->info->tsc_khz),
			(double)seen / (double)s->count);
	}
}

/** report_write_hist() - the non-empty buckets as columns for gnuplot */
int report_write_hist(const char *path, const struct run_report *r)
{
	const struct latt_config *c = &r->res.config;
	char target[PATH_MAX + 3 * PMEM_NAME], pattern[96];
	FILE *f;

	f = strcmp(path, "-") ? fopen(path, "we") : stdout;
	if (!f)
		return -errno;
	fmt_target(target, sizeof(target), r);
	fmt_pattern(pattern, sizeof(pattern), c);
	fprintf(f, "# lattester-ctl run histogram: %s cpu %u op %s pattern %s size %llu seed 0x%llx\n", target, c->cpu,
		latt_name(NAMES_OP, c->op), pattern,
		(unsigned long long)c->size, (unsigned long long)c->seed);
	fprintf(f, "# samples %llu overhead_cycles %llu tsc_khz %llu chain %u\n"
		"# cycles are raw per sample; corrected_ns_mid is the bucket middle minus the overhead, per %s\n",
		(unsigned long long)r->res.count,
		(unsigned long long)r->res.overhead,
		(unsigned long long)r->info->tsc_khz, r->sum.chain,
		r->sum.per_load ? "load" : "access");
	fprintf(f, "# lo_cycles hi_cycles count corrected_ns_mid cumulative_fraction\n");
	hist_rows(f, r);
	return out_close(f);
}

/*
 * HdrHistogram's percentile distribution (.hgrm), as its Java
 * AbstractHistogram.outputPercentileDistribution() prints it with 5
 * percentile ticks per half distance: the reporting levels 0%, 10%, ...
 * 50%, then 5 levels in each half of the distance left to 100% (55%, ...,
 * 75%, 77.5%, ...), a row each time the cumulative count reaches one; then
 * the last row at 100% (the max), and the Mean / StdDeviation / Max /
 * Total count / Buckets / SubBuckets footer.  The values are lattester's
 * own estimates (a bucket's midpoint clamped to min..max, the exact max;
 * those of the run's table and JSON), corrected and in ns.
 */
#define HGRM_TICKS	5	/* percentileTicksPerHalfDistance */
#define HGRM_DIGITS	3	/* numberOfSignificantValueDigits: decimals */

/* PercentileIterator.incrementIterationLevel(): the level after @level. */
static double hgrm_next_level(double level)
{
	double x, ticks = 2.0 * HGRM_TICKS;

	if (level >= 100.0)
		return 100.0;
	/* ticks = TICKS * 2^(floor(log2(100 / (100 - level))) + 1) */
	for (x = 100.0 / (100.0 - level); x >= 2.0; x /= 2.0)
		ticks *= 2.0;
	return level + 100.0 / ticks;
}

/* Bucket @i's estimate as latt_hist_percentile() makes it, raw cycles. */
static __u64 hgrm_raw(const struct latt_result *s, __u32 i)
{
	__u64 lo = latt_hist_lo(i), hi, mid;

	if (i + 1 >= LATT_HIST_BUCKETS)
		return s->max;
	hi = latt_hist_hi(i);
	mid = lo + (hi - lo) / 2;
	return mid < s->min ? s->min : mid > s->max ? s->max : mid;
}

/* Raw cycles of a sample to the file's value: corrected ns per access. */
static double hgrm_value(const struct run_report *r, __u64 raw)
{
	return latt_ns((double)latt_correct(raw, r->res.overhead) /
		       r->sum.chain, r->info->tsc_khz);
}

static void hgrm_row(FILE *f, double value, double level, __u64 cum)
{
	if (level < 100.0)
		fprintf(f, "%12.*f %2.12f %10llu %14.2f\n", HGRM_DIGITS, value,
			level / 100.0, (unsigned long long)cum,
			1.0 / (1.0 - level / 100.0));
	else
		fprintf(f, "%12.*f %2.12f %10llu\n", HGRM_DIGITS, value,
			level / 100.0, (unsigned long long)cum);
}

/* A square root without libm: Newton's method, to the double's precision. */
static double hgrm_sqrt(double v)
{
	double x = v > 1 ? v : 1, prev = 0;
	int i;

	if (v <= 0)
		return 0;
	for (i = 0; i < 200 && x != prev; i++) {
		prev = x;
		x = (x + v / x) / 2;
	}
	return x;
}

/** report_write_hgrm() - the histogram as HdrHistogram's .hgrm text */
int report_write_hgrm(const char *path, const struct run_report *r)
{
	const struct latt_result *s = &r->res;
	const struct latt_config *c = &s->config;
	const __u64 total = s->count;
	char target[PATH_MAX + 3 * PMEM_NAME], pattern[96];
	double level = 0.0, mean = 0.0, var = 0.0, d;
	__u64 cum = 0;
	__u32 i;
	FILE *f;

	f = strcmp(path, "-") ? fopen(path, "we") : stdout;
	if (!f)
		return -errno;
	fprintf(f, "%12s %14s %10s %14s\n\n", "Value", "Percentile",
		"TotalCount", "1/(1-Percentile)");
	for (i = 0; i < LATT_HIST_BUCKETS && total; i++) {
		if (!r->hist[i])
			continue;
		cum += r->hist[i];
		if (cum >= total) {	/* the last: one row, then 100% */
			hgrm_row(f, hgrm_value(r, hgrm_raw(s, i)), level, cum);
			break;
		}
		while (level < 100.0 && 100.0 * (double)cum / (double)total >=
		       level) {
			hgrm_row(f, hgrm_value(r, hgrm_raw(s, i)), level, cum);
			level = hgrm_next_level(level);
		}
	}
	if (total)
		hgrm_row(f, hgrm_value(r, s->max), 100.0, total);
	if (total) {
		mean = latt_ns((double)s->sum_corrected / (double)total /
			       r->sum.chain, r->info->tsc_khz);
		for (i = 0; i < LATT_HIST_BUCKETS; i++) {
			if (!r->hist[i])
				continue;
			d = hgrm_value(r, hgrm_raw(s, i)) - mean;
			var += d * d * (double)r->hist[i];
		}
		var /= (double)total;
	}
	fprintf(f, "#[Mean    = %12.*f, StdDeviation   = %12.*f]\n",
		HGRM_DIGITS, mean, HGRM_DIGITS, hgrm_sqrt(var));
	fprintf(f, "#[Max     = %12.*f, Total count    = %12llu]\n",
		HGRM_DIGITS, total ? hgrm_value(r, s->max) : 0.0,
		(unsigned long long)total);
	/* HdrHistogram's layout of the same buckets: 2^SUB sub-buckets, a
	 * bucket per power of two up to 2^MAX_BITS cycles */
	fprintf(f, "#[Buckets = %12u, SubBuckets     = %12u]\n",
		(unsigned int)(LATT_HIST_BUCKETS / LATT_HIST_HALF - 1),
		(unsigned int)LATT_HIST_EXACT);
	fmt_target(target, sizeof(target), r);
	fmt_pattern(pattern, sizeof(pattern), c);
	fprintf(f, "# lattester-ctl run: %s cpu %u op %s pattern %s size %llu seed 0x%llx samples %llu\n", target, c->cpu,
		latt_name(NAMES_OP, c->op), pattern,
		(unsigned long long)c->size, (unsigned long long)c->seed,
		(unsigned long long)total);
	fprintf(f, "# Value: ns per %s, corrected: (raw cycles - overhead %llu)%s / output value unit scaling ratio %.6f (TSC cycles per ns: tsc_khz %llu / 10^6); percentiles as lattester-ctl's table (bucket midpoints, the exact max)\n",
		r->sum.per_load ? "load" : "access",
		(unsigned long long)s->overhead,
		r->sum.per_load ? " / chain" : "",
		(double)r->info->tsc_khz / 1e6,
		(unsigned long long)r->info->tsc_khz);
	return out_close(f);
}

/* The causes' lines of an outliers CSV file's header. */
static void outliers_header_causes(FILE *f, const struct run_report *r)
{
	const struct cause_summary *cs = &r->cause;
	char buf[1024];

	cause_counts_fmt(buf, sizeof(buf), cs);
	fprintf(f, "# causes %s\n", buf);
	cause_sources_fmt(buf, sizeof(buf), cs->sources);
	fprintf(f, "# looked_for %s%s%s\n", cs->on ? buf : "nothing",
		cs->why[0] ? "; not: " : "", cs->why);
	if (cs->clean_count)
		fprintf(f, "# clean_tail samples %llu p99.9_ns %.3f p99.99_ns %.3f mean_ns %.3f%s\n",
			(unsigned long long)cs->clean_count,
			cs->clean_ns[CLEAN_P999], cs->clean_ns[CLEAN_P9999],
			cs->clean_ns[CLEAN_MEAN],
			r->res.outliers_dropped ? " (upper bound)" : "");
}

/**
 * report_outlier_nmi() - whether an NMI came in record @i's window: the
 *	module's flag, or the user engine's window evidence where it counts
 *	NMIs (@at: outlier_wev()'s place, records taken in order)
 *
 * Return: 1 or 0, -1 where unknown.
 */
int report_outlier_nmi(const struct run_report *r, __u32 i, size_t *at)
{
	const struct latt_outlier *o = &r->outliers[i];
	const struct latt_wev *w;

	if (!r->user_engine)
		return !!(o->flags & LATT_OUT_NMI);
	if (!(r->cause.sources & LATT_EVS_NMI))
		return -1;
	w = outlier_wev(r->wev, r->nr_wev, at, o->cpu, o->window);
	return !w ? -1 : !!w->ev[LATT_CAUSE_NMI];
}

/** report_outlier_cause() - record @i's cause's name (outstats.h) */
const char *report_outlier_cause(const struct run_report *r, __u32 i)
{
	return latt_cause_name(r->cause.of ? r->cause.of[i] :
			       LATT_CAUSE_UNKNOWN);
}

/* The header comment lines of an outliers CSV file. */
static void outliers_header(FILE *f, const struct run_report *r)
{
	const struct latt_result *s = &r->res;
	const struct latt_config *c = &s->config;
	const struct outlier_summary *o = &r->osum;
	char target[PATH_MAX + 3 * PMEM_NAME], pattern[96];
	__u64 khz = r->info->tsc_khz;

	fmt_target(target, sizeof(target), r);
	fmt_pattern(pattern, sizeof(pattern), c);
	fprintf(f, "# lattester-ctl run outliers: %s cpu %u op %s pattern %s size %llu seed 0x%llx\n", target, c->cpu,
		latt_name(NAMES_OP, c->op), pattern,
		(unsigned long long)c->size, (unsigned long long)c->seed);
	fprintf(f, "# samples %llu tsc_khz %llu overhead_cycles %llu threshold_cycles %llu threshold_ns %.3f threshold %s\n",
		(unsigned long long)s->count, (unsigned long long)khz,
		(unsigned long long)s->overhead,
		(unsigned long long)c->threshold,
		latt_ns((double)c->threshold, khz), r->thr.spec.text);
	fprintf(f, "# outliers %llu recorded %llu dropped %llu rate %.9f ",
		(unsigned long long)o->count, (unsigned long long)o->recorded,
		(unsigned long long)o->dropped, o->rate);
	if (r->user_engine)
		fprintf(f, "nmi unavailable (user engine)\n");
	else
		fprintf(f, "nmi %llu\n", (unsigned long long)o->nmi);
	fprintf(f, "# spacing_samples %llu (%llu of %llu) spacing_ns %.3f (%llu of %llu)\n", (unsigned long long)o->samples.value,
		(unsigned long long)o->samples.count,
		(unsigned long long)o->samples.of,
		latt_ns((double)o->cycles.value, khz),
		(unsigned long long)o->cycles.count,
		(unsigned long long)o->cycles.of);
	if (r->smi.ok)
		fprintf(f, "# smi %llu (cpu %u, MSR_SMI_COUNT %llu -> %llu)\n",
			(unsigned long long)(r->smi.after - r->smi.before),
			r->smi.cpu, (unsigned long long)r->smi.before,
			(unsigned long long)r->smi.after);
	else
		fprintf(f, "# smi unavailable (%s)\n", r->smi.why);
	outliers_header_causes(f, r);
	fprintf(f, "# cycles are corrected (raw - overhead) per sample; time_ns since the run's start; nmi 1 if an NMI arrived in the sample's window, empty where unknown; cause: Documentation/methodology.md, causes\n");
}

/**
 * report_write_outliers_csv() - every outlier record as CSV, after '#'
 * comment lines with the run and the outlier summary
 */
int report_write_outliers_csv(const char *path, const struct run_report *r)
{
	const struct latt_outlier *o;
	__u64 khz = r->info->tsc_khz, corr;
	size_t at = 0;
	FILE *f;
	__u32 i;
	int nmi;

	f = fopen(path, "we");
	if (!f)
		return -errno;
	outliers_header(f, r);
	fputs("sample,time_ns,offset,cycles,raw_cycles,ns,window,nmi,cause\n",
	      f);
	for (i = 0; i < r->res.outlier_len; i++) {
		o = &r->outliers[i];
		corr = latt_correct(o->cycles, outlier_overhead(r, o));
		nmi = report_outlier_nmi(r, i, &at);
		fprintf(f, "%llu,%llu,%llu,%llu,%llu,%.3f,%llu,%s,%s\n",
			(unsigned long long)o->sample,
			(unsigned long long)(latt_ns((double)o->tsc, khz) + 0.5),
			(unsigned long long)o->offset,
			(unsigned long long)corr,
			(unsigned long long)o->cycles,
			latt_ns((double)corr, khz),
			(unsigned long long)o->window,
			nmi < 0 ? "" : nmi ? "1" : "0",
			report_outlier_cause(r, i));
	}
	return out_close(f);
}
