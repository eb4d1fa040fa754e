// SPDX-License-Identifier: GPL-2.0
/*
 * outstats.c - see outstats.h
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lattester/hist.h>
#include "outstats.h"
#include "stats.h"

static int cmp_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * latt_spacing_mode() - the most common value of @gaps (sorted in place),
 * robust to jitter: gaps are grouped by histogram bucket, each bucket
 * counts with its two neighbours, the fullest cluster wins (the smaller
 * gaps on a tie) and its median is the answer.
 */
void latt_spacing_mode(__u64 *gaps, size_t n, struct latt_spacing *s)
{
	size_t i, lo, hi, best_lo = 0, best_hi = 0, best = 0;
	__u32 b;

	memset(s, 0, sizeof(*s));
	s->of = n;
	if (!n)
		return;
	qsort(gaps, n, sizeof(*gaps), cmp_u64);
	/*
	 * For each bucket b present, the cluster b-1..b+1 is the sorted range
	 * [lo, hi): two moving edges over the sorted gaps.
	 */
	lo = hi = 0;
	for (i = 0; i < n; i++) {
		if (i && latt_hist_index(gaps[i]) == latt_hist_index(gaps[i - 1]))
			continue;
		b = latt_hist_index(gaps[i]);
		while (latt_hist_index(gaps[lo]) + 1 < b)
			lo++;
		if (hi < i)
			hi = i;
		while (hi < n && latt_hist_index(gaps[hi]) <= b + 1)
			hi++;
		if (hi - lo > best) {
			best = hi - lo;
			best_lo = lo;
			best_hi = hi;
		}
	}
	s->count = best;
	s->value = gaps[best_lo + (best_hi - best_lo - 1) / 2];
}

/**
 * outlier_summarize() - fill @s from @n records and the result's counters
 *
 * Returns 0 or -ENOMEM.
 */
int outlier_summarize(struct outlier_summary *s,
		      const struct latt_outlier *rec, size_t n,
		      __u64 outliers, __u64 dropped, __u64 samples)
{
	__u64 *gs = NULL, *gc = NULL;
	size_t i;

	memset(s, 0, sizeof(*s));
	s->count = outliers;
	s->recorded = n;
	s->dropped = dropped;
	s->rate = samples ? (double)outliers / (double)samples : 0.0;
	for (i = 0; i < n; i++)
		if (rec[i].flags & LATT_OUT_NMI)
			s->nmi++;
	if (n < 2)
		return 0;
	gs = malloc((n - 1) * sizeof(*gs));
	gc = malloc((n - 1) * sizeof(*gc));
	if (!gs || !gc) {
		free(gs);
		free(gc);
		return -ENOMEM;
	}
	for (i = 1; i < n; i++) {
		gs[i - 1] = rec[i].sample - rec[i - 1].sample;
		gc[i - 1] = rec[i].tsc > rec[i - 1].tsc ?
			    rec[i].tsc - rec[i - 1].tsc : 0;
	}
	latt_spacing_mode(gs, n - 1, &s->samples);
	latt_spacing_mode(gc, n - 1, &s->cycles);
	free(gs);
	free(gc);
	return 0;
}

/**
 * outlier_wev() - the evidence of (@cpu, @window) in @wev (each thread's
 *	in window order, thread after thread, as the records), looked for
 *	from *@at on (set to where it was found); NULL for none
 */
const struct latt_wev *outlier_wev(const struct latt_wev *wev, size_t n,
				       size_t *at, __u32 cpu, __u64 window)
{
	size_t i;

	for (i = *at; i < n; i++)
		if (wev[i].cpu == cpu && wev[i].window == window)
			goto found;
	for (i = 0; i < *at && i < n; i++)	/* out of order: look again */
		if (wev[i].cpu == cpu && wev[i].window == window)
			goto found;
	return NULL;
found:
	*at = i;
	return &wev[i];
}

/**
 * outlier_causes() - a cause for each of @n records (cause.h's rules,
 *	window by window) and the counts by cause
 * @cs: its @of is allocated here, its @on, @sources, @why, @quiet_* are
 *	the caller's, the rest filled
 * @rec: the records, each window's together (as the engines give them)
 * @corr: their corrected cycles
 * @wev: the evidence of the windows that hold records
 * @nwev: how many (a record without its window's is unknown)
 *
 * An older module's runs (@cs->from_flags: no LATT_FEAT_WINDOWS) have no
 * @wev: a record flagged LATT_OUT_NMI has an NMI in its window, and where
 * the module counts NMIs (@cs->on) a window without is one looked at
 * with interrupts off: that is the evidence.
 *
 * Return: 0 or -ENOMEM.
 */
