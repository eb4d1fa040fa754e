/* SPDX-License-Identifier: GPL-2.0 */
/*
 * curve.h - the saturation knee of a latency-bandwidth curve (curve.c),
 * which `plot curves` marks on each curve of a sweep --curves family.
 *
 * A curve's points run from the least traffic (the longest --delay) to
 * the most (delay 0).  The knee is the last of them whose p50 is within
 * CURVE_KNEE_FACTOR times the curve's baseline, every point after it
 * being above: from the knee on, the curve is saturated, in the words of
 * Mess and MLC.  The baseline is the probe's idle p50 (sweep --curves'
 * idle_ns_p50), or, where there is none, the least p50 of the curve.  A
 * curve whose last point is still within has no knee (it never saturates
 * over the delays measured); nor has one whose every point is above (it
 * saturates at its least traffic already, or the idle run is not its
 * own).  Documentation/lattester-ctl-plot.md says why so.  No I/O: the
 * unit test links this file.
 */
#ifndef _LATT_CURVE_H
#define _LATT_CURVE_H

#include <stdbool.h>
#include <stddef.h>

/* Saturated: a p50 above this many times the baseline. */
#define CURVE_KNEE_FACTOR	2.0

enum curve_knee_kind {
	CURVE_KNEE,		/* @at is the knee */
	CURVE_NO_SATURATION,	/* every point within: no knee */
	CURVE_SATURATED,	/* every point above: no knee */
	CURVE_UNKNOWN,		/* no point with a p50, or a baseline of 0 */
};

/**
 * struct curve_knee - what curve_knee() found
 * @kind: enum curve_knee_kind
 * @at: the knee's index into the points (CURVE_KNEE), else -1
 * @base: the baseline, ns: the idle p50, or the least p50 (0: none)
 * @from_idle: @base is the idle p50
 * @limit: @base times CURVE_KNEE_FACTOR: within, a p50 not above it
 * @points: the points with a p50 (the others take no part)
 */
struct curve_knee {
	enum curve_knee_kind kind;
	long at;
	double base;
	bool from_idle;
	double limit;
	size_t points;
};

long curve_knee(const double *p50, size_t n, double idle,
		struct curve_knee *k);

#endif /* _LATT_CURVE_H */
