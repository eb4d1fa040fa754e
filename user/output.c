// SPDX-License-Identifier: GPL-2.0
/*
 * output.c - a run as text: the header and latency table on stdout, and the
 * histogram file for gnuplot.
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include <lattester/hist.h>
#include "parse.h"
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
 * fmt_target() - "dram:NODE" ("dram" for the CPU's node), or for pmem and
 * devdax "KIND DEVICE: NAMESPACE, MODE, REGION"
 */
void fmt_target(char *buf, size_t len, const struct run_report *r)
{
	const struct latt_config *cfg = &r->res.config;
	const struct pmem_target *t = r->target ? &r->target->pm : NULL;

	if (cfg->target == LATT_TARGET_PMEM && t && t->namespace[0])
		snprintf(buf, len, "%s %s: %s, %s, %s", t->kind, t->device,
			 t->namespace, t->mode, t->region);
	else if (cfg->target == LATT_TARGET_PMEM && t)
		snprintf(buf, len, "%s %s: %s", t->kind, t->device, t->region);
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

	fprintf(f, "%-11s ", label);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
}

static void print_pattern(FILE *f, const struct latt_config *c)
{
	const char *name = latt_name(NAMES_PATTERN, c->pattern);
	char bytes[32];

	fmt_bytes(bytes, sizeof(bytes), c->stride);
	if (c->pattern == LATT_PAT_STRIDE || c->pattern == LATT_PAT_HOTSPOT)
		line(f, "pattern:", "%s:%s", name, bytes);
	else if (c->pattern == LATT_PAT_CHASE && c->chain > 1)
		line(f, "pattern:", "%s, %u dependent loads per sample", name,
		     c->chain);
	else
		line(f, "pattern:", "%s", name);
}

static void print_header(FILE *f, const struct run_report *r)
{
	const struct latt_result *s = &r->res;
	const struct latt_config *c = &s->config;
	char target[PATH_MAX + 3 * PMEM_NAME], size[32], region[32], range[32];

	fmt_target(target, sizeof(target), r);
	fmt_bytes(size, sizeof(size), c->size);
	fmt_bytes(region, sizeof(region), c->region);
	line(f, "target:", "%s", target);
	if (c->target == LATT_TARGET_PMEM && r->target) {
		fmt_size(range, sizeof(range), r->target->pm.phys_size);
		line(f, "phys:", "0x%llx-0x%llx, offset %llu of 0x%llx + %s%s",
		     (unsigned long long)c->phys_addr,
		     (unsigned long long)(c->phys_addr + c->region - 1),
		     (unsigned long long)r->target->offset,
		     r->target->pm.phys_start, range,
		     s->flags & LATT_RES_DAX ? ", DAX range checked" : "");
	}
	if (c->node == LATT_NODE_LOCAL)
		line(f, "node:", "local");
	else
		line(f, "node:", "%u", c->node);
	line(f, "cpu:", "%u", c->cpu);
	line(f, "op:", "%s", latt_name(NAMES_OP, c->op));
	line(f, "fence:", "%s", latt_name(NAMES_FENCE, c->fence));
	print_pattern(f, c);
	line(f, "size:", "%s", size);
	line(f, "region:", "%s", region);
	line(f, "samples:", "%llu of %llu",
	     (unsigned long long)s->count, (unsigned long long)r->samples_asked);
	line(f, "seed:", "0x%llx", (unsigned long long)c->seed);
	line(f, "state:", "%s%s", latt_name(NAMES_STATE, s->state),
	     r->interrupted ? " (interrupted)" : "");
	line(f, "tsc_khz:", "%llu", (unsigned long long)r->info->tsc_khz);
	line(f, "overhead:", "%llu cycles median, min %llu, max %llu",
	     (unsigned long long)s->overhead,
	     (unsigned long long)s->overhead_min,
	     (unsigned long long)s->overhead_max);
	line(f, "windows:", "%llu of %u us, %llu with an NMI, longest %.1f us",
	     (unsigned long long)s->windows, c->window_us,
	     (unsigned long long)s->nmi_windows,
	     latt_ns((double)s->window_cycles_max, r->info->tsc_khz) / 1000);
	if (c->threshold)
		line(f, "outliers:", "%llu above %llu cycles, %llu dropped",
		     (unsigned long long)s->outliers,
		     (unsigned long long)c->threshold,
		     (unsigned long long)s->outliers_dropped);
	else
		line(f, "outliers:", "off (no --threshold)");
	if (s->hist_overflow)
		line(f, "overflow:", "%llu samples above 2^%d cycles",
		     (unsigned long long)s->hist_overflow, LATT_HIST_MAX_BITS);
	line(f, "width:", "%u B%s", s->width,
	     s->flags & LATT_RES_VECTOR ? " (vector)" : "");
}

static void print_table(FILE *f, const struct run_report *r)
{
	const struct latt_summary *sum = &r->sum;
	int i;

	fprintf(f, "\nlatency per %s: cycles and ns corrected (raw - overhead)",
		sum->per_load ? "load" : "access");
	if (sum->per_load)
		fprintf(f, " / %u; raw cycles per sample", sum->chain);
	fprintf(f, "\n%-8s %12s %12s %12s\n", "", "cycles", "ns", "raw cycles");
	for (i = 0; i < NR_STATS; i++) {
		if (!latt_stats[i].in_table)
			continue;
		if (i == STAT_MEAN)
			fprintf(f, "%-8s %12.1f %12.1f %12.1f\n",
				latt_stats[i].name, sum->cycles[i],
				sum->ns[i], sum->raw[i]);
		else
			fprintf(f, "%-8s %12.0f %12.1f %12.0f\n",
				latt_stats[i].name, sum->cycles[i],
				sum->ns[i], sum->raw[i]);
	}
}

/** report_print() - the header, and the table if there were samples */
void report_print(FILE *f, const struct run_report *r)
{
	print_header(f, r);
	if (r->res.count)
		print_table(f, r);
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
	char target[PATH_MAX + 3 * PMEM_NAME];
	FILE *f;
	int rc;

	f = strcmp(path, "-") ? fopen(path, "we") : stdout;
	if (!f)
		return -errno;
	fmt_target(target, sizeof(target), r);
	fprintf(f, "# lattester-ctl run histogram: %s cpu %u op %s pattern %s "
		"size %llu seed 0x%llx\n", target, c->cpu,
		latt_name(NAMES_OP, c->op), latt_name(NAMES_PATTERN, c->pattern),
		(unsigned long long)c->size, (unsigned long long)c->seed);
	fprintf(f, "# samples %llu overhead_cycles %llu tsc_khz %llu chain %u\n"
		"# cycles are raw per sample; corrected_ns_mid is the bucket "
		"middle minus the overhead, per %s\n",
		(unsigned long long)r->res.count,
		(unsigned long long)r->res.overhead,
		(unsigned long long)r->info->tsc_khz, r->sum.chain,
		r->sum.per_load ? "load" : "access");
	fprintf(f, "# lo_cycles hi_cycles count corrected_ns_mid "
		"cumulative_fraction\n");
	hist_rows(f, r);
	if (f == stdout)
		return 0;
	rc = ferror(f) ? -EIO : 0;
	if (fclose(f) && !rc)
		rc = -errno;
	return rc;
}
