// SPDX-License-Identifier: GPL-2.0
/*
 * outstats.c - see outstats.h
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <lattester/hist.h>
#include "outstats.h"

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
