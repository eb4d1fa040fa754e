// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - see stats.h.  No I/O: the unit test links this file.
 */
#include <errno.h>
#include <math.h>
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

/* the median of @n > 0 ascending values (of an even count: the mean of
 * the middle two) */
static double sorted_median(const double *w, size_t n)
{
	return n % 2 ? w[n / 2] : (w[n / 2 - 1] + w[n / 2]) / 2;
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
	s->median = sorted_median(w, n);
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

/* log of the binomial pmf P(B = k), B ~ Bin(n, p), 0 < p < 1 */
static double log_binom_pmf(double n, double k, double p)
{
	return lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1) +
	       k * log(p) + (n - k) * log1p(-p);
}

/**
 * latt_order_ranks() - the order statistics that bracket a percentile
 * @n: samples
 * @p: the percentile, 0 < p < 1
 * @lo: out: rank l (1-based): X_(l) <= the percentile with probability
 *	at least (1 + LATT_CI_LEVEL) / 2
 * @hi: out: rank u: X_(u) >= it, likewise
 *
 * Distribution-free: the number of samples below the true percentile is
 * Bin(n, p) whatever the distribution (a continuous one; ties only add
 * coverage), so [X_(l), X_(u)] holds it with probability LATT_CI_LEVEL
 * or more.  l is the largest rank with P(B <= l - 1) <= (1 - LEVEL) / 2,
 * u the smallest with P(B >= u) <= (1 - LEVEL) / 2, the binomial summed
 * exactly (in logs) over the mean +- 12 standard deviations and 40
 * terms, beyond which the tails are below 10^-30; from a standard
 * deviation of 200 ranks on, its normal approximation (with continuity
 * correction), off by less than a rank there.
 *
 * Return: 0, or -1 when n is 0, p out of (0, 1), or a tail can't be cut
 *	inside the samples (too few of them: l < 1 or u > n).
 */
int latt_order_ranks(__u64 n, double p, __u64 *lo, __u64 *hi)
{
	const double tail = (1 - LATT_CI_LEVEL) / 2;
	double mean, sd, from, to, k, cdf, pmf;
	__u64 l = 0, u = 0;

	if (!n || !(p > 0 && p < 1))
		return -1;
	mean = (double)n * p;
	sd = sqrt(mean * (1 - p));
	if (sd > 200) {
		/* the normal approximation, with continuity correction:
		 * exact to a rank where the sum would take 10^4 terms */
		k = floor(mean - LATT_CI_Z * sd + 0.5);
		l = k < 1 ? 0 : (__u64)k;
		k = ceil(mean + LATT_CI_Z * sd + 0.5);
		u = k > (double)n ? n + 1 : (__u64)k;
		goto done;
	}
	from = floor(mean - 12 * sd - 40);
	to = ceil(mean + 12 * sd + 40);
	if (from < 0)
		from = 0;
	if (to > (double)n)
		to = (double)n;
	/* lower: the largest l with P(B <= l - 1) <= tail */
	cdf = 0;
	for (k = from; k <= to; k++) {
		pmf = exp(log_binom_pmf((double)n, k, p));
		if (cdf + pmf > tail)
			break;
		cdf += pmf;
	}
	/* P(B <= k - 1) <= tail < P(B <= k): l = k (X_(k) has k - 1 below) */
	l = (__u64)k;
	/* upper: the smallest u with P(B >= u) <= tail */
	cdf = 0;
	for (k = to; k >= from; k--) {
		pmf = exp(log_binom_pmf((double)n, k, p));
		if (cdf + pmf > tail)
			break;
		cdf += pmf;
	}
	/* P(B >= k + 1) <= tail: u = k + 1 */
	u = (__u64)k + 1;
done:
	if (l < 1 || u > n)
		return -1;
	*lo = l;
	*hi = u;
	return 0;
}

/**
 * latt_hist_rank_value() - the value of the sample of rank @rank (1-based)
 * in histogram @h (LATT_HIST_BUCKETS counters)
 * @h: the histogram
 * @rank: 1 to the count
 * @min: the exact minimum, which no sample is below
 * @max: the exact maximum, which none is above
 *
 * Exact in the buckets of one value; else interpolated across the
 * bucket's values [lo, hi] as if its samples were spread evenly, and
 * clamped to [@min, @max]; the last bucket (2^40 and up) is @max.
 *
 * Return: the value, raw cycles.
 */