int outlier_causes(struct cause_summary *cs, const struct latt_outlier *rec,
		   const __u64 *corr, size_t n, const struct latt_wev *wev,
		   size_t nwev)
{
	__u32 *order = NULL;
	size_t i, j, at = 0;
	struct latt_wev kw;
	int c;

	memset(cs->count, 0, sizeof(cs->count));
	memset(cs->cycles, 0, sizeof(cs->cycles));
	cs->total_cycles = 0;
	cs->left = 0;
	free(cs->of);
	cs->of = n ? calloc(n, 1) : NULL;
	order = n ? calloc(n, sizeof(*order)) : NULL;
	if (n && (!cs->of || !order)) {
		free(order);
		return -ENOMEM;
	}
	for (i = 0; i < n; i = j) {
		const struct latt_wev *w = NULL;

		for (j = i + 1; j < n && rec[j].cpu == rec[i].cpu &&
		     rec[j].window == rec[i].window; j++)
			;
		if (!cs->from_flags) {
			w = outlier_wev(wev, nwev, &at, rec[i].cpu,
				     rec[i].window);
		} else if (cs->on) {
			memset(&kw, 0, sizeof(kw));
			kw.sources = cs->sources;
			kw.ev[LATT_CAUSE_NMI] =
				!!(rec[i].flags & LATT_OUT_NMI);
			w = &kw;
		}
		cs->left += latt_cause_assign(w, rec + i, corr + i,
					      cs->of + i, order,
					      (__u32)(j - i));
	}
	for (i = 0; i < n; i++) {
		c = cs->of[i];
		cs->count[c]++;
		cs->cycles[c] += corr[i];
		cs->total_cycles += corr[i];
	}
	free(order);
	return 0;
}

/**
 * cause_clean_tail() - the tail without interference: the run's samples
 *	less the records whose cause is an event (cause_interferes()),
 *	summarized as the run's are (latt_summarize())
 *
 * Records the buffer had no room for stay in: the figures are then an
 * upper bound (the caller says so).
 *
 * Return: 0 or -ENOMEM.
 */
int cause_clean_tail(struct cause_summary *cs,
		     const struct latt_result *res, const __u64 *hist,
		     const struct latt_outlier *rec, const __u64 *corr,
		     size_t n, __u64 tsc_khz)
{
	static const enum latt_stat figs[CLEAN_FIGS] = {
		STAT_P999, STAT_P9999, STAT_MEAN,
	};
	struct latt_result r = *res;
	struct latt_summary s;
	__u64 *h, top = 0;
	size_t i;
	int k;

	h = malloc(LATT_HIST_BUCKETS * sizeof(*h));
	if (!h)
		return -ENOMEM;
	memcpy(h, hist, LATT_HIST_BUCKETS * sizeof(*h));
	for (i = 0; i < n && cs->of; i++) {
		__u32 b = latt_hist_index(rec[i].cycles);

		if (!cause_interferes(cs->of[i]) || !h[b] || !r.count)
			continue;
		h[b]--;
		r.count--;
		r.sum -= rec[i].cycles < r.sum ? rec[i].cycles : r.sum;
		r.sum_corrected -= corr[i] < r.sum_corrected ? corr[i] :
				   r.sum_corrected;
	}
	/* the largest left: the top of the highest bucket still counted */
	for (i = LATT_HIST_BUCKETS; i-- > 0;)
		if (h[i]) {
			if (i + 1 < LATT_HIST_BUCKETS)
				top = latt_hist_hi((__u32)i);
			break;
		}
	if (top && top < r.max)
		r.max = top;
	latt_summarize(&s, &r, h, tsc_khz);
	cs->clean_count = r.count;
	for (k = 0; k < CLEAN_FIGS; k++) {
		cs->clean_cycles[k] = s.cycles[figs[k]];
		cs->clean_ns[k] = s.ns[figs[k]];
		cs->clean_supported[k] = s.supported[figs[k]];
	}
	free(h);
	return 0;
}


/** cause_sources_fmt() - "steal, nmi, switches, ..." of @sources */
size_t cause_sources_fmt(char *buf, size_t len, __u32 sources)
{
	static const char *const names[] = {
		"smi", "steal", "nmi", "switches", "interrupts", "softirqs",
		"faults", "gaps", "interrupts, switches and faults shut out",
	};
	size_t at = 0, i;

	buf[0] = '\0';
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (sources & (1U << i))
			at = buf_put(buf, len, at, "%s%s", at ? ", " : "",
				 names[i]);
	if (!at)
		at = buf_put(buf, len, at, "nothing");
	return at;
}

/** cause_counts_fmt() - "irq:timer 120 (80.1% of their time), ..." */
size_t cause_counts_fmt(char *buf, size_t len, const struct cause_summary *cs)
{
	size_t at = 0;
	int c;

	buf[0] = '\0';
	for (c = 0; c < LATT_CAUSE_KINDS; c++) {
		if (!cs->count[c])
			continue;
		at = buf_put(buf, len, at, "%s%s %llu (%.1f%% of their time)",
			 at ? ", " : "", latt_cause_name(c),
			 (unsigned long long)cs->count[c],
			 cs->total_cycles ? 100.0 * (double)cs->cycles[c] /
			 (double)cs->total_cycles : 0.0);
	}
	if (!at)
		at = buf_put(buf, len, at, "no records");
	return at;
}

/** cause_quiet_fmt() - the events of windows without an outlier record */
size_t cause_quiet_fmt(char *buf, size_t len, const struct cause_summary *cs)
{
	size_t at = 0;
	int c;

	buf[0] = '\0';
	at = buf_put(buf, len, at, "%llu windows", (unsigned long long)cs->quiet_windows);
	for (c = 0; c < LATT_CAUSE_EVENTS; c++)
		if (cs->quiet_ev[c])
			at = buf_put(buf, len, at, "%s %s %llu", at ? "," : "",
				 latt_cause_name(c),
				 (unsigned long long)cs->quiet_ev[c]);
	return at;
}
