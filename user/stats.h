/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - a run's latency figures from struct latt_result and its
 * histogram: percentiles with latt_hist_percentile() on the raw cycles, then
 * the timer-overhead correction, then (chase with a chain of K loads) the
 * division by K.
 */
#ifndef _LATT_STATS_H
#define _LATT_STATS_H

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
};

__u64 latt_correct(__u64 raw, __u64 overhead);
double latt_ns(double cycles, __u64 tsc_khz);
__u32 latt_chain(const struct latt_config *cfg);
__u64 latt_pct_min_samples(__u64 ppm);
bool latt_pct_supported(__u64 count, __u64 ppm);
bool latt_stat_supported(__u64 count, enum latt_stat i);
int latt_unsupported_note(char *buf, size_t len,
			  const struct latt_summary *s, bool table_only);
void latt_summarize(struct latt_summary *s, const struct latt_result *res,
		    const __u64 *hist, __u64 tsc_khz);

#endif /* _LATT_STATS_H */
