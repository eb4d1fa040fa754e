/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outstats.h - what a run's outlier records say as a whole: the outlier
 * rate, how many fell in a window with an NMI, and the most common spacing
 * between consecutive outliers (a periodic cause, such as a timer tick,
 * shows up there).  No I/O: the unit test links this file.
 */
#ifndef _LATT_OUTSTATS_H
#define _LATT_OUTSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <uapi/lattester.h>
#include <lattester/cause.h>

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

/* the tail without interference: these figures */
enum { CLEAN_P999, CLEAN_P9999, CLEAN_MEAN, CLEAN_FIGS };

/**
 * struct cause_summary - the outliers' causes (lattester/cause.h)
 * @on: windows were looked at: either engine's evidence, or an older
 *	module's NMI flags
 * @from_flags: a module without LATT_FEAT_WINDOWS: the records' NMI
 *	flags are the evidence
 * @sources: LATT_EVS_* looked for (the union over the threads)
 * @why: what was not looked for, and why
 * @of: each record's enum latt_cause (@recorded of them), or NULL
 * @count: records by cause
 * @cycles: their corrected cycles, by cause
 * @total_cycles: of every record
 * @left: events in windows with outliers that no outlier was left for
 * @quiet_windows: windows without an outlier record that held an event
 * @quiet_ev: their events, by cause
 * @ev_cycles: TSC cycles the user engine's threads spent reading it
 * @clean_count: samples without a cause of interference (SMI to gap)
 * @clean_cycles: their p99.9, p99.99 and mean, corrected cycles per
 *	access (per load for a chain); @clean_ns the same in ns
 * @clean_supported: the count supports the percentile
 */
struct cause_summary {
	bool on;
	bool from_flags;
	__u32 sources;
	char why[320];
	__u8 *of;
	__u64 count[LATT_CAUSE_KINDS];
	__u64 cycles[LATT_CAUSE_KINDS];
	__u64 total_cycles;
	__u64 left;
	__u64 quiet_windows;
	__u64 quiet_ev[LATT_CAUSE_EVENTS];
	__u64 ev_cycles;
	__u64 clean_count;
	double clean_cycles[CLEAN_FIGS], clean_ns[CLEAN_FIGS];
	bool clean_supported[CLEAN_FIGS];
};

/* a cause of interference: an event, or what followed one */
static inline bool cause_interferes(int c)
{
	return c >= 0 && c <= LATT_CAUSE_AFTER;
}

struct latt_result;
const struct latt_wev *outlier_wev(const struct latt_wev *wev, size_t n,
				   size_t *at, __u32 cpu, __u64 window);
size_t cause_sources_fmt(char *buf, size_t len, __u32 sources);
size_t cause_counts_fmt(char *buf, size_t len, const struct cause_summary *cs);
size_t cause_quiet_fmt(char *buf, size_t len, const struct cause_summary *cs);
int outlier_causes(struct cause_summary *cs, const struct latt_outlier *rec,
		   const __u64 *corr, size_t n, const struct latt_wev *wev,
		   size_t nwev);
int cause_clean_tail(struct cause_summary *cs,
		     const struct latt_result *res, const __u64 *hist,
		     const struct latt_outlier *rec, const __u64 *corr,
		     size_t n, __u64 tsc_khz);

void latt_spacing_mode(__u64 *gaps, size_t n, struct latt_spacing *s);
int outlier_summarize(struct outlier_summary *s,
		      const struct latt_outlier *rec, size_t n,
		      __u64 outliers, __u64 dropped, __u64 samples);

#endif /* _LATT_OUTSTATS_H */
