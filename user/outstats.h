/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outstats.h - what a run's outlier records say as a whole: the outlier
 * rate, how many fell in a window with an NMI, and the most common spacing
 * between consecutive outliers (a periodic cause, such as a timer tick,
 * shows up there).  No I/O: the unit test links this file.
 */
#ifndef _LATT_OUTSTATS_H
#define _LATT_OUTSTATS_H

#include <stddef.h>
#include <uapi/lattester.h>

/**
 * struct latt_spacing - the most common gap between consecutive records
 * @value: the median of the gaps in the most populated cluster: a bucket
 *	of the log-linear histogram (exact up to 256, then < 0.8% wide) and
 *	its two neighbours; 0 with fewer than two records
 * @count: gaps in that cluster
 * @of: gaps in all (records - 1)
 */
struct latt_spacing {
	__u64 value;
	__u64 count;
	__u64 of;
};

/**
 * struct outlier_summary - from the result's counters and the records
 * @count: samples above the threshold (recorded or not)
 * @recorded: records fetched; @dropped: outliers the buffer had no room for
 * @rate: @count / samples taken (0 without samples)
 * @nmi: recorded outliers whose window saw an NMI
 * @samples: spacing in sample indices; @cycles: in TSC cycles
 */
struct outlier_summary {
	__u64 count;
	__u64 recorded;
	__u64 dropped;
	double rate;
	__u64 nmi;
	struct latt_spacing samples;
	struct latt_spacing cycles;
};

void latt_spacing_mode(__u64 *gaps, size_t n, struct latt_spacing *s);
int outlier_summarize(struct outlier_summary *s,
		      const struct latt_outlier *rec, size_t n,
		      __u64 outliers, __u64 dropped, __u64 samples);

#endif /* _LATT_OUTSTATS_H */
