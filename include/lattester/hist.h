/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * hist.h - log-linear latency histogram, shared by the module (which fills
 * it) and lattester-ctl (which reads percentiles from it).
 *
 * Values below 2^SUB (SUB = LATT_HIST_SUB_BITS) have a bucket each.  Above,
 * every power of two [2^k, 2^(k+1)) is cut into 2^(SUB-1) equal buckets, so
 * a bucket is never wider than 1/2^(SUB-1) of the values in it: with SUB = 8
 * the midpoint is within 1/256 (0.39%) of any value in the bucket.  The
 * memory is fixed (LATT_HIST_BUCKETS counters) whatever the sample count,
 * and two histograms merge by adding counters.
 */
#ifndef _LATTESTER_HIST_H
#define _LATTESTER_HIST_H

#include <linux/types.h>
#include "../uapi/lattester.h"

#define LATT_HIST_EXACT		(1ULL << LATT_HIST_SUB_BITS)
#define LATT_HIST_HALF		(1ULL << (LATT_HIST_SUB_BITS - 1))

/** latt_hist_index() - the bucket that counts value @v */
static inline __u32 latt_hist_index(__u64 v)
{
	unsigned int msb, shift;

	if (v < LATT_HIST_EXACT)
		return (__u32)v;
	msb = 63 - __builtin_clzll(v);
	if (msb >= LATT_HIST_MAX_BITS)
		return LATT_HIST_BUCKETS - 1;
	shift = msb - (LATT_HIST_SUB_BITS - 1);
	return (__u32)(LATT_HIST_EXACT + (shift - 1) * LATT_HIST_HALF +
		       ((v >> shift) - LATT_HIST_HALF));
}

/** latt_hist_lo() - smallest value counted by bucket @idx */
static inline __u64 latt_hist_lo(__u32 idx)
{
	__u64 shift, mant;

	if (idx < LATT_HIST_EXACT)
		return idx;
	shift = (idx - LATT_HIST_EXACT) / LATT_HIST_HALF + 1;
	mant = (idx - LATT_HIST_EXACT) % LATT_HIST_HALF + LATT_HIST_HALF;
	return mant << shift;
}

/** latt_hist_hi() - largest value counted by bucket @idx (not the last) */
static inline __u64 latt_hist_hi(__u32 idx)
{
	if (idx + 1 >= LATT_HIST_BUCKETS)
		return ~0ULL;
	return latt_hist_lo(idx + 1) - 1;
}

/**
 * latt_hist_percentile() - value at percentile @ppm (parts per million)
 * @h: LATT_HIST_BUCKETS counters
 * @count: their sum
 * @min: the exact minimum, used to clamp the estimate
 * @max: the exact maximum, likewise
 * @ppm: the percentile, parts per million; above 10^6 counts as 10^6
 *
 * The rank is ceil(ppm * count / 10^6), at least 1 (the nearest-rank
 * definition).  The estimate is the midpoint of the bucket holding that rank,
 * clamped to [@min, @max]; exact below 2^SUB.
 *
 * Return: the estimate; 0 for an empty histogram.
 */
static inline __u64 latt_hist_percentile(const __u64 *h, __u64 count,
					 __u64 min, __u64 max, __u64 ppm)
{
	__u64 rank, seen = 0, lo, hi, mid;
	__u32 i;

	if (!count)
		return 0;
	if (ppm > 1000000)
		ppm = 1000000;
	/*
	 * ceil(ppm * count / 10^6), exact for every count: with count =
	 * q * 10^6 + r, it is ppm * q + ceil(ppm * r / 10^6), and neither
	 * product can overflow (ppm * q <= count, ppm * r < 10^12).  The
	 * plain product overflows from about 2^44 samples.
	 */
	rank = ppm * (count / 1000000) + (ppm * (count % 1000000) + 999999) / 1000000;
	if (rank == 0)
		rank = 1;
	for (i = 0; i < LATT_HIST_BUCKETS; i++) {
		seen += h[i];
		if (seen >= rank)
			break;
	}
	if (i >= LATT_HIST_BUCKETS)
		return max;
	lo = latt_hist_lo(i);
	hi = latt_hist_hi(i);
	mid = (i + 1 >= LATT_HIST_BUCKETS) ? max : lo + (hi - lo) / 2;
	if (mid < min)
		mid = min;
	if (mid > max)
		mid = max;
	return mid;
}

#endif /* _LATTESTER_HIST_H */