double latt_hist_rank_value(const __u64 *h, __u64 rank, __u64 min,
			    __u64 max)
{
	__u64 seen = 0;
	double lo, w, v;
	__u32 i;

	for (i = 0; i < LATT_HIST_BUCKETS; i++) {
		if (seen + h[i] >= rank && h[i])
			break;
		seen += h[i];
	}
	if (i + 1 >= LATT_HIST_BUCKETS)
		return (double)max;
	lo = (double)latt_hist_lo(i);
	w = (double)(latt_hist_hi(i) - latt_hist_lo(i));
	v = lo + w * ((double)(rank - seen) - 0.5) / (double)h[i];
	return v < (double)min ? (double)min : v > (double)max ?
	       (double)max : v;
}

/*
 * One figure's interval from raw cycles [@lo, @hi]: corrected, per load,
 * and in ns, and made to hold the figure itself (the table's estimate is
 * its bucket's midpoint, which a wide bucket can put outside)
 */
static void set_ci(struct latt_summary *s, int i, double lo, double hi,
		   __u64 tsc_khz)
{
	double ov = (double)s->overhead, c = (double)s->chain;

	lo = lo > ov ? (lo - ov) / c : 0;
	hi = hi > ov ? (hi - ov) / c : 0;
	if (lo > s->cycles[i])
		lo = s->cycles[i];
	if (hi < s->cycles[i])
		hi = s->cycles[i];
	s->has_ci[i] = true;
	s->ci_lo[i] = lo;
	s->ci_hi[i] = hi;
	/* the ns figure is the exact quotient, the cycles' rounded down */
	s->ci_ns_lo[i] = fmin(latt_ns(lo, tsc_khz), s->ns[i]);
	s->ci_ns_hi[i] = fmax(latt_ns(hi, tsc_khz), s->ns[i]);
}

/**
 * latt_summarize_ci() - the 95% confidence intervals of @s's figures
 * (after latt_summarize())
 * @s: the summary
 * @r: the run's result
 * @hist: its raw histogram
 * @quantum: the timer's quantum, raw cycles (0: unknown)
 * @tsc_khz: for the ns
 *
 * A percentile's interval is [X_(l) - q, X_(u) + q]: the order
 * statistics of latt_order_ranks() read through the histogram
 * (latt_hist_rank_value()), widened by one quantum q each side, since
 * every sample is the true duration moved to a multiple of the quantum,
 * up or down.  Where the quantum is as wide as the interval (a DRAM load
 * of a dozen quanta timed 10^5 times) that makes it about two quanta
 * wide and conservative; where it is fine, it hardly matters.
 *
 * The mean's is mean +- LATT_CI_Z s / sqrt(n), s the histogram's standard
 * deviation (bucket midpoints), with no widening: the quantum's rounding
 * averages out (methodology.md §3).  Both take the samples as
 * independent; samples that drift together (a frequency change, another
 * tenant) make the true uncertainty larger, which repeats show
 * (--repeat).
 */
void latt_summarize_ci(struct latt_summary *s, const struct latt_result *r,
		       const __u64 *hist, double quantum, __u64 tsc_khz)
{
	double m, var, v, d, half;
	__u64 l, u, k;
	__u32 i;
	int st;

	s->quantum = quantum;
	for (st = 0; st < NR_STATS; st++)
		s->has_ci[st] = false;
	if (!r->count || !hist)
		return;
	for (st = STAT_MIN + 1; st < STAT_MAX; st++) {
		if (!s->supported[st] ||
		    latt_order_ranks(r->count, (double)latt_stats[st].ppm / 1e6,
				     &l, &u))
			continue;
		set_ci(s, st, latt_hist_rank_value(hist, l, r->min, r->max) -
		       quantum, latt_hist_rank_value(hist, u, r->min, r->max) +
		       quantum, tsc_khz);
	}
	if (r->count < 2)
		return;
	/* the mean's: the spread of the histogram's midpoints */
	m = (double)r->sum / (double)r->count;
	var = 0;
	for (i = 0, k = 0; i < LATT_HIST_BUCKETS; i++) {
		if (!hist[i])
			continue;
		v = i + 1 >= LATT_HIST_BUCKETS ? (double)r->max :
		    ((double)latt_hist_lo(i) + (double)latt_hist_hi(i)) / 2;
		d = v - m;
		var += d * d * (double)hist[i];
		k += hist[i];
	}
	if (k < 2)
		return;
	var /= (double)(k - 1);
	half = LATT_CI_Z * sqrt(var / (double)k);
	s->has_ci[STAT_MEAN] = true;
	s->ci_lo[STAT_MEAN] = s->cycles[STAT_MEAN] - half / s->chain;
	s->ci_hi[STAT_MEAN] = s->cycles[STAT_MEAN] + half / s->chain;
	if (s->ci_lo[STAT_MEAN] < 0)
		s->ci_lo[STAT_MEAN] = 0;
	s->ci_ns_lo[STAT_MEAN] = latt_ns(s->ci_lo[STAT_MEAN], tsc_khz);
	s->ci_ns_hi[STAT_MEAN] = latt_ns(s->ci_hi[STAT_MEAN], tsc_khz);
}

