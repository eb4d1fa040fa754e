// SPDX-License-Identifier: GPL-2.0
/*
 * curve.c - see curve.h.
 *
 * Why the last point within and not the first above: a point of light
 * traffic that was disturbed (the probe preempted, a neighbour's burst)
 * can read above the limit once, with the points after it back within;
 * taking the first point above for the start of saturation would put the
 * knee there, at a traffic the memory carries with ease.  The last point
 * within has every later point above it, so the region called saturated
 * is one where the latency stayed high, whatever a single point did
 * before it.
 */
#include <math.h>

#include "curve.h"

/* A p50 that takes part: a figure (not NAN, as an unsupported one is) */
static bool has_p50(double v)
{
	return isfinite(v) && v >= 0;
}

/**
 * curve_knee() - the saturation knee of one curve
 * @p50: the points' p50 latency (ns), from the least traffic (the longest
 *	delay) to the most; NAN for a point without one (left out)
 * @n: how many
 * @idle: the probe's idle p50 (ns); 0 or NAN: none, the least p50 is
 *	the baseline
 * @k: what was found (struct curve_knee)
 *
 * Returns the knee's index into @p50, or -1 (no knee: @k->kind says why).
 */
long curve_knee(const double *p50, size_t n, double idle,
		struct curve_knee *k)
{
	long last_within = -1, last = -1;
	size_t i;

	k->kind = CURVE_UNKNOWN;
	k->at = -1;
	k->points = 0;
	k->from_idle = isfinite(idle) && idle > 0;
	k->base = k->from_idle ? idle : 0;
	for (i = 0; i < n; i++) {
		if (!has_p50(p50[i]))
			continue;
		if (!k->from_idle && (!k->points || p50[i] < k->base))
			k->base = p50[i];
		k->points++;
	}
	k->limit = k->base * CURVE_KNEE_FACTOR;
	if (!k->points || !(k->base > 0))
		return -1;
	for (i = 0; i < n; i++) {
		if (!has_p50(p50[i]))
			continue;
		last = (long)i;
		if (p50[i] <= k->limit)
			last_within = (long)i;
	}
	if (last_within < 0) {
		k->kind = CURVE_SATURATED;
		return -1;
	}
	if (last_within == last) {
		k->kind = CURVE_NO_SATURATION;
		return -1;
	}
	k->kind = CURVE_KNEE;
	k->at = last_within;
	return k->at;
}
