// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - see stats.h.  No I/O: the unit test links this file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lattester/hist.h>
#include "stats.h"

const struct latt_stat_def latt_stats[NR_STATS] = {
	[STAT_MIN]	= { "min",	0,	 true },
	[STAT_P50]	= { "p50",	500000,	 true },
	[STAT_P90]	= { "p90",	900000,	 true },
	[STAT_P99]	= { "p99",	990000,	 true },
	[STAT_P999]	= { "p99.9",	999000,	 true },
	[STAT_P9999]	= { "p99.99",	999900,	 true },
	[STAT_P99999]	= { "p99.999",	999990,	 false },
	[STAT_P999999]	= { "p99.9999",	999999,	 false },
	[STAT_MAX]	= { "max",	1000000, true },
	[STAT_MEAN]	= { "mean",	0,	 true },
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/**
 * latt_spread_of() - the median, min and max of @n values (the median of
 * an even count: the mean of the middle two)
 * @s: the spread
 * @v: the values, one per repeat
 * @n: how many
 *
 * Return: 0, -EINVAL for no value, -ENOMEM.
 */
int latt_spread_of(struct latt_spread *s, const double *v, size_t n)
{
	double *w;

	if (!n)
		return -EINVAL;
	w = malloc(n * sizeof(*w));
	if (!w)
		return -ENOMEM;
	memcpy(w, v, n * sizeof(*w));
	qsort(w, n, sizeof(*w), cmp_double);
	s->n = n;
	s->min = w[0];
	s->max = w[n - 1];
	s->median = n % 2 ? w[n / 2] : (w[n / 2 - 1] + w[n / 2]) / 2;
	free(w);
	return 0;
}

/**
 * latt_apart_chance() - the chance that the ranges of @n and @m repeats of
 * one distribution don't overlap: 2 / C(n + m, n)
 * @n: repeats of one
 * @m: repeats of the other
 *
 * Return: the probability, 1 where it can't be less (a repeat each).
 */
double latt_apart_chance(size_t n, size_t m)
{
	double c = 1;
	size_t k;

	/* C(n + m, n) = prod over k = 1..n of (m + k) / k */
	for (k = 1; k <= n; k++)
		c = c * (double)(m + k) / (double)k;
	return c > 2 ? 2 / c : 1;
}

/**
 * latt_spread_apart() - do two sets of repeats differ beyond their spread?
 * @a: one figure over one set's repeats
 * @b: the same figure over the other's
 * @p: set to latt_apart_chance() of their counts
 *
 * A single run (n 1) is a range of one value: against repeats it is apart
 * when it lies outside their range, by chance 2 / (m + 1).
 *
 * Return: LATT_APART_UNKNOWN where neither had repeats, else WITHIN, FEW
 * (apart, by chance above LATT_SPREAD_P) or BEYOND.
 */
enum latt_apart latt_spread_apart(const struct latt_spread *a,
				  const struct latt_spread *b, double *p)
{
	*p = latt_apart_chance(a->n, b->n);
	if (a->n < 2 && b->n < 2)
		return LATT_APART_UNKNOWN;
	if (a->max >= b->min && b->max >= a->min)
		return LATT_APART_WITHIN;
	return *p <= LATT_SPREAD_P ? LATT_APART_BEYOND : LATT_APART_FEW;
}

/**
 * latt_apart_name() - how reports spell a verdict
 * @a: the verdict
 *
 * Return: "beyond", "within", "few" or "unknown".
 */
const char *latt_apart_name(enum latt_apart a)
{
	switch (a) {
	case LATT_APART_WITHIN:
		return "within";
	case LATT_APART_FEW:
		return "few";
	case LATT_APART_BEYOND:
		return "beyond";
	default:
		return "unknown";
	}
}

/** latt_correct() - raw cycles minus the timer overhead, floored at 0 */
__u64 latt_correct(__u64 raw, __u64 overhead)
{
	return raw > overhead ? raw - overhead : 0;
}

/** latt_ns() - TSC cycles to nanoseconds; 0 if tsc_khz is unknown */
double latt_ns(double cycles, __u64 tsc_khz)
{
	return tsc_khz ? cycles * 1e6 / (double)tsc_khz : 0.0;
}

/** latt_chain() - loads per sample the figures are divided by */
__u32 latt_chain(const struct latt_config *cfg)
{
	if (cfg->pattern != LATT_PAT_CHASE || cfg->chain < 2)
		return 1;
	return cfg->chain;
}

/**
 * latt_pct_min_samples() - samples percentile @ppm (parts per million)
 * needs: LATT_PCT_BEYOND / (1 - q), rounded up; 1 for the min and the max
 */
__u64 latt_pct_min_samples(__u64 ppm)
{
	if (!ppm || ppm >= 1000000)
		return 1;
	return (LATT_PCT_BEYOND * 1000000ULL + (1000000 - ppm) - 1) /
	       (1000000 - ppm);
}

/** latt_pct_supported() - do @count samples support percentile @ppm? */
bool latt_pct_supported(__u64 count, __u64 ppm)
{
	return count >= latt_pct_min_samples(ppm);
}

/** latt_stat_supported() - latt_pct_supported() of a row; min, max and
 * mean always are */
bool latt_stat_supported(__u64 count, enum latt_stat i)
{
	if (i == STAT_MIN || i == STAT_MAX || i == STAT_MEAN)
		return true;
	return latt_pct_supported(count, latt_stats[i].ppm);
}

/**
 * latt_unsupported_note() - why the unsupported percentiles of @s are
 * left out, in a sentence: "3000 samples are too few for p99.9 (10000
 * needed) and p99.99 (100000): a percentile q needs 10/(1-q), 10 samples
 * beyond it; with fewer it is one of the few largest samples"
 * @table_only: name only the rows of the text table
 *
 * Returns the length, 0 (and "") when every percentile is supported.
 */
int latt_unsupported_note(char *buf, size_t len,
			  const struct latt_summary *s, bool table_only)
{
	size_t n = 0;
	int i, k = 0, total = 0;

	buf[0] = '\0';
	for (i = 0; i < STAT_MEAN; i++)
		if (!s->supported[i] && (!table_only || latt_stats[i].in_table))
			total++;
	if (!total || !len)
		return 0;
	n += (size_t)snprintf(buf, len, "%llu sample%s %s too few for ",
			      (unsigned long long)s->count,
			      s->count == 1 ? "" : "s",
			      s->count == 1 ? "is" : "are");
	for (i = 0; i < STAT_MEAN && n < len; i++) {
		if (s->supported[i] || (table_only && !latt_stats[i].in_table))
			continue;
		k++;
		n += (size_t)snprintf(buf + n, len - n, "%s%s (%llu%s)",
				      k == 1 ? "" : k == total ? " and " : ", ",
				      latt_stats[i].name,
				      (unsigned long long)
				      latt_pct_min_samples(latt_stats[i].ppm),
				      k == 1 ? " needed" : "");
	}
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n, ": a percentile q needs %d/(1-q) samples, %d beyond it; with fewer it is one of the few largest samples", LATT_PCT_BEYOND,
				      LATT_PCT_BEYOND);
	return n < len ? (int)n : (int)len - 1;
}