/**
 * latt_batch_estimate() - one access's cost from a --batch run's pairs
 * @p: the pairs, in the order they were taken
 * @n: how many
 * @k: K, the run's batch
 * @chain: the run's chain (a chase's figures are per load), 0 or 1 else
 * @least: the least robust standard deviation, TSC cycles: the timer's
 *	quantum (the differences of a run whose accesses all cost alike sit
 *	on a quantum or two, their MAD 0)
 * @e: out
 *
 * A pair's difference T(2K) - T(K) is K accesses without the timer's
 * overhead (nanoBench's and uarch-bench's n against 2n).  The figure is
 * the mean of the differences within LATT_BATCH_CLIP robust standard
 * deviations (1.4826 x their median absolute deviation) of their median:
 * a pair an interrupt, an SMI or a stolen vCPU lands in is off by its
 * length, and left out where that is beyond the cut (a plain mean takes
 * it whole), while of normal differences the cut leaves out one in 10^11.
 * The cut grows with the spread of K accesses: an interrupt shorter than
 * it stays in (Documentation/methodology.md 7.1).
 * Its 95% interval is the mean's, from the kept pairs' spread: this
 * run's sampling error, the pairs taken as independent, as the samples'
 * intervals are; how much the memory's latency moves from run to run on
 * a shared host is --repeat's to show, and @e->half the means of the
 * first and the second half of the run (NAN for a half without pairs).
 * Saturated pairs (LATT_BATCH_SAT) are left out as disturbed, and
 * counted apart.
 *
 * Return: 0; -EINVAL without pairs; -ENOMEM.
 */
int latt_batch_estimate(const struct latt_batch_pair *p, __u64 n, __u32 k,
			__u32 chain, double least, struct latt_batch_est *e)
{
	double *d, *dev, med, mad, cut, sum = 0, sq = 0, all = 0, x, mean;
	double hs[2] = { 0, 0 }, hn[2] = { 0, 0 };
	__u64 i, m = 0, kept = 0;

	memset(e, 0, sizeof(*e));
	if (!k || !n)
		return -EINVAL;
	d = malloc(n * sizeof(*d));
	dev = malloc(n * sizeof(*dev));
	if (!d || !dev) {
		free(d);
		free(dev);
		return -ENOMEM;
	}
	e->per = (double)k * (chain > 1 ? chain : 1);
	for (i = 0; i < n; i++)
		if (p[i].k != LATT_BATCH_SAT && p[i].k2 != LATT_BATCH_SAT)
			d[m++] = (double)p[i].k2 - (double)p[i].k;
	e->pairs = n;
	if (!m) {
		free(d);
		free(dev);
		return -EINVAL;
	}
	memcpy(dev, d, m * sizeof(*d));
	qsort(dev, m, sizeof(*dev), cmp_double);
	med = sorted_median(dev, m);
	for (i = 0; i < m; i++)
		dev[i] = fabs(d[i] - med);
	qsort(dev, m, sizeof(*dev), cmp_double);
	mad = sorted_median(dev, m);
	e->scale = fmax(1.4826 * mad, least > 0 ? least : 1);
	cut = LATT_BATCH_CLIP * e->scale;
	for (i = 0; i < m; i++) {
		all += d[i];
		if (fabs(d[i] - med) > cut)
			continue;
		kept++;
		sum += d[i];
		hs[i >= m / 2] += d[i];
		hn[i >= m / 2]++;
	}
	mean = sum / (double)kept;
	for (i = 0; i < m; i++) {
		if (fabs(d[i] - med) > cut)
			continue;
		x = d[i] - mean;
		sq += x * x;
	}
	free(d);
	free(dev);
	e->ok = true;
	e->kept = kept;
	e->saturated = n - m;
	e->clipped = m - kept;
	e->median = med / e->per;
	e->scale /= e->per;
	e->cycles = mean / e->per;
	e->mean = all / (double)m / e->per;
	for (i = 0; i < 2; i++)
		e->half[i] = hn[i] ? hs[i] / hn[i] / e->per : NAN;
	if (kept >= LATT_BATCH_MIN_CI) {
		x = LATT_CI_Z * sqrt(sq / (double)(kept - 1) / (double)kept) /
		    e->per;
		e->has_ci = true;
		e->lo = e->cycles - x;
		e->hi = e->cycles + x;
	}
	return 0;
}
