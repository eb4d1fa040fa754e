/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - a run's latency figures from struct latt_result and its
 * histogram: percentiles with latt_hist_percentile() on the raw cycles, then
 * the timer-overhead correction, then (chase with a chain of K loads) the
 * division by K.
 */
#ifndef _LATT_STATS_H
#define _LATT_STATS_H

#include <stdarg.h>
#include <stdio.h>
#include <stdbool.h>
#include <stddef.h>
#include <uapi/lattester.h>

enum latt_stat {
	STAT_MIN,
	STAT_P50,
	STAT_P90,
	STAT_P99,
	STAT_P999,
	STAT_P9999,
	STAT_P99999,
	STAT_P999999,
	STAT_MAX,
	STAT_MEAN,
	NR_STATS
};

struct latt_stat_def {
	const char *name;	/* "p99.9" */
	__u64 ppm;		/* percentile in parts per million */
	bool in_table;		/* a row of the text table */
};

extern const struct latt_stat_def latt_stats[NR_STATS];

/*
 * A percentile q is supported by at least LATT_PCT_BEYOND / (1 - q) samples:
 * LATT_PCT_BEYOND of them beyond it.  With fewer, the nearest-rank value is
 * one of the few largest samples (p99.99 of 3000 samples is the max), not a
 * property of the distribution; the reports print "-" for it and say why.
 */
#define LATT_PCT_BEYOND	10

struct latt_summary {
	__u64 overhead;		/* cycles subtracted from every sample */
	__u64 count;		/* samples the figures are of */
	__u32 chain;		/* loads per sample the figures are divided by */
	bool per_load;		/* chain > 1: figures are per load */
	double raw[NR_STATS];	/* raw cycles per sample */
	double cycles[NR_STATS]; /* corrected cycles, per access or load */
	double ns[NR_STATS];	/* the same in nanoseconds */
	bool supported[NR_STATS]; /* enough samples (latt_stat_supported()) */
	unsigned int nr_unsupported;
	/*
	 * 95% confidence intervals (latt_summarize_ci()), corrected cycles
	 * per access or load and ns, of each percentile and the mean; none
	 * (has_ci false) for min and max, for a percentile the count does
	 * not support, and for a mean of one sample
	 */
	bool has_ci[NR_STATS];
	double ci_lo[NR_STATS], ci_hi[NR_STATS];
	double ci_ns_lo[NR_STATS], ci_ns_hi[NR_STATS];
	double quantum;		/* the widening, raw cycles (0: none) */
};

/* the intervals' confidence, and the normal's quantile for it */
#define LATT_CI_LEVEL	0.95
#define LATT_CI_Z	1.959964	/* Phi^-1((1 + LATT_CI_LEVEL) / 2) */

/**
 * struct latt_spread - one figure over the repeats of a run or a sweep
 * point: their median, least and largest, and how many had the figure
 */
struct latt_spread {
	double median;
	double min;
	double max;
	size_t n;
};

/*
 * Two sets of repeats differ beyond their spread when their ranges don't
 * overlap and that is unlikely by chance: with n and m repeats of one
 * distribution it happens with probability 2 / C(n + m, n) (every one of
 * one set below every one of the other, or above), which must not exceed
 * LATT_SPREAD_P (5 and 5 repeats: 0.008; 3 and 3: 0.1, too few to tell).
 */
#define LATT_SPREAD_P	0.05

enum latt_apart {
	LATT_APART_UNKNOWN,	/* neither had repeats: no spread to go by */
	LATT_APART_WITHIN,	/* the ranges overlap */
	LATT_APART_FEW,		/* apart, but too few repeats to tell */
	LATT_APART_BEYOND,	/* apart beyond the run-to-run spread */
};

int latt_spread_of(struct latt_spread *s, const double *v, size_t n);
double latt_apart_chance(size_t n, size_t m);
enum latt_apart latt_spread_apart(const struct latt_spread *a,
				  const struct latt_spread *b, double *p);
const char *latt_apart_name(enum latt_apart a);

__u64 latt_correct(__u64 raw, __u64 overhead);
double latt_ns(double cycles, __u64 tsc_khz);
__u32 latt_chain(const struct latt_config *cfg);
__u64 latt_pct_min_samples(__u64 ppm);
bool latt_pct_supported(__u64 count, __u64 ppm);
bool latt_stat_supported(__u64 count, enum latt_stat i);
int latt_unsupported_note(char *buf, size_t len,
			  const struct latt_summary *s, bool table_only);
int latt_order_ranks(__u64 n, double p, __u64 *lo, __u64 *hi);
double latt_hist_rank_value(const __u64 *h, __u64 rank, __u64 min,
			    __u64 max);
void latt_summarize_ci(struct latt_summary *s, const struct latt_result *r,
		       const __u64 *hist, double quantum, __u64 tsc_khz);
void latt_summarize(struct latt_summary *s, const struct latt_result *res,
		    const __u64 *hist, __u64 tsc_khz);

/* a batch clipped mean's cut, in robust standard deviations */
#define LATT_BATCH_CLIP		7.0
/* ... and the fewest pairs kept that give an interval */
#define LATT_BATCH_MIN_CI	30

/**
 * struct latt_batch_est - a --batch run's estimate of one access
 * @ok: there is an estimate
 * @has_ci: ... and an interval (LATT_BATCH_MIN_CI pairs kept or more)
 * @pairs: pairs recorded
 * @kept: pairs within the cut (latt_batch_estimate())
 * @clipped: pairs beyond it, left out
 * @saturated: pairs a batch of 2^32 cycles or more left out
 * @per: accesses a pair's difference holds: K, or K x chain (a chase's
 *	figures are per load)
 * @cycles: the kept pairs' mean difference over @per, TSC cycles
 * @lo: the 95% interval's ends
 * @hi:
 * @median: every pair's median difference over @per
 * @scale: the robust standard deviation of a difference over @per
 * @mean: every pair's mean difference over @per, none left out
 * @half: @cycles of the first and of the second half of the pairs, NAN
 *	for a half without pairs
 */
struct latt_batch_est {
	bool ok, has_ci;
	__u64 pairs, kept, clipped, saturated;
	double per;
	double cycles, lo, hi, median, scale, mean, half[2];
};

int latt_batch_estimate(const struct latt_batch_pair *p, __u64 n, __u32 k,
			__u32 chain, double least, struct latt_batch_est *e);

/**
 * buf_put() - append printf output to @buf of @len bytes, @at of them
 *	written, never past its end: the sentences the reports build
 *	piece by piece (outstats.c, duty.c)
 *
 * Return: where the text ends now (at least @at; @len or more: cut).
 */
static inline size_t __attribute__((format(printf, 4, 5)))
buf_put(char *buf, size_t len, size_t at, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (at >= len)
		return at;
	va_start(ap, fmt);
	n = vsnprintf(buf + at, len - at, fmt, ap);
	va_end(ap);
	return n < 0 ? at : at + (size_t)n;
}

#endif /* _LATT_STATS_H */
