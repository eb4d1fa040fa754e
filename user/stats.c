// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - see stats.h.  No I/O: the unit test links this file.
 */
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
 * run took no sample.
 */
void latt_summarize(struct latt_summary *s, const struct latt_result *r,
		    const __u64 *hist, __u64 tsc_khz)
{
	int i;

	memset(s, 0, sizeof(*s));
	s->overhead = r->overhead;
	s->chain = latt_chain(&r->config);
	s->per_load = s->chain > 1;
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