static __u64 raw_stat(const struct latt_result *r, const __u64 *hist,
		      enum latt_stat i)
{
	switch (i) {
	case STAT_MIN:
		return r->min;
	case STAT_MAX:
		return r->max;
	default:
		return latt_hist_percentile(hist, r->count, r->min, r->max,
					    latt_stats[i].ppm);
	}
}

/**
 * latt_summarize() - fill @s from a run's result and raw histogram
 *
 * Percentiles come from the histogram, min and max are exact; percentile
 * cycles per load are corrected / chain rounded down, the ns columns use the
 * exact quotient.  The mean uses the module's exact sums.  All zero if the
 * run took no sample.  @s->supported says which percentiles the count
 * supports (latt_stat_supported()); the others are computed all the same.
 */
void latt_summarize(struct latt_summary *s, const struct latt_result *r,
		    const __u64 *hist, __u64 tsc_khz)
{
	int i;

	memset(s, 0, sizeof(*s));
	s->overhead = r->overhead;
	s->count = r->count;
	s->chain = latt_chain(&r->config);
	s->per_load = s->chain > 1;
	for (i = 0; i < NR_STATS; i++) {
		s->supported[i] = latt_stat_supported(r->count, i);
		s->nr_unsupported += !s->supported[i];
	}
	if (!r->count)
		return;
	for (i = 0; i < STAT_MEAN; i++) {
		__u64 raw = raw_stat(r, hist, i);
		__u64 corr = latt_correct(raw, r->overhead);

		s->raw[i] = (double)raw;
		s->cycles[i] = (double)(corr / s->chain);
		s->ns[i] = latt_ns((double)corr / s->chain, tsc_khz);
	}
	s->raw[STAT_MEAN] = (double)r->sum / (double)r->count;
	s->cycles[STAT_MEAN] = (double)r->sum_corrected / (double)r->count /
			       s->chain;
	s->ns[STAT_MEAN] = latt_ns(s->cycles[STAT_MEAN], tsc_khz);
}
